/* The SIMD video instructions: vadd vsub vavrg vabsdiff vmin vmax on four bytes (vop4) or
 * two half-words (vop2) of 32-bit operands, e.g. what nvcc emits for __vabsdiffu4.
 *
 *   vop4.dtype.atype.btype{.sat} d, a, b, c;   d = the lanes' results, packed
 *   vop4.dtype.atype.btype.add   d, a, b, c;   d = c + the sum of the lanes' results
 *
 * Each lane is sign- or zero-extended by its operand's type and computed in 32 bits; .sat
 * clamps a lane to dtype's lane range. Only the default lane selection (all lanes, in
 * order, so that c fills no lane of a merge) is lowered; vset is not. */
#include <string.h>

#include "lower.h"

enum video_op { VIDEO_ADD, VIDEO_SUB, VIDEO_AVRG, VIDEO_ABSDIFF, VIDEO_MIN, VIDEO_MAX };

static bool video_op(const char *o, enum video_op *op, unsigned *lanes)
{
	static const struct { const char *name; enum video_op op; } ops[] = {
		{"vadd", VIDEO_ADD}, {"vsub", VIDEO_SUB}, {"vavrg", VIDEO_AVRG},
		{"vabsdiff", VIDEO_ABSDIFF}, {"vmin", VIDEO_MIN}, {"vmax", VIDEO_MAX},
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].name);
		if (strncmp(o, ops[i].name, n) == 0 && (!strcmp(o + n, "2") || !strcmp(o + n, "4"))) {
			*op = ops[i].op;
			*lanes = o[n] == '2' ? 2 : 4;
			return true;
		}
	}
	return false;
}

/* Lane i of v, extended to 32 bits. */
static LLVMValueRef lane(struct lower *L, LLVMValueRef v, unsigned i, unsigned width, bool is_signed)
{
	LLVMTypeRef i32 = ll_int(L, 32);
	LLVMValueRef narrow = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, v, LLVMConstInt(i32, i * width, 0), ""),
	                                     ll_int(L, width), "");

	return is_signed ? LLVMBuildSExt(L->b, narrow, i32, "") : LLVMBuildZExt(L->b, narrow, i32, "");
}

static LLVMValueRef select_int(struct lower *L, LLVMIntPredicate p, LLVMValueRef x, LLVMValueRef y)
{
	return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, p, x, y, ""), x, y, "");
}

static LLVMValueRef lane_result(struct lower *L, enum video_op op, LLVMValueRef a, LLVMValueRef b)
{
	LLVMTypeRef i32 = ll_int(L, 32);
	LLVMValueRef one = LLVMConstInt(i32, 1, 0), sum, difference;

	switch (op) {
	case VIDEO_ADD: return LLVMBuildAdd(L->b, a, b, "");
	case VIDEO_SUB: return LLVMBuildSub(L->b, a, b, "");
	case VIDEO_AVRG: /* (a + b + 1) >> 1 when a + b >= 0, else (a + b) >> 1 */
		sum = LLVMBuildAdd(L->b, a, b, "");
		return LLVMBuildAShr(L->b, LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGE, sum, LLVMConstInt(i32, 0, 0), ""),
		                                           LLVMBuildAdd(L->b, sum, one, ""), sum, ""),
		                     one, "");
	case VIDEO_ABSDIFF:
		difference = LLVMBuildSub(L->b, a, b, "");
		return select_int(L, LLVMIntSGT, difference, LLVMBuildNeg(L->b, difference, ""));
	case VIDEO_MIN: return select_int(L, LLVMIntSLT, a, b);
	case VIDEO_MAX: return select_int(L, LLVMIntSGT, a, b);
	}
	return a;
}

bool lower_video(struct lower *L)
{
	enum video_op kind;
	unsigned lanes, width;
	enum ptx_type dt, at, bt;
	LLVMTypeRef i32 = ll_int(L, 32);
	LLVMValueRef a, b, c, d;
	bool accumulate = has_mod(L, "add"), saturate = has_mod(L, "sat");

	if (!video_op(L->insn->opcode, &kind, &lanes))
		return false;
	dt = mod_type(L, 0);
	at = mod_type(L, 1);
	bt = mod_type(L, 2);
	if (at == PTX_TYPE_NONE || bt == PTX_TYPE_NONE || (accumulate && saturate))
		lower_unsupported(L);
	expect_operands(L, 4);
	width = 32 / lanes;
	a = operand_value(L, op(L, 1), PTX_TYPE_B32);
	b = operand_value(L, op(L, 2), PTX_TYPE_B32);
	c = operand_value(L, op(L, 3), PTX_TYPE_B32);
	d = accumulate ? c : LLVMConstInt(i32, 0, 0);
	for (unsigned i = 0; i < lanes; i++) {
		LLVMValueRef t = lane_result(L, kind, lane(L, a, i, width, type_is_signed(at)),
		                             lane(L, b, i, width, type_is_signed(bt)));
		if (saturate) {
			bool is_signed = type_is_signed(dt);
			int64_t hi = is_signed ? (1 << (width - 1)) - 1 : (1 << width) - 1;
			int64_t lo = is_signed ? -(1 << (width - 1)) : 0;
			t = select_int(L, LLVMIntSLT, t, LLVMConstInt(i32, (uint64_t)hi, 1));
			t = select_int(L, LLVMIntSGT, t, LLVMConstInt(i32, (uint64_t)lo, 1));
		}
		if (accumulate) {
			d = LLVMBuildAdd(L->b, d, t, "");
		} else {
			LLVMValueRef bits = LLVMBuildAnd(L->b, t, LLVMConstInt(i32, (1u << width) - 1, 0), "");
			d = LLVMBuildOr(L->b, d, LLVMBuildShl(L->b, bits, LLVMConstInt(i32, i * width, 0), ""), "");
		}
	}
	operand_store(L, op(L, 0), d, dt);
	return true;
}
