/* The program's allocations and frees (cuMemAlloc, cuMemHostAlloc, cuMemAllocManaged,
 * cuMemFree, ...): refused during a capture that forbids them, which the stub's own (for
 * pools, graphs and arrays, memory.c's) are not; and a freed pointer that a pool handed out
 * leaves its pool. */
#include "api.h"

static CUresult
allocate(enum zc_mem_kind kind, size_t bytes, unsigned flags, const void *dest, void **ptr)
{
	CUresult r = zc_capture_allows("allocating memory");

	return r == CUDA_SUCCESS ? zc_memory_place(kind, bytes, flags, dest, ptr) : r;
}

static CUresult
release(uintptr_t base, enum zc_mem_kind kind)
{
	struct zc_taken t;
	CUresult r = zc_capture_allows("freeing memory");

	if (r == CUDA_SUCCESS)
		r = zc_memory_take(base, kind, &t);
	if (r != CUDA_SUCCESS)
		return r;
	zc_mempool_forget((void *)base);
	return zc_memory_drop(&t);
}

ZC_EXPORT CUresult
cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
	void *p = NULL;
	CUresult r = allocate(ZC_MEM_DEVICE, bytesize, 0, dptr, &p);

	if (r == CUDA_SUCCESS)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return TRACE(r, "%zu -> %p", bytesize, p);
}

ZC_EXPORT CUresult
cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
	void *p = NULL;
	CUresult r = CUDA_SUCCESS;

	if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags);
	if (r == CUDA_SUCCESS)
		r = allocate(ZC_MEM_MANAGED, bytesize, flags, dptr, &p);
	if (r == CUDA_SUCCESS)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return TRACE(r, "%zu, 0x%x -> %p", bytesize, flags, p);
}

ZC_EXPORT CUresult
cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                   unsigned int ElementSizeBytes)
{
	/* Rows start on the texture pitch alignment, like CUDA's. */
	size_t pitch = (WidthInBytes + 511) & ~(size_t)511;
	void *p = NULL;
	CUresult r = CUDA_SUCCESS;

	if (!pPitch || (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pPitch or element size %u", ElementSizeBytes);
	if (r == CUDA_SUCCESS && Height && pitch > SIZE_MAX / Height)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%zu rows of %zu bytes", Height, pitch);
	if (r == CUDA_SUCCESS)
		r = allocate(ZC_MEM_DEVICE, pitch * Height, 0, dptr, &p);
	if (r == CUDA_SUCCESS) {
		*dptr = (CUdeviceptr)(uintptr_t)p;
		*pPitch = pitch;
	}
	return TRACE(r, "%zu, %zu, %u -> %p, pitch %zu", WidthInBytes, Height, ElementSizeBytes,
	             p, r == CUDA_SUCCESS ? pitch : 0);
}

ZC_EXPORT CUresult
cuMemFree_v2(CUdeviceptr dptr)
{
	CUresult r = CUDA_SUCCESS;

	/* Freeing NULL does nothing, as in CUDA; managed memory and graph memory are freed here
	 * too, neither during a capture that forbids it. */
	if (dptr && (r = zc_capture_allows("freeing memory")) == CUDA_SUCCESS &&
	    !zc_graph_memory_free(dptr, NULL, &r))
		r = release((uintptr_t)dptr, zc_memory_managed(dptr) ? ZC_MEM_MANAGED : ZC_MEM_DEVICE);
	return TRACE(r, "0x%llx", (unsigned long long)dptr);
}

ZC_EXPORT CUresult
cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
	void *p = NULL;
	CUresult r = CUDA_SUCCESS;

	if (Flags & ~(unsigned)CU_MEMHOSTALLOC_FLAGS_MASK)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", Flags);
	if (r == CUDA_SUCCESS)
		r = allocate(ZC_MEM_HOST, bytesize, Flags, pp, &p);
	if (r == CUDA_SUCCESS)
		*pp = p;
	return TRACE(r, "%zu, 0x%x -> %p", bytesize, Flags, p);
}

ZC_EXPORT CUresult
cuMemAllocHost_v2(void **pp, size_t bytesize)
{
	/* With unified addressing, all page-locked memory is portable and mapped. */
	return cuMemHostAlloc(pp, bytesize, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
}

ZC_EXPORT CUresult
cuMemFreeHost(void *p)
{
	CUresult r = p ? release((uintptr_t)p, ZC_MEM_HOST)
	               : stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL p");

	return TRACE(r, "%p", p);
}
