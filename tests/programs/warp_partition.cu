// One step of a warp-level quicksort (the partition of cuda-samples' cdpAdvancedQuicksort):
// each warp ballots its elements against a pivot in a coalesced group, lane 0 alone reserves
// the warp's room with atomics, and the others take the offsets by a shuffle from lane 0 of
// variables only lane 0 wrote. Those variables are unset in the other lanes until the
// shuffle: a translation that treats reading them as impossible lets every lane take lane
// 0's branch. Checked: one reservation a warp, and the output a partition of the input.
#include "test_util.h"
#include <algorithm>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Counters {
    unsigned lt, gt, reservations;
};

__global__ void partition(const unsigned *in, unsigned *out, unsigned len, unsigned pivot, Counters *c) {
    unsigned thread_id = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned lane_id = threadIdx.x & (warpSize - 1);
    if (thread_id >= len) return;
    unsigned data = in[thread_id];
    cg::coalesced_group active = cg::coalesced_threads();
    unsigned greater = data > pivot;
    unsigned gt_mask = active.ballot(greater);
    unsigned lt_mask = active.ballot(!greater);
    unsigned gt_count = __popc(gt_mask), lt_count = __popc(lt_mask);
    unsigned lt_offset, gt_offset; // set by lane 0 only
    if (lane_id == 0) {
        atomicAdd(&c->reservations, 1);
        if (lt_count > 0) lt_offset = atomicAdd(&c->lt, lt_count);
        if (gt_count > 0) gt_offset = len - (atomicAdd(&c->gt, gt_count) + gt_count);
    }
    lt_offset = active.shfl((int)lt_offset, 0);
    gt_offset = active.shfl((int)gt_offset, 0);
    unsigned lane_mask_lt;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lane_mask_lt));
    unsigned my_offset = __popc((greater ? gt_mask : lt_mask) & lane_mask_lt);
    my_offset += greater ? gt_offset : lt_offset;
    if (my_offset < len) out[my_offset] = data;
}

int main() {
    Checker c;
    const unsigned n = 10000, pivot = 1u << 23;
    unsigned *h = new unsigned[n], *got = new unsigned[n];
    Lcg rng(5);
    for (unsigned i = 0; i < n; i++) h[i] = (unsigned)(rng.next() % (1u << 24));
    unsigned *din, *dout;
    Counters *dc, hc;
    CHECK(cudaMalloc(&din, n * 4));
    CHECK(cudaMalloc(&dout, n * 4));
    CHECK(cudaMalloc(&dc, sizeof(Counters)));
    CHECK(cudaMemcpy(din, h, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0xff, n * 4));
    CHECK(cudaMemset(dc, 0, sizeof(Counters)));
    partition<<<(n + 511) / 512, 512>>>(din, dout, n, pivot, dc);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&hc, dc, sizeof hc, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got, dout, n * 4, cudaMemcpyDeviceToHost));
    unsigned below = 0;
    for (unsigned i = 0; i < n; i++) below += h[i] <= pivot;
    if (hc.reservations != (n + 31) / 32) c.fail("%u reservations, not one for each of %u warps", hc.reservations, (n + 31) / 32);
    if (hc.lt != below || hc.gt != n - below) c.fail("counted %u and %u, not %u and %u", hc.lt, hc.gt, below, n - below);
    for (unsigned i = 0; i < n; i++)
        if ((i < below) != (got[i] <= pivot)) {
            c.fail("out[%u] = %u on the wrong side of %u (%u at or below)", i, got[i], pivot, below);
            break;
        }
    std::sort(h, h + n);
    std::sort(got, got + n);
    if (!std::equal(h, h + n, got)) c.fail("the output is not a permutation of the input");
    return c.finish();
}
