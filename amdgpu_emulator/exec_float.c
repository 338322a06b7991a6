/* Vector float instructions: f32, f64 and f16 arithmetic with source modifiers, output
 * modifiers and clamping, the MODE register's rounding and denormal modes, conversions,
 * packed f16, the mixed-precision fma, and the division helpers. Built with -frounding-math:
 * the host's rounding mode is the wave's while an instruction runs. */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "emu.h"
#include "fp.h"

#define EACH for (int l = 0; l < LANES; l++)

static const int host_rounding[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};

/* Sets the host's rounding to the wave's for f32 (wide = 0) or f16/f64; returns whether it
 * must be restored. */
static bool enter_rounding(const struct wave *w, int wide)
{
	unsigned mode = wide ? w->mode >> 2 & 3 : w->mode & 3;
	if (mode == 0)
		return false;
	fesetround(host_rounding[mode]);
	return true;
}

static void leave_rounding(bool changed)
{
	if (changed)
		fesetround(FE_TONEAREST);
}

static bool flush_in32(const struct wave *w) { return !(w->mode >> 4 & 1); }
static bool flush_out32(const struct wave *w) { return !(w->mode >> 5 & 1); }
static bool flush_in64(const struct wave *w) { return !(w->mode >> 6 & 1); }
static bool flush_out64(const struct wave *w) { return !(w->mode >> 7 & 1); }

static uint32_t bits32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint64_t bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static uint16_t bits16(_Float16 h) { uint16_t b; memcpy(&b, &h, 2); return b; }
static float as_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static double as_f64(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }

static double omod_clamp(const struct insn *in, double x)
{
	if (in->omod == 1) x *= 2;
	else if (in->omod == 2) x *= 4;
	else if (in->omod == 3) x *= 0.5;
	if (in->clamp)
		x = isnan(x) ? 0 : x < 0 ? 0 : x > 1 ? 1 : x;
	return x;
}

static uint32_t out32(const struct wave *w, const struct insn *in, float r)
{
	if (in->omod || in->clamp)
		r = (float)omod_clamp(in, r);
	uint32_t b = bits32(r);
	if (flush_out32(w) && (b & 0x7f800000u) == 0)
		b &= 0x80000000u;
	return b;
}

static uint64_t out64(const struct wave *w, const struct insn *in, double r)
{
	if (in->omod || in->clamp)
		r = omod_clamp(in, r);
	uint64_t b = bits64(r);
	if (flush_out64(w) && (b & 0x7ff0000000000000ull) == 0)
		b &= 0x8000000000000000ull;
	return b;
}

static uint16_t out16(const struct wave *w, const struct insn *in, double r)
{
	if (in->omod || in->clamp)
		r = omod_clamp(in, r);
	uint16_t b = bits16((_Float16)r);
	if (flush_out64(w) && (b & 0x7c00) == 0)
		b &= 0x8000;
	return b;
}

/* IEEE-754 minNum/maxNum as the ISA's min/max: a NaN operand gives the other one. The
 * ISA orders -0 below +0. */
static double fmin_ieee(double a, double b)
{
	if (isnan(a)) return isnan(b) ? a : b;
	if (isnan(b)) return a;
	if (a == b) return signbit(a) ? a : b;
	return a < b ? a : b;
}

static double fmax_ieee(double a, double b)
{
	if (isnan(a)) return isnan(b) ? a : b;
	if (isnan(b)) return a;
	if (a == b) return signbit(a) ? b : a;
	return a > b ? a : b;
}

static double med3(double a, double b, double c)
{
	if (isnan(a) || isnan(b) || isnan(c))
		return fmin_ieee(fmin_ieee(a, b), c);
	double mx = fmax_ieee(a, b), mn = fmin_ieee(a, b);
	return fmax_ieee(mn, fmin_ieee(mx, c));
}

/* v_div_fmas's x * y + z scaled by 2^k, rounded once: the scale is part of the one
 * rounding, so a quotient scaled back into the subnormals rounds from the exact sum. Held
 * in 113 bits (the product of two doubles is exact there), which one rounding to f32 or
 * f64 leaves correct; a double would round twice (2^62 + 2^38 + 2^-8 became a tie). */
static __float128 fma_scaled(double x, double y, double z, int k)
{
	return ((__float128)x * y + z) * (__float128)ldexp(1.0, k);
}

enum fop {
	F_ADD, F_SUB, F_SUBREV, F_MUL, F_FMA, F_FMAC, F_FMAAK, F_FMAMK, F_MIN, F_MAX, F_MIN3,
	F_MAX3, F_MED3, F_MINMAX, F_MAXMIN, F_RCP, F_RSQ, F_SQRT, F_EXP, F_LOG, F_SIN, F_COS,
	F_TRUNC, F_CEIL, F_FLOOR, F_RNDNE, F_FRACT, F_LDEXP, F_FREXP_MANT, F_MUL_LEGACY, F_MOV,
	F_DIV_FMAS, F_DIV_FIXUP, F_MAXIMUM, F_MINIMUM, F_MAXIMUM3, F_MINIMUM3, F_MAXIMUMMINIMUM,
	F_MINIMUMMAXIMUM, F_FMA_DX9, F_FMAC_DX9, F_MULLIT, F_TRIG_PREOP, F_CUBEID, F_CUBESC,
	F_CUBETC, F_CUBEMA,
};

/* v_cubeid, v_cubesc, v_cubetc, v_cubema of the direction (x, y, z): the face the major
 * axis names, the face's s and t coordinates, twice the major axis. */
static float cube(unsigned op, float x, float y, float z)
{
	bool z_major = fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y), y_major = fabsf(y) >= fabsf(x);
	switch (op) {
	case F_CUBEID: return z_major ? (z < 0 ? 5.0f : 4.0f) : y_major ? (y < 0 ? 3.0f : 2.0f) : (x < 0 ? 1.0f : 0.0f);
	case F_CUBESC: return z_major ? (z < 0 ? -x : x) : y_major ? x : (x < 0 ? z : -z);
	case F_CUBETC: return z_major ? -y : y_major ? (y < 0 ? -z : z) : -y;
	default: return (z_major ? z : y_major ? y : x) * 2.0f;
	}
}

/* 2/pi's fraction, its first 1216 bits, most significant first (v_trig_preop_f64 reads
 * 1201 of them). Computed from Machin's formula for pi in integers. */
static const uint64_t two_over_pi[19] = {
	0xa2f9836e4e441529ull, 0xfc2757d1f534ddc0ull, 0xdb6295993c439041ull, 0xfe5163abdebbc561ull,
	0xb7246e3a424dd2e0ull, 0x06492eea09d1921cull, 0xfe1deb1cb129a73eull, 0xe88235f52ebb4484ull,
	0xe99c7026b45f7e41ull, 0x3991d639835339f4ull, 0x9c845f8bbdf9283bull, 0x1ff897ffde05980full,
	0xef2f118b5a0a6d1full, 0x6d367ecf27cb09b7ull, 0x4f463f669e5fea2dull, 0x7527bac7ebe5f17bull,
	0x3d0739f78a5292eaull, 0x6bfb5fb11f8d5d08ull, 0x56033046fc7b6babull,
};

/* v_trig_preop_f64: the 53 bits of 2/pi's fraction from bit SHIFT + 1 on (the segment's
 * 53 bits, moved on by the exponent of large X), at their place: shifted right 53 + SHIFT,
 * less 128 for the largest X. */
static double trig_preop(uint64_t x, uint32_t segment)
{
	int exponent = (int)(x >> 52 & 0x7ff);
	int shift = (int)(segment & 31) * 53 + (exponent > 1077 ? exponent - 1077 : 0);
	uint64_t result = 0;
	for (int k = 1; k <= 53; k++) {
		int j = shift + k;
		uint64_t bit = j <= 1201 ? two_over_pi[(j - 1) / 64] >> (63 - (j - 1) % 64) & 1 : 0;
		result = result << 1 | bit;
	}
	return ldexp((double)result, -53 - shift + (exponent >= 1968 ? 128 : 0));
}

/* IEEE 754-2019 maximum and minimum as v_maximum and v_minimum give them, on the bits of
 * WIDTH (16, 32, 64) values A and B: a NaN operand wins (a signaling one first, quieted;
 * then the first quiet one); -0 is below +0. */
static uint64_t extreme_bits(uint64_t a, uint64_t b, int width, bool maximum)
{
	uint64_t sign = 1ull << (width - 1), quiet = width == 16 ? 0x200 : width == 32 ? 0x400000 : 1ull << 51;
	uint64_t inf = width == 16 ? 0x7c00 : width == 32 ? 0x7f800000 : 0x7ff0000000000000ull;
	bool nan_a = (a & ~sign) > inf, nan_b = (b & ~sign) > inf;
	if (nan_a && !(a & quiet)) return a | quiet;
	if (nan_b && !(b & quiet)) return b | quiet;
	if (nan_a) return a;
	if (nan_b) return b;
	double x, y;
	if (width == 16) {
		x = emu_f16_to_double((uint16_t)a, false);
		y = emu_f16_to_double((uint16_t)b, false);
	} else if (width == 32) {
		x = as_f32((uint32_t)a);
		y = as_f32((uint32_t)b);
	} else {
		x = as_f64(a);
		y = as_f64(b);
	}
	if (x == y)
		return (a & sign) == (b & sign) ? a : ((a & sign) != 0) == maximum ? b : a;
	return (x > y) == maximum ? a : b;
}

/* The v_maximum/v_minimum family on WIDTH-bit operands: two, or three for the nested forms. */
static uint64_t extreme_op(unsigned op, uint64_t a, uint64_t b, uint64_t c, int width)
{
	switch (op) {
	case F_MAXIMUM: return extreme_bits(a, b, width, true);
	case F_MINIMUM: return extreme_bits(a, b, width, false);
	case F_MAXIMUM3: return extreme_bits(extreme_bits(a, b, width, true), c, width, true);
	case F_MINIMUM3: return extreme_bits(extreme_bits(a, b, width, false), c, width, false);
	case F_MAXIMUMMINIMUM: return extreme_bits(extreme_bits(a, b, width, true), c, width, false);
	default: return extreme_bits(extreme_bits(a, b, width, false), c, width, true);
	}
}

static bool is_extreme(unsigned op) { return op >= F_MAXIMUM && op <= F_MINIMUMMAXIMUM; }

/* A one-operand operation on a value of `bits` (16, 32, 64), computed in double. */
static double unary(unsigned op, double a, int bits)
{
	switch (op) {
	case F_RCP: return 1.0 / a;
	case F_RSQ: return 1.0 / sqrt(a);
	case F_SQRT: return sqrt(a);
	case F_EXP: return exp2(a);
	case F_LOG: return log2(a);
	case F_SIN: return sin(a * 2 * M_PI);
	case F_COS: return cos(a * 2 * M_PI);
	case F_TRUNC: return trunc(a);
	case F_CEIL: return ceil(a);
	case F_FLOOR: return floor(a);
	case F_RNDNE: return nearbyint(a);
	case F_FRACT: {
		if (isinf(a)) return NAN;
		if (isnan(a)) return a;
		double f = a - floor(a);
		/* the largest value below 1 of the width */
		double top = bits == 64 ? 0x1.fffffffffffffp-1 : bits == 32 ? 0x1.fffffep-1 : 0x1.ffcp-1;
		return f < top ? f : top;
	}
	case F_FREXP_MANT: {
		if (isinf(a) || isnan(a)) return a;
		int e;
		return frexp(a, &e);
	}
	case F_MOV: return a;
	default: return NAN;
	}
}

/* A one-operand f32 operation: the rcp, sqrt and rsq units round once, in f32. */
static inline float unary32(unsigned op, float x)
{
	switch (op) {
	case F_RCP: return 1.0f / x;
	case F_SQRT: return sqrtf(x);
	case F_RSQ: return 1.0f / sqrtf(x);
	default: return (float)unary(op, x, 32);
	}
}

/* fmin_ieee and fmax_ieee in f32, as selects a lane loop vectorises; a NaN comes out quiet,
 * as from the double versions. */
static float quiet32(float x)
{
	uint32_t b = bits32(x);
	return as_f32((b & 0x7fffffffu) > 0x7f800000u ? b | 0x00400000u : b);
}

static float fmin32(float a, float b)
{
	float m = a < b ? a : b;
	m = a == b ? (signbit(a) ? a : b) : m;
	return quiet32(isnan(b) ? a : m);
}

static float fmax32(float a, float b)
{
	float m = a > b ? a : b;
	m = a == b ? (signbit(a) ? b : a) : m;
	return quiet32(isnan(b) ? a : m);
}

/* What the f32 instructions without a lane loop of their own compute for one lane: b, the
 * second operand's bits (ldexp's exponent). */
static float lane32(const struct wave *w, const struct insn *in, int l, float x, float y,
                    float z, uint32_t b)
{
	switch (in->op) {
	case F_MAXIMUM: case F_MINIMUM: case F_MAXIMUM3: case F_MINIMUM3: case F_MAXIMUMMINIMUM:
	case F_MINIMUMMAXIMUM:
		return as_f32((uint32_t)extreme_op(in->op, bits32(x), bits32(y), bits32(z), 32));
	/* DX9's rule: 0 times anything (infinity and NaN too) is 0 */
	case F_FMA_DX9: case F_FMAC_DX9: return x == 0 || y == 0 ? z : fmaf(x, y, z);
	case F_CUBEID: case F_CUBESC: case F_CUBETC: case F_CUBEMA: return cube(in->op, x, y, z);
	case F_MULLIT:
		if (y == -FLT_MAX || y == -INFINITY || isnan(y) || z <= 0 || isnan(z))
			return -FLT_MAX;
		return x * y;
	case F_MED3: return (float)med3(x, y, z);
	case F_LDEXP: return ldexpf(x, (int32_t)b > 300 ? 300 : (int32_t)b < -300 ? -300 : (int32_t)b);
	case F_DIV_FMAS:
		if (w->s[SREG_VCC_LO] >> l & 1)
			return (float)fma_scaled(x, y, z, fabsf(z) >= 1.0f ? 64 : -64);
		return fmaf(x, y, z);
	case F_DIV_FIXUP: {
		/* x: the quotient, y: the denominator, z: the numerator */
		bool sign = signbit(y) != signbit(z);
		if (isnan(z)) return z;
		if (isnan(y)) return y;
		if (y == 0 && z == 0) return as_f32(0xffc00000u);
		if (isinf(y) && isinf(z)) return as_f32(0xffc00000u);
		if (y == 0 || isinf(z)) return sign ? -INFINITY : INFINITY;
		if (isinf(y) || z == 0) return sign ? -0.0f : 0.0f;
		if ((int)(bits32(z) >> 23 & 0xff) - (int)(bits32(y) >> 23 & 0xff) < -150)
			return sign ? -0.0f : 0.0f;
		/* The guide's text tests exponent(S1) == 255 here, which the cases above leave
		 * impossible: it is the quotient's, an overflow of the scaled division (a huge
		 * numerator over a subnormal denominator). */
		if ((bits32(x) >> 23 & 0xff) == 255) return sign ? -INFINITY : INFINITY;
		return sign ? -fabsf(x) : fabsf(x);
	}
	default: return unary32(in->op, x);
	}
}

/* The common operations run as loops over all 32 lanes, which the compiler vectorises (the
 * lanes exec leaves out are computed and not written); the rest lane by lane. */
LANE_LOOPS static void fop32(struct wave *w, const struct insn *in)
{
	uint32_t spare[3][LANES], r[LANES], mask = exec_mask(w);
	const uint32_t *b = NULL;
	float x[LANES], y[LANES], z[LANES], v[LANES];
	int n = in->nopnd;
	bool accumulates = in->op == F_FMAC || in->op == F_FMAC_DX9;
	bool fi = flush_in32(w), has_y = n > 2, has_z = n > 3 || accumulates;
	const uint32_t *a = vlanes32_dpp(w, in, &in->o[1], spare[0], &mask);
	emu_f32_lanes(a, &in->o[1], fi, x);
	if (has_y) {
		b = vlanes32(w, &in->o[2], spare[1]);
		emu_f32_lanes(b, &in->o[2], fi, y);
	}
	if (n > 3)
		emu_f32_lanes(vlanes32(w, &in->o[3], spare[2]), &in->o[3], fi, z);
	else if (accumulates)
		emu_f32_lanes(vlanes32(w, &in->o[0], spare[2]), NULL, fi, z);
	bool changed = enter_rounding(w, 0);
	switch (in->op) {
	case F_ADD: EACH v[l] = x[l] + y[l]; break;
	case F_SUB: EACH v[l] = x[l] - y[l]; break;
	case F_SUBREV: EACH v[l] = y[l] - x[l]; break;
	case F_MUL: EACH v[l] = x[l] * y[l]; break;
	case F_MUL_LEGACY: EACH v[l] = x[l] == 0 || y[l] == 0 ? 0.0f : x[l] * y[l]; break;
	/* fmaak and fmamk are printed in the order they multiply and add: d, a, b, K and d, a,
	 * K, b */
	case F_FMA: case F_FMAC: case F_FMAAK: case F_FMAMK: emu_fma32_lanes(v, x, y, z); break;
	case F_RCP: EACH v[l] = unary32(F_RCP, x[l]); break;
	case F_SQRT: emu_sqrt32_lanes(v, x); break;
	case F_RSQ: emu_rsq32_lanes(v, x); break;
	case F_MIN: EACH v[l] = fmin32(x[l], y[l]); break;
	case F_MAX: EACH v[l] = fmax32(x[l], y[l]); break;
	case F_MIN3: EACH v[l] = fmin32(fmin32(x[l], y[l]), z[l]); break;
	case F_MAX3: EACH v[l] = fmax32(fmax32(x[l], y[l]), z[l]); break;
	case F_MINMAX: EACH v[l] = fmax32(fmin32(x[l], y[l]), z[l]); break;
	case F_MAXMIN: EACH v[l] = fmin32(fmax32(x[l], y[l]), z[l]); break;
	default: EACH v[l] = mask >> l & 1 ? lane32(w, in, l, x[l], has_y ? y[l] : 0,
	                                             has_z ? z[l] : 0, has_y ? b[l] : 0) : 0;
	}
	/* a NaN made of numbers is the canonical one */
	if (!is_extreme(in->op))
		EACH {
			bool made = !isnan(x[l]) && !(has_y && isnan(y[l])) && !(has_z && isnan(z[l]));
			v[l] = isnan(v[l]) && made ? as_f32(0x7fc00000u) : v[l];
		}
	if (in->omod || in->clamp)
		EACH v[l] = (float)omod_clamp(in, v[l]);
	bool flush = flush_out32(w);
	EACH {
		uint32_t bits = bits32(v[l]);
		r[l] = flush && (bits & 0x7f800000u) == 0 ? bits & 0x80000000u : bits;
	}
	leave_rounding(changed);
	vset32(w, &in->o[0], r, mask);
}

static void fop64(struct wave *w, const struct insn *in)
{
	uint64_t a[LANES], b[LANES], c[LANES], r[LANES];
	uint32_t mask = exec_mask(w), bi[LANES];
	int n = in->nopnd;
	bool fi = flush_in64(w);
	vget64f(w, &in->o[1], a);
	if (n > 2) {
		vget64f(w, &in->o[2], b);
		vget32(w, &in->o[2], bi);
	}
	if (n > 3)
		vget64f(w, &in->o[3], c);
	bool changed = enter_rounding(w, 1);
	EACH {
		if (!(mask >> l & 1))
			continue;
		double x = emu_f64_in(emu_f64_mods(a[l], &in->o[1]), fi);
		double y = n > 2 ? emu_f64_in(emu_f64_mods(b[l], &in->o[2]), fi) : 0;
		double z = n > 3 ? emu_f64_in(emu_f64_mods(c[l], &in->o[3]), fi) : 0;
		double v;
		switch (in->op) {
		case F_ADD: v = x + y; break;
		case F_MUL: v = x * y; break;
		case F_FMA: v = fma(x, y, z); break;
		case F_MIN: v = fmin_ieee(x, y); break;
		case F_MAX: v = fmax_ieee(x, y); break;
		case F_MINIMUM: case F_MAXIMUM:
			v = as_f64(extreme_op(in->op, emu_f64_mods(a[l], &in->o[1]), emu_f64_mods(b[l], &in->o[2]), 0, 64));
			r[l] = out64(w, in, v);
			continue;
		case F_LDEXP: v = ldexp(x, (int32_t)bi[l] > 3000 ? 3000 : (int32_t)bi[l] < -3000 ? -3000 : (int32_t)bi[l]); break;
		case F_TRIG_PREOP: v = trig_preop(emu_f64_mods(a[l], &in->o[1]), bi[l]); break;
		case F_DIV_FMAS:
			if (w->s[SREG_VCC_LO] >> l & 1)
				v = (double)fma_scaled(x, y, z, fabs(z) >= 1.0 ? 128 : -128);
			else
				v = fma(x, y, z);
			break;
		case F_DIV_FIXUP: {
			bool sign = signbit(y) != signbit(z);
			if (isnan(z)) v = z;
			else if (isnan(y)) v = y;
			else if (y == 0 && z == 0) v = as_f64(0xfff8000000000000ull);
			else if (isinf(y) && isinf(z)) v = as_f64(0xfff8000000000000ull);
			else if (y == 0 || isinf(z)) v = sign ? -INFINITY : INFINITY;
			else if (isinf(y) || z == 0) v = sign ? -0.0 : 0.0;
			else if ((int)(bits64(z) >> 52 & 0x7ff) - (int)(bits64(y) >> 52 & 0x7ff) < -1075)
				v = sign ? -0.0 : 0.0;
			else if ((bits64(x) >> 52 & 0x7ff) == 0x7ff) v = sign ? -INFINITY : INFINITY;
			else v = sign ? -fabs(x) : fabs(x);
			break;
		}
		default: v = unary(in->op, x, 64); break;
		}
		if (isnan(v) && !isnan(x) && !isnan(y) && !isnan(z))
			v = as_f64(0x7ff8000000000000ull);
		r[l] = out64(w, in, v);
	}
	leave_rounding(changed);
	vset64(w, &in->o[0], r, mask);
}

static void fop16(struct wave *w, const struct insn *in)
{
	uint16_t a[LANES], b[LANES], c[LANES], r[LANES];
	uint32_t mask = exec_mask(w), bi[LANES];
	int n = in->nopnd;
	bool fi = flush_in64(w);
	vget16(w, &in->o[1], in->op_sel & 1, a);
	if (n > 2) {
		vget16(w, &in->o[2], in->op_sel >> 1 & 1, b);
		vget32(w, &in->o[2], bi);
	}
	if (n > 3)
		vget16(w, &in->o[3], in->op_sel >> 2 & 1, c);
	if (in->op == F_FMAC)
		vget16(w, &in->o[0], in->op_sel >> 3 & 1, c);
	bool changed = enter_rounding(w, 1);
	EACH {
		if (!(mask >> l & 1))
			continue;
		double x = emu_f16_to_double(emu_f16_mods(a[l], &in->o[1]), fi);
		double y = n > 2 ? emu_f16_to_double(emu_f16_mods(b[l], &in->o[2]), fi) : 0;
		double z = n > 3 ? emu_f16_to_double(emu_f16_mods(c[l], &in->o[3]), fi)
		                 : in->op == F_FMAC ? emu_f16_to_double(c[l], fi) : 0;
		double v;
		switch (in->op) {
		case F_ADD: v = x + y; break;
		case F_SUB: v = x - y; break;
		case F_SUBREV: v = y - x; break;
		case F_MUL: v = x * y; break;
		case F_FMA: case F_FMAC: case F_FMAAK: case F_FMAMK: v = fma(x, y, z); break;
		case F_MIN: v = fmin_ieee(x, y); break;
		case F_MAX: v = fmax_ieee(x, y); break;
		case F_MIN3: v = fmin_ieee(fmin_ieee(x, y), z); break;
		case F_MAX3: v = fmax_ieee(fmax_ieee(x, y), z); break;
		case F_MED3: v = med3(x, y, z); break;
		case F_MINMAX: v = fmax_ieee(fmin_ieee(x, y), z); break;
		case F_MAXMIN: v = fmin_ieee(fmax_ieee(x, y), z); break;
		case F_LDEXP: v = ldexp(x, (int16_t)bi[l]); break;
		case F_MAXIMUM: case F_MINIMUM: case F_MAXIMUM3: case F_MINIMUM3: case F_MAXIMUMMINIMUM:
		case F_MINIMUMMAXIMUM: {
			uint16_t ea = emu_f16_mods(a[l], &in->o[1]), eb = emu_f16_mods(b[l], &in->o[2]);
			uint16_t ec = n > 3 ? emu_f16_mods(c[l], &in->o[3]) : 0;
			r[l] = (uint16_t)extreme_op(in->op, ea, eb, ec, 16);
			if ((r[l] & 0x7fff) <= 0x7c00)
				r[l] = out16(w, in, emu_f16_to_double(r[l], false));
			continue;
		}
		case F_DIV_FIXUP: {
			/* x: the quotient, y: the denominator, z: the numerator */
			bool sign = signbit(y) != signbit(z);
			if (isnan(z) || isnan(y)) {
				r[l] = (uint16_t)(emu_f16_mods(isnan(z) ? c[l] : b[l], &in->o[isnan(z) ? 3 : 2]) | 0x200);
				continue;
			}
			if ((y == 0 && z == 0) || (isinf(y) && isinf(z))) {
				r[l] = 0xfe00;
				continue;
			}
			if (y == 0 || isinf(z)) v = sign ? -INFINITY : INFINITY;
			else if (isinf(y) || z == 0) v = sign ? -0.0 : 0.0;
			else v = sign ? -fabs(x) : fabs(x);
			break;
		}
		default: v = unary(in->op, x, 16); break;
		}
		if (isnan(v) && !isnan(x) && !isnan(y) && !isnan(z))
			v = NAN;
		r[l] = out16(w, in, v);
		if (isnan(v))
			r[l] = isnan(x) ? (uint16_t)(emu_f16_mods(a[l], &in->o[1]) | 0x200)
			     : isnan(y) ? (uint16_t)(emu_f16_mods(b[l], &in->o[2]) | 0x200) : 0x7e00;
	}
	leave_rounding(changed);
	emu_write16(w, in, r, mask);
}

/* Conversions: the selector is the source and destination types. */
enum cvt {
	CVT_F32_F64, CVT_F64_F32, CVT_F32_I32, CVT_F32_U32, CVT_I32_F32, CVT_U32_F32, CVT_F64_I32,
	CVT_F64_U32, CVT_I32_F64, CVT_U32_F64, CVT_F16_F32, CVT_F32_F16, CVT_F32_UBYTE0,
	CVT_F32_UBYTE1, CVT_F32_UBYTE2, CVT_F32_UBYTE3, CVT_F16_I16, CVT_F16_U16, CVT_I16_F16,
	CVT_U16_F16, CVT_PKRTZ_F16_F32, FREXP_EXP_I32_F32, FREXP_EXP_I32_F64, FREXP_EXP_I16_F16,
	CVT_FLR_I32_F32, CVT_RPI_I32_F32, CVT_I32_I16, CVT_U32_U16, CVT_PK_I16_I32, CVT_PK_U16_U32, PACK_B32_F16,
	CVT_PK_NORM_I16_F32, CVT_PK_NORM_U16_F32, CVT_OFF_F32_I4, CVT_PK_I16_F32, CVT_PK_U16_F32,
	CVT_NORM_I16_F16, CVT_NORM_U16_F16, CVT_PK_NORM_I16_F16, CVT_PK_NORM_U16_F16, CVT_PK_U8_F32,
};

/* f16_to_snorm and f16_to_unorm (and the f32 forms): clamped to [-1, 1] or [0, 1], scaled
 * to the integer's largest, rounded to nearest even; NaN is 0. */
static uint16_t to_norm(double x, bool is_signed)
{
	double lo = is_signed ? -1.0 : 0.0, scale = is_signed ? 32767.0 : 65535.0;
	double p = isnan(x) ? 0 : fmin(fmax(x, lo), 1.0);
	return (uint16_t)(int32_t)nearbyint(p * scale);
}

static uint32_t f_to_i32(double x)
{
	if (isnan(x)) return 0;
	if (x >= 2147483647.0) return 0x7fffffffu;
	if (x <= -2147483648.0) return 0x80000000u;
	return (uint32_t)(int32_t)x;
}

static uint32_t f_to_u32(double x)
{
	if (isnan(x) || x <= 0) return 0;
	if (x >= 4294967295.0) return 0xffffffffu;
	return (uint32_t)x;
}

static uint16_t f_to_i16(double x)
{
	if (isnan(x)) return 0;
	if (x >= 32767.0) return 0x7fff;
	if (x <= -32768.0) return 0x8000;
	return (uint16_t)(int16_t)x;
}

static uint16_t f_to_u16(double x)
{
	if (isnan(x) || x <= 0) return 0;
	if (x >= 65535.0) return 0xffff;
	return (uint16_t)x;
}

/* The guides leave f32_to_u8 undefined: read as their other float-to-unsigned conversions,
 * toward zero, saturated, NaN 0. */
static uint32_t f_to_u8(double x)
{
	if (isnan(x) || x <= 0) return 0;
	if (x >= 255.0) return 255;
	return (uint32_t)x;
}

static int frexp_exp(double x)
{
	int e = 0;
	if (isinf(x) || isnan(x) || x == 0)
		return 0;
	frexp(x, &e);
	return e;
}

static void convert(struct wave *w, const struct insn *in)
{
	const struct operand *s = &in->o[1], *d = &in->o[0];
	uint32_t mask = exec_mask(w), a[LANES], b[LANES], c[LANES], r[LANES];
	uint64_t A[LANES], R[LANES];
	uint16_t h[LANES], hr[LANES];
	bool changed = false;
	enum cvt op = (enum cvt)in->op;

	switch (op) {
	case CVT_F32_F64: case CVT_I32_F64: case CVT_U32_F64: case FREXP_EXP_I32_F64:
		vget64f(w, s, A);
		changed = enter_rounding(w, 0);
		EACH {
			double x = emu_f64_in(emu_f64_mods(A[l], s), flush_in64(w));
			switch (op) {
			case CVT_F32_F64: r[l] = out32(w, in, (float)x); break;
			case CVT_I32_F64: r[l] = f_to_i32(trunc(x)); break;
			case CVT_U32_F64: r[l] = f_to_u32(trunc(x)); break;
			default: r[l] = (uint32_t)frexp_exp(x); break;
			}
		}
		leave_rounding(changed);
		vset32(w, d, r, mask);
		return;
	case CVT_F64_F32: case CVT_F64_I32: case CVT_F64_U32:
		vget32_dpp(w, in, s, a, &mask);
		EACH {
			double x = op == CVT_F64_F32 ? emu_f32_in(emu_f32_mods(a[l], s), flush_in32(w))
			         : op == CVT_F64_I32 ? (double)(int32_t)a[l] : (double)a[l];
			R[l] = out64(w, in, x);
		}
		vset64(w, d, R, mask);
		return;
	case PACK_B32_F16:  /* two halves, op_sel choosing each; neg and abs act on the sign */
		vget16(w, s, in->op_sel & 1, h);
		vget16(w, &in->o[2], in->op_sel >> 1 & 1, hr);
		EACH
			r[l] = emu_f16_mods(h[l], s) | (uint32_t)emu_f16_mods(hr[l], &in->o[2]) << 16;
		vset32(w, d, r, mask);
		return;
	case CVT_PK_NORM_I16_F16: case CVT_PK_NORM_U16_F16:
		vget16(w, s, in->op_sel & 1, h);
		vget16(w, &in->o[2], in->op_sel >> 1 & 1, hr);
		EACH {
			bool is_signed = op == CVT_PK_NORM_I16_F16;
			double x = emu_f16_to_double(emu_f16_mods(h[l], s), flush_in64(w));
			double y = emu_f16_to_double(emu_f16_mods(hr[l], &in->o[2]), flush_in64(w));
			r[l] = to_norm(x, is_signed) | (uint32_t)to_norm(y, is_signed) << 16;
		}
		vset32(w, d, r, mask);
		return;
	case CVT_F32_F16: case CVT_I16_F16: case CVT_U16_F16: case CVT_F16_I16: case CVT_F16_U16:
	case FREXP_EXP_I16_F16: case CVT_I32_I16: case CVT_U32_U16: case CVT_NORM_I16_F16:
	case CVT_NORM_U16_F16:
		vget16(w, s, in->op_sel & 1, h);
		changed = enter_rounding(w, 1);
		EACH {
			double x = emu_f16_to_double(emu_f16_mods(h[l], s), flush_in64(w));
			switch (op) {
			case CVT_F32_F16: r[l] = out32(w, in, (float)x); break;
			case CVT_I32_I16: r[l] = (uint32_t)(int32_t)(int16_t)h[l]; break;
			case CVT_U32_U16: r[l] = h[l]; break;
			case CVT_I16_F16: hr[l] = f_to_i16(trunc(x)); break;
			case CVT_U16_F16: hr[l] = f_to_u16(trunc(x)); break;
			case CVT_F16_I16: hr[l] = out16(w, in, (double)(int16_t)h[l]); break;
			case CVT_F16_U16: hr[l] = out16(w, in, (double)h[l]); break;
			case CVT_NORM_I16_F16: hr[l] = to_norm(x, true); break;
			case CVT_NORM_U16_F16: hr[l] = to_norm(x, false); break;
			default: hr[l] = (uint16_t)frexp_exp(x); break;
			}
		}
		leave_rounding(changed);
		if (op == CVT_F32_F16 || op == CVT_I32_I16 || op == CVT_U32_U16)
			vset32(w, d, r, mask);
		else
			emu_write16(w, in, hr, mask);
		return;
	default:
		break;
	}
	vget32_dpp(w, in, s, a, &mask);
	if (in->nopnd > 2)
		vget32(w, &in->o[2], b);
	if (op == CVT_PK_U8_F32)
		vget32(w, &in->o[3], c);
	changed = enter_rounding(w, op == CVT_F16_F32);
	EACH {
		float x = emu_f32_in(emu_f32_mods(a[l], s), flush_in32(w));
		switch (op) {
		case CVT_F32_I32: r[l] = out32(w, in, (float)(int32_t)a[l]); break;
		case CVT_F32_U32: r[l] = out32(w, in, (float)a[l]); break;
		case CVT_I32_F32: r[l] = f_to_i32(truncf(x)); break;
		case CVT_U32_F32: r[l] = f_to_u32(truncf(x)); break;
		case CVT_FLR_I32_F32: r[l] = f_to_i32(floorf(x)); break;
		case CVT_RPI_I32_F32: r[l] = f_to_i32(floorf(x + 0.5f)); break;
		case CVT_F16_F32: hr[l] = out16(w, in, x); break;
		case CVT_F32_UBYTE0: case CVT_F32_UBYTE1: case CVT_F32_UBYTE2: case CVT_F32_UBYTE3:
			r[l] = bits32((float)(a[l] >> (8 * (op - CVT_F32_UBYTE0)) & 0xff));
			break;
		case FREXP_EXP_I32_F32: r[l] = (uint32_t)frexp_exp(x); break;
		case CVT_PKRTZ_F16_F32: {
			float y = emu_f32_in(emu_f32_mods(b[l], &in->o[2]), flush_in32(w));
			r[l] = emu_f32_to_f16_rtz(bits32(x)) | (uint32_t)emu_f32_to_f16_rtz(bits32(y)) << 16;
			break;
		}
		case CVT_PK_I16_I32: {
			int32_t p = (int32_t)a[l], q = (int32_t)b[l];
			p = p > 32767 ? 32767 : p < -32768 ? -32768 : p;
			q = q > 32767 ? 32767 : q < -32768 ? -32768 : q;
			r[l] = (uint16_t)p | (uint32_t)(uint16_t)q << 16;
			break;
		}
		case CVT_PK_U8_F32: {  /* into the byte S1[1:0] names of S2 */
			unsigned shift = 8 * (b[l] & 3);
			r[l] = (c[l] & ~(0xffu << shift)) | f_to_u8(truncf(x)) << shift;
			break;
		}
		case CVT_PK_U16_U32: {
			uint32_t p = a[l] > 0xffff ? 0xffff : a[l], q = b[l] > 0xffff ? 0xffff : b[l];
			r[l] = p | q << 16;
			break;
		}
		case CVT_PK_NORM_I16_F32: case CVT_PK_NORM_U16_F32: {
			float y = emu_f32_in(emu_f32_mods(b[l], &in->o[2]), flush_in32(w));
			bool is_signed = op == CVT_PK_NORM_I16_F32;
			r[l] = to_norm(x, is_signed) | (uint32_t)to_norm(y, is_signed) << 16;
			break;
		}
		/* v_cvt_i16_f32 and v_cvt_u16_f32 of each: truncated, saturated, NaN 0 */
		case CVT_PK_I16_F32: case CVT_PK_U16_F32: {
			float y = emu_f32_in(emu_f32_mods(b[l], &in->o[2]), flush_in32(w));
			bool is_signed = op == CVT_PK_I16_F32;
			uint16_t lo = is_signed ? f_to_i16(truncf(x)) : f_to_u16(truncf(x));
			uint16_t hi = is_signed ? f_to_i16(truncf(y)) : f_to_u16(truncf(y));
			r[l] = lo | (uint32_t)hi << 16;
			break;
		}
		case CVT_OFF_F32_I4: r[l] = bits32((float)((int32_t)(a[l] << 28) >> 28) * 0.0625f); break;
		default: r[l] = 0; break;
		}
	}
	leave_rounding(changed);
	if (op == CVT_F16_F32)
		emu_write16(w, in, hr, mask);
	else
		vset32(w, d, r, mask);
}

/* v_div_scale_f32/f64 dst, vcc-out, s0, s1, s2 as the ISA's pseudo-code gives it. */
static void div_scale(struct wave *w, const struct insn *in)
{
	uint32_t mask = exec_mask(w), vcc = 0;
	if (in->op == 64) {
		uint64_t a[LANES], b[LANES], c[LANES], r[LANES];
		vget64f(w, &in->o[2], a);
		vget64f(w, &in->o[3], b);
		vget64f(w, &in->o[4], c);
		EACH {
			double s0 = as_f64(emu_f64_mods(a[l], &in->o[2])), s1 = as_f64(emu_f64_mods(b[l], &in->o[3]));
			double s2 = as_f64(emu_f64_mods(c[l], &in->o[4])), d = s0;
			int e1 = (int)(bits64(s1) >> 52 & 0x7ff), e2 = (int)(bits64(s2) >> 52 & 0x7ff);
			bool v = false;
			if (s2 == 0 || s1 == 0) d = NAN;
			else if (e2 - e1 >= 768) { v = true; if (s0 == s1) d = ldexp(s0, 128); }
			else if (fpclassify(s1) == FP_SUBNORMAL) d = ldexp(s0, 128);
			else if (fpclassify(1.0 / s1) == FP_SUBNORMAL && fpclassify(s2 / s1) == FP_SUBNORMAL) {
				/* The guide's text scales the denominator up here, which a denominator
				 * this large (its reciprocal subnormal) cannot take: it overflows, and
				 * -1 / -DBL_MAX became +inf. Down, as the next branch does, keeps the
				 * scaled quotient normal for v_div_fmas to scale back. */
				v = true;
				if (s0 == s1) d = ldexp(s0, -128);
			} else if (fpclassify(1.0 / s1) == FP_SUBNORMAL) d = ldexp(s0, -128);
			else if (fpclassify(s2 / s1) == FP_SUBNORMAL) { v = true; if (s0 == s2) d = ldexp(s0, 128); }
			else if (e2 <= 53) d = ldexp(s0, 128);
			r[l] = bits64(d);
			if (v && (mask >> l & 1))
				vcc |= 1u << l;
		}
		vset64(w, &in->o[0], r, mask);
	} else {
		uint32_t a[LANES], b[LANES], c[LANES], r[LANES];
		vget32(w, &in->o[2], a);
		vget32(w, &in->o[3], b);
		vget32(w, &in->o[4], c);
		EACH {
			float s0 = as_f32(emu_f32_mods(a[l], &in->o[2])), s1 = as_f32(emu_f32_mods(b[l], &in->o[3]));
			float s2 = as_f32(emu_f32_mods(c[l], &in->o[4])), d = s0;
			int e1 = (int)(bits32(s1) >> 23 & 0xff), e2 = (int)(bits32(s2) >> 23 & 0xff);
			bool v = false;
			if (s2 == 0 || s1 == 0) d = NAN;
			else if (e2 - e1 >= 96) { v = true; if (s0 == s1) d = ldexpf(s0, 64); }
			else if (fpclassify(s1) == FP_SUBNORMAL) d = ldexpf(s0, 64);
			/* "1.0 / 64'F(S1) == DENORM" as the f32 reciprocal being subnormal: read in
			 * f64 it never is, and x / FLT_MAX then loses the reciprocal's bits in the
			 * subnormals (2^63 / FLT_MAX was one ulp off). Scaled down, as in f64. */
			else if (fpclassify(1.0f / s1) == FP_SUBNORMAL && fpclassify(s2 / s1) == FP_SUBNORMAL) {
				v = true;
				if (s0 == s1) d = ldexpf(s0, -64);
			} else if (fpclassify(1.0f / s1) == FP_SUBNORMAL) d = ldexpf(s0, -64);
			else if (fpclassify(s2 / s1) == FP_SUBNORMAL) { v = true; if (s0 == s2) d = ldexpf(s0, 64); }
			else if (e2 <= 23) d = ldexpf(s0, 64);
			r[l] = bits32(d);
			if (v && (mask >> l & 1))
				vcc |= 1u << l;
		}
		vset32(w, &in->o[0], r, mask);
	}
	mask_set(w, &in->o[1], vcc);
}

/* S0 (through DPP where the instruction has it) and S1 of a two- or three-source
 * instruction; the lanes that take the result. */
static uint32_t two_sources(struct wave *w, const struct insn *in, uint32_t a[LANES],
                            uint32_t b[LANES])
{
	uint32_t mask = exec_mask(w);
	vget32_dpp(w, in, &in->o[1], a, &mask);
	vget32(w, &in->o[2], b);
	return mask;
}

/* v_dot2_f32_f16/bf16: S2 (the accumulating forms: D) plus the products of S0's and S1's
 * halves, each added in f32 as the pseudo-code's two += do (the products are exact);
 * neg_lo and neg_hi negate the sources' halves, neg_lo's third bit S2. */
enum dot2 { DOT2_F16, DOT2_BF16, DOT2ACC_F16, DOT2ACC_BF16 };

static void dot2(struct wave *w, const struct insn *in)
{
	uint32_t a[LANES], b[LANES], c[LANES], r[LANES];
	bool bf16 = in->op == DOT2_BF16 || in->op == DOT2ACC_BF16, acc = in->op >= DOT2ACC_F16;
	if (in->neg_hi >> 2 & 1) {
		emu_not_emulated(w, in);
		return;
	}
	uint32_t mask = two_sources(w, in, a, b);
	vget32(w, acc ? &in->o[0] : &in->o[3], c);
	bool fi = flush_in32(w), fi16 = flush_in64(w), changed = enter_rounding(w, 0);
	EACH {
		uint32_t accumulator = acc ? c[l] : emu_f32_mods(c[l], &in->o[3]) ^ (in->neg_lo >> 2 & 1) << 31;
		float t = emu_f32_in(accumulator, fi);
		for (int half = 0; half < 2; half++) {
			unsigned neg = half ? in->neg_hi : in->neg_lo;
			uint16_t x = (uint16_t)(a[l] >> 16 * half ^ (neg & 1) << 15);
			uint16_t y = (uint16_t)(b[l] >> 16 * half ^ (neg >> 1 & 1) << 15);
			float p = bf16 ? emu_f32_in((uint32_t)x << 16, fi) * emu_f32_in((uint32_t)y << 16, fi)
			               : (float)(emu_f16_to_double(x, fi16) * emu_f16_to_double(y, fi16));
			t += p;
		}
		r[l] = out32(w, in, t);
	}
	leave_rounding(changed);
	vset32(w, &in->o[0], r, mask);
}

/* A + B rounded to odd (an inexact sum's last bit set), under the host's round to nearest:
 * rounded again to a format of fewer than 52 bits, it gives that format's rounding of the
 * exact sum in any mode. */
static double sum_to_odd(double a, double b)
{
	double s = a + b, bb = s - a, error = (a - (s - bb)) + (b - bb);
	if (error != 0 && !(bits64(s) & 1))
		s = nextafter(s, error > 0 ? INFINITY : -INFINITY);
	return s;
}

/* v_dot2_f16_f16 / v_dot2_bf16_bf16: S2's half (op_sel[2] names it) plus the products of S0's
 * and S1's halves, into the half op_sel[3] names. Read as the guide's pseudo-code writes it:
 * its accumulator has the result's type, so each += rounds (the product exact within it):
 * f16 as MODE says, bf16 to nearest even with subnormals kept, as WMMA's bf16 results. What
 * a source modifier of the packed S0 or S1 does is not described: not emulated. */
enum dot2_half { DOT2_F16_F16, DOT2_BF16_BF16 };

static void dot2_half(struct wave *w, const struct insn *in)
{
	uint32_t a[LANES], b[LANES];
	uint16_t c[LANES], r[LANES];
	bool bf16 = in->op == DOT2_BF16_BF16, fi = flush_in64(w);
	if (in->o[1].neg || in->o[1].abs || in->o[2].neg || in->o[2].abs) {
		emu_not_emulated(w, in);
		return;
	}
	uint32_t mask = two_sources(w, in, a, b);
	vget16(w, &in->o[3], in->op_sel >> 2 & 1, c);
	EACH {
		uint16_t t = emu_f16_mods(c[l], &in->o[3]);
		for (int half = 0; half < 2; half++) {
			uint16_t x = (uint16_t)(a[l] >> 16 * half), y = (uint16_t)(b[l] >> 16 * half);
			if (bf16) {
				double p = (double)as_f32((uint32_t)x << 16) * as_f32((uint32_t)y << 16);
				t = (uint16_t)emu_bf16_bits(sum_to_odd(as_f32((uint32_t)t << 16), p));
			} else {
				double p = emu_f16_to_double(x, fi) * emu_f16_to_double(y, fi);
				double sum = sum_to_odd(emu_f16_to_double(t, fi), p);
				bool changed = enter_rounding(w, 1);
				t = out16(w, in, sum);
				leave_rounding(changed);
			}
		}
		r[l] = t;
	}
	emu_write16(w, in, r, mask);
}

/* gfx12's fp8 and bf8 (OCP E4M3 and E5M2) into f32, exactly: v_cvt_f32_fp8/bf8 one byte
 * (op_sel 0, 2, 1, 3 name bytes 0 to 3), v_cvt_pk_f32_fp8/bf8 two bytes of a half (op_sel
 * names the high one) into a pair; v_dot4_f32_* S2 plus the four products of S0's and S1's
 * bytes, each added in f32 as the pseudo-code's += do (the products are exact). */
enum fp8 { FP8_ONE, FP8_PAIR, FP8_DOT4 };
#define FP8_SOURCE_BF8 0x10
#define FP8_OTHER_BF8 0x20

static uint32_t fp8_f32(uint32_t byte, bool bf8)
{
	double v = emu_fp8_value(byte, bf8);
	return isnan(v) ? (byte & 0x80) << 24 | 0x7fc00000u : bits32((float)v);
}

static void fp8(struct wave *w, const struct insn *in)
{
	uint32_t a[LANES], b[LANES], c[LANES], r[LANES], mask = exec_mask(w);
	unsigned kind = in->op & 15;
	bool bf8 = in->op & FP8_SOURCE_BF8, other_bf8 = in->op & FP8_OTHER_BF8;
	if (kind == FP8_DOT4 && (in->neg_lo & 3 || in->neg_hi)) {
		emu_not_emulated(w, in);
		return;
	}
	vget32_dpp(w, in, &in->o[1], a, &mask);
	if (kind == FP8_ONE) {
		static const unsigned byte_of_op_sel[4] = {0, 2, 1, 3};
		unsigned byte = byte_of_op_sel[in->op_sel & 3];
		EACH r[l] = fp8_f32(a[l] >> 8 * byte, bf8);
		vset32(w, &in->o[0], r, mask);
		return;
	}
	if (kind == FP8_PAIR) {
		uint64_t pair[LANES];
		EACH {
			uint32_t half = a[l] >> (in->op_sel & 1 ? 16 : 0);
			pair[l] = fp8_f32(half, bf8) | (uint64_t)fp8_f32(half >> 8, bf8) << 32;
		}
		vset64(w, &in->o[0], pair, mask);
		return;
	}
	vget32(w, &in->o[2], b);
	vget32(w, &in->o[3], c);
	bool fi = flush_in32(w), changed = enter_rounding(w, 0);
	EACH {
		float t = emu_f32_in(emu_f32_mods(c[l], &in->o[3]) ^ (in->neg_lo >> 2 & 1) << 31, fi);
		for (int i = 0; i < 4; i++)
			t += (float)(emu_fp8_value(a[l] >> 8 * i, bf8) * emu_fp8_value(b[l] >> 8 * i, other_bf8));
		r[l] = out32(w, in, t);
	}
	leave_rounding(changed);
	vset32(w, &in->o[0], r, mask);
}

/* gfx12's f32 into fp8 and bf8, rounded to nearest even whatever MODE says (the guide sets
 * the round mode around them): v_cvt_pk_fp8/bf8_f32 S0 and S1 into the low and high bytes
 * of the half op_sel[2] names, v_cvt_sr_fp8/bf8_f32 S0 with S1[31:12] (bf8: S1[31:11]) added
 * to its mantissa, wrapping within it, as the guide's stochastic rounding does, into the
 * byte byte_sel names. The other bytes are kept. A finite result beyond the format's range
 * saturates where MODE's FP16_OVFL is set. */
enum to_fp8 { TO_FP8_PACK, TO_FP8_STOCHASTIC };
#define TO_BF8 0x10

static void to_fp8(struct wave *w, const struct insn *in)
{
	uint32_t a[LANES], b[LANES], d[LANES], mask = two_sources(w, in, a, b);
	bool bf8 = in->op & TO_BF8, saturate = w->mode >> 23 & 1, fi = flush_in32(w);
	vget32(w, &in->o[0], d);
	if ((in->op & 15) == TO_FP8_PACK) {
		unsigned shift = in->op_sel >> 2 & 1 ? 16 : 0;
		EACH {
			uint32_t lo = emu_fp8_bits(emu_f32_in(emu_f32_mods(a[l], &in->o[1]), fi), bf8, saturate);
			uint32_t hi = emu_fp8_bits(emu_f32_in(emu_f32_mods(b[l], &in->o[2]), fi), bf8, saturate);
			d[l] = (d[l] & ~(0xffffu << shift)) | (lo | hi << 8) << shift;
		}
	} else {
		static const unsigned byte_of_op_sel[4] = {0, 2, 1, 3};
		unsigned shift = 8 * byte_of_op_sel[in->op_sel & 3], noise = bf8 ? 11 : 12;
		EACH {
			uint32_t x = emu_f32_mods(a[l], &in->o[1]);
			x = (x & ~0x7fffffu) | ((x + (b[l] >> noise)) & 0x7fffffu);
			uint32_t byte = emu_fp8_bits(emu_f32_in(x, fi), bf8, saturate);
			d[l] = (d[l] & ~(0xffu << shift)) | byte << shift;
		}
	}
	vset32(w, &in->o[0], d, mask);
}

/* Packed f16 (VOP3P): op_sel picks each source's half for the low result, op_sel_hi for
 * the high one; neg_lo/neg_hi negate them. */
enum pk { PK_ADD, PK_MUL, PK_FMA, PK_MIN, PK_MAX, PK_ADD_U16, PK_SUB_U16, PK_MUL_LO_U16,
          PK_LSHL, PK_LSHR, PK_ASHR, PK_ADD_I16, PK_SUB_I16, PK_MIN_U16, PK_MAX_U16, PK_MIN_I16,
          PK_MAX_I16, PK_MAD_U16, PK_MAD_I16,
          /* f16 again */
          PK_FMAC, PK_MAXIMUM, PK_MINIMUM };

static void packed(struct wave *w, const struct insn *in)
{
	uint32_t s[3][LANES], r[LANES], mask = exec_mask(w);
	int n = in->nopnd - 1;
	/* v_pk_fmac_f16 (VOP2) adds to its destination */
	const struct operand *src[3] = {&in->o[1], &in->o[2], &in->o[in->op == PK_FMAC ? 0 : 3]};
	if (in->op == PK_FMAC)
		n = 3;
	/* op_sel_hi is 1 for each source when not printed */
	uint8_t hi_sel = in->op_sel_hi & OP_SEL_HI_GIVEN ? in->op_sel_hi & 7 : 7;
	for (int i = 0; i < n && i < 3; i++)
		vget32(w, src[i], s[i]);
	bool fi = flush_in64(w), changed = enter_rounding(w, 1);
	EACH {
		uint16_t out[2];
		for (int half = 0; half < 2; half++) {
			uint16_t v[3];
			double f[3];
			for (int i = 0; i < n && i < 3; i++) {
				int sel = half ? hi_sel >> i & 1 : in->op_sel >> i & 1;
				v[i] = (uint16_t)(s[i][l] >> (sel ? 16 : 0));
				/* an inline constant is one 16-bit value for both halves; a literal
				 * is 32 bits, read by halves as a register is */
				if (src[i]->kind == OPND_CONST && !src[i]->literal)
					v[i] = src[i]->c16;
				if ((half ? in->neg_hi : in->neg_lo) >> i & 1)
					v[i] ^= in->op < PK_ADD_U16 || in->op >= PK_FMAC ? 0x8000 : 0;
				f[i] = emu_f16_to_double(v[i], fi);
			}
			double x;
			switch (in->op) {
			case PK_ADD: x = f[0] + f[1]; break;
			case PK_MUL: x = f[0] * f[1]; break;
			case PK_FMA: case PK_FMAC: x = fma(f[0], f[1], f[2]); break;
			case PK_MIN: x = fmin_ieee(f[0], f[1]); break;
			case PK_MAX: x = fmax_ieee(f[0], f[1]); break;
			default: x = 0; break;
			}
			switch (in->op) {
			case PK_ADD_U16: out[half] = (uint16_t)(v[0] + v[1]); break;
			case PK_SUB_U16: out[half] = (uint16_t)(v[0] - v[1]); break;
			case PK_ADD_I16: out[half] = (uint16_t)(v[0] + v[1]); break;
			case PK_SUB_I16: out[half] = (uint16_t)(v[0] - v[1]); break;
			case PK_MUL_LO_U16: out[half] = (uint16_t)(v[0] * v[1]); break;
			case PK_MAD_U16: {
				uint32_t t = (uint32_t)v[0] * v[1] + v[2];
				out[half] = (uint16_t)(in->clamp && t > 0xffff ? 0xffff : t);
			} break;
			case PK_MAD_I16: {
				int32_t t = (int16_t)v[0] * (int16_t)v[1] + (int16_t)v[2];
				if (in->clamp)
					t = t > INT16_MAX ? INT16_MAX : t < INT16_MIN ? INT16_MIN : t;
				out[half] = (uint16_t)t;
			} break;
			case PK_LSHL: out[half] = (uint16_t)(v[1] << (v[0] & 15)); break;
			case PK_LSHR: out[half] = (uint16_t)(v[1] >> (v[0] & 15)); break;
			case PK_ASHR: out[half] = (uint16_t)((int16_t)v[1] >> (v[0] & 15)); break;
			case PK_MIN_U16: out[half] = v[0] < v[1] ? v[0] : v[1]; break;
			case PK_MAX_U16: out[half] = v[0] > v[1] ? v[0] : v[1]; break;
			case PK_MIN_I16: out[half] = (int16_t)v[0] < (int16_t)v[1] ? v[0] : v[1]; break;
			case PK_MAX_I16: out[half] = (int16_t)v[0] > (int16_t)v[1] ? v[0] : v[1]; break;
			case PK_MAXIMUM: case PK_MINIMUM:
				out[half] = (uint16_t)extreme_bits(v[0], v[1], 16, in->op == PK_MAXIMUM);
				break;
			default: out[half] = isnan(x) ? 0x7e00 : out16(w, in, x); break;
			}
		}
		r[l] = out[0] | (uint32_t)out[1] << 16;
	}
	leave_rounding(changed);
	vset32(w, &in->o[0], r, mask);
}

/* v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16: each source f32, or the f16 half
 * op_sel names when op_sel_hi says it is f16. */
enum { MIX_F32, MIX_LO, MIX_HI };

static void fma_mix(struct wave *w, const struct insn *in)
{
	uint32_t s[3][LANES], r[LANES], mask = exec_mask(w);
	for (int i = 0; i < 3; i++)
		vget32(w, &in->o[i + 1], s[i]);
	bool changed = enter_rounding(w, 0);
	uint16_t h[LANES];
	EACH {
		float f[3];
		for (int i = 0; i < 3; i++) {
			const struct operand *o = &in->o[i + 1];
			if (!(in->op_sel_hi >> i & 1)) {
				f[i] = emu_f32_in(emu_f32_mods(s[i][l], o), flush_in32(w));
			} else {
				uint16_t x = o->kind == OPND_CONST && !o->literal
				                 ? o->c16 : (uint16_t)(s[i][l] >> ((in->op_sel >> i & 1) ? 16 : 0));
				f[i] = (float)emu_f16_to_double(emu_f16_mods(x, o), flush_in64(w));
			}
		}
		float v = fmaf(f[0], f[1], f[2]);
		if (in->op == MIX_F32)
			r[l] = out32(w, in, v);
		else
			h[l] = out16(w, in, v);
	}
	leave_rounding(changed);
	if (in->op == MIX_F32) {
		vset32(w, &in->o[0], r, mask);
		return;
	}
	vset16(w, &in->o[0], in->op == MIX_HI, h, mask);
}

/* gfx12's scalar float instructions: one value, the wave's f32 modes, SCC for compares. */
enum sfop { S_ADD, S_SUB, S_MUL, S_FMAC, S_FMAAK, S_FMAMK, S_MIN, S_MAX, S_CVT_F32_I32,
            S_CVT_F32_U32, S_CVT_I32_F32, S_CVT_U32_F32, S_CVT_F16_F32, S_CVT_F32_F16,
            S_CVT_HI_F32_F16, S_CEIL, S_FLOOR, S_TRUNC, S_RNDNE, S_CMP, S_MAXIMUM, S_MINIMUM,
            S_CVT_PK_RTZ };

static void sfop(struct wave *w, const struct insn *in)
{
	bool fi = flush_in32(w), changed = enter_rounding(w, 0);
	unsigned op = in->op & 0xff;
	uint32_t a = sget32(w, &in->o[op == S_CMP ? 0 : 1]);
	uint32_t b = in->nopnd > (op == S_CMP ? 1 : 2) ? sget32(w, &in->o[op == S_CMP ? 1 : 2]) : 0;
	uint32_t c = in->nopnd > 3 ? sget32(w, &in->o[3]) : op == S_FMAC ? sget32(w, &in->o[0]) : 0;
	float x = emu_f32_in(a, fi), y = emu_f32_in(b, fi), z = emu_f32_in(c, fi), v = 0;
	uint32_t r = 0;
	bool is_float = true;
	switch (op) {
	case S_ADD: v = x + y; break;
	case S_SUB: v = x - y; break;
	case S_MUL: v = x * y; break;
	case S_FMAC: case S_FMAAK: case S_FMAMK: v = fmaf(x, y, z); break;
	case S_MIN: v = (float)fmin_ieee(x, y); break;
	case S_MAX: v = (float)fmax_ieee(x, y); break;
	case S_CVT_F32_I32: v = (float)(int32_t)a; break;
	case S_CVT_F32_U32: v = (float)a; break;
	case S_CVT_I32_F32: r = f_to_i32(truncf(x)); is_float = false; break;
	case S_CVT_U32_F32: r = f_to_u32(truncf(x)); is_float = false; break;
	case S_CVT_F16_F32: r = bits16((_Float16)x); is_float = false; break;
	case S_CVT_F32_F16: v = (float)emu_f16_to_double((uint16_t)a, false); break;
	case S_CVT_HI_F32_F16: v = (float)emu_f16_to_double((uint16_t)(a >> 16), false); break;
	case S_CEIL: v = ceilf(x); break;
	case S_FLOOR: v = floorf(x); break;
	case S_TRUNC: v = truncf(x); break;
	case S_RNDNE: v = nearbyintf(x); break;
	case S_CMP: {
		w->scc = emu_float_condition(in->op >> 8, x, y);
		leave_rounding(changed);
		return;
	}
	case S_MAXIMUM: case S_MINIMUM:
		r = (uint32_t)extreme_bits(a, b, 32, op == S_MAXIMUM);
		is_float = false;
		break;
	case S_CVT_PK_RTZ:
		r = emu_f32_to_f16_rtz(bits32(x)) | (uint32_t)emu_f32_to_f16_rtz(bits32(y)) << 16;
		is_float = false;
		break;
	}
	leave_rounding(changed);
	if (is_float)
		r = out32(w, in, v);
	sset32(w, &in->o[0], r);
}

/* gfx12's scalar f16 instructions: the sources' low halves, the f16 modes (which f64
 * shares); the result in the destination's low half, its high half kept. */
static void sfop16(struct wave *w, const struct insn *in)
{
	unsigned op = in->op & 0xff;
	bool compare = op == S_CMP, fi = flush_in64(w), changed = enter_rounding(w, 1);
	uint16_t a = (uint16_t)sget32(w, &in->o[compare ? 0 : 1]);
	uint16_t b = in->nopnd > (compare ? 1 : 2) ? (uint16_t)sget32(w, &in->o[compare ? 1 : 2]) : 0;
	uint16_t c = op == S_FMAC ? (uint16_t)sget32(w, &in->o[0]) : 0, r;
	double x = emu_f16_to_double(a, fi), y = emu_f16_to_double(b, fi), z = emu_f16_to_double(c, fi), v;
	switch (op) {
	case S_ADD: v = x + y; break;
	case S_SUB: v = x - y; break;
	case S_MUL: v = x * y; break;
	case S_FMAC: v = fma(x, y, z); break;
	case S_MIN: v = fmin_ieee(x, y); break;
	case S_MAX: v = fmax_ieee(x, y); break;
	case S_CEIL: v = ceil(x); break;
	case S_FLOOR: v = floor(x); break;
	case S_TRUNC: v = trunc(x); break;
	case S_RNDNE: v = nearbyint(x); break;
	case S_CMP:
		w->scc = emu_float_condition(in->op >> 8, (float)x, (float)y);
		leave_rounding(changed);
		return;
	default: v = NAN; break;
	}
	if (op == S_MAXIMUM || op == S_MINIMUM)
		r = (uint16_t)extreme_bits(a, b, 16, op == S_MAXIMUM);
	else if (isnan(v))  /* a NaN operand's, quieted (the first's), or the default one */
		r = isnan(x) ? a | 0x200 : isnan(y) ? b | 0x200 : isnan(z) ? c | 0x200 : 0x7e00;
	else
		r = out16(w, in, v);
	leave_rounding(changed);
	sset32(w, &in->o[0], (sget32(w, &in->o[0]) & 0xffff0000u) | r);
}

/* RDNA4's v_s_*: a transcendental of the VALU whose operand and result are scalar,
 * computed as one lane of its vector form (the f16 results zero the high half). */
enum { TRANS_F16 = 0x100 };
static void strans(struct wave *w, const struct insn *in)
{
	unsigned op = in->op & 0xff;
	uint32_t a = sget32(w, &in->o[1]), r;

	if (!(in->op & TRANS_F16)) {
		bool fi = flush_in32(w), changed = enter_rounding(w, 0);
		float x = emu_f32_in(emu_f32_mods(a, &in->o[1]), fi), v = unary32(op, x);
		if (isnan(v) && !isnan(x))
			v = as_f32(0x7fc00000u);
		r = out32(w, in, v);
		leave_rounding(changed);
	} else {
		bool fi = flush_in64(w), changed = enter_rounding(w, 1);
		uint16_t h = emu_f16_mods((uint16_t)a, &in->o[1]);
		double x = emu_f16_to_double(h, fi), v = unary(op, x, 16);
		r = isnan(v) ? (isnan(x) ? (uint16_t)(h | 0x200) : 0x7e00) : out16(w, in, v);
		leave_rounding(changed);
	}
	sset32(w, &in->o[0], r);
}

#define STRANS(name, op) {"v_s_" name "_f32", strans, op}, {"v_s_" name "_f16", strans, (op) | TRANS_F16}
#define SCMP(cond, code) {"s_cmp_" cond "_f32", sfop, S_CMP | (code) << 8}, \
	{"s_cmp_" cond "_f16", sfop16, S_CMP | (code) << 8}
#define F32(name, op) {"v_" name "_f32", fop32, op}
#define F64(name, op) {"v_" name "_f64", fop64, op}
#define F16(name, op) {"v_" name "_f16", fop16, op}

const struct opcode emu_float_opcodes[] = {
	F32("add", F_ADD), F32("sub", F_SUB), F32("subrev", F_SUBREV), F32("mul", F_MUL),
	F32("fma", F_FMA), F32("fmac", F_FMAC), F32("fmaak", F_FMAAK), F32("fmamk", F_FMAMK),
	F32("min", F_MIN), F32("max", F_MAX), F32("min3", F_MIN3), F32("max3", F_MAX3),
	F32("med3", F_MED3), F32("minmax", F_MINMAX), F32("maxmin", F_MAXMIN), F32("rcp", F_RCP),
	F32("rcp_iflag", F_RCP), F32("rsq", F_RSQ), F32("sqrt", F_SQRT), F32("exp", F_EXP),
	F32("log", F_LOG), F32("sin", F_SIN), F32("cos", F_COS), F32("trunc", F_TRUNC),
	F32("ceil", F_CEIL), F32("floor", F_FLOOR), F32("rndne", F_RNDNE), F32("fract", F_FRACT),
	F32("ldexp", F_LDEXP), F32("frexp_mant", F_FREXP_MANT), F32("mul_legacy", F_MUL_LEGACY),
	F32("div_fmas", F_DIV_FMAS), F32("div_fixup", F_DIV_FIXUP), F32("maximum", F_MAXIMUM),
	F32("minimum", F_MINIMUM), F32("maximum3", F_MAXIMUM3), F32("minimum3", F_MINIMUM3),
	F32("maximumminimum", F_MAXIMUMMINIMUM), F32("minimummaximum", F_MINIMUMMAXIMUM),
	{"v_mul_dx9_zero_f32", fop32, F_MUL_LEGACY}, F32("fma_dx9_zero", F_FMA_DX9),
	F32("fmac_dx9_zero", F_FMAC_DX9), F32("mullit", F_MULLIT), F32("cubeid", F_CUBEID),
	F32("cubesc", F_CUBESC), F32("cubetc", F_CUBETC), F32("cubema", F_CUBEMA),
	F64("add", F_ADD), F64("mul", F_MUL), F64("fma", F_FMA), F64("min", F_MIN),
	F64("max", F_MAX), F64("rcp", F_RCP), F64("rsq", F_RSQ), F64("sqrt", F_SQRT),
	F64("trunc", F_TRUNC), F64("ceil", F_CEIL), F64("floor", F_FLOOR), F64("rndne", F_RNDNE),
	F64("fract", F_FRACT), F64("ldexp", F_LDEXP), F64("frexp_mant", F_FREXP_MANT),
	F64("div_fmas", F_DIV_FMAS), F64("div_fixup", F_DIV_FIXUP), F64("maximum", F_MAXIMUM),
	F64("minimum", F_MINIMUM), {"v_add_f64_e64", fop64, F_ADD}, F64("trig_preop", F_TRIG_PREOP),
	F16("add", F_ADD), F16("sub", F_SUB), F16("subrev", F_SUBREV), F16("mul", F_MUL),
	F16("fma", F_FMA), F16("fmac", F_FMAC), F16("fmaak", F_FMAAK), F16("fmamk", F_FMAMK),
	F16("min", F_MIN), F16("max", F_MAX), F16("min3", F_MIN3), F16("max3", F_MAX3),
	F16("med3", F_MED3), F16("minmax", F_MINMAX), F16("maxmin", F_MAXMIN), F16("rcp", F_RCP),
	F16("rsq", F_RSQ), F16("sqrt", F_SQRT), F16("exp", F_EXP), F16("log", F_LOG),
	F16("sin", F_SIN), F16("cos", F_COS), F16("trunc", F_TRUNC), F16("ceil", F_CEIL),
	F16("floor", F_FLOOR), F16("rndne", F_RNDNE), F16("fract", F_FRACT), F16("ldexp", F_LDEXP),
	F16("frexp_mant", F_FREXP_MANT), F16("maximum", F_MAXIMUM), F16("minimum", F_MINIMUM),
	F16("maximum3", F_MAXIMUM3), F16("minimum3", F_MINIMUM3),
	F16("maximumminimum", F_MAXIMUMMINIMUM), F16("minimummaximum", F_MINIMUMMAXIMUM),
	F16("div_fixup", F_DIV_FIXUP),
	{"v_cvt_f32_f64", convert, CVT_F32_F64}, {"v_cvt_f64_f32", convert, CVT_F64_F32},
	{"v_cvt_f32_i32", convert, CVT_F32_I32}, {"v_cvt_f32_u32", convert, CVT_F32_U32},
	{"v_cvt_i32_f32", convert, CVT_I32_F32}, {"v_cvt_u32_f32", convert, CVT_U32_F32},
	{"v_cvt_f64_i32", convert, CVT_F64_I32}, {"v_cvt_f64_u32", convert, CVT_F64_U32},
	{"v_cvt_i32_f64", convert, CVT_I32_F64}, {"v_cvt_u32_f64", convert, CVT_U32_F64},
	{"v_cvt_f16_f32", convert, CVT_F16_F32}, {"v_cvt_f32_f16", convert, CVT_F32_F16},
	{"v_cvt_f32_ubyte0", convert, CVT_F32_UBYTE0}, {"v_cvt_f32_ubyte1", convert, CVT_F32_UBYTE1},
	{"v_cvt_f32_ubyte2", convert, CVT_F32_UBYTE2}, {"v_cvt_f32_ubyte3", convert, CVT_F32_UBYTE3},
	{"v_cvt_f16_i16", convert, CVT_F16_I16}, {"v_cvt_f16_u16", convert, CVT_F16_U16},
	{"v_cvt_i16_f16", convert, CVT_I16_F16}, {"v_cvt_u16_f16", convert, CVT_U16_F16},
	{"v_cvt_pkrtz_f16_f32", convert, CVT_PKRTZ_F16_F32},
	{"v_cvt_pk_rtz_f16_f32", convert, CVT_PKRTZ_F16_F32},
	{"v_frexp_exp_i32_f32", convert, FREXP_EXP_I32_F32},
	{"v_frexp_exp_i32_f64", convert, FREXP_EXP_I32_F64},
	{"v_frexp_exp_i16_f16", convert, FREXP_EXP_I16_F16},
	{"v_cvt_flr_i32_f32", convert, CVT_FLR_I32_F32}, {"v_cvt_floor_i32_f32", convert, CVT_FLR_I32_F32},
	{"v_cvt_rpi_i32_f32", convert, CVT_RPI_I32_F32}, {"v_cvt_nearest_i32_f32", convert, CVT_RPI_I32_F32},
	{"v_cvt_i32_i16", convert, CVT_I32_I16}, {"v_cvt_u32_u16", convert, CVT_U32_U16},
	{"v_pack_b32_f16", convert, PACK_B32_F16},
	{"v_cvt_pk_i16_i32", convert, CVT_PK_I16_I32}, {"v_cvt_pk_u16_u32", convert, CVT_PK_U16_U32},
	{"v_cvt_pk_norm_i16_f32", convert, CVT_PK_NORM_I16_F32},
	{"v_cvt_pk_norm_u16_f32", convert, CVT_PK_NORM_U16_F32},
	{"v_cvt_off_f32_i4", convert, CVT_OFF_F32_I4},
	{"v_cvt_pk_i16_f32", convert, CVT_PK_I16_F32}, {"v_cvt_pk_u16_f32", convert, CVT_PK_U16_F32},
	{"v_cvt_pk_u8_f32", convert, CVT_PK_U8_F32},
	{"v_cvt_norm_i16_f16", convert, CVT_NORM_I16_F16},
	{"v_cvt_norm_u16_f16", convert, CVT_NORM_U16_F16},
	{"v_cvt_pk_norm_i16_f16", convert, CVT_PK_NORM_I16_F16},
	{"v_cvt_pk_norm_u16_f16", convert, CVT_PK_NORM_U16_F16},
	{"v_cvt_pknorm_i16_f16", convert, CVT_PK_NORM_I16_F16},
	{"v_cvt_pknorm_u16_f16", convert, CVT_PK_NORM_U16_F16},
	{"v_cvt_pknorm_i16_f32", convert, CVT_PK_NORM_I16_F32},
	{"v_cvt_pknorm_u16_f32", convert, CVT_PK_NORM_U16_F32},
	{"v_cvt_f32_fp8", fp8, FP8_ONE}, {"v_cvt_f32_bf8", fp8, FP8_ONE | FP8_SOURCE_BF8},
	{"v_cvt_pk_f32_fp8", fp8, FP8_PAIR}, {"v_cvt_pk_f32_bf8", fp8, FP8_PAIR | FP8_SOURCE_BF8},
	{"v_cvt_pk_fp8_f32", to_fp8, TO_FP8_PACK}, {"v_cvt_pk_bf8_f32", to_fp8, TO_FP8_PACK | TO_BF8},
	{"v_cvt_sr_fp8_f32", to_fp8, TO_FP8_STOCHASTIC},
	{"v_cvt_sr_bf8_f32", to_fp8, TO_FP8_STOCHASTIC | TO_BF8},
	{"v_dot4_f32_fp8_fp8", fp8, FP8_DOT4},
	{"v_dot4_f32_fp8_bf8", fp8, FP8_DOT4 | FP8_OTHER_BF8},
	{"v_dot4_f32_bf8_fp8", fp8, FP8_DOT4 | FP8_SOURCE_BF8},
	{"v_dot4_f32_bf8_bf8", fp8, FP8_DOT4 | FP8_SOURCE_BF8 | FP8_OTHER_BF8},
	{"v_dot2_f32_f16", dot2, DOT2_F16}, {"v_dot2_f32_bf16", dot2, DOT2_BF16},
	{"v_dot2acc_f32_f16", dot2, DOT2ACC_F16}, {"v_dot2c_f32_f16", dot2, DOT2ACC_F16},
	{"v_dot2acc_f32_bf16", dot2, DOT2ACC_BF16},
	{"v_dot2_f16_f16", dot2_half, DOT2_F16_F16}, {"v_dot2_bf16_bf16", dot2_half, DOT2_BF16_BF16},
	{"v_pk_fmac_f16", packed, PK_FMAC},
	{"v_div_scale_f32", div_scale, 32}, {"v_div_scale_f64", div_scale, 64},
	{"v_pk_add_f16", packed, PK_ADD}, {"v_pk_mul_f16", packed, PK_MUL},
	{"v_pk_fma_f16", packed, PK_FMA}, {"v_pk_min_f16", packed, PK_MIN},
	{"v_pk_max_f16", packed, PK_MAX}, {"v_pk_add_u16", packed, PK_ADD_U16},
	{"v_pk_sub_u16", packed, PK_SUB_U16}, {"v_pk_add_i16", packed, PK_ADD_I16},
	{"v_pk_sub_i16", packed, PK_SUB_I16}, {"v_pk_mul_lo_u16", packed, PK_MUL_LO_U16},
	{"v_pk_maximum_f16", packed, PK_MAXIMUM}, {"v_pk_minimum_f16", packed, PK_MINIMUM},
	{"v_pk_mad_u16", packed, PK_MAD_U16}, {"v_pk_mad_i16", packed, PK_MAD_I16}, {"v_pk_lshlrev_b16", packed, PK_LSHL},
	{"v_pk_lshrrev_b16", packed, PK_LSHR}, {"v_pk_ashrrev_i16", packed, PK_ASHR},
	{"v_pk_min_u16", packed, PK_MIN_U16}, {"v_pk_max_u16", packed, PK_MAX_U16},
	{"v_pk_min_i16", packed, PK_MIN_I16}, {"v_pk_max_i16", packed, PK_MAX_I16},
	{"s_add_f32", sfop, S_ADD}, {"s_sub_f32", sfop, S_SUB}, {"s_mul_f32", sfop, S_MUL},
	{"s_fmac_f32", sfop, S_FMAC}, {"s_fmaak_f32", sfop, S_FMAAK}, {"s_fmamk_f32", sfop, S_FMAMK},
	{"s_min_f32", sfop, S_MIN}, {"s_max_f32", sfop, S_MAX}, {"s_min_num_f32", sfop, S_MIN},
	{"s_max_num_f32", sfop, S_MAX}, {"s_cvt_f32_i32", sfop, S_CVT_F32_I32},
	{"s_cvt_f32_u32", sfop, S_CVT_F32_U32}, {"s_cvt_i32_f32", sfop, S_CVT_I32_F32},
	{"s_cvt_u32_f32", sfop, S_CVT_U32_F32}, {"s_cvt_f16_f32", sfop, S_CVT_F16_F32},
	{"s_cvt_f32_f16", sfop, S_CVT_F32_F16}, {"s_cvt_hi_f32_f16", sfop, S_CVT_HI_F32_F16},
	{"s_ceil_f32", sfop, S_CEIL}, {"s_floor_f32", sfop, S_FLOOR}, {"s_trunc_f32", sfop, S_TRUNC},
	{"s_rndne_f32", sfop, S_RNDNE}, {"s_maximum_f32", sfop, S_MAXIMUM},
	{"s_minimum_f32", sfop, S_MINIMUM}, {"s_cvt_pk_rtz_f16_f32", sfop, S_CVT_PK_RTZ},
	{"s_add_f16", sfop16, S_ADD}, {"s_sub_f16", sfop16, S_SUB}, {"s_mul_f16", sfop16, S_MUL},
	{"s_fmac_f16", sfop16, S_FMAC}, {"s_min_num_f16", sfop16, S_MIN},
	{"s_max_num_f16", sfop16, S_MAX}, {"s_maximum_f16", sfop16, S_MAXIMUM},
	{"s_minimum_f16", sfop16, S_MINIMUM}, {"s_ceil_f16", sfop16, S_CEIL},
	{"s_floor_f16", sfop16, S_FLOOR}, {"s_trunc_f16", sfop16, S_TRUNC},
	{"s_rndne_f16", sfop16, S_RNDNE},
	SCMP("lt", 1), SCMP("eq", 2), SCMP("le", 3), SCMP("gt", 4), SCMP("lg", 16), SCMP("ge", 6),
	SCMP("o", 7), SCMP("u", 8), SCMP("nge", 9), SCMP("nlg", 10), SCMP("ngt", 11), SCMP("nle", 12),
	SCMP("neq", 13), SCMP("nlt", 14),
	STRANS("exp", F_EXP), STRANS("log", F_LOG), STRANS("rcp", F_RCP), STRANS("rsq", F_RSQ),
	STRANS("sqrt", F_SQRT),
	{"v_fma_mix_f32", fma_mix, MIX_F32}, {"v_fma_mixlo_f16", fma_mix, MIX_LO},
	{"v_fma_mixhi_f16", fma_mix, MIX_HI},
	{NULL, NULL, 0},
};
