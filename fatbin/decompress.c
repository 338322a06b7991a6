/* Entry payloads: LZ4 blocks (CUDA up to 12.x and --compress-mode=speed) and zstd frames
 * (CUDA 12.4 on). Both are decoded with the exact compressed size from the entry header: the
 * padded payload size makes both decoders fail. */
#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "fatbin.h"

bool decompress_lz4(const uint8_t *src, uint64_t src_size, uint8_t *dst, uint64_t dst_size,
                    ZcError *err)
{
	int n;

	if (src_size > LZ4_MAX_INPUT_SIZE || dst_size > (uint64_t)INT32_MAX)
		return zc_fail(err, "LZ4 block too large to decode (0x%llx -> 0x%llx bytes)",
		               (unsigned long long)src_size, (unsigned long long)dst_size);
	n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)src_size, (int)dst_size);
	/* A raw block records neither its size nor a checksum: a failure is corrupt data or an
	 * uncompressed size that is too small, and the decoder cannot tell which. */
	if (n < 0)
		return zc_fail(err, "corrupt LZ4 data: the block does not decode into the %llu bytes "
		               "the entry header claims", (unsigned long long)dst_size);
	if ((uint64_t)n != dst_size)
		return zc_fail(err, "LZ4 data decompressed to %d bytes, the entry header claims %llu", n,
		               (unsigned long long)dst_size);
	return true;
}

bool decompress_zstd(const uint8_t *src, uint64_t src_size, uint8_t *dst, uint64_t dst_size,
                     ZcError *err)
{
	unsigned long long frame_size = ZSTD_getFrameContentSize(src, src_size);
	size_t n;

	if (frame_size == ZSTD_CONTENTSIZE_ERROR)
		return zc_fail(err, "corrupt zstd data: no zstd frame header");
	/* A single frame that records its size: compare before decoding, so that a lying entry
	 * header is named as such rather than reported as a decoder error. */
	if (frame_size != ZSTD_CONTENTSIZE_UNKNOWN && frame_size != dst_size &&
	    ZSTD_findFrameCompressedSize(src, src_size) == src_size)
		return zc_fail(err, "zstd frame holds %llu bytes, the entry header claims %llu",
		               frame_size, (unsigned long long)dst_size);
	n = ZSTD_decompress(dst, dst_size, src, src_size);
	if (ZSTD_isError(n))
		return zc_fail(err, "corrupt zstd data (%s)", ZSTD_getErrorName(n));
	if (n != dst_size)
		return zc_fail(err, "zstd data decompressed to %zu bytes, the entry header claims %llu",
		               n, (unsigned long long)dst_size);
	return true;
}

bool entry_contents(const Binary *bin, const Entry *e, uint8_t **out, uint64_t *out_size,
                    ZcError *err)
{
	const uint8_t *payload = bin->bytes + e->payload_offset;
	uint64_t size = e->data_size;
	uint8_t *buf;
	bool ok = true;

	/* The LTO-IR that NVIDIA's libraries carry: its bytes are not what they hold. */
	if (e->flags & ENTRY_FLAG_OBFUSCATED)
		return zc_fail(err, "its payload is obfuscated (flag 0x10000), and no public decoder "
		               "reads that");
	buf = zc_alloc(size + 1); /* +1: PTX text always ends in a NUL */

	switch (e->compression) {
	case COMPRESSION_NONE:
		memcpy(buf, payload, size);
		break;
	case COMPRESSION_LZ4:
		ok = decompress_lz4(payload, e->compressed_size, buf, size, err);
		break;
	case COMPRESSION_ZSTD:
		ok = decompress_zstd(payload, e->compressed_size, buf, size, err);
		break;
	}
	if (!ok) {
		free(buf);
		return false;
	}
	/* PTX is NUL-terminated and, uncompressed, NUL-padded to 8: the text ends at the first NUL. */
	if (e->kind == ENTRY_PTX)
		size = strnlen((const char *)buf, size);
	*out = buf;
	*out_size = size;
	return true;
}
