/* A stand-in for NVIDIA's libcuda.so.1, for the stub's cuda driver in CI, which has no
 * NVIDIA GPU: one device, memory that is host memory, launches that run nothing, and one
 * line per call in the file FAKE_NVIDIA_LOG names, with the pointers it was handed. Only
 * what driver_probe.cu and zluda-convert doctor call, and the entry points cudart reaches
 * first, which say that this driver has no export tables (cudart then gives up, after its
 * calls have come here). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;
enum { OK = 0, INVALID_VALUE = 1, NOT_SUPPORTED = 801, NOT_FOUND = 500 };

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *fmt, ...)
{
	const char *path = getenv("FAKE_NVIDIA_LOG");
	FILE *f = path ? fopen(path, "a") : NULL;
	va_list ap;
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

EXPORT CUresult cuInit(unsigned flags) { log_line("cuInit %u", flags); return OK; }
EXPORT CUresult cuDriverGetVersion(int *v) { log_line("cuDriverGetVersion"); *v = 13000; return OK; }
EXPORT CUresult cuDeviceGetCount(int *n) { log_line("cuDeviceGetCount"); *n = 1; return OK; }
EXPORT CUresult cuDeviceGet(int *d, int ordinal) { log_line("cuDeviceGet %d", ordinal); *d = ordinal; return ordinal ? INVALID_VALUE : OK; }

EXPORT CUresult cuDeviceGetName(char *name, int len, int dev)
{
	log_line("cuDeviceGetName %d", dev);
	snprintf(name, (size_t)len, "Stand-in NVIDIA GPU");
	return OK;
}

/* compute capability 9.0 */
EXPORT CUresult cuDeviceGetAttribute(int *value, int attribute, int dev)
{
	log_line("cuDeviceGetAttribute %d %d", attribute, dev);
	*value = attribute == 75 ? 9 : 0;
	return OK;
}

static int context;
EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { log_line("cuDevicePrimaryCtxRetain %d", dev); *ctx = &context; return OK; }
EXPORT CUresult cuCtxSetCurrent(void *ctx) { log_line("cuCtxSetCurrent %s", ctx == &context ? "primary" : "other"); return OK; }
EXPORT CUresult cuCtxSynchronize(void) { log_line("cuCtxSynchronize"); return OK; }

static int module, function;
EXPORT CUresult cuModuleLoadData(void **m, const void *image)
{
	log_line("cuModuleLoadData %p", image);
	*m = &module;
	return OK;
}

EXPORT CUresult cuModuleGetFunction(void **f, void *m, const char *name)
{
	log_line("cuModuleGetFunction %s %s", m == &module ? "module" : "other", name);
	*f = &function;
	return OK;
}

EXPORT CUresult cuMemAlloc_v2(uint64_t *p, size_t bytes)
{
	log_line("cuMemAlloc_v2 %zu", bytes);
	*p = (uint64_t)(uintptr_t)malloc(bytes);
	return OK;
}

EXPORT CUresult cuMemFree_v2(uint64_t p) { log_line("cuMemFree_v2"); free((void *)(uintptr_t)p); return OK; }

EXPORT CUresult cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes)
{
	log_line("cuMemcpyHtoD_v2 %zu", bytes);
	memcpy((void *)(uintptr_t)dst, src, bytes);
	return OK;
}

EXPORT CUresult cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t bytes)
{
	log_line("cuMemcpyDtoH_v2 %zu", bytes);
	memcpy(dst, (const void *)(uintptr_t)src, bytes);
	return OK;
}

EXPORT CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned shared, void *stream,
                               void **params, void **extra)
{
	(void)stream, (void)params, (void)extra;
	log_line("cuLaunchKernel %s grid %u %u %u block %u %u %u shared %u",
	         f == &function ? "function" : "other", gx, gy, gz, bx, by, bz, shared);
	return OK;
}

/* cudart's first calls: it finds everything through these. */
static const struct { const char *name; void *function; } named[] = {
	{"cuInit", (void *)cuInit}, {"cuDriverGetVersion", (void *)cuDriverGetVersion},
	{"cuDeviceGetCount", (void *)cuDeviceGetCount}, {"cuDeviceGet", (void *)cuDeviceGet},
};

EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, uint64_t flags,
                                    int *status)
{
	log_line("cuGetProcAddress_v2 %s %d", symbol, version);
	(void)flags;
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (strcmp(named[i].name, symbol) == 0) {
			*pfn = named[i].function;
			if (status)
				*status = 0;
			return OK;
		}
	*pfn = NULL;
	if (status)
		*status = 1;
	return NOT_FOUND;
}

EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, uint64_t flags)
{
	return cuGetProcAddress_v2(symbol, pfn, version, flags, NULL);
}

EXPORT CUresult cuGetExportTable(const void **table, const void *id)
{
	const unsigned char *b = id;
	log_line("cuGetExportTable %02x%02x%02x%02x...", b[0], b[1], b[2], b[3]);
	*table = NULL;
	return NOT_SUPPORTED;
}
