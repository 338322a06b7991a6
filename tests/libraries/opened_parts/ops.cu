// A part with kernels, as cuDNN's libcudnn_ops.so.9 is: installed as libcudnn_ops.so.9.19.0
// with libcudnn_ops.so.9 a link to it. Its cudart (static, its own) registers its fatbin.
#include <cuda_runtime.h>

__global__ void cube(const int *in, long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = (long long)in[i] * in[i] * in[i];
}

extern "C" int ops_cube(const int *in, long long *out, int n)
{
	cube<<<(n + 63) / 64, 64>>>(in, out, n);
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	return (int)e;
}
