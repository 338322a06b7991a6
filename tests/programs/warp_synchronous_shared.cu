// Warp-synchronous code written before __syncwarp: scans and reductions whose lanes share
// partial results through shared memory with no barrier inside a step, relying on a warp's
// lanes taking each step together: the warp scan of the radix sort samples and the unrolled
// last warp of the classic reduction (volatile), and the butterfly sums of the DXT
// compression sample, which read and write plain shared memory in one step between tile
// syncs; and one warp summing through volatile shared memory while the block's other warps
// wait at a barrier for its total. They still run on current GPUs, and they must run the
// same converted, on every target.
#include "test_util.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define WARP 32

// Inclusive scan of one value per lane through 2 * 32 words per warp.
__device__ unsigned warp_scan(unsigned val, volatile unsigned *s) {
    int idx = 2 * threadIdx.x - (threadIdx.x & (WARP - 1));
    s[idx] = 0;
    idx += WARP;
    s[idx] = val;
    s[idx] += s[idx - 1];
    s[idx] += s[idx - 2];
    s[idx] += s[idx - 4];
    s[idx] += s[idx - 8];
    s[idx] += s[idx - 16];
    return s[idx];
}

__global__ void scan_blocks(const unsigned *in, unsigned *out) {
    __shared__ unsigned s[2 * 256];
    __shared__ unsigned warp_sums[8];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = warp_scan(in[i], s);
    __syncthreads();
    if ((threadIdx.x & (WARP - 1)) == WARP - 1) warp_sums[threadIdx.x / WARP] = v;
    __syncthreads();
    if (threadIdx.x < WARP) {
        unsigned w = threadIdx.x < blockDim.x / WARP ? warp_sums[threadIdx.x] : 0;
        unsigned scanned = warp_scan(w, s);
        if (threadIdx.x < blockDim.x / WARP) warp_sums[threadIdx.x] = scanned - w;
    }
    __syncthreads();
    out[i] = v + warp_sums[threadIdx.x / WARP];
}

// The classic reduction's last warp, unrolled over volatile shared memory.
__global__ void reduce_blocks(const int *in, int *out) {
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 512 + t] + in[blockIdx.x * 512 + t + 256];
    __syncthreads();
    for (unsigned half = 128; half > 32; half >>= 1) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t < 32) {
        volatile int *v = s;
        v[t] += v[t + 32];
        v[t] += v[t + 16];
        v[t] += v[t + 8];
        v[t] += v[t + 4];
        v[t] += v[t + 2];
        v[t] += v[t + 1];
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

// Each lane of a 16-thread tile ends with the sum of the tile's 16 values.
__global__ void butterfly_sums(const float *in, float *out) {
    __shared__ float sums[64];
    cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 16);
    int idx = threadIdx.x;
    sums[idx] = in[blockIdx.x * 64 + idx];
    cg::sync(tile);
    sums[idx] += sums[idx ^ 8];
    cg::sync(tile);
    sums[idx] += sums[idx ^ 4];
    cg::sync(tile);
    sums[idx] += sums[idx ^ 2];
    cg::sync(tile);
    sums[idx] += sums[idx ^ 1];
    cg::sync(tile);
    out[blockIdx.x * 64 + idx] = sums[idx];
}

// Warp 0 adds the block's 64 values by butterflies over volatile shared memory (every lane
// ends with the sum, twice it with `twice`: its first step taken again, an odd number of
// accesses more) while the other warps wait at the barrier; then every thread reads the
// total.
__global__ void warp_then_block(const int *in, int *out, int twice) {
    __shared__ int s[32];
    __shared__ int total;
    unsigned t = threadIdx.x;
    if (t < 32) {
        volatile int *v = s;
        v[t] = in[blockIdx.x * 64 + t] + in[blockIdx.x * 64 + t + 32];
        v[t] += v[t ^ 16];
        if (twice) v[t] += v[t ^ 16];
        v[t] += v[t ^ 8];
        v[t] += v[t ^ 4];
        v[t] += v[t ^ 2];
        v[t] += v[t ^ 1];
        if (t == 31) total = v[t];
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = total + (int)t;
}

int main() {
    Checker c;
    const int blocks = 24, n = blocks * 256;
    unsigned *in = new unsigned[n], *out = new unsigned[n];
    int *rin = new int[2 * n], rout[blocks];
    Lcg rng(32);
    for (int i = 0; i < n; i++) in[i] = rng.next() % 100;
    for (int i = 0; i < 2 * n; i++) rin[i] = rng.range(-1000, 1000);
    unsigned *din, *dout;
    int *drin, *drout;
    CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dout, n * 4));
    CHECK(cudaMalloc(&drin, 2 * n * 4)); CHECK(cudaMalloc(&drout, blocks * 4));
    CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(drin, rin, 2 * n * 4, cudaMemcpyHostToDevice));
    scan_blocks<<<blocks, 256>>>(din, dout);
    CHECK_LAUNCH();
    reduce_blocks<<<blocks, 256>>>(drin, drout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rout, drout, sizeof rout, cudaMemcpyDeviceToHost));
    float *fin = new float[blocks * 64], *fout = new float[blocks * 64], *dfin, *dfout;
    for (int i = 0; i < blocks * 64; i++) fin[i] = (float)rng.range(0, 64);
    CHECK(cudaMalloc(&dfin, blocks * 64 * 4)); CHECK(cudaMalloc(&dfout, blocks * 64 * 4));
    CHECK(cudaMemcpy(dfin, fin, blocks * 64 * 4, cudaMemcpyHostToDevice));
    butterfly_sums<<<blocks, 64>>>(dfin, dfout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(fout, dfout, blocks * 64 * 4, cudaMemcpyDeviceToHost));
    for (int t = 0; t < blocks * 4; t++) {
        float want = 0;  // small integers: every order of adding them gives the same sum
        for (int l = 0; l < 16; l++) want += fin[t * 16 + l];
        for (int l = 0; l < 16; l++)
            if (fout[t * 16 + l] != want) c.fail("butterfly: tile %d lane %d: %g, want %g", t, l, fout[t * 16 + l], want);
    }
    for (int b = 0; b < blocks; b++) {
        unsigned sum = 0;
        int total = 0;
        for (int t = 0; t < 256; t++) {
            sum += in[b * 256 + t];
            if (out[b * 256 + t] != sum) c.fail("scan: element %d: %u, want %u", b * 256 + t, out[b * 256 + t], sum);
        }
        for (int t = 0; t < 512; t++) total += rin[b * 512 + t];
        if (rout[b] != total) c.fail("reduce: block %d: %d, want %d", b, rout[b], total);
    }
    int *wout = new int[blocks * 128], *dwout;
    CHECK(cudaMalloc(&dwout, blocks * 128 * 4));
    for (int twice = 0; twice < 2; twice++) {
        warp_then_block<<<blocks, 128>>>(drin, dwout, twice);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(wout, dwout, blocks * 128 * 4, cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; b++) {
            int total = 0;
            for (int t = 0; t < 64; t++) total += rin[b * 64 + t];
            total *= 1 + twice;
            for (int t = 0; t < 128; t++)
                if (wout[b * 128 + t] != total + t)
                    c.fail("warp then block (twice %d): block %d thread %d: %d, want %d", twice, b, t,
                           wout[b * 128 + t], total + t);
        }
    }
    return c.finish();
}
