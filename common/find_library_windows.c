/* Finding a library by full path on Windows. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <stdlib.h>
#include <string.h>

#include "find_library.h"

/* The value of environment variable NAME in UTF-8 (malloc'd), or NULL. */
static char *environment(const wchar_t *name)
{
	DWORD n = GetEnvironmentVariableW(name, NULL, 0);
	wchar_t *wide;
	char *value = NULL;
	int bytes;

	if (n == 0 || !(wide = malloc(n * sizeof(wchar_t))))
		return NULL;
	if (GetEnvironmentVariableW(name, wide, n) == n - 1 &&
	    (bytes = WideCharToMultiByte(CP_UTF8, 0, wide, -1, NULL, 0, NULL, NULL)) > 0 &&
	    (value = malloc((size_t)bytes)) &&
	    WideCharToMultiByte(CP_UTF8, 0, wide, -1, value, bytes, NULL, NULL) <= 0) {
		free(value);
		value = NULL;
	}
	free(wide);
	return value;
}

/* The loader's order after the program's own directory, which holds the project's files:
 * the system directory (where NVIDIA's installer puts nvcuda.dll), then PATH's directories
 * (where NVIDIA's toolkit puts its libraries), then the toolkit's CUDA_PATH itself. */
void
zc_offer_platform_libraries(struct zc_library_search *s)
{
	wchar_t wide[MAX_PATH];
	char dir[4 * MAX_PATH], *path, *toolkit;
	UINT n = GetSystemDirectoryW(wide, MAX_PATH);

	if (n > 0 && n < MAX_PATH && WideCharToMultiByte(CP_UTF8, 0, wide, -1, dir, sizeof dir, NULL, NULL) > 0)
		zc_offer_library_in(s, dir, strlen(dir));
	if ((path = environment(L"PATH"))) {
		for (const char *p = path; *p; p += *p == ';') {
			size_t len = strcspn(p, ";");

			zc_offer_library_in(s, p, len);
			p += len;
		}
		free(path);
	}
	if ((toolkit = environment(L"CUDA_PATH"))) {
		size_t len = strlen(toolkit);
		char *bin = malloc(len + sizeof "\\bin\\x64");

		if (bin) {
			memcpy(bin, toolkit, len);
			memcpy(bin + len, "\\bin\\x64", sizeof "\\bin\\x64");
			zc_offer_library_in(s, bin, len + 8);
			zc_offer_library_in(s, bin, len + 4);
			free(bin);
		}
		free(toolkit);
	}
}
