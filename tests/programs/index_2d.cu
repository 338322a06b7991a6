// 2D grid of 2D blocks: matrix C = A + 2*B over a width/height that are not
// multiples of the block size, plus a 2D grid-stride loop on a small grid.
#include "test_util.h"

__global__ void add2d(int w, int h, const int *a, const int *b, int *c) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) c[y * w + x] = a[y * w + x] + 2 * b[y * w + x];
}

// Each element receives a value that encodes who wrote it.
__global__ void stride2d(int w, int h, int *out) {
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += blockDim.y * gridDim.y)
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += blockDim.x * gridDim.x)
            out[y * w + x] = (x * 7 + y * 13) ^ (int)(threadIdx.y * 100 + threadIdx.x);
}

int main() {
    Checker c;
    const int w = 77, h = 45;
    const int n = w * h;
    Lcg rng(2024);
    int *ha = new int[n], *hb = new int[n], *hc = new int[n];
    for (int i = 0; i < n; i++) { ha[i] = (int)(rng.next() % 10000) - 5000; hb[i] = (int)(rng.next() % 10000) - 5000; }
    int *da, *db, *dc;
    CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&dc, n * 4));
    CHECK(cudaMemcpy(da, ha, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, n * 4, cudaMemcpyHostToDevice));
    dim3 block(16, 8);
    dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
    add2d<<<grid, block>>>(w, h, da, db, dc);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hc, dc, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (hc[i] != ha[i] + 2 * hb[i]) c.fail("add2d at (%d,%d): %d", i % w, i / w, hc[i]);

    dim3 sblock(8, 4), sgrid(3, 2);  // 24 x 8 threads cover 77 x 45 by striding
    stride2d<<<sgrid, sblock>>>(w, h, dc);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hc, dc, n * 4, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int tx = x % (sblock.x * sgrid.x) % sblock.x, ty = y % (sblock.y * sgrid.y) % sblock.y;
            int want = (x * 7 + y * 13) ^ (ty * 100 + tx);
            if (hc[y * w + x] != want) c.fail("stride2d at (%d,%d): %d want %d", x, y, hc[y * w + x], want);
        }
    return c.finish();
}
