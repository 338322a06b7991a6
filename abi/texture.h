/* Texture and surface objects on every target. A CUtexObject or CUsurfObject is the device
 * address of one of these descriptors, which the stub writes into device memory when the
 * object is made (runtime_stub/api/texture.c) and the builtins read when a kernel samples,
 * gathers, queries, loads, stores or reduces (backend/builtins_texture.c and
 * builtins_surface.c, called by
 * ptx_frontend/lower_texture.c). Sampling is done in software, by CUDA's documented
 * formulas, so every target computes the same texels. Plain C, shared by the builtins and
 * the stub. */
#ifndef ZC_TEXTURE_H
#define ZC_TEXTURE_H

#include <stdint.h>

/* The element types of a texel's channels: CUarray_format's values. */
enum zc_texel_format {
	ZC_TEXEL_U8 = 0x01,
	ZC_TEXEL_U16 = 0x02,
	ZC_TEXEL_U32 = 0x03,
	ZC_TEXEL_S8 = 0x08,
	ZC_TEXEL_S16 = 0x09,
	ZC_TEXEL_S32 = 0x0a,
	ZC_TEXEL_F16 = 0x10,
	ZC_TEXEL_F32 = 0x20,
};

/* CUaddress_mode's and CUfilter_mode's values. */
enum zc_address_mode { ZC_ADDRESS_WRAP, ZC_ADDRESS_CLAMP, ZC_ADDRESS_MIRROR, ZC_ADDRESS_BORDER };
enum zc_filter_mode { ZC_FILTER_POINT, ZC_FILTER_LINEAR };

/* flags: CU_TRSF_READ_AS_INTEGER, CU_TRSF_NORMALIZED_COORDINATES, CU_TRSF_SEAMLESS_CUBEMAP. */
#define ZC_TEXTURE_READ_AS_INTEGER 0x01u
#define ZC_TEXTURE_NORMALIZED_COORDS 0x02u
#define ZC_TEXTURE_SEAMLESS_CUBEMAP 0x40u

/* What the resource is: linear memory (tex1Dfetch's), pitched 2D memory or a CUDA array. */
enum zc_texture_resource { ZC_RESOURCE_LINEAR, ZC_RESOURCE_PITCH2D, ZC_RESOURCE_ARRAY };

#define ZC_TEXTURE_MAX_LEVELS 16

struct zc_texture {
	uint64_t base;          /* device address of texel (0, 0, 0) of layer 0 */
	uint64_t pitch;         /* bytes from a row to the next */
	uint64_t slice_pitch;   /* bytes from a slice or layer to the next */
	uint32_t width, height, depth;  /* in texels; 1 where the resource has no such dimension */
	uint32_t layers;        /* of a layered array; 0 when not layered */
	uint32_t format;        /* enum zc_texel_format */
	uint32_t channels;      /* 1, 2 or 4 */
	uint32_t texel_bytes;
	uint32_t resource;      /* enum zc_texture_resource */
	uint32_t address[3];    /* enum zc_address_mode per coordinate */
	uint32_t filter;        /* enum zc_filter_mode */
	uint32_t flags;
	float border[4];
	/* Mipmaps: the levels (1 when not mipmapped), the filter between two levels, and
	 * what CUDA_TEXTURE_DESC adds to a level of detail and clamps it to. Level l > 0 is
	 * max(1, extent >> l) texels each way, rows packed (pitch = width * texel_bytes). */
	uint32_t levels;
	uint32_t mipmap_filter;
	float lod_bias, min_lod, max_lod;
	uint32_t cubemap;       /* 1: six faces a layer (layers then counts faces), sampled by direction */
	uint64_t level_base[ZC_TEXTURE_MAX_LEVELS];  /* device address of each level's texel (0, 0, 0) */
	uint32_t dims;          /* the extents the resource has (1 to 3; layers not counted): txq.level's
	                         * extent of an axis past them is 0, as on an H200 */
};

/* txq's queries (the lowering passes them to __zc_tex_query; width, height and depth to
 * __zc_tex_query_level too). */
enum zc_texture_query {
	ZC_QUERY_WIDTH,
	ZC_QUERY_HEIGHT,
	ZC_QUERY_DEPTH,
	ZC_QUERY_CHANNEL_DATA_TYPE,
	ZC_QUERY_CHANNEL_ORDER,
	ZC_QUERY_NORMALIZED_COORDS,
	ZC_QUERY_FILTER_MODE,
	ZC_QUERY_ADDR_MODE_0,
	ZC_QUERY_ADDR_MODE_1,
	ZC_QUERY_ADDR_MODE_2,
	ZC_QUERY_ARRAY_SIZE,
	ZC_QUERY_NUM_MIPMAP_LEVELS,
	ZC_QUERY_NUM_SAMPLES,
	ZC_QUERY_MEMORY_LAYOUT,
	ZC_QUERY_FORCE_UNNORMALIZED_COORDS,
};

/* sured's operations, and its operand types (P32 and P64: sured.p's, unsigned or signed by
 * the surface's format, at sample x rather than byte x). */
enum zc_surface_reduction { ZC_REDUCE_ADD, ZC_REDUCE_MIN, ZC_REDUCE_MAX, ZC_REDUCE_AND, ZC_REDUCE_OR };
enum zc_reduction_type { ZC_REDUCE_U32, ZC_REDUCE_S32, ZC_REDUCE_U64, ZC_REDUCE_S64, ZC_REDUCE_P32, ZC_REDUCE_P64 };

/* What suld and sust do outside the surface: .trap ends the launch with an error, .clamp
 * reads or writes the nearest element, .zero reads zeros and drops the write. */
enum zc_surface_mode { ZC_SURFACE_TRAP, ZC_SURFACE_CLAMP, ZC_SURFACE_ZERO };

#endif
