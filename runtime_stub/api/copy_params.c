/* A copy or a fill as CUDA describes it (a 3D copy's parameters, a memset's), checked and
 * laid out as the driver takes it: for the copy and memset entry points (memcpy.c) and for
 * graph nodes. */
#include "api.h"

/* One end of a 2D/3D copy: where its first byte is, and how its rows and slices are laid
 * out (a CUDA array's own layout replaces the pitch and height given). Device memory and
 * arrays are checked to hold the whole box. */
static CUresult
box_end(CUmemorytype type, const void *host, CUdeviceptr device, const void *array, size_t x, size_t y,
        size_t z, size_t *pitch_, size_t *height_, const struct zc_copy *c, uintptr_t *first)
{
	uintptr_t base;
	void *memory;
	size_t slices;
	CUresult r;

	switch (type) {
	case CU_MEMORYTYPE_HOST:
		base = (uintptr_t)host;
		break;
	case CU_MEMORYTYPE_DEVICE:
	case CU_MEMORYTYPE_UNIFIED:
		base = (uintptr_t)device;
		break;
	case CU_MEMORYTYPE_ARRAY:
		if ((r = zc_array_layout(array, &memory, pitch_, height_, &slices)) != CUDA_SUCCESS)
			return r;
		if (x + c->width > *pitch_ || y + c->height > *height_ || z + c->depth > slices)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "the copy reaches outside the CUDA array");
		base = (uintptr_t)memory;
		break;
	default:
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "memory type %d", (int)type);
	}
	size_t pitch = *pitch_, height = *height_;
	if (!base)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL copy end");
	if (c->height > 1 && pitch < c->width)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "pitch %zu below width %zu", pitch, c->width);
	if (c->depth > 1 && height < c->height)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "height %zu below %zu rows", height, c->height);
	*first = base + (z * height + y) * pitch + x;
	if (type == CU_MEMORYTYPE_DEVICE) {
		size_t extent = ((c->depth - 1) * height + (c->height - 1)) * pitch + c->width;
		return zc_memory_check(*first, extent);
	}
	return CUDA_SUCCESS;
}

CUresult
zc_copy_from_3d(const CUDA_MEMCPY3D *p, struct zc_copy *c, bool *empty)
{
	uintptr_t dst, src;
	CUresult r = zc_initialized();

	if (r != CUDA_SUCCESS)
		return r;
	if (!p)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL copy parameters");
	if (p->srcLOD || p->dstLOD)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "mipmap levels (mipmapped arrays are not supported)");
	*c = (struct zc_copy){
		.width = p->WidthInBytes, .height = p->Height, .depth = p->Depth,
		/* A pitch of 0 is allowed when there is a single row or slice. */
		.dst_pitch = p->dstPitch ? p->dstPitch : p->WidthInBytes,
		.dst_height = p->dstHeight ? p->dstHeight : p->Height,
		.src_pitch = p->srcPitch ? p->srcPitch : p->WidthInBytes,
		.src_height = p->srcHeight ? p->srcHeight : p->Height,
	};
	*empty = !p->WidthInBytes || !p->Height || !p->Depth;
	if (*empty)
		return CUDA_SUCCESS;
	r = box_end(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
	            &c->dst_pitch, &c->dst_height, c, &dst);
	if (r == CUDA_SUCCESS)
		r = box_end(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY,
		            p->srcZ, &c->src_pitch, &c->src_height, c, &src);
	if (r != CUDA_SUCCESS)
		return r;
	c->dst = (void *)dst;
	c->src = (const void *)src;
	return CUDA_SUCCESS;
}

/* Fills: height rows of width elements, rows pitch bytes apart. */
CUresult
zc_fill_make(CUdeviceptr dst, size_t pitch, uint32_t value, unsigned elem_size, size_t width,
          size_t height, struct zc_fill *f, bool *empty)
{
	CUresult r = zc_initialized();
	size_t row = width * elem_size;

	*empty = width == 0 || height == 0;
	if (r != CUDA_SUCCESS || *empty)
		return r;
	if (elem_size != 1 && elem_size != 2 && elem_size != 4)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "element size %u", elem_size);
	if (dst % elem_size)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "destination not aligned to %u", elem_size);
	if (height > 1 && pitch < row)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "pitch %zu below row %zu", pitch, row);
	if ((r = zc_memory_check(dst, (height - 1) * pitch + row)) != CUDA_SUCCESS)
		return r;
	*f = (struct zc_fill){
		.dst = (void *)(uintptr_t)dst, .value = value, .elem_size = elem_size,
		.width = width, .height = height, .pitch = height > 1 ? pitch : row,
	};
	return CUDA_SUCCESS;
}

CUresult
zc_fill_from_params(const CUDA_MEMSET_NODE_PARAMS *p, struct zc_fill *f, bool *empty)
{
	if (!p)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL memset parameters");
	return zc_fill_make(p->dst, p->pitch, p->value, p->elementSize, p->width, p->height, f, empty);
}
