/* Scalar instructions: SOP1, SOP2, SOPC, SOPK, SOPP (control flow, barriers, messages) and
 * scalar memory loads, as the RDNA guides' pseudo-code defines them. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "emu.h"

enum sop2 {
	ADD_U32, SUB_U32, ADDC_U32, SUBB_U32, ADD_I32, SUB_I32, MIN_I32, MIN_U32, MAX_I32, MAX_U32,
	CSELECT_B32, CSELECT_B64, AND_B32, AND_B64, OR_B32, OR_B64, XOR_B32, XOR_B64, NAND_B32,
	NOR_B32, XNOR_B32, AND_NOT1_B32, AND_NOT1_B64, OR_NOT1_B32, OR_NOT1_B64, NAND_B64, NOR_B64,
	XNOR_B64, LSHL_B32, LSHL_B64, LSHR_B32, LSHR_B64, ASHR_I32, ASHR_I64, BFM_B32, BFM_B64,
	MUL_I32, MUL_HI_U32, MUL_HI_I32, BFE_U32, BFE_I32, BFE_U64, BFE_I64, ABSDIFF_I32,
	LSHL1_ADD, LSHL2_ADD, LSHL3_ADD, LSHL4_ADD, PACK_LL, PACK_LH, PACK_HH, PACK_HL,
	ADD_NC_U64, SUB_NC_U64, MUL_U64,
};

static uint32_t bfe32(uint32_t x, uint32_t spec, bool sign)
{
	uint32_t off = spec & 31, width = (spec >> 16) & 127;
	if (width == 0)
		return 0;
	if (width > 32 - off)
		width = 32 - off;
	uint32_t v = x >> off;
	if (width < 32) {
		v &= (1u << width) - 1;
		if (sign && (v >> (width - 1) & 1))
			v |= ~0u << width;
	}
	return v;
}

static uint64_t bfe64(uint64_t x, uint32_t spec, bool sign)
{
	uint32_t off = spec & 63, width = (spec >> 16) & 127;
	if (width == 0)
		return 0;
	if (width > 64 - off)
		width = 64 - off;
	uint64_t v = x >> off;
	if (width < 64) {
		v &= (1ull << width) - 1;
		if (sign && (v >> (width - 1) & 1))
			v |= ~0ull << width;
	}
	return v;
}

static void sop2(struct wave *w, const struct insn *in)
{
	const struct operand *d = &in->o[0], *a = &in->o[1], *b = &in->o[2];
	uint32_t x = sget32(w, a), y = sget32(w, b), r = 0;
	uint64_t X = 0, Y = 0, R = 0, t;
	bool wide = false, set_scc = true;

	switch ((enum sop2)in->op) {
	case ADD_U32: t = (uint64_t)x + y; r = (uint32_t)t; w->scc = t >> 32; set_scc = false; break;
	case SUB_U32: r = x - y; w->scc = y > x; set_scc = false; break;
	case ADDC_U32: t = (uint64_t)x + y + w->scc; r = (uint32_t)t; w->scc = t >> 32; set_scc = false; break;
	case SUBB_U32: t = (uint64_t)y + w->scc; r = x - (uint32_t)t; w->scc = t > x; set_scc = false; break;
	case ADD_I32:
		r = x + y;
		w->scc = ((x ^ ~y) & (x ^ r)) >> 31;
		set_scc = false;
		break;
	case SUB_I32:
		r = x - y;
		w->scc = ((x ^ y) & (x ^ r)) >> 31;
		set_scc = false;
		break;
	case MIN_I32: w->scc = (int32_t)x < (int32_t)y; r = w->scc ? x : y; set_scc = false; break;
	case MIN_U32: w->scc = x < y; r = w->scc ? x : y; set_scc = false; break;
	case MAX_I32: w->scc = (int32_t)x > (int32_t)y; r = w->scc ? x : y; set_scc = false; break;
	case MAX_U32: w->scc = x > y; r = w->scc ? x : y; set_scc = false; break;
	case CSELECT_B32: r = w->scc ? x : y; set_scc = false; break;
	case CSELECT_B64:
		R = w->scc ? sget64(w, a) : sget64(w, b);
		wide = true;
		set_scc = false;
		break;
	case AND_B32: r = x & y; break;
	case OR_B32: r = x | y; break;
	case XOR_B32: r = x ^ y; break;
	case NAND_B32: r = ~(x & y); break;
	case NOR_B32: r = ~(x | y); break;
	case XNOR_B32: r = ~(x ^ y); break;
	case AND_NOT1_B32: r = x & ~y; break;
	case OR_NOT1_B32: r = x | ~y; break;
	case AND_B64: case OR_B64: case XOR_B64: case AND_NOT1_B64: case OR_NOT1_B64:
	case NAND_B64: case NOR_B64: case XNOR_B64:
		X = sget64(w, a);
		Y = sget64(w, b);
		wide = true;
		switch ((enum sop2)in->op) {
		case AND_B64: R = X & Y; break;
		case OR_B64: R = X | Y; break;
		case XOR_B64: R = X ^ Y; break;
		case AND_NOT1_B64: R = X & ~Y; break;
		case OR_NOT1_B64: R = X | ~Y; break;
		case NAND_B64: R = ~(X & Y); break;
		case NOR_B64: R = ~(X | Y); break;
		default: R = ~(X ^ Y); break;
		}
		w->scc = R != 0;
		set_scc = false;
		break;
	case LSHL_B32: r = x << (y & 31); break;
	case LSHR_B32: r = x >> (y & 31); break;
	case ASHR_I32: r = (uint32_t)((int32_t)x >> (y & 31)); break;
	case LSHL_B64: case LSHR_B64: case ASHR_I64:
		X = sget64(w, a);
		wide = true;
		R = in->op == LSHL_B64 ? X << (y & 63) : in->op == LSHR_B64 ? X >> (y & 63)
		                                        : (uint64_t)((int64_t)X >> (y & 63));
		w->scc = R != 0;
		set_scc = false;
		break;
	case BFM_B32: r = ((1u << (x & 31)) - 1) << (y & 31); set_scc = false; break;
	case BFM_B64: R = ((1ull << (x & 63)) - 1) << (y & 63); wide = true; set_scc = false; break;
	case MUL_I32: r = x * y; set_scc = false; break;
	case MUL_HI_U32: r = (uint32_t)((uint64_t)x * y >> 32); set_scc = false; break;
	case MUL_HI_I32: r = (uint32_t)((uint64_t)((int64_t)(int32_t)x * (int32_t)y) >> 32); set_scc = false; break;
	case BFE_U32: r = bfe32(x, y, false); break;
	case BFE_I32: r = bfe32(x, y, true); break;
	case BFE_U64: case BFE_I64:
		R = bfe64(sget64(w, a), y, in->op == BFE_I64);
		wide = true;
		w->scc = R != 0;
		set_scc = false;
		break;
	case ABSDIFF_I32: {
		int64_t diff = (int64_t)(int32_t)x - (int32_t)y;
		r = (uint32_t)(diff < 0 ? -diff : diff);
		break;
	}
	case LSHL1_ADD: case LSHL2_ADD: case LSHL3_ADD: case LSHL4_ADD:
		t = ((uint64_t)x << (in->op - LSHL1_ADD + 1)) + y;
		r = (uint32_t)t;
		w->scc = (t >> 32) != 0;
		set_scc = false;
		break;
	case ADD_NC_U64: case SUB_NC_U64: case MUL_U64:
		X = sget64(w, a);
		Y = sget64(w, b);
		R = in->op == ADD_NC_U64 ? X + Y : in->op == SUB_NC_U64 ? X - Y : X * Y;
		wide = true;
		break;
	case PACK_LL: r = (x & 0xffff) | y << 16; set_scc = false; break;
	case PACK_LH: r = (x & 0xffff) | (y & 0xffff0000u); set_scc = false; break;
	case PACK_HH: r = x >> 16 | (y & 0xffff0000u); set_scc = false; break;
	case PACK_HL: r = x >> 16 | y << 16; set_scc = false; break;
	}
	if (wide) {
		sset64(w, d, R);
		return;
	}
	if (set_scc)
		w->scc = r != 0;
	sset32(w, d, r);
}

enum sop1 {
	MOV_B32, MOV_B64, CMOV_B32, CMOV_B64, NOT_B32, NOT_B64, WQM_B32, BREV_B32, BREV_B64,
	BCNT0_B32, BCNT1_B32, BCNT1_B64, CTZ_B32, CTZ_B64, CLZ_U32, CLS_I32, SEXT_I8, SEXT_I16,
	BITSET0, BITSET1, ABS_I32, AND_SAVEEXEC, OR_SAVEEXEC, XOR_SAVEEXEC, AND_NOT1_SAVEEXEC,
	OR_NOT1_SAVEEXEC, AND_NOT0_SAVEEXEC, OR_NOT0_SAVEEXEC, NAND_SAVEEXEC, NOR_SAVEEXEC,
	XNOR_SAVEEXEC, AND_NOT0_WREXEC, AND_NOT1_WREXEC, GETPC, SETPC, SWAPPC, BCNT0_B64,
	WQM_B64, QUADMASK_B32, QUADMASK_B64, BITREPLICATE, BITSET0_B64, BITSET1_B64, CLZ_U64,
	CLS_I64, FF0_B32, FF0_B64, MOVRELS_B32, MOVRELS_B64, MOVRELD_B32, MOVRELD_B64, MOVRELSD_2,
	/* With an exec-mask operation: its _b64 form, on EXEC_HI:EXEC_LO. */
	SOP1_B64 = 0x100,
};

/* Over X's low BITS in groups of four: S_WQM sets a whole group where any of its bits is
 * set; S_QUADMASK's bit q says whether any bit of group q is. */
static uint64_t whole_quads(uint64_t x, int bits)
{
	uint64_t r = 0;
	for (int q = 0; q < bits / 4; q++)
		if (x >> (4 * q) & 15)
			r |= 15ull << (4 * q);
	return r;
}

static uint64_t quad_mask(uint64_t x, int bits)
{
	uint64_t r = 0;
	for (int q = 0; q < bits / 4; q++)
		r |= (uint64_t)((x >> (4 * q) & 15) != 0) << q;
	return r;
}

static void jump_to(struct wave *w, const struct insn *in, uint64_t address)
{
	const struct zc_emu_object *o = w->object;
	uint64_t base = (uint64_t)(uintptr_t)o->memory;
	uint32_t target = address < base ? UINT32_MAX : emu_instruction_at(o, address - base);
	if (target == UINT32_MAX) {
		emu_fault(w, in, "jump to 0x%llx, which is not an instruction of the code object",
		          (unsigned long long)address);
		return;
	}
	w->pc = target;
}

static uint64_t next_address(const struct wave *w, const struct insn *in)
{
	return (uint64_t)(uintptr_t)w->object->memory + in->address + in->length;
}

/* The SGPR operand O names, moved by OFFSET: false (and a fault) outside the SGPRs a
 * relative move may reach (s0 to s105: not VCC, M0 or EXEC), or when O is no SGPR. */
static bool relative_sgpr(struct wave *w, const struct insn *in, const struct operand *o,
                          uint32_t offset, uint32_t count, struct operand *moved)
{
	uint32_t index = o->reg + offset;
	if (o->kind == OPND_SGPR && index + count <= SREG_VCC_LO) {
		*moved = *o;
		moved->reg = (uint16_t)index;
		return true;
	}
	emu_fault(w, in, "relative SGPR index %u (M0 %u) is outside s0 to s105", index, w->s[SREG_M0]);
	return false;
}

static void relative_move(struct wave *w, const struct insn *in)
{
	uint32_t m0 = w->s[SREG_M0];
	bool wide = in->op == MOVRELS_B64 || in->op == MOVRELD_B64;
	uint32_t count = wide ? 2 : 1, from = 0, to = 0;
	struct operand d = in->o[0], s = in->o[1];

	if (in->op == MOVRELS_B32 || in->op == MOVRELS_B64)
		from = m0;
	else if (in->op == MOVRELD_B32 || in->op == MOVRELD_B64)
		to = m0;
	else
		from = m0 & 0x3ff, to = m0 >> 16 & 0x3ff;
	if ((from || in->op == MOVRELSD_2) && !relative_sgpr(w, in, &in->o[1], from, count, &s))
		return;
	if ((to || in->op == MOVRELSD_2) && !relative_sgpr(w, in, &in->o[0], to, count, &d))
		return;
	if (wide)
		sset64(w, &d, sget64(w, &s));
	else
		sset32(w, &d, sget32(w, &s));
}

static void sop1(struct wave *w, const struct insn *in)
{
	const struct operand *d = &in->o[0], *a = &in->o[1];
	uint32_t x = sget32(w, a), r, e = w->s[SREG_EXEC_LO];
	uint64_t X;

	switch ((enum sop1)in->op) {
	case MOV_B32: sset32(w, d, x); return;
	case MOV_B64: sset64(w, d, sget64(w, a)); return;
	case CMOV_B32: if (w->scc) sset32(w, d, x); return;
	case CMOV_B64: if (w->scc) sset64(w, d, sget64(w, a)); return;
	case NOT_B32: r = ~x; w->scc = r != 0; sset32(w, d, r); return;
	case NOT_B64: X = ~sget64(w, a); w->scc = X != 0; sset64(w, d, X); return;
	case WQM_B32: r = (uint32_t)whole_quads(x, 32); w->scc = r != 0; sset32(w, d, r); return;
	case WQM_B64: X = whole_quads(sget64(w, a), 64); w->scc = X != 0; sset64(w, d, X); return;
	case QUADMASK_B32: r = (uint32_t)quad_mask(x, 32); w->scc = r != 0; sset32(w, d, r); return;
	case QUADMASK_B64: X = quad_mask(sget64(w, a), 64); w->scc = X != 0; sset64(w, d, X); return;
	case BITREPLICATE:
		X = 0;
		for (int i = 0; i < 32; i++)
			X |= (uint64_t)(x >> i & 1) * 3 << (2 * i);
		sset64(w, d, X);
		return;
	case BREV_B32: sset32(w, d, bit_reverse32(x)); return;
	case BREV_B64: sset64(w, d, bit_reverse64(sget64(w, a))); return;
	case BCNT0_B32: r = 32 - (uint32_t)__builtin_popcount(x); w->scc = r != 0; sset32(w, d, r); return;
	case BCNT0_B64: r = 64 - (uint32_t)__builtin_popcountll(sget64(w, a)); w->scc = r != 0; sset32(w, d, r); return;
	case BCNT1_B32: r = (uint32_t)__builtin_popcount(x); w->scc = r != 0; sset32(w, d, r); return;
	case BCNT1_B64: r = (uint32_t)__builtin_popcountll(sget64(w, a)); w->scc = r != 0; sset32(w, d, r); return;
	case CTZ_B32: sset32(w, d, x ? (uint32_t)__builtin_ctz(x) : ~0u); return;
	case CTZ_B64: X = sget64(w, a); sset32(w, d, X ? (uint32_t)__builtin_ctzll(X) : ~0u); return;
	case CLZ_U32: sset32(w, d, x ? (uint32_t)__builtin_clz(x) : ~0u); return;
	case CLS_I32: {
		uint32_t y = (x >> 31) ? ~x : x;
		sset32(w, d, x == 0 || x == ~0u ? ~0u : (uint32_t)__builtin_clz(y));
		return;
	}
	/* relative addressing: the operand's register number moved by M0 (s_movrelsd_2: the
	 * source by M0[9:0], the destination by M0[25:16]) */
	case MOVRELS_B32: case MOVRELS_B64: case MOVRELD_B32: case MOVRELD_B64: case MOVRELSD_2:
		relative_move(w, in);
		return;
	case FF0_B32: sset32(w, d, ~x ? (uint32_t)__builtin_ctz(~x) : ~0u); return;
	case FF0_B64: X = ~sget64(w, a); sset32(w, d, X ? (uint32_t)__builtin_ctzll(X) : ~0u); return;
	case CLZ_U64: X = sget64(w, a); sset32(w, d, X ? (uint32_t)__builtin_clzll(X) : ~0u); return;
	case CLS_I64: {
		X = sget64(w, a);
		uint64_t y = (X >> 63) ? ~X : X;
		sset32(w, d, X == 0 || X == ~0ull ? ~0u : (uint32_t)__builtin_clzll(y));
		return;
	}
	case SEXT_I8: sset32(w, d, (uint32_t)(int32_t)(int8_t)x); return;
	case SEXT_I16: sset32(w, d, (uint32_t)(int32_t)(int16_t)x); return;
	case BITSET0: sset32(w, d, sget32(w, d) & ~(1u << (x & 31))); return;
	case BITSET1: sset32(w, d, sget32(w, d) | 1u << (x & 31)); return;
	case BITSET0_B64: sset64(w, d, sget64(w, d) & ~(1ull << (x & 63))); return;
	case BITSET1_B64: sset64(w, d, sget64(w, d) | 1ull << (x & 63)); return;
	case ABS_I32: r = (int32_t)x < 0 ? -x : x; w->scc = r != 0; sset32(w, d, r); return;
	case GETPC: sset64(w, d, next_address(w, in)); return;
	case SETPC: jump_to(w, in, sget64(w, &in->o[0])); return;
	case SWAPPC: {
		uint64_t target = sget64(w, a);
		sset64(w, d, next_address(w, in));
		jump_to(w, in, target);
		return;
	}
	default: break;
	}
	/* The exec-mask operations, in 64 bits: the _b32 forms' upper halves are dropped. */
	bool wide = in->op & SOP1_B64;
	uint64_t s0 = wide ? sget64(w, a) : x, exec = wide ? (uint64_t)w->s[SREG_EXEC_HI] << 32 | e : e;
	uint64_t ne;
	switch ((enum sop1)(in->op & ~SOP1_B64)) {
	case AND_SAVEEXEC: ne = s0 & exec; break;
	case OR_SAVEEXEC: ne = s0 | exec; break;
	case XOR_SAVEEXEC: ne = s0 ^ exec; break;
	case AND_NOT1_SAVEEXEC: ne = s0 & ~exec; break;
	case OR_NOT1_SAVEEXEC: ne = s0 | ~exec; break;
	case AND_NOT0_SAVEEXEC: ne = ~s0 & exec; break;
	case OR_NOT0_SAVEEXEC: ne = ~s0 | exec; break;
	case NAND_SAVEEXEC: ne = ~(s0 & exec); break;
	case NOR_SAVEEXEC: ne = ~(s0 | exec); break;
	case XNOR_SAVEEXEC: ne = ~(s0 ^ exec); break;
	case AND_NOT0_WREXEC: ne = ~s0 & exec; break;
	case AND_NOT1_WREXEC: ne = s0 & ~exec; break;
	default: emu_not_emulated(w, in); return;
	}
	if (!wide)
		ne = (uint32_t)ne;
	bool wrexec = (in->op & ~SOP1_B64) == AND_NOT0_WREXEC || (in->op & ~SOP1_B64) == AND_NOT1_WREXEC;
	uint64_t result = wrexec ? ne : exec;
	if (wide)
		sset64(w, d, result);
	else
		sset32(w, d, (uint32_t)result);
	w->s[SREG_EXEC_LO] = (uint32_t)ne;
	if (wide)
		w->s[SREG_EXEC_HI] = (uint32_t)(ne >> 32);
	w->scc = ne != 0;
}

enum sopc {
	CMP_EQ_I32, CMP_LG_I32, CMP_GT_I32, CMP_GE_I32, CMP_LT_I32, CMP_LE_I32, CMP_EQ_U32,
	CMP_LG_U32, CMP_GT_U32, CMP_GE_U32, CMP_LT_U32, CMP_LE_U32, CMP_EQ_U64, CMP_LG_U64,
	BITCMP0_B32, BITCMP1_B32, BITCMP0_B64, BITCMP1_B64,
};

static bool compare(unsigned op, uint32_t x, uint32_t y)
{
	int32_t a = (int32_t)x, b = (int32_t)y;
	switch (op) {
	case CMP_EQ_I32: case CMP_EQ_U32: return x == y;
	case CMP_LG_I32: case CMP_LG_U32: return x != y;
	case CMP_GT_I32: return a > b;
	case CMP_GE_I32: return a >= b;
	case CMP_LT_I32: return a < b;
	case CMP_LE_I32: return a <= b;
	case CMP_GT_U32: return x > y;
	case CMP_GE_U32: return x >= y;
	case CMP_LT_U32: return x < y;
	case CMP_LE_U32: return x <= y;
	case BITCMP0_B32: return !(x >> (y & 31) & 1);
	case BITCMP1_B32: return x >> (y & 31) & 1;
	default: return false;
	}
}

static void sopc(struct wave *w, const struct insn *in)
{
	const struct operand *a = &in->o[0], *b = &in->o[1];
	switch ((enum sopc)in->op) {
	case CMP_EQ_U64: w->scc = sget64(w, a) == sget64(w, b); return;
	case CMP_LG_U64: w->scc = sget64(w, a) != sget64(w, b); return;
	case BITCMP0_B64: w->scc = !(sget64(w, a) >> (sget32(w, b) & 63) & 1); return;
	case BITCMP1_B64: w->scc = sget64(w, a) >> (sget32(w, b) & 63) & 1; return;
	default: w->scc = compare(in->op, sget32(w, a), sget32(w, b));
	}
}

/* SOPK: the 16-bit immediate is the last operand; signed for _i32 forms. */
enum sopk { MOVK, CMOVK, ADDK, MULK, CMPK_SIGNED, CMPK_UNSIGNED, CALL };

static void sopk(struct wave *w, const struct insn *in)
{
	const struct operand *d = &in->o[0];
	uint32_t imm = in->o[1].c32 & 0xffff;
	uint32_t simm = (uint32_t)(int32_t)(int16_t)imm;
	switch (in->op & 0xff) {
	case MOVK: sset32(w, d, simm); return;
	case CMOVK: if (w->scc) sset32(w, d, simm); return;
	case ADDK: {
		uint32_t x = sget32(w, d), r = x + simm;
		w->scc = ((x ^ ~simm) & (x ^ r)) >> 31;
		sset32(w, d, r);
		return;
	}
	case MULK: sset32(w, d, sget32(w, d) * simm); return;
	case CMPK_SIGNED: w->scc = compare(in->op >> 8, sget32(w, d), simm); return;
	case CMPK_UNSIGNED: w->scc = compare(in->op >> 8, sget32(w, d), imm); return;
	case CALL: {
		sset64(w, d, next_address(w, in));
		int64_t target = (int64_t)in->address + 4 + (int64_t)(int16_t)imm * 4;
		jump_to(w, in, (uint64_t)(uintptr_t)w->object->memory + (uint64_t)target);
		return;
	}
	}
}

static uint64_t nanoseconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The hardware registers a kernel reads or writes: MODE (its float modes), the cycle
 * counter, the flat scratch base (accepted, as scratch addresses are the lanes' own). */
static uint32_t *hwreg(struct wave *w, unsigned id, uint32_t *scratch)
{
	switch (id) {
	case 1: return &w->mode;
	case 3: return &w->trapsts;
	case 20: return &w->flat_scratch[0];
	case 21: return &w->flat_scratch[1];
	case 29: *scratch = (uint32_t)(nanoseconds() * 5 / 2); return scratch;
	case 30: *scratch = (uint32_t)(nanoseconds() * 5 / 2 >> 32); return scratch;
	case 2: case 4: case 5: case 6: case 7: case 23: case 24: *scratch = 0; return scratch;
	default: return NULL;
	}
}

enum { GETREG, SETREG, SETREG_IMM };

static void sreg(struct wave *w, const struct insn *in)
{
	uint32_t spare, *r = hwreg(w, in->hw_id, &spare);
	uint32_t mask = in->hw_size >= 32 ? ~0u : ((1u << in->hw_size) - 1) << in->hw_offset;
	if (!r) {
		emu_not_emulated(w, in);
		return;
	}
	if (in->op == GETREG) {
		sset32(w, &in->o[0], (*r & mask) >> in->hw_offset);
		return;
	}
	uint32_t v = in->op == SETREG ? sget32(w, &in->o[0]) : in->o[0].c32;
	if (r != &spare)
		*r = (*r & ~mask) | (v << in->hw_offset & mask);
}

/* gfx12's split barrier signals, s_barrier_signal and s_barrier_signal_isfirst (in->op):
 * barrier -1 is the workgroup's, whose signal and wait run as one here (the wave waits at
 * the signal; s_barrier_wait has nothing left to do); 0, and the trap handler's -2 from a
 * wave without privilege, signal nothing. Named barriers (1 to 16, or M0's), whose set-up
 * RDNA4's guide does not document, are not emulated. */
static void barrier_signal(struct wave *w, const struct insn *in)
{
	const struct operand *o = &in->o[0];
	bool by_m0 = o->kind == OPND_SGPR && o->reg == SREG_M0;
	int32_t number = by_m0 ? (int32_t)(w->s[SREG_M0] & 31) : (int32_t)sget32(w, o);
	if (number != -1 && number != 0 && number != -2) {
		emu_not_emulated(w, in);
		return;
	}
	if (in->op) {
		/* SCC: whether this is the barrier's first signal. InWorkgroup() is taken as a
		 * workgroup of more than one wave (a lone wave has no barrier to share). */
		struct workgroup *wg = w->wg;
		bool first = number == -1 && wg->nwaves > 1;
		for (uint32_t i = 0; i < wg->nwaves; i++)
			if (&wg->waves[i] != w && wg->waves[i].state == WAVE_BARRIER)
				first = false;
		w->scc = first;
	}
	if (number == -1)
		emu_barrier(w);
}

/* gfx12's s_get_barrier_state (the guide's pseudo-code): for the workgroup's barrier (-1),
 * valid, its member count (the waves that have not ended) and its signal count (those
 * waiting at it); gfx1200 allocates no named barrier (its descriptor has no count of them,
 * as gfx1250's has), so every other number reads as not valid: 0. */
static void barrier_state(struct wave *w, const struct insn *in)
{
	const struct operand *o = &in->o[1];
	bool by_m0 = o->kind == OPND_SGPR && o->reg == SREG_M0;
	uint32_t number = by_m0 ? w->s[SREG_M0] & 31 : sget32(w, o), state = 0;
	if ((number & 63) == 63) {
		struct workgroup *wg = w->wg;
		uint32_t members = 0, signals = 0;
		for (uint32_t i = 0; i < wg->nwaves; i++) {
			members += wg->waves[i].state != WAVE_ENDED && wg->waves[i].state != WAVE_FAULTED;
			signals += wg->waves[i].state == WAVE_BARRIER;
		}
		state = (signals & 127) << 16 | (members & 127) << 4 | 1;
	}
	sset32(w, &in->o[0], state);
}

/* gfx12's s_alloc_vgpr, whose reallocation belongs to the dynamic-VGPR mode: every wave here
 * has the 256 VGPRs a wave can address, so a request for at most that many (S0[8:0])
 * succeeds, SCC 1, and a larger one fails, SCC 0. */
static void alloc_vgpr(struct wave *w, const struct insn *in)
{
	w->scc = (sget32(w, &in->o[0]) & 511) <= 256;
}

enum sopp {
	ENDPGM, BRANCH, CBRANCH_SCC0, CBRANCH_SCC1, CBRANCH_VCCZ, CBRANCH_VCCNZ, CBRANCH_EXECZ,
	CBRANCH_EXECNZ, BARRIER, BARRIER_WAIT, SLEEP, TRAP, SETHALT, SENDMSG, SENDMSG_RTN_32,
	SENDMSG_RTN_64, ROUND_MODE, DENORM_MODE, MEMTIME, MEMREALTIME, SENDMSGHALT, ILLEGAL,
};

static void sopp(struct wave *w, const struct insn *in)
{
	bool taken = false;
	switch ((enum sopp)in->op) {
	case ENDPGM: w->state = WAVE_ENDED; return;
	case BRANCH: taken = true; break;
	case CBRANCH_SCC0: taken = !w->scc; break;
	case CBRANCH_SCC1: taken = w->scc; break;
	case CBRANCH_VCCZ: taken = w->s[SREG_VCC_LO] == 0; break;
	case CBRANCH_VCCNZ: taken = w->s[SREG_VCC_LO] != 0; break;
	case CBRANCH_EXECZ: taken = w->s[SREG_EXEC_LO] == 0; break;
	case CBRANCH_EXECNZ: taken = w->s[SREG_EXEC_LO] != 0; break;
	case BARRIER: emu_barrier(w); return;
	case BARRIER_WAIT: return;
	case SLEEP:
		/* Gives the other waves of the workgroup their turn. */
		w->sleep = 1;
		return;
	case TRAP: emu_fault(w, in, "s_trap %u (a device-side trap, e.g. assert)", in->o[0].c32 & 0xff); return;
	case SETHALT: emu_fault(w, in, "the wave halted (s_sethalt: a device-side trap)"); return;
	case SENDMSGHALT: emu_fault(w, in, "the wave halted (s_sendmsghalt: a device-side trap)"); return;
	case ILLEGAL: emu_fault(w, in, "an illegal-instruction exception (v_illegal)"); return;
	case SENDMSG:
		if (in->hw_id == 1)
			emu_fault(w, in, "a trap raised by s_sendmsg(MSG_INTERRUPT)");
		return;
	case SENDMSG_RTN_32:
	case SENDMSG_RTN_64: {
		uint64_t v = in->hw_id == 131 ? nanoseconds() / 10 : 0;
		if (in->op == SENDMSG_RTN_64)
			sset64(w, &in->o[0], v);
		else
			sset32(w, &in->o[0], (uint32_t)v);
		return;
	}
	case ROUND_MODE: w->mode = (w->mode & ~15u) | (in->o[0].c32 & 15); return;
	case DENORM_MODE: w->mode = (w->mode & ~0xf0u) | (in->o[0].c32 & 15) << 4; return;
	case MEMTIME: sset64(w, &in->o[0], nanoseconds() * 5 / 2); return;
	case MEMREALTIME: sset64(w, &in->o[0], nanoseconds() / 10); return;
	}
	if (taken)
		w->pc = in->target;
}

/* s_load_b32 ... s_load_b512 and s_buffer_load: base, then an immediate or SGPR offset. */
static void smem(struct wave *w, const struct insn *in)
{
	const struct operand *d = &in->o[0];
	uint64_t base = sget64(w, &in->o[1]);
	uint32_t dwords = in->op & 0xff;
	bool buffer = in->op >> 8 & 1;
	unsigned small = in->op >> 9 & 7;  /* 1: u8, 2: i8, 3: u16, 4: i16 */
	int64_t off = in->offset;
	if (buffer)
		base &= 0xffffffffffffull;
	if (in->nopnd > 2)
		off += in->o[2].kind == OPND_CONST ? (int64_t)(int32_t)in->o[2].c32 : sget32(w, &in->o[2]);
	uint64_t address = (base + (uint64_t)off) & (small ? ~0ull : ~3ull);
	if (small) {
		unsigned bytes = small <= 2 ? 1 : 2;
		if (!emu_mapped(address, bytes)) {
			emu_memory_fault(w, in, "memory access fault: scalar load of %u bytes at 0x%llx", bytes,
			          (unsigned long long)address);
			return;
		}
		const uint8_t *p = (const uint8_t *)(uintptr_t)address;
		uint16_t h = 0;
		memcpy(&h, p, bytes);
		uint32_t v = small == 1 ? p[0] : small == 2 ? (uint32_t)(int32_t)(int8_t)p[0]
		           : small == 3 ? h : (uint32_t)(int32_t)(int16_t)h;
		sset32(w, d, v);
		return;
	}
	if (!emu_mapped(address, dwords * 4ull)) {
		emu_memory_fault(w, in, "memory access fault: scalar load of %u bytes at 0x%llx", dwords * 4,
		          (unsigned long long)address);
		return;
	}
	const uint32_t *p = (const uint32_t *)(uintptr_t)address;
	for (uint32_t i = 0; i < dwords && d->reg + i < SREG_COUNT; i++)
		if (d->reg + i != SREG_NULL)
			w->s[d->reg + i] = p[i];
}

#define CMPK(name, cond, ty, sel) {"s_cmpk_" name, sopk, (sel) | CMP_##cond##_##ty << 8}

const struct opcode emu_scalar_opcodes[] = {
	{"s_add_u32", sop2, ADD_U32}, {"s_sub_u32", sop2, SUB_U32}, {"s_addc_u32", sop2, ADDC_U32},
	{"s_subb_u32", sop2, SUBB_U32}, {"s_add_i32", sop2, ADD_I32}, {"s_sub_i32", sop2, SUB_I32},
	{"s_min_i32", sop2, MIN_I32}, {"s_min_u32", sop2, MIN_U32}, {"s_max_i32", sop2, MAX_I32},
	{"s_max_u32", sop2, MAX_U32}, {"s_cselect_b32", sop2, CSELECT_B32},
	{"s_cselect_b64", sop2, CSELECT_B64}, {"s_and_b32", sop2, AND_B32},
	{"s_and_b64", sop2, AND_B64}, {"s_or_b32", sop2, OR_B32}, {"s_or_b64", sop2, OR_B64},
	{"s_xor_b32", sop2, XOR_B32}, {"s_xor_b64", sop2, XOR_B64}, {"s_nand_b32", sop2, NAND_B32},
	{"s_nor_b32", sop2, NOR_B32}, {"s_xnor_b32", sop2, XNOR_B32},
	{"s_nand_b64", sop2, NAND_B64}, {"s_nor_b64", sop2, NOR_B64}, {"s_xnor_b64", sop2, XNOR_B64},
	{"s_and_not1_b32", sop2, AND_NOT1_B32}, {"s_and_not1_b64", sop2, AND_NOT1_B64},
	{"s_or_not1_b32", sop2, OR_NOT1_B32}, {"s_or_not1_b64", sop2, OR_NOT1_B64},
	{"s_lshl_b32", sop2, LSHL_B32}, {"s_lshl_b64", sop2, LSHL_B64},
	{"s_lshr_b32", sop2, LSHR_B32}, {"s_lshr_b64", sop2, LSHR_B64},
	{"s_ashr_i32", sop2, ASHR_I32}, {"s_ashr_i64", sop2, ASHR_I64},
	{"s_bfm_b32", sop2, BFM_B32}, {"s_bfm_b64", sop2, BFM_B64}, {"s_mul_i32", sop2, MUL_I32},
	{"s_mul_hi_u32", sop2, MUL_HI_U32}, {"s_mul_hi_i32", sop2, MUL_HI_I32},
	{"s_bfe_u32", sop2, BFE_U32}, {"s_bfe_i32", sop2, BFE_I32}, {"s_bfe_u64", sop2, BFE_U64},
	{"s_bfe_i64", sop2, BFE_I64}, {"s_absdiff_i32", sop2, ABSDIFF_I32},
	{"s_lshl1_add_u32", sop2, LSHL1_ADD}, {"s_lshl2_add_u32", sop2, LSHL2_ADD},
	{"s_lshl3_add_u32", sop2, LSHL3_ADD}, {"s_lshl4_add_u32", sop2, LSHL4_ADD},
	{"s_add_nc_u64", sop2, ADD_NC_U64}, {"s_sub_nc_u64", sop2, SUB_NC_U64},
	{"s_mul_u64", sop2, MUL_U64}, {"s_pack_ll_b32_b16", sop2, PACK_LL}, {"s_pack_lh_b32_b16", sop2, PACK_LH},
	{"s_pack_hh_b32_b16", sop2, PACK_HH}, {"s_pack_hl_b32_b16", sop2, PACK_HL},
	{"s_mov_b32", sop1, MOV_B32}, {"s_mov_b64", sop1, MOV_B64}, {"s_cmov_b32", sop1, CMOV_B32},
	{"s_cmov_b64", sop1, CMOV_B64}, {"s_not_b32", sop1, NOT_B32}, {"s_not_b64", sop1, NOT_B64},
	{"s_wqm_b32", sop1, WQM_B32}, {"s_brev_b32", sop1, BREV_B32}, {"s_brev_b64", sop1, BREV_B64},
	{"s_bcnt0_i32_b32", sop1, BCNT0_B32}, {"s_bcnt0_i32_b64", sop1, BCNT0_B64},
	{"s_bcnt1_i32_b32", sop1, BCNT1_B32}, {"s_bcnt1_i32_b64", sop1, BCNT1_B64},
	{"s_ctz_i32_b32", sop1, CTZ_B32}, {"s_ctz_i32_b64", sop1, CTZ_B64},
	{"s_clz_i32_u32", sop1, CLZ_U32}, {"s_cls_i32", sop1, CLS_I32},
	{"s_sext_i32_i8", sop1, SEXT_I8}, {"s_sext_i32_i16", sop1, SEXT_I16},
	{"s_bitset0_b32", sop1, BITSET0}, {"s_bitset1_b32", sop1, BITSET1},
	{"s_abs_i32", sop1, ABS_I32}, {"s_and_saveexec_b32", sop1, AND_SAVEEXEC},
	{"s_or_saveexec_b32", sop1, OR_SAVEEXEC}, {"s_xor_saveexec_b32", sop1, XOR_SAVEEXEC},
	{"s_and_not1_saveexec_b32", sop1, AND_NOT1_SAVEEXEC},
	{"s_or_not1_saveexec_b32", sop1, OR_NOT1_SAVEEXEC},
	{"s_and_not0_saveexec_b32", sop1, AND_NOT0_SAVEEXEC},
	{"s_or_not0_saveexec_b32", sop1, OR_NOT0_SAVEEXEC},
	{"s_nand_saveexec_b32", sop1, NAND_SAVEEXEC}, {"s_nor_saveexec_b32", sop1, NOR_SAVEEXEC},
	{"s_xnor_saveexec_b32", sop1, XNOR_SAVEEXEC},
	{"s_and_not0_wrexec_b32", sop1, AND_NOT0_WREXEC},
	{"s_and_not1_wrexec_b32", sop1, AND_NOT1_WREXEC},
	{"s_and_saveexec_b64", sop1, AND_SAVEEXEC | SOP1_B64},
	{"s_or_saveexec_b64", sop1, OR_SAVEEXEC | SOP1_B64},
	{"s_xor_saveexec_b64", sop1, XOR_SAVEEXEC | SOP1_B64},
	{"s_and_not1_saveexec_b64", sop1, AND_NOT1_SAVEEXEC | SOP1_B64},
	{"s_or_not1_saveexec_b64", sop1, OR_NOT1_SAVEEXEC | SOP1_B64},
	{"s_and_not0_saveexec_b64", sop1, AND_NOT0_SAVEEXEC | SOP1_B64},
	{"s_or_not0_saveexec_b64", sop1, OR_NOT0_SAVEEXEC | SOP1_B64},
	{"s_nand_saveexec_b64", sop1, NAND_SAVEEXEC | SOP1_B64},
	{"s_nor_saveexec_b64", sop1, NOR_SAVEEXEC | SOP1_B64},
	{"s_xnor_saveexec_b64", sop1, XNOR_SAVEEXEC | SOP1_B64},
	{"s_and_not0_wrexec_b64", sop1, AND_NOT0_WREXEC | SOP1_B64},
	{"s_and_not1_wrexec_b64", sop1, AND_NOT1_WREXEC | SOP1_B64},
	{"s_wqm_b64", sop1, WQM_B64}, {"s_quadmask_b32", sop1, QUADMASK_B32},
	{"s_quadmask_b64", sop1, QUADMASK_B64}, {"s_bitreplicate_b64_b32", sop1, BITREPLICATE},
	{"s_bitset0_b64", sop1, BITSET0_B64}, {"s_bitset1_b64", sop1, BITSET1_B64},
	{"s_clz_i32_u64", sop1, CLZ_U64}, {"s_cls_i32_i64", sop1, CLS_I64},
	{"s_movrels_b32", sop1, MOVRELS_B32}, {"s_movrels_b64", sop1, MOVRELS_B64},
	{"s_movreld_b32", sop1, MOVRELD_B32}, {"s_movreld_b64", sop1, MOVRELD_B64},
	{"s_movrelsd_2_b32", sop1, MOVRELSD_2},
	{"s_ff0_i32_b32", sop1, FF0_B32}, {"s_ff0_i32_b64", sop1, FF0_B64},
	{"s_getpc_b64", sop1, GETPC}, {"s_setpc_b64", sop1, SETPC}, {"s_swappc_b64", sop1, SWAPPC},
	{"s_cmp_eq_i32", sopc, CMP_EQ_I32}, {"s_cmp_lg_i32", sopc, CMP_LG_I32},
	{"s_cmp_gt_i32", sopc, CMP_GT_I32}, {"s_cmp_ge_i32", sopc, CMP_GE_I32},
	{"s_cmp_lt_i32", sopc, CMP_LT_I32}, {"s_cmp_le_i32", sopc, CMP_LE_I32},
	{"s_cmp_eq_u32", sopc, CMP_EQ_U32}, {"s_cmp_lg_u32", sopc, CMP_LG_U32},
	{"s_cmp_gt_u32", sopc, CMP_GT_U32}, {"s_cmp_ge_u32", sopc, CMP_GE_U32},
	{"s_cmp_lt_u32", sopc, CMP_LT_U32}, {"s_cmp_le_u32", sopc, CMP_LE_U32},
	{"s_cmp_eq_u64", sopc, CMP_EQ_U64}, {"s_cmp_lg_u64", sopc, CMP_LG_U64},
	{"s_bitcmp0_b32", sopc, BITCMP0_B32}, {"s_bitcmp1_b32", sopc, BITCMP1_B32},
	{"s_bitcmp0_b64", sopc, BITCMP0_B64}, {"s_bitcmp1_b64", sopc, BITCMP1_B64},
	{"s_movk_i32", sopk, MOVK}, {"s_cmovk_i32", sopk, CMOVK}, {"s_addk_i32", sopk, ADDK},
	{"s_addk_co_i32", sopk, ADDK}, {"s_mulk_i32", sopk, MULK}, {"s_call_b64", sopk, CALL},
	CMPK("eq_i32", EQ, I32, CMPK_SIGNED), CMPK("lg_i32", LG, I32, CMPK_SIGNED), CMPK("gt_i32", GT, I32, CMPK_SIGNED),
	CMPK("ge_i32", GE, I32, CMPK_SIGNED), CMPK("lt_i32", LT, I32, CMPK_SIGNED), CMPK("le_i32", LE, I32, CMPK_SIGNED),
	CMPK("eq_u32", EQ, U32, CMPK_UNSIGNED), CMPK("lg_u32", LG, U32, CMPK_UNSIGNED), CMPK("gt_u32", GT, U32, CMPK_UNSIGNED),
	CMPK("ge_u32", GE, U32, CMPK_UNSIGNED), CMPK("lt_u32", LT, U32, CMPK_UNSIGNED), CMPK("le_u32", LE, U32, CMPK_UNSIGNED),
	{"s_getreg_b32", sreg, GETREG}, {"s_setreg_b32", sreg, SETREG},
	{"s_setreg_imm32_b32", sreg, SETREG_IMM},
	{"s_endpgm", sopp, ENDPGM}, {"s_branch", sopp, BRANCH},
	{"s_cbranch_scc0", sopp, CBRANCH_SCC0}, {"s_cbranch_scc1", sopp, CBRANCH_SCC1},
	{"s_cbranch_vccz", sopp, CBRANCH_VCCZ}, {"s_cbranch_vccnz", sopp, CBRANCH_VCCNZ},
	{"s_cbranch_execz", sopp, CBRANCH_EXECZ}, {"s_cbranch_execnz", sopp, CBRANCH_EXECNZ},
	{"s_barrier", sopp, BARRIER}, {"s_barrier_signal", barrier_signal, 0},
	{"s_barrier_signal_isfirst", barrier_signal, 1},
	{"s_get_barrier_state", barrier_state, 0}, {"s_alloc_vgpr", alloc_vgpr, 0},
	{"s_barrier_wait", sopp, BARRIER_WAIT}, {"s_sleep", sopp, SLEEP}, {"s_trap", sopp, TRAP},
	{"s_sleep_var", sopp, SLEEP}, {"s_endpgm_saved", sopp, ENDPGM},
	{"s_sendmsghalt", sopp, SENDMSGHALT}, {"v_illegal", sopp, ILLEGAL},
	{"s_sethalt", sopp, SETHALT}, {"s_sendmsg", sopp, SENDMSG},
	{"s_sendmsg_rtn_b32", sopp, SENDMSG_RTN_32}, {"s_sendmsg_rtn_b64", sopp, SENDMSG_RTN_64},
	{"s_round_mode", sopp, ROUND_MODE}, {"s_denorm_mode", sopp, DENORM_MODE},
	{"s_memtime", sopp, MEMTIME}, {"s_memrealtime", sopp, MEMREALTIME},
	{"s_load_b32", smem, 1}, {"s_load_b64", smem, 2}, {"s_load_b96", smem, 3},
	{"s_load_b128", smem, 4}, {"s_load_b256", smem, 8}, {"s_load_b512", smem, 16},
	{"s_load_u8", smem, 1 | 1 << 9}, {"s_load_i8", smem, 1 | 2 << 9},
	{"s_load_u16", smem, 1 | 3 << 9}, {"s_load_i16", smem, 1 | 4 << 9},
	{"s_buffer_load_b32", smem, 0x101}, {"s_buffer_load_b64", smem, 0x102},
	{"s_buffer_load_b128", smem, 0x104}, {"s_buffer_load_b256", smem, 0x108},
	{"s_buffer_load_b96", smem, 0x103}, {"s_buffer_load_u8", smem, 0x101 | 1 << 9},
	{"s_buffer_load_i8", smem, 0x101 | 2 << 9}, {"s_buffer_load_u16", smem, 0x101 | 3 << 9},
	{"s_buffer_load_i16", smem, 0x101 | 4 << 9},
	{"s_buffer_load_b512", smem, 0x110},
	{NULL, NULL, 0},
};
