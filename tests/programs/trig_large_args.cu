// sinf, cosf, tanf and sincosf over the whole float range. Past |x| = 105615 CUDA's
// libdevice reduces the argument by Payne-Hanek: 2/pi's bits come from a table in
// constant memory, and the partial products go into a private array that is indexed
// by a value computed from x's exponent, so the reduction reads and writes scratch
// memory at run time-dependent offsets (on gfx10.3, through the private segment
// buffer's swizzled addressing). Every lane of a warp takes a different exponent, so
// the lanes' scratch offsets differ too. Bounds: the CUDA C++ Programming Guide's
// (sin, cos: 2 ulp; tan: 4 ulp; default flags), measured from the exact value as in
// math_float_ulp, with glibc's long double functions as the reference (their argument
// reduction is exact).
#include "test_util.h"

enum { SIN, COS, TAN, SINCOS_SIN, SINCOS_COS, NFUNCS };

__global__ void eval(int n, const float *xs, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = xs[i], s, c;
    out[SIN * n + i] = sinf(x);
    out[COS * n + i] = cosf(x);
    out[TAN * n + i] = tanf(x);
    sincosf(x, &s, &c);
    out[SINCOS_SIN * n + i] = s;
    out[SINCOS_COS * n + i] = c;
}

int main() {
    Checker c;
    const int n = 1024;
    float *xs = new float[n], *out = new float[n * NFUNCS];
    Lcg rng(0x7219);
    for (int i = 0; i < n; i++) {
        // 2^u for u in [0, 128): every binade from 1 to FLT_MAX, both signs; the
        // slow path starts at 2^16.6.
        float x = exp2f(rng.uniform(0, 127.99));
        xs[i] = (i & 1) ? -x : x;
    }
    // Hard cases: the float nearest a large multiple of pi/2, the largest floats,
    // the first one on the slow path, and one just below it.
    const float special[] = {105615.0f, 105616.0f, 3.40282347e38f, -3.40282347e38f,
                             1.5707963e10f, 6.2831853e20f, 1.0e30f, 16777216.0f,
                             4.0e9f, 8.5e37f, 2.0f * 3.14159265e25f, 123456789.0f};
    for (unsigned k = 0; k < sizeof special / sizeof special[0]; k++) xs[k * 37] = special[k];
    float *dx, *dout;
    CHECK(cudaMalloc(&dx, n * 4));
    CHECK(cudaMalloc(&dout, n * NFUNCS * 4));
    CHECK(cudaMemcpy(dx, xs, n * 4, cudaMemcpyHostToDevice));
    eval<<<(n + 127) / 128, 128>>>(n, dx, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, n * NFUNCS * 4, cudaMemcpyDeviceToHost));
    const char *names[] = {"sinf", "cosf", "tanf", "sincosf.sin", "sincosf.cos"};
    const double bound[] = {2, 2, 4, 2, 2};
    for (int f = 0; f < NFUNCS; f++)
        for (int i = 0; i < n; i++) {
            long double x = xs[i];
            long double ref = f == SIN || f == SINCOS_SIN ? sinl(x) : f == TAN ? tanl(x) : cosl(x);
            float got = out[f * n + i];
            double err = ulp_error_f(got, ref);
            if (!(err <= bound[f] + 0.5))
                c.fail("%s(%.9g) = %.9g, reference %.12Lg: %.2f ulp > %g", names[f], xs[i], got, ref, err, bound[f]);
        }
    return c.finish();
}
