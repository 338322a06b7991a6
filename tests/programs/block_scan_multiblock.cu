// Exclusive prefix sum of 3000 ints in three kernels: per-block scan (warp
// __shfl_up_sync scan + a shared array of warp totals), a scan of the block
// totals, and a pass adding each block's offset.
#include "test_util.h"

#define B 256

__device__ int block_exclusive_scan(int v, int *total) {
    __shared__ int warp_sums[B / 32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int inc = v;
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffff, inc, d);
        if (lane >= d) inc += t;
    }
    if (lane == 31) warp_sums[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        int ws = lane < B / 32 ? warp_sums[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) {
            int t = __shfl_up_sync(0xffffffff, ws, d);
            if (lane >= d) ws += t;
        }
        if (lane < B / 32) warp_sums[lane] = ws;  // inclusive warp prefix
    }
    __syncthreads();
    int before = warp > 0 ? warp_sums[warp - 1] : 0;
    *total = warp_sums[B / 32 - 1];
    __syncthreads();  // warp_sums may be reused by the next call
    return before + inc - v;
}

__global__ void scan_blocks(int n, const int *in, int *out, int *block_totals) {
    int i = blockIdx.x * B + threadIdx.x;
    int total;
    int ex = block_exclusive_scan(i < n ? in[i] : 0, &total);
    if (i < n) out[i] = ex;
    if (threadIdx.x == 0) block_totals[blockIdx.x] = total;
}

__global__ void scan_totals(int nb, int *totals) {  // one block, nb <= B
    int total;
    int ex = block_exclusive_scan(threadIdx.x < nb ? totals[threadIdx.x] : 0, &total);
    if (threadIdx.x < nb) totals[threadIdx.x] = ex;
}

__global__ void add_offsets(int n, int *out, const int *offsets) {
    int i = blockIdx.x * B + threadIdx.x;
    if (i < n) out[i] += offsets[blockIdx.x];
}

int main() {
    Checker c;
    const int n = 3000, nb = (n + B - 1) / B;
    Lcg rng(77);
    int *in = new int[n], *out = new int[n];
    for (int i = 0; i < n; i++) in[i] = rng.range(-1000, 1000);
    int *din, *dout, *dt;
    CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dout, n * 4)); CHECK(cudaMalloc(&dt, nb * 4));
    CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
    scan_blocks<<<nb, B>>>(n, din, dout, dt);
    scan_totals<<<1, B>>>(nb, dt);
    add_offsets<<<nb, B>>>(n, dout, dt);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost));
    int acc = 0;
    for (int i = 0; i < n; i++) {
        if (out[i] != acc) c.fail("out[%d] = %d want %d", i, out[i], acc);
        acc += in[i];
    }
    return c.finish();
}
