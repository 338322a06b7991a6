// A tensor-core GEMM fully unrolled into one basic block, for bench/unrolled_mma.sh: one warp
// keeps 2 x 4 accumulator tiles of 16 x 16 across K = 4096 with every step unrolled, 2,048
// wmma m16n16k16 f16 products in straight-line code, the shape nvcc gives a kernel whose K
// loop has a constant trip count and #pragma unroll (as in NVIDIA's tensor-core GEMM sample).
// Prints PASS when D = A B equals the product computed on the host (small integers: exact).
#include <cstdio>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

enum { TILES_M = 2, TILES_N = 4, M = 16 * TILES_M, N = 16 * TILES_N, K = 4096 };

// A by rows (M x K), B by columns (N columns of K), D by rows (M x N)
__global__ void unrolled(const half *A, const half *B, float *D) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[TILES_M][TILES_N];
#pragma unroll
    for (int i = 0; i < TILES_M; i++)
#pragma unroll
        for (int j = 0; j < TILES_N; j++) wmma::fill_fragment(c[i][j], 0.0f);
#pragma unroll
    for (int k = 0; k < K; k += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[TILES_M];
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b[TILES_N];
#pragma unroll
        for (int i = 0; i < TILES_M; i++) wmma::load_matrix_sync(a[i], A + i * 16 * K + k, K);
#pragma unroll
        for (int j = 0; j < TILES_N; j++) wmma::load_matrix_sync(b[j], B + j * 16 * K + k, K);
#pragma unroll
        for (int i = 0; i < TILES_M; i++)
#pragma unroll
            for (int j = 0; j < TILES_N; j++) wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
    }
#pragma unroll
    for (int i = 0; i < TILES_M; i++)
#pragma unroll
        for (int j = 0; j < TILES_N; j++)
            wmma::store_matrix_sync(D + i * 16 * N + j * 16, c[i][j], N, wmma::mem_row_major);
}

int main() {
    static half a[M * K], b[N * K];
    static float d[M * N];
    for (int i = 0; i < M * K; i++) a[i] = __float2half((float)(i * 7 % 5 - 2));
    for (int i = 0; i < N * K; i++) b[i] = __float2half((float)(i * 3 % 7 - 3));
    half *da, *db;
    float *dd;
    cudaMalloc(&da, sizeof a);
    cudaMalloc(&db, sizeof b);
    cudaMalloc(&dd, sizeof d);
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
    unrolled<<<1, 32>>>(da, db, dd);
    cudaError_t e = cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("FAIL: %s\n", cudaGetErrorString(e));
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float want = 0;
            for (int k = 0; k < K; k++) want += __half2float(a[i * K + k]) * __half2float(b[j * K + k]);
            if (d[i * N + j] != want && bad++ < 5) printf("FAIL D[%d][%d] = %g, want %g\n", i, j, d[i * N + j], want);
        }
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
