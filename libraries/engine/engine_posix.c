/* The engine's platform half on Linux: NVIDIA's library converted beside this one, or found
 * in the loader's order. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "find_library.h"

/* A candidate for NVIDIA's library: any file of the name but this one. */
static bool not_this_library(const char *path, void *arg)
{
	const struct stat *self = arg;
	struct stat st;

	return stat(path, &st) == 0 && !(st.st_dev == self->st_dev && st.st_ino == self->st_ino);
}

void *zc_engine_load_converted(void)
{
	char path[4096];
	const char *slash;
	Dl_info info;
	void *converted;

	if (!dladdr((void *)zc_engine_load_converted, &info) || !info.dli_fname ||
	    !(slash = strrchr(info.dli_fname, '/')) ||
	    snprintf(path, sizeof path, "%.*s/nvidia/%s", (int)(slash - info.dli_fname),
	             info.dli_fname, ZC_LIBRARY_SONAME) >= (int)sizeof path ||
	    access(path, F_OK) != 0)
		return NULL;
	/* Its own definitions bind to itself (NVIDIA links it -Bsymbolic), never to this
	 * library's of the same names. */
	if (!(converted = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		zc_engine_trace(ZC_LIBRARY_SONAME, "cannot load NVIDIA's converted %s: %s", path,
		                dlerror());
	return converted;
}

void *zc_engine_load_nvidia(void)
{
	char path[4096];
	struct stat self;
	Dl_info info;
	void *nvidia;

	if ((nvidia = zc_engine_load_converted())) {
		zc_engine_trace(ZC_LIBRARY_SONAME, "NVIDIA's is the one converted beside this library");
		return nvidia;
	}
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
