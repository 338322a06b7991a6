// Two translation units compiled separately (whole-program mode, no -rdc):
// each has its own kernels, its own fatbin and its own file-local __device__
// global named "state" (static, so the two never clash). main.cu launches
// its kernel and calls a host function in vectors.cu that launches another.
#include "test_util.h"
#include "vectors.h"

static __device__ int state[4];

__global__ void fill_state(int v) { state[threadIdx.x] = v + threadIdx.x; }
__global__ void read_state(int *out) { out[threadIdx.x] = state[threadIdx.x] * 2; }

int main() {
    Checker c;
    fill_state<<<1, 4>>>(100);
    CHECK_LAUNCH();
    const int n = 1000;
    float a[n], b[n], r[n];
    for (int i = 0; i < n; i++) { a[i] = i * 0.5f; b[i] = 3.0f - i; }
    if (vectors_axpy(n, 2.0f, a, b, r) != 0) c.fail("vectors_axpy reported an error");
    for (int i = 0; i < n; i++) if (r[i] != 2.0f * a[i] + b[i]) { c.fail("axpy[%d] = %g", i, r[i]); break; }
    int other[4];
    if (vectors_state(other) != 0) c.fail("vectors_state reported an error");
    int *d, mine[4];
    CHECK(cudaMalloc(&d, sizeof mine));
    read_state<<<1, 4>>>(d);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(mine, d, sizeof mine, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++) {
        if (mine[i] != 2 * (100 + i)) c.fail("main.cu state[%d] = %d", i, mine[i]);
        if (other[i] != -i) c.fail("vectors.cu state[%d] = %d", i, other[i]);
    }
    return c.finish();
}
