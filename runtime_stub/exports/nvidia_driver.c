/* The cuda driver: when the machine's GPU is NVIDIA's, the whole process is handed to
 * NVIDIA's own driver (libcuda.so.1, nvcuda.dll). It is found by full path the way the
 * platform's loader would find it, never this file itself; every exported entry point then jumps to NVIDIA's
 * function of its name (forward.S), cuGetProcAddress answers with NVIDIA's functions and
 * cuGetExportTable with NVIDIA's tables, so the program runs as the unconverted one did, on
 * its original fatbins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forward.h"
#include "find_driver.h"
#include "platform.h"

/* In forward.S's order: the implemented functions, then the unsupported ones. */
#define ZC_FUNCTION(name, params) 1 +
#define UNSUPPORTED(name) 1 +
void *zc_forward_table[(
#include "exports.inc"
#include "unsupported_table.inc"
	0)];
#undef ZC_FUNCTION
#undef UNSUPPORTED

#define ZC_FUNCTION(name, params) #name,
#define UNSUPPORTED(name) #name,
static const char *const forward_names[] = {
#include "exports.inc"
#include "unsupported_table.inc"
};
#undef ZC_FUNCTION
#undef UNSUPPORTED

enum { FORWARD_COUNT = sizeof forward_names / sizeof forward_names[0] };

/* What an entry point NVIDIA's driver lacks answers once the process is NVIDIA's. */
static CUresult
missing_in_driver(void)
{
	return CUDA_ERROR_NOT_FOUND;
}

/* Exported by this file only: what tells a copy of the stub from NVIDIA's driver. */
ZC_EXPORT_DATA const char zluda_convert_stub[] = ZC_VERSION;

/* The stub's own file, to be told apart from NVIDIA's. */
static bool
is_this_file(const char *path)
{
	char self[ZC_PATH_MAX];

	return zc_file_of_address(zluda_convert_stub, self, sizeof self) && zc_same_file(self, path);
}

struct candidate {
	void *lib;
	char why[512];
};

/* NVIDIA's library, loaded: not this file nor a copy of it, and a CUDA driver. Isolated:
 * NVIDIA's library keeps its own functions for its own calls, not the entry points of
 * this one, which share their names. */
static bool
load_candidate(const char *path, void *arg)
{
	struct candidate *c = arg;
	if (is_this_file(path)) {
		snprintf(c->why, sizeof c->why, "%s is this program's zluda-convert driver, not NVIDIA's", path);
		return false;
	}
	char why[256];
	void *lib = zc_library_open(path, true, why, sizeof why);
	if (!lib) {
		snprintf(c->why, sizeof c->why, "cannot load %s: %s", path, why);
		return false;
	}
	bool copy = zc_library_symbol(lib, ZC_STUB_MARKER) != NULL;
	if (copy || !zc_library_symbol(lib, "cuInit") || !zc_library_symbol(lib, "cuGetProcAddress_v2")) {
		snprintf(c->why, sizeof c->why, "%s is not NVIDIA's driver%s", path,
		         copy ? " but a copy of zluda-convert's" : "");
		zc_library_close(lib);
		return false;
	}
	c->lib = lib;
	return true;
}

CUresult
zc_cuda_forward(char *found, size_t found_size)
{
	struct candidate c = {NULL, "NVIDIA's driver (" ZC_NVIDIA_DRIVER_NAME ") is not installed"};
	char path[ZC_PATH_MAX];

	if (!zc_find_nvidia_driver(load_candidate, &c, path, sizeof path))
		return stub_fail(CUDA_ERROR_NO_DEVICE, "%s", c.why);
	CUresult (*init)(unsigned) = (CUresult(*)(unsigned))zc_library_symbol(c.lib, "cuInit");
	CUresult (*count)(int *) = (CUresult(*)(int *))zc_library_symbol(c.lib, "cuDeviceGetCount");
	int devices = 0;
	CUresult r = init(0);
	if (r == CUDA_SUCCESS && count)
		r = count(&devices);
	if (r != CUDA_SUCCESS || devices == 0) {
		zc_library_close(c.lib);
		return stub_fail(CUDA_ERROR_NO_DEVICE, "NVIDIA's driver %s finds no device (%d)", path, r);
	}
	for (int i = 0; i < FORWARD_COUNT; i++) {
		void *f = zc_library_symbol(c.lib, forward_names[i]);
		__atomic_store_n(&zc_forward_table[i], f ? f : (void *)missing_in_driver, __ATOMIC_RELEASE);
	}
	snprintf(found, found_size, "%s", path);
	return CUDA_SUCCESS;
}
