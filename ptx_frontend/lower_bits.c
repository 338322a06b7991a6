/* Byte and bit-field instructions: prmt, bfi, bmsk, szext, fns, dp4a, dp2a, mul24/mad24. */
#include <stdint.h>
#include <string.h>

#include "lower.h"

static LLVMValueRef umin(struct lower *L, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntULT, a, b, ""), a, b, "");
}

/* The special modes of prmt as default-mode selectors, one per value of c's two low bits,
 * packed 16 bits each (ctl 0 lowest). */
static const struct {
	const char *mode;
	uint64_t selectors;
} prmt_modes[] = {
	{ "f4e", 0x6543543243213210 },  /* forward 4 extract */
	{ "b4e", 0x0123701267015670 },  /* backward 4 extract */
	{ "rc8", 0x3333222211110000 },  /* replicate 8 */
	{ "ecl", 0x3333322232113210 },  /* edge clamp left */
	{ "ecr", 0x3210221011100000 },  /* edge clamp right */
	{ "rc16", 0x3232101032321010 }, /* replicate 16 */
};

/* prmt.b32 d, a, b, c: byte i of d is the byte of {b, a} that nibble i of c selects; bit 3 of
 * the nibble replicates that byte's sign instead. A mode picks the selector by c & 3. */
static bool lower_prmt(struct lower *L)
{
	LLVMTypeRef i64 = ll_int(L, 64);
	LLVMValueRef a = operand_value(L, op(L, 1), PTX_TYPE_B32);
	LLVMValueRef b = operand_value(L, op(L, 2), PTX_TYPE_B32);
	LLVMValueRef c = operand_value(L, op(L, 3), PTX_TYPE_B32), d = const32(L, 0);
	LLVMValueRef x = LLVMBuildOr(L->b, LLVMBuildZExt(L->b, a, i64, ""),
	                             LLVMBuildShl(L->b, LLVMBuildZExt(L->b, b, i64, ""),
	                                          LLVMConstInt(i64, 32, 0), ""), "");

	for (size_t m = 0; m < sizeof prmt_modes / sizeof prmt_modes[0]; m++) {
		if (!has_mod(L, prmt_modes[m].mode))
			continue;
		LLVMValueRef at = LLVMBuildZExt(L->b, LLVMBuildMul(L->b, LLVMBuildAnd(L->b, c, const32(L, 3), ""),
		                                                   const32(L, 16), ""), i64, "");
		c = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, LLVMConstInt(i64, prmt_modes[m].selectors, 0), at, ""),
		                   ll_int(L, 32), "");
		c = LLVMBuildAnd(L->b, c, const32(L, 0xffff), "");
	}
	for (unsigned i = 0; i < 4; i++) {
		LLVMValueRef sel = LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, c, const32(L, 4 * i), ""), const32(L, 0xf), "");
		LLVMValueRef at = LLVMBuildZExt(L->b, LLVMBuildMul(L->b, LLVMBuildAnd(L->b, sel, const32(L, 7), ""),
		                                                   const32(L, 8), ""), i64, "");
		LLVMValueRef byte = LLVMBuildAnd(L->b, LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, x, at, ""),
		                                                      ll_int(L, 32), ""), const32(L, 0xff), "");
		LLVMValueRef sign = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntNE,
			LLVMBuildAnd(L->b, byte, const32(L, 0x80), ""), const32(L, 0), ""), const32(L, 0xff), const32(L, 0), "");
		byte = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntNE, LLVMBuildAnd(L->b, sel, const32(L, 8), ""),
		                                           const32(L, 0), ""), sign, byte, "");
		d = LLVMBuildOr(L->b, d, LLVMBuildShl(L->b, byte, const32(L, 8 * i), ""), "");
	}
	operand_store(L, op(L, 0), d, PTX_TYPE_B32);
	return true;
}

/* bfi.bN d, a, b, pos, len: b with len bits of a inserted at pos (both taken mod 256 and
 * clamped to the width). */
static bool lower_bfi(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	unsigned bits = type_bits(t);
	LLVMTypeRef ty = ll_type(L, t);
	LLVMValueRef a = operand_value(L, op(L, 1), t), b = operand_value(L, op(L, 2), t);
	LLVMValueRef pos = LLVMBuildAnd(L->b, operand_value(L, op(L, 3), PTX_TYPE_U32), const32(L, 0xff), "");
	LLVMValueRef len = LLVMBuildAnd(L->b, operand_value(L, op(L, 4), PTX_TYPE_U32), const32(L, 0xff), "");
	LLVMValueRef width = const32(L, bits), inside = LLVMBuildICmp(L->b, LLVMIntULT, pos, width, "");
	LLVMValueRef keep = umin(L, len, LLVMBuildSub(L->b, width, umin(L, pos, width), ""));
	LLVMValueRef ones = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntUGE, keep, width, ""),
		LLVMConstAllOnes(ty),
		LLVMBuildSub(L->b, LLVMBuildShl(L->b, LLVMConstInt(ty, 1, 0),
		                                coerce(L, umin(L, keep, const32(L, bits - 1)), t, false), ""),
		             LLVMConstInt(ty, 1, 0), ""), "");
	LLVMValueRef at = coerce(L, umin(L, pos, const32(L, bits - 1)), t, false);
	LLVMValueRef mask = LLVMBuildShl(L->b, ones, at, "");
	LLVMValueRef d = LLVMBuildOr(L->b, LLVMBuildAnd(L->b, b, LLVMBuildNot(L->b, mask, ""), ""),
	                             LLVMBuildAnd(L->b, LLVMBuildShl(L->b, a, at, ""), mask, ""), "");

	operand_store(L, op(L, 0), LLVMBuildSelect(L->b, inside, d, b, ""), t);
	return true;
}

/* bmsk.{clamp,wrap}.b32 d, pos, len: len one bits starting at pos. */
static bool lower_bmsk(struct lower *L)
{
	LLVMTypeRef i64 = ll_int(L, 64);
	LLVMValueRef pos = operand_value(L, op(L, 1), PTX_TYPE_U32);
	LLVMValueRef len = operand_value(L, op(L, 2), PTX_TYPE_U32), m;

	if (has_mod(L, "wrap")) {
		pos = LLVMBuildAnd(L->b, pos, const32(L, 31), "");
		len = LLVMBuildAnd(L->b, len, const32(L, 31), "");
	} else {
		pos = umin(L, pos, const32(L, 32));
		len = umin(L, len, const32(L, 32));
	}
	m = LLVMBuildSub(L->b, LLVMBuildShl(L->b, LLVMConstInt(i64, 1, 0), LLVMBuildZExt(L->b, len, i64, ""), ""),
	                 LLVMConstInt(i64, 1, 0), "");
	m = LLVMBuildShl(L->b, m, LLVMBuildZExt(L->b, pos, i64, ""), "");
	operand_store(L, op(L, 0), LLVMBuildTrunc(L->b, m, ll_int(L, 32), ""), PTX_TYPE_B32);
	return true;
}

/* szext.{clamp,wrap}.{u32,s32} d, a, n: the low n bits of a, zero- or sign-extended. */
static bool lower_szext(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	LLVMValueRef a = operand_value(L, op(L, 1), t), n = operand_value(L, op(L, 2), PTX_TYPE_U32);
	LLVMValueRef shift, r;

	n = has_mod(L, "wrap") ? LLVMBuildAnd(L->b, n, const32(L, 31), "") : umin(L, n, const32(L, 32));
	shift = LLVMBuildSub(L->b, const32(L, 32), n, "");
	shift = umin(L, shift, const32(L, 31));
	r = LLVMBuildShl(L->b, a, shift, "");
	r = type_is_signed(t) ? LLVMBuildAShr(L->b, r, shift, "") : LLVMBuildLShr(L->b, r, shift, "");
	r = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, n, const32(L, 0), ""), const32(L, 0), r, "");
	operand_store(L, op(L, 0), r, t);
	return true;
}

static LLVMValueRef lane(struct lower *L, LLVMValueRef v, unsigned index, unsigned bits, bool is_signed)
{
	LLVMValueRef part = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, v, const32(L, index * bits), ""),
	                                   ll_int(L, bits), "");

	return is_signed ? LLVMBuildSExt(L->b, part, ll_int(L, 32), "")
	                 : LLVMBuildZExt(L->b, part, ll_int(L, 32), "");
}

/* dp4a.atype.btype d, a, b, c: c plus the dot product of the four byte pairs;
 * dp2a.{lo,hi}: of a's two halves with b's low or high two bytes. */
static bool lower_dot(struct lower *L, bool four)
{
	enum ptx_type at = mod_type(L, 0), bt = mod_type(L, 1);
	enum ptx_type dt = type_is_signed(at) || type_is_signed(bt) ? PTX_TYPE_S32 : PTX_TYPE_U32;
	LLVMValueRef a = operand_value(L, op(L, 1), PTX_TYPE_B32);
	LLVMValueRef b = operand_value(L, op(L, 2), PTX_TYPE_B32);
	LLVMValueRef d = operand_value(L, op(L, 3), dt);
	unsigned first = has_mod(L, "hi") ? 2 : 0;

	if (four) { /* the processor's dot instruction where it has one for the signs */
		LLVMValueRef args[5] = {a, b, d, const32(L, type_is_signed(at) | type_is_signed(bt) << 1),
		                        const32(L, 8)};

		operand_store(L, op(L, 0), call_builtin(L, "__zc_dot", ll_int(L, 32), args, 5), dt);
		return true;
	}
	for (unsigned i = 0; i < 2; i++) {
		LLVMValueRef x = lane(L, a, i, 16, type_is_signed(at));
		LLVMValueRef y = lane(L, b, first + i, 8, type_is_signed(bt));
		d = LLVMBuildAdd(L->b, d, LLVMBuildMul(L->b, x, y, ""), "");
	}
	operand_store(L, op(L, 0), d, dt);
	return true;
}

/* mul24/mad24: 24-bit operands, the 48-bit product's low 32 bits (.lo) or bits 16..47 (.hi);
 * mad24.hi.sat.s32 adds c to those bits and saturates the sum to s32. */
static bool lower_mul24(struct lower *L, bool add)
{
	enum ptx_type t = mod_type(L, 0);
	LLVMTypeRef i64 = ll_int(L, 64);
	LLVMValueRef p = LLVMConstInt(i64, 0, 0);
	LLVMValueRef x[2];

	for (unsigned i = 0; i < 2; i++) {
		LLVMValueRef v = LLVMBuildTrunc(L->b, operand_value(L, op(L, i + 1), t), ll_int(L, 24), "");
		x[i] = type_is_signed(t) ? LLVMBuildSExt(L->b, v, i64, "") : LLVMBuildZExt(L->b, v, i64, "");
	}
	p = LLVMBuildMul(L->b, x[0], x[1], "");
	if (add && has_mod(L, "sat")) {
		if (!has_mod(L, "hi") || t != PTX_TYPE_S32)
			lower_unsupported(L);
		LLVMValueRef sum = LLVMBuildAdd(L->b, LLVMBuildAShr(L->b, p, LLVMConstInt(i64, 16, 0), ""),
		                                LLVMBuildSExt(L->b, operand_value(L, op(L, 3), t), i64, ""), "");
		LLVMValueRef lo = LLVMConstInt(i64, (uint64_t)INT32_MIN, 1), hi = LLVMConstInt(i64, INT32_MAX, 0);
		sum = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSLT, sum, lo, ""), lo, sum, "");
		sum = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, sum, hi, ""), hi, sum, "");
		operand_store(L, op(L, 0), LLVMBuildTrunc(L->b, sum, ll_int(L, 32), ""), t);
		return true;
	}
	if (has_mod(L, "hi"))
		p = LLVMBuildLShr(L->b, p, LLVMConstInt(i64, 16, 0), "");
	p = LLVMBuildTrunc(L->b, p, ll_int(L, 32), "");
	if (add)
		p = LLVMBuildAdd(L->b, p, operand_value(L, op(L, 3), t), "");
	operand_store(L, op(L, 0), p, t);
	return true;
}

/* fns.b32 d, mask, base, offset: the position of the offset-th set bit of mask counted from
 * base (upwards for offset > 0, downwards for offset < 0, base itself for 0), or 0xffffffff. */
static bool lower_fns(struct lower *L)
{
	LLVMValueRef args[3];

	for (unsigned i = 0; i < 3; i++)
		args[i] = operand_value(L, op(L, i + 1), i == 2 ? PTX_TYPE_S32 : PTX_TYPE_U32);
	operand_store(L, op(L, 0), call_builtin(L, "__zc_fns", ll_int(L, 32), args, 3), PTX_TYPE_B32);
	return true;
}

bool lower_bits(struct lower *L)
{
	const char *o = L->insn->opcode;

	if (!strcmp(o, "fns"))
		return lower_fns(L);

	if (!strcmp(o, "prmt"))
		return lower_prmt(L);
	if (!strcmp(o, "bfi"))
		return lower_bfi(L);
	if (!strcmp(o, "bmsk"))
		return lower_bmsk(L);
	if (!strcmp(o, "szext"))
		return lower_szext(L);
	if (!strcmp(o, "dp4a") || !strcmp(o, "dp2a"))
		return lower_dot(L, o[2] == '4');
	if (!strcmp(o, "mul24") || !strcmp(o, "mad24"))
		return lower_mul24(L, o[1] == 'a');
	return false;
}
