/* Texture sampling, gathering and queries, and surface loads and stores
 * (ptx_frontend/lower_texture.c), the same C on every target: the handle is the device
 * address of the object's descriptor (texture.h). Sampling follows the CUDA programming
 * guide's texture fetching formulas and, where they leave room, what an H200 does (measured
 * by tests/programs/texture_objects.cu):
 * - a linear filter rounds x - 0.5 to the nearest 1/256 (halves up): its integer part
 *   picks the texels, its fraction is the weight; 2D weights are rounded to 1/256 keeping
 *   the row and column sums (w11 = round(ab), w10 = a - w11, w01 = b - w11);
 * - the weighted sum of float texels is formed in fixed point: each texel truncated to a
 *   multiple of 2^(e-28), where 2^(e-1) <= the largest magnitude < 2^e, the sum exact,
 *   then rounded once to f32, halves away from zero; 8- and 16-bit integers read as
 *   normalized floats are filtered as integers and divided once;
 * - channels a format lacks read as 0 (w too), the border colour included, and an integer
 *   format's border colour is first converted to the format;
 * - a 1D array is sampled as a 2D one of one row at y = 0 (so a linear filter's rows are
 *   -1 and 0: with a border, half the result is the border colour, as on an H200);
 * - a layer index past the end, or negative, reads the last layer. */
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

/* What a texture's channels are, as it returns them. */
enum reading {
	READ_FLOAT,       /* float formats: floats */
	READ_INTEGER,     /* integers read as they are (32-bit ones always) */
	READ_NORMALIZED,  /* 8- and 16-bit integers read as floats in [0, 1] or [-1, 1] */
};

static enum reading reading(const struct zc_texture *t)
{
	if (t->format == ZC_TEXEL_F16 || t->format == ZC_TEXEL_F32)
		return READ_FLOAT;
	if ((t->flags & ZC_TEXTURE_READ_AS_INTEGER) || t->format == ZC_TEXEL_U32 || t->format == ZC_TEXEL_S32)
		return READ_INTEGER;
	return READ_NORMALIZED;
}

/* The largest value of a normalized format: 1.0 reads as it. */
static int32_t unit(uint32_t format)
{
	return format == ZC_TEXEL_U8 ? 255 : format == ZC_TEXEL_S8 ? 127 : format == ZC_TEXEL_U16 ? 65535 : 32767;
}

/* Channel c of the texel at p: the integer (sign-extended) of an integer format, the float
 * bits of a float format. */
static uint32_t raw_channel(const struct zc_texture *t, const uint8_t *p, unsigned c)
{
	switch (t->format) {
	case ZC_TEXEL_U8: return p[c];
	case ZC_TEXEL_S8: return (uint32_t)(int32_t)(int8_t)p[c];
	case ZC_TEXEL_U16: return ((const uint16_t *)p)[c];
	case ZC_TEXEL_S16: return (uint32_t)(int32_t)((const int16_t *)p)[c];
	case ZC_TEXEL_F16: return bits_of_float(half_to_float(((const uint16_t *)p)[c]));
	default: return ((const uint32_t *)p)[c];
	}
}

/* Channel c of the border colour, in the form raw_channel gives: a normalized format's
 * colour clamped to its range and rounded to its integers. */
static uint32_t raw_border(const struct zc_texture *t, unsigned c)
{
	float b = t->border[c];

	switch (reading(t)) {
	case READ_FLOAT:
		return bits_of_float(b);
	case READ_INTEGER:
		return (uint32_t)(int32_t)b;
	default: {
		bool is_signed = t->format == ZC_TEXEL_S8 || t->format == ZC_TEXEL_S16;
		float low = is_signed ? -1.0f : 0.0f;
		b = b != b ? 0.0f : b < low ? low : b > 1.0f ? 1.0f : b;
		return (uint32_t)(int32_t)__builtin_roundf(b * (float)unit(t->format));
	}
	}
}

/* A raw channel as the texture returns it. */
static uint32_t returned(const struct zc_texture *t, uint32_t raw)
{
	if (reading(t) != READ_NORMALIZED)
		return raw;
	float f = (float)(int32_t)raw / (float)unit(t->format);
	return bits_of_float(f < -1.0f ? -1.0f : f);
}

/* The raw channels of the texel at (x, y, z) of a layer (indices in range), or of the
 * border; 0 for the channels the format lacks. */
static void raw_texel(const struct zc_texture *t, int32_t x, int32_t y, int32_t z, uint32_t layer, bool border,
                      uint32_t *raw)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)(t->base + (uint64_t)layer * t->slice_pitch +
	                                               (uint64_t)z * t->slice_pitch + (uint64_t)y * t->pitch +
	                                               (uint64_t)x * t->texel_bytes);

	for (unsigned c = 0; c < 4; c++)
		raw[c] = c >= t->channels ? 0u : border ? raw_border(t, c) : raw_channel(t, p, c);
}

static int64_t floor_to_int(float x)
{
	float f = __builtin_floorf(x);

	/* beyond every texture's extent either way: any index out of range does */
	return f < -1e9f ? -1000000000 : f > 1e9f ? 1000000000 : (int64_t)f;
}

/* Coordinate x in texels: a normalized one scaled (wrap and mirror apply to the texel
 * indices, as on an H200). */
static float in_texels(const struct zc_texture *t, float x, uint32_t size)
{
	return t->flags & ZC_TEXTURE_NORMALIZED_COORDS ? x * (float)size : x;
}

/* Texel index i on an axis of `size` texels, by the axis's address mode: in range as it
 * is; with normalized coordinates wrapped, or mirrored (the texels repeat reversed every
 * other period); clamped to the edge (clamp, and wrap or mirror without normalized
 * coordinates); or -1: the border. */
static int32_t address(const struct zc_texture *t, int64_t i, unsigned axis, uint32_t size)
{
	bool normalized = t->flags & ZC_TEXTURE_NORMALIZED_COORDS;
	int64_t period;

	if (i >= 0 && i < (int64_t)size)
		return (int32_t)i;
	switch (t->address[axis]) {
	case ZC_ADDRESS_BORDER:
		return -1;
	case ZC_ADDRESS_WRAP:
		if (normalized)
			return (int32_t)(((i % size) + size) % size);
		break;
	case ZC_ADDRESS_MIRROR:
		if (normalized) {
			period = 2 * (int64_t)size;
			i = ((i % period) + period) % period;
			return (int32_t)(i < size ? i : period - 1 - i);
		}
		break;
	}
	return i < 0 ? 0 : (int32_t)size - 1;
}

static uint32_t clamp_layer(const struct zc_texture *t, int32_t layer)
{
	return t->layers && (uint32_t)layer >= t->layers ? t->layers - 1 : t->layers ? (uint32_t)layer : 0;
}

/* The dimensions a texture is sampled in: linear memory 1, arrays at least 2. */
static unsigned dimensions(const struct zc_texture *t)
{
	return t->depth > 1 ? 3 : t->resource == ZC_RESOURCE_LINEAR ? 1 : 2;
}

/* The raw channels of one texel by integer coordinates, by the address modes. */
static void texel_at(const struct zc_texture *t, const int64_t *index, unsigned dims, uint32_t layer, uint32_t *raw)
{
	const uint32_t sizes[3] = { t->width, t->height, t->depth };
	int32_t at[3] = { 0, 0, 0 };
	bool border = false;

	for (unsigned a = 0; a < dims; a++) {
		at[a] = address(t, index[a], a, sizes[a]);
		border |= at[a] < 0;
	}
	raw_texel(t, at[0], at[1], at[2], layer, border, raw);
}

/* x - 0.5 in 1/256ths of a texel, rounded to nearest (halves up): the first texel a
 * linear filter reads is this >> 8, the weight of the next this & 255. */
static int64_t filter_position(float x)
{
	return floor_to_int((x - 0.5f) * 256.0f + 0.5f);
}

/* 2^n as a float, n within [-252, 254]. */
static float power_of_two(int n)
{
	float half = float_of_bits((uint32_t)(n / 2 + 127) << 23);

	return half * float_of_bits((uint32_t)(n - n / 2 + 127) << 23);
}

/* sum(w[k] t[k]) / 256 for float texels t and weights w that sum to 256, as an H200 forms
 * it (see the top of the file). */
static float weighted_sum(const float *t, const uint32_t *w, unsigned n)
{
	float largest = 0.0f, naive = 0.0f;
	bool special = false;

	for (unsigned k = 0; k < n; k++) {
		float m = __builtin_fabsf(t[k]);
		naive += (float)w[k] / 256.0f * t[k];
		if (w[k] && (m != m || m == __builtin_inff() || (m != 0.0f && m < 0x1p-126f)))
			special = true;
		if (w[k] && m > largest)
			largest = m;
	}
	if (special || largest == 0.0f)  /* NaN, infinity, subnormal or zero: no fixed point */
		return naive;
	int e = (int)((bits_of_float(largest) >> 23) & 0xff) - 126;  /* 2^(e-1) <= largest < 2^e */
	float scale = power_of_two(28 - e);
	int64_t sum = 0;
	for (unsigned k = 0; k < n; k++)
		sum += (int64_t)w[k] * (int64_t)__builtin_truncf(t[k] * scale);
	uint64_t magnitude = sum < 0 ? (uint64_t)-sum : (uint64_t)sum;
	int shift = 0;
	while (magnitude >> (24 + shift))
		shift++;
	if (shift)  /* to 24 significant bits, halves away from zero */
		magnitude = (magnitude + (1ull << (shift - 1))) >> shift;
	float result = (float)magnitude * power_of_two(shift + e - 36);
	return sum < 0 ? -result : result;
}

/* The 2^dims weights of a linear filter, in 256ths, corner k taking the upper texel on
 * axis a when bit a of k is set: per axis (1 - f, f); in 2D rounded keeping the row and
 * column sums; in 3D the x-z pair so, then split by y. */
static void filter_weights(const uint32_t *f, unsigned dims, uint32_t *w)
{
	if (dims == 1) {
		w[0] = 256 - f[0];
		w[1] = f[0];
		return;
	}
	uint32_t a = f[0], b = f[dims == 3 ? 2 : 1], both = (a * b + 128) >> 8;
	uint32_t pair[4] = { 256 - a - b + both, a - both, b - both, both };  /* (x, second) bits */

	if (dims == 2) {
		for (unsigned k = 0; k < 4; k++)
			w[k] = pair[k];
		return;
	}
	for (unsigned k = 0; k < 8; k++) {
		uint32_t xz = pair[(k & 1) | ((k >> 2) & 1) << 1], upper = (xz * f[1] + 128) >> 8;
		w[k] = (k >> 1) & 1 ? upper : xz - upper;
	}
}

void __zc_tex_sample(uint64_t handle, float x, float y, float z, int32_t layer, uint32_t *out)
{
	const struct zc_texture *t = descriptor(handle);
	const float coordinates[3] = { x, y, z };
	const uint32_t sizes[3] = { t->width, t->height, t->depth };
	unsigned dims = dimensions(t);
	uint32_t l = clamp_layer(t, layer), raw[4];
	float u[3];

	for (unsigned a = 0; a < dims; a++)
		u[a] = in_texels(t, coordinates[a], sizes[a]);
	if (t->filter == ZC_FILTER_POINT || reading(t) == READ_INTEGER) {
		int64_t index[3];
		for (unsigned a = 0; a < dims; a++)
			index[a] = floor_to_int(u[a]);
		texel_at(t, index, dims, l, raw);
		for (unsigned c = 0; c < 4; c++)
			out[c] = returned(t, raw[c]);
		return;
	}
	int64_t first[3];
	uint32_t fraction[3], w[8], corner_raw[8][4];
	for (unsigned a = 0; a < dims; a++) {
		int64_t position = filter_position(u[a]);
		first[a] = position >> 8;
		fraction[a] = (uint32_t)(position & 255);
	}
	filter_weights(fraction, dims, w);
	for (unsigned k = 0; k < (1u << dims); k++) {
		int64_t index[3];
		for (unsigned a = 0; a < dims; a++)
			index[a] = first[a] + ((k >> a) & 1);
		texel_at(t, index, dims, l, corner_raw[k]);
	}
	for (unsigned c = 0; c < 4; c++) {
		if (reading(t) == READ_NORMALIZED) {  /* on the integers, one division */
			int32_t low = -unit(t->format), sum = 0;
			for (unsigned k = 0; k < (1u << dims); k++) {
				int32_t v = (int32_t)corner_raw[k][c];
				sum += (int32_t)w[k] * (v < low ? low : v);
			}
			out[c] = bits_of_float((float)sum / (256.0f * (float)unit(t->format)));
			continue;
		}
		float texels[8];
		for (unsigned k = 0; k < (1u << dims); k++)
			texels[k] = float_of_bits(corner_raw[k][c]);
		out[c] = bits_of_float(weighted_sum(texels, w, 1u << dims));
	}
}

void __zc_tex_fetch(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, uint32_t *out)
{
	const struct zc_texture *t = descriptor(handle);
	const int64_t index[3] = { x, y, z };
	uint32_t raw[4];

	if (t->resource == ZC_RESOURCE_LINEAR && (x < 0 || (uint32_t)x >= t->width)) {
		for (unsigned c = 0; c < 4; c++)  /* tex1Dfetch: zeros outside */
			out[c] = 0;
		return;
	}
	texel_at(t, index, dimensions(t), clamp_layer(t, layer), raw);
	for (unsigned c = 0; c < 4; c++)
		out[c] = returned(t, raw[c]);
}

/* tld4: the component of the four texels a linear filter of (x, y) reads, in the order
 * (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
void __zc_tex_gather(uint64_t handle, float x, float y, int32_t layer, uint32_t component, uint32_t *out)
{
	const struct zc_texture *t = descriptor(handle);
	int64_t i = filter_position(in_texels(t, x, t->width)) >> 8;
	int64_t j = filter_position(in_texels(t, y, t->height)) >> 8;

	for (unsigned k = 0; k < 4; k++) {
		int64_t index[3] = { i + (k == 1 || k == 2), j + (k < 2), 0 };
		uint32_t raw[4];
		texel_at(t, index, 2, clamp_layer(t, layer), raw);
		out[k] = returned(t, raw[component & 3]);
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
