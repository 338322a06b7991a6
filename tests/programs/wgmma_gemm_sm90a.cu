// wgmma.mma_async (inline PTX, sm_90a): D = A B + D for the warpgroup's 64 x 16 tile, with
// A (64 x K) and B (K x 16) in shared memory through matrix descriptors, or A in registers,
// for f16 and bf16 (K 16) into f32 and f16, tf32 (K 8), e4m3 x e5m2 (K 32) and s8 x u8
// (K 32, .satfinite) into s32, and b1 (K 256, .and.popc) into s32; every swizzle mode
// (none, 32B, 64B, 128B), K-major and MN-major (imm-trans-a/b) layouts, a start address
// inside a swizzle row and a swizzle pattern that starts off its boundary (the descriptor's
// base offset), imm-scale-a/b of -1 and scale-d false. The same with a sparse A
// (wgmma.mma_async.sp, twice the K): A is given as the 64 x K/2 matrix of its rows' nonzero
// elements, laid out as a dense A of K/2, and sp-meta says where each lies in its aligned
// four (2:4) or, for tf32, pair (1:2), laid out as mma.sp's metadata of the warp's 16 rows;
// every sparsity selector.
//
// Each block lays A and B out in shared memory as the PTX ISA's canonical layouts put them
// (8-row core matrices of 16 bytes, or rows of the swizzle's width whose 16-byte chunks
// are permuted by the address's bits 7 and up), issues one wgmma between wgmma.fence and
// wgmma.wait_group, and writes D back by the warpgroup's fragment layout (warp w, g = lane
// / 4, t = lane % 4: rows 16w + g and 16w + g + 8, columns 8j + 2t and 8j + 2t + 1). The
// values are small integers or narrow floats whose sums are exact, so D is compared
// bit for bit with A B + D computed on the host. Last, N other than 16: m64n8k16 and
// m64n24k16 of f16 into f32 (the AMD lowering with matrix instructions takes 16 columns at a
// time: half a tile, and a tile and a half), with A K-major and M-major, in a kernel declared
// for 128 threads (__launch_bounds__), where that lowering exchanges the tiles' layouts through
// shared memory, not by shuffles as in the kernel above.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <climits>
#include "test_util.h"

static const int M = 64, N = 16;

// B1_S32's elements are 32 bits of K: a word of single-bit elements, the first the lowest.
enum Form { F16_F32, BF16_F32, F16_F16, TF32_F32, FP8_F32, S8U8_S32, B1_S32 };
static const int element_bytes[] = {2, 2, 2, 4, 1, 1, 4};
static const char *form_name[] = {"f16->f32", "bf16->f32", "f16->f16", "tf32->f32", "e4m3.e5m2->f32", "s8.u8->s32",
                                  "b1.and.popc->s32"};
// The sparsity selector of a sparse form's case; DENSE for a dense one.
static const int DENSE = -1;

// How one operand lies in shared memory: the descriptor's fields (byte values) and where
// the matrix starts in the block's buffer.
struct Layout {
    int swizzle;      // the descriptor's code: 0 none, 1 128B, 2 64B, 3 32B
    unsigned start;   // byte offset of the matrix in the buffer
    unsigned lbo, sbo, base_offset;
};

__host__ __device__ static unsigned swizzle_width(int swizzle) { return swizzle ? 256u >> swizzle : 16u; }

// The byte at which element (mn, k) of a 64 x K (A) or K x 16 (B) operand lies, from the
// matrix's start, before the swizzle: K-major rows of 8 core matrices (none) or of the
// swizzle's width; MN-major the same with the roles of MN and K exchanged, LBO and SBO
// exchanged too when swizzled.
__device__ static unsigned canonical_offset(const Layout &l, bool mn_major, unsigned mn, unsigned k, unsigned bytes) {
    unsigned w = swizzle_width(l.swizzle);
    if (!mn_major) {
        unsigned kb = k * bytes;
        return (mn % 8) * w + (mn / 8) * l.sbo + (kb / w) * l.lbo + kb % w;
    }
    unsigned mb = mn * bytes;
    unsigned mn_step = l.swizzle ? l.lbo : l.sbo, k_step = l.swizzle ? l.sbo : l.lbo;
    return mb % w + (mb / w) * mn_step + (k % 8) * w + (k / 8) * k_step;
}

// The 16-byte chunk of a row is exchanged with chunk (row within the 8-row pattern): the
// shared address's bits 7 and up, less the base offset, xored into bits 4 and up.
__device__ static unsigned swizzled(const Layout &l, unsigned address) {
    unsigned chunks = swizzle_width(l.swizzle) / 16 - 1;
    return address ^ ((((address >> 7) - l.base_offset) & chunks) << 4);
}

__device__ static uint64_t descriptor(const Layout &l, unsigned address) {
    return (uint64_t)((address & 0x3ffff) >> 4) | (uint64_t)(l.lbo >> 4) << 16 | (uint64_t)(l.sbo >> 4) << 32 |
           (uint64_t)l.base_offset << 49 | (uint64_t)l.swizzle << 62;
}

// The element at (r, c) of a row-major matrix of `cols` columns of `bytes` each.
__device__ static uint32_t element(const uint8_t *m, int cols, int r, int c, unsigned bytes) {
    uint32_t v = 0;
    memcpy(&v, m + (r * cols + c) * bytes, bytes);
    return v;
}

// Element (mn, k) of A (row mn, column k) or of B (row k, column mn) written where the
// descriptor's layout puts it.
__device__ static void place(uint8_t *smem, const Layout &l, bool mn_major, const uint8_t *m, int rows, int cols,
                             bool is_b, unsigned bytes) {
    unsigned base = (unsigned)__cvta_generic_to_shared(smem);
    for (int i = threadIdx.x; i < rows * cols; i += blockDim.x) {
        int r = i / cols, c = i % cols;
        unsigned mn = is_b ? c : r, k = is_b ? r : c;
        unsigned at = swizzled(l, base + l.start + canonical_offset(l, mn_major, mn, k, bytes));
        uint32_t v = element(m, cols, r, c, bytes);
        memcpy(smem + (at - base), &v, bytes);
    }
}

#define D8 "{%0, %1, %2, %3, %4, %5, %6, %7}"
#define D4 "{%0, %1, %2, %3}"
#define PRED(n) "{\n.reg .pred p;\nsetp.ne.b32 p, %" #n ", 0;\n"

// The first inputs after D's registers are sp-meta and sp-sel, which a sparse form names after
// B's descriptor (SP_OPS8 with 8 D registers, SP_OPS4 with 4) and a dense one leaves unused.
#define SP_IN "r"(meta), "n"(Sel < 0 ? 0 : Sel)
#define SP_OPS8 ", %8, %9"
#define SP_OPS4 ", %4, %5"
#define OUT8 "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7])
#define AREGS "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3])
// The 16-bit forms into f32 (shape and types as written), with imm-trans; sp is "" or ".sp",
// sp_ops the sparse operands.
#define MMA_16BIT_F32(sp, form, sp_ops)                                                                          \
    if constexpr (!ARegs)                                                                                        \
        asm volatile(PRED(12) "wgmma.mma_async" sp ".sync.aligned." form " " D8 ", %10, %11" sp_ops              \
                     ", p, %13, %14, %15, %16;\n}"                                                                \
                     : OUT8 : SP_IN, "l"(da), "l"(db), "r"(scale_d), "n"(ScaleA), "n"(ScaleB), "n"(TransA), "n"(TransB)); \
    else                                                                                                         \
        asm volatile(PRED(15) "wgmma.mma_async" sp ".sync.aligned." form " " D8 ", {%10, %11, %12, %13}, %14" sp_ops \
                     ", p, %16, %17, %18;\n}"                                                                     \
                     : OUT8 : SP_IN, AREGS, "l"(db), "r"(scale_d), "n"(ScaleA), "n"(ScaleB), "n"(TransB));
// The f16 form into f16: D four registers of pairs.
#define MMA_F16_F16(sp, form, sp_ops)                                                                            \
    if constexpr (!ARegs)                                                                                        \
        asm volatile(PRED(8) "wgmma.mma_async" sp ".sync.aligned." form " " D4 ", %6, %7" sp_ops                 \
                     ", p, %9, %10, %11, %12;\n}"                                                                 \
                     : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                                            \
                     : SP_IN, "l"(da), "l"(db), "r"(scale_d), "n"(ScaleA), "n"(ScaleB), "n"(TransA), "n"(TransB)); \
    else                                                                                                         \
        asm volatile(PRED(11) "wgmma.mma_async" sp ".sync.aligned." form " " D4 ", {%6, %7, %8, %9}, %10" sp_ops  \
                     ", p, %12, %13, %14;\n}"                                                                     \
                     : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                                            \
                     : SP_IN, AREGS, "l"(db), "r"(scale_d), "n"(ScaleA), "n"(ScaleB), "n"(TransB));
// tf32 and the 8-bit floats into f32: imm-scale, no imm-trans.
#define MMA_SCALED_F32(sp, form, sp_ops)                                                                         \
    if constexpr (!ARegs)                                                                                        \
        asm volatile(PRED(12) "wgmma.mma_async" sp ".sync.aligned." form " " D8 ", %10, %11" sp_ops ", p, %13, %14;\n}" \
                     : OUT8 : SP_IN, "l"(da), "l"(db), "r"(scale_d), "n"(ScaleA), "n"(ScaleB));                 \
    else                                                                                                         \
        asm volatile(PRED(15) "wgmma.mma_async" sp ".sync.aligned." form " " D8 ", {%10, %11, %12, %13}, %14" sp_ops \
                     ", p, %16, %17;\n}"                                                                          \
                     : OUT8 : SP_IN, AREGS, "l"(db), "r"(scale_d), "n"(ScaleA), "n"(ScaleB));
// The integer forms: no imm-scale.
#define MMA_INTEGER(sp, form, sp_ops)                                                                            \
    if constexpr (!ARegs)                                                                                        \
        asm volatile(PRED(12) "wgmma.mma_async" sp ".sync.aligned." form " " D8 ", %10, %11" sp_ops ", p;\n}"     \
                     : OUT8 : SP_IN, "l"(da), "l"(db), "r"(scale_d));                                           \
    else                                                                                                         \
        asm volatile(PRED(15) "wgmma.mma_async" sp ".sync.aligned." form " " D8 ", {%10, %11, %12, %13}, %14" sp_ops \
                     ", p;\n}"                                                                                    \
                     : OUT8 : SP_IN, AREGS, "l"(db), "r"(scale_d));
#define DENSE_OR_SPARSE(MMA, dense_form, sparse_form, sp_ops) \
    if constexpr (Sel == DENSE) { MMA("", dense_form, "") } else { MMA(".sp", sparse_form, sp_ops) }

// One wgmma of the form on accumulators d (f32 or s32 bits, or f16 pairs in d[0..3]), A from
// descriptor da or, with ARegs, registers a; with a sparsity selector Sel, its sparse form
// (twice the K) with metadata meta.
template <Form F, bool ARegs, int ScaleA, int ScaleB, int TransA, int TransB, int Sel>
__device__ static void wgmma(uint32_t *d, const uint32_t *a, uint64_t da, uint64_t db, int scale_d, uint32_t meta) {
    if constexpr (F == F16_F32) {
        DENSE_OR_SPARSE(MMA_16BIT_F32, "m64n16k16.f32.f16.f16", "m64n16k32.f32.f16.f16", SP_OPS8)
    } else if constexpr (F == BF16_F32) {
        DENSE_OR_SPARSE(MMA_16BIT_F32, "m64n16k16.f32.bf16.bf16", "m64n16k32.f32.bf16.bf16", SP_OPS8)
    } else if constexpr (F == F16_F16) {
        DENSE_OR_SPARSE(MMA_F16_F16, "m64n16k16.f16.f16.f16", "m64n16k32.f16.f16.f16", SP_OPS4)
    } else if constexpr (F == TF32_F32) {
        DENSE_OR_SPARSE(MMA_SCALED_F32, "m64n16k8.f32.tf32.tf32", "m64n16k16.f32.tf32.tf32", SP_OPS8)
    } else if constexpr (F == FP8_F32) {
        DENSE_OR_SPARSE(MMA_SCALED_F32, "m64n16k32.f32.e4m3.e5m2", "m64n16k64.f32.e4m3.e5m2", SP_OPS8)
    } else if constexpr (F == S8U8_S32) {
        DENSE_OR_SPARSE(MMA_INTEGER, "m64n16k32.s32.s8.u8.satfinite", "m64n16k64.s32.s8.u8.satfinite", SP_OPS8)
    } else {
        static_assert(Sel == DENSE, "b1 has no sparse form");
        MMA_INTEGER("", "m64n16k256.s32.b1.b1.and.popc", "")
    }
}

// A is 64 x K (a sparse A's 64 x K/2 given elements) and B K x 16, row-major; C and D 64 x 16
// of 4 bytes (2 for f16 accumulators); meta the sparse form's sp-meta of each thread.
template <Form F, bool ARegs, int ScaleA, int ScaleB, int TransA, int TransB, int Sel>
__global__ void gemm(const uint8_t *A, const uint8_t *B, const uint8_t *C, uint8_t *D, Layout la, Layout lb,
                     int scale_d, const uint32_t *meta) {
    // one dynamic buffer, as CUTLASS's kernels have: A's 12 KiB, then B's 8 KiB
    extern __shared__ __align__(1024) uint8_t smem[];
    uint8_t *smem_a = smem, *smem_b = smem + 12288;
    const unsigned bytes = element_bytes[F], k_size = 32 / bytes, acc_bytes = F == F16_F16 ? 2 : 4;
    int w = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;
    if (!ARegs)
        place(smem_a, la, TransA, A, M, k_size, false, bytes);
    place(smem_b, lb, TransB, B, Sel == DENSE ? k_size : 2 * k_size, N, true, bytes);
    // A's fragment: register j holds row 16w + g + 8(j % 2), columns (j / 2) K/2 + t p on (p a register's).
    uint32_t a[4], d[8] = {0};
    unsigned p = 4 / bytes;
    for (int j = 0; j < 4; j++) {
        a[j] = 0;
        for (unsigned e = 0; e < p; e++)
            a[j] |= element(A, k_size, 16 * w + g + 8 * (j % 2), (j / 2) * (k_size / 2) + t * p + e, bytes)
                    << (8 * bytes * e);
    }
    // D's fragment: element i at row 16w + g + 8((i / 2) % 2), column 8(i / 4) + 2t + i % 2.
    for (int i = 0; i < N / 2; i++) {
        int r = 16 * w + g + 8 * ((i / 2) % 2), c = 8 * (i / 4) + 2 * t + i % 2;
        uint32_t v = element(C, N, r, c, acc_bytes);
        d[acc_bytes == 2 ? i / 2 : i] |= v << (acc_bytes == 2 ? 16 * (i % 2) : 0);
    }
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;");
    asm volatile("wgmma.fence.sync.aligned;");
    wgmma<F, ARegs, ScaleA, ScaleB, TransA, TransB, Sel>(d, a,
        descriptor(la, (unsigned)__cvta_generic_to_shared(smem_a) + la.start),
        descriptor(lb, (unsigned)__cvta_generic_to_shared(smem_b) + lb.start), scale_d, meta[threadIdx.x]);
    asm volatile("wgmma.commit_group.sync.aligned;");
    asm volatile("wgmma.wait_group.sync.aligned 0;");
    for (int i = 0; i < N / 2; i++) {
        int r = 16 * w + g + 8 * ((i / 2) % 2), c = 8 * (i / 4) + 2 * t + i % 2;
        uint32_t v = acc_bytes == 2 ? d[i / 2] >> (16 * (i % 2)) : d[i];
        memcpy(D + (r * N + c) * acc_bytes, &v, acc_bytes);
    }
}

// ---- host: inputs and the reference ----

static uint16_t half_bits(float f) {  // exact small integers only
    uint16_t s = f < 0 ? 0x8000 : 0;
    f = fabsf(f);
    if (f == 0) return s;
    int e;
    float m = frexpf(f, &e);  // f = m 2^e, m in [0.5, 1)
    return s | (uint16_t)((e + 14) << 10) | (uint16_t)((m * 2 - 1) * 1024);
}
static float fp8_value(uint8_t b, bool e5m2) {
    int mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    int e = (b & 0x7f) >> mbits, m = b & ((1 << mbits) - 1);
    float v = e ? ldexpf((1 << mbits) + m, e - bias - mbits) : ldexpf(m, 1 - bias - mbits);
    return b & 0x80 ? -v : v;
}

// The element's value as the multiplication takes it.
static double value_of(Form f, const uint8_t *m, int i, bool second) {
    switch (f) {
    case F16_F32: case F16_F16: { uint16_t h; memcpy(&h, m + 2 * i, 2); return half_value(h); }
    case BF16_F32: { uint16_t h; memcpy(&h, m + 2 * i, 2); return bf16_value(h); }
    case TF32_F32: { uint32_t u; memcpy(&u, m + 4 * i, 4); return u2f(u); }
    case FP8_F32: return fp8_value(m[i], second);
    default: return second ? (double)m[i] : (double)(int8_t)m[i];
    }
}

// Random operands: small integers, or 8-bit floats of two binades, so every sum is exact.
static void fill(Form f, uint8_t *m, int count, bool second, Lcg &rng) {
    for (int i = 0; i < count; i++) {
        int v = rng.range(-4, 5);
        switch (f) {
        case F16_F32: case F16_F16: { uint16_t h = half_bits((float)v); memcpy(m + 2 * i, &h, 2); break; }
        case BF16_F32: { uint16_t h = (uint16_t)(f2u((float)v) >> 16); memcpy(m + 2 * i, &h, 2); break; }
        case TF32_F32: { uint32_t u = f2u((float)(v * 3)); memcpy(m + 4 * i, &u, 4); break; }
        case FP8_F32: {
            // 1, 1.5, 2 or 3 (and a few zeros): the H200 keeps sums of 8-bit floats' products
            // to about 13 significant bits, cut toward zero (with 2^-2 to 2^2 and every
            // mantissa its D was 85.796875 for 85.8027344), so sums here keep to 11 bits
            int mbits = second ? 2 : 3, bias = second ? 15 : 7;
            uint8_t e = (uint8_t)(bias + rng.range(0, 2)), man = (uint8_t)(rng.range(0, 2) << (mbits - 1));
            m[i] = v == 0 ? 0 : (uint8_t)((v < 0 ? 0x80 : 0) | e << mbits | man);
            break;
        }
        case B1_S32: { uint32_t u = rng.next(); memcpy(m + 4 * i, &u, 4); break; }
        default: m[i] = (uint8_t)rng.next(); break;
        }
    }
}

// positions and meta: a sparse A's metadata (sparse_metadata).
struct Operands {
    uint8_t A[M * 32 * 4], B[32 * N * 4], C[M * N * 4];
    uint8_t positions[M * 32];
    uint32_t meta[128];
};

// A sparse A's metadata: the position of each of its rows' given elements in its aligned four
// (two given a four, the first the lower) or, for tf32, pair (one given a pair), and each
// thread's sp-meta, laid out as the PTX ISA draws it (mma.sp's layout of the warp's 16 rows):
// a four's field is 4 bits, the first given element's position in the low 2 (a tf32 pair's
// field 0b0100 for the first, 0b1110 for the second); for 16-bit elements and tf32, lane
// 4g + 2 sel + i (i 0 or 1) holds fours 4i to 4i + 3 of the warp's rows g (bits 0-15) and
// g + 8 (16-31); for 8-bit ones (sel 0), lane 4g + i fours 8(i / 2) to 8(i / 2) + 7 of row
// g + 8(i % 2). The lanes the selector does not pick hold random fields, not to be read.
static void sparse_metadata(Form f, int sel, Operands &o, Lcg &rng) {
    static const uint8_t pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    const int given = 32 / element_bytes[f], lanes = element_bytes[f] == 1 ? 4 : 2;
    const bool tf32 = f == TF32_F32;
    for (int r = 0; r < M; r++)
        for (int q = 0; q < given; q += tf32 ? 1 : 2) {
            uint8_t *p = o.positions + r * given + q;
            if (tf32) {
                p[0] = (uint8_t)rng.range(0, 2);
            } else {
                const uint8_t *pair = pairs[rng.range(0, 6)];
                p[0] = pair[0], p[1] = pair[1];
            }
        }
    auto field = [&](int row, int four) -> uint32_t {
        const uint8_t *p = o.positions + row * given;
        return tf32 ? (p[four] ? 0xe : 0x4) : (uint32_t)(p[2 * four] | p[2 * four + 1] << 2);
    };
    for (int thread = 0; thread < 128; thread++) {
        int w = thread / 32, g = thread % 32 / 4, i = thread % 4 - sel * lanes;
        uint32_t m = 0;
        if (i < 0 || i >= lanes)
            m = rng.next();
        else if (lanes == 2)
            for (int c = 0; c < 4; c++)
                m |= field(16 * w + g, 4 * i + c) << (4 * c) | field(16 * w + g + 8, 4 * i + c) << (16 + 4 * c);
        else
            for (int c = 0; c < 8; c++)
                m |= field(16 * w + g + 8 * (i % 2), 8 * (i / 2) + c) << (4 * c);
        o.meta[thread] = m;
    }
}

static Checker check;

// The row of B that given element kc of a sparse A's row r multiplies (B's row kc for a dense A).
static int b_row(Form f, const Operands &o, int sel, int r, int kc) {
    int given = 32 / element_bytes[f], position = o.positions[r * given + kc];
    return sel == DENSE ? kc : f == TF32_F32 ? 2 * kc + position : 4 * (kc / 2) + position;
}

// D = scale_a A scale_b B (+ C with scale_d), exactly, as the form stores it.
static void expect(Form f, const Operands &o, const uint8_t *D, int scale_a, int scale_b, int scale_d, int sel,
                   const char *what) {
    int k_size = 32 / element_bytes[f];
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            double sum = 0;
            for (int k = 0; k < k_size; k++) {
                if (f == B1_S32) {
                    uint32_t a, b;
                    memcpy(&a, o.A + 4 * (r * k_size + k), 4);
                    memcpy(&b, o.B + 4 * (k * N + c), 4);
                    sum += __builtin_popcount(a & b);
                    continue;
                }
                sum += value_of(f, o.A, r * k_size + k, false) * value_of(f, o.B, b_row(f, o, sel, r, k) * N + c, true);
            }
            sum *= scale_a * scale_b;
            int i = r * N + c;
            double got, want;
            if (f == B1_S32) {
                int32_t d, before;
                memcpy(&d, D + 4 * i, 4);
                memcpy(&before, o.C + 4 * i, 4);
                want = scale_d ? (int32_t)((uint32_t)before + (uint32_t)sum) : sum;  // wraps
                got = d;
            } else if (f == S8U8_S32) {
                int32_t d, before;
                memcpy(&d, D + 4 * i, 4);
                memcpy(&before, o.C + 4 * i, 4);
                want = sum + (scale_d ? before : 0);
                want = want > INT_MAX ? INT_MAX : want < INT_MIN ? INT_MIN : want;
                got = d;
            } else if (f == F16_F16) {
                uint16_t d, before;
                memcpy(&d, D + 2 * i, 2);
                memcpy(&before, o.C + 2 * i, 2);
                want = sum + (scale_d ? half_value(before) : 0);
                got = half_value(d);
            } else {
                uint32_t d, before;
                memcpy(&d, D + 4 * i, 4);
                memcpy(&before, o.C + 4 * i, 4);
                want = sum + (scale_d ? u2f(before) : 0);
                got = u2f(d);
            }
            if (got != want) {
                check.fail("%s %s: D[%d][%d] is %.9g, not %.9g", form_name[f], what, r, c, got, want);
                return;
            }
        }
}

// The layout of an operand of `rows` MN lines (64 for A, 16 for B) and k_bytes of K (32, 64
// for a sparse A's B): K-major rows of the swizzle's width (none: core matrices, K's 16-byte
// chunks LBO apart; swizzled, K wider than a row in rows of the width LBO apart) or MN-major
// atoms; the swizzled K-major matrix starts in its rows' last k_bytes, and with `off_pattern`
// (128B) its swizzle pattern three 128-byte rows after a 1024-byte boundary.
static Layout layout_for(int swizzle, bool mn_major, int rows, unsigned bytes, unsigned k_bytes, bool off_pattern) {
    Layout l = {swizzle, 0, 0, 0, 0};
    unsigned w = swizzle_width(swizzle), k_size = k_bytes / bytes;
    if (!mn_major) {
        l.sbo = 8 * w;
        l.lbo = !swizzle ? rows * 16 : k_bytes > w ? rows * w : 16;  // ignored where K fits in a row
        l.start = swizzle && k_bytes < w ? w - k_bytes : 0;
    } else {
        unsigned atoms = rows * bytes / w ? rows * bytes / w : 1;  // along MN, k rows of 8 each
        if (swizzle) { l.sbo = 8 * w; l.lbo = 8 * w * (k_size / 8); }
        else { l.sbo = 128; l.lbo = 128 * atoms; }
    }
    if (off_pattern) {
        l.start += 3 * 128;
        l.base_offset = 3;
    }
    return l;
}

static uint8_t *dev(const void *host, size_t size) {
    uint8_t *p;
    CHECK(cudaMalloc(&p, size));
    if (host) CHECK(cudaMemcpy(p, host, size, cudaMemcpyHostToDevice));
    return p;
}

static Lcg rng(2718);

// One case: a dense form, or with a sparsity selector Sel its sparse form.
template <Form F, bool ARegs, int ScaleA = 1, int ScaleB = 1, int TransA = 0, int TransB = 0, int Sel = DENSE>
static void run(int swizzle_a, int swizzle_b, int scale_d = 1, bool off_pattern = false) {
    static Operands o;
    unsigned bytes = element_bytes[F], k_size = 32 / bytes, b_rows = Sel == DENSE ? k_size : 2 * k_size;
    fill(F, o.A, M * k_size, false, rng);
    fill(F, o.B, b_rows * N, true, rng);
    if (Sel != DENSE) sparse_metadata(F, Sel, o, rng);
    for (int i = 0; i < M * N; i++) {
        int32_t c = rng.range(-20, 21);
        if (F == S8U8_S32 || F == B1_S32) {
            if (i % 7 == 0) c = INT_MAX - rng.range(0, F == B1_S32 ? 100 : 300000);  // saturates or wraps
            memcpy(o.C + 4 * i, &c, 4);
        } else if (F == F16_F16) {
            uint16_t h = half_bits((float)c);
            memcpy(o.C + 2 * i, &h, 2);
        } else {
            uint32_t u = f2u((float)c);
            memcpy(o.C + 4 * i, &u, 4);
        }
    }
    Layout la = layout_for(swizzle_a, TransA, M, bytes, 32, off_pattern);
    Layout lb = layout_for(swizzle_b, TransB, N, bytes, b_rows * bytes, false);
    uint8_t *A = dev(o.A, sizeof o.A), *B = dev(o.B, sizeof o.B), *C = dev(o.C, sizeof o.C), *D = dev(nullptr, sizeof o.C);
    uint32_t *meta = (uint32_t *)dev(o.meta, sizeof o.meta);
    gemm<F, ARegs, ScaleA, ScaleB, TransA, TransB, Sel><<<1, 128, 20480>>>(A, B, C, D, la, lb, scale_d, meta);
    CHECK_LAUNCH();
    static uint8_t got[M * N * 4];
    CHECK(cudaMemcpy(got, D, sizeof got, cudaMemcpyDeviceToHost));
    char what[160], sparse[32] = "";
    if (Sel != DENSE) snprintf(sparse, sizeof sparse, ", sparse, selector %d", Sel);
    snprintf(what, sizeof what, "A %s swizzle %d%s, B swizzle %d%s, scale %d %d %d%s%s", ARegs ? "registers" : "shared",
             swizzle_a, TransA ? " M-major" : "", swizzle_b, TransB ? " N-major" : "", ScaleA, ScaleB, scale_d,
             off_pattern ? ", base offset 3" : "", sparse);
    expect(F, o, got, ScaleA, ScaleB, scale_d, Sel, what);
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(D); cudaFree(meta);
}

// ---- N 8 and 24: f16 into f32, A (K-major, or M-major with TransA) and B K-major with the
// given swizzles; D's columns 8j to 8j + 7 in registers 4j to 4j + 3, as for N 16.
template <int NW, int TransA>
__global__ void __launch_bounds__(128) gemm_width(const uint8_t *A, const uint8_t *B, const float *C, float *D, Layout la, Layout lb) {
    extern __shared__ __align__(1024) uint8_t smem[];
    uint8_t *smem_a = smem, *smem_b = smem + 12288;
    int w = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;
    place(smem_a, la, TransA, A, M, 16, false, 2);
    place(smem_b, lb, false, B, 16, NW, true, 2);
    float d[NW / 2];
    for (int i = 0; i < NW / 2; i++) d[i] = C[(16 * w + g + 8 * ((i / 2) % 2)) * NW + 8 * (i / 4) + 2 * t + i % 2];
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;");
    asm volatile("wgmma.fence.sync.aligned;");
    uint64_t da = descriptor(la, (unsigned)__cvta_generic_to_shared(smem_a) + la.start);
    uint64_t db = descriptor(lb, (unsigned)__cvta_generic_to_shared(smem_b) + lb.start);
    if constexpr (NW == 8)
        asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, %6, 0;"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(db), "n"(TransA));
    else
        asm volatile("wgmma.mma_async.sync.aligned.m64n24k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11}, "
                     "%12, %13, 1, 1, 1, %14, 0;"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11])
                     : "l"(da), "l"(db), "n"(TransA));
    asm volatile("wgmma.commit_group.sync.aligned;");
    asm volatile("wgmma.wait_group.sync.aligned 0;");
    for (int i = 0; i < NW / 2; i++) D[(16 * w + g + 8 * ((i / 2) % 2)) * NW + 8 * (i / 4) + 2 * t + i % 2] = d[i];
}

template <int NW, int TransA>
static void run_width(int swizzle_a, int swizzle_b) {
    static uint8_t a[M * 16 * 2], b[16 * NW * 2];
    static float c[M * NW], got[M * NW];
    fill(F16_F32, a, M * 16, false, rng);
    fill(F16_F32, b, 16 * NW, true, rng);
    for (auto &v : c) v = (float)rng.range(-20, 21);
    Layout la = layout_for(swizzle_a, TransA, M, 2, 32, false), lb = layout_for(swizzle_b, false, NW, 2, 32, false);
    uint8_t *A = dev(a, sizeof a), *B = dev(b, sizeof b), *C = dev(c, sizeof c), *D = dev(nullptr, sizeof c);
    gemm_width<NW, TransA><<<1, 128, 20480>>>(A, B, (const float *)C, (float *)D, la, lb);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, D, sizeof got, cudaMemcpyDeviceToHost));
    for (int r = 0; r < M; r++)
        for (int n = 0; n < NW; n++) {
            double want = c[r * NW + n];
            for (int k = 0; k < 16; k++) want += value_of(F16_F32, a, r * 16 + k, false) * value_of(F16_F32, b, k * NW + n, true);
            if (got[r * NW + n] != want) {
                check.fail("m64n%dk16 f16->f32, A swizzle %d%s, B swizzle %d: D[%d][%d] is %.9g, not %.9g", NW, swizzle_a,
                           TransA ? " M-major" : "", swizzle_b, r, n, got[r * NW + n], want);
                r = M;
                break;
            }
        }
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(D);
}

int main() {
    for (int sa = 0; sa < 4; sa++)
        for (int sb = 0; sb < 4; sb++) {
            run<F16_F32, false, 1, 1, 0, 0>(sa, sb);
            run<F16_F32, false, 1, 1, 1, 1>(sa, sb);
        }
    for (int s = 0; s < 4; s++) {
        int s2 = (s + 1) % 4;
        run<F16_F32, false, 1, 1, 1, 0>(s, s2);
        run<F16_F32, false, 1, 1, 0, 1>(s, s2);
        run<F16_F32, true, 1, 1, 0, 0>(0, s);
        run<F16_F32, true, 1, 1, 0, 1>(0, s);
        run<BF16_F32, false, 1, 1, 1, 0>(s, s2);
        run<BF16_F32, true, 1, 1, 0, 1>(0, s);
        run<F16_F16, false, 1, 1, 0, 1>(s, s2);
        run<F16_F16, true, 1, 1, 0, 0>(0, s);
        run<TF32_F32, false>(s, s2);
        run<TF32_F32, true>(0, s);
        run<FP8_F32, false>(s, s2);
        run<FP8_F32, true>(0, s);
        run<S8U8_S32, false>(s, s2);
        run<S8U8_S32, true>(0, s);
    }
    run<F16_F32, false, -1, 1, 0, 0>(1, 2);
    run<F16_F32, true, 1, -1, 0, 0>(0, 3, 0);
    run<TF32_F32, false, -1, -1>(2, 0, 0);
    run<S8U8_S32, false>(3, 1, 0);
    run<F16_F32, false, 1, 1, 0, 0>(1, 1, 1, true);
    run<F16_F32, false, 1, 1, 1, 0>(1, 0, 1, true);
    // b1 (.and.popc): K-major only; D + the counts wraps
    for (int s = 0; s < 4; s++) {
        run<B1_S32, false>(s, (s + 1) % 4);
        run<B1_S32, true>(0, s);
    }
    run<B1_S32, false>(1, 2, 0);
    // sparse A: every form, both selectors where there are two, every swizzle of A and B
    for (int s = 0; s < 4; s++) {
        int s2 = (s + 1) % 4;
        run<F16_F32, false, 1, 1, 0, 0, 0>(s, s2);
        run<F16_F32, false, 1, 1, 1, 1, 1>(s, s2);
        run<F16_F32, false, 1, 1, 0, 1, 0>(s2, s);
        run<F16_F32, true, 1, 1, 0, 0, 1>(0, s);
        run<F16_F32, true, 1, 1, 0, 1, 0>(0, s);
        run<BF16_F32, false, 1, 1, 1, 0, 1>(s, s2);
        run<BF16_F32, true, 1, 1, 0, 1, 0>(0, s);
        run<F16_F16, false, 1, 1, 0, 1, 1>(s, s2);
        run<F16_F16, true, 1, 1, 0, 0, 0>(0, s);
        run<TF32_F32, false, 1, 1, 0, 0, 0>(s, s2);
        run<TF32_F32, true, 1, 1, 0, 0, 1>(0, s);
        run<FP8_F32, false, 1, 1, 0, 0, 0>(s, s2);
        run<FP8_F32, true, 1, 1, 0, 0, 0>(0, s);
        run<S8U8_S32, false, 1, 1, 0, 0, 0>(s, s2);
        run<S8U8_S32, true, 1, 1, 0, 0, 0>(0, s);
    }
    run<F16_F32, false, -1, 1, 0, 0, 1>(1, 2);
    run<TF32_F32, true, 1, -1, 0, 0, 0>(0, 3, 0);
    run<FP8_F32, false, -1, -1, 0, 0, 0>(2, 1, 0);
    run<S8U8_S32, false, 1, 1, 0, 0, 0>(3, 1, 0);
    run<F16_F32, false, 1, 1, 0, 0, 1>(1, 1, 1, true);
    for (int s = 0; s < 4; s++) {
        run_width<8, 0>(s, (s + 1) % 4);
        run_width<24, 0>(s, (s + 2) % 4);
        run_width<24, 1>((s + 3) % 4, s);
    }
    return check.finish();
}
