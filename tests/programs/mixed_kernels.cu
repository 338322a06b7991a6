// A mix of common kernel shapes (shared-memory reduction, warp-shuffle scan,
// per-thread local array with dynamic indices, a non-inlined device
// function, a divergent loop) used to check build variants: programs.txt
// builds this one source with -G, -lineinfo, host -O0 and -O3, and several
// -arch values. Every variant must give the same exact integer results.
#include "test_util.h"

__device__ __noinline__ int collatz_steps(unsigned v) {
    int steps = 0;
    while (v != 1 && steps < 500) { v = (v & 1) ? 3 * v + 1 : v / 2; steps++; }
    return steps;
}

__global__ void mixed(int n, const unsigned *in, int *block_sums, int *scan, int *steps, int *picked) {
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? in[i] : 0;
    s[threadIdx.x] = (int)(v % 1000);
    __syncthreads();
    for (int d = blockDim.x / 2; d > 0; d >>= 1) {
        if (threadIdx.x < d) s[threadIdx.x] += s[threadIdx.x + d];
        __syncthreads();
    }
    if (threadIdx.x == 0) block_sums[blockIdx.x] = s[0];
    int x = (int)(v % 100), lane = threadIdx.x % 32;
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffff, x, d);
        if (lane >= d) x += t;
    }
    if (i < n) {
        scan[i] = x;
        steps[i] = collatz_steps(v % 10000 + 1);
        int local[10];
        for (int k = 0; k < 10; k++) local[k] = (int)(v >> k) & 255;
        picked[i] = local[v % 10] + local[(v / 10) % 10];
    }
}

static int collatz_h(unsigned v) { int s = 0; while (v != 1 && s < 500) { v = (v & 1) ? 3 * v + 1 : v / 2; s++; } return s; }

int main() {
    Checker c;
    const int n = 2000, block = 256, blocks = (n + block - 1) / block;
    Lcg rng(2468);
    unsigned *in = new unsigned[n];
    for (int i = 0; i < n; i++) in[i] = rng.next();
    unsigned *din; int *dsum, *dscan, *dsteps, *dpick;
    CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dsum, blocks * 4)); CHECK(cudaMalloc(&dscan, n * 4));
    CHECK(cudaMalloc(&dsteps, n * 4)); CHECK(cudaMalloc(&dpick, n * 4));
    CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
    mixed<<<blocks, block>>>(n, din, dsum, dscan, dsteps, dpick);
    CHECK_LAUNCH();
    int *sum = new int[blocks], *scan = new int[n], *steps = new int[n], *pick = new int[n];
    CHECK(cudaMemcpy(sum, dsum, blocks * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(scan, dscan, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(steps, dsteps, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(pick, dpick, n * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int w = 0;
        for (int i = b * block; i < (b + 1) * block && i < n; i++) w += in[i] % 1000;
        if (sum[b] != w) c.fail("block sum %d: %d want %d", b, sum[b], w);
    }
    for (int i = 0; i < n; i++) {
        int w = 0;
        for (int k = i - i % 32; k <= i; k++) w += in[k] % 100;
        if (scan[i] != w) { c.fail("scan %d: %d want %d", i, scan[i], w); break; }
        if (steps[i] != collatz_h(in[i] % 10000 + 1)) { c.fail("collatz %d", i); break; }
        unsigned v = in[i];
        int wp = (int)((v >> (v % 10)) & 255) + (int)((v >> ((v / 10) % 10)) & 255);
        if (pick[i] != wp) { c.fail("picked %d: %d want %d", i, pick[i], wp); break; }
    }
    return c.finish();
}
