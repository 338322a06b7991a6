// IEEE operations with an explicit rounding mode: __fadd/__fsub/__fmul/
// __fdiv/__frcp/__fsqrt/__fmaf with _rn/_rz/_ru/_rd, and the double versions
// __dadd/__dmul/__ddiv/__drcp/__dsqrt/__fma with all four modes.
// Reference: the host's round-to-nearest result plus the sign of the exact
// residual (computed without error: TwoSum for sums, fma for products,
// quotients and square roots), which says which neighbour a directed mode picks.
#include "test_util.h"

enum Mode { RN, RZ, RU, RD };
enum { FADD, FSUB, FMUL, FDIV, FRCP, FSQRT, FFMA, DADD, DMUL, DDIV, DRCP, DSQRT, DFMA, NOPS };

__global__ void eval(int n, const double *xs, const double *ys, double *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n * NOPS) return;
    int op = i / n;
    double X = xs[i], Y = ys[i];
    float x = (float)X, y = (float)Y;
    double *o = out + (size_t)i * 4;
    switch (op) {
    case FADD: o[0] = __fadd_rn(x, y); o[1] = __fadd_rz(x, y); o[2] = __fadd_ru(x, y); o[3] = __fadd_rd(x, y); break;
    case FSUB: o[0] = __fsub_rn(x, y); o[1] = __fsub_rz(x, y); o[2] = __fsub_ru(x, y); o[3] = __fsub_rd(x, y); break;
    case FMUL: o[0] = __fmul_rn(x, y); o[1] = __fmul_rz(x, y); o[2] = __fmul_ru(x, y); o[3] = __fmul_rd(x, y); break;
    case FDIV: o[0] = __fdiv_rn(x, y); o[1] = __fdiv_rz(x, y); o[2] = __fdiv_ru(x, y); o[3] = __fdiv_rd(x, y); break;
    case FRCP: o[0] = __frcp_rn(x); o[1] = __frcp_rz(x); o[2] = __frcp_ru(x); o[3] = __frcp_rd(x); break;
    case FSQRT: o[0] = __fsqrt_rn(x); o[1] = __fsqrt_rz(x); o[2] = __fsqrt_ru(x); o[3] = __fsqrt_rd(x); break;
    case FFMA: o[0] = __fmaf_rn(x, y, 0.3f); o[1] = __fmaf_rz(x, y, 0.3f); o[2] = __fmaf_ru(x, y, 0.3f); o[3] = __fmaf_rd(x, y, 0.3f); break;
    case DADD: o[0] = __dadd_rn(X, Y); o[1] = __dadd_rz(X, Y); o[2] = __dadd_ru(X, Y); o[3] = __dadd_rd(X, Y); break;
    case DMUL: o[0] = __dmul_rn(X, Y); o[1] = __dmul_rz(X, Y); o[2] = __dmul_ru(X, Y); o[3] = __dmul_rd(X, Y); break;
    case DDIV: o[0] = __ddiv_rn(X, Y); o[1] = __ddiv_rz(X, Y); o[2] = __ddiv_ru(X, Y); o[3] = __ddiv_rd(X, Y); break;
    case DRCP: o[0] = __drcp_rn(X); o[1] = __drcp_rz(X); o[2] = __drcp_ru(X); o[3] = __drcp_rd(X); break;
    case DSQRT: o[0] = __dsqrt_rn(X); o[1] = __dsqrt_rz(X); o[2] = __dsqrt_ru(X); o[3] = __dsqrt_rd(X); break;
    case DFMA: o[0] = __fma_rn(X, Y, 0.3); o[1] = __fma_rz(X, Y, 0.3); o[2] = __fma_ru(X, Y, 0.3); o[3] = __fma_rd(X, Y, 0.3); break;
    }
}

// Picks the directed-rounding result from the nearest result r and the sign
// of (exact - r).
template <typename T> static T directed(T r, int sign, int mode) {
    if (sign == 0 || mode == RN) return r;
    T up = std::nextafter(r, (T)INFINITY), down = std::nextafter(r, (T)-INFINITY);
    switch (mode) {
    case RU: return sign > 0 ? up : r;
    case RD: return sign < 0 ? down : r;
    case RZ: return !std::signbit(r) ? (sign < 0 ? down : r) : (sign > 0 ? up : r);  // r = +-0 after underflow keeps the sign
    }
    return r;
}
static int sgn(long double v) { return (v > 0) - (v < 0); }
static int sgn_d(double v) { return (v > 0) - (v < 0); }

// Exact residual signs. Float cases use double/long double arithmetic, exact
// for these input ranges (see below); double cases use error-free transforms.
static void reference(int op, double X, double Y, double want[4]) {
    float x = (float)X, y = (float)Y;
    for (int m = 0; m < 4; m++) {
        switch (op) {
        case FADD: { float r = x + y; want[m] = directed(r, sgn((long double)x + y - r), m); break; }
        case FSUB: { float r = x - y; want[m] = directed(r, sgn((long double)x - y - r), m); break; }
        case FMUL: { float r = x * y; want[m] = directed(r, sgn_d((double)x * y - r), m); break; }   // 48-bit product: exact in double
        case FDIV: { float r = x / y; want[m] = directed(r, sgn_d((x - (double)r * y)) * sgn_d(y), m); break; }  // r*y exact, difference exact
        case FRCP: { float r = 1.0f / x; want[m] = directed(r, sgn_d(1.0 - (double)r * x) * sgn_d(x), m); break; }
        case FSQRT: { float r = sqrtf(x); want[m] = directed(r, sgn_d(x - (double)r * r), m); break; }
        case FFMA: { float r = fmaf(x, y, 0.3f); want[m] = directed(r, sgn((long double)x * y + 0.3f - r), m); break; }  // |x*y| in [1/16, 64]: 57 bits, exact
        case DADD: {  // TwoSum: s + e == X + Y exactly
            double s = X + Y, bb = s - X, e = (X - (s - bb)) + (Y - bb);
            want[m] = directed(s, sgn_d(e), m); break;
        }
        case DMUL: { double p = X * Y; want[m] = directed(p, sgn_d(fma(X, Y, -p)), m); break; }
        case DDIV: { double q = X / Y; want[m] = directed(q, sgn_d(fma(-q, Y, X)) * sgn_d(Y), m); break; }
        case DRCP: { double q = 1.0 / X; want[m] = directed(q, sgn_d(fma(-q, X, 1.0)) * sgn_d(X), m); break; }
        case DSQRT: { double s = sqrt(X); want[m] = directed(s, sgn_d(fma(-s, s, X)), m); break; }
        case DFMA: {
            // r = RN(X*Y + 0.3). X*Y = p + e exactly; X*Y + 0.3 - r = (p - r + 0.3) + e.
            // Inputs keep |X*Y| in [1/16, 64], so p - r + 0.3 is exact in long
            // double and the residual sign is right.
            double r = fma(X, Y, 0.3), p = X * Y, e = fma(X, Y, -p);
            long double res = ((long double)p - r + (long double)0.3) + e;
            want[m] = directed(r, sgn(res), m); break;
        }
        }
        // An exact zero sum of non-zero operands is +0, except -0 when rounding down.
        if ((op == FADD || op == FSUB || op == DADD) && want[m] == 0 && m == RD) want[m] = -0.0;
    }
}

int main() {
    Checker c;
    const int n = 300, total = n * NOPS;
    double *xs = new double[total], *ys = new double[total], *out = new double[total * 4];
    Lcg rng(0xd1ec7);
    for (int op = 0; op < NOPS; op++)
        for (int k = 0; k < n; k++) {
            int i = op * n + k;
            bool dbl = op >= DADD;
            // Magnitudes within [2^-8, 2^8]: no overflow, no underflow, and the
            // long double residuals of the float cases stay exact.
            double x = exp2(rng.uniformd(-8, 8)) * ((rng.next() & 1) ? -1 : 1);
            double y = exp2(rng.uniformd(-8, 8)) * ((rng.next() & 1) ? -1 : 1);
            if (op == FSQRT || op == DSQRT) x = fabs(x);
            if (op == DFMA || op == FFMA) { y = exp2(rng.uniformd(-4, 6)) / fabs(x) * ((rng.next() & 1) ? -1 : 1); }
            if (k % 10 == 0) {  // exact cases: no rounding at all
                x = rng.range(1, 50) * ((k & 2) ? -1 : 1); y = rng.range(1, 20);
                if (op == FSQRT || op == DSQRT) x = fabs(x);
            }
            if (!dbl) { x = (float)x; y = (float)y; }
            xs[i] = x; ys[i] = y;
        }
    double *dx, *dy, *dout;
    CHECK(cudaMalloc(&dx, total * 8)); CHECK(cudaMalloc(&dy, total * 8)); CHECK(cudaMalloc(&dout, total * 32));
    CHECK(cudaMemcpy(dx, xs, total * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dy, ys, total * 8, cudaMemcpyHostToDevice));
    eval<<<(total + 127) / 128, 128>>>(n, dx, dy, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, total * 32, cudaMemcpyDeviceToHost));
    const char *mode_names[] = {"rn", "rz", "ru", "rd"};
    for (int i = 0; i < total; i++) {
        double want[4];
        reference(i / n, xs[i], ys[i], want);
        for (int m = 0; m < 4; m++)
            if (d2u(out[i * 4 + m]) != d2u(want[m]))
                c.fail("op %d _%s(%.17g, %.17g) = %.17g want %.17g", i / n, mode_names[m], xs[i], ys[i], out[i * 4 + m], want[m]);
    }
    return c.finish();
}
