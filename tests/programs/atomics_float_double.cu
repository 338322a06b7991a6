// Floating-point atomics: atomicAdd on float and double in global and shared
// memory, atomicExch on float, and atomicAdd on __half2 (sm_60+). Inputs are
// small multiples of powers of two so every partial sum is exact and the
// result does not depend on the order the additions happen in.
#include "test_util.h"
#include <cuda_fp16.h>

__global__ void accumulate(int n, const int *in, float *gf, double *gd, float *exch, float *block_f, double *block_d, __half2 *h2) {
    __shared__ float sf;
    __shared__ double sd;
    if (threadIdx.x == 0) { sf = 0; sd = 0; }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float f = in[i] * 0.25f;          // |sum| < 2^24 * 0.25: exact in float
        double d = in[i] * 0.0078125;     // 2^-7 steps: exact in double
        atomicAdd(gf, f);
        atomicAdd(gd, d);
        atomicAdd(&sf, f);
        atomicAdd(&sd, d);
        atomicExch(exch, (float)i);
        atomicAdd(h2, __halves2half2(__float2half(1.0f), __float2half(0.5f)));
    }
    __syncthreads();
    if (threadIdx.x == 0) { block_f[blockIdx.x] = sf; block_d[blockIdx.x] = sd; }
}

int main() {
    Checker c;
    const int n = 1024, block = 128, blocks = n / block;  // h2 sums: 1024 and 512, exact in half
    Lcg rng(2);
    int in[n];
    for (int i = 0; i < n; i++) in[i] = rng.range(-4000, 4000);
    int *din; float *dgf, *dex, *dbf; double *dgd, *dbd; __half2 *dh2;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dgf, 4)); CHECK(cudaMalloc(&dgd, 8));
    CHECK(cudaMalloc(&dex, 4)); CHECK(cudaMalloc(&dbf, blocks * 4)); CHECK(cudaMalloc(&dbd, blocks * 8));
    CHECK(cudaMalloc(&dh2, sizeof(__half2)));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dgf, 0, 4)); CHECK(cudaMemset(dgd, 0, 8)); CHECK(cudaMemset(dh2, 0, 4));
    float neg = -1.0f;
    CHECK(cudaMemcpy(dex, &neg, 4, cudaMemcpyHostToDevice));
    accumulate<<<blocks, block>>>(n, din, dgf, dgd, dex, dbf, dbd, dh2);
    CHECK_LAUNCH();
    float gf, ex, bf[blocks]; double gd, bd[blocks]; __half2 h2;
    CHECK(cudaMemcpy(&gf, dgf, 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(&gd, dgd, 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&ex, dex, 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bf, dbf, sizeof bf, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(bd, dbd, sizeof bd, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&h2, dh2, sizeof h2, cudaMemcpyDeviceToHost));
    double total_f = 0, total_d = 0;
    for (int b = 0; b < blocks; b++) {
        double wf = 0, wd = 0;
        for (int i = b * block; i < (b + 1) * block; i++) { wf += in[i] * 0.25; wd += in[i] * 0.0078125; }
        if (bf[b] != (float)wf) c.fail("shared float sum block %d: %g want %g", b, bf[b], wf);
        if (bd[b] != wd) c.fail("shared double sum block %d: %.17g want %.17g", b, bd[b], wd);
        total_f += wf; total_d += wd;
    }
    if (gf != (float)total_f) c.fail("global float sum %g want %g", gf, total_f);
    if (gd != total_d) c.fail("global double sum %.17g want %.17g", gd, total_d);
    if (ex < 0 || ex >= n || ex != (float)(int)ex) c.fail("atomicExch float result %g", ex);
    float lo = __low2float(h2), hi = __high2float(h2);
    if (lo != 1024.0f || hi != 512.0f) c.fail("half2 sums %g %g want 1024 512", lo, hi);
    return c.finish();
}
