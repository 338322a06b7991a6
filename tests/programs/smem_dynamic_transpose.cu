// Dynamic shared memory (extern __shared__, size given at launch): a padded
// tile transpose, and a kernel that carves two differently typed arrays out of
// one dynamic allocation, sized differently in two launches.
#include "test_util.h"

extern __shared__ float dyn_tile[];

__global__ void transpose(int w, int h, const float *in, float *out, int tile) {
    int x = blockIdx.x * tile + threadIdx.x, y = blockIdx.y * tile + threadIdx.y;
    if (x < w && y < h) dyn_tile[threadIdx.y * (tile + 1) + threadIdx.x] = in[y * w + x];
    __syncthreads();
    int ox = blockIdx.y * tile + threadIdx.x, oy = blockIdx.x * tile + threadIdx.y;
    if (ox < h && oy < w) out[oy * h + ox] = dyn_tile[threadIdx.x * (tile + 1) + threadIdx.y];
}

// Reverses a segment of ints and of doubles through one dynamic buffer.
__global__ void reverse_two(int n, const int *ai, int *bi, const double *ad, double *bd) {
    extern __shared__ double raw[];      // doubles first: keeps them 8-byte aligned
    double *sd = raw;
    int *si = (int *)(sd + blockDim.x);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { si[threadIdx.x] = ai[i]; sd[threadIdx.x] = ad[i]; }
    __syncthreads();
    int j = blockDim.x - 1 - threadIdx.x;
    int src = blockIdx.x * blockDim.x + j;
    if (i < n && src < n) { bi[i] = si[j]; bd[i] = sd[j]; }
}

int main() {
    Checker c;
    const int w = 45, h = 29, tile = 8;
    Lcg rng(99);
    float *in = new float[w * h], *out = new float[w * h];
    for (int i = 0; i < w * h; i++) in[i] = rng.uniform(-1000, 1000);
    float *din, *dout;
    CHECK(cudaMalloc(&din, w * h * 4)); CHECK(cudaMalloc(&dout, w * h * 4));
    CHECK(cudaMemcpy(din, in, w * h * 4, cudaMemcpyHostToDevice));
    size_t smem = tile * (tile + 1) * sizeof(float);
    transpose<<<dim3((w + tile - 1) / tile, (h + tile - 1) / tile), dim3(tile, tile), smem>>>(w, h, din, dout, tile);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, w * h * 4, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (out[x * h + y] != in[y * w + x]) c.fail("transpose (%d,%d)", x, y);

    const int n = 256;
    int *ai = new int[n], *bi = new int[n];
    double *ad = new double[n], *bd = new double[n];
    for (int i = 0; i < n; i++) { ai[i] = (int)rng.next(); ad[i] = rng.uniformd(-1, 1); }
    int *dai, *dbi; double *dad, *dbd;
    CHECK(cudaMalloc(&dai, n * 4)); CHECK(cudaMalloc(&dbi, n * 4));
    CHECK(cudaMalloc(&dad, n * 8)); CHECK(cudaMalloc(&dbd, n * 8));
    CHECK(cudaMemcpy(dai, ai, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dad, ad, n * 8, cudaMemcpyHostToDevice));
    for (int block : {32, 128}) {
        reverse_two<<<n / block, block, block * (sizeof(double) + sizeof(int))>>>(n, dai, dbi, dad, dbd);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(bi, dbi, n * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(bd, dbd, n * 8, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            int src = (i / block) * block + (block - 1 - i % block);
            if (bi[i] != ai[src] || bd[i] != ad[src]) c.fail("reverse block=%d at %d", block, i);
        }
    }
    return c.finish();
}
