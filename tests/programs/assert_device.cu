// A device-side assert that fails in one thread must surface on the host as
// cudaErrorAssert from cudaDeviceSynchronize (the failure message goes to
// stderr). The error is sticky, so the check ends the program: it prints
// PASS when the expected error arrives and FAIL otherwise. A first launch
// whose asserts all hold must complete normally.
#include "test_util.h"
#include <cassert>

__global__ void check_values(const int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) assert(v[i] >= 0);
}

int main() {
    const int n = 256;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    int *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    check_values<<<n / 64, 64>>>(d, n);
    CHECK_LAUNCH();  // all asserts hold
    h[137] = -1;
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    check_values<<<n / 64, 64>>>(d, n);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (launch != cudaSuccess && launch != cudaErrorAssert) { printf("FAIL: launch error %s\n", cudaGetErrorString(launch)); return 1; }
    if (sync != cudaErrorAssert) { printf("FAIL: cudaDeviceSynchronize returned %s, want cudaErrorAssert\n", cudaGetErrorString(sync)); return 1; }
    printf("PASS\n");
    return 0;
}
