// Conversions to and from 16-bit floats in every rounding mode:
// __float2half_rn/rz/rd/ru, __double2half, __float2bfloat16_rn/rz/rd/ru,
// __half2float, __bfloat162float, __int2half_rn/rz/rd/ru, __half2int_rn/rz/rd/ru,
// __float22half2_rn. The reference rounds the exact input with integer-exact
// arithmetic on a scaled significand, including subnormals and overflow.
// Built for the default architecture, where bf16 conversions are emulated.
#include "test_util.h"
#include <cuda_fp16.h>
#include <cuda_bf16.h>

enum Mode { RN, RZ, RU, RD };  // same order as RoundMode
enum { F2H, F2BF, I2H, NTO };

__global__ void convert(int n, const float *fin, const int *iin, const double *din, unsigned short *h, float *back, int *h2i) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = fin[i];
    int v = iin[i];
    unsigned short *o = h + (size_t)i * 14;
    o[0] = __half_as_ushort(__float2half_rn(f));
    o[1] = __half_as_ushort(__float2half_rz(f));
    o[2] = __half_as_ushort(__float2half_ru(f));
    o[3] = __half_as_ushort(__float2half_rd(f));
    o[4] = __bfloat16_as_ushort(__float2bfloat16_rn(f));
    o[5] = __bfloat16_as_ushort(__float2bfloat16_rz(f));
    o[6] = __bfloat16_as_ushort(__float2bfloat16_ru(f));
    o[7] = __bfloat16_as_ushort(__float2bfloat16_rd(f));
    o[8] = __half_as_ushort(__int2half_rn(v));
    o[9] = __half_as_ushort(__int2half_rz(v));
    o[10] = __half_as_ushort(__int2half_ru(v));
    o[11] = __half_as_ushort(__int2half_rd(v));
    o[12] = __half_as_ushort(__double2half(din[i]));
    __half2 pair = __float22half2_rn(make_float2(f, -f));
    o[13] = __half_as_ushort(__high2half(pair));
    // Back to float (exact) and to int from a half value.
    back[i * 2] = __half2float(__ushort_as_half(o[0]));
    back[i * 2 + 1] = __bfloat162float(__ushort_as_bfloat16(o[4]));
    __half hv = __float2half_rn(f * 0.01f);
    h2i[i * 4 + 0] = __half2int_rn(hv);
    h2i[i * 4 + 1] = __half2int_rz(hv);
    h2i[i * 4 + 2] = __half2int_ru(hv);
    h2i[i * 4 + 3] = __half2int_rd(hv);
}

int main() {
    Checker c;
    const int n = 768;
    Lcg rng(0x16b);
    float *fin = new float[n]; int *iin = new int[n]; double *din = new double[n];
    const float special[] = {0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, -65520.0f, 1e6f, -1e6f, 6e-8f, 3e-8f, 2.9802322e-8f,
                             -6.1e-5f, 1.0009765625f, 1.00048828125f, 1.00146484375f, INFINITY, -INFINITY, NAN, 3.3895314e38f, FLT_MAX};
    const int ns = sizeof special / sizeof special[0];
    for (int i = 0; i < n; i++) {
        float f = exp2f(rng.uniform(-30, 20)) * ((rng.next() & 1) ? -1 : 1);
        if (i % 5 == 0) f = u2f(rng.next());  // any bit pattern, all exponents
        fin[i] = i < ns ? special[i] : f;
        iin[i] = (int)rng.next() >> (rng.next() % 31);
        din[i] = rng.uniformd(-70000, 70000) * exp2(-rng.range(0, 30));
    }
    float *dfin, *dback; int *diin, *dh2i; double *ddin; unsigned short *dh;
    CHECK(cudaMalloc(&dfin, n * 4)); CHECK(cudaMalloc(&diin, n * 4)); CHECK(cudaMalloc(&ddin, n * 8));
    CHECK(cudaMalloc(&dh, n * 14 * 2)); CHECK(cudaMalloc(&dback, n * 8)); CHECK(cudaMalloc(&dh2i, n * 16));
    CHECK(cudaMemcpy(dfin, fin, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(diin, iin, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ddin, din, n * 8, cudaMemcpyHostToDevice));
    convert<<<n / 128, 128>>>(n, dfin, diin, ddin, dh, dback, dh2i);
    CHECK_LAUNCH();
    unsigned short *h = new unsigned short[n * 14]; float *back = new float[n * 2]; int *h2i = new int[n * 4];
    CHECK(cudaMemcpy(h, dh, n * 14 * 2, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(back, dback, n * 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h2i, dh2i, n * 16, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        double f = fin[i];
        for (int m = 0; m < 4; m++) {
            double wh = round_to_format(f, 11, -14, 65504.0, m), wb = round_bf16(f, m);
            double wi = round_to_format((double)iin[i], 11, -14, 65504.0, m);
            if (!same_value(half_value(h[i * 14 + m]), wh)) c.fail("float2half mode %d of %.9g: %.9g want %.9g", m, f, half_value(h[i * 14 + m]), wh);
            if (!same_value(bf16_value(h[i * 14 + 4 + m]), wb)) c.fail("float2bfloat16 mode %d of %.9g: %.9g want %.9g", m, f, bf16_value(h[i * 14 + 4 + m]), wb);
            if (!same_value(half_value(h[i * 14 + 8 + m]), wi)) c.fail("int2half mode %d of %d: %.9g want %.9g", m, iin[i], half_value(h[i * 14 + 8 + m]), wi);
        }
        double wd = round_to_format(din[i], 11, -14, 65504.0, RN);
        if (!same_value(half_value(h[i * 14 + 12]), wd)) c.fail("double2half of %.17g: %.9g want %.9g", din[i], half_value(h[i * 14 + 12]), wd);
        double wneg = round_to_format(-f, 11, -14, 65504.0, RN);
        if (!same_value(half_value(h[i * 14 + 13]), wneg)) c.fail("float22half2 high of %.9g", -f);
        if (!same_value(back[i * 2], half_value(h[i * 14]))) c.fail("half2float of %#x: %.9g", h[i * 14], back[i * 2]);
        if (!same_value(back[i * 2 + 1], bf16_value(h[i * 14 + 4]))) c.fail("bfloat162float of %#x", h[i * 14 + 4]);
        double hv = round_to_format((double)(float)(fin[i] * 0.01f), 11, -14, 65504.0, RN);
        for (int m = 0; m < 4; m++) {
            double r = m == RN ? nearbyint(hv) : m == RZ ? trunc(hv) : m == RU ? ceil(hv) : floor(hv);
            int want = std::isnan(r) ? 0 : r >= 2147483648.0 ? INT32_MAX : r < -2147483648.0 ? INT32_MIN : (int)r;
            if (h2i[i * 4 + m] != want) c.fail("half2int mode %d of %.9g: %d want %d", m, hv, h2i[i * 4 + m], want);
        }
    }
    return c.finish();
}
