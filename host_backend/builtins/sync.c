/* Host barriers and warp-level operations: calls into the driver, which runs the other
 * fibers of the block until the operation can complete (host_abi.h). */
#include "host.h"

/* Kept a call through optimisation, where backend/host_rounds.c finds it. */
__attribute__((noinline)) void __zc_bar_sync(uint32_t id, uint32_t count)
{
	ZcHostThread *t = zc_self();
	t->block->ops->barrier(t, id, count);
	zc_resume(t);
}

void __zc_bar_arrive(uint32_t id, uint32_t count)
{
	ZcHostThread *t = zc_self();
	t->block->ops->barrier_arrive(t, id, count);
	zc_resume(t);
}

static uint32_t zc_bar_red(enum ZcBarRedOp op, uint32_t id, uint32_t count, uint32_t pred)
{
	ZcHostThread *t = zc_self();
	uint32_t r = t->block->ops->barrier_reduce(t, op, id, count, pred != 0);
	zc_resume(t);
	return r;
}

uint32_t __zc_bar_red_popc(uint32_t id, uint32_t count, uint32_t pred)
{
	return zc_bar_red(ZC_BAR_RED_POPC, id, count, pred);
}

uint32_t __zc_bar_red_and(uint32_t id, uint32_t count, uint32_t pred)
{
	return zc_bar_red(ZC_BAR_RED_AND, id, count, pred);
}

uint32_t __zc_bar_red_or(uint32_t id, uint32_t count, uint32_t pred)
{
	return zc_bar_red(ZC_BAR_RED_OR, id, count, pred);
}

/* Every warp operation but activemask, by its ZcRoundLane code. Kept a call through
 * optimisation, where backend/host_rounds.c finds it (its operands then the lane's). */
__attribute__((noinline)) uint64_t __zc_warp(uint32_t code, uint32_t mask, uint64_t value, uint32_t b, uint32_t c)
{
	ZcHostThread *t = zc_self();
	const ZcHostOps *ops = t->block->ops;
	uint32_t mode = code >> 8;
	uint64_t r = 0;
	switch ((enum ZcWarpKind)(code & 0xff)) {
	case ZC_WARP_SYNC: ops->warp_sync(t, mask); break;
	case ZC_WARP_SHUFFLE: r = ops->shuffle(t, (enum ZcShflMode)mode, mask, (uint32_t)value, b, c); break;
	case ZC_WARP_VOTE: r = ops->vote(t, (enum ZcVoteMode)mode, mask, (uint32_t)value); break;
	case ZC_WARP_MATCH_ANY: r = ops->match_any(t, mask, value); break;
	case ZC_WARP_MATCH_ALL: r = ops->match_all(t, mask, value); break;
	case ZC_WARP_REDUX: r = ops->redux(t, (enum ZcReduxOp)mode, mask, (uint32_t)value); break;
	}
	zc_resume(t);
	return r;
}

static uint64_t zc_warp_op(enum ZcWarpKind kind, uint32_t mode, uint32_t mask, uint64_t value, uint32_t b, uint32_t c)
{
	return __zc_warp((uint32_t)kind | mode << 8, mask, value, b, c);
}

void __zc_bar_warp_sync(uint32_t mask)
{
	zc_warp_op(ZC_WARP_SYNC, 0, mask, 0, 0, 0);
}

uint64_t __zc_shfl_sync_idx(uint32_t mask, uint32_t value, uint32_t b, uint32_t c)
{
	return zc_warp_op(ZC_WARP_SHUFFLE, ZC_SHFL_IDX, mask, value, b, c);
}

uint64_t __zc_shfl_sync_up(uint32_t mask, uint32_t value, uint32_t b, uint32_t c)
{
	return zc_warp_op(ZC_WARP_SHUFFLE, ZC_SHFL_UP, mask, value, b, c);
}

uint64_t __zc_shfl_sync_down(uint32_t mask, uint32_t value, uint32_t b, uint32_t c)
{
	return zc_warp_op(ZC_WARP_SHUFFLE, ZC_SHFL_DOWN, mask, value, b, c);
}

uint64_t __zc_shfl_sync_bfly(uint32_t mask, uint32_t value, uint32_t b, uint32_t c)
{
	return zc_warp_op(ZC_WARP_SHUFFLE, ZC_SHFL_BFLY, mask, value, b, c);
}

static uint32_t zc_vote(enum ZcVoteMode mode, uint32_t mask, uint32_t pred)
{
	return (uint32_t)zc_warp_op(ZC_WARP_VOTE, mode, mask, pred != 0, 0, 0);
}

uint32_t __zc_vote_sync_all(uint32_t mask, uint32_t pred) { return zc_vote(ZC_VOTE_ALL, mask, pred); }
uint32_t __zc_vote_sync_any(uint32_t mask, uint32_t pred) { return zc_vote(ZC_VOTE_ANY, mask, pred); }
uint32_t __zc_vote_sync_uni(uint32_t mask, uint32_t pred) { return zc_vote(ZC_VOTE_UNI, mask, pred); }
uint32_t __zc_vote_sync_ballot(uint32_t mask, uint32_t pred) { return zc_vote(ZC_VOTE_BALLOT, mask, pred); }

uint32_t __zc_match_any_sync_b64(uint32_t mask, uint64_t value)
{
	return (uint32_t)zc_warp_op(ZC_WARP_MATCH_ANY, 0, mask, value, 0, 0);
}

uint32_t __zc_match_any_sync_b32(uint32_t mask, uint32_t value)
{
	return __zc_match_any_sync_b64(mask, value);
}

uint64_t __zc_match_all_sync_b64(uint32_t mask, uint64_t value)
{
	return zc_warp_op(ZC_WARP_MATCH_ALL, 0, mask, value, 0, 0);
}

uint64_t __zc_match_all_sync_b32(uint32_t mask, uint32_t value)
{
	return __zc_match_all_sync_b64(mask, value);
}

static uint32_t zc_redux(enum ZcReduxOp op, uint32_t mask, uint32_t value)
{
	return (uint32_t)zc_warp_op(ZC_WARP_REDUX, op, mask, value, 0, 0);
}

uint32_t __zc_redux_sync_add(uint32_t mask, uint32_t v) { return zc_redux(ZC_REDUX_ADD, mask, v); }
uint32_t __zc_redux_sync_min_u32(uint32_t mask, uint32_t v) { return zc_redux(ZC_REDUX_MIN_U32, mask, v); }
uint32_t __zc_redux_sync_max_u32(uint32_t mask, uint32_t v) { return zc_redux(ZC_REDUX_MAX_U32, mask, v); }
int32_t __zc_redux_sync_min_s32(uint32_t mask, int32_t v) { return (int32_t)zc_redux(ZC_REDUX_MIN_S32, mask, (uint32_t)v); }
int32_t __zc_redux_sync_max_s32(uint32_t mask, int32_t v) { return (int32_t)zc_redux(ZC_REDUX_MAX_S32, mask, (uint32_t)v); }
uint32_t __zc_redux_sync_and(uint32_t mask, uint32_t v) { return zc_redux(ZC_REDUX_AND, mask, v); }
uint32_t __zc_redux_sync_or(uint32_t mask, uint32_t v) { return zc_redux(ZC_REDUX_OR, mask, v); }
uint32_t __zc_redux_sync_xor(uint32_t mask, uint32_t v) { return zc_redux(ZC_REDUX_XOR, mask, v); }

/* Never inlined: its return address then names the kernel's activemask instruction, the
 * point where the driver lets the lanes that reach it together meet. */
__attribute__((noinline)) uint32_t __zc_activemask(void)
{
	ZcHostThread *t = zc_self();
	uint32_t r = t->block->ops->activemask(t, __builtin_return_address(0));
	zc_resume(t);
	return r;
}

/* lock cmpxchg16b, which every x86-64 processor since 2006 has, written out: the compiler
 * would otherwise call libatomic, which host code objects do not link. RDX:RAX holds what
 * is expected and gets what was there; RCX:RBX is stored when they were equal. */
static int zc_cmpxchg16b(uint64_t address, uint64_t *lo, uint64_t *hi, uint64_t new_lo, uint64_t new_hi)
{
	uint8_t equal;

	__asm__ __volatile__("lock cmpxchg16b (%[p])\n\tsete %[equal]"
	                     : [equal] "=q"(equal), "+a"(*lo), "+d"(*hi)
	                     : [p] "r"(address), "b"(new_lo), "c"(new_hi)
	                     : "memory", "cc");
	return equal;
}

void __zc_atom_b128(uint64_t address, uint64_t compare_lo, uint64_t compare_hi, uint64_t value_lo,
                    uint64_t value_hi, uint32_t is_cas, uint64_t old)
{
	uint64_t *out = (uint64_t *)old, lo = compare_lo, hi = compare_hi;

	if (is_cas)
		zc_cmpxchg16b(address, &lo, &hi, value_lo, value_hi);
	else /* each failure loads what is there: the next try expects it */
		while (!zc_cmpxchg16b(address, &lo, &hi, value_lo, value_hi))
			;
	out[0] = lo;
	out[1] = hi;
}
