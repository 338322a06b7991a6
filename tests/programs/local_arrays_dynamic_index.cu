// Per-thread local arrays indexed with run-time values (they cannot live in
// registers): insertion sort of 24 keys per thread, a lookup table indexed by
// data, a small local histogram, and a local 2D array walked in a
// data-dependent order.
#include "test_util.h"
#include <algorithm>

#define K 24

__global__ void local_work(const unsigned *in, unsigned *sorted, unsigned *hist_out, int *walk) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned keys[K];
    for (int i = 0; i < K; i++) keys[i] = in[t * K + i];
    for (int i = 1; i < K; i++) {  // insertion sort: every access has a run-time index
        unsigned v = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] > v) { keys[j + 1] = keys[j]; j--; }
        keys[j + 1] = v;
    }
    for (int i = 0; i < K; i++) sorted[t * K + i] = keys[i];

    unsigned hist[16] = {0};
    for (int i = 0; i < K; i++) hist[in[t * K + i] % 16]++;
    unsigned h = 0;
    for (int b = 0; b < 16; b++) h = h * 31 + hist[b];
    hist_out[t] = h;

    int grid[5][7];
    for (int r = 0; r < 5; r++)
        for (int col = 0; col < 7; col++) grid[r][col] = r * 7 + col + t;
    int r = in[t * K] % 5, col = in[t * K + 1] % 7, acc = 0;
    for (int step = 0; step < 20; step++) {
        acc += grid[r][col];
        grid[r][col] = -acc;
        r = (r + col + 1) % 5;
        col = (col * 3 + r + 2) % 7;
    }
    walk[t] = acc;
}

int main() {
    Checker c;
    const int threads = 256;
    Lcg rng(24);
    unsigned *in = new unsigned[threads * K], *sorted = new unsigned[threads * K], hist[threads];
    int walk[threads];
    for (int i = 0; i < threads * K; i++) in[i] = rng.next() % 5000;
    unsigned *din, *dsorted, *dhist; int *dwalk;
    CHECK(cudaMalloc(&din, threads * K * 4)); CHECK(cudaMalloc(&dsorted, threads * K * 4));
    CHECK(cudaMalloc(&dhist, threads * 4)); CHECK(cudaMalloc(&dwalk, threads * 4));
    CHECK(cudaMemcpy(din, in, threads * K * 4, cudaMemcpyHostToDevice));
    local_work<<<threads / 64, 64>>>(din, dsorted, dhist, dwalk);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(sorted, dsorted, threads * K * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hist, dhist, sizeof hist, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(walk, dwalk, sizeof walk, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        unsigned keys[K];
        memcpy(keys, in + t * K, sizeof keys);
        std::sort(keys, keys + K);
        if (memcmp(keys, sorted + t * K, sizeof keys)) c.fail("thread %d sort", t);
        unsigned hh[16] = {0}, h = 0;
        for (int i = 0; i < K; i++) hh[in[t * K + i] % 16]++;
        for (int b = 0; b < 16; b++) h = h * 31 + hh[b];
        if (hist[t] != h) c.fail("thread %d histogram", t);
        int grid[5][7];
        for (int r = 0; r < 5; r++)
            for (int col = 0; col < 7; col++) grid[r][col] = r * 7 + col + t;
        int r = in[t * K] % 5, col = in[t * K + 1] % 7, acc = 0;
        for (int step = 0; step < 20; step++) {
            acc += grid[r][col]; grid[r][col] = -acc;
            r = (r + col + 1) % 5; col = (col * 3 + r + 2) % 7;
        }
        if (walk[t] != acc) c.fail("thread %d walk %d want %d", t, walk[t], acc);
    }
    return c.finish();
}
