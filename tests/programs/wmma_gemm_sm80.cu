// wmma (nvcuda::wmma, the C++ API over PTX's wmma.load, wmma.mma and wmma.store) as the CUDA
// samples' tensor-core GEMMs use it: each warp computes one tile of D = alpha A B + beta C
// over K in steps of the shape's k, with fragments loaded from global or from shared memory,
// A and B row- or column-major with padded leading dimensions, C and D row- or column-major,
// and the accumulator scaled element by element (x[i]) before it is stored, which works
// whatever the fragment layout. Or D = A B + C accumulated into the loaded C, with .satfinite
// for 8-bit integers. Every shape and type of sm_80: f16 (f32 or f16 accumulators) in
// m16n16k16, m32n8k16 and m8n32k16, bf16, tf32 (m16n16k8), f64 (m8n8k4; also with .rz, .rm
// and .rp, by inline PTX, against fma under fesetround), s8 and u8. The
// values are small integers (8-bit ones over their whole range), so that every sum is exact
// and D must equal the host's reference bit for bit.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <climits>
#include <type_traits>
#include "test_util.h"

using namespace nvcuda;

static const int M = 32, N = 32, K = 48, PAD = 16;

template <typename T> struct storage { using type = T; };
template <> struct storage<wmma::precision::tf32> { using type = float; };

enum Epilogue { SCALE, INTO_C, INTO_C_SATURATING };

template <typename L> __host__ __device__ constexpr bool is_row() { return std::is_same<L, wmma::row_major>::value; }

// Element (r, c) of a matrix with leading dimension ld, row- or column-major.
__host__ __device__ inline int at(bool row, int ld, int r, int c) { return row ? r * ld + c : c * ld + r; }

template <typename In, typename Acc, int TM, int TN, int TK, typename LA, typename LB>
__device__ void tile_gemm(const typename storage<In>::type *A, const typename storage<In>::type *B,
                          const Acc *C, Acc *D, int lda, int ldb, int ldc, bool c_row, Acc alpha,
                          Acc beta, Epilogue epilogue) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, tm = warp / (N / TN), tn = warp % (N / TN);
    wmma::layout_t cl = c_row ? wmma::mem_row_major : wmma::mem_col_major;
    wmma::fragment<wmma::matrix_a, TM, TN, TK, In, LA> a;
    wmma::fragment<wmma::matrix_b, TM, TN, TK, In, LB> b;
    wmma::fragment<wmma::accumulator, TM, TN, TK, Acc> acc, c;

    if (tm * TM >= M)
        return;
    if (epilogue == SCALE)
        wmma::fill_fragment(acc, (Acc)0);
    else
        wmma::load_matrix_sync(acc, C + at(c_row, ldc, tm * TM, tn * TN), ldc, cl);
    for (int k = 0; k < K; k += TK) {
        wmma::load_matrix_sync(a, A + at(is_row<LA>(), lda, tm * TM, k), lda);
        wmma::load_matrix_sync(b, B + at(is_row<LB>(), ldb, k, tn * TN), ldb);
        if (std::is_same<In, wmma::precision::tf32>::value) {
            for (int i = 0; i < a.num_elements; i++) a.x[i] = wmma::__float_to_tf32(a.x[i]);
            for (int i = 0; i < b.num_elements; i++) b.x[i] = wmma::__float_to_tf32(b.x[i]);
        }
        if constexpr (std::is_integral<Acc>::value)
            wmma::mma_sync(acc, a, b, acc, epilogue == INTO_C_SATURATING);
        else
            wmma::mma_sync(acc, a, b, acc);
    }
    if (epilogue == SCALE) {
        wmma::load_matrix_sync(c, C + at(c_row, ldc, tm * TM, tn * TN), ldc, cl);
        for (int i = 0; i < c.num_elements; i++) acc.x[i] = alpha * acc.x[i] + beta * c.x[i];
    }
    wmma::store_matrix_sync(D + at(c_row, ldc, tm * TM, tn * TN), acc, ldc, cl);
}

template <typename In, typename Acc, int TM, int TN, int TK, typename LA, typename LB>
__global__ void gemm_global(const typename storage<In>::type *A, const typename storage<In>::type *B,
                            const Acc *C, Acc *D, int lda, int ldb, int ldc, bool c_row, Acc alpha,
                            Acc beta, Epilogue epilogue) {
    tile_gemm<In, Acc, TM, TN, TK, LA, LB>(A, B, C, D, lda, ldb, ldc, c_row, alpha, beta, epilogue);
}

// A and B copied to shared memory first (wmma.load from .shared); C and D stay global.
template <typename In, typename Acc, int TM, int TN, int TK, typename LA, typename LB>
__global__ void gemm_shared(const typename storage<In>::type *A, const typename storage<In>::type *B,
                            const Acc *C, Acc *D, int lda, int ldb, int ldc, bool c_row, Acc alpha,
                            Acc beta, Epilogue epilogue) {
    using T = typename storage<In>::type;
    extern __shared__ __align__(128) unsigned char smem[];
    int na = (is_row<LA>() ? M : K) * lda, nb = (is_row<LB>() ? K : N) * ldb;
    T *sa = (T *)smem, *sb = sa + na;

    for (int i = threadIdx.x; i < na; i += blockDim.x) sa[i] = A[i];
    for (int i = threadIdx.x; i < nb; i += blockDim.x) sb[i] = B[i];
    __syncthreads();
    tile_gemm<In, Acc, TM, TN, TK, LA, LB>(sa, sb, C, D, lda, ldb, ldc, c_row, alpha, beta, epilogue);
}

template <typename T> static T from_int(long long v) { return (T)v; }
template <> __half from_int<__half>(long long v) { return __float2half((float)v); }
template <> __nv_bfloat16 from_int<__nv_bfloat16>(long long v) { return __float2bfloat16((float)v); }
template <typename T> static double to_double(T v) { return (double)v; }
template <> double to_double<__half>(__half v) { return (double)__half2float(v); }

static int saturate(long long v) { return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v; }

// One configuration: fills A, B and C with values in their ranges, runs the kernel, and
// compares D with the reference computed in 64-bit integers (in the kernel's k steps, where
// .satfinite saturates after each).
template <typename In, typename Acc, int TM, int TN, int TK, typename LA, typename LB>
static void run(Checker &check, const char *what, bool shared, bool c_row, Epilogue epilogue, int lo, int hi,
                long long c_lo, long long c_hi) {
    using T = typename storage<In>::type;
    const bool a_row = is_row<LA>(), b_row = is_row<LB>();
    const int lda = (a_row ? K : M) + PAD, ldb = (b_row ? N : K) + PAD, ldc = (c_row ? N : M) + PAD;
    const int na = (a_row ? M : K) * lda, nb = (b_row ? K : N) * ldb, nc = (c_row ? M : N) * ldc;
    static Lcg rng(7);
    long long *ai = new long long[na](), *bi = new long long[nb](), *ci = new long long[nc]();
    T *ah = new T[na], *bh = new T[nb];
    Acc *ch = new Acc[nc], *dh = new Acc[nc];
    const long long alpha = 2, beta = -3;

    for (int i = 0; i < na; i++) ah[i] = from_int<T>(ai[i] = rng.range(lo, hi));
    for (int i = 0; i < nb; i++) bh[i] = from_int<T>(bi[i] = rng.range(lo, hi));
    for (int i = 0; i < nc; i++) ch[i] = from_int<Acc>(ci[i] = c_lo + (long long)(rng.next() % (uint64_t)(c_hi - c_lo)));
    T *dA, *dB;
    Acc *dC, *dD;
    CHECK(cudaMalloc(&dA, na * sizeof(T)));
    CHECK(cudaMalloc(&dB, nb * sizeof(T)));
    CHECK(cudaMalloc(&dC, nc * sizeof(Acc)));
    CHECK(cudaMalloc(&dD, nc * sizeof(Acc)));
    CHECK(cudaMemcpy(dA, ah, na * sizeof(T), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, bh, nb * sizeof(T), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dC, ch, nc * sizeof(Acc), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dD, 0, nc * sizeof(Acc)));
    int warps = (M / TM) * (N / TN);
    if (shared) {
        size_t bytes = (na + nb) * sizeof(T);
        auto kernel = gemm_shared<In, Acc, TM, TN, TK, LA, LB>;
        CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        kernel<<<1, 32 * warps, bytes>>>(dA, dB, dC, dD, lda, ldb, ldc, c_row, from_int<Acc>(alpha),
                                        from_int<Acc>(beta), epilogue);
    } else {
        gemm_global<In, Acc, TM, TN, TK, LA, LB><<<warps / 2, 64>>>(dA, dB, dC, dD, lda, ldb, ldc, c_row,
                                                                   from_int<Acc>(alpha), from_int<Acc>(beta), epilogue);
    }
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(dh, dD, nc * sizeof(Acc), cudaMemcpyDeviceToHost));
    for (int r = 0; r < M; r++)
        for (int n = 0; n < N; n++) {
            long long c = ci[at(c_row, ldc, r, n)], d = epilogue == SCALE ? 0 : c;
            for (int k0 = 0; k0 < K; k0 += TK) {
                long long s = 0;
                for (int k = k0; k < k0 + TK; k++) s += ai[at(a_row, lda, r, k)] * bi[at(b_row, ldb, k, n)];
                d = epilogue == INTO_C_SATURATING ? saturate(d + s) : d + s;
            }
            if (epilogue == SCALE)
                d = alpha * d + beta * c;
            if (std::is_integral<Acc>::value)  // 32-bit arithmetic wraps
                d = (int32_t)(uint32_t)d;
            double got = to_double(dh[at(c_row, ldc, r, n)]);
            if (got != (double)d) {
                check.fail("%s: D[%d][%d] = %.17g, want %lld", what, r, n, got, d);
                r = M;
                break;
            }
        }
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dD));
    delete[] ai; delete[] bi; delete[] ci; delete[] ah; delete[] bh; delete[] ch; delete[] dh;
}

// f64 m8n8k4 with a directed rounding (.rz, .rm, .rp), which the C++ API does not offer:
// wmma.mma by inline PTX on the API's fragments, whose layout, the implementation's, is the
// same for load, mma and store. Each of the four steps is a fused multiply-add rounded so.
#define WMMA_F64_ROUNDED(name, rnd)                                                                   \
    __global__ void name(const double *A, const double *B, const double *C, double *D) {             \
        wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;                          \
        wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b;                          \
        wmma::fragment<wmma::accumulator, 8, 8, 4, double> c, d;                                     \
        wmma::load_matrix_sync(a, A, 4);                                                             \
        wmma::load_matrix_sync(b, B, 4);                                                             \
        wmma::load_matrix_sync(c, C, 8, wmma::mem_row_major);                                        \
        asm volatile("wmma.mma.sync.aligned.row.col.m8n8k4." rnd ".f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};" \
                     : "=d"(d.x[0]), "=d"(d.x[1]) : "d"(a.x[0]), "d"(b.x[0]), "d"(c.x[0]), "d"(c.x[1])); \
        wmma::store_matrix_sync(D, d, 8, wmma::mem_row_major);                                       \
    }
WMMA_F64_ROUNDED(wmma_f64_rz, "rz")
WMMA_F64_ROUNDED(wmma_f64_rm, "rm")
WMMA_F64_ROUNDED(wmma_f64_rp, "rp")

int main() {
    using row = wmma::row_major;
    using col = wmma::col_major;
    using tf32 = wmma::precision::tf32;
    Checker c;

    run<__half, float, 16, 16, 16, row, col>(c, "f16 m16n16k16 f32, global", false, true, SCALE, -3, 4, -50, 51);
    run<__half, float, 32, 8, 16, col, row>(c, "f16 m32n8k16 f32, global, C col", false, false, SCALE, -3, 4, -50, 51);
    run<__half, float, 8, 32, 16, row, row>(c, "f16 m8n32k16 f32, shared", true, true, SCALE, -3, 4, -50, 51);
    run<__half, float, 16, 16, 16, col, col>(c, "f16 m16n16k16 f32, shared, into C", true, false, INTO_C, -3, 4, -50, 51);
    run<__half, __half, 16, 16, 16, col, col>(c, "f16 m16n16k16 f16, global", false, true, SCALE, -3, 4, -50, 51);
    run<__half, __half, 32, 8, 16, row, col>(c, "f16 m32n8k16 f16, shared, into C", true, true, INTO_C, -3, 4, -50, 51);
    run<__half, __half, 8, 32, 16, col, row>(c, "f16 m8n32k16 f16, global, C col", false, false, SCALE, -3, 4, -50, 51);
    run<__nv_bfloat16, float, 16, 16, 16, row, col>(c, "bf16 m16n16k16, global", false, true, SCALE, -3, 4, -50, 51);
    run<__nv_bfloat16, float, 32, 8, 16, col, col>(c, "bf16 m32n8k16, shared", true, false, SCALE, -3, 4, -50, 51);
    run<__nv_bfloat16, float, 8, 32, 16, row, row>(c, "bf16 m8n32k16, global, into C", false, true, INTO_C, -3, 4, -50, 51);
    run<tf32, float, 16, 16, 8, row, col>(c, "tf32 m16n16k8, global", false, true, SCALE, -7, 8, -50, 51);
    run<tf32, float, 16, 16, 8, col, row>(c, "tf32 m16n16k8, shared, C col, into C", true, false, INTO_C, -7, 8, -50, 51);
    run<double, double, 8, 8, 4, row, col>(c, "f64 m8n8k4, global", false, true, SCALE, -9, 10, -50, 51);
    run<double, double, 8, 8, 4, col, row>(c, "f64 m8n8k4, shared, C col, into C", true, false, INTO_C, -9, 10, -50, 51);
    run<signed char, int, 16, 16, 16, row, col>(c, "s8 m16n16k16, global", false, true, SCALE, -128, 128, -100000, 100000);
    run<unsigned char, int, 32, 8, 16, col, row>(c, "u8 m32n8k16, shared, C col", true, false, SCALE, 0, 256, -100000, 100000);
    run<signed char, int, 8, 32, 16, row, row>(c, "s8 m8n32k16, global, into C (wrapping)", false, true, INTO_C, -128, 128,
                                               INT_MAX - 300000LL, INT_MAX + 1LL);
    run<signed char, int, 16, 16, 16, col, col>(c, "s8 m16n16k16, shared, into C, satfinite", true, true, INTO_C_SATURATING,
                                                -128, 128, INT_MIN, INT_MIN + 300000LL);
    run<unsigned char, int, 16, 16, 16, row, col>(c, "u8 m16n16k16, global, into C, satfinite", false, false,
                                                  INTO_C_SATURATING, 0, 256, INT_MAX - 300000LL, INT_MAX + 1LL);
    static const MmaF64Kernel rounded[4] = {nullptr, wmma_f64_rz, wmma_f64_rm, wmma_f64_rp};
    check_mma_f64_rounding(c, "f64 m8n8k4", rounded, 8, 4, 1, 4);  // B column-major
    return c.finish();
}
