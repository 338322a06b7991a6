// cp.async and mbarrier as CUDA's own headers use them (sm_80): the pipeline primitives
// with 4-, 8- and 16-byte copies and zero fill, a double-buffered cuda::pipeline, a
// block-scope cuda::pipeline with shared state, cuda::memcpy_async completing on a
// cuda::barrier, cooperative_groups::memcpy_async, and a cuda::barrier producer/consumer
// hand-off with arrive, wait, wait_parity and arrive_and_drop. Every result is checked
// against the host.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include "test_util.h"

// libcu++'s barriers in __shared__ have constructors that the program never relies on
// (init() sets them up), as in CUDA's own samples
#pragma nv_diag_suppress static_var_with_dynamic_init

namespace cg = cooperative_groups;

constexpr int TILE = 256;

// __pipeline_memcpy_async of 16, 8 and 4 bytes, the 16-byte one with 8 bytes of zero fill,
// over two stages in flight.
__global__ void primitives(const int4 *in16, const int2 *in8, const int *in4, int *out, int tiles) {
    __shared__ int4 a[2][TILE];
    __shared__ int2 b[2][TILE];
    __shared__ int c[2][TILE];
    int t = threadIdx.x;
    for (int s = 0; s < 2 && s < tiles; s++) {
        __pipeline_memcpy_async(&a[s][t], &in16[s * TILE + t], 16, 8);
        __pipeline_memcpy_async(&b[s][t], &in8[s * TILE + t], 8);
        __pipeline_memcpy_async(&c[s][t], &in4[s * TILE + t], 4);
        __pipeline_commit();
    }
    for (int k = 0; k < tiles; k++) {
        __pipeline_wait_prior(k + 1 < tiles ? 1 : 0);
        int s = k % 2;
        int4 v = a[s][t];
        out[k * TILE + t] = v.x + v.y + v.z + v.w + b[s][t].x - b[s][t].y + c[s][t];
        __syncthreads();
        if (k + 2 < tiles) {
            __pipeline_memcpy_async(&a[s][t], &in16[(k + 2) * TILE + t], 16, 8);
            __pipeline_memcpy_async(&b[s][t], &in8[(k + 2) * TILE + t], 8);
            __pipeline_memcpy_async(&c[s][t], &in4[(k + 2) * TILE + t], 4);
        }
        __pipeline_commit();
    }
}

// A per-thread cuda::pipeline, two stages: each thread copies its own element ahead.
__global__ void thread_pipeline(const float *in, float *out, int tiles) {
    __shared__ float buf[2][TILE];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int t = threadIdx.x;
    for (int s = 0; s < 2 && s < tiles; s++) {
        pipe.producer_acquire();
        cuda::memcpy_async(&buf[s][t], &in[s * TILE + t], sizeof(float), pipe);
        pipe.producer_commit();
    }
    for (int k = 0; k < tiles; k++) {
        pipe.consumer_wait();
        out[k * TILE + t] = buf[k % 2][t] * 2.0f + 1.0f;
        pipe.consumer_release();
        if (k + 2 < tiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[k % 2][t], &in[(k + 2) * TILE + t], sizeof(float), pipe);
            pipe.producer_commit();
        }
    }
}

// A block-scope pipeline: the whole block copies a tile with one memcpy_async and every
// thread reads neighbours' elements, so the barriers in the shared state must order them.
__global__ void block_pipeline(const int *in, int *out, int tiles) {
    constexpr int stages = 2;
    __shared__ alignas(16) int buf[stages][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    cg::thread_block block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int t = threadIdx.x;
    int fetched = 0;
    for (; fetched < stages && fetched < tiles; fetched++) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[fetched % stages], in + fetched * TILE,
                           cuda::aligned_size_t<16>(TILE * sizeof(int)), pipe);
        pipe.producer_commit();
    }
    for (int k = 0; k < tiles; k++) {
        pipe.consumer_wait();
        int *tile = buf[k % stages];
        out[k * TILE + t] = tile[t] + tile[(t + 1) % TILE] * 10 + tile[(t + 37) % TILE] * 100;
        pipe.consumer_release();
        if (fetched < tiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetched % stages], in + fetched * TILE,
                               cuda::aligned_size_t<16>(TILE * sizeof(int)), pipe);
            pipe.producer_commit();
            fetched++;
        }
    }
}

// cuda::memcpy_async completing on a cuda::barrier, then cooperative_groups::memcpy_async.
__global__ void barrier_and_cg_copies(const int *in, int *out) {
    __shared__ alignas(16) int x[TILE], y[TILE];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, x, in + blockIdx.x * TILE, sizeof(int) * TILE, bar);
    bar.arrive_and_wait();
    cg::memcpy_async(block, y, in + blockIdx.x * TILE, sizeof(int) * TILE);
    cg::wait(block);
    int t = threadIdx.x;
    out[blockIdx.x * TILE + t] = x[(t + 5) % TILE] - y[(t + 11) % TILE];
}

// Producer/consumer through two cuda::barriers waited on by phase parity: warp 0 fills a
// shared slot each round and arrives on `full` (32 expected); the other warps wait for
// that phase, read, and arrive on `empty` (224 expected), which the producers wait for
// before the next round. The last round arrives with arrive_and_drop.
__global__ void hand_off(int *out, int rounds) {
    __shared__ int slot[TILE];
    __shared__ cuda::barrier<cuda::thread_scope_block> full, empty;
    int t = threadIdx.x;
    bool producer = t < 32;
    if (t == 0) {
        init(&full, 32);
        init(&empty, TILE - 32);
    }
    __syncthreads();
    int sum = 0;
    for (int r = 0; r < rounds; r++) {
        bool last = r == rounds - 1;
        if (producer) {
            if (r > 0) empty.wait_parity((r - 1) % 2 != 0);
            for (int i = t; i < TILE; i += 32) slot[i] = r * 1000 + i;
            if (last) full.arrive_and_drop();
            else (void)full.arrive();
        } else {
            full.wait_parity(r % 2 != 0);
            sum += slot[(t * 7 + r) % TILE];
            if (last) empty.arrive_and_drop();
            else (void)empty.arrive();
        }
    }
    out[blockIdx.x * blockDim.x + t] = producer ? -1 : sum;
}

int main() {
    Checker c;
    const int tiles = 6, n = tiles * TILE;
    int4 *h16 = new int4[n];
    int2 *h8 = new int2[n];
    int *h4 = new int[n], *hout = new int[n];
    float *hf = new float[n], *hfo = new float[n];
    Lcg rng(99);
    for (int i = 0; i < n; i++) {
        h16[i] = make_int4(rng.range(-1000, 1000), rng.range(-1000, 1000), rng.range(-1000, 1000), rng.range(-1000, 1000));
        h8[i] = make_int2(rng.range(-1000, 1000), rng.range(-1000, 1000));
        h4[i] = rng.range(-1000, 1000);
        hf[i] = rng.uniform(-10, 10);
    }
    int4 *d16; int2 *d8; int *d4, *dout; float *df, *dfo;
    CHECK(cudaMalloc(&d16, n * sizeof(int4))); CHECK(cudaMalloc(&d8, n * sizeof(int2)));
    CHECK(cudaMalloc(&d4, n * sizeof(int))); CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CHECK(cudaMalloc(&df, n * sizeof(float))); CHECK(cudaMalloc(&dfo, n * sizeof(float)));
    CHECK(cudaMemcpy(d16, h16, n * sizeof(int4), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d8, h8, n * sizeof(int2), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d4, h4, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(df, hf, n * sizeof(float), cudaMemcpyHostToDevice));

    primitives<<<1, TILE>>>(d16, d8, d4, dout, tiles);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int want = h16[i].x + h16[i].y + h8[i].x - h8[i].y + h4[i]; // .z, .w zero-filled
        if (hout[i] != want) c.fail("primitives[%d] = %d, expected %d", i, hout[i], want);
    }

    thread_pipeline<<<1, TILE>>>(df, dfo, tiles);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hfo, dfo, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (hfo[i] != hf[i] * 2.0f + 1.0f) c.fail("thread_pipeline[%d] = %g", i, hfo[i]);

    block_pipeline<<<1, TILE>>>(d4, dout, tiles);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int k = 0; k < tiles; k++)
        for (int t = 0; t < TILE; t++) {
            const int *tile = h4 + k * TILE;
            int want = tile[t] + tile[(t + 1) % TILE] * 10 + tile[(t + 37) % TILE] * 100;
            if (hout[k * TILE + t] != want) c.fail("block_pipeline[%d] = %d, expected %d", k * TILE + t, hout[k * TILE + t], want);
        }

    barrier_and_cg_copies<<<tiles, TILE>>>(d4, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < tiles; b++)
        for (int t = 0; t < TILE; t++) {
            int want = h4[b * TILE + (t + 5) % TILE] - h4[b * TILE + (t + 11) % TILE];
            if (hout[b * TILE + t] != want) c.fail("barrier_and_cg_copies[%d] = %d", b * TILE + t, hout[b * TILE + t]);
        }

    const int rounds = 9, blocks = 3;
    hand_off<<<blocks, TILE>>>(dout, rounds);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, dout, blocks * TILE * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < blocks * TILE; i++) {
        int t = i % TILE, want = 0;
        if (t < 32) want = -1;
        else for (int r = 0; r < rounds; r++) want += r * 1000 + (t * 7 + r) % TILE;
        if (hout[i] != want) c.fail("hand_off[%d] = %d, expected %d", i, hout[i], want);
    }
    return c.finish();
}
