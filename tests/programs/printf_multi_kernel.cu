// printf from several kernels launched in sequence, with values computed on
// the device (a reduction, a device function's result, blockIdx of a
// selected block), each launch synchronised so the lines come out in order.
// stdout is compared with printf_multi_kernel.expected; the program also
// checks its own results and ends with PASS.
#include "test_util.h"

__device__ int triangle(int k) { return k * (k + 1) / 2; }

__global__ void report_sum(const int *v, int n) {
    __shared__ int s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    atomicAdd(&s, v[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) printf("[sum] %d values add up to %d\n", n, s);
}
__global__ void report_block(int which) {
    if (blockIdx.x == which && threadIdx.x == 5) printf("[block] block %d of %d, thread %d of %d\n", blockIdx.x, gridDim.x, threadIdx.x, blockDim.x);
}
__global__ void report_triangles(int k) {
    if (threadIdx.x == 0)
        for (int i = 1; i <= k; i++) printf("[tri] T(%d) = %d\n", i, triangle(i));
}

int main() {
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = i * 3 - 50;
    int *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    fflush(stdout);
    report_sum<<<1, 64>>>(d, 64);
    CHECK_LAUNCH();
    report_block<<<8, 32>>>(6);
    CHECK_LAUNCH();
    report_triangles<<<1, 32>>>(4);
    CHECK_LAUNCH();
    fflush(stdout);
    printf("PASS\n");
    return 0;
}
