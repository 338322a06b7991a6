// cudaMemcpyAsync with the program's own (pageable) host memory, as CUDA defines it: a copy
// to pageable memory has completed when the call returns, so the host may read the result
// without waiting (cuSPARSE's triangular solve does); a copy from pageable memory has read
// the buffer when the call returns, so the host may overwrite it at once. Each copy sits on
// a stream behind a kernel that takes a while, so that a copy left queued would be seen.
#include "test_util.h"

// Writes y[i] = i * 3 + seed after a spin long enough to leave the copy behind it queued.
__global__ void slow_fill(int *y, int n, int seed, int spins) {
    int acc = 0;
    for (int k = 0; k < spins; k++) acc = acc * 1103515245 + 12345 + k;
    for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = i * 3 + seed + (acc == 42);  // never 42: the spin is not optimised away
}

__global__ void spin(int *sink, int spins) {
    int acc = 0;
    for (int k = 0; k < spins; k++) acc = acc * 1103515245 + 12345 + k;
    if (acc == 42 && threadIdx.x == 1000) *sink = acc;
}

static const int N = 4096;

int main() {
    Checker c;
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *dev, *sink;
    CHECK(cudaMalloc(&dev, N * sizeof(int)));
    CHECK(cudaMalloc(&sink, sizeof(int)));
    int *host = (int *)malloc(N * sizeof(int));

    // Device to pageable host: the values are there when the call returns.
    for (int round = 0; round < 3; round++) {
        memset(host, 0xff, N * sizeof(int));
        slow_fill<<<1, 32, 0, s>>>(dev, N, round * 1000, 200000);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(host, dev, N * sizeof(int), cudaMemcpyDeviceToHost, s));
        for (int i = 0; i < N; i++)
            if (host[i] != i * 3 + round * 1000) {
                c.fail("round %d: host[%d] = %d right after cudaMemcpyAsync to pageable memory, want %d",
                       round, i, host[i], i * 3 + round * 1000);
                break;
            }
        CHECK(cudaStreamSynchronize(s));
    }

    // Pageable host to device: the buffer may be changed as soon as the call returns.
    for (int i = 0; i < N; i++) host[i] = 7 * i + 1;
    spin<<<1, 32, 0, s>>>(sink, 200000);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(dev, host, N * sizeof(int), cudaMemcpyHostToDevice, s));
    for (int i = 0; i < N; i++) host[i] = -1;
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(host, dev, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        if (host[i] != 7 * i + 1) {
            c.fail("dev[%d] = %d after the pageable source was overwritten, want %d", i, host[i], 7 * i + 1);
            break;
        }

    free(host);
    CHECK(cudaFree(dev));
    CHECK(cudaFree(sink));
    CHECK(cudaStreamDestroy(s));
    return c.finish();
}
