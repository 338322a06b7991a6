/* Floating-point arithmetic: f32, f64, and f16/bf16 scalars and pairs.
 *
 * Round-to-nearest is LLVM's default and exact; .approx instructions call the target's
 * builtins (the hardware's approximations on AMDGPU). Directed rounding (.rz .rm .rp) of
 * f32 and f64 is built from the round-to-nearest result (lower_rounding.c); the f16 and bf16
 * instructions have only .rn. */
#include <string.h>

#include "lower.h"

static LLVMValueRef fsrc(struct lower *L, unsigned i, enum ptx_type t)
{
	LLVMValueRef v = operand_value(L, op(L, i), t);

	return type_is_packed(t) ? LLVMBuildBitCast(L->b, v, float_value_type(L, t), "") : v;
}

static void fstore(struct lower *L, LLVMValueRef v, enum ptx_type t)
{
	if (type_is_packed(t))
		v = LLVMBuildBitCast(L->b, v, ll_type(L, t), "");
	operand_store(L, op(L, 0), v, t);
}

static LLVMValueRef fconst(struct lower *L, enum ptx_type t, double d)
{
	LLVMTypeRef ty = float_value_type(L, t);

	if (type_is_packed(t)) {
		LLVMValueRef e = LLVMConstReal(LLVMGetElementType(ty), d), pair[2] = {e, e};
		return LLVMConstVector(pair, 2);
	}
	return LLVMConstReal(ty, d);
}

static LLVMValueRef unary_intrinsic(struct lower *L, const char *name, enum ptx_type t, LLVMValueRef a)
{
	LLVMTypeRef ty = float_value_type(L, t);

	return call_intrinsic(L, name, &ty, 1, &a, 1);
}

static LLVMValueRef binary_intrinsic(struct lower *L, const char *name, enum ptx_type t,
                                     LLVMValueRef a, LLVMValueRef b)
{
	LLVMTypeRef ty = float_value_type(L, t);
	LLVMValueRef args[2] = {a, b};

	return call_intrinsic(L, name, &ty, 1, args, 2);
}

/* The smallest normal magnitude of a float type (each half of a packed one). */
static double smallest_normal(enum ptx_type t)
{
	switch (t) {
	case PTX_TYPE_F16: case PTX_TYPE_F16X2: return 0x1p-14;
	case PTX_TYPE_F64: return 0x1p-1022;
	default: return 0x1p-126; /* f32, bf16 */
	}
}

/* .ftz: a subnormal becomes a zero of its sign. Where the function runs in the flushing
 * mode, that is llvm.canonicalize, which the backend drops after an operation that
 * flushed already and which otherwise costs one instruction; else a compare and a select. */
LLVMValueRef flush_subnormal(struct lower *L, enum ptx_type t, LLVMValueRef v)
{
	LLVMValueRef tiny;

	if (L->f32_flush_by_mode && t == PTX_TYPE_F32)
		return unary_intrinsic(L, "llvm.canonicalize", t, v);
	tiny = LLVMBuildFCmp(L->b, LLVMRealOLT, unary_intrinsic(L, "llvm.fabs", t, v),
	                     fconst(L, t, smallest_normal(t)), "");
	return LLVMBuildSelect(L->b, tiny, binary_intrinsic(L, "llvm.copysign", t, fconst(L, t, 0), v),
	                       v, "");
}

/* Add, subtract, multiply, fma, min and max read their operands in the function's denormal
 * mode (in any rounding mode where the processor rounds them itself): in the flushing mode
 * the hardware flushes them. The others (directed rounding built in f64, division and
 * square root, which LLVM expands with the mode switched, approximations made of several
 * instructions) flush them first. */
static bool mode_flushes_operands(struct lower *L, enum ptx_type t)
{
	static const char *const plain[] = {"add", "sub", "mul", "fma", "mad", "min", "max", "abs", "neg"};

	if (!L->f32_flush_by_mode || t != PTX_TYPE_F32 || has_mod(L, "approx") ||
	    (rounding_mode_of(L) != ROUND_NEAREST && !L->target->rounds_by_mode))
		return false;
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (!strcmp(L->insn->opcode, plain[i]))
			return true;
	return false;
}

static LLVMValueRef input(struct lower *L, unsigned i, enum ptx_type t)
{
	LLVMValueRef v = fsrc(L, i, t);

	return has_mod(L, "ftz") && !mode_flushes_operands(L, t) ? flush_subnormal(L, t, v) : v;
}

/* .sat clamps to [0, 1]; NaN becomes 0. */
static LLVMValueRef saturate(struct lower *L, enum ptx_type t, LLVMValueRef v)
{
	LLVMValueRef above_zero = LLVMBuildFCmp(L->b, LLVMRealOGT, v, fconst(L, t, 0), "");
	LLVMValueRef below_one = LLVMBuildFCmp(L->b, LLVMRealOLT, v, fconst(L, t, 1), "");

	return LLVMBuildSelect(L->b, above_zero,
	                       LLVMBuildSelect(L->b, below_one, v, fconst(L, t, 1), ""),
	                       fconst(L, t, 0), "");
}

/* In the flushing mode the hardware flushed the result of add, sub, mul, fma, min and max
 * already; LLVM can undo that only by folding the operation away, for which it must know a
 * (multiplying) operand as a constant (subnormals.c), or for an instruction of the builtins'
 * asm (directed rounding) not at all. */
static bool result_flushed(struct lower *L, enum ptx_type t)
{
	const char *o = L->insn->opcode;
	bool fused = !strcmp(o, "fma") || !strcmp(o, "mad");

	if (!mode_flushes_operands(L, t) || !strcmp(o, "abs") || !strcmp(o, "neg"))
		return false;
	if (rounding_mode_of(L) != ROUND_NEAREST)
		return true;
	for (uint32_t i = 1; i < L->insn->nops && i < (fused ? 3u : 4u); i++)
		if (may_be_constant(L, &L->insn->ops[i]))
			return false;
	return true;
}

static void result(struct lower *L, enum ptx_type t, LLVMValueRef v)
{
	if (has_mod(L, "ftz") && !result_flushed(L, t))
		v = flush_subnormal(L, t, v);
	if (has_mod(L, "sat"))
		v = saturate(L, t, v);
	if (has_mod(L, "relu")) /* max(v, 0), NaN stays NaN */
		v = LLVMBuildSelect(L->b, LLVMBuildFCmp(L->b, LLVMRealOLT, v, fconst(L, t, 0), ""),
		                    fconst(L, t, 0), v, "");
	fstore(L, v, t);
}

/* The instruction's rounding mode; directed modes exist for f32 and f64 only. */
static enum rounding_mode rounding(struct lower *L, enum ptx_type t)
{
	enum rounding_mode mode = rounding_mode_of(L);

	if (mode != ROUND_NEAREST && t != PTX_TYPE_F32 && t != PTX_TYPE_F64)
		lower_unsupported(L);
	return mode;
}

/* __zc_rcp_approx_f32 and friends: the target's approximation instructions. */
static LLVMValueRef approx(struct lower *L, const char *what, enum ptx_type t, LLVMValueRef a)
{
	char name[64];

	if (t != PTX_TYPE_F32 && t != PTX_TYPE_F64)
		lower_unsupported(L);
	snprintf(name, sizeof(name), "__zc_%s_approx_%s", what, t == PTX_TYPE_F32 ? "f32" : "f64");
	return call_builtin(L, name, ll_type(L, t), &a, 1);
}

/* One lane of min/max.xorsign.abs on its bits: on magnitudes the integer order is the float
 * order. A NaN operand gives the other's magnitude; two NaNs (or one, with .NaN) give the
 * canonical NaN, positive; the sign is the XOR of the operands' signs (as an H200 does). */
static LLVMValueRef xorsign_abs_lane(struct lower *L, LLVMValueRef a, LLVMValueRef b, bool is_max,
                                     unsigned bits, uint64_t infinity, bool ftz)
{
	LLVMTypeRef ty = ll_int(L, bits);
	LLVMValueRef sign_bit = LLVMConstInt(ty, 1ull << (bits - 1), 0);
	LLVMValueRef magnitude = LLVMConstInt(ty, (1ull << (bits - 1)) - 1, 0), inf = LLVMConstInt(ty, infinity, 0);
	LLVMValueRef ma = LLVMBuildAnd(L->b, a, magnitude, ""), mb = LLVMBuildAnd(L->b, b, magnitude, "");

	if (ftz) { /* f32 subnormal magnitudes count as zero */
		LLVMValueRef smallest = LLVMConstInt(ty, 0x00800000, 0), zero = LLVMConstInt(ty, 0, 0);
		ma = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntULT, ma, smallest, ""), zero, ma, "");
		mb = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntULT, mb, smallest, ""), zero, mb, "");
	}
	LLVMValueRef nan_a = LLVMBuildICmp(L->b, LLVMIntUGT, ma, inf, "");
	LLVMValueRef nan_b = LLVMBuildICmp(L->b, LLVMIntUGT, mb, inf, "");
	LLVMValueRef pick = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, is_max ? LLVMIntUGE : LLVMIntULE, ma, mb, ""),
	                                    ma, mb, "");
	pick = LLVMBuildSelect(L->b, nan_a, mb, pick, "");
	pick = LLVMBuildSelect(L->b, nan_b, ma, pick, "");
	LLVMValueRef r = LLVMBuildOr(L->b, LLVMBuildAnd(L->b, LLVMBuildXor(L->b, a, b, ""), sign_bit, ""), pick, "");
	LLVMValueRef canonical = has_mod(L, "NaN") ? LLVMBuildOr(L->b, nan_a, nan_b, "")
	                                           : LLVMBuildAnd(L->b, nan_a, nan_b, "");
	return LLVMBuildSelect(L->b, canonical, magnitude, r, "");
}

static void lower_xorsign_abs(struct lower *L, bool is_max, enum ptx_type t)
{
	bool f32 = t == PTX_TYPE_F32, bf16 = t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2;
	unsigned lanes = type_is_packed(t) ? 2 : 1, bits = f32 ? 32 : 16;
	enum ptx_type whole = f32 || lanes == 2 ? PTX_TYPE_B32 : PTX_TYPE_B16;
	LLVMTypeRef wty = ll_int(L, lanes * bits), lty = ll_int(L, bits);
	LLVMValueRef a = operand_value(L, op(L, 1), whole), b = operand_value(L, op(L, 2), whole);
	LLVMValueRef d = LLVMConstInt(wty, 0, 0);

	if (t != PTX_TYPE_F32 && t != PTX_TYPE_F16 && t != PTX_TYPE_BF16 && !type_is_packed(t))
		lower_unsupported(L);
	for (unsigned i = 0; i < lanes; i++) {
		LLVMValueRef at = LLVMConstInt(wty, i * bits, 0);
		LLVMValueRef x = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, a, at, ""), lty, "");
		LLVMValueRef y = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, b, at, ""), lty, "");
		LLVMValueRef r = xorsign_abs_lane(L, x, y, is_max, bits,
		                                  f32 ? 0x7f800000 : bf16 ? 0x7f80 : 0x7c00, f32 && has_mod(L, "ftz"));
		d = LLVMBuildOr(L->b, d, LLVMBuildShl(L->b, LLVMBuildZExt(L->b, r, wty, ""), at, ""), "");
	}
	operand_store(L, op(L, 0), d, whole);
}

/* add sub mul div, and fma/mad on v[0..2], in `mode`: round to nearest is LLVM's own
 * operation, the directed modes lower_rounding.c's. */
static LLVMValueRef rounded(struct lower *L, const char *o, enum rounding_mode mode, LLVMTypeRef ty,
                            LLVMValueRef *v)
{
	bool nearest = mode == ROUND_NEAREST;

	if (!strcmp(o, "fma") || !strcmp(o, "mad"))
		return nearest ? call_intrinsic(L, "llvm.fma", &ty, 1, v, 3) : round_fma(L, mode, v[0], v[1], v[2]);
	if (!strcmp(o, "add"))
		return nearest ? LLVMBuildFAdd(L->b, v[0], v[1], "") : round_add(L, mode, v[0], v[1]);
	if (!strcmp(o, "sub")) /* a - b is a + (-b), zero signs included */
		return nearest ? LLVMBuildFSub(L->b, v[0], v[1], "")
		               : round_add(L, mode, v[0], LLVMBuildFNeg(L->b, v[1], ""));
	if (!strcmp(o, "mul"))
		return nearest ? LLVMBuildFMul(L->b, v[0], v[1], "") : round_mul(L, mode, v[0], v[1]);
	/* div .rn, and .full which needs only 2 ulp */
	return nearest ? LLVMBuildFDiv(L->b, v[0], v[1], "") : round_div(L, mode, v[0], v[1]);
}

static bool lower_binary(struct lower *L, const char *o, enum ptx_type t)
{
	LLVMValueRef a, b, r;
	enum rounding_mode mode;

	if (strcmp(o, "add") && strcmp(o, "sub") && strcmp(o, "mul") && strcmp(o, "div") &&
	    strcmp(o, "min") && strcmp(o, "max") && strcmp(o, "copysign"))
		return false;
	if ((!strcmp(o, "min") || !strcmp(o, "max")) && has_mod(L, "xorsign")) {
		lower_xorsign_abs(L, o[1] == 'a', t);
		return true;
	}
	a = input(L, 1, t);
	b = input(L, 2, t);
	if (!strcmp(o, "min") || !strcmp(o, "max")) {
		/* PTX min/max return the non-NaN operand and order -0 below +0 (minimumnum);
		 * .NaN propagates NaN (minimum). */
		const char *name = has_mod(L, "NaN") ? (o[1] == 'i' ? "llvm.minimum" : "llvm.maximum")
		                                     : (o[1] == 'i' ? "llvm.minimumnum" : "llvm.maximumnum");
		result(L, t, binary_intrinsic(L, name, t, a, b));
		return true;
	}
	if (!strcmp(o, "copysign")) {
		result(L, t, binary_intrinsic(L, "llvm.copysign", t, b, a));
		return true;
	}
	mode = rounding(L, t);
	if (!strcmp(o, "div") && has_mod(L, "approx")) {
		r = LLVMBuildFMul(L->b, a, approx(L, "rcp", t, b), "");
	} else {
		LLVMValueRef v[2] = {a, b};
		r = rounded(L, o, mode, float_value_type(L, t), v);
	}
	result(L, t, r);
	return true;
}

static bool lower_fused(struct lower *L, const char *o, enum ptx_type t)
{
	LLVMValueRef args[3];
	enum rounding_mode mode;

	if (strcmp(o, "fma") && strcmp(o, "mad"))
		return false;
	mode = rounding(L, t);
	args[0] = input(L, 1, t);
	args[1] = input(L, 2, t);
	args[2] = input(L, 3, t);
	result(L, t, rounded(L, o, mode, float_value_type(L, t), args));
	return true;
}

static bool lower_unary(struct lower *L, const char *o, enum ptx_type t)
{
	static const char *const approximations[] = {"sin", "cos", "lg2", "ex2", "tanh", "rsqrt"};
	LLVMValueRef a, r = NULL;

	if (!strcmp(o, "abs") || !strcmp(o, "neg")) {
		a = input(L, 1, t);
		r = o[0] == 'a' ? unary_intrinsic(L, "llvm.fabs", t, a) : LLVMBuildFNeg(L->b, a, "");
		result(L, t, r);
		return true;
	}
	if (!strcmp(o, "rcp") || !strcmp(o, "sqrt")) {
		enum rounding_mode mode = has_mod(L, "approx") ? ROUND_NEAREST : rounding(L, t);

		a = input(L, 1, t);
		if (has_mod(L, "approx"))
			r = approx(L, o, t, a);
		else if (o[0] == 'r')
			r = mode == ROUND_NEAREST ? LLVMBuildFDiv(L->b, fconst(L, t, 1), a, "")
			                          : round_div(L, mode, fconst(L, t, 1), a);
		else
			r = mode == ROUND_NEAREST ? unary_intrinsic(L, "llvm.sqrt", t, a) : round_sqrt(L, mode, a);
		result(L, t, r);
		return true;
	}
	for (size_t i = 0; i < sizeof(approximations) / sizeof(approximations[0]); i++) {
		if (strcmp(o, approximations[i]) == 0) {
			result(L, t, approx(L, o, t, input(L, 1, t)));
			return true;
		}
	}
	return false;
}

/* testp.{finite,infinite,number,notanumber,normal,subnormal} p, a */
static bool lower_testp(struct lower *L, enum ptx_type t)
{
	/* llvm.is.fpclass masks. PTX counts +0 and -0 as normal numbers ("as a special
	 * case"), so .normal includes the zero classes (0x60). */
	static const struct { const char *mod; unsigned mask; } classes[] = {
		{"finite", 0x1f8}, {"infinite", 0x204}, {"number", 0x3fc}, {"notanumber", 0x3},
		{"normal", 0x168}, {"subnormal", 0x90},
	};
	LLVMValueRef a = fsrc(L, 1, t);

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (has_mod(L, classes[i].mod)) {
			LLVMTypeRef ty = float_value_type(L, t);
			LLVMValueRef args[2] = {a, LLVMConstInt(ll_int(L, 32), classes[i].mask, 0)};

			operand_store(L, op(L, 0), call_intrinsic(L, "llvm.is.fpclass", &ty, 1, args, 2),
			              PTX_TYPE_PRED);
			return true;
		}
	}
	lower_unsupported(L);
}

/* add/sub/mul/fma{.rnd}{.ftz}.f32x2 (sm_100): two f32 lanes of 64-bit registers, each
 * computed as the .f32 instruction computes it. */
static bool lower_f32x2(struct lower *L, const char *o)
{
	bool fused = !strcmp(o, "fma"), ftz = has_mod(L, "ftz");
	unsigned n = fused ? 3 : 2;
	enum rounding_mode mode = rounding_mode_of(L);
	LLVMTypeRef i32 = ll_int(L, 32), i64 = ll_int(L, 64), f32 = LLVMFloatTypeInContext(L->ctx);
	LLVMValueRef src[3], v[3], r, d = LLVMConstInt(i64, 0, 0);

	if (!fused && strcmp(o, "add") && strcmp(o, "sub") && strcmp(o, "mul"))
		lower_unsupported(L);
	expect_operands(L, n + 1);
	for (unsigned k = 0; k < n; k++)
		src[k] = operand_value(L, op(L, 1 + k), PTX_TYPE_B64);
	for (unsigned lane = 0; lane < 2; lane++) {
		for (unsigned k = 0; k < n; k++) {
			v[k] = LLVMBuildBitCast(L->b, LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, src[k],
			                        LLVMConstInt(i64, 32 * lane, 0), ""), i32, ""), f32, "");
			if (ftz && !mode_flushes_operands(L, PTX_TYPE_F32))
				v[k] = flush_subnormal(L, PTX_TYPE_F32, v[k]);
		}
		r = rounded(L, o, mode, f32, v);
		if (ftz)
			r = flush_subnormal(L, PTX_TYPE_F32, r);
		r = LLVMBuildZExt(L->b, LLVMBuildBitCast(L->b, r, i32, ""), i64, "");
		d = LLVMBuildOr(L->b, d, LLVMBuildShl(L->b, r, LLVMConstInt(i64, 32 * lane, 0), ""), "");
	}
	operand_store(L, op(L, 0), d, PTX_TYPE_B64);
	return true;
}

bool lower_float(struct lower *L)
{
	const char *o = L->insn->opcode;
	enum ptx_type t = mod_type(L, 0);

	if (t == PTX_TYPE_NONE) /* f32x2 is no register type */
		return has_mod(L, "f32x2") && lower_f32x2(L, o);
	if (!strcmp(o, "testp"))
		return lower_testp(L, t);
	if (!type_is_float(t) && !type_is_packed(t))
		return false;
	return lower_binary(L, o, t) || lower_fused(L, o, t) || lower_unary(L, o, t);
}
