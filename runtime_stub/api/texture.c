/* Texture and surface objects, on every driver alike: an object's handle is the device
 * address of a descriptor (abi/texture.h) that the builtins' sampler reads, made from a
 * CUDA array (array.c), pitched or linear memory. So a driver needs nothing but memory and
 * copies. Not supported: resource views, sRGB. */
#include <pthread.h>
#include <string.h>

#include "api.h"
#include "texture.h"

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

static void
describe_array(const struct zc_array *a, struct zc_texture *t)
{
	t->resource = ZC_RESOURCE_ARRAY;
	t->base = t->level_base[0] = (uintptr_t)a->memory;
	t->format = (uint32_t)a->desc.Format;
	t->channels = a->desc.NumChannels;
	t->texel_bytes = t->channels * zc_channel_bytes(a->desc.Format);
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
	CUresult r = zc_check_format(format, channels);

	if (r == CUDA_SUCCESS) {
		t->resource = resource;
		t->base = t->level_base[0] = base;
		t->format = (uint32_t)format;
		t->channels = channels;
		t->texel_bytes = channels * zc_channel_bytes(format);
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
		if ((r = zc_array_get(res->res.array.hArray, &a)) != CUDA_SUCCESS)
			return r;
		/* an H200 takes arrays made without CUDA_ARRAY3D_SURFACE_LDST too (mipmap levels
		 * among them), and so do these, whose memory is the same either way */
		describe_array(a, t);
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		if (surface)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "a surface object needs a CUDA array");
		if ((r = zc_mipmapped_get(res->res.mipmap.hMipmappedArray, &m)) != CUDA_SUCCESS)
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
