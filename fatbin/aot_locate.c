/* Finding the AOT image in a converted binary with a few reads of its headers: the runtime stub
 * does this for its own process's files, so no libelf and no reading of the whole file.
 * ELF: the section named .zluda_aot (64-bit little-endian ELF, as every nvcc target is).
 * PE: the trailer embed_pe.c writes as the last bytes of the file; a module file (fatbin or
 * PTX): the trailer embed_module.c writes. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "aot_image.h"
#include "embed.h"

/* stdio rather than file descriptors, the same on Windows, where the stub is built too. */
typedef struct {
	FILE *file;           /* read from this file, or */
	const uint8_t *bytes; /* from these bytes */
	uint64_t size;
} Source;

static bool read_at(const Source *src, uint64_t offset, void *dst, size_t len, ZcError *err)
{
	if (offset > src->size || len > src->size - offset)
		return zc_fail(err, "%zu bytes at 0x%llx are past the end of the file (0x%llx bytes)",
		               len, (unsigned long long)offset, (unsigned long long)src->size);
	if (src->bytes) {
		memcpy(dst, src->bytes + offset, len);
		return true;
	}
	if (fseeko(src->file, (off_t)offset, SEEK_SET) != 0 || fread(dst, 1, len, src->file) != len)
		return zc_fail(err, "cannot read 0x%zx bytes at 0x%llx: %s", len,
		               (unsigned long long)offset,
		               ferror(src->file) ? strerror(errno) : "unexpected end of file");
	return true;
}

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

/* Section header fields of ELF64 (offsets into the 64-byte record). */
enum { SH_NAME = 0, SH_TYPE = 4, SH_LINK = 40, SH_OFFSET = 24, SH_SIZE = 32 };

static bool read_section(const Source *src, uint64_t table, uint64_t count, uint64_t index,
                         uint8_t sh[64], ZcError *err)
{
	if (index >= count)
		return zc_fail(err, "ELF section index %llu is out of range (%llu sections)",
		               (unsigned long long)index, (unsigned long long)count);
	return read_at(src, table + index * 64, sh, 64, err);
}

static bool locate_elf(const Source *src, bool *found, uint64_t *offset, uint64_t *size,
                       ZcError *err)
{
	static const char name[] = ELF_AOT_SECTION;
	uint8_t eh[64], sh[64], shstr[64], got[sizeof(name)];
	uint64_t shoff, count, names_index;

	if (!read_at(src, 0, eh, sizeof(eh), err))
		return false;
	if (eh[4] != 2 || eh[5] != 1)
		return true; /* embedding writes only 64-bit little-endian ELF: no image here */
	shoff = le(eh + 0x28, 8);
	count = le(eh + 0x3c, 2);
	names_index = le(eh + 0x3e, 2);
	if (shoff == 0)
		return true;
	if (le(eh + 0x3a, 2) != 64)
		return zc_fail(err, "ELF section headers are not 64 bytes");
	/* extended numbering: the real count and name table index are in section 0 */
	if (count == 0 || names_index == 0xffff) {
		if (!read_at(src, shoff, sh, 64, err))
			return false;
		if (count == 0)
			count = le(sh + SH_SIZE, 8);
		if (names_index == 0xffff)
			names_index = le(sh + SH_LINK, 4);
	}
	if (shoff > src->size || count > (src->size - shoff) / 64)
		return zc_fail(err, "ELF section header table extends past the end of the file");
	if (!read_section(src, shoff, count, names_index, shstr, err))
		return false;
	for (uint64_t i = 1; i < count; i++) {
		uint64_t name_offset;

		if (!read_section(src, shoff, count, i, sh, err))
			return false;
		name_offset = le(sh + SH_NAME, 4);
		if (name_offset > le(shstr + SH_SIZE, 8) ||
		    le(shstr + SH_SIZE, 8) - name_offset < sizeof(name))
			continue;
		if (!read_at(src, le(shstr + SH_OFFSET, 8) + name_offset, got, sizeof(name), err))
			return false;
		if (memcmp(got, name, sizeof(name)) != 0)
			continue;
		*offset = le(sh + SH_OFFSET, 8);
		*size = le(sh + SH_SIZE, 8);
		if (le(sh + SH_TYPE, 4) != 1 /* SHT_PROGBITS */ || *offset > src->size ||
		    *size > src->size - *offset)
			return zc_fail(err, "ELF section %s is not file data within the file", name);
		*found = true;
		return true;
	}
	return true;
}

static bool locate_pe(const Source *src, bool *found, uint64_t *offset, uint64_t *size,
                      ZcError *err)
{
	uint8_t t[PE_TRAILER_SIZE];

	if (src->size < PE_TRAILER_SIZE)
		return true;
	if (!read_at(src, src->size - PE_TRAILER_SIZE, t, sizeof(t), err))
		return false;
	if (memcmp(t, PE_TRAILER_MAGIC, 8) != 0)
		return true;
	*offset = le(t + 8, 8);
	*size = le(t + 16, 8);
	if (*offset > src->size - PE_TRAILER_SIZE || *size > src->size - PE_TRAILER_SIZE - *offset)
		return zc_fail(err, "PE AOT trailer points outside the file");
	*found = true;
	return true;
}

bool module_trailer(const uint8_t *t, uint64_t file_size, uint64_t *image_offset,
                    uint64_t *image_size, uint64_t *original_size)
{
	if (file_size < MODULE_TRAILER_SIZE || memcmp(t, MODULE_TRAILER_MAGIC, 8) != 0)
		return false;
	*image_offset = le(t + 8, 8);
	*image_size = le(t + 16, 8);
	*original_size = le(t + 24, 8);
	uint64_t end = file_size - MODULE_TRAILER_SIZE;
	return *image_offset <= end && *image_size <= end - *image_offset &&
	       *original_size <= *image_offset;
}

static bool locate_module(const Source *src, bool *found, uint64_t *offset, uint64_t *size,
                          ZcError *err)
{
	uint8_t t[MODULE_TRAILER_SIZE];
	uint64_t original;

	if (src->size < MODULE_TRAILER_SIZE)
		return true;
	if (!read_at(src, src->size - MODULE_TRAILER_SIZE, t, sizeof(t), err))
		return false;
	if (memcmp(t, MODULE_TRAILER_MAGIC, 8) != 0)
		return true;
	if (!module_trailer(t, src->size, offset, size, &original))
		return zc_fail(err, "module file trailer points outside the file");
	*found = true;
	return true;
}

static bool locate(const Source *src, bool *found, uint64_t *offset, uint64_t *size, ZcError *err)
{
	uint8_t magic[4];

	*found = false;
	if (!read_at(src, 0, magic, sizeof(magic), err))
		return false;
	if (memcmp(magic, "\177ELF", 4) == 0)
		return locate_elf(src, found, offset, size, err);
	if (magic[0] == 'M' && magic[1] == 'Z')
		return locate_pe(src, found, offset, size, err);
	return locate_module(src, found, offset, size, err);
}

bool aot_image_locate_in_memory(const uint8_t *bytes, uint64_t file_size, bool *found,
                                uint64_t *offset, uint64_t *size, ZcError *err)
{
	Source src = {NULL, bytes, file_size};

	return locate(&src, found, offset, size, err);
}

bool aot_image_locate_file(FILE *file, bool *found, uint64_t *offset, uint64_t *size,
                           ZcError *err)
{
	struct stat st;
	Source src = {file, NULL, 0};
	off_t end;

	if (fstat(fileno(file), &st) < 0 || !S_ISREG(st.st_mode) ||
	    fseeko(file, 0, SEEK_END) != 0 || (end = ftello(file)) < 0)
		return zc_fail(err, "not a regular file");
	src.size = (uint64_t)end;
	return locate(&src, found, offset, size, err);
}

bool aot_image_locate(const char *path, bool *found, uint64_t *offset, uint64_t *size,
                      ZcError *err)
{
	FILE *file = fopen(path, ZC_FOPEN_READ);
	bool ok;

	if (!file)
		return zc_fail(err, "cannot open: %s", strerror(errno));
	ok = aot_image_locate_file(file, found, offset, size, err);
	fclose(file);
	return ok;
}
