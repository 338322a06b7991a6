// Launch and kernel-query APIs: cudaLaunchKernel with an argument array and
// dynamic shared memory, cudaLaunchKernelEx with a
// config struct, cudaFuncGetAttributes (static shared size exactly, and
// maxThreadsPerBlock within __launch_bounds__), cudaFuncSetAttribute for a
// larger dynamic shared allocation, cudaOccupancyMaxActiveBlocksPerMultiprocessor
// and cudaOccupancyMaxPotentialBlockSize (results must be usable), and the
// error for an impossible launch (too many threads per block).
#include "test_util.h"

__global__ void __launch_bounds__(128) bounded(int *out, int base) {
    __shared__ int tile[1024];  // 4096 bytes of static shared memory
    tile[threadIdx.x] = base + threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void dyn_reverse(int *out, const int *in, int n) {
    extern __shared__ int s[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = in[i];
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = s[n - 1 - i];
}

int main() {
    Checker c;
    int *d;
    CHECK(cudaMalloc(&d, 4 * 128 * sizeof(int)));
    int base = 1000;
    void *args[] = {&d, &base};
    CHECK(cudaLaunchKernel((const void *)bounded, dim3(4), dim3(128), args, 0, 0));
    CHECK_LAUNCH();
    int h[4 * 128];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4 * 128; i++) if (h[i] != base + 127 - i % 128) { c.fail("cudaLaunchKernel result %d", i); break; }

    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, bounded));
    if (attr.sharedSizeBytes != 4096) c.fail("sharedSizeBytes %zu want 4096", attr.sharedSizeBytes);
    if (attr.maxThreadsPerBlock < 1 || attr.maxThreadsPerBlock > 128) c.fail("maxThreadsPerBlock %d outside [1, 128]", attr.maxThreadsPerBlock);
    CHECK(cudaFuncGetAttributes(&attr, dyn_reverse));
    if (attr.sharedSizeBytes != 0) c.fail("dyn_reverse static shared %zu", attr.sharedSizeBytes);
    if (attr.maxThreadsPerBlock < 256) c.fail("dyn_reverse maxThreadsPerBlock %d", attr.maxThreadsPerBlock);

    // 64 KiB of dynamic shared memory needs the opt-in attribute.
    const int n = 16384;
    CHECK(cudaFuncSetAttribute(dyn_reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, n * 4));
    int *in, *out;
    CHECK(cudaMalloc(&in, n * 4)); CHECK(cudaMalloc(&out, n * 4));
    int *hin = new int[n], *hout = new int[n];
    for (int i = 0; i < n; i++) hin[i] = i * 7 - 3;
    CHECK(cudaMemcpy(in, hin, n * 4, cudaMemcpyHostToDevice));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1); cfg.blockDim = dim3(256); cfg.dynamicSmemBytes = n * 4; cfg.stream = 0;
    CHECK(cudaLaunchKernelEx(&cfg, dyn_reverse, out, (const int *)in, n));
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, out, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (hout[i] != hin[n - 1 - i]) { c.fail("64 KiB dynamic shared reverse at %d", i); break; }

    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, 128, 0));
    if (blocks < 1) c.fail("occupancy: %d blocks per SM", blocks);
    int min_grid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, dyn_reverse, 1024, 0));
    if (block < 32 || block > 1024 || min_grid < 1) c.fail("potential block size %d, min grid %d", block, min_grid);
    dyn_reverse<<<1, block, 1024>>>(out, in, 256);
    CHECK_LAUNCH();

    // 2048 threads per block exceeds every device's limit.
    bounded<<<1, 2048>>>(d, 0);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) c.fail("a 2048-thread block launched");
    CHECK(cudaDeviceSynchronize());  // the failed launch is not sticky
    return c.finish();
}
