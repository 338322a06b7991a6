// Warp reductions and matches whose member mask differs between the lanes of one warp:
// groups of 8 lanes, interleaved even/odd lanes, and cooperative_groups' reduce over tiles
// of 16 (which CUDA's headers compile to redux.sync with 0xffff << (laneid & -16)). Each
// lane must get its own group's result. Checked against sums, minima and matches computed
// on the host.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "test_util.h"

namespace cg = cooperative_groups;

enum { WARPS = 4, THREADS = 32 * WARPS, REDUCTIONS = 6, MATCHES = 3 };

__device__ unsigned group_mask(int lane, int kind)
{
    if (kind == 0)
        return 0xffu << (lane & ~7);            // groups of 8 contiguous lanes
    return lane & 1 ? 0xaaaaaaaau : 0x55555555u; // odd lanes and even lanes
}

__global__ void reduce(const unsigned *in, unsigned *out)
{
    int t = threadIdx.x, lane = t % 32;
    unsigned v = in[t];
    for (int kind = 0; kind < 2; kind++) {
        unsigned m = group_mask(lane, kind);
        unsigned *o = out + (kind * REDUCTIONS) * THREADS;
        o[0 * THREADS + t] = __reduce_add_sync(m, v);
        o[1 * THREADS + t] = __reduce_min_sync(m, v);
        o[2 * THREADS + t] = __reduce_max_sync(m, (int)v);
        o[3 * THREADS + t] = __reduce_and_sync(m, v);
        o[4 * THREADS + t] = __reduce_or_sync(m, v);
        o[5 * THREADS + t] = __reduce_xor_sync(m, v);
    }
}

// Groups of 8: in groups 0 and 2 every lane holds the same value, in 1 and 3 one lane differs.
__global__ void match(const unsigned *in, unsigned *out)
{
    int t = threadIdx.x, lane = t % 32;
    unsigned m = 0xffu << (lane & ~7);
    unsigned v = in[t];
    int pred = -1;
    out[0 * THREADS + t] = __match_all_sync(m, v, &pred);
    out[1 * THREADS + t] = (unsigned)pred;
    out[2 * THREADS + t] = __match_any_sync(m, v);
}

__global__ void tile_reduce(const unsigned *in, unsigned *out)
{
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    out[threadIdx.x] = cg::reduce(tile, in[threadIdx.x], cg::plus<unsigned>());
}

static unsigned host_mask(int lane, int kind)
{
    if (kind == 0)
        return 0xffu << (lane & ~7);
    return lane & 1 ? 0xaaaaaaaau : 0x55555555u;
}

int main()
{
    Checker c;
    unsigned in[THREADS], match_in[THREADS];
    Lcg rng(20261201);
    for (int t = 0; t < THREADS; t++) {
        in[t] = rng.next() % 1000 + (t % 3 == 0 ? 0x80000000u : 0);
        int group = t % 32 / 8;
        match_in[t] = 100 + group + 8 * (t / 32);
        if (group % 2 == 1 && t % 8 == 5)
            match_in[t] += 1000;
    }
    unsigned *din, *dmatch, *dout;
    unsigned got[2 * REDUCTIONS * THREADS];
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dmatch, sizeof match_in));
    CHECK(cudaMalloc(&dout, sizeof got));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dmatch, match_in, sizeof match_in, cudaMemcpyHostToDevice));

    reduce<<<1, THREADS>>>(din, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
    static const char *const names[REDUCTIONS] = {"add", "min", "max", "and", "or", "xor"};
    for (int kind = 0; kind < 2; kind++)
        for (int t = 0; t < THREADS; t++) {
            int lane = t % 32, warp = t / 32;
            unsigned m = host_mask(lane, kind), want[REDUCTIONS] = {0, ~0u, 0, ~0u, 0, 0};
            int max = INT32_MIN;
            for (int j = 0; j < 32; j++) {
                if (!(m >> j & 1))
                    continue;
                unsigned x = in[warp * 32 + j];
                want[0] += x;
                want[1] = x < want[1] ? x : want[1];
                max = (int)x > max ? (int)x : max;
                want[3] &= x;
                want[4] |= x;
                want[5] ^= x;
            }
            want[2] = (unsigned)max;
            for (int r = 0; r < REDUCTIONS; r++) {
                unsigned g = got[(kind * REDUCTIONS + r) * THREADS + t];
                if (g != want[r])
                    c.fail("__reduce_%s_sync, mask %#x, thread %d: %#x want %#x", names[r], m, t, g, want[r]);
            }
        }

    match<<<1, THREADS>>>(dmatch, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, MATCHES * THREADS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int t = 0; t < THREADS; t++) {
        int lane = t % 32, warp = t / 32;
        unsigned m = 0xffu << (lane & ~7), any = 0;
        for (int j = 0; j < 32; j++)
            if (m >> j & 1 && match_in[warp * 32 + j] == match_in[t])
                any |= 1u << j;
        bool group_all = true;
        for (int j = 0; j < 32; j++)
            if (m >> j & 1)
                group_all &= match_in[warp * 32 + j] == match_in[warp * 32 + (lane & ~7)];
        unsigned want_all = group_all ? m : 0;
        if (got[t] != want_all || got[THREADS + t] != (unsigned)group_all)
            c.fail("__match_all_sync, mask %#x, thread %d: %#x pred %u want %#x pred %d", m, t, got[t],
                   got[THREADS + t], want_all, group_all);
        if (got[2 * THREADS + t] != any)
            c.fail("__match_any_sync, mask %#x, thread %d: %#x want %#x", m, t, got[2 * THREADS + t], any);
    }

    tile_reduce<<<1, THREADS>>>(din, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, THREADS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int t = 0; t < THREADS; t++) {
        unsigned want = 0;
        for (int j = t & ~15; j < (t & ~15) + 16; j++)
            want += in[j];
        if (got[t] != want)
            c.fail("cg::reduce over a tile of 16, thread %d: %u want %u", t, got[t], want);
    }
    return c.finish();
}
