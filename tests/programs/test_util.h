// Shared helpers for the self-checking programs in tests/programs/.
// Every program prints exactly one final line, "PASS" or "FAIL: <what>",
// and exits 0 or 1. Inputs come from a fixed-seed LCG so runs are repeatable
// on every target (NVIDIA GPU, converted AMD code, the host emulation).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cfloat>
#include <cfenv>
#include <vector>
#include <cuda.h>

// Any CUDA API failure ends the program with a FAIL line naming the call.
#define CHECK(call)                                                           \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            printf("FAIL: %s:%d: %s returned %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(err_));                                 \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

// The same for a driver API call (the programs that link -lcuda).
#define CU(call)                                                                    \
    do {                                                                            \
        CUresult r_ = (call);                                                       \
        if (r_ != CUDA_SUCCESS) {                                                   \
            const char *n_ = "?";                                                   \
            cuGetErrorName(r_, &n_);                                                \
            printf("FAIL: %s:%d: %s returned %s\n", __FILE__, __LINE__, #call, n_); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

// Checks the launch itself and then waits for the kernel to finish.
#define CHECK_LAUNCH()                        \
    do {                                      \
        CHECK(cudaGetLastError());            \
        CHECK(cudaDeviceSynchronize());       \
    } while (0)

// Resource descriptions of a CUDA array and of a mipmapped array, and a surface object over
// an array: what the texture and surface programs build their objects from.
inline cudaResourceDesc array_resource(cudaArray_t a) {
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    return rd;
}
inline cudaResourceDesc mipmap_resource(cudaMipmappedArray_t m) {
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = m;
    return rd;
}
inline cudaSurfaceObject_t make_surface(cudaArray_t a) {
    cudaResourceDesc rd = array_resource(a);
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &rd));
    return s;
}

// Numerical Recipes LCG: tiny, deterministic, identical on every platform.
struct Lcg {
    uint32_t state;
    explicit Lcg(uint32_t seed) : state(seed) {}
    uint32_t next() { state = state * 1664525u + 1013904223u; return state; }
    uint64_t next64() { uint64_t hi = next(); return (hi << 32) | next(); }
    // Uniform in [lo, hi).
    float uniform(float lo, float hi) { return lo + (hi - lo) * (float)((next() >> 8) * (1.0 / 16777216.0)); }
    double uniformd(double lo, double hi) { return lo + (hi - lo) * ((next64() >> 11) * (1.0 / 9007199254740992.0)); }
    int range(int lo, int hi) { return lo + (int)(next() % (uint32_t)(hi - lo)); } // [lo, hi)
};

// Counts mismatches and remembers the first one for the FAIL line.
struct Checker {
    int failures = 0;
    char first[512] = {0};
    void fail(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    bool expect(bool ok, const char *what) {
        if (!ok) fail("%s", what);
        return ok;
    }
    // Prints the single final line and returns the exit status for main().
    int finish() {
        if (failures == 0) { printf("PASS\n"); return 0; }
        printf("FAIL: %s (%d mismatches)\n", first, failures);
        return 1;
    }
};
#include <cstdarg>
// With PROGRAM_VERBOSE=1 in the environment every mismatch is also printed
// to stderr (stdout keeps its single final line).
inline void Checker::fail(const char *fmt, ...) {
    static const bool verbose = getenv("PROGRAM_VERBOSE") && atoi(getenv("PROGRAM_VERBOSE")) > 0;
    if (verbose) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "mismatch: ");
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\n");
        va_end(ap);
    }
    if (failures++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(first, sizeof first, fmt, ap);
        va_end(ap);
    }
}

// How many of got differ from want by more than tolerance relative to the larger of 1 and
// |want| (a NaN always does), and the first that does.
inline size_t relative_mismatches(const std::vector<double> &got, const std::vector<double> &want,
                                  double tolerance, size_t *first)
{
    size_t wrong = 0;
    for (size_t i = 0; i < want.size(); i++)
        if (!(fabs(got[i] - want[i]) <= tolerance * fmax(1.0, fabs(want[i]))) && !wrong++)
            *first = i;
    return wrong;
}

// Bit views of floating-point values, for exact comparisons.
inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
inline uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
inline double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

// Error of a float result in units in the last place of the exact value
// `ref` (given in higher precision), the measure CUDA's math documentation
// uses for its error bounds.
inline double ulp_error_f(float got, long double ref) {
    if (std::isnan((double)ref)) return std::isnan(got) ? 0.0 : 1e30;
    if (std::isinf((double)ref)) return (got == (float)ref) ? 0.0 : 1e30;
    float r = (float)ref;
    int e;
    frexpl(ref == 0 ? (long double)FLT_MIN : fabsl(ref), &e);
    // ulp of a float in binade [2^(e-1), 2^e): 2^(e-24), but not below the
    // subnormal spacing 2^-149.
    int ue = e - 24 < -149 ? -149 : e - 24;
    (void)r;
    return (double)(fabsl((long double)got - ref) / ldexpl(1.0L, ue));
}
inline double ulp_error_d(double got, long double ref) {
    if (std::isnan((double)ref)) return std::isnan(got) ? 0.0 : 1e300;
    if (std::isinf((double)ref)) return (got == (double)ref) ? 0.0 : 1e300;
    int e;
    frexpl(ref == 0 ? (long double)DBL_MIN : fabsl(ref), &e);
    int ue = e - 53 < -1074 ? -1074 : e - 53;
    return (double)(fabsl((long double)got - ref) / ldexpl(1.0L, ue));
}

// Rounding modes for the references below.
enum RoundMode { RM_RN, RM_RZ, RM_RU, RM_RD };

// Rounds x to a binary floating-point format with p significand bits,
// minimum normal exponent emin and largest finite value maxv, in the given
// mode (IEEE semantics including subnormals and overflow). Exact for any
// double input: the significand is scaled by a power of two and split into
// integer and fraction, both exactly representable.
inline double round_to_format(double x, int p, int emin, double maxv, int mode) {
    if (std::isnan(x) || x == 0 || std::isinf(x)) return x;
    double ax = fabs(x);
    int e = ilogb(ax);
    if (e < emin) e = emin;  // subnormal range: fixed spacing
    double ulp = ldexp(1.0, e - (p - 1));
    double q = ax / ulp, fl = floor(q), frac = q - fl;
    bool neg = x < 0;
    double r = fl;
    switch (mode) {
    case RM_RN: if (frac > 0.5 || (frac == 0.5 && fmod(fl, 2) == 1)) r = fl + 1; break;
    case RM_RZ: break;
    case RM_RU: if (!neg && frac > 0) r = fl + 1; break;
    case RM_RD: if (neg && frac > 0) r = fl + 1; break;
    }
    double v = r * ulp;
    if (v > maxv) {
        bool to_inf = mode == RM_RN || (mode == RM_RU && !neg) || (mode == RM_RD && neg);
        v = to_inf ? INFINITY : maxv;
    }
    return neg ? -v : v;
}
inline double round_half(double x, int mode = RM_RN) { return round_to_format(x, 11, -14, 65504.0, mode); }
inline double round_bf16(double x, int mode = RM_RN) { return round_to_format(x, 8, -126, 3.3895313892515355e38, mode); }
// Values of IEEE half and bfloat16 bit patterns.
inline double half_value(unsigned short h) {
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}
inline double bf16_value(unsigned short b) { return (double)u2f((unsigned)b << 16); }
// Same value including the sign of zero; any NaN equals any NaN.
inline bool same_value(double got, double want) {
    if (std::isnan(want)) return std::isnan(got);
    return got == want && std::signbit(got) == std::signbit(want);
}

// An f64 mma under each rounding: D = A B + C for A m x k (row-major; m 8 or 16, k up to 16),
// B k x 8 (element (i, n) at b[i * b_row + n * b_col]) and C m x 8, each of the k steps a fused
// multiply-add rounded by the mode, in k order, as the C library's fma computes it under
// fesetround. kernels[m] computes it on the device for .rn (none: not checked), .rz, .rm and
// .rp; thirds, sevenths and ninths, so that every step rounds.
typedef void (*MmaF64Kernel)(const double *, const double *, const double *, double *);
inline void check_mma_f64_rounding(Checker &c, const char *what, const MmaF64Kernel kernels[4], int m, int k,
                                   int b_row, int b_col) {
    static const struct { int mode; const char *name; } modes[4] = {
        {FE_TONEAREST, "rn"}, {FE_TOWARDZERO, "rz"}, {FE_DOWNWARD, "rm"}, {FE_UPWARD, "rp"}};
    double (*volatile fused)(double, double, double) = fma;  // a call, under the mode
    Lcg rng(11);
    double a[16 * 16], b[16 * 8], cm[16 * 8], d[16 * 8], want[16 * 8], *dA, *dB, *dC, *dD;
    for (int i = 0; i < 16 * 16; i++) a[i] = rng.range(-1000, 1001) / 3.0;
    for (int i = 0; i < 16 * 8; i++) b[i] = rng.range(-1000, 1001) / 7.0;
    for (int i = 0; i < 16 * 8; i++) cm[i] = rng.range(-100000, 100001) / 9.0;
    CHECK(cudaMalloc(&dA, sizeof a));
    CHECK(cudaMalloc(&dB, sizeof b));
    CHECK(cudaMalloc(&dC, sizeof cm));
    CHECK(cudaMalloc(&dD, sizeof d));
    CHECK(cudaMemcpy(dA, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dC, cm, sizeof cm, cudaMemcpyHostToDevice));
    for (int mode = 0; mode < 4; mode++) {
        if (!kernels[mode]) continue;
        fesetround(modes[mode].mode);
        for (int r = 0; r < m; r++)
            for (int n = 0; n < 8; n++) {
                double sum = cm[r * 8 + n];
                for (int i = 0; i < k; i++) sum = fused(a[r * k + i], b[i * b_row + n * b_col], sum);
                want[r * 8 + n] = sum;
            }
        fesetround(FE_TONEAREST);
        kernels[mode]<<<1, 32>>>(dA, dB, dC, dD);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(d, dD, sizeof d, cudaMemcpyDeviceToHost));
        for (int i = 0; i < m * 8; i++)
            if (d[i] != want[i]) {
                c.fail("%s .%s: D[%d][%d] = %.17g, want %.17g", what, modes[mode].name, i / 8, i % 8, d[i], want[i]);
                break;
            }
    }
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dD));
}

// A 16 x K structured sparse A for mma.sp, as the PTX ISA describes it: each aligned four of
// units of a row (a unit: 16 bits where elements have 16 or 32, 8 where they have 8 or 4; so
// an element, two s4 or u4, or half a tf32) holds two given units and two zero ones; a tf32
// takes two units, so a pair of tf32 holds one given and one zero (1:2). given[r] are the K/2
// given elements of row r in order, dense[r] the whole row, meta[r][q] the 4 bits of metadata
// of four q: each given unit's position in the four, 2 bits, the first's lowest.
struct SparseA {
    int K, bits, unit_bits;
    int dense[16][128], given[16][64];
    uint8_t meta[16][32];
};
template <typename Value> void make_sparse_a(SparseA &s, Lcg &rng, int K, int bits, Value value) {
    static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    s.K = K;
    s.bits = bits;
    s.unit_bits = bits > 16 ? 16 : bits < 8 ? 8 : bits;
    memset(s.dense, 0, sizeof s.dense);
    for (int r = 0; r < 16; r++) {
        for (int q = 0; q < K * bits / s.unit_bits / 4; q++) {
            const int *pr = pairs[bits > 16 ? 5 * rng.range(0, 2) : rng.range(0, 6)];  // a tf32's: 0 1 or 2 3
            s.meta[r][q] = (uint8_t)(pr[0] | pr[1] << 2);
        }
        for (int kc = 0; kc < K / 2; kc++) {
            // the given unit element kc starts in, its four, and the element's bits into the unit
            int unit = kc * bits / s.unit_bits, q = unit / 2, within = kc * bits % s.unit_bits;
            int position = s.meta[r][q] >> (2 * (unit % 2)) & 3;
            int v = value(rng);
            s.given[r][kc] = v;
            s.dense[r][((4 * q + position) * s.unit_bits + within) / bits] = v;
        }
    }
}
// The metadata word lane l gives with sparsity selector sel, where an H200 reads it
// (NVIDIA_H200_RESULTS.txt): with n = K's units / 16, lanes 4g + sel n .. 4g + sel n + n - 1 of
// group g; with 16-bit units lane 4g + sel n + c/4 holds four c of row g at bit 4(c%4) and of
// row g + 8 at 16 + 4(c%4); with 8-bit units lane 4g + sel n + 2(c/8) + (0 for row g, 1 for g + 8)
// at bit 4(c%8). The other lanes give valid metadata at random, which must be ignored.
inline uint32_t sparse_metadata(const SparseA &s, Lcg &rng, int l, int sel) {
    static const int pairs[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe};
    int g = l / 4, lanes = s.K * s.bits / s.unit_bits / 16, o = l % 4 - sel * lanes;
    bool wide = s.unit_bits == 16;
    uint32_t e = 0;
    if (o < 0 || o >= lanes) {
        for (int n = 0; n < 8; n++) e |= (uint32_t)pairs[rng.range(0, 6)] << (4 * n);
        return e;
    }
    for (int cc = 0; cc < (wide ? 4 : 8); cc++)
        for (int h = 0; h < (wide ? 2 : 1); h++) {
            int row = wide ? g + 8 * h : g + 8 * (o % 2), q = wide ? 4 * o + cc : 8 * (o / 2) + cc;
            e |= (uint32_t)s.meta[row][q] << (wide ? 16 * h + 4 * cc : 4 * cc);
        }
    return e;
}
