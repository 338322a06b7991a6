/* The driver the API runs on and what cuInit answered: set once, by cuInit's choice of
 * driver (exports/init.c, through start.c), read by every API function. */
#include "api.h"

const struct zc_driver *zc_drv;
static CUresult initialized = CUDA_ERROR_NOT_INITIALIZED;

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
