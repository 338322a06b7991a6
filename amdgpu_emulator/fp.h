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

/* Writes a 16-bit result to the destination's half that op_sel (or .h) names; gfx10
 * clears the other half (exec_vector.c). */
void emu_write16(struct wave *w, const struct insn *in, const uint16_t r[LANES], uint32_t mask);

/* A float compare's condition (the encoding's order: f lt eq le gt ne ge o u nge nlg ngt
 * nle neq nlt t lg), on values exact in double (exec_vector.c). */
bool emu_float_condition(unsigned cond, double x, double y);

#endif
