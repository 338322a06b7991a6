/* The HIP runtime's names and whether to try it, on Windows. */
#include "find_driver.h"

/* The names AMD's HIP SDK and display driver give the runtime. */
const char *const zc_hip_library_names[ZC_HIP_LIBRARY_COUNT] = {
	"amdhip64_7.dll", "amdhip64_6.dll",
};

bool
zc_amd_gpu_possible(void)
{
	return true;
}
