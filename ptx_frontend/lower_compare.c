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

/* .ftz on a comparison flushes subnormal inputs to zero first. */
static LLVMValueRef compare_input(struct lower *L, unsigned i, enum ptx_type t)
{
	LLVMValueRef v = operand_value(L, op(L, i), t);

	if (has_mod(L, "ftz") && t == PTX_TYPE_F32) {
		LLVMTypeRef ty = ll_type(L, t);
		LLVMValueRef abs = call_intrinsic(L, "llvm.fabs", &ty, 1, &v, 1);
		LLVMValueRef tiny = LLVMBuildFCmp(L->b, LLVMRealOLT, abs, LLVMConstReal(ty, 0x1p-126), "");
		v = LLVMBuildSelect(L->b, tiny, LLVMConstReal(ty, 0), v, "");
	}
	return v;
}

static LLVMValueRef compare(struct lower *L, enum ptx_type t, unsigned first)
{
	const struct compare_op *c = find_compare(L);
	LLVMValueRef a = compare_input(L, first, t), b = compare_input(L, first + 1, t);

	if (type_is_float(t)) {
		if (!c->real)
			lower_fail(L, "comparison .%s is not defined for %s", c->name, ptx_type_name(t));
		return LLVMBuildFCmp(L->b, c->real, a, b, "");
	}
	if (!c->sint && !c->uint && c->real)
		lower_fail(L, "comparison .%s is not defined for %s", c->name, ptx_type_name(t));
	return LLVMBuildICmp(L->b, type_is_signed(t) ? c->sint : c->uint, a, b, "");
}

/* setp.op[.bool].type p[|q], a, b[, {!}c]: q gets the complement of the comparison. */
static bool lower_setp(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	const struct ptx_operand *dst = op(L, 0);
	LLVMValueRef r = compare(L, t, 1), nr = LLVMBuildNot(L->b, r, "");

	if (L->insn->nops == 4) {
		LLVMValueRef c = operand_value(L, op(L, 3), PTX_TYPE_PRED);

		if (has_mod(L, "and"))
			r = LLVMBuildAnd(L->b, r, c, ""), nr = LLVMBuildAnd(L->b, nr, c, "");
		else if (has_mod(L, "or"))
			r = LLVMBuildOr(L->b, r, c, ""), nr = LLVMBuildOr(L->b, nr, c, "");
		else if (has_mod(L, "xor"))
			r = LLVMBuildXor(L->b, r, c, ""), nr = LLVMBuildXor(L->b, nr, c, "");
		else
			lower_fail(L, "setp with a fourth operand needs .and, .or or .xor");
	}
	if (dst->kind == PTX_OP_PAIR) {
		operand_store(L, &dst->items[0], r, PTX_TYPE_PRED);
		operand_store(L, &dst->items[1], nr, PTX_TYPE_PRED);
	} else {
		operand_store(L, dst, r, PTX_TYPE_PRED);
	}
	return true;
}

/* set.op.dtype.stype d, a, b: all ones (1.0 for f32) when true, else 0. */
static bool lower_set(struct lower *L)
{
	enum ptx_type dt = mod_type(L, 0), st = mod_type(L, 1);
	LLVMValueRef r = compare(L, st, 1), one, zero;

	if (L->insn->nops != 3)
		lower_unsupported(L);
	one = dt == PTX_TYPE_F32 ? LLVMConstReal(ll_type(L, dt), 1.0) : LLVMConstAllOnes(ll_type(L, dt));
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
