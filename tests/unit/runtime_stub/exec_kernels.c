/* Kernels for the host driver's execution tests, written in C against the builtins the PTX
 * lowering calls (backend/builtins.h). clang-22 compiles this to LLVM IR, functions named
 * zk_* are marked as kernels, and zc-codegen makes the host code object of it. Each kernel
 * writes what it observed; test_exec.c knows what CUDA would give. */
#include <stdint.h>

#include "builtins.h"

uint32_t zk_counter;           /* a module variable: cuModuleGetGlobal */
uint32_t zk_table[4] = { 10, 20, 30, 40 };

static uint32_t
linear_tid(void)
{
	return __zc_tid_x() + __zc_ntid_x() * (__zc_tid_y() + __zc_ntid_y() * __zc_tid_z());
}

static uint32_t
block_threads(void)
{
	return __zc_ntid_x() * __zc_ntid_y() * __zc_ntid_z();
}

/* out[block] = sum of in[] over the block, by halving in static shared memory (1024
 * words at offset 0: the kernel table says static_shared 4096). */
void
zk_block_sum(const uint32_t *in, uint32_t *out)
{
	uint32_t *partial = __zc_shared_base();
	uint32_t tid = __zc_tid_x(), n = __zc_ntid_x();

	partial[tid] = in[__zc_ctaid_x() * n + tid];
	__zc_bar_sync(0, 0);
	for (uint32_t stride = n / 2; stride; stride /= 2) {
		if (tid < stride)
			partial[tid] += partial[tid + stride];
		__zc_bar_sync(0, 0);
	}
	if (tid == 0)
		out[__zc_ctaid_x()] = partial[0];
}

/* Every warp operation with the full mask, then with half masks: lanes 0..15 and 16..31
 * of a warp each run their own operations. 16 words per thread. */
void
zk_warp_ops(uint32_t *out)
{
	uint32_t lane = __zc_laneid(), v = lane * 3 + 1;
	uint32_t *o = out + linear_tid() * 16;

	o[0] = (uint32_t)__zc_shfl_sync_idx(~0u, v, 5, 31);
	o[1] = (uint32_t)__zc_shfl_sync_up(~0u, v, 2, 0);            /* clamp 0: below lane 2, own */
	o[2] = (uint32_t)(__zc_shfl_sync_up(~0u, v, 2, 0) >> 32);
	o[3] = (uint32_t)__zc_shfl_sync_down(~0u, v, 3, 31);
	o[4] = (uint32_t)__zc_shfl_sync_bfly(~0u, v, 1, 31);
	o[5] = (uint32_t)__zc_shfl_sync_down(~0u, v, 1, 0x1807);     /* width 8: segment mask 0x18 */
	o[6] = __zc_vote_sync_ballot(~0u, lane & 1);
	o[7] = __zc_vote_sync_all(~0u, lane < 32) | __zc_vote_sync_any(~0u, lane == 7) << 1 |
	       __zc_vote_sync_uni(~0u, lane & 1) << 2;
	o[8] = __zc_match_any_sync_b32(~0u, lane / 4);
	o[9] = (uint32_t)__zc_match_all_sync_b32(~0u, 42);
	o[10] = __zc_redux_sync_add(~0u, lane);
	o[11] = (uint32_t)__zc_redux_sync_min_s32(~0u, (int32_t)lane - 5);
	if (lane < 16) {
		o[12] = (uint32_t)__zc_shfl_sync_bfly(0xffffu, v, 8, 31);
		o[13] = __zc_redux_sync_max_u32(0xffffu, lane);
	} else {
		o[12] = __zc_vote_sync_ballot(0xffff0000u, lane > 20);
		__zc_bar_warp_sync(0xffff0000u);
		o[13] = __zc_redux_sync_xor(0xffff0000u, lane);
	}
	o[14] = __zc_activemask();
	o[15] = __zc_bar_red_popc(0, 0, lane % 3 == 0) | __zc_bar_red_and(0, 0, 1) << 16 |
	        __zc_bar_red_or(0, 0, 0) << 17;
}

/* Warps 0 and 1 meet at named barrier 1 (64 threads) while warps 2 and 3 meet at
 * barrier 2; each reads what the other warp of its pair wrote before the barrier. */
void
zk_named_barriers(uint32_t *out)
{
	uint32_t *slot = __zc_shared_base();
	uint32_t tid = __zc_tid_x(), warp = tid / 32;

	slot[tid] = tid * 7;
	__zc_bar_sync(warp < 2 ? 1 : 2, 64);
	out[tid] = slot[tid ^ 32];
}

/* Threads with odd ids exit early; the block-wide barriers afterwards count only the live
 * ones, and activemask no longer has the exited lanes. (The second barrier keeps every
 * lane alive until all have read the mask.) */
void
zk_exit_early(uint32_t *out)
{
	uint32_t tid = __zc_tid_x();

	if (tid & 1)
		__zc_exit();
	__zc_bar_sync(0, 0);
	uint32_t mask = __zc_activemask();
	__zc_bar_sync(0, 0);
	out[tid] = mask;
}

/* activemask in divergent code, one warp at a time by group[tid]: 0 exits; 1 reads it in
 * its branch, then raises its warp's flag; 2 reads it after a warp sync of its lanes; 3
 * spins in nanosleep until the flag is up, then reads it. Each group must see just its
 * own lanes, and all the live lanes meet at the activemask after the branches (the driver
 * runs branch bodies before their join). 2 words per thread. */
void
zk_activemask_groups(const uint32_t *group, uint32_t *out, volatile uint32_t *flag)
{
	uint32_t tid = __zc_tid_x(), warp = tid / 32, g = group[tid];
	uint32_t *o = out + tid * 2;

	if (g == 0)
		__zc_exit();
	if (g == 1) {
		o[0] = __zc_activemask();
		flag[warp] = 1;
	} else if (g == 2) {
		uint32_t mask = 0;
		for (uint32_t lane = 0; lane < 32 && warp * 32 + lane < __zc_ntid_x(); lane++)
			mask |= (uint32_t)(group[warp * 32 + lane] == 2) << lane;
		__zc_bar_warp_sync(mask);
		o[0] = __zc_activemask();
	} else {
		while (!flag[warp])
			__zc_nanosleep(100);
		o[0] = __zc_activemask();
	}
	o[1] = __zc_activemask();
}

/* The thread given traps; the others wait at a barrier it never reaches. */
void
zk_trap(uint32_t who)
{
	if (__zc_tid_x() == who)
		__zc_trap();
	__zc_bar_sync(0, 0);
}

/* Every thread writes its coordinates: 3D grid and 3D blocks. */
void
zk_coords(uint32_t *out)
{
	uint32_t block = __zc_ctaid_x() + __zc_nctaid_x() * (__zc_ctaid_y() + __zc_nctaid_y() * __zc_ctaid_z());
	uint32_t i = block * block_threads() + linear_tid();

	out[i] = __zc_tid_x() | __zc_tid_y() << 4 | __zc_tid_z() << 8 | __zc_ctaid_x() << 12 |
	         __zc_ctaid_y() << 16 | __zc_ctaid_z() << 20;
}

/* Thread `who` of block 2 stores through a pointer nothing maps. The kernel reaches no
 * block operation, so a call of its block entry runs a whole block; the launch must fail
 * all the same, naming the thread. */
void
zk_fault(uint32_t who)
{
	if (__zc_ctaid_x() == 2 && linear_tid() == who)
		*(volatile uint32_t *)(uintptr_t)16 = who;
}

/* Like zk_fault, but the first time only: run again (as the driver runs a block whose
 * faulting thread its code did not record), the block does not fault. */
static uint32_t fault_once_runs;

void
zk_fault_once(uint32_t who)
{
	if (__zc_ctaid_x() == 2 && linear_tid() == who &&
	    __atomic_fetch_add(&fault_once_runs, 1, __ATOMIC_RELAXED) == 0)
		*(volatile uint32_t *)(uintptr_t)16 = who;
}

/* Dynamic shared memory: each thread writes its slot, then reads its neighbour's; with
 * its size, and the module variables. */
void
zk_dynamic(uint32_t *out, uint8_t bias, uint64_t scale)
{
	uint32_t *slot = __zc_dynamic_smem();
	uint32_t tid = __zc_tid_x(), n = __zc_ntid_x();

	slot[tid] = tid * (uint32_t)scale + bias;
	__zc_bar_sync(0, 0);
	out[tid] = slot[(tid + 1) % n];
	if (tid == 0) {
		out[n] = __zc_dynamic_smem_size();
		out[n + 1] = zk_table[2] + zk_counter;
		zk_counter++;
	}
}

/* A kernel whose name is 1,113 characters long: each thread writes its tid. */
void
zk_long_name_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(uint32_t *out)
{
	out[__zc_tid_x()] = __zc_tid_x();
}

/* Lane 0 waits for lane 1 in bar.warp.sync while lane 1 waits at the block barrier for
 * lane 0: nothing can complete. It runs as rounds (a block entry): the driver's
 * round_warps finds the deadlock. */
void
zk_deadlock(void)
{
	if (__zc_tid_x() == 0)
		__zc_bar_warp_sync(3);
	else
		__zc_bar_sync(0, 0);
}

/* The same on fibers, which activemask keeps (lane 0 reads it alone once lane 1 waits at
 * the barrier): the driver's scheduler finds the deadlock. */
void
zk_deadlock_fibers(void)
{
	if (__zc_tid_x() == 0) {
		__zc_activemask();
		__zc_bar_warp_sync(3);
	} else {
		__zc_bar_sync(0, 0);
	}
}
