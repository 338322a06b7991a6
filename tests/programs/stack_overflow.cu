// A kernel whose recursion outgrows any thread's stack fails its launch, and the program
// lives to hear it (the CPU driver catches the fault in the guard below a fiber's stack);
// the same recursion, shallow, runs and gives the sum computed on the host.
#include "test_util.h"

__device__ __noinline__ int deep(int n)
{
    volatile int local[64];
    for (int i = 0; i < 64; i++)
        local[i] = n + i;
    if (n == 0)
        return local[7];
    return deep(n - 1) + local[(n * 7) % 64];
}

__global__ void recurse(int depth, int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = deep(depth + threadIdx.x % 4);
}

static int deep_ref(int n)
{
    return n == 0 ? 7 : deep_ref(n - 1) + n + (n * 7) % 64;
}

int main()
{
    Checker c;
    int *out, host[64];
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
    CHECK(cudaMalloc(&out, sizeof host));
    recurse<<<2, 32>>>(20, out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        if (host[i] != deep_ref(20 + i % 32 % 4))
            c.fail("shallow recursion, thread %d: %d want %d", i, host[i], deep_ref(20 + i % 32 % 4));
    // Far beyond the 16 KiB asked for, and beyond the CPU driver's 256 KiB.
    recurse<<<2, 32>>>(1000000, out);
    cudaError_t launched = cudaGetLastError(), ran = cudaDeviceSynchronize();
    if (launched != cudaSuccess)
        c.fail("the deep launch itself failed: %s", cudaGetErrorString(launched));
    if (ran == cudaSuccess)
        c.fail("a recursion 1,000,000 deep ran to its end");
    return c.finish();
}
