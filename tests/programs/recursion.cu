// Recursive device functions (they need a real call stack): naive Fibonacci,
// Ackermann(2, n), mutual recursion (is_even/is_odd), and a recursive
// quicksort of a per-thread local array.
#include "test_util.h"
#include <algorithm>

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int ackermann(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}
__device__ bool is_odd(unsigned n);
__device__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }
__device__ void quicksort(int *a, int lo, int hi) {
    if (lo >= hi) return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) i++;
        while (a[j] > p) j--;
        if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
    }
    quicksort(a, lo, j);
    quicksort(a, i, hi);
}

__global__ void recurse(const int *in, int *out) {
    int t = threadIdx.x;
    int *o = out + t * 20;
    o[0] = fib(t % 16);
    o[1] = ackermann(2, t % 8);
    o[2] = is_even(t * 3 + 1);
    int a[16];
    for (int i = 0; i < 16; i++) a[i] = in[t * 16 + i];
    quicksort(a, 0, 15);
    for (int i = 0; i < 16; i++) o[4 + i] = a[i];
}

static int fib_h(int n) { return n < 2 ? n : fib_h(n - 1) + fib_h(n - 2); }

int main() {
    Checker c;
    const int threads = 64;
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 8192));  // room for the deepest recursion
    Lcg rng(6);
    int in[threads * 16], out[threads * 20];
    for (int &v : in) v = rng.range(-100, 100);
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    recurse<<<1, threads>>>(din, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        const int *o = out + t * 20;
        if (o[0] != fib_h(t % 16)) c.fail("fib(%d) = %d", t % 16, o[0]);
        if (o[1] != 2 * (t % 8) + 3) c.fail("ackermann(2, %d) = %d", t % 8, o[1]);
        if (o[2] != ((t * 3 + 1) % 2 == 0)) c.fail("is_even(%d) = %d", t * 3 + 1, o[2]);
        int a[16];
        memcpy(a, in + t * 16, sizeof a);
        std::sort(a, a + 16);
        if (memcmp(a, o + 4, sizeof a)) c.fail("quicksort thread %d", t);
    }
    return c.finish();
}
