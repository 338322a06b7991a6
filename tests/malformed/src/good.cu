// The undamaged input the malformed corpus is cut from: two small kernels, so that every
// fatbin holds a cubin and a PTX entry and the PTX declares more than one .entry.
#include <cstdio>

__global__ void scale(float *data, float factor, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		data[i] *= factor;
}

__global__ void add(const float *a, const float *b, float *sum, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		sum[i] = a[i] + b[i];
}

int main(void)
{
	float *d;
	cudaMalloc(&d, 4 * sizeof(float));
	scale<<<1, 4>>>(d, 2.0f, 4);
	add<<<1, 4>>>(d, d, d, 4);
	cudaFree(d);
	printf("done\n");
	return 0;
}
