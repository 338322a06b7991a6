// The stand-in's DFT (standin.cu), one output element a thread, shared by its two kernels.
#include <cuda_runtime.h>

struct StandinDft {
    const float2 *in;
    float2 *out;
    long long n, batch, stride, dist;
    int sign;
};

__device__ inline void standin_dft(const StandinDft &d)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= d.n * d.batch)
        return;
    long long b = i / d.n, k = i % d.n;
    const float2 *x = d.in + b * d.dist;
    double re = 0, im = 0;
    for (long long j = 0; j < d.n; j++) {
        double s, c;
        sincospi(2.0 * d.sign * (double)(j * k % d.n) / (double)d.n, &s, &c);
        float2 v = x[j * d.stride];
        re += v.x * c - v.y * s;
        im += v.x * s + v.y * c;
    }
    d.out[b * d.dist + k * d.stride] = make_float2((float)re, (float)im);
}

void standin_launch_odd(unsigned blocks, cudaStream_t stream, const StandinDft &d);
