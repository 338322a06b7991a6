// __half and __half2 arithmetic: __hadd/__hsub/__hmul/__hfma (and the
// operator overloads), __hadd_sat/__hfma_sat, __hneg/__habs, __hmax/__hmin,
// comparisons, hfloor/hceil/htrunc/hrint, __hadd2/__hmul2/__hfma2/__hmax2 per
// lane, and __hdiv/hsqrt/__h2div.
// add/sub/mul/fma are IEEE-exact in half: the reference evaluates them
// exactly in double (inputs are in [2^-4, 2^6], so even the fma's exact
// value fits 53 bits) and rounds once to half. __hdiv and hsqrt are computed
// through float approximations (rcp.approx, sqrt.approx) and rounded to half,
// so they may land one half ulp away from the correctly rounded result: their
// bound is 1 ulp.
#include "test_util.h"
#include <cuda_fp16.h>

enum { ADD, SUB, MUL, FMA, OPADD, OPMUL, ADDSAT, FMASAT, NEG, ABS, MAX, MIN, FLOOR, CEIL, TRUNC, RINT,
       ADD2LO, ADD2HI, MUL2LO, MUL2HI, FMA2LO, FMA2HI, MAX2LO, MAX2HI, DIV, SQRT, DIV2LO, DIV2HI, NOPS };
enum { LT, GE, EQ, NE, NCMP };

__global__ void arith(int n, const __half *a, const __half *b, const __half *c, __half *out, int *cmp) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = a[i], y = b[i], z = c[i];
    __half *o = out + i * NOPS;
    o[ADD] = __hadd(x, y); o[SUB] = __hsub(x, y); o[MUL] = __hmul(x, y); o[FMA] = __hfma(x, y, z);
    o[OPADD] = x + y; o[OPMUL] = x * y;
    o[ADDSAT] = __hadd_sat(x, y); o[FMASAT] = __hfma_sat(x, y, z);
    o[NEG] = __hneg(x); o[ABS] = __habs(x); o[MAX] = __hmax(x, y); o[MIN] = __hmin(x, y);
    o[FLOOR] = hfloor(x); o[CEIL] = hceil(x); o[TRUNC] = htrunc(x); o[RINT] = hrint(x);
    __half2 p = __halves2half2(x, y), q = __halves2half2(y, z), r = __halves2half2(z, x);
    __half2 s = __hadd2(p, q), m = __hmul2(p, q), f = __hfma2(p, q, r), mx = __hmax2(p, q), d = __h2div(p, q);
    o[ADD2LO] = __low2half(s); o[ADD2HI] = __high2half(s);
    o[MUL2LO] = __low2half(m); o[MUL2HI] = __high2half(m);
    o[FMA2LO] = __low2half(f); o[FMA2HI] = __high2half(f);
    o[MAX2LO] = __low2half(mx); o[MAX2HI] = __high2half(mx);
    o[DIV] = __hdiv(x, y); o[SQRT] = hsqrt(__habs(x));
    o[DIV2LO] = __low2half(d); o[DIV2HI] = __high2half(d);
    int *k = cmp + i * NCMP;
    k[LT] = __hlt(x, y); k[GE] = __hge(x, y); k[EQ] = __heq(x, z); k[NE] = __hne(x, z);
}

int main() {
    Checker c;
    const int n = 1024;
    Lcg rng(0x4a1f);
    unsigned short *hx = new unsigned short[n * 3];
    for (int i = 0; i < n * 3; i++) {
        double v = round_half(exp2(rng.uniformd(-4, 6)) * ((rng.next() & 1) ? -1 : 1));
        if (i % 17 == 0) v = round_half(rng.uniformd(-8, 8));
        // encode v (exactly a half) as bits
        __half h = __double2half(v);  // host-side conversion of an exact value: no rounding involved
        memcpy(&hx[i], &h, 2);
    }
    for (int i = 0; i < n; i += 9) hx[n * 2 + i] = hx[i];  // some z == x for __heq
    __half *da, *dout; int *dcmp;
    CHECK(cudaMalloc(&da, n * 6)); CHECK(cudaMalloc(&dout, n * NOPS * 2)); CHECK(cudaMalloc(&dcmp, n * NCMP * 4));
    CHECK(cudaMemcpy(da, hx, n * 6, cudaMemcpyHostToDevice));
    arith<<<n / 128, 128>>>(n, da, da + n, da + 2 * n, dout, dcmp);
    CHECK_LAUNCH();
    unsigned short *out = new unsigned short[n * NOPS]; int *cmp = new int[n * NCMP];
    CHECK(cudaMemcpy(out, dout, n * NOPS * 2, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(cmp, dcmp, n * NCMP * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        double x = half_value(hx[i]), y = half_value(hx[n + i]), z = half_value(hx[2 * n + i]);
        auto sat = [](double v) { return v < 0 ? 0.0 : v > 1 ? 1.0 : v; };
        double w[NOPS] = {
            round_half(x + y), round_half(x - y), round_half(x * y), round_half(x * y + z), round_half(x + y), round_half(x * y),
            sat(round_half(x + y)), sat(round_half(x * y + z)), -x, fabs(x), x > y ? x : y, x < y ? x : y,
            floor(x), ceil(x), trunc(x), nearbyint(x),
            round_half(x + y), round_half(y + z), round_half(x * y), round_half(y * z), round_half(x * y + z), round_half(y * z + x),
            x > y ? x : y, y > z ? y : z, round_half(x / y), round_half(sqrt(fabs(x))), round_half(x / y), round_half(y / z)};
        for (int op = 0; op < NOPS; op++) {
            double g = half_value(out[i * NOPS + op]);
            bool approx = op == DIV || op == SQRT || op == DIV2LO || op == DIV2HI;
            bool ok = approx ? fabs(g - w[op]) <= ldexp(1.0, ilogb(fabs(w[op])) - 10) : same_value(g, w[op]);
            if (op == ADDSAT || op == FMASAT) ok = g == w[op];  // a clamped negative may give either zero
            if (op == SQRT && w[op] == 0) ok = g == 0;
            if (!ok) c.fail("op %d on (%g, %g, %g): %.9g want %.9g", op, x, y, z, g, w[op]);
        }
        int wc[NCMP] = {x < y, x >= y, x == z, x != z};
        for (int k = 0; k < NCMP; k++)
            if ((cmp[i * NCMP + k] != 0) != (wc[k] != 0)) c.fail("compare %d on (%g, %g, %g)", k, x, y, z);
    }
    return c.finish();
}
