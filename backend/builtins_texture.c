/* Texture sampling, gathering and queries, and surface loads and stores
 * (ptx_frontend/lower_texture.c), the same C on every target: the handle is the device
 * address of the object's descriptor (texture.h). Sampling follows the CUDA programming
 * guide's texture fetching formulas: coordinates normalized or in texels, the address modes
 * applied per texel, nearest-point or linear filtering with weights held in 9-bit fixed
 * point (8 fractional bits), 8- and 16-bit integers read as normalized floats unless read as
 * integers. */
#include <stdbool.h>

#include "builtins.h"
#include "texture.h"

static const struct zc_texture *descriptor(uint64_t handle)
{
	return (const struct zc_texture *)(uintptr_t)handle;
}

static float float_of_bits(uint32_t u)
{
	return __builtin_bit_cast(float, u);
}

static uint32_t bits_of_float(float f)
{
	return __builtin_bit_cast(uint32_t, f);
}

static float half_to_float(uint32_t h)
{
	uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;

	if (exponent == 0x1f)
		return float_of_bits(sign | 0x7f800000u | mantissa << 13);
	if (exponent == 0)  /* zero or subnormal: mantissa * 2^-24, exact in f32 */
		return float_of_bits(sign) + (sign ? -1.0f : 1.0f) * (float)mantissa * 0x1p-24f;
	return float_of_bits(sign | (exponent + 112) << 23 | mantissa << 13);
}

static bool integer_format(uint32_t format)
{
	return format != ZC_TEXEL_F16 && format != ZC_TEXEL_F32;
}

/* Whether the texture returns integers (element type) rather than floats. 32-bit integers
 * have no normalized form and are always read as they are. */
static bool returns_integers(const struct zc_texture *t)
{
	return integer_format(t->format) &&
	       ((t->flags & ZC_TEXTURE_READ_AS_INTEGER) || t->format == ZC_TEXEL_U32 || t->format == ZC_TEXEL_S32);
}

/* Channel c of the texel at p: as its integer (sign-extended) when the texture returns
 * integers, else as a float (8- and 16-bit integers normalized to [0, 1] or [-1, 1]). */
static uint32_t channel(const struct zc_texture *t, const uint8_t *p, unsigned c)
{
	bool integers = returns_integers(t);

	switch (t->format) {
	case ZC_TEXEL_U8: {
		uint32_t v = p[c];
		return integers ? v : bits_of_float((float)v / 255.0f);
	}
	case ZC_TEXEL_S8: {
		int32_t v = (int8_t)p[c];
		float f = (float)v / 127.0f;
		return integers ? (uint32_t)v : bits_of_float(f < -1.0f ? -1.0f : f);
	}
	case ZC_TEXEL_U16: {
		uint32_t v = ((const uint16_t *)p)[c];
		return integers ? v : bits_of_float((float)v / 65535.0f);
	}
	case ZC_TEXEL_S16: {
		int32_t v = ((const int16_t *)p)[c];
		float f = (float)v / 32767.0f;
		return integers ? (uint32_t)v : bits_of_float(f < -1.0f ? -1.0f : f);
	}
	case ZC_TEXEL_F16:
		return bits_of_float(half_to_float(((const uint16_t *)p)[c]));
	default:  /* 32-bit integers and floats: the bits as they are */
		return ((const uint32_t *)p)[c];
	}
}

/* The four words of the texel at (x, y, z) of a layer (indices already in range), or of
 * the border. Channels the format lacks read as 0, and a missing alpha as 1. */
static void texel(const struct zc_texture *t, int32_t x, int32_t y, int32_t z, uint32_t layer, bool border,
                  uint32_t *out)
{
	bool integers = returns_integers(t);

	if (border) {
		for (unsigned c = 0; c < 4; c++)
			out[c] = integers ? (uint32_t)(int32_t)t->border[c] : bits_of_float(t->border[c]);
		return;
	}
	const uint8_t *p = (const uint8_t *)(uintptr_t)(t->base + (uint64_t)layer * t->slice_pitch +
	                                               (uint64_t)z * t->slice_pitch + (uint64_t)y * t->pitch +
	                                               (uint64_t)x * t->texel_bytes);
	for (unsigned c = 0; c < 4; c++)
		out[c] = c < t->channels ? channel(t, p, c)
		       : c == 3 ? (integers ? 1u : bits_of_float(1.0f)) : 0u;
}

static int64_t floor_to_int(float x)
{
	float f = __builtin_floorf(x);

	/* beyond every texture's extent either way: any index out of range does */
	return f < -1e9f ? -1000000000 : f > 1e9f ? 1000000000 : (int64_t)f;
}

/* Coordinate x in texels: a normalized one wrapped or mirrored into [0, 1] and scaled. */
static float in_texels(const struct zc_texture *t, float x, unsigned axis, uint32_t size)
{
	if (!(t->flags & ZC_TEXTURE_NORMALIZED_COORDS))
		return x;
	if (t->address[axis] == ZC_ADDRESS_WRAP) {
		x = x - __builtin_floorf(x);
	} else if (t->address[axis] == ZC_ADDRESS_MIRROR) {
		float whole = __builtin_floorf(x), part = x - whole;
		x = floor_to_int(whole) & 1 ? 1.0f - part : part;
	}
	return x * (float)size;
}

/* Texel index i on an axis of `size` texels, by the axis's address mode: in range as it
 * is, wrapped (normalized coordinates only), clamped to the edge (clamp, mirror, and wrap
 * without normalized coordinates), or -1: the border. */
static int32_t address(const struct zc_texture *t, int64_t i, unsigned axis, uint32_t size)
{
	if (i >= 0 && i < (int64_t)size)
		return (int32_t)i;
	if (t->address[axis] == ZC_ADDRESS_BORDER)
		return -1;
	if (t->address[axis] == ZC_ADDRESS_WRAP && (t->flags & ZC_TEXTURE_NORMALIZED_COORDS))
		return (int32_t)(((i % size) + size) % size);
	return i < 0 ? 0 : (int32_t)size - 1;
}

/* A linear filter's weight: the fraction in 9-bit fixed point, 8 bits after the point. */
static float weight(float fraction)
{
	return __builtin_roundf(fraction * 256.0f) / 256.0f;
}

static uint32_t clamp_layer(const struct zc_texture *t, int32_t layer)
{
	return layer < 0 ? 0 : t->layers && (uint32_t)layer >= t->layers ? t->layers - 1 : (uint32_t)layer;
}

/* The dimensions a texture has: 1 to 3. */
static unsigned dimensions(const struct zc_texture *t)
{
	return t->depth > 1 ? 3 : t->height > 1 || t->resource == ZC_RESOURCE_PITCH2D ? 2 : 1;
}

/* One texel by integer coordinates, by the address modes. */
static void texel_at(const struct zc_texture *t, const int64_t *index, unsigned dims, uint32_t layer, uint32_t *out)
{
	const uint32_t sizes[3] = { t->width, t->height, t->depth };
	int32_t at[3] = { 0, 0, 0 };
	bool border = false;

	for (unsigned a = 0; a < dims; a++) {
		at[a] = address(t, index[a], a, sizes[a]);
		border |= at[a] < 0;
	}
	texel(t, at[0], at[1], at[2], layer, border, out);
}

void __zc_tex_sample(uint64_t handle, float x, float y, float z, int32_t layer, uint32_t *out)
{
	const struct zc_texture *t = descriptor(handle);
	const float coordinates[3] = { x, y, z };
	const uint32_t sizes[3] = { t->width, t->height, t->depth };
	unsigned dims = dimensions(t);
	float u[3];
	uint32_t l = clamp_layer(t, layer);

	for (unsigned a = 0; a < dims; a++)
		u[a] = in_texels(t, coordinates[a], a, sizes[a]);
	if (t->filter == ZC_FILTER_POINT || returns_integers(t)) {
		int64_t index[3];
		for (unsigned a = 0; a < dims; a++)
			index[a] = floor_to_int(u[a]);
		texel_at(t, index, dims, l, out);
		return;
	}
	/* linear: the 2, 4 or 8 texels around u - 0.5, each weighted by the fractions */
	float sum[4] = { 0, 0, 0, 0 }, fraction[3];
	int64_t first[3];
	for (unsigned a = 0; a < dims; a++) {
		float below = u[a] - 0.5f;
		first[a] = floor_to_int(below);
		fraction[a] = weight(below - __builtin_floorf(below));
	}
	for (unsigned corner = 0; corner < (1u << dims); corner++) {
		int64_t index[3];
		float w = 1.0f;
		uint32_t value[4];
		for (unsigned a = 0; a < dims; a++) {
			unsigned upper = (corner >> a) & 1;
			index[a] = first[a] + upper;
			w *= upper ? fraction[a] : 1.0f - fraction[a];
		}
		texel_at(t, index, dims, l, value);
		for (unsigned c = 0; c < 4; c++)
			sum[c] += w * float_of_bits(value[c]);
	}
	for (unsigned c = 0; c < 4; c++)
		out[c] = bits_of_float(sum[c]);
}

void __zc_tex_fetch(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, uint32_t *out)
{
	const struct zc_texture *t = descriptor(handle);
	const int64_t index[3] = { x, y, z };

	if (t->resource == ZC_RESOURCE_LINEAR) {  /* tex1Dfetch: zeros outside */
		if (x < 0 || (uint32_t)x >= t->width) {
			for (unsigned c = 0; c < 4; c++)
				out[c] = 0;
			return;
		}
		texel(t, x, 0, 0, 0, false, out);
		return;
	}
	texel_at(t, index, dimensions(t), clamp_layer(t, layer), out);
}

/* tld4: the component of the four texels a bilinear filter of (x, y) reads, in the order
 * (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
void __zc_tex_gather(uint64_t handle, float x, float y, int32_t layer, uint32_t component, uint32_t *out)
{
	const struct zc_texture *t = descriptor(handle);
	int64_t i = floor_to_int(in_texels(t, x, 0, t->width) - 0.5f);
	int64_t j = floor_to_int(in_texels(t, y, 1, t->height) - 0.5f);

	for (unsigned k = 0; k < 4; k++) {
		int64_t index[3] = { i + (k == 1 || k == 2), j + (k < 2), 0 };
		uint32_t value[4];
		texel_at(t, index, 2, clamp_layer(t, layer), value);
		out[k] = value[component & 3];
	}
}

uint32_t __zc_tex_query(uint64_t handle, uint32_t query)
{
	const struct zc_texture *t = descriptor(handle);

	switch (query) {
	case ZC_QUERY_WIDTH: return t->width;
	case ZC_QUERY_HEIGHT: return t->height;
	case ZC_QUERY_DEPTH: return t->depth;
	case ZC_QUERY_CHANNEL_DATA_TYPE: return t->format;
	case ZC_QUERY_CHANNEL_ORDER: return t->channels;
	case ZC_QUERY_NORMALIZED_COORDS: return (t->flags & ZC_TEXTURE_NORMALIZED_COORDS) != 0;
	case ZC_QUERY_FILTER_MODE: return t->filter;
	case ZC_QUERY_ADDR_MODE_0: return t->address[0];
	case ZC_QUERY_ADDR_MODE_1: return t->address[1];
	case ZC_QUERY_ADDR_MODE_2: return t->address[2];
	case ZC_QUERY_ARRAY_SIZE: return t->layers;
	case ZC_QUERY_NUM_MIPMAP_LEVELS: return 1;
	default: return 1;  /* samples */
	}
}

/* The address of `bytes` bytes of a surface at byte x of row y, slice z, layer; 0 where
 * .zero drops the access. */
static uint8_t *surface_address(const struct zc_texture *t, int32_t x, int32_t y, int32_t z, int32_t layer,
                                uint32_t bytes, uint32_t mode)
{
	int64_t row = (int64_t)t->width * t->texel_bytes;
	bool inside = x >= 0 && x + (int64_t)bytes <= row && y >= 0 && (uint32_t)y < t->height && z >= 0 &&
	              (uint32_t)z < t->depth && layer >= 0 && (!t->layers || (uint32_t)layer < t->layers);

	if (!inside) {
		if (mode == ZC_SURFACE_TRAP)
			__zc_trap();
		if (mode == ZC_SURFACE_ZERO)
			return 0;
		x = x < 0 ? 0 : x + (int64_t)bytes > row ? (int32_t)(row - bytes) : x;
		y = y < 0 ? 0 : (uint32_t)y >= t->height ? (int32_t)t->height - 1 : y;
		z = z < 0 ? 0 : (uint32_t)z >= t->depth ? (int32_t)t->depth - 1 : z;
		layer = (int32_t)clamp_layer(t, layer);
	}
	return (uint8_t *)(uintptr_t)(t->base + (uint64_t)layer * t->slice_pitch + (uint64_t)z * t->slice_pitch +
	                              (uint64_t)y * t->pitch + (uint64_t)x);
}

void __zc_surf_load(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, uint32_t bytes,
                    uint32_t mode, uint8_t *out)
{
	const uint8_t *p = surface_address(descriptor(handle), x, y, z, layer, bytes, mode);

	for (uint32_t i = 0; i < bytes; i++)
		out[i] = p ? p[i] : 0;
}

void __zc_surf_store(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, uint32_t bytes,
                     uint32_t mode, const uint8_t *data)
{
	uint8_t *p = surface_address(descriptor(handle), x, y, z, layer, bytes, mode);

	for (uint32_t i = 0; p && i < bytes; i++)
		p[i] = data[i];
}
