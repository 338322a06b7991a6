// Cooperative groups: thread_block (rank, size, group_index, sync),
// tiled_partition<16> with shfl_down/shfl_xor/any/all/ballot and
// meta_group_rank, a nested tiled_partition<4> of that tile, and a dynamic
// tiled_partition(block, 8) used with sync() to exchange through shared memory.
#include "test_util.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

enum { R_RANK, R_SIZE, R_GIDX, R_T16SUM, R_T16META, R_T16NUM, R_T16ANY, R_T16ALL, R_T16BAL, R_T4XOR, R_T4RANK, R_DYN, NRES };

__global__ void tiles(const int *in, int *out) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int *o = out + i * NRES;
    o[R_RANK] = block.thread_rank();
    o[R_SIZE] = block.size();
    o[R_GIDX] = block.group_index().x;

    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    int sum = v;
    for (int d = 8; d > 0; d >>= 1) sum += t16.shfl_down(sum, d);
    o[R_T16SUM] = t16.shfl(sum, 0);
    o[R_T16META] = t16.meta_group_rank();
    o[R_T16NUM] = t16.meta_group_size();
    o[R_T16ANY] = t16.any(v > 900);
    o[R_T16ALL] = t16.all(v >= 0);
    o[R_T16BAL] = t16.ballot(v & 1);

    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(t16);
    int x = v;
    x ^= t4.shfl_xor(x, 1);
    x ^= t4.shfl_xor(x, 2);
    o[R_T4XOR] = x;
    o[R_T4RANK] = t4.thread_rank();

    cg::thread_group t8 = cg::tiled_partition(block, 8);
    s[threadIdx.x] = v;
    t8.sync();
    // Read the value of the mirror thread within the same 8-thread group.
    int base = threadIdx.x - t8.thread_rank();
    o[R_DYN] = s[base + (t8.size() - 1 - t8.thread_rank())];
    block.sync();
}

int main() {
    Checker c;
    const int block = 128, blocks = 3, n = block * blocks;
    Lcg rng(16);
    int in[n];
    for (int i = 0; i < n; i++) in[i] = rng.range(0, 1000);
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, n * NRES * 4));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    tiles<<<blocks, block>>>(din, dout);
    CHECK_LAUNCH();
    int *out = new int[n * NRES];
    CHECK(cudaMemcpy(out, dout, n * NRES * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int t = i % block, b = i / block;
        int w[NRES];
        w[R_RANK] = t; w[R_SIZE] = block; w[R_GIDX] = b;
        int g16 = i - t % 16, sum = 0, any = 0, all = 1, bal = 0;
        for (int l = 0; l < 16; l++) {
            sum += in[g16 + l]; any |= in[g16 + l] > 900; all &= in[g16 + l] >= 0;
            if (in[g16 + l] & 1) bal |= 1 << l;
        }
        w[R_T16SUM] = sum; w[R_T16META] = t / 16; w[R_T16NUM] = block / 16;
        w[R_T16ANY] = any; w[R_T16ALL] = all; w[R_T16BAL] = bal;
        int g4 = i - t % 4;
        w[R_T4XOR] = in[g4] ^ in[g4 + 1] ^ in[g4 + 2] ^ in[g4 + 3];
        w[R_T4RANK] = t % 4;
        int g8 = i - t % 8;
        w[R_DYN] = in[g8 + 7 - t % 8];
        for (int r = 0; r < NRES; r++) {
            int got = out[i * NRES + r];
            if (r == R_T16ANY || r == R_T16ALL) got = got != 0;
            if (got != w[r]) c.fail("thread %d result %d: %d want %d", i, r, got, w[r]);
        }
    }
    return c.finish();
}
