// The bundled example: a CUDA program that adds two vectors and checks the result.
#include <cstdio>
#include <cstdlib>

__global__ void vector_add(const float *a, const float *b, float *sum, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		sum[i] = a[i] + b[i];
}

int main()
{
	const int n = 1 << 16;
	size_t bytes = n * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *sum = (float *)malloc(bytes);
	float *da, *db, *dsum;

	for (int i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * (float)i;
	}
	if (cudaMalloc(&da, bytes) != cudaSuccess || cudaMalloc(&db, bytes) != cudaSuccess ||
	    cudaMalloc(&dsum, bytes) != cudaSuccess) {
		printf("FAIL: no CUDA device (%s)\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
	cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
	vector_add<<<(n + 255) / 256, 256>>>(da, db, dsum, n);
	cudaMemcpy(sum, dsum, bytes, cudaMemcpyDeviceToHost);
	for (int i = 0; i < n; i++) {
		if (sum[i] != a[i] + b[i]) {
			printf("FAIL: sum[%d] = %g, expected %g\n", i, sum[i], a[i] + b[i]);
			return 1;
		}
	}
	printf("PASS: %d sums\n", n);
	return 0;
}
