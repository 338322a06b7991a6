// cudaProfilerStart / cudaProfilerStop around a kernel, as CUDA's matrixMul and asyncAPI
// samples do: with no profiler attached both succeed, and the kernel runs as usual.
#include <cuda_profiler_api.h>
#include "test_util.h"

__global__ void add_one(int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += 1;
}

int main() {
    Checker c;
    const int n = 300;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    int *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaProfilerStart());
    add_one<<<(n + 127) / 128, 128>>>(d, n);
    CHECK_LAUNCH();
    CHECK(cudaProfilerStop());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h[i] != i + 1) c.fail("v[%d] = %d", i, h[i]);
    return c.finish();
}
