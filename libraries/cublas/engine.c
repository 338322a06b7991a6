/* The engine behind the API, chosen when the first handle is made: NVIDIA's own library of
 * this name (cuBLAS, cuBLASLt) when NVIDIA's driver runs the process (so that a converted
 * program is as fast there as the original), else this library's kernels on the stub's
 * driver. ZC_EXPORTS_INC and ZC_UNSUPPORTED_INC name the library's lists of functions,
 * ZC_LIBRARY_STEM its name without the major version. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "blas.h"
#include "driver_identity.h"
#include "find_library.h"

#define BLAS_EXPORT(name) 1 +
#define BLAS_UNSUPPORTED(name) 1 +
void *zc_blas_nvidia[(
#include ZC_EXPORTS_INC
#include ZC_UNSUPPORTED_INC
	0)];
#undef BLAS_EXPORT
#undef BLAS_UNSUPPORTED

/* The exported names, unrenamed: blas_rename.h defines them all. */
#define BLAS_EXPORT(name) #name,
#define BLAS_UNSUPPORTED(name) #name,
#define STRING(x) #x
static const char *const export_names[] = {
#include ZC_EXPORTS_INC
#include ZC_UNSUPPORTED_INC
};
#undef BLAS_EXPORT
#undef BLAS_UNSUPPORTED

enum { EXPORT_COUNT = sizeof export_names / sizeof export_names[0] };

#define SONAME_OF(major) ZC_LIBRARY_STEM STRING(major)
#define SONAME_FOR(major) SONAME_OF(major)

static pthread_once_t chosen = PTHREAD_ONCE_INIT;

/* Whether the stub runs one of its own drivers: only it has the identity table. */
static bool project_driver(void)
{
	static const CUuuid id = {ZC_DRIVER_IDENTITY_ID};
	const void *table = NULL;

	return cuGetExportTable(&table, &id) == CUDA_SUCCESS && table;
}

/* A candidate for NVIDIA's library: any file of the name but this one. */
static bool not_this_library(const char *path, void *arg)
{
	const struct stat *self = arg;
	struct stat st;

	return stat(path, &st) == 0 && !(st.st_dev == self->st_dev && st.st_ino == self->st_ino);
}

static void choose(void)
{
	char path[4096];
	struct stat self;
	Dl_info info;
	void *nvidia;

	if (project_driver())
		return;
	if (!dladdr((void *)choose, &info) || !info.dli_fname || stat(info.dli_fname, &self) != 0 ||
	    !zc_find_library(SONAME_FOR(ZC_CUBLAS_MAJOR), not_this_library, &self, path,
	                     sizeof(path))) {
		blas_trace(ZC_LIBRARY_STEM, "NVIDIA's driver runs the process "
		          "but NVIDIA's %s is not found: the project's kernels run on it",
		          SONAME_FOR(ZC_CUBLAS_MAJOR));
		return;
	}
	if (!(nvidia = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		blas_trace(ZC_LIBRARY_STEM, "cannot load %s (%s): the project's "
		          "kernels run on NVIDIA's driver", path, dlerror());
		return;
	}
	blas_trace(ZC_LIBRARY_STEM, "NVIDIA's driver runs the process: "
	          "NVIDIA's %s takes every call", path);
	/* What NVIDIA's lacks stays this library's, which refuses NVIDIA's handles. */
	for (size_t i = 0; i < EXPORT_COUNT; i++)
		zc_blas_nvidia[i] = dlsym(nvidia, export_names[i]);
}

/* What the trampoline of a function this library lacks calls (its arguments are the
 * caller's; only the name is ours). */
cublasStatus_t zc_blas_unsupported(const char *name);
cublasStatus_t zc_blas_unsupported(const char *name)
{
	return blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, name, "not provided by zluda-convert");
}

void *blas_choose_engine(const char *name)
{
	pthread_once(&chosen, choose);
	for (size_t i = 0; i < EXPORT_COUNT; i++)
		if (strcmp(export_names[i], name) == 0)
			return zc_blas_nvidia[i];
	return NULL;
}
