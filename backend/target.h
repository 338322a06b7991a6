/* The target table: one row per --offload-arch name. A backend is only its rows; the
 * steps that turn a module into a code object (codegen.c, link.c) are written once. */
#ifndef ZC_TARGET_H
#define ZC_TARGET_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
	ZC_CODE_OBJECT_AMDHSA, /* AMDGPU HSA code object: an ELF shared object for the GPU */
	ZC_CODE_OBJECT_HOST,   /* x86-64 shared object or DLL run by the CPU driver (host_abi.h) */
} ZcCodeObjectKind;

/* How code objects are linked: ld.lld into an ELF shared object, or lld-link into a
 * Windows DLL (which exports its default-visibility definitions, dllexport). */
typedef enum {
	ZC_OBJECT_ELF,
	ZC_OBJECT_COFF,
} ZcObjectFormat;

/* Bytes embedded in the program by the build: builtins bitcode, an import library. */
typedef struct ZcBitcode {
	const unsigned char *bytes;
	size_t size;
} ZcBitcode;

typedef struct ZcTarget {
	const char *name;      /* the --offload-arch name: "gfx1100", "gfx11-generic", "host" */
	const char *triple;
	const char *cpu;
	const char *features;  /* LLVM target features, comma-separated, "" for none */
	ZcCodeObjectKind kind;
	unsigned code_object_version; /* amdhsa_code_object_version module flag (500, 600); 0: none */
	bool is_default;       /* converted for when no --offload-arch is given */
	const ZcBitcode *builtins; /* the builtins (builtins.h) built for exactly this target */
	const char *const *link_flags; /* linker arguments before the input, NULL-terminated */
	bool matrix_instructions; /* WMMA (RDNA3, RDNA4): wmma's m16n16k16 forms use it (matrix.h) */
	ZcObjectFormat format;
	const ZcBitcode *import_library; /* COFF: linked after the object; NULL for none */
} ZcTarget;

/* The rows of each backend (amdgpu_backend/target.c, host_backend/target.c). */
extern const ZcTarget zc_amdgpu_targets[];
extern const size_t zc_amdgpu_target_count;
extern const ZcTarget zc_host_target;          /* "host": Linux, for libcuda.so.1 */
extern const ZcTarget zc_host_windows_target;  /* "x86_64-windows": for nvcuda.dll */

/* The whole table, AMDGPU rows first, then the host rows. */
size_t zc_target_count(void);
const ZcTarget *zc_target_at(size_t i);
/* NULL when no target has this name. */
const ZcTarget *zc_target_find(const char *name);
/* Writes every valid name, comma-separated, into buf (for error messages); truncates
 * to size - 1 characters. */
void zc_target_names(char *buf, size_t size);

#endif
