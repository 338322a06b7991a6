/* amdhip64_6.dll for wine: the emulator's HIP runtime (libzc-emu-hip.so, a Linux library)
 * behind the name and calling convention of AMD's Windows HIP runtime, so that nvcuda.dll's
 * HIP driver runs its gfx code on the emulator in a Windows process. A Wine builtin library
 * (winegcc, with the Linux C library), used only by the tests: every function of
 * abi/hip_api.h's lists is exported and passed on.
 *
 * Every argument of those functions is an integer or a pointer, so one bridge shape serves
 * all: it takes eleven 64-bit arguments in the Windows x64 convention (the slots beyond the
 * caller's are read but unused) and passes them on in the System V one. The stream
 * callback is the exception: the function it is handed is Windows code, called here from
 * Linux code, so a System V function calls it (the emulator calls it before returning). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hip_api.h"

#define WINAPI_ABI __attribute__((ms_abi))
enum { hipErrorNotSupported = 801 };

typedef uint64_t bridged(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                         uint64_t, uint64_t, uint64_t, uint64_t);

static void *runtime;

static void *
emulator_function(const char *name)
{
	if (!runtime && !(runtime = dlopen(EMU_HIP_PATH, RTLD_NOW | RTLD_LOCAL))) {
		fprintf(stderr, "amdhip64_6.dll (wine bridge): %s\n", dlerror());
		return NULL;
	}
	return dlsym(runtime, name);
}

/* The stream callback's record: the Windows function and its argument. */
struct windows_callback {
	WINAPI_ABI void (*fn)(hipStream_t, hipError_t, void *);
	void *arg;
};

static void
call_windows_callback(hipStream_t stream, hipError_t status, void *record)
{
	struct windows_callback c = *(struct windows_callback *)record;

	free(record);
	c.fn(stream, status, c.arg);
}

/* hipStreamAddCallback(stream, fn, arg, flags): fn and arg become the record's caller. */
static void
adapt_stream_callback(uint64_t *fn, uint64_t *arg)
{
	struct windows_callback *c = malloc(sizeof *c);

	c->fn = (WINAPI_ABI void (*)(hipStream_t, hipError_t, void *))(uintptr_t)*fn;
	c->arg = (void *)(uintptr_t)*arg;
	*fn = (uintptr_t)call_windows_callback;
	*arg = (uintptr_t)c;
}

#define BRIDGE(name, params)                                                                \
	WINAPI_ABI uint64_t bridge_##name(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,    \
	                                  uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,    \
	                                  uint64_t a8, uint64_t a9, uint64_t a10);              \
	WINAPI_ABI uint64_t bridge_##name(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,    \
	                                  uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,    \
	                                  uint64_t a8, uint64_t a9, uint64_t a10)               \
	{                                                                                        \
		static bridged *f;                                                                   \
		if (!f && !(f = (bridged *)emulator_function(#name)))                                \
			return hipErrorNotSupported;                                                     \
		if (__builtin_strcmp(#name, "hipStreamAddCallback") == 0)                            \
			adapt_stream_callback(&a1, &a2);                                                 \
		return f(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10);                               \
	}
HIP_FUNCTIONS(BRIDGE)
HIP_OPTIONAL_FUNCTIONS(BRIDGE)
HIP_VMM_FUNCTIONS(BRIDGE)
HIP_OPTIONAL_FUNCTIONS_6(BRIDGE)
