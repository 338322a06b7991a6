/* A replacement's kernels (engine/kernels.S carries their fatbin): loaded into the CUDA
 * context the program uses, and launched by name with one argument structure. */
#include <cuda.h>
#include <stdint.h>

#include "engine.h"

extern const unsigned char zc_kernels_fatbin[];

CUresult zc_kernels_context(CUcontext *context)
{
	CUdevice device;
	CUresult r;

	if ((r = cuInit(0)) != CUDA_SUCCESS)
		return r;
	/* As the runtime would: the first device's primary context when none is current. */
	if (cuCtxGetCurrent(context) != CUDA_SUCCESS || !*context) {
		if ((r = cuDeviceGet(&device, 0)) != CUDA_SUCCESS ||
		    (r = cuDevicePrimaryCtxRetain(context, device)) != CUDA_SUCCESS ||
		    (r = cuCtxSetCurrent(*context)) != CUDA_SUCCESS)
			return r;
	}
	return CUDA_SUCCESS;
}

CUresult zc_kernels_load(CUcontext *context, CUmodule *module)
{
	CUresult r = zc_kernels_context(context);

	return r != CUDA_SUCCESS ? r : cuModuleLoadData(module, zc_kernels_fatbin);
}

CUresult zc_kernels_launch(CUmodule module, const char *kernel, unsigned grid_x,
                           unsigned grid_y, unsigned grid_z, unsigned block_x, CUstream stream,
                           const void *args)
{
	CUfunction f;
	void *params[] = {(void *)args};
	CUresult r = cuModuleGetFunction(&f, module, kernel);

	if (r != CUDA_SUCCESS)
		return r;
	return cuLaunchKernel(f, grid_x, grid_y, grid_z, block_x, 1, 1, 0, stream, params, NULL);
}
