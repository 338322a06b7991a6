/* CUDA arrays, texture objects and surface objects, on every driver alike: an array is
 * device memory with a row-major layout (rows of Width texels, Height rows to a slice,
 * Depth slices, layers or cube faces; a mipmapped array one such array a level), and an
 * object's handle is the device address of a descriptor (abi/texture.h) that the
 * builtins' sampler reads. So a driver needs nothing but memory and copies. Not supported:
 * resource views, sRGB, sparse arrays, the block-compressed and video formats. */
#include <pthread.h>
#include <string.h>

#include "api.h"
#include "texture.h"

struct zc_array {
	CUDA_ARRAY3D_DESCRIPTOR desc;
	void *memory;
	size_t pitch;   /* bytes from a row to the next: Width texels */
	size_t rows;    /* to a slice: Height, or 1 */
	size_t slices;  /* Depth (slices, layers or cube faces), or 1 */
	bool level;     /* a level of a mipmapped array, which destroys it */
};

/* Each level an array of its own, max(1, extent >> l) texels each way (layers stay). */
struct zc_mipmapped_array {
	CUDA_ARRAY3D_DESCRIPTOR desc;
	unsigned levels;
	struct zc_array *level[ZC_TEXTURE_MAX_LEVELS];
};

/* A texture or surface object: what it was made of, for the calls that give it back. */
struct zc_texture_object {
	unsigned long long handle;  /* the descriptor's device address */
	bool surface;
	CUDA_RESOURCE_DESC resource;
	CUDA_TEXTURE_DESC texture;
	struct zc_texture_object *next;
};

static pthread_mutex_t objects_lock = PTHREAD_MUTEX_INITIALIZER;
static struct zc_texture_object *objects;

static unsigned
channel_bytes(int format)
{
	switch (format) {
	case ZC_TEXEL_U8: case ZC_TEXEL_S8: return 1;
	case ZC_TEXEL_U16: case ZC_TEXEL_S16: case ZC_TEXEL_F16: return 2;
	case ZC_TEXEL_U32: case ZC_TEXEL_S32: case ZC_TEXEL_F32: return 4;
	default: return 0;
	}
}

static CUresult
check_format(int format, unsigned channels)
{
	if (!channel_bytes(format))
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
	if ((r = check_format(d->Format, d->NumChannels)) != CUDA_SUCCESS)
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
	a->pitch = d->Width * d->NumChannels * channel_bytes(d->Format);
	a->rows = d->Height ? d->Height : 1;
	a->slices = d->Depth ? d->Depth : 1;
	bytes = a->pitch * a->rows * a->slices;
	if (a->pitch / d->Width != d->NumChannels * channel_bytes(d->Format) || bytes / a->slices / a->rows != a->pitch) {
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

static CUresult
array_get(CUarray handle, struct zc_array **a)
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
	CUresult r = array_get((CUarray)handle, &a);

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
	CUresult r = array_get(handle, &a);

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

static CUresult
mipmapped_get(CUmipmappedArray handle, struct zc_mipmapped_array **m)
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
	CUresult r = mipmapped_get(handle, &m);

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
	CUresult r = mipmapped_get(handle, &m);

	if (r == CUDA_SUCCESS)
		r = mipmapped_destroy(m);
	return TRACE(r, "%p", (void *)handle);
}

ZC_EXPORT CUresult
cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray handle)
{
	struct zc_array *a = NULL;
	CUresult r = array_get(handle, &a);

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
	CUresult r = array_get(handle, &a);

	if (r == CUDA_SUCCESS && !d)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL descriptor");
	if (r == CUDA_SUCCESS && a->desc.Depth)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a 3D or layered array: cuArray3DGetDescriptor describes it");
	if (r == CUDA_SUCCESS)
		*d = (CUDA_ARRAY_DESCRIPTOR){ .Width = a->desc.Width, .Height = a->desc.Height,
		                              .Format = a->desc.Format, .NumChannels = a->desc.NumChannels };
	return TRACE(r, "%p", (void *)handle);
}

static void
describe_array(const struct zc_array *a, struct zc_texture *t)
{
	t->resource = ZC_RESOURCE_ARRAY;
	t->base = t->level_base[0] = (uintptr_t)a->memory;
	t->format = (uint32_t)a->desc.Format;
	t->channels = a->desc.NumChannels;
	t->texel_bytes = t->channels * channel_bytes(a->desc.Format);
	t->width = (uint32_t)a->desc.Width;
	t->height = (uint32_t)a->rows;
	t->pitch = a->pitch;
	t->slice_pitch = a->pitch * a->rows;
	t->cubemap = (a->desc.Flags & CUDA_ARRAY3D_CUBEMAP) != 0;
	t->dims = a->desc.Height ? 2 : 1;
	if (a->desc.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) {
		t->layers = (uint32_t)a->slices;  /* a cube map's faces, six a layer */
	} else {
		t->depth = (uint32_t)a->slices;
		t->dims = a->desc.Depth ? 3 : t->dims;
	}
}

/* Linear or pitched memory's place and texel format. */
static CUresult
describe_memory(struct zc_texture *t, enum zc_texture_resource resource, CUdeviceptr base, int format,
                unsigned channels)
{
	CUresult r = check_format(format, channels);

	if (r == CUDA_SUCCESS) {
		t->resource = resource;
		t->base = t->level_base[0] = base;
		t->format = (uint32_t)format;
		t->channels = channels;
		t->texel_bytes = channels * channel_bytes(format);
	}
	return r;
}

/* The descriptor of a resource, but for what the texture description adds. */
static CUresult
describe_resource(const CUDA_RESOURCE_DESC *res, bool surface, struct zc_texture *t)
{
	struct zc_mipmapped_array *m = NULL;
	struct zc_array *a = NULL;
	CUresult r;

	if (!res)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL resource descriptor");
	if (surface && res->resType != CU_RESOURCE_TYPE_ARRAY)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "a surface object needs a CUDA array");
	*t = (struct zc_texture){ .height = 1, .depth = 1, .levels = 1, .dims = 1,
	                          .address = { ZC_ADDRESS_CLAMP, ZC_ADDRESS_CLAMP, ZC_ADDRESS_CLAMP } };
	switch (res->resType) {
	case CU_RESOURCE_TYPE_LINEAR:
		if ((r = describe_memory(t, ZC_RESOURCE_LINEAR, res->res.linear.devPtr, res->res.linear.format,
		                         res->res.linear.numChannels)) != CUDA_SUCCESS)
			return r;
		t->width = (uint32_t)(res->res.linear.sizeInBytes / t->texel_bytes);
		t->pitch = t->slice_pitch = res->res.linear.sizeInBytes;
		if (!t->base || res->res.linear.sizeInBytes / t->texel_bytes > (1u << 28))
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "linear texture of %zu bytes at 0x%llx",
			                 res->res.linear.sizeInBytes, (unsigned long long)t->base);
		return zc_memory_check(t->base, res->res.linear.sizeInBytes);
	case CU_RESOURCE_TYPE_PITCH2D:
		if ((r = describe_memory(t, ZC_RESOURCE_PITCH2D, res->res.pitch2D.devPtr, res->res.pitch2D.format,
		                         res->res.pitch2D.numChannels)) != CUDA_SUCCESS)
			return r;
		t->width = (uint32_t)res->res.pitch2D.width;
		t->height = (uint32_t)res->res.pitch2D.height;
		t->dims = 2;
		t->pitch = res->res.pitch2D.pitchInBytes;
		t->slice_pitch = t->pitch * t->height;
		if (!t->base || !t->width || !t->height || t->width > 131072 || t->height > 65000 ||
		    t->pitch < (uint64_t)t->width * t->texel_bytes || t->pitch % 32)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "pitched texture %ux%u, pitch %llu", t->width,
			                 t->height, (unsigned long long)t->pitch);
		return zc_memory_check(t->base, (t->height - 1) * t->pitch + (uint64_t)t->width * t->texel_bytes);
	case CU_RESOURCE_TYPE_ARRAY:
		if ((r = array_get(res->res.array.hArray, &a)) != CUDA_SUCCESS)
			return r;
		/* an H200 takes arrays made without CUDA_ARRAY3D_SURFACE_LDST too (mipmap levels
		 * among them), and so do these, whose memory is the same either way */
		describe_array(a, t);
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		if (surface)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "a surface object needs a CUDA array");
		if ((r = mipmapped_get(res->res.mipmap.hMipmappedArray, &m)) != CUDA_SUCCESS)
			return r;
		describe_array(m->level[0], t);
		t->levels = m->levels;
		for (unsigned l = 0; l < m->levels; l++)
			t->level_base[l] = (uintptr_t)m->level[l]->memory;
		return CUDA_SUCCESS;
	default:
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "resource type %d", (int)res->resType);
	}
}

static CUresult
describe_sampling(const CUDA_TEXTURE_DESC *tex, struct zc_texture *t)
{
	if (!tex)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL texture descriptor");
	if (tex->flags & CU_TRSF_SRGB)
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "sRGB textures");
	for (unsigned i = 0; i < 3; i++) {
		if (tex->addressMode[i] < ZC_ADDRESS_WRAP || tex->addressMode[i] > ZC_ADDRESS_BORDER)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "address mode %d", tex->addressMode[i]);
		t->address[i] = (uint32_t)tex->addressMode[i];
	}
	if (tex->filterMode != ZC_FILTER_POINT && tex->filterMode != ZC_FILTER_LINEAR)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "filter mode %d", tex->filterMode);
	t->filter = (uint32_t)tex->filterMode;
	if (tex->mipmapFilterMode != ZC_FILTER_POINT && tex->mipmapFilterMode != ZC_FILTER_LINEAR)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "mipmap filter mode %d", tex->mipmapFilterMode);
	t->mipmap_filter = (uint32_t)tex->mipmapFilterMode;
	t->lod_bias = tex->mipmapLevelBias;
	t->min_lod = tex->minMipmapLevelClamp;
	t->max_lod = tex->maxMipmapLevelClamp;
	t->flags = tex->flags & (CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SEAMLESS_CUBEMAP);
	memcpy(t->border, tex->borderColor, sizeof(t->border));
	return CUDA_SUCCESS;
}

/* Writes the descriptor into device memory and keeps what the object was made of. */
static CUresult
object_create(unsigned long long *out, const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
              const struct zc_texture *t)
{
	struct zc_texture_object *o = stub_alloc(sizeof(*o));
	void *device = NULL;
	CUresult r;

	if (!o)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "texture object");
	if ((r = zc_memory_alloc_device(&device, sizeof(*t))) != CUDA_SUCCESS ||
	    (r = zc_copy_to_device(device, t, sizeof(*t))) != CUDA_SUCCESS) {
		if (device)
			zc_memory_free_device(device);
		stub_free(o);
		return r;
	}
	o->handle = (uintptr_t)device;
	o->surface = !tex;
	o->resource = *res;
	if (tex)
		o->texture = *tex;
	pthread_mutex_lock(&objects_lock);
	o->next = objects;
	objects = o;
	pthread_mutex_unlock(&objects_lock);
	*out = o->handle;
	return CUDA_SUCCESS;
}

/* The object of a handle, taken off the list when `unlink`. */
static struct zc_texture_object *
object_find(unsigned long long handle, bool surface, bool unlink)
{
	struct zc_texture_object **p, *o = NULL;

	pthread_mutex_lock(&objects_lock);
	for (p = &objects; *p; p = &(*p)->next)
		if ((*p)->handle == handle && (*p)->surface == surface) {
			o = *p;
			if (unlink)
				*p = o->next;
			break;
		}
	pthread_mutex_unlock(&objects_lock);
	return o;
}

static CUresult
object_destroy(unsigned long long handle, bool surface)
{
	struct zc_texture_object *o = object_find(handle, surface, true);
	CUresult r;

	if (!o)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is not a %s object", handle,
		                 surface ? "surface" : "texture");
	r = zc_memory_free_device((void *)(uintptr_t)o->handle);
	stub_free(o);
	return r;
}

static CUresult
texture_create(CUtexObject *out, const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
               const CUDA_RESOURCE_VIEW_DESC *view)
{
	struct zc_texture t;
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !out)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL texture object");
	if (r == CUDA_SUCCESS && view)
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "resource views");
	if (r == CUDA_SUCCESS)
		r = describe_resource(res, false, &t);
	if (r == CUDA_SUCCESS)
		r = describe_sampling(tex, &t);
	return r == CUDA_SUCCESS ? object_create(out, res, tex, &t) : r;
}

ZC_EXPORT CUresult
cuTexObjectCreate(CUtexObject *out, const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
                  const CUDA_RESOURCE_VIEW_DESC *view)
{
	CUresult r = texture_create(out, res, tex, view);

	return TRACE(r, "%d -> 0x%llx", res ? (int)res->resType : -1, r == CUDA_SUCCESS ? *out : 0);
}

ZC_EXPORT CUresult
cuTexObjectDestroy(CUtexObject handle)
{
	return TRACE(object_destroy(handle, false), "0x%llx", handle);
}

static CUresult
object_describe(unsigned long long handle, bool surface, CUDA_RESOURCE_DESC *res, CUDA_TEXTURE_DESC *tex)
{
	struct zc_texture_object *o = object_find(handle, surface, false);

	if (!o)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is not a %s object", handle,
		                 surface ? "surface" : "texture");
	if (!res && !tex)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL descriptor");
	if (res)
		*res = o->resource;
	if (tex)
		*tex = o->texture;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *res, CUtexObject handle)
{
	return TRACE(object_describe(handle, false, res, NULL), "0x%llx", handle);
}

ZC_EXPORT CUresult
cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *tex, CUtexObject handle)
{
	return TRACE(object_describe(handle, false, NULL, tex), "0x%llx", handle);
}

/* No object has a view: CUDA answers a zeroed one then. */
ZC_EXPORT CUresult
cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *view, CUtexObject handle)
{
	CUresult r = object_describe(handle, false, NULL, &(CUDA_TEXTURE_DESC){ 0 });

	if (r == CUDA_SUCCESS && !view)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL view descriptor");
	if (r == CUDA_SUCCESS)
		*view = (CUDA_RESOURCE_VIEW_DESC){ 0 };
	return TRACE(r, "0x%llx", handle);
}

static CUresult
surface_create(CUsurfObject *out, const CUDA_RESOURCE_DESC *res)
{
	struct zc_texture t;
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !out)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL surface object");
	if (r == CUDA_SUCCESS)
		r = describe_resource(res, true, &t);
	return r == CUDA_SUCCESS ? object_create(out, res, NULL, &t) : r;
}

ZC_EXPORT CUresult
cuSurfObjectCreate(CUsurfObject *out, const CUDA_RESOURCE_DESC *res)
{
	CUresult r = surface_create(out, res);

	return TRACE(r, "-> 0x%llx", r == CUDA_SUCCESS ? *out : 0);
}

ZC_EXPORT CUresult
cuSurfObjectDestroy(CUsurfObject handle)
{
	return TRACE(object_destroy(handle, true), "0x%llx", handle);
}

ZC_EXPORT CUresult
cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *res, CUsurfObject handle)
{
	return TRACE(object_describe(handle, true, res, NULL), "0x%llx", handle);
}
