// Host-side pieces of the texture programs' reference samplers (texture_objects.cu,
// texture_mipmap_cubemap.cu): the linear filter's arithmetic as measured on an H200 (see
// texture_objects.cu's "Linear filtering"), and float4 helpers.
#pragma once
#include "test_util.h"

// x_B = c - 0.5 rounded to the nearest 1/256 (halves up): integer part i, fraction a / 256.
static void footprint(float c, int *i, int *a) {
    double q = floor(((double)c - 0.5) * 256.0 + 0.5);
    *i = (int)floor(q / 256.0);
    *a = (int)(q - 256.0 * *i);
}
// 2D weights in 1/256 keeping the sums along x and y.
static void weights_2d(int a, int b, int *w) {
    int w11 = (int)floor(a * b / 256.0 + 0.5);
    w[0] = 256 - a - b + w11; w[1] = a - w11; w[2] = b - w11; w[3] = w11;
}
// n * 2^exp2 rounded to float, halves away from zero.
static float round_away(int64_t n, int exp2) {
    if (n == 0) return 0.0f;
    uint64_t m = n < 0 ? (uint64_t)-n : (uint64_t)n;
    int bits = 64 - __builtin_clzll(m);
    if (bits > 24) {
        int sh = bits - 24;
        m = (m + (1ull << (sh - 1))) >> sh;
        exp2 += sh;
    }
    float f = ldexpf((float)m, exp2);
    return n < 0 ? -f : f;
}
// sum w[q] t[q] / 256 with integer weights (summing to 256), as the H200's filter forms it:
// every texel truncated to a multiple of 2^(e-28), 2^(e-1) <= max |t| < 2^e over the texels
// of nonzero weight, the sum exact, rounded once.
static float filter_channel(int n, const float *t, const int *w) {
    float m = 0;
    for (int q = 0; q < n; q++)
        if (w[q]) m = fmaxf(m, fabsf(t[q]));
    if (m == 0) return 0.0f;
    int e;
    frexpf(m, &e);
    int64_t sum = 0;
    for (int q = 0; q < n; q++) sum += (int64_t)w[q] * (int64_t)trunc(ldexp((double)t[q], 28 - e));
    return round_away(sum, e - 28 - 8);
}

static float comp(const float4 &v, int c) { return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w; }
static void set_comp(float4 &v, int c, float f) { (c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w) = f; }
static bool same_bits(float a, float b) { return f2u(a) == f2u(b); }
static bool within(float got, float want, float tol) { return tol == 0 ? same_bits(got, want) : fabsf(got - want) <= tol; }
