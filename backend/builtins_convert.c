/* Conversions to and from the 8-bit float formats e4m3 and e5m2, the same C on every
 * target (none of ours has them in hardware). PTX gives them .rn (round to nearest even)
 * and, from wider floats, .satfinite: beyond the largest finite value (infinity included)
 * the result is that value; a NaN stays a NaN. */
#include "builtins.h"

enum { FP8_E4M3 = 0, FP8_E5M2 = 1 };

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

uint32_t __zc_cvt_fp8_from_f32(float x, uint32_t format, uint32_t relu)
{
	const int mbits = format == FP8_E5M2 ? 2 : 3, bias = format == FP8_E5M2 ? 15 : 7;
	const uint32_t largest = format == FP8_E5M2 ? 0x7b : 0x7e, one = 1u << mbits;
	uint32_t sign = bits_of(x) >> 31 << 7, field = bits_of(x) >> 23 & 0xff, code;
	float a = __builtin_fabsf(x), q;
	int e, emin = 1 - bias;

	if (x != x)
		return 0x7f;
	if (relu && sign)
		return 0;
	if (a == 0 || field == 0) /* f32 subnormals are far below the smallest fp8 */
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

/* f16 holds every e4m3 and e5m2 value exactly; e5m2 is the upper byte of an f16. */
uint32_t __zc_cvt_f16_from_fp8(uint32_t code, uint32_t format)
{
	uint32_t sign = (code & 0x80) << 8, e = code >> 3 & 0xf, m = code & 7, p;

	if (format == FP8_E5M2)
		return (code & 0xff) << 8;
	if (e == 15 && m == 7)
		return sign | 0x7fff;
	if (e != 0)
		return sign | (e + 8) << 10 | m << 7;
	if (m == 0)
		return sign;
	p = m >= 4 ? 2 : m >= 2 ? 1 : 0; /* m * 2^-9, normal in f16 */
	return sign | (p + 6) << 10 | (m - (1u << p)) << (10 - p);
}
