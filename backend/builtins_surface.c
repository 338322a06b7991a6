/* Surface loads, stores and reductions (ptx_frontend/lower_texture.c), the same C on every
 * target: the handle is the device address of the surface's descriptor (texture.h), whose
 * array is rows of texels. suld.b, sust.b and sured.b address byte x of row y; sust.p and
 * sured.p sample x. Where the PTX ISA leaves room, what an H200 does (measured by
 * tests/programs/surface_formats_sm80.cu):
 * - sust.p converts each word to the channel's type by saturating: an unsigned word to at
 *   most 255 or 65535, a signed one into [-128, 127] or [-32768, 32767], and a float to f16
 *   toward zero (so a finite float past the range stores +-65504; infinities and NaN stay);
 *   channels past the stored vector keep what they held (the ISA: unpredictable);
 * - a reduction is atomic, on the element the out-of-range mode picks. */
#include <stdbool.h>

#include "builtins.h"
#include "texture.h"

/* The address of `bytes` bytes of a surface at byte x of row y, slice z, layer; 0 where
 * .zero drops the access. */
static uint8_t *surface_address(const struct zc_texture *t, int64_t x, int32_t y, int32_t z, int32_t layer,
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
		x = x < 0 ? 0 : x + (int64_t)bytes > row ? row - bytes : x;
		y = y < 0 ? 0 : (uint32_t)y >= t->height ? (int32_t)t->height - 1 : y;
		z = z < 0 ? 0 : (uint32_t)z >= t->depth ? (int32_t)t->depth - 1 : z;
		layer = layer < 0 || !t->layers ? 0 : (uint32_t)layer >= t->layers ? (int32_t)t->layers - 1 : layer;
	}
	return (uint8_t *)(uintptr_t)(t->base + (uint64_t)layer * t->slice_pitch + (uint64_t)z * t->slice_pitch +
	                              (uint64_t)y * t->pitch + (uint64_t)x);
}

static const struct zc_texture *descriptor(uint64_t handle)
{
	return (const struct zc_texture *)(uintptr_t)handle;
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

static bool signed_format(uint32_t format)
{
	return format == ZC_TEXEL_S8 || format == ZC_TEXEL_S16 || format == ZC_TEXEL_S32;
}

/* The f16 bits of f, rounded toward zero. */
static uint16_t half_toward_zero(float f)
{
	uint32_t u = __builtin_bit_cast(uint32_t, f), sign = (u >> 16) & 0x8000u, mantissa = u & 0x7fffffu;
	int32_t exponent = (int32_t)((u >> 23) & 0xff) - 112;  /* rebiased for f16 */

	if (exponent == 0xff - 112)  /* infinity, or NaN (kept quiet) */
		return (uint16_t)(sign | 0x7c00u | (mantissa ? 0x200u | mantissa >> 13 : 0));
	if (exponent >= 31)
		return (uint16_t)(sign | 0x7bffu);
	if (exponent <= 0)  /* f16's subnormals count 2^-24s: 1.mantissa shifted right */
		return (uint16_t)(sign | (exponent < -10 ? 0 : (mantissa | 0x800000u) >> (14 - exponent)));
	return (uint16_t)(sign | (uint32_t)exponent << 10 | mantissa >> 13);
}

/* A word of sust.p (f32 bits, u32 or s32 by the format) as the channel's type. */
static uint32_t formatted(uint32_t word, uint32_t format)
{
	int32_t s = (int32_t)word;

	switch (format) {
	case ZC_TEXEL_U8: return word > 0xffu ? 0xffu : word;
	case ZC_TEXEL_U16: return word > 0xffffu ? 0xffffu : word;
	case ZC_TEXEL_S8: return (uint32_t)(s > 127 ? 127 : s < -128 ? -128 : s);
	case ZC_TEXEL_S16: return (uint32_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
	case ZC_TEXEL_F16: return half_toward_zero(__builtin_bit_cast(float, word));
	default: return word;  /* 32-bit channels */
	}
}

/* sust.p: `count` words at sample x, one a channel (R, G, B, A), converted to the format. */
void __zc_surf_store_formatted(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, uint32_t mode,
                               uint32_t count, const uint32_t *words)
{
	const struct zc_texture *t = descriptor(handle);
	uint32_t channel_bytes = t->texel_bytes / t->channels;
	uint8_t *p = surface_address(t, (int64_t)x * t->texel_bytes, y, z, layer, t->texel_bytes, mode);

	for (uint32_t c = 0; p && c < count && c < t->channels; c++) {
		uint32_t v = formatted(words[c], t->format);
		for (uint32_t i = 0; i < channel_bytes; i++)  /* little-endian, as the array's bytes */
			p[c * channel_bytes + i] = (uint8_t)(v >> (8 * i));
	}
}

/* One width's atomic reduction (device scope: surfaces are device memory), U and S its
 * unsigned and signed types. */
#define DEFINE_REDUCE(name, U, S)                                                                        \
	static void name(void *p, uint32_t op, bool is_signed, U v)                                       \
	{                                                                                                 \
		switch (op) {                                                                             \
		case ZC_REDUCE_ADD:                                                                       \
			__scoped_atomic_fetch_add((U *)p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);    \
			break;                                                                            \
		case ZC_REDUCE_MIN:                                                                       \
			if (is_signed)                                                                    \
				__scoped_atomic_fetch_min((S *)p, (S)v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE); \
			else                                                                              \
				__scoped_atomic_fetch_min((U *)p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE); \
			break;                                                                            \
		case ZC_REDUCE_MAX:                                                                       \
			if (is_signed)                                                                    \
				__scoped_atomic_fetch_max((S *)p, (S)v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE); \
			else                                                                              \
				__scoped_atomic_fetch_max((U *)p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE); \
			break;                                                                            \
		case ZC_REDUCE_AND:                                                                       \
			__scoped_atomic_fetch_and((U *)p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);    \
			break;                                                                            \
		default:                                                                                  \
			__scoped_atomic_fetch_or((U *)p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);     \
		}                                                                                         \
	}
DEFINE_REDUCE(reduce32, uint32_t, int32_t)
DEFINE_REDUCE(reduce64, uint64_t, int64_t)

/* sured: op (enum zc_surface_reduction) of value into the element at x, of type `type`
 * (enum zc_reduction_type). sured.p's element must be the surface's whole texel: the ISA
 * names no other, so another traps rather than reduce bytes of a guessed place. */
void __zc_surf_reduce(uint64_t handle, int32_t x, int32_t y, int32_t z, int32_t layer, uint32_t mode, uint32_t op,
                      uint32_t type, uint64_t value)
{
	const struct zc_texture *t = descriptor(handle);
	bool wide = type == ZC_REDUCE_U64 || type == ZC_REDUCE_S64 || type == ZC_REDUCE_P64;
	bool sampled = type == ZC_REDUCE_P32 || type == ZC_REDUCE_P64;
	bool is_signed = type == ZC_REDUCE_S32 || type == ZC_REDUCE_S64 || (sampled && signed_format(t->format));
	uint32_t bytes = wide ? 8 : 4;
	uint8_t *p;

	if (sampled && t->texel_bytes != bytes)
		__zc_trap();
	p = surface_address(t, sampled ? (int64_t)x * bytes : x, y, z, layer, bytes, mode);
	if (p && wide)
		reduce64(p, op, is_signed, value);
	else if (p)
		reduce32(p, op, is_signed, (uint32_t)value);
}
