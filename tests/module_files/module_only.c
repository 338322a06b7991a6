/* A program with no GPU code of its own, written against the driver API alone, whose
 * kernels all come from a module file: converted with --offload-arch=host, it must get the
 * CPU driver on a machine without a GPU though no file it starts with carries host code.
 * Usage: module_only FATBIN_FILE. Prints PASS and exits 0 when the result is right. */
#include "driver_check.h"

enum { N = 777 };

int
main(int argc, char **argv)
{
	float x[N], y[N], a = 3.0f;
	int n = N, wrong = 0;
	CUdevice device;
	CUcontext context;
	CUmodule module;
	CUfunction saxpy;
	CUdeviceptr dx, dy;

	if (argc != 2) {
		printf("usage: module_only FATBIN_FILE\n");
		return 2;
	}
	for (int i = 0; i < N; i++) {
		x[i] = (float)i;
		y[i] = (float)(i % 5);
	}
	DRIVER(cuInit(0));
	DRIVER(cuDeviceGet(&device, 0));
	DRIVER(cuDevicePrimaryCtxRetain(&context, device));
	DRIVER(cuCtxSetCurrent(context));
	DRIVER(cuModuleLoad(&module, argv[1]));
	DRIVER(cuModuleGetFunction(&saxpy, module, "saxpy"));
	DRIVER(cuMemAlloc(&dx, sizeof x));
	DRIVER(cuMemAlloc(&dy, sizeof y));
	DRIVER(cuMemcpyHtoD(dx, x, sizeof x));
	DRIVER(cuMemcpyHtoD(dy, y, sizeof y));
	void *params[] = { &a, &dx, &dy, &n };
	DRIVER(cuLaunchKernel(saxpy, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, params, NULL));
	DRIVER(cuMemcpyDtoH(y, dy, sizeof y));
	for (int i = 0; i < N; i++)
		wrong += y[i] != a * (float)i + (float)(i % 5);
	if (wrong) {
		printf("FAIL %d wrong results\n", wrong);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
