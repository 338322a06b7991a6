/* The backend: an LLVM module in, one code object per target out.
 *
 * What the module must look like (the frontend's side of the contract):
 * - Target-neutral: no triple or data layout is needed (codegen sets the target's).
 * - Kernels are void functions with the string attribute "zc-kernel". Optional "zc-maxntid"
 *   and "zc-reqntid" = "x,y,z" (PTX's directives, missing dimensions 1) bound the block
 *   size; without them a kernel accepts CUDA's 1024 threads.
 * - Kernel parameters are the PTX .param list in order: scalars and pointers by value,
 *   aggregates as `ptr addrspace(4) byref(T) align A`. Each lies at the next offset
 *   aligned to its `align` (byref) or its ABI alignment: the PTX layout.
 * - Address spaces use the AMDGPU numbers: 1 global, 3 shared, 4 constant, 5 private
 *   (allocas; 0 on host, whose data layout says so), 0 generic. The host backend treats
 *   1, 3 and 4 pointers as plain pointers and makes static shared variables (defined
 *   addrspace(3) globals) thread-local (host_abi.h). Extern .shared arrays are addressed
 *   through __zc_dynamic_smem(), never as external addrspace(3) globals.
 * - Target-specific work is done by calls to the builtins of builtins.h, declared with
 *   the C types given there.
 * - AMDGPU functions without "denormal-fp-math-f32" get the mode of ZcCodegenOptions
 *   (the mode is per kernel in hardware; x86-64 has no per-function mode, so host code
 *   keeps IEEE denormals).
 *
 * Shared variables are the globals in address space ZC_SHARED_ADDRSPACE.
 *
 * Threads: every call takes the LLVM context of its module; modules in different
 * contexts may be compiled on different threads at once.
 */
#ifndef ZC_BACKEND_H
#define ZC_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "target.h"

#define ZC_SHARED_ADDRSPACE 3

/* Bytes owned by the caller: free(data). */
typedef struct ZcBytes {
	unsigned char *data;
	size_t size;
} ZcBytes;

typedef struct ZcCodegenOptions {
	bool flush_f32_denormals; /* for functions without their own denormal-fp-math-f32 */
	/* Code generation at LLVM's -O0 (the IR is still optimised): the way around a code
	 * generator bug that only its optimising passes hit. */
	bool unoptimized_codegen;
	/* A part of a module compiled in parts (split.c), not the first: what a code object
	 * holds once (the host ABI version) is the first part's. */
	bool later_part;
} ZcCodegenOptions;

/* Registers the LLVM targets; safe to call more than once and from several threads. */
void zc_backend_init(void);

/* On failure these return -1 and set *error to a malloc'd one-line message. An error
 * diagnostic of LLVM's is such a failure. ZC_LLVM_LOST: LLVM itself failed (a fatal error,
 * as a code generator bug gives); the module, its context and the target machine are then
 * in no known state and must be leaked, not disposed of. */
#define ZC_LLVM_LOST (-2)

LLVMTargetMachineRef zc_target_machine(const ZcTarget *target, const ZcCodegenOptions *options,
                                       char **error);

/* Prepares the module for the target (data layout, builtins, kernel attributes or host
 * entry points, code object version) and runs default<O3>: the module is then what
 * --dump=ll-opt shows. */
int zc_codegen_optimize(LLVMModuleRef module, LLVMTargetMachineRef machine, const ZcTarget *target,
                        const ZcCodegenOptions *options, char **error);

/* Emits an optimised module as an object file (LLVMObjectFile) or assembly. */
int zc_codegen_emit(LLVMModuleRef module, LLVMTargetMachineRef machine, LLVMCodeGenFileType type,
                    ZcBytes *out, char **error);

/* Links object files (several: the parts of one module) into the target's code object with
 * lld. An AMDGPU code object then has one metadata note, all parts' kernels in it. */
int zc_link(const ZcTarget *target, const ZcBytes *objects, size_t nobjects, ZcBytes *code_object,
            char **error);

/* All three steps: module (changed in place) to code object. */
int zc_compile(LLVMModuleRef module, const ZcTarget *target, const ZcCodegenOptions *options,
               ZcBytes *code_object, char **error);

/* Code generation and the link: zc_compile's last two steps, for a module that
 * zc_codegen_optimize prepared for this target, or for another and then zc_retarget. */
int zc_generate(LLVMModuleRef optimized, const ZcTarget *target, const ZcCodegenOptions *options,
                ZcBytes *code_object, char **error);

/* share.c: one middle end for several AMDGPU processors. Whether a module lowered for
 * `lead` may be optimised for lead and then generated for `other` (zc_retarget): the two
 * are AMDGPU processors of one code object version, and every builtin the module calls is
 * the same code for both. */
bool zc_shares_middle_end(LLVMModuleRef lowered, const ZcTarget *lead, const ZcTarget *other);
/* The optimised module's builtins (the functions that name a processor) as other's. */
void zc_retarget(LLVMModuleRef optimized, const ZcTarget *other);

/* split.c: a large module compiled in parts on several cores. The part of each of the
 * lowered module's kernels (part_of, in the order of `kernels`), and how many parts: 1 when
 * the module is too small, or cannot be split, and is compiled whole. A part holds about
 * part_instructions lowered instructions (0: the default, 100,000). */
uint32_t zc_plan_parts(LLVMModuleRef lowered, const char *const *kernels, uint32_t nkernels,
                       size_t part_instructions, uint32_t *part_of);
/* Makes a module lowered with only the kernels of one part (the others declared) that
 * part: the others' kernels gone; unless it is the first part, its functions private to it
 * and the module's variables (not shared ones) the first part's. Each part is then
 * optimised (zc_codegen_optimize) and emitted (zc_codegen_emit) on its own, and their
 * objects linked into one code object (zc_link). */
void zc_make_part(LLVMModuleRef part, bool first);

/* notes.c: after linking several parts into an AMDGPU code object, its metadata notes (one
 * per part) become one. */
int zc_merge_metadata_notes(ZcBytes *code_object, char **error);

/* host_entry.c: the exported entry point of a host kernel (abi/host_abi.h), which
 * becomes an internal function. */
/* A kernel entry's thread coordinates (tid, ntid, ctaid, nctaid; x, y, z each) and its
 * block's shared memory (its base, the dynamic part's), which zc_bind_entry_values gives
 * the code inlined into it instead of the builtins' calls. */
enum { ZC_COORDINATES = 12, ZC_ENTRY_VALUES = ZC_COORDINATES + 2 };
typedef struct {
	LLVMValueRef entry;
	LLVMValueRef values[ZC_ENTRY_VALUES];
	/* An x86-64-v3 block entry's stores of each thread's tid, which zc_bind_entry_values
	 * removes where nothing the entry calls reads the thread (abi/host_abi.h); else NULL. */
	LLVMValueRef tid_stores[3];
} ZcHostEntry;
typedef struct {
	ZcHostEntry *items;
	size_t count, capacity;
} ZcHostEntries;
int zc_make_host_entry(LLVMModuleRef module, LLVMValueRef kernel, ZcHostEntries *entries, char **error);
/* Gives the entry `to` what the entry `from` tells LLVM of its .param buffer. */
void zc_copy_param_buffer_facts(LLVMValueRef from, LLVMValueRef to);
/* After the kernel bodies are inlined into their entries (the always-inline pass). */
void zc_bind_entry_values(LLVMModuleRef module, ZcHostEntries *entries);
/* The mark of a thread entry, for host_rounds.c. */
#define ZC_THREAD_ENTRY_ATTRIBUTE "zc-thread-entry"
/* Whether a function can reach the driver's operations (calls through the block's table),
 * or reaches so many functions that it is taken to. */
bool zc_reaches_driver(LLVMValueRef function);
/* The address of the ZcHostThread field at `offset` of `thread`. */
LLVMValueRef zc_thread_field(LLVMBuilderRef b, LLVMContextRef context, LLVMValueRef thread, size_t offset);
/* One level of a block entry's loop nest, tid[dim] from 0 while below `bound`, storing
 * tid[dim] into `thread`: zc_open_loop leaves the builder in the loop's body,
 * zc_close_loop after the loop. */
typedef struct {
	LLVMBasicBlockRef head;
	LLVMValueRef index, bound, tid_store;
} ZcLoop;
ZcLoop zc_open_loop(LLVMBuilderRef b, LLVMContextRef context, LLVMValueRef entry, LLVMValueRef thread,
                    LLVMValueRef bound, int dim);
void zc_close_loop(LLVMBuilderRef b, LLVMContextRef context, LLVMValueRef entry, ZcLoop *loop);

/* host_addresses.c: inttoptr(base + offset) as getelementptr(inttoptr(base), offset), so
 * that the vectoriser sees the bounds of the loops' accesses (after SROA: the sums are
 * values, not stack slots). */
void zc_host_addresses_as_offsets(LLVMModuleRef module);

/* host_rounds.c: after optimisation, the thread entries whose only block operations are
 * barriers of the whole block become block entries that run the threads in rounds from
 * barrier to barrier; *changed says whether any did (the module then wants optimising
 * again). */
int zc_host_rounds(LLVMModuleRef module, bool *changed, char **error);
/* Before optimisation: keeps the arguments of the stops' calls for zc_host_rounds. */
void zc_keep_stop_arguments(LLVMModuleRef module);

/* Whether function f is one of the module's kernels (the "zc-kernel" attribute). */
bool zc_is_kernel(LLVMValueRef f);

/* Runs step(arg, error) with LLVM's errors on `context` caught (guard.c). */
int zc_guarded(LLVMContextRef context, int (*step)(void *arg, char **error), void *arg, char **error);
void zc_guard_init(void);

/* Formats a malloc'd message into *error and returns -1. */
int backend_fail(char **error, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
