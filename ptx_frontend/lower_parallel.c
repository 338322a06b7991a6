/* Threads working together: barriers, warp shuffles, votes, matches, reductions. Each is a
 * call to a target builtin; value-and-predicate results come back packed in a u64 (value in
 * the low 32 bits, predicate in bit 32) so that the builtins have a plain C signature. */
#include <stdio.h>
#include <string.h>

#include "lower.h"

static LLVMTypeRef i32(struct lower *L) { return ll_int(L, 32); }

static LLVMValueRef u32_operand(struct lower *L, unsigned i)
{
	return operand_value(L, op(L, i), PTX_TYPE_U32);
}

static LLVMValueRef pred_as_u32(struct lower *L, unsigned i)
{
	return LLVMBuildZExt(L->b, operand_value(L, op(L, i), PTX_TYPE_PRED), i32(L), "");
}

static void store_packed(struct lower *L, const struct ptx_operand *dst, LLVMValueRef packed,
                         enum ptx_type t)
{
	LLVMValueRef value = LLVMBuildTrunc(L->b, packed, i32(L), "");
	LLVMValueRef pred = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, packed,
	                                   LLVMConstInt(ll_int(L, 64), 32, 0), ""), ll_int(L, 1), "");

	if (dst->kind == PTX_OP_PAIR) {
		operand_store(L, &dst->items[0], value, t);
		operand_store(L, &dst->items[1], pred, PTX_TYPE_PRED);
	} else {
		operand_store(L, dst, value, t);
	}
}

/* bar.sync / barrier.sync id[, count]; a count of 0 means every thread of the block. */
static bool lower_barrier(struct lower *L)
{
	bool arrive = has_mod(L, "arrive"), red = has_mod(L, "red");
	unsigned first = red ? 1 : 0;
	LLVMValueRef args[3];
	char name[48];

	if (has_mod(L, "cluster"))
		lower_unsupported(L);
	if (has_mod(L, "warp")) {
		args[0] = u32_operand(L, 0);
		call_builtin(L, "__zc_bar_warp_sync", LLVMVoidTypeInContext(L->ctx), args, 1);
		return true;
	}
	args[0] = u32_operand(L, first);
	args[1] = L->insn->nops > first + (red ? 2u : 1u) ? u32_operand(L, first + 1)
	                                                  : LLVMConstInt(i32(L), 0, 0);
	if (!red) {
		call_builtin(L, arrive ? "__zc_bar_arrive" : "__zc_bar_sync",
		             LLVMVoidTypeInContext(L->ctx), args, 2);
		return true;
	}
	args[2] = pred_as_u32(L, L->insn->nops - 1);
	snprintf(name, sizeof(name), "__zc_bar_red_%s",
	         has_mod(L, "popc") ? "popc" : has_mod(L, "and") ? "and" : "or");
	{
		LLVMValueRef r = call_builtin(L, name, i32(L), args, 3);

		if (has_mod(L, "popc"))
			operand_store(L, op(L, 0), r, PTX_TYPE_U32);
		else
			operand_store(L, op(L, 0), LLVMBuildICmp(L->b, LLVMIntNE, r,
			              LLVMConstInt(i32(L), 0, 0), ""), PTX_TYPE_PRED);
	}
	return true;
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
static bool lower_shfl(struct lower *L)
{
	static const char *const modes[] = {"idx", "up", "down", "bfly"};
	LLVMValueRef args[4];
	char name[40];

	if (!has_mod(L, "sync"))
		lower_unsupported(L);
	expect_operands(L, 5);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!has_mod(L, modes[i]))
			continue;
		args[0] = u32_operand(L, 4);
		args[1] = operand_value(L, op(L, 1), PTX_TYPE_B32);
		args[2] = u32_operand(L, 2);
		args[3] = u32_operand(L, 3);
		snprintf(name, sizeof(name), "__zc_shfl_sync_%s", modes[i]);
		store_packed(L, op(L, 0), call_builtin(L, name, ll_int(L, 64), args, 4), PTX_TYPE_B32);
		return true;
	}
	lower_unsupported(L);
}

/* vote.sync.{all,any,uni}.pred d, {!}a, mask and vote.sync.ballot.b32 d, {!}a, mask; the
 * forms without .sync (PTX before 6.4) vote among the active lanes. */
static bool lower_vote(struct lower *L)
{
	static const char *const modes[] = {"all", "any", "uni", "ballot"};
	bool sync = has_mod(L, "sync");
	LLVMValueRef args[2], r;
	char name[40];

	expect_operands(L, sync ? 3 : 2);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!has_mod(L, modes[i]))
			continue;
		args[0] = sync ? u32_operand(L, 2) : call_builtin(L, "__zc_activemask", i32(L), NULL, 0);
		args[1] = pred_as_u32(L, 1);
		snprintf(name, sizeof(name), "__zc_vote_sync_%s", modes[i]);
		r = call_builtin(L, name, i32(L), args, 2);
		if (i == 3)
			operand_store(L, op(L, 0), r, PTX_TYPE_B32);
		else
			operand_store(L, op(L, 0), LLVMBuildICmp(L->b, LLVMIntNE, r,
			              LLVMConstInt(i32(L), 0, 0), ""), PTX_TYPE_PRED);
		return true;
	}
	lower_unsupported(L);
}

/* match.sync.any.b32 d, a, mask and match.sync.all.b32 d[|p], a, mask (b64 too) */
static bool lower_match(struct lower *L)
{
	enum ptx_type t = mod_type(L, 0);
	bool all = has_mod(L, "all");
	LLVMValueRef args[2];
	char name[48];

	expect_operands(L, 3);
	args[0] = u32_operand(L, 2);
	args[1] = operand_value(L, op(L, 1), t);
	snprintf(name, sizeof(name), "__zc_match_%s_sync_%s", all ? "all" : "any",
	         type_bits(t) == 64 ? "b64" : "b32");
	if (all)
		store_packed(L, op(L, 0), call_builtin(L, name, ll_int(L, 64), args, 2), PTX_TYPE_B32);
	else
		operand_store(L, op(L, 0), call_builtin(L, name, i32(L), args, 2), PTX_TYPE_B32);
	return true;
}

/* redux.sync.{min,max}{.abs}{.NaN}.f32 d, a, mask (sm_100a) as an integer min/max of keys
 * ordered as the floats are (-0 below +0): a negative float's magnitude bits inverted.
 * NaN keys lose (NaN inputs are ignored) unless .NaN, where any NaN gives the canonical
 * NaN; all NaN gives it too. */
static void redux_f32(struct lower *L, bool is_max)
{
	LLVMTypeRef t = i32(L);
	LLVMValueRef mask = u32_operand(L, 2), bits = operand_value(L, op(L, 1), PTX_TYPE_B32), args[2];
	LLVMValueRef magnitude_bits = LLVMConstInt(t, 0x7fffffff, 0), canonical = magnitude_bits;
	LLVMValueRef is_nan, key, any_nan, r;

	if (has_mod(L, "abs"))
		bits = LLVMBuildAnd(L->b, bits, magnitude_bits, "");
	is_nan = LLVMBuildICmp(L->b, LLVMIntUGT, LLVMBuildAnd(L->b, bits, magnitude_bits, ""),
	                       LLVMConstInt(t, 0x7f800000, 0), "");
	key = LLVMBuildXor(L->b, bits, LLVMBuildAnd(L->b, LLVMBuildAShr(L->b, bits, LLVMConstInt(t, 31, 0), ""),
	                                            magnitude_bits, ""), "");
	key = LLVMBuildSelect(L->b, is_nan, LLVMConstInt(t, is_max ? 0x80000000u : 0x7fffffffu, 0), key, "");
	args[0] = mask;
	args[1] = key;
	r = call_builtin(L, is_max ? "__zc_redux_sync_max_s32" : "__zc_redux_sync_min_s32", t, args, 2);
	args[1] = LLVMBuildZExt(L->b, is_nan, t, "");
	any_nan = LLVMBuildICmp(L->b, LLVMIntNE, call_builtin(L, "__zc_redux_sync_or", t, args, 2),
	                        LLVMConstInt(t, 0, 0), "");
	r = LLVMBuildXor(L->b, r, LLVMBuildAnd(L->b, LLVMBuildAShr(L->b, r, LLVMConstInt(t, 31, 0), ""),
	                                       magnitude_bits, ""), "");
	/* every input a NaN: the winning key is a NaN's */
	any_nan = has_mod(L, "NaN") ? any_nan
	        : LLVMBuildICmp(L->b, LLVMIntUGT, LLVMBuildAnd(L->b, r, magnitude_bits, ""),
	                        LLVMConstInt(t, 0x7f800000, 0), "");
	operand_store(L, op(L, 0), LLVMBuildSelect(L->b, any_nan, canonical, r, ""), PTX_TYPE_B32);
}

/* redux.sync.op.type d, a, mask */
static bool lower_redux(struct lower *L)
{
	static const char *const ops[] = {"add", "min", "max", "and", "or", "xor"};
	enum ptx_type t = mod_type(L, 0);
	LLVMValueRef args[2];
	char name[48];

	expect_operands(L, 3);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (!has_mod(L, ops[i]))
			continue;
		if (t == PTX_TYPE_F32 && (i == 1 || i == 2)) {
			redux_f32(L, i == 2);
			return true;
		}
		if (type_bits(t) != 32 || type_is_float(t))
			lower_unsupported(L);
		args[0] = u32_operand(L, 2);
		args[1] = operand_value(L, op(L, 1), t);
		/* add and the bitwise operations are the same for either sign; min and max not */
		if (i == 1 || i == 2)
			snprintf(name, sizeof(name), "__zc_redux_sync_%s_%s", ops[i],
			         type_is_signed(t) ? "s32" : "u32");
		else
			snprintf(name, sizeof(name), "__zc_redux_sync_%s", ops[i]);
		operand_store(L, op(L, 0), call_builtin(L, name, i32(L), args, 2), t);
		return true;
	}
	lower_unsupported(L);
}

/* elect.sync d|p, membermask: the leader is the lowest lane of the mask (every lane of the
 * mask executes the instruction, so the lowest one is active). */
static bool lower_elect(struct lower *L)
{
	const struct ptx_operand *dst = op(L, 0);
	LLVMTypeRef ty = i32(L);
	LLVMValueRef args[2] = { u32_operand(L, 1), LLVMConstInt(ll_int(L, 1), 0, 0) };
	LLVMValueRef leader = call_intrinsic(L, "llvm.cttz", &ty, 1, args, 2);
	LLVMValueRef lane = call_builtin(L, "__zc_laneid", ty, NULL, 0);

	expect_operands(L, 2);
	if (dst->kind != PTX_OP_PAIR)
		lower_fail(L, "elect.sync needs a destination pair d|p");
	operand_store(L, &dst->items[0], leader, PTX_TYPE_B32);
	operand_store(L, &dst->items[1], LLVMBuildICmp(L->b, LLVMIntEQ, lane, leader, ""), PTX_TYPE_PRED);
	return true;
}

bool lower_parallel(struct lower *L)
{
	const char *o = L->insn->opcode;

	if (!strcmp(o, "bar") || !strcmp(o, "barrier"))
		return lower_barrier(L);
	if (!strcmp(o, "shfl"))
		return lower_shfl(L);
	if (!strcmp(o, "vote"))
		return lower_vote(L);
	if (!strcmp(o, "match"))
		return lower_match(L);
	if (!strcmp(o, "redux"))
		return lower_redux(L);
	if (!strcmp(o, "elect"))
		return lower_elect(L);
	if (!strcmp(o, "activemask")) {
		operand_store(L, op(L, 0), call_builtin(L, "__zc_activemask", i32(L), NULL, 0), PTX_TYPE_B32);
		return true;
	}
	if (!strcmp(o, "nanosleep")) {
		LLVMValueRef t = u32_operand(L, 0);
		call_builtin(L, "__zc_nanosleep", LLVMVoidTypeInContext(L->ctx), &t, 1);
		return true;
	}
	return false;
}
