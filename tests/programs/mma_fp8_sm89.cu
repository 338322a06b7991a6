// mma.sync with 8-bit floats (sm_89: m16n8k32, e4m3 and e5m2 in any mix, into f32), the
// form cuBLASLt's and llama.cpp's fp8 GEMMs emit. The fragments are those of the 8-bit
// integer forms: with g = lane / 4 and t = lane % 4, a0 packs A[g][4t..4t+3], a1 the same of
// row g + 8, a2 and a3 the columns 16 on; b0 packs B[4t..4t+3][g], b1 the rows 16 on; C and
// D at rows g and g + 8, columns 2t and 2t + 1; the first element in the low byte. The
// values are small multiples of 1/8 that both formats hold exactly, and their products and
// sums are exact in f32, so D must equal the host's A B + C bit for bit, whatever order
// the sum takes; the inputs include the formats' subnormals, zeros of both signs, and e4m3's
// largest value (448).
#include <cuda_fp8.h>
#include "test_util.h"

static const int M = 16, N = 8, K = 32;

__device__ uint32_t bytes_of_row(const uint8_t *m, int r, int c) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)m[r * K + c + i] << (8 * i);
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
        for (int r = 0; r < M; r++)
            for (int n = 0; n < N; n++) {
                double s = cf[r * N + n];
                for (int k = 0; k < K; k++) s += (double)fa[r * K + k] * fb[k * N + n];
                want[r * N + n] = (float)s;  // exact in f32, and so whatever the order
            }
        CHECK(cudaMemcpy(dA, ah, sizeof ah, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB, bh, sizeof bh, cudaMemcpyHostToDevice));
        if (form == 0) mma_fp8<0><<<1, 32>>>(dA, dB, dC, dD);
        if (form == 1) mma_fp8<1><<<1, 32>>>(dA, dB, dC, dD);
        if (form >= 2) mma_fp8<2><<<1, 32>>>(dA, dB, dC, dD);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dD, sizeof got, cudaMemcpyDeviceToHost));
        for (int i = 0; i < M * N; i++)
            if (f2u(got[i]) != f2u(want[i])) {
                c.fail("m16n8k32 %s: D[%d][%d] = %.9g, want %.9g", names[form], i / N, i % N, got[i], want[i]);
                break;
            }
    }
    return c.finish();
}
