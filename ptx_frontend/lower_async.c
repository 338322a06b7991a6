/* Asynchronous copies and mbarriers: cp.async, cp.async.commit_group / wait_group /
 * wait_all, cp.async.mbarrier.arrive, and the mbarrier family.
 *
 * A cp.async copies at once, when it is issued. The ISA makes reading its destination or
 * changing its source before a completion point undefined, so no program can tell; the
 * commit and wait instructions then have nothing left to wait for, and the copy's writes
 * precede, in program order, the release of any later mbarrier arrive.
 *
 * An mbarrier is a 64-bit word in shared memory whose layout the ISA leaves to the
 * implementation; the builtins (backend/builtins_mbarrier.c) own it. The cluster forms
 * (.shared::cluster, which name another block's barrier) and the bulk copies stay
 * unsupported. */
#include <string.h>

#include "lower.h"

static LLVMValueRef to_generic(struct lower *L, LLVMValueRef p)
{
	LLVMTypeRef generic = ll_ptr(L, L->target->as_generic);

	return LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == L->target->as_generic
	     ? p : LLVMBuildAddrSpaceCast(L->b, p, generic, "");
}

static bool is_predicate(struct lower *L, const struct ptx_operand *o)
{
	struct sym *s = o->kind == PTX_OP_NAME ? sym_lookup(L, o->name) : NULL;

	return s && s->kind == SYM_REG && s->type == PTX_TYPE_PRED;
}

static uint32_t immediate_u32(struct lower *L, const struct ptx_operand *o, const char *what)
{
	if (o->kind != PTX_OP_INT)
		lower_fail(L, "%s: %s must be an integer constant", L->insn->opcode, what);
	return (uint32_t)o->bits;
}

/* cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size | ignore-src}
 * {, cache-policy}: cp-size bytes, of which only the first src-size come from src (the
 * rest are zeros), or all zeros when ignore-src is true. */
static void copy_async(struct lower *L)
{
	unsigned last = L->insn->nops - (has_mod(L, "L2::cache_hint") ? 1u : 0u);
	uint32_t size;
	const struct ptx_operand *extra = last == 4 ? op(L, 3) : NULL;
	LLVMValueRef dst, src, src_size, args[4];

	if (last != 3 && last != 4)
		lower_fail(L, "cp.async takes [dst], [src], cp-size and an optional src-size or "
		           "ignore-src");
	size = immediate_u32(L, op(L, 2), "cp-size");
	if (size != 4 && size != 8 && size != 16)
		lower_fail(L, "cp.async: cp-size %u is not 4, 8 or 16", size);
	dst = memory_address(L, op(L, 0), PTX_SPACE_SHARED);
	src = memory_address(L, op(L, 1), PTX_SPACE_GLOBAL);
	if (!extra || (extra->kind == PTX_OP_INT && extra->bits >= size)) {
		LLVMTypeRef t = ll_int(L, size * 8);
		LLVMValueRef v = LLVMBuildLoad2(L->b, t, src, "");

		LLVMSetAlignment(v, size);
		LLVMSetAlignment(LLVMBuildStore(L->b, v, dst), size);
		return;
	}
	if (is_predicate(L, extra) || extra->negated) {
		LLVMValueRef ignore = operand_value(L, extra, PTX_TYPE_PRED);

		src_size = LLVMBuildSelect(L->b, ignore, LLVMConstInt(ll_int(L, 32), 0, 0),
		                           LLVMConstInt(ll_int(L, 32), size, 0), "");
	} else {
		src_size = operand_value(L, extra, PTX_TYPE_U32);
	}
	args[0] = to_generic(L, dst);
	args[1] = to_generic(L, src);
	args[2] = LLVMConstInt(ll_int(L, 32), size, 0);
	args[3] = src_size;
	call_builtin(L, "__zc_cp_async", LLVMVoidTypeInContext(L->ctx), args, 4);
}

/* The generic pointer to the mbarrier that address operand i names. */
static LLVMValueRef barrier_at(struct lower *L, unsigned i)
{
	return to_generic(L, memory_address(L, op(L, i), insn_space(L)));
}

/* arrive / arrive_drop {.expect_tx} {.noComplete} state|_, [addr] {, count | txCount}. */
static void arrive(struct lower *L, bool drop)
{
	bool expect_tx = has_mod(L, "expect_tx");
	LLVMValueRef extra = L->insn->nops > 2 ? operand_value(L, op(L, 2), PTX_TYPE_U32) : const32(L, 1);
	LLVMValueRef args[4] = {barrier_at(L, 1), expect_tx ? const32(L, 1) : extra, const32(L, 0),
	                        expect_tx ? extra : const32(L, 0)};
	LLVMValueRef token;

	if (drop)
		args[2] = args[1];
	token = call_builtin(L, "__zc_mbarrier_arrive", ll_int(L, 64), args, 4);
	if (op(L, 0)->kind != PTX_OP_SINK)
		operand_store(L, op(L, 0), token, PTX_TYPE_B64);
}

/* test_wait / try_wait {.parity} p, [addr], state | parity {, suspendTimeHint}: a try_wait
 * may give up at once, so both only test; the PTX loops until the phase is done. */
static void wait(struct lower *L)
{
	bool parity = has_mod(L, "parity");
	LLVMValueRef args[2] = {barrier_at(L, 1),
	                        operand_value(L, op(L, 2), parity ? PTX_TYPE_U32 : PTX_TYPE_B64)};
	LLVMValueRef done = call_builtin(L, parity ? "__zc_mbarrier_test_wait_parity"
	                                           : "__zc_mbarrier_test_wait",
	                                 ll_int(L, 32), args, 2);

	operand_store(L, op(L, 0), LLVMBuildICmp(L->b, LLVMIntNE, done, const32(L, 0), ""), PTX_TYPE_PRED);
}

static void lower_mbarrier(struct lower *L)
{
	LLVMValueRef args[4];

	if (has_mod(L, "shared::cluster") || has_mod(L, "cluster"))
		lower_fail(L, "%s on a thread-block cluster is not supported yet", L->insn->opcode);
	if (has_mod(L, "init")) {
		args[0] = barrier_at(L, 0);
		args[1] = operand_value(L, op(L, 1), PTX_TYPE_U32);
		call_builtin(L, "__zc_mbarrier_init", LLVMVoidTypeInContext(L->ctx), args, 2);
	} else if (has_mod(L, "inval")) {
		args[0] = barrier_at(L, 0);
		call_builtin(L, "__zc_mbarrier_inval", LLVMVoidTypeInContext(L->ctx), args, 1);
	} else if (has_mod(L, "arrive") || has_mod(L, "arrive_drop")) {
		arrive(L, has_mod(L, "arrive_drop"));
	} else if (has_mod(L, "expect_tx") || has_mod(L, "complete_tx")) {
		LLVMValueRef tx = operand_value(L, op(L, 1), PTX_TYPE_U32);

		args[0] = barrier_at(L, 0);
		args[1] = const32(L, 0);
		args[2] = const32(L, 0);
		args[3] = has_mod(L, "expect_tx") ? tx : LLVMBuildNeg(L->b, tx, "");
		call_builtin(L, "__zc_mbarrier_arrive", ll_int(L, 64), args, 4);
	} else if (has_mod(L, "test_wait") || has_mod(L, "try_wait")) {
		wait(L);
	} else if (has_mod(L, "pending_count")) {
		args[0] = operand_value(L, op(L, 1), PTX_TYPE_B64);
		operand_store(L, op(L, 0),
		              call_builtin(L, "__zc_mbarrier_pending_count", ll_int(L, 32), args, 1),
		              PTX_TYPE_U32);
	} else {
		lower_unsupported(L);
	}
}

static void lower_cp_async(struct lower *L)
{
	if (has_mod(L, "bulk") || (L->insn->nmods > 1 && !strncmp(L->insn->mods[1], "bulk", 4)))
		lower_unsupported(L);
	if (has_mod(L, "commit_group") || has_mod(L, "wait_group") || has_mod(L, "wait_all"))
		return; /* every copy is complete already */
	if (has_mod(L, "mbarrier")) {
		/* The copies are done: without .noinc the arrive it schedules is balanced by the
		 * pending count it adds first; with .noinc it is one arrive. */
		if (has_mod(L, "noinc")) {
			LLVMValueRef args[4] = {barrier_at(L, 0), const32(L, 1), const32(L, 0), const32(L, 0)};

			call_builtin(L, "__zc_mbarrier_arrive", ll_int(L, 64), args, 4);
		}
		return;
	}
	if ((has_mod(L, "ca") || has_mod(L, "cg")) && has_mod(L, "global") &&
	    (has_mod(L, "shared") || has_mod(L, "shared::cta")))
		copy_async(L);
	else
		lower_unsupported(L);
}

bool lower_async(struct lower *L)
{
	const char *o = L->insn->opcode;

	if (!strcmp(o, "cp") && L->insn->nmods && !strcmp(L->insn->mods[0], "async")) {
		lower_cp_async(L);
		return true;
	}
	if (!strcmp(o, "mbarrier")) {
		lower_mbarrier(L);
		return true;
	}
	return false;
}
