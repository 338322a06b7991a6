/* The engine's platform half on Windows: NVIDIA's DLL converted beside this one, or found in
 * the loader's order (common/find_library_windows.c), never this DLL or the file it was
 * loaded from. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "find_library.h"

/* A file's identity: its volume and index, as stat's device and inode on Linux. */
static bool identify(const wchar_t *path, BY_HANDLE_FILE_INFORMATION *info)
{
	HANDLE h = CreateFileW(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
	                       NULL, OPEN_EXISTING, 0, NULL);
	bool known = h != INVALID_HANDLE_VALUE && GetFileInformationByHandle(h, info);

	if (h != INVALID_HANDLE_VALUE)
		CloseHandle(h);
	return known;
}

static bool widen(const char *utf8, wchar_t *wide, int size)
{
	return MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, wide, size) > 0;
}

/* A candidate for NVIDIA's DLL: any file of the name but this one. */
static bool not_this_library(const char *path, void *arg)
{
	const BY_HANDLE_FILE_INFORMATION *self = arg;
	BY_HANDLE_FILE_INFORMATION other;
	wchar_t wide[MAX_PATH];

	return widen(path, wide, MAX_PATH) && identify(wide, &other) &&
	       !(other.dwVolumeSerialNumber == self->dwVolumeSerialNumber &&
	         other.nFileIndexHigh == self->nFileIndexHigh &&
	         other.nFileIndexLow == self->nFileIndexLow);
}

/* This DLL's own path. */
static bool own_path(wchar_t *own)
{
	HMODULE module;
	DWORD n;

	return GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
	                          GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
	                          (LPCWSTR)(void *)own_path, &module) &&
	       (n = GetModuleFileNameW(module, own, MAX_PATH)) != 0 && n < MAX_PATH;
}

void *zc_engine_load_converted(void)
{
	wchar_t path[MAX_PATH], name[MAX_PATH];
	wchar_t *slash;
	HMODULE converted;

	if (!own_path(path) || !(slash = wcsrchr(path, L'\\')) || !widen(ZC_LIBRARY_SONAME, name, MAX_PATH) ||
	    (size_t)(slash - path) + 9 + wcslen(name) >= MAX_PATH)
		return NULL;
	wcscpy(slash + 1, L"nvidia\\");
	wcscat(slash + 1, name);
	if (GetFileAttributesW(path) == INVALID_FILE_ATTRIBUTES)
		return NULL;
	if (!(converted = LoadLibraryExW(path, NULL, LOAD_WITH_ALTERED_SEARCH_PATH)))
		zc_engine_trace(ZC_LIBRARY_SONAME, "cannot load NVIDIA's converted %s: error %lu",
		                ZC_LIBRARY_SONAME, (unsigned long)GetLastError());
	return (void *)converted;
}

void *zc_engine_load_nvidia(void)
{
	BY_HANDLE_FILE_INFORMATION self;
	wchar_t own[MAX_PATH], wide[MAX_PATH];
	char path[4 * MAX_PATH];
	HMODULE nvidia;

	if ((nvidia = zc_engine_load_converted())) {
		zc_engine_trace(ZC_LIBRARY_SONAME, "NVIDIA's is the one converted beside this library");
		return (void *)nvidia;
	}
	if (!own_path(own) || !identify(own, &self) ||
	    !zc_find_library(ZC_LIBRARY_SONAME, not_this_library, &self, path, sizeof(path))) {
		zc_engine_trace(ZC_LIBRARY_SONAME, "NVIDIA's %s is not found", ZC_LIBRARY_SONAME);
		return NULL;
	}
	/* Its own folder first for what it loads in turn (cuBLAS's cuBLASLt). */
	if (!widen(path, wide, MAX_PATH) ||
	    !(nvidia = LoadLibraryExW(wide, NULL, LOAD_WITH_ALTERED_SEARCH_PATH))) {
		zc_engine_trace(ZC_LIBRARY_SONAME, "cannot load %s: error %lu", path,
		                (unsigned long)GetLastError());
		return NULL;
	}
	zc_engine_trace(ZC_LIBRARY_SONAME, "NVIDIA's is %s", path);
	return (void *)nvidia;
}

void *zc_engine_symbol(void *library, const char *name)
{
	return (void *)GetProcAddress((HMODULE)library, name);
}

/* A path's own folder first for what the DLL loads in turn. */
void *zc_engine_open(const char *name, char *why, size_t size)
{
	wchar_t wide[MAX_PATH];
	HMODULE library = NULL;

	if (!widen(name, wide, MAX_PATH))
		snprintf(why, size, "not a name of at most %d characters", MAX_PATH - 1);
	else if (!(library = LoadLibraryExW(wide, NULL, strpbrk(name, "\\/")
	                                                    ? LOAD_WITH_ALTERED_SEARCH_PATH : 0)))
		snprintf(why, size, "error %lu", (unsigned long)GetLastError());
	return (void *)library;
}

void zc_engine_close(void *library)
{
	FreeLibrary((HMODULE)library);
}
