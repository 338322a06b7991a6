/* Copies and fills in every flavour: synchronous ones run on the legacy stream (or, for the
 * _ptds entry points, the thread's default stream) and wait; asynchronous ones queue. */
#include "api.h"

/* Queues op on the stream a handle names, and waits for it when sync. */
static CUresult
submit(CUstream handle, bool per_thread, bool sync, const struct zc_op *op)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && sync)
		r = zc_capture_refuse(s, "a synchronous copy or memset");
	if (r == CUDA_SUCCESS)
		r = zc_stream_submit(s, op);
	if (r == CUDA_SUCCESS && sync)
		r = zc_synchronize_stream(s->drv);
	return r;
}

/* An asynchronous copy to or from pageable memory (the program's own, unknown to the stub)
 * returns once it is done, as CUDA's does: cuSPARSE reads what it copied to the host
 * without waiting, and a program may reuse the buffer it copied from at once. Captured,
 * a copy is a node like any other. */
static CUresult
submit_copy(CUstream handle, bool per_thread, bool sync, const struct zc_copy *c)
{
	struct zc_op op = { .kind = ZC_OP_COPY, .copy = *c };
	struct zc_stream *s;

	if (!sync && (zc_memory_pageable(c->dst) || zc_memory_pageable(c->src)) &&
	    zc_stream_resolve(handle, per_thread, &s) == CUDA_SUCCESS && !s->capture) {
		CUresult r = zc_stream_submit(s, &op);
		return r == CUDA_SUCCESS ? zc_synchronize_stream(s->drv) : r;
	}
	return submit(handle, per_thread, sync, &op);
}

static CUresult
submit_fill(CUstream handle, bool per_thread, bool sync, const struct zc_fill *f)
{
	struct zc_op op = { .kind = ZC_OP_FILL, .fill = *f };

	return submit(handle, per_thread, sync, &op);
}

/* Which ends of a linear copy are device memory the stub must know. */
enum { CHECK_DST = 1, CHECK_SRC = 2 };

static CUresult
copy_1d(uintptr_t dst, uintptr_t src, size_t bytes, unsigned checks, CUstream handle,
        bool per_thread, bool sync)
{
	CUresult r = zc_initialized();

	if (r != CUDA_SUCCESS || bytes == 0)
		return r;
	if (!dst || !src)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL source or destination");
	if ((checks & CHECK_DST) && (r = zc_memory_check(dst, bytes)) != CUDA_SUCCESS)
		return r;
	if ((checks & CHECK_SRC) && (r = zc_memory_check(src, bytes)) != CUDA_SUCCESS)
		return r;
	struct zc_copy c = {
		.dst = (void *)dst, .src = (const void *)src, .width = bytes, .height = 1, .depth = 1,
		.dst_pitch = bytes, .dst_height = 1, .src_pitch = bytes, .src_height = 1,
	};
	return submit_copy(handle, per_thread, sync, &c);
}

CUresult
zc_copy_to_device(void *dst, const void *src, size_t bytes)
{
	return copy_1d((uintptr_t)dst, (uintptr_t)src, bytes, CHECK_DST, NULL, false, true);
}

CUresult
zc_copy_device(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream, bool per_thread,
               bool sync)
{
	return copy_1d(dst, src, bytes, CHECK_DST | CHECK_SRC, stream, per_thread, sync);
}

#define ARGS3 "0x%llx, 0x%llx, %zu"
#define V3(d, s, n) (unsigned long long)(uintptr_t)(d), (unsigned long long)(uintptr_t)(s), (n)

ZC_EXPORT CUresult
cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return TRACE(copy_1d(dst, src, n, 0, NULL, false, true), ARGS3, V3(dst, src, n));
}

ZC_EXPORT CUresult
cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return TRACE(copy_1d(dst, src, n, 0, NULL, true, true), ARGS3, V3(dst, src, n));
}

ZC_EXPORT CUresult
cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream h)
{
	return TRACE(copy_1d(dst, src, n, 0, h, false, false), ARGS3 ", %p", V3(dst, src, n), (void *)h);
}

ZC_EXPORT CUresult
cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream h)
{
	return TRACE(copy_1d(dst, src, n, 0, h, true, false), ARGS3 ", %p", V3(dst, src, n), (void *)h);
}

ZC_EXPORT CUresult
cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	return TRACE(copy_1d(dst, (uintptr_t)src, n, CHECK_DST, NULL, false, true), ARGS3, V3(dst, src, n));
}

ZC_EXPORT CUresult
cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void *src, size_t n)
{
	return TRACE(copy_1d(dst, (uintptr_t)src, n, CHECK_DST, NULL, true, true), ARGS3, V3(dst, src, n));
}

ZC_EXPORT CUresult
cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	return TRACE(copy_1d((uintptr_t)dst, src, n, CHECK_SRC, NULL, false, true), ARGS3, V3(dst, src, n));
}

ZC_EXPORT CUresult
cuMemcpyDtoH_v2_ptds(void *dst, CUdeviceptr src, size_t n)
{
	return TRACE(copy_1d((uintptr_t)dst, src, n, CHECK_SRC, NULL, true, true), ARGS3, V3(dst, src, n));
}

ZC_EXPORT CUresult
cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return TRACE(copy_1d(dst, src, n, CHECK_DST | CHECK_SRC, NULL, false, true), ARGS3, V3(dst, src, n));
}

ZC_EXPORT CUresult
cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return TRACE(copy_1d(dst, src, n, CHECK_DST | CHECK_SRC, NULL, true, true), ARGS3, V3(dst, src, n));
}

ZC_EXPORT CUresult
cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream h)
{
	return TRACE(copy_1d(dst, (uintptr_t)src, n, CHECK_DST, h, false, false), ARGS3 ", %p",
	             V3(dst, src, n), (void *)h);
}

ZC_EXPORT CUresult
cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dst, const void *src, size_t n, CUstream h)
{
	return TRACE(copy_1d(dst, (uintptr_t)src, n, CHECK_DST, h, true, false), ARGS3 ", %p",
	             V3(dst, src, n), (void *)h);
}

ZC_EXPORT CUresult
cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream h)
{
	return TRACE(copy_1d((uintptr_t)dst, src, n, CHECK_SRC, h, false, false), ARGS3 ", %p",
	             V3(dst, src, n), (void *)h);
}

ZC_EXPORT CUresult
cuMemcpyDtoHAsync_v2_ptsz(void *dst, CUdeviceptr src, size_t n, CUstream h)
{
	return TRACE(copy_1d((uintptr_t)dst, src, n, CHECK_SRC, h, true, false), ARGS3 ", %p",
	             V3(dst, src, n), (void *)h);
}

ZC_EXPORT CUresult
cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream h)
{
	return TRACE(copy_1d(dst, src, n, CHECK_DST | CHECK_SRC, h, false, false), ARGS3 ", %p",
	             V3(dst, src, n), (void *)h);
}

ZC_EXPORT CUresult
cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream h)
{
	return TRACE(copy_1d(dst, src, n, CHECK_DST | CHECK_SRC, h, true, false), ARGS3 ", %p",
	             V3(dst, src, n), (void *)h);
}

static CUresult
copy_3d(const CUDA_MEMCPY3D *p, CUstream handle, bool per_thread, bool sync)
{
	struct zc_copy c;
	bool empty;
	CUresult r = zc_copy_from_3d(p, &c, &empty);

	return r != CUDA_SUCCESS || empty ? r : submit_copy(handle, per_thread, sync, &c);
}

static CUresult
copy_2d(const CUDA_MEMCPY2D *p, CUstream handle, bool per_thread, bool sync)
{
	if (!p)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL copy parameters");
	CUDA_MEMCPY3D box = {
		.srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcMemoryType = p->srcMemoryType,
		.srcHost = p->srcHost, .srcDevice = p->srcDevice, .srcArray = p->srcArray,
		.srcPitch = p->srcPitch, .srcHeight = p->Height,
		.dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstMemoryType = p->dstMemoryType,
		.dstHost = p->dstHost, .dstDevice = p->dstDevice, .dstArray = p->dstArray,
		.dstPitch = p->dstPitch, .dstHeight = p->Height,
		.WidthInBytes = p->WidthInBytes, .Height = p->Height, .Depth = 1,
	};
	return copy_3d(&box, handle, per_thread, sync);
}

ZC_EXPORT CUresult
cuMemcpy2D_v2(const CUDA_MEMCPY2D *p)
{
	return TRACE(copy_2d(p, NULL, false, true), "%p", (const void *)p);
}

ZC_EXPORT CUresult
cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *p)
{
	return TRACE(copy_2d(p, NULL, true, true), "%p", (const void *)p);
}

/* Alignment restrictions are the GPU's; the copy is the same. */
ZC_EXPORT CUresult
cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *p)
{
	return TRACE(copy_2d(p, NULL, false, true), "%p", (const void *)p);
}

ZC_EXPORT CUresult
cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *p)
{
	return TRACE(copy_2d(p, NULL, true, true), "%p", (const void *)p);
}

ZC_EXPORT CUresult
cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *p, CUstream h)
{
	return TRACE(copy_2d(p, h, false, false), "%p, %p", (const void *)p, (void *)h);
}

ZC_EXPORT CUresult
cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *p, CUstream h)
{
	return TRACE(copy_2d(p, h, true, false), "%p, %p", (const void *)p, (void *)h);
}

ZC_EXPORT CUresult
cuMemcpy3D_v2(const CUDA_MEMCPY3D *p)
{
	return TRACE(copy_3d(p, NULL, false, true), "%p", (const void *)p);
}

ZC_EXPORT CUresult
cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *p)
{
	return TRACE(copy_3d(p, NULL, true, true), "%p", (const void *)p);
}

ZC_EXPORT CUresult
cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *p, CUstream h)
{
	return TRACE(copy_3d(p, h, false, false), "%p, %p", (const void *)p, (void *)h);
}

ZC_EXPORT CUresult
cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *p, CUstream h)
{
	return TRACE(copy_3d(p, h, true, false), "%p, %p", (const void *)p, (void *)h);
}

static CUresult
fill(CUdeviceptr dst, size_t pitch, uint32_t value, unsigned elem_size, size_t width,
     size_t height, CUstream handle, bool per_thread, bool sync)
{
	struct zc_fill f;
	bool empty;
	CUresult r = zc_fill_make(dst, pitch, value, elem_size, width, height, &f, &empty);

	return r != CUDA_SUCCESS || empty ? r : submit_fill(handle, per_thread, sync, &f);
}

/* The 24 memset entry points differ only in element size, shape and stream. */
#define MEMSET_1D(bits, type)                                                               \
	ZC_EXPORT CUresult cuMemsetD##bits##_v2(CUdeviceptr d, type v, size_t n)                \
	{                                                                                       \
		return TRACE(fill(d, 0, v, bits / 8, n, 1, NULL, false, true), "0x%llx, %u, %zu",   \
		             (unsigned long long)d, (unsigned)v, n);                                \
	}                                                                                       \
	ZC_EXPORT CUresult cuMemsetD##bits##_v2_ptds(CUdeviceptr d, type v, size_t n)           \
	{                                                                                       \
		return TRACE(fill(d, 0, v, bits / 8, n, 1, NULL, true, true), "0x%llx, %u, %zu",    \
		             (unsigned long long)d, (unsigned)v, n);                                \
	}                                                                                       \
	ZC_EXPORT CUresult cuMemsetD##bits##Async(CUdeviceptr d, type v, size_t n, CUstream h)  \
	{                                                                                       \
		return TRACE(fill(d, 0, v, bits / 8, n, 1, h, false, false), "0x%llx, %u, %zu, %p", \
		             (unsigned long long)d, (unsigned)v, n, (void *)h);                     \
	}                                                                                       \
	ZC_EXPORT CUresult cuMemsetD##bits##Async_ptsz(CUdeviceptr d, type v, size_t n,         \
	                                               CUstream h)                              \
	{                                                                                       \
		return TRACE(fill(d, 0, v, bits / 8, n, 1, h, true, false), "0x%llx, %u, %zu, %p",  \
		             (unsigned long long)d, (unsigned)v, n, (void *)h);                     \
	}

#define MEMSET_2D(bits, type)                                                               \
	ZC_EXPORT CUresult cuMemsetD2D##bits##_v2(CUdeviceptr d, size_t pitch, type v,          \
	                                          size_t w, size_t h)                           \
	{                                                                                       \
		return TRACE(fill(d, pitch, v, bits / 8, w, h, NULL, false, true),                  \
		             "0x%llx, %zu, %u, %zu, %zu", (unsigned long long)d, pitch,             \
		             (unsigned)v, w, h);                                                    \
	}                                                                                       \
	ZC_EXPORT CUresult cuMemsetD2D##bits##_v2_ptds(CUdeviceptr d, size_t pitch, type v,     \
	                                               size_t w, size_t h)                      \
	{                                                                                       \
		return TRACE(fill(d, pitch, v, bits / 8, w, h, NULL, true, true),                   \
		             "0x%llx, %zu, %u, %zu, %zu", (unsigned long long)d, pitch,             \
		             (unsigned)v, w, h);                                                    \
	}                                                                                       \
	ZC_EXPORT CUresult cuMemsetD2D##bits##Async(CUdeviceptr d, size_t pitch, type v,        \
	                                            size_t w, size_t h, CUstream s)             \
	{                                                                                       \
		return TRACE(fill(d, pitch, v, bits / 8, w, h, s, false, false),                    \
		             "0x%llx, %zu, %u, %zu, %zu, %p", (unsigned long long)d, pitch,         \
		             (unsigned)v, w, h, (void *)s);                                         \
	}                                                                                       \
	ZC_EXPORT CUresult cuMemsetD2D##bits##Async_ptsz(CUdeviceptr d, size_t pitch, type v,   \
	                                                 size_t w, size_t h, CUstream s)        \
	{                                                                                       \
		return TRACE(fill(d, pitch, v, bits / 8, w, h, s, true, false),                     \
		             "0x%llx, %zu, %u, %zu, %zu, %p", (unsigned long long)d, pitch,         \
		             (unsigned)v, w, h, (void *)s);                                         \
	}

MEMSET_1D(8, unsigned char)
MEMSET_1D(16, unsigned short)
MEMSET_1D(32, unsigned int)
MEMSET_2D(8, unsigned char)
MEMSET_2D(16, unsigned short)
MEMSET_2D(32, unsigned int)
