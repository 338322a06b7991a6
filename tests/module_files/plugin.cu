// A plugin nobody converted: a shared library with kernels of its own, which a program opens
// with dlopen (as cuDNN opens its engines). Its cudart (static, the library's own) registers
// its fatbin when it is loaded.
#include <cuda_runtime.h>

__global__ void cube(const int *in, long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = (long long)in[i] * in[i] * in[i];
}

// out[i] = in[i]^3 for n values in device memory; the launch's error, or the kernel's.
extern "C" int plugin_cube(const int *in, long long *out, int n)
{
	cube<<<(n + 63) / 64, 64>>>(in, out, n);
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	return (int)e;
}
