// Cooperative-groups tiles wider than a warp (thread_block_tile<64> and <128>): on sm_80
// and later they keep their barriers and exchange slots in the block's reserved shared
// memory (%reserved_smem_offset_1), which they expect to find zeroed. Checks tile.sync
// ordering shared-memory writes, shfl across warps, any/all/ballot-style votes through
// the scratch slots, and cg::reduce over the wide tile, against host results.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "test_util.h"

namespace cg = cooperative_groups;

template <unsigned Size>
__global__ void wide_tiles(const int *in, int *sum, int *from_lane5, int *rotated, int *any_neg,
                           int *all_small) {
    __shared__ int stage[256];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[g];
    stage[threadIdx.x] = v * 3;
    tile.sync();
    // read a value another warp of the tile wrote before the sync
    unsigned partner = (tile.thread_rank() + Size / 2) % Size;
    rotated[g] = stage[threadIdx.x - tile.thread_rank() + partner];
    from_lane5[g] = tile.shfl(v, 5);
    sum[g] = cg::reduce(tile, v, cg::plus<int>());
    any_neg[g] = tile.any(v < 0);
    all_small[g] = tile.all(v < 1000);
}

template <unsigned Size>
static void check(Checker &c, const int *in, int n, const int *sum, const int *lane5,
                  const int *rot, const int *anyn, const int *alls) {
    for (int i = 0; i < n; i++) {
        int base = i - i % (int)Size;
        int s = 0, a = 0, all = 1;
        for (unsigned k = 0; k < Size; k++) {
            s += in[base + k];
            a |= in[base + k] < 0;
            all &= in[base + k] < 1000;
        }
        int r = (i % (int)Size + (int)Size / 2) % (int)Size;
        if (sum[i] != s) c.fail("tile<%u> sum[%d] = %d, expected %d", Size, i, sum[i], s);
        if (lane5[i] != in[base + 5]) c.fail("tile<%u> shfl[%d] = %d", Size, i, lane5[i]);
        if (rot[i] != in[base + r] * 3) c.fail("tile<%u> rotated[%d] = %d", Size, i, rot[i]);
        if ((anyn[i] != 0) != (a != 0)) c.fail("tile<%u> any[%d] = %d", Size, i, anyn[i]);
        if ((alls[i] != 0) != (all != 0)) c.fail("tile<%u> all[%d] = %d", Size, i, alls[i]);
    }
}

template <unsigned Size>
static void run(Checker &c, const int *in, int *din, int n) {
    int *d[5];
    int *h[5];
    for (int k = 0; k < 5; k++) {
        CHECK(cudaMalloc(&d[k], n * sizeof(int)));
        h[k] = new int[n];
    }
    wide_tiles<Size><<<n / 256, 256>>>(din, d[0], d[1], d[2], d[3], d[4]);
    CHECK_LAUNCH();
    for (int k = 0; k < 5; k++) CHECK(cudaMemcpy(h[k], d[k], n * sizeof(int), cudaMemcpyDeviceToHost));
    check<Size>(c, in, n, h[0], h[1], h[2], h[3], h[4]);
    for (int k = 0; k < 5; k++) {
        CHECK(cudaFree(d[k]));
        delete[] h[k];
    }
}

int main() {
    Checker c;
    const int n = 256 * 8;
    int *in = new int[n];
    Lcg rng(4242);
    for (int i = 0; i < n; i++) in[i] = rng.range(-50, 950);
    // some tiles without negatives, some with values past 1000
    for (int i = 0; i < 256; i++) in[i] = rng.range(0, 900);
    for (int i = 512; i < 640; i++) in[i] = rng.range(1000, 2000);
    int *din;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
    run<64>(c, in, din, n);
    run<128>(c, in, din, n);
    return c.finish();
}
