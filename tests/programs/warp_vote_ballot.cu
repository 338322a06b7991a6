// Warp votes: __ballot_sync, __any_sync, __all_sync with full masks, then the
// same under divergent partial masks (only every third lane, only the upper
// half-warp), and in a 48-thread block whose second warp is partial.
#include "test_util.h"

enum { R_BALLOT, R_ANY, R_ALL, R_P3_BALLOT, R_P3_ALL, R_HI_ANY, R_HI_BALLOT, NRES };

__global__ void votes(const int *in, unsigned *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[i];
    unsigned *o = out + i * NRES;
    o[R_BALLOT] = __ballot_sync(__activemask(), v > 0);
    o[R_ANY] = __any_sync(__activemask(), v > 90);
    o[R_ALL] = __all_sync(__activemask(), v > -95);
    o[R_P3_BALLOT] = o[R_P3_ALL] = 0xdeadbeef;
    o[R_HI_ANY] = o[R_HI_BALLOT] = 0xdeadbeef;
    unsigned warp_full = (blockDim.x - (threadIdx.x & ~31u)) >= 32 ? 0xffffffffu
                         : (1u << (blockDim.x - (threadIdx.x & ~31u))) - 1;
    if (lane % 3 == 0) {
        unsigned m = 0x49249249u & warp_full;  // lanes 0, 3, ..., 30 that exist
        o[R_P3_BALLOT] = __ballot_sync(m, v & 1);
        o[R_P3_ALL] = __all_sync(m, v != 0);
    } else if (lane >= 16) {
        unsigned m = 0xffff0000u & ~0x49249249u & warp_full;
        o[R_HI_ANY] = __any_sync(m, v < -90);
        o[R_HI_BALLOT] = __ballot_sync(m, v % 4 == 0);
    }
}

int main() {
    Checker c;
    for (int block : {64, 48}) {
        const int blocks = 4, n = block * blocks;
        Lcg rng(block);
        int *in = new int[n];
        for (int i = 0; i < n; i++) in[i] = rng.range(-100, 100);
        in[5] = 0;  // makes some every-third-lane __all_sync false
        int *din; unsigned *dout;
        CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dout, n * NRES * 4));
        CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
        votes<<<blocks, block>>>(din, dout);
        CHECK_LAUNCH();
        unsigned *out = new unsigned[n * NRES];
        CHECK(cudaMemcpy(out, dout, n * NRES * 4, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            int t = i % block, lane = t % 32, w0 = i - lane;
            int wsize = block - (t - lane) >= 32 ? 32 : block - (t - lane);
            unsigned want[NRES], ballot = 0, p3 = 0, hi = 0;
            bool any = false, all = true, p3all = true, hiany = false;
            for (int l = 0; l < wsize; l++) {
                int v = in[w0 + l];
                if (v > 0) ballot |= 1u << l;
                any |= v > 90; all &= v > -95;
                if (l % 3 == 0) { if (v & 1) p3 |= 1u << l; p3all &= v != 0; }
                else if (l >= 16) { hiany |= v < -90; if (v % 4 == 0) hi |= 1u << l; }
            }
            want[R_BALLOT] = ballot; want[R_ANY] = any; want[R_ALL] = all;
            bool in_p3 = lane % 3 == 0, in_hi = !in_p3 && lane >= 16;
            want[R_P3_BALLOT] = in_p3 ? p3 : 0xdeadbeef;
            want[R_P3_ALL] = in_p3 ? p3all : 0xdeadbeef;
            want[R_HI_ANY] = in_hi ? hiany : 0xdeadbeef;
            want[R_HI_BALLOT] = in_hi ? hi : 0xdeadbeef;
            for (int r = 0; r < NRES; r++) {
                unsigned got = out[i * NRES + r];
                // __any/__all return "non-zero" for true: normalise.
                if ((r == R_ANY || r == R_ALL || r == R_P3_ALL || r == R_HI_ANY) && got != 0xdeadbeef) got = got != 0;
                if (got != want[r]) c.fail("block %d thread %d result %d: %#x want %#x", block, i, r, got, want[r]);
            }
        }
    }
    return c.finish();
}
