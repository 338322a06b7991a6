/* The engine behind a replacement's API, chosen at its first call: NVIDIA's own library of
 * this name (cuBLAS, cuBLASLt, NVML, NVRTC) when NVIDIA's driver runs the process (so that a
 * converted program runs there as the original does); under the HIP driver, AMD's library
 * for the functions the replacement maps to it (zc_engine_amd); NVIDIA's for those it hands
 * on (zc_engine_forward); else the project's implementation over the stub's driver; and the
 * traces of all. */
#include <cuda.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_identity.h"
#include "engine.h"

#define ZC_EXPORT(name) 1 +
#define ZC_UNSUPPORTED(name) 1 +
void *zc_engine_functions[(
#include ZC_EXPORTS_INC
#include ZC_UNSUPPORTED_INC
	0)];
#undef ZC_EXPORT
#undef ZC_UNSUPPORTED

/* The exported names, as they are: # does not expand the renaming macros. */
#define ZC_EXPORT(name) #name,
#define ZC_UNSUPPORTED(name) #name,
static const char *const export_names[] = {
#include ZC_EXPORTS_INC
#include ZC_UNSUPPORTED_INC
};
#undef ZC_EXPORT
#undef ZC_UNSUPPORTED

enum { EXPORT_COUNT = sizeof export_names / sizeof export_names[0] };

static pthread_once_t chosen = PTHREAD_ONCE_INIT;
/* Set once the choice is made and zc_engine_functions filled (trampolines.S reads it). */
char zc_engine_chosen;

/* The stub's identity table, or NULL under NVIDIA's driver. */
static void *const *identity(void)
{
	static const CUuuid id = {ZC_DRIVER_IDENTITY_ID};
	void *const *table = NULL;

	if (cuGetExportTable((const void **)&table, &id) != CUDA_SUCCESS || !table ||
	    (size_t)table[0] < ZC_DRIVER_IDENTITY_SLOTS * sizeof(void *))
		return NULL;
	return table;
}

const char *zc_engine_driver(void)
{
	void *const *table = identity();

	return table ? ((const char *(*)(void))table[1])() : NULL;
}

CUresult zc_engine_native_stream(CUstream stream, void **native)
{
	void *const *table = identity();

	return table ? ((CUresult(*)(CUstream, void **))table[2])(stream, native)
	             : CUDA_ERROR_NOT_SUPPORTED;
}

/* NVIDIA's library when NVIDIA's driver runs the process (the project's own where it is not
 * found); AMD's under the HIP driver where the replacement maps to it; and, wherever NVIDIA's
 * does not take every call, what the replacement forwards to it. */
static void choose(void)
{
	const char *driver = NULL;
	bool started = cuInit(0) == CUDA_SUCCESS, looked = false;
	void *nvidia = NULL;

	if (started && !(driver = zc_engine_driver())) {
		looked = true;
		if ((nvidia = zc_engine_load_nvidia())) {
			zc_engine_trace(ZC_LIBRARY_SONAME, "NVIDIA's driver runs the process: NVIDIA's "
			                "library takes every call");
			/* What NVIDIA's lacks stays this library's, which refuses NVIDIA's handles. */
			for (size_t i = 0; i < EXPORT_COUNT; i++)
				zc_engine_functions[i] = zc_engine_symbol(nvidia, export_names[i]);
			return;
		}
		zc_engine_trace(ZC_LIBRARY_SONAME, "NVIDIA's driver runs the process but not NVIDIA's "
		                "library: the project's own runs on it");
	}
#ifdef ZC_ENGINE_AMD
	if (driver && strcmp(driver, "hip") == 0)
		zc_engine_amd(export_names, zc_engine_functions, EXPORT_COUNT);
#endif
#ifdef ZC_ENGINE_FORWARD
	zc_engine_forward(looked ? NULL : zc_engine_load_nvidia(), export_names, zc_engine_functions,
	                  EXPORT_COUNT);
#endif
	(void)driver, (void)looked; /* for the hooks a library has */
}

static void choose_once(void)
{
	choose();
	__atomic_store_n(&zc_engine_chosen, 1, __ATOMIC_RELEASE);
}

/* trampolines.S, at the first call of any export. */
void zc_engine_choose_now(void);
void zc_engine_choose_now(void)
{
	pthread_once(&chosen, choose_once);
}

void *zc_engine_load_amd(const char *title, const char *variable, const char *const *names,
                         const char *otherwise, char *loaded, size_t size)
{
	const char *path = getenv(variable);
	char why[512];
	void *library = NULL;

	if (path && *path) {
		if (!(library = zc_engine_open(path, why, sizeof why)))
			zc_engine_trace(title, "cannot load %s (%s): %s", path, why, otherwise);
		snprintf(loaded, size, "%s", path);
		return library;
	}
	for (size_t i = 0; names[i] && !library; i++)
		if ((library = zc_engine_open(names[i], why, sizeof why)))
			snprintf(loaded, size, "%s", names[i]);
	if (!library && names[0])
		zc_engine_trace(title, "not installed: %s", otherwise);
	else if (!library)
		zc_engine_trace(title, "not looked for on this platform yet (%s names one to try): %s",
		                variable, otherwise);
	return library;
}

bool zc_engine_load_amd_functions(const char *title, const char *variable,
                                  const char *const *names, const char *otherwise,
                                  const char *takes, const struct zc_engine_function *functions,
                                  size_t count)
{
	const char *driver = zc_engine_driver();
	char path[4096];
	void *library;

	return driver && strcmp(driver, "hip") == 0 &&
	       (library = zc_engine_load_amd(title, variable, names, otherwise, path, sizeof path)) &&
	       zc_engine_take_functions(library, title, path, otherwise, takes, functions, count);
}

bool zc_engine_take_functions(void *library, const char *title, const char *path,
                              const char *otherwise, const char *takes,
                              const struct zc_engine_function *functions, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (!(*functions[i].slot = zc_engine_symbol(library, functions[i].name))) {
			zc_engine_trace(title, "%s lacks %s: %s", path, functions[i].name, otherwise);
			zc_engine_close(library);
			return false;
		}
	zc_engine_trace(title, "%s %s", path, takes);
	return true;
}

static bool tracing;

static void trace_start(void)
{
	const char *v = getenv("ZLUDA_CONVERT_TRACE");
	tracing = v && *v && strcmp(v, "0") != 0;
}

bool zc_engine_tracing(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, trace_start);
	return tracing;
}

void zc_engine_vtrace(const char *routine, const char *fmt, va_list ap, const char *status)
{
	fprintf(stderr, "zluda-convert: " ZC_LIBRARY_TITLE ": %s: ", routine);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, status ? " (%s)\n" : "\n", status);
}

void zc_engine_trace(const char *routine, const char *fmt, ...)
{
	if (zc_engine_tracing()) {
		va_list ap;
		va_start(ap, fmt);
		zc_engine_vtrace(routine, fmt, ap, NULL);
		va_end(ap);
	}
}

char zc_engine_logging;

/* trampolines.S, before the project's implementation of export N when zc_engine_logging is
 * set. */
void zc_engine_log(unsigned n);
void zc_engine_log(unsigned n)
{
#ifdef ZC_ENGINE_LOG
	if (n < EXPORT_COUNT)
		zc_library_log(export_names[n]);
#else
	(void)n;
#endif
}

/* What the trampoline of a function the library lacks calls (its arguments are the
 * caller's; only the name is ours). */
int zc_unsupported(const char *name);
int zc_unsupported(const char *name)
{
	zc_engine_trace(name, "not provided by zluda-convert");
	return ZC_UNSUPPORTED_STATUS;
}
