// sm_80 warp reductions: __reduce_add/min/max_sync (unsigned and int),
// __reduce_and/or/xor_sync, over full warps, a partial last warp, and a
// divergent partial mask (even lanes only).
#include "test_util.h"

enum { ADD, MINU, MAXU, MINI, MAXI, AND, OR, XOR, E_ADD, E_MINI, E_XOR, NRES };

__global__ void reduce(const unsigned *in, unsigned *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    int s = (int)v;
    unsigned *o = out + i * NRES;
    unsigned m = __activemask();
    o[ADD] = __reduce_add_sync(m, v);
    o[MINU] = __reduce_min_sync(m, v);
    o[MAXU] = __reduce_max_sync(m, v);
    o[MINI] = (unsigned)__reduce_min_sync(m, s);
    o[MAXI] = (unsigned)__reduce_max_sync(m, s);
    o[AND] = __reduce_and_sync(m, v | 0x0f0f0000u);
    o[OR] = __reduce_or_sync(m, v & 0x00f000ffu);
    o[XOR] = __reduce_xor_sync(m, v);
    o[E_ADD] = o[E_MINI] = o[E_XOR] = 0xdeadbeef;
    if ((threadIdx.x & 1) == 0) {
        unsigned em = 0x55555555u & m;
        o[E_ADD] = __reduce_add_sync(em, v);
        o[E_MINI] = (unsigned)__reduce_min_sync(em, s);
        o[E_XOR] = __reduce_xor_sync(em, v);
    }
}

int main() {
    Checker c;
    const int block = 80, blocks = 3, n = block * blocks;  // third warp of each block: 16 lanes
    Lcg rng(80);
    unsigned in[n];
    for (int i = 0; i < n; i++) in[i] = rng.next() >> (rng.next() % 20);  // mixed magnitudes and signs
    unsigned *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, n * NRES * 4));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    reduce<<<blocks, block>>>(din, dout);
    CHECK_LAUNCH();
    unsigned out[n * NRES];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int t = i % block, lane = t % 32, w0 = i - lane;
        int wsize = block - (t - lane) >= 32 ? 32 : block - (t - lane);
        unsigned want[NRES] = {0, ~0u, 0, (unsigned)INT32_MAX, (unsigned)INT32_MIN, ~0u, 0, 0, 0, (unsigned)INT32_MAX, 0};
        for (int l = 0; l < wsize; l++) {
            unsigned v = in[w0 + l]; int s = (int)v;
            want[ADD] += v;
            want[MINU] = v < want[MINU] ? v : want[MINU];
            want[MAXU] = v > want[MAXU] ? v : want[MAXU];
            want[MINI] = s < (int)want[MINI] ? (unsigned)s : want[MINI];
            want[MAXI] = s > (int)want[MAXI] ? (unsigned)s : want[MAXI];
            want[AND] &= v | 0x0f0f0000u;
            want[OR] |= v & 0x00f000ffu;
            want[XOR] ^= v;
            if ((l & 1) == 0) {
                want[E_ADD] += v;
                want[E_MINI] = s < (int)want[E_MINI] ? (unsigned)s : want[E_MINI];
                want[E_XOR] ^= v;
            }
        }
        if (lane & 1) want[E_ADD] = want[E_MINI] = want[E_XOR] = 0xdeadbeef;
        for (int r = 0; r < NRES; r++)
            if (out[i * NRES + r] != want[r]) c.fail("thread %d op %d: %#x want %#x", i, r, out[i * NRES + r], want[r]);
    }
    return c.finish();
}
