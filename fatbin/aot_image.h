/* The AOT image: the code objects the converter made, with what the runtime stub needs to load
 * and launch them, indexed by content hashes of the fatbins and PTX texts they came from.
 * docs/aot-image.md describes the bytes. The reader half (aot_image_read.c, aot_locate.c)
 * needs only libc, libxxhash and libzstd: it is linked into the runtime stub. */
#ifndef ZC_AOT_IMAGE_H
#define ZC_AOT_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fatbin.h" /* ZcError and zc_fail only; both live in error.c */

#define AOT_MAGIC "ZLUDAAOT"
#define AOT_VERSION 1u
#define AOT_HEADER_SIZE 184u
#define AOT_BLOB_ALIGN 64u

/* fopen's mode for the files the reader and the runtime stub read: binary on Windows, where
 * the stub is built too; on Linux "e" keeps the descriptor from programs the process starts
 * meanwhile. */
#ifdef _WIN32
#define ZC_FOPEN_READ "rb"
#else
#define ZC_FOPEN_READ "rbe"
#endif

/* Record sizes of version 1. */
enum {
	AOT_MODULE_RECORD = 40,
	AOT_CODE_OBJECT_RECORD = 48,
	AOT_KERNEL_RECORD = 48,
	AOT_PARAM_RECORD = 12,
	AOT_GLOBAL_RECORD = 16,
	AOT_KEY_RECORD = 16,
	AOT_UNTRANSLATED_RECORD = 16,
};

typedef enum { AOT_KEY_FATBIN = 1, AOT_KEY_PTX = 2 } AotKeyKind;

/* Header flags. FOR_HOST: converted for the CPU (--offload-arch named host), so that a
 * process whose only GPU code is in module files still gets the CPU driver. */
enum { AOT_IMAGE_FOR_HOST = 1 };
typedef enum { AOT_STORED = 0, AOT_ZSTD = 1 } AotBlobCompression;
typedef enum { AOT_SPACE_GLOBAL = 1, AOT_SPACE_CONST = 2 } AotStateSpace;

enum {
	AOT_KERNEL_DYNAMIC_SHARED = 1, /* declares an `.extern .shared` array */
	AOT_KERNEL_REQNTID = 2,
	AOT_KERNEL_MAXNTID = 4,
};

/* The one hash of the format: XXH3-64, seed 0. A fatbin's key hashes its container (outer
 * header and fat_size bytes after it); a PTX text's key hashes its bytes before the first NUL. */
uint64_t aot_hash(const void *bytes, size_t size);
uint64_t aot_hash_ptx(const char *text);

/* ---- writing (converter) ----------------------------------------------- */

typedef struct {
	uint32_t offset, size, align;
} AotParam;

typedef struct {
	const char *name; /* mangled, as in the PTX `.entry` */
	const AotParam *params;
	uint32_t nparams;
	uint32_t static_shared; /* bytes of `.shared` the kernel declares with a size */
	bool dynamic_shared;
	bool has_reqntid, has_maxntid;
	uint32_t reqntid[3], maxntid[3];
} AotKernelInfo;

typedef struct AotBuilder AotBuilder;

AotBuilder *aot_builder_new(void);
void aot_builder_free(AotBuilder *b);
/* Modules are numbered in the order they are added; `name` labels it in reports. */
uint32_t aot_add_module(AotBuilder *b, const char *name);
/* The arch of the PTX the module's code was translated from (75 for sm_75), which the
 * driver reports as its kernels' PTX version; 0 (the default) when unknown. */
void aot_set_module_ptx_arch(AotBuilder *b, uint32_t module, uint32_t sm);
void aot_add_key(AotBuilder *b, uint32_t module, AotKeyKind kind, uint64_t hash);
/* The bytes are copied. With `compress`, they are stored zstd-compressed when that is smaller. */
void aot_add_code_object(AotBuilder *b, uint32_t module, const char *target, const uint8_t *bytes,
                         size_t size, bool compress);
void aot_add_kernel(AotBuilder *b, uint32_t module, const AotKernelInfo *k);
void aot_add_global(AotBuilder *b, uint32_t module, const char *name, uint64_t size,
                    AotStateSpace space);
/* `target` NULL or "" means every target; `what` NULL or "" means the whole module. */
void aot_add_untranslated(AotBuilder *b, uint32_t module, const char *target, const char *what,
                          const char *reason);
/* What made the image (the converter's aot_conversion_key); 0 (the default) when unknown. */
void aot_set_conversion_key(AotBuilder *b, uint64_t key);
/* The header flags (AOT_IMAGE_*); 0 by default. */
void aot_set_flags(AotBuilder *b, uint32_t flags);
/* The image bytes, malloc'd. The same additions, in any order between modules, give the same
 * bytes. Fails on an inconsistent description (a duplicate kernel, a bad module index). */
bool aot_builder_serialize(AotBuilder *b, uint8_t **out, size_t *out_size, ZcError *err);

/* ---- reading (converter and runtime stub) -------------------------------- */

typedef struct {
	uint64_t offset;
	uint32_t count;
} AotTable;

/* A parsed image: views into the caller's bytes, which must outlive it. Every offset and count
 * was validated by aot_image_parse, so the accessors below only index. */
typedef struct {
	const uint8_t *bytes;
	uint64_t size;
	AotTable modules, code_objects, kernels, params, globals, keys, untranslated;
	uint64_t strings, strings_size;
	uint64_t blobs, blobs_size;
	uint64_t conversion_key; /* 0: unknown */
	uint32_t flags;          /* AOT_IMAGE_* */
} AotImage;

typedef struct {
	const char *name;
	uint32_t first_code_object, ncode_objects;
	uint32_t first_kernel, nkernels;
	uint32_t first_global, nglobals;
	uint32_t first_untranslated, nuntranslated;
	uint32_t ptx_arch; /* 0: unknown */
} AotModule;

typedef struct {
	uint32_t module;
	const char *target;
	AotBlobCompression compression;
	const uint8_t *stored; /* the bytes as stored (compressed or not) */
	uint64_t stored_size;
	uint64_t size;         /* the code object's own size */
	uint64_t hash;         /* aot_hash of the code object's own bytes */
} AotCodeObject;

typedef struct {
	const char *name;
	uint32_t first_param, nparams;
	uint32_t param_size;
	uint32_t static_shared;
	uint32_t flags; /* AOT_KERNEL_* */
	uint32_t reqntid[3], maxntid[3];
} AotKernel;

typedef struct {
	const char *name;
	AotStateSpace space;
	uint64_t size;
} AotGlobal;

typedef struct {
	uint32_t module;
	const char *target, *what, *reason;
} AotUntranslated;

bool aot_image_parse(AotImage *img, const uint8_t *bytes, uint64_t size, ZcError *err);

/* Index lookups: no allocation, O(log n). False when the image has no such entry. */
bool aot_find_module(const AotImage *img, AotKeyKind kind, uint64_t hash, uint32_t *module);
bool aot_find_code_object(const AotImage *img, uint32_t module, const char *target,
                          AotCodeObject *co);
bool aot_find_kernel(const AotImage *img, uint32_t module, const char *name, AotKernel *k,
                     uint32_t *index);
bool aot_find_global(const AotImage *img, uint32_t module, const char *name, AotGlobal *g);

/* Indexed access; the index must be below the table's count. */
AotModule aot_module(const AotImage *img, uint32_t i);
AotCodeObject aot_code_object(const AotImage *img, uint32_t i);
AotKernel aot_kernel(const AotImage *img, uint32_t i);
AotParam aot_param(const AotImage *img, uint32_t i);
AotGlobal aot_global(const AotImage *img, uint32_t i);
AotUntranslated aot_untranslated(const AotImage *img, uint32_t i);
void aot_key(const AotImage *img, uint32_t i, AotKeyKind *kind, uint64_t *hash, uint32_t *module);

/* The code object's own bytes into `dst` (co->size bytes), decompressing when stored so, and
 * checked against its hash. */
bool aot_code_object_read(const AotCodeObject *co, uint8_t *dst, ZcError *err);

/* ---- finding the image in a converted binary (aot_locate.c) ----------- */

/* File offset and size of the image in an ELF (section .zluda_aot), PE (trailer) or module
 * file (trailer). *found is false, and the call succeeds, for a well-formed file without an
 * image. */
bool aot_image_locate(const char *path, bool *found, uint64_t *offset, uint64_t *size,
                      ZcError *err);
/* The same for a file already open for reading (the runtime stub opens its UTF-8 paths
 * itself); the file stays open. */
bool aot_image_locate_file(FILE *file, bool *found, uint64_t *offset, uint64_t *size,
                           ZcError *err);
bool aot_image_locate_in_memory(const uint8_t *bytes, uint64_t file_size, bool *found,
                                uint64_t *offset, uint64_t *size, ZcError *err);

#endif
