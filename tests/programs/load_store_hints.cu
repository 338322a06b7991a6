// Cache-hinted loads and stores: __ldg (read-only path), __ldca, __ldcg,
// __ldcs, __ldlu, __ldcv and __stwb, __stcg, __stcs, __stwt on scalar and
// vector types (int, float, double, float4, int2), plus const __restrict__
// parameters. Semantically they are plain loads and stores: results must be
// exact copies and sums.
#include "test_util.h"

__global__ void hinted(int n, const float *__restrict__ f, const int *__restrict__ k, const double *d, const float4 *v4,
                       const int2 *v2, float *of, int *ok, double *od, float4 *ov4, int2 *ov2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = __ldg(f + i) + __ldca(f + (i + 1) % n);
    int b = __ldcg(k + i) ^ __ldcs(k + (n - 1 - i));
    double c = __ldlu(d + i) * 2.0 + __ldcv(d + (i + 7) % n);
    float4 q = __ldg(v4 + i);
    int2 r = __ldcg(v2 + i);
    __stwb(of + i, a);
    __stcg(ok + i, b);
    __stcs(od + i, c);
    __stwt(ov4 + i, make_float4(q.w, q.z, q.y, q.x));
    __stcs(ov2 + i, make_int2(r.y, r.x + r.y));
}

int main() {
    Checker ch;
    const int n = 512;
    float f[n], of[n]; int k[n], ok[n]; double d[n], od[n]; float4 v4[n], ov4[n]; int2 v2[n], ov2[n];
    Lcg rng(11);
    for (int i = 0; i < n; i++) {
        f[i] = (float)rng.range(-1000, 1000) * 0.5f; k[i] = (int)rng.next(); d[i] = rng.uniformd(-1, 1);
        v4[i] = make_float4(i, -i, i * 2.0f, 0.5f); v2[i] = make_int2(rng.range(-100, 100), rng.range(-100, 100));
    }
    float *df, *dof; int *dk, *dok; double *dd, *dod; float4 *dv4, *dov4; int2 *dv2, *dov2;
    CHECK(cudaMalloc(&df, sizeof f)); CHECK(cudaMalloc(&dof, sizeof of)); CHECK(cudaMalloc(&dk, sizeof k)); CHECK(cudaMalloc(&dok, sizeof ok));
    CHECK(cudaMalloc(&dd, sizeof d)); CHECK(cudaMalloc(&dod, sizeof od)); CHECK(cudaMalloc(&dv4, sizeof v4)); CHECK(cudaMalloc(&dov4, sizeof ov4));
    CHECK(cudaMalloc(&dv2, sizeof v2)); CHECK(cudaMalloc(&dov2, sizeof ov2));
    CHECK(cudaMemcpy(df, f, sizeof f, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dk, k, sizeof k, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dd, d, sizeof d, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dv4, v4, sizeof v4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv2, v2, sizeof v2, cudaMemcpyHostToDevice));
    hinted<<<n / 128, 128>>>(n, df, dk, dd, dv4, dv2, dof, dok, dod, dov4, dov2);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(of, dof, sizeof of, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(ok, dok, sizeof ok, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(od, dod, sizeof od, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(ov4, dov4, sizeof ov4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ov2, dov2, sizeof ov2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        if (of[i] != f[i] + f[(i + 1) % n]) ch.fail("float %d", i);
        if (ok[i] != (k[i] ^ k[n - 1 - i])) ch.fail("int %d", i);
        if (od[i] != d[i] * 2.0 + d[(i + 7) % n]) ch.fail("double %d", i);  // *2 is exact: no contraction issue
        if (ov4[i].x != v4[i].w || ov4[i].y != v4[i].z || ov4[i].z != v4[i].y || ov4[i].w != v4[i].x) ch.fail("float4 %d", i);
        if (ov2[i].x != v2[i].y || ov2[i].y != v2[i].x + v2[i].y) ch.fail("int2 %d", i);
    }
    return ch.finish();
}
