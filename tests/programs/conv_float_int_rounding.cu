// Conversions between floating point and integers in every rounding mode:
// __float2int/uint/ll/ull_rn/rz/ru/rd, __double2int/uint/ll/ull_*,
// __int2float/__uint2float/__ll2float/__ull2float_*, __ll2double/__ull2double_*,
// __double2float_*. Float-to-integer results saturate at the destination's
// range (PTX cvt semantics); inputs include halfway cases, negative zero,
// out-of-range values, infinities and NaN.
// NaN: measured on an H200 (driver 580, see NVIDIA_H200_RESULTS.txt), f32 to
// 32-bit integers gives 0, but every other float-to-integer conversion (f32
// to 64-bit, f64 to 32- and 64-bit, signed or unsigned) gives the bit
// pattern 1 << (bits - 1), i.e. INT_MIN / INT64_MIN and 2^31 / 2^63 for the
// unsigned ones. The reference encodes exactly that.
#include "test_util.h"

enum Mode { RN, RZ, RU, RD };
enum { F2I, F2U, F2LL, F2ULL, D2I, D2U, D2LL, D2ULL, NF2I };  // float/double -> integer
enum { I2F, U2F, LL2F, ULL2F, LL2D, ULL2D, D2F, NI2F };        // -> float / double

__global__ void to_int(int n, const double *in, long long *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double d = in[i];
    float f = (float)d;  // inputs are floats where float conversions are tested
    long long *o = out + (size_t)i * NF2I * 4;
#define ALL4(k, fn, arg, cast) o[k * 4 + 0] = (cast)fn##_rn(arg); o[k * 4 + 1] = (cast)fn##_rz(arg); \
                               o[k * 4 + 2] = (cast)fn##_ru(arg); o[k * 4 + 3] = (cast)fn##_rd(arg);
    ALL4(F2I, __float2int, f, int)
    ALL4(F2U, __float2uint, f, unsigned)
    ALL4(F2LL, __float2ll, f, long long)
    ALL4(F2ULL, __float2ull, f, long long)
    ALL4(D2I, __double2int, d, int)
    ALL4(D2U, __double2uint, d, unsigned)
    ALL4(D2LL, __double2ll, d, long long)
    ALL4(D2ULL, __double2ull, d, long long)
}

__global__ void from_int(int n, const long long *in, const double *dd, double *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long v = in[i];
    double d = dd[i];
    double *o = out + (size_t)i * NI2F * 4;
    ALL4(I2F, __int2float, (int)v, double)
    ALL4(U2F, __uint2float, (unsigned)v, double)
    ALL4(LL2F, __ll2float, v, double)
    ALL4(ULL2F, __ull2float, (unsigned long long)v, double)
    ALL4(LL2D, __ll2double, v, double)
    ALL4(ULL2D, __ull2double, (unsigned long long)v, double)
    ALL4(D2F, __double2float, d, double)
}

// Integer rounding of a double in each mode (ties to even for RN).
static double round_mode(double x, int m) {
    switch (m) { case RN: return nearbyint(x); case RZ: return trunc(x); case RU: return ceil(x); default: return floor(x); }
}
static long long sat_signed(double r, int bits, long long nan_value) {
    double lim = ldexp(1.0, bits - 1);
    if (std::isnan(r)) return nan_value;
    if (r >= lim) return bits == 64 ? INT64_MAX : (long long)lim - 1;
    if (r < -lim) return bits == 64 ? INT64_MIN : -(long long)lim;
    return (long long)r;
}
static unsigned long long sat_unsigned(double r, int bits, unsigned long long nan_value) {
    if (std::isnan(r)) return nan_value;
    if (r <= 0) return 0;
    if (r >= ldexp(1.0, bits)) return bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    return (unsigned long long)r;
}

// Directed rounding of the exact value (hi + lo, lo the exact remainder) to T.
template <typename T> static T directed(T r, int sign, int mode) {
    if (sign == 0 || mode == RN) return r;
    T up = std::nextafter(r, (T)INFINITY), down = std::nextafter(r, (T)-INFINITY);
    if (mode == RU) return sign > 0 ? up : r;
    if (mode == RD) return sign < 0 ? down : r;
    return !std::signbit(r) ? (sign < 0 ? down : r) : (sign > 0 ? up : r);  // r = +-0 after underflow keeps the sign
}
static int sgn128(__int128 v) { return (v > 0) - (v < 0); }

int main() {
    Checker c;
    const int n = 512;
    Lcg rng(0xc0);
    double *fin = new double[n];
    long long *iin = new long long[n];
    double *din = new double[n];
    const double special[] = {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -0.0, 0.0, 2147483647.0, 2147483648.0, -2147483649.0,
                              4294967296.0, 1e19, -1e19, 9.3e18, -9.3e18, INFINITY, -INFINITY, NAN, -0.75, 0.49999997, 8388609.5};
    const int ns = sizeof special / sizeof special[0];
    for (int i = 0; i < n; i++) {
        double v;
        if (i < ns) v = special[i];
        else if (i % 4 == 0) v = rng.range(-1000, 1000) + 0.5;               // exact halfway
        else v = exp2(rng.uniformd(-4, 66)) * ((rng.next() & 1) ? -1 : 1);  // up to beyond 2^64
        fin[i] = (i % 2) ? (double)(float)v : v;  // odd entries exactly representable as float
        long long w = (long long)rng.next64() >> (rng.next() % 63);
        if (i % 8 == 1) w = (1ll << (rng.next() % 63)) + 1;  // 2^k + 1: needs rounding in float
        iin[i] = w;
        din[i] = rng.uniformd(-1, 1) * exp2(rng.range(-140, 140));
        if (i < 4) din[i] = (double)FLT_MAX * (1 + i * 1e-8);  // overflow behaviour of directed modes
    }
    fin[1] = 0.5f; fin[3] = -0.5f;  // keep some halfway cases on the float path
    double *dfin, *ddin, *dfo; long long *diin, *dio;
    CHECK(cudaMalloc(&dfin, n * 8)); CHECK(cudaMalloc(&ddin, n * 8)); CHECK(cudaMalloc(&diin, n * 8));
    CHECK(cudaMalloc(&dio, (size_t)n * NF2I * 4 * 8)); CHECK(cudaMalloc(&dfo, (size_t)n * NI2F * 4 * 8));
    CHECK(cudaMemcpy(dfin, fin, n * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(ddin, din, n * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(diin, iin, n * 8, cudaMemcpyHostToDevice));
    to_int<<<n / 128, 128>>>(n, dfin, dio);
    from_int<<<n / 128, 128>>>(n, diin, ddin, dfo);
    CHECK_LAUNCH();
    long long *io = new long long[(size_t)n * NF2I * 4];
    double *fo = new double[(size_t)n * NI2F * 4];
    CHECK(cudaMemcpy(io, dio, (size_t)n * NF2I * 4 * 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(fo, dfo, (size_t)n * NI2F * 4 * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        double d = fin[i], f = (float)d;
        for (int m = 0; m < 4; m++) {
            long long want[NF2I] = {
                (int)sat_signed(round_mode(f, m), 32, 0), (long long)(unsigned)sat_unsigned(round_mode(f, m), 32, 0),
                sat_signed(round_mode(f, m), 64, INT64_MIN), (long long)sat_unsigned(round_mode(f, m), 64, 1ull << 63),
                (int)sat_signed(round_mode(d, m), 32, INT32_MIN), (long long)(unsigned)sat_unsigned(round_mode(d, m), 32, 1u << 31),
                sat_signed(round_mode(d, m), 64, INT64_MIN), (long long)sat_unsigned(round_mode(d, m), 64, 1ull << 63)};
            for (int k = 0; k < NF2I; k++) {
                long long got = io[((size_t)i * NF2I + k) * 4 + m];
                if (got != want[k]) c.fail("to-int kind %d mode %d of %.17g: %lld want %lld", k, m, k < D2I ? f : d, got, want[k]);
            }
        }
        long long v = iin[i];
        for (int m = 0; m < 4; m++) {
            double want[NI2F];
            float r;
            r = (float)(int)v; want[I2F] = directed(r, sgn128((__int128)(int)v - (__int128)(long long)r), m);
            r = (float)(unsigned)v; want[U2F] = directed(r, sgn128((__int128)(unsigned)v - (__int128)(long long)r), m);
            r = (float)v; want[LL2F] = directed(r, sgn128((__int128)v - (__int128)r), m);
            r = (float)(unsigned long long)v; want[ULL2F] = directed(r, sgn128((__int128)(unsigned long long)v - (__int128)r), m);
            double rd = (double)v; want[LL2D] = directed(rd, sgn128((__int128)v - (__int128)rd), m);
            rd = (double)(unsigned long long)v; want[ULL2D] = directed(rd, sgn128((__int128)(unsigned long long)v - (__int128)rd), m);
            r = (float)din[i];
            int s = std::isinf(r) ? -sgn128(r > 0 ? 1 : -1) : (din[i] > r) - (din[i] < r);  // overflowed to inf: exact is below |inf|
            want[D2F] = directed(r, s, m);
            // Directed modes never round a finite value to infinity except away from zero.
            if (std::isinf(r) && ((m == RZ) || (m == RU && r < 0) || (m == RD && r > 0))) want[D2F] = copysign(FLT_MAX, r);
            for (int k = 0; k < NI2F; k++) {
                double got = fo[((size_t)i * NI2F + k) * 4 + m];
                if (d2u(got) != d2u(want[k])) c.fail("from-int kind %d mode %d of %lld / %.17g: %.17g want %.17g", k, m, v, din[i], got, want[k]);
            }
        }
    }
    return c.finish();
}
