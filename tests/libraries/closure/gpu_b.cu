// The library at the end of the chain: found through LD_LIBRARY_PATH.
#include <cuda_runtime.h>

__global__ void square(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] *= v[i];
}

extern "C" int gpu_b_square(int *device_values, int n)
{
	square<<<(n + 127) / 128, 128>>>(device_values, n);
	return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
