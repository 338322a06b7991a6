// Cooperative launch: a kernel that synchronises its whole grid (cooperative_groups'
// grid.sync()) 41 times per launch, each phase reading what other blocks wrote in the phase
// before; launched with cudaLaunchCooperativeKernel and with cudaLaunchKernelEx's cooperative
// attribute, twice in a row (the grid barrier is reused); two grids at once on two streams;
// a grid larger than fits the device at once is refused with
// cudaErrorCooperativeLaunchTooLarge. Checked against the host.
#include "test_util.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Each round: x[i] becomes x[i] + x[(i + shift) % n] (a rotation that reaches across blocks),
// then every block sums its part, and thread 0 of the grid totals the blocks' sums.
__global__ void rounds(int *x, int *partial, long long *totals, int n, int nrounds, int *valid) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int sum;
    if (grid.thread_rank() == 0) *valid = grid.is_valid();
    for (int r = 0; r < nrounds; r++) {
        int shift = 37 * (r + 1);
        int mine[4], count = 0;
        for (int i = grid.thread_rank(); i < n; i += grid.size()) mine[count++] = x[i] + x[(i + shift) % n];
        grid.sync();
        count = 0;
        for (int i = grid.thread_rank(); i < n; i += grid.size()) x[i] = mine[count++] & 0xffff;
        if (block.thread_rank() == 0) sum = 0;
        block.sync();
        for (int i = grid.thread_rank(); i < n; i += grid.size()) atomicAdd(&sum, x[i]);
        block.sync();
        if (block.thread_rank() == 0) partial[blockIdx.x] = sum;
        grid.sync();
        if (grid.thread_rank() == 0) {
            long long t = 0;
            for (int b = 0; b < gridDim.x; b++) t += partial[b];
            totals[r] = t;
        }
    }
    grid.sync();
}

static void reference(int *x, long long *totals, int n, int nrounds) {
    int *next = new int[n];
    for (int r = 0; r < nrounds; r++) {
        int shift = 37 * (r + 1);
        long long t = 0;
        for (int i = 0; i < n; i++) next[i] = (x[i] + x[(i + shift) % n]) & 0xffff;
        for (int i = 0; i < n; i++) { x[i] = next[i]; t += x[i]; }
        totals[r] = t;
    }
    delete[] next;
}

int main() {
    Checker c;
    int cooperative = 0, sms = 0, per_sm = 0;
    CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, 0));
    if (!cooperative) c.fail("the device offers no cooperative launch");
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int threads = 128;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rounds, threads, 0));
    int fit = per_sm * sms;
    int blocks = fit < 24 ? fit : 24;
    const int nrounds = 20;
    int n = blocks * threads * 3 + 5;  // every thread takes 3 or 4 elements

    int *x, *partial, *valid;
    long long *totals;
    CHECK(cudaMalloc(&x, n * sizeof(int)));
    CHECK(cudaMalloc(&partial, (fit + 1) * sizeof(int)));
    CHECK(cudaMalloc(&totals, nrounds * sizeof(long long)));
    CHECK(cudaMalloc(&valid, sizeof(int)));
    int *start = new int[n], *want = new int[n], *got = new int[n];
    long long want_totals[nrounds], got_totals[nrounds];
    Lcg rng(5);
    for (int i = 0; i < n; i++) start[i] = rng.range(0, 1000);

    for (int run = 0; run < 3; run++) {
        CHECK(cudaMemcpy(x, start, n * sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaMemset(valid, 0, sizeof(int)));
        int rounds_here = nrounds;
        void *args[] = {&x, &partial, &totals, &n, &rounds_here, &valid};
        if (run < 2) {
            CHECK(cudaLaunchCooperativeKernel((void *)rounds, blocks, threads, args, 0, 0));
        } else {
            cudaLaunchConfig_t config = {};
            cudaLaunchAttribute attribute;
            attribute.id = cudaLaunchAttributeCooperative;
            attribute.val.cooperative = 1;
            config.gridDim = blocks;
            config.blockDim = threads;
            config.attrs = &attribute;
            config.numAttrs = 1;
            CHECK(cudaLaunchKernelExC(&config, (const void *)rounds, args));
        }
        CHECK_LAUNCH();
        memcpy(want, start, n * sizeof(int));
        reference(want, want_totals, n, nrounds);
        CHECK(cudaMemcpy(got, x, n * sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(got_totals, totals, sizeof got_totals, cudaMemcpyDeviceToHost));
        int ok_valid = 0;
        CHECK(cudaMemcpy(&ok_valid, valid, sizeof ok_valid, cudaMemcpyDeviceToHost));
        if (!ok_valid) c.fail("run %d: grid.is_valid() is false in a cooperative launch", run);
        for (int i = 0; i < n; i++)
            if (got[i] != want[i]) { c.fail("run %d: x[%d] = %d, want %d", run, i, got[i], want[i]); break; }
        for (int r = 0; r < nrounds; r++)
            if (got_totals[r] != want_totals[r])
                c.fail("run %d: round %d total %lld, want %lld", run, r, got_totals[r], want_totals[r]);
    }

    // Two cooperative grids at once, on two streams, each with buffers of its own: each
    // syncs only its own blocks.
    {
        int half = blocks / 2 > 0 ? blocks / 2 : 1;
        int m = half * threads * 3 + 5;
        cudaStream_t streams[2];
        int *xs[2], *partials[2], *valids[2];
        long long *sums[2];
        int *expect = new int[m];
        long long expect_totals[nrounds];
        memcpy(expect, start, m * sizeof(int));
        reference(expect, expect_totals, m, nrounds);
        for (int k = 0; k < 2; k++) {
            CHECK(cudaStreamCreateWithFlags(&streams[k], cudaStreamNonBlocking));
            CHECK(cudaMalloc(&xs[k], m * sizeof(int)));
            CHECK(cudaMalloc(&partials[k], (half + 1) * sizeof(int)));
            CHECK(cudaMalloc(&sums[k], nrounds * sizeof(long long)));
            CHECK(cudaMalloc(&valids[k], sizeof(int)));
            CHECK(cudaMemcpy(xs[k], start, m * sizeof(int), cudaMemcpyHostToDevice));
        }
        int rounds_here = nrounds;
        void *args0[] = {&xs[0], &partials[0], &sums[0], &m, &rounds_here, &valids[0]};
        void *args1[] = {&xs[1], &partials[1], &sums[1], &m, &rounds_here, &valids[1]};
        CHECK(cudaLaunchCooperativeKernel((void *)rounds, half, threads, args0, 0, streams[0]));
        CHECK(cudaLaunchCooperativeKernel((void *)rounds, half, threads, args1, 0, streams[1]));
        CHECK(cudaDeviceSynchronize());
        for (int k = 0; k < 2; k++) {
            CHECK(cudaMemcpy(got, xs[k], m * sizeof(int), cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(got_totals, sums[k], sizeof got_totals, cudaMemcpyDeviceToHost));
            for (int i = 0; i < m; i++)
                if (got[i] != expect[i]) { c.fail("concurrent grid %d: x[%d] = %d, want %d", k, i, got[i], expect[i]); break; }
            for (int r = 0; r < nrounds; r++)
                if (got_totals[r] != expect_totals[r])
                    c.fail("concurrent grid %d: round %d total %lld, want %lld", k, r, got_totals[r], expect_totals[r]);
            CHECK(cudaFree(xs[k]));
            CHECK(cudaFree(partials[k]));
            CHECK(cudaFree(sums[k]));
            CHECK(cudaFree(valids[k]));
            CHECK(cudaStreamDestroy(streams[k]));
        }
        delete[] expect;
    }

    // One block more than fits at once is refused, and nothing runs.
    int rounds_here = nrounds;
    void *args[] = {&x, &partial, &totals, &n, &rounds_here, &valid};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)rounds, fit + 1, threads, args, 0, 0);
    if (e != cudaErrorCooperativeLaunchTooLarge)
        c.fail("a cooperative grid of %d blocks where %d fit: %s", fit + 1, fit, cudaGetErrorName(e));
    cudaGetLastError();
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaFree(x));
    CHECK(cudaFree(partial));
    CHECK(cudaFree(totals));
    CHECK(cudaFree(valid));
    delete[] start;
    delete[] want;
    delete[] got;
    return c.finish();
}
