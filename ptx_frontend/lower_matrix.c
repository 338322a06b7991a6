/* The warp's matrix fragments: ldmatrix and stmatrix (to and from shared memory) and
 * movmatrix (a transpose among the lanes) of 8x8 matrices of 16-bit elements, in the
 * fragment layout of the PTX ISA. For matrix i of ldmatrix and stmatrix, lanes 8i to 8i+7
 * give the addresses of its rows (16 bytes each); lane l holds the 32 bits of row l/4,
 * columns 2(l%4) and 2(l%4)+1, or with .trans those of column l/4, rows 2(l%4) and
 * 2(l%4)+1. Every target shares one lowering: each lane takes the row address it needs
 * from the lane that gave it (a warp shuffle) and reads or writes its own elements there. */
#include <string.h>

#include <llvm-c/Target.h>

#include "lower.h"

static LLVMValueRef const32(struct lower *L, uint32_t v)
{
	return LLVMConstInt(ll_int(L, 32), v, 0);
}

static LLVMValueRef shuffle_idx(struct lower *L, LLVMValueRef value, LLVMValueRef lane)
{
	LLVMValueRef args[4] = { const32(L, 0xffffffffu), value, lane, const32(L, 0x1f) };

	return LLVMBuildTrunc(L->b, call_builtin(L, "__zc_shfl_sync_idx", ll_int(L, 64), args, 4),
	                      ll_int(L, 32), "");
}

/* The address lane `from` gave, as a pointer of the type `mine` has: one shuffle where
 * pointers of its address space have 32 bits (AMD GPUs' shared memory), else two. */
static LLVMValueRef address_from(struct lower *L, LLVMValueRef mine, LLVMValueRef from)
{
	LLVMTypeRef i64 = ll_int(L, 64);
	LLVMTargetDataRef layout = LLVMCreateTargetData(LLVMGetDataLayoutStr(L->mod));
	unsigned bits = LLVMPointerSizeForAS(layout, LLVMGetPointerAddressSpace(LLVMTypeOf(mine))) * 8;

	LLVMDisposeTargetData(layout);
	if (bits == 32) {
		LLVMValueRef n = LLVMBuildPtrToInt(L->b, mine, ll_int(L, 32), "");
		return LLVMBuildIntToPtr(L->b, shuffle_idx(L, n, from), LLVMTypeOf(mine), "");
	}
	LLVMValueRef n = LLVMBuildPtrToInt(L->b, mine, i64, "");
	LLVMValueRef lo = shuffle_idx(L, LLVMBuildTrunc(L->b, n, ll_int(L, 32), ""), from);
	LLVMValueRef hi = shuffle_idx(L, LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, n,
	                              LLVMConstInt(i64, 32, 0), ""), ll_int(L, 32), ""), from);
	LLVMValueRef joined = LLVMBuildOr(L->b, LLVMBuildZExt(L->b, lo, i64, ""),
	                                  LLVMBuildShl(L->b, LLVMBuildZExt(L->b, hi, i64, ""),
	                                               LLVMConstInt(i64, 32, 0), ""), "");

	return LLVMBuildIntToPtr(L->b, joined, LLVMTypeOf(mine), "");
}

static LLVMValueRef at_byte(struct lower *L, LLVMValueRef p, LLVMValueRef offset)
{
	LLVMValueRef o = LLVMBuildZExt(L->b, offset, ll_int(L, 64), "");

	return LLVMBuildGEP2(L->b, ll_int(L, 8), p, &o, 1, "");
}

static unsigned matrix_count(struct lower *L)
{
	if (!has_mod(L, "m8n8") || !has_mod(L, "b16"))
		lower_unsupported(L);
	return has_mod(L, "x4") ? 4 : has_mod(L, "x2") ? 2 : has_mod(L, "x1") ? 1 : 0;
}

static const struct ptx_operand *fragment(struct lower *L, const struct ptx_operand *regs,
                                          unsigned n, unsigned i)
{
	if (regs->kind == PTX_OP_BRACES) {
		if (regs->count != n)
			lower_fail(L, "%s of %u matrices needs %u registers", L->insn->opcode, n, n);
		return &regs->items[i];
	}
	if (n != 1)
		lower_fail(L, "%s of %u matrices needs %u registers", L->insn->opcode, n, n);
	return regs;
}

/* ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared{::cta}}.b16 d, [a] and
 * stmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared{::cta}}.b16 [a], d */
static bool lower_ldst_matrix(struct lower *L, bool store)
{
	unsigned n = matrix_count(L);
	bool trans = has_mod(L, "trans");
	const struct ptx_operand *regs = op(L, store ? 1 : 0);
	LLVMValueRef mine, lane, quad, pair;

	if (!n)
		lower_unsupported(L);
	expect_operands(L, 2);
	mine = memory_address(L, op(L, store ? 0 : 1), insn_space(L));
	lane = call_builtin(L, "__zc_laneid", ll_int(L, 32), NULL, 0);
	quad = LLVMBuildLShr(L->b, lane, const32(L, 2), "");  /* l/4 */
	pair = LLVMBuildAnd(L->b, lane, const32(L, 3), "");   /* l%4 */
	for (unsigned i = 0; i < n; i++) {
		const struct ptx_operand *reg = fragment(L, regs, n, i);

		if (!trans) {
			LLVMValueRef row = address_from(L, mine, LLVMBuildAdd(L->b, const32(L, 8 * i), quad, ""));
			LLVMValueRef p = at_byte(L, row, LLVMBuildShl(L->b, pair, const32(L, 2), ""));

			if (store)
				LLVMSetAlignment(LLVMBuildStore(L->b, operand_value(L, reg, PTX_TYPE_B32), p), 4);
			else {
				LLVMValueRef v = LLVMBuildLoad2(L->b, ll_int(L, 32), p, "");
				LLVMSetAlignment(v, 4);
				operand_store(L, reg, v, PTX_TYPE_B32);
			}
			continue;
		}
		/* Rows 2(l%4) and 2(l%4)+1, column l/4: the low and the high half. */
		LLVMValueRef first = LLVMBuildAdd(L->b, const32(L, 8 * i),
		                                  LLVMBuildShl(L->b, pair, const32(L, 1), ""), "");
		LLVMValueRef column = LLVMBuildShl(L->b, quad, const32(L, 1), "");
		LLVMValueRef halves[2], value = store ? operand_value(L, reg, PTX_TYPE_B32) : NULL;

		for (unsigned h = 0; h < 2; h++) {
			LLVMValueRef row = address_from(L, mine, LLVMBuildAdd(L->b, first, const32(L, h), ""));
			LLVMValueRef p = at_byte(L, row, column);

			if (store) {
				LLVMValueRef half = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, value,
				                                   const32(L, 16 * h), ""), ll_int(L, 16), "");
				LLVMSetAlignment(LLVMBuildStore(L->b, half, p), 2);
			} else {
				halves[h] = LLVMBuildLoad2(L->b, ll_int(L, 16), p, "");
				LLVMSetAlignment(halves[h], 2);
				halves[h] = LLVMBuildZExt(L->b, halves[h], ll_int(L, 32), "");
			}
		}
		if (!store)
			operand_store(L, reg, LLVMBuildOr(L->b, halves[0], LLVMBuildShl(L->b, halves[1],
			              const32(L, 16), ""), ""), PTX_TYPE_B32);
	}
	return true;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: the fragment of the transposed matrix. Lane
 * l's halves are A[2(l%4)][l/4] and A[2(l%4)+1][l/4], and A[r][c] is half c%2 of lane
 * 4r + c/2's register. */
static bool lower_movmatrix(struct lower *L)
{
	LLVMValueRef a, lane, quad, pair, half, result = NULL;

	if (!has_mod(L, "m8n8") || !has_mod(L, "trans") || !has_mod(L, "b16"))
		lower_unsupported(L);
	expect_operands(L, 2);
	a = operand_value(L, op(L, 1), PTX_TYPE_B32);
	lane = call_builtin(L, "__zc_laneid", ll_int(L, 32), NULL, 0);
	quad = LLVMBuildLShr(L->b, lane, const32(L, 2), "");
	pair = LLVMBuildAnd(L->b, lane, const32(L, 3), "");
	/* the half of the source register: column l/4's parity, as a shift of 0 or 16 */
	half = LLVMBuildShl(L->b, LLVMBuildAnd(L->b, quad, const32(L, 1), ""), const32(L, 4), "");
	for (unsigned h = 0; h < 2; h++) {
		LLVMValueRef row = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, pair, const32(L, 1), ""),
		                                const32(L, h), "");
		LLVMValueRef from = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, row, const32(L, 2), ""),
		                                 LLVMBuildLShr(L->b, quad, const32(L, 1), ""), "");
		LLVMValueRef word = shuffle_idx(L, a, from);
		LLVMValueRef element = LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, word, half, ""),
		                                    const32(L, 0xffff), "");

		result = h ? LLVMBuildOr(L->b, result, LLVMBuildShl(L->b, element, const32(L, 16), ""), "")
		           : element;
	}
	operand_store(L, op(L, 0), result, PTX_TYPE_B32);
	return true;
}

bool lower_matrix(struct lower *L)
{
	const char *o = L->insn->opcode;

	if (!strcmp(o, "movmatrix"))
		return lower_movmatrix(L);

	if (!strcmp(o, "ldmatrix"))
		return lower_ldst_matrix(L, false);
	if (!strcmp(o, "stmatrix"))
		return lower_ldst_matrix(L, true);
	return false;
}
