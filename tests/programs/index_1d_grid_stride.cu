// 1D indexing: blockIdx.x * blockDim.x + threadIdx.x, a grid-stride loop over
// more elements than threads, and a second launch whose last block is partial.
#include "test_util.h"

__global__ void saxpy_grid_stride(int n, float a, const float *x, float *y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

// One element per thread with a bounds check (grid rounded up).
__global__ void record_ids(int n, int *tid, int *bid, int *bdim, int *gdim) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    tid[i] = threadIdx.x; bid[i] = blockIdx.x; bdim[i] = blockDim.x; gdim[i] = gridDim.x;
}

int main() {
    Checker c;
    const int n = 5000;  // 5000 elements over 7 blocks x 96 threads: ~7.4 iterations each
    Lcg rng(12345);
    float *hx = new float[n], *hy = new float[n], *out = new float[n];
    for (int i = 0; i < n; i++) { hx[i] = rng.uniform(-4, 4); hy[i] = rng.uniform(-4, 4); }
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice));
    saxpy_grid_stride<<<7, 96>>>(n, 2.5f, dx, dy);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        // a*x+y may be contracted to an fma on the GPU: allow both roundings.
        float want_mul_add = 2.5f * hx[i] + hy[i];
        float want_fma = fmaf(2.5f, hx[i], hy[i]);
        if (out[i] != want_mul_add && out[i] != want_fma) { c.fail("saxpy[%d] = %g, want %g", i, out[i], want_fma); }
    }

    const int m = 1000, block = 128, grid = (m + block - 1) / block;  // last block 104/128 used
    int *d[4];
    for (auto &p : d) { CHECK(cudaMalloc(&p, m * sizeof(int))); CHECK(cudaMemset(p, 0xff, m * sizeof(int))); }
    record_ids<<<grid, block>>>(m, d[0], d[1], d[2], d[3]);
    CHECK_LAUNCH();
    int *h[4];
    for (int k = 0; k < 4; k++) {
        h[k] = new int[m];
        CHECK(cudaMemcpy(h[k], d[k], m * sizeof(int), cudaMemcpyDeviceToHost));
    }
    for (int i = 0; i < m; i++) {
        if (h[0][i] != i % block || h[1][i] != i / block || h[2][i] != block || h[3][i] != grid) {
            c.fail("ids[%d] = (%d,%d,%d,%d)", i, h[0][i], h[1][i], h[2][i], h[3][i]);
        }
    }
    return c.finish();
}
