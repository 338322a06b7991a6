// Compare-and-swap loops building atomics CUDA lacks: float max, double
// multiply-by-power-of-two counter, a 64-bit packed (value, index) argmin;
// and a global spin lock (taken by one thread per block, with __threadfence
// before release) guarding a non-atomic read-modify-write.
#include "test_util.h"

__device__ float atomic_max_float(float *addr, float v) {
    int *ia = (int *)addr;
    int old = *ia, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v) break;
        old = atomicCAS(ia, assumed, __float_as_int(v));
    } while (old != assumed);
    return __int_as_float(old);
}

__device__ double atomic_mul_double(double *addr, double f) {
    unsigned long long *ua = (unsigned long long *)addr;
    unsigned long long old = *ua, assumed;
    do {
        assumed = old;
        old = atomicCAS(ua, assumed, __double_as_longlong(__longlong_as_double(assumed) * f));
    } while (old != assumed);
    return __longlong_as_double(old);
}

// (value << 32 | index): the unsigned minimum is the smallest value, lowest index.
__device__ void atomic_argmin(unsigned long long *addr, unsigned value, unsigned index) {
    unsigned long long packed = ((unsigned long long)value << 32) | index;
    unsigned long long old = *addr, assumed;
    while (packed < old) {
        assumed = old;
        old = atomicCAS(addr, assumed, packed);
        if (old == assumed) break;
    }
}

__global__ void cas_ops(int n, const float *f, const unsigned *u, float *fmax_out, double *prod,
                        unsigned long long *argmin, int *lock, long long *guarded, int *lock_count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomic_max_float(fmax_out, f[i]);
        if (i % 16 == 0) atomic_mul_double(prod, (u[i] & 1) ? 2.0 : 0.5);
        atomic_argmin(argmin, u[i] >> 8, i);
    }
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        __threadfence();
        // Plain, non-atomic update: only correct if the lock excludes others.
        volatile long long *g = guarded;
        *g = *g + (long long)(blockIdx.x + 1) * (blockIdx.x + 1);
        (*lock_count)++;
        __threadfence();
        atomicExch(lock, 0);
    }
}

int main() {
    Checker c;
    const int n = 1200, block = 100, blocks = 12;
    Lcg rng(1010);
    float *f = new float[n]; unsigned *u = new unsigned[n];
    for (int i = 0; i < n; i++) { f[i] = rng.uniform(-1e6f, 1e6f); u[i] = rng.next(); }
    float *df, *dfmax; unsigned *du; double *dprod; unsigned long long *darg; int *dlock, *dcount; long long *dg;
    CHECK(cudaMalloc(&df, n * 4)); CHECK(cudaMalloc(&du, n * 4)); CHECK(cudaMalloc(&dfmax, 4));
    CHECK(cudaMalloc(&dprod, 8)); CHECK(cudaMalloc(&darg, 8)); CHECK(cudaMalloc(&dlock, 4));
    CHECK(cudaMalloc(&dg, 8)); CHECK(cudaMalloc(&dcount, 4));
    CHECK(cudaMemcpy(df, f, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(du, u, n * 4, cudaMemcpyHostToDevice));
    float ninf = -INFINITY; double one = 1.0; unsigned long long maxp = ~0ull; long long g0 = 0;
    CHECK(cudaMemcpy(dfmax, &ninf, 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dprod, &one, 8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(darg, &maxp, 8, cudaMemcpyHostToDevice)); CHECK(cudaMemset(dlock, 0, 4));
    CHECK(cudaMemcpy(dg, &g0, 8, cudaMemcpyHostToDevice)); CHECK(cudaMemset(dcount, 0, 4));
    cas_ops<<<blocks, block>>>(n, df, du, dfmax, dprod, darg, dlock, dg, dcount);
    CHECK_LAUNCH();
    float fmax_got; double prod; unsigned long long arg; long long g; int count;
    CHECK(cudaMemcpy(&fmax_got, dfmax, 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(&prod, dprod, 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&arg, darg, 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(&g, dg, 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&count, dcount, 4, cudaMemcpyDeviceToHost));
    float wmax = -INFINITY; double wprod = 1; unsigned long long warg = ~0ull;
    for (int i = 0; i < n; i++) {
        wmax = f[i] > wmax ? f[i] : wmax;
        if (i % 16 == 0) wprod *= (u[i] & 1) ? 2.0 : 0.5;  // powers of two: exact in any order
        unsigned long long p = ((unsigned long long)(u[i] >> 8) << 32) | (unsigned)i;
        warg = p < warg ? p : warg;
    }
    if (fmax_got != wmax) c.fail("float max %g want %g", fmax_got, wmax);
    if (prod != wprod) c.fail("double product %g want %g", prod, wprod);
    if (arg != warg) c.fail("argmin %llx want %llx", arg, warg);
    if (count != blocks) c.fail("lock count %d want %d", count, blocks);
    long long wg = 0;
    for (int b = 0; b < blocks; b++) wg += (long long)(b + 1) * (b + 1);
    if (g != wg) c.fail("lock-guarded sum %lld want %lld: an update was lost", g, wg);
    return c.finish();
}
