/* The video instructions, on bytes and half-words of 32-bit operands.
 *
 * SIMD (vadd2 ... vset4): each of the 2 or 4 lanes of a and b is picked from the pair
 * {b, a} by a lane selector (.h10 .b3210: the digit of lane i is the i-th from the right;
 * a defaults to its own lanes, b to its own: .h32 .b7654), extended by its type and
 * computed in 32 bits; .sat clamps to dtype's lane range. Then the lanes of d's mask
 * (.h10 .b3210 by default) get the results and the others c's lanes, or, with .add,
 * d = c + the sum of the mask's results.
 *
 * Scalar (vadd vsub vabsdiff vmin vmax vshl vshr vmad vset): a byte or half-word of each
 * operand (.b0-.b3, .h0 .h1; the whole word by default) extended by its type, the result
 * kept in 34 bits and clamped by .sat to dtype's range - a byte's or a half-word's with a
 * destination selector; then an optional secondary operation with c (.add .min .max), or
 * the merge of the result into c at d's selector.
 *
 * Where an H200 (whose ptxas emulates these) departs from the ISA's text, the lowering
 * does as the H200 does, as tests/programs/ptx_video.cu checks: an unsigned saturation to
 * a byte or half-word reads the 34 bits as unsigned (a negative result saturates to the
 * largest value); a saturated result keeps only its part's bits, and a .h1 merge takes bits
 * 16-31 of the result instead of moving its low half there; vmad reads a whole-word
 * operand as signed whatever its type, and c as signed.  */
#include <string.h>

#include "lower.h"

enum video_op { VIDEO_ADD, VIDEO_SUB, VIDEO_AVRG, VIDEO_ABSDIFF, VIDEO_MIN, VIDEO_MAX, VIDEO_SHL,
                VIDEO_SHR, VIDEO_MAD, VIDEO_SET };

/* The operation, and 2 or 4 for the SIMD forms, 1 for the scalar ones. */
static bool video_op(const char *o, enum video_op *op, unsigned *lanes)
{
	static const struct { const char *name; enum video_op op; bool simd, scalar; } ops[] = {
		{"vadd", VIDEO_ADD, true, true}, {"vsub", VIDEO_SUB, true, true},
		{"vavrg", VIDEO_AVRG, true, false}, {"vabsdiff", VIDEO_ABSDIFF, true, true},
		{"vmin", VIDEO_MIN, true, true}, {"vmax", VIDEO_MAX, true, true},
		{"vshl", VIDEO_SHL, false, true}, {"vshr", VIDEO_SHR, false, true},
		{"vmad", VIDEO_MAD, false, true}, {"vset", VIDEO_SET, true, true},
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].name);
		if (strncmp(o, ops[i].name, n) != 0)
			continue;
		*op = ops[i].op;
		*lanes = !strcmp(o + n, "2") ? 2 : !strcmp(o + n, "4") ? 4 : 1;
		if (o[n] && (*lanes == 1 || !ops[i].simd))
			return false;
		return *lanes > 1 || ops[i].scalar;
	}
	return false;
}

static LLVMValueRef select_int(struct lower *L, LLVMIntPredicate p, LLVMValueRef x, LLVMValueRef y)
{
	return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, p, x, y, ""), x, y, "");
}

static LLVMValueRef clamp(struct lower *L, LLVMValueRef v, int64_t lo, int64_t hi)
{
	LLVMTypeRef t = LLVMTypeOf(v);

	v = select_int(L, LLVMIntSLT, v, LLVMConstInt(t, (uint64_t)hi, 1));
	return select_int(L, LLVMIntSGT, v, LLVMConstInt(t, (uint64_t)lo, 1));
}

/* An operand's register value, without its selector (which the caller applies). */
static LLVMValueRef raw_operand(struct lower *L, unsigned i)
{
	struct ptx_operand plain = *op(L, i);

	plain.selector = NULL;
	plain.minus = false;
	return operand_value(L, &plain, PTX_TYPE_B32);
}

static LLVMValueRef compare(struct lower *L, LLVMValueRef a, LLVMValueRef b)
{
	static const struct { const char *mod; LLVMIntPredicate pred; } cmps[] = {
		{"eq", LLVMIntEQ}, {"ne", LLVMIntNE}, {"lt", LLVMIntSLT}, {"le", LLVMIntSLE},
		{"gt", LLVMIntSGT}, {"ge", LLVMIntSGE},
	};

	for (size_t i = 0; i < sizeof(cmps) / sizeof(cmps[0]); i++)
		if (has_mod(L, cmps[i].mod))
			return LLVMBuildZExt(L->b, LLVMBuildICmp(L->b, cmps[i].pred, a, b, ""), LLVMTypeOf(a), "");
	lower_fail(L, "%s needs a comparison (.eq .ne .lt .le .gt .ge)", L->insn->opcode);
}

/* The primary operation on extended operands; vmad and the shifts are the scalar ones'. */
static LLVMValueRef primary(struct lower *L, enum video_op op, LLVMValueRef a, LLVMValueRef b)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef one = LLVMConstInt(t, 1, 0), sum, difference;

	switch (op) {
	case VIDEO_ADD: return LLVMBuildAdd(L->b, a, b, "");
	case VIDEO_SUB: return LLVMBuildSub(L->b, a, b, "");
	case VIDEO_AVRG: /* (a + b + 1) >> 1 when a + b >= 0, else (a + b) >> 1 */
		sum = LLVMBuildAdd(L->b, a, b, "");
		return LLVMBuildAShr(L->b, LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGE, sum, LLVMConstInt(t, 0, 0), ""),
		                                           LLVMBuildAdd(L->b, sum, one, ""), sum, ""),
		                     one, "");
	case VIDEO_ABSDIFF:
		difference = LLVMBuildSub(L->b, a, b, "");
		return select_int(L, LLVMIntSGT, difference, LLVMBuildNeg(L->b, difference, ""));
	case VIDEO_MIN: return select_int(L, LLVMIntSLT, a, b);
	case VIDEO_MAX: return select_int(L, LLVMIntSGT, a, b);
	case VIDEO_SET: return compare(L, a, b);
	case VIDEO_SHL: case VIDEO_SHR: case VIDEO_MAD: break;
	}
	lower_unsupported(L);
}

/* ---- SIMD ------------------------------------------------------------------------------ */

/* The digits of a selector for `lanes` lanes, lane 0 last; `fallback` when none is given. */
static const char *simd_selector(struct lower *L, const struct ptx_operand *o, unsigned lanes,
                                 const char *fallback, bool mask)
{
	const char *s = o->selector;
	size_t n;

	if (!s)
		return fallback;
	n = strlen(s + 1);
	if (s[0] != (lanes == 2 ? 'h' : 'b') || (mask ? n > lanes : n != lanes))
		lower_fail(L, "%s: lane selector .%s does not fit %u lanes", L->insn->opcode, s, lanes);
	return s + 1;
}

static bool simd(struct lower *L, enum video_op kind, unsigned lanes)
{
	enum ptx_type dt = kind == VIDEO_SET ? PTX_TYPE_U32 : mod_type(L, 0);
	enum ptx_type at = mod_type(L, kind == VIDEO_SET ? 0 : 1), bt = mod_type(L, kind == VIDEO_SET ? 1 : 2);
	unsigned width = 32 / lanes;
	bool accumulate = has_mod(L, "add"), saturate = has_mod(L, "sat");
	LLVMTypeRef i32 = ll_int(L, 32), i64 = ll_int(L, 64);
	const char *asel, *bsel, *mask;
	LLVMValueRef pair, c, d;

	if (at == PTX_TYPE_NONE || bt == PTX_TYPE_NONE || (accumulate && saturate))
		lower_unsupported(L);
	expect_operands(L, 4);
	asel = simd_selector(L, op(L, 1), lanes, lanes == 2 ? "10" : "3210", false);
	bsel = simd_selector(L, op(L, 2), lanes, lanes == 2 ? "32" : "7654", false);
	mask = simd_selector(L, op(L, 0), lanes, lanes == 2 ? "10" : "3210", true);
	pair = LLVMBuildOr(L->b, LLVMBuildShl(L->b, LLVMBuildZExt(L->b, raw_operand(L, 2), i64, ""),
	                                      LLVMConstInt(i64, 32, 0), ""),
	                   LLVMBuildZExt(L->b, raw_operand(L, 1), i64, ""), "");
	c = raw_operand(L, 3);
	d = accumulate ? c : LLVMConstInt(i32, 0, 0);
	for (unsigned i = 0; i < lanes; i++) {
		LLVMValueRef v[2], t, lane_mask = LLVMConstInt(i32, ((1u << width) - 1) << (i * width), 0);
		const char *sel[2] = { asel, bsel };
		enum ptx_type types[2] = { at, bt };

		for (int k = 0; k < 2; k++) {
			unsigned from = (unsigned)(sel[k][lanes - 1 - i] - '0') * width;
			LLVMValueRef narrow = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, pair, LLVMConstInt(i64, from, 0), ""),
			                                     ll_int(L, width), "");
			v[k] = type_is_signed(types[k]) ? LLVMBuildSExt(L->b, narrow, i32, "") : LLVMBuildZExt(L->b, narrow, i32, "");
		}
		t = primary(L, kind, v[0], v[1]);
		if (saturate)
			t = type_is_signed(dt) ? clamp(L, t, -(1 << (width - 1)), (1 << (width - 1)) - 1)
			                       : clamp(L, t, 0, (1 << width) - 1);
		if (!strchr(mask, (int)('0' + i)))
			continue;  /* merging keeps c's lane; accumulating adds nothing */
		if (accumulate) {
			d = LLVMBuildAdd(L->b, d, t, "");
		} else {
			d = LLVMBuildOr(L->b, d, LLVMBuildAnd(L->b, LLVMBuildShl(L->b, t, LLVMConstInt(i32, i * width, 0), ""),
			                                      lane_mask, ""), "");
			c = LLVMBuildAnd(L->b, c, LLVMBuildNot(L->b, lane_mask, ""), "");
		}
	}
	operand_store(L, op(L, 0), accumulate ? d : LLVMBuildOr(L->b, d, c, ""), dt);
	return true;
}

/* ---- scalar ------------------------------------------------------------------------------ */

/* .b0-.b3 .h0 .h1: the part's bit offset and width; the whole word without a selector. */
static void scalar_part(struct lower *L, const struct ptx_operand *o, unsigned *shift, unsigned *width)
{
	const char *s = o->selector;

	*shift = 0, *width = 32;
	if (!s)
		return;
	if (strlen(s) != 2 || (s[0] == 'h' && s[1] > '1') || (s[0] == 'b' && s[1] > '3'))
		lower_fail(L, "%s: lane selector .%s is not one of .b0-.b3, .h0, .h1", L->insn->opcode, s);
	*width = s[0] == 'h' ? 16 : 8;
	*shift = (unsigned)(s[1] - '0') * *width;
}

/* Operand i's selected part, extended by type t (or sign-extended) to 128 bits. */
static LLVMValueRef scalar_operand(struct lower *L, unsigned i, enum ptx_type t, bool whole_signed)
{
	unsigned shift, width;
	LLVMValueRef v, narrow;

	scalar_part(L, op(L, i), &shift, &width);
	v = raw_operand(L, i);
	narrow = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, v, LLVMConstInt(LLVMTypeOf(v), shift, 0), ""),
	                        ll_int(L, width), "");
	return type_is_signed(t) || (whole_signed && width == 32) ? LLVMBuildSExt(L->b, narrow, ll_int(L, 128), "")
	                                                          : LLVMBuildZExt(L->b, narrow, ll_int(L, 128), "");
}

/* vmad: (+/-)a * (+/-)b + (+/-)c, a negation being the one's complement plus one (.po: plus
 * one alone), shifted right by .shr7/.shr15; signed if any operand type is or anything is
 * negated. */
static LLVMValueRef multiply_add(struct lower *L, LLVMValueRef a, LLVMValueRef b, enum ptx_type at,
                                 enum ptx_type bt, bool *is_signed)
{
	LLVMTypeRef i128 = ll_int(L, 128);
	bool negate_product = op(L, 1)->minus != op(L, 2)->minus, negate_c = op(L, 3)->minus;
	bool plus_one = has_mod(L, "po");
	LLVMValueRef product = LLVMBuildMul(L->b, a, b, ""), c = raw_operand(L, 3), lsb, r;

	if (plus_one && (negate_product || negate_c))
		lower_fail(L, "vmad.po takes no negated operands");
	*is_signed = type_is_signed(at) || type_is_signed(bt) || negate_product || negate_c;
	c = LLVMBuildSExt(L->b, c, i128, "");
	lsb = LLVMConstInt(i128, plus_one || negate_product || negate_c, 0);
	if (negate_product)
		product = LLVMBuildNot(L->b, product, "");
	else if (negate_c)
		c = LLVMBuildNot(L->b, c, "");
	r = LLVMBuildAdd(L->b, LLVMBuildAdd(L->b, product, c, ""), lsb, "");
	if (has_mod(L, "shr7"))
		r = LLVMBuildAShr(L->b, r, LLVMConstInt(i128, 7, 0), "");
	else if (has_mod(L, "shr15"))
		r = LLVMBuildAShr(L->b, r, LLVMConstInt(i128, 15, 0), "");
	return r;
}

static bool scalar(struct lower *L, enum video_op kind)
{
	bool is_set = kind == VIDEO_SET, saturate = has_mod(L, "sat");
	enum ptx_type dt = is_set ? PTX_TYPE_U32 : mod_type(L, 0);
	enum ptx_type at = mod_type(L, is_set ? 0 : 1), bt = mod_type(L, is_set ? 1 : 2);
	const struct ptx_operand *dst = op(L, 0);
	LLVMTypeRef i32 = ll_int(L, 32), i128 = ll_int(L, 128);
	LLVMValueRef a, b, r, c;
	unsigned shift, width;
	bool is_signed = type_is_signed(dt), combine;

	if (at == PTX_TYPE_NONE || bt == PTX_TYPE_NONE)
		lower_unsupported(L);
	if (L->insn->nops != 3 && L->insn->nops != 4)
		lower_fail(L, "%s takes 3 or 4 operands, not %u", L->insn->opcode, L->insn->nops);
	if (kind == VIDEO_MAD && L->insn->nops != 4)
		lower_fail(L, "vmad takes 4 operands, not %u", L->insn->nops);
	a = scalar_operand(L, 1, at, kind == VIDEO_MAD);
	b = scalar_operand(L, 2, bt, kind == VIDEO_MAD);
	if (kind == VIDEO_SHL || kind == VIDEO_SHR) {
		/* the shift count is unsigned: .clamp stops at 32, .wrap takes it modulo 32 */
		b = has_mod(L, "wrap") ? LLVMBuildAnd(L->b, b, LLVMConstInt(i128, 31, 0), "")
		                       : select_int(L, LLVMIntULT, b, LLVMConstInt(i128, 32, 0));
		r = kind == VIDEO_SHL ? LLVMBuildShl(L->b, a, b, "")
		  : type_is_signed(at) ? LLVMBuildAShr(L->b, a, b, "") : LLVMBuildLShr(L->b, a, b, "");
	} else if (kind == VIDEO_MAD) {
		r = multiply_add(L, a, b, at, bt, &is_signed);
	} else {
		r = primary(L, kind, a, b);
	}
	if (kind != VIDEO_MAD)
		r = LLVMBuildSExt(L->b, LLVMBuildTrunc(L->b, r, ll_int(L, 34), ""), i128, "");
	scalar_part(L, dst, &shift, &width);
	if (saturate && !is_set) {
		if (!is_signed && kind != VIDEO_MAD && width < 32)
			r = LLVMBuildAnd(L->b, r, LLVMConstInt(i128, (1ull << 34) - 1, 0), "");
		r = is_signed ? clamp(L, r, -((int64_t)1 << (width - 1)), ((int64_t)1 << (width - 1)) - 1)
		              : clamp(L, r, 0, (int64_t)((1ull << width) - 1));
		r = LLVMBuildAnd(L->b, r, LLVMConstInt(i128, (1ull << width) - 1, 0), "");
	}
	r = LLVMBuildTrunc(L->b, r, i32, "");
	combine = kind != VIDEO_MAD && L->insn->nops == 4; /* vmad's c is an addend */
	if (combine && dst->selector) {
		LLVMValueRef part = LLVMConstInt(i32, (width == 32 ? ~0u : (1u << width) - 1) << shift, 0);
		c = LLVMBuildAnd(L->b, raw_operand(L, 3), LLVMBuildNot(L->b, part, ""), "");
		if (strcmp(dst->selector, "h1") != 0)
			r = LLVMBuildShl(L->b, r, LLVMConstInt(i32, shift, 0), "");
		r = LLVMBuildOr(L->b, c, LLVMBuildAnd(L->b, r, part, ""), "");
	} else if (combine) {
		c = raw_operand(L, 3);
		if (has_mod(L, "add"))
			r = LLVMBuildAdd(L->b, r, c, "");
		else if (has_mod(L, "min"))
			r = select_int(L, is_signed ? LLVMIntSLT : LLVMIntULT, r, c);
		else if (has_mod(L, "max"))
			r = select_int(L, is_signed ? LLVMIntSGT : LLVMIntUGT, r, c);
		else
			lower_fail(L, "%s with c needs .add, .min, .max or a destination selector", L->insn->opcode);
	}
	operand_store(L, dst, r, dt); /* the register whole: the selector was applied above */
	return true;
}

bool lower_video(struct lower *L)
{
	enum video_op kind;
	unsigned lanes;

	if (!video_op(L->insn->opcode, &kind, &lanes))
		return false;
	return lanes > 1 ? simd(L, kind, lanes) : scalar(L, kind);
}
