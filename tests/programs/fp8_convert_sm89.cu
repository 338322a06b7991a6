// FP8 conversions on sm_89 (native cvt.rn.satfinite.e4m3x2/e5m2x2): float ->
// e4m3 / e5m2 with round-to-nearest-even and saturation to the largest finite
// value, float2 -> fp8x2, and fp8 -> half (exact). The reference rounds with
// the format's parameters: e4m3 has 4 significand bits, emin -6, max 448 and
// no infinity; e5m2 has 3 bits, emin -14, max 57344.
#include "test_util.h"
#include <cuda_fp8.h>

__global__ void convert(int n, const float *in, unsigned char *q4, unsigned char *q5, unsigned short *pair, unsigned short *h4, unsigned short *h5) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = in[i];
    q4[i] = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3);
    q5[i] = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E5M2);
    pair[i] = __nv_cvt_float2_to_fp8x2(make_float2(f, f * 0.5f), __NV_SATFINITE, __NV_E4M3);
    __half_raw r4 = __nv_cvt_fp8_to_halfraw(q4[i], __NV_E4M3), r5 = __nv_cvt_fp8_to_halfraw(q5[i], __NV_E5M2);
    h4[i] = r4.x; h5[i] = r5.x;
}

static double e4m3_value(unsigned char b) {
    int e = (b >> 3) & 15, m = b & 7;
    if (e == 15 && m == 7) return NAN;
    double v = e == 0 ? ldexp(m, -9) : ldexp(8 + m, e - 10);
    return (b & 0x80) ? -v : v;
}
static double e5m2_value(unsigned char b) {
    int e = (b >> 2) & 31, m = b & 3;
    double v = e == 0 ? ldexp(m, -16) : e == 31 ? (m ? NAN : INFINITY) : ldexp(4 + m, e - 17);
    return (b & 0x80) ? -v : v;
}
static double sat_round(double x, int p, int emin, double maxv) {
    double r = round_to_format(x, p, emin, maxv, RM_RN);
    return std::isinf(r) ? copysign(maxv, r) : r;
}

int main() {
    Checker c;
    const int n = 1024;
    Lcg rng(0xf8);
    float *in = new float[n];
    const float special[] = {0.0f, -0.0f, 448.0f, 464.0f, 470.0f, -1e9f, 57344.0f, 61440.0f, 1e6f, 0.001953125f, 0.0009765625f,
                             0.00146484375f, 1.0625f, 1.1875f, -2.5e-5f, 1.52587890625e-05f, NAN};
    const int ns = sizeof special / sizeof special[0];
    for (int i = 0; i < n; i++)
        in[i] = i < ns ? special[i] : exp2f(rng.uniform(-20, 18)) * ((rng.next() & 1) ? -1 : 1);
    float *din; unsigned char *d4, *d5; unsigned short *dp, *dh4, *dh5;
    CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&d4, n)); CHECK(cudaMalloc(&d5, n)); CHECK(cudaMalloc(&dp, n * 2));
    CHECK(cudaMalloc(&dh4, n * 2)); CHECK(cudaMalloc(&dh5, n * 2));
    CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
    convert<<<n / 128, 128>>>(n, din, d4, d5, dp, dh4, dh5);
    CHECK_LAUNCH();
    unsigned char *q4 = new unsigned char[n], *q5 = new unsigned char[n];
    unsigned short *pr = new unsigned short[n], *h4 = new unsigned short[n], *h5 = new unsigned short[n];
    CHECK(cudaMemcpy(q4, d4, n, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(q5, d5, n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(pr, dp, n * 2, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(h4, dh4, n * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h5, dh5, n * 2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        double f = in[i];
        double w4 = sat_round(f, 4, -6, 448.0), w5 = sat_round(f, 3, -14, 57344.0);
        double w4half = sat_round((double)(in[i] * 0.5f), 4, -6, 448.0);
        if (!same_value(e4m3_value(q4[i]), w4)) c.fail("e4m3(%.9g) = %g want %g", f, e4m3_value(q4[i]), w4);
        if (!same_value(e5m2_value(q5[i]), w5)) c.fail("e5m2(%.9g) = %g want %g", f, e5m2_value(q5[i]), w5);
        if (!same_value(e4m3_value(pr[i] & 0xff), w4) || !same_value(e4m3_value(pr[i] >> 8), w4half))
            c.fail("e4m3x2(%.9g) = %#x", f, pr[i]);
        if (!same_value(half_value(h4[i]), e4m3_value(q4[i]))) c.fail("e4m3 %#x to half: %g", q4[i], half_value(h4[i]));
        if (!same_value(half_value(h5[i]), e5m2_value(q5[i]))) c.fail("e5m2 %#x to half: %g", q5[i], half_value(h5[i]));
    }
    return c.finish();
}
