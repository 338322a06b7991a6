/* The HIP runtime's names and whether to try it, on Linux. */
#include <stdlib.h>
#include <unistd.h>

#include "find_driver.h"

const char *const zc_hip_library_names[ZC_HIP_LIBRARY_COUNT] = {
	"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5",
};

bool
zc_amd_gpu_possible(void)
{
	const char *path = getenv("ZLUDA_CONVERT_HIP_PATH");
	return (path && *path) || access("/dev/kfd", F_OK) == 0;
}
