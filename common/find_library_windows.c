/* Finding a library by full path on Windows. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <string.h>

#include "find_library.h"

/* NVIDIA's installer puts nvcuda.dll in the system directory; the program's own directory,
 * which the loader searches first, holds the project's files. */
void
zc_offer_platform_libraries(struct zc_library_search *s)
{
	wchar_t wide[MAX_PATH];
	char dir[4 * MAX_PATH];
	UINT n = GetSystemDirectoryW(wide, MAX_PATH);

	if (n > 0 && n < MAX_PATH && WideCharToMultiByte(CP_UTF8, 0, wide, -1, dir, sizeof dir, NULL, NULL) > 0)
		zc_offer_library_in(s, dir, strlen(dir));
}
