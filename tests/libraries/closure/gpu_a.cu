// A library with kernels of its own that needs another one (gpu_b).
#include <cuda_runtime.h>

extern "C" int gpu_b_square(int *device_values, int n);

__global__ void add_index(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] += i;
}

// v[i] = (v[i] + i)^2, on the device.
extern "C" int gpu_a_transform(int *host_values, int n)
{
	int *d;
	if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess ||
	    cudaMemcpy(d, host_values, n * sizeof(int), cudaMemcpyHostToDevice) != cudaSuccess)
		return 1;
	add_index<<<(n + 127) / 128, 128>>>(d, n);
	if (gpu_b_square(d, n) != 0 ||
	    cudaMemcpy(host_values, d, n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess)
		return 1;
	return cudaFree(d) == cudaSuccess ? 0 : 1;
}
