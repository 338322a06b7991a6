/* Finding NVIDIA's driver by full path: the loader's search (common/find_library.h), or
 * ZLUDA_CONVERT_CUDA_PATH alone. */
#include <stdlib.h>

#include "find_driver.h"
#include "find_library.h"

bool
zc_find_nvidia_driver(bool (*accept)(const char *path, void *arg), void *arg, char *out,
                      size_t size)
{
	struct zc_library_search s = {ZC_NVIDIA_DRIVER_NAME, accept, arg, out, size, false};
	const char *forced = getenv("ZLUDA_CONVERT_CUDA_PATH");

	if (forced && *forced)
		return zc_offer_library(&s, forced);
	return zc_find_library(ZC_NVIDIA_DRIVER_NAME, accept, arg, out, size);
}
