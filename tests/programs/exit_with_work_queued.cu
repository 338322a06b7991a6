// A program that returns from main with kernels still queued on four streams and a failed
// copy among them: the process must end cleanly (exit 0, its output kept), as on NVIDIA's
// driver, while cudart unloads its modules and releases the context at exit.
#include "test_util.h"

__global__ void spin(int *p, int n) {
    for (int i = 0; i < n; i++) atomicAdd(p, 1);
}

int main() {
    int *d;
    CHECK(cudaMalloc(&d, sizeof(int)));
    cudaStream_t s[4];
    for (int i = 0; i < 4; i++) CHECK(cudaStreamCreate(&s[i]));
    for (int k = 0; k < 50; k++) spin<<<64, 128, 0, s[k % 4]>>>(d, 2000);
    CHECK(cudaGetLastError());
    // A copy to an address no allocation holds: refused, or failing later; either way the
    // exit that follows must not crash.
    cudaMemcpyAsync((int *)0x10, d, sizeof(int), cudaMemcpyDeviceToDevice, s[0]);
    printf("PASS\n");
    fflush(stdout);
    return 0;
}
