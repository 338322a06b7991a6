// A converted program that opens a plugin nobody converted (plugin.cu) with dlopen and has it
// run its kernel on the program's data. Usage:
//   plugin_host PLUGIN
// Prints PASS and exits 0 when every result is right; else "FAIL: " and the error's name.
#include <cstdio>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <vector>

enum { N = 1000 };

__global__ void fill(int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = i - 500;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: plugin_host PLUGIN\n");
		return 2;
	}
	void *plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!plugin) {
		printf("FAIL: %s\n", dlerror());
		return 1;
	}
	auto plugin_cube = (int (*)(const int *, long long *, int))dlsym(plugin, "plugin_cube");
	int *x;
	long long *y;
	std::vector<long long> got(N);
	if (!plugin_cube || cudaMalloc(&x, N * sizeof *x) != cudaSuccess ||
	    cudaMalloc(&y, N * sizeof *y) != cudaSuccess) {
		printf("FAIL: setup\n");
		return 1;
	}
	fill<<<(N + 127) / 128, 128>>>(x, N);
	int e = plugin_cube(x, y, N);
	if (e != cudaSuccess) {
		printf("FAIL: %s\n", cudaGetErrorName((cudaError_t)e));
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
