// The "last block finishes the job" pattern: every block writes its partial
// sum, issues __threadfence(), and takes a ticket with atomicInc; the block
// that draws the last ticket reads all partial sums (which the fence makes
// visible) and writes the total.
#include "test_util.h"

__device__ unsigned tickets = 0;

__global__ void sum_all(int n, const int *in, volatile int *partials, int *total) {
    __shared__ int s[128];
    __shared__ bool last;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = blockDim.x / 2; d > 0; d >>= 1) {
        if (threadIdx.x < d) s[threadIdx.x] += s[threadIdx.x + d];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(&tickets, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int t = 0;
        for (int b = 0; b < gridDim.x; b++) t += partials[b];
        *total = t;
        tickets = 0;  // ready for the next launch
    }
}

int main() {
    Checker c;
    const int n = 3000, block = 128, blocks = (n + block - 1) / block;
    Lcg rng(123);
    int *in = new int[n];
    for (int run = 0; run < 3; run++) {
        long long want = 0;
        for (int i = 0; i < n; i++) { in[i] = rng.range(-10000, 10000); want += in[i]; }
        int *din, *dp, *dt;
        CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dp, blocks * 4)); CHECK(cudaMalloc(&dt, 4));
        CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemset(dt, 0, 4));
        sum_all<<<blocks, block>>>(n, din, dp, dt);
        CHECK_LAUNCH();
        int total;
        CHECK(cudaMemcpy(&total, dt, 4, cudaMemcpyDeviceToHost));
        if (total != want) c.fail("run %d total %d want %lld", run, total, want);
        CHECK(cudaFree(din)); CHECK(cudaFree(dp)); CHECK(cudaFree(dt));
    }
    unsigned t;
    CHECK(cudaMemcpyFromSymbol(&t, tickets, 4));
    if (t != 0) c.fail("ticket counter left at %u", t);
    return c.finish();
}
