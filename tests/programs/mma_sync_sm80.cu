// mma.sync (inline PTX, the forms CUTLASS and llama.cpp emit for Ampere): m16n8k16 with
// f16 and bf16 inputs and an f32 accumulator, m16n8k16 all f16, m16n8k8 f16 into f32,
// m16n8k8 and m16n8k4 tf32 (one element a register: A[g + 8r][t + 4j] in a(2j + r), B[t + 4j][g]
// in bj; the 13 low mantissa bits, which a tf32 does not have, set in m16n8k4's A and ignored),
// m8n8k4 f64 (A[g][t], B[t][g], C and D at row g; rounded to nearest, and with .rz, .rm and
// .rp, each step a fused multiply-add rounded so), and the 8-bit integer forms (four
// elements a register: m16n8k32 s8 x s8 and m16n8k16 u8 x s8 into s32, and .satfinite).
// Each lane loads the fragments the PTX ISA gives it (g = lane / 4, t = lane % 4: A rows g
// and g + 8, columns 2t, 2t + 1 (and 8 on); B rows 2t, 2t + 1 (and 8 on), column g; C and D
// rows g and g + 8, columns 2t and 2t + 1) from whole matrices in memory, and writes D back
// by the same layout. The values are small integers, so that every sum is exact in f16
// too, and D is checked against A B + C computed on the host. The m16n8k16 and 8-bit
// kernels run twice: declared for up to 1024 threads a block and for 32 (__launch_bounds__),
// where the AMD processors with matrix instructions exchange the fragments by shuffles and,
// respectively, through shared memory.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <climits>
#include <type_traits>
#include "test_util.h"

static const int M = 16, N = 8;

template <typename T> __device__ uint32_t pack(const T *m, int ld, int r, int c) {
    // elements (r, c) and (r, c + 1) of a row-major matrix: the low half first
    uint16_t lo, hi;
    memcpy(&lo, &m[r * ld + c], 2);
    memcpy(&hi, &m[r * ld + c + 1], 2);
    return lo | (uint32_t)hi << 16;
}

template <typename T> __device__ uint32_t pack_column(const T *m, int ld, int r, int c) {
    // elements (r, c) and (r + 1, c): B's fragment runs down a column
    uint16_t lo, hi;
    memcpy(&lo, &m[r * ld + c], 2);
    memcpy(&hi, &m[(r + 1) * ld + c], 2);
    return lo | (uint32_t)hi << 16;
}

// A is 16 x 16, B is 16 x 8, C and D are 16 x 8 floats, all row-major; T is __half or
// __nv_bfloat16.
template <typename T, int bound> __global__ void __launch_bounds__(bound) mma_16bit_f32(const T *A, const T *B, const float *C, float *D) {
    int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t a0 = pack(A, 16, g, 2 * t), a1 = pack(A, 16, g + 8, 2 * t);
    uint32_t a2 = pack(A, 16, g, 2 * t + 8), a3 = pack(A, 16, g + 8, 2 * t + 8);
    uint32_t b0 = pack_column(B, N, 2 * t, g), b1 = pack_column(B, N, 2 * t + 8, g);
    float c0 = C[g * N + 2 * t], c1 = C[g * N + 2 * t + 1], c2 = C[(g + 8) * N + 2 * t], c3 = C[(g + 8) * N + 2 * t + 1];
    float d0, d1, d2, d3;
    if (std::is_same<T, __half>::value)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%10, %11, %12, %13};"
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%10, %11, %12, %13};"
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    D[g * N + 2 * t] = d0; D[g * N + 2 * t + 1] = d1; D[(g + 8) * N + 2 * t] = d2; D[(g + 8) * N + 2 * t + 1] = d3;
}

// All f16: C and D as pairs of halves.
template <int bound> __global__ void __launch_bounds__(bound) mma_f16_f16(const __half *A, const __half *B, const __half *C, __half *D) {
    int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t a0 = pack(A, 16, g, 2 * t), a1 = pack(A, 16, g + 8, 2 * t);
    uint32_t a2 = pack(A, 16, g, 2 * t + 8), a3 = pack(A, 16, g + 8, 2 * t + 8);
    uint32_t b0 = pack_column(B, N, 2 * t, g), b1 = pack_column(B, N, 2 * t + 8, g);
    uint32_t c0 = pack(C, N, g, 2 * t), c1 = pack(C, N, g + 8, 2 * t), d0, d1;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d0), "=r"(d1) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1));
    memcpy(&D[g * N + 2 * t], &d0, 4);
    memcpy(&D[(g + 8) * N + 2 * t], &d1, 4);
}

// m16n8k8: A is 16 x 8 (two registers), B 8 x 8 (one).
__global__ void mma_k8(const __half *A, const __half *B, const float *C, float *D) {
    int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t a0 = pack(A, 8, g, 2 * t), a1 = pack(A, 8, g + 8, 2 * t), b0 = pack_column(B, N, 2 * t, g);
    float c0 = C[g * N + 2 * t], c1 = C[g * N + 2 * t + 1], c2 = C[(g + 8) * N + 2 * t], c3 = C[(g + 8) * N + 2 * t + 1];
    float d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%7, %8, %9, %10};"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(a0), "r"(a1), "r"(b0), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    D[g * N + 2 * t] = d0; D[g * N + 2 * t + 1] = d1; D[(g + 8) * N + 2 * t] = d2; D[(g + 8) * N + 2 * t + 1] = d3;
}

// tf32, K = 8 or 4: A is 16 x K.
template <int K> __global__ void mma_tf32(const float *A, const float *B, const float *C, float *D) {
    int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t a[4], b[2];
    for (int j = 0; j < K / 4; j++) {
        for (int r = 0; r < 2; r++) memcpy(&a[2 * j + r], &A[(g + 8 * r) * K + t + 4 * j], 4);
        memcpy(&b[j], &B[(t + 4 * j) * N + g], 4);
    }
    float c0 = C[g * N + 2 * t], c1 = C[g * N + 2 * t + 1], c2 = C[(g + 8) * N + 2 * t], c3 = C[(g + 8) * N + 2 * t + 1];
    float d0, d1, d2, d3;
    if constexpr (K == 8)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%10, %11, %12, %13};"
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    else
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                     "{%7, %8, %9, %10};"
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                     : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    D[g * N + 2 * t] = d0; D[g * N + 2 * t + 1] = d1; D[(g + 8) * N + 2 * t] = d2; D[(g + 8) * N + 2 * t + 1] = d3;
}

// m8n8k4 in f64: A is 8 x 4, B 4 x 8, C and D 8 x 8.
__global__ void mma_f64(const double *A, const double *B, const double *C, double *D) {
    int l = threadIdx.x, g = l / 4, t = l % 4;
    double a0 = A[g * 4 + t], b0 = B[t * 8 + g], c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1], d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=d"(d0), "=d"(d1) : "d"(a0), "d"(b0), "d"(c0), "d"(c1));
    D[g * 8 + 2 * t] = d0;
    D[g * 8 + 2 * t + 1] = d1;
}

// The same with a directed rounding (.rz, .rm, .rp): each of the four steps is a fused
// multiply-add rounded so.
#define MMA_F64_ROUNDED(name, rnd)                                                            \
    __global__ void name(const double *A, const double *B, const double *C, double *D) {     \
        int l = threadIdx.x, g = l / 4, t = l % 4;                                            \
        double a0 = A[g * 4 + t], b0 = B[t * 8 + g], c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1], d0, d1; \
        asm volatile("mma.sync.aligned.m8n8k4.row.col." rnd ".f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};" \
                     : "=d"(d0), "=d"(d1) : "d"(a0), "d"(b0), "d"(c0), "d"(c1));              \
        D[g * 8 + 2 * t] = d0;                                                                \
        D[g * 8 + 2 * t + 1] = d1;                                                            \
    }
MMA_F64_ROUNDED(mma_f64_rz, "rz")
MMA_F64_ROUNDED(mma_f64_rm, "rm")
MMA_F64_ROUNDED(mma_f64_rp, "rp")

// 8-bit integers, K = 32 (or 16): A 16 x K, B K x 8, C and D s32; a register packs four
// consecutive elements of a row of A or a column of B, the first in the low byte.
__device__ uint32_t bytes_of_row(const int8_t *m, int ld, int r, int c) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)(uint8_t)m[r * ld + c + i] << (8 * i);
    return v;
}
__device__ uint32_t bytes_of_column(const int8_t *m, int ld, int r, int c) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)(uint8_t)m[(r + i) * ld + c] << (8 * i);
    return v;
}

template <int form, int bound> __global__ void __launch_bounds__(bound) mma_int8(const int8_t *A, const int8_t *B, const int *C, int *D) {
    int l = threadIdx.x, g = l / 4, t = l % 4, k = form == 1 ? 16 : 32;
    int c0 = C[g * N + 2 * t], c1 = C[g * N + 2 * t + 1], c2 = C[(g + 8) * N + 2 * t], c3 = C[(g + 8) * N + 2 * t + 1];
    int d0, d1, d2, d3;
    uint32_t a0 = bytes_of_row(A, k, g, 4 * t), a1 = bytes_of_row(A, k, g + 8, 4 * t);
    uint32_t b0 = bytes_of_column(B, N, 4 * t, g);
    if (form == 1) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                     "{%7, %8, %9, %10};"
                     : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                     : "r"(a0), "r"(a1), "r"(b0), "r"(c0), "r"(c1), "r"(c2), "r"(c3));
    } else {
        uint32_t a2 = bytes_of_row(A, k, g, 4 * t + 16), a3 = bytes_of_row(A, k, g + 8, 4 * t + 16);
        uint32_t b1 = bytes_of_column(B, N, 4 * t + 16, g);
        if (form == 0)
            asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                         "{%8, %9}, {%10, %11, %12, %13};"
                         : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1), "r"(c2), "r"(c3));
        else
            asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0, %1, %2, %3}, "
                         "{%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                         : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1), "r"(c2), "r"(c3));
    }
    D[g * N + 2 * t] = d0; D[g * N + 2 * t + 1] = d1; D[(g + 8) * N + 2 * t] = d2; D[(g + 8) * N + 2 * t + 1] = d3;
}

static void reference(const float *a, const float *b, const float *c, float *d, int k) {
    for (int r = 0; r < M; r++)
        for (int n = 0; n < N; n++) {
            float s = c[r * N + n];
            for (int i = 0; i < k; i++) s += a[r * k + i] * b[i * N + n];
            d[r * N + n] = s;
        }
}

static void compare(Checker &c, const char *what, const float *got, const float *want) {
    for (int i = 0; i < M * N; i++)
        if (got[i] != want[i]) {
            c.fail("%s: D[%d][%d] = %g, want %g", what, i / N, i % N, got[i], want[i]);
            return;
        }
}

int main() {
    Checker c;
    Lcg rng(11);
    float a[M * 16], b[16 * N], cf[M * N], want[M * N], got[M * N];
    __half ah[M * 16], bh[16 * N], ch[M * N], dh[M * N];
    __nv_bfloat16 ab[M * 16], bb[16 * N];
    for (int i = 0; i < M * 16; i++) { a[i] = (float)rng.range(-3, 4); ah[i] = __float2half(a[i]); ab[i] = __float2bfloat16(a[i]); }
    for (int i = 0; i < 16 * N; i++) { b[i] = (float)rng.range(-3, 4); bh[i] = __float2half(b[i]); bb[i] = __float2bfloat16(b[i]); }
    for (int i = 0; i < M * N; i++) { cf[i] = (float)rng.range(-50, 51); ch[i] = __float2half(cf[i]); }

    void *dA, *dB, *dC, *dD;
    CHECK(cudaMalloc(&dA, sizeof a));
    CHECK(cudaMalloc(&dB, sizeof b));
    CHECK(cudaMalloc(&dC, sizeof cf));
    CHECK(cudaMalloc(&dD, sizeof got));

    reference(a, b, cf, want, 16);
    CHECK(cudaMemcpy(dA, ah, sizeof ah, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, bh, sizeof bh, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dC, cf, sizeof cf, cudaMemcpyHostToDevice));
    for (int bounded = 0; bounded < 2; bounded++) {
        CHECK(cudaMemcpy(dA, ah, sizeof ah, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB, bh, sizeof bh, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dC, cf, sizeof cf, cudaMemcpyHostToDevice));
        if (bounded) mma_16bit_f32<__half, 32><<<1, 32>>>((const __half *)dA, (const __half *)dB, (const float *)dC, (float *)dD);
        else mma_16bit_f32<__half, 1024><<<1, 32>>>((const __half *)dA, (const __half *)dB, (const float *)dC, (float *)dD);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
        compare(c, bounded ? "m16n8k16 f32.f16.f16.f32, 32 threads" : "m16n8k16 f32.f16.f16.f32", got, want);

        CHECK(cudaMemcpy(dA, ab, sizeof ab, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB, bb, sizeof bb, cudaMemcpyHostToDevice));
        if (bounded) mma_16bit_f32<__nv_bfloat16, 32><<<1, 32>>>((const __nv_bfloat16 *)dA, (const __nv_bfloat16 *)dB, (const float *)dC, (float *)dD);
        else mma_16bit_f32<__nv_bfloat16, 1024><<<1, 32>>>((const __nv_bfloat16 *)dA, (const __nv_bfloat16 *)dB, (const float *)dC, (float *)dD);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
        compare(c, bounded ? "m16n8k16 f32.bf16.bf16.f32, 32 threads" : "m16n8k16 f32.bf16.bf16.f32", got, want);

        CHECK(cudaMemcpy(dA, ah, sizeof ah, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB, bh, sizeof bh, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dC, ch, sizeof ch, cudaMemcpyHostToDevice));
        if (bounded) mma_f16_f16<32><<<1, 32>>>((const __half *)dA, (const __half *)dB, (const __half *)dC, (__half *)dD);
        else mma_f16_f16<1024><<<1, 32>>>((const __half *)dA, (const __half *)dB, (const __half *)dC, (__half *)dD);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(dh, dD, sizeof dh, cudaMemcpyDeviceToHost));
        for (int i = 0; i < M * N; i++) got[i] = __half2float(dh[i]);
        compare(c, bounded ? "m16n8k16 f16.f16.f16.f16, 32 threads" : "m16n8k16 f16.f16.f16.f16", got, want);
    }

    // m16n8k8: the first 8 columns of A (repacked 16 x 8) and the first 8 rows of B.
    static float a8[M * 8];
    __half a8h[M * 8];
    for (int r = 0; r < M; r++)
        for (int i = 0; i < 8; i++) { a8[r * 8 + i] = a[r * 16 + i]; a8h[r * 8 + i] = ah[r * 16 + i]; }
    reference(a8, b, cf, want, 8);
    CHECK(cudaMemcpy(dA, a8h, sizeof a8h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dC, cf, sizeof cf, cudaMemcpyHostToDevice));
    mma_k8<<<1, 32>>>((const __half *)dA, (const __half *)dB, (const float *)dC, (float *)dD);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
    compare(c, "m16n8k8 f32.f16.f16.f32", got, want);

    // tf32: the same integers (exact in tf32) as f32 bit patterns, A 16 x 8.
    CHECK(cudaMemcpy(dA, a8, sizeof a8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, b, 8 * N * sizeof(float), cudaMemcpyHostToDevice));
    mma_tf32<8><<<1, 32>>>((const float *)dA, (const float *)dB, (const float *)dC, (float *)dD);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
    compare(c, "m16n8k8 f32.tf32.tf32.f32", got, want);

    // m16n8k4 tf32: the first 4 columns of A, with bits below a tf32's mantissa set (0x1abc:
    // rounding them, rather than leaving them out, would move a nonzero element by a tf32 ulp).
    float a4[M * 4], a4_bits[M * 4];
    for (int r = 0; r < M; r++)
        for (int i = 0; i < 4; i++) {
            a4[r * 4 + i] = a[r * 16 + i];
            a4_bits[r * 4 + i] = u2f(f2u(a4[r * 4 + i]) | 0x1abc);
        }
    reference(a4, b, cf, want, 4);
    CHECK(cudaMemcpy(dA, a4_bits, sizeof a4_bits, cudaMemcpyHostToDevice));
    mma_tf32<4><<<1, 32>>>((const float *)dA, (const float *)dB, (const float *)dC, (float *)dD);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
    compare(c, "m16n8k4 f32.tf32.tf32.f32", got, want);

    // f64: values with fractions, each product and sum exact in f64 (multiples of 1/64).
    double a64[8 * 4], b64[4 * 8], c64[8 * 8], d64[8 * 8], w64[8 * 8];
    for (int i = 0; i < 32; i++) { a64[i] = rng.range(-40, 41) / 8.0; b64[i] = rng.range(-40, 41) / 8.0; }
    for (int i = 0; i < 64; i++) c64[i] = rng.range(-100, 101) / 64.0;
    for (int r = 0; r < 8; r++)
        for (int n = 0; n < 8; n++) {
            double sum = c64[r * 8 + n];
            for (int i = 0; i < 4; i++) sum += a64[r * 4 + i] * b64[i * 8 + n];
            w64[r * 8 + n] = sum;
        }
    double *eA, *eB, *eC, *eD;
    CHECK(cudaMalloc(&eA, sizeof a64));
    CHECK(cudaMalloc(&eB, sizeof b64));
    CHECK(cudaMalloc(&eC, sizeof c64));
    CHECK(cudaMalloc(&eD, sizeof d64));
    CHECK(cudaMemcpy(eA, a64, sizeof a64, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(eB, b64, sizeof b64, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(eC, c64, sizeof c64, cudaMemcpyHostToDevice));
    mma_f64<<<1, 32>>>(eA, eB, eC, eD);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(d64, eD, sizeof d64, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        if (d64[i] != w64[i]) {
            c.fail("m8n8k4 f64: D[%d][%d] = %g, want %g", i / 8, i % 8, d64[i], w64[i]);
            break;
        }

    static const MmaF64Kernel rounded[4] = {nullptr, mma_f64_rz, mma_f64_rm, mma_f64_rp};
    check_mma_f64_rounding(c, "m8n8k4 f64", rounded, 8, 4, 8, 1);  // B row-major

    // 8-bit integers: s8 x s8 (K = 32), u8 x s8 (K = 16), and s8 x s8 with .satfinite on
    // accumulators near the ends of the s32 range, where the plain form wraps.
    static int8_t ai[M * 32], bi[32 * N];
    static int ci[M * N], di[M * N];
    for (int i = 0; i < M * 32; i++) ai[i] = (int8_t)rng.range(-128, 128);
    for (int i = 0; i < 32 * N; i++) bi[i] = (int8_t)rng.range(-128, 128);
    int8_t *gA, *gB;
    int *gC, *gD;
    CHECK(cudaMalloc(&gA, sizeof ai));
    CHECK(cudaMalloc(&gB, sizeof bi));
    CHECK(cudaMalloc(&gC, sizeof ci));
    CHECK(cudaMalloc(&gD, sizeof di));
    CHECK(cudaMemcpy(gA, ai, sizeof ai, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(gB, bi, sizeof bi, cudaMemcpyHostToDevice));
    const char *names[3] = {"m16n8k32 s32.s8.s8.s32", "m16n8k16 s32.u8.s8.s32", "m16n8k32 satfinite"};
    for (int run = 0; run < 6; run++) {
        int form = run % 3, k = form == 1 ? 16 : 32;
        bool bounded = run >= 3;
        for (int i = 0; i < M * N; i++)
            ci[i] = form == 2 ? (i % 2 ? INT32_MAX - rng.range(0, 200000) : INT32_MIN + rng.range(0, 200000))
                              : rng.range(-100000, 100001);
        CHECK(cudaMemcpy(gC, ci, sizeof ci, cudaMemcpyHostToDevice));
        if (form == 0 && bounded) mma_int8<0, 32><<<1, 32>>>(gA, gB, gC, gD);
        if (form == 0 && !bounded) mma_int8<0, 1024><<<1, 32>>>(gA, gB, gC, gD);
        if (form == 1 && bounded) mma_int8<1, 32><<<1, 32>>>(gA, gB, gC, gD);
        if (form == 1 && !bounded) mma_int8<1, 1024><<<1, 32>>>(gA, gB, gC, gD);
        if (form == 2 && bounded) mma_int8<2, 32><<<1, 32>>>(gA, gB, gC, gD);
        if (form == 2 && !bounded) mma_int8<2, 1024><<<1, 32>>>(gA, gB, gC, gD);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(di, gD, sizeof di, cudaMemcpyDeviceToHost));
        for (int r = 0; r < M; r++)
            for (int n = 0; n < N; n++) {
                long long sum = ci[r * N + n];
                for (int i = 0; i < k; i++) {
                    int x = form == 1 ? (int)(uint8_t)ai[r * k + i] : ai[r * k + i];
                    sum += (long long)x * bi[i * N + n];
                }
                int want_i = form == 2 ? (int)(sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum)
                                       : (int)(uint32_t)(unsigned long long)sum;
                if (di[r * N + n] != want_i) {
                    c.fail("%s%s: D[%d][%d] = %d, want %d", names[form], bounded ? ", 32 threads" : "", r, n,
                           di[r * N + n], want_i);
                    r = M;
                    break;
                }
            }
    }
    CHECK(cudaFree(gA));
    CHECK(cudaFree(gB));
    CHECK(cudaFree(gC));
    CHECK(cudaFree(gD));
    CHECK(cudaFree(eA));
    CHECK(cudaFree(eB));
    CHECK(cudaFree(eC));
    CHECK(cudaFree(eD));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dD));
    return c.finish();
}
