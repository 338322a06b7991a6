/* Lowering PTX to LLVM IR: modules, variables, functions, statements, operands.
 *
 * Registers become allocas and SROA/mem2reg clean them up; the instruction families live in
 * lower_*.c. Errors unwind to ptx_lower() with longjmp: the LLVM module is then disposed of
 * whole, so no instruction-level code has to clean up after itself. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_launch.h"
#include "grid_workspace.h"
#include "lower.h"

void *lower_alloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p) {
		fputs("zluda-convert: out of memory\n", stderr);
		abort();
	}
	return p;
}

static void diag_append(struct ptx_diag *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void diag_append(struct ptx_diag *diag, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ptx_diag_vappend(diag, diag->message ? strlen(diag->message) : 0, fmt, ap);
	va_end(ap);
}

const char *lower_name(struct lower *L, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n + 1 > L->name_buffer_size) {
		char *grown = realloc(L->name_buffer, (size_t)n + 1);
		if (!grown) {
			fputs("zluda-convert: out of memory\n", stderr);
			abort();
		}
		L->name_buffer = grown;
		L->name_buffer_size = (size_t)n + 1;
	}
	va_start(ap, fmt);
	vsnprintf(L->name_buffer, L->name_buffer_size, fmt, ap);
	va_end(ap);
	return L->name_buffer;
}

/* The message is written: where, and in which function, then back to ptx_lower. */
static _Noreturn void fail_here(struct lower *L)
{
	if (L->func)
		diag_append(L->diag, " in %s %s", L->func->is_entry ? "kernel" : "function",
		            L->func->name);
	longjmp(L->fail, 1);
}

static void start_message(struct lower *L)
{
	L->diag->file = L->module->file;
	L->diag->loc = L->loc;
	L->diag->message = NULL;
}

_Noreturn void lower_fail(struct lower *L, const char *fmt, ...)
{
	va_list ap;

	start_message(L);
	va_start(ap, fmt);
	ptx_diag_vappend(L->diag, 0, fmt, ap);
	va_end(ap);
	fail_here(L);
}

/* "not supported yet: atom.global.add.noftz.f16" names the instruction as written. */
_Noreturn void lower_unsupported(struct lower *L)
{
	start_message(L);
	diag_append(L->diag, "not supported yet: %s", L->insn->opcode);
	for (uint32_t i = 0; i < L->insn->nmods; i++)
		diag_append(L->diag, ".%s", L->insn->mods[i]);
	fail_here(L);
}

/* ---- types ---------------------------------------------------------------- */

/* Handles (texture, sampler and surface references) are 64-bit, as is an untyped operand. */
unsigned type_bits(enum ptx_type t)
{
	unsigned bits = ptx_type_bits(t);

	return bits ? bits : 64;
}

bool type_is_float(enum ptx_type t)
{
	return t == PTX_TYPE_F16 || t == PTX_TYPE_BF16 || t == PTX_TYPE_F32 || t == PTX_TYPE_F64;
}

bool type_is_packed(enum ptx_type t)
{
	return t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2;
}

/* Packed registers are plain i32; their arithmetic and comparisons happen in <2 x half> or
 * <2 x bfloat>. */
LLVMTypeRef float_value_type(struct lower *L, enum ptx_type t)
{
	if (t == PTX_TYPE_F16X2)
		return LLVMVectorType(LLVMHalfTypeInContext(L->ctx), 2);
	if (t == PTX_TYPE_BF16X2)
		return LLVMVectorType(LLVMBFloatTypeInContext(L->ctx), 2);
	return ll_type(L, t);
}

bool type_is_signed(enum ptx_type t)
{
	return t == PTX_TYPE_S8 || t == PTX_TYPE_S16 || t == PTX_TYPE_S32 || t == PTX_TYPE_S64;
}

LLVMTypeRef ll_int(struct lower *L, unsigned bits)
{
	return LLVMIntTypeInContext(L->ctx, bits);
}

LLVMValueRef const32(struct lower *L, uint32_t v)
{
	return LLVMConstInt(ll_int(L, 32), v, 0);
}

LLVMTypeRef ll_ptr(struct lower *L, unsigned addrspace)
{
	return LLVMPointerTypeInContext(L->ctx, addrspace);
}

/* Registers of packed types (f16x2) are plain integers; the instructions unpack them. */
LLVMTypeRef ll_type(struct lower *L, enum ptx_type t)
{
	switch (t) {
	case PTX_TYPE_F16: return LLVMHalfTypeInContext(L->ctx);
	case PTX_TYPE_BF16: return LLVMBFloatTypeInContext(L->ctx);
	case PTX_TYPE_F32: return LLVMFloatTypeInContext(L->ctx);
	case PTX_TYPE_F64: return LLVMDoubleTypeInContext(L->ctx);
	default: return ll_int(L, type_bits(t));
	}
}

unsigned space_addrspace(struct lower *L, enum ptx_space space)
{
	switch (space) {
	case PTX_SPACE_GLOBAL: return L->target->as_global;
	case PTX_SPACE_SHARED: return L->target->as_shared;
	case PTX_SPACE_CONST: return L->target->as_const;
	case PTX_SPACE_LOCAL: case PTX_SPACE_REG: return L->target->as_local;
	/* a register address in .param space: a kernel's parameters (their address taken with
	 * mov), or a device function's, which live on its stack */
	case PTX_SPACE_PARAM:
		return L->func && L->func->is_entry ? L->target->as_kernel_param : L->target->as_local;
	default: return L->target->as_generic;
	}
}

/* ---- instruction modifiers -------------------------------------------------- */

bool has_mod(struct lower *L, const char *mod)
{
	return insn_has_mod(L->insn, mod);
}

enum ptx_type mod_type(struct lower *L, int which)
{
	return insn_type(L->insn, which);
}

const struct ptx_operand *op(struct lower *L, unsigned i)
{
	if (i >= L->insn->nops)
		lower_fail(L, "%s: missing operand %u", L->insn->opcode, i + 1);
	return &L->insn->ops[i];
}

void expect_operands(struct lower *L, unsigned n)
{
	if (L->insn->nops != n)
		lower_fail(L, "%s takes %u operands, not %u", L->insn->opcode, n, L->insn->nops);
}

/* ---- symbols ---------------------------------------------------------------- */

uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

void symtab_init(struct symtab *t, uint32_t nbuckets)
{
	t->nbuckets = nbuckets;
	t->buckets = lower_alloc(nbuckets * sizeof(struct sym *));
}

struct sym *symtab_find(struct symtab *t, const char *name)
{
	for (struct sym *s = t->buckets[name_hash(name) % t->nbuckets]; s; s = s->next_in_bucket)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

void symtab_free(struct symtab *t)
{
	for (uint32_t i = 0; i < t->nbuckets; i++) {
		for (struct sym *s = t->buckets[i], *next; s; s = next) {
			next = s->next_in_bucket;
			for (struct sym *sh = s->shadowed, *nsh; sh; sh = nsh) {
				nsh = sh->shadowed;
				free((char *)sh->name);
				free(sh);
			}
			free(s->reaches);
			free((char *)s->name);
			free(s);
		}
	}
	free(t->buckets);
	t->buckets = NULL;
}

/* Adds a symbol; in the function scope a name may shadow an outer block's. */
struct sym *sym_add(struct lower *L, struct symtab *t, const char *name, enum sym_kind kind)
{
	struct sym *old = symtab_find(t, name), *s;
	struct sym **bucket = &t->buckets[name_hash(name) % t->nbuckets];

	if (old && t == &L->globals)
		lower_fail(L, "'%s' is declared twice", name);
	s = lower_alloc(sizeof(*s));
	s->name = strdup(name);
	s->kind = kind;
	if (old) {
		/* Replace the old entry in its bucket; it comes back when this scope ends. */
		for (struct sym **p = bucket; *p; p = &(*p)->next_in_bucket) {
			if (*p == old) {
				*p = old->next_in_bucket;
				break;
			}
		}
		s->shadowed = old;
	}
	s->next_in_bucket = *bucket;
	*bucket = s;
	if (t == &L->locals) {
		s->next_in_scope = L->scope_syms;
		L->scope_syms = s;
	}
	return s;
}

void sym_remove(struct symtab *t, struct sym *s)
{
	struct sym **bucket = &t->buckets[name_hash(s->name) % t->nbuckets];

	for (struct sym **p = bucket; *p; p = &(*p)->next_in_bucket) {
		if (*p == s) {
			*p = s->next_in_bucket;
			break;
		}
	}
	if (s->shadowed) {
		s->shadowed->next_in_bucket = *bucket;
		*bucket = s->shadowed;
	}
	free((char *)s->name);
	free(s);
}

struct sym *sym_lookup(struct lower *L, const char *name)
{
	struct sym *s = symtab_find(&L->locals, name);

	return s ? s : symtab_find(&L->globals, name);
}

/* ---- calls to builtins and intrinsics ---------------------------------------- */

LLVMValueRef call_builtin(struct lower *L, const char *name, LLVMTypeRef ret, LLVMValueRef *args,
                          unsigned nargs)
{
	LLVMTypeRef params[16];
	LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
	LLVMTypeRef fty;

	if (nargs > sizeof(params) / sizeof(params[0]))
		lower_fail(L, "internal: builtin %s called with %u arguments", name, nargs);
	for (unsigned i = 0; i < nargs; i++)
		params[i] = LLVMTypeOf(args[i]);
	fty = LLVMFunctionType(ret, params, nargs, 0);
	if (!fn)
		fn = LLVMAddFunction(L->mod, name, fty);
	return LLVMBuildCall2(L->b, fty, fn, args, nargs, "");
}

LLVMValueRef call_intrinsic(struct lower *L, const char *name, LLVMTypeRef *overloads,
                            unsigned noverloads, LLVMValueRef *args, unsigned nargs)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef fn;

	if (!id)
		lower_fail(L, "internal error: no LLVM intrinsic %s", name);
	fn = LLVMGetIntrinsicDeclaration(L->mod, id, overloads, noverloads);
	return LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, args, nargs, "");
}

/* ---- operands ------------------------------------------------------------------ */

/* Converts between register types the way PTX operand rules allow: same width is a bit
 * cast, a wider register is truncated, a narrower one extended. */
LLVMValueRef coerce(struct lower *L, LLVMValueRef v, enum ptx_type to, bool sign_extend)
{
	LLVMTypeRef from_ty = LLVMTypeOf(v), to_ty = ll_type(L, to);
	unsigned from_bits, to_bits = type_bits(to);

	if (from_ty == to_ty)
		return v;
	if (LLVMGetTypeKind(from_ty) == LLVMPointerTypeKind)
		return LLVMBuildPtrToInt(L->b, v, to_ty, "");
	from_bits = LLVMGetTypeKind(from_ty) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(from_ty)
	          : LLVMGetTypeKind(from_ty) == LLVMDoubleTypeKind ? 64
	          : LLVMGetTypeKind(from_ty) == LLVMFloatTypeKind ? 32 : 16;
	if (LLVMGetTypeKind(from_ty) != LLVMIntegerTypeKind)
		v = LLVMBuildBitCast(L->b, v, ll_int(L, from_bits), "");
	if (from_bits > to_bits)
		v = LLVMBuildTrunc(L->b, v, ll_int(L, to_bits), "");
	else if (from_bits < to_bits)
		v = sign_extend ? LLVMBuildSExt(L->b, v, ll_int(L, to_bits), "")
		                : LLVMBuildZExt(L->b, v, ll_int(L, to_bits), "");
	return LLVMBuildBitCast(L->b, v, to_ty, "");
}

static LLVMValueRef immediate(struct lower *L, const struct ptx_operand *o, enum ptx_type t)
{
	LLVMTypeRef ty = ll_type(L, t);
	double d;
	float f;
	uint32_t bits32;

	switch (o->kind) {
	case PTX_OP_INT:
		if (type_is_float(t))
			return LLVMConstReal(ty, (double)(int64_t)o->bits);
		return LLVMConstInt(ty, o->bits, 0);
	case PTX_OP_F32:
		bits32 = (uint32_t)o->bits;
		if (!type_is_float(t))
			return LLVMConstInt(ty, bits32, 0);
		memcpy(&f, &bits32, 4);
		if (t == PTX_TYPE_F32)
			return LLVMConstBitCast(LLVMConstInt(ll_int(L, 32), bits32, 0), ty);
		return LLVMConstReal(ty, f);
	case PTX_OP_F64:
		if (!type_is_float(t))
			return LLVMConstInt(ty, o->bits, 0);
		if (t == PTX_TYPE_F64)
			return LLVMConstBitCast(LLVMConstInt(ll_int(L, 64), o->bits, 0), ty);
		memcpy(&d, &o->bits, 8);
		return LLVMConstReal(ty, d);
	default:
		lower_fail(L, "operand is not a constant");
	}
}

/* The workspace pointer's high or low 32 bits, from the module's weak ZC_GRID_WORKSPACE_SYMBOL
 * (one for all the members of a link). */
static LLVMValueRef grid_workspace_half(struct lower *L, bool high)
{
	LLVMTypeRef i64 = ll_int(L, 64);
	LLVMValueRef v = LLVMGetNamedGlobal(L->mod, ZC_GRID_WORKSPACE_SYMBOL);

	if (!v) {
		v = LLVMAddGlobalInAddressSpace(L->mod, i64, ZC_GRID_WORKSPACE_SYMBOL, L->target->as_global);
		LLVMSetInitializer(v, LLVMConstInt(i64, 0, 0));
		LLVMSetLinkage(v, LLVMWeakODRLinkage);
		LLVMSetAlignment(v, 8);
	}
	LLVMValueRef address = LLVMBuildLoad2(L->b, i64, v, "grid_workspace");
	LLVMSetAlignment(address, 8);
	if (high)
		address = LLVMBuildLShr(L->b, address, LLVMConstInt(i64, 32, 0), "");
	return LLVMBuildTrunc(L->b, address, ll_int(L, 32), "");
}

/* %tid.x and friends are builtins of the target: __zc_tid_x(). A special register no
 * target implements fails at code generation, naming its builtin. */
static LLVMValueRef special_register(struct lower *L, const struct ptx_operand *o)
{
	static const char *const wide[] = {"%clock64", "%globaltimer", "%gridid"};
	char name[48];
	unsigned bits = 32;

	LLVMValueRef reserved = reserved_smem_register(L, o->name);

	if (reserved)
		return reserved;
	if (!ptx_is_special_register(o->name))
		return NULL;
	/* %envreg1 and %envreg2: the grid workspace (abi/grid_workspace.h); the other
	 * %envregN hold nothing here; %pmN, %pmN_64: performance monitor counters, which no
	 * target here exposes: all read as 0 */
	if (!strcmp(o->name, "%envreg1") || !strcmp(o->name, "%envreg2"))
		return grid_workspace_half(L, o->name[7] == '1');
	if (!strncmp(o->name, "%envreg", 7) || !strncmp(o->name, "%pm", 3))
		return LLVMConstInt(ll_int(L, strstr(o->name, "_64") ? 64 : 32), 0, 0);
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (strcmp(o->name, wide[i]) == 0)
			bits = 64;
	if (o->component)
		snprintf(name, sizeof(name), "__zc_%s_%c", o->name + 1, o->component);
	else
		snprintf(name, sizeof(name), "__zc_%s", o->name + 1);
	return call_builtin(L, name, ll_int(L, bits), NULL, 0);
}

LLVMValueRef shared_base(struct lower *L)
{
	return call_builtin(L, "__zc_shared_base", ll_ptr(L, L->target->as_generic), NULL, 0);
}

/* Records that the function being lowered names a shared variable or a function. */
void note_reach(struct lower *L, struct sym *s)
{
	struct sym *f = L->func_sym;

	if (!f || !(s->kind == SYM_FUNC || (s->kind == SYM_VAR && s->space == PTX_SPACE_SHARED)))
		return;
	if (f->nreaches == f->reaches_cap) {
		f->reaches_cap = f->reaches_cap ? 2 * f->reaches_cap : 8;
		f->reaches = realloc(f->reaches, f->reaches_cap * sizeof(*f->reaches));
		if (!f->reaches) {
			fputs("zluda-convert: out of memory\n", stderr);
			abort();
		}
	}
	f->reaches[f->nreaches++] = s->kind == SYM_FUNC ? (struct reach){.func = s}
	                          : (struct reach){.var = s->var, .offset = s->shared_offset};
}

/* The address of a variable as a pointer into its own state space (host shared memory: into
 * the block's buffer, generic). */
LLVMValueRef symbol_address(struct lower *L, struct sym *s, unsigned *addrspace)
{
	note_reach(L, s);
	if (s->kind == SYM_FUNC) {
		*addrspace = L->target->as_generic;
		return s->value;
	}
	if (s->kind != SYM_VAR)
		lower_fail(L, "'%s' is not a variable", s->name);
	if (s->space == PTX_SPACE_SHARED && L->target->shared_as_offsets) {
		LLVMValueRef off = LLVMConstInt(ll_int(L, 64), s->shared_offset, 0);

		*addrspace = L->target->as_generic;
		if (s->dynamic_shared) /* after every static variable of the unit: the driver knows */
			return call_builtin(L, "__zc_dynamic_smem", ll_ptr(L, L->target->as_generic), NULL, 0);
		return LLVMBuildGEP2(L->b, ll_int(L, 8), shared_base(L), &off, 1, "");
	}
	/* a kernel's parameters and the .param variables of its calls differ in address space */
	*addrspace = LLVMGetPointerAddressSpace(LLVMTypeOf(s->value));
	return s->value;
}

/* `mov.u32 %r, sym`: the variable's address in its state space, as a number. Host shared
 * memory addresses are offsets in the block's buffer, so they fit 32-bit registers too. */
static LLVMValueRef symbol_number(struct lower *L, struct sym *s, enum ptx_type t)
{
	unsigned as;

	if (s->kind == SYM_FUNC && s->func && s->func->is_entry) { /* a launch's kernel */
		note_reach(L, s);
		return LLVMConstInt(ll_type(L, t), zc_kernel_handle(s->name), 0);
	}
	if (s->kind == SYM_VAR && s->space == PTX_SPACE_SHARED && L->target->shared_as_offsets) {
		note_reach(L, s);
		if (s->dynamic_shared) {
			LLVMValueRef dyn = LLVMBuildPtrToInt(L->b, symbol_address(L, s, &as), ll_int(L, 64), "");
			LLVMValueRef base = LLVMBuildPtrToInt(L->b, shared_base(L), ll_int(L, 64), "");
			return coerce(L, LLVMBuildSub(L->b, dyn, base, ""), t, false);
		}
		return LLVMConstInt(ll_type(L, t), s->shared_offset, 0);
	}
	return coerce(L, symbol_address(L, s, &as), t, false);
}

/* {%r} of one register is that register (nvcc writes ld.relaxed.gpu.u64 {%rd1}, [%rd2]). */
static const struct ptx_operand *unbraced(const struct ptx_operand *o)
{
	return o->kind == PTX_OP_BRACES && o->count == 1 ? &o->items[0] : o;
}

LLVMValueRef operand_value(struct lower *L, const struct ptx_operand *o, enum ptx_type t)
{
	LLVMValueRef v;
	struct sym *s;

	o = unbraced(o);
	if (o->kind != PTX_OP_NAME)
		return immediate(L, o, t);
	s = sym_lookup(L, o->name);
	if (!s && strcmp(o->name, "WARP_SZ") == 0) {
		v = LLVMConstInt(ll_type(L, t), 32, 0); /* PTX's predefined warp size constant */
	} else if (!s) {
		v = special_register(L, o);
		if (!v)
			lower_fail(L, "'%s' is not declared", o->name);
		v = coerce(L, v, t, false);
	} else if (s->kind == SYM_REG) {
		v = LLVMBuildLoad2(L->b, s->llvm_type, s->value, "");
		v = coerce(L, v, t, type_is_signed(s->type));
	} else if (s->kind == SYM_VAR || s->kind == SYM_FUNC) {
		v = symbol_number(L, s, t);
		if (o->offset)
			v = LLVMBuildAdd(L->b, v, LLVMConstInt(ll_type(L, t), (uint64_t)o->offset, 0), "");
	} else {
		lower_fail(L, "label '%s' used as a value", o->name);
	}
	if (o->negated) {
		if (t != PTX_TYPE_PRED)
			lower_fail(L, "'!' applies to predicates only");
		v = LLVMBuildNot(L->b, v, "");
	}
	return v;
}

void operand_store(struct lower *L, const struct ptx_operand *o, LLVMValueRef v, enum ptx_type t)
{
	struct sym *s;

	o = unbraced(o);
	if (o->kind == PTX_OP_SINK)
		return;
	if (o->kind != PTX_OP_NAME)
		lower_fail(L, "destination must be a register");
	s = sym_lookup(L, o->name);
	if (!s || s->kind != SYM_REG)
		lower_fail(L, "destination '%s' is not a register", o->name);
	LLVMBuildStore(L->b, coerce(L, v, s->type, type_is_signed(t)), s->value);
}
