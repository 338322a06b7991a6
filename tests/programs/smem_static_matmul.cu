// Tiled integer matrix multiply with statically sized __shared__ tiles and
// __syncthreads between the load and compute phases. Integer arithmetic makes
// the result exact, so any missing barrier or wrong tile index shows up.
#include "test_util.h"

#define TILE 16

__global__ void matmul(int m, int n, int k, const int *a, const int *b, int *c) {
    __shared__ int ta[TILE][TILE];
    __shared__ int tb[TILE][TILE + 1];  // padded: a different shared layout
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    int acc = 0;
    for (int t = 0; t < (k + TILE - 1) / TILE; t++) {
        int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] = (row < m && ac < k) ? a[row * k + ac] : 0;
        tb[threadIdx.y][threadIdx.x] = (br < k && col < n) ? b[br * n + col] : 0;
        __syncthreads();
        for (int i = 0; i < TILE; i++) acc += ta[threadIdx.y][i] * tb[i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n) c[row * n + col] = acc;
}

int main() {
    Checker ch;
    const int m = 40, n = 36, k = 50;
    Lcg rng(7);
    int *a = new int[m * k], *b = new int[k * n], *c = new int[m * n];
    for (int i = 0; i < m * k; i++) a[i] = rng.range(-50, 50);
    for (int i = 0; i < k * n; i++) b[i] = rng.range(-50, 50);
    int *da, *db, *dc;
    CHECK(cudaMalloc(&da, m * k * 4)); CHECK(cudaMalloc(&db, k * n * 4)); CHECK(cudaMalloc(&dc, m * n * 4));
    CHECK(cudaMemcpy(da, a, m * k * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, k * n * 4, cudaMemcpyHostToDevice));
    matmul<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(m, n, k, da, db, dc);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(c, dc, m * n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            int want = 0;
            for (int t = 0; t < k; t++) want += a[i * k + t] * b[t * n + j];
            if (c[i * n + j] != want) ch.fail("c[%d][%d] = %d, want %d", i, j, c[i * n + j], want);
        }
    return ch.finish();
}
