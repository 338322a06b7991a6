// Built with --use_fast_math: single-precision denormals are flushed to zero
// (-ftz=true), division and sqrt use the approximate instructions
// (-prec-div=false, -prec-sqrt=false), and sinf/expf become __sinf/__expf.
// Checks: a subnormal input multiplied by 1 gives zero, a product that would
// be subnormal gives zero, double precision is unaffected (keeps
// subnormals), and the approximations stay within their documented bounds:
// __fdividef-style division 2 ulp, __sinf absolute 2^-21.41 on [-pi, pi],
// __expf 2 + floor(|1.173 x|) ulp; approximate sqrt is checked at 2 ulp
// (sqrt.approx: PTX gives no bound; measured error is ~1 ulp).
#include "test_util.h"

__global__ void fast(int n, const float *x, const float *y, float *out, double *dout, float one) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i], b = y[i];
    float *o = out + i * 6;
    o[0] = a * one;  // a run-time 1.0: a literal 1.0f multiply is folded away
    o[1] = a * 1e-30f;
    o[2] = a / b;
    o[3] = sinf(a);
    o[4] = expf(b * 0.01f);
    o[5] = sqrtf(fabsf(b));
    dout[i] = (double)a * 1e-300;  // doubles are never flushed
}

int main() {
    Checker c;
    const int n = 256;
    float x[n], y[n], out[n * 6];
    double dout[n];
    Lcg rng(0xfa);
    for (int i = 0; i < n; i++) {
        x[i] = (i % 4 == 0) ? u2f(rng.next() & 0x007fffffu | 1u) : rng.uniform(-3.14159f, 3.14159f);  // every 4th: subnormal
        y[i] = rng.uniform(1.0f, 1000.0f) * ((i & 2) ? -1 : 1);
    }
    float *dx, *dy, *dres; double *dd;
    CHECK(cudaMalloc(&dx, sizeof x)); CHECK(cudaMalloc(&dy, sizeof y)); CHECK(cudaMalloc(&dres, sizeof out)); CHECK(cudaMalloc(&dd, sizeof dout));
    CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
    fast<<<n / 64, 64>>>(n, dx, dy, dres, dd, 1.0f);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dres, sizeof out, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(dout, dd, sizeof dout, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float a = x[i], b = y[i];
        const float *o = out + i * 6;
        bool sub = fpclassify(a) == FP_SUBNORMAL;
        if (sub) {
            if (o[0] != 0.0f) c.fail("subnormal %g * 1 = %g, not flushed", a, o[0]);
        } else {
            if (o[0] != a) c.fail("%g * 1 = %g", a, o[0]);
            if (fabsl(o[3] - sinl(a)) > ldexpl(1, -21) / 1.33L) c.fail("sinf(%g) = %.9g", a, o[3]);
            if (ulp_error_f(o[2], (long double)a / b) > 2.5) c.fail("%g / %g = %.9g", a, b, o[2]);
        }
        // a * 1e-30 is below the normal range whenever |a| < 1.2e-8: flushed.
        long double p = (long double)a * 1e-30f;
        if (fabsl(p) < FLT_MIN) { if (o[1] != 0.0f) c.fail("%g * 1e-30 = %g, not flushed", a, o[1]); }
        else if (ulp_error_f(o[1], p) > 0.5) c.fail("%g * 1e-30 = %g", a, o[1]);
        float e = b * 0.01f;
        if (ulp_error_f(o[4], expl(e)) > 2 + floor(fabs(1.173 * e)) + 0.5) c.fail("expf(%g) = %.9g", e, o[4]);
        if (ulp_error_f(o[5], sqrtl(fabsl(b))) > 2) c.fail("sqrtf(%g) = %.9g", fabsf(b), o[5]);
        double wd = (double)a * 1e-300;
        if (dout[i] != wd) c.fail("double %g * 1e-300 = %g want %g", a, dout[i], wd);
    }
    return c.finish();
}
