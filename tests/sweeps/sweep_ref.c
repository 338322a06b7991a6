/* The references: each instruction as the PTX ISA defines it, written from the ISA's text
 * and pseudocode (not from the lowering), on raw operand bits.
 *
 * Readings of the ISA that the text leaves open, applied throughout:
 * - NaN results: PTX does not define NaN payloads for these instructions, so any NaN
 *   matches any NaN (CHECK_F16 .. CHECK_F64 in sweep_main.c).
 * - Integer div and rem: division by zero is unspecified (the ISA says so); so is the
 *   overflowing signed MIN / -1, which the ISA does not define.
 * - .sat on floats clamps to [+0.0, 1.0] and turns NaN and -0.0 into +0.0: the result is
 *   "clamped to [0.0, 1.0]", and -0.0 is read as below the range.
 * Floating-point arithmetic is IEEE 754 with round to nearest even (what .rn names); the
 * C operators on float and double on x86-64 are that arithmetic, so they serve as the
 * definition for f32 and f64; the directed modes (.rz .rm .rp) are the same operators run
 * under fesetround (SSE arithmetic, sqrtss and glibc's fma honour it; this file is built
 * with -frounding-math so that nothing moves across the mode changes). Rounding to f16,
 * bf16 and from integers is written out below (round_pack, every mode) so that no
 * conversion of the compiler is trusted. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "sweep.h"

static uint64_t mask_of(unsigned bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static int64_t sign_extend(uint64_t v, unsigned bits)
{
	if (bits >= 64)
		return (int64_t)v;
	v &= mask_of(bits);
	return (v >> (bits - 1) & 1) ? (int64_t)(v | ~mask_of(bits)) : (int64_t)v;
}

/* An integer operand as a number: sign-extended for signed types. */
static __int128 int_value(uint64_t v, enum sweep_type t)
{
	unsigned bits = sweep_type_bits(t);
	return sweep_type_signed(t) ? (__int128)sign_extend(v, bits) : (__int128)(v & mask_of(bits));
}

/* ------------------------------------------------------------------ float formats */

struct format {
	int precision;   /* significand bits, the implicit one included */
	int emax;        /* also the exponent bias */
	int bits;
};

static const struct format F16 = {11, 15, 16}, BF16 = {8, 127, 16}, F32 = {24, 127, 32},
                           F64 = {53, 1023, 64};

static const struct format *format_of(enum sweep_type t)
{
	return t == T_F16 ? &F16 : t == T_BF16 ? &BF16 : t == T_F32 ? &F32 : &F64;
}

static unsigned top_bit(uint64_t m)
{
	return 63 - (unsigned)__builtin_clzll(m);
}

/* Rounds (-1)^sign * (m + sticky) * 2^e to a value of the format and packs it: to the
 * nearest, ties to even (RND_NONE, RND_RN), toward zero (RND_RZ), down (RND_RM) or up
 * (RND_RP); `sticky` says that nonzero bits lie below m's last bit. */
static uint64_t round_pack(bool sign, uint64_t m, int e, bool sticky, const struct format *f, int mode)
{
	int p = f->precision, emin = 1 - f->emax;
	uint64_t sign_bit = (uint64_t)sign << (f->bits - 1);
	uint64_t inf = (uint64_t)(2 * f->emax + 1) << (p - 1);

	if (m == 0)
		return sign_bit; /* sticky alone cannot happen: callers pass exact zeros */
	int msb_exponent = (int)top_bit(m) + e;
	/* The exponent of the last place kept: that of the value's binade, or the fixed one
	 * of the subnormals. */
	int ulp_exponent = (msb_exponent < emin ? emin : msb_exponent) - (p - 1);
	int shift = ulp_exponent - e;
	uint64_t q;

	if (shift <= 0) {
		q = m << -shift;
	} else {
		uint64_t rest, half;
		if (shift >= 64) {
			q = 0;
			rest = m;
			/* half a unit is 2^(shift-1) > m: below half unless shift == 64 exactly
			 * and m's top bit is set, which the next line handles */
			half = shift == 64 ? 1ull << 63 : 0;
			if (shift > 64) {
				rest = 0;
				sticky = true;
			}
		} else {
			q = m >> shift;
			rest = m & mask_of((unsigned)shift);
			half = 1ull << (shift - 1);
		}
		bool above = half ? rest > half || (rest == half && sticky) : rest || sticky;
		bool tie = half && rest == half && !sticky;
		if (shift > 64)
			above = tie = false;
		bool inexact = rest || sticky;
		bool up = mode == RND_RZ ? false
		        : mode == RND_RP ? inexact && !sign
		        : mode == RND_RM ? inexact && sign
		        : above || (tie && (q & 1));
		if (up)
			q++;
	}
	if (q >> p) { /* rounded up into the next binade */
		q >>= 1;
		ulp_exponent++;
	}
	if (q >> (p - 1)) {
		int exponent = ulp_exponent + p - 1;
		if (exponent > f->emax) {
			/* overflow: infinity, or the largest finite value when rounding toward zero
			 * or away from the infinity of this sign */
			bool to_max = mode == RND_RZ || (mode == RND_RP && sign) || (mode == RND_RM && !sign);
			return sign_bit | (to_max ? inf - 1 : inf);
		}
		return sign_bit | (uint64_t)(exponent + f->emax) << (p - 1) | (q & mask_of((unsigned)p - 1));
	}
	return sign_bit | q; /* subnormal (or zero after rounding) */
}

static const uint64_t QNAN32 = 0x7fffffff, QNAN64 = 0x7fffffffffffffff;

static uint64_t nan_of(const struct format *f)
{
	return mask_of((unsigned)f->bits - 1); /* the canonical NaN: all ones but the sign */
}

/* Exactly as a double (every f16, bf16 and f32 value is one). */
static double to_double(uint64_t v, enum sweep_type t)
{
	const struct format *f = format_of(t);
	int p = f->precision;
	unsigned exponent_bits = (unsigned)(f->bits - p);
	bool sign = v >> (f->bits - 1) & 1;
	uint64_t field = v >> (p - 1) & mask_of(exponent_bits), frac = v & mask_of((unsigned)p - 1);
	double d;

	if (field == mask_of(exponent_bits))
		d = frac ? NAN : INFINITY;
	else if (field == 0)
		d = ldexp((double)frac, 1 - f->emax - (p - 1));
	else
		d = ldexp((double)(frac | 1ull << (p - 1)), (int)field - f->emax - (p - 1));
	return sign ? -d : d;
}

/* A double rounded to the format in the rounding mode (round_pack's). */
static uint64_t from_double(double d, const struct format *f, int mode)
{
	uint64_t bits;
	memcpy(&bits, &d, 8);
	bool sign = bits >> 63;
	int field = (int)(bits >> 52 & 0x7ff);
	uint64_t frac = bits & mask_of(52);

	if (field == 0x7ff)
		return frac ? nan_of(f) : (uint64_t)sign << (f->bits - 1) | (uint64_t)(2 * f->emax + 1) << (f->precision - 1);
	if (field == 0)
		return frac ? round_pack(sign, frac, -1074, false, f, mode) : (uint64_t)sign << (f->bits - 1);
	return round_pack(sign, frac | 1ull << 52, field - 1075, false, f, mode);
}

static float f32_of(uint64_t v)
{
	uint32_t b = (uint32_t)v;
	float f;
	memcpy(&f, &b, 4);
	return f;
}

static uint64_t bits_of_f32(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

static double f64_of(uint64_t v)
{
	double d;
	memcpy(&d, &v, 8);
	return d;
}

static uint64_t bits_of_f64(double d)
{
	uint64_t b;
	memcpy(&b, &d, 8);
	return b;
}

static bool is_subnormal32(float f)
{
	return f != 0 && fabsf(f) < 0x1p-126f;
}

/* .ftz: a subnormal f32 becomes a zero of the same sign. */
static float flush32(float f)
{
	return is_subnormal32(f) ? copysignf(0.0f, f) : f;
}

static double flush64(double d)
{
	return d != 0 && fabs(d) < 0x1p-1022 ? copysign(0.0, d) : d;
}

/* ------------------------------------------------------------------ integer arithmetic */

static __int128 clamp128(__int128 v, __int128 lo, __int128 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static __int128 type_min(enum sweep_type t)
{
	unsigned bits = sweep_type_bits(t);
	return sweep_type_signed(t) ? -((__int128)1 << (bits - 1)) : 0;
}

static __int128 type_max(enum sweep_type t)
{
	unsigned bits = sweep_type_bits(t);
	return sweep_type_signed(t) ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
}

/* mul24: the low 24 bits of each operand, as a signed or unsigned 24-bit number. */
static __int128 low24(uint64_t v, enum sweep_type t)
{
	return sweep_type_signed(t) ? (__int128)sign_extend(v, 24) : (__int128)(v & mask_of(24));
}

static bool int_arith(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	enum sweep_type t = c->stype;
	unsigned bits = sweep_type_bits(t);
	__int128 a = int_value(in[0], t), b = int_value(in[1], t), r;

	switch (c->op) {
	case OP_ADD: case OP_SUB:
		r = c->op == OP_ADD ? a + b : a - b;
		if (c->mods & M_SAT)
			r = clamp128(r, type_min(t), type_max(t));
		break;
	case OP_MUL_LO: case OP_MAD_LO: case OP_MUL_HI: case OP_MAD_HI: {
		bool high = c->op == OP_MUL_HI || c->op == OP_MAD_HI;
		if (!high && !(c->mods & M_24)) {
			/* the low half only: wrapping unsigned arithmetic */
			r = (__int128)((unsigned __int128)a * (unsigned __int128)b);
		} else if (c->mods & M_24) {
			/* 48-bit product: .lo keeps bits 0..31, .hi bits 16..47 */
			r = low24(in[0], t) * low24(in[1], t);
			r = high ? r >> 16 : r;
		} else if (high && bits == 64 && !sweep_type_signed(t)) {
			/* the one product that does not fit a signed 128-bit number */
			r = (__int128)(((unsigned __int128)(uint64_t)a * (uint64_t)b) >> 64);
		} else {
			r = a * b; /* exact: at most 127 bits */
			if (high)
				r >>= bits;
		}
		if (c->op == OP_MAD_LO || c->op == OP_MAD_HI) /* wrapping, as the result is */
			r = (__int128)((unsigned __int128)r + (unsigned __int128)int_value(in[2], t));
		break;
	}
	case OP_MUL_WIDE: case OP_MAD_WIDE:
		r = a * b;
		if (c->op == OP_MAD_WIDE)
			r += int_value(in[2], c->dtype);
		bits *= 2;
		break;
	case OP_DIV: case OP_REM:
		if (b == 0 || (sweep_type_signed(t) && a == type_min(t) && b == -1))
			return false;
		r = c->op == OP_DIV ? a / b : a % b; /* C's truncating division is PTX's */
		break;
	case OP_MIN: r = a < b ? a : b; break;
	case OP_MAX: r = a > b ? a : b; break;
	case OP_ABS: r = a < 0 ? -a : a; break;
	case OP_NEG: r = -a; break;
	case OP_SAD: r = int_value(in[2], t) + (a < b ? b - a : a - b); break;
	case OP_DP4A: case OP_DP2A: {
		/* stype: a's signedness; imm: b's. Byte or half-word lanes, then summed into c. */
		bool b_signed = c->imm != 0, a_signed = sweep_type_signed(t);
		unsigned lanes = c->op == OP_DP4A ? 4 : 2, a_bits = c->op == OP_DP4A ? 8 : 16;
		unsigned first_b = (c->mods & M_HI) ? 2 : 0;
		r = int_value(in[2], c->dtype);
		for (unsigned i = 0; i < lanes; i++) {
			uint64_t x = in[0] >> (i * a_bits) & mask_of(a_bits);
			uint64_t y = in[1] >> ((first_b + i) * 8) & 0xff;
			__int128 xv = a_signed ? sign_extend(x, a_bits) : (__int128)x;
			__int128 yv = b_signed ? sign_extend(y, 8) : (__int128)y;
			r += xv * yv;
		}
		bits = 32;
		break;
	}
	default:
		return false;
	}
	*d = (uint64_t)r & mask_of(bits);
	return true;
}

/* The carry chains of gen_sweeps.py, by imm: the value the chain computes as a whole. */
static bool carry_chain(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	unsigned __int128 a = in[0], b = in[1], cin = in[2] & 1;

	switch (c->imm) {
	case 0: *d = (uint64_t)(a + b + cin); return true;                  /* addc sum */
	case 1: *d = (uint64_t)((a + b + cin) >> 64); return true;          /* carry out */
	case 2: *d = (uint64_t)(a - b - cin); return true;                  /* subc difference */
	case 3: *d = a < b + cin ? 0xffffffffu : 0; return true;            /* 0 - 0 - borrow */
	case 4: *d = (uint64_t)(a + in[2] + ((b + in[2]) >> 64)); return true;
	case 5: *d = (uint64_t)(a - in[2] - (b < in[2])); return true;
	case 6: *d = (uint64_t)((uint64_t)(uint32_t)in[0] * (uint32_t)in[1] + in[2]); return true;
	}
	return false;
}

/* vop4/vop2 (the SIMD video instructions) as the ISA's pseudocode has them: lanes extended
 * by atype (srcs[0]) and btype (srcs[1]), one result per lane, .sat clamping to dtype's lane
 * range; .add sums the lanes into c, otherwise the lanes are packed (default mask). */
static bool video(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	unsigned lanes = (unsigned)c->imm2, width = 32 / lanes;
	int64_t sum = (int64_t)(uint32_t)in[2];
	uint32_t packed = 0;

	for (unsigned i = 0; i < lanes; i++) {
		uint64_t x = in[0] >> (i * width) & mask_of(width), y = in[1] >> (i * width) & mask_of(width);
		int64_t va = sweep_type_signed(c->srcs[0]) ? sign_extend(x, width) : (int64_t)x;
		int64_t vb = sweep_type_signed(c->srcs[1]) ? sign_extend(y, width) : (int64_t)y;
		int64_t t = 0;
		switch (c->imm) {
		case VIDEO_ADD: t = va + vb; break;
		case VIDEO_SUB: t = va - vb; break;
		case VIDEO_AVRG: t = va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1; break;
		case VIDEO_ABSDIFF: t = va > vb ? va - vb : vb - va; break;
		case VIDEO_MIN: t = va < vb ? va : vb; break;
		case VIDEO_MAX: t = va > vb ? va : vb; break;
		}
		if (c->mods & M_SAT) {
			bool is_signed = sweep_type_signed(c->dtype);
			int64_t hi = is_signed ? (1 << (width - 1)) - 1 : (1 << width) - 1;
			int64_t lo = is_signed ? -(1 << (width - 1)) : 0;
			t = t < lo ? lo : t > hi ? hi : t;
		}
		sum += t;
		packed |= (uint32_t)((uint64_t)t & mask_of(width)) << (i * width);
	}
	*d = (c->mods & M_ADD) ? (uint32_t)sum : packed;
	return true;
}

/* ------------------------------------------------------------------ bits */

static bool bit_ops(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	enum sweep_type t = c->stype;
	unsigned bits = sweep_type_bits(t), msb = bits - 1;
	uint64_t m = mask_of(bits), a = in[0] & m, r = 0;

	switch (c->op) {
	case OP_POPC:
		for (unsigned i = 0; i < bits; i++)
			r += a >> i & 1;
		break;
	case OP_CLZ:
		while (r < bits && !(a >> (msb - r) & 1))
			r++;
		break;
	case OP_BREV:
		for (unsigned i = 0; i < bits; i++)
			r |= (a >> i & 1) << (msb - i);
		break;
	case OP_BFIND: {
		/* The most significant bit that differs from the sign (signed) or is set. */
		uint64_t x = sweep_type_signed(t) && (a >> msb & 1) ? ~a & m : a;
		r = 0xffffffff;
		for (int i = (int)msb; i >= 0; i--) {
			if (x >> i & 1) {
				r = (c->mods & M_SHIFTAMT) ? msb - (unsigned)i : (unsigned)i;
				break;
			}
		}
		break;
	}
	case OP_BFE: {
		unsigned pos = in[1] & 0xff, len = in[2] & 0xff;
		unsigned sbit = 0;
		if (sweep_type_signed(t) && len != 0) {
			unsigned at = pos + len - 1 < msb ? pos + len - 1 : msb;
			sbit = a >> at & 1;
		}
		for (unsigned i = 0; i <= msb; i++) {
			uint64_t bit = i < len && pos + i <= msb ? a >> (pos + i) & 1 : sbit;
			r |= bit << i;
		}
		break;
	}
	case OP_BFI: {
		unsigned pos = in[2] & 0xff, len = in[2] >> 32 & 0xff;
		r = in[1] & m;
		for (unsigned i = 0; i < len && pos + i <= msb; i++)
			r = (r & ~(1ull << (pos + i))) | (a >> i & 1) << (pos + i);
		break;
	}
	case OP_BMSK: {
		/* The ISA's pseudocode, in 32-bit arithmetic. */
		uint32_t pos = (uint32_t)in[0], width = (uint32_t)in[1];
		uint32_t a1 = pos & 0x1f, b1 = width & 0x1f, sum = a1 + b1;
		uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
		bool overflow = sum >= 32;
		if (c->mods & M_CLAMP) {
			if (pos >= 32) {
				mask0 = 0;
				overflow = true;
			}
			if (width >= 32)
				overflow = true;
		}
		if (overflow)
			mask1 = 0;
		else if (b1 == 0)
			mask1 = ~0u;
		r = mask0 & ~mask1;
		break;
	}
	case OP_SZEXT: {
		uint32_t n = (uint32_t)in[1], n1 = n & 0x1f;
		bool too_large = n >= 32 && (c->mods & M_CLAMP);
		uint32_t keep = too_large ? 0 : ~0u << n1;   /* the bits above the field */
		bool sign = !(n1 == 0 || too_large || !sweep_type_signed(t)) && (a >> ((n1 - 1) & 0x1f) & 1);
		r = ((uint32_t)a & ~keep) | (sign ? keep : 0);
		break;
	}
	case OP_SHF: {
		uint64_t wide = (in[1] & 0xffffffff) << 32 | (in[0] & 0xffffffff);
		uint32_t n = (uint32_t)in[2];
		n = (c->mods & M_CLAMP) ? (n > 32 ? 32 : n) : n & 0x1f;
		r = (c->mods & M_LEFT) ? (wide << n) >> 32 : (wide >> n) & 0xffffffff;
		break;
	}
	case OP_PRMT: {
		/* Bytes 0..3 of a, then 4..7 of b; each selector nibble picks one, or with its
		 * top bit set, the replicated sign of that byte. */
		uint64_t bytes = (in[1] & 0xffffffff) << 32 | (in[0] & 0xffffffff);
		for (unsigned i = 0; i < 4; i++) {
			unsigned sel = (unsigned)(in[2] >> (4 * i)) & 0xf;
			uint64_t byte = bytes >> (8 * (sel & 7)) & 0xff;
			if (sel & 8)
				byte = (byte & 0x80) ? 0xff : 0;
			r |= byte << (8 * i);
		}
		break;
	}
	case OP_LOP3:
		for (unsigned i = 0; i < 32; i++) {
			unsigned index = (unsigned)((in[0] >> i & 1) << 2 | (in[1] >> i & 1) << 1 | (in[2] >> i & 1));
			r |= (uint64_t)((unsigned)c->imm >> index & 1) << i;
		}
		break;
	case OP_SHL: {
		uint32_t n = (uint32_t)in[1];
		r = n >= bits ? 0 : a << n;
		break;
	}
	case OP_SHR: {
		uint32_t n = (uint32_t)in[1];
		if (sweep_type_signed(t))
			r = (uint64_t)(sign_extend(a, bits) >> (n >= bits ? msb : n));
		else
			r = n >= bits ? 0 : a >> n;
		break;
	}
	case OP_AND: r = a & in[1]; break;
	case OP_OR: r = a | in[1]; break;
	case OP_XOR: r = a ^ in[1]; break;
	case OP_NOT: r = ~a & m; break;
	case OP_CNOT: r = a == 0; break;
	default:
		return false;
	}
	*d = r & mask_of(c->out_bytes * 8);
	return true;
}

/* ------------------------------------------------------------------ comparisons */

static bool compare_float(int op, double a, double b)
{
	bool unordered = isnan(a) || isnan(b);
	switch (op) {
	case CMP_EQ: return !unordered && a == b;
	case CMP_NE: return !unordered && a != b;
	case CMP_LT: return !unordered && a < b;
	case CMP_LE: return !unordered && a <= b;
	case CMP_GT: return !unordered && a > b;
	case CMP_GE: return !unordered && a >= b;
	case CMP_EQU: return unordered || a == b;
	case CMP_NEU: return unordered || a != b;
	case CMP_LTU: return unordered || a < b;
	case CMP_LEU: return unordered || a <= b;
	case CMP_GTU: return unordered || a > b;
	case CMP_GEU: return unordered || a >= b;
	case CMP_NUM: return !unordered;
	case CMP_NAN: return unordered;
	}
	return false;
}

static bool compare_int(int op, __int128 a, __int128 b, uint64_t ua, uint64_t ub)
{
	switch (op) {
	case CMP_EQ: return a == b;
	case CMP_NE: return a != b;
	case CMP_LT: return a < b;
	case CMP_LE: return a <= b;
	case CMP_GT: return a > b;
	case CMP_GE: return a >= b;
	case CMP_LO: return ua < ub;
	case CMP_LS: return ua <= ub;
	case CMP_HI: return ua > ub;
	case CMP_HS: return ua >= ub;
	}
	return false;
}

static double float_operand(uint64_t v, enum sweep_type t, bool ftz)
{
	if (t == T_F32)
		return ftz ? flush32(f32_of(v)) : f32_of(v);
	return f64_of(v);
}

static bool compare_operands(const struct sweep_case *c, const uint64_t in[3])
{
	enum sweep_type t = c->stype;
	if (t == T_F32 || t == T_F64)
		return compare_float(c->imm, float_operand(in[0], t, c->mods & M_FTZ),
		                     float_operand(in[1], t, c->mods & M_FTZ));
	uint64_t m = mask_of(sweep_type_bits(t));
	return compare_int(c->imm, int_value(in[0], t), int_value(in[1], t), in[0] & m, in[1] & m);
}

static bool combine(int op, bool x, bool pred)
{
	switch (op) {
	case BOOL_AND: return x && pred;
	case BOOL_OR: return x || pred;
	case BOOL_XOR: return x != pred;
	}
	return x;
}

/* f16x2/bf16x2 (M_X2): half k (0 the lower) of a compared with half k of b, as the ISA
 * defines set and setp for the packed types; .ftz (f16 only) makes subnormal halves zero. */
static bool compare_half(const struct sweep_case *c, const uint64_t in[3], unsigned k)
{
	double smallest_normal = c->stype == T_F16 ? 0x1p-14 : 0x1p-126;
	double x[2];

	for (unsigned i = 0; i < 2; i++) {
		x[i] = to_double(in[i] >> (16 * k) & 0xffff, c->stype);
		if ((c->mods & M_FTZ) && x[i] != 0 && fabs(x[i]) < smallest_normal)
			x[i] = 0;
	}
	return compare_float(c->imm, x[0], x[1]);
}

static bool compare_ops(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	uint64_t m = mask_of(c->out_bytes * 8);

	if (c->mods & M_X2) {
		/* setp: p from the lower halves, q from the upper ones, each BoolOp c (out = p | q << 1);
		 * set: per half, 1.0 of the destination's half type, or 0xffff for u32/s32 */
		bool pred = c->srcs[2] == T_PRED && (in[2] & 1);
		uint64_t r = 0;
		for (unsigned k = 0; k < 2; k++) {
			bool t = combine(c->imm2, compare_half(c, in, k), pred);
			if (c->op == OP_SETP)
				r |= (uint64_t)t << k;
			else if (t)
				r |= (uint64_t)(c->dtype == T_F16 ? 0x3c00 : c->dtype == T_BF16 ? 0x3f80 : 0xffff) << (16 * k);
		}
		*d = r & m;
		return true;
	}
	switch (c->op) {
	case OP_SETP: {
		bool r = compare_operands(c, in), pred = in[2] & 1;
		if (c->mods & M_PAIR) {
			/* p = r BOP c, q = !r BOP c */
			bool p = combine(c->imm2, r, pred), q = combine(c->imm2, !r, pred);
			*d = (uint64_t)p | (uint64_t)q << 1;
		} else {
			*d = r;
		}
		return true;
	}
	case OP_SET: {
		bool r = compare_operands(c, in);
		*d = c->dtype == T_F32 ? (r ? 0x3f800000 : 0) : (r ? 0xffffffff : 0);
		return true;
	}
	case OP_SELP:
		*d = ((in[2] & 1) ? in[0] : in[1]) & m;
		return true;
	case OP_SLCT: {
		bool ge;
		if (c->stype == T_F32)
			ge = ((c->mods & M_FTZ) ? flush32(f32_of(in[2])) : f32_of(in[2])) >= 0.0f;
		else
			ge = (int32_t)in[2] >= 0;
		*d = (ge ? in[0] : in[1]) & m;
		return true;
	}
	default:
		return false;
	}
}

/* ------------------------------------------------------------------ conversions */

static bool is_float_type(enum sweep_type t)
{
	return t == T_F16 || t == T_BF16 || t == T_F32 || t == T_F64;
}

/* An integer result in the destination register: 8-bit results live in 16-bit registers,
 * sign-extended for signed types (PTX's rule for destinations wider than the type). */
static uint64_t int_result(__int128 v, enum sweep_type dt, unsigned out_bytes)
{
	unsigned bits = sweep_type_bits(dt);
	uint64_t r = (uint64_t)v & mask_of(bits);
	if (sweep_type_signed(dt))
		r = (uint64_t)sign_extend(r, bits);
	return r & mask_of(out_bytes * 8);
}

/* Round to an integral value: ties to even (rni), toward zero, down, up. */
static double round_integral(double x, int mode)
{
	if (isnan(x) || isinf(x) || x == 0)
		return x;
	double down = floor(x), r;
	switch (mode) {
	case RND_RZI: r = x < 0 ? -floor(-x) : down; break;
	case RND_RMI: r = down; break;
	case RND_RPI: r = down == x ? x : down + 1; break;
	default: {
		double frac = x - down; /* exact: down and x share the binade or x is small */
		if (frac > 0.5 || (frac == 0.5 && fmod(down, 2.0) != 0))
			r = down + 1;
		else
			r = down;
	}
	}
	return r == 0 ? copysign(0.0, x) : r; /* IEEE keeps the sign of a zero result */
}

static bool convert(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	enum sweep_type dt = c->dtype, st = c->stype;
	bool ftz = c->mods & M_FTZ;

	if (!is_float_type(st) && !is_float_type(dt)) {
		__int128 v = int_value(in[0], st);
		if (c->mods & M_SAT)
			v = clamp128(v, type_min(dt), type_max(dt));
		*d = int_result(v, dt, c->out_bytes);
		return true;
	}
	if (!is_float_type(dt)) {
		/* Float to integer: round, then saturate to the destination's range. NaN gives 0
		 * when source and destination are both at most 32 bits, else 1 << (bits - 1):
		 * the PTX ISA leaves it to the hardware; this is what an H200 gives (see
		 * tests/programs/conv_float_int_rounding.cu). */
		double x = st == T_F32 && ftz ? flush32(f32_of(in[0])) : to_double(in[0], st);
		if (isnan(x)) {
			unsigned bits = sweep_type_bits(dt);
			*d = bits <= 32 && sweep_type_bits(st) <= 32 ? 0 : int_result((__int128)1 << (bits - 1), dt, c->out_bytes);
			return true;
		}
		x = round_integral(x, c->imm);
		__int128 v;
		double lo = (double)type_min(dt), hi_plus_one = ldexp(1.0, (int)sweep_type_bits(dt) -
		                                                 (sweep_type_signed(dt) ? 1 : 0));
		if (x < lo)
			v = type_min(dt);
		else if (x >= hi_plus_one)
			v = type_max(dt);
		else
			v = (__int128)x;
		*d = int_result(v, dt, c->out_bytes);
		return true;
	}
	if (!is_float_type(st)) {
		/* Integer to float, rounded to nearest even. */
		__int128 v = int_value(in[0], st);
		bool negative = v < 0;
		uint64_t magnitude = (uint64_t)(negative ? -v : v);
		*d = magnitude ? round_pack(negative, magnitude, 0, false, format_of(dt), c->imm)
		               : 0;
		return true;
	}
	/* Float to float. */
	double x = to_double(in[0], st);
	if (st == T_F32 && ftz)
		x = flush32((float)x);
	if (c->imm >= RND_RNI && c->imm <= RND_RPI)
		x = round_integral(x, c->imm);
	uint64_t r = isnan(x) ? nan_of(format_of(dt)) : from_double(x, format_of(dt), c->imm);
	if (dt == T_F32 && ftz)
		r = bits_of_f32(flush32(f32_of(r)));
	/* .relu: negative results, -0 included, become +0 (an H200 does: ptx_modes_sm90);
	 * NaN is already the canonical 0x7fff */
	if ((c->mods & M_RELU) && r >> 15 == 1 && !isnan(x))
		r = 0;
	if (c->mods & M_SAT) {
		double y = to_double(r, dt);
		y = y > 0 ? (y < 1 ? y : 1) : 0;
		r = from_double(y, format_of(dt), RND_RN);
	}
	*d = r;
	return true;
}

/* cvt.f16x2.f32 d, a, b (and bf16x2): a converted in the upper half, b in the lower. */
static bool convert_pack(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	struct sweep_case half = *c;
	uint64_t a[3] = {in[0]}, b[3] = {in[1]}, upper, lower;

	half.op = OP_CVT;
	half.stype = T_F32;
	if (!convert(&half, a, &upper) || !convert(&half, b, &lower))
		return false;
	*d = upper << 16 | lower;
	return true;
}

/* ------------------------------------------------------------------ float arithmetic */

/* PTX min/max: a NaN operand gives the other one (.NaN: gives NaN), and -0 < +0. */
static double min_max(double a, double b, bool is_max, bool nan_propagates)
{
	if (isnan(a) && isnan(b))
		return NAN;
	if (isnan(a) || isnan(b))
		return nan_propagates ? NAN : isnan(a) ? b : a;
	if (a == b && a == 0)
		return (signbit(a) != 0) == is_max ? b : a;
	return (is_max ? a > b : a < b) ? a : b;
}

static double saturate(double v)
{
	return v > 0 ? (v < 1 ? v : 1) : 0;
}

/* The C rounding mode of a float case's imm: .rz .rm .rp, else to nearest. */
static int fe_mode(int imm)
{
	return imm == RND_RZ ? FE_TOWARDZERO : imm == RND_RM ? FE_DOWNWARD : imm == RND_RP ? FE_UPWARD
	                                                                           : FE_TONEAREST;
}

static bool float_f32_rounded(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	bool ftz = c->mods & M_FTZ;
	float a = f32_of(in[0]), b = f32_of(in[1]), cc = f32_of(in[2]), r;

	if (ftz) {
		a = flush32(a);
		b = flush32(b);
		cc = flush32(cc);
	}
	switch (c->op) {
	case OP_FADD: r = a + b; break;
	case OP_FSUB: r = a - b; break;
	case OP_FMUL: r = a * b; break;
	case OP_FFMA: r = fmaf(a, b, cc); break;
	case OP_FDIV: r = a / b; break;
	case OP_FSQRT: r = sqrtf(a); break;
	case OP_FRCP: r = 1.0f / a; break;
	case OP_FMIN: case OP_FMAX:
		r = (float)min_max(a, b, c->op == OP_FMAX, c->mods & M_NAN);
		break;
	case OP_FABS: *d = bits_of_f32(a) & 0x7fffffff; return true;
	case OP_FNEG: *d = bits_of_f32(a) ^ 0x80000000; return true;
	case OP_COPYSIGN: *d = (bits_of_f32(b) & 0x7fffffff) | (bits_of_f32(a) & 0x80000000); return true;
	default: return false;
	}
	if (ftz)
		r = flush32(r);
	if (c->mods & M_SAT)
		r = (float)saturate(r);
	*d = isnan(r) ? QNAN32 : bits_of_f32(r);
	return true;
}

static bool float_f64_rounded(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	double a = f64_of(in[0]), b = f64_of(in[1]), cc = f64_of(in[2]), r;

	switch (c->op) {
	case OP_FADD: r = a + b; break;
	case OP_FSUB: r = a - b; break;
	case OP_FMUL: r = a * b; break;
	case OP_FFMA: r = fma(a, b, cc); break;
	case OP_FDIV: r = a / b; break;
	case OP_FSQRT: r = sqrt(a); break;
	case OP_FRCP: r = 1.0 / a; break;
	case OP_FMIN: case OP_FMAX: r = min_max(a, b, c->op == OP_FMAX, c->mods & M_NAN); break;
	case OP_FABS: *d = in[0] & QNAN64; return true;
	case OP_FNEG: *d = in[0] ^ (1ull << 63); return true;
	case OP_COPYSIGN: *d = (in[1] & QNAN64) | (in[0] & (1ull << 63)); return true;
	default: return false;
	}
	(void)flush64;
	*d = isnan(r) ? QNAN64 : bits_of_f64(r);
	return true;
}

/* The arithmetic runs in the case's rounding mode; .ftz and .sat are exact afterwards. */
static bool float_f32(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	fesetround(fe_mode(c->imm));
	bool known = float_f32_rounded(c, in, d);
	fesetround(FE_TONEAREST);
	return known;
}

static bool float_f64(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	fesetround(fe_mode(c->imm));
	bool known = float_f64_rounded(c, in, d);
	fesetround(FE_TONEAREST);
	return known;
}

/* f16 and bf16: the exact result in double (sums and products of two halves are exact
 * there), rounded once to the format. */
static bool float_half(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	const struct format *f = format_of(c->dtype);
	double a = to_double(in[0], c->dtype), b = to_double(in[1], c->dtype), r;

	switch (c->op) {
	case OP_FADD: r = a + b; break;
	case OP_FSUB: r = a - b; break;
	case OP_FMUL: r = a * b; break;
	case OP_FMIN: case OP_FMAX: r = min_max(a, b, c->op == OP_FMAX, false); break;
	case OP_FABS: *d = in[0] & 0x7fff; return true;
	case OP_FNEG: *d = (in[0] ^ 0x8000) & 0xffff; return true;
	default: return false;
	}
	*d = isnan(r) ? nan_of(f) : from_double(r, f, RND_RN);
	return true;
}

/* testp: as a special case, +0 and -0 are normal numbers (the ISA says so). */
static bool test_class(const struct sweep_case *c, const uint64_t in[3], uint64_t *d)
{
	double x = c->stype == T_F32 ? (double)f32_of(in[0]) : f64_of(in[0]);
	double smallest = c->stype == T_F32 ? 0x1p-126 : 0x1p-1022;
	bool subnormal = x != 0 && fabs(x) < smallest;
	bool r;

	switch (c->imm) {
	case CLASS_FINITE: r = isfinite(x); break;
	case CLASS_INFINITE: r = isinf(x); break;
	case CLASS_NUMBER: r = !isnan(x); break;
	case CLASS_NOTANUMBER: r = isnan(x); break;
	case CLASS_NORMAL: r = isfinite(x) && !subnormal; break;
	case CLASS_SUBNORMAL: r = subnormal; break;
	default: return false;
	}
	*d = r;
	return true;
}

bool sweep_reference(const struct sweep_case *c, const uint64_t in[3], uint64_t *expect)
{
	switch (c->op) {
	case OP_CHAIN:
		return carry_chain(c, in, expect);
	case OP_VIDEO:
		return video(c, in, expect);
	case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFIND: case OP_BFE: case OP_BFI:
	case OP_BMSK: case OP_SZEXT: case OP_SHF: case OP_PRMT: case OP_LOP3: case OP_SHL:
	case OP_SHR: case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT:
		return bit_ops(c, in, expect);
	case OP_SETP: case OP_SET: case OP_SELP: case OP_SLCT:
		return compare_ops(c, in, expect);
	case OP_CVT:
		return convert(c, in, expect);
	case OP_CVT_PACK:
		return convert_pack(c, in, expect);
	case OP_TESTP:
		return test_class(c, in, expect);
	case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FFMA: case OP_FDIV: case OP_FSQRT:
	case OP_FRCP: case OP_FMIN: case OP_FMAX: case OP_FABS: case OP_FNEG: case OP_COPYSIGN:
		if (c->dtype == T_F32)
			return float_f32(c, in, expect);
		if (c->dtype == T_F64)
			return float_f64(c, in, expect);
		return float_half(c, in, expect);
	default:
		return int_arith(c, in, expect);
	}
}

/* ------------------------------------------------------------------ .approx bounds */

/* One unit in the last place of an f32 in x's binade (subnormals: 2^-149). */
static double ulp32(double x)
{
	int exponent;
	frexp(x, &exponent);
	return ldexp(1.0, (exponent - 1 < -126 ? -126 : exponent - 1) - 23);
}

/* The PTX ISA's accuracy statements for the .approx instructions, checked against the
 * exact result computed in double:
 *   rcp.approx.f32        1 ulp, full range
 *   sqrt.approx.f32       relative 2^-23
 *   rsqrt.approx.f32      relative 2^-22.9
 *   ex2.approx.f32        2 ulp (relative 2^-22 for normal results)
 *   lg2.approx.f32        absolute 2^-22.6 for x in [0.5, 2], relative 2^-22 elsewhere
 *   sin/cos.approx.f32    absolute 2^-20.5 for |x| <= 100 pi (unchecked outside but for
 *                         range and NaN)
 *   tanh.approx.f32       relative 2^-10.987
 *   div.approx.f32        2 ulp for |b| in [2^-126, 2^126] (unchecked outside)
 * Special values must come out exactly: NaN for NaN, infinities and zeros as IEEE gives. */
bool sweep_approx_ok(const struct sweep_case *c, const uint64_t in[3], uint32_t got_bits,
                     uint64_t *expect)
{
	bool ftz = c->mods & M_FTZ;
	float a32 = f32_of(in[0]), b32 = f32_of(in[1]);
	if (ftz) {
		a32 = flush32(a32);
		b32 = flush32(b32);
	}
	double a = a32, b = b32, exact, got = f32_of(got_bits), bound;
	bool range_only = false;

	switch (c->op) {
	case OP_APPROX_RCP: exact = 1.0 / a; bound = ulp32(exact); break;
	case OP_APPROX_SQRT: exact = sqrt(a); bound = ldexp(fabs(exact), -23); break;
	case OP_APPROX_RSQRT: exact = 1.0 / sqrt(a); bound = fabs(exact) * pow(2, -22.9); break;
	case OP_APPROX_EX2: exact = exp2(a); bound = 2 * ulp32(exact); break;
	case OP_APPROX_LG2:
		exact = log2(a);
		bound = a >= 0.5 && a <= 2 ? pow(2, -22.6) : ldexp(fabs(exact), -22);
		break;
	case OP_APPROX_SIN: case OP_APPROX_COS:
		exact = c->op == OP_APPROX_SIN ? sin(a) : cos(a);
		bound = pow(2, -20.5);
		range_only = !(fabs(a) <= 100 * M_PI);
		break;
	case OP_APPROX_TANH: exact = tanh(a); bound = fmax(fabs(exact) * pow(2, -10.987), 0x1p-149); break;
	case OP_APPROX_DIV:
		exact = a / b;
		bound = 2 * ulp32(exact);
		range_only = !(fabs(b) >= 0x1p-126 && fabs(b) <= 0x1p126);
		break;
	default:
		return false;
	}
	float rounded = (float)exact;
	*expect = bits_of_f32(rounded);
	if (ftz)
		*expect = bits_of_f32(flush32(rounded));
	if (isnan(exact))
		return isnan(got);
	if (range_only)
		return isnan(got) || (c->op != OP_APPROX_DIV ? fabs(got) <= 1 : true);
	if (isinf(exact) || exact == 0)
		return got == exact && signbit(got) == signbit(exact);
	if (ftz && is_subnormal32(rounded))
		return got == 0 || fabs(got - exact) <= bound;
	if (isinf(got))
		return fabs(exact) >= 0x1p128 - ldexp(bound, 1) && signbit(got) == signbit(exact);
	return fabs(got - exact) <= bound;
}
