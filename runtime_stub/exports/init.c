/* cuInit and cuDriverGetVersion: the choice of the process's driver, once, which every
 * entry point that can hand the process to NVIDIA's driver asks first. */
#include <stdlib.h>
#include <string.h>

#include "forward.h"
#include "find_driver.h"

static pthread_once_t selected = PTHREAD_ONCE_INIT;

/* The process's NVIDIA driver, when it was chosen (nvidia_driver.c). */
static bool forwarding;
static char nvidia_driver_path[4096];

static CUresult
start_cuda(void)
{
	CUresult r = zc_cuda_forward(nvidia_driver_path, sizeof nvidia_driver_path);
	forwarding = r == CUDA_SUCCESS;
	return r;
}

/* Once per process. ZLUDA_CONVERT_DRIVER=hip|cuda|host chooses; otherwise an AMD GPU
 * through HIP, else an NVIDIA GPU through NVIDIA's own driver (the program then runs as
 * the unconverted one, on its original fatbins), else the CPU when a converted file of the
 * process has code for it, else no device: a program converted only for GPUs then fails
 * the way it would on a machine without one. */
static void
select_driver(void)
{
	const char *choice = getenv("ZLUDA_CONVERT_DRIVER");
	CUresult result;

	if (choice && strcmp(choice, "hip") == 0)
		result = zc_api_start(&zc_hip_driver);
	else if (choice && strcmp(choice, "cuda") == 0)
		result = start_cuda();
	else if (choice && strcmp(choice, "host") == 0)
		result = zc_api_start(&zc_host_driver);
	else if (choice && *choice)
		result = stub_fail(CUDA_ERROR_NO_DEVICE,
		                   "ZLUDA_CONVERT_DRIVER=%s is not hip, cuda or host", choice);
	else if ((zc_amd_gpu_possible() && zc_api_start(&zc_hip_driver) == CUDA_SUCCESS) ||
	         start_cuda() == CUDA_SUCCESS)
		result = CUDA_SUCCESS;
	else if (zc_images_have_cpu_code(zc_host_code_target_name))
		result = zc_api_start(&zc_host_driver);
	else
		result = stub_fail(CUDA_ERROR_NO_DEVICE,
		                   "no AMD GPU, no NVIDIA GPU, and no converted file of this "
		                   "process has code for the CPU (--offload-arch=host)");
	zc_api_set_initialized(result);
	if (zc_tracing && forwarding)
		zc_trace_line("zluda-convert: using NVIDIA's driver %s: every call goes to it from "
		              "here on, and is not traced", nvidia_driver_path);
	else if (zc_tracing && zc_drv)
		zc_trace_line("zluda-convert: using the %s driver", zc_drv->name);
}

bool
zc_select_driver(void)
{
	pthread_once(&selected, select_driver);
	return forwarding;
}

ZC_EXPORT CUresult
cuInit(unsigned int flags)
{
	if (flags != 0)
		return TRACE(stub_fail(CUDA_ERROR_INVALID_VALUE, "flags must be 0"), "%u", flags);
	if (zc_select_driver())
		return ZC_FORWARDED(cuInit)(flags);
	return TRACE(zc_initialized(), "%u", flags);
}

ZC_EXPORT CUresult
cuDriverGetVersion(int *version)
{
	if (zc_select_driver())
		return ZC_FORWARDED(cuDriverGetVersion)(version);
	if (!version)
		return TRACE(stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL version"), "NULL");
	*version = ZC_DRIVER_VERSION;
	return TRACE(CUDA_SUCCESS, "-> %d", *version);
}
