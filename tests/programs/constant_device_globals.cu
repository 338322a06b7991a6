// __constant__ and __device__ globals: cudaMemcpyToSymbol (whole and at an
// offset) into constant memory used as polynomial coefficients, statically
// initialised __device__ variables, a kernel writing a __device__ array read
// back with cudaMemcpyFromSymbol, cudaGetSymbolAddress / cudaGetSymbolSize,
// and a __device__ struct global.
#include "test_util.h"

__constant__ float coeffs[8];
__constant__ int lut[64];
__device__ int counters[16];
__device__ int initialised[4] = {11, 22, 33, 44};
__device__ double scale = 2.5;
struct Config { int mult; float bias; char name[8]; };
__device__ Config config = {3, 0.5f, "cfg"};

__global__ void poly(int n, const float *x, float *y, int *z) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0;
    for (int k = 7; k >= 0; k--) acc = acc * x[i] + coeffs[k];  // Horner with constant-memory coefficients
    y[i] = acc;
    z[i] = lut[i % 64] * config.mult + initialised[i % 4] + (int)scale + config.name[0];
    atomicAdd(&counters[i % 16], 1);
}

int main() {
    Checker c;
    const int n = 777;
    float hc[8] = {1, -0.5f, 0.25f, 0.125f, -1, 2, 0.5f, -0.25f};
    CHECK(cudaMemcpyToSymbol(coeffs, hc, sizeof hc));
    int hl[64];
    for (int i = 0; i < 64; i++) hl[i] = i * i;
    CHECK(cudaMemcpyToSymbol(lut, hl, 32 * sizeof(int)));                          // first half
    CHECK(cudaMemcpyToSymbol(lut, hl + 32, 32 * sizeof(int), 32 * sizeof(int)));  // second half at an offset
    int zero[16] = {0};
    CHECK(cudaMemcpyToSymbol(counters, zero, sizeof zero));
    size_t size;
    CHECK(cudaGetSymbolSize(&size, counters));
    if (size != 16 * sizeof(int)) c.fail("cudaGetSymbolSize(counters) = %zu", size);
    double *dscale;
    CHECK(cudaGetSymbolAddress((void **)&dscale, scale));
    double two = 2.0;  // overwrite through the address: later reads must see it
    CHECK(cudaMemcpy(dscale, &two, 8, cudaMemcpyHostToDevice));
    Lcg rng(8);
    float x[n], y[n]; int z[n];
    for (int i = 0; i < n; i++) x[i] = rng.uniform(-2, 2);
    float *dx, *dy; int *dz;
    CHECK(cudaMalloc(&dx, sizeof x)); CHECK(cudaMalloc(&dy, sizeof y)); CHECK(cudaMalloc(&dz, sizeof z));
    CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
    poly<<<(n + 127) / 128, 128>>>(n, dx, dy, dz);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(z, dz, sizeof z, cudaMemcpyDeviceToHost));
    int counts[16];
    CHECK(cudaMemcpyFromSymbol(counts, counters, sizeof counts));
    int init_back[2];
    CHECK(cudaMemcpyFromSymbol(init_back, initialised, sizeof init_back, 2 * sizeof(int)));
    if (init_back[0] != 33 || init_back[1] != 44) c.fail("cudaMemcpyFromSymbol at offset: %d %d", init_back[0], init_back[1]);
    for (int i = 0; i < n; i++) {
        // Horner may be contracted to fma on the device: each step may be
        // rounded once or twice, so allow a small relative error.
        double w = 0;
        for (int k = 7; k >= 0; k--) w = w * x[i] + hc[k];
        if (fabs(y[i] - w) > 1e-5 * (1 + fabs(w))) c.fail("poly(%g) = %g want %g", x[i], y[i], w);
        int wz = hl[i % 64] * 3 + (11 * (i % 4 + 1)) + 2 + 'c';
        if (z[i] != wz) c.fail("z[%d] = %d want %d", i, z[i], wz);
    }
    for (int k = 0; k < 16; k++) {
        int w = n / 16 + (k < n % 16);
        if (counts[k] != w) c.fail("counter %d = %d want %d", k, counts[k], w);
    }
    return c.finish();
}
