// Device code of the Windows test program (driver_api.c): built by nvcc -fatbin.
#include <cstdio>
#include <cuda_fp16.h>

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

// Each 256-thread block reverses its part of x through shared memory (a barrier between),
// and each thread adds its value rounded to f16 to its warp neighbour's (a shuffle):
// y[i] = f16(v) + v', v = x[b * 256 + 255 - t], v' the same of thread t ^ 1.
extern "C" __global__ void reverse_blocks(const float *x, float *y)
{
	__shared__ float tile[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	tile[threadIdx.x] = x[i];
	__syncthreads();
	float v = tile[blockDim.x - 1 - threadIdx.x];
	float neighbour = __shfl_xor_sync(0xffffffff, v, 1);
	y[i] = __half2float(__float2half(v)) + neighbour;
}

// Each block reversed through shared memory, with only a barrier between: the CPU driver
// runs it in rounds, from the DLL's block entry.
extern "C" __global__ void reverse_tiles(const float *x, float *y)
{
	__shared__ float tile[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	tile[threadIdx.x] = x[i];
	__syncthreads();
	y[i] = tile[blockDim.x - 1 - threadIdx.x];
}

// Writes through the pointer it is given: one no memory backs makes the launch fail.
extern "C" __global__ void store_one(float *p)
{
	*p = 1.0f;
}

// Device printf: the arguments nvcc packs, formatted by the driver.
extern "C" __global__ void say(int i, long long big, double x)
{
	printf("kernel says %d %lld %.3f %s\n", i, big, x, "from the device");
}
