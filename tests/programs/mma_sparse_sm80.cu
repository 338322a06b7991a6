// mma.sp and mma.sp::ordered_metadata (a 2:4 structured sparse A, inline PTX as CUTLASS's
// sparse GEMMs emit it): m16n8k16 and m16n8k32 with f16 and bf16 inputs (f32 and f16
// accumulators), m16n8k8 and m16n8k16 with tf32 (1:2 sparse), m16n8k32 and m16n8k64 with s8
// and u8 (.satfinite too), m16n8k64 and m16n8k128 with s4 and u4, every sparsity selector; and
// sm_70's mma.m8n8k4 with f16 inputs in every .row/.col combination of A and B, f16 and f32
// accumulators.
//
// Sparse A: each aligned four of units in a row of the 16xK A (a unit: an element; for s4 and
// u4, a pair; for tf32, half an element, so that each pair of tf32 holds one zero) holds two
// zero and two given units; A comes as the 16xK/2 matrix of the given elements, in the
// fragment layout of a dense mma of K/2, and metadata says where they go: two bits a unit (its
// position in the four), the first unit's lowest, four bits a four (test_util.h: make_sparse_a).
// Which lanes of a group of four give the metadata (the sparsity selector f picks them) and
// where in their registers each four lies are an H200's (tests/programs/NVIDIA_H200_RESULTS.txt,
// test_util.h: sparse_metadata). B, C and D are a dense mma's (g = lane/4, t = lane%4: B rows
// t p.. of column g; C and D rows g, g + 8, columns 2t, 2t + 1). tf32 elements come with the 13
// bits below their mantissa set, which the product must not read.
//
// m8n8k4: four products at once, the q-th by lanes 4q..4q+3 (rows 0-3) and 4q+16..4q+19
// (rows 4-7); the PTX ISA's layouts, written out at pack_m8n8k4.
//
// The fragments are packed on the host from whole matrices by those layouts; D is unpacked
// likewise and compared with A B + C computed on the host from the dense A. The values are
// small integers, so every float sum is exact, in f16 and bf16 too; integer sums are exact,
// wrapping or (.satfinite) saturating.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <algorithm>
#include <climits>
#include "test_util.h"

struct LaneIn { uint32_t a[4], b[4], c[8], e; };
struct LaneOut { uint32_t d[8]; };

#define CF4 "f"(u2f_d(x.c[0])), "f"(u2f_d(x.c[1])), "f"(u2f_d(x.c[2])), "f"(u2f_d(x.c[3]))
#define CF8 CF4, "f"(u2f_d(x.c[4])), "f"(u2f_d(x.c[5])), "f"(u2f_d(x.c[6])), "f"(u2f_d(x.c[7]))
#define DF4 "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3])
#define DF8 DF4, "=f"(f[4]), "=f"(f[5]), "=f"(f[6]), "=f"(f[7])
#define R2(v) "r"(x.v[0]), "r"(x.v[1])
#define R4(v) R2(v), "r"(x.v[2]), "r"(x.v[3])
#define DR2 "=r"(o.d[0]), "=r"(o.d[1])
#define DR4 DR2, "=r"(o.d[2]), "=r"(o.d[3])

__device__ float u2f_d(uint32_t u) { return __uint_as_float(u); }

// The sparse forms: A and B of 2 or 4 registers; D and C of 4 f32, 2 f16x2 or 4 s32 registers.
#define SP_F32_2(P) asm volatile(P " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, %13;" \
                                 : DF4 : R2(a), R2(b), CF4, "r"(x.e), "n"(SEL))
#define SP_F32_4(P) asm volatile(P " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, %17;" \
                                 : DF4 : R4(a), R4(b), CF4, "r"(x.e), "n"(SEL))
#define SP_F16_2(P) asm volatile(P " {%0,%1}, {%2,%3}, {%4,%5}, {%6,%7}, %8, %9;" \
                                 : DR2 : R2(a), R2(b), R2(c), "r"(x.e), "n"(SEL))
#define SP_F16_4(P) asm volatile(P " {%0,%1}, {%2,%3,%4,%5}, {%6,%7,%8,%9}, {%10,%11}, %12, %13;" \
                                 : DR2 : R4(a), R4(b), R2(c), "r"(x.e), "n"(SEL))
#define SP_S32_2(P) asm volatile(P " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, %13;" \
                                 : DR4 : R2(a), R2(b), R4(c), "r"(x.e), "n"(SEL))
#define SP_S32_4(P) asm volatile(P " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, %17;" \
                                 : DR4 : R4(a), R4(b), R4(c), "r"(x.e), "n"(SEL))

enum Kind { F16, BF16, S8, U8, S4, U4, TF32 };
struct Form {
    const char *name;
    Kind a, b;
    int K;
    bool acc_f16, integer, satfinite;
};
static const Form forms[] = {
    {".m16n8k16.f32.f16.f16.f32", F16, F16, 16, false, false, false},
    {"::ordered_metadata.m16n8k16.f16.f16.f16.f16", F16, F16, 16, true, false, false},
    {"::ordered_metadata.m16n8k16.f32.bf16.bf16.f32", BF16, BF16, 16, false, false, false},
    {"::ordered_metadata.m16n8k32.f32.f16.f16.f32", F16, F16, 32, false, false, false},
    {".m16n8k32.f16.f16.f16.f16", F16, F16, 32, true, false, false},
    {"::ordered_metadata.m16n8k32.f32.bf16.bf16.f32", BF16, BF16, 32, false, false, false},
    {"::ordered_metadata.m16n8k32.s32.s8.s8.s32", S8, S8, 32, false, true, false},
    {"::ordered_metadata.m16n8k32.satfinite.s32.u8.s8.s32", U8, S8, 32, false, true, true},
    {".m16n8k64.s32.s8.u8.s32", S8, U8, 64, false, true, false},
    {"::ordered_metadata.m16n8k64.satfinite.s32.u8.u8.s32", U8, U8, 64, false, true, true},
    {"::ordered_metadata.m16n8k64.s32.s4.s4.s32", S4, S4, 64, false, true, false},
    {"::ordered_metadata.m16n8k128.satfinite.s32.u4.s4.s32", U4, S4, 128, false, true, true},
    {"::ordered_metadata.m16n8k8.f32.tf32.tf32.f32", TF32, TF32, 8, false, false, false},
    {".m16n8k16.f32.tf32.tf32.f32", TF32, TF32, 16, false, false, false},
};
static const int NFORMS = sizeof forms / sizeof forms[0];

// The selectors a form takes: 4 over the lanes its metadata needs (K's units over 16).
__host__ __device__ constexpr int selectors(int form) {
    return form < 3 || form == 12 ? 4 : form == 8 || form == 9 || form == 11 ? 1 : 2;
}
__host__ __device__ constexpr bool f32_result(int form) {
    return form == 0 || form == 2 || form == 3 || form == 5 || form >= 12;
}

template <int FORM, int SEL> __global__ void sparse(const LaneIn *in, LaneOut *out) {
    const LaneIn &x = in[threadIdx.x];
    LaneOut o = {};
    float f[4];
    if constexpr (SEL < selectors(FORM)) {
        if constexpr (FORM == 0) SP_F32_2("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
        if constexpr (FORM == 1) SP_F16_2("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
        if constexpr (FORM == 2) SP_F32_2("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
        if constexpr (FORM == 3) SP_F32_4("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32");
        if constexpr (FORM == 4) SP_F16_4("mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16");
        if constexpr (FORM == 5) SP_F32_4("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32");
        if constexpr (FORM == 6) SP_S32_2("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
        if constexpr (FORM == 7) SP_S32_2("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32");
        if constexpr (FORM == 8) SP_S32_4("mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.u8.s32");
        if constexpr (FORM == 9) SP_S32_4("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.u8.u8.s32");
        if constexpr (FORM == 10) SP_S32_2("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
        if constexpr (FORM == 11) SP_S32_4("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.satfinite.s32.u4.s4.s32");
        if constexpr (FORM == 12) SP_F32_2("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
        if constexpr (FORM == 13) SP_F32_4("mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32");
        if constexpr (f32_result(FORM))
            for (int i = 0; i < 4; i++) o.d[i] = __float_as_uint(f[i]);
    }
    out[threadIdx.x] = o;
}

typedef void (*Kernel)(const LaneIn *, LaneOut *);
template <int FORM> static Kernel kernel_of(int sel) {
    return sel == 0 ? sparse<FORM, 0> : sel == 1 ? sparse<FORM, 1> : sel == 2 ? sparse<FORM, 2> : sparse<FORM, 3>;
}
static Kernel sparse_kernel(int form, int sel) {
    static Kernel (*const of[NFORMS])(int) = {kernel_of<0>, kernel_of<1>, kernel_of<2>, kernel_of<3>,
                                               kernel_of<4>, kernel_of<5>, kernel_of<6>, kernel_of<7>,
                                               kernel_of<8>, kernel_of<9>, kernel_of<10>, kernel_of<11>,
                                               kernel_of<12>, kernel_of<13>};
    return of[form](sel);
}

static int bits_of(Kind k) { return k == TF32 ? 32 : k == F16 || k == BF16 ? 16 : k == S8 || k == U8 ? 8 : 4; }

// A small value of the kind, as an int; never 0 where nonzero is asked for.
static int value_of(Lcg &rng, Kind k, bool nonzero) {
    int lo = k == U8 || k == U4 ? 0 : k == S4 ? -8 : k == S8 ? -128 : -3;
    int hi = k == U8 ? 256 : k == U4 ? 16 : k == S4 ? 8 : k == S8 ? 128 : 4;
    for (;;) {
        int v = rng.range(lo, hi);
        if (v || !nonzero) return v;
    }
}

// An element's bits; a tf32's with the 13 bits below its mantissa set.
static uint32_t encode(Kind k, int v) {
    if (k == TF32) return f2u((float)v) | 0x1abc;
    if (k == F16) {
        __half h = __float2half((float)v);
        uint16_t u;
        memcpy(&u, &h, 2);
        return u;
    }
    if (k == BF16) return f2u((float)v) >> 16;
    return (uint32_t)v & ((1u << bits_of(k)) - 1);
}

static uint32_t half_bits(float v) {
    __half h = __float2half(v);
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}

static float half_value(uint32_t bits) {
    __half h;
    uint16_t u = (uint16_t)bits;
    memcpy(&h, &u, 2);
    return __half2float(h);
}

// The accumulator words of lane l (g, t) from a 16 x 8 matrix, and back.
static void pack_acc(const Form &f, const double *m, int l, uint32_t *words) {
    int g = l / 4, t = l % 4;
    for (int i = 0; i < (f.acc_f16 ? 2 : 4); i++) {
        if (f.acc_f16) {
            int row = g + 8 * i;
            words[i] = half_bits((float)m[row * 8 + 2 * t]) | half_bits((float)m[row * 8 + 2 * t + 1]) << 16;
        } else {
            double v = m[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
            words[i] = f.integer ? (uint32_t)(int32_t)v : f2u((float)v);
        }
    }
}

static double unpack_acc(const Form &f, const uint32_t *words, int row, int col) {
    int i = f.acc_f16 ? row / 8 : 2 * (row / 8) + col % 2;
    if (f.acc_f16) return half_value(words[i] >> (16 * (col % 2)));
    return f.integer ? (double)(int32_t)words[i] : (double)u2f(words[i]);
}

static LaneIn host_in[32];
static LaneOut host_out[32];
static LaneIn *dev_in;
static LaneOut *dev_out;

static void launch(Kernel k) {
    CHECK(cudaMemcpy(dev_in, host_in, sizeof host_in, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dev_out, 0xff, sizeof host_out));
    k<<<1, 32>>>(dev_in, dev_out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(host_out, dev_out, sizeof host_out, cudaMemcpyDeviceToHost));
}

static void check_sparse(Checker &c, Lcg &rng, int fi, int sel) {
    const Form &f = forms[fi];
    int K = f.K, bits = bits_of(f.a), p = 32 / bits, chunk = 4 * p, nregs = K / chunk;
    static SparseA A;
    static int B[128][8];
    static double C[16 * 8];
    make_sparse_a(A, rng, K, bits, [&](Lcg &r) { return value_of(r, f.a, true); });
    for (int k = 0; k < K; k++)
        for (int n = 0; n < 8; n++) B[k][n] = value_of(rng, f.b, false);
    for (int i = 0; i < 128; i++)
        C[i] = f.integer ? (i % 5 == 0 ? INT_MAX - rng.range(0, 1000) : i % 5 == 1 ? INT_MIN + rng.range(0, 1000)
                                                                                 : rng.range(-100000, 100000))
                         : rng.range(-20, 21);
    for (int l = 0; l < 32; l++) {
        int g = l / 4, t = l % 4;
        LaneIn &x = host_in[l];
        memset(&x, 0, sizeof x);
        for (int i = 0; i < nregs; i++)
            for (int e = 0; e < p; e++) {
                int row = g + 8 * (i % 2), col = (i / 2) * chunk + t * p + e, k = i * chunk + t * p + e;
                x.a[i] |= encode(f.a, A.given[row][col]) << (e * bits);
                x.b[i] |= encode(f.b, B[k][g]) << (e * bits);
            }
        pack_acc(f, C, l, x.c);
        x.e = sparse_metadata(A, rng, l, sel);
    }
    launch(sparse_kernel(fi, sel));
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 8; n++) {
            long long sum = 0;
            for (int k = 0; k < K; k++) sum += (long long)A.dense[r][k] * B[k][n];
            double want;
            if (!f.integer) want = C[r * 8 + n] + (double)sum;
            else if (f.satfinite) want = (double)std::max<long long>(INT_MIN, std::min<long long>(INT_MAX, (long long)C[r * 8 + n] + sum));
            else want = (double)(int32_t)(uint32_t)((long long)C[r * 8 + n] + sum);
            int l = (r % 8) * 4 + n / 2;
            double got = unpack_acc(f, host_out[l].d, r, n);
            if (got != want)
                c.fail("mma.sp%s selector %d: D[%d][%d] = %.1f, expected %.1f", f.name, sel, r, n, got, want);
        }
}

// m8n8k4 with f16 A and B: lane l (q = l/4 % 4, m = l%4, h = l/16) holds, for the q-th product,
// A[m + 4h][0..3] (.row) or A[4h..4h+3][m] (.col); B[m][4h..4h+3] (.row) or B[0..3][m + 4h]
// (.col); an f16 C or D's row m + 4h; an f32 one's element i at row (l&1) + (i&2) + 4h,
// column (i&4) + (l&2) + (i&1).
static int acc_row(bool f16, int l, int i) { return f16 ? l % 4 + 4 * (l / 16) : (l & 1) + (i & 2) + 4 * (l / 16); }
static int acc_col(bool f16, int l, int i) { return f16 ? i : (i & 4) + (l & 2) + (i & 1); }

// OPERANDS: D of 8 (f32) or 4 (f16) registers, then A's and B's two, then C's.
#define M884_KERNEL(NAME, FORM, OPERANDS, DOUT, CIN, D32)                                  \
    __global__ void NAME(const LaneIn *in, LaneOut *out) {                                  \
        const LaneIn &x = in[threadIdx.x];                                                  \
        LaneOut o = {};                                                                     \
        float f[8];                                                                         \
        asm volatile("mma.sync.aligned.m8n8k4." FORM " " OPERANDS ";" : DOUT : R2(a), R2(b), CIN); \
        if (D32)                                                                            \
            for (int i = 0; i < 8; i++) o.d[i] = __float_as_uint(f[i]);                     \
        out[threadIdx.x] = o;                                                               \
    }
#define D8 "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "
#define D4 "{%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}"
M884_KERNEL(m884_row_col_f32, "row.col.f32.f16.f16.f32", D8 "{%12,%13,%14,%15,%16,%17,%18,%19}", DF8, CF8, true)
M884_KERNEL(m884_col_col_f32, "col.col.f32.f16.f16.f32", D8 "{%12,%13,%14,%15,%16,%17,%18,%19}", DF8, CF8, true)
M884_KERNEL(m884_row_row_f32_f16, "row.row.f32.f16.f16.f16", D8 "{%12,%13,%14,%15}", DF8, R4(c), true)
M884_KERNEL(m884_col_row_f16, "col.row.f16.f16.f16.f16", D4, DR4, R4(c), false)
M884_KERNEL(m884_col_col_f16, "col.col.f16.f16.f16.f16", D4, DR4, R4(c), false)

struct M884 {
    const char *name;
    Kernel kernel;
    bool a_row, b_row, d_f16, c_f16;
};

static void check_m8n8k4(Checker &c, Lcg &rng, const M884 &form) {
    static int A[4][8][4], B[4][4][8];
    static double C[4][8][8];
    for (int q = 0; q < 4; q++) {
        for (int r = 0; r < 8; r++)
            for (int k = 0; k < 4; k++) A[q][r][k] = value_of(rng, F16, false), B[q][k][r] = value_of(rng, F16, false);
        for (int r = 0; r < 8; r++)
            for (int n = 0; n < 8; n++) C[q][r][n] = rng.range(-20, 21);
    }
    for (int l = 0; l < 32; l++) {
        int q = l / 4 % 4, m = l % 4, h = l / 16;
        LaneIn &x = host_in[l];
        memset(&x, 0, sizeof x);
        for (int i = 0; i < 4; i++) {
            int a = form.a_row ? A[q][m + 4 * h][i] : A[q][i + 4 * h][m];
            int b = form.b_row ? B[q][m][i + 4 * h] : B[q][i][m + 4 * h];
            x.a[i / 2] |= encode(F16, a) << (16 * (i % 2));
            x.b[i / 2] |= encode(F16, b) << (16 * (i % 2));
        }
        for (int i = 0; i < 8; i++) {
            double v = C[q][acc_row(form.c_f16, l, i)][acc_col(form.c_f16, l, i)];
            if (form.c_f16) x.c[i / 2] |= half_bits((float)v) << (16 * (i % 2));
            else x.c[i] = f2u((float)v);
        }
    }
    launch(form.kernel);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 8; i++) {
            int q = l / 4 % 4, r = acc_row(form.d_f16, l, i), n = acc_col(form.d_f16, l, i);
            double want = C[q][r][n];
            for (int k = 0; k < 4; k++) want += A[q][r][k] * B[q][k][n];
            uint32_t w = form.d_f16 ? host_out[l].d[i / 2] >> (16 * (i % 2)) : host_out[l].d[i];
            double got = form.d_f16 ? half_value(w) : u2f(w);
            if (got != want)
                c.fail("mma.m8n8k4.%s: product %d D[%d][%d] = %.1f, expected %.1f", form.name, q, r, n, got, want);
        }
}

int main() {
    Checker c;
    Lcg rng(2046);
    CHECK(cudaMalloc(&dev_in, sizeof host_in));
    CHECK(cudaMalloc(&dev_out, sizeof host_out));
    for (int fi = 0; fi < NFORMS; fi++)
        for (int sel = 0; sel < selectors(fi); sel++) check_sparse(c, rng, fi, sel);
    static const M884 m884[] = {
        {"row.col.f32.f16.f16.f32", m884_row_col_f32, true, false, false, false},
        {"col.col.f32.f16.f16.f32", m884_col_col_f32, false, false, false, false},
        {"row.row.f32.f16.f16.f16", m884_row_row_f32_f16, true, true, false, true},
        {"col.row.f16.f16.f16.f16", m884_col_row_f16, false, true, true, true},
        {"col.col.f16.f16.f16.f16", m884_col_col_f16, false, false, true, true},
    };
    for (const M884 &form : m884) check_m8n8k4(c, rng, form);
    CHECK(cudaFree(dev_in));
    CHECK(cudaFree(dev_out));
    return c.finish();
}
