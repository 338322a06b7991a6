// __syncthreads_count/_and/_or over a 200-thread block (last warp partial):
// every thread must receive the same block-wide result, for predicates that
// are all-true, all-false and mixed.
#include "test_util.h"

enum { CNT, AND, OR, CNT_ALL, AND_ALL, OR_NONE, NRES };

__global__ void votes(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int *o = out + i * NRES;
    o[CNT] = __syncthreads_count(v > 0);
    o[AND] = __syncthreads_and(v > -990);
    o[OR] = __syncthreads_or(v > 995);
    o[CNT_ALL] = __syncthreads_count(1);
    o[AND_ALL] = __syncthreads_and(threadIdx.x < blockDim.x);
    o[OR_NONE] = __syncthreads_or(0);
}

int main() {
    Checker c;
    const int block = 200, blocks = 5, n = block * blocks;
    Lcg rng(200);
    int in[n];
    for (int i = 0; i < n; i++) in[i] = rng.range(-1000, 1000);
    in[block * 2 + 7] = -999;  // block 2: the AND is false
    in[block * 3 + 199] = 999; // block 3: the OR is true (in the partial warp)
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, n * NRES * 4));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    votes<<<blocks, block>>>(din, dout);
    CHECK_LAUNCH();
    int out[n * NRES];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int cnt = 0, all = 1, any = 0;
        for (int t = 0; t < block; t++) {
            int v = in[b * block + t];
            cnt += v > 0; all &= v > -990; any |= v > 995;
        }
        int w[NRES] = {cnt, all, any, block, 1, 0};
        for (int t = 0; t < block; t++)
            for (int r = 0; r < NRES; r++) {
                int got = out[(b * block + t) * NRES + r];
                if (r != CNT && r != CNT_ALL) got = got != 0;  // _and/_or return non-zero for true
                if (got != w[r]) c.fail("block %d thread %d op %d: %d want %d", b, t, r, got, w[r]);
            }
    }
    return c.finish();
}
