// Device-side malloc and free: each thread allocates, fills, checks and frees blocks of
// varying sizes many times over, 32 MiB in all, four times the default 8 MiB heap, so it
// passes only if freed memory is reused; then blocks allocated in one launch are read and
// freed by other threads in the next (device allocations outlive their kernel).
#include "test_util.h"

__global__ void churn(int rounds, unsigned *bad) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < rounds; r++) {
        size_t words = 4 + (t * 37 + r * 101) % 253;
        unsigned *p = (unsigned *)malloc(words * 4);
        if (!p) { atomicAdd(bad, 1); continue; }
        for (size_t i = 0; i < words; i++) p[i] = t ^ (unsigned)(i * 2654435761u) ^ r;
        for (size_t i = 0; i < words; i++)
            if (p[i] != (t ^ (unsigned)(i * 2654435761u) ^ r)) { atomicAdd(bad, 1); break; }
        free(p);
    }
}

__global__ void keep(int **slots, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int *p = (int *)malloc(sizeof(int) * 8);
    if (p)
        for (int i = 0; i < 8; i++) p[i] = t * 8 + i;
    slots[t] = p;
}

__global__ void take(int **slots, int n, long long *sum, unsigned *missing) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int *p = slots[n - 1 - t]; // another thread's block, from the previous launch
    if (!p) { atomicAdd(missing, 1); return; }
    long long s = 0;
    for (int i = 0; i < 8; i++) s += p[i];
    atomicAdd((unsigned long long *)sum, (unsigned long long)s);
    free(p);
}

int main() {
    Checker c;
    size_t heap = 0;
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    c.expect(heap == 8u << 20, "the default heap is 8 MiB");
    unsigned *bad, *missing;
    long long *sum;
    int **slots;
    const int n = 1000;
    CHECK(cudaMalloc(&bad, 4)); CHECK(cudaMalloc(&missing, 4)); CHECK(cudaMalloc(&sum, 8));
    CHECK(cudaMalloc(&slots, n * sizeof(int *)));
    CHECK(cudaMemset(bad, 0, 4)); CHECK(cudaMemset(missing, 0, 4)); CHECK(cudaMemset(sum, 0, 8));
    churn<<<4, 128>>>(64, bad);
    CHECK_LAUNCH();
    keep<<<(n + 127) / 128, 128>>>(slots, n);
    CHECK_LAUNCH();
    take<<<(n + 127) / 128, 128>>>(slots, n, sum, missing);
    CHECK_LAUNCH();
    unsigned hbad, hmissing;
    long long hsum;
    CHECK(cudaMemcpy(&hbad, bad, 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hmissing, missing, 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hsum, sum, 8, cudaMemcpyDeviceToHost));
    if (hbad) c.fail("%u allocations failed or lost their contents", hbad);
    if (hmissing) c.fail("%u kept allocations were NULL", hmissing);
    long long want = (long long)(8 * n) * (8 * n - 1) / 2;
    if (hsum != want) c.fail("kept blocks sum to %lld, expected %lld", hsum, want);
    return c.finish();
}
