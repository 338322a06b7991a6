/* The fatbin container: a 16-byte outer header, then entries (PTX, cubin, LTO-IR, ...) each
 * with a 64-byte-or-longer header and an 8-byte-padded payload. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"

enum {
	ENTRY_FORMAT_VERSION = 0x0101,
	OFF_KIND = 0x00, OFF_FORMAT = 0x02, OFF_HEADER_SIZE = 0x04, OFF_PAYLOAD_SIZE = 0x08,
	OFF_COMPRESSED_SIZE = 0x10, OFF_OPTIONS = 0x14, OFF_VERSION_MINOR = 0x18,
	OFF_VERSION_MAJOR = 0x1a, OFF_SM = 0x1c, OFF_IDENT = 0x20, OFF_IDENT_LEN = 0x24,
	OFF_FLAGS = 0x28, OFF_UNCOMPRESSED_SIZE = 0x38,
};

const char *entry_kind_name(uint16_t kind)
{
	switch (kind) {
	case ENTRY_PTX: return "ptx";
	case ENTRY_CUBIN: return "cubin";
	case ENTRY_LTOIR: return "lto-ir";
	default: return "unknown";
	}
}

const char *compression_name(Compression c)
{
	switch (c) {
	case COMPRESSION_NONE: return "none";
	case COMPRESSION_LZ4: return "lz4";
	case COMPRESSION_ZSTD: return "zstd";
	}
	return "?";
}

static uint64_t rd(const Binary *bin, uint64_t off, int n)
{
	return read_le(bin->bytes + off, n);
}

static bool is_text(const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return false;
	return true;
}

/* A string stored inside the entry header at [off, off+len), relative to the entry start. */
static char *header_string(const Binary *bin, uint64_t entry, uint32_t header_size, uint64_t off,
                           uint64_t len)
{
	if (off == 0 || len == 0 || off > header_size || len > header_size - off)
		return NULL;
	if (!is_text(bin->bytes + entry + off, len))
		return NULL;
	return zc_strndup((const char *)bin->bytes + entry + off, len);
}

static bool check_compression(Entry *e, size_t index, uint64_t at, ZcError *err)
{
	bool lz4 = e->flags & ENTRY_FLAG_LZ4, zstd = e->flags & ENTRY_FLAG_ZSTD;

	if (lz4 && zstd)
		return zc_fail(err, "entry %zu at 0x%llx is flagged both LZ4 and zstd compressed",
		               index, (unsigned long long)at);
	e->compression = lz4 ? COMPRESSION_LZ4 : zstd ? COMPRESSION_ZSTD : COMPRESSION_NONE;
	if (e->compression == COMPRESSION_NONE) {
		e->data_size = e->payload_size;
		return true;
	}
	if (e->compressed_size == 0 || e->compressed_size > e->payload_size)
		return zc_fail(err, "entry %zu at 0x%llx: compressed size 0x%x does not fit its "
		               "payload of 0x%llx bytes", index, (unsigned long long)at,
		               e->compressed_size, (unsigned long long)e->payload_size);
	if (e->uncompressed_size > DECOMPRESS_LIMIT ||
	    e->uncompressed_size > (uint64_t)e->compressed_size * DECOMPRESS_MAX_RATIO)
		return zc_fail(err, "entry %zu at 0x%llx claims an uncompressed size of 0x%llx bytes "
		               "from 0x%x compressed bytes; refusing (limit: 1 GiB and %dx)",
		               index, (unsigned long long)at,
		               (unsigned long long)e->uncompressed_size, e->compressed_size,
		               DECOMPRESS_MAX_RATIO);
	if (e->uncompressed_size == 0)
		return zc_fail(err, "entry %zu at 0x%llx is compressed but claims an uncompressed "
		               "size of 0", index, (unsigned long long)at);
	e->data_size = e->uncompressed_size;
	return true;
}

static bool parse_entry(const Binary *bin, uint64_t at, uint64_t end, size_t index, Entry *e,
                        ZcError *err)
{
	uint64_t opt;

	if (end - at < FATBIN_ENTRY_MIN_HEADER)
		return zc_fail(err, "entry %zu at 0x%llx is truncated (0x%llx bytes left, a header "
		               "needs 0x%x)", index, (unsigned long long)at,
		               (unsigned long long)(end - at), FATBIN_ENTRY_MIN_HEADER);
	memset(e, 0, sizeof(*e));
	e->offset = at;
	e->kind = (uint16_t)rd(bin, at + OFF_KIND, 2);
	if (rd(bin, at + OFF_FORMAT, 2) != ENTRY_FORMAT_VERSION)
		return zc_fail(err, "entry %zu at 0x%llx has unknown format version 0x%04x",
		               index, (unsigned long long)at, (unsigned)rd(bin, at + OFF_FORMAT, 2));
	e->header_size = (uint32_t)rd(bin, at + OFF_HEADER_SIZE, 4);
	e->payload_size = rd(bin, at + OFF_PAYLOAD_SIZE, 8);
	if (e->header_size < FATBIN_ENTRY_MIN_HEADER)
		return zc_fail(err, "entry %zu at 0x%llx has a header size of 0x%x, less than the "
		               "minimum 0x%x", index, (unsigned long long)at, e->header_size,
		               FATBIN_ENTRY_MIN_HEADER);
	if (e->header_size > end - at)
		return zc_fail(err, "entry %zu at 0x%llx has a header size of 0x%x, past the end of "
		               "its fatbin (0x%llx bytes left)", index, (unsigned long long)at,
		               e->header_size, (unsigned long long)(end - at));
	if (e->payload_size > end - at - e->header_size)
		return zc_fail(err, "entry %zu at 0x%llx: payload of 0x%llx bytes extends past the "
		               "end of its fatbin (0x%llx bytes left after the header)", index,
		               (unsigned long long)at, (unsigned long long)e->payload_size,
		               (unsigned long long)(end - at - e->header_size));
	e->payload_offset = at + e->header_size;
	e->compressed_size = (uint32_t)rd(bin, at + OFF_COMPRESSED_SIZE, 4);
	e->version_minor = (uint16_t)rd(bin, at + OFF_VERSION_MINOR, 2);
	e->version_major = (uint16_t)rd(bin, at + OFF_VERSION_MAJOR, 2);
	e->sm = (uint32_t)rd(bin, at + OFF_SM, 4);
	e->flags = rd(bin, at + OFF_FLAGS, 8);
	e->uncompressed_size = rd(bin, at + OFF_UNCOMPRESSED_SIZE, 8);
	snprintf(e->arch, sizeof(e->arch), "sm_%u%s", e->sm,
	         e->flags & ENTRY_FLAG_ARCH_SPECIFIC ? "a"
	         : e->flags & ENTRY_FLAG_FAMILY_SPECIFIC ? "f" : "");
	e->identifier = header_string(bin, at, e->header_size, rd(bin, at + OFF_IDENT, 4),
	                              rd(bin, at + OFF_IDENT_LEN, 4));
	opt = rd(bin, at + OFF_OPTIONS, 4);
	if (opt != 0 && opt <= e->header_size && e->header_size - opt >= 8)
		e->options = header_string(bin, at, e->header_size, rd(bin, at + opt, 4),
		                           rd(bin, at + opt + 4, 4));
	if (!check_compression(e, index, at, err)) {
		free(e->identifier);
		free(e->options);
		e->identifier = e->options = NULL;
		return false;
	}
	return true;
}

static bool parse_outer_header(const Binary *bin, uint64_t offset, uint64_t limit,
                               uint64_t *fat_size, ZcError *err)
{
	uint32_t magic;

	if (limit < offset || limit - offset < FATBIN_HEADER_SIZE)
		return zc_fail(err, "fatbin header at 0x%llx is truncated (0x%llx bytes left, the "
		               "header needs 0x%x)", (unsigned long long)offset,
		               (unsigned long long)(limit > offset ? limit - offset : 0),
		               FATBIN_HEADER_SIZE);
	magic = (uint32_t)rd(bin, offset, 4);
	if (magic != FATBIN_MAGIC)
		return zc_fail(err, "no fatbin at 0x%llx (magic 0x%08x, expected 0x%08x)",
		               (unsigned long long)offset, magic, FATBIN_MAGIC);
	if (rd(bin, offset + 4, 2) != 1)
		return zc_fail(err, "fatbin at 0x%llx has unsupported version %u (expected 1)",
		               (unsigned long long)offset, (unsigned)rd(bin, offset + 4, 2));
	if (rd(bin, offset + 6, 2) != FATBIN_HEADER_SIZE)
		return zc_fail(err, "fatbin at 0x%llx has header size 0x%x (expected 0x%x)",
		               (unsigned long long)offset, (unsigned)rd(bin, offset + 6, 2),
		               FATBIN_HEADER_SIZE);
	*fat_size = rd(bin, offset + 8, 8);
	if (*fat_size > limit - offset - FATBIN_HEADER_SIZE)
		return zc_fail(err, "fatbin at 0x%llx claims 0x%llx bytes of entries but only 0x%llx "
		               "remain", (unsigned long long)offset, (unsigned long long)*fat_size,
		               (unsigned long long)(limit - offset - FATBIN_HEADER_SIZE));
	return true;
}

bool container_looks_valid(const Binary *bin, uint64_t offset, uint64_t limit)
{
	ZcError ignored;
	uint64_t fat_size;

	return parse_outer_header(bin, offset, limit, &fat_size, &ignored);
}

bool container_parse(const Binary *bin, uint64_t offset, uint64_t limit, Container *c,
                     ZcError *err)
{
	uint64_t fat_size, at, end;
	size_t cap = 0;

	memset(c, 0, sizeof(*c));
	c->wrapper = -1;
	c->offset = offset;
	if (!parse_outer_header(bin, offset, limit, &fat_size, err))
		return false;
	c->size = FATBIN_HEADER_SIZE + fat_size;
	at = offset + FATBIN_HEADER_SIZE;
	end = at + fat_size;
	while (at < end) {
		Entry e;

		if (!parse_entry(bin, at, end, c->nentries, &e, err)) {
			container_free(c);
			return false;
		}
		if (e.kind != ENTRY_PTX && e.kind != ENTRY_CUBIN && e.kind != ENTRY_LTOIR)
			c->nskipped++;
		if (c->nentries == cap) {
			cap = cap ? cap * 2 : 4;
			c->entries = zc_realloc(c->entries, cap * sizeof(Entry));
		}
		c->entries[c->nentries++] = e;
		at += e.header_size + e.payload_size;
	}
	return true;
}

void container_free(Container *c)
{
	for (size_t i = 0; i < c->nentries; i++) {
		free(c->entries[i].identifier);
		free(c->entries[i].options);
	}
	free(c->entries);
	c->entries = NULL;
	c->nentries = 0;
}
