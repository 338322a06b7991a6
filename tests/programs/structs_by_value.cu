// Structs passed to kernels and device functions by value: mixed alignment
// (char, short, double, float3, nested struct, fixed array), a large 1 KiB
// parameter, device functions returning structs, and arrays of structs in
// global memory updated through references.
#include "test_util.h"

struct Inner { short s; double d; };
struct Mixed {
    char tag;
    Inner in;
    float3 v;
    int arr[5];
    unsigned long long big;
};
struct Big { int values[256]; };  // 1 KiB kernel parameter
struct Pair { float lo, hi; };

__device__ Pair minmax(Pair p, float v) { return Pair{fminf(p.lo, v), fmaxf(p.hi, v)}; }
__device__ Mixed scaled(Mixed m, int k) {
    m.tag += k; m.in.s *= k; m.in.d *= k; m.v.x *= k; m.v.y *= k; m.v.z *= k;
    for (int i = 0; i < 5; i++) m.arr[i] *= k;
    m.big *= k;
    return m;
}

__global__ void by_value(Mixed m, Big big, Mixed *out, long long *sums, Pair *ranges, int n, const float *data) {
    int t = threadIdx.x;
    out[t] = scaled(m, t + 1);
    long long s = 0;
    for (int i = 0; i < 256; i++) s += (long long)big.values[(i + t) % 256] * (i + 1);
    sums[t] = s;
    Pair p{INFINITY, -INFINITY};
    for (int i = t; i < n; i += blockDim.x) p = minmax(p, data[i]);
    ranges[t] = p;
}

int main() {
    Checker c;
    Mixed m;
    memset(&m, 0, sizeof m);
    m.tag = 3; m.in.s = -7; m.in.d = 1.25; m.v = make_float3(0.5f, -2.0f, 8.0f);
    for (int i = 0; i < 5; i++) m.arr[i] = i * i - 4;
    m.big = 0x123456789abcdefull;
    Big big;
    Lcg rng(77);
    for (int i = 0; i < 256; i++) big.values[i] = rng.range(-100000, 100000);
    const int threads = 64, n = 1000;
    float *data = new float[n];
    for (int i = 0; i < n; i++) data[i] = rng.uniform(-1e5f, 1e5f);
    Mixed *dout; long long *dsums; Pair *dranges; float *ddata;
    CHECK(cudaMalloc(&dout, threads * sizeof(Mixed))); CHECK(cudaMalloc(&dsums, threads * 8));
    CHECK(cudaMalloc(&dranges, threads * sizeof(Pair))); CHECK(cudaMalloc(&ddata, n * 4));
    CHECK(cudaMemcpy(ddata, data, n * 4, cudaMemcpyHostToDevice));
    by_value<<<1, threads>>>(m, big, dout, dsums, dranges, n, ddata);
    CHECK_LAUNCH();
    Mixed out[threads]; long long sums[threads]; Pair ranges[threads];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ranges, dranges, sizeof ranges, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        int k = t + 1;
        const Mixed &g = out[t];
        bool ok = g.tag == (char)(3 + k) && g.in.s == (short)(-7 * k) && g.in.d == 1.25 * k && g.v.x == 0.5f * k &&
                  g.v.y == -2.0f * k && g.v.z == 8.0f * k && g.big == 0x123456789abcdefull * k;
        for (int i = 0; i < 5; i++) ok &= g.arr[i] == (i * i - 4) * k;
        if (!ok) c.fail("scaled struct for thread %d", t);
        long long s = 0;
        for (int i = 0; i < 256; i++) s += (long long)big.values[(i + t) % 256] * (i + 1);
        if (sums[t] != s) c.fail("big param sum thread %d: %lld want %lld", t, sums[t], s);
        Pair p{INFINITY, -INFINITY};
        for (int i = t; i < n; i += threads) { p.lo = fminf(p.lo, data[i]); p.hi = fmaxf(p.hi, data[i]); }
        if (ranges[t].lo != p.lo || ranges[t].hi != p.hi) c.fail("minmax thread %d", t);
    }
    return c.finish();
}
