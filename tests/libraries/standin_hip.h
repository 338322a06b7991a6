/* What the stand-ins for AMD's libraries (rocblas_standin.c, hipfft_standin.c) need of the
 * process's HIP runtime (ZLUDA_CONVERT_HIP_PATH: the emulator's, which has no hipMemcpy):
 * copies between the host and the device, ordered by a stream. */
#ifndef ZC_STANDIN_HIP_H
#define ZC_STANDIN_HIP_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

enum { TO_DEVICE = 1, TO_HOST = 2 };

static struct {
	int (*memcpy_2d_async)(void *, size_t, const void *, size_t, size_t, size_t, int, void *);
	int (*stream_synchronize)(void *);
} hip;

static int hip_loaded(void)
{
	const char *path = getenv("ZLUDA_CONVERT_HIP_PATH");
	void *lib;

	if (hip.memcpy_2d_async)
		return 1;
	if (!path || !(lib = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		return 0;
	*(void **)&hip.memcpy_2d_async = dlsym(lib, "hipMemcpy2DAsync");
	*(void **)&hip.stream_synchronize = dlsym(lib, "hipStreamSynchronize");
	return hip.memcpy_2d_async && hip.stream_synchronize;
}

/* 0 once BYTES are copied, after the stream's earlier work. */
static int copy(void *dst, const void *src, size_t bytes, int kind, void *stream)
{
	return hip.memcpy_2d_async(dst, bytes, src, bytes, bytes, 1, kind, stream) ||
	       hip.stream_synchronize(stream);
}

#endif
