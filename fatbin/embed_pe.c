/* Embedding an AOT image into a PE image (.exe, .dll). The image goes into a new section
 * `.zluda` (initialized, read-only: the stub reads it from the file, so it must not be
 * discardable) when the header has a free, zeroed slot for one more section header; otherwise
 * it is appended after everything as an overlay, which the loader ignores. Either way the file
 * ends with a trailer (PE_TRAILER_SIZE bytes) that says where the image is, and a copy of the
 * original headers precedes it, so a converted file can be converted again from its original
 * bytes. Of the original bytes only the headers change: the new section header,
 * NumberOfSections, SizeOfImage, SizeOfInitializedData and CheckSum. */
#include <stdlib.h>
#include <string.h>

#include "embed.h"

enum {
	SECTION_HEADER = 40,
	SCN_CNT_INITIALIZED_DATA = 0x40,
	SCN_MEM_READ = 0x40000000,
	OPT_SIZE_OF_INITIALIZED_DATA = 8,
	OPT_SECTION_ALIGNMENT = 32, /* these offsets are the same in PE32 and PE32+ */
	OPT_FILE_ALIGNMENT = 36,
	OPT_SIZE_OF_IMAGE = 56,
	OPT_SIZE_OF_HEADERS = 60,
	OPT_CHECKSUM = 64,
};

typedef struct {
	const uint8_t *file;
	uint64_t size;
	uint64_t coff, opt, table;
	unsigned nsections;
} PeFile;

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)read_le(p, 4);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static bool pe_parse(PeFile *pe, const uint8_t *file, uint64_t size, ZcError *err)
{
	uint32_t lfanew;
	uint16_t opt_size;

	memset(pe, 0, sizeof(*pe));
	pe->file = file;
	pe->size = size;
	if (size < 64 || file[0] != 'M' || file[1] != 'Z')
		return zc_fail(err, "not a PE file");
	lfanew = get32(file + 0x3c);
	pe->coff = (uint64_t)lfanew + 4;
	pe->opt = pe->coff + 20;
	if (pe->opt > size || memcmp(file + lfanew, "PE\0\0", 4) != 0)
		return zc_fail(err, "PE signature missing or outside the file");
	pe->nsections = (unsigned)read_le(file + pe->coff + 2, 2);
	opt_size = (uint16_t)read_le(file + pe->coff + 16, 2);
	pe->table = pe->opt + opt_size;
	if (opt_size < OPT_CHECKSUM + 4 ||
	    pe->table + (uint64_t)pe->nsections * SECTION_HEADER > size)
		return zc_fail(err, "PE headers are truncated");
	return true;
}

static uint32_t opt_field(const PeFile *pe, unsigned offset)
{
	return get32(pe->file + pe->opt + offset);
}

/* The PE checksum: 16-bit one's-complement-style sum of the file with the CheckSum field
 * counted as zero, plus the file length. */
static uint32_t pe_checksum(const uint8_t *bytes, uint64_t size, uint64_t checksum_at)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < size; i += 2) {
		uint32_t word = bytes[i] | (i + 1 < size ? bytes[i + 1] << 8 : 0);

		if (i >= checksum_at && i < checksum_at + 4)
			word = 0;
		sum += word;
		sum = (sum & 0xffff) + (sum >> 16);
	}
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint32_t)(sum + size);
}

/* A converted file: the original size and headers from its trailer; *restored NULL if none. */
static bool original_bytes(const PeFile *pe, uint8_t **restored, uint64_t *size, ZcError *err)
{
	const uint8_t *t = pe->file + pe->size - PE_TRAILER_SIZE;
	uint64_t original, headers, headers_size;

	*restored = NULL;
	if (pe->size < PE_TRAILER_SIZE || memcmp(t, PE_TRAILER_MAGIC, 8) != 0)
		return true;
	original = read_le(t + 24, 8);
	headers = read_le(t + 32, 8);
	headers_size = read_le(t + 40, 8);
	if (original > pe->size - PE_TRAILER_SIZE || headers < original ||
	    headers > pe->size - PE_TRAILER_SIZE || headers_size > pe->size - PE_TRAILER_SIZE - headers ||
	    headers_size > original)
		return zc_fail(err, "PE AOT trailer does not describe the original file");
	*restored = zc_alloc(original ? original : 1);
	memcpy(*restored, pe->file, original);
	memcpy(*restored, pe->file + headers, headers_size);
	*size = original;
	return true;
}

/* Where a new section header would go, if the header has room for it: past the section
 * table, within SizeOfHeaders, before any section's data, and zero (so not holding something
 * a linker put there, such as bound imports). */
static bool free_header_slot(const PeFile *pe, uint64_t *slot)
{
	uint64_t at = pe->table + (uint64_t)pe->nsections * SECTION_HEADER;
	uint64_t limit = opt_field(pe, OPT_SIZE_OF_HEADERS);

	for (unsigned i = 0; i < pe->nsections; i++) {
		const uint8_t *h = pe->file + pe->table + (uint64_t)i * SECTION_HEADER;

		if (get32(h + 16) && get32(h + 20) && get32(h + 20) < limit)
			limit = get32(h + 20);
	}
	if (at + SECTION_HEADER > limit || at + SECTION_HEADER > pe->size)
		return false;
	for (unsigned i = 0; i < SECTION_HEADER; i++)
		if (pe->file[at + i])
			return false;
	*slot = at;
	return true;
}

static bool valid_alignment(uint32_t a)
{
	return a >= 16 && (a & (a - 1)) == 0;
}

/* The first free address after every section, rounded to SectionAlignment. */
static uint64_t next_section_rva(const PeFile *pe, uint32_t section_align)
{
	uint64_t end = opt_field(pe, OPT_SIZE_OF_HEADERS);

	for (unsigned i = 0; i < pe->nsections; i++) {
		const uint8_t *h = pe->file + pe->table + (uint64_t)i * SECTION_HEADER;
		uint64_t vsize = get32(h + 8) > get32(h + 16) ? get32(h + 8) : get32(h + 16);

		if (get32(h + 12) + vsize > end)
			end = get32(h + 12) + vsize;
	}
	return align_up(end, section_align);
}

static bool embed_original(const PeFile *pe, const uint8_t *image, uint64_t image_size,
                           ByteBuffer *out, ZcError *err)
{
	uint32_t file_align = opt_field(pe, OPT_FILE_ALIGNMENT);
	uint32_t section_align = opt_field(pe, OPT_SECTION_ALIGNMENT);
	uint64_t headers_size = opt_field(pe, OPT_SIZE_OF_HEADERS);
	uint64_t slot = 0, start, headers_copy, total, rva = 0;
	bool as_section = valid_alignment(file_align) && valid_alignment(section_align) &&
	                  free_header_slot(pe, &slot);
	uint8_t *b;

	if (headers_size > pe->size)
		headers_size = pe->size;
	start = align_up(pe->size, as_section ? file_align : AOT_ALIGN_IN_FILE);
	headers_copy = align_up(start + image_size, 8);
	total = headers_copy + headers_size + PE_TRAILER_SIZE - start;
	if (as_section) {
		total = align_up(total, file_align);
		rva = next_section_rva(pe, section_align);
		/* PE sizes and addresses are 32-bit */
		as_section = start <= UINT32_MAX && total <= UINT32_MAX &&
		             rva + align_up(total, section_align) <= UINT32_MAX;
		if (!as_section) { /* too big for a section: an overlay has no such limit */
			start = align_up(pe->size, AOT_ALIGN_IN_FILE);
			headers_copy = align_up(start + image_size, 8);
			total = headers_copy + headers_size + PE_TRAILER_SIZE - start;
		}
	}
	b = zc_alloc(start + total);
	memcpy(b, pe->file, pe->size);
	memcpy(b + start, image, image_size);
	memcpy(b + headers_copy, pe->file, headers_size);
	uint8_t *t = b + start + total - PE_TRAILER_SIZE;
	memcpy(t, PE_TRAILER_MAGIC, 8);
	put64(t + 8, start);
	put64(t + 16, image_size);
	put64(t + 24, pe->size);
	put64(t + 32, headers_copy);
	put64(t + 40, headers_size);

	if (as_section) {
		uint8_t *h = b + slot, *opt = b + pe->opt;
		uint64_t initialized = get32(opt + OPT_SIZE_OF_INITIALIZED_DATA) + total;

		memcpy(h, PE_AOT_SECTION, sizeof(PE_AOT_SECTION) - 1);
		put32(h + 8, (uint32_t)total);
		put32(h + 12, (uint32_t)rva);
		put32(h + 16, (uint32_t)total);
		put32(h + 20, (uint32_t)start);
		put32(h + 36, SCN_CNT_INITIALIZED_DATA | SCN_MEM_READ);
		b[pe->coff + 2] = (uint8_t)(pe->nsections + 1);
		b[pe->coff + 3] = (uint8_t)((pe->nsections + 1) >> 8);
		put32(opt + OPT_SIZE_OF_IMAGE, (uint32_t)align_up(rva + total, section_align));
		put32(opt + OPT_SIZE_OF_INITIALIZED_DATA,
		      initialized > UINT32_MAX ? UINT32_MAX : (uint32_t)initialized);
	}
	/* Windows checks the sum only for drivers and a few system DLLs: keep a zero one zero. */
	if (opt_field(pe, OPT_CHECKSUM))
		put32(b + pe->opt + OPT_CHECKSUM, pe_checksum(b, start + total, pe->opt + OPT_CHECKSUM));
	out->bytes = b;
	out->size = start + total;
	return true;
}

bool pe_embed(const uint8_t *file, uint64_t size, const uint8_t *image, uint64_t image_size,
              ByteBuffer *out, ZcError *err)
{
	PeFile pe, original;
	uint8_t *restored;
	uint64_t restored_size;
	bool ok;

	if (!pe_parse(&pe, file, size, err) || !original_bytes(&pe, &restored, &restored_size, err))
		return false;
	if (!restored)
		return embed_original(&pe, image, image_size, out, err);
	ok = pe_parse(&original, restored, restored_size, err) &&
	     embed_original(&original, image, image_size, out, err);
	free(restored);
	return ok;
}
