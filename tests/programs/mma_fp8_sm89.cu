// mma.sync with 8-bit floats (sm_89: m16n8k32, e4m3 and e5m2 in any mix, into f32), the
// form cuBLASLt's and llama.cpp's fp8 GEMMs emit; m16n8k16 into f32 and into f16 (f16 C and
// D); and mma.sp m16n8k64 (A 2:4 structured sparse, as for 8-bit integers) into f32. The
// fragments are those of the 8-bit integer forms: with g = lane / 4 and t = lane % 4, a0 packs
// A[g][4t..4t+3], a1 the same of row g + 8, a2 and a3 the columns 16 on; b0 packs
// B[4t..4t+3][g], b1 the rows 16 on (b2, b3 the rows 32 and 48 on); C and D at rows g and
// g + 8, columns 2t and 2t + 1; the first element in the low byte. The values are small
// multiples of 1/8 that both formats hold exactly, and their products and sums are exact in
// f32, so D must equal the host's A B + C bit for bit, whatever order the sum takes; the
// inputs include the formats' subnormals, zeros of both signs, and e4m3's largest value
// (448). Into f16, the values are small integers, so that the sum is exact in f16 too.
#include <cuda_fp8.h>
#include <cuda_fp16.h>
#include "test_util.h"

static const int M = 16, N = 8, K = 32;

__device__ uint32_t bytes_of_row(const uint8_t *m, int r, int c, int ld = K) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)m[r * ld + c + i] << (8 * i);
    return v;
}
__device__ uint32_t bytes_of_column(const uint8_t *m, int r, int c) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)m[(r + i) * N + c] << (8 * i);
    return v;
}

// form 0: e4m3 x e4m3, 1: e5m2 x e5m2, 2: e4m3 x e5m2.
template <int form> __global__ void mma_fp8(const uint8_t *A, const uint8_t *B, const float *C, float *D) {
    int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t a0 = bytes_of_row(A, g, 4 * t), a1 = bytes_of_row(A, g + 8, 4 * t);
    uint32_t a2 = bytes_of_row(A, g, 4 * t + 16), a3 = bytes_of_row(A, g + 8, 4 * t + 16);
    uint32_t b0 = bytes_of_column(B, 4 * t, g), b1 = bytes_of_column(B, 4 * t + 16, g);
    float c0 = C[g * N + 2 * t], c1 = C[g * N + 2 * t + 1], c2 = C[(g + 8) * N + 2 * t], c3 = C[(g + 8) * N + 2 * t + 1];
    float d0, d1, d2, d3;
#define MMA(types)                                                                                   \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." types ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, " \
                 "{%8, %9}, {%10, %11, %12, %13};"                                                   \
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)                                           \
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3))
    if (form == 0)
        MMA("e4m3.e4m3");
    else if (form == 1)
        MMA("e5m2.e5m2");
    else
        MMA("e4m3.e5m2");
#undef MMA
    D[g * N + 2 * t] = d0; D[g * N + 2 * t + 1] = d1; D[(g + 8) * N + 2 * t] = d2; D[(g + 8) * N + 2 * t + 1] = d3;
}

// m16n8k16 (A 16 x 16, B 16 x 8): form 0, e4m3 x e5m2 into f32; form 1, e5m2 x e4m3 with f16 C and
// D (a register holds columns 2t and 2t + 1 of row g, the next row g + 8).
template <int form> __global__ void mma_fp8_k16(const uint8_t *A, const uint8_t *B, const float *C, float *D) {
    int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t a0 = bytes_of_row(A, g, 4 * t, 16), a1 = bytes_of_row(A, g + 8, 4 * t, 16), b0 = bytes_of_column(B, 4 * t, g);
    float c[4] = {C[g * N + 2 * t], C[g * N + 2 * t + 1], C[(g + 8) * N + 2 * t], C[(g + 8) * N + 2 * t + 1]}, d[4];
    if (form == 0) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e5m2.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                     "{%7, %8, %9, %10};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a0), "r"(a1), "r"(b0), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    } else {
        __half2 c0 = __floats2half2_rn(c[0], c[1]), c1 = __floats2half2_rn(c[2], c[3]), d0, d1;
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e4m3.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                     : "=r"(*(uint32_t *)&d0), "=r"(*(uint32_t *)&d1)
                     : "r"(a0), "r"(a1), "r"(b0), "r"(*(uint32_t *)&c0), "r"(*(uint32_t *)&c1));
        d[0] = __low2float(d0); d[1] = __high2float(d0); d[2] = __low2float(d1); d[3] = __high2float(d1);
    }
    D[g * N + 2 * t] = d[0]; D[g * N + 2 * t + 1] = d[1]; D[(g + 8) * N + 2 * t] = d[2]; D[(g + 8) * N + 2 * t + 1] = d[3];
}

// mma.sp m16n8k64 into f32: A's 16 x 32 given elements as the dense m16n8k32's A, B 64 x 8, lane l's
// metadata E[l] (sparsity selector 0, the only one). form 0: e4m3 x e4m3 (::ordered_metadata);
// form 1: e5m2 x e4m3 (.sp).
template <int form> __global__ void mma_fp8_sparse(const uint8_t *A, const uint8_t *B, const float *C,
                                                   const uint32_t *E, float *D) {
    int l = threadIdx.x, g = l / 4, t = l % 4;
    uint32_t a0 = bytes_of_row(A, g, 4 * t), a1 = bytes_of_row(A, g + 8, 4 * t);
    uint32_t a2 = bytes_of_row(A, g, 4 * t + 16), a3 = bytes_of_row(A, g + 8, 4 * t + 16), b[4];
    for (int i = 0; i < 4; i++) b[i] = bytes_of_column(B, 4 * t + 16 * i, g);
    float c0 = C[g * N + 2 * t], c1 = C[g * N + 2 * t + 1], c2 = C[(g + 8) * N + 2 * t], c3 = C[(g + 8) * N + 2 * t + 1];
    float d0, d1, d2, d3;
#define MMA_SP(variant, types)                                                                              \
    asm volatile("mma." variant ".sync.aligned.m16n8k64.row.col.f32." types ".f32 {%0, %1, %2, %3}, "    \
                 "{%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;"                    \
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)                                                \
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c0), \
                   "f"(c1), "f"(c2), "f"(c3), "r"(E[l]))
    if (form == 0)
        MMA_SP("sp::ordered_metadata", "e4m3.e4m3");
    else
        MMA_SP("sp", "e5m2.e4m3");
#undef MMA_SP
    D[g * N + 2 * t] = d0; D[g * N + 2 * t + 1] = d1; D[(g + 8) * N + 2 * t] = d2; D[(g + 8) * N + 2 * t + 1] = d3;
}

// An 8-bit float of format e4m3 (or e5m2) with the value v, which it must hold exactly.
static uint8_t encode(float v, bool e4m3) {
    uint8_t code = e4m3 ? __nv_fp8_e4m3(v).__x : __nv_fp8_e5m2(v).__x;
    float back = e4m3 ? (float)*(const __nv_fp8_e4m3 *)&code : (float)*(const __nv_fp8_e5m2 *)&code;
    if (back != v || std::signbit(back) != std::signbit(v)) {
        printf("FAIL: %g is not exact in %s\n", v, e4m3 ? "e4m3" : "e5m2");
        exit(1);
    }
    return code;
}

// D = A B + C on the host for A 16 x k, B k x 8: exact in f32, and so whatever the order.
static void reference(const float *a, const float *b, const float *cf, int k, float *want) {
    for (int r = 0; r < M; r++)
        for (int n = 0; n < N; n++) {
            double s = cf[r * N + n];
            for (int i = 0; i < k; i++) s += (double)a[r * k + i] * b[i * N + n];
            want[r * N + n] = (float)s;
        }
}

static void compare(Checker &c, const char *what, const float *got, const float *want) {
    for (int i = 0; i < M * N; i++)
        if (f2u(got[i]) != f2u(want[i])) {
            c.fail("%s: D[%d][%d] = %.9g, want %.9g", what, i / N, i % N, got[i], want[i]);
            return;
        }
}

int main() {
    Checker c;
    Lcg rng(89);
    float a[M * K], b[K * N], cf[M * N], want[M * N], got[M * N];
    // Multiples of 1/8 up to 3.5 that both formats hold, signed zeros, and e4m3's smallest
    // subnormal 2^-9 (normal in e5m2).
    static const float held[] = {0, 0.125f, 0.25f, 0.375f, 0.5f, 0.625f, 0.75f, 0.875f, 1, 1.25f,
                                 1.5f, 1.75f, 2, 2.5f, 3, 3.5f};  // 3 significant bits at most
    for (int i = 0; i < M * K; i++) a[i] = (rng.next() & 1 ? -1 : 1) * held[rng.range(0, 16)];
    for (int i = 0; i < K * N; i++) b[i] = (rng.next() & 1 ? -1 : 1) * held[rng.range(0, 16)];
    a[3] = -0.0f; a[40] = 0x1p-9f; b[5] = -0.0f; b[17] = 0x1p-9f;
    for (int i = 0; i < M * N; i++) cf[i] = rng.range(-400, 401) / 16.0f;
    uint8_t *dA, *dB;
    float *dC, *dD;
    CHECK(cudaMalloc(&dA, M * K));
    CHECK(cudaMalloc(&dB, K * N));
    CHECK(cudaMalloc(&dC, sizeof cf));
    CHECK(cudaMalloc(&dD, sizeof got));
    CHECK(cudaMemcpy(dC, cf, sizeof cf, cudaMemcpyHostToDevice));
    const char *names[4] = {"f32.e4m3.e4m3.f32", "f32.e5m2.e5m2.f32", "f32.e4m3.e5m2.f32", "e4m3 448 and e5m2 2^-16"};
    for (int form = 0; form < 4; form++) {
        float fa[M * K], fb[K * N];
        uint8_t ah[M * K], bh[K * N];
        memcpy(fa, a, sizeof fa);
        memcpy(fb, b, sizeof fb);
        if (form == 3) {
            // e4m3's largest, and e5m2's smallest subnormal alone in columns 0 and 1 of B,
            // so that those columns' sums stay exact (C + A[r][k] 2^-16, below 2^5)
            fa[7] = 448.0f; fa[100] = -448.0f;
            for (int k = 0; k < K; k++) fb[k * N] = fb[k * N + 1] = 0.0f;
            fb[9 * N + 1] = 0x1p-16f; fb[25 * N] = -0x1p-16f;
        }
        bool a_e4m3 = form != 1, b_e4m3 = form == 0;
        for (int i = 0; i < M * K; i++) ah[i] = encode(fa[i], a_e4m3);
        for (int i = 0; i < K * N; i++) bh[i] = encode(fb[i], b_e4m3);
        reference(fa, fb, cf, K, want);
        CHECK(cudaMemcpy(dA, ah, sizeof ah, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB, bh, sizeof bh, cudaMemcpyHostToDevice));
        if (form == 0) mma_fp8<0><<<1, 32>>>(dA, dB, dC, dD);
        if (form == 1) mma_fp8<1><<<1, 32>>>(dA, dB, dC, dD);
        if (form >= 2) mma_fp8<2><<<1, 32>>>(dA, dB, dC, dD);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
        char what[64];
        snprintf(what, sizeof what, "m16n8k32 %s", names[form]);
        compare(c, what, got, want);
    }

    // m16n8k16: A's first 16 columns and B's first 16 rows into f32; small integers into f16.
    for (int form = 0; form < 2; form++) {
        float fa[M * 16], fb[16 * N], fc[M * N];
        uint8_t ah[M * 16], bh[16 * N];
        for (int r = 0; r < M; r++)
            for (int k = 0; k < 16; k++) fa[r * 16 + k] = form == 0 ? a[r * K + k] : (float)rng.range(-3, 4);
        for (int i = 0; i < 16 * N; i++) fb[i] = form == 0 ? b[i] : (float)rng.range(-3, 4);
        for (int i = 0; i < M * N; i++) fc[i] = form == 0 ? cf[i] : (float)rng.range(-20, 21);
        for (int i = 0; i < M * 16; i++) ah[i] = encode(fa[i], form == 0);
        for (int i = 0; i < 16 * N; i++) bh[i] = encode(fb[i], form == 1);
        reference(fa, fb, fc, 16, want);
        CHECK(cudaMemcpy(dA, ah, sizeof ah, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB, bh, sizeof bh, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dC, fc, sizeof fc, cudaMemcpyHostToDevice));
        if (form == 0) mma_fp8_k16<0><<<1, 32>>>(dA, dB, dC, dD);
        else mma_fp8_k16<1><<<1, 32>>>(dA, dB, dC, dD);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
        compare(c, form == 0 ? "m16n8k16 f32.e4m3.e5m2.f32" : "m16n8k16 f16.e5m2.e4m3.f16", got, want);
    }

    // mma.sp m16n8k64: a sparse 16 x 64 A (test_util.h: make_sparse_a, sparse_metadata), its
    // elements coded as signed indices into held.
    static SparseA sparse;
    float sb[64 * N], dense[M * 64];
    uint8_t sah[M * K], sbh[64 * N];
    uint32_t meta[32], *dE;
    uint8_t *dB64;
    CHECK(cudaMalloc(&dE, sizeof meta));
    CHECK(cudaMalloc(&dB64, sizeof sbh));
    CHECK(cudaMemcpy(dC, cf, sizeof cf, cudaMemcpyHostToDevice));
    auto value = [](int code) { return code < 0 ? -held[-code] : held[code]; };
    for (int form = 0; form < 2; form++) {
        make_sparse_a(sparse, rng, 64, 8, [](Lcg &r) { return (r.next() & 1 ? -1 : 1) * r.range(0, 16); });
        for (int i = 0; i < 64 * N; i++) sb[i] = (rng.next() & 1 ? -1 : 1) * held[rng.range(0, 16)];
        for (int r = 0; r < M; r++) {
            for (int k = 0; k < K; k++) sah[r * K + k] = encode(value(sparse.given[r][k]), form == 0);
            for (int k = 0; k < 64; k++) dense[r * 64 + k] = value(sparse.dense[r][k]);
        }
        for (int i = 0; i < 64 * N; i++) sbh[i] = encode(sb[i], true);
        for (int l = 0; l < 32; l++) meta[l] = sparse_metadata(sparse, rng, l, 0);
        reference(dense, sb, cf, 64, want);
        CHECK(cudaMemcpy(dA, sah, sizeof sah, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB64, sbh, sizeof sbh, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dE, meta, sizeof meta, cudaMemcpyHostToDevice));
        if (form == 0) mma_fp8_sparse<0><<<1, 32>>>(dA, dB64, dC, dE, dD);
        else mma_fp8_sparse<1><<<1, 32>>>(dA, dB64, dC, dE, dD);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
        compare(c, form == 0 ? "mma.sp::ordered_metadata m16n8k64 f32.e4m3.e4m3.f32" : "mma.sp m16n8k64 f32.e5m2.e4m3.f32",
                got, want);
    }
    return c.finish();
}
