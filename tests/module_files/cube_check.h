// The check of a plugin's cube function (plugin.cu's plugin_cube, or a library's that calls
// it): the program's own kernel fills the input, the plugin cubes it, and the host checks
// every value. Prints PASS, or FAIL and why; returns the exit status.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

__global__ void fill(int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = i - 500;
}

// cube's result: a CUDA error, or -1 for a part of the plugin missing.
static int check_cubes(int (*cube)(const int *, long long *, int))
{
	enum { N = 1000 };
	int *x;
	long long *y;
	std::vector<long long> got(N);
	if (cudaMalloc(&x, N * sizeof *x) != cudaSuccess || cudaMalloc(&y, N * sizeof *y) != cudaSuccess) {
		printf("FAIL: cudaMalloc\n");
		return 1;
	}
	fill<<<(N + 127) / 128, 128>>>(x, N);
	int e = cube(x, y, N);
	if (e != 0) {
		printf("FAIL: %s\n", e < 0 ? "a part is missing" : cudaGetErrorName((cudaError_t)e));
		return 1;
	}
	cudaMemcpy(got.data(), y, N * sizeof *y, cudaMemcpyDeviceToHost);
	for (int i = 0; i < N; i++) {
		long long v = i - 500;
		if (got[i] != v * v * v) {
			printf("FAIL: [%d] = %lld, want %lld\n", i, got[i], v * v * v);
			return 1;
		}
	}
	printf("PASS\n");
	return 0;
}
