// sm_90 thread block clusters: a kernel with __cluster_dims__(4, 1, 1);
// each block writes its shared memory, cluster.sync(), then reads its
// neighbour block's shared memory through cluster.map_shared_rank
// (distributed shared memory). Checks block_rank/num_blocks and the sums.
#include "test_util.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(4, 1, 1) ring(const int *in, int *out, int *ranks) {
    __shared__ int s[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    cluster.sync();
    unsigned next = (rank + 1) % cluster.num_blocks();
    int *remote = cluster.map_shared_rank(s, next);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x] + remote[127 - threadIdx.x];
    if (threadIdx.x == 0) { ranks[blockIdx.x * 2] = rank; ranks[blockIdx.x * 2 + 1] = cluster.num_blocks(); }
    cluster.sync();  // keep every block's shared memory alive until all reads are done
}

int main() {
    Checker c;
    const int blocks = 8, n = blocks * 128;
    int in[n], out[n], ranks[blocks * 2];
    Lcg rng(90);
    for (int &v : in) v = rng.range(-10000, 10000);
    int *din, *dout, *dr;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, sizeof out)); CHECK(cudaMalloc(&dr, sizeof ranks));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    ring<<<blocks, 128>>>(din, dout, dr);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(ranks, dr, sizeof ranks, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        if (ranks[b * 2] != b % 4 || ranks[b * 2 + 1] != 4) c.fail("block %d rank %d of %d", b, ranks[b * 2], ranks[b * 2 + 1]);
        int nb = (b / 4) * 4 + (b % 4 + 1) % 4;
        for (int t = 0; t < 128; t++)
            if (out[b * 128 + t] != in[b * 128 + t] + in[nb * 128 + 127 - t]) c.fail("block %d thread %d", b, t);
    }
    return c.finish();
}
