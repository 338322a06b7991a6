/* Conversions to and from the narrow float formats, the same C on every target (none of
 * ours has them in hardware): e4m3 and e5m2 (8 bits), e2m3 and e3m2 (6), e2m1 (4), and the
 * unsigned power of two ue8m0. PTX rounds to the narrow formats to nearest even with
 * .satfinite: beyond the largest finite value (infinity included) the result is that
 * value; a NaN stays a NaN in the 8-bit formats and becomes the largest positive value in
 * the others, which have none (as NVIDIA's cuda_fp4.h and cuda_fp6.h convert too). */
#include "builtins.h"

enum { FP8_E4M3, FP8_E5M2, FP6_E2M3, FP6_E3M2, FP4_E2M1 };

static const struct {
	int bits, mbits, bias;
	uint32_t largest, nan; /* magnitudes; nan 0: the format has none */
} formats[] = {
	[FP8_E4M3] = { 8, 3, 7, 0x7e, 0x7f },
	[FP8_E5M2] = { 8, 2, 15, 0x7b, 0x7f },
	[FP6_E2M3] = { 6, 3, 1, 0x1f, 0 },
	[FP6_E3M2] = { 6, 2, 3, 0x1f, 0 },
	[FP4_E2M1] = { 4, 1, 1, 0x7, 0 },
};

static uint32_t bits_of(float f)
{
	uint32_t u;

	__builtin_memcpy(&u, &f, sizeof u);
	return u;
}

static float power_of_two(int n) /* n within f32's normal exponents */
{
	uint32_t u = (uint32_t)(n + 127) << 23;
	float f;

	__builtin_memcpy(&f, &u, sizeof f);
	return f;
}

uint32_t __zc_cvt_narrow_from_f32(float x, uint32_t format, uint32_t relu)
{
	const int mbits = formats[format].mbits, bias = formats[format].bias;
	const uint32_t largest = formats[format].largest, one = 1u << mbits;
	uint32_t sign = bits_of(x) >> 31 << (formats[format].bits - 1), field = bits_of(x) >> 23 & 0xff, code;
	float a = __builtin_fabsf(x), q;
	int e, emin = 1 - bias;

	if (x != x)
		return formats[format].nan ? formats[format].nan : largest;
	if (relu && sign)
		return 0;
	if (a == 0 || field == 0) /* f32 subnormals are far below the smallest narrow value */
		return sign;
	e = (int)field - 127;
	if (e > 100)
		return sign | largest;
	if (e < emin)
		e = emin; /* the subnormal binade: one quantum for all of it */
	q = __builtin_rintf(a / power_of_two(e - mbits)); /* exact scaling, then nearest even */
	if (q >= 2.0f * (float)one) { /* rounded up into the next binade */
		q *= 0.5f;
		e++;
	}
	if (q < (float)one)
		code = (uint32_t)q; /* subnormal (e == emin), or zero */
	else
		code = (uint32_t)(e + bias) << mbits | ((uint32_t)q - one);
	return sign | (code > largest ? largest : code);
}

/* f16 holds every value of these formats exactly; e5m2 is the upper byte of an f16. */
uint32_t __zc_cvt_f16_from_narrow(uint32_t code, uint32_t format)
{
	const int bits = formats[format].bits, mbits = formats[format].mbits, bias = formats[format].bias;
	uint32_t sign = code >> (bits - 1) & 1 ? 0x8000 : 0, e = (code & ((1u << (bits - 1)) - 1)) >> mbits;
	uint32_t m = code & ((1u << mbits) - 1), p;

	if (format == FP8_E5M2)
		return (code & 0xff) << 8;
	if (formats[format].nan && (code & 0x7f) == formats[format].nan)
		return sign | 0x7fff;
	if (e != 0)
		return sign | (e - (uint32_t)bias + 15) << 10 | m << (10 - mbits);
	if (m == 0)
		return sign;
	p = 31 - (uint32_t)__builtin_clz(m); /* m * 2^(1 - bias - mbits), normal in f16 */
	return sign | (p + (uint32_t)(16 - bias - mbits)) << 10 | (m - (1u << p)) << (10 - p);
}

/* ue8m0, 2^(code - 127) with 0xff a NaN, from bf16 bits: the exponent, the sign ignored,
 * rounded up (.rp) when bits below it are set; .satfinite keeps what is not a NaN below
 * 0xff. */
uint32_t __zc_cvt_ue8m0_from_bf16(uint32_t bits, uint32_t round_up, uint32_t satfinite)
{
	uint32_t magnitude = bits & 0x7fff, code = magnitude >> 7;

	if (round_up && (bits & 0x7f) && magnitude > 0x40 && magnitude < 0x7f80)
		code++;
	if (satfinite && magnitude <= 0x7f80 && code == 0xff)
		code--;
	return code;
}

/* From f32 through bf16: truncated (.rz), or the magnitude rounded up (.rp). */
uint32_t __zc_cvt_ue8m0_from_f32(float x, uint32_t round_up, uint32_t satfinite)
{
	uint32_t u = bits_of(x) & 0x7fffffff, bf16 = u >> 16;

	if (u > 0x7f800000)
		bf16 = 0x7fff;
	else if (round_up && u < 0x7f800000 && (u & 0xffff))
		bf16++;
	return __zc_cvt_ue8m0_from_bf16(bf16, round_up, satfinite);
}

/* bf16 holds every ue8m0 value: 2^-127 is a bf16 subnormal; 0xff is the canonical NaN. */
uint32_t __zc_cvt_bf16_from_ue8m0(uint32_t code)
{
	code &= 0xff;
	return code == 0xff ? 0x7fff : code == 0 ? 0x40 : code << 7;
}
