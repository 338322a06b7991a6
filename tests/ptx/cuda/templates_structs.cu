// Templates, device calls passing structs by value, recursion and function pointers.
struct Pair {
    double a;
    int b;
    char tag[3];
};

__device__ __noinline__ Pair combine(Pair x, Pair y)
{
    Pair r;
    r.a = x.a * y.a + 1.0;
    r.b = x.b ^ y.b;
    r.tag[0] = x.tag[0];
    r.tag[1] = y.tag[1];
    r.tag[2] = 0;
    return r;
}

__device__ __noinline__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ int twice(int x) { return 2 * x; }
__device__ int thrice(int x) { return 3 * x; }
__device__ int (*table[2])(int) = {twice, thrice};

template <typename T, int N>
__global__ void scale(T *data, T factor)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int k = 0; k < N; k++)
        data[i * N + k] *= factor;
}

template __global__ void scale<float, 4>(float *, float);
template __global__ void scale<double, 2>(double *, double);
template __global__ void scale<long long, 3>(long long *, long long);

__constant__ Pair init_pair = {2.5, 7, {'a', 'b', 0}};
__device__ int *global_ptr = nullptr;

__global__ void use_structs(Pair *out, int sel, int n)
{
    Pair p = combine(init_pair, out[threadIdx.x]);
    p.b += fib(n) + table[sel & 1](n);
    out[threadIdx.x] = p;
    if (global_ptr)
        *global_ptr = p.b;
}
