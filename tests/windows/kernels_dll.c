/* kernels.dll: a Windows library carrying the test's fatbin (embed_fatbin.h), converted on
 * its own; driver_api.exe loads it and hands its wrapper to nvcuda.dll, whose code must
 * then come from this file's AOT image, not the program's. */
#include "embed_fatbin.h"

__declspec(dllexport) const void *zc_test_fatbin_wrapper(void);

const void *zc_test_fatbin_wrapper(void)
{
	return &fatbin_wrapper;
}
