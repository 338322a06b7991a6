// Tensor-core GEMMs for bench/wmma_instructions.sh: D = A B, 128 x 128 x 128, A by rows and
// B by columns, in one form chosen by the argument: each warp one 16 x 16 tile of D through
// wmma m16n16k16, f16 or bf16 into f32 or s8 into s32; or (mma) one 16 x 8 tile through
// mma.sync m16n8k16 f16 into f32, its fragments read from memory in PTX's layout, in a kernel
// declared for up to 1024 threads a block (mma) or, as CUTLASS's are, for 128 (mma128:
// __launch_bounds__, which lets the AMD processors with matrix instructions stage the
// fragments through shared memory instead of shuffling them). Prints
// PASS when D equals the product computed on the host (small integers: every sum is exact).
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <type_traits>
using namespace nvcuda;

enum { M = 128, N = 128, K = 128 };

template <typename In, typename Acc>
__global__ void gemm(const In *A, const In *B, Acc *D) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, tm = warp / (N / 16), tn = warp % (N / 16);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, In, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, In, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, Acc> acc;

    wmma::fill_fragment(acc, (Acc)0);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
        wmma::load_matrix_sync(b, B + tn * 16 * K + k, K);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(D + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

// g = lane / 4 and t = lane % 4 hold A[g (+8)][2t, 2t+1 (+8)], B[2t, 2t+1 (+8)][g] and
// D[g (+8)][2t, 2t+1].
template <int bound> __global__ void __launch_bounds__(bound) gemm_mma(const __half *A, const __half *B, float *D) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, tm = warp / (N / 8), tn = warp % (N / 8);
    int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    float d[4] = {0, 0, 0, 0};

    for (int k = 0; k < K; k += 16) {
        const __half *a = A + (tm * 16) * K + k, *b = B + (tn * 8 + g) * K + k;
        unsigned a0 = *(const unsigned *)(a + g * K + 2 * t), a1 = *(const unsigned *)(a + (g + 8) * K + 2 * t);
        unsigned a2 = *(const unsigned *)(a + g * K + 2 * t + 8), a3 = *(const unsigned *)(a + (g + 8) * K + 2 * t + 8);
        unsigned b0 = *(const unsigned *)(b + 2 * t), b1 = *(const unsigned *)(b + 2 * t + 8);
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
    float *out = D + (tm * 16 + g) * N + tn * 8 + 2 * t;
    out[0] = d[0];
    out[1] = d[1];
    out[8 * N] = d[2];
    out[8 * N + 1] = d[3];
}

template <typename In, typename Acc>
static int run(In (*from_int)(int), int mma_bound = 0) {
    static int ai[M * K], bi[N * K];
    static In a[M * K], b[N * K];
    static Acc d[M * N];
    In *dA, *dB;
    Acc *dD;
    int wrong = 0;

    for (int i = 0; i < M * K; i++) a[i] = from_int(ai[i] = (i * 7 + 3) % 9 - 4);
    for (int i = 0; i < N * K; i++) b[i] = from_int(bi[i] = (i * 5 + 1) % 7 - 3);
    cudaMalloc(&dA, sizeof a);
    cudaMalloc(&dB, sizeof b);
    cudaMalloc(&dD, sizeof d);
    cudaMemcpy(dA, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, b, sizeof b, cudaMemcpyHostToDevice);
    if constexpr (std::is_same<In, __half>::value && std::is_same<Acc, float>::value) {
        if (mma_bound == 128)
            gemm_mma<128><<<(M / 16) * (N / 8) / 4, 128>>>(dA, dB, dD);
        else if (mma_bound)
            gemm_mma<1024><<<(M / 16) * (N / 8) / 4, 128>>>(dA, dB, dD);
        else
            gemm<In, Acc><<<(M / 16) * (N / 16) / 4, 128>>>(dA, dB, dD);
    } else {
        gemm<In, Acc><<<(M / 16) * (N / 16) / 4, 128>>>(dA, dB, dD);
    }
    cudaError_t e = cudaMemcpy(d, dD, sizeof d, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("FAIL: %s\n", cudaGetErrorString(e));
        return 1;
    }
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            long s = 0;
            for (int k = 0; k < K; k++) s += (long)ai[r * K + k] * bi[c * K + k];
            wrong += (double)d[r * N + c] != (double)s;
        }
    if (wrong) {
        printf("FAIL: %d of %d elements wrong\n", wrong, M * N);
        return 1;
    }
    printf("PASS\n");
    return 0;
}

static __half f16(int v) { return __int2half_rn(v); }
static __nv_bfloat16 bf16(int v) { return __int2bfloat16_rn(v); }
static signed char s8(int v) { return (signed char)v; }

int main(int argc, char **argv) {
    const char *form = argc > 1 ? argv[1] : "";
    if (!strcmp(form, "f16")) return run<__half, float>(f16);
    if (!strcmp(form, "bf16")) return run<__nv_bfloat16, float>(bf16);
    if (!strcmp(form, "s8")) return run<signed char, int>(s8);
    if (!strcmp(form, "mma")) return run<__half, float>(f16, 1024);
    if (!strcmp(form, "mma128")) return run<__half, float>(f16, 128);
    printf("usage: wmma_gemm f16|bf16|s8|mma|mma128\n");
    return 2;
}
