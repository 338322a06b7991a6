// Shared-memory atomics: per-block histograms built with atomicAdd on
// __shared__ counters, plus shared atomicMin/Max/And/Or/Xor/Exch/CAS/Inc/Dec and
// 64-bit shared atomicAdd, merged into global memory with global atomics.
#include "test_util.h"

#define BINS 64

struct BlockStats { unsigned mn, mx, an, orr, xr; unsigned long long sum64; int cas_winner; unsigned inc, dec; };

__global__ void histogram(int n, const unsigned *in, unsigned *hist, BlockStats *stats) {
    __shared__ unsigned bins[BINS];
    __shared__ unsigned mn, mx, an, orr, xr;
    __shared__ unsigned long long sum64;
    __shared__ int cas_cell, exch_cell;
    __shared__ unsigned inc_cell, dec_cell;
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) bins[b] = 0;
    if (threadIdx.x == 0) { mn = ~0u; mx = 0; an = ~0u; orr = 0; xr = 0; sum64 = 0; cas_cell = -1; exch_cell = 0; inc_cell = 0; dec_cell = 5; }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned v = in[i];
        atomicAdd(&bins[v % BINS], 1u);
        atomicMin(&mn, v); atomicMax(&mx, v);
        atomicAnd(&an, v | 0xf0f0f0f0u); atomicOr(&orr, v & 0x00000f0fu); atomicXor(&xr, v);
        atomicAdd(&sum64, (unsigned long long)v);
    }
    atomicCAS(&cas_cell, -1, (int)threadIdx.x);  // exactly one thread wins
    atomicExch(&exch_cell, 1);
    atomicInc(&inc_cell, 16u);  // wraps to 0 past 16
    atomicDec(&dec_cell, 20u);  // wraps to 20 below 0
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&hist[b], bins[b]);
    if (threadIdx.x == 0) {
        BlockStats s = {mn, mx, an, orr, xr, sum64, cas_cell, inc_cell, dec_cell};
        stats[blockIdx.x] = s;
    }
}

int main() {
    Checker c;
    const int n = 4096, blocks = 6, block = 160;
    Lcg rng(64);
    unsigned *in = new unsigned[n];
    for (int i = 0; i < n; i++) in[i] = rng.next();
    unsigned *din, *dh; BlockStats *ds;
    CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dh, BINS * 4)); CHECK(cudaMalloc(&ds, blocks * sizeof(BlockStats)));
    CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dh, 0, BINS * 4));
    histogram<<<blocks, block>>>(n, din, dh, ds);
    CHECK_LAUNCH();
    unsigned hist[BINS]; BlockStats st[blocks];
    CHECK(cudaMemcpy(hist, dh, sizeof hist, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(st, ds, sizeof st, cudaMemcpyDeviceToHost));
    unsigned want[BINS] = {0};
    for (int i = 0; i < n; i++) want[in[i] % BINS]++;
    for (int b = 0; b < BINS; b++) if (hist[b] != want[b]) c.fail("bin %d: %u want %u", b, hist[b], want[b]);
    for (int b = 0; b < blocks; b++) {
        BlockStats w = {~0u, 0, ~0u, 0, 0, 0, 0, 0, 5};
        for (int t = 0; t < block; t++) {  // PTX's atom.inc and atom.dec, once per thread
            w.inc = w.inc >= 16u ? 0 : w.inc + 1;
            w.dec = w.dec == 0 || w.dec > 20u ? 20u : w.dec - 1;
        }
        for (int i = b * block; i < n; i += blocks * block)
            for (int k = i; k < i + block && k < n; k++) {
                unsigned v = in[k];
                w.mn = v < w.mn ? v : w.mn; w.mx = v > w.mx ? v : w.mx;
                w.an &= v | 0xf0f0f0f0u; w.orr |= v & 0x00000f0fu; w.xr ^= v; w.sum64 += v;
            }
        const BlockStats &g = st[b];
        if (g.mn != w.mn || g.mx != w.mx || g.an != w.an || g.orr != w.orr || g.xr != w.xr || g.sum64 != w.sum64)
            c.fail("block %d stats differ", b);
        if (g.cas_winner < 0 || g.cas_winner >= block) c.fail("block %d CAS winner %d", b, g.cas_winner);
        if (g.inc != w.inc || g.dec != w.dec)
            c.fail("block %d: inc %u want %u, dec %u want %u", b, g.inc, w.inc, g.dec, w.dec);
    }
    return c.finish();
}
