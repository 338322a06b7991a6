/* The convert command's parts: which loadable units a binary has, compiling them for every
 * target (in parallel, deterministically), and the report. */
#ifndef ZC_CONVERT_H
#define ZC_CONVERT_H

#include <pthread.h>

#include "backend.h"
#include "cli.h"
#include "ptx.h"
#include "target.h"

#define MAX_TARGETS 32

/* A member's module-local variable that another member of the unit also defines. */
typedef struct {
	const char *name; /* in the member's tree */
	size_t member;
} RenamedVar;

/* What names a module's code object for a target in the cache of compiled modules. */
typedef struct {
	uint64_t low, high;
} ModuleKey;

/* How far the unit's AMDGPU targets are in sharing one middle end (convert_compile.c). */
typedef enum {
	SHARING_UNDECIDED, /* its lead target's job has not decided */
	SHARING_DECIDED,   /* u->shares says which targets take the lead's optimised module */
} Sharing;

/* One loadable unit: a fatbin's PTX, or the PTX of every member of an RDC link. */
typedef struct {
	char name[64];         /* "fatbin 3", "rdc link" */
	int container;         /* the container whose hash keys the unit */
	size_t *members;       /* containers whose PTX it is made of */
	size_t nmembers;
	const Entry **ptx;     /* the PTX entry chosen from each member */
	char **texts;          /* their decompressed text; freed once every target has it
	                        * compiled, unless --dump=ptx prints it */
	uint64_t *ptx_hashes;  /* aot_hash_ptx of each text: the image's keys */
	/* the members' trees, shared by the unit's jobs (convert_compile.c's unit_trees) */
	pthread_mutex_t lock;
	struct ptx_module **asts;
	char *parse_error;
	bool reserved_smem;      /* a member reads %reserved_smem_offset_* */
	enum ptx_subnormals f32_subnormals; /* the largest of its members' */
	uint32_t ptx_arch;       /* the newest `.target sm_NN` of its members: NN */
	RenamedVar *renamed;     /* sorted by name, then member (convert_compile.c) */
	size_t nrenamed;
	size_t jobs_done;
	char *skip_reason;     /* not translated at all: no PTX, ... */
	bool sass_only;        /* skipped because its fatbin has no PTX */
	bool undecodable;      /* skipped because its PTX does not decode: a damaged input */
	/* per target, filled by the compile jobs */
	ZcBytes code[MAX_TARGETS];
	char *error[MAX_TARGETS];
	char *dump[MAX_TARGETS];   /* --dump=ll|ll-opt|asm: the text of that stage */
	/* why each kernel (by index in `kernels`) is not in the target's code object; NULL
	 * arrays where every kernel is in it */
	char **left_out[MAX_TARGETS];
	/* why the target's code was generated again without LLVM's optimising code generator
	 * (its first failure); NULL where it was not */
	char *unoptimized[MAX_TARGETS];
	bool cached[MAX_TARGETS];  /* the code object came from the cache of compiled modules */
	/* the middle end its AMDGPU targets share: the lead target's job lowers and optimises,
	 * then hands the module (as bitcode) to the targets of `shares` */
	Sharing sharing;
	bool shares[MAX_TARGETS];
	bool shared[MAX_TARGETS];    /* the code was generated from the lead's module */
	ZcBytes *shared_modules;     /* the lead's module, or its parts (below) */
	uint32_t nshared_modules;
	size_t shared_readers;       /* targets yet to read it; the last frees it */
	/* how many parts the target's code object was compiled in (backend/split.c), for
	 * large modules; 1 (or 0, when it was not compiled) for the others */
	uint32_t parts[MAX_TARGETS];
	ModuleKey key[MAX_TARGETS];  /* in the cache, for the targets that share */
	/* the arch of the older PTX entry each kernel's code came from; NULL: the chosen one */
	const char **older_ptx[MAX_TARGETS];
	struct ptx_kernel_info *kernels; /* from the first target that lowered */
	uint32_t nkernels;
	char **globals;                  /* module .global/.const variables */
	uint64_t *global_sizes;
	bool *global_const;
	size_t nglobals;
} Unit;

typedef struct {
	const char *in, *out;
	const ZcTarget *targets[MAX_TARGETS];
	size_t ntargets;
	int jobs;
	bool strict;
	bool no_line_info;        /* drop the PTX's .loc lines instead of keeping line tables */
	bool portable_matrix;     /* wmma by the portable lowering on every processor */
	bool replace_driver;      /* replace a driver file beside the output that is not ours */
	bool driver_elsewhere;    /* place no driver beside the output: the program's serves it
	                           * (a library converted into nvidia/ beside the program) */
	const char *report;
	const char *save_temps;
	const char *dump;         /* NULL, "ptx", "ll", "ll-opt" or "asm" */
	bool with_libraries;      /* also convert the libraries the input loads */
	const char *library_patterns; /* only those matching one of these (comma-separated) */
	int unit_detail;          /* the verbosity from which each module gets its own line */
	bool no_cache;            /* --no-cache */
	const char *cache_root;   /* --cache-dir, or the one module_cache_choose found */
	const char *cache;        /* the folder of compiled modules; NULL: compile everything */
} ConvertOptions;

/* What convert_file did, for the lines convert_libraries prints. */
typedef struct {
	size_t modules, kernels; /* translated for some target */
	size_t sass_only;        /* fatbins without PTX */
	size_t failures;         /* translation failures and modules whose PTX does not decode */
} ConvertSummary;

/* convert.c */
/* The output's directory, "." for a bare name; the caller frees it. */
char *output_directory(const char *out);
void convert_file(const ConvertOptions *o, ConvertSummary *summary);
/* The --report file opened, its object begun with the tool, the input and the output; and
 * that object ended and the file closed. */
FILE *report_begin(const ConvertOptions *o, Json *j);
void report_end(const ConvertOptions *o, FILE *f, Json *j);

/* convert_tree.c: o->in is a directory, converted into the new directory o->out; the exit
 * status. */
int convert_tree(const ConvertOptions *o);
/* Why --strict writes nothing for a conversion that summary describes; NULL when it may:
 * translation failures, damaged PTX, or fatbins with SASS only all cost kernels. */
const char *strict_refusal(const ConvertSummary *summary, char *buf, size_t size);
/* What a converted file records of how it was made (the AOT header's conversion key):
 * the input's bytes, this converter and LLVM, the targets and the options that shape the
 * code. Never 0. */
uint64_t conversion_key(const uint8_t *bytes, uint64_t size, const ConvertOptions *o);

/* XXH3-64 of the converter's own executable: any rebuild of it may make other code. */
uint64_t converter_hash(void);

/* convert_cache.c: the cache of compiled modules. */
/* Sets o->cache (and o->cache_root) unless --no-cache: --cache-dir's folder, which must be
 * usable, else ZLUDA_CONVERT_CACHE_DIR's, else the user's cache directory; the cache is off,
 * with a warning, where neither of those two can be made. */
void module_cache_choose(ConvertOptions *o);
/* A lowered module's bitcode, which module_cache_key hashes. */
ZcBytes module_bitcode(LLVMModuleRef m);
/* What a lowered module (its bitcode) compiles to for target: its key. */
ModuleKey module_cache_key(const ZcBytes *bitcode, const ZcTarget *target);
/* The entry's code object into *code; false when there is none or it is damaged. */
bool module_cache_get(const char *cache, const ModuleKey *key, const ZcTarget *target, ZcBytes *code);
void module_cache_put(const char *cache, const ModuleKey *key, const ZcTarget *target,
                      const ZcBytes *code);
/* The least recently used entries removed while they take more than ZLUDA_CONVERT_CACHE_MAX. */
void module_cache_trim(const char *cache);

/* Copies FROM to TO through a temporary file renamed into place; false (errno set) when it
 * could not. */
bool copy_file(const char *from, const char *to);

/* convert_libraries.c: converts the libraries the program o->in loads that carry fatbins,
 * beside o->out; false when one of them failed. */
bool convert_libraries(const ConvertOptions *o);
/* Places the project's replacement of each NVIDIA library the program o->in loads that has
 * one (cuBLAS), converted for o's targets, beside o->out, unless --with-libraries names
 * NVIDIA's; false when one failed. */
bool provide_libraries(const ConvertOptions *o);

/* A library the project replaces (convert_libraries.c): the stem of its Linux names (the
 * version follows); its Windows name, whole when it ends in .dll, else a stem the version
 * and .dll follow (NULL where the project has no DLL); why; whether the replacement
 * carries kernels to translate for the program's targets (else it is copied); and whether it
 * fronts NVIDIA's: when --with-libraries names the library, the project's stays in its place
 * and NVIDIA's, converted, goes into nvidia/ beside it, to be offered each piece of work
 * first (cuFFT's plans), where otherwise NVIDIA's converted takes the project's place. */
typedef struct {
	const char *stem, *dll_stem, *why;
	bool kernels, fronts_nvidia;
} Replacement;
/* The project's replacement of the DLL a Windows program imports as NAME (any case), its
 * file name written into CANONICAL; NULL when the project replaces no DLL of that name. */
const Replacement *replaced_dll(const char *name, char *canonical, size_t size);

/* A unit member of a PTX file rather than of a fatbin. */
#define MEMBER_PTX_FILE SIZE_MAX

typedef struct {
	char text[48];
} MemberName;

/* convert_units.c */
void units_find(const Input *in, Unit **units, size_t *nunits);
/* "PTX of fatbin 3", "the PTX file": what messages call member m. */
MemberName unit_member_name(const Unit *u, size_t m);
void units_free(Unit *units, size_t nunits);

/* Entry a is newer PTX than b: the newer arch, then the newer ISA (design decision 12). */
bool entry_newer(const Entry *a, const Entry *b);

/* convert_fallback.c: kernels left out of the unit's code (reasons[k] set) that an older
 * PTX entry of its container translates are linked in from it; their reasons become NULL
 * and from[k] that entry's arch. */
void fallback_to_older_ptx(const Input *in, const Unit *u, const struct ptx_target *hooks,
                           struct ptx_lower_options *options, LLVMContextRef ctx,
                           LLVMModuleRef linked, const char *const *kernels, char **reasons,
                           const char **from, uint32_t nkernels);

/* convert_compile.c */
void units_compile(const Input *in, Unit *units, size_t nunits, const ConvertOptions *o);
/* Kernels of unit u left out for target t. */
uint32_t unit_left_out(const Unit *u, size_t t);

#endif
