// Second translation unit of multi_tu: kernels launched from host code in
// this file, and a file-local __device__ global with the same name as one in
// main.cu.
#include <cuda_runtime.h>
#include "vectors.h"

static __device__ int state[4];

__global__ void axpy(int n, float a, const float *x, const float *y, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __fmaf_rn(a, x[i], 0.0f) + y[i];  // a*x is exact here; keep the rounding order fixed
}
__global__ void set_state() { state[threadIdx.x] = -(int)threadIdx.x; }

int vectors_axpy(int n, float a, const float *x, const float *y, float *out) {
    float *dx, *dy, *dout;
    if (cudaMalloc(&dx, n * 4) || cudaMalloc(&dy, n * 4) || cudaMalloc(&dout, n * 4)) return 1;
    cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y, n * 4, cudaMemcpyHostToDevice);
    axpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy, dout);
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost);
    cudaFree(dx); cudaFree(dy); cudaFree(dout);
    return 0;
}
int vectors_state(int out[4]) {
    set_state<<<1, 4>>>();
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    return cudaMemcpyFromSymbol(out, state, 4 * sizeof(int)) != cudaSuccess;
}
