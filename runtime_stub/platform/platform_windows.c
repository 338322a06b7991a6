/* platform.h on Windows (nvcuda.dll): the loader (LoadLibraryEx, GetModuleHandleEx), file
 * mappings, and the UTF-8 paths of the stub turned into the UTF-16 ones Windows takes. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <psapi.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "platform.h"

static bool
to_wide(const char *utf8, wchar_t *out, size_t count)
{
	return MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, out, (int)count) > 0;
}

static bool
to_utf8(const wchar_t *wide, char *out, size_t size)
{
	return WideCharToMultiByte(CP_UTF8, 0, wide, -1, out, (int)size, NULL, NULL) > 0;
}

/* The system's words for the last error, on one line. */
static void
last_error(char *why, size_t size)
{
	DWORD code = GetLastError();
	DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
	                         code, 0, why, (DWORD)size, NULL);

	while (n > 0 && (why[n - 1] == '\n' || why[n - 1] == '\r' || why[n - 1] == ' '))
		why[--n] = 0;
	if (n == 0)
		snprintf(why, size, "Windows error %lu", (unsigned long)code);
}

/* A DLL's calls to its own functions never go through another module's exports on
 * Windows, so an isolated load needs nothing more. A full path loads that file even while
 * a module of the same name (this nvcuda.dll) is loaded, and its own dependencies are then
 * searched for beside it. */
void *
zc_library_open(const char *name, bool isolated, char *why, size_t why_size)
{
	wchar_t wide[ZC_PATH_MAX];
	HMODULE library;

	(void)isolated;
	if (!to_wide(name, wide, ZC_PATH_MAX)) {
		snprintf(why, why_size, "%s: not a UTF-8 name", name);
		return NULL;
	}
	library = LoadLibraryExW(wide, NULL, strpbrk(name, "\\/") ? LOAD_WITH_ALTERED_SEARCH_PATH : 0);
	if (!library) {
		int n = snprintf(why, why_size, "%s: ", name);

		last_error(why + n, why_size - (size_t)n);
	}
	return library;
}

void *
zc_library_symbol(void *library, const char *name)
{
	return (void *)GetProcAddress(library, name);
}

void
zc_library_close(void *library)
{
	FreeLibrary(library);
}

static bool
module_path(HMODULE module, char *path, size_t size)
{
	wchar_t wide[ZC_PATH_MAX];
	DWORD n = GetModuleFileNameW(module, wide, ZC_PATH_MAX);

	return n > 0 && n < ZC_PATH_MAX && to_utf8(wide, path, size);
}

bool
zc_file_of_address(const void *address, char *path, size_t size)
{
	HMODULE module;

	return GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
	                              GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
	                          address, &module) &&
	       module_path(module, path, size);
}

static char main_program[ZC_PATH_MAX];

static void
find_main_program(void)
{
	if (!module_path(NULL, main_program, sizeof main_program))
		main_program[0] = 0;
}

const char *
zc_main_program(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, find_main_program);
	return main_program;
}

void
zc_for_each_loaded_file(void (*visit)(const char *path, void *arg), void *arg)
{
	HMODULE modules[1024];
	DWORD bytes = 0;
	char path[ZC_PATH_MAX];

	if (!EnumProcessModules(GetCurrentProcess(), modules, sizeof modules, &bytes))
		return;
	for (DWORD i = 0; i < bytes / sizeof modules[0] && i < 1024; i++)
		if (module_path(modules[i], path, sizeof path))
			visit(path, arg);
}

/* The absolute path of an existing file: the form GetModuleFileName gives the files of the
 * process, so that one file is one entry in image.c's cache. */
bool
zc_real_path(const char *path, char *out, size_t size)
{
	wchar_t wide[ZC_PATH_MAX], full[ZC_PATH_MAX];
	DWORD n;

	if (!to_wide(path, wide, ZC_PATH_MAX)) {
		errno = EINVAL;
		return false;
	}
	n = GetFullPathNameW(wide, ZC_PATH_MAX, full, NULL);
	if (n == 0 || n >= ZC_PATH_MAX || !to_utf8(full, out, size)) {
		errno = ENAMETOOLONG;
		return false;
	}
	if (GetFileAttributesW(full) == INVALID_FILE_ATTRIBUTES) {
		errno = ENOENT;
		return false;
	}
	return true;
}

static HANDLE
open_for_reading(const char *path)
{
	wchar_t wide[ZC_PATH_MAX];

	if (!to_wide(path, wide, ZC_PATH_MAX))
		return INVALID_HANDLE_VALUE;
	return CreateFileW(wide, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
	                   NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
}

bool
zc_same_file(const char *a, const char *b)
{
	HANDLE fa = open_for_reading(a), fb = open_for_reading(b);
	BY_HANDLE_FILE_INFORMATION ia, ib;
	bool same = fa != INVALID_HANDLE_VALUE && fb != INVALID_HANDLE_VALUE &&
	            GetFileInformationByHandle(fa, &ia) && GetFileInformationByHandle(fb, &ib) &&
	            ia.dwVolumeSerialNumber == ib.dwVolumeSerialNumber &&
	            ia.nFileIndexHigh == ib.nFileIndexHigh && ia.nFileIndexLow == ib.nFileIndexLow;

	if (fa != INVALID_HANDLE_VALUE)
		CloseHandle(fa);
	if (fb != INVALID_HANDLE_VALUE)
		CloseHandle(fb);
	return same;
}

bool
zc_copy_readable(void *dst, const void *src, size_t n)
{
	SIZE_T got = 0;

	return ReadProcessMemory(GetCurrentProcess(), src, dst, n, &got) && got == n;
}

static uint64_t
allocation_granularity(void)
{
	SYSTEM_INFO info;

	GetSystemInfo(&info);
	return info.dwAllocationGranularity;
}

/* A view starts at a multiple of the allocation granularity; the view keeps the mapping,
 * and the mapping the file, open after their handles are closed. */
FILE *
zc_open_read(const char *path)
{
	wchar_t wide[ZC_PATH_MAX];

	if (!to_wide(path, wide, ZC_PATH_MAX)) {
		errno = ENOENT;
		return NULL;
	}
	return _wfopen(wide, L"rb");
}

const void *
zc_map_file(const char *path, uint64_t offset, uint64_t size)
{
	HANDLE file = open_for_reading(path), mapping = NULL;
	uint64_t skip = offset % allocation_granularity(), start = offset - skip;
	void *view = NULL;

	if (file == INVALID_HANDLE_VALUE)
		return NULL;
	mapping = CreateFileMappingW(file, NULL, PAGE_READONLY, 0, 0, NULL);
	if (mapping) {
		view = MapViewOfFile(mapping, FILE_MAP_READ, (DWORD)(start >> 32), (DWORD)start,
		                     (SIZE_T)(size + skip));
		CloseHandle(mapping);
	}
	CloseHandle(file);
	return view ? (const uint8_t *)view + skip : NULL;
}

void
zc_unmap_file(const void *bytes, uint64_t size)
{
	(void)size;
	UnmapViewOfFile((const void *)((uintptr_t)bytes - (uintptr_t)bytes % allocation_granularity()));
}

uint32_t
zc_process_id(void)
{
	return GetCurrentProcessId();
}

/* NVIDIA's nvcuda.dll hashes the Windows thread id. */
uint32_t
zc_thread_id(void)
{
	return GetCurrentThreadId();
}

/* Code made at run time is not translated inside nvcuda.dll yet: no child, no cache. */
bool
zc_run_program(const char *const *argv, char *output, size_t size, int *status)
{
	(void)argv, (void)output, (void)size, (void)status;
	errno = ENOSYS;
	return false;
}

bool
zc_find_in_path(const char *name, char *out, size_t size)
{
	(void)name, (void)out, (void)size;
	return false;
}

bool
zc_file_identity(const char *path, uint64_t identity[ZC_FILE_IDENTITY_WORDS])
{
	(void)path, (void)identity;
	return false;
}
