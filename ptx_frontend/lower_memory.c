/* Memory: ld, ldu, st, mov, cvta, isspacep, alloca, atom, red, fences, cache hints. */
#include <string.h>

#include "lower.h"

enum ptx_space insn_space(struct lower *L)
{
	if (has_mod(L, "shared::cluster"))
		lower_unsupported(L);
	return insn_space_of(L->insn);
}

static unsigned vector_width(struct lower *L)
{
	return has_mod(L, "v2") ? 2 : has_mod(L, "v4") ? 4 : has_mod(L, "v8") ? 8 : 1;
}

static LLVMValueRef byte_offset(struct lower *L, LLVMValueRef ptr, int64_t off)
{
	LLVMValueRef o = LLVMConstInt(ll_int(L, 64), (uint64_t)off, 0);

	return off ? LLVMBuildGEP2(L->b, ll_int(L, 8), ptr, &o, 1, "") : ptr;
}

LLVMValueRef pointer_from_number(struct lower *L, LLVMValueRef n, enum ptx_space space)
{
	if (space == PTX_SPACE_SHARED && L->target->shared_as_offsets) {
		LLVMValueRef off = LLVMBuildZExt(L->b, n, ll_int(L, 64), "");
		if (LLVMGetIntTypeWidth(LLVMTypeOf(n)) == 64)
			off = n;
		return LLVMBuildGEP2(L->b, ll_int(L, 8), shared_base(L), &off, 1, "");
	}
	return LLVMBuildIntToPtr(L->b, n, ll_ptr(L, space_addrspace(L, space)), "");
}

/* [sym+off], [reg+off] or [imm] as a pointer the instruction's state space can use. */
LLVMValueRef memory_address(struct lower *L, const struct ptx_operand *m, enum ptx_space space)
{
	const struct ptx_operand *base;
	struct sym *s;

	if (m->kind != PTX_OP_MEMORY || m->count != 1)
		lower_fail(L, "expected an address [...]");
	base = &m->items[0];
	if (base->kind == PTX_OP_INT)
		return pointer_from_number(L, LLVMConstInt(ll_int(L, 64), base->bits, 0), space);
	if (base->kind != PTX_OP_NAME)
		lower_fail(L, "unsupported address");
	s = sym_lookup(L, base->name);
	if (s && (s->kind == SYM_VAR || s->kind == SYM_FUNC)) {
		unsigned as;
		LLVMValueRef p = byte_offset(L, symbol_address(L, s, &as), base->offset);
		unsigned want = space == PTX_SPACE_NONE ? L->target->as_generic
		              : space == PTX_SPACE_PARAM ? as : space_addrspace(L, space);

		if (space == PTX_SPACE_SHARED && L->target->shared_as_offsets)
			return p;
		return as == want ? p : LLVMBuildAddrSpaceCast(L->b, p, ll_ptr(L, want), "");
	}
	{
		enum ptx_type t = s && s->kind == SYM_REG ? s->type : PTX_TYPE_U64;
		LLVMValueRef n = operand_value(L, base, type_bits(t) == 32 ? PTX_TYPE_U32 : PTX_TYPE_U64);

		/* 64-bit addresses: the offset from one pointer per register, so that LLVM sees
		 * [r-4], [r], [r+4] as neighbours and merges them into one wider access. A 32-bit
		 * register keeps its addition: it wraps in 32 bits where its pointer may be wider,
		 * and shared memory's instructions take no negative offset, which the addition
		 * lets LLVM fold into the register instead. */
		if (LLVMGetIntTypeWidth(LLVMTypeOf(n)) == 64 && space != PTX_SPACE_SHARED)
			return byte_offset(L, pointer_from_number(L, n, space), base->offset);
		if (base->offset)
			n = LLVMBuildAdd(L->b, n, LLVMConstInt(LLVMTypeOf(n), (uint64_t)base->offset, 0), "");
		return pointer_from_number(L, n, space);
	}
}

static unsigned sync_scope(struct lower *L)
{
	const char *name = has_mod(L, "cta") ? L->target->scope_cta
	                 : has_mod(L, "sys") ? L->target->scope_sys : L->target->scope_gpu;

	return LLVMGetSyncScopeID(L->ctx, name, strlen(name));
}

static LLVMAtomicOrdering ordering(struct lower *L, LLVMAtomicOrdering plain)
{
	if (has_mod(L, "acquire"))
		return LLVMAtomicOrderingAcquire;
	if (has_mod(L, "release"))
		return LLVMAtomicOrderingRelease;
	if (has_mod(L, "acq_rel"))
		return LLVMAtomicOrderingAcquireRelease;
	if (has_mod(L, "relaxed"))
		return LLVMAtomicOrderingMonotonic;
	return plain;
}

static void set_access(struct lower *L, LLVMValueRef inst, unsigned align)
{
	LLVMAtomicOrdering order = ordering(L, LLVMAtomicOrderingNotAtomic);

	LLVMSetAlignment(inst, align);
	if (has_mod(L, "volatile"))
		LLVMSetVolatile(inst, 1);
	if (order != LLVMAtomicOrderingNotAtomic) {
		LLVMSetOrdering(inst, order);
		LLVMSetAtomicSyncScopeID(inst, sync_scope(L));
	}
}

/* Atomic (.relaxed, .acquire, .release) loads and stores of a vector: LLVM selects none,
 * so up to 64 bits one integer access stands for the vector (single-copy atomic, which
 * CUB's 8-byte scan tile descriptors count on), and a wider one is an access per element,
 * which is what PTX's memory model promises of it. */
static bool ordered(struct lower *L)
{
	return ordering(L, LLVMAtomicOrderingNotAtomic) != LLVMAtomicOrderingNotAtomic;
}

static LLVMValueRef element_address(struct lower *L, enum ptx_type t, LLVMValueRef p, unsigned i)
{
	LLVMValueRef index = LLVMConstInt(ll_int(L, 32), i, 0);

	return LLVMBuildGEP2(L->b, ll_type(L, t), p, &index, 1, "");
}

static LLVMValueRef load_vector(struct lower *L, enum ptx_type t, unsigned n, LLVMValueRef p)
{
	unsigned size = type_bits(t) / 8;
	LLVMTypeRef vector = LLVMVectorType(ll_type(L, t), n);
	LLVMValueRef v;

	if (!ordered(L) || size * n <= 8) {
		v = LLVMBuildLoad2(L->b, ordered(L) ? ll_int(L, size * n * 8) : vector, p, "");
		set_access(L, v, size * n);
		return LLVMBuildBitCast(L->b, v, vector, "");
	}
	v = LLVMGetUndef(vector);
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef e = LLVMBuildLoad2(L->b, ll_type(L, t), element_address(L, t, p, i), "");

		set_access(L, e, size);
		v = LLVMBuildInsertElement(L->b, v, e, LLVMConstInt(ll_int(L, 32), i, 0), "");
	}
	return v;
}

static void store_vector(struct lower *L, enum ptx_type t, unsigned n, LLVMValueRef v, LLVMValueRef p)
{
	unsigned size = type_bits(t) / 8;

	if (!ordered(L) || size * n <= 8) {
		LLVMValueRef st = LLVMBuildStore(L->b, ordered(L) ? LLVMBuildBitCast(L->b, v, ll_int(L, size * n * 8), "")
		                                                  : v, p);

		set_access(L, st, size * n);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef e = LLVMBuildExtractElement(L->b, v, LLVMConstInt(ll_int(L, 32), i, 0), "");

		set_access(L, LLVMBuildStore(L->b, e, element_address(L, t, p, i)), size);
	}
}

static bool lower_load(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	unsigned n = vector_width(L), size = type_bits(t) / 8;
	enum ptx_space space = !strcmp(L->insn->opcode, "ldu") ? PTX_SPACE_GLOBAL : insn_space(L);
	LLVMValueRef p, v;
	const struct ptx_operand *dst = op(L, 0);

	if (t == PTX_TYPE_NONE)
		lower_unsupported(L);
	p = memory_address(L, op(L, 1), space);
	if (n == 1) {
		v = LLVMBuildLoad2(L->b, ll_type(L, t), p, "");
		set_access(L, v, size);
		operand_store(L, dst, v, t);
		return true;
	}
	if (dst->kind != PTX_OP_BRACES || dst->count != n)
		lower_fail(L, "a .v%u load needs %u destination registers", n, n);
	v = load_vector(L, t, n, p);
	for (unsigned i = 0; i < n; i++)
		operand_store(L, &dst->items[i],
		              LLVMBuildExtractElement(L->b, v, LLVMConstInt(ll_int(L, 32), i, 0), ""), t);
	return true;
}

static bool lower_store(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	unsigned n = vector_width(L), size = type_bits(t) / 8;
	LLVMValueRef p, v, st;
	const struct ptx_operand *val = op(L, 1);

	if (t == PTX_TYPE_NONE)
		lower_unsupported(L);
	p = memory_address(L, op(L, 0), insn_space(L));
	if (n == 1) {
		st = LLVMBuildStore(L->b, operand_value(L, val, t), p);
		set_access(L, st, size);
		return true;
	}
	if (val->kind != PTX_OP_BRACES || val->count != n)
		lower_fail(L, "a .v%u store needs %u source values", n, n);
	v = LLVMGetUndef(LLVMVectorType(ll_type(L, t), n));
	for (unsigned i = 0; i < n; i++)
		v = LLVMBuildInsertElement(L->b, v, operand_value(L, &val->items[i], t),
		                           LLVMConstInt(ll_int(L, 32), i, 0), "");
	store_vector(L, t, n, v, p);
	return true;
}

/* mov, including packing {a, b} into a wider register and unpacking it again. */
static bool lower_mov(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	const struct ptx_operand *dst = op(L, 0), *srco = op(L, 1);
	const struct ptx_operand *parts = dst->kind == PTX_OP_BRACES ? dst : srco;
	LLVMTypeRef wide = ll_int(L, type_bits(t));
	unsigned w;

	expect_operands(L, 2);
	if (parts->kind != PTX_OP_BRACES) {
		operand_store(L, dst, operand_value(L, srco, t), t);
		return true;
	}
	if (parts->count == 0 || type_bits(t) % parts->count)
		lower_fail(L, "cannot split %s into %u parts", ptx_type_name(t), parts->count);
	w = type_bits(t) / parts->count;
	if (w == 16 && parts == srco) {
		/* 16-bit lanes as a vector: a pair of halves stays one, and a broadcast of one half
		 * stays a splat, which the packed instructions read by op_sel (an integer build
		 * of it became a multiply by 0x10001) */
		LLVMTypeRef lanes = LLVMVectorType(ll_int(L, 16), parts->count);
		LLVMValueRef v = LLVMGetPoison(lanes);

		for (unsigned i = 0; i < parts->count; i++)
			v = LLVMBuildInsertElement(L->b, v, operand_value(L, &parts->items[i], PTX_TYPE_B16),
			                           const32(L, i), "");
		operand_store(L, dst, LLVMBuildBitCast(L->b, v, wide, ""), t);
	} else if (parts == srco) {
		LLVMValueRef v = LLVMConstInt(wide, 0, 0);

		for (unsigned i = 0; i < parts->count; i++) {
			enum ptx_type pt = w == 8 ? PTX_TYPE_B8 : w == 16 ? PTX_TYPE_B16 : w == 32 ? PTX_TYPE_B32 : PTX_TYPE_B64;
			LLVMValueRef part = LLVMBuildZExt(L->b, operand_value(L, &parts->items[i], pt), wide, "");
			v = LLVMBuildOr(L->b, v, LLVMBuildShl(L->b, part, LLVMConstInt(wide, i * w, 0), ""), "");
		}
		operand_store(L, dst, v, t);
	} else {
		LLVMValueRef v = coerce(L, operand_value(L, srco, t), t == PTX_TYPE_F64 ? PTX_TYPE_B64
		                        : t == PTX_TYPE_F32 ? PTX_TYPE_B32 : t, false);
		enum ptx_type pt = w == 8 ? PTX_TYPE_B8 : w == 16 ? PTX_TYPE_B16 : w == 32 ? PTX_TYPE_B32 : PTX_TYPE_B64;

		for (unsigned i = 0; i < parts->count; i++) {
			LLVMValueRef part = LLVMBuildLShr(L->b, v, LLVMConstInt(wide, i * w, 0), "");
			operand_store(L, &parts->items[i], LLVMBuildTrunc(L->b, part, ll_int(L, w), ""), pt);
		}
	}
	return true;
}

/* cvta.space converts a state-space address to a generic one; cvta.to.space the reverse.
 * .param is a kernel's parameters (__grid_constant__ ones whose address is taken). */
static bool lower_cvta(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	enum ptx_space space = insn_space(L);
	bool to = has_mod(L, "to");
	LLVMValueRef a = operand_value(L, op(L, 1), t), r;
	unsigned as = space_addrspace(L, space), gen = L->target->as_generic;

	if (space == PTX_SPACE_NONE || (space == PTX_SPACE_PARAM && !L->func->is_entry))
		lower_unsupported(L);
	if (space == PTX_SPACE_SHARED && L->target->shared_as_offsets) {
		LLVMValueRef base = LLVMBuildPtrToInt(L->b, shared_base(L), ll_type(L, t), "");
		r = to ? LLVMBuildSub(L->b, a, base, "") : LLVMBuildAdd(L->b, a, base, "");
	} else if (as == gen || space == PTX_SPACE_GLOBAL || space == PTX_SPACE_CONST) {
		r = a; /* global and constant addresses are generic addresses on every target */
	} else {
		LLVMValueRef p = LLVMBuildIntToPtr(L->b, a, ll_ptr(L, to ? gen : as), "");
		r = LLVMBuildPtrToInt(L->b, LLVMBuildAddrSpaceCast(L->b, p, ll_ptr(L, to ? as : gen), ""),
		                      ll_type(L, t), "");
	}
	operand_store(L, op(L, 0), r, t);
	return true;
}

/* Whether generic address a points into one of this module's .const variables: the
 * constant window, as far as a module can see it. */
static LLVMValueRef in_const_window(struct lower *L, LLVMValueRef a)
{
	LLVMTypeRef i64 = ll_int(L, 64);
	LLVMValueRef in = LLVMConstInt(ll_int(L, 1), 0, 0);

	for (const struct ptx_item *it = L->module->items; it; it = it->next) {
		struct sym *s;
		uint64_t size;
		unsigned as;
		LLVMValueRef start;

		if (it->kind != PTX_ITEM_VAR || it->u.var.space != PTX_SPACE_CONST)
			continue;
		s = symtab_find(&L->globals, it->u.var.name);
		size = ptx_var_size(&it->u.var);
		if (!s || s->kind != SYM_VAR || !size)
			continue;
		start = symbol_address(L, s, &as);
		if (as != L->target->as_generic)
			start = LLVMBuildAddrSpaceCast(L->b, start, ll_ptr(L, L->target->as_generic), "");
		start = LLVMBuildPtrToInt(L->b, start, i64, "");
		in = LLVMBuildOr(L->b, in, LLVMBuildICmp(L->b, LLVMIntULT, LLVMBuildSub(L->b, a, start, ""),
		                                         LLVMConstInt(i64, size, 0), ""), "");
	}
	return in;
}

static LLVMValueRef in_window(struct lower *L, const char *builtin, LLVMValueRef a)
{
	LLVMValueRef r = call_builtin(L, builtin, ll_int(L, 32), &a, 1);

	return LLVMBuildICmp(L->b, LLVMIntNE, r, LLVMConstInt(ll_int(L, 32), 0, 0), "");
}

/* isspacep.space p, a. The shared, local and parameter windows are the target's; a global
 * address is one in none of the shared, local and constant windows (kernel parameters
 * count as global, as PTX says). */
static bool lower_isspacep(struct lower *L)
{
	enum ptx_space space = insn_space(L);
	LLVMValueRef a, in;

	expect_operands(L, 2);
	a = operand_value(L, op(L, 1), PTX_TYPE_U64);
	switch (space) {
	case PTX_SPACE_SHARED: in = in_window(L, "__zc_is_shared", a); break;
	case PTX_SPACE_LOCAL: in = in_window(L, "__zc_is_local", a); break;
	case PTX_SPACE_PARAM: in = in_window(L, "__zc_is_param", a); break;
	case PTX_SPACE_CONST: in = in_const_window(L, a); break;
	case PTX_SPACE_GLOBAL:
		in = LLVMBuildOr(L->b, in_window(L, "__zc_is_shared", a), in_window(L, "__zc_is_local", a), "");
		in = LLVMBuildNot(L->b, LLVMBuildOr(L->b, in, in_const_window(L, a), ""), "");
		break;
	default: lower_unsupported(L);
	}
	operand_store(L, op(L, 0), in, PTX_TYPE_PRED);
	return true;
}

/* alloca.type d, size{, align}: size bytes of local memory, freed when the function returns
 * or by stackrestore; stacksave/stackrestore take and give back the local stack pointer. */
static bool lower_stack(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	LLVMTypeRef local = ll_ptr(L, L->target->as_local);
	LLVMValueRef v;

	if (t == PTX_TYPE_NONE)
		lower_unsupported(L);
	if (!strcmp(L->insn->opcode, "alloca")) {
		uint64_t align = 8;  /* PTX's default */
		if (L->insn->nops == 3) {
			if (op(L, 2)->kind != PTX_OP_INT || !op(L, 2)->bits || op(L, 2)->bits > 4096 ||
			    (op(L, 2)->bits & (op(L, 2)->bits - 1)))
				lower_fail(L, "alloca's alignment must be a power of two up to 4096");
			align = op(L, 2)->bits;
		} else {
			expect_operands(L, 2);
		}
		v = LLVMBuildArrayAlloca(L->b, ll_int(L, 8), operand_value(L, op(L, 1), t), "");
		LLVMSetAlignment(v, (unsigned)align);
		operand_store(L, op(L, 0), LLVMBuildPtrToInt(L->b, v, ll_type(L, t), ""), t);
	} else if (!strcmp(L->insn->opcode, "stacksave")) {
		expect_operands(L, 1);
		v = call_intrinsic(L, "llvm.stacksave", &local, 1, NULL, 0);
		operand_store(L, op(L, 0), LLVMBuildPtrToInt(L->b, v, ll_type(L, t), ""), t);
	} else {
		expect_operands(L, 1);
		v = LLVMBuildIntToPtr(L->b, operand_value(L, op(L, 0), t), local, "");
		call_intrinsic(L, "llvm.stackrestore", &local, 1, &v, 1);
	}
	return true;
}

static LLVMAtomicRMWBinOp rmw_op(struct lower *L, enum ptx_type t)
{
	bool f = type_is_float(t) || t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2;

	if (has_mod(L, "add")) return f ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd;
	/* float min/max (sm_90): a NaN operand gives the other one, as PTX's min and max do */
	if (f && has_mod(L, "min")) return LLVMAtomicRMWBinOpFMin;
	if (f && has_mod(L, "max")) return LLVMAtomicRMWBinOpFMax;
	if (f)
		lower_unsupported(L);
	if (has_mod(L, "min")) return type_is_signed(t) ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
	if (has_mod(L, "max")) return type_is_signed(t) ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax;
	if (has_mod(L, "exch")) return LLVMAtomicRMWBinOpXchg;
	if (has_mod(L, "and")) return LLVMAtomicRMWBinOpAnd;
	if (has_mod(L, "or")) return LLVMAtomicRMWBinOpOr;
	if (has_mod(L, "xor")) return LLVMAtomicRMWBinOpXor;
	if (has_mod(L, "inc")) return LLVMAtomicRMWBinOpUIncWrap;
	if (has_mod(L, "dec")) return LLVMAtomicRMWBinOpUDecWrap;
	lower_unsupported(L);
}

/* One atomic read-modify-write; the f16x2/bf16x2 ones work on <2 x half> / <2 x bfloat>, one
 * atomic access of both halves, which LLVM expands to a compare-exchange loop where the
 * target has no such instruction. */
static LLVMValueRef atomic_rmw(struct lower *L, LLVMValueRef p, LLVMValueRef v, enum ptx_type t,
                               LLVMAtomicOrdering order)
{
	bool pair = t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2;
	LLVMValueRef r;

	if (pair)
		v = LLVMBuildBitCast(L->b, v, LLVMVectorType(t == PTX_TYPE_F16X2 ? LLVMHalfTypeInContext(L->ctx)
		                                                                  : LLVMBFloatTypeInContext(L->ctx), 2), "");
	r = LLVMBuildAtomicRMWSyncScope(L->b, rmw_op(L, t), p, v, order, sync_scope(L));
	LLVMSetAlignment(r, type_bits(t) / 8);
	return pair ? LLVMBuildBitCast(L->b, r, ll_type(L, t), "") : r;
}

/* Where a block's threads take turns on one OS thread (shared_as_offsets), an atomic on
 * shared memory races with nothing: no other OS thread reaches the block's memory, and no
 * other thread of the block runs until this one calls the driver. It is a plain load,
 * operation and store then (a locked instruction costs several times as much). NULL for
 * the operations kept atomic: float min and max, f16x2 and bf16x2 pairs. */
static LLVMValueRef plain_rmw(struct lower *L, LLVMValueRef p, LLVMValueRef v, enum ptx_type t,
                             LLVMValueRef compare)
{
	LLVMBuilderRef b = L->b;
	LLVMAtomicRMWBinOp o = compare ? LLVMAtomicRMWBinOpXchg : rmw_op(L, t);
	LLVMValueRef old, one, result;

	if (t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2 || o == LLVMAtomicRMWBinOpFMin ||
	    o == LLVMAtomicRMWBinOpFMax)
		return NULL;
	old = LLVMBuildLoad2(b, LLVMTypeOf(v), p, "");
	LLVMSetAlignment(old, type_bits(t) / 8);
	one = LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMIntegerTypeKind ? LLVMConstInt(LLVMTypeOf(v), 1, 0) : NULL;
	switch (o) {
	case LLVMAtomicRMWBinOpAdd: result = LLVMBuildAdd(b, old, v, ""); break;
	case LLVMAtomicRMWBinOpFAdd: result = LLVMBuildFAdd(b, old, v, ""); break;
	case LLVMAtomicRMWBinOpAnd: result = LLVMBuildAnd(b, old, v, ""); break;
	case LLVMAtomicRMWBinOpOr: result = LLVMBuildOr(b, old, v, ""); break;
	case LLVMAtomicRMWBinOpXor: result = LLVMBuildXor(b, old, v, ""); break;
	case LLVMAtomicRMWBinOpMin: result = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, old, v, ""), old, v, ""); break;
	case LLVMAtomicRMWBinOpMax: result = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, old, v, ""), old, v, ""); break;
	case LLVMAtomicRMWBinOpUMin: result = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, old, v, ""), old, v, ""); break;
	case LLVMAtomicRMWBinOpUMax: result = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, old, v, ""), old, v, ""); break;
	/* inc: old >= v ? 0 : old + 1; dec: old == 0 || old > v ? v : old - 1 */
	case LLVMAtomicRMWBinOpUIncWrap:
		result = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGE, old, v, ""), LLVMConstNull(LLVMTypeOf(v)),
		                         LLVMBuildAdd(b, old, one, ""), "");
		break;
	case LLVMAtomicRMWBinOpUDecWrap:
		result = LLVMBuildSelect(b, LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, old, LLVMConstNull(LLVMTypeOf(v)), ""),
		                                        LLVMBuildICmp(b, LLVMIntUGT, old, v, ""), ""),
		                         v, LLVMBuildSub(b, old, one, ""), "");
		break;
	default:  /* exch, and cas: the new value where the old one equals `compare` */
		result = compare ? LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, old, compare, ""), v, old, "") : v;
		break;
	}
	LLVMSetAlignment(LLVMBuildStore(b, result, p), type_bits(t) / 8);
	return old;
}

static LLVMValueRef atomic_cas(struct lower *L, LLVMValueRef p, LLVMValueRef compare, LLVMValueRef value,
                               LLVMAtomicOrdering order, unsigned size)
{
	LLVMAtomicOrdering fail = order == LLVMAtomicOrderingRelease ? LLVMAtomicOrderingMonotonic
	                        : order == LLVMAtomicOrderingAcquireRelease ? LLVMAtomicOrderingAcquire
	                        : order;
	LLVMValueRef r = LLVMBuildAtomicCmpXchgSyncScope(L->b, p, compare, value, order, fail, sync_scope(L));

	LLVMSetAlignment(r, size);
	return LLVMBuildExtractValue(L->b, r, 0, "");
}

/* atom.{exch,cas}.b128 through the target's builtin (no AMD GPU has 128-bit atomics): the
 * address and the old value's home as generic addresses, the values in 64-bit halves. */
static void atomic_b128(struct lower *L, LLVMValueRef p, unsigned first, const struct ptx_operand *dst)
{
	bool cas = has_mod(L, "cas");
	LLVMTypeRef i64 = ll_int(L, 64), i128 = ll_int(L, 128), generic = ll_ptr(L, L->target->as_generic);
	LLVMValueRef old = entry_alloca(L, i128, 16, "old"), args[7], compare, value;

	if (!cas && !has_mod(L, "exch"))
		lower_unsupported(L);
	compare = cas ? operand_value(L, op(L, first + 1), PTX_TYPE_B128) : LLVMConstInt(i128, 0, 0);
	value = operand_value(L, op(L, first + (cas ? 2 : 1)), PTX_TYPE_B128);
	if (LLVMGetPointerAddressSpace(LLVMTypeOf(p)) != L->target->as_generic)
		p = LLVMBuildAddrSpaceCast(L->b, p, generic, "");
	args[0] = LLVMBuildPtrToInt(L->b, p, i64, "");
	args[1] = LLVMBuildTrunc(L->b, compare, i64, "");
	args[2] = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, compare, LLVMConstInt(i128, 64, 0), ""), i64, "");
	args[3] = LLVMBuildTrunc(L->b, value, i64, "");
	args[4] = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, value, LLVMConstInt(i128, 64, 0), ""), i64, "");
	args[5] = LLVMConstInt(ll_int(L, 32), cas, 0);
	args[6] = LLVMBuildPtrToInt(L->b, L->target->as_local == L->target->as_generic ? old
	                            : LLVMBuildAddrSpaceCast(L->b, old, generic, ""), i64, "");
	call_builtin(L, "__zc_atom_b128", LLVMVoidTypeInContext(L->ctx), args, 7);
	if (dst)
		operand_store(L, dst, LLVMBuildLoad2(L->b, i128, old, ""), PTX_TYPE_B128);
}

/* atom returns the old value; red does not. Without .sem PTX atomics are relaxed. The
 * vector forms (sm_90: .v2/.v4 of f32, f16x2, bf16x2, .v2/.v4/.v8 of f16, bf16) are one
 * atomic operation per element, which is what PTX guarantees of them. */
static bool lower_atomic(struct lower *L, bool returns)
{
	enum ptx_type t = mod_type(L, 0);
	unsigned first = returns ? 1 : 0, n = vector_width(L), size = type_bits(t) / 8;
	const struct ptx_operand *dst = returns ? op(L, 0) : NULL, *src = op(L, first + 1);
	LLVMValueRef p, r;
	LLVMAtomicOrdering order = ordering(L, LLVMAtomicOrderingMonotonic);

	if (type_bits(t) < 16) /* .pred, 8-bit: no atomic PTX defines, none LLVM could make */
		lower_unsupported(L);
	p = memory_address(L, op(L, first), insn_space(L));
	if (t == PTX_TYPE_B128) {
		atomic_b128(L, p, first, dst);
		return true;
	}
	if (n > 1) {
		if (src->kind != PTX_OP_BRACES || src->count != n || (dst && (dst->kind != PTX_OP_BRACES || dst->count != n)))
			lower_fail(L, "a .v%u atomic takes %u values in braces", n, n);
		for (unsigned i = 0; i < n; i++) {
			r = atomic_rmw(L, byte_offset(L, p, (int64_t)i * size), operand_value(L, &src->items[i], t),
			               t, order);
			if (dst)
				operand_store(L, &dst->items[i], r, t);
		}
		return true;
	}
	/* cas b, c: c where the old value is b */
	LLVMValueRef compare = has_mod(L, "cas") ? operand_value(L, src, t) : NULL;
	LLVMValueRef value = operand_value(L, compare ? op(L, first + 2) : src, t);
	if (!(L->target->shared_as_offsets && insn_space(L) == PTX_SPACE_SHARED &&
	      (r = plain_rmw(L, p, value, t, compare))))
		r = compare ? atomic_cas(L, p, compare, value, order, size) : atomic_rmw(L, p, value, t, order);
	if (dst)
		operand_store(L, dst, r, t);
	return true;
}

static bool lower_fence(struct lower *L)
{
	if (has_mod(L, "proxy") || has_mod(L, "proxy::async"))
		return true; /* orders generic and async proxies: nothing to order without async copies */
	LLVMBuildFenceSyncScope(L->b, has_mod(L, "acq_rel") ? LLVMAtomicOrderingAcquireRelease
	                                                   : LLVMAtomicOrderingSequentiallyConsistent,
	                        sync_scope(L), "");
	return true;
}

static bool lower_memory_insn(struct lower *L);

/* Memory instructions. Where a block's threads take turns, an ld, st, atom or red of a
 * space that is not shared has its loads and stores marked so (lower_lockstep.c counts
 * every other load and store as one that may reach shared memory). */
bool lower_memory(struct lower *L)
{
	const char *o = L->insn->opcode;
	LLVMBasicBlockRef block = LLVMGetInsertBlock(L->b);
	LLVMValueRef before = LLVMGetLastInstruction(block);

	if (!lower_memory_insn(L))
		return false;
	if (L->target->shared_as_offsets && (!strcmp(o, "ld") || !strcmp(o, "ldu") || !strcmp(o, "st") ||
	                                     !strcmp(o, "atom") || !strcmp(o, "red"))) {
		enum ptx_space space = insn_space(L);
		if (space == PTX_SPACE_GLOBAL || space == PTX_SPACE_LOCAL || space == PTX_SPACE_PARAM ||
		    space == PTX_SPACE_CONST)
			mark_not_shared(L, before ? LLVMGetNextInstruction(before) : LLVMGetFirstInstruction(block));
	}
	return true;
}

static bool lower_memory_insn(struct lower *L)
{
	const char *o = L->insn->opcode;

	if ((!strcmp(o, "ld") || !strcmp(o, "st")) &&
	    (has_mod(L, "volatile") || insn_space(L) == PTX_SPACE_SHARED))
		call_builtin(L, "__zc_lockstep_point", LLVMVoidTypeInContext(L->ctx), NULL, 0);
	else if (!strcmp(o, "ld") && (has_mod(L, "relaxed") || has_mod(L, "acquire")))
		call_builtin(L, "__zc_spin_point", LLVMVoidTypeInContext(L->ctx), NULL, 0);
	if (!strcmp(o, "atom")) {
		LLVMValueRef point = call_builtin(L, "__zc_spin_point", LLVMVoidTypeInContext(L->ctx), NULL, 0);
		lower_atomic(L, true);
		note_spin_point(L, point, op(L, 0));
		return true;
	}
	if (!strcmp(o, "ld") || !strcmp(o, "ldu"))
		return lower_load(L);
	if (!strcmp(o, "st"))
		return lower_store(L);
	if (!strcmp(o, "mov"))
		return lower_mov(L);
	if (!strcmp(o, "cvta"))
		return lower_cvta(L);
	if (!strcmp(o, "red"))
		return lower_atomic(L, false);
	if (!strcmp(o, "membar") || !strcmp(o, "fence"))
		return lower_fence(L);
	if (!strcmp(o, "isspacep"))
		return lower_isspacep(L);
	if (!strcmp(o, "alloca") || !strcmp(o, "stacksave") || !strcmp(o, "stackrestore"))
		return lower_stack(L);
	/* Cache hints. A discarded line's contents become undefined, so keeping them is right;
	 * a cache policy is only ever handed back to instructions whose hints are ignored. */
	if (!strcmp(o, "prefetch") || !strcmp(o, "prefetchu") || !strcmp(o, "discard") ||
	    !strcmp(o, "applypriority"))
		return true;
	if (!strcmp(o, "createpolicy")) {
		operand_store(L, op(L, 0), LLVMConstInt(ll_int(L, 64), 0, 0), PTX_TYPE_B64);
		return true;
	}
	return false;
}
