/* Wave matrix multiply-accumulate (WMMA) of gfx11 and gfx12 in wave32: D = A x B + C on
 * 16x16 tiles, the wave's 32 lanes holding the matrices together. Where each element lies
 * (lane, register, bits) differs between the two generations; docs/amd-wmma-layout.md
 * describes it and the sources it was taken from, and the functions below follow it. */
#include <math.h>

#include "emu.h"
#include "fp.h"

enum element_type { E_F16, E_BF16, E_FP8, E_BF8, E_IU8, E_IU4, E_F32, E_I32 };

static const unsigned element_bits[] = {
	[E_F16] = 16, [E_BF16] = 16, [E_FP8] = 8, [E_BF8] = 8, [E_IU8] = 8, [E_IU4] = 4,
	[E_F32] = 32, [E_I32] = 32,
};

/* An opcode's selector: the types of A, of B and of C and D, K, and the generations that
 * have it. */
#define WMMA(a, b, cd, k, gens) ((a) | (b) << 4 | (cd) << 8 | (k) << 12 | (gens) << 20)
#define GFX11 1u
#define GFX12 2u
static unsigned type_a(uint32_t op) { return op & 15; }
static unsigned type_b(uint32_t op) { return op >> 4 & 15; }
static unsigned type_cd(uint32_t op) { return op >> 8 & 15; }
static unsigned depth_k(uint32_t op) { return op >> 12 & 255; }
static unsigned generations(uint32_t op) { return op >> 20; }

enum { M = 16, N = 16, MAX_K = 32 };

/* The VGPRs A or B fill: gfx11 repeats the whole of each row (column) in both halves of the
 * wave, gfx12 splits it between them. */
static unsigned input_registers(unsigned type, unsigned k, int generation)
{
	return k * element_bits[type] / (generation == 11 ? 32 : 64);
}

/* gfx11 keeps a 16-bit result in one half of each of eight registers (op_sel picks which);
 * gfx12 packs two into each of four. */
static unsigned output_registers(unsigned type, int generation)
{
	return element_bits[type] == 32 || generation == 11 ? 8 : 4;
}

/* Where element [i][k] of A (or [k][i] of B: i is the column there) lies. gfx11: lane i,
 * repeated in lane i + 16, the elements along k packed from the low bits of the first
 * register on. gfx12: runs of 8 along k alternate between lane i and lane i + 16, each
 * lane packing its runs in order. COPY picks gfx11's repetition (0 or 1). */
struct place {
	unsigned lane, reg, bit;
};

static struct place input_place(unsigned type, unsigned i, unsigned k, unsigned copy,
                                int generation)
{
	unsigned bits = element_bits[type], per_reg = 32 / bits, index;
	struct place p;
	if (generation == 11) {
		p.lane = i + 16 * copy;
		index = k;
	} else {
		unsigned run = k / 8;
		p.lane = i + 16 * (run % 2);
		index = 8 * (run / 2) + k % 8;
	}
	p.reg = index / per_reg;
	p.bit = index % per_reg * bits;
	return p;
}

/* Where element [m][n] of C or D lies. gfx11: row m in register m / 2, the even rows in
 * lanes 0-15 and the odd in lanes 16-31, a 16-bit element in the half op_sel[2] names.
 * gfx12: rows 0-7 in lanes 0-15 and rows 8-15 in lanes 16-31, 32-bit rows one register
 * each, 16-bit ones two to a register. */
static struct place output_place(unsigned type, unsigned m, unsigned n, unsigned high,
                                 int generation)
{
	struct place p;
	if (generation == 11) {
		p.lane = n + 16 * (m % 2);
		p.reg = m / 2;
		p.bit = element_bits[type] == 16 && high ? 16 : 0;
	} else {
		unsigned index = m % 8;
		p.lane = n + 16 * (m / 8);
		p.reg = element_bits[type] == 16 ? index / 2 : index;
		p.bit = element_bits[type] == 16 ? index % 2 * 16 : 0;
	}
	return p;
}

static uint32_t field(uint32_t word, unsigned bit, unsigned bits)
{
	return bits == 32 ? word : word >> bit & ((1u << bits) - 1);
}

/* ---- element values */

static double f16_value(uint32_t bits)
{
	_Float16 h;
	uint16_t b = (uint16_t)bits;
	memcpy(&h, &b, 2);
	return (double)h;
}

static double f32_value(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, 4);
	return (double)f;
}

/* A small float format (bf16, and gfx12's fp8 and bf8, which are the OCP E4M3 and E5M2
 * formats) as a double: every value of these is exact in one. */
static double small_float_value(uint32_t bits, unsigned ebits, unsigned mbits, bool has_inf)
{
	unsigned width = 1 + ebits + mbits, emax = (1u << ebits) - 1;
	unsigned e = bits >> mbits & emax, m = bits & ((1u << mbits) - 1);
	int bias = (1 << (ebits - 1)) - 1;
	bool negative = bits >> (width - 1) & 1;
	double v;
	if (has_inf && e == emax)
		v = m ? NAN : INFINITY;
	else if (!has_inf && e == emax && m == (1u << mbits) - 1)
		v = NAN;  /* E4M3 has no infinity: only S.1111.111 is NaN */
	else if (e == 0)
		v = ldexp(m, 1 - bias - (int)mbits);
	else
		v = ldexp((1u << mbits) | m, (int)e - bias - (int)mbits);
	return negative ? -v : v;
}

double emu_fp8_value(uint32_t bits, bool bf8)
{
	return bf8 ? small_float_value(bits & 0xff, 5, 2, true) : small_float_value(bits & 0xff, 4, 3, false);
}

/* Defined below, with the other roundings to the small formats. */
static double round_to(double x, int precision, int min_exp);

/* Without saturation, a value beyond the largest finite (E4M3: 448, E5M2: 57344) after
 * rounding is E4M3's NaN (it has no infinity) or E5M2's infinity; an infinity likewise, a
 * NaN the format's NaN with X's sign (E5M2: the quiet one, mantissa 10). */
uint32_t emu_fp8_bits(double x, bool bf8, bool saturate)
{
	unsigned mbits = bf8 ? 2 : 3, bias = bf8 ? 15 : 7;
	uint32_t sign = signbit(x) ? 0x80 : 0, nan = sign | (bf8 ? 0x7e : 0x7f);
	uint32_t largest = bf8 ? 0x7b : 0x7e, infinity = bf8 ? sign | 0x7c : nan;
	double r = round_to(fabs(x), (int)mbits + 1, 1 - (int)bias);
	if (isnan(x))
		return nan;
	if (isinf(x))
		return infinity;
	if (r > emu_fp8_value(largest, bf8))
		return saturate ? sign | largest : infinity;
	if (r == 0)
		return sign;
	int e;
	frexp(r, &e);  /* r in [2^(e-1), 2^e) */
	if (e - 1 < 1 - (int)bias)  /* subnormal: the quantum of the smallest normals */
		return sign | (uint32_t)ldexp(r, (int)bias - 1 + (int)mbits);
	uint32_t mantissa = (uint32_t)ldexp(r, (int)mbits - (e - 1)) - (1u << mbits);
	return sign | (uint32_t)(e - 1 + (int)bias) << mbits | mantissa;
}

static double float_value(unsigned type, uint32_t bits)
{
	switch (type) {
	case E_F16: return f16_value(bits);
	case E_BF16: return small_float_value(bits, 8, 7, true);
	case E_FP8: return small_float_value(bits, 4, 3, false);
	case E_BF8: return small_float_value(bits, 5, 2, true);
	default: return f32_value(bits);
	}
}

/* X rounded to nearest, ties to even, with PRECISION significant bits and the smallest
 * normal exponent MIN_EXP (below it the quantum stays that of the subnormals). Exact
 * arithmetic: only the result's own rounding happens. */
static double round_to(double x, int precision, int min_exp)
{
	if (x == 0 || !isfinite(x))
		return x;
	int e;
	frexp(x, &e);  /* |x| in [2^(e-1), 2^e) */
	int quantum = (e - 1 < min_exp ? min_exp : e - 1) - (precision - 1);
	double y = ldexp(fabs(x), -quantum), r = floor(y), rest = y - r;
	if (rest > 0.5 || (rest == 0.5 && fmod(r, 2) != 0))
		r += 1;
	return copysign(ldexp(r, quantum), x);
}

/* The bits of X in the result's type, rounded to nearest even; a NaN is the type's
 * default quiet NaN. */
static uint32_t float_bits(unsigned type, double x)
{
	if (isnan(x))
		return type == E_F32 ? 0x7fc00000u : type == E_F16 ? 0x7e00u : 0x7fc0u;
	if (type == E_F16) {
		_Float16 h = (_Float16)round_to(x, 11, -14);  /* exact, or out of range: inf */
		uint16_t b;
		memcpy(&b, &h, 2);
		return b;
	}
	float f = (float)round_to(x, type == E_BF16 ? 8 : 24, -126);
	uint32_t b;
	memcpy(&b, &f, 4);
	return type == E_BF16 ? b >> 16 : b;
}

uint32_t emu_bf16_bits(double x)
{
	return float_bits(E_BF16, x);
}

static bool is_float(unsigned type) { return type != E_IU8 && type != E_IU4 && type != E_I32; }

/* ---- reading and writing the matrices */

/* Word REG of a VGPR range, in LANE. */
static uint32_t word(const struct wave *w, const struct operand *o, unsigned reg, unsigned lane)
{
	return w->v[(o->reg + reg) & 255][lane];
}

/* Element X of A (WHICH 0) or B (1), found at BIT of its word, as a value: signed or not
 * for the integer types (neg_lo of the operand says signed), the 16-bit float types negated
 * where neg_lo (elements in the low half of a word) or neg_hi (the high half) says. */
static double element_value(const struct insn *in, int which, unsigned type, uint32_t x,
                            unsigned bit)
{
	unsigned bits = element_bits[type];
	if (!is_float(type)) {
		bool negative = (in->neg_lo >> which & 1) && (x >> (bits - 1) & 1);
		return negative ? (double)x - (double)(1u << bits) : (double)x;
	}
	double v = float_value(type, x);
	return bits == 16 && ((bit < 16 ? in->neg_lo : in->neg_hi) >> which & 1) ? -v : v;
}

/* A or B as values (element_value), for each of gfx11's two copies, each read where it
 * lies. */
static void read_input(const struct wave *w, const struct insn *in, int which, unsigned type,
                       unsigned k_depth, double out[2][M][MAX_K], int generation)
{
	const struct operand *o = &in->o[1 + which];
	unsigned bits = element_bits[type], copies = generation == 11 ? 2 : 1;
	for (unsigned copy = 0; copy < copies; copy++)
		for (unsigned i = 0; i < M; i++)
			for (unsigned k = 0; k < k_depth; k++) {
				struct place p = input_place(type, i, k, copy, generation);
				uint32_t x = field(word(w, o, p.reg, p.lane), p.bit, bits);
				out[copy][i][k] = element_value(in, which, type, x, p.bit);
			}
}

/* C's element bits: from its registers, or the constant in the width of C's type. */
static uint32_t c_bits(const struct wave *w, const struct insn *in, unsigned type, unsigned m,
                       unsigned n, int generation)
{
	const struct operand *o = &in->o[3];
	unsigned bits = element_bits[type];
	if (o->kind == OPND_CONST) {
		if (bits == 32)
			return o->c32;
		/* bf16 takes the constant's f32 value, truncated to its high half */
		return type == E_BF16 ? o->c32 >> 16 : o->c16;
	}
	struct place p = output_place(type, m, n, in->op_sel >> 2 & 1, generation);
	return field(word(w, o, p.reg, p.lane), p.bit, bits);
}

static void wmma(struct wave *w, const struct insn *in);
static void swmmac(struct wave *w, const struct insn *in);

bool emu_matrix_form_known(const struct insn *in, int generation)
{
	if (in->exec != wmma && in->exec != swmmac)
		return true;
	uint32_t op = in->op;
	unsigned gen_bit = generation == 11 ? GFX11 : generation == 12 ? GFX12 : 0;
	if (!(generations(op) & gen_bit) || in->nopnd != 4)
		return false;
	const struct operand *d = &in->o[0], *a = &in->o[1], *b = &in->o[2], *c = &in->o[3];
	unsigned cd_regs = output_registers(type_cd(op), generation);
	if (in->exec == swmmac)
		return d->kind == OPND_VGPR && d->count == cd_regs && a->kind == OPND_VGPR &&
		       a->count == input_registers(type_a(op), depth_k(op), generation) / 2 &&
		       b->kind == OPND_VGPR &&
		       b->count == input_registers(type_b(op), depth_k(op), generation) &&
		       c->kind == OPND_VGPR && c->count == 1;
	if (d->kind != OPND_VGPR || d->count != cd_regs || a->kind != OPND_VGPR ||
	    a->count != input_registers(type_a(op), depth_k(op), generation) ||
	    b->kind != OPND_VGPR || b->count != input_registers(type_b(op), depth_k(op), generation))
		return false;
	if (c->kind == OPND_VGPR ? c->count != cd_regs : c->kind != OPND_CONST)
		return false;
	/* the integer forms' C has no modifier whose meaning the sources give */
	if (!is_float(type_cd(op)) && ((in->neg_lo | in->neg_hi) & 4))
		return false;
	return true;
}

static void wmma(struct wave *w, const struct insn *in)
{
	/* A and B as values, for each of gfx11's two copies: 16 KiB, kept off the stack */
	static _Thread_local double a[2][M][MAX_K], b[2][N][MAX_K];
	int generation = w->object->generation;
	unsigned ta = type_a(in->op), tb = type_b(in->op), tcd = type_cd(in->op);
	unsigned k_depth = depth_k(in->op), cd_bits = element_bits[tcd];
	unsigned high = in->op_sel >> 2 & 1;

	/* The guides describe the operation for the whole wave; what partial EXEC would do
	 * is not described, so the emulator stops rather than guess. */
	if (exec_mask(w) != 0xffffffffu) {
		emu_fault(w, in, "%s with EXEC 0x%08x: WMMA is emulated with all 32 lanes only",
		          in->text, exec_mask(w));
		return;
	}
	read_input(w, in, 0, ta, k_depth, a, generation);
	read_input(w, in, 1, tb, k_depth, b, generation);

	uint32_t result[M][N];
	for (unsigned m = 0; m < M; m++)
		for (unsigned n = 0; n < N; n++) {
			/* gfx11: the lanes of D's row take A and B from their own half of the wave */
			unsigned copy = generation == 11 ? m % 2 : 0;
			uint32_t cb = c_bits(w, in, tcd, m, n, generation);
			if (is_float(tcd)) {
				double sum = float_value(tcd, cb);
				if (in->neg_hi & 4)
					sum = fabs(sum);
				if (in->neg_lo & 4)
					sum = -sum;
				/* the products are exact in double, and so are the sums while they fit
				 * its 53 bits; rounded to the result's type at the end */
				for (unsigned k = 0; k < k_depth; k++)
					sum += a[copy][m][k] * b[copy][n][k];
				result[m][n] = float_bits(tcd, sum);
			} else {
				int64_t sum = (int32_t)cb;
				for (unsigned k = 0; k < k_depth; k++)
					sum += (int64_t)a[copy][m][k] * (int64_t)b[copy][n][k];
				if (in->clamp)
					sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
				result[m][n] = (uint32_t)sum;
			}
		}

	/* Written after everything is read: D may be C, A or B. A 16-bit D of gfx11 keeps the
	 * other half of its registers. */
	for (unsigned m = 0; m < M; m++)
		for (unsigned n = 0; n < N; n++) {
			struct place p = output_place(tcd, m, n, high, generation);
			uint32_t *d = &w->v[(in->o[0].reg + p.reg) & 255][p.lane];
			if (cd_bits == 32)
				*d = result[m][n];
			else
				*d = (*d & ~(0xffffu << p.bit)) | result[m][n] << p.bit;
		}
}

/* Element SLOT of LANE's part of a VGPR range: the SLOT-th field of the type's width
 * counted from bit 0 of the range's first VGPR, as a value. */
static double slot_value(const struct wave *w, const struct insn *in, int which, unsigned type,
                         unsigned lane, unsigned slot)
{
	unsigned bits = element_bits[type], per_reg = 32 / bits, bit = slot % per_reg * bits;
	uint32_t x = field(word(w, &in->o[1 + which], slot / per_reg, lane), bit, bits);
	return element_value(in, which, type, x, bit);
}

/* gfx12's sparse WMMA (v_swmmac_*): D += A x B, A 16xK with two of every four consecutive K
 * kept (2:4 structured sparsity), stored compressed in half of a dense A's registers; the
 * third source is the index VGPR. From AMD's matrix instruction calculator (RDNA4 entries),
 * in the terms of each lane's register ranges: lane m + 16h holds row m's compressed pairs
 * q = 0, 1, ... (fields 2q and 2q + 1 of A's range) and their positions in a 4-bit group
 * of the index (bits 4q+1:4q for the first, 4q+3:4q+2 for the second), 16 bits of the index
 * register (index_key, op_sel[0], picks the half) or all 32 for the K = 64 form; the pair's
 * four K are fields 4q to 4q+3 of B's range in lane n + 16h for column n. D is C, and its
 * layout that of the dense forms; sums as those of wmma(). */
static void swmmac(struct wave *w, const struct insn *in)
{
	/* a lane holds at most 16 compressed elements of A and 32 of B (the K = 64 form) */
	static _Thread_local double a[LANES][16], b[LANES][32];
	unsigned ta = type_a(in->op), tb = type_b(in->op), tcd = type_cd(in->op);
	unsigned k_depth = depth_k(in->op), pairs = k_depth / 8, cd_bits = element_bits[tcd];
	bool floats = is_float(tcd);
	uint32_t index[LANES];

	if (exec_mask(w) != 0xffffffffu) {
		emu_fault(w, in, "%s with EXEC 0x%08x: WMMA is emulated with all 32 lanes only",
		          in->text, exec_mask(w));
		return;
	}
	for (unsigned l = 0; l < LANES; l++) {
		for (unsigned s = 0; s < 2 * pairs; s++)
			a[l][s] = slot_value(w, in, 0, ta, l, s);
		for (unsigned s = 0; s < 4 * pairs; s++)
			b[l][s] = slot_value(w, in, 1, tb, l, s);
		index[l] = word(w, &in->o[3], 0, l) >> (pairs == 4 && (in->op_sel & 1) ? 16 : 0);
	}
	uint32_t result[M][N];
	for (unsigned m = 0; m < M; m++)
		for (unsigned n = 0; n < N; n++) {
			struct place p = output_place(tcd, m, n, 0, 12);
			uint32_t cb = field(word(w, &in->o[0], p.reg, p.lane), p.bit, cd_bits);
			double sum = floats ? float_value(tcd, cb) : 0;
			int64_t isum = (int32_t)cb;
			for (unsigned h = 0; h < 2; h++)
				for (unsigned q = 0; q < pairs; q++)
					for (unsigned s = 0; s < 2; s++) {
						unsigned at = index[m + 16 * h] >> (4 * q + 2 * s) & 3;
						double x = a[m + 16 * h][2 * q + s], y = b[n + 16 * h][4 * q + at];
						if (floats)
							sum += x * y;
						else
							isum += (int64_t)x * (int64_t)y;
					}
			if (floats) {
				result[m][n] = float_bits(tcd, sum);
			} else {
				if (in->clamp)
					isum = isum > INT32_MAX ? INT32_MAX : isum < INT32_MIN ? INT32_MIN : isum;
				result[m][n] = (uint32_t)isum;
			}
		}
	for (unsigned m = 0; m < M; m++)
		for (unsigned n = 0; n < N; n++) {
			struct place p = output_place(tcd, m, n, 0, 12);
			uint32_t *d = &w->v[(in->o[0].reg + p.reg) & 255][p.lane];
			*d = cd_bits == 32 ? result[m][n]
			                   : (*d & ~(0xffffu << p.bit)) | result[m][n] << p.bit;
		}
}

const struct opcode emu_matrix_opcodes[] = {
	{"v_wmma_f32_16x16x16_f16", wmma, WMMA(E_F16, E_F16, E_F32, 16, GFX11 | GFX12)},
	{"v_wmma_f32_16x16x16_bf16", wmma, WMMA(E_BF16, E_BF16, E_F32, 16, GFX11 | GFX12)},
	{"v_wmma_f16_16x16x16_f16", wmma, WMMA(E_F16, E_F16, E_F16, 16, GFX11 | GFX12)},
	{"v_wmma_bf16_16x16x16_bf16", wmma, WMMA(E_BF16, E_BF16, E_BF16, 16, GFX11 | GFX12)},
	{"v_wmma_i32_16x16x16_iu8", wmma, WMMA(E_IU8, E_IU8, E_I32, 16, GFX11 | GFX12)},
	{"v_wmma_i32_16x16x16_iu4", wmma, WMMA(E_IU4, E_IU4, E_I32, 16, GFX11 | GFX12)},
	{"v_wmma_i32_16x16x32_iu4", wmma, WMMA(E_IU4, E_IU4, E_I32, 32, GFX12)},
	{"v_wmma_f32_16x16x16_fp8_fp8", wmma, WMMA(E_FP8, E_FP8, E_F32, 16, GFX12)},
	{"v_wmma_f32_16x16x16_fp8_bf8", wmma, WMMA(E_FP8, E_BF8, E_F32, 16, GFX12)},
	{"v_wmma_f32_16x16x16_bf8_fp8", wmma, WMMA(E_BF8, E_FP8, E_F32, 16, GFX12)},
	{"v_wmma_f32_16x16x16_bf8_bf8", wmma, WMMA(E_BF8, E_BF8, E_F32, 16, GFX12)},
	{"v_swmmac_f32_16x16x32_f16", swmmac, WMMA(E_F16, E_F16, E_F32, 32, GFX12)},
	{"v_swmmac_f32_16x16x32_bf16", swmmac, WMMA(E_BF16, E_BF16, E_F32, 32, GFX12)},
	{"v_swmmac_f16_16x16x32_f16", swmmac, WMMA(E_F16, E_F16, E_F16, 32, GFX12)},
	{"v_swmmac_bf16_16x16x32_bf16", swmmac, WMMA(E_BF16, E_BF16, E_BF16, 32, GFX12)},
	{"v_swmmac_i32_16x16x32_iu8", swmmac, WMMA(E_IU8, E_IU8, E_I32, 32, GFX12)},
	{"v_swmmac_i32_16x16x32_iu4", swmmac, WMMA(E_IU4, E_IU4, E_I32, 32, GFX12)},
	{"v_swmmac_i32_16x16x64_iu4", swmmac, WMMA(E_IU4, E_IU4, E_I32, 64, GFX12)},
	{"v_swmmac_f32_16x16x32_fp8_fp8", swmmac, WMMA(E_FP8, E_FP8, E_F32, 32, GFX12)},
	{"v_swmmac_f32_16x16x32_fp8_bf8", swmmac, WMMA(E_FP8, E_BF8, E_F32, 32, GFX12)},
	{"v_swmmac_f32_16x16x32_bf8_fp8", swmmac, WMMA(E_BF8, E_FP8, E_F32, 32, GFX12)},
	{"v_swmmac_f32_16x16x32_bf8_bf8", swmmac, WMMA(E_BF8, E_BF8, E_F32, 32, GFX12)},
	{NULL, NULL, 0},
};
