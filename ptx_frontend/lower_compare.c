/* Comparison and selection: setp, set, selp, slct. */
#include <string.h>

#include "lower.h"

struct compare_op {
	const char *name;
	LLVMIntPredicate sint, uint;
	LLVMRealPredicate real;
};

static const struct compare_op compare_ops[] = {
	{"eq", LLVMIntEQ, LLVMIntEQ, LLVMRealOEQ}, {"ne", LLVMIntNE, LLVMIntNE, LLVMRealONE},
	{"lt", LLVMIntSLT, LLVMIntULT, LLVMRealOLT}, {"le", LLVMIntSLE, LLVMIntULE, LLVMRealOLE},
	{"gt", LLVMIntSGT, LLVMIntUGT, LLVMRealOGT}, {"ge", LLVMIntSGE, LLVMIntUGE, LLVMRealOGE},
	{"lo", LLVMIntULT, LLVMIntULT, 0}, {"ls", LLVMIntULE, LLVMIntULE, 0},
	{"hi", LLVMIntUGT, LLVMIntUGT, 0}, {"hs", LLVMIntUGE, LLVMIntUGE, 0},
	{"equ", 0, 0, LLVMRealUEQ}, {"neu", 0, 0, LLVMRealUNE}, {"ltu", 0, 0, LLVMRealULT},
	{"leu", 0, 0, LLVMRealULE}, {"gtu", 0, 0, LLVMRealUGT}, {"geu", 0, 0, LLVMRealUGE},
	{"num", 0, 0, LLVMRealORD}, {"nan", 0, 0, LLVMRealUNO},
};

static const struct compare_op *find_compare(struct lower *L)
{
	for (size_t i = 0; i < sizeof(compare_ops) / sizeof(compare_ops[0]); i++)
		if (has_mod(L, compare_ops[i].name))
			return &compare_ops[i];
	lower_fail(L, "%s needs a comparison operator", L->insn->opcode);
}

/* .ftz on a comparison flushes subnormal inputs to zero first (f32, and f16 and each half
 * of f16x2; bf16 has no .ftz form). */
static LLVMValueRef compare_input(struct lower *L, unsigned i, enum ptx_type t)
{
	LLVMValueRef v = operand_value(L, op(L, i), t);

	if (type_is_packed(t))
		v = LLVMBuildBitCast(L->b, v, float_value_type(L, t), "");
	return has_mod(L, "ftz") && (type_is_float(t) || type_is_packed(t)) ? flush_subnormal(L, t, v) : v;
}

/* The comparison: i1, or <2 x i1> (lower half first) for the packed types. */
static LLVMValueRef compare(struct lower *L, enum ptx_type t, unsigned first)
{
	const struct compare_op *c = find_compare(L);
	LLVMValueRef a = compare_input(L, first, t), b = compare_input(L, first + 1, t);

	if (type_is_float(t) || type_is_packed(t)) {
		if (!c->real)
			lower_fail(L, "comparison .%s is not defined for %s", c->name, ptx_type_name(t));
		return LLVMBuildFCmp(L->b, c->real, a, b, "");
	}
	if (!c->sint && !c->uint && c->real)
		lower_fail(L, "comparison .%s is not defined for %s", c->name, ptx_type_name(t));
	return LLVMBuildICmp(L->b, type_is_signed(t) ? c->sint : c->uint, a, b, "");
}

/* r BoolOp c for the optional fourth operand (c splat over a pair); r alone without it. */
static LLVMValueRef combine(struct lower *L, LLVMValueRef r, LLVMValueRef c)
{
	if (!c)
		return r;
	if (has_mod(L, "and"))
		return LLVMBuildAnd(L->b, r, c, "");
	if (has_mod(L, "or"))
		return LLVMBuildOr(L->b, r, c, "");
	if (has_mod(L, "xor"))
		return LLVMBuildXor(L->b, r, c, "");
	lower_fail(L, "%s with a predicate operand needs .and, .or or .xor", L->insn->opcode);
}

static LLVMValueRef combining_predicate(struct lower *L, unsigned i, bool packed)
{
	LLVMValueRef c;

	if (L->insn->nops <= i)
		return NULL;
	c = operand_value(L, op(L, i), PTX_TYPE_PRED);
	if (packed) {
		LLVMValueRef pair = LLVMGetUndef(LLVMVectorType(LLVMTypeOf(c), 2));
		pair = LLVMBuildInsertElement(L->b, pair, c, LLVMConstInt(ll_int(L, 32), 0, 0), "");
		c = LLVMBuildInsertElement(L->b, pair, c, LLVMConstInt(ll_int(L, 32), 1, 0), "");
	}
	return c;
}

/* setp.op[.bool].type p[|q], a, b[, {!}c]: q gets the complement of the comparison; for
 * f16x2/bf16x2 p compares the lower halves and q the upper ones, each combined with c. */
static bool lower_setp(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	const struct ptx_operand *dst = op(L, 0);
	LLVMValueRef r = compare(L, t, 1), c = combining_predicate(L, 3, false), p, q;

	if (L->insn->nops > 4)
		lower_unsupported(L);
	if (type_is_packed(t)) {
		if (dst->kind != PTX_OP_PAIR)
			lower_fail(L, "setp.%s needs a p|q destination", ptx_type_name(t));
		p = LLVMBuildExtractElement(L->b, r, LLVMConstInt(ll_int(L, 32), 0, 0), "");
		q = LLVMBuildExtractElement(L->b, r, LLVMConstInt(ll_int(L, 32), 1, 0), "");
	} else {
		p = r;
		q = LLVMBuildNot(L->b, r, "");
	}
	p = combine(L, p, c);
	if (dst->kind == PTX_OP_PAIR) {
		operand_store(L, &dst->items[0], p, PTX_TYPE_PRED);
		operand_store(L, &dst->items[1], combine(L, q, c), PTX_TYPE_PRED);
	} else {
		operand_store(L, dst, p, PTX_TYPE_PRED);
	}
	return true;
}

/* set.op[.bool].dtype.stype d, a, b[, {!}c]: 1.0 (f32, f16, bf16 destinations) or all ones
 * when true, else 0; for f16x2/bf16x2 sources each half of d from its own halves: 1.0 of
 * the half type (f16x2/bf16x2 destinations) or 0xffff (u32/s32). */
static bool lower_set(struct lower *L)
{
	enum ptx_type dt = mod_type(L, 0), st = mod_type(L, 1);
	LLVMValueRef r = compare(L, st, 1), one, zero;

	if (L->insn->nops > 4)
		lower_unsupported(L);
	r = combine(L, r, combining_predicate(L, 3, type_is_packed(st)));
	if (type_is_packed(st)) {
		LLVMTypeRef half = ll_int(L, 16);
		uint64_t bits = dt == PTX_TYPE_F16X2 ? 0x3c00 : dt == PTX_TYPE_BF16X2 ? 0x3f80 : 0xffff;
		LLVMValueRef o = LLVMConstInt(half, bits, 0), ones[2] = {o, o};

		if (type_bits(dt) != 32)
			lower_fail(L, "set.%s.%s: the destination must be 32 bits wide", ptx_type_name(dt),
			           ptx_type_name(st));
		r = LLVMBuildSelect(L->b, r, LLVMConstVector(ones, 2), LLVMConstNull(LLVMVectorType(half, 2)), "");
		operand_store(L, op(L, 0), LLVMBuildBitCast(L->b, r, ll_type(L, dt), ""), dt);
		return true;
	}
	one = type_is_float(dt) ? LLVMConstReal(ll_type(L, dt), 1.0) : LLVMConstAllOnes(ll_type(L, dt));
	zero = LLVMConstNull(ll_type(L, dt));
	operand_store(L, op(L, 0), LLVMBuildSelect(L->b, r, one, zero, ""), dt);
	return true;
}

static bool lower_selp(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	LLVMValueRef c = operand_value(L, op(L, 3), PTX_TYPE_PRED);

	operand_store(L, op(L, 0), LLVMBuildSelect(L->b, c, operand_value(L, op(L, 1), t),
	                                           operand_value(L, op(L, 2), t), ""), t);
	return true;
}

/* slct.dtype.ctype d, a, b, c: a if c >= 0, else b. With .ftz a subnormal f32 c counts as a
 * zero of its sign, so a negative subnormal selects a. */
static bool lower_slct(struct lower *L)
{
	enum ptx_type dt = mod_type(L, 0), ct = mod_type(L, 1);
	LLVMValueRef c = compare_input(L, 3, ct), ge;

	if (ct == PTX_TYPE_F32)
		ge = LLVMBuildFCmp(L->b, LLVMRealOGE, c, LLVMConstReal(ll_type(L, ct), 0), "");
	else
		ge = LLVMBuildICmp(L->b, LLVMIntSGE, c, LLVMConstNull(ll_type(L, ct)), "");
	operand_store(L, op(L, 0), LLVMBuildSelect(L->b, ge, operand_value(L, op(L, 1), dt),
	                                           operand_value(L, op(L, 2), dt), ""), dt);
	return true;
}

bool lower_compare(struct lower *L)
{
	const char *o = L->insn->opcode;

	if (!strcmp(o, "setp"))
		return lower_setp(L);
	if (!strcmp(o, "set"))
		return lower_set(L);
	if (!strcmp(o, "selp"))
		return lower_selp(L);
	if (!strcmp(o, "slct"))
		return lower_slct(L);
	return false;
}
