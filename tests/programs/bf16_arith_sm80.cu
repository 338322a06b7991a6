// __nv_bfloat16 / __nv_bfloat162 arithmetic on sm_80, where it is native:
// __hadd/__hsub/__hmul/__hfma, __hmax/__hmin, __hneg/__habs, the paired
// __hadd2/__hmul2/__hfma2, float<->bf16 conversions and comparisons.
// bf16 add/mul/fma are IEEE-exact with round-to-nearest-even; inputs are in
// [2^-8, 2^8], where x*y + z is exact in double, so the reference rounds once.
#include "test_util.h"
#include <cuda_bf16.h>

enum { ADD, SUB, MUL, FMA, MAX, MIN, NEG, ABS, ADD2LO, ADD2HI, MUL2LO, MUL2HI, FMA2LO, FMA2HI, FROMF, NOPS };

__global__ void arith(int n, const __nv_bfloat16 *a, const __nv_bfloat16 *b, const __nv_bfloat16 *c, const float *f,
                      __nv_bfloat16 *out, float *back, int *lt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = a[i], y = b[i], z = c[i];
    __nv_bfloat16 *o = out + i * NOPS;
    o[ADD] = __hadd(x, y); o[SUB] = __hsub(x, y); o[MUL] = __hmul(x, y); o[FMA] = __hfma(x, y, z);
    o[MAX] = __hmax(x, y); o[MIN] = __hmin(x, y); o[NEG] = __hneg(x); o[ABS] = __habs(x);
    __nv_bfloat162 p = __halves2bfloat162(x, y), q = __halves2bfloat162(y, z), r = __halves2bfloat162(z, x);
    __nv_bfloat162 s = __hadd2(p, q), m = __hmul2(p, q), fm = __hfma2(p, q, r);
    o[ADD2LO] = __low2bfloat16(s); o[ADD2HI] = __high2bfloat16(s);
    o[MUL2LO] = __low2bfloat16(m); o[MUL2HI] = __high2bfloat16(m);
    o[FMA2LO] = __low2bfloat16(fm); o[FMA2HI] = __high2bfloat16(fm);
    o[FROMF] = __float2bfloat16(f[i]);
    back[i] = __bfloat162float(x) * 3.0f;
    lt[i] = __hlt(x, y);
}

int main() {
    Checker c;
    const int n = 1024;
    Lcg rng(0xbf16);
    unsigned short *hx = new unsigned short[n * 3];
    float *f = new float[n];
    for (int i = 0; i < n * 3; i++) {
        double v = round_bf16(exp2(rng.uniformd(-8, 8)) * ((rng.next() & 1) ? -1 : 1));
        hx[i] = (unsigned short)(f2u((float)v) >> 16);  // exact bf16 value: the high half of its float
    }
    for (int i = 0; i < n; i++) f[i] = u2f(rng.next() & 0xbfffffffu);  // finite floats of both signs
    __nv_bfloat16 *da, *dout; float *df, *dback; int *dlt;
    CHECK(cudaMalloc(&da, n * 6)); CHECK(cudaMalloc(&dout, n * NOPS * 2)); CHECK(cudaMalloc(&df, n * 4));
    CHECK(cudaMalloc(&dback, n * 4)); CHECK(cudaMalloc(&dlt, n * 4));
    CHECK(cudaMemcpy(da, hx, n * 6, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(df, f, n * 4, cudaMemcpyHostToDevice));
    arith<<<n / 128, 128>>>(n, da, da + n, da + 2 * n, df, dout, dback, dlt);
    CHECK_LAUNCH();
    unsigned short *out = new unsigned short[n * NOPS]; float *back = new float[n]; int *lt = new int[n];
    CHECK(cudaMemcpy(out, dout, n * NOPS * 2, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(back, dback, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(lt, dlt, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        double x = bf16_value(hx[i]), y = bf16_value(hx[n + i]), z = bf16_value(hx[2 * n + i]);
        double w[NOPS] = {round_bf16(x + y), round_bf16(x - y), round_bf16(x * y), round_bf16(x * y + z),
                          x > y ? x : y, x < y ? x : y, -x, fabs(x),
                          round_bf16(x + y), round_bf16(y + z), round_bf16(x * y), round_bf16(y * z),
                          round_bf16(x * y + z), round_bf16(y * z + x), round_bf16(f[i])};
        for (int op = 0; op < NOPS; op++) {
            double g = bf16_value(out[i * NOPS + op]);
            if (!same_value(g, w[op])) c.fail("op %d on (%g, %g, %g): %.9g want %.9g", op, x, y, z, g, w[op]);
        }
        if (back[i] != (float)(x * 3.0)) c.fail("bfloat162float(%g) * 3 = %g", x, back[i]);
        if ((lt[i] != 0) != (x < y)) c.fail("__hlt(%g, %g)", x, y);
    }
    return c.finish();
}
