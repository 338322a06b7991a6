// Named barriers through inline PTX: two producer warps and two consumer
// warps hand buffers over with bar.arrive / bar.sync on barriers 1 and 2
// (thread count 128), and each pair of warps also syncs privately on its own
// barrier (3 or 4, count 64) to swap data through shared memory.
#include "test_util.h"

#define ROUNDS 5

__device__ __forceinline__ void bar_sync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void bar_arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }

__global__ void pipeline(const int *in, int *out, int *swapped) {
    __shared__ int buf[64];
    __shared__ int pair[2][64];
    int t = threadIdx.x;
    bool producer = t < 64;
    int acc = 0;
    for (int r = 0; r < ROUNDS; r++) {
        if (producer) {
            if (r > 0) bar_sync(2, 128);      // wait until consumers are done with buf
            buf[t] = in[blockIdx.x * ROUNDS * 64 + r * 64 + t] * (r + 1);
            bar_arrive(1, 128);               // publish buf
        } else {
            bar_sync(1, 128);                 // wait for buf
            acc += buf[127 - t];              // read another warp's element
            if (r < ROUNDS - 1) bar_arrive(2, 128);
        }
    }
    if (!producer) out[blockIdx.x * 64 + (t - 64)] = acc;

    // Private exchange within each half: producers on barrier 3, consumers on 4.
    int half = producer ? 0 : 1, lt = t % 64;
    pair[half][lt] = t * 10 + blockIdx.x;
    bar_sync(3 + half, 64);
    swapped[blockIdx.x * 128 + t] = pair[half][63 - lt];
}

int main() {
    Checker c;
    const int blocks = 3;
    Lcg rng(42);
    int in[blocks * ROUNDS * 64];
    for (int &v : in) v = rng.range(-10000, 10000);
    int *din, *dout, *dsw;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, blocks * 64 * 4)); CHECK(cudaMalloc(&dsw, blocks * 128 * 4));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    pipeline<<<blocks, 128>>>(din, dout, dsw);
    CHECK_LAUNCH();
    int out[blocks * 64], sw[blocks * 128];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sw, dsw, sizeof sw, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        for (int k = 0; k < 64; k++) {
            int t = k + 64, want = 0;
            for (int r = 0; r < ROUNDS; r++) want += in[b * ROUNDS * 64 + r * 64 + (127 - t)] * (r + 1);
            if (out[b * 64 + k] != want) c.fail("block %d consumer %d: %d want %d", b, t, out[b * 64 + k], want);
        }
        for (int t = 0; t < 128; t++) {
            int half = t / 64, partner = half * 64 + (63 - t % 64);
            int want = partner * 10 + b;
            if (sw[b * 128 + t] != want) c.fail("block %d swap %d: %d want %d", b, t, sw[b * 128 + t], want);
        }
    }
    return c.finish();
}
