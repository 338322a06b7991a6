/* Integer arithmetic, logic and shifts. */
#include <string.h>

#include "lower.h"

static LLVMValueRef src(struct lower *L, unsigned i, enum ptx_type t)
{
	return operand_value(L, op(L, i), t);
}

static LLVMValueRef konst(struct lower *L, enum ptx_type t, uint64_t v)
{
	return LLVMConstInt(ll_type(L, t), v, 0);
}

static enum ptx_type wide_type(enum ptx_type t)
{
	switch (t) {
	case PTX_TYPE_S16: return PTX_TYPE_S32;
	case PTX_TYPE_U16: return PTX_TYPE_U32;
	case PTX_TYPE_S32: return PTX_TYPE_S64;
	case PTX_TYPE_U32: return PTX_TYPE_U64;
	case PTX_TYPE_S64: case PTX_TYPE_U64: return PTX_TYPE_B128;
	default: return PTX_TYPE_NONE;
	}
}

static LLVMValueRef extend(struct lower *L, LLVMValueRef v, enum ptx_type from, unsigned bits)
{
	return type_is_signed(from) ? LLVMBuildSExt(L->b, v, ll_int(L, bits), "")
	                            : LLVMBuildZExt(L->b, v, ll_int(L, bits), "");
}

/* mul/mad .lo, .hi and .wide: the full product is computed at twice the width. */
static LLVMValueRef multiply(struct lower *L, enum ptx_type t, LLVMValueRef a, LLVMValueRef b,
                             enum ptx_type *result_type)
{
	unsigned bits = type_bits(t);
	LLVMValueRef wa, wb, product;

	*result_type = t;
	if (!has_mod(L, "hi") && !has_mod(L, "wide"))
		return LLVMBuildMul(L->b, a, b, "");
	wa = extend(L, a, t, 2 * bits);
	wb = extend(L, b, t, 2 * bits);
	product = LLVMBuildMul(L->b, wa, wb, "");
	if (has_mod(L, "wide")) {
		*result_type = wide_type(t);
		if (*result_type == PTX_TYPE_B128)
			lower_fail(L, "mul.wide is not defined for 64-bit types");
		return product;
	}
	product = LLVMBuildLShr(L->b, product, LLVMConstInt(ll_int(L, 2 * bits), bits, 0), "");
	return LLVMBuildTrunc(L->b, product, ll_int(L, bits), "");
}

static LLVMValueRef saturate_add(struct lower *L, enum ptx_type t, LLVMValueRef a, LLVMValueRef b,
                                 bool subtract)
{
	LLVMTypeRef ty = ll_type(L, t);
	const char *name = subtract ? "llvm.ssub.sat" : "llvm.sadd.sat";
	LLVMValueRef args[2] = {a, b};

	if (t != PTX_TYPE_S32)
		lower_unsupported(L);
	return call_intrinsic(L, name, &ty, 1, args, 2);
}

static LLVMValueRef min_max(struct lower *L, enum ptx_type t, LLVMValueRef a, LLVMValueRef b,
                            bool is_max)
{
	LLVMIntPredicate pred = type_is_signed(t) ? (is_max ? LLVMIntSGT : LLVMIntSLT)
	                                          : (is_max ? LLVMIntUGT : LLVMIntULT);

	return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, pred, a, b, ""), a, b, "");
}

static LLVMValueRef divide(struct lower *L, enum ptx_type t, LLVMValueRef a, LLVMValueRef b,
                           bool remainder)
{
	/* PTX leaves division by zero unspecified but defines no trap; LLVM makes it undefined
	 * behaviour, so divide by 1 instead and let the result be any value. */
	LLVMValueRef zero = LLVMBuildICmp(L->b, LLVMIntEQ, b, konst(L, t, 0), "");
	LLVMValueRef safe = LLVMBuildSelect(L->b, zero, konst(L, t, 1), b, "");

	if (type_is_signed(t)) {
		/* INT_MIN / -1 overflows in LLVM; PTX gives INT_MIN (remainder 0). */
		unsigned bits = type_bits(t);
		LLVMValueRef min = konst(L, t, 1ull << (bits - 1));
		LLVMValueRef ovf = LLVMBuildAnd(L->b,
			LLVMBuildICmp(L->b, LLVMIntEQ, a, min, ""),
			LLVMBuildICmp(L->b, LLVMIntEQ, safe, LLVMConstAllOnes(ll_type(L, t)), ""), "");
		safe = LLVMBuildSelect(L->b, ovf, konst(L, t, 1), safe, "");
		return remainder ? LLVMBuildSelect(L->b, ovf, konst(L, t, 0), LLVMBuildSRem(L->b, a, safe, ""), "")
		                 : LLVMBuildSDiv(L->b, a, safe, "");
	}
	return remainder ? LLVMBuildURem(L->b, a, safe, "") : LLVMBuildUDiv(L->b, a, safe, "");
}

/* shl/shr clamp the shift amount: shifting by the width or more gives 0 (or the sign). */
static LLVMValueRef shift(struct lower *L, enum ptx_type t, LLVMValueRef a, LLVMValueRef amount,
                          const char *opcode)
{
	unsigned bits = type_bits(t);
	LLVMValueRef too_far = LLVMBuildICmp(L->b, LLVMIntUGE, amount,
	                                     LLVMConstInt(ll_int(L, 32), bits, 0), "");
	LLVMValueRef n = LLVMBuildSelect(L->b, too_far, LLVMConstInt(ll_int(L, 32), bits - 1, 0),
	                                 amount, "");

	n = coerce(L, n, t, false);
	if (strcmp(opcode, "shl") == 0)
		return LLVMBuildSelect(L->b, too_far, konst(L, t, 0), LLVMBuildShl(L->b, a, n, ""), "");
	if (type_is_signed(t))
		return LLVMBuildAShr(L->b, a, n, "");
	return LLVMBuildSelect(L->b, too_far, konst(L, t, 0), LLVMBuildLShr(L->b, a, n, ""), "");
}

static LLVMValueRef bit_count(struct lower *L, const char *opcode, enum ptx_type t, LLVMValueRef a)
{
	LLVMTypeRef ty = ll_type(L, t);
	LLVMValueRef args[2] = {a, LLVMConstInt(ll_int(L, 1), 0, 0)};
	LLVMValueRef r;

	if (strcmp(opcode, "popc") == 0)
		r = call_intrinsic(L, "llvm.ctpop", &ty, 1, args, 1);
	else if (strcmp(opcode, "clz") == 0)
		r = call_intrinsic(L, "llvm.ctlz", &ty, 1, args, 2);
	else
		r = call_intrinsic(L, "llvm.bitreverse", &ty, 1, args, 1);
	return r;
}

/* bfind: the position of the most significant non-sign bit, 0xffffffff if none; .shiftamt
 * gives the distance from the top instead. */
static LLVMValueRef find_msb(struct lower *L, enum ptx_type t, LLVMValueRef a)
{
	LLVMTypeRef ty = ll_type(L, t), i32 = ll_int(L, 32);
	unsigned bits = type_bits(t);
	LLVMValueRef x = a, lz, pos, none;
	LLVMValueRef args[2];

	if (type_is_signed(t))
		x = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, a, konst(L, t, 0), ""),
		                    LLVMBuildNot(L->b, a, ""), a, "");
	args[0] = x;
	args[1] = LLVMConstInt(ll_int(L, 1), 0, 0);
	lz = LLVMBuildTrunc(L->b, call_intrinsic(L, "llvm.ctlz", &ty, 1, args, 2), i32, "");
	none = LLVMBuildICmp(L->b, LLVMIntEQ, x, konst(L, t, 0), "");
	pos = has_mod(L, "shiftamt") ? lz
	    : LLVMBuildSub(L->b, LLVMConstInt(i32, bits - 1, 0), lz, "");
	return LLVMBuildSelect(L->b, none, LLVMConstInt(i32, 0xffffffffu, 0), pos, "");
}

static bool lower_arith(struct lower *L, const char *o)
{
	enum ptx_type t, rt;
	LLVMValueRef a, b, r;

	if (strcmp(o, "add") && strcmp(o, "sub") && strcmp(o, "mul") && strcmp(o, "mad") &&
	    strcmp(o, "div") && strcmp(o, "rem") && strcmp(o, "min") && strcmp(o, "max") &&
	    strcmp(o, "sad"))
		return false;
	t = mod_type(L, 0);
	if (type_is_float(t) || t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2)
		return false;

	a = src(L, 1, t);
	b = src(L, 2, t);
	rt = t;
	if (!strcmp(o, "add"))
		r = has_mod(L, "sat") ? saturate_add(L, t, a, b, false) : LLVMBuildAdd(L->b, a, b, "");
	else if (!strcmp(o, "sub"))
		r = has_mod(L, "sat") ? saturate_add(L, t, a, b, true) : LLVMBuildSub(L->b, a, b, "");
	else if (!strcmp(o, "mul"))
		r = multiply(L, t, a, b, &rt);
	else if (!strcmp(o, "mad")) {
		r = multiply(L, t, a, b, &rt);
		if (has_mod(L, "sat"))
			lower_unsupported(L);
		r = LLVMBuildAdd(L->b, r, src(L, 3, rt), "");
	} else if (!strcmp(o, "div") || !strcmp(o, "rem"))
		r = divide(L, t, a, b, o[0] == 'r');
	else if (!strcmp(o, "sad")) {
		LLVMValueRef diff = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b,
			type_is_signed(t) ? LLVMIntSLT : LLVMIntULT, a, b, ""),
			LLVMBuildSub(L->b, b, a, ""), LLVMBuildSub(L->b, a, b, ""), "");
		r = LLVMBuildAdd(L->b, diff, src(L, 3, t), "");
	} else
		r = min_max(L, t, a, b, o[1] == 'a');
	operand_store(L, op(L, 0), r, rt);
	return true;
}

static bool lower_unary(struct lower *L, const char *o)
{
	enum ptx_type t;
	LLVMValueRef a, r;

	if (strcmp(o, "abs") && strcmp(o, "neg") && strcmp(o, "not") && strcmp(o, "cnot") &&
	    strcmp(o, "popc") && strcmp(o, "clz") && strcmp(o, "brev") && strcmp(o, "bfind"))
		return false;
	t = mod_type(L, 0);
	if (type_is_float(t) || t == PTX_TYPE_F16X2 || t == PTX_TYPE_BF16X2)
		return false;
	a = src(L, 1, t);
	if (!strcmp(o, "abs"))
		r = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, a, konst(L, t, 0), ""),
		                    LLVMBuildNeg(L->b, a, ""), a, "");
	else if (!strcmp(o, "neg"))
		r = LLVMBuildNeg(L->b, a, "");
	else if (!strcmp(o, "not"))
		r = t == PTX_TYPE_PRED ? LLVMBuildNot(L->b, a, "") : LLVMBuildNot(L->b, a, "");
	else if (!strcmp(o, "cnot"))
		r = LLVMBuildZExt(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, a, konst(L, t, 0), ""),
		                  ll_type(L, t), "");
	else if (!strcmp(o, "bfind")) {
		operand_store(L, op(L, 0), find_msb(L, t, a), PTX_TYPE_U32);
		return true;
	} else {
		r = bit_count(L, o, t, a);
		if (strcmp(o, "brev") != 0) {
			operand_store(L, op(L, 0), coerce(L, r, PTX_TYPE_U32, false), PTX_TYPE_U32);
			return true;
		}
	}
	operand_store(L, op(L, 0), r, t);
	return true;
}

static bool lower_logic(struct lower *L, const char *o)
{
	enum ptx_type t;
	LLVMValueRef a, b, r;

	if (strcmp(o, "and") && strcmp(o, "or") && strcmp(o, "xor") && strcmp(o, "shl") &&
	    strcmp(o, "shr"))
		return false;
	t = mod_type(L, 0);
	a = src(L, 1, t);
	if (o[0] == 's') {
		r = shift(L, t, a, src(L, 2, PTX_TYPE_U32), o);
	} else {
		b = src(L, 2, t);
		r = o[0] == 'a' ? LLVMBuildAnd(L->b, a, b, "")
		  : o[0] == 'o' ? LLVMBuildOr(L->b, a, b, "") : LLVMBuildXor(L->b, a, b, "");
	}
	operand_store(L, op(L, 0), r, t);
	return true;
}

/* lop3.b32 d, a, b, c, immLut: each result bit is immLut's bit at index (a<<2 | b<<1 | c). */
static bool lower_lop3(struct lower *L)
{
	LLVMValueRef a = src(L, 1, PTX_TYPE_B32), b = src(L, 2, PTX_TYPE_B32);
	LLVMValueRef c = src(L, 3, PTX_TYPE_B32), r = konst(L, PTX_TYPE_B32, 0);
	const struct ptx_operand *lut = op(L, 4);

	if (lut->kind != PTX_OP_INT)
		lower_fail(L, "lop3 needs a constant lookup table");
	for (unsigned i = 0; i < 8; i++) {
		LLVMValueRef term;

		if (!(lut->bits >> i & 1))
			continue;
		term = LLVMBuildAnd(L->b, i & 4 ? a : LLVMBuildNot(L->b, a, ""),
		                    i & 2 ? b : LLVMBuildNot(L->b, b, ""), "");
		term = LLVMBuildAnd(L->b, term, i & 1 ? c : LLVMBuildNot(L->b, c, ""), "");
		r = LLVMBuildOr(L->b, r, term, "");
	}
	operand_store(L, op(L, 0), r, PTX_TYPE_B32);
	return true;
}

/* shf.{l,r}.{wrap,clamp}.b32: a funnel shift of the 64-bit value b:a. */
static bool lower_shf(struct lower *L)
{
	LLVMTypeRef i32 = ll_int(L, 32);
	LLVMValueRef a = src(L, 1, PTX_TYPE_B32), b = src(L, 2, PTX_TYPE_B32);
	LLVMValueRef n = src(L, 3, PTX_TYPE_U32), args[3];
	bool left = has_mod(L, "l");

	if (has_mod(L, "clamp"))
		n = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntUGT, n, LLVMConstInt(i32, 32, 0), ""),
		                    LLVMConstInt(i32, 32, 0), n, "");
	else
		n = LLVMBuildAnd(L->b, n, LLVMConstInt(i32, 31, 0), "");
	args[0] = b;
	args[1] = a;
	args[2] = n;
	if (has_mod(L, "clamp")) {
		/* LLVM's funnel shifts take the amount modulo 32; 32 itself means "all of the
		 * other word". */
		LLVMValueRef full = LLVMBuildICmp(L->b, LLVMIntEQ, n, LLVMConstInt(i32, 32, 0), "");
		LLVMValueRef r = call_intrinsic(L, left ? "llvm.fshl" : "llvm.fshr", &i32, 1, args, 3);
		operand_store(L, op(L, 0), LLVMBuildSelect(L->b, full, left ? a : b, r, ""), PTX_TYPE_B32);
		return true;
	}
	operand_store(L, op(L, 0), call_intrinsic(L, left ? "llvm.fshl" : "llvm.fshr", &i32, 1, args, 3),
	              PTX_TYPE_B32);
	return true;
}

static LLVMValueRef umin(struct lower *L, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntULT, a, b, ""), a, b, "");
}

/* bfe, as the ISA defines it: d[i] = (i < len && pos+i <= msb) ? a[pos+i] : sbit, where
 * sbit is 0 for unsigned types and a[min(pos+len-1, msb)] for signed ones. */
static bool lower_bfe(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	unsigned bits = type_bits(t);
	LLVMValueRef a = src(L, 1, t), byte = konst(L, t, 0xff);
	LLVMValueRef pos = LLVMBuildAnd(L->b, coerce(L, src(L, 2, PTX_TYPE_U32), t, false), byte, "");
	LLVMValueRef len = LLVMBuildAnd(L->b, coerce(L, src(L, 3, PTX_TYPE_U32), t, false), byte, "");
	LLVMValueRef width = konst(L, t, bits), msb = konst(L, t, bits - 1);
	LLVMValueRef in_range = LLVMBuildICmp(L->b, LLVMIntULE, pos, msb, "");
	LLVMValueRef field = LLVMBuildSelect(L->b, in_range,
	                                     LLVMBuildLShr(L->b, a, umin(L, pos, msb), ""), konst(L, t, 0), "");
	LLVMValueRef room = LLVMBuildSelect(L->b, in_range, LLVMBuildSub(L->b, width, pos, ""),
	                                    konst(L, t, 0), "");
	LLVMValueRef keep = umin(L, len, room);
	LLVMValueRef mask = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntUGE, keep, width, ""),
		LLVMConstAllOnes(ll_type(L, t)),
		LLVMBuildSub(L->b, LLVMBuildShl(L->b, konst(L, t, 1), umin(L, keep, msb), ""),
		             konst(L, t, 1), ""), "");
	LLVMValueRef r = LLVMBuildAnd(L->b, field, mask, "");

	if (type_is_signed(t)) {
		/* A zero-length field has no sign bit: the result is 0 (sbit = 0 when len == 0). */
		LLVMValueRef has_len = LLVMBuildICmp(L->b, LLVMIntNE, len, konst(L, t, 0), "");
		LLVMValueRef last = LLVMBuildSub(L->b, LLVMBuildAdd(L->b, pos, len, ""), konst(L, t, 1), "");
		LLVMValueRef at = LLVMBuildSelect(L->b, has_len, umin(L, last, msb), msb, "");
		LLVMValueRef sbit = LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, a, at, ""), konst(L, t, 1), "");
		LLVMValueRef negative = LLVMBuildAnd(L->b, has_len,
			LLVMBuildICmp(L->b, LLVMIntNE, sbit, konst(L, t, 0), ""), "");
		LLVMValueRef fill = LLVMBuildSelect(L->b, negative, LLVMBuildNot(L->b, mask, ""),
		                                    konst(L, t, 0), "");
		r = LLVMBuildOr(L->b, r, fill, "");
	}
	operand_store(L, op(L, 0), r, t);
	return true;
}

/* Created on first use, cleared in the entry block (whose branch to the body is in place
 * before any instruction is lowered). */
static LLVMValueRef carry_slot(struct lower *L)
{
	if (!L->carry) {
		LLVMBuilderRef b = LLVMCreateBuilderInContext(L->ctx);

		L->carry = entry_alloca(L, ll_int(L, 1), 0, "cc");
		LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(L->entry));
		LLVMBuildStore(b, LLVMConstInt(ll_int(L, 1), 0, 0), L->carry);
		LLVMDisposeBuilder(b);
	}
	return L->carry;
}

/* The extended-precision chains: add.cc/addc, sub.cc/subc, mad.cc/madc. CC.CF holds the
 * carry of an addition and the borrow of a subtraction. */
static bool lower_carry_chain(struct lower *L, const char *o)
{
	bool in = o[strlen(o) - 1] == 'c' && strcmp(o, "add") && strcmp(o, "sub") && strcmp(o, "mad");
	bool out = has_mod(L, "cc"), subtract = o[0] == 's', fused = o[0] == 'm';
	enum ptx_type t = mod_type(L, 0), rt;
	LLVMTypeRef ty = ll_type(L, t);
	LLVMValueRef a, b, r, cf, args[2], res;

	if (!in && !out)
		return false;
	if (type_bits(t) != 32 && type_bits(t) != 64)
		lower_unsupported(L);
	a = src(L, 1, t);
	b = src(L, 2, t);
	if (fused) {
		a = multiply(L, t, a, b, &rt);
		b = src(L, 3, t);
	}
	args[0] = a;
	args[1] = b;
	res = call_intrinsic(L, subtract ? "llvm.usub.with.overflow" : "llvm.uadd.with.overflow",
	                     &ty, 1, args, 2);
	r = LLVMBuildExtractValue(L->b, res, 0, "");
	cf = LLVMBuildExtractValue(L->b, res, 1, "");
	if (in) {
		LLVMValueRef c = LLVMBuildLoad2(L->b, ll_int(L, 1), carry_slot(L), "");

		args[0] = r;
		args[1] = LLVMBuildZExt(L->b, c, ty, "");
		res = call_intrinsic(L, subtract ? "llvm.usub.with.overflow" : "llvm.uadd.with.overflow",
		                     &ty, 1, args, 2);
		r = LLVMBuildExtractValue(L->b, res, 0, "");
		cf = LLVMBuildOr(L->b, cf, LLVMBuildExtractValue(L->b, res, 1, ""), "");
	}
	if (out)
		LLVMBuildStore(L->b, cf, carry_slot(L));
	operand_store(L, op(L, 0), r, t);
	return true;
}

bool lower_int(struct lower *L)
{
	const char *o = L->insn->opcode;

	if (!strcmp(o, "addc") || !strcmp(o, "subc") || !strcmp(o, "madc") ||
	    ((!strcmp(o, "add") || !strcmp(o, "sub") || !strcmp(o, "mad")) && has_mod(L, "cc")))
		return lower_carry_chain(L, o);

	if (!strcmp(o, "lop3"))
		return lower_lop3(L);
	if (!strcmp(o, "shf"))
		return lower_shf(L);
	if (!strcmp(o, "bfe"))
		return lower_bfe(L);
	if (mod_type(L, 0) == PTX_TYPE_NONE)
		return false; /* untyped (add.f32x2) is not integer arithmetic */
	return lower_arith(L, o) || lower_unary(L, o) || lower_logic(L, o);
}
