/* What a Windows host code object needs beyond its builtins: it is a DLL linked with no C
 * runtime (nvcuda.dll loads it; host_abi.h), importing only ucrtbase.dll's math
 * (host_backend/ucrtbase.def). So it carries its own TLS directory, which native TLS needs
 * and a C runtime would otherwise give, and the few library functions LLVM calls that
 * ucrtbase.dll lacks: the f16 and bf16 conversions (compiler-rt's names) and the C23 or
 * header-only math. All hidden: a code object exports only default-visibility symbols. */
#include <stdint.h>

#define SUPPORT __attribute__((visibility("hidden")))

/* ---- thread-local storage ----------------------------------------------------------- */

/* The loader reads the directory the linker finds under this name (IMAGE_TLS_DIRECTORY64):
 * the template is the .tls section, which the linker assembles from .tls (this start
 * marker first), .tls$ (the thread-local variables) and .tls$ZZZ (the end marker), in
 * the order of their names. */
typedef struct {
	uint64_t start, end, index, callbacks;
	uint32_t zero_fill, characteristics;
} TlsDirectory;

SUPPORT uint32_t _tls_index;
SUPPORT __attribute__((section(".tls"))) char _tls_start = 0;
SUPPORT __attribute__((section(".tls$ZZZ"))) char _tls_end = 0;
static void *const no_tls_callbacks[1];

SUPPORT __attribute__((used)) const TlsDirectory _tls_used = {
	(uint64_t)&_tls_start, (uint64_t)&_tls_end, (uint64_t)&_tls_index,
	(uint64_t)no_tls_callbacks, 0, 0,
};

/* ---- f16 and bf16 ------------------------------------------------------------------- */

static uint32_t float_bits(float x)
{
	uint32_t u;
	__builtin_memcpy(&u, &x, 4);
	return u;
}

static float float_of(uint32_t u)
{
	float x;
	__builtin_memcpy(&x, &u, 4);
	return x;
}

static uint64_t double_bits(double x)
{
	uint64_t u;
	__builtin_memcpy(&u, &x, 8);
	return u;
}

/* A binary floating-point value rounded to nearest even into a narrower format with
 * `mantissa` fraction bits and exponent bias `bias` (its largest exponent field all ones):
 * sign, the value's exponent (unbiased) and its significand as an integer with the
 * leading one at bit `point`, which must be above the narrow format's mantissa. */
static uint32_t narrow(uint32_t sign, int exponent, uint64_t significand, int point,
                       int mantissa, int bias, int exponent_bits)
{
	int max_field = (1 << exponent_bits) - 1;
	int field = exponent + bias;
	int shift = point - mantissa;  /* bits dropped for a normal result */

	if (field <= 0)  /* subnormal: one more bit dropped per step below the smallest */
		shift += 1 - field, field = 0;
	if (shift > 63)
		return sign;
	uint64_t kept = significand >> shift, rest = significand & ((1ull << shift) - 1);
	uint64_t half = 1ull << (shift - 1);
	if (rest > half || (rest == half && (kept & 1)))
		kept++;
	/* A carry out of the mantissa moves to the next exponent: adding the fields does it. */
	uint64_t bits = ((uint64_t)(field ? field - 1 : 0) << mantissa) + kept;
	if (bits >= (uint64_t)max_field << mantissa)
		return sign | ((uint32_t)max_field << mantissa);  /* overflow to infinity */
	return sign | (uint32_t)bits;
}

static uint16_t half_from_float(float x)
{
	uint32_t u = float_bits(x), sign = (u >> 16) & 0x8000, field = (u >> 23) & 0xff;
	uint32_t fraction = u & 0x7fffff;

	if (field == 0xff)
		return (uint16_t)(sign | 0x7c00 | (fraction ? 0x200 | (fraction >> 13) : 0));
	if (field == 0 && fraction == 0)
		return (uint16_t)sign;
	int exponent = field ? (int)field - 127 : -126;
	uint64_t significand = field ? fraction | 0x800000 : fraction;
	while (!(significand & 0x800000))
		significand <<= 1, exponent--;
	return (uint16_t)narrow(sign, exponent, significand, 23, 10, 15, 5);
}

static uint16_t half_from_double(double x)
{
	uint64_t u = double_bits(x);
	uint32_t sign = (uint32_t)(u >> 48) & 0x8000, field = (uint32_t)(u >> 52) & 0x7ff;
	uint64_t fraction = u & ((1ull << 52) - 1);

	if (field == 0x7ff)
		return (uint16_t)(sign | 0x7c00 | (fraction ? 0x200 | (uint32_t)(fraction >> 42) : 0));
	if (field == 0)  /* zero, or far below f16's smallest subnormal */
		return (uint16_t)sign;
	return (uint16_t)narrow(sign, (int)field - 1023, fraction | (1ull << 52), 52, 10, 15, 5);
}

static uint16_t bfloat_from_float(float x)
{
	uint32_t u = float_bits(x);

	if ((u & 0x7fffffff) > 0x7f800000)  /* NaN: quiet, its payload's top bits kept */
		return (uint16_t)((u >> 16) | 0x40);
	return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

static uint16_t bfloat_from_double(double x)
{
	uint64_t u = double_bits(x);
	uint32_t sign = (uint32_t)(u >> 48) & 0x8000, field = (uint32_t)(u >> 52) & 0x7ff;
	uint64_t fraction = u & ((1ull << 52) - 1);

	if (field == 0x7ff)
		return (uint16_t)(sign | 0x7f80 | (fraction ? 0x40 | (uint32_t)(fraction >> 45) : 0));
	if (field == 0)
		return (uint16_t)sign;
	return (uint16_t)narrow(sign, (int)field - 1023, fraction | (1ull << 52), 52, 7, 127, 8);
}

/* Returned as the 16-bit types themselves: LLVM passes them in xmm0. */
#define AS_HALF(bits) ({ uint16_t b_ = (bits); _Float16 h_; __builtin_memcpy(&h_, &b_, 2); h_; })
#define AS_BFLOAT(bits) ({ uint16_t b_ = (bits); __bf16 h_; __builtin_memcpy(&h_, &b_, 2); h_; })

SUPPORT _Float16 __truncsfhf2(float x) { return AS_HALF(half_from_float(x)); }
SUPPORT _Float16 __truncdfhf2(double x) { return AS_HALF(half_from_double(x)); }
SUPPORT __bf16 __truncsfbf2(float x) { return AS_BFLOAT(bfloat_from_float(x)); }
SUPPORT __bf16 __truncdfbf2(double x) { return AS_BFLOAT(bfloat_from_double(x)); }

SUPPORT float __extendhfsf2(_Float16 h)
{
	uint16_t b;
	__builtin_memcpy(&b, &h, 2);
	uint32_t sign = (uint32_t)(b & 0x8000) << 16, field = (b >> 10) & 0x1f, fraction = b & 0x3ff;
	uint32_t u;

	if (field == 0x1f)
		u = sign | 0x7f800000 | (fraction << 13);
	else if (field)
		u = sign | ((field + 112) << 23) | (fraction << 13);
	else if (!fraction)
		u = sign;
	else {  /* subnormal: normalised in f32 */
		int exponent = -14;
		while (!(fraction & 0x400))
			fraction <<= 1, exponent--;
		u = sign | ((uint32_t)(exponent + 127) << 23) | ((fraction & 0x3ff) << 13);
	}
	return float_of(u);
}

/* ---- math ucrtbase.dll does not export ---------------------------------------------- */

/* Written with arithmetic alone, calling no library function: the optimiser may turn a
 * call of one into the very intrinsic that code generation lowers to these. */

static double power_of_two(int n)  /* -1022 <= n <= 1023 */
{
	uint64_t u = (uint64_t)(n + 1023) << 52;
	double x;
	__builtin_memcpy(&x, &u, 8);
	return x;
}

/* x * 2^n is exact in double for every float x and |n| <= 400, beyond which the float
 * result no longer changes: rounded once, to float. */
SUPPORT float ldexpf(float x, int n)
{
	n = n > 400 ? 400 : n < -400 ? -400 : n;
	return (float)((double)x * power_of_two(n / 2) * power_of_two(n - n / 2));
}

SUPPORT float frexpf(float x, int *exponent)
{
	uint32_t u = float_bits(x);
	int bias = 126;

	*exponent = 0;
	if ((u & 0x7fffffff) == 0 || (u & 0x7f800000) == 0x7f800000)
		return x;
	if ((u & 0x7f800000) == 0) {  /* subnormal: scaled into the normal range, exactly */
		u = float_bits(x * 0x1p25f);
		bias += 25;
	}
	*exponent = (int)((u >> 23) & 0xff) - bias;
	return float_of((u & 0x807fffff) | (126u << 23));
}

/* Below 2^23 (2^52), adding and taking away 2^23 (2^52) rounds to an integer in the
 * default rounding mode, which the code objects never change: to nearest even. */
SUPPORT float roundevenf(float x)
{
	float a = __builtin_fabsf(x);
	return a < 0x1p23f ? __builtin_copysignf((a + 0x1p23f) - 0x1p23f, x) : x;
}

SUPPORT double roundeven(double x)
{
	double a = __builtin_fabs(x);
	return a < 0x1p52 ? __builtin_copysign((a + 0x1p52) - 0x1p52, x) : x;
}
