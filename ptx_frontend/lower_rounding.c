/* Directed rounding (.rz .rm .rp) without touching the floating-point environment.
 *
 * LLVM's constrained intrinsics do not set the rounding mode on the host or on AMDGPU, so
 * every directed result is built from the round-to-nearest one, r: an error-free
 * transformation gives the sign of (exact result - r), and r moves one unit in the last
 * place toward the requested direction when that sign says the exact result lies on the
 * other side. The step is integer arithmetic on r's bits, which also turns an overflowed
 * +-inf into +-MAX (the integer just below infinity's bits).
 *
 * The error terms are computed where they cannot underflow: f32 operations in double
 * (products of two f32 are exact there), f64 operations on operands normalized to [0.5, 1)
 * by frexp, with r scaled by the same power of two (exact: r has at most 53 significant
 * bits and lands near 1).
 *
 * Targets that can round one instruction by a mode (ptx_target.rounds_by_mode) do that
 * instead for add, mul, fma and the conversions their builtins name. */
#include <math.h>

#include "lower.h"

enum rounding_mode rounding_mode_of(struct lower *L)
{
	if (has_mod(L, "rz"))
		return ROUND_ZERO;
	if (has_mod(L, "rm"))
		return ROUND_DOWN;
	if (has_mod(L, "rp"))
		return ROUND_UP;
	return ROUND_NEAREST;
}

static bool is_f32(LLVMValueRef v)
{
	return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMFloatTypeKind;
}

/* __zc_<op>_<mode>_<type>: the processor's instruction in the directed mode. */
static LLVMValueRef by_mode(struct lower *L, const char *op, enum rounding_mode mode, const char *type,
                            LLVMTypeRef ret, LLVMValueRef *args, unsigned nargs)
{
	static const char *const names[] = {"rn", "rz", "rm", "rp"};

	return call_builtin(L, lower_name(L, "__zc_%s_%s_%s", op, names[mode], type), ret, args, nargs);
}

static bool rounds_by_mode(struct lower *L, enum rounding_mode mode)
{
	return L->target->rounds_by_mode && mode != ROUND_NEAREST;
}

static LLVMValueRef real(LLVMValueRef like, double d)
{
	return LLVMConstReal(LLVMTypeOf(like), d);
}

static LLVMValueRef fabs_of(struct lower *L, LLVMValueRef v)
{
	LLVMTypeRef ty = LLVMTypeOf(v);

	return call_intrinsic(L, "llvm.fabs", &ty, 1, &v, 1);
}

static LLVMValueRef fma_of(struct lower *L, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
	LLVMTypeRef ty = LLVMTypeOf(a);
	LLVMValueRef args[3] = {a, b, c};

	return call_intrinsic(L, "llvm.fma", &ty, 1, args, 3);
}

static LLVMValueRef is_finite(struct lower *L, LLVMValueRef v)
{
	return LLVMBuildFCmp(L->b, LLVMRealOLT, fabs_of(L, v), real(v, INFINITY), "");
}

static LLVMValueRef to_double(struct lower *L, LLVMValueRef v)
{
	return LLVMBuildFPExt(L->b, v, LLVMDoubleTypeInContext(L->ctx), "");
}

/* TwoSum: *sum + *error == a + b exactly, for finite a and b whose sum does not overflow. */
static void two_sum(struct lower *L, LLVMValueRef a, LLVMValueRef b, LLVMValueRef *sum,
                    LLVMValueRef *error)
{
	LLVMValueRef s = LLVMBuildFAdd(L->b, a, b, "");
	LLVMValueRef b_part = LLVMBuildFSub(L->b, s, a, "");
	LLVMValueRef a_part = LLVMBuildFSub(L->b, s, b_part, "");

	*sum = s;
	*error = LLVMBuildFAdd(L->b, LLVMBuildFSub(L->b, a, a_part, ""),
	                       LLVMBuildFSub(L->b, b, b_part, ""), "");
}

/* frexp: v == *fraction * 2^*exponent with |*fraction| in [0.5, 1), subnormals included. */
static void split(struct lower *L, LLVMValueRef v, LLVMValueRef *fraction, LLVMValueRef *exponent)
{
	LLVMTypeRef types[2] = {LLVMTypeOf(v), ll_int(L, 32)};
	LLVMValueRef parts = call_intrinsic(L, "llvm.frexp", types, 2, &v, 1);

	*fraction = LLVMBuildExtractValue(L->b, parts, 0, "");
	*exponent = LLVMBuildExtractValue(L->b, parts, 1, "");
}

/* v * 2^exponent, exact whenever the result is a normal number. */
static LLVMValueRef scale(struct lower *L, LLVMValueRef v, LLVMValueRef exponent)
{
	LLVMTypeRef types[2] = {LLVMTypeOf(v), ll_int(L, 32)};
	LLVMValueRef args[2] = {v, exponent};

	return call_intrinsic(L, "llvm.ldexp", types, 2, args, 2);
}

/* Moves r one unit in the last place when the exact result lies beyond it: `error` has the
 * sign of (exact - r), or is NaN or zero when r is exact (NaN, infinite operands, exact
 * results). */
static LLVMValueRef step(struct lower *L, enum rounding_mode mode, LLVMValueRef r, LLVMValueRef error)
{
	LLVMTypeRef ity = ll_int(L, LLVMGetTypeKind(LLVMTypeOf(r)) == LLVMFloatTypeKind ? 32 :
	                            LLVMGetTypeKind(LLVMTypeOf(r)) == LLVMDoubleTypeKind ? 64 : 16);
	unsigned bits = LLVMGetIntTypeWidth(ity);
	LLVMValueRef above = LLVMBuildFCmp(L->b, LLVMRealOGT, error, real(error, 0), "");
	LLVMValueRef below = LLVMBuildFCmp(L->b, LLVMRealOLT, error, real(error, 0), "");
	LLVMValueRef rbits = LLVMBuildBitCast(L->b, r, ity, "");
	LLVMValueRef one = LLVMConstInt(ity, 1, 0);
	LLVMValueRef negative = LLVMBuildICmp(L->b, LLVMIntSLT, rbits, LLVMConstInt(ity, 0, 0), "");
	LLVMValueRef is_zero = LLVMBuildICmp(L->b, LLVMIntEQ, LLVMBuildAnd(L->b, rbits, LLVMConstInt(ity, ~(1ull << (bits - 1)), 0), ""),
	                                     LLVMConstInt(ity, 0, 0), "");
	LLVMValueRef away = LLVMBuildAdd(L->b, rbits, one, ""), toward = LLVMBuildSub(L->b, rbits, one, "");
	LLVMValueRef moved, wanted;

	switch (mode) {
	case ROUND_ZERO: /* |r| > |exact|, so r is not zero */
		wanted = LLVMBuildSelect(L->b, negative, above, below, "");
		moved = toward;
		break;
	case ROUND_UP: /* from a zero of either sign to the smallest positive subnormal */
		wanted = above;
		moved = LLVMBuildSelect(L->b, is_zero, one, LLVMBuildSelect(L->b, negative, toward, away, ""), "");
		break;
	case ROUND_DOWN:
		wanted = below;
		moved = LLVMBuildSelect(L->b, is_zero, LLVMConstInt(ity, 1ull << (bits - 1) | 1, 0),
		                        LLVMBuildSelect(L->b, negative, away, toward, ""), "");
		break;
	default:
		return r;
	}
	return LLVMBuildBitCast(L->b, LLVMBuildSelect(L->b, wanted, moved, rbits, ""), LLVMTypeOf(r), "");
}

/* An exact zero sum is +0 in round-to-nearest unless both addends are -0, and -0 when
 * rounding down unless both are +0: negating the addends and the result maps one rule onto
 * the other. So rounding down, a zero r becomes -(nearest sum of the negated addends), before
 * any step (a zero that underflowed keeps its sign: -RN(-x) is RN(x)). */
static LLVMValueRef zero_sum_sign(struct lower *L, enum rounding_mode mode, LLVMValueRef r,
                                  LLVMValueRef mirrored)
{
	if (mode != ROUND_DOWN)
		return r;
	return LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealOEQ, r, real(r, 0), ""),
	                       LLVMBuildFNeg(L->b, mirrored, ""), r, "");
}

/* The error of a sum held as s + t (|t| at most half an ulp of s, in a format wider than
 * r's): (s - r) is exact by Sterbenz's lemma and a nonzero one outweighs t, so the rounded
 * (s - r) + t has the sign of s + t - r. */
static LLVMValueRef sum_error(struct lower *L, LLVMValueRef s, LLVMValueRef t, LLVMValueRef r)
{
	return LLVMBuildFAdd(L->b, LLVMBuildFSub(L->b, s, to_double(L, r), ""), t, "");
}

LLVMValueRef round_add(struct lower *L, enum rounding_mode mode, LLVMValueRef a, LLVMValueRef b)
{
	LLVMValueRef r, s, t, error, args[2] = {a, b};

	if (rounds_by_mode(L, mode))
		return by_mode(L, "add", mode, is_f32(a) ? "f32" : "f64", LLVMTypeOf(a), args, 2);
	r = LLVMBuildFAdd(L->b, a, b, "");

	if (is_f32(a)) {
		two_sum(L, to_double(L, a), to_double(L, b), &s, &t);
		error = sum_error(L, s, t, r);
	} else {
		/* TwoSum's error is NaN when r overflowed; the exact sum then lies below +inf or
		 * above -inf. */
		LLVMValueRef overflow = LLVMBuildAnd(L->b, LLVMBuildAnd(L->b, is_finite(L, a), is_finite(L, b), ""),
		                                     LLVMBuildNot(L->b, is_finite(L, r), ""), "");
		two_sum(L, a, b, &s, &t);
		error = LLVMBuildSelect(L->b, overflow, LLVMBuildFNeg(L->b, r, ""), t, "");
	}
	r = zero_sum_sign(L, mode, r, LLVMBuildFAdd(L->b, LLVMBuildFNeg(L->b, a, ""),
	                                             LLVMBuildFNeg(L->b, b, ""), ""));
	return step(L, mode, r, error);
}

LLVMValueRef round_mul(struct lower *L, enum rounding_mode mode, LLVMValueRef a, LLVMValueRef b)
{
	LLVMValueRef r, error, args[2] = {a, b};

	if (rounds_by_mode(L, mode))
		return by_mode(L, "mul", mode, is_f32(a) ? "f32" : "f64", LLVMTypeOf(a), args, 2);
	r = LLVMBuildFMul(L->b, a, b, "");

	if (is_f32(a)) {
		/* exact in double; an overflowed r is an infinity beyond it */
		error = fma_of(L, to_double(L, a), to_double(L, b), LLVMBuildFNeg(L->b, to_double(L, r), ""));
	} else {
		LLVMValueRef an, bn, ea, eb, rn;
		split(L, a, &an, &ea);
		split(L, b, &bn, &eb);
		rn = scale(L, r, LLVMBuildNeg(L->b, LLVMBuildAdd(L->b, ea, eb, ""), ""));
		error = fma_of(L, an, bn, LLVMBuildFNeg(L->b, rn, ""));
	}
	return step(L, mode, r, error);
}

/* a - r * b has the sign of (a / b - r) times the sign of b. */
LLVMValueRef round_div(struct lower *L, enum rounding_mode mode, LLVMValueRef a, LLVMValueRef b)
{
	LLVMValueRef r = LLVMBuildFDiv(L->b, a, b, ""), remainder, error;

	if (is_f32(a)) {
		LLVMValueRef bd = to_double(L, b);
		remainder = fma_of(L, LLVMBuildFNeg(L->b, to_double(L, r), ""), bd, to_double(L, a));
		error = LLVMBuildFMul(L->b, remainder, bd, "");
	} else {
		LLVMValueRef an, bn, ea, eb, rn;
		split(L, a, &an, &ea);
		split(L, b, &bn, &eb);
		rn = scale(L, r, LLVMBuildSub(L->b, eb, ea, ""));
		remainder = fma_of(L, LLVMBuildFNeg(L->b, rn, ""), bn, an);
		error = LLVMBuildFMul(L->b, remainder, bn, "");
	}
	return step(L, mode, r, error);
}

/* a - r * r has the sign of (sqrt(a) - r). */
LLVMValueRef round_sqrt(struct lower *L, enum rounding_mode mode, LLVMValueRef a)
{
	LLVMTypeRef ty = LLVMTypeOf(a);
	LLVMValueRef r = call_intrinsic(L, "llvm.sqrt", &ty, 1, &a, 1), error;

	if (LLVMGetTypeKind(ty) == LLVMFloatTypeKind) {
		LLVMValueRef rd = to_double(L, r);
		error = fma_of(L, LLVMBuildFNeg(L->b, rd, ""), rd, to_double(L, a));
	} else {
		/* a = an * 2^(2k), sqrt(a) = sqrt(an) * 2^k: an in [0.5, 2) */
		LLVMValueRef fraction, exponent, half, an, rn;
		split(L, a, &fraction, &exponent);
		half = LLVMBuildAShr(L->b, exponent, LLVMConstInt(ll_int(L, 32), 1, 0), "");
		an = scale(L, a, LLVMBuildNeg(L->b, LLVMBuildAdd(L->b, half, half, ""), ""));
		rn = scale(L, r, LLVMBuildNeg(L->b, half, ""));
		error = fma_of(L, LLVMBuildFNeg(L->b, rn, ""), rn, an);
		/* frexp's exponent of an infinity is unspecified; sqrt(+inf) is exact */
		error = LLVMBuildSelect(L->b, is_finite(L, a), error, real(a, 0), "");
	}
	return step(L, mode, r, error);
}

/* f64: a, b normalized by frexp to an, bn and c, r scaled by the same power of two; then
 * Boldo and Muller's ErrFma gives the error exactly:
 *   an * bn = u1 + u2, cn + u2 = alpha1 + alpha2, u1 + alpha1 = beta1 + beta2,
 *   error = ((beta1 - rn) + beta2) + alpha2.
 * A c too small to survive the scaling keeps its sign as the smallest subnormal (it can
 * only matter when an * bn == rn exactly); one too large to scale makes the error that of
 * dropping a * b, whose sign is a * b's. */
static LLVMValueRef fma_error_f64(struct lower *L, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c,
                                  LLVMValueRef r)
{
	LLVMValueRef an, bn, ea, eb, shift, cn, rn, u1, u2, alpha1, alpha2, beta1, beta2, error;
	LLVMValueRef c_vanished, c_too_large, product_zero, finite;

	split(L, a, &an, &ea);
	split(L, b, &bn, &eb);
	shift = LLVMBuildNeg(L->b, LLVMBuildAdd(L->b, ea, eb, ""), "");
	cn = scale(L, c, shift);
	rn = scale(L, r, shift);
	c_vanished = LLVMBuildAnd(L->b, LLVMBuildFCmp(L->b, LLVMRealOEQ, cn, real(c, 0), ""),
	                          LLVMBuildFCmp(L->b, LLVMRealONE, c, real(c, 0), ""), "");
	cn = LLVMBuildSelect(L->b, c_vanished, LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealOLT, c, real(c, 0), ""),
	                                                       real(c, -0x1p-1074), real(c, 0x1p-1074), ""),
	                     cn, "");
	u1 = LLVMBuildFMul(L->b, an, bn, "");
	u2 = fma_of(L, an, bn, LLVMBuildFNeg(L->b, u1, ""));
	two_sum(L, cn, u2, &alpha1, &alpha2);
	two_sum(L, u1, alpha1, &beta1, &beta2);
	error = LLVMBuildFAdd(L->b, LLVMBuildFAdd(L->b, LLVMBuildFSub(L->b, beta1, rn, ""), beta2, ""),
	                      alpha2, "");
	finite = LLVMBuildAnd(L->b, LLVMBuildAnd(L->b, is_finite(L, a), is_finite(L, b), ""), is_finite(L, c), "");
	c_too_large = LLVMBuildAnd(L->b, finite, LLVMBuildNot(L->b, is_finite(L, cn), ""), "");
	error = LLVMBuildSelect(L->b, c_too_large, u1, error, "");
	/* a * b == 0: r is c, exact but for the sign of a zero */
	product_zero = LLVMBuildFCmp(L->b, LLVMRealOEQ, u1, real(u1, 0), "");
	error = LLVMBuildSelect(L->b, product_zero, real(u1, 0), error, "");
	return LLVMBuildSelect(L->b, finite, error, real(u1, 0), "");
}

LLVMValueRef round_fma(struct lower *L, enum rounding_mode mode, LLVMValueRef a, LLVMValueRef b,
                       LLVMValueRef c)
{
	LLVMValueRef r, error, args[3] = {a, b, c};

	if (rounds_by_mode(L, mode))
		return by_mode(L, "fma", mode, is_f32(a) ? "f32" : "f64", LLVMTypeOf(a), args, 3);
	r = fma_of(L, a, b, c);

	if (is_f32(a)) {
		/* a * b is exact in double; TwoSum adds c */
		LLVMValueRef s, t;
		two_sum(L, LLVMBuildFMul(L->b, to_double(L, a), to_double(L, b), ""), to_double(L, c), &s, &t);
		error = sum_error(L, s, t, r);
	} else {
		error = fma_error_f64(L, a, b, c, r);
	}
	r = zero_sum_sign(L, mode, r, fma_of(L, LLVMBuildFNeg(L->b, a, ""), b, LLVMBuildFNeg(L->b, c, "")));
	return step(L, mode, r, error);
}

/* Float to narrower float: the source itself is the exact value. */
LLVMValueRef round_narrow(struct lower *L, enum rounding_mode mode, LLVMValueRef v, LLVMTypeRef to)
{
	LLVMValueRef r;

	if (rounds_by_mode(L, mode) && LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMDoubleTypeKind &&
	    LLVMGetTypeKind(to) == LLVMFloatTypeKind)
		return by_mode(L, "cvt", mode, "f32_f64", to, &v, 1);
	r = LLVMBuildFPTrunc(L->b, v, to, "");
	if (mode == ROUND_NEAREST)
		return r;
	return step(L, mode, r, LLVMBuildFSub(L->b, v, LLVMBuildFPExt(L->b, r, LLVMTypeOf(v), ""), ""));
}

/* Integer to float: r converted back (saturating) compares with the integer; an r at or
 * beyond the integer type's range (2^64 from u64, an infinite f16) is beyond it. */
LLVMValueRef round_from_int(struct lower *L, enum rounding_mode mode, LLVMValueRef v, bool is_signed,
                            LLVMValueRef r)
{
	LLVMTypeRef ity = LLVMTypeOf(v), types[2] = {ity, LLVMTypeOf(r)};
	unsigned bits = LLVMGetIntTypeWidth(ity);

	if (rounds_by_mode(L, mode) && bits == 32 && is_f32(r))
		return by_mode(L, "cvt", mode, is_signed ? "f32_s32" : "f32_u32", LLVMTypeOf(r), &v, 1);
	LLVMValueRef back = call_intrinsic(L, is_signed ? "llvm.fptosi.sat" : "llvm.fptoui.sat", types, 2, &r, 1);
	LLVMValueRef rd = to_double(L, r), high = LLVMConstReal(LLVMTypeOf(rd), ldexp(1, (int)bits - is_signed));
	LLVMValueRef above_range = LLVMBuildFCmp(L->b, LLVMRealOGE, rd, high, "");
	LLVMValueRef below_range = LLVMBuildFCmp(L->b, LLVMRealOLT, rd, real(rd, -ldexp(1, (int)bits - is_signed)), "");
	LLVMValueRef greater = LLVMBuildICmp(L->b, is_signed ? LLVMIntSGT : LLVMIntUGT, v, back, "");
	LLVMValueRef less = LLVMBuildICmp(L->b, is_signed ? LLVMIntSLT : LLVMIntULT, v, back, "");
	LLVMValueRef error = LLVMBuildSelect(L->b, greater, real(rd, 1),
	                                     LLVMBuildSelect(L->b, less, real(rd, -1), real(rd, 0), ""), "");

	error = LLVMBuildSelect(L->b, above_range, real(rd, -1), error, "");
	error = LLVMBuildSelect(L->b, below_range, real(rd, 1), error, "");
	return step(L, mode, r, error);
}
