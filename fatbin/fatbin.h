/* The fatbin part: reading CUDA binaries (ELF, PE) and the fatbins inside them.
 * Library code: nothing here prints or exits; every failure is a message in a ZcError. */
#ifndef ZC_FATBIN_H
#define ZC_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"

/* ---- binary files ---------------------------------------------------- */

/* BIN_RAW_FATBIN and BIN_PTX are module files: what cuModuleLoad and cuLibraryLoadFromFile
 * read from disk. */
typedef enum { BIN_ELF, BIN_PE, BIN_RAW_FATBIN, BIN_PTX } BinaryFormat;

enum {
	SEC_ALLOC = 1,  /* mapped at run time */
	SEC_WRITE = 2,
	SEC_EXEC = 4,
	SEC_NOBITS = 8, /* occupies no file bytes (.bss) */
};

typedef struct {
	char *name;
	uint64_t addr;   /* virtual address where loaded (PE: ImageBase + RVA) */
	uint64_t offset; /* file offset of the first byte */
	uint64_t size;   /* bytes present in the file */
	unsigned flags;
} Section;

typedef struct {
	char *name;
	uint64_t addr;
	uint64_t size;
} Symbol;

/* How a pointer-sized slot in the image is fixed up at load time. */
typedef enum {
	FIXUP_NONE,     /* absolute value in place (non-PIE ELF, or a PE loaded at ImageBase) */
	FIXUP_RELA,     /* value is the relocation addend; the slot itself may hold 0 (lld) */
	FIXUP_REL,      /* value in place, relocation without addend (32-bit ELF) */
	FIXUP_RELR,     /* value in place, slot listed in DT_RELR */
	FIXUP_PE_BASE,  /* value in place, slot covered by a PE base relocation */
} FixupKind;

typedef struct {
	uint64_t addr; /* address of the pointer slot */
	uint64_t addend;
	FixupKind kind;
} Fixup;

typedef struct {
	BinaryFormat format;
	const char *path;
	const uint8_t *bytes;
	uint64_t size;      /* a converted module file: only its original bytes */
	uint64_t file_size; /* the whole file, its appended AOT image included */
	int pointer_size; /* 4 or 8 */
	const char *machine; /* "x86-64", "i386", ... for the report */
	Section *sections;
	size_t nsections;
	Symbol *symbols;
	size_t nsymbols;
	Fixup *fixups; /* sorted by addr */
	size_t nfixups;
	char **imports; /* PE: the DLLs its import directory names, in its order */
	size_t nimports;
	bool owns_mapping;
	bool writable;   /* bytes are a private copy-on-write mapping */
	char *elf_copy;  /* libelf's private copy when they are not */
} Binary;

/* Maps `path` read-only and reads its headers. An unknown format is an error. */
bool binary_open(Binary *bin, const char *path, ZcError *err);
/* Same, on bytes already in memory (fuzzing, tests); `bytes` must outlive `bin`. */
bool binary_from_memory(Binary *bin, const char *name, const uint8_t *bytes, uint64_t size,
                        ZcError *err);
void binary_close(Binary *bin);

bool elf_read(Binary *bin, ZcError *err);
bool pe_read(Binary *bin, ZcError *err);

/* Helpers for the format readers. */
uint64_t read_le(const uint8_t *p, int nbytes);
bool range_in_file(const Binary *bin, uint64_t offset, uint64_t len);
void binary_add_fixup(Binary *bin, size_t *cap, uint64_t addr, uint64_t addend, FixupKind kind);
void binary_sort_fixups(Binary *bin);

const Section *binary_section_at(const Binary *bin, uint64_t addr);
const Section *binary_section_named(const Binary *bin, const char *name);
/* The value a pointer slot at `addr` holds once the loader has run (at the preferred base). */
bool binary_read_pointer(const Binary *bin, uint64_t addr, uint64_t *value, FixupKind *kind,
                         ZcError *err);
/* File offset of `addr`, if those `len` bytes are backed by the file. */
bool binary_addr_to_offset(const Binary *bin, uint64_t addr, uint64_t len, uint64_t *offset);

/* ---- fatbin containers ------------------------------------------------- */

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_HEADER_SIZE 16
#define FATBIN_ENTRY_MIN_HEADER 64
#define WRAPPER_MAGIC 0x466243B1u

/* Decompressed payloads are refused above this, or above this ratio to the compressed size. */
#define DECOMPRESS_LIMIT (1ull << 30)
#define DECOMPRESS_MAX_RATIO 256

typedef enum {
	ENTRY_PTX = 1,
	ENTRY_CUBIN = 2,
	ENTRY_LTOIR = 8,
} EntryKind;

enum {
	ENTRY_FLAG_64BIT = 0x1,
	ENTRY_FLAG_DEBUG = 0x2,
	ENTRY_FLAG_HOST_LINUX = 0x10,
	ENTRY_FLAG_HOST_WINDOWS = 0x40,
	ENTRY_FLAG_LZ4 = 0x2000,
	ENTRY_FLAG_ZSTD = 0x8000,
	ENTRY_FLAG_OBFUSCATED = 0x10000,
	ENTRY_FLAG_ARCH_SPECIFIC = 0x100000,
	ENTRY_FLAG_FAMILY_SPECIFIC = 0x200000,
};

typedef enum { COMPRESSION_NONE, COMPRESSION_LZ4, COMPRESSION_ZSTD } Compression;

typedef struct {
	uint64_t offset;      /* file offset of the entry header */
	uint16_t kind;
	uint32_t header_size;
	uint64_t payload_offset; /* file offset */
	uint64_t payload_size;   /* padded to 8 */
	uint32_t compressed_size;
	uint64_t uncompressed_size; /* as claimed by the header; 0 when not compressed */
	uint16_t version_major, version_minor; /* PTX ISA version, or cubin ELF ABI version */
	uint32_t sm;
	uint64_t flags;
	Compression compression;
	char arch[24];       /* "sm_90a" */
	char *identifier;    /* NULL when absent */
	char *options;       /* NULL when absent or binary */
	uint64_t data_size;  /* size of the contents: uncompressed size, or payload without padding */
} Entry;

typedef enum {
	ORIGIN_FATBIN_SECTION,    /* .nv_fatbin / .nv_fatb */
	ORIGIN_RELFATBIN_SECTION, /* __nv_relfatbin */
	ORIGIN_SCAN,              /* found by magic in other read-only data */
	ORIGIN_WHOLE_FILE,        /* the input is a bare fatbin file */
} ContainerOrigin;

typedef struct {
	uint64_t offset; /* file offset of the outer header */
	uint64_t addr;   /* virtual address, 0 for a bare fatbin */
	uint64_t size;   /* header + fat_size */
	const Section *section;
	ContainerOrigin origin;
	Entry *entries;
	size_t nentries;
	size_t nskipped; /* entries of a kind nothing here reads (kept in the listing) */
	int wrapper;     /* index into FatbinSet.wrappers of the first wrapper pointing here, or -1 */
} Container;

typedef struct {
	uint64_t addr;   /* address of the wrapper itself */
	uint64_t offset;
	uint32_t version; /* 1, or 2 for a device-link wrapper */
	uint64_t data;    /* resolved pointer to the container */
	FixupKind data_fixup;
	uint64_t prelinked; /* v2: resolved filename_or_fatbins pointer */
	int container;   /* index into FatbinSet.containers, or -1 when `data` points elsewhere */
	char *symbol;    /* __fatbinwrap_<id> etc., when the symbol table names it */
	bool rdc_member; /* registered through __cudaRegisterLinkedBinary */
} Wrapper;

typedef struct {
	Container *containers;
	size_t ncontainers;
	Wrapper *wrappers;
	size_t nwrappers;
	char **module_ids; /* `def <id>` strings of __nv_module_id: the RDC link members */
	size_t nmodule_ids;
	char **notes; /* things skipped, worth telling a user who asks (-v) */
	size_t nnotes;
} FatbinSet;

/* Parses one container whose outer header is at file offset `offset` within [offset, limit). */
bool container_parse(const Binary *bin, uint64_t offset, uint64_t limit, Container *c, ZcError *err);
/* True if a plausible container header is at `offset` (used by the scan of unknown data). */
bool container_looks_valid(const Binary *bin, uint64_t offset, uint64_t limit);
void container_free(Container *c);

/* Finds every container and wrapper in the binary. */
bool fatbin_discover(const Binary *bin, FatbinSet *set, ZcError *err);
void fatbin_set_free(FatbinSet *set);

/* Returns the entry's contents (decompressed), malloc'd, in *out / *out_size. PTX gets a NUL. */
bool entry_contents(const Binary *bin, const Entry *e, uint8_t **out, uint64_t *out_size,
                    ZcError *err);
bool decompress_lz4(const uint8_t *src, uint64_t src_size, uint8_t *dst, uint64_t dst_size,
                    ZcError *err);
bool decompress_zstd(const uint8_t *src, uint64_t src_size, uint8_t *dst, uint64_t dst_size,
                     ZcError *err);

/* Names of the `.entry` kernels of a PTX text (light scan); returns the count, *names malloc'd. */
size_t ptx_entry_names(const char *text, size_t len, char ***names);

const char *entry_kind_name(uint16_t kind);
const char *compression_name(Compression c);
const char *fixup_kind_name(FixupKind k);
const char *container_origin_name(ContainerOrigin o);

#endif
