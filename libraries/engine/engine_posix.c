/* The engine's platform half on Linux: NVIDIA's library found in the loader's order. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "engine.h"
#include "find_library.h"

/* A candidate for NVIDIA's library: any file of the name but this one. */
static bool not_this_library(const char *path, void *arg)
{
	const struct stat *self = arg;
	struct stat st;

	return stat(path, &st) == 0 && !(st.st_dev == self->st_dev && st.st_ino == self->st_ino);
}

void *zc_engine_load_nvidia(void)
{
	char path[4096];
	struct stat self;
	Dl_info info;
	void *nvidia;

	if (!dladdr((void *)zc_engine_load_nvidia, &info) || !info.dli_fname ||
	    stat(info.dli_fname, &self) != 0 ||
	    !zc_find_library(ZC_LIBRARY_SONAME, not_this_library, &self, path, sizeof(path))) {
		zc_engine_trace(ZC_LIBRARY_SONAME, "NVIDIA's %s is not found", ZC_LIBRARY_SONAME);
		return NULL;
	}
	if (!(nvidia = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		zc_engine_trace(ZC_LIBRARY_SONAME, "cannot load %s: %s", path, dlerror());
	else
		zc_engine_trace(ZC_LIBRARY_SONAME, "NVIDIA's is %s", path);
	return nvidia;
}

void *zc_engine_symbol(void *library, const char *name)
{
	return dlsym(library, name);
}

void *zc_engine_open(const char *name, char *why, size_t size)
{
	void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);

	if (!library)
		snprintf(why, size, "%s", dlerror());
	return library;
}

void zc_engine_close(void *library)
{
	dlclose(library);
}
