// A program that loads its kernels from module files, as plugins and JIT-free libraries do:
// cuModuleLoadData of each file read into memory before anything else loads it (as
// cuda-samples' simpleTextureDrv does), the buffer freed once loaded; cuModuleLoad of the
// PTX file, cuLibraryLoadFromFile of the fatbin, and cuModuleLoadData of the PTX text again.
// Its own kernel (fill) comes through cudart. Usage:
//   module_files PTX_FILE FATBIN_FILE
// Prints PASS and exits 0 when every result is right; on a driver error prints its name.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

#include "driver_check.h"

static int failures;

enum { N = 1000 };

__global__ void fill(float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		x[i] = (float)i;
		y[i] = 0.5f * (float)(i % 7);
	}
}

// y = a * x + y through `f`, checked against the same arithmetic on the CPU.
static void run_saxpy(CUfunction f, const char *how, float a)
{
	float *x, *y;
	std::vector<float> got(N);
	int n = N;

	cudaMalloc(&x, N * sizeof(float));
	cudaMalloc(&y, N * sizeof(float));
	fill<<<(N + 127) / 128, 128>>>(x, y, N);
	void *params[] = { &a, &x, &y, &n };
	DRIVER(cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
	cudaMemcpy(got.data(), y, N * sizeof(float), cudaMemcpyDeviceToHost);
	int wrong = 0;
	for (int i = 0; i < N; i++)
		wrong += got[i] != a * (float)i + 0.5f * (float)(i % 7);
	if (wrong) {
		printf("FAIL %s: %d wrong results\n", how, wrong);
		failures++;
	}
	cudaFree(x);
	cudaFree(y);
}

static std::vector<char> read_file(const char *path)
{
	std::vector<char> bytes;
	FILE *f = fopen(path, "rb");
	int c;

	if (!f) {
		printf("FAIL cannot open %s\n", path);
		exit(1);
	}
	while ((c = getc(f)) != EOF)
		bytes.push_back((char)c);
	fclose(f);
	bytes.push_back(0);
	return bytes;
}

int main(int argc, char **argv)
{
	CUmodule from_ptx, from_text;
	CUlibrary from_fatbin;
	CUfunction f;
	CUkernel k;
	CUdeviceptr launches;
	size_t bytes;
	int count = 0;

	if (argc != 3) {
		printf("usage: module_files PTX_FILE FATBIN_FILE\n");
		return 2;
	}
	cudaError_t e = cudaFree(0);
	if (e != cudaSuccess) {
		printf("cudaFree: %s\n", cudaGetErrorName(e));
		return 2;
	}
	for (int i = 2; i >= 1; i--) {
		CUmodule from_memory;
		std::vector<char> *file = new std::vector<char>(read_file(argv[i]));
		DRIVER(cuModuleLoadData(&from_memory, file->data()));
		delete file;
		DRIVER(cuModuleGetFunction(&f, from_memory, "saxpy"));
		run_saxpy(f, i == 2 ? "cuModuleLoadData of the fatbin file's bytes"
		                    : "cuModuleLoadData of the PTX file's bytes", 4.0f);
		DRIVER(cuModuleUnload(from_memory));
	}

	DRIVER(cuModuleLoad(&from_ptx, argv[1]));
	DRIVER(cuModuleGetFunction(&f, from_ptx, "saxpy"));
	run_saxpy(f, "cuModuleLoad", 2.0f);
	run_saxpy(f, "cuModuleLoad, again", -3.0f);
	DRIVER(cuModuleGetGlobal(&launches, &bytes, from_ptx, "launches"));
	DRIVER(cuMemcpyDtoH(&count, launches, sizeof count));
	if (bytes != sizeof(int) || count != 2) {
		printf("FAIL launches: %d (%zu bytes), want 2\n", count, bytes);
		failures++;
	}

	DRIVER(cuLibraryLoadFromFile(&from_fatbin, argv[2], NULL, NULL, 0, NULL, NULL, 0));
	DRIVER(cuLibraryGetKernel(&k, from_fatbin, "saxpy"));
	run_saxpy((CUfunction)k, "cuLibraryLoadFromFile", 0.25f);

	std::vector<char> text = read_file(argv[1]);
	DRIVER(cuModuleLoadData(&from_text, text.data()));
	DRIVER(cuModuleGetFunction(&f, from_text, "saxpy"));
	run_saxpy(f, "cuModuleLoadData", 1.5f);

	DRIVER(cuModuleUnload(from_text));
	DRIVER(cuLibraryUnload(from_fatbin));
	DRIVER(cuModuleUnload(from_ptx));
	if (failures)
		return 1;
	printf("PASS\n");
	return 0;
}
