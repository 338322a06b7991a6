// The sub-byte and 8x8 integer matrix forms: mma.sync m16n8k32 and m16n8k64 with 4-bit
// integers (s4 x s4, u4 x s4, .satfinite), m8n8k32 s4 and m8n8k16 s8 (8 rows), and the
// binary forms m16n8k128, m16n8k256 and m8n8k128 (b1, .xor.popc and .and.popc); and wmma's
// m8n8k32 s4/u4 and m8n8k128 b1 (nvcuda::wmma::experimental, bmma_sync with XOR and AND).
// Matrices live packed in memory, 8 four-bit or 32 one-bit elements to a 32-bit word, A
// row-major and B column-major (as the sub-byte forms require), and each lane of an
// mma.sync takes its registers straight from those words: with g = lane / 4, t = lane % 4
// and p elements a register, a0 holds A[g][pt..pt+p-1], a1 row g + 8 (16-row shapes), the
// next 4p columns follow in a2, a3; b0 holds B[pt..pt+p-1][g], b1 the next 4p rows; C and
// D at rows g (and g + 8), columns 2t and 2t + 1. Which bits of a word hold which element
// cannot change a result (A's and B's elements pair up the same way), so the host reference
// reads element k of a row or column at bits 4k (k) of its words. D must equal it exactly.
#include <mma.h>
#include <climits>
#include "test_util.h"

using namespace nvcuda;

enum Kind { S4, U4, B1, S8 };
__host__ __device__ inline int bits_of(Kind k) { return k == B1 ? 1 : k == S8 ? 8 : 4; }

// A holds M rows of K elements, B N columns of K, each a run of K * bits / 32 words.
struct Problem {
    int m, k;
    Kind ka, kb;
    int words() const { return k * bits_of(ka) / 32; }
};

__device__ __host__ inline int element(const uint32_t *run, int k, Kind kind) {
    int bits = bits_of(kind), per = 32 / bits;
    uint32_t v = run[k / per] >> (bits * (k % per)) & ((1u << bits) - 1);
    if (kind == S4) return (int)(v ^ 8) - 8;
    if (kind == S8) return (int)(int8_t)v;
    return (int)v;
}

// form: which instruction (see forms[] in main).
template <int form> __global__ void mma_kernel(const uint32_t *A, const uint32_t *B, const int *C, int *D, int m, int k) {
    int l = threadIdx.x, g = l / 4, t = l % 4, wk = k * (form >= 6 ? 1 : form == 5 ? 8 : 4) / 32;
    // the word of row r (column c) holding elements p*t.. of chunk j
    auto a = [&](int r, int j) { return A[r * wk + j * 4 + t]; };
    auto b = [&](int c, int j) { return B[c * wk + j * 4 + t]; };
    int c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1], c2 = 0, c3 = 0, d0, d1, d2 = 0, d3 = 0;
    if (m == 16) { c2 = C[(g + 8) * 8 + 2 * t]; c3 = C[(g + 8) * 8 + 2 * t + 1]; }
#define MMA16_1(shape_types)                                                                       \
    asm volatile("mma.sync.aligned." shape_types " {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"   \
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                          \
                 : "r"(a(g, 0)), "r"(a(g + 8, 0)), "r"(b(g, 0)), "r"(c0), "r"(c1), "r"(c2), "r"(c3))
#define MMA16_2(shape_types)                                                                       \
    asm volatile("mma.sync.aligned." shape_types " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "  \
                 "{%10, %11, %12, %13};"                                                           \
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                          \
                 : "r"(a(g, 0)), "r"(a(g + 8, 0)), "r"(a(g, 1)), "r"(a(g + 8, 1)), "r"(b(g, 0)),     \
                   "r"(b(g, 1)), "r"(c0), "r"(c1), "r"(c2), "r"(c3))
#define MMA8(shape_types)                                                                          \
    asm volatile("mma.sync.aligned." shape_types " {%0, %1}, {%2}, {%3}, {%4, %5};"                 \
                 : "=r"(d0), "=r"(d1) : "r"(a(g, 0)), "r"(b(g, 0)), "r"(c0), "r"(c1))
    if (form == 0) MMA16_1("m16n8k32.row.col.s32.s4.s4.s32");
    if (form == 1) MMA16_2("m16n8k64.row.col.s32.u4.s4.s32");
    if (form == 2) MMA16_2("m16n8k64.row.col.satfinite.s32.s4.s4.s32");
    if (form == 3) MMA8("m8n8k32.row.col.s32.s4.s4.s32");
    if (form == 4) MMA8("m8n8k32.row.col.satfinite.s32.u4.u4.s32");
    if (form == 5) MMA8("m8n8k16.row.col.s32.s8.s8.s32");
    if (form == 6) MMA16_1("m16n8k128.row.col.s32.b1.b1.s32.xor.popc");
    if (form == 7) MMA16_2("m16n8k256.row.col.s32.b1.b1.s32.and.popc");
    if (form == 8) MMA8("m8n8k128.row.col.s32.b1.b1.s32.xor.popc");
#undef MMA16_1
#undef MMA16_2
#undef MMA8
    D[g * 8 + 2 * t] = d0; D[g * 8 + 2 * t + 1] = d1;
    if (m == 16) { D[(g + 8) * 8 + 2 * t] = d2; D[(g + 8) * 8 + 2 * t + 1] = d3; }
}

// wmma 8x8: form 0 s4, 1 u4 with satf, 2 b1 XOR, 3 b1 AND. A and B from packed memory
// (ldm in elements), C loaded row-major, D stored column-major.
template <int form> __global__ void wmma_kernel(const uint32_t *A, const uint32_t *B, const int *C, int *D) {
    using namespace wmma::experimental;
    const int K = form >= 2 ? 128 : 32;
    using T = typename std::conditional<form == 0, precision::s4,
              typename std::conditional<form == 1, precision::u4, precision::b1>::type>::type;
    wmma::fragment<wmma::matrix_a, 8, 8, K, T, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, K, T, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, K, int> acc;
    wmma::load_matrix_sync(a, A, K);
    wmma::load_matrix_sync(b, B, K);
    wmma::load_matrix_sync(acc, C, 8, wmma::mem_row_major);
    if constexpr (form == 0) wmma::mma_sync(acc, a, b, acc);
    if constexpr (form == 1) wmma::mma_sync(acc, a, b, acc, true);
    if constexpr (form == 2) wmma::bmma_sync(acc, a, b, acc, bmmaBitOpXOR, bmmaAccumulateOpPOPC);
    if constexpr (form == 3) wmma::bmma_sync(acc, a, b, acc, bmmaBitOpAND, bmmaAccumulateOpPOPC);
    wmma::store_matrix_sync(D, acc, 8, wmma::mem_col_major);
}

static int saturate(long long v) { return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v; }

// D = A B + C for the problem, wrapping or saturating (once, as C is added).
static void reference(const Problem &p, const uint32_t *A, const uint32_t *B, const int *C, int *D, int op, bool sat) {
    int w = p.words();
    for (int r = 0; r < p.m; r++)
        for (int n = 0; n < 8; n++) {
            long long s = 0;
            for (int k = 0; k < p.k; k++) {
                int x = element(A + r * w, k, p.ka), y = element(B + n * w, k, p.kb);
                s += p.ka == B1 ? (op ? (x & y) : (x ^ y)) : (long long)x * y;
            }
            s += C[r * 8 + n];
            D[r * 8 + n] = sat ? saturate(s) : (int)(uint32_t)(long long)s;
        }
}

int main() {
    Checker c;
    Lcg rng(80);
    struct Form { const char *name; Problem p; int op; bool sat; };
    const Form forms[] = {
        {"m16n8k32 s32.s4.s4.s32", {16, 32, S4, S4}, 0, false},
        {"m16n8k64 s32.u4.s4.s32", {16, 64, U4, S4}, 0, false},
        {"m16n8k64 satfinite s32.s4.s4.s32", {16, 64, S4, S4}, 0, true},
        {"m8n8k32 s32.s4.s4.s32", {8, 32, S4, S4}, 0, false},
        {"m8n8k32 satfinite s32.u4.u4.s32", {8, 32, U4, U4}, 0, true},
        {"m8n8k16 s32.s8.s8.s32", {8, 16, S8, S8}, 0, false},
        {"m16n8k128 b1 xor.popc", {16, 128, B1, B1}, 0, false},
        {"m16n8k256 b1 and.popc", {16, 256, B1, B1}, 1, false},
        {"m8n8k128 b1 xor.popc", {8, 128, B1, B1}, 0, false},
    };
    uint32_t A[16 * 8], B[8 * 8];
    int C[16 * 8], D[16 * 8], want[16 * 8];
    uint32_t *dA, *dB;
    int *dC, *dD;
    CHECK(cudaMalloc(&dA, sizeof A));
    CHECK(cudaMalloc(&dB, sizeof B));
    CHECK(cudaMalloc(&dC, sizeof C));
    CHECK(cudaMalloc(&dD, sizeof D));
    for (int f = 0; f < 9 + 4; f++) {
        bool w = f >= 9;
        const Kind wk[4] = {S4, U4, B1, B1};
        Form form = w ? Form{"wmma", {8, f - 9 >= 2 ? 128 : 32, wk[f - 9], wk[f - 9]}, f - 9 == 3, f - 9 == 1} : forms[f];
        const Problem &p = form.p;
        for (unsigned i = 0; i < sizeof A / 4; i++) A[i] = rng.next();
        for (unsigned i = 0; i < sizeof B / 4; i++) B[i] = rng.next();
        for (int i = 0; i < 16 * 8; i++)  // near the ends of the range where .satfinite matters
            C[i] = form.sat ? (i % 2 ? INT_MAX - rng.range(0, 400) : INT_MIN + rng.range(0, 400)) : rng.range(-1000, 1001);
        reference(p, A, B, C, want, form.op, form.sat);
        CHECK(cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice));
        switch (f) {
        case 0: mma_kernel<0><<<1, 32>>>(dA, dB, dC, dD, p.m, p.k); break;
        case 1: mma_kernel<1><<<1, 32>>>(dA, dB, dC, dD, p.m, p.k); break;
        case 2: mma_kernel<2><<<1, 32>>>(dA, dB, dC, dD, p.m, p.k); break;
        case 3: mma_kernel<3><<<1, 32>>>(dA, dB, dC, dD, p.m, p.k); break;
        case 4: mma_kernel<4><<<1, 32>>>(dA, dB, dC, dD, p.m, p.k); break;
        case 5: mma_kernel<5><<<1, 32>>>(dA, dB, dC, dD, p.m, p.k); break;
        case 6: mma_kernel<6><<<1, 32>>>(dA, dB, dC, dD, p.m, p.k); break;
        case 7: mma_kernel<7><<<1, 32>>>(dA, dB, dC, dD, p.m, p.k); break;
        case 8: mma_kernel<8><<<1, 32>>>(dA, dB, dC, dD, p.m, p.k); break;
        case 9: wmma_kernel<0><<<1, 32>>>(dA, dB, dC, dD); break;
        case 10: wmma_kernel<1><<<1, 32>>>(dA, dB, dC, dD); break;
        case 11: wmma_kernel<2><<<1, 32>>>(dA, dB, dC, dD); break;
        case 12: wmma_kernel<3><<<1, 32>>>(dA, dB, dC, dD); break;
        }
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost));
        for (int r = 0; r < p.m; r++)
            for (int n = 0; n < 8; n++) {
                int got = w ? D[n * 8 + r] : D[r * 8 + n];  // wmma stored D column-major
                if (got != want[r * 8 + n]) {
                    c.fail("%s%s: D[%d][%d] = %d, want %d", w ? "wmma " : "", w ? (f == 9 ? "m8n8k32 s4" : f == 10 ? "m8n8k32 u4 satf" : f == 11 ? "m8n8k128 b1 xor" : "m8n8k128 b1 and") : form.name,
                           r, n, got, want[r * 8 + n]);
                    r = p.m;
                    break;
                }
            }
    }
    return c.finish();
}
