/* The time one cuModuleLoad of FILE takes, in milliseconds, on the device the driver gives:
 * for bench/runtime_translation.sh. Usage: module_load FILE */
#include <cuda.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
	CUdevice device;
	CUcontext context;
	CUmodule module;
	struct timespec start, end;
	const char *name = "?";

	if (argc != 2) {
		fprintf(stderr, "usage: module_load FILE\n");
		return 2;
	}
	if (cuInit(0) || cuDeviceGet(&device, 0) || cuDevicePrimaryCtxRetain(&context, device) ||
	    cuCtxSetCurrent(context)) {
		fprintf(stderr, "module_load: no device\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	CUresult r = cuModuleLoad(&module, argv[1]);
	clock_gettime(CLOCK_MONOTONIC, &end);
	if (r != CUDA_SUCCESS) {
		cuGetErrorName(r, &name);
		fprintf(stderr, "module_load: %s: %s\n", argv[1], name);
		return 1;
	}
	printf("%.1f\n", (double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6);
	return 0;
}
