/* The CPU driver where it does not run yet: nvcuda.dll. It runs ELF host code objects
 * through the dynamic loader on ucontext fibers; Windows needs host code objects of its own
 * (COFF linked into a DLL) and fibers of its own. Until then choosing it fails, saying so. */
#include "api.h"

static CUresult
host_unavailable(int *device_count)
{
	(void)device_count;
	return stub_fail(CUDA_ERROR_NO_DEVICE,
	                 "the CPU driver (host) is not in nvcuda.dll yet: on Windows a converted "
	                 "program runs on an AMD GPU (HIP) or an NVIDIA GPU");
}

const struct zc_driver zc_host_driver = { .name = "host", .init = host_unavailable };
