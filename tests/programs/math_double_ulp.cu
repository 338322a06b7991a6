// Double-precision math library functions against a long double reference.
// Bounds are the maximum ulp errors the CUDA C++ Programming Guide lists for
// double precision, measured there from the correctly rounded result: from
// the exact value that is bound + 0.5 ulp. The long double reference carries
// 11 more significand bits than double (its own error is ~1/1000 ulp of a
// double), so each bound gets 0.01 ulp more. IEEE-exact operations (fma,
// division, sqrt, rint, fmod) must equal the host's double result bit for bit.
#include "test_util.h"

#define FUNCS(X) \
    X(SIN, sin(x), sinl(x), 2, -100, 100, 0) \
    X(COS, cos(x), cosl(x), 2, -100, 100, 0) \
    X(TAN, tan(x), tanl(x), 2, -10, 10, 0) \
    X(EXP, exp(x), expl(x), 1, -700, 700, 0) \
    X(EXP2, exp2(x), exp2l(x), 1, -1000, 1000, 0) \
    X(EXP10, exp10(x), exp10l(x), 1, -300, 300, 0) \
    X(EXPM1, expm1(x), expm1l(x), 1, -10, 10, 0) \
    X(LOG, log(x), logl(x), 1, -1000, 1000, 1) \
    X(LOG2, log2(x), log2l(x), 1, -1000, 1000, 1) \
    X(LOG10, log10(x), log10l(x), 1, -1000, 1000, 1) \
    X(LOG1P, log1p(x), log1pl(x), 1, -0.9, 100, 0) \
    X(POW, pow(x, y), powl(x, y), 2, -20, 20, 1) \
    X(SQRT, sqrt(x), sqrtl(x), 0, -1000, 1000, 1) \
    X(RSQRT, rsqrt(x), 1.0L / sqrtl(x), 1, -1000, 1000, 1) \
    X(CBRT, cbrt(x), cbrtl(x), 1, -1e6, 1e6, 0) \
    X(HYPOT, hypot(x, y), hypotl(x, y), 2, -1e6, 1e6, 0) \
    X(ATAN, atan(x), atanl(x), 2, -100, 100, 0) \
    X(ATAN2, atan2(y, x), atan2l(y, x), 2, -10, 10, 0) \
    X(ASIN, asin(x), asinl(x), 2, -1, 1, 0) \
    X(ACOS, acos(x), acosl(x), 2, -1, 1, 0) \
    X(SINH, sinh(x), sinhl(x), 2, -20, 20, 0) \
    X(COSH, cosh(x), coshl(x), 1, -20, 20, 0) \
    X(TANH, tanh(x), tanhl(x), 1, -20, 20, 0) \
    X(ERF, erf(x), erfl(x), 2, -5, 5, 0) \
    X(ERFC, erfc(x), erfcl(x), 5, -3, 25, 0) \
    X(FMOD, fmod(x, y), fmodl(x, y), 0, -1e6, 1e6, 0) \
    X(FMA, fma(x, y, x * 0.75), fmal(x, y, (long double)(x * 0.75)), 0, -100, 100, 0) \
    X(DIV, x / y, (long double)x / y, 0, -100, 100, 0) \
    X(RINT, rint(x), rintl(x), 0, -1e6, 1e6, 0)

#define ENUM(name, dev, ref, ulps, lo, hi, logscale) F_##name,
enum { FUNCS(ENUM) NFUNCS };

__global__ void eval(int n, const double *xs, const double *ys, double *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n * NFUNCS) return;
    double x = xs[i], y = ys[i], r = 0;
    switch (i / n) {
#define CASE(name, dev, ref, ulps, lo, hi, logscale) case F_##name: r = dev; break;
        FUNCS(CASE)
    }
    out[i] = r;
}

int main() {
    Checker c;
    const int n = 160, total = n * NFUNCS;
    double *xs = new double[total], *ys = new double[total], *out = new double[total];
    const double lo[] = {
#define LO(name, dev, ref, ulps, lo, hi, logscale) lo,
        FUNCS(LO)};
    const double hi[] = {
#define HI(name, dev, ref, ulps, lo, hi, logscale) hi,
        FUNCS(HI)};
    const int logscale[] = {
#define LS(name, dev, ref, ulps, lo, hi, logscale) logscale,
        FUNCS(LS)};
    const double bound[] = {
#define UL(name, dev, ref, ulps, lo, hi, logscale) ulps,
        FUNCS(UL)};
    const char *names[] = {
#define NM(name, dev, ref, ulps, lo, hi, logscale) #name,
        FUNCS(NM)};
    Lcg rng(0xd0b1e);
    for (int f = 0; f < NFUNCS; f++)
        for (int k = 0; k < n; k++) {
            int i = f * n + k;
            xs[i] = logscale[f] ? exp2(rng.uniformd(lo[f], hi[f])) : rng.uniformd(lo[f], hi[f]);
            ys[i] = rng.uniformd(-10, 10);
            if (f == F_POW) ys[i] = rng.uniformd(-30, 30);
            if (f == F_HYPOT || f == F_FMOD || f == F_FMA || f == F_DIV) ys[i] = rng.uniformd(lo[f], hi[f]);
            if (f == F_FMOD) ys[i] = rng.uniformd(0.5, 1000);
            if (f == F_DIV && fabs(ys[i]) < 1e-3) ys[i] = 1.0;
        }
    double *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, total * 8)); CHECK(cudaMalloc(&dy, total * 8)); CHECK(cudaMalloc(&dout, total * 8));
    CHECK(cudaMemcpy(dx, xs, total * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dy, ys, total * 8, cudaMemcpyHostToDevice));
    eval<<<(total + 255) / 256, 256>>>(n, dx, dy, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, total * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < total; i++) {
        int f = i / n;
        long double x = xs[i], y = ys[i], ref = 0;
        switch (f) {
#define REF(name, dev, ref_, ulps, lo, hi, logscale) case F_##name: ref = ref_; break;
            FUNCS(REF)
        }
        if (bound[f] == 0) {
            double xd = xs[i], yd = ys[i], want = 0;
            switch (f) {
            case F_SQRT: want = sqrt(xd); break;
            case F_FMOD: want = fmod(xd, yd); break;
            case F_FMA: want = fma(xd, yd, xd * 0.75); break;
            case F_DIV: want = xd / yd; break;
            case F_RINT: want = rint(xd); break;
            }
            if (d2u(out[i]) != d2u(want)) c.fail("%s(%.17g, %.17g) = %.17g want %.17g", names[f], xd, yd, out[i], want);
            continue;
        }
        double err = ulp_error_d(out[i], ref);
        if (err > bound[f] + 0.51) c.fail("%s(%.17g, %.17g) = %.17g, reference %.20Lg: %.2f ulp > %g", names[f], xs[i], ys[i], out[i], ref, err, bound[f]);
        (void)x; (void)y;
    }
    return c.finish();
}
