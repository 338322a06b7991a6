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

/* One level of a texture, and how a sample addresses it: the texel rows and slices, the
 * extent, the layer (of a cube map: layer * 6 + face), and the coordinates' handling. */
struct sampler {
	const struct zc_texture *t;
	uint64_t base, pitch, slice_pitch;
	uint32_t size[3];
	uint32_t layer;
	unsigned dims;           /* linear memory 1; arrays at least 2 (a 1D array is one row) */
	bool normalized;
	int face;                /* a cube map's face (its layer is layer - face), else -1 */
	bool seamless;           /* a cube map's texels past an edge come from the next face */
	int32_t offset[3];       /* tex's and tld4's offset, in texels of the level */
};

static uint32_t at_least_1(uint32_t n)
{
	return n ? n : 1;
}

/* A sample of level l (in range) of layer `layer` (a cube map's face already in it). */
static struct sampler sampler(const struct zc_texture *t, uint32_t l, int32_t layer)
{
	struct sampler s = {
		.t = t, .base = t->base, .pitch = t->pitch, .slice_pitch = t->slice_pitch,
		.size = { t->width, t->height, t->depth },
		.dims = t->depth > 1 ? 3 : t->resource == ZC_RESOURCE_LINEAR ? 1 : 2,
		.normalized = (t->flags & ZC_TEXTURE_NORMALIZED_COORDS) != 0, .face = -1,
	};

	/* a layer past the end, or negative, reads the last */
	s.layer = t->layers && (uint32_t)layer >= t->layers ? t->layers - 1 : t->layers ? (uint32_t)layer : 0;
	if (l) {
		s.size[0] = at_least_1(t->width >> l);
		s.size[1] = at_least_1(t->height >> l);
		s.size[2] = at_least_1(t->depth >> l);
		s.base = t->level_base[l];
		s.pitch = (uint64_t)s.size[0] * t->texel_bytes;
		s.slice_pitch = s.pitch * s.size[1];
	}
	return s;
}

/* The raw channels of the texel at (x, y, z) (indices in range), or of the border; 0 for
 * the channels the format lacks. */
static void raw_texel(const struct sampler *s, int32_t x, int32_t y, int32_t z, bool border, uint32_t *raw)
{
	const struct zc_texture *t = s->t;
	const uint8_t *p = (const uint8_t *)(uintptr_t)(s->base + (uint64_t)(s->layer + (uint32_t)z) * s->slice_pitch +
	                                               (uint64_t)y * s->pitch + (uint64_t)x * t->texel_bytes);

	for (unsigned c = 0; c < 4; c++)
		raw[c] = c >= t->channels ? 0u : border ? raw_border(t, c) : raw_channel(t, p, c);
}

static int64_t floor_to_int(float x)
{
	float f = __builtin_floorf(x);

	/* beyond every texture's extent either way: any index out of range does */
	return f < -1e9f ? -1000000000 : f > 1e9f ? 1000000000 : (int64_t)f;
}

/* Texel index i on an axis, by the axis's address mode: in range as it is; with normalized
 * coordinates wrapped, or mirrored (the texels repeat reversed every other period);
 * clamped to the edge (clamp, and wrap or mirror without normalized coordinates); or -1:
 * the border. (Wrap and mirror apply to the texel indices, as on an H200.) */
static int32_t address(const struct sampler *s, int64_t i, unsigned axis)
{
	int64_t size = s->size[axis], period = 2 * size;

	if (i >= 0 && i < size)
		return (int32_t)i;
	switch (s->t->address[axis]) {
	case ZC_ADDRESS_BORDER:
		return -1;
	case ZC_ADDRESS_WRAP:
		if (s->normalized)
			return (int32_t)(((i % size) + size) % size);
		break;
	case ZC_ADDRESS_MIRROR:
		if (s->normalized) {
			i = ((i % period) + period) % period;
			return (int32_t)(i < size ? i : period - 1 - i);
		}
		break;
	}
	return i < 0 ? 0 : (int32_t)size - 1;
}

static void cube_face(float x, float y, float z, int *face, float *sc, float *tc, float *ma);

/* Texel (i, j) of a cube map's face, one of them past an edge: the texel of the face its
 * centre's direction points into (a seamless cube map). */
static void cube_neighbour(const struct sampler *s, int64_t i, int64_t j, uint32_t *raw)
{
	float n = (float)s->size[0], u = ((float)i + 0.5f) / n * 2.0f - 1.0f, v = ((float)j + 0.5f) / n * 2.0f - 1.0f;
	/* the direction of (u, v) on the face, by the inverse of cube_face's table: per face,
	 * x, y and z as multiples of (1, v, u) */
	static const signed char axes[6][3][3] = {
		{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}},  {{-1, 0, 0}, {0, -1, 0}, {0, 0, 1}},
		{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},    {{0, 0, 1}, {-1, 0, 0}, {0, -1, 0}},
		{{0, 0, 1}, {0, -1, 0}, {1, 0, 0}},   {{0, 0, -1}, {0, -1, 0}, {-1, 0, 0}},
	};
	const signed char (*m)[3] = axes[s->face];
	float d[3], sc, tc, ma;
	int face;
	struct sampler next = *s;

	for (unsigned a = 0; a < 3; a++)
		d[a] = (float)m[a][0] + (float)m[a][1] * v + (float)m[a][2] * u;
	cube_face(d[0], d[1], d[2], &face, &sc, &tc, &ma);
	next.layer = s->layer - (uint32_t)s->face + (uint32_t)face;
	next.face = face;
	int64_t ni = floor_to_int((sc / ma + 1.0f) * 0.5f * n), nj = floor_to_int((tc / ma + 1.0f) * 0.5f * n);
	ni = ni < 0 ? 0 : ni >= s->size[0] ? s->size[0] - 1 : ni;
	nj = nj < 0 ? 0 : nj >= s->size[1] ? s->size[1] - 1 : nj;
	raw_texel(&next, (int32_t)ni, (int32_t)nj, 0, false, raw);
}

/* The raw channels of one texel by integer coordinates, by the address modes. */
static void texel_at(const struct sampler *s, const int64_t *index, uint32_t *raw)
{
	int32_t at[3] = { 0, 0, 0 };
	bool border = false;

	if (s->seamless && (index[0] < 0 || index[0] >= s->size[0] || index[1] < 0 || index[1] >= s->size[1])) {
		cube_neighbour(s, index[0], index[1], raw);
		return;
	}
	for (unsigned a = 0; a < s->dims; a++) {
		at[a] = address(s, index[a], a);
		border |= at[a] < 0;
	}
	raw_texel(s, at[0], at[1], at[2], border, raw);
}

/* Coordinate a in texels: a normalized one scaled by the level's extent. */
static float in_texels(const struct sampler *s, float x, unsigned a)
{
	return s->normalized ? x * (float)s->size[a] : x;
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
	float largest = 0.0f, plain = 0.0f;
	bool special = false;

	for (unsigned k = 0; k < n; k++) {
		float m = __builtin_fabsf(t[k]);
		if (w[k] && (m != m || m == __builtin_inff() || (m != 0.0f && m < 0x1p-126f)))
			special = true;
		if (w[k] && m > largest)
			largest = m;
	}
	if (special || largest == 0.0f) {  /* NaN, infinity, subnormal or zero: no fixed point */
		for (unsigned k = 0; k < n; k++)
			plain += (float)w[k] / 256.0f * t[k];
		return plain;
	}
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

/* The 2^dims weights of one level's linear filter, in 256ths of the whole sample, corner k
 * taking the upper texel on axis a when bit a of k is set, for fractions f and the level's
 * share of the sample `mass` (256 alone). Alone, as an H200 rounds them: 1D (1 - f, f); 2D
 * rounded keeping the row and column sums (w11 = round(ab), w10 = a - w11, w01 = b - w11);
 * 3D the x-z pair so, then split by y. Between two mipmap levels: the share split along x,
 * then each part along y (and z), each split rounded to nearest, halves up. */
static void filter_weights(const uint32_t *f, unsigned dims, uint32_t mass, bool split, uint32_t *w)
{
	if (split || dims == 1) {
		w[0] = mass;
		for (unsigned a = 0; a < dims; a++)
			for (unsigned k = 0; k < (1u << a); k++) {
				uint32_t upper = (w[k] * f[a] + 128) >> 8;
				w[k | 1u << a] = upper;
				w[k] -= upper;
			}
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

/* The texels of a sample and their weights (256ths, summing to 256). */
struct footprint {
	uint32_t raw[16][4];
	uint32_t weight[16];
	unsigned n;
};

/* Adds one level's share `mass` of a sample at coordinates c: its nearest texel, or the
 * corners of its linear filter. */
static void gather(const struct sampler *s, const float *c, uint32_t mass, bool split, struct footprint *fp)
{
	unsigned dims = s->dims;

	if (s->t->filter == ZC_FILTER_POINT || reading(s->t) == READ_INTEGER) {
		int64_t index[3];
		for (unsigned a = 0; a < dims; a++)
			index[a] = floor_to_int(in_texels(s, c[a], a)) + s->offset[a];
		texel_at(s, index, fp->raw[fp->n]);
		fp->weight[fp->n++] = mass;
		return;
	}
	int64_t first[3];
	uint32_t fraction[3], w[8];
	for (unsigned a = 0; a < dims; a++) {
		int64_t position = filter_position(in_texels(s, c[a], a)) + (int64_t)s->offset[a] * 256;
		first[a] = position >> 8;
		fraction[a] = (uint32_t)(position & 255);
	}
	filter_weights(fraction, dims, mass, split, w);
	for (unsigned k = 0; k < (1u << dims); k++) {
		int64_t index[3];
		for (unsigned a = 0; a < dims; a++)
			index[a] = first[a] + ((k >> a) & 1);
		texel_at(s, index, fp->raw[fp->n]);
		fp->weight[fp->n++] = w[k];
	}
}

/* The four words a footprint gives: one texel as the texture returns it; several summed as
 * an H200 does (8- and 16-bit normalized ones as integers, divided once). */
static void resolve(const struct zc_texture *t, const struct footprint *fp, uint32_t *out)
{
	for (unsigned ch = 0; ch < 4; ch++) {
		if (fp->n == 1) {
			out[ch] = returned(t, fp->raw[0][ch]);
		} else if (reading(t) == READ_NORMALIZED) {
			int32_t low = -unit(t->format), sum = 0;
			for (unsigned k = 0; k < fp->n; k++) {
				int32_t v = (int32_t)fp->raw[k][ch];
				sum += (int32_t)fp->weight[k] * (v < low ? low : v);
			}
			out[ch] = bits_of_float((float)sum / (256.0f * (float)unit(t->format)));
		} else {
			float texels[16];
			for (unsigned k = 0; k < fp->n; k++)
				texels[k] = float_of_bits(fp->raw[k][ch]);
			out[ch] = bits_of_float(weighted_sum(texels, fp->weight, fp->n));
		}
	}
}

/* A cube map's face for direction (x, y, z): the largest component's, ties going to z,
 * then y; and the face's (sc, tc, ma) (the CUDA programming guide's cubemap table). */
static void cube_face(float x, float y, float z, int *face, float *sc, float *tc, float *ma)
{
	float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y), az = __builtin_fabsf(z);

	if (az >= ax && az >= ay) {
		*face = z >= 0 ? 4 : 5;
		*sc = z >= 0 ? x : -x, *tc = -y, *ma = az;
	} else if (ay >= ax) {
		*face = y >= 0 ? 2 : 3;
		*sc = x, *tc = y >= 0 ? z : -z, *ma = ay;
	} else {
		*face = x >= 0 ? 0 : 1;
		*sc = x >= 0 ? -z : z, *tc = -y, *ma = ax;
	}
}

/* A level of detail in 256ths, as an H200 holds one: truncated toward zero, NaN 0,
 * infinities saturated. */
static int32_t fixed_lod(float x)
{
	return x != x ? 0 : x > 65536.0f ? 65536 * 256 : x < -65536.0f ? -65536 * 256 : (int32_t)(x * 256.0f);
}

/* The level of detail of a sample, in 256ths: lod plus the bias, at most the maximum, then
 * at least the minimum, then within the levels. */
static int32_t level_of_detail(const struct zc_texture *t, int32_t lod)
{
	int32_t l = lod + fixed_lod(t->lod_bias), most = fixed_lod(t->max_lod), least = fixed_lod(t->min_lod);
	int32_t top = (int32_t)(t->levels - 1) * 256;

	l = l < most ? l : most;
	l = l > least ? l : least;
	return l < 0 ? 0 : l > top ? top : l;
}

/* The face of a cube map that direction (c[0], c[1], z) points to: c becomes the
 * normalized coordinates on it, and layer that of the face (the cube's last if past it). */
static int on_cube(const struct zc_texture *t, float z, int32_t *layer, float *c)
{
	uint32_t cubes = t->layers / 6;
	float sc, tc, ma;
	int face;

	cube_face(c[0], c[1], z, &face, &sc, &tc, &ma);
	*layer = ((uint32_t)*layer >= cubes ? (int32_t)cubes - 1 : *layer) * 6 + face;
	c[0] = (sc / ma + 1.0f) * 0.5f;
	c[1] = (tc / ma + 1.0f) * 0.5f;
	return face;
}

/* Level l of a layer, or of a cube map's face (face >= 0: its layer already in layer). */
static struct sampler face_sampler(const struct zc_texture *t, uint32_t l, int32_t layer, int face)
{
	struct sampler s = sampler(t, l, layer);

	if (face >= 0) {
		s.dims = 2;
		s.normalized = true;
		s.face = face;
		s.seamless = (t->flags & ZC_TEXTURE_SEAMLESS_CUBEMAP) != 0;
	}
	return s;
}

/* A sample at coordinates (x, y, z) (a cube map's direction) of a layer, at level of detail
 * lod (256ths): the nearest level (point), or the two around it (linear). */
static void sample(const struct zc_texture *t, float x, float y, float z, int32_t layer, const int32_t *offset,
                   int32_t lod, uint32_t *out)
{
	float c[3] = { x, y, z };
	int32_t l = t->levels > 1 ? level_of_detail(t, lod) : 0;
	bool linear = t->levels > 1 && t->mipmap_filter == ZC_FILTER_LINEAR && reading(t) != READ_INTEGER;
	uint32_t level = linear ? (uint32_t)(l >> 8) : (uint32_t)((l + 128) >> 8), part = linear ? l & 255 : 0;
	struct footprint fp = { .n = 0 };
	int face = t->cubemap ? on_cube(t, z, &layer, c) : -1;

	for (unsigned k = 0; k < 2; k++) {
		uint32_t mass = k ? part : 256 - part;
		if (!mass)
			continue;
		struct sampler s = face_sampler(t, level + k, layer, face);
		for (unsigned a = 0; a < 3; a++)
			s.offset[a] = offset[a];
		gather(&s, c, mass, linear, &fp);
	}
	resolve(t, &fp, out);
}

/* No level of detail (tex without .level or .grad): the least an H200 takes, -infinity,
 * so the minimum clamp's level. */
void __zc_tex_sample(uint64_t handle, float x, float y, float z, int32_t layer, int32_t ox, int32_t oy, int32_t oz,
                     uint32_t *out)
{
	const int32_t offset[3] = { ox, oy, oz };

	sample(descriptor(handle), x, y, z, layer, offset, fixed_lod(-__builtin_inff()), out);
}

void __zc_tex_sample_lod(uint64_t handle, float x, float y, float z, int32_t layer, int32_t ox, int32_t oy, int32_t oz,
                         float lod, uint32_t *out)
{
	const int32_t offset[3] = { ox, oy, oz };

	sample(descriptor(handle), x, y, z, layer, offset, fixed_lod(lod), out);
}

/* tex.grad: the level of detail from the gradients, in texels of level 0: log2 of the
 * longer of the two, to the nearest 256th (an H200's log2 is within about 1/256 of it, and
 * exact where the length is a power of 2^(1/4)). */
void __zc_tex_sample_grad(uint64_t handle, float x, float y, float z, int32_t layer, int32_t ox, int32_t oy, int32_t oz,
                          float dxx, float dxy, float dxz, float dyx, float dyy, float dyz, uint32_t *out)
{
	const struct zc_texture *t = descriptor(handle);
	const int32_t offset[3] = { ox, oy, oz };
	bool normalized = t->cubemap || (t->flags & ZC_TEXTURE_NORMALIZED_COORDS);
	float w = normalized ? (float)t->width : 1.0f, h = normalized ? (float)t->height : 1.0f;
	float d = normalized && t->depth > 1 ? (float)t->depth : t->depth > 1 ? 1.0f : 0.0f;
	float along_x = (dxx * w) * (dxx * w) + (dxy * h) * (dxy * h) + (dxz * d) * (dxz * d);
	float along_y = (dyx * w) * (dyx * w) + (dyy * h) * (dyy * h) + (dyz * d) * (dyz * d);
	float longer = along_x > along_y ? along_x : along_y;
	float lod = 0.5f * __builtin_log2f(longer) * 256.0f;

	sample(t, x, y, z, layer, offset, lod != lod || lod < -16777216.0f ? fixed_lod(-__builtin_inff())
	                          : lod > 16777216.0f ? fixed_lod(__builtin_inff()) : (int32_t)__builtin_roundf(lod), out);
}

void __zc_tex_fetch(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, int32_t ox, int32_t oy, int32_t oz,
                    uint32_t *out)
{
	const struct zc_texture *t = descriptor(handle);
	struct sampler s = sampler(t, 0, layer);
	const int64_t index[3] = { (int64_t)x + ox, (int64_t)y + oy, (int64_t)z + oz };
	uint32_t raw[4];

	if (t->resource == ZC_RESOURCE_LINEAR && (index[0] < 0 || index[0] >= t->width)) {
		for (unsigned c = 0; c < 4; c++)  /* tex1Dfetch: zeros outside */
			out[c] = 0;
		return;
	}
	texel_at(&s, index, raw);
	for (unsigned c = 0; c < 4; c++)
		out[c] = returned(t, raw[c]);
}

/* tld4: the component of the four texels a linear filter of (x, y) reads (of a cube map:
 * on the face (x, y, z) points to), in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
void __zc_tex_gather(uint64_t handle, float x, float y, float z, int32_t layer, int32_t ox, int32_t oy,
                     uint32_t component, uint32_t *out)
{
	const struct zc_texture *t = descriptor(handle);
	float c[2] = { x, y };
	int face = t->cubemap ? on_cube(t, z, &layer, c) : -1;
	struct sampler s = face_sampler(t, 0, layer, face);
	int64_t i = (filter_position(in_texels(&s, c[0], 0)) >> 8) + ox;
	int64_t j = (filter_position(in_texels(&s, c[1], 1)) >> 8) + oy;

	s.dims = 2;
	for (unsigned k = 0; k < 4; k++) {
		int64_t index[3] = { i + (k == 1 || k == 2), j + (k < 2), 0 };
		uint32_t raw[4];
		texel_at(&s, index, raw);
		out[k] = returned(s.t, raw[component & 3]);
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
	case ZC_QUERY_NUM_MIPMAP_LEVELS: return t->levels ? t->levels : 1;
	/* only CUDA arrays make surfaces, and an H200's are not linear (it fails to load a
	 * module that asks, though) */
	case ZC_QUERY_MEMORY_LAYOUT: return t->resource != ZC_RESOURCE_ARRAY;
	/* texture objects keep the coordinates CUDA_TEXTURE_DESC asks for */
	case ZC_QUERY_FORCE_UNNORMALIZED_COORDS: return 0;
	default: return 1;  /* samples */
	}
}

/* txq.level: the width, height or depth of level `level`, max(1, extent >> level); as on an
 * H200, 0 past the last level and for an axis the resource lacks (a 2D array's depth). */
uint32_t __zc_tex_query_level(uint64_t handle, uint32_t query, int32_t level)
{
	const struct zc_texture *t = descriptor(handle);
	uint32_t axis = query - ZC_QUERY_WIDTH, extent = axis == 0 ? t->width : axis == 1 ? t->height : t->depth;

	if (level < 0 || (uint32_t)level >= (t->levels ? t->levels : 1) || axis >= t->dims)
		return 0;
	return at_least_1(extent >> level);
}
