// Built into libshared_lib.so: kernels and a __device__ global that live in
// the shared library, reached only through the exported host functions.
#include <cuda_runtime.h>
#include "kernels.h"

__device__ unsigned long long lib_calls;

__global__ void histogram16(int n, const unsigned *in, unsigned *bins) {
    __shared__ unsigned s[16];
    if (threadIdx.x < 16) s[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&s[in[i] & 15], 1u);
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], s[threadIdx.x]);
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&lib_calls, 1ull);
}

extern "C" int lib_histogram16(int n, const unsigned *host_in, unsigned host_bins[16]) {
    unsigned *din, *dbins;
    if (cudaMalloc(&din, n * 4) != cudaSuccess || cudaMalloc(&dbins, 64) != cudaSuccess) return 1;
    cudaMemcpy(din, host_in, n * 4, cudaMemcpyHostToDevice);
    cudaMemset(dbins, 0, 64);
    histogram16<<<4, 128>>>(n, din, dbins);
    if (cudaDeviceSynchronize() != cudaSuccess) return 2;
    cudaMemcpy(host_bins, dbins, 64, cudaMemcpyDeviceToHost);
    cudaFree(din); cudaFree(dbins);
    return 0;
}

extern "C" unsigned long long lib_call_count() {
    unsigned long long v = 0;
    cudaMemcpyFromSymbol(&v, lib_calls, sizeof v);
    return v;
}
