/* What the PTX lowering needs to know about a target, and what it tells the backends.
 *
 * The lowering is target-neutral: the few places where targets differ are data here.
 * Everything else a target does differently (special registers, barriers, shuffles, votes,
 * approximate math, clocks) is a call to a builtin named __zc_*, which each backend links
 * from its own bitcode. */
#ifndef PTX_TARGET_H
#define PTX_TARGET_H

#include <llvm-c/Core.h>

#include "ptx.h"

struct ptx_target {
	const char *name;
	const char *triple, *datalayout; /* allocas take their address space from the layout */
	/* LLVM address spaces of the PTX state spaces. Kernel parameters are byref pointer
	 * arguments in as_kernel_param, each aligned as PTX aligns it, so that the kernarg
	 * segment (AMDGPU) and the host's parameter buffer both have PTX's .param layout. */
	unsigned as_generic, as_global, as_shared, as_const, as_local, as_kernel_param;
	/* Shared memory as offsets from a per-block base that __zc_shared_base() returns (the
	 * host target, where a block's threads share an OS thread's buffer) rather than as
	 * globals in as_shared that the hardware places (AMDGPU LDS). */
	bool shared_as_offsets;
	/* f32 subnormals can be flushed by the mode the code object sets (AMDGPU's
	 * FLOAT_DENORM_MODE_32); x86 code has no such mode. */
	bool flushes_f32_by_mode;
	/* Directed rounding of f32 and f64 add, mul, fma and of conversions to f32 from s32,
	 * u32 and f64 is the processor's own, by the builtins __zc_<op>_<rz|rm|rp>_<type>
	 * (builtins.h); elsewhere it is built from round to nearest (lower_rounding.c). */
	bool rounds_by_mode;
	/* LLVM sync-scope names for .cta, .gpu and .sys ("" is the system scope). */
	const char *scope_cta, *scope_gpu, *scope_sys;
};

extern const struct ptx_target ptx_target_amdgpu, ptx_target_host;

struct ptx_kernel_param {
	uint32_t offset, size, align;
};

struct ptx_kernel_info {
	const char *name;
	struct ptx_kernel_param *params;
	uint32_t nparams;
	uint32_t param_size;     /* the whole .param space, rounded up to its alignment */
	uint32_t static_shared;  /* bytes of .shared the kernel can reach */
	bool dynamic_shared;     /* uses an extern .shared array */
	uint32_t maxntid[3], reqntid[3];
};

/* A function whose body could not be lowered. It stays in the module as a function of the
 * same name whose body is `unreachable`, with the string attribute PTX_LEFT_OUT_ATTRIBUTE
 * holding why, so that calls to it still resolve, also from other members of a link, until
 * ptx_leave_out removes it and every kernel that needs it. */
struct ptx_left_out_function {
	const char *name;
	struct ptx_loc loc;
	char *message;
};

#define PTX_LEFT_OUT_ATTRIBUTE "zluda-convert-left-out"

struct ptx_lowered {
	LLVMModuleRef module;
	struct ptx_kernel_info *kernels;   /* every kernel with a body, left out or not */
	uint32_t nkernels;
	struct ptx_left_out_function *left_out;
	uint32_t nleft_out;
	/* Where the module's shared variables end in the layout (targets with
	 * shared_as_offsets address them at those offsets from __zc_shared_base()). */
	uint64_t shared_layout_end;
	/* An instruction was lowered one way or another by options.matrix_instructions: the
	 * module is the same for every value of it when false. */
	bool matrix_dependent;
};

struct ptx_lower_options {
	/* Where this module's shared variables begin in the layout: the end of the previous
	 * module's, when several are linked into one unit, as an -rdc link is. */
	uint64_t shared_start;
	/* Keep the .loc lines as DWARF line tables (when the module has a .file). */
	bool line_info;
	/* What reasons recorded in the module call it ("PTX of fatbin 3"); NULL for none. */
	const char *label;
	/* The processor's WMMA for wmma's m16n16k16 forms (matrix.h), through the builtins
	 * __zc_wmma_element and __zc_wmma_mma; otherwise the lowering every target shares. */
	bool matrix_instructions;
	/* The unit reads %reserved_smem_offset_* somewhere (ptx_uses_reserved_smem of any
	 * member): every member then names one region of PTX_RESERVED_SMEM_SIZE bytes that
	 * each kernel zeroes as its block starts, as NVIDIA's driver leaves it for cooperative
	 * groups. Targets with shared_as_offsets place it at offset 0 of the layout, so the
	 * first member's shared_start must then be PTX_RESERVED_SMEM_SIZE. */
	bool reserved_smem;
	/* Every f32 operation of the unit that can meet a subnormal flushes it (the combined
	 * ptx_f32_subnormals of its members is PTX_SUBNORMALS_FLUSHED): on targets that
	 * flush by mode, the functions then run in that mode and .ftz costs nothing. */
	bool f32_subnormals_flushed;
	/* NULL, or per kernel of the module (in the order of ptx_lowered.kernels) whether to
	 * lower its body: the others stay declarations, listed in kernels all the same, and
	 * the variables their bodies declare are declared as the whole module's are (the same
	 * shared layout). One part of a module compiled in parts lowers only its own kernels. */
	const bool *kernel_bodies;
};

#define PTX_RESERVED_SMEM_SIZE 1024u

bool ptx_uses_reserved_smem(const struct ptx_module *module);

/* What a module's f32 code does with subnormals (subnormals.c); several modules' answer is
 * the largest of theirs. */
enum ptx_subnormals {
	PTX_SUBNORMALS_UNUSED,   /* no operation that could flush one */
	PTX_SUBNORMALS_FLUSHED,  /* every such operation flushes them (.ftz) */
	PTX_SUBNORMALS_KEPT,     /* some keep them */
};
enum ptx_subnormals ptx_f32_subnormals(const struct ptx_module *module);

/* Lowers a parsed module into a new LLVM module in `ctx`. A function whose body cannot be
 * lowered is left out (out->left_out), and the rest is lowered. On an error of the module
 * itself returns false and fills *diag with the location and message (e.g. "'x' is declared
 * twice"); nothing is left allocated. */
bool ptx_lower(const struct ptx_module *module, const struct ptx_target *target,
               LLVMContextRef ctx, const struct ptx_lower_options *options,
               struct ptx_lowered *out, struct ptx_diag *diag);
void ptx_lowered_free(struct ptx_lowered *out);

/* Deletes from a lowered module (or several, linked) every left-out function and every
 * function that uses one, directly, through other functions or through the initializers of
 * variables it names. reasons[i] becomes why kernels[i] was removed ("line 12:3: not
 * supported yet: ...", or "uses f, which was left out: line ..."; malloc'd), or NULL when
 * it stays. */
void ptx_leave_out(LLVMModuleRef module, const char *const *kernels, uint32_t nkernels,
                   char **reasons);

/* Bytes a variable occupies; 0 for an unsized array (extern .shared x[]) or one too large
 * to count. */
uint64_t ptx_var_size(const struct ptx_var *v);

#endif
