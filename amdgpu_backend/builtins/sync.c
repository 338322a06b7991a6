/* AMDGPU barriers and warp-level operations (wave32: a CUDA warp is a wave). */
#include "amdgpu.h"

/* One workgroup barrier serves every PTX barrier id and count (see builtins.h).
 * The fences make the barrier order shared and global memory as bar.sync does. */
static void zc_workgroup_barrier(void)
{
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

void __zc_bar_sync(uint32_t id, uint32_t count)
{
	(void)id;
	(void)count;
	zc_workgroup_barrier();
}

void __zc_bar_arrive(uint32_t id, uint32_t count)
{
	__zc_bar_sync(id, count);
}

/* bar.red: each wave adds the number of its lanes with pred set to one LDS word.
 * The first barrier orders the reset after every reader of the previous bar.red. */
static __attribute__((address_space(3), loader_uninitialized)) uint32_t zc_bar_red_count;

static uint32_t zc_block_count(uint32_t pred)
{
	zc_workgroup_barrier();
	if (__builtin_amdgcn_workitem_id_x() == 0 && __builtin_amdgcn_workitem_id_y() == 0 &&
	    __builtin_amdgcn_workitem_id_z() == 0)
		zc_bar_red_count = 0;
	zc_workgroup_barrier();
	uint32_t votes = __builtin_amdgcn_ballot_w32(pred != 0);
	if (zc_lane() == (uint32_t)__builtin_ctz(zc_exec()))
		__atomic_fetch_add(&zc_bar_red_count, __builtin_popcount(votes), __ATOMIC_RELAXED);
	zc_workgroup_barrier();
	return zc_bar_red_count;
}

uint32_t __zc_bar_red_popc(uint32_t id, uint32_t count, uint32_t pred)
{
	(void)id;
	(void)count;
	return zc_block_count(pred);
}

uint32_t __zc_bar_red_and(uint32_t id, uint32_t count, uint32_t pred)
{
	(void)id;
	(void)count;
	return zc_block_count(pred == 0) == 0;
}

uint32_t __zc_bar_red_or(uint32_t id, uint32_t count, uint32_t pred)
{
	(void)id;
	(void)count;
	return zc_block_count(pred) != 0;
}

/* The lanes of a wave run in lockstep; what bar.warp.sync adds is memory ordering
 * between them and a point the compiler does not move code across. */
void __zc_bar_warp_sync(uint32_t mask)
{
	(void)mask;
	__builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "wavefront");
	__builtin_amdgcn_wave_barrier();
}

/* PTX's shfl: the clamp and segment mask in c bound the source lane j; a lane whose j
 * is out of bounds keeps its own value and gets p = 0. */
static uint64_t zc_shuffle_from(uint32_t value, int32_t j, int in_bounds)
{
	int32_t source = in_bounds ? j : (int32_t)zc_lane();
	uint32_t got = (uint32_t)__builtin_amdgcn_ds_bpermute(source << 2, (int)value);
	return got | (uint64_t)(in_bounds != 0) << 32;
}

static int32_t zc_max_lane(uint32_t c)
{
	uint32_t segmask = (c >> 8) & 31;
	return (int32_t)((zc_lane() & segmask) | (c & 31 & ~segmask));
}

uint64_t __zc_shfl_sync_idx(uint32_t mask, uint32_t value, uint32_t b, uint32_t c)
{
	(void)mask;
	uint32_t segmask = (c >> 8) & 31;
	int32_t j = (int32_t)((zc_lane() & segmask) | (b & 31 & ~segmask));
	return zc_shuffle_from(value, j, j <= zc_max_lane(c));
}

uint64_t __zc_shfl_sync_up(uint32_t mask, uint32_t value, uint32_t b, uint32_t c)
{
	(void)mask;
	int32_t j = (int32_t)zc_lane() - (int32_t)(b & 31);
	return zc_shuffle_from(value, j, j >= zc_max_lane(c));
}

uint64_t __zc_shfl_sync_down(uint32_t mask, uint32_t value, uint32_t b, uint32_t c)
{
	(void)mask;
	int32_t j = (int32_t)zc_lane() + (int32_t)(b & 31);
	return zc_shuffle_from(value, j, j <= zc_max_lane(c));
}

uint64_t __zc_shfl_sync_bfly(uint32_t mask, uint32_t value, uint32_t b, uint32_t c)
{
	(void)mask;
	int32_t j = (int32_t)(zc_lane() ^ (b & 31));
	return zc_shuffle_from(value, j, j <= zc_max_lane(c));
}

uint32_t __zc_vote_sync_ballot(uint32_t mask, uint32_t pred)
{
	return __builtin_amdgcn_ballot_w32(pred != 0) & mask;
}

uint32_t __zc_vote_sync_all(uint32_t mask, uint32_t pred)
{
	return (__builtin_amdgcn_ballot_w32(pred == 0) & mask) == 0;
}

uint32_t __zc_vote_sync_any(uint32_t mask, uint32_t pred)
{
	return (__builtin_amdgcn_ballot_w32(pred != 0) & mask) != 0;
}

uint32_t __zc_vote_sync_uni(uint32_t mask, uint32_t pred)
{
	return __zc_vote_sync_all(mask, pred) | __zc_vote_sync_all(mask, pred == 0);
}

uint32_t __zc_activemask(void) { return zc_exec(); }

/* The mask is a per-lane value: lanes of one wave may name different groups (a tile of
 * cooperative groups, a divergent match), so no loop may take a lane index from it, which
 * would make readlane's index differ between lanes. Every loop below walks the active
 * lanes, which all lanes agree on, and each lane keeps what its own mask selects. */
static uint64_t zc_lane_value(uint64_t value, uint32_t lane)
{
	uint32_t lo = __builtin_amdgcn_readlane((uint32_t)value, lane);
	uint32_t hi = __builtin_amdgcn_readlane((uint32_t)(value >> 32), lane);
	return (uint64_t)hi << 32 | lo;
}

uint32_t __zc_match_any_sync_b64(uint32_t mask, uint64_t value)
{
	uint32_t same = 0;
	for (uint32_t left = zc_exec(); left; left &= left - 1) {
		uint32_t lane = (uint32_t)__builtin_ctz(left);
		if (zc_lane_value(value, lane) == value)
			same |= 1u << lane;
	}
	return same & mask;
}

uint32_t __zc_match_any_sync_b32(uint32_t mask, uint32_t value)
{
	return __zc_match_any_sync_b64(mask, value);
}

uint64_t __zc_match_all_sync_b64(uint32_t mask, uint64_t value)
{
	uint32_t members = mask & zc_exec();
	if (members == 0)
		return 0;
	uint32_t same = 0;
	for (uint32_t left = zc_exec(); left; left &= left - 1) {
		uint32_t lane = (uint32_t)__builtin_ctz(left);
		if (zc_lane_value(value, lane) == value)
			same |= 1u << lane;
	}
	return (same & members) == members ? (uint64_t)mask | (uint64_t)1 << 32 : 0;
}

uint64_t __zc_match_all_sync_b32(uint32_t mask, uint32_t value)
{
	return __zc_match_all_sync_b64(mask, value);
}

/* redux: fold, in lane order, the lanes of each lane's own mask. */
#define ZC_REDUX(name, type, identity, combine)                                   \
	type name(uint32_t mask, type value)                                          \
	{                                                                             \
		type acc = identity;                                                      \
		for (uint32_t left = zc_exec(); left; left &= left - 1) {                 \
			uint32_t lane = (uint32_t)__builtin_ctz(left);                        \
			type x = (type)__builtin_amdgcn_readlane((uint32_t)value, lane);      \
			if (mask >> lane & 1)                                                 \
				acc = combine;                                                    \
		}                                                                         \
		return acc;                                                               \
	}

ZC_REDUX(__zc_redux_sync_add, uint32_t, 0u, acc + x)
ZC_REDUX(__zc_redux_sync_min_u32, uint32_t, ~0u, x < acc ? x : acc)
ZC_REDUX(__zc_redux_sync_max_u32, uint32_t, 0u, x > acc ? x : acc)
ZC_REDUX(__zc_redux_sync_min_s32, int32_t, INT32_MAX, x < acc ? x : acc)
ZC_REDUX(__zc_redux_sync_max_s32, int32_t, INT32_MIN, x > acc ? x : acc)
ZC_REDUX(__zc_redux_sync_and, uint32_t, ~0u, acc & x)
ZC_REDUX(__zc_redux_sync_or, uint32_t, 0u, acc | x)
ZC_REDUX(__zc_redux_sync_xor, uint32_t, 0u, acc ^ x)

/* The lanes of a wave take the lock one after another, in a loop the whole wave runs: a
 * lane waiting for a lock that another lane of its wave holds would never see it released,
 * as the lanes of a wave execute together. */
static __attribute__((address_space(1))) uint32_t zc_b128_locks[64];

void __zc_atom_b128(uint64_t address, uint64_t compare_lo, uint64_t compare_hi, uint64_t value_lo,
                    uint64_t value_hi, uint32_t is_cas, uint64_t old)
{
	__attribute__((address_space(1))) uint32_t *lock = &zc_b128_locks[address >> 4 & 63];
	volatile uint64_t *word = (volatile uint64_t *)address, *out = (uint64_t *)old;

	for (uint32_t pending = zc_exec(); pending; pending &= pending - 1) {
		if (zc_lane() != (uint32_t)__builtin_ctz(pending))
			continue;
		while (__atomic_exchange_n(lock, 1u, __ATOMIC_ACQUIRE) != 0)
			__builtin_amdgcn_s_sleep(1);
		uint64_t lo = word[0], hi = word[1];
		if (!is_cas || (lo == compare_lo && hi == compare_hi)) {
			word[0] = value_lo;
			word[1] = value_hi;
		}
		out[0] = lo;
		out[1] = hi;
		__atomic_store_n(lock, 0u, __ATOMIC_RELEASE);
	}
}
