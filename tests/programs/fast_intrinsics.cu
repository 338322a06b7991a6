// Fast single-precision intrinsics (the hardware approximations). Bounds are
// the ones the CUDA Math API documents for each intrinsic:
//   __sinf, __cosf on [-pi, pi]: absolute error <= 2^-21.41
//   __expf: ulp error <= 2 + floor(|1.173 x|); __exp10f: 2 + floor(|2.97 x|)
//   __logf: abs error <= 2^-21.41 on [0.5, 2], else 3 ulp
//   __log2f: abs error <= 2^-22 on [0.5, 2], else 2 ulp
//   __log10f: abs error <= 2^-24 on [0.5, 2], else 3 ulp
//   __fdividef: 2 ulp for 2^-126 <= |y| <= 2^126
//   __tanf: __sinf/__cosf through __fdividef; the bound is derived from the
//     parts' bounds (see the check), away from poles (|cos x| > 0.1).
//   __powf: ex2.approx(y * lg2.approx(x)); checked at relative
//     2^-20 * (2 + |y log2 x|): lg2's absolute error scaled by y, plus ex2's.
// Correctly rounded intrinsics (__frcp_rn, __fsqrt_rn, __frsqrt_rn is *not*:
// rsqrt is approximate; __fdiv_rn, __fadd_rn, __fmul_rn, __fmaf_rn) and
// __saturatef must be exact.
#include "test_util.h"

enum { SINF, COSF, TANF, EXPF, EXP10F, LOGF, LOG2F, LOG10F, FDIVIDEF, POWF, FRCP, FSQRT, FDIV, FADD, FMUL, FMAF, SAT, NF };

__global__ void eval(int n, const float *xs, const float *ys, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n * NF) return;
    float x = xs[i], y = ys[i], r = 0;
    switch (i / n) {
    case SINF: r = __sinf(x); break;
    case COSF: r = __cosf(x); break;
    case TANF: r = __tanf(x); break;
    case EXPF: r = __expf(x); break;
    case EXP10F: r = __exp10f(x); break;
    case LOGF: r = __logf(x); break;
    case LOG2F: r = __log2f(x); break;
    case LOG10F: r = __log10f(x); break;
    case FDIVIDEF: r = __fdividef(x, y); break;
    case POWF: r = __powf(x, y); break;
    case FRCP: r = __frcp_rn(x); break;
    case FSQRT: r = __fsqrt_rn(x); break;
    case FDIV: r = __fdiv_rn(x, y); break;
    case FADD: r = __fadd_rn(x, y); break;
    case FMUL: r = __fmul_rn(x, y); break;
    case FMAF: r = __fmaf_rn(x, y, 1.5f); break;
    case SAT: r = __saturatef(x); break;
    }
    out[i] = r;
}

int main() {
    Checker c;
    const int n = 256, total = n * NF;
    float *xs = new float[total], *ys = new float[total], *out = new float[total];
    Lcg rng(0xfa57);
    for (int f = 0; f < NF; f++)
        for (int k = 0; k < n; k++) {
            int i = f * n + k;
            float x = rng.uniform(-3.14159f, 3.14159f), y = rng.uniform(-50, 50);
            switch (f) {
            case EXPF: x = rng.uniform(-20, 20); break;
            case EXP10F: x = rng.uniform(-8, 8); break;
            case LOGF: case LOG2F: case LOG10F: x = (k % 2) ? rng.uniform(0.5f, 2.0f) : exp2f(rng.uniform(-60, 60)); break;
            case FDIVIDEF: case FDIV: x = rng.uniform(-1e4f, 1e4f); y = exp2f(rng.uniform(-30, 30)) * ((k & 1) ? -1 : 1); break;
            case POWF: x = exp2f(rng.uniform(-8, 8)); y = rng.uniform(-4, 4); break;
            case FRCP: case FSQRT: x = exp2f(rng.uniform(-60, 60)); break;
            case FADD: case FMUL: case FMAF: x = rng.uniform(-1e3f, 1e3f); y = rng.uniform(-1e3f, 1e3f); break;
            case SAT: x = rng.uniform(-2, 3); if (k == 0) x = NAN; if (k == 1) x = -0.0f; if (k == 2) x = 1.0f; break;
            }
            xs[i] = x; ys[i] = y;
        }
    float *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, total * 4)); CHECK(cudaMalloc(&dy, total * 4)); CHECK(cudaMalloc(&dout, total * 4));
    CHECK(cudaMemcpy(dx, xs, total * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dy, ys, total * 4, cudaMemcpyHostToDevice));
    eval<<<(total + 127) / 128, 128>>>(n, dx, dy, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, total * 4, cudaMemcpyDeviceToHost));
    const char *names[] = {"__sinf", "__cosf", "__tanf", "__expf", "__exp10f", "__logf", "__log2f", "__log10f", "__fdividef",
                           "__powf", "__frcp_rn", "__fsqrt_rn", "__fdiv_rn", "__fadd_rn", "__fmul_rn", "__fmaf_rn", "__saturatef"};
    for (int i = 0; i < total; i++) {
        int f = i / n;
        float x = xs[i], y = ys[i], g = out[i];
        long double lx = x, ly = y, ref;
        bool ok = true;
        double inner = fabsl(lx) >= 0.5L && fabsl(lx) <= 2.0L;
        switch (f) {
        case SINF: ok = fabsl(g - sinl(lx)) <= ldexpl(1, -21) / 1.33L; break;  // 2^-21.41 = 2^-21 / 1.3287
        case COSF: ok = fabsl(g - cosl(lx)) <= ldexpl(1, -21) / 1.33L; break;
        case TANF: {
            // __sinf(x) / __cosf(x) with absolute errors e <= 2^-21.41 in each:
            // |error| <= e (1/|cos| + |sin|/cos^2) to first order, plus the
            // division's 2 ulp; a factor 2 covers the second-order terms.
            long double s = sinl(lx), co = cosl(lx), e = ldexpl(1, -21) / 1.33L;
            ref = tanl(lx);
            if (fabsl(co) > 0.1L) ok = fabsl(g - ref) <= 2 * (e * (1 / fabsl(co) + fabsl(s) / (co * co)) + ldexpl(1, -22) * fabsl(ref));
            break;
        }
        case EXPF: ok = ulp_error_f(g, expl(lx)) <= 2 + floor(fabs(1.173 * x)) + 0.5; break;
        case EXP10F: ok = ulp_error_f(g, exp10l(lx)) <= 2 + floor(fabs(2.97 * x)) + 0.5; break;
        case LOGF: ok = inner ? fabsl(g - logl(lx)) <= ldexpl(1, -21) / 1.33L : ulp_error_f(g, logl(lx)) <= 3.5; break;
        case LOG2F: ok = inner ? fabsl(g - log2l(lx)) <= ldexpl(1, -22) : ulp_error_f(g, log2l(lx)) <= 2.5; break;
        case LOG10F: ok = inner ? fabsl(g - log10l(lx)) <= ldexpl(1, -24) : ulp_error_f(g, log10l(lx)) <= 3.5; break;
        case FDIVIDEF: ok = ulp_error_f(g, lx / ly) <= 2.5; break;
        case POWF: ref = powl(lx, ly); ok = fabsl(g - ref) <= ldexpl(1, -20) * (2 + fabsl(ly * log2l(lx))) * fabsl(ref); break;
        case FRCP: ok = f2u(g) == f2u(1.0f / x); break;
        case FSQRT: ok = f2u(g) == f2u(sqrtf(x)); break;
        case FDIV: ok = f2u(g) == f2u(x / y); break;
        case FADD: ok = f2u(g) == f2u(x + y); break;
        case FMUL: ok = f2u(g) == f2u(x * y); break;
        case FMAF: ok = f2u(g) == f2u(fmaf(x, y, 1.5f)); break;
        case SAT: {  // clamp to [0, 1]; NaN gives +0
            float w = std::isnan(x) ? 0.0f : x < 0 ? 0.0f : x > 1 ? 1.0f : x;
            ok = f2u(g) == f2u(w) || (w == 0 && g == 0);
            break;
        }
        }
        if (!ok) c.fail("%s(%.9g, %.9g) = %.9g out of bound", names[f], x, y, g);
    }
    return c.finish();
}
