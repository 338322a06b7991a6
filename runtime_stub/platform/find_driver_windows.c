/* Finding NVIDIA's nvcuda.dll by full path, and the HIP runtime's names, on Windows. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <string.h>

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

/* NVIDIA's installer puts nvcuda.dll in the system directory; the program's own directory,
 * which the loader searches first, holds this one. */
void
zc_offer_platform_drivers(struct zc_driver_search *s)
{
	wchar_t wide[MAX_PATH];
	char dir[4 * MAX_PATH];
	UINT n = GetSystemDirectoryW(wide, MAX_PATH);

	if (n > 0 && n < MAX_PATH && WideCharToMultiByte(CP_UTF8, 0, wide, -1, dir, sizeof dir, NULL, NULL) > 0)
		zc_offer_driver_in(s, dir, strlen(dir));
}
