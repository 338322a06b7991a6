// cg::coalesced_threads() inside data-dependent branches: warp-aggregated
// atomics (the group's rank 0 reserves slots for the whole group and
// broadcasts the base with shfl), so every selected element gets a unique
// slot. Also checks the group's size/rank invariants.
#include "test_util.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int reserve_slot(int *counter) {
    cg::coalesced_group g = cg::coalesced_threads();
    int base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(counter, (int)g.size());
    return g.shfl(base, 0) + g.thread_rank();
}

__global__ void compact(int n, const int *in, int *out, int *counter, int *bad) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if (v % 3 == 0) {  // keep multiples of 3
        cg::coalesced_group g = cg::coalesced_threads();
        if (g.thread_rank() >= g.size() || g.size() > 32) atomicAdd(bad, 1);
        // The group's ballot names only threads that are in the branch.
        unsigned m = g.ballot(true);
        if (__popc(m) != (int)g.size()) atomicAdd(bad, 1);
        out[reserve_slot(counter)] = v;
    }
}

int main() {
    Checker c;
    const int n = 1500;
    Lcg rng(9);
    int *in = new int[n], *out = new int[n];
    int expected_count = 0;
    long long expected_sum = 0;
    for (int i = 0; i < n; i++) {
        in[i] = rng.range(0, 100000);
        if (in[i] % 3 == 0) { expected_count++; expected_sum += in[i]; }
    }
    int *din, *dout, *dcount, *dbad;
    CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dout, n * 4));
    CHECK(cudaMalloc(&dcount, 4)); CHECK(cudaMalloc(&dbad, 4));
    CHECK(cudaMemset(dcount, 0, 4)); CHECK(cudaMemset(dbad, 0, 4));
    CHECK(cudaMemset(dout, 0xff, n * 4));
    CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
    compact<<<(n + 127) / 128, 128>>>(n, din, dout, dcount, dbad);
    CHECK_LAUNCH();
    int count, bad;
    CHECK(cudaMemcpy(&count, dcount, 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&bad, dbad, 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost));
    if (count != expected_count) c.fail("count %d want %d", count, expected_count);
    if (bad) c.fail("%d group invariant violations", bad);
    // The output order is unspecified; the multiset must match.
    long long sum = 0;
    for (int i = 0; i < count && i < n; i++) {
        if (out[i] < 0 || out[i] % 3 != 0) c.fail("slot %d holds %d", i, out[i]);
        sum += out[i];
    }
    for (int i = count; i < n; i++) if (out[i] != -1) c.fail("slot %d beyond count written", i);
    if (sum != expected_sum) c.fail("sum %lld want %lld", sum, expected_sum);
    return c.finish();
}
