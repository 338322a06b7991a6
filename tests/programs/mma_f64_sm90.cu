// mma.sync with f64 in sm_90's shapes: m16n8k4, m16n8k8 and m16n8k16 (.row.col), rounded to
// nearest and with .rz, .rm and .rp. One element a register: with g = lane / 4 and t = lane % 4,
// lane l holds A[g + 8r][t + 4j] in a(2j + r), B[t + 4j][g] in bj, and C and D at rows g and
// g + 8, columns 2t and 2t + 1 (c0, c1 and c2, c3). Each of the K steps is a fused multiply-add
// rounded as the instruction says (to nearest without .rnd), in k order, as the C library's fma
// computes it under fesetround (test_util.h: check_mma_f64_rounding), on values whose every
// step rounds.
#include "test_util.h"

static const int M = 16, N = 8;

enum Rounding { RN, RZ, RM, RP };

// The operand lists of each K: D, A, B, C.
#define OPERANDS_K4 "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
#define OPERANDS_K8 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
#define OPERANDS_K16 "{%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};"
#define D_OUT "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
#define C_IN "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3])
#define MMA_K4(rnd) asm volatile("mma.sync.aligned.m16n8k4.row.col" rnd ".f64.f64.f64.f64 " OPERANDS_K4 \
                                 : D_OUT : "d"(a[0]), "d"(a[1]), "d"(b[0]), C_IN)
#define MMA_K8(rnd) asm volatile("mma.sync.aligned.m16n8k8.row.col" rnd ".f64.f64.f64.f64 " OPERANDS_K8 \
                                 : D_OUT : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]), C_IN)
#define MMA_K16(rnd) asm volatile("mma.sync.aligned.m16n8k16.row.col" rnd ".f64.f64.f64.f64 " OPERANDS_K16 \
                                  : D_OUT : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), \
                                    "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]), C_IN)
#define MMA_EACH_ROUNDING(MMA)        \
    if constexpr (RND == RN) MMA(""); \
    if constexpr (RND == RZ) MMA(".rz"); \
    if constexpr (RND == RM) MMA(".rm"); \
    if constexpr (RND == RP) MMA(".rp");

// A is 16 x K, B K x 8, C and D 16 x 8, all row-major.
template <int K, int RND> __global__ void mma_f64(const double *A, const double *B, const double *C, double *D) {
    int l = threadIdx.x, g = l / 4, t = l % 4;
    double a[8], b[4], c[4], d[4];
    for (int j = 0; j < K / 4; j++) {
        for (int r = 0; r < 2; r++) a[2 * j + r] = A[(g + 8 * r) * K + t + 4 * j];
        b[j] = B[(t + 4 * j) * N + g];
    }
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i / 2)) * N + 2 * t + i % 2];
    if constexpr (K == 4) { MMA_EACH_ROUNDING(MMA_K4) }
    if constexpr (K == 8) { MMA_EACH_ROUNDING(MMA_K8) }
    if constexpr (K == 16) { MMA_EACH_ROUNDING(MMA_K16) }
    for (int i = 0; i < 4; i++) D[(g + 8 * (i / 2)) * N + 2 * t + i % 2] = d[i];
}

template <int K> static void check_shape(Checker &c) {
    char what[32];
    snprintf(what, sizeof what, "m16n8k%d f64", K);
    static const MmaF64Kernel kernels[4] = {mma_f64<K, RN>, mma_f64<K, RZ>, mma_f64<K, RM>, mma_f64<K, RP>};
    check_mma_f64_rounding(c, what, kernels, M, K, N, 1);  // B row-major
}

int main() {
    Checker c;
    check_shape<4>(c);
    check_shape<8>(c);
    check_shape<16>(c);
    return c.finish();
}
