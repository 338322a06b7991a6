// cuda::barrier<thread_scope_block> arrive/wait as the arrive-wait barrier sample uses it,
// built for the default arch: below sm_80 libcu++ makes it of 64-bit shared atomics, whose
// result feeds the next atomic (a pattern LLVM's optimising code generator once failed on
// for gfx11, whose code was then generated unoptimised; it no longer does). Each block
// reduces its part of a vector in double through warp shuffles and the barrier, over
// several phases of the same barrier, and the last warp's sum is checked against the
// host's. The arrive-wait sample's own kernel (a grid-wide sync between two such
// reductions) runs where the device offers cooperative launch; elsewhere it is only
// converted.
#include "test_util.h"
#include <cooperative_groups.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

__device__ double block_sum(cuda::barrier<cuda::thread_scope_block> &bar, cg::thread_block_tile<32> &tile,
                            double v, double *tmp) {
    for (int offset = 16; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
    if (tile.thread_rank() == 0) tmp[tile.meta_group_rank()] = v;
    auto token = bar.arrive();
    bar.wait(std::move(token));
    double s = 0;
    if (tile.meta_group_rank() == 0) {
        s = tile.thread_rank() < tile.meta_group_size() ? tmp[tile.thread_rank()] : 0.0;
        for (int offset = 16; offset > 0; offset /= 2) s += tile.shfl_down(s, offset);
    }
    bar.arrive_and_wait(); // tmp is free again for the next round
    return s;
}

__global__ void sums(const float *a, const float *b, double *out, int n, int rounds) {
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ double tmp[32];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    cg::sync(cta);
    for (int r = 0; r < rounds; r++) {
        double v = 0;
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            v += (double)(a[i] * b[i]) * (r + 1);
        double s = block_sum(bar, tile, v, tmp);
        if (threadIdx.x == 0) out[blockIdx.x * rounds + r] = s;
    }
}

// The arrive-wait barrier sample's kernel: vectors normalised by their dot product.
__global__ void normalize(float *a, float *b, double *partial, int n) {
    cg::thread_block cta = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ double tmp[32];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    cg::sync(cta);
    double v = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) v += (double)(a[i] * b[i]);
    double s = block_sum(bar, tile, v, tmp);
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
    cg::sync(grid);
    if (blockIdx.x == 0) {
        v = 0;
        for (int i = cta.thread_rank(); i < gridDim.x; i += cta.size()) v += partial[i];
        s = block_sum(bar, tile, v, tmp);
        if (threadIdx.x == 0) partial[0] = sqrt(s);
    }
    cg::sync(grid);
    const double norm = partial[0];
    for (int i = grid.thread_rank(); i < n; i += grid.size()) { a[i] = a[i] / norm; b[i] = b[i] / norm; }
}

static void check_normalize(Checker &c, float *da, float *db, const float *a, const float *b, int n) {
    int cooperative = 0;
    CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, 0));
    if (!cooperative) return;
    int blocks = 0, sms = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, normalize, 256, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    double *partial;
    CHECK(cudaMalloc(&partial, blocks * sms * 8));
    void *args[] = {&da, &db, &partial, &n};
    CHECK(cudaLaunchCooperativeKernel((void *)normalize, blocks * sms, 256, args, 0, 0));
    CHECK_LAUNCH();
    float *got = new float[n];
    CHECK(cudaMemcpy(got, da, n * 4, cudaMemcpyDeviceToHost));
    double dot = 0;
    for (int i = 0; i < n; i++) dot += (double)(a[i] * b[i]);
    for (int i = 0; i < n; i++) {
        float want = (float)(a[i] / sqrt(dot));
        if (fabsf(got[i] - want) > 1e-6f * fabsf(want) + 1e-12f)
            c.fail("normalize: element %d: %.9g, want %.9g", i, got[i], want);
    }
    delete[] got;
    CHECK(cudaFree(partial));
}

int main() {
    Checker c;
    const int n = 100003, blocks = 7, rounds = 3;
    float *a = new float[n], *b = new float[n];
    Lcg rng(75);
    for (int i = 0; i < n; i++) { a[i] = rng.uniform(0.1f, 2); b[i] = rng.uniform(0.1f, 2); }
    float *da, *db;
    double *dout;
    CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4));
    CHECK(cudaMalloc(&dout, blocks * rounds * 8));
    CHECK(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice));
    const int threads[] = {96, 256, 1024};
    for (int block : threads) {
        CHECK(cudaMemset(dout, 0, blocks * rounds * 8));
        sums<<<blocks, block>>>(da, db, dout, n, rounds);
        CHECK_LAUNCH();
        double out[blocks * rounds];
        CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        for (int blk = 0; blk < blocks; blk++)
            for (int r = 0; r < rounds; r++) {
                double want = 0;
                for (int i = blk * block; i < n; i += blocks * block)
                    for (int j = i; j < i + block && j < n; j++) want += (double)(a[j] * b[j]) * (r + 1);
                double got = out[blk * rounds + r];
                if (fabs(got - want) > 1e-9 * (fabs(want) + 1))
                    c.fail("block size %d, block %d, round %d: %.17g, want %.17g", block, blk, r, got, want);
            }
    }
    check_normalize(c, da, db, a, b, n);
    return c.finish();
}
