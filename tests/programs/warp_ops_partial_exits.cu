// Warp operations in blocks of 48 threads (the second warp has 16 lanes) whose lanes leave
// early: a ballot of the lanes that stay, then the two halves of each warp in different
// operations at once (a broadcast shuffle in one, a vote in the other), a block barrier,
// and a butterfly over the staying lanes of each group of four (a partner that left adds
// nothing). The CPU driver runs such
// a kernel as rounds, completing each warp operation once its lanes all wait in it; each
// lane must get its own group's result. Checked against the same computed on the host.
#include "test_util.h"

enum { BLOCKS = 3, THREADS = 48, OUTS = 4 };

__device__ __host__ inline unsigned existing_lanes(int warp)
{
    int lanes = THREADS - warp * 32 < 32 ? THREADS - warp * 32 : 32;
    return lanes == 32 ? ~0u : (1u << lanes) - 1;
}

__device__ __host__ inline bool leaves(int block, int lane) { return (lane + block) % 5 == 4; }

__global__ void partial_exits(const int *in, int *out)
{
    int t = threadIdx.x, lane = t % 32, warp = t / 32, i = blockIdx.x * THREADS + t;
    int v = in[i];
    unsigned stay = __ballot_sync(existing_lanes(warp), !leaves(blockIdx.x, lane));
    out[i * OUTS + 0] = (int)stay;
    if (leaves(blockIdx.x, lane))
        return;
    unsigned half = stay & (lane < 16 ? 0xffffu : 0xffff0000u);
    int first = __ffs(half) - 1;
    if (lane < 16)
        out[i * OUTS + 1] = __shfl_sync(half, v * 3, first);
    else
        out[i * OUTS + 1] = __any_sync(half, v % 7 == 0) ? 1000 : 2000;
    __syncthreads();
    unsigned quad = stay & (0xfu << (lane & ~3));
    int sum = v;
    for (int step = 1; step < 4; step *= 2) {
        int other = __shfl_xor_sync(quad, sum, step);
        sum += quad >> (lane ^ step) & 1 ? other : 0;
    }
    out[i * OUTS + 2] = sum;
    out[i * OUTS + 3] = __popc(__ballot_sync(stay, v > 0));
}

int main()
{
    Checker c;
    const int n = BLOCKS * THREADS;
    std::vector<int> in(n), got(n * OUTS, -7);
    Lcg rng(20261206);
    for (int i = 0; i < n; i++)
        in[i] = (int)(rng.next() % 201) - 100;
    int *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, n * OUTS * sizeof(int)));
    CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dout, got.data(), n * OUTS * sizeof(int), cudaMemcpyHostToDevice));
    partial_exits<<<BLOCKS, THREADS>>>(din, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got.data(), dout, n * OUTS * sizeof(int), cudaMemcpyDeviceToHost));

    for (int b = 0; b < BLOCKS; b++)
        for (int t = 0; t < THREADS; t++) {
            int lane = t % 32, warp = t / 32, i = b * THREADS + t, base = b * THREADS + warp * 32;
            unsigned stay = 0;
            for (int j = 0; j < 32; j++)
                stay |= (unsigned)((existing_lanes(warp) >> j & 1) && !leaves(b, j)) << j;
            int want[OUTS] = {(int)stay, -7, -7, -7};
            if (!leaves(b, lane)) {
                unsigned half = stay & (lane < 16 ? 0xffffu : 0xffff0000u);
                bool any = false;
                for (int j = 0; j < 32; j++)
                    any |= (half >> j & 1) && in[base + j] % 7 == 0;
                want[1] = lane < 16 ? in[base + __builtin_ctz(half)] * 3 : any ? 1000 : 2000;
                // The butterfly as each lane of the quad runs it: a partner that left adds 0.
                unsigned quad = stay & (0xfu << (lane & ~3));
                int sums[32];
                for (int j = 0; j < 32; j++)
                    sums[j] = in[base + j < n ? base + j : 0];
                for (int step = 1; step < 4; step *= 2) {
                    int next[32];
                    for (int j = 0; j < 32; j++)
                        next[j] = sums[j] + (quad >> (j ^ step) & 1 ? sums[j ^ step] : 0);
                    memcpy(sums, next, sizeof sums);
                }
                want[2] = sums[lane];
                want[3] = 0;
                for (int j = 0; j < 32; j++)
                    want[3] += (stay >> j & 1) && in[base + j] > 0;
            }
            static const char *const what[OUTS] = {"ballot of the staying lanes", "half-warp shuffle or vote",
                                                   "butterfly sum of the quad", "ballot count after the barrier"};
            for (int k = 0; k < OUTS; k++)
                if (got[i * OUTS + k] != want[k])
                    c.fail("block %d thread %d: %s: %d want %d", b, t, what[k], got[i * OUTS + k], want[k]);
        }
    return c.finish();
}
