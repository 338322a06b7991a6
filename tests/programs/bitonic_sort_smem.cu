// Bitonic sort of 512 keys per block in shared memory: log^2 phases each
// separated by __syncthreads; a single missing barrier scrambles the output.
#include "test_util.h"
#include <algorithm>

#define N 512

__global__ void bitonic(unsigned *data) {
    __shared__ unsigned s[N];
    unsigned *d = data + blockIdx.x * N;
    for (int i = threadIdx.x; i < N; i += blockDim.x) s[i] = d[i];
    __syncthreads();
    for (int k = 2; k <= N; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = threadIdx.x; i < N; i += blockDim.x) {
                int p = i ^ j;
                if (p > i) {
                    bool up = (i & k) == 0;
                    if ((s[i] > s[p]) == up) { unsigned t = s[i]; s[i] = s[p]; s[p] = t; }
                }
            }
            __syncthreads();
        }
    for (int i = threadIdx.x; i < N; i += blockDim.x) d[i] = s[i];
}

int main() {
    Checker c;
    const int blocks = 3;
    Lcg rng(31337);
    unsigned *h = new unsigned[blocks * N], *ref = new unsigned[blocks * N];
    for (int i = 0; i < blocks * N; i++) h[i] = ref[i] = rng.next() % 1000;  // many duplicates
    unsigned *d;
    CHECK(cudaMalloc(&d, sizeof(unsigned) * blocks * N));
    CHECK(cudaMemcpy(d, h, sizeof(unsigned) * blocks * N, cudaMemcpyHostToDevice));
    bitonic<<<blocks, 128>>>(d);  // 128 threads, 4 keys each
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, d, sizeof(unsigned) * blocks * N, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) std::sort(ref + b * N, ref + (b + 1) * N);
    for (int i = 0; i < blocks * N; i++)
        if (h[i] != ref[i]) c.fail("block %d index %d: %u want %u", i / N, i % N, h[i], ref[i]);
    return c.finish();
}
