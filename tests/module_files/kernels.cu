// Kernels a program loads from files at run time (module_files.cu), not linked into it.
extern "C" __device__ int launches;

__device__ int launches;

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
	if (i == 0)
		atomicAdd(&launches, 1);
}
