/* CUDA arrays, on every driver alike: device memory with a row-major layout (rows of Width
 * texels, Height rows to a slice, Depth slices, layers or cube faces; a mipmapped array one
 * such array a level), which copies address through zc_array_layout and texture and
 * surface objects describe (texture.c). Not supported: sparse arrays, the block-compressed
 * and video formats. */
#include <pthread.h>
#include <string.h>

#include "api.h"
#include "texture.h"

unsigned
zc_channel_bytes(int format)
{
	switch (format) {
	case ZC_TEXEL_U8: case ZC_TEXEL_S8: return 1;
	case ZC_TEXEL_U16: case ZC_TEXEL_S16: case ZC_TEXEL_F16: return 2;
	case ZC_TEXEL_U32: case ZC_TEXEL_S32: case ZC_TEXEL_F32: return 4;
	default: return 0;
	}
}

CUresult
zc_check_format(int format, unsigned channels)
{
	if (!zc_channel_bytes(format))
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "array format 0x%x (block-compressed, video and "
		                 "packed formats are not supported)", (unsigned)format);
	if (channels != 1 && channels != 2 && channels != 4)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "%u channels (1, 2 or 4)", channels);
	return CUDA_SUCCESS;
}

static CUresult
array_create(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	struct zc_array *a = NULL;
	CUresult r = zc_initialized();
	size_t bytes;

	if (r != CUDA_SUCCESS)
		return r;
	if (!out || !d)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL array or descriptor");
	if ((r = zc_check_format(d->Format, d->NumChannels)) != CUDA_SUCCESS)
		return r;
	if (d->Flags & ~(unsigned)(CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_TEXTURE_GATHER |
	                           CUDA_ARRAY3D_CUBEMAP))
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "array flags 0x%x (sparse and deferred arrays are not "
		                 "supported)", d->Flags);
	if (!d->Width || (d->Depth && !d->Height && !(d->Flags & CUDA_ARRAY3D_LAYERED)) ||
	    ((d->Flags & CUDA_ARRAY3D_LAYERED) && !d->Depth) ||
	    ((d->Flags & CUDA_ARRAY3D_CUBEMAP) && (d->Width != d->Height || !d->Depth || d->Depth % 6 ||
	                                           (!(d->Flags & CUDA_ARRAY3D_LAYERED) && d->Depth != 6))))
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "array extent %zux%zux%zu, flags 0x%x", d->Width, d->Height,
		                 d->Depth, d->Flags);
	if (!(a = stub_alloc(sizeof(*a))))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "array");
	a->desc = *d;
	a->pitch = d->Width * d->NumChannels * zc_channel_bytes(d->Format);
	a->rows = d->Height ? d->Height : 1;
	a->slices = d->Depth ? d->Depth : 1;
	bytes = a->pitch * a->rows * a->slices;
	if (a->pitch / d->Width != d->NumChannels * zc_channel_bytes(d->Format) || bytes / a->slices / a->rows != a->pitch) {
		stub_free(a);
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "array extent %zux%zux%zu", d->Width, d->Height, d->Depth);
	}
	if ((r = zc_memory_alloc_device(&a->memory, bytes)) != CUDA_SUCCESS ||
	    !zc_handle_add(a, ZC_HANDLE_ARRAY)) {
		if (a->memory)
			zc_memory_free_device(a->memory);
		stub_free(a);
		return r != CUDA_SUCCESS ? r : stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "array handle");
	}
	*out = (CUarray)a;
	return CUDA_SUCCESS;
}

static CUresult
array_free(struct zc_array *a)
{
	CUresult r;

	zc_handle_remove(a);
	r = zc_memory_free_device(a->memory);
	stub_free(a);
	return r;
}

CUresult
zc_array_get(CUarray handle, struct zc_array **a)
{
	if (!zc_handle_is(handle, ZC_HANDLE_ARRAY))
		return stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a CUDA array", (void *)handle);
	*a = (struct zc_array *)handle;
	return CUDA_SUCCESS;
}

CUresult
zc_array_layout(const void *handle, void **memory, size_t *pitch, size_t *rows, size_t *slices)
{
	struct zc_array *a = NULL;
	CUresult r = zc_array_get((CUarray)handle, &a);

	if (r == CUDA_SUCCESS) {
		*memory = a->memory;
		*pitch = a->pitch;
		*rows = a->rows;
		*slices = a->slices;
	}
	return r;
}

ZC_EXPORT CUresult
cuArrayCreate_v2(CUarray *out, const CUDA_ARRAY_DESCRIPTOR *d)
{
	CUDA_ARRAY3D_DESCRIPTOR d3 = { 0 };
	CUresult r;

	if (d)
		d3 = (CUDA_ARRAY3D_DESCRIPTOR){ .Width = d->Width, .Height = d->Height, .Format = d->Format,
		                                .NumChannels = d->NumChannels };
	r = array_create(out, d ? &d3 : NULL);
	return TRACE(r, "%zu, %zu -> %p", d ? d->Width : 0, d ? d->Height : 0,
	             r == CUDA_SUCCESS ? (void *)*out : NULL);
}

ZC_EXPORT CUresult
cuArray3DCreate_v2(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	CUresult r = array_create(out, d);

	return TRACE(r, "%zu, %zu, %zu, 0x%x -> %p", d ? d->Width : 0, d ? d->Height : 0, d ? d->Depth : 0,
	             d ? d->Flags : 0, r == CUDA_SUCCESS ? (void *)*out : NULL);
}

ZC_EXPORT CUresult
cuArrayDestroy(CUarray handle)
{
	struct zc_array *a = NULL;
	CUresult r = zc_array_get(handle, &a);

	if (r == CUDA_SUCCESS && a->level)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a level of a mipmapped array: cuMipmappedArrayDestroy frees it");
	if (r == CUDA_SUCCESS)
		r = array_free(a);
	return TRACE(r, "%p", (void *)handle);
}

static unsigned
most_levels(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	size_t extent = d->Width > d->Height ? d->Width : d->Height;
	unsigned levels = 1;

	if (!(d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) && d->Depth > extent)
		extent = d->Depth;
	while (extent >>= 1)
		levels++;
	return levels;
}

static CUresult
mipmapped_destroy(struct zc_mipmapped_array *m)
{
	CUresult r = CUDA_SUCCESS, e;

	zc_handle_remove(m);
	for (unsigned l = 0; l < m->levels; l++)
		if (m->level[l] && (e = array_free(m->level[l])) != CUDA_SUCCESS)
			r = e;
	stub_free(m);
	return r;
}

static CUresult
mipmapped_create(CUmipmappedArray *out, const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned levels)
{
	struct zc_mipmapped_array *m;
	CUresult r = zc_initialized();

	if (r != CUDA_SUCCESS)
		return r;
	if (!out || !d)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL mipmapped array or descriptor");
	if (!levels || levels > most_levels(d) || levels > ZC_TEXTURE_MAX_LEVELS)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "%u levels for %zux%zux%zu", levels, d->Width, d->Height,
		                 d->Depth);
	if (!(m = stub_alloc(sizeof(*m))))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "mipmapped array");
	m->desc = *d;
	m->levels = levels;
	for (unsigned l = 0; l < levels && r == CUDA_SUCCESS; l++) {
		CUDA_ARRAY3D_DESCRIPTOR level = *d;
		bool layered = d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
		level.Width = d->Width >> l ? d->Width >> l : 1;
		level.Height = !d->Height ? 0 : d->Height >> l ? d->Height >> l : 1;
		level.Depth = layered || !d->Depth ? d->Depth : d->Depth >> l ? d->Depth >> l : 1;
		if ((r = array_create((CUarray *)&m->level[l], &level)) == CUDA_SUCCESS)
			m->level[l]->level = true;
	}
	if (r == CUDA_SUCCESS && !zc_handle_add(m, ZC_HANDLE_MIPMAPPED_ARRAY))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "mipmapped array handle");
	if (r != CUDA_SUCCESS) {
		mipmapped_destroy(m);
		return r;
	}
	*out = (CUmipmappedArray)m;
	return CUDA_SUCCESS;
}

CUresult
zc_mipmapped_get(CUmipmappedArray handle, struct zc_mipmapped_array **m)
{
	if (!zc_handle_is(handle, ZC_HANDLE_MIPMAPPED_ARRAY))
		return stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a mipmapped array", (void *)handle);
	*m = (struct zc_mipmapped_array *)handle;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuMipmappedArrayCreate(CUmipmappedArray *out, const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned int levels)
{
	CUresult r = mipmapped_create(out, d, levels);

	return TRACE(r, "%zu, %zu, %zu, 0x%x, %u -> %p", d ? d->Width : 0, d ? d->Height : 0, d ? d->Depth : 0,
	             d ? d->Flags : 0, levels, r == CUDA_SUCCESS ? (void *)*out : NULL);
}

ZC_EXPORT CUresult
cuMipmappedArrayGetLevel(CUarray *out, CUmipmappedArray handle, unsigned int level)
{
	struct zc_mipmapped_array *m = NULL;
	CUresult r = zc_mipmapped_get(handle, &m);

	if (r == CUDA_SUCCESS && (!out || level >= m->levels))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "level %u of %u", level, m->levels);
	if (r == CUDA_SUCCESS)
		*out = (CUarray)m->level[level];
	return TRACE(r, "%p, %u -> %p", (void *)handle, level, r == CUDA_SUCCESS ? (void *)*out : NULL);
}

ZC_EXPORT CUresult
cuMipmappedArrayDestroy(CUmipmappedArray handle)
{
	struct zc_mipmapped_array *m = NULL;
	CUresult r = zc_mipmapped_get(handle, &m);

	if (r == CUDA_SUCCESS)
		r = mipmapped_destroy(m);
	return TRACE(r, "%p", (void *)handle);
}

ZC_EXPORT CUresult
cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray handle)
{
	struct zc_array *a = NULL;
	CUresult r = zc_array_get(handle, &a);

	if (r == CUDA_SUCCESS && !d)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL descriptor");
	if (r == CUDA_SUCCESS)
		*d = a->desc;
	return TRACE(r, "%p", (void *)handle);
}

ZC_EXPORT CUresult
cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *d, CUarray handle)
{
	struct zc_array *a = NULL;
	CUresult r = zc_array_get(handle, &a);

	if (r == CUDA_SUCCESS && !d)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL descriptor");
	if (r == CUDA_SUCCESS && a->desc.Depth)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a 3D or layered array: cuArray3DGetDescriptor describes it");
	if (r == CUDA_SUCCESS)
		*d = (CUDA_ARRAY_DESCRIPTOR){ .Width = a->desc.Width, .Height = a->desc.Height,
		                              .Format = a->desc.Format, .NumChannels = a->desc.NumChannels };
	return TRACE(r, "%p", (void *)handle);
}

