// Device malloc within cudaLimitMallocHeapSize: with a 4 MiB heap (an H200's smallest),
// blocks of a 64th of it run out after at most 64 (what each target's heap keeps beside
// them takes some: 39 fit on an H200), a block larger than the heap is refused, and once
// all are freed as many fit again.
#include "test_util.h"

__global__ void fill_heap(size_t heap, int *counts) {
    void *blocks[128];
    size_t size = heap / 64;
    int n = 0;
    while (n < 128 && (blocks[n] = malloc(size)) != nullptr) {
        memset(blocks[n], n, size);
        n++;
    }
    counts[0] = n;
    for (int i = 0; i < n; i++) free(blocks[i]);
    int again = 0;
    while (again < 128 && (blocks[again] = malloc(size)) != nullptr) again++;
    counts[1] = again;
    for (int i = 0; i < again; i++) free(blocks[i]);
    void *huge = malloc(2 * heap);
    counts[2] = huge != nullptr;
    free(huge);
}

int main() {
    Checker c;
    size_t heap = 0;
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20));
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    if (heap != 4 << 20) c.fail("heap limit %zu, asked for %d", heap, 4 << 20);
    int *d, counts[3];
    CHECK(cudaMalloc(&d, sizeof counts));
    fill_heap<<<1, 1>>>(heap, d);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(counts, d, sizeof counts, cudaMemcpyDeviceToHost));
    if (counts[0] < 1 || counts[0] > 64)
        c.fail("%d blocks of a 64th of the heap fit it", counts[0]);
    if (counts[1] != counts[0]) c.fail("%d blocks fit after freeing, %d before", counts[1], counts[0]);
    if (counts[2]) c.fail("a block of twice the heap fits it");
    return c.finish();
}
