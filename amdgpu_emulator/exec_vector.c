/* Vector integer instructions (VOP1, VOP2, VOP3, VOP3P integer forms), compares of every
 * type, and the cross-lane ones: readlane, writelane, readfirstlane, mbcnt, permlane16 and
 * permlanex16, swap. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu.h"
#include "fp.h"

#define EACH for (int l = 0; l < LANES; l++)

enum vop32 {
	MOV, NOT, BFREV, CLZ, CTZ, CLS, ADD, SUB, SUBREV, AND, OR, XOR, XNOR, LSHL, LSHR, ASHR,
	MIN_I, MAX_I, MIN_U, MAX_U, MUL_LO, MUL_HI_U, MUL_HI_I, MUL_U24, MUL_I24, MUL_HI_U24,
	MUL_HI_I24, BCNT, BFM, ADD_I, SUB_I, BFE_U, BFE_I, BFI, ALIGNBIT, ALIGNBYTE, PERM, ADD3,
	LSHL_ADD, ADD_LSHL, LSHL_OR, AND_OR, OR3, XOR3, XAD, MAD_U24, MAD_I24, MED3_I, MED3_U,
	MIN3_I, MIN3_U, MAX3_I, MAX3_U, MINMAX_I, MINMAX_U, MAXMIN_I, MAXMIN_U, SAD_U32, DOT4_U8,
	DOT4_I8, DOT4_IU8, DOT8_U4, DOT8_I4, DOT8_IU4, MBCNT_LO, MBCNT_HI, SAD_U8, MSAD_U8, LERP_U8, DOT4C_I8,
	MAD_U32_U16, MAD_I32_I16, SAD_U16, SAD_HI_U8, DOT2_I16, DOT2_U16,
};

static int32_t i24(uint32_t x) { return (int32_t)(x << 8) >> 8; }

static uint32_t perm_byte(uint64_t data, uint32_t sel)
{
	sel &= 0xff;
	if (sel >= 13) return 0xff;
	if (sel == 12) return 0;
	if (sel >= 8) return (data >> (16 * (sel - 8) + 15) & 1) ? 0xff : 0;
	return (uint32_t)(data >> (8 * sel)) & 0xff;
}

/* As the guide's pseudo-code: the shifted source masked to the width, then a signed field
 * extended from its top bit. */
static uint32_t bfe(uint32_t x, uint32_t off, uint32_t width, bool sign)
{
	off &= 31;
	width &= 31;
	if (width == 0)
		return 0;
	uint32_t v = (sign ? (uint32_t)((int32_t)x >> off) : x >> off) & ((1u << width) - 1);
	if (sign && (v >> (width - 1) & 1))
		v |= ~0u << width;
	return v;
}

/* v_dot4 (8-bit) and v_dot8 (4-bit) products of a and b's fields, each signed or not, added
 * to c; clamp saturates the sum (unsigned when both are unsigned). */
static uint32_t dot(uint32_t a, uint32_t b, uint32_t c, unsigned bits, bool sa, bool sb, bool clamp)
{
	uint32_t mask = (1u << bits) - 1, sign = 1u << (bits - 1);
	int64_t t = (int32_t)c;
	uint64_t u = c;

	for (unsigned i = 0; i < 32 / bits; i++) {
		uint32_t fa = a >> bits * i & mask, fb = b >> bits * i & mask;
		int32_t x = sa ? (int32_t)(fa ^ sign) - (int32_t)sign : (int32_t)fa;
		int32_t y = sb ? (int32_t)(fb ^ sign) - (int32_t)sign : (int32_t)fb;
		t += (int64_t)x * y;
		u += (uint64_t)fa * fb;
	}
	if (!sa && !sb)
		return clamp && u > 0xffffffffull ? 0xffffffffu : (uint32_t)u;
	if (clamp)
		t = t > INT32_MAX ? INT32_MAX : t < INT32_MIN ? INT32_MIN : t;
	return (uint32_t)t;
}

/* v_sad_u8 (or, masked, v_msad_u8) of the four bytes of A against B's, plus C. */
static uint32_t sad_bytes(uint32_t a, uint32_t b, uint32_t c, bool masked)
{
	for (int i = 0; i < 4; i++) {
		uint32_t x = a >> 8 * i & 0xff, y = b >> 8 * i & 0xff;
		if (!masked || y)
			c += x > y ? x - y : y - x;
	}
	return c;
}

/* v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8 (four 16-bit sums packed in 64 bits) and
 * v_mqsad_u32_u8 (four 32-bit sums in 128): the byte sums of S0's four windows of four
 * bytes, from byte 0 to byte 3 of its 64 bits, against S1, each plus its part of S2. */
enum quad_sad { QSAD_PK, MQSAD_PK, MQSAD_U32 };

static void quad_sad(struct wave *w, const struct insn *in)
{
	uint64_t s0[LANES], s2[LANES], s2_high[LANES] = {0};
	uint32_t s1[LANES], mask = exec_mask(w);
	bool wide = in->op == MQSAD_U32, masked = in->op != QSAD_PK;
	vget64(w, &in->o[1], s0);
	vget32(w, &in->o[2], s1);
	vget64(w, &in->o[3], s2);
	if (wide) {
		struct operand high = in->o[3];
		high.reg = (uint16_t)(high.reg + 2);
		if (high.kind == OPND_VGPR)
			vget64(w, &high, s2_high);
	}
	EACH if (mask >> l & 1) {
		for (int k = 0; k < 4; k++) {
			uint32_t window = (uint32_t)(s0[l] >> 8 * k);
			if (wide) {
				uint32_t add = (uint32_t)((k < 2 ? s2[l] : s2_high[l]) >> 32 * (k & 1));
				w->v[(in->o[0].reg + k) & 255][l] = sad_bytes(window, s1[l], add, masked);
			} else {
				uint32_t add = (uint32_t)(s2[l] >> 16 * k & 0xffff);
				uint32_t sum = sad_bytes(window, s1[l], add, masked) & 0xffff;
				uint32_t *word = &w->v[(in->o[0].reg + k / 2) & 255][l];
				*word = k % 2 ? (*word & 0xffff) | sum << 16 : (*word & 0xffff0000u) | sum;
			}
		}
	}
}

static uint32_t med3u(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t mx = a > b ? a : b, mn = a < b ? a : b;
	return c > mx ? mx : c < mn ? mn : c;
}

static int32_t med3i(int32_t a, int32_t b, int32_t c)
{
	int32_t mx = a > b ? a : b, mn = a < b ? a : b;
	return c > mx ? mx : c < mn ? mn : c;
}

LANE_LOOPS static void vop32(struct wave *w, const struct insn *in)
{
	uint32_t spare[3][LANES], r[LANES];
	uint32_t mask = exec_mask(w);
	int n = in->nopnd;
	/* the sources are read in place (the result goes to r first): no copies */
	const uint32_t *a = vlanes32_dpp(w, in, &in->o[1], spare[0], &mask), *b = spare[1], *c = spare[2];
	if (n > 2)
		b = vlanes32(w, &in->o[2], spare[1]);
	if (n > 3)
		c = vlanes32(w, &in->o[3], spare[2]);
	if (in->op == DOT4C_I8)  /* accumulates into its destination */
		c = vlanes32(w, &in->o[0], spare[2]);
	switch ((enum vop32)in->op) {
	case MOV: EACH r[l] = a[l]; break;
	case NOT: EACH r[l] = ~a[l]; break;
	case BFREV: EACH r[l] = bit_reverse32(a[l]); break;
	case CLZ: EACH r[l] = a[l] ? (uint32_t)__builtin_clz(a[l]) : ~0u; break;
	case CTZ: EACH r[l] = a[l] ? (uint32_t)__builtin_ctz(a[l]) : ~0u; break;
	case CLS: EACH {
		uint32_t x = a[l];
		r[l] = x == 0 || x == ~0u ? ~0u : (uint32_t)__builtin_clz((x >> 31) ? ~x : x);
	} break;
	case ADD: EACH {
		uint64_t t = (uint64_t)a[l] + b[l];
		r[l] = in->clamp && t > 0xffffffffu ? 0xffffffffu : (uint32_t)t;
	} break;
	case SUB: EACH r[l] = in->clamp && b[l] > a[l] ? 0 : a[l] - b[l]; break;
	case SUBREV: EACH r[l] = in->clamp && a[l] > b[l] ? 0 : b[l] - a[l]; break;
	case ADD_I: case SUB_I: EACH {
		int64_t t = in->op == ADD_I ? (int64_t)(int32_t)a[l] + (int32_t)b[l]
		                            : (int64_t)(int32_t)a[l] - (int32_t)b[l];
		if (in->clamp)
			t = t > INT32_MAX ? INT32_MAX : t < INT32_MIN ? INT32_MIN : t;
		r[l] = (uint32_t)t;
	} break;
	case AND: EACH r[l] = a[l] & b[l]; break;
	case OR: EACH r[l] = a[l] | b[l]; break;
	case XOR: EACH r[l] = a[l] ^ b[l]; break;
	case XNOR: EACH r[l] = ~(a[l] ^ b[l]); break;
	/* the "rev" shifts: the first source is the shift count */
	case LSHL: EACH r[l] = b[l] << (a[l] & 31); break;
	case LSHR: EACH r[l] = b[l] >> (a[l] & 31); break;
	case ASHR: EACH r[l] = (uint32_t)((int32_t)b[l] >> (a[l] & 31)); break;
	case MIN_I: EACH r[l] = (int32_t)a[l] < (int32_t)b[l] ? a[l] : b[l]; break;
	case MAX_I: EACH r[l] = (int32_t)a[l] > (int32_t)b[l] ? a[l] : b[l]; break;
	case MIN_U: EACH r[l] = a[l] < b[l] ? a[l] : b[l]; break;
	case MAX_U: EACH r[l] = a[l] > b[l] ? a[l] : b[l]; break;
	case MUL_LO: EACH r[l] = a[l] * b[l]; break;
	case MUL_HI_U: EACH r[l] = (uint32_t)((uint64_t)a[l] * b[l] >> 32); break;
	case MUL_HI_I: EACH r[l] = (uint32_t)((uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]) >> 32); break;
	case MUL_U24: EACH r[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff); break;
	case MUL_I24: EACH r[l] = (uint32_t)((int64_t)i24(a[l]) * i24(b[l])); break;
	case MUL_HI_U24: EACH r[l] = (uint32_t)((uint64_t)(a[l] & 0xffffff) * (b[l] & 0xffffff) >> 32); break;
	case MUL_HI_I24: EACH r[l] = (uint32_t)((uint64_t)((int64_t)i24(a[l]) * i24(b[l])) >> 32); break;
	case MAD_U24: EACH r[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff) + c[l]; break;
	case MAD_I24: EACH r[l] = (uint32_t)((int64_t)i24(a[l]) * i24(b[l]) + (int32_t)c[l]); break;
	case BCNT: EACH r[l] = (uint32_t)__builtin_popcount(a[l]) + b[l]; break;
	case BFM: EACH r[l] = ((1u << (a[l] & 31)) - 1) << (b[l] & 31); break;
	case BFE_U: EACH r[l] = bfe(a[l], b[l], c[l], false); break;
	case BFE_I: EACH r[l] = bfe(a[l], b[l], c[l], true); break;
	case BFI: EACH r[l] = (a[l] & b[l]) | (~a[l] & c[l]); break;
	case ALIGNBIT: EACH r[l] = (uint32_t)(((uint64_t)a[l] << 32 | b[l]) >> (c[l] & 31)); break;
	case ALIGNBYTE: EACH r[l] = (uint32_t)(((uint64_t)a[l] << 32 | b[l]) >> (8 * (c[l] & 3))); break;
	case PERM: EACH {
		uint64_t data = (uint64_t)a[l] << 32 | b[l];
		r[l] = perm_byte(data, c[l]) | perm_byte(data, c[l] >> 8) << 8 |
		       perm_byte(data, c[l] >> 16) << 16 | perm_byte(data, c[l] >> 24) << 24;
	} break;
	case ADD3: EACH r[l] = a[l] + b[l] + c[l]; break;
	case LSHL_ADD: EACH r[l] = (a[l] << (b[l] & 31)) + c[l]; break;
	case ADD_LSHL: EACH r[l] = (a[l] + b[l]) << (c[l] & 31); break;
	case LSHL_OR: EACH r[l] = (a[l] << (b[l] & 31)) | c[l]; break;
	case AND_OR: EACH r[l] = (a[l] & b[l]) | c[l]; break;
	case OR3: EACH r[l] = a[l] | b[l] | c[l]; break;
	case XOR3: EACH r[l] = a[l] ^ b[l] ^ c[l]; break;
	case XAD: EACH r[l] = (a[l] ^ b[l]) + c[l]; break;
	case MED3_I: EACH r[l] = (uint32_t)med3i((int32_t)a[l], (int32_t)b[l], (int32_t)c[l]); break;
	case MED3_U: EACH r[l] = med3u(a[l], b[l], c[l]); break;
	case MIN3_I: EACH { int32_t x = (int32_t)a[l] < (int32_t)b[l] ? (int32_t)a[l] : (int32_t)b[l];
		r[l] = (uint32_t)(x < (int32_t)c[l] ? x : (int32_t)c[l]); } break;
	case MAX3_I: EACH { int32_t x = (int32_t)a[l] > (int32_t)b[l] ? (int32_t)a[l] : (int32_t)b[l];
		r[l] = (uint32_t)(x > (int32_t)c[l] ? x : (int32_t)c[l]); } break;
	case MIN3_U: EACH { uint32_t x = a[l] < b[l] ? a[l] : b[l]; r[l] = x < c[l] ? x : c[l]; } break;
	case MAX3_U: EACH { uint32_t x = a[l] > b[l] ? a[l] : b[l]; r[l] = x > c[l] ? x : c[l]; } break;
	case MINMAX_I: EACH { int32_t x = (int32_t)a[l] < (int32_t)b[l] ? (int32_t)a[l] : (int32_t)b[l];
		r[l] = (uint32_t)(x > (int32_t)c[l] ? x : (int32_t)c[l]); } break;
	case MAXMIN_I: EACH { int32_t x = (int32_t)a[l] > (int32_t)b[l] ? (int32_t)a[l] : (int32_t)b[l];
		r[l] = (uint32_t)(x < (int32_t)c[l] ? x : (int32_t)c[l]); } break;
	case MINMAX_U: EACH { uint32_t x = a[l] < b[l] ? a[l] : b[l]; r[l] = x > c[l] ? x : c[l]; } break;
	case MAXMIN_U: EACH { uint32_t x = a[l] > b[l] ? a[l] : b[l]; r[l] = x < c[l] ? x : c[l]; } break;
	case SAD_U32: EACH r[l] = (a[l] > b[l] ? a[l] - b[l] : b[l] - a[l]) + c[l]; break;
	case MAD_U32_U16: EACH r[l] = (a[l] & 0xffff) * (b[l] & 0xffff) + c[l]; break;
	case MAD_I32_I16: EACH r[l] = (uint32_t)((int16_t)a[l] * (int16_t)b[l] + (int32_t)c[l]); break;
	case SAD_U16: EACH {
		uint32_t t = c[l];
		for (int i = 0; i < 2; i++) {
			uint32_t x = a[l] >> 16 * i & 0xffff, y = b[l] >> 16 * i & 0xffff;
			t += x > y ? x - y : y - x;
		}
		r[l] = t;
	} break;
	case SAD_U8: EACH r[l] = sad_bytes(a[l], b[l], c[l], false); break;
	case MSAD_U8: EACH r[l] = sad_bytes(a[l], b[l], c[l], true); break;
	/* the byte differences' sum (without S2) in the high half, plus S2 */
	case SAD_HI_U8: EACH r[l] = (sad_bytes(a[l], b[l], 0, false) << 16) + c[l]; break;
	case LERP_U8: EACH {
		uint32_t t = 0;
		for (int i = 0; i < 4; i++)
			t |= (((a[l] >> 8 * i & 0xff) + (b[l] >> 8 * i & 0xff) + (c[l] >> 8 * i & 1)) >> 1) << 8 * i;
		r[l] = t;
	} break;
	case DOT4_U8: EACH r[l] = dot(a[l], b[l], c[l], 8, false, false, in->clamp); break;
	case DOT4_I8: case DOT4C_I8: EACH r[l] = dot(a[l], b[l], c[l], 8, true, true, in->clamp); break;
	case DOT4_IU8: EACH r[l] = dot(a[l], b[l], c[l], 8, in->neg_lo & 1, in->neg_lo >> 1 & 1, in->clamp); break;
	case DOT2_U16: EACH r[l] = dot(a[l], b[l], c[l], 16, false, false, in->clamp); break;
	case DOT2_I16: EACH r[l] = dot(a[l], b[l], c[l], 16, true, true, in->clamp); break;
	case DOT8_U4: EACH r[l] = dot(a[l], b[l], c[l], 4, false, false, in->clamp); break;
	case DOT8_I4: EACH r[l] = dot(a[l], b[l], c[l], 4, true, true, in->clamp); break;
	case DOT8_IU4: EACH r[l] = dot(a[l], b[l], c[l], 4, in->neg_lo & 1, in->neg_lo >> 1 & 1, in->clamp); break;
	case MBCNT_LO: EACH r[l] = (uint32_t)__builtin_popcount(a[l] & ((1u << l) - 1)) + b[l]; break;
	case MBCNT_HI: EACH r[l] = b[l]; break;
	}
	vset32(w, &in->o[0], r, mask);
}

/* v_cndmask_b32: dst, src0, src1, lane mask (vcc when not named, as in VOPD). */
LANE_LOOPS static void cndmask(struct wave *w, const struct insn *in)
{
	uint32_t a[LANES], b[LANES], r[LANES];
	uint32_t sel = in->nopnd > 3 ? mask_get(w, &in->o[3]) : w->s[SREG_VCC_LO];
	uint32_t mask = exec_mask(w);
	vget32_dpp(w, in, &in->o[1], a, &mask);
	vget32(w, &in->o[2], b);
	uint32_t am = (in->o[1].abs ? 0x7fffffffu : ~0u), an = in->o[1].neg ? 0x80000000u : 0;
	uint32_t bm = (in->o[2].abs ? 0x7fffffffu : ~0u), bn = in->o[2].neg ? 0x80000000u : 0;
	EACH r[l] = (sel >> l & 1) ? (b[l] & bm) ^ bn : (a[l] & am) ^ an;
	vset32(w, &in->o[0], r, mask);
}

/* 16-bit integer operations; op_sel picks halves of the sources and the destination. */
enum vop16 { ADD16, SUB16, SUBREV16, MUL16, AND16, OR16, XOR16, NOT16, LSHL16, LSHR16, ASHR16,
             MIN_U16, MAX_U16, MIN_I16, MAX_I16, MOV16, CND16, ADD_I16, SUB_I16, MAD_U16, MAD_I16,
             MED3_U16, MED3_I16, MIN3_U16, MIN3_I16, MAX3_U16, MAX3_I16, SAT_PK_U8 };

static uint16_t saturate_u8(int16_t x) { return x <= 0 ? 0 : x >= 0xff ? 0xff : (uint16_t)x; }

void emu_write16(struct wave *w, const struct insn *in, const uint16_t r[LANES], uint32_t mask)
{
	const struct operand *d = &in->o[0];
	if (w->object->generation < 11 && !(in->op_sel >> 3 & 1) && d->kind == OPND_VGPR) {
		/* gfx10's 16-bit results clear the high half */
		uint32_t wide[LANES];
		EACH wide[l] = r[l];
		vset32(w, d, wide, mask);
		return;
	}
	vset16(w, d, in->op_sel >> 3 & 1, r, mask);
}

static void vop16(struct wave *w, const struct insn *in)
{
	uint16_t a[LANES], b[LANES], c[LANES], r[LANES];
	uint32_t mask = exec_mask(w);
	int n = in->nopnd;
	vget16(w, &in->o[1], in->op_sel & 1, a);
	if (n > 2)
		vget16(w, &in->o[2], in->op_sel >> 1 & 1, b);
	if (n > 3)
		vget16(w, &in->o[3], in->op_sel >> 2 & 1, c);
	switch ((enum vop16)in->op) {
	case ADD16: EACH { uint32_t t = (uint32_t)a[l] + b[l]; r[l] = in->clamp && t > 0xffff ? 0xffff : (uint16_t)t; } break;
	case SUB16: EACH r[l] = in->clamp && b[l] > a[l] ? 0 : (uint16_t)(a[l] - b[l]); break;
	case SUBREV16: EACH r[l] = in->clamp && a[l] > b[l] ? 0 : (uint16_t)(b[l] - a[l]); break;
	case ADD_I16: case SUB_I16: EACH {
		int32_t t = in->op == ADD_I16 ? (int16_t)a[l] + (int16_t)b[l] : (int16_t)a[l] - (int16_t)b[l];
		if (in->clamp)
			t = t > 32767 ? 32767 : t < -32768 ? -32768 : t;
		r[l] = (uint16_t)t;
	} break;
	case MUL16: EACH r[l] = (uint16_t)(a[l] * b[l]); break;
	/* clamp saturates the whole product-sum to the result's range */
	case MAD_U16: EACH {
		uint32_t t = (uint32_t)a[l] * b[l] + c[l];
		r[l] = in->clamp && t > 0xffff ? 0xffff : (uint16_t)t;
	} break;
	case MAD_I16: EACH {
		int32_t t = (int16_t)a[l] * (int16_t)b[l] + (int16_t)c[l];
		if (in->clamp)
			t = t > 32767 ? 32767 : t < -32768 ? -32768 : t;
		r[l] = (uint16_t)t;
	} break;
	case AND16: EACH r[l] = a[l] & b[l]; break;
	case OR16: EACH r[l] = a[l] | b[l]; break;
	case XOR16: EACH r[l] = a[l] ^ b[l]; break;
	case NOT16: EACH r[l] = (uint16_t)~a[l]; break;
	case LSHL16: EACH r[l] = (uint16_t)(b[l] << (a[l] & 15)); break;
	case LSHR16: EACH r[l] = (uint16_t)(b[l] >> (a[l] & 15)); break;
	case ASHR16: EACH r[l] = (uint16_t)((int16_t)b[l] >> (a[l] & 15)); break;
	case MIN_U16: EACH r[l] = a[l] < b[l] ? a[l] : b[l]; break;
	case MAX_U16: EACH r[l] = a[l] > b[l] ? a[l] : b[l]; break;
	case MIN_I16: EACH r[l] = (int16_t)a[l] < (int16_t)b[l] ? a[l] : b[l]; break;
	case MAX_I16: EACH r[l] = (int16_t)a[l] > (int16_t)b[l] ? a[l] : b[l]; break;
	case MOV16: EACH r[l] = a[l]; break;
	/* both halves of the 32-bit source, each saturated to a byte */
	case SAT_PK_U8: {
		uint32_t wide[LANES];
		vget32(w, &in->o[1], wide);
		EACH r[l] = (uint16_t)(saturate_u8((int16_t)wide[l]) | saturate_u8((int16_t)(wide[l] >> 16)) << 8);
	} break;
	case MED3_U16: EACH r[l] = (uint16_t)med3u(a[l], b[l], c[l]); break;
	case MED3_I16: EACH r[l] = (uint16_t)med3i((int16_t)a[l], (int16_t)b[l], (int16_t)c[l]); break;
	case MIN3_U16: EACH { uint16_t x = a[l] < b[l] ? a[l] : b[l]; r[l] = x < c[l] ? x : c[l]; } break;
	case MAX3_U16: EACH { uint16_t x = a[l] > b[l] ? a[l] : b[l]; r[l] = x > c[l] ? x : c[l]; } break;
	case MIN3_I16: EACH { int16_t x = (int16_t)a[l] < (int16_t)b[l] ? (int16_t)a[l] : (int16_t)b[l];
		r[l] = (uint16_t)(x < (int16_t)c[l] ? x : (int16_t)c[l]); } break;
	case MAX3_I16: EACH { int16_t x = (int16_t)a[l] > (int16_t)b[l] ? (int16_t)a[l] : (int16_t)b[l];
		r[l] = (uint16_t)(x > (int16_t)c[l] ? x : (int16_t)c[l]); } break;
	case CND16: {
		uint32_t sel = n > 3 ? mask_get(w, &in->o[3]) : w->s[SREG_VCC_LO];
		uint16_t am = in->o[1].abs ? 0x7fff : 0xffff, an = in->o[1].neg ? 0x8000 : 0;
		uint16_t bm = in->o[2].abs ? 0x7fff : 0xffff, bn = in->o[2].neg ? 0x8000 : 0;
		EACH r[l] = (sel >> l & 1) ? (uint16_t)((b[l] & bm) ^ bn) : (uint16_t)((a[l] & am) ^ an);
	} break;
	}
	emu_write16(w, in, r, mask);
}

/* Carry chains: v_add_co_u32 dst, carry-out, a, b [, carry-in]. */
enum carry { ADD_CO, SUB_CO, SUBREV_CO, ADD_CO_CI, SUB_CO_CI, SUBREV_CO_CI };

LANE_LOOPS static void vop_carry(struct wave *w, const struct insn *in)
{
	uint32_t spare[2][LANES], r[LANES], mask = exec_mask(w), out = 0;
	uint32_t cin = in->nopnd > 4 ? mask_get(w, &in->o[4]) : 0;
	const uint32_t *a = vlanes32_dpp(w, in, &in->o[2], spare[0], &mask);
	const uint32_t *b = vlanes32(w, &in->o[3], spare[1]);
	uint32_t carry[LANES];
	bool adds = in->op == ADD_CO || in->op == ADD_CO_CI;
	/* The lane loops are kept free of the choice, and in 32 bits, so that they vectorize
	 * densely: the carry of x + y + c is whether either addition wrapped, the borrow of
	 * x - y - c whether y exceeds x or x - y is below c. Forms without a carry-in have
	 * cin 0. */
#define ADD(x, y) EACH { uint32_t c = cin >> l & 1, s = x[l] + y[l]; \
                         r[l] = s + c; carry[l] = (s < x[l]) | (r[l] < s); }
#define SUB(x, y) EACH { uint32_t c = cin >> l & 1, d = x[l] - y[l]; \
                         r[l] = d - c; carry[l] = (y[l] > x[l]) | (d < c); }
	switch ((enum carry)in->op) {
	case ADD_CO: case ADD_CO_CI: ADD(a, b); break;
	case SUB_CO: case SUB_CO_CI: SUB(a, b); break;
	case SUBREV_CO: case SUBREV_CO_CI: SUB(b, a); break;
	}
#undef ADD
#undef SUB
	EACH {
		out |= carry[l] << l;
		r[l] = in->clamp && carry[l] ? (adds ? 0xffffffffu : 0) : r[l];
	}
	out &= mask;
	vset32(w, &in->o[0], r, mask);
	mask_set(w, &in->o[1], out);
}

/* v_mad_u64_u32 / v_mad_i64_i32: dst64, carry-out, a32, b32, c64. */
LANE_LOOPS static void vop_mad64(struct wave *w, const struct insn *in)
{
	uint32_t spare[2][LANES], mask = exec_mask(w), out = 0;
	uint64_t c[LANES], r[LANES], carry[LANES];
	const uint32_t *a = vlanes32(w, &in->o[2], spare[0]), *b = vlanes32(w, &in->o[3], spare[1]);
	vget64(w, &in->o[4], c);
	/* Loops without a branch or 128-bit arithmetic, so that they vectorize: the product fits
	 * 64 bits; D1 is the unsigned sum's carry, or bit 64 of the 65-bit signed sum (as the
	 * pseudo-code has it), its sign: the wrapped sum's, flipped where the addition
	 * overflowed. */
	if (in->op) {
		EACH {
			uint64_t p = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]);
			r[l] = p + c[l];
			carry[l] = (r[l] ^ (((p ^ r[l]) & (c[l] ^ r[l])))) >> 63;
		}
	} else {
		EACH {
			r[l] = (uint64_t)a[l] * b[l] + c[l];
			carry[l] = r[l] < c[l];
		}
	}
	EACH out |= (uint32_t)carry[l] << l;
	out &= mask;
	vset64(w, &in->o[0], r, mask);
	mask_set(w, &in->o[1], out);
}

enum vop64 { LSHL64, LSHR64, ASHR64, MOV64 };

LANE_LOOPS static void vop64(struct wave *w, const struct insn *in)
{
	uint32_t s[LANES];
	uint64_t v[LANES], r[LANES];
	if (in->op == MOV64) {
		vget64(w, &in->o[1], v);
		vset64(w, &in->o[0], v, exec_mask(w));
		return;
	}
	vget32(w, &in->o[1], s);
	vget64(w, &in->o[2], v);
	switch ((enum vop64)in->op) {
	case LSHL64: EACH r[l] = v[l] << (s[l] & 63); break;
	case LSHR64: EACH r[l] = v[l] >> (s[l] & 63); break;
	default: EACH r[l] = (uint64_t)((int64_t)v[l] >> (s[l] & 63)); break;
	}
	vset64(w, &in->o[0], r, exec_mask(w));
}

enum lane { READLANE, READFIRSTLANE, WRITELANE, MOVRELS, MOVRELD, MOVRELSD, PERMLANE16,
            PERMLANEX16, SWAP, MOVRELSD_2, SWAPREL, PERMLANE64, PERMLANE16_VAR, PERMLANEX16_VAR,
            SWAP16 };

/* The VGPR a v_movrel* operand names, moved by OFFSET (M0 or a field of it): v[reg + OFFSET];
 * false (and a fault) past the 256 registers. */
static bool relative_vgpr_by(struct wave *w, const struct insn *in, const struct operand *o,
                             uint32_t offset, uint32_t *index)
{
	*index = o->reg + offset;
	if (o->kind == OPND_VGPR && *index < 256)
		return true;
	emu_fault(w, in, "relative VGPR index %u (M0 %u) is outside the 256 registers", *index, w->s[SREG_M0]);
	return false;
}

static bool relative_vgpr(struct wave *w, const struct insn *in, const struct operand *o, uint32_t *index)
{
	return relative_vgpr_by(w, in, o, w->s[SREG_M0], index);
}

/* v_movrelsd_2 and v_swaprel: the source moved by M0[9:0], the destination by M0[25:16]. */
static bool relative_pair(struct wave *w, const struct insn *in, uint32_t *d, uint32_t *s)
{
	uint32_t m0 = w->s[SREG_M0];
	return relative_vgpr_by(w, in, &in->o[1], m0 & 0x3ff, s) &&
	       relative_vgpr_by(w, in, &in->o[0], m0 >> 16 & 0x3ff, d);
}

static void lane_ops(struct wave *w, const struct insn *in)
{
	switch ((enum lane)in->op) {
	case READLANE: {
		uint32_t lane = sget32(w, &in->o[2]) & 31;
		const struct operand *v = &in->o[1];
		sset32(w, &in->o[0], v->kind == OPND_VGPR ? w->v[v->reg][lane] : sget32(w, v));
		return;
	}
	case READFIRSTLANE: {
		uint32_t e = exec_mask(w), lane = e ? (uint32_t)__builtin_ctz(e) : 0;
		const struct operand *v = &in->o[1];
		sset32(w, &in->o[0], v->kind == OPND_VGPR ? w->v[v->reg][lane] : sget32(w, v));
		return;
	}
	case WRITELANE: {
		uint32_t lane = sget32(w, &in->o[2]) & 31;
		if (in->o[0].kind == OPND_VGPR)
			w->v[in->o[0].reg][lane] = sget32(w, &in->o[1]);
		return;
	}
	/* v_movrels reads v[src + M0], v_movreld writes v[dst + M0], v_movrelsd both */
	case MOVRELS:
	case MOVRELD:
	case MOVRELSD: {
		uint32_t value[LANES], mask = exec_mask(w), d = in->o[0].reg, s;
		if ((enum lane)in->op == MOVRELD) {
			vget32(w, &in->o[1], value);
		} else {
			if (!relative_vgpr(w, in, &in->o[1], &s))
				return;
			for (unsigned l = 0; l < LANES; l++)
				value[l] = w->v[s][l];
		}
		if ((enum lane)in->op != MOVRELS && !relative_vgpr(w, in, &in->o[0], &d))
			return;
		for (unsigned l = 0; l < LANES; l++)
			if (mask >> l & 1)
				w->v[d][l] = value[l];
		return;
	}
	/* Each lane of a row of 16 takes the lane its 4-bit field of {S2, S1} names, of its own
	 * row or (x16) of the other; the source read whole first. op_sel's fetch-inactive and
	 * bound-control bits, which change what inactive sources give, are not emulated. */
	case PERMLANE16:
	case PERMLANEX16: {
		if (in->op_sel & 3) {
			emu_not_emulated(w, in);
			return;
		}
		uint32_t src[LANES], mask = exec_mask(w);
		uint64_t select = (uint64_t)sget32(w, &in->o[3]) << 32 | sget32(w, &in->o[2]);
		vget32(w, &in->o[1], src);
		for (unsigned l = 0; l < LANES; l++) {
			unsigned row = l / 16 ^ ((enum lane)in->op == PERMLANEX16);
			if (mask >> l & 1)
				w->v[in->o[0].reg][l] = src[row * 16 + (select >> (l % 16 * 4) & 15)];
		}
		return;
	}
	case MOVRELSD_2: {
		uint32_t mask = exec_mask(w), d, s;
		if (!relative_pair(w, in, &d, &s))
			return;
		for (unsigned l = 0; l < LANES; l++)
			if (mask >> l & 1)
				w->v[d][l] = w->v[s][l];
		return;
	}
	/* each lane of a row takes the lane its own S1[3:0] names, of its row or (x16) the other */
	case PERMLANE16_VAR:
	case PERMLANEX16_VAR: {
		if (in->op_sel & 3) {
			emu_not_emulated(w, in);
			return;
		}
		uint32_t src[LANES], select[LANES], mask = exec_mask(w);
		vget32(w, &in->o[1], src);
		vget32(w, &in->o[2], select);
		for (unsigned l = 0; l < LANES; l++) {
			unsigned row = l / 16 ^ ((enum lane)in->op == PERMLANEX16_VAR);
			if (mask >> l & 1)
				w->v[in->o[0].reg][l] = src[row * 16 + (select[l] & 15)];
		}
		return;
	}
	/* wave64 only: a NOP in wave32 */
	case PERMLANE64:
		return;
	case SWAP:
	case SWAPREL: {
		uint32_t mask = exec_mask(w), d = in->o[0].reg, s = in->o[1].reg;
		if ((enum lane)in->op == SWAPREL && !relative_pair(w, in, &d, &s))
			return;
		for (unsigned l = 0; l < LANES; l++) {
			if (!(mask >> l & 1))
				continue;
			uint32_t t = w->v[d][l];
			w->v[d][l] = w->v[s][l];
			w->v[s][l] = t;
		}
		return;
	}
	case SWAP16: {
		/* gfx11's true-16 v_swap_b16: the halves named (.l or .h), the other halves kept */
		uint32_t mask = exec_mask(w);
		unsigned ds = in->o[0].half ? 16 : 0, ss = in->o[1].half ? 16 : 0;
		uint32_t *d = w->v[in->o[0].reg], *s = w->v[in->o[1].reg];
		for (unsigned l = 0; l < LANES; l++) {
			if (!(mask >> l & 1))
				continue;
			uint32_t dh = d[l] >> ds & 0xffff, sh = s[l] >> ss & 0xffff;
			d[l] = (d[l] & ~(0xffffu << ds)) | sh << ds;
			s[l] = (s[l] & ~(0xffffu << ss)) | dh << ss;
		}
		return;
	}
	}
}

/* Compares: the selector packs the condition, the type and whether EXEC is written. */
enum cmp_type { T_I16, T_U16, T_I32, T_U32, T_I64, T_U64, T_F16, T_F32, T_F64 };

static bool int_cond(unsigned c, int cmp)
{
	switch (c) {
	case C_F: return false;
	case C_LT: return cmp < 0;
	case C_EQ: return cmp == 0;
	case C_LE: return cmp <= 0;
	case C_GT: return cmp > 0;
	case C_NE: case C_LG: return cmp != 0;
	case C_GE: return cmp >= 0;
	case C_T: return true;
	default: return false;
	}
}

static unsigned class_of(double x, bool is_signaling)
{
	if (isnan(x))
		return is_signaling ? 1u << 0 : 1u << 1;
	bool neg = signbit(x);
	if (isinf(x))
		return neg ? 1u << 2 : 1u << 9;
	if (x == 0)
		return neg ? 1u << 5 : 1u << 6;
	return 0;  /* normal or subnormal: decided by the caller, which knows the width */
}

LANE_LOOPS static void compare(struct wave *w, const struct insn *in)
{
	unsigned c = in->op & 0xff, type = in->op >> 8 & 0xff;
	bool x_form = in->op >> 16 & 1;
	/* e32 and e64 forms of v_cmp name a destination; v_cmpx names none. */
	int first = in->nopnd >= 3 ? 1 : 0;
	const struct operand *pa = &in->o[first], *pb = &in->o[first + 1];
	uint32_t e = exec_mask(w), result = 0;
	uint64_t A[LANES], B[LANES];
	uint32_t a32[LANES], b32[LANES];
	uint16_t a16[LANES], b16[LANES];
	bool flush32 = (w->mode >> 4 & 3) == 0, flush64 = (w->mode >> 6 & 3) == 0;

	switch (type) {
	case T_I64: case T_U64: case T_F64:
		if (type == T_F64)
			vget64f(w, pa, A);
		else
			vget64(w, pa, A);
		if (c == C_CLASS)
			vget32(w, pb, b32);
		else if (type == T_F64)
			vget64f(w, pb, B);
		else
			vget64(w, pb, B);
		break;
	case T_I16: case T_U16: case T_F16:
		vget16(w, pa, in->op_sel & 1, a16);
		if (c == C_CLASS)
			vget32(w, pb, b32);
		else
			vget16(w, pb, in->op_sel >> 1 & 1, b16);
		break;
	default:
		vget32_dpp(w, in, pa, a32, &e);
		vget32(w, pb, b32);
	}
	if (type == T_I32 || type == T_U32) {
		/* The common compares, one loop per condition so that each vectorizes. */
		bool s = type == T_I32;
#define CMP32(test) EACH result |= (uint32_t)(s ? (int32_t)a32[l] test (int32_t)b32[l] \
                                            : a32[l] test b32[l]) << l
		switch (c) {
		case C_LT: CMP32(<); break;
		case C_EQ: CMP32(==); break;
		case C_LE: CMP32(<=); break;
		case C_GT: CMP32(>); break;
		case C_NE: case C_LG: CMP32(!=); break;
		case C_GE: CMP32(>=); break;
		case C_T: result = ~0u; break;
		default: break;
		}
#undef CMP32
		result &= e;
		goto done;
	}
	if (type == T_F32 && c != C_CLASS) {
		float x[LANES], y[LANES];
		emu_f32_lanes(a32, pa, flush32, x);
		emu_f32_lanes(b32, pb, flush32, y);
		/* a loop per condition, with the condition a constant in it, so that each vectorizes */
#define CMPF(cond) case cond: EACH result |= (uint32_t)emu_float_condition(cond, x[l], y[l]) << l; break
		switch (c) {
		CMPF(C_F); CMPF(C_LT); CMPF(C_EQ); CMPF(C_LE); CMPF(C_GT); CMPF(C_NE); CMPF(C_GE);
		CMPF(C_O); CMPF(C_U); CMPF(C_NGE); CMPF(C_NLG); CMPF(C_NGT); CMPF(C_NLE); CMPF(C_NEQ);
		CMPF(C_NLT); CMPF(C_T); CMPF(C_LG);
		default: break;
		}
#undef CMPF
		result &= e;
		goto done;
	}
	EACH {
		if (!(e >> l & 1))
			continue;
		bool r;
		switch (type) {
		case T_I16: r = int_cond(c, ((int16_t)a16[l] > (int16_t)b16[l]) - ((int16_t)a16[l] < (int16_t)b16[l])); break;
		case T_U16: r = int_cond(c, (a16[l] > b16[l]) - (a16[l] < b16[l])); break;
		case T_I32: r = int_cond(c, ((int32_t)a32[l] > (int32_t)b32[l]) - ((int32_t)a32[l] < (int32_t)b32[l])); break;
		case T_U32: r = int_cond(c, (a32[l] > b32[l]) - (a32[l] < b32[l])); break;
		case T_I64: r = int_cond(c, ((int64_t)A[l] > (int64_t)B[l]) - ((int64_t)A[l] < (int64_t)B[l])); break;
		case T_U64: r = int_cond(c, (A[l] > B[l]) - (A[l] < B[l])); break;
		case T_F16: {
			uint16_t ha = emu_f16_mods(a16[l], pa), hb = emu_f16_mods(b16[l], pb);
			double x = emu_f16_to_double(ha, false);
			if (c == C_CLASS) {
				unsigned k = class_of(x, (ha & 0x7e00) == 0x7c00 && (ha & 0x3ff));
				if (!k)
					k = (ha & 0x7c00) ? (ha >> 15 ? 1u << 3 : 1u << 8) : (ha >> 15 ? 1u << 4 : 1u << 7);
				r = (b32[l] & k) != 0;
			} else {
				r = emu_float_condition(c, x, emu_f16_to_double(hb, false));
			}
			break;
		}
		case T_F32: {
			uint32_t fa = emu_f32_mods(a32[l], pa), fb = emu_f32_mods(b32[l], pb);
			if (c == C_CLASS) {
				float x;
				memcpy(&x, &fa, 4);
				unsigned k = class_of(x, isnan(x) && !(fa >> 22 & 1));
				if (!k)
					k = (fa & 0x7f800000u) ? (fa >> 31 ? 1u << 3 : 1u << 8) : (fa >> 31 ? 1u << 4 : 1u << 7);
				r = (b32[l] & k) != 0;
			} else {
				r = emu_float_condition(c, emu_f32_in(fa, flush32), emu_f32_in(fb, flush32));
			}
			break;
		}
		default: {
			uint64_t da = emu_f64_mods(A[l], pa);
			if (c == C_CLASS) {
				double x;
				memcpy(&x, &da, 8);
				unsigned k = class_of(x, isnan(x) && !(da >> 51 & 1));
				if (!k)
					k = (da & 0x7ff0000000000000ull) ? (da >> 63 ? 1u << 3 : 1u << 8)
					                                 : (da >> 63 ? 1u << 4 : 1u << 7);
				r = (b32[l] & k) != 0;
			} else {
				r = emu_float_condition(c, emu_f64_in(da, flush64), emu_f64_in(emu_f64_mods(B[l], pb), flush64));
			}
			break;
		}
		}
		if (r)
			result |= 1u << l;
	}
done:
	if (x_form) {
		w->s[SREG_EXEC_LO] = result;
		if (first)
			mask_set(w, &in->o[0], result);
	} else if (first) {
		mask_set(w, &in->o[0], result);
	} else {
		w->s[SREG_VCC_LO] = result;
	}
}

bool emu_compare_opcode(const char *name, struct opcode *out)
{
	static const char *const conds[] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "o", "u", "nge",
	                                    "nlg", "ngt", "nle", "neq", "nlt", "t", "lg", "class"};
	static const char *const types[] = {"i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64"};
	const char *p;
	bool x;
	if (strncmp(name, "v_cmpx_", 7) == 0) {
		p = name + 7;
		x = true;
	} else if (strncmp(name, "v_cmp_", 6) == 0) {
		p = name + 6;
		x = false;
	} else {
		return false;
	}
	const char *us = strchr(p, '_');
	if (!us)
		return false;
	size_t n = (size_t)(us - p);
	for (unsigned c = 0; c < sizeof conds / sizeof conds[0]; c++) {
		if (strlen(conds[c]) != n || strncmp(p, conds[c], n) != 0)
			continue;
		for (unsigned t = 0; t < sizeof types / sizeof types[0]; t++)
			if (strcmp(us + 1, types[t]) == 0) {
				unsigned cc = c == C_NE && t >= T_F16 ? C_NE : c;
				if (strcmp(conds[c], "tru") == 0)
					cc = C_T;
				out->name = name;
				out->exec = compare;
				out->op = cc | t << 8 | (unsigned)x << 16;
				return true;
			}
	}
	if (strncmp(p, "tru_", 4) == 0) {
		for (unsigned t = 0; t < sizeof types / sizeof types[0]; t++)
			if (strcmp(p + 4, types[t]) == 0) {
				out->name = name;
				out->exec = compare;
				out->op = C_T | t << 8 | (unsigned)x << 16;
				return true;
			}
	}
	return false;
}

const struct opcode emu_vector_opcodes[] = {
	{"v_mov_b32", vop32, MOV}, {"v_not_b32", vop32, NOT}, {"v_bfrev_b32", vop32, BFREV},
	{"v_clz_i32_u32", vop32, CLZ}, {"v_ctz_i32_b32", vop32, CTZ}, {"v_cls_i32", vop32, CLS},
	{"v_add_nc_u32", vop32, ADD}, {"v_add_u32", vop32, ADD}, {"v_sub_nc_u32", vop32, SUB},
	{"v_subrev_nc_u32", vop32, SUBREV}, {"v_add_nc_i32", vop32, ADD_I},
	{"v_sub_nc_i32", vop32, SUB_I}, {"v_and_b32", vop32, AND}, {"v_or_b32", vop32, OR},
	{"v_xor_b32", vop32, XOR}, {"v_xnor_b32", vop32, XNOR}, {"v_lshlrev_b32", vop32, LSHL},
	{"v_lshrrev_b32", vop32, LSHR}, {"v_ashrrev_i32", vop32, ASHR},
	{"v_min_i32", vop32, MIN_I}, {"v_max_i32", vop32, MAX_I}, {"v_min_u32", vop32, MIN_U},
	{"v_max_u32", vop32, MAX_U}, {"v_mul_lo_u32", vop32, MUL_LO},
	{"v_mul_hi_u32", vop32, MUL_HI_U}, {"v_mul_hi_i32", vop32, MUL_HI_I},
	{"v_mul_u32_u24", vop32, MUL_U24}, {"v_mul_i32_i24", vop32, MUL_I24},
	{"v_mul_hi_u32_u24", vop32, MUL_HI_U24}, {"v_mul_hi_i32_i24", vop32, MUL_HI_I24},
	{"v_mad_u32_u24", vop32, MAD_U24}, {"v_mad_i32_i24", vop32, MAD_I24},
	{"v_bcnt_u32_b32", vop32, BCNT}, {"v_bfm_b32", vop32, BFM}, {"v_bfe_u32", vop32, BFE_U},
	{"v_bfe_i32", vop32, BFE_I}, {"v_bfi_b32", vop32, BFI}, {"v_alignbit_b32", vop32, ALIGNBIT},
	{"v_alignbyte_b32", vop32, ALIGNBYTE}, {"v_perm_b32", vop32, PERM},
	{"v_add3_u32", vop32, ADD3}, {"v_lshl_add_u32", vop32, LSHL_ADD},
	{"v_add_lshl_u32", vop32, ADD_LSHL}, {"v_lshl_or_b32", vop32, LSHL_OR},
	{"v_and_or_b32", vop32, AND_OR}, {"v_or3_b32", vop32, OR3}, {"v_xor3_b32", vop32, XOR3},
	{"v_xad_u32", vop32, XAD}, {"v_med3_i32", vop32, MED3_I}, {"v_med3_u32", vop32, MED3_U},
	{"v_min3_i32", vop32, MIN3_I}, {"v_min3_u32", vop32, MIN3_U}, {"v_max3_i32", vop32, MAX3_I},
	{"v_max3_u32", vop32, MAX3_U}, {"v_minmax_i32", vop32, MINMAX_I},
	{"v_minmax_u32", vop32, MINMAX_U}, {"v_maxmin_i32", vop32, MAXMIN_I},
	{"v_maxmin_u32", vop32, MAXMIN_U}, {"v_sad_u32", vop32, SAD_U32},
	{"v_qsad_pk_u16_u8", quad_sad, QSAD_PK}, {"v_mqsad_pk_u16_u8", quad_sad, MQSAD_PK},
	{"v_mqsad_u32_u8", quad_sad, MQSAD_U32},
	{"v_mad_u32_u16", vop32, MAD_U32_U16}, {"v_mad_i32_i16", vop32, MAD_I32_I16},
	{"v_sad_u16", vop32, SAD_U16}, {"v_sad_hi_u8", vop32, SAD_HI_U8},
	{"v_sad_u8", vop32, SAD_U8}, {"v_msad_u8", vop32, MSAD_U8}, {"v_lerp_u8", vop32, LERP_U8},
	{"v_dot4_u32_u8", vop32, DOT4_U8}, {"v_dot4_i32_i8", vop32, DOT4_I8},
	{"v_dot4_i32_iu8", vop32, DOT4_IU8}, {"v_dot4c_i32_i8", vop32, DOT4C_I8},
	{"v_dot2_u32_u16", vop32, DOT2_U16}, {"v_dot2_i32_i16", vop32, DOT2_I16},
	{"v_dot8_u32_u4", vop32, DOT8_U4}, {"v_dot8_i32_i4", vop32, DOT8_I4}, {"v_dot8_i32_iu4", vop32, DOT8_IU4}, {"v_mbcnt_lo_u32_b32", vop32, MBCNT_LO},
	{"v_mbcnt_hi_u32_b32", vop32, MBCNT_HI},
	{"v_cndmask_b32", cndmask, 0},
	{"v_add_nc_u16", vop16, ADD16}, {"v_add_u16", vop16, ADD16}, {"v_sub_nc_u16", vop16, SUB16},
	{"v_sub_u16", vop16, SUB16}, {"v_subrev_u16", vop16, SUBREV16},
	{"v_add_nc_i16", vop16, ADD_I16}, {"v_sub_nc_i16", vop16, SUB_I16},
	{"v_mul_lo_u16", vop16, MUL16}, {"v_mad_u16", vop16, MAD_U16}, {"v_mad_i16", vop16, MAD_I16},
	{"v_and_b16", vop16, AND16}, {"v_or_b16", vop16, OR16}, {"v_xor_b16", vop16, XOR16},
	{"v_not_b16", vop16, NOT16}, {"v_lshlrev_b16", vop16, LSHL16},
	{"v_lshrrev_b16", vop16, LSHR16}, {"v_ashrrev_i16", vop16, ASHR16},
	{"v_min_u16", vop16, MIN_U16}, {"v_max_u16", vop16, MAX_U16}, {"v_min_i16", vop16, MIN_I16},
	{"v_max_i16", vop16, MAX_I16}, {"v_med3_u16", vop16, MED3_U16}, {"v_med3_i16", vop16, MED3_I16},
	{"v_min3_u16", vop16, MIN3_U16}, {"v_min3_i16", vop16, MIN3_I16},
	{"v_max3_u16", vop16, MAX3_U16}, {"v_max3_i16", vop16, MAX3_I16}, {"v_mov_b16", vop16, MOV16}, {"v_cndmask_b16", vop16, CND16},
	{"v_sat_pk_u8_i16", vop16, SAT_PK_U8},
	{"v_add_co_u32", vop_carry, ADD_CO}, {"v_sub_co_u32", vop_carry, SUB_CO},
	{"v_subrev_co_u32", vop_carry, SUBREV_CO}, {"v_add_co_ci_u32", vop_carry, ADD_CO_CI},
	{"v_sub_co_ci_u32", vop_carry, SUB_CO_CI}, {"v_subrev_co_ci_u32", vop_carry, SUBREV_CO_CI},
	{"v_mad_u64_u32", vop_mad64, 0}, {"v_mad_i64_i32", vop_mad64, 1},
	{"v_lshlrev_b64", vop64, LSHL64}, {"v_lshrrev_b64", vop64, LSHR64},
	{"v_ashrrev_i64", vop64, ASHR64}, {"v_mov_b64", vop64, MOV64},
	{"v_readlane_b32", lane_ops, READLANE}, {"v_readfirstlane_b32", lane_ops, READFIRSTLANE},
	{"v_permlane16_b32", lane_ops, PERMLANE16}, {"v_permlanex16_b32", lane_ops, PERMLANEX16},
	{"v_swap_b32", lane_ops, SWAP}, {"v_swap_b16", lane_ops, SWAP16},
	{"v_writelane_b32", lane_ops, WRITELANE}, {"v_movrels_b32", lane_ops, MOVRELS},
	{"v_movreld_b32", lane_ops, MOVRELD}, {"v_movrelsd_b32", lane_ops, MOVRELSD},
	{"v_movrelsd_2_b32", lane_ops, MOVRELSD_2}, {"v_swaprel_b32", lane_ops, SWAPREL},
	{"v_permlane64_b32", lane_ops, PERMLANE64},
	{"v_permlane16_var_b32", lane_ops, PERMLANE16_VAR},
	{"v_permlanex16_var_b32", lane_ops, PERMLANEX16_VAR},
	{NULL, NULL, 0},
};
