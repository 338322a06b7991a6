// 5-point stencil over a 2D grid: each block loads its tile plus a one-cell
// halo into shared memory (edge threads load the halo), then computes.
// Integer data keeps the comparison exact.
#include "test_util.h"

#define BX 16
#define BY 8

__global__ void stencil(int w, int h, const int *in, int *out) {
    __shared__ int s[BY + 2][BX + 2];
    int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
    auto at = [&](int xx, int yy) { return (xx >= 0 && xx < w && yy >= 0 && yy < h) ? in[yy * w + xx] : 0; };
    int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    s[ly][lx] = at(x, y);
    if (threadIdx.x == 0) s[ly][0] = at(x - 1, y);
    if (threadIdx.x == BX - 1) s[ly][BX + 1] = at(x + 1, y);
    if (threadIdx.y == 0) s[0][lx] = at(x, y - 1);
    if (threadIdx.y == BY - 1) s[BY + 1][lx] = at(x, y + 1);
    __syncthreads();
    if (x < w && y < h)
        out[y * w + x] = 4 * s[ly][lx] - s[ly][lx - 1] - s[ly][lx + 1] - s[ly - 1][lx] - s[ly + 1][lx];
}

int main() {
    Checker c;
    const int w = 50, h = 37;
    Lcg rng(5);
    int *in = new int[w * h], *out = new int[w * h];
    for (int i = 0; i < w * h; i++) in[i] = rng.range(-1000, 1000);
    int *din, *dout;
    CHECK(cudaMalloc(&din, w * h * 4)); CHECK(cudaMalloc(&dout, w * h * 4));
    CHECK(cudaMemcpy(din, in, w * h * 4, cudaMemcpyHostToDevice));
    stencil<<<dim3((w + BX - 1) / BX, (h + BY - 1) / BY), dim3(BX, BY)>>>(w, h, din, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, w * h * 4, cudaMemcpyDeviceToHost));
    auto at = [&](int x, int y) { return (x >= 0 && x < w && y >= 0 && y < h) ? in[y * w + x] : 0; };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int want = 4 * at(x, y) - at(x - 1, y) - at(x + 1, y) - at(x, y - 1) - at(x, y + 1);
            if (out[y * w + x] != want) c.fail("(%d,%d) = %d want %d", x, y, out[y * w + x], want);
        }
    return c.finish();
}
