// Half precision arithmetic, inline PTX, 64-bit math and special registers.
#include <cuda_fp16.h>

__device__ unsigned lane_id(void)
{
    unsigned id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}

__device__ unsigned add_with_carry(unsigned a, unsigned b, unsigned *carry)
{
    unsigned lo, hi;
    asm("{\n\t"
        ".reg .u32 t;\n\t"
        "add.cc.u32 %0, %2, %3;\n\t"
        "addc.u32 t, 0, 0;\n\t"
        "mov.u32 %1, t;\n\t"
        "}"
        : "=r"(lo), "=r"(hi) : "r"(a), "r"(b));
    *carry = hi;
    return lo;
}

__global__ void half_math(const __half2 *a, const __half2 *b, __half2 *out, __half *h, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half2 r = __hfma2(a[i], b[i], __float2half2_rn(0.5f));
    r = __hmax2(r, __hneg2(r));
    out[i] = r;
    h[i] = __hadd(__low2half(r), __float2half(1.25f));
}

__global__ void wide_math(unsigned long long *out, const double *x, unsigned *carries)
{
    unsigned tid = threadIdx.x;
    unsigned c;
    unsigned s = add_with_carry(tid, 0xfffffff0u, &c);
    carries[tid] = c + lane_id();
    unsigned long long v = __umul64hi(out[tid], 0x9e3779b97f4a7c15ull);
    double d = sqrt(x[tid]) + rsqrt(x[tid]) + sin(x[tid]) + __expf((float)x[tid]);
    out[tid] = v + (unsigned long long)d + s + __brevll(v) + __clzll(v) + clock64();
}
