/* Float operands: source modifiers, the MODE register's denormal flushing, half floats. */
#ifndef ZC_EMU_FP_H
#define ZC_EMU_FP_H

#include <math.h>

#include "emu.h"

static inline uint32_t emu_f32_mods(uint32_t x, const struct operand *o)
{
	if (o->abs)
		x &= 0x7fffffffu;
	if (o->neg)
		x ^= 0x80000000u;
	return x;
}

static inline uint64_t emu_f64_mods(uint64_t x, const struct operand *o)
{
	if (o->abs)
		x &= 0x7fffffffffffffffull;
	if (o->neg)
		x ^= 0x8000000000000000ull;
	return x;
}

static inline uint16_t emu_f16_mods(uint16_t x, const struct operand *o)
{
	if (o->abs)
		x &= 0x7fff;
	if (o->neg)
		x ^= 0x8000;
	return x;
}

static inline float emu_f32_in(uint32_t bits, bool flush)
{
	if (flush && (bits & 0x7f800000u) == 0)
		bits &= 0x80000000u;
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

/* A lane's f32 operand: source modifiers (none for an accumulator, o NULL), then the MODE
 * register's input flushing; a loop the compiler vectorises. */
static inline __attribute__((always_inline)) void
emu_f32_lanes(const uint32_t *restrict bits, const struct operand *o, bool flush,
              float *restrict out)
{
	uint32_t keep = o && o->abs ? 0x7fffffffu : ~0u, flip = o && o->neg ? 0x80000000u : 0;
	for (int l = 0; l < LANES; l++) {
		uint32_t b = (bits[l] & keep) ^ flip;
		b = flush && (b & 0x7f800000u) == 0 ? b & 0x80000000u : b;
		memcpy(&out[l], &b, 4);
	}
}

static inline double emu_f64_in(uint64_t bits, bool flush)
{
	if (flush && (bits & 0x7ff0000000000000ull) == 0)
		bits &= 0x8000000000000000ull;
	double d;
	memcpy(&d, &bits, 8);
	return d;
}

static inline double emu_f16_to_double(uint16_t bits, bool flush)
{
	if (flush && (bits & 0x7c00) == 0)
		bits &= 0x8000;
	_Float16 h;
	memcpy(&h, &bits, 2);
	return (double)h;
}

/* An f32 (its bits) as f16 rounded toward zero, in integers: the C conversion follows no
 * rounding mode here (GCC calls libgcc's __truncsfhf2, and moves the call across
 * fesetround). Overflow gives the largest finite value; a NaN stays one, quiet. */
static inline uint16_t emu_f32_to_f16_rtz(uint32_t x)
{
	uint16_t sign = (uint16_t)(x >> 16 & 0x8000);
	int exponent = (int)(x >> 23 & 0xff) - 127 + 15;
	uint32_t mantissa = x & 0x7fffff;
	if ((x & 0x7fffffff) > 0x7f800000)
		return sign | 0x7e00 | (uint16_t)(mantissa >> 13);
	if ((x & 0x7fffffff) == 0x7f800000)
		return sign | 0x7c00;
	if (exponent >= 31)
		return sign | 0x7bff;
	if (exponent >= 1)
		return sign | (uint16_t)(exponent << 10) | (uint16_t)(mantissa >> 13);
	/* subnormal in f16: units of 2^-24 */
	int shift = 14 - exponent;
	if ((x & 0x7f800000) == 0 || shift > 24)
		return sign;
	return sign | (uint16_t)((mantissa | 0x800000) >> shift);
}

/* gfx12's fp8 (OCP E4M3) or bf8 (E5M2) byte as a double, exactly; X rounded to nearest
 * even into such a byte, a finite overflow saturating to the largest finite or not
 * (exec_matrix.c). */
double emu_fp8_value(uint32_t bits, bool bf8);
uint32_t emu_fp8_bits(double x, bool bf8, bool saturate);
/* X rounded to nearest even into bf16 (exec_matrix.c); a NaN is the default quiet NaN. */
uint32_t emu_bf16_bits(double x);

/* Lane by lane (lanes.c): v = x * y + z rounded once; sqrtf(x); 1.0f / sqrtf(x). */
void emu_fma32_lanes(float *restrict v, const float *restrict x, const float *restrict y,
                     const float *restrict z);
void emu_sqrt32_lanes(float *restrict v, const float *restrict x);
void emu_rsq32_lanes(float *restrict v, const float *restrict x);

/* Writes a 16-bit result to the destination's half that op_sel (or .h) names; gfx10
 * clears the other half (exec_vector.c). */
void emu_write16(struct wave *w, const struct insn *in, const uint16_t r[LANES], uint32_t mask);

/* Compare conditions: the encoding's order (f lt eq le gt ne ge o u nge nlg ngt nle neq nlt t),
 * then lg (the float compares' ne) and class. */
enum cond { C_F, C_LT, C_EQ, C_LE, C_GT, C_NE, C_GE, C_O, C_U, C_NGE, C_NLG, C_NGT, C_NLE,
            C_NEQ, C_NLT, C_T, C_LG, C_CLASS };

/* A float compare's condition, on values exact in double. */
static inline bool emu_float_condition(unsigned c, double x, double y)
{
	bool un = isnan(x) || isnan(y);
	switch (c) {
	case C_F: return false;
	case C_LT: return x < y;
	case C_EQ: return x == y;
	case C_LE: return x <= y;
	case C_GT: return x > y;
	case C_LG: return !un && x != y;
	case C_GE: return x >= y;
	case C_O: return !un;
	case C_U: return un;
	case C_NGE: return !(x >= y);
	case C_NLG: return un || x == y;
	case C_NGT: return !(x > y);
	case C_NLE: return !(x <= y);
	case C_NEQ: return !(x == y);
	case C_NLT: return !(x < y);
	case C_T: return true;
	case C_NE: return x != y;
	default: return false;
	}
}

#endif
