/* Operand values for the sweeps: exhaustive where the operand is small, otherwise a fixed-seed
 * mix of random bits and the values where instructions tend to go wrong (limits, signs,
 * powers of two, rounding ties, special floats). Element i's values depend only on i, so a
 * mismatch can be reproduced from its index. */
#include <string.h>

#include "sweep.h"

enum { SWEEP_RANDOM_COUNT = 1 << 16, F32_SWEEP_COUNT = 1 << 24 };

static uint64_t mix(uint64_t x)
{
	/* splitmix64's finaliser: every input bit affects every output bit. */
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t random_bits(unsigned which, uint64_t index, unsigned salt)
{
	return mix(index * 8 + which + ((uint64_t)salt << 56) + 0x5eed);
}

static const uint64_t int_edges[] = {
	0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x100,
	0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x10000, 0xffffff, 0x1000000,
	0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0x100000000,
	0x7fffffffffffffff, 0x8000000000000000, 0x8000000000000001, 0xfffffffffffffffe,
	0xffffffffffffffff, 0xffffffff80000000, 0xffffffffffff8000, 0xffffffffffffff80,
	0x00000000ffff0000, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa,
	/* just above a bf16 tie, by less than f32 can hold: rounding through f32 loses it */
	0x1010001, 0x80800001, 0x1010000000000001, 0x8080000000000001,
};

static const uint32_t f32_edges[] = {
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000,
	0x00800000, 0x80800000, 0x00800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
	0x7fc00000, 0xffc00000, 0x7fc12345, 0x7f800001, 0x7fa00000, 0xff812345, 0x7fffffff,
	0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x40200000,
	0xc0200000, 0x3effffff, 0x3f000001, 0x40600000, 0x40900000, 0x3f7fffff, 0x3f800001,
	0x4b000000, 0x4b000001, 0x4b7fffff, 0x4b800000, 0xcb000001, 0x4effffff, 0x4f000000,
	0xcf000000, 0xcf000001, 0x4f7fffff, 0x4f800000, 0x5effffff, 0x5f000000, 0xdf000000,
	0xdf000001, 0x5f7fffff, 0x5f800000, 0x477fe000, 0x477fefff, 0x477ff000, 0x47800000,
	0x33800000, 0x33000000, 0x33000001, 0x337fffff, 0x387fc000, 0x38800000, 0x387fffff,
	0x3eaaaaab, 0x437f8000, 0x43800000, 0x437f0000, 0x42fe0000, 0x42ff0000, 0x43000000,
	0xc3000000, 0xc3008000, 0xc3010000, 0x46fffe00, 0x47000000, 0xc7000000, 0xc7000080,
	0x477fff00, 0x477fff80, 0x4f7fff80, 0x40490fdb, 0xc0490fdb, 0x3fc90fdb, 0x42c80000,
	0x7e800000, 0x01000000, 0x3f800000 + 0x8000, 0x3f808000, 0x3f818000, 0x3f7f8000,
};

static const uint64_t f64_edges[] = {
	0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
	0x000fffffffffffff, 0x0010000000000000, 0x8010000000000000, 0x7fefffffffffffff,
	0xffefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
	0xfff8000000000000, 0x7ff8000000012345, 0x7ff0000000000001, 0x3ff0000000000000,
	0xbff0000000000000, 0x3fe0000000000000, 0x3ff8000000000000, 0x4004000000000000,
	0xc004000000000000, 0x3fdfffffffffffff, 0x3fe0000000000001,
	0x47efffffe0000000, 0x47efffffe0000001, 0x47efffffdfffffff, 0x47f0000000000000,
	0x36a0000000000000, 0x3690000000000000, 0x3690000000000001, 0x368fffffffffffff,
	0x380fffffe0000000, 0x3810000000000000, 0x380ffffff0000000, 0x3e70000000000000,
	0x3f7ffffffff00000, 0x3ff0000010000000, 0x3ff0000010000001, 0x3ff0000030000000,
	0x41dfffffffc00000, 0x41e0000000000000, 0xc1e0000000000000, 0xc1e0000000200000,
	0x41efffffffe00000, 0x41f0000000000000, 0x43dfffffffffffff, 0x43e0000000000000,
	0xc3e0000000000000, 0x43efffffffffffff, 0x43f0000000000000, 0x40effc0000000000,
	0x40effe0000000000, 0x40effdffffffffff, 0x3e78000000000000, 0x4330000000000001,
	0x400921fb54442d18, 0x40dfffe000000000, 0x40e0000000000000, 0xc0e0001000000000,
};

/* f16 and bf16 halves: ±0, subnormals, the normal limits, infinities, NaNs, ±1. */
static const uint16_t half_edges[] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0200, 0x0400, 0x8400, 0x0401, 0x7bff,
	0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7fff, 0x3c00, 0xbc00, 0x3bff, 0x3c01,
	0x007f, 0x807f, 0x0080, 0x8080, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81,
	0x3f80, 0xbf80,
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t width_mask(unsigned bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* Random bits, edge values, small numbers of either sign, and random values of random
 * magnitude, in equal parts. */
static uint64_t random_int(unsigned which, uint64_t index, unsigned bits)
{
	uint64_t h = random_bits(which, index, 1);
	uint64_t r = random_bits(which, index, 2);
	uint64_t v;

	switch (h & 3) {
	case 0: v = int_edges[(h >> 8) % COUNT_OF(int_edges)]; break;
	case 1: v = (uint64_t)((int64_t)((h >> 8) % 129) - 64); break;
	case 2: v = r >> ((h >> 8) % 64); if (h & 0x10000) v = ~v; break;
	default: v = r; break;
	}
	return v & width_mask(bits);
}

static uint32_t random_f32(unsigned which, uint64_t index)
{
	uint64_t h = random_bits(which, index, 3), r = random_bits(which, index, 4);
	uint32_t sign = (uint32_t)(h >> 63) << 31, mantissa = (uint32_t)r & 0x7fffff;

	switch (h & 3) {
	case 0: return f32_edges[(h >> 8) % COUNT_OF(f32_edges)];
	case 1: return (uint32_t)r;
	case 2: /* ordinary magnitudes, 2^-24 .. 2^40 */
		return sign | (uint32_t)(103 + (h >> 8) % 64) << 23 | mantissa;
	default: /* integers and half-integers, where rounding to integers has its ties */
		return sign | (uint32_t)(126 + (h >> 8) % 34) << 23 | (mantissa & ~0u << ((h >> 16) % 24));
	}
}

static uint64_t random_f64(unsigned which, uint64_t index)
{
	uint64_t h = random_bits(which, index, 5), r = random_bits(which, index, 6);
	uint64_t sign = h >> 63 << 63, mantissa = r & 0xfffffffffffffull;

	switch (h & 3) {
	case 0: return f64_edges[(h >> 8) % COUNT_OF(f64_edges)];
	case 1: return r;
	case 2: /* around f32's range, where cvt.f32.f64 rounds, overflows and goes subnormal */
		return sign | (uint64_t)(1023 - 160 + (h >> 8) % 320) << 52 | mantissa;
	default:
		return sign | (uint64_t)(1022 + (h >> 8) % 66) << 52 | (mantissa & ~0ull << ((h >> 16) % 53));
	}
}

/* A float close to a: the same value, its negation, or one with a nearby exponent, so that
 * additions cancel and round, and comparisons see equal operands. */
static uint64_t near_float(uint64_t a, unsigned which, uint64_t index, bool is_f64)
{
	uint64_t h = random_bits(which, index, 7), r = random_bits(which, index, 8);
	unsigned mantissa_bits = is_f64 ? 52 : 23;
	uint64_t sign_bit = 1ull << (is_f64 ? 63 : 31);
	uint64_t exponent_mask = (is_f64 ? 0x7ffull : 0xffull) << mantissa_bits;

	switch (h & 7) {
	case 0: return a;
	case 1: return a ^ sign_bit;
	case 2: case 3: case 4: {
		int64_t exponent = (int64_t)((a & exponent_mask) >> mantissa_bits) + (int64_t)((h >> 8) % 7) - 3;
		int64_t top = is_f64 ? 0x7fe : 0xfe;
		if (exponent < 0)
			exponent = 0;
		if (exponent > top)
			exponent = top;
		return ((a & sign_bit) ^ ((h >> 20 & 1) ? sign_bit : 0)) | (uint64_t)exponent << mantissa_bits |
		       (r & ((1ull << mantissa_bits) - 1));
	}
	default:
		return is_f64 ? random_f64(which, index) : random_f32(which, index);
	}
}

unsigned sweep_type_bits(enum sweep_type t)
{
	switch (t) {
	case T_PRED: return 1;
	case T_U8: case T_S8: return 8;
	case T_U16: case T_S16: case T_B16: case T_F16: case T_BF16: return 16;
	case T_U32: case T_S32: case T_B32: case T_F32: return 32;
	case T_U64: case T_S64: case T_B64: case T_F64: return 64;
	default: return 0;
	}
}

bool sweep_type_signed(enum sweep_type t)
{
	return t == T_S8 || t == T_S16 || t == T_S32 || t == T_S64;
}

static uint64_t exhaustive_size(enum sweep_input in)
{
	switch (in) {
	case IN_ALL8: return 1u << 8;
	case IN_ALL16: return 1u << 16;
	case IN_F32_ALL: return F32_SWEEP_COUNT + COUNT_OF(f32_edges);
	case IN_H2_ALL: return 1u << 16;
	default: return 0;
	}
}

uint64_t sweep_count(const struct sweep_case *c)
{
	uint64_t product = 1;
	bool any_random = false;

	for (unsigned i = 0; i < 3; i++) {
		if (c->inputs[i] == IN_NONE)
			continue;
		if (exhaustive_size(c->inputs[i]))
			product *= exhaustive_size(c->inputs[i]);
		else
			any_random = true;
	}
	return any_random && product < SWEEP_RANDOM_COUNT ? SWEEP_RANDOM_COUNT : product;
}

/* The digit of `index` that belongs to exhaustive operand `which`: operands take the
 * low digits first, so the first one varies fastest. */
static uint64_t exhaustive_digit(const struct sweep_case *c, unsigned which, uint64_t index)
{
	for (unsigned i = 0; i < which; i++)
		if (exhaustive_size(c->inputs[i]))
			index /= exhaustive_size(c->inputs[i]);
	return index % exhaustive_size(c->inputs[which]);
}

uint64_t sweep_input(const struct sweep_case *c, unsigned which, uint64_t index, const uint64_t in[3])
{
	enum sweep_type t = c->srcs[which];
	unsigned bits = sweep_type_bits(t);
	uint64_t h = random_bits(which, index, 9);

	switch (c->inputs[which]) {
	case IN_NONE:
		return 0;
	case IN_ALL8: case IN_ALL16:
		return exhaustive_digit(c, which, index);
	case IN_F32_ALL: {
		uint64_t i = exhaustive_digit(c, which, index);
		/* Every block of 256 consecutive patterns contributes one, at a random offset. */
		if (i < F32_SWEEP_COUNT)
			return (uint32_t)(i << 8 | (mix(i) & 0xff));
		return f32_edges[i - F32_SWEEP_COUNT];
	}
	case IN_RAND16: case IN_RAND32: case IN_RAND64:
		return random_int(which, index, bits);
	case IN_PRED:
		return h & 1;
	case IN_BITPOS:
		/* Mostly in and just past the width; sometimes up to 255 (bfe and bfi take
		 * positions mod 256), sometimes any 32-bit value. */
		if ((h & 7) == 0)
			return (h >> 8) & 0xff;
		if ((h & 15) == 1)
			return (uint32_t)(h >> 16);
		return (h >> 8) % 70;
	case IN_BITPOS_PAIR: {
		uint64_t pos = (h & 7) == 0 ? (h >> 8) & 0xff : (h >> 8) % 70;
		uint64_t len = (h & 0x70) == 0 ? (h >> 24) & 0xff : (h >> 24) % 70;
		if ((h & 0xf00000000000ull) == 0)
			pos |= 0x12345600; /* upper bits: ignored, as PTX masks with 0xff */
		return pos | len << 32;
	}
	case IN_NEAR_A:
		switch (h & 7) {
		case 0: case 1: return in[0];
		case 2: return (in[0] + 1) & width_mask(bits);
		case 3: return (in[0] - 1) & width_mask(bits);
		default: return random_int(which, index, bits);
		}
	case IN_F32:
		return random_f32(which, index);
	case IN_F64:
		return random_f64(which, index);
	case IN_F32_NEAR: case IN_F64_NEAR:
		return near_float(in[0], which, index, c->inputs[which] == IN_F64_NEAR);
	case IN_H2_ALL: {
		/* the lower half counts through every pattern, the upper one through all of them in
		 * another order (an odd multiplier is a bijection mod 2^16) */
		uint64_t i = exhaustive_digit(c, which, index);
		return i | ((i * 0x9e37 + 0x1234) & 0xffff) << 16;
	}
	case IN_H2_NEAR: {
		uint64_t r = 0;
		for (unsigned k = 0; k < 2; k++) {
			uint16_t a = (uint16_t)(in[0] >> (16 * k)), v;
			uint64_t hk = random_bits(which, index, 10 + k);
			switch (hk & 7) {
			case 0: case 1: v = a; break;
			case 2: v = a ^ 0x8000; break;
			case 3: v = (uint16_t)(a + 1); break;
			case 4: v = (uint16_t)(a - 1); break;
			case 5: case 6: v = half_edges[(hk >> 8) % COUNT_OF(half_edges)]; break;
			default: v = (uint16_t)(hk >> 16); break;
			}
			r |= (uint64_t)v << (16 * k);
		}
		return r;
	}
	case IN_FMA_ADDEND:
		if (t == T_F64) {
			if ((h & 3) == 0) {
				double a, b, p;
				memcpy(&a, &in[0], 8);
				memcpy(&b, &in[1], 8);
				p = -(a * b);
				uint64_t bits64;
				memcpy(&bits64, &p, 8);
				return bits64 ^ (h >> 8 & 3); /* cancels to the low bits of the product */
			}
			return random_f64(which, index);
		}
		if ((h & 3) == 0) {
			float a, b, p;
			uint32_t a32 = (uint32_t)in[0], b32 = (uint32_t)in[1], p32;
			memcpy(&a, &a32, 4);
			memcpy(&b, &b32, 4);
			p = -(a * b);
			memcpy(&p32, &p, 4);
			return p32 ^ (uint32_t)(h >> 8 & 3);
		}
		return random_f32(which, index);
	}
	return 0;
}
