// A program linked with libcudnn.so.9 (front.c), which opens its parts itself: its own
// kernel fills the input, the operations part cubes it. Prints PASS, or FAIL and why.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

extern "C" int front_cube(const int *in, long long *out, int n);

enum { N = 1000 };

__global__ void fill(int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = i - 500;
}

int main()
{
	int *x;
	long long *y;
	std::vector<long long> got(N);
	if (cudaMalloc(&x, N * sizeof *x) != cudaSuccess || cudaMalloc(&y, N * sizeof *y) != cudaSuccess) {
		printf("FAIL: cudaMalloc\n");
		return 1;
	}
	fill<<<(N + 127) / 128, 128>>>(x, N);
	int e = front_cube(x, y, N);
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
