// A tensor-core GEMM in the style CUTLASS emits for Ampere: C = A B (f16 in, f32 out) in
// 32x32 block tiles over K in steps of 32, the tiles of A (row-major) and B (row-major,
// K x N) copied global -> shared by cp.async 16 bytes at a time into two stages (the next
// step's copy in flight while this one computes), rows padded by 8 halves. Each of the four
// warps computes a 16x16 piece as two m16n8k16 mma.sync, its A fragment loaded by one
// ldmatrix.x4 (lane l gives row l % 16 at column 8 (l / 16)) and each B fragment by one
// ldmatrix.x2.trans (lane l gives row l % 16 of the K x 8 slice). The values are small
// integers, so every sum is exact: C must equal the host's product bit for bit.
#include <cuda_fp16.h>
#include "test_util.h"

static const int M = 64, N = 96, K = 128, BM = 32, BN = 32, BK = 32, PAD = 8;

__device__ __forceinline__ uint32_t shared_address(const void *p) {
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void copy16(void *dst, const void *src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address(dst)), "l"(src));
}

__global__ void gemm(const __half *A, const __half *B, float *C) {
    __shared__ __align__(16) __half sa[2][BM][BK + PAD];
    __shared__ __align__(16) __half sb[2][BK][BN + PAD];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    int wm = (warp / 2) * 16, wn = (warp % 2) * 16;  // the warp's 16x16 piece of the tile
    float acc[2][4] = {};

    // one step's tiles: 32x32 halves each = 128 chunks of 16 bytes, one per thread per tile
    auto load = [&](int stage, int k0) {
        int r = tid / 4, c = (tid % 4) * 8;
        copy16(&sa[stage][r][c], &A[(m0 + r) * K + k0 + c]);
        copy16(&sb[stage][r][c], &B[(k0 + r) * N + n0 + c]);
        asm volatile("cp.async.commit_group;");
    };
    load(0, 0);
    for (int step = 0; step < K / BK; step++) {
        int stage = step % 2;
        if (step + 1 < K / BK) {
            load(stage ^ 1, (step + 1) * BK);
            asm volatile("cp.async.wait_group 1;");
        } else {
            asm volatile("cp.async.wait_group 0;");
        }
        __syncthreads();
        for (int kk = 0; kk < BK; kk += 16) {
            uint32_t a[4], b[2][2];
            const __half *ap = &sa[stage][wm + lane % 16][kk + 8 * (lane / 16)];
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                         : "r"(shared_address(ap)));
            for (int j = 0; j < 2; j++) {
                const __half *bp = &sb[stage][kk + lane % 16][wn + 8 * j];
                asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                             : "=r"(b[j][0]), "=r"(b[j][1])
                             : "r"(shared_address(bp)));
            }
            for (int j = 0; j < 2; j++)
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                             "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                             : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
                             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[j][0]), "r"(b[j][1]));
        }
        __syncthreads();  // the stage is overwritten by the copy two steps on
    }
    int g = lane / 4, t = lane % 4;
    for (int j = 0; j < 2; j++) {
        int row = m0 + wm + g, col = n0 + wn + 8 * j + 2 * t;
        C[row * N + col] = acc[j][0];
        C[row * N + col + 1] = acc[j][1];
        C[(row + 8) * N + col] = acc[j][2];
        C[(row + 8) * N + col + 1] = acc[j][3];
    }
}

int main() {
    Checker c;
    Lcg rng(3);
    static float a[M * K], b[K * N], want[M * N], got[M * N];
    static __half ah[M * K], bh[K * N];
    for (int i = 0; i < M * K; i++) ah[i] = __float2half(a[i] = (float)rng.range(-4, 5));
    for (int i = 0; i < K * N; i++) bh[i] = __float2half(b[i] = (float)rng.range(-4, 5));
    for (int r = 0; r < M; r++)
        for (int n = 0; n < N; n++) {
            float s = 0;
            for (int k = 0; k < K; k++) s += a[r * K + k] * b[k * N + n];
            want[r * N + n] = s;
        }
    __half *dA, *dB;
    float *dC;
    CHECK(cudaMalloc(&dA, sizeof ah));
    CHECK(cudaMalloc(&dB, sizeof bh));
    CHECK(cudaMalloc(&dC, sizeof got));
    CHECK(cudaMemcpy(dA, ah, sizeof ah, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, bh, sizeof bh, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dC, 0xff, sizeof got));
    gemm<<<dim3(N / BN, M / BM), 128>>>(dA, dB, dC);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dC, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < M * N; i++)
        if (f2u(got[i]) != f2u(want[i])) {
            c.fail("C[%d][%d] = %g, want %g", i / N, i % N, got[i], want[i]);
            break;
        }
    return c.finish();
}
