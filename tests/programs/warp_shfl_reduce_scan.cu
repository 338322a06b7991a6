// Warp shuffles: __shfl_down_sync tree reduction, __shfl_xor_sync butterfly
// (every lane gets the total), __shfl_up_sync inclusive scan, __shfl_sync
// broadcast from a data-dependent lane, sub-warp widths (8, 16), 64-bit
// shuffles, and a shuffle under a partial mask inside a divergent branch.
#include "test_util.h"

#define THREADS 64
#define BLOCKS 3
enum { R_DOWN, R_XOR, R_SCAN, R_BCAST, R_W8XOR, R_W16IDX, R_W8UP, R_W8DOWN, R_64, R_PARTIAL, NRES };

__global__ void shuffles(const int *in, long long *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[i];
    long long *o = out + (size_t)i * NRES;

    int s = v;
    for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffff, s, d);
    o[R_DOWN] = s;  // only lane 0 holds the full sum; others hold partial sums

    int x = v;
    for (int m = 1; m < 32; m <<= 1) x += __shfl_xor_sync(0xffffffff, x, m);
    o[R_XOR] = x;

    int sc = v;
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffff, sc, d);
        if (lane >= d) sc += t;
    }
    o[R_SCAN] = sc;

    int src = (unsigned)in[blockIdx.x * blockDim.x] % 32;  // same for the whole block
    o[R_BCAST] = __shfl_sync(0xffffffff, v, src);

    int w8 = v;
    for (int m = 1; m < 8; m <<= 1) w8 += __shfl_xor_sync(0xffffffff, w8, m, 8);
    o[R_W8XOR] = w8;
    o[R_W16IDX] = __shfl_sync(0xffffffff, v, 21, 16);   // 21 % 16 = lane 5 of each half
    o[R_W8UP] = __shfl_up_sync(0xffffffff, v, 3, 8);    // lanes 0..2 of each 8 keep their own
    o[R_W8DOWN] = __shfl_down_sync(0xffffffff, v, 5, 8);

    long long big = ((long long)v << 32) | (unsigned)(v * 3);
    o[R_64] = __shfl_sync(0xffffffff, big, (lane + 7) % 32);

    o[R_PARTIAL] = -1;
    if (lane < 16) {  // only the low half-warp is here: the mask names exactly it
        int p = v;
        for (int m = 1; m < 16; m <<= 1) p = max(p, __shfl_xor_sync(0x0000ffff, p, m));
        o[R_PARTIAL] = p;
    }
}

int main() {
    Checker c;
    const int n = THREADS * BLOCKS;
    Lcg rng(1);
    int in[n];
    for (int i = 0; i < n; i++) in[i] = rng.range(-100000, 100000);
    int *din; long long *dout;
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dout, n * NRES * sizeof(long long)));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    shuffles<<<BLOCKS, THREADS>>>(din, dout);
    CHECK_LAUNCH();
    long long *out = new long long[n * NRES];
    CHECK(cudaMemcpy(out, dout, n * NRES * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int lane = i % 32, w = i - lane;  // w: first element of this warp
        const long long *o = out + (size_t)i * NRES;
        auto val = [&](int l) { return in[w + l]; };
        long long want[NRES];
        // shfl_down with out-of-range sources returning the caller's own value.
        int s[32];
        for (int l = 0; l < 32; l++) s[l] = val(l);
        for (int d = 16; d > 0; d >>= 1) {
            int t[32];
            for (int l = 0; l < 32; l++) t[l] = s[l] + (l + d < 32 ? s[l + d] : s[l]);
            memcpy(s, t, sizeof s);
        }
        want[R_DOWN] = s[lane];
        int total = 0, prefix = 0;
        for (int l = 0; l < 32; l++) { total += val(l); if (l <= lane) prefix += val(l); }
        want[R_XOR] = total;
        want[R_SCAN] = prefix;
        want[R_BCAST] = val((unsigned)in[(i / THREADS) * THREADS] % 32);
        int g8 = 0;
        for (int l = lane & ~7; l < (lane & ~7) + 8; l++) g8 += val(l);
        want[R_W8XOR] = g8;
        want[R_W16IDX] = val((lane & ~15) + 5);
        want[R_W8UP] = (lane % 8 < 3) ? val(lane) : val(lane - 3);
        want[R_W8DOWN] = (lane % 8 + 5 >= 8) ? val(lane) : val(lane + 5);
        int sl = (lane + 7) % 32;
        want[R_64] = ((long long)val(sl) << 32) | (unsigned)(val(sl) * 3);
        int mx = INT32_MIN;
        for (int l = 0; l < 16; l++) mx = val(l) > mx ? val(l) : mx;
        want[R_PARTIAL] = lane < 16 ? mx : -1;
        for (int r = 0; r < NRES; r++)
            if (o[r] != want[r]) c.fail("thread %d result %d: %lld want %lld", i, r, o[r], want[r]);
    }
    return c.finish();
}
