// Kernels that read fewer thread-index dimensions than their blocks have: every thread of a
// (32, 4, 2) block that shares threadIdx.x writes the same value to the same slot, so the
// result is one whatever the order. A processor that packs the three IDs into one register
// (RDNA3, RDNA4) gives a kernel reading only x that register with the others' bits clear;
// bits of y or z there move the stores out of place. The last kernel is PolyBench's mvt
// pattern without its race: each (x, y) thread sums one row of a matrix into its own slot.
#include "test_util.h"

__global__ void by_x(int *out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)(threadIdx.x + 1000 * blockIdx.x);
}

__global__ void by_xy(int *out) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    out[row * blockDim.x + threadIdx.x] = (int)(threadIdx.x + 100 * threadIdx.y + 10000 * blockIdx.x);
}

__global__ void row_sums(int n, const float *a, const float *v, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0.f;
        for (int j = 0; j < n; j++)
            s += a[i * n + j] * v[j];
        out[i * blockDim.y + threadIdx.y] = s;
    }
}

int main() {
    Checker c;
    const int blocks = 6, guard = 64, sentinel = -7;
    const dim3 block(32, 4, 2);
    const int nx = blocks * 32, nxy = blocks * 32 * 4, size = (nxy + guard) * sizeof(int);
    int *d, *h = new int[nxy + guard];

    CHECK(cudaMalloc(&d, size));
    // the kernel's stores into a buffer of sentinels, read back; past `written`, none
    auto run = [&](void (*kernel)(int *), const char *name, int written) {
        for (int i = 0; i < nxy + guard; i++)
            h[i] = sentinel;
        CHECK(cudaMemcpy(d, h, size, cudaMemcpyHostToDevice));
        kernel<<<blocks, block>>>(d);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(h, d, size, cudaMemcpyDeviceToHost));
        for (int i = written; i < nxy + guard; i++)
            if (h[i] != sentinel) c.fail("%s: [%d] written (%d), past the %d threads' slots", name, i, h[i], written);
    };
    run(by_x, "by_x", nx);
    for (int i = 0; i < nx; i++)
        if (h[i] != i % 32 + 1000 * (i / 32)) c.fail("by_x: [%d] = %d", i, h[i]);
    run(by_xy, "by_xy", nxy);
    for (int i = 0; i < nxy; i++) {
        int x = i % 32, y = i / 32 % 4, b = i / 128;
        if (h[i] != x + 100 * y + 10000 * b) c.fail("by_xy: [%d] = %d", i, h[i]);
    }

    const int n = 96;
    float *ha = new float[n * n], *hv = new float[n], *hs = new float[n * 4];
    Lcg rng(77);
    for (int i = 0; i < n * n; i++) ha[i] = (float)(rng.next() % 64) / 8.f;
    for (int j = 0; j < n; j++) hv[j] = (float)(rng.next() % 32) / 4.f;
    float *da, *dv, *ds;
    CHECK(cudaMalloc(&da, n * n * sizeof(float)));
    CHECK(cudaMalloc(&dv, n * sizeof(float)));
    CHECK(cudaMalloc(&ds, n * 4 * sizeof(float)));
    CHECK(cudaMemcpy(da, ha, n * n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv, hv, n * sizeof(float), cudaMemcpyHostToDevice));
    row_sums<<<n / 32, dim3(32, 4)>>>(n, da, dv, ds);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hs, ds, n * 4 * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float s = 0.f; // exact: every product and partial sum is a small multiple of 1/32
        for (int j = 0; j < n; j++)
            s += ha[i * n + j] * hv[j];
        for (int y = 0; y < 4; y++)
            if (hs[i * 4 + y] != s) c.fail("row_sums: row %d, thread y %d: %g, not %g", i, y, hs[i * 4 + y], s);
    }
    return c.finish();
}
