// Streams, events and asynchronous copies with pinned host memory: chunks of
// work pipelined over three streams (H2D copy, kernel, D2H copy each),
// cudaStreamWaitEvent making one stream wait for another, event timing
// (elapsed time must be >= 0), cudaStreamQuery / cudaEventQuery after
// synchronisation, a host function enqueued with cudaLaunchHostFunc, and
// both cudaMallocHost and cudaHostAlloc pinned buffers.
#include "test_util.h"

__global__ void scale_add(int n, float *x, float a, float b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * a + b;
}
__global__ void combine(int n, const float *x, const float *y, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] - y[i];
}

static void CUDART_CB host_callback(void *flag) { *(volatile int *)flag = 42; }

int main() {
    Checker c;
    const int chunks = 6, chunk = 512, n = chunks * chunk, ns = 3;
    float *h_in, *h_out;
    CHECK(cudaMallocHost(&h_in, n * 4));
    CHECK(cudaHostAlloc(&h_out, n * 4, cudaHostAllocDefault));
    Lcg rng(3);
    for (int i = 0; i < n; i++) h_in[i] = (float)rng.range(-1000, 1000);  // integers: exact results
    float *d;
    CHECK(cudaMalloc(&d, n * 4));
    cudaStream_t s[ns];
    for (auto &st : s) CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, s[0]));
    for (int k = 0; k < chunks; k++) {
        cudaStream_t st = s[k % ns];
        float *dk = d + k * chunk;
        CHECK(cudaMemcpyAsync(dk, h_in + k * chunk, chunk * 4, cudaMemcpyHostToDevice, st));
        scale_add<<<chunk / 128, 128, 0, st>>>(chunk, dk, 2.0f, (float)k);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(h_out + k * chunk, dk, chunk * 4, cudaMemcpyDeviceToHost, st));
    }
    // Stream 0 waits for everything the others did, then records stop.
    cudaEvent_t done[ns];
    for (int k = 1; k < ns; k++) {
        CHECK(cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming));
        CHECK(cudaEventRecord(done[k], s[k]));
        CHECK(cudaStreamWaitEvent(s[0], done[k], 0));
    }
    volatile int flag = 0;
    CHECK(cudaLaunchHostFunc(s[0], host_callback, (void *)&flag));
    CHECK(cudaEventRecord(stop, s[0]));
    CHECK(cudaEventSynchronize(stop));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (!(ms >= 0)) c.fail("elapsed time %f", ms);
    if (flag != 42) c.fail("host function did not run before the stop event");
    for (int k = 0; k < ns; k++) if (cudaStreamQuery(s[k]) != cudaSuccess) c.fail("stream %d still busy", k);
    if (cudaEventQuery(stop) != cudaSuccess) c.fail("event not complete");
    for (int i = 0; i < n; i++) {
        float w = h_in[i] * 2.0f + (float)(i / chunk);
        if (h_out[i] != w) { c.fail("element %d: %g want %g", i, h_out[i], w); break; }
    }
    // Cross-stream dependency: s[1] produces y, s[2] must wait for it.
    float *y, *out;
    CHECK(cudaMalloc(&y, n * 4)); CHECK(cudaMalloc(&out, n * 4));
    CHECK(cudaMemcpyAsync(y, d, n * 4, cudaMemcpyDeviceToDevice, s[1]));
    scale_add<<<n / 256, 256, 0, s[1]>>>(n, y, 1.0f, 1.0f);
    cudaEvent_t ready;
    CHECK(cudaEventCreate(&ready));
    CHECK(cudaEventRecord(ready, s[1]));
    CHECK(cudaStreamWaitEvent(s[2], ready, 0));
    combine<<<n / 256, 256, 0, s[2]>>>(n, y, d, out);
    CHECK(cudaMemcpyAsync(h_out, out, n * 4, cudaMemcpyDeviceToHost, s[2]));
    CHECK(cudaStreamSynchronize(s[2]));
    for (int i = 0; i < n; i++) if (h_out[i] != 1.0f) { c.fail("dependent result %d: %g", i, h_out[i]); break; }
    for (auto &st : s) CHECK(cudaStreamDestroy(st));
    CHECK(cudaFreeHost(h_in)); CHECK(cudaFreeHost(h_out));
    return c.finish();
}
