/* The driver the API runs on and what cuInit answered: set once, by cuInit's choice of
 * driver (exports/entry.c). */
#include "api.h"

const struct zc_driver *zc_drv;
static CUresult initialized = CUDA_ERROR_NOT_INITIALIZED;

CUresult
zc_api_start(const struct zc_driver *driver)
{
	int count = 0;
	CUresult r = driver->init(&count);

	if (r == CUDA_SUCCESS && count == 0)
		r = stub_fail(CUDA_ERROR_NO_DEVICE, "the %s driver found no device", driver->name);
	if (r != CUDA_SUCCESS)
		return r;
	zc_drv = driver;
	return zc_devices_init(count);
}

void
zc_api_set_initialized(CUresult result)
{
	initialized = result;
}

CUresult
zc_initialized(void)
{
	/* The once of cuInit's choice of driver orders the write of the result before this
	 * read. */
	return initialized;
}
