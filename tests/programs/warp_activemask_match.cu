// __activemask in converged code of a partial warp and inside divergent
// branches, __match_any_sync (lanes grouped by equal value, 32- and 64-bit)
// and __match_all_sync with its predicate output.
#include "test_util.h"

enum { R_TOP, R_BRANCH, R_ANY32, R_ANY64, R_ALL, R_ALLPRED, R_ALLSAME, R_ALLSAMEPRED, R_ODDANY, NRES };

__global__ void masks(const int *in, unsigned *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    unsigned *o = out + i * NRES;
    __syncwarp(__activemask());
    o[R_TOP] = __activemask();
    int v = in[i];
    o[R_BRANCH] = 0;
    if (v % 3 == 0) o[R_BRANCH] = __activemask();
    unsigned full = __activemask();
    o[R_ANY32] = __match_any_sync(full, v % 5);
    long long key = ((long long)(v % 2) << 40) | 7;
    o[R_ANY64] = __match_any_sync(full, key);
    int pred = -1;
    o[R_ALL] = __match_all_sync(full, v, &pred);
    o[R_ALLPRED] = pred;
    pred = -1;
    o[R_ALLSAME] = __match_all_sync(full, 42, &pred);
    o[R_ALLSAMEPRED] = pred;
    o[R_ODDANY] = 0;
    if (lane & 1) o[R_ODDANY] = __match_any_sync(0xaaaaaaaau & full, v % 4);
}

int main() {
    Checker c;
    const int block = 56, blocks = 2, n = block * blocks;  // second warp of each block has 24 lanes
    Lcg rng(3);
    int in[n];
    for (int i = 0; i < n; i++) in[i] = rng.range(0, 1000);
    int *din; unsigned *dout;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, n * NRES * 4));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    masks<<<blocks, block>>>(din, dout);
    CHECK_LAUNCH();
    unsigned out[n * NRES];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int t = i % block, lane = t % 32, w0 = i - lane;
        int wsize = block - (t - lane) >= 32 ? 32 : block - (t - lane);
        unsigned full = wsize == 32 ? 0xffffffffu : (1u << wsize) - 1;
        const unsigned *o = out + i * NRES;
        int v = in[i];
        if (o[R_TOP] != full) c.fail("thread %d activemask %#x want %#x", i, o[R_TOP], full);
        // Inside the branch the mask must contain the caller and only lanes
        // that took the branch (the architecture allows a subset of them).
        unsigned branch = 0, any32 = 0, any64 = 0, odd = 0;
        bool all_same = true;
        for (int l = 0; l < wsize; l++) {
            int u = in[w0 + l];
            if (u % 3 == 0) branch |= 1u << l;
            if (u % 5 == v % 5) any32 |= 1u << l;
            if (u % 2 == v % 2) any64 |= 1u << l;
            if ((l & 1) && (lane & 1) && u % 4 == v % 4) odd |= 1u << l;
            all_same &= u == in[w0];
        }
        if (v % 3 == 0) {
            if (!(o[R_BRANCH] & (1u << lane)) || (o[R_BRANCH] & ~branch))
                c.fail("thread %d branch activemask %#x not within %#x", i, o[R_BRANCH], branch);
        } else if (o[R_BRANCH] != 0) c.fail("thread %d wrote branch mask", i);
        if (o[R_ANY32] != any32) c.fail("thread %d match_any32 %#x want %#x", i, o[R_ANY32], any32);
        if (o[R_ANY64] != any64) c.fail("thread %d match_any64 %#x want %#x", i, o[R_ANY64], any64);
        unsigned want_all = all_same ? full : 0;
        if (o[R_ALL] != want_all || o[R_ALLPRED] != (unsigned)all_same)
            c.fail("thread %d match_all %#x/%u", i, o[R_ALL], o[R_ALLPRED]);
        if (o[R_ALLSAME] != full || o[R_ALLSAMEPRED] != 1)
            c.fail("thread %d match_all(const) %#x/%u", i, o[R_ALLSAME], o[R_ALLSAMEPRED]);
        if (o[R_ODDANY] != ((lane & 1) ? odd : 0)) c.fail("thread %d odd match_any %#x want %#x", i, o[R_ODDANY], odd);
    }
    return c.finish();
}
