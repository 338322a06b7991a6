/* The PTX lowering's shared state: lower.c walks modules, functions and statements;
 * lower_*.c lower one family of instructions each. */
#ifndef PTX_LOWER_H
#define PTX_LOWER_H

#include <setjmp.h>

#include <llvm-c/DebugInfo.h>

#include "ptx.h"
#include "target.h"

enum sym_kind {
	SYM_REG,      /* .reg: an alloca of the register's type */
	SYM_VAR,      /* a variable in memory: global, const, shared, local, param */
	SYM_FUNC,
	SYM_LABEL,
	SYM_PROTOTYPE, /* .callprototype: the signature of indirect calls naming it */
	SYM_BRANCHTARGETS, /* .branchtargets: the labels brx.idx chooses from */
};

/* How a function's f32 code flushes subnormals (.ftz), planned before any body is lowered
 * (subnormals.c): each kernel runs in one denormal mode, which every function it calls
 * then runs in. */
enum f32_mode {
	F32_MODE_IEEE,      /* subnormals kept; .ftz by a compare and a select */
	F32_MODE_FLUSHING,  /* called only in the flushing mode: .ftz by that mode */
	F32_MODE_EITHER,    /* called in both: .ftz by compare and select, code for any mode */
};

struct sym {
	const char *name;
	enum sym_kind kind;
	enum ptx_type type;
	enum ptx_space space;
	LLVMValueRef value;   /* alloca, global, function or, for host shared, NULL */
	LLVMTypeRef llvm_type;
	LLVMBasicBlockRef block;          /* SYM_LABEL */
	uint64_t shared_offset;           /* host shared variables */
	bool dynamic_shared;              /* an extern .shared array: the launch's dynamic memory */
	const struct ptx_func *func;      /* SYM_FUNC */
	const struct ptx_signature *sig;  /* SYM_PROTOTYPE */
	const char **targets;             /* SYM_BRANCHTARGETS */
	uint32_t ntargets;
	/* SYM_FUNC: the shared variables and functions its code names, so that a kernel's
	 * static shared memory is what it can reach; an indirect call reaches everything. */
	struct reach *reaches;
	uint32_t nreaches, reaches_cap;
	bool calls_indirectly;
	enum f32_mode f32_mode;           /* SYM_FUNC */
	uint32_t plan_index;              /* SYM_FUNC, while subnormals.c plans: its row + 1 */
	const struct ptx_var *var;
	struct sym *shadowed;             /* the same name in an outer scope */
	struct sym *next_in_bucket;
	struct sym *next_in_scope;
};

/* What a function's code names: a function, or a shared variable (kept by its declaration
 * and offset, since a function-scope variable's symbol ends with its scope). */
struct reach {
	struct sym *func;
	const struct ptx_var *var;
	uint64_t offset;
};

/* Names, by pointer into the module (subnormals.c). */
struct name_set {
	const char **names;
	uint32_t count, cap;
};

struct symtab {
	struct sym **buckets;
	uint32_t nbuckets;
};

struct lower {
	const struct ptx_module *module;
	const struct ptx_target *target;
	struct ptx_diag *diag;
	const char *label;               /* ptx_lower_options.label */
	LLVMValueRef reserved_smem;      /* the region of ptx_lower_options.reserved_smem, or NULL
	                                  * (on targets with shared_as_offsets: its generic address
	                                  * is built where used) */
	bool has_reserved_smem;
	bool matrix_instructions;        /* ptx_lower_options.matrix_instructions */
	bool chose_matrix_form;          /* an instruction was lowered by that option */
	bool unit_flushes_f32;           /* ptx_lower_options.f32_subnormals_flushed */
	bool f32_flush_by_mode;          /* the function being lowered: F32_MODE_FLUSHING */
	struct name_set maybe_constant;  /* its registers LLVM may know as constants, if so */
	struct name_set foldable_variables; /* the module's variables LLVM may know values of */
	unsigned foldable_spaces;        /* where a register may point into one (subnormals.c) */
	const struct ptx_func *products_of; /* the function whose wmma.mma products are counted */
	unsigned products;                  /* (lower_matrix.c), how many */
	jmp_buf fail;
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	struct symtab globals;
	struct symtab locals;            /* registers, local variables, params and labels */
	struct sym *scope_syms;          /* this scope's symbols, to pop when it ends */
	uint64_t shared_start;           /* where this module's shared layout begins */
	uint64_t shared_layout_size;     /* where it ends so far */
	bool uses_dynamic_shared;
	/* the function being lowered */
	const struct ptx_func *func;
	struct sym *func_sym;
	LLVMValueRef fn;
	LLVMBasicBlockRef entry;          /* allocas go here */
	LLVMValueRef carry;               /* CC.CF of the .cc carry chains, created on first use */
	const struct ptx_insn *insn;      /* for diagnostics */
	struct ptx_loc loc;
	/* line tables (lower_debug.c); dib is NULL when none are kept */
	LLVMDIBuilderRef dib;
	LLVMMetadataRef debug_file, debug_unit, debug_subprogram;
	LLVMMetadataRef *debug_scopes;    /* per .file number, in the current function */
	LLVMMetadataRef *debug_files;     /* per .file number, made on first use */
	char *name_buffer;                /* lower_name's, freed when lowering ends */
	size_t name_buffer_size;
	/* A variable's initializer being built: a failure inside it unwinds past its owner,
	 * so the lowering frees it when it ends. */
	LLVMValueRef *initializer_elements;
	/* The function's atomics' spin points and the registers they return into. */
	struct spin_point {
		LLVMValueRef call, destination;
	} *spin_points;
	size_t nspin_points, spin_points_capacity;
};

/* lower.c */
_Noreturn void lower_fail(struct lower *L, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
_Noreturn void lower_unsupported(struct lower *L);
void *lower_alloc(size_t size);
/* A name made of parts, of any length, valid until the next call (sym_add copies it). */
const char *lower_name(struct lower *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint32_t name_hash(const char *s);
void symtab_init(struct symtab *t, uint32_t nbuckets);
void symtab_free(struct symtab *t);
struct sym *symtab_find(struct symtab *t, const char *name);
struct sym *sym_add(struct lower *L, struct symtab *t, const char *name, enum sym_kind kind);
void sym_remove(struct symtab *t, struct sym *s);
struct sym *sym_lookup(struct lower *L, const char *name);
LLVMTypeRef ll_type(struct lower *L, enum ptx_type t);
unsigned type_bits(enum ptx_type t);
bool type_is_float(enum ptx_type t);
bool type_is_signed(enum ptx_type t);
bool type_is_packed(enum ptx_type t); /* f16x2, bf16x2 */
/* The LLVM type a float instruction of t computes in (a vector for the packed types). */
LLVMTypeRef float_value_type(struct lower *L, enum ptx_type t);
LLVMTypeRef ll_int(struct lower *L, unsigned bits);
LLVMValueRef const32(struct lower *L, uint32_t v);  /* an i32 constant */
LLVMTypeRef ll_ptr(struct lower *L, unsigned addrspace);
unsigned space_addrspace(struct lower *L, enum ptx_space space);
LLVMValueRef call_builtin(struct lower *L, const char *name, LLVMTypeRef ret,
                          LLVMValueRef *args, unsigned nargs);
LLVMValueRef call_intrinsic(struct lower *L, const char *name, LLVMTypeRef *overloads,
                            unsigned noverloads, LLVMValueRef *args, unsigned nargs);
LLVMValueRef coerce(struct lower *L, LLVMValueRef v, enum ptx_type to, bool sign_extend);
LLVMValueRef operand_value(struct lower *L, const struct ptx_operand *op, enum ptx_type t);
void operand_store(struct lower *L, const struct ptx_operand *op, LLVMValueRef v, enum ptx_type t);
LLVMValueRef symbol_address(struct lower *L, struct sym *s, unsigned *addrspace);
void note_reach(struct lower *L, struct sym *s);
LLVMValueRef shared_base(struct lower *L);
/* lower_reserved.c */
void reserved_smem_declare(struct lower *L);
/* %reserved_smem_offset_*: its shared address, or NULL for another name. */
LLVMValueRef reserved_smem_register(struct lower *L, const char *name);
/* A kernel's first code: the region zeroed, then a barrier. */
void reserved_smem_zero(struct lower *L);

/* lower_debug.c */
void debug_begin(struct lower *L, bool line_info);
void debug_function(struct lower *L, const struct ptx_func *f);
void debug_instruction(struct lower *L, const struct ptx_insn *insn);
void debug_end_function(struct lower *L);
void debug_end(struct lower *L, bool ok);

/* subnormals.c: each function's f32_mode, before any body is lowered */
void plan_f32_modes(struct lower *L, bool unit_flushes);
/* In a flushing function: its registers whose value LLVM may come to know as a constant,
 * into L->maybe_constant; and whether an operand is one. */
void find_maybe_constant_registers(struct lower *L, const struct ptx_func *f);
bool may_be_constant(struct lower *L, const struct ptx_operand *o);
void name_set_free(struct name_set *set);

/* lower_module.c */
/* vprintf, malloc and the other CUDA runtime functions the builtins define */
bool is_runtime_function(const char *name);
LLVMValueRef entry_alloca(struct lower *L, LLVMTypeRef ty, uint32_t align, const char *name);

/* lower_cdp.c: a function only NVIDIA's driver defines, which the CUDA device runtime's PTX
 * calls; given a body of ours, or left out. */
bool is_device_runtime_call(const char *name);
void define_device_runtime_call(struct lower *L, const char *name, LLVMValueRef fn);
LLVMTypeRef signature_type(struct lower *L, const struct ptx_signature *sig);
void build_return(struct lower *L);

/* Modifier queries on an instruction, and on the one being lowered. */
bool has_mod(struct lower *L, const char *mod);
enum ptx_type mod_type(struct lower *L, int which); /* which: 0 first type modifier, 1 second */
const struct ptx_operand *op(struct lower *L, unsigned i);
void expect_operands(struct lower *L, unsigned n);

/* lower_memory.c */
/* The instruction's state space modifier (.global, .shared{::cta}, ...), NONE for generic. */
enum ptx_space insn_space(struct lower *L);
/* The pointer an address operand [a+off] names, in `space` (NONE: generic). */
LLVMValueRef memory_address(struct lower *L, const struct ptx_operand *m, enum ptx_space space);
/* An address held in a register, as a pointer into `space`. */
LLVMValueRef pointer_from_number(struct lower *L, LLVMValueRef n, enum ptx_space space);

/* lower_lockstep.c */
/* Marks the stores and atomics from `from` to the end of its block as into a space that
 * is not shared memory. */
void mark_not_shared(struct lower *L, LLVMValueRef from);
/* Removes the lockstep points of the kernel L->fn that no thread can need. */
void prune_lockstep_points(struct lower *L);
/* An atomic's spin point, kept at the function's end (prune_spin_points) only where its
 * destination register is read: no spin loop can wait on an atomic whose result nothing
 * reads. */
void note_spin_point(struct lower *L, LLVMValueRef point, const struct ptx_operand *destination);
void prune_spin_points(struct lower *L);

/* lower_matrix.c: the elements of matrix fragments, shared with lower_wgmma.c. */
/* A 32-bit value of lane `lane` of the warp. */
LLVMValueRef shuffle_idx(struct lower *L, LLVMValueRef value, LLVMValueRef lane);
/* Element e (0 or 1) of a register of two f16 (or bf16), as a float. */
LLVMValueRef half_as_float(struct lower *L, LLVMValueRef word, unsigned e, bool bf16);
/* A float rounded to f16, its bits in the low half of an i32. */
LLVMValueRef float_as_half(struct lower *L, LLVMValueRef f);
bool matrix_staged(struct lower *L);
/* Element e of a register of f16, bf16 (a float) or s8, u8 (an i32) elements, or a register's
 * tf32 (a float of its 19 high bits). */
LLVMValueRef element_of(struct lower *L, LLVMValueRef word, unsigned e, enum ptx_type t);
/* Element e of a register of four 8-bit floats (format 0: e4m3, 1: e5m2), exactly as a float. */
LLVMValueRef narrow_as_float(struct lower *L, LLVMValueRef word, unsigned e, int format);
/* Sparse A's metadata (mma.sp, wgmma.mma_async.sp): the words of the `lanes` lanes of group g
 * (4g + selector lanes + i) that the sparsity selector picks. */
void sparse_metadata(struct lower *L, LLVMValueRef metadata, LLVMValueRef g, unsigned selector, unsigned lanes,
                     LLVMValueRef *words);
/* The position (0-3) in its aligned four of given unit `unit` (0 or 1) of four `four` of row g
 * (r 0) or g + 8 (r 1), in those words, as measured on an H200 for mma.sp and
 * wgmma.mma_async.sp alike: where the rows share the words (16-bit elements) word four/4
 * holds it at bit 16r + 4(four%4), else word r + 2(four/8) at bit 4(four%8); the second
 * unit's 2 bits above the first's. */
LLVMValueRef sparse_position(struct lower *L, const LLVMValueRef *words, bool rows_share_words, unsigned r,
                             unsigned four, unsigned unit);

/* lower_float.c: .ftz's flush of a subnormal to a zero of its sign. */
LLVMValueRef flush_subnormal(struct lower *L, enum ptx_type t, LLVMValueRef v);

/* lower_rounding.c: directed rounding built from the round-to-nearest result. */
enum rounding_mode { ROUND_NEAREST, ROUND_ZERO, ROUND_DOWN, ROUND_UP };
enum rounding_mode rounding_mode_of(struct lower *L); /* .rn (or none) .rz .rm .rp */
LLVMValueRef round_add(struct lower *L, enum rounding_mode mode, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef round_mul(struct lower *L, enum rounding_mode mode, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef round_div(struct lower *L, enum rounding_mode mode, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef round_sqrt(struct lower *L, enum rounding_mode mode, LLVMValueRef a);
LLVMValueRef round_fma(struct lower *L, enum rounding_mode mode, LLVMValueRef a, LLVMValueRef b,
                       LLVMValueRef c);
LLVMValueRef round_narrow(struct lower *L, enum rounding_mode mode, LLVMValueRef v, LLVMTypeRef to);
LLVMValueRef round_from_int(struct lower *L, enum rounding_mode mode, LLVMValueRef v, bool is_signed,
                            LLVMValueRef r);

/* One lowering function per opcode family; each returns false if it does not know the
 * opcode, so the dispatcher can try the next. */
bool lower_int(struct lower *L);
bool lower_video(struct lower *L);
bool lower_bits(struct lower *L);
bool lower_float(struct lower *L);
bool lower_compare(struct lower *L);
bool lower_convert(struct lower *L);
bool lower_memory(struct lower *L);
bool lower_control(struct lower *L);
bool lower_parallel(struct lower *L);
bool lower_async(struct lower *L);
bool lower_matrix(struct lower *L);
bool lower_wgmma(struct lower *L);
bool lower_texture(struct lower *L);

#endif
