/* cvt: conversions between every pair of scalar types, and f32 pairs to f16x2/bf16x2. */
#include <stdint.h>
#include <string.h>

#include "lower.h"

static bool rounding(struct lower *L, const char *const names[4], int *mode)
{
	for (int i = 0; i < 4; i++) {
		if (has_mod(L, names[i])) {
			*mode = i;
			return true;
		}
	}
	return false;
}

/* Integer rounding of a float value: .rni .rzi .rmi .rpi. */
static LLVMValueRef round_integral(struct lower *L, LLVMValueRef v, int mode)
{
	static const char *const intrinsics[] = {"llvm.roundeven", "llvm.trunc", "llvm.floor", "llvm.ceil"};
	LLVMTypeRef ty = LLVMTypeOf(v);

	return call_intrinsic(L, intrinsics[mode], &ty, 1, &v, 1);
}

/* Integer to integer; .sat clamps to the destination's range. */
static LLVMValueRef int_to_int(struct lower *L, LLVMValueRef v, enum ptx_type dt, enum ptx_type st)
{
	unsigned db = type_bits(dt), sb = type_bits(st);

	if (has_mod(L, "sat")) {
		/* Compare at the wider of the two widths, with both limits of the destination. */
		unsigned w = (db > sb ? db : sb) + 1;
		LLVMTypeRef wt = ll_int(L, w);
		LLVMValueRef x = type_is_signed(st) ? LLVMBuildSExt(L->b, v, wt, "") : LLVMBuildZExt(L->b, v, wt, "");
		uint64_t maxv = type_is_signed(dt) ? (1ull << (db - 1)) - 1 : (db == 64 ? ~0ull : (1ull << db) - 1);
		LLVMValueRef hi = LLVMConstInt(wt, maxv, 0);
		LLVMValueRef lo = type_is_signed(dt) ? LLVMConstNeg(LLVMConstAdd(hi, LLVMConstInt(wt, 1, 0)))
		                                     : LLVMConstInt(wt, 0, 0);
		x = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, x, hi, ""), hi, x, "");
		x = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, x, lo, ""), lo, x, "");
		return LLVMBuildTrunc(L->b, x, ll_type(L, dt), "");
	}
	if (db < sb)
		return LLVMBuildTrunc(L->b, v, ll_type(L, dt), "");
	if (db > sb)
		return type_is_signed(st) ? LLVMBuildSExt(L->b, v, ll_type(L, dt), "")
		                          : LLVMBuildZExt(L->b, v, ll_type(L, dt), "");
	return v;
}

/* Float to integer saturates to the destination's range. A NaN gives 0 when source and
 * destination are both at most 32 bits wide, and 1 << (bits - 1) otherwise: what NVIDIA's
 * hardware gives (measured on an H200, tests/programs/conv_float_int_rounding.cu). */
static LLVMValueRef float_to_int(struct lower *L, LLVMValueRef v, enum ptx_type dt, enum ptx_type st)
{
	static const char *const modes[4] = {"rni", "rzi", "rmi", "rpi"};
	LLVMTypeRef types[2] = {ll_type(L, dt), ll_type(L, st)};
	unsigned bits = type_bits(dt);
	LLVMValueRef is_nan, r;
	int mode;

	if (!rounding(L, modes, &mode))  /* ptx_check refuses it; sweeps lower unchecked modules */
		lower_fail(L, "cvt to an integer needs .rni, .rzi, .rmi or .rpi");
	if (has_mod(L, "ftz"))
		v = flush_subnormal(L, st, v);
	is_nan = LLVMBuildFCmp(L->b, LLVMRealUNO, v, v, "");
	v = round_integral(L, v, mode);
	r = call_intrinsic(L, type_is_signed(dt) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", types, 2,
	                   &v, 1);
	if (bits <= 32 && type_bits(st) <= 32)
		return r;
	return LLVMBuildSelect(L->b, is_nan, LLVMConstInt(ll_type(L, dt), 1ull << (bits - 1), 0), r, "");
}

static LLVMValueRef float_to_float(struct lower *L, LLVMValueRef v, enum ptx_type dt, enum ptx_type st)
{
	static const char *const int_modes[4] = {"rni", "rzi", "rmi", "rpi"};
	unsigned db = type_bits(dt), sb = type_bits(st);
	int mode;

	if (has_mod(L, "ftz") && st == PTX_TYPE_F32)
		v = flush_subnormal(L, st, v);
	if (rounding(L, int_modes, &mode)) {
		if (dt != st)
			lower_fail(L, "integer rounding needs the same source and destination type");
		v = round_integral(L, v, mode);
	} else if (db < sb || (db == sb && dt != st)) {
		if (db == sb) /* f16 <-> bf16 */
			v = LLVMBuildFPExt(L->b, v, ll_type(L, PTX_TYPE_F32), "");
		v = round_narrow(L, rounding_mode_of(L), v, ll_type(L, dt));
	} else if (db > sb) {
		v = LLVMBuildFPExt(L->b, v, ll_type(L, dt), "");
	}
	if (has_mod(L, "ftz") && dt == PTX_TYPE_F32)
		v = flush_subnormal(L, dt, v);
	if (has_mod(L, "sat")) {
		LLVMTypeRef ty = ll_type(L, dt);
		LLVMValueRef above = LLVMBuildFCmp(L->b, LLVMRealOGT, v, LLVMConstReal(ty, 0), "");
		LLVMValueRef below = LLVMBuildFCmp(L->b, LLVMRealOLT, v, LLVMConstReal(ty, 1), "");
		v = LLVMBuildSelect(L->b, above, LLVMBuildSelect(L->b, below, v, LLVMConstReal(ty, 1), ""),
		                    LLVMConstReal(ty, 0), "");
	}
	return v;
}

/* Integer to bf16. LLVM converts to bfloat through f32, rounding twice: a wide integer whose
 * bits below f32's precision decide a bf16 tie comes out wrong. So the magnitude is first
 * narrowed to 24 bits, the bits shifted out folded into a sticky low bit (far below bf16's
 * rounding position); that converts to f32 exactly, is scaled back by a power of two
 * (exact) and rounded once to bf16. */
static LLVMValueRef int_to_bf16(struct lower *L, LLVMValueRef v, enum ptx_type st)
{
	unsigned bits = type_bits(st);
	LLVMTypeRef ty = ll_type(L, st), i32 = ll_int(L, 32), f32 = ll_type(L, PTX_TYPE_F32);
	LLVMValueRef zero = LLVMConstInt(ty, 0, 0), one = LLVMConstInt(ty, 1, 0);
	LLVMValueRef negative = type_is_signed(st) ? LLVMBuildICmp(L->b, LLVMIntSLT, v, zero, "")
	                                           : LLVMConstInt(ll_int(L, 1), 0, 0);
	LLVMValueRef magnitude = LLVMBuildSelect(L->b, negative, LLVMBuildNeg(L->b, v, ""), v, "");
	LLVMValueRef args[2] = {magnitude, LLVMConstInt(ll_int(L, 1), 0, 0)};
	LLVMValueRef leading = call_intrinsic(L, "llvm.ctlz", &ty, 1, args, 2);
	LLVMValueRef excess = LLVMBuildSub(L->b, LLVMConstInt(ty, bits - 24, 0), leading, "");
	LLVMValueRef shift = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, excess, zero, ""),
	                                     excess, zero, "");
	LLVMValueRef dropped = LLVMBuildAnd(L->b, magnitude,
	                                    LLVMBuildSub(L->b, LLVMBuildShl(L->b, one, shift, ""), one, ""), "");
	LLVMValueRef narrow = LLVMBuildOr(L->b, LLVMBuildLShr(L->b, magnitude, shift, ""),
	                                  LLVMBuildZExt(L->b, LLVMBuildICmp(L->b, LLVMIntNE, dropped, zero, ""),
	                                                ty, ""), "");
	LLVMValueRef scale_bits = LLVMBuildShl(L->b, LLVMBuildAdd(L->b, LLVMBuildTrunc(L->b, shift, i32, ""),
	                                                           LLVMConstInt(i32, 127, 0), ""),
	                                       LLVMConstInt(i32, 23, 0), "");
	LLVMValueRef f = LLVMBuildFMul(L->b, LLVMBuildUIToFP(L->b, narrow, f32, ""),
	                               LLVMBuildBitCast(L->b, scale_bits, f32, ""), "");

	f = LLVMBuildSelect(L->b, negative, LLVMBuildFNeg(L->b, f, ""), f, "");
	return LLVMBuildFPTrunc(L->b, f, ll_type(L, PTX_TYPE_BF16), "");
}

static LLVMValueRef int_to_float(struct lower *L, LLVMValueRef v, enum ptx_type dt, enum ptx_type st)
{
	enum rounding_mode mode = rounding_mode_of(L);
	LLVMValueRef r;

	if (dt == PTX_TYPE_BF16 && type_bits(st) > 24)
		r = int_to_bf16(L, v, st);
	else
		r = type_is_signed(st) ? LLVMBuildSIToFP(L->b, v, ll_type(L, dt), "")
		                       : LLVMBuildUIToFP(L->b, v, ll_type(L, dt), "");
	return mode == ROUND_NEAREST ? r : round_from_int(L, mode, v, type_is_signed(st), r);
}

/* .relu on f16/bf16 results: negative values, -0 included, become +0 and NaN the canonical
 * NaN 0x7fff (as an H200 does). */
static LLVMValueRef relu(struct lower *L, LLVMValueRef v)
{
	LLVMTypeRef ty = LLVMTypeOf(v), i16 = ll_int(L, 16);
	LLVMValueRef negative = LLVMBuildICmp(L->b, LLVMIntSLT, LLVMBuildBitCast(L->b, v, i16, ""),
	                                      LLVMConstInt(i16, 0, 0), "");
	LLVMValueRef is_nan = LLVMBuildFCmp(L->b, LLVMRealUNO, v, v, "");

	v = LLVMBuildSelect(L->b, negative, LLVMConstReal(ty, 0), v, "");
	return LLVMBuildSelect(L->b, is_nan, LLVMBuildBitCast(L->b, LLVMConstInt(i16, 0x7fff, 0), ty, ""), v, "");
}

/* .satfinite on f16/bf16 results: an infinity becomes the largest finite value of its sign
 * and a NaN the canonical NaN 0x7fff (as an H200 does). */
static LLVMValueRef satfinite(struct lower *L, LLVMValueRef v, enum ptx_type dt)
{
	LLVMTypeRef i16 = ll_int(L, 16);
	uint64_t infinity = dt == PTX_TYPE_F16 ? 0x7c00 : 0x7f80;
	LLVMValueRef h = LLVMBuildBitCast(L->b, v, i16, "");
	LLVMValueRef mag = LLVMBuildAnd(L->b, h, LLVMConstInt(i16, 0x7fff, 0), "");
	LLVMValueRef largest = LLVMBuildOr(L->b, LLVMBuildAnd(L->b, h, LLVMConstInt(i16, 0x8000, 0), ""),
	                                   LLVMConstInt(i16, infinity - 1, 0), "");

	h = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, mag, LLVMConstInt(i16, infinity, 0), ""),
	                    largest, h, "");
	h = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntUGT, mag, LLVMConstInt(i16, infinity, 0), ""),
	                    LLVMConstInt(i16, 0x7fff, 0), h, "");
	return LLVMBuildBitCast(L->b, h, LLVMTypeOf(v), "");
}

/* f32 to a 16-bit float, with the instruction's rounding, .relu and .satfinite. */
static LLVMValueRef to_half(struct lower *L, LLVMValueRef v, enum ptx_type dt)
{
	LLVMValueRef r = float_to_float(L, v, dt, PTX_TYPE_F32);

	if (has_mod(L, "relu"))
		r = relu(L, r);
	return has_mod(L, "satfinite") ? satfinite(L, r, dt) : r;
}

/* cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32: an f32 whose low 13 bits are zero, rounded on
 * its bits (tf32 has f32's exponents, so subnormals round alike and a carry reaches the
 * exponent). A NaN: .rn and .rz give 0x7fffe000; .rna keeps the payload's upper bits, and with
 * .satfinite steps them down one tf32 ulp, as it steps an infinity down to the largest finite
 * value (what an H200 does). */
static void convert_tf32(struct lower *L)
{
	LLVMTypeRef i32 = ll_int(L, 32);
	LLVMValueRef x = operand_value(L, op(L, 1), PTX_TYPE_B32), r = x;
	LLVMValueRef keep = LLVMConstInt(i32, ~0x1fffu, 0), exponent = LLVMConstInt(i32, 0x7f800000, 0);
	LLVMValueRef sign = LLVMBuildAnd(L->b, x, LLVMConstInt(i32, 0x80000000u, 0), "");
	LLVMValueRef is_nan = LLVMBuildICmp(L->b, LLVMIntUGT, LLVMBuildAnd(L->b, x, LLVMConstInt(i32, 0x7fffffff, 0), ""),
	                                    exponent, "");
	bool rna = has_mod(L, "rna"), sat = has_mod(L, "satfinite");
	LLVMValueRef nan;

	expect_operands(L, 2);
	if (mod_type(L, 1) != PTX_TYPE_F32 || (!rna && !has_mod(L, "rn") && !has_mod(L, "rz")))
		lower_unsupported(L);
	if (rna)
		r = LLVMBuildAdd(L->b, x, LLVMConstInt(i32, 0x1000, 0), "");
	else if (has_mod(L, "rn")) /* ties to even: the kept lowest bit decides */
		r = LLVMBuildAdd(L->b, x, LLVMBuildAdd(L->b, LLVMConstInt(i32, 0xfff, 0),
		    LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, x, LLVMConstInt(i32, 13, 0), ""), LLVMConstInt(i32, 1, 0), ""), ""), "");
	r = LLVMBuildAnd(L->b, r, keep, "");
	if (sat)
		r = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, LLVMBuildAnd(L->b, r, exponent, ""), exponent, ""),
		                    LLVMBuildOr(L->b, sign, LLVMConstInt(i32, 0x7f7fe000, 0), ""), r, "");
	if (has_mod(L, "relu"))
		r = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntNE, sign, LLVMConstInt(i32, 0, 0), ""),
		                    LLVMConstInt(i32, 0, 0), r, "");
	nan = LLVMConstInt(i32, 0x7fffe000, 0);
	if (rna)
		nan = LLVMBuildAnd(L->b, x, keep, "");
	if (rna && sat)
		nan = LLVMBuildSub(L->b, nan, LLVMConstInt(i32, 0x2000, 0), "");
	operand_store(L, op(L, 0), LLVMBuildSelect(L->b, is_nan, nan, r, ""), PTX_TYPE_B32);
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c:
 * a and b saturated to the lane type, b in the lowest lane and a above it, then c's low bits
 * above both. */
static void convert_pack(struct lower *L)
{
	static const struct {
		const char *name;
		unsigned bits;
		bool is_signed;
	} lanes[] = {
		{ "u16", 16, false }, { "s16", 16, true }, { "u8", 8, false }, { "s8", 8, true },
		{ "u4", 4, false },   { "s4", 4, true },   { "u2", 2, false }, { "s2", 2, true },
	};
	LLVMTypeRef i32 = ll_int(L, 32);
	LLVMValueRef d = LLVMConstInt(i32, 0, 0);
	size_t k = 0;

	while (k < sizeof lanes / sizeof lanes[0] && !has_mod(L, lanes[k].name))
		k++;
	if (k == sizeof lanes / sizeof lanes[0] || !has_mod(L, "sat"))
		lower_unsupported(L);
	unsigned bits = lanes[k].bits;
	int64_t lo = lanes[k].is_signed ? -(1ll << (bits - 1)) : 0;
	int64_t hi = lanes[k].is_signed ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
	expect_operands(L, bits == 16 ? 3 : 4);
	for (unsigned i = 0; i < 2; i++) {
		LLVMValueRef v = operand_value(L, op(L, i + 1), PTX_TYPE_S32);
		LLVMValueRef lov = LLVMConstInt(i32, (uint64_t)lo, 1), hiv = LLVMConstInt(i32, (uint64_t)hi, 1);
		v = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, v, lov, ""), lov, v, "");
		v = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, v, hiv, ""), hiv, v, "");
		v = LLVMBuildAnd(L->b, v, LLVMConstInt(i32, (1u << bits) - 1, 0), "");
		d = LLVMBuildOr(L->b, d, LLVMBuildShl(L->b, v, LLVMConstInt(i32, i == 0 ? bits : 0, 0), ""), "");
	}
	if (bits != 16)
		d = LLVMBuildOr(L->b, d, LLVMBuildShl(L->b, operand_value(L, op(L, 3), PTX_TYPE_B32),
		                                      LLVMConstInt(i32, 2 * bits, 0), ""), "");
	operand_store(L, op(L, 0), d, PTX_TYPE_B32);
}

/* cvt.frnd{.relu}.f16x2.f32 d, a, b (and bf16x2): a converted goes to the upper half of d,
 * b to the lower half. */
static void convert_pair(struct lower *L, enum ptx_type dt)
{
	enum ptx_type half = dt == PTX_TYPE_F16X2 ? PTX_TYPE_F16 : PTX_TYPE_BF16;
	LLVMTypeRef i16 = ll_int(L, 16), i32 = ll_int(L, 32);
	LLVMValueRef upper, lower;

	expect_operands(L, 3);
	upper = LLVMBuildBitCast(L->b, to_half(L, operand_value(L, op(L, 1), PTX_TYPE_F32), half), i16, "");
	lower = LLVMBuildBitCast(L->b, to_half(L, operand_value(L, op(L, 2), PTX_TYPE_F32), half), i16, "");
	operand_store(L, op(L, 0),
	              LLVMBuildOr(L->b, LLVMBuildShl(L->b, LLVMBuildZExt(L->b, upper, i32, ""), LLVMConstInt(i32, 16, 0), ""),
	                          LLVMBuildZExt(L->b, lower, i32, ""), ""),
	              PTX_TYPE_B32);
}

static LLVMValueRef u32c(struct lower *L, uint32_t v)
{
	return LLVMConstInt(ll_int(L, 32), v, 0);
}

/* Where modifier `name` is among the instruction's, -1 if absent: of two types, the first
 * is the destination's. */
static int mod_position(struct lower *L, const char *name)
{
	for (uint32_t i = 0; i < L->insn->nmods; i++)
		if (strcmp(L->insn->mods[i], name) == 0)
			return (int)i;
	return -1;
}

/* Field i (from the low end) of v, `width` bits wide. */
static LLVMValueRef field(struct lower *L, LLVMValueRef v, unsigned i, unsigned width)
{
	return LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, v, u32c(L, width * i), ""), u32c(L, (1u << width) - 1), "");
}

/* The narrow float pairs, through the builtins all targets share; the first operand goes to
 * the high field (a byte each, a nibble each for e2m1x2):
 *   cvt.rn.satfinite{.relu}.e4m3x2.f32 d, a, b     d = {narrow(a), narrow(b)}
 *   cvt.rn.satfinite{.relu}.e4m3x2.f16x2 d, a      each half of a
 *   cvt.rn{.relu}.f16x2.e4m3x2 d, a                each field of a to an f16
 * and the same for e5m2x2 and (sm_100) e2m3x2, e3m2x2, e2m1x2. */
static bool lower_narrow(struct lower *L, const char *name, uint32_t format)
{
	LLVMValueRef relu = u32c(L, has_mod(L, "relu")), args[3], parts[2];
	LLVMTypeRef f32 = LLVMFloatTypeInContext(L->ctx), half = LLVMHalfTypeInContext(L->ctx);
	unsigned width = format == 4 ? 4 : 8;
	int wide = mod_position(L, "f16x2");

	if (!has_mod(L, "rn"))
		lower_unsupported(L);
	if (wide >= 0 && wide < mod_position(L, name)) { /* to f16x2 */
		LLVMValueRef a = LLVMBuildZExt(L->b, operand_value(L, op(L, 1), width == 4 ? PTX_TYPE_B8 : PTX_TYPE_B16),
		                               ll_int(L, 32), ""), d;

		expect_operands(L, 2);
		for (int i = 0; i < 2; i++) {
			args[0] = field(L, a, (unsigned)i, width);
			args[1] = u32c(L, format);
			parts[i] = call_builtin(L, "__zc_cvt_f16_from_narrow", ll_int(L, 32), args, 2);
		}
		d = LLVMBuildOr(L->b, LLVMBuildShl(L->b, parts[1], u32c(L, 16), ""), parts[0], "");
		if (has_mod(L, "relu")) /* negative halves to +0; NaN stays */
			for (int i = 0; i < 2; i++) {
				LLVMValueRef h = field(L, d, (unsigned)i, 16);
				LLVMValueRef neg = LLVMBuildAnd(L->b,
					LLVMBuildICmp(L->b, LLVMIntUGT, h, u32c(L, 0x8000), ""),
					LLVMBuildICmp(L->b, LLVMIntULE, h, u32c(L, 0xfc00), ""), "");
				d = LLVMBuildSelect(L->b, neg, LLVMBuildAnd(L->b, d, u32c(L, ~(0xffffu << (16 * i))), ""), d, "");
			}
		operand_store(L, op(L, 0), d, PTX_TYPE_B32);
		return true;
	}
	if (!has_mod(L, "satfinite"))
		lower_unsupported(L);
	if (has_mod(L, "f32")) {
		expect_operands(L, 3);
		parts[0] = operand_value(L, op(L, 1), PTX_TYPE_F32);
		parts[1] = operand_value(L, op(L, 2), PTX_TYPE_F32);
	} else if (wide >= 0 && width == 8) {
		LLVMValueRef a = operand_value(L, op(L, 1), PTX_TYPE_B32);

		expect_operands(L, 2);
		for (int i = 0; i < 2; i++)
			parts[i] = LLVMBuildFPExt(L->b, LLVMBuildBitCast(L->b, LLVMBuildTrunc(L->b, field(L, a, (unsigned)(1 - i), 16),
			                                                                      ll_int(L, 16), ""), half, ""), f32, "");
	} else {
		lower_unsupported(L);
	}
	for (int i = 0; i < 2; i++) {
		args[0] = parts[i];
		args[1] = u32c(L, format);
		args[2] = relu;
		parts[i] = call_builtin(L, "__zc_cvt_narrow_from_f32", ll_int(L, 32), args, 3);
	}
	operand_store(L, op(L, 0), LLVMBuildOr(L->b, LLVMBuildShl(L->b, parts[0], u32c(L, width), ""), parts[1], ""),
	              width == 4 ? PTX_TYPE_B8 : PTX_TYPE_B16);
	return true;
}

/* ue8m0x2 (sm_100), the first operand in the high byte:
 *   cvt.{rz,rp}{.satfinite}.ue8m0x2.f32 d, a, b    cvt.{rz,rp}{.satfinite}.ue8m0x2.bf16x2 d, a
 *   cvt.rn.bf16x2.ue8m0x2 d, a */
static bool lower_ue8m0(struct lower *L)
{
	int wide = mod_position(L, "bf16x2");
	LLVMValueRef args[3], parts[2];

	if (wide >= 0 && wide < mod_position(L, "ue8m0x2")) {
		LLVMValueRef a = LLVMBuildZExt(L->b, operand_value(L, op(L, 1), PTX_TYPE_B16), ll_int(L, 32), "");

		expect_operands(L, 2);
		if (!has_mod(L, "rn"))
			lower_unsupported(L);
		for (int i = 0; i < 2; i++) {
			args[0] = field(L, a, (unsigned)i, 8);
			parts[i] = call_builtin(L, "__zc_cvt_bf16_from_ue8m0", ll_int(L, 32), args, 1);
		}
		operand_store(L, op(L, 0), LLVMBuildOr(L->b, LLVMBuildShl(L->b, parts[1], u32c(L, 16), ""), parts[0], ""),
		              PTX_TYPE_B32);
		return true;
	}
	if (!has_mod(L, "rz") && !has_mod(L, "rp"))
		lower_unsupported(L);
	args[1] = u32c(L, has_mod(L, "rp"));
	args[2] = u32c(L, has_mod(L, "satfinite"));
	if (has_mod(L, "f32")) {
		expect_operands(L, 3);
		for (int i = 0; i < 2; i++) {
			args[0] = operand_value(L, op(L, 1 + (unsigned)i), PTX_TYPE_F32);
			parts[i] = call_builtin(L, "__zc_cvt_ue8m0_from_f32", ll_int(L, 32), args, 3);
		}
	} else if (wide >= 0) {
		LLVMValueRef a = operand_value(L, op(L, 1), PTX_TYPE_B32);

		expect_operands(L, 2);
		for (int i = 0; i < 2; i++) {
			args[0] = field(L, a, (unsigned)(1 - i), 16);
			parts[i] = call_builtin(L, "__zc_cvt_ue8m0_from_bf16", ll_int(L, 32), args, 3);
		}
	} else {
		lower_unsupported(L);
	}
	operand_store(L, op(L, 0), LLVMBuildOr(L->b, LLVMBuildShl(L->b, parts[0], u32c(L, 8), ""), parts[1], ""),
	              PTX_TYPE_B16);
	return true;
}

bool lower_convert(struct lower *L)
{
	enum ptx_type dt, st;
	LLVMValueRef v, r;

	if (strcmp(L->insn->opcode, "cvt") != 0)
		return false;
	static const char *const narrow[] = {"e4m3x2", "e5m2x2", "e2m3x2", "e3m2x2", "e2m1x2"};
	for (uint32_t f = 0; f < sizeof(narrow) / sizeof(narrow[0]); f++)
		if (has_mod(L, narrow[f]))
			return lower_narrow(L, narrow[f], f);
	if (has_mod(L, "ue8m0x2"))
		return lower_ue8m0(L);
	if (has_mod(L, "pack")) {
		convert_pack(L);
		return true;
	}
	dt = mod_type(L, 0);
	st = mod_type(L, 1);
	if (dt == PTX_TYPE_TF32) {
		convert_tf32(L);
		return true;
	}
	if ((dt == PTX_TYPE_F16X2 || dt == PTX_TYPE_BF16X2) && st == PTX_TYPE_F32) {
		convert_pair(L, dt);
		return true;
	}
	bool clamps = has_mod(L, "relu") || has_mod(L, "satfinite");
	if (st == PTX_TYPE_NONE ||
	    (clamps && (st != PTX_TYPE_F32 || (dt != PTX_TYPE_F16 && dt != PTX_TYPE_BF16))) ||
	    dt == PTX_TYPE_F16X2 || dt == PTX_TYPE_BF16X2 ||
	    st == PTX_TYPE_PRED || dt == PTX_TYPE_PRED)
		lower_unsupported(L);
	if (clamps) {
		expect_operands(L, 2);
		operand_store(L, op(L, 0), to_half(L, operand_value(L, op(L, 1), st), dt), dt);
		return true;
	}
	expect_operands(L, 2);
	v = operand_value(L, op(L, 1), st);
	if (type_is_float(dt) && type_is_float(st))
		r = float_to_float(L, v, dt, st);
	else if (type_is_float(dt))
		r = int_to_float(L, v, dt, st);
	else if (type_is_float(st))
		r = float_to_int(L, v, dt, st);
	else
		r = int_to_int(L, v, dt, st);
	operand_store(L, op(L, 0), r, dt);
	return true;
}
