// Two translation units linked with -rdc=true that each have module-local globals of the
// same name: the printf format strings nvcc names $str in each TU's PTX, and a static
// __device__ table called `table` in both. Each must keep its own; only visible
// symbols are shared across the link.
#include "../test_util.h"
#include <cstdio>

__device__ int other_tu_value(int i);
static __device__ int table[4] = {1, 2, 3, 4};

__global__ void both(int *out) {
    int i = threadIdx.x;
    out[i] = table[i] * 1000 + other_tu_value(i);
    if (i == 0) printf("main TU: table[0] = %d\n", table[0]);
}

int main() {
    int *d, h[4];
    CHECK(cudaMalloc(&d, sizeof h));
    both<<<1, 4>>>(d);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    Checker c;
    for (int i = 0; i < 4; i++)
        if (h[i] != (i + 1) * 1000 + (i + 1) * 10)
            c.fail("thread %d: %d, want %d", i, h[i], (i + 1) * 1000 + (i + 1) * 10);
    return c.finish();
}
