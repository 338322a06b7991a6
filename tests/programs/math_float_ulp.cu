// Single-precision math library functions against a long double reference.
// Each bound is the maximum ulp error the CUDA C++ Programming Guide lists for
// the function ("Standard Functions", single precision, default flags: no
// --use_fast_math). The guide measures from the correctly rounded result, so
// measured from the exact value the allowance is bound + 0.5 ulp. The long
// double reference (64-bit significand) is ~2^-40 ulp off, which does not
// matter at these bounds. Functions with bound 0 are IEEE-exact: they must
// equal the host's own correctly rounded float result bit for bit.
#include "test_util.h"

#define FUNCS(X) \
    X(SIN, sinf(x), sinl(x), 2, -100, 100, 0) \
    X(COS, cosf(x), cosl(x), 2, -100, 100, 0) \
    X(TAN, tanf(x), tanl(x), 4, -10, 10, 0) \
    X(EXP, expf(x), expl(x), 2, -80, 80, 0) \
    X(EXP2, exp2f(x), exp2l(x), 2, -120, 120, 0) \
    X(EXP10, exp10f(x), exp10l(x), 2, -35, 35, 0) \
    X(EXPM1, expm1f(x), expm1l(x), 1, -10, 10, 0) \
    X(LOG, logf(x), logl(x), 1, -100, 100, 1) \
    X(LOG2, log2f(x), log2l(x), 1, -100, 100, 1) \
    X(LOG10, log10f(x), log10l(x), 2, -100, 100, 1) \
    X(LOG1P, log1pf(x), log1pl(x), 1, -0.9, 100, 0) \
    X(POW, powf(x, y), powl(x, y), 4, -6, 6, 1) \
    X(SQRT, sqrtf(x), sqrtl(x), 0, -100, 100, 1) \
    X(RSQRT, rsqrtf(x), 1.0L / sqrtl(x), 2, -100, 100, 1) \
    X(CBRT, cbrtf(x), cbrtl(x), 1, -1000, 1000, 0) \
    X(HYPOT, hypotf(x, y), hypotl(x, y), 3, -1000, 1000, 0) \
    X(ATAN, atanf(x), atanl(x), 2, -100, 100, 0) \
    X(ATAN2, atan2f(y, x), atan2l(y, x), 3, -10, 10, 0) \
    X(ASIN, asinf(x), asinl(x), 2, -1, 1, 0) \
    X(ACOS, acosf(x), acosl(x), 2, -1, 1, 0) \
    X(SINH, sinhf(x), sinhl(x), 3, -10, 10, 0) \
    X(COSH, coshf(x), coshl(x), 2, -10, 10, 0) \
    X(TANH, tanhf(x), tanhl(x), 2, -10, 10, 0) \
    X(ASINH, asinhf(x), asinhl(x), 3, -100, 100, 0) \
    X(ACOSH, acoshf(x), acoshl(x), 4, 1, 100, 0) \
    X(ATANH, atanhf(x), atanhl(x), 3, -0.99, 0.99, 0) \
    X(ERF, erff(x), erfl(x), 2, -4, 4, 0) \
    X(ERFC, erfcf(x), erfcl(x), 4, -2, 9, 0) \
    X(FMOD, fmodf(x, y), fmodl(x, y), 0, -100, 100, 0) \
    X(FMA, fmaf(x, y, x * 0.75f), fmal(x, y, (long double)(x * 0.75f)), 0, -100, 100, 0) \
    X(DIV, x / y, (long double)x / y, 0, -100, 100, 0) \
    X(FLOOR, floorf(x), floorl(x), 0, -100, 100, 0) \
    X(RINT, rintf(x), rintl(x), 0, -100, 100, 0) \
    X(ROUND, roundf(x), roundl(x), 0, -100, 100, 0) \
    X(LDEXP, ldexpf(x, (int)y), ldexpl(x, (int)y), 0, -100, 100, 0)

#define ENUM(name, dev, ref, ulps, lo, hi, logscale) F_##name,
enum { FUNCS(ENUM) NFUNCS };

__global__ void eval(int n, const float *xs, const float *ys, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n * NFUNCS) return;
    int f = i / n;
    float x = xs[i], y = ys[i];
    float r = 0;
    switch (f) {
#define CASE(name, dev, ref, ulps, lo, hi, logscale) case F_##name: r = dev; break;
        FUNCS(CASE)
    }
    out[i] = r;
}

int main() {
    Checker c;
    const int n = 200;  // inputs per function
    const int total = n * NFUNCS;
    float *xs = new float[total], *ys = new float[total], *out = new float[total];
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
    Lcg rng(0xf10a7);
    for (int f = 0; f < NFUNCS; f++)
        for (int k = 0; k < n; k++) {
            int i = f * n + k;
            // logscale: x = 2^u with u in [lo, hi], spanning many binades.
            xs[i] = logscale[f] ? exp2f(rng.uniform(lo[f], hi[f])) : rng.uniform(lo[f], hi[f]);
            ys[i] = rng.uniform(-10, 10);
            if (f == F_POW) ys[i] = rng.uniform(-12, 12);
            if (f == F_HYPOT || f == F_FMOD || f == F_FMA || f == F_DIV) ys[i] = rng.uniform(lo[f], hi[f]);
            if (f == F_FMOD && fabsf(ys[i]) < 0.5f) ys[i] = 0.5f;
            if (f == F_DIV && fabsf(ys[i]) < 1e-3f) ys[i] = 1.0f;
            if (f == F_LDEXP) ys[i] = (float)rng.range(-20, 20);
        }
    xs[F_ROUND * n] = 2.5f; xs[F_ROUND * n + 1] = -0.5f;  // halfway cases away from zero
    xs[F_RINT * n] = 2.5f; xs[F_RINT * n + 1] = -3.5f;    // halfway cases to even
    float *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, total * 4)); CHECK(cudaMalloc(&dy, total * 4)); CHECK(cudaMalloc(&dout, total * 4));
    CHECK(cudaMemcpy(dx, xs, total * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dy, ys, total * 4, cudaMemcpyHostToDevice));
    eval<<<(total + 255) / 256, 256>>>(n, dx, dy, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, total * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < total; i++) {
        int f = i / n;
        long double x = xs[i], y = ys[i];
        long double ref = 0;
        switch (f) {
#define REF(name, dev, ref_, ulps, lo, hi, logscale) case F_##name: ref = ref_; break;
            FUNCS(REF)
        }
        if (bound[f] == 0) {
            float xf = xs[i], yf = ys[i], want = 0;
            switch (f) {
            case F_SQRT: want = sqrtf(xf); break;
            case F_FMOD: want = fmodf(xf, yf); break;
            case F_FMA: want = fmaf(xf, yf, xf * 0.75f); break;
            case F_DIV: want = xf / yf; break;
            case F_FLOOR: want = floorf(xf); break;
            case F_RINT: want = rintf(xf); break;
            case F_ROUND: want = roundf(xf); break;
            case F_LDEXP: want = ldexpf(xf, (int)yf); break;
            }
            if (f2u(out[i]) != f2u(want)) c.fail("%s(%.9g, %.9g) = %.9g want %.9g", names[f], xf, yf, out[i], want);
            continue;
        }
        double err = ulp_error_f(out[i], ref);
        if (err > bound[f] + 0.5) c.fail("%s(%.9g, %.9g) = %.9g, reference %.12Lg: %.2f ulp > %g", names[f], xs[i], ys[i], out[i], ref, err, bound[f]);
    }
    return c.finish();
}
