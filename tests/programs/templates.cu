// Templates in device code: one kernel template instantiated for int,
// unsigned long long, float and double; a functor parameter; compile-time
// recursion (constexpr power and a template-unrolled loop); variadic
// templates; and a template __shared__ reduction with the block size as a
// template argument.
#include "test_util.h"

template <typename T> struct Square { __device__ T operator()(T v) const { return v * v; } };
template <typename T> struct Affine { T a, b; __device__ T operator()(T v) const { return a * v + b; } };

template <typename T, typename F> __global__ void transform(int n, const T *in, T *out, F f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f(in[i]);
}

template <int N> struct Pow3 { static constexpr long long value = 3 * Pow3<N - 1>::value; };
template <> struct Pow3<0> { static constexpr long long value = 1; };

template <int I, int N> struct Unroll {
    template <typename F> __device__ static void run(F &f) { f(I); Unroll<I + 1, N>::run(f); }
};
template <int N> struct Unroll<N, N> { template <typename F> __device__ static void run(F &) {} };

__device__ long long sum_all() { return 0; }
template <typename T, typename... Rest> __device__ long long sum_all(T first, Rest... rest) { return (long long)first + sum_all(rest...); }

template <int BLOCK, typename T> __global__ void block_sum(const T *in, T *out) {
    __shared__ T s[BLOCK];
    s[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];
    __syncthreads();
#pragma unroll
    for (int d = BLOCK / 2; d > 0; d /= 2) {
        if (threadIdx.x < d) s[threadIdx.x] += s[threadIdx.x + d];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

struct Acc { long long v; __device__ void operator()(int i) { v = v * 10 + i; } };
__global__ void compile_time(long long *out) {
    out[0] = Pow3<20>::value;
    Acc acc{0};
    Unroll<1, 8>::run(acc);
    out[1] = acc.v;
    out[2] = sum_all(1, 2u, 3ll, (short)4, (char)5, 600000000000ll);
}

template <typename T> static bool run_transform(Checker &c, const char *name, T scale) {
    const int n = 500;
    T in[n], out[n];
    for (int i = 0; i < n; i++) in[i] = (T)(i % 97) * scale;
    T *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    transform<<<(n + 127) / 128, 128>>>(n, din, dout, Square<T>());
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (out[i] != in[i] * in[i]) { c.fail("%s square %d", name, i); return false; }
    Affine<T> f{(T)3, (T)7};
    transform<<<(n + 127) / 128, 128>>>(n, din, dout, f);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (out[i] != (T)3 * in[i] + (T)7) { c.fail("%s affine %d", name, i); return false; }
    CHECK(cudaFree(din)); CHECK(cudaFree(dout));
    return true;
}

template <int BLOCK, typename T> static void run_block_sum(Checker &c, const char *name) {
    const int blocks = 5;
    T in[BLOCK * blocks], out[blocks];
    for (int i = 0; i < BLOCK * blocks; i++) in[i] = (T)((i * 37) % 101);
    T *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    block_sum<BLOCK, T><<<blocks, BLOCK>>>(din, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        T w = 0;
        for (int i = 0; i < BLOCK; i++) w += in[b * BLOCK + i];
        if (out[b] != w) c.fail("%s block_sum<%d> block %d", name, BLOCK, b);
    }
}

int main() {
    Checker c;
    run_transform<int>(c, "int", 3);
    run_transform<unsigned long long>(c, "ull", 123456789ull);
    run_transform<float>(c, "float", 0.5f);   // products of small halves: exact
    run_transform<double>(c, "double", 0.25);
    run_block_sum<64, int>(c, "int");
    run_block_sum<128, double>(c, "double");
    run_block_sum<32, unsigned long long>(c, "ull");
    long long *d, h[3];
    CHECK(cudaMalloc(&d, sizeof h));
    compile_time<<<1, 1>>>(d);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    if (h[0] != 3486784401ll) c.fail("Pow3<20> = %lld", h[0]);
    if (h[1] != 1234567) c.fail("unrolled digits %lld", h[1]);
    if (h[2] != 600000000015ll) c.fail("variadic sum %lld", h[2]);
    return c.finish();
}
