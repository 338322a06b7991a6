/* Opening a binary and the format-independent questions asked of it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "embed.h"

/* Text up to its first NUL (or the end), with a .version directive: what a PTX file is. */
static bool ptx_text_file(const uint8_t *b, uint64_t size)
{
	const uint8_t *end = memchr(b, 0, size);
	uint64_t len = end ? (uint64_t)(end - b) : size;

	for (uint64_t i = 0; i < len; i++)
		if (b[i] < 0x20 && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' && b[i] != '\f')
			return false;
	return memmem(b, len, ".version", 8) != NULL;
}

static bool dispatch_format(Binary *bin, ZcError *err)
{
	const uint8_t *b = bin->bytes;

	if (bin->size >= 4 && memcmp(b, "\177ELF", 4) == 0) {
		bin->format = BIN_ELF;
		return elf_read(bin, err);
	}
	if (bin->size >= 2 && b[0] == 'M' && b[1] == 'Z') {
		bin->format = BIN_PE;
		return pe_read(bin, err);
	}
	if (bin->size == 0)
		return zc_fail(err, "empty file");
	/* A converted module file: everything else reads its original bytes. */
	uint64_t image_offset, image_size, original;
	if (bin->size >= MODULE_TRAILER_SIZE &&
	    memcmp(b + bin->size - MODULE_TRAILER_SIZE, MODULE_TRAILER_MAGIC, 8) == 0) {
		if (!module_trailer(b + bin->size - MODULE_TRAILER_SIZE, bin->size, &image_offset,
		                    &image_size, &original))
			return zc_fail(err, "module file trailer points outside the file");
		bin->size = original;
	}
	bin->pointer_size = 8;
	bin->machine = "none";
	if (bin->size >= 4 && b[0] == 0x50 && b[1] == 0xed && b[2] == 0x55 && b[3] == 0xba) {
		bin->format = BIN_RAW_FATBIN;
		return true;
	}
	if (ptx_text_file(b, bin->size)) {
		bin->format = BIN_PTX;
		return true;
	}
	return zc_fail(err, "not an ELF or PE binary, a fatbin or a PTX file (unknown magic)");
}

static bool binary_load(Binary *bin, const char *name, const uint8_t *bytes, uint64_t size,
                        bool writable, ZcError *err)
{
	memset(bin, 0, sizeof(*bin));
	bin->path = name;
	bin->bytes = bytes;
	bin->size = size;
	bin->file_size = size;
	bin->writable = writable;
	if (!dispatch_format(bin, err)) {
		bin->bytes = NULL; /* the caller unmaps */
		binary_close(bin);
		return false;
	}
	return true;
}

bool binary_from_memory(Binary *bin, const char *name, const uint8_t *bytes, uint64_t size,
                        ZcError *err)
{
	return binary_load(bin, name, bytes, size, false, err);
}

bool binary_open(Binary *bin, const char *path, ZcError *err)
{
	struct stat st;
	void *map = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(bin, 0, sizeof(*bin));
	if (fd < 0)
		return zc_fail(err, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) < 0) {
		close(fd);
		return zc_fail(err, "cannot stat: %s", strerror(errno));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return zc_fail(err, "is a directory");
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return zc_fail(err, "not a regular file");
	}
	if (st.st_size > 0) {
		/* Writable but private: libelf may byte-swap foreign ELF in place; the file
		 * itself is never written. */
		map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			close(fd);
			return zc_fail(err, "cannot map: %s", strerror(errno));
		}
	}
	close(fd);
	if (!binary_load(bin, path, map, (uint64_t)st.st_size, true, err)) {
		if (map)
			munmap(map, (size_t)st.st_size);
		return false;
	}
	bin->owns_mapping = true;
	return true;
}

void binary_close(Binary *bin)
{
	for (size_t i = 0; i < bin->nsections; i++)
		free(bin->sections[i].name);
	for (size_t i = 0; i < bin->nsymbols; i++)
		free(bin->symbols[i].name);
	for (size_t i = 0; i < bin->nimports; i++)
		free(bin->imports[i]);
	free(bin->imports);
	free(bin->sections);
	free(bin->symbols);
	free(bin->fixups);
	free(bin->elf_copy);
	if (bin->owns_mapping && bin->bytes)
		munmap((void *)bin->bytes, (size_t)bin->file_size);
	memset(bin, 0, sizeof(*bin));
}

const Section *binary_section_at(const Binary *bin, uint64_t addr)
{
	for (size_t i = 0; i < bin->nsections; i++) {
		const Section *s = &bin->sections[i];

		if ((s->flags & SEC_ALLOC) && addr >= s->addr && addr - s->addr < s->size)
			return s;
	}
	return NULL;
}

const Section *binary_section_named(const Binary *bin, const char *name)
{
	for (size_t i = 0; i < bin->nsections; i++)
		if (strcmp(bin->sections[i].name, name) == 0)
			return &bin->sections[i];
	return NULL;
}

bool binary_addr_to_offset(const Binary *bin, uint64_t addr, uint64_t len, uint64_t *offset)
{
	const Section *s = binary_section_at(bin, addr);

	if (!s || (s->flags & SEC_NOBITS) || len > s->size - (addr - s->addr))
		return false;
	*offset = s->offset + (addr - s->addr);
	return true;
}

static const Fixup *fixup_at(const Binary *bin, uint64_t addr)
{
	size_t lo = 0, hi = bin->nfixups;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (bin->fixups[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < bin->nfixups && bin->fixups[lo].addr == addr ? &bin->fixups[lo] : NULL;
}

uint64_t read_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

bool binary_read_pointer(const Binary *bin, uint64_t addr, uint64_t *value, FixupKind *kind,
                         ZcError *err)
{
	uint64_t off;
	const Fixup *f = fixup_at(bin, addr);

	if (!binary_addr_to_offset(bin, addr, (uint64_t)bin->pointer_size, &off))
		return zc_fail(err, "pointer at 0x%llx is not backed by file data",
		               (unsigned long long)addr);
	*value = read_le(bin->bytes + off, bin->pointer_size);
	*kind = f ? f->kind : FIXUP_NONE;
	if (f && f->kind == FIXUP_RELA)
		*value = f->addend;
	return true;
}

const char *fixup_kind_name(FixupKind k)
{
	switch (k) {
	case FIXUP_NONE: return "none";
	case FIXUP_RELA: return "rela";
	case FIXUP_REL: return "rel";
	case FIXUP_RELR: return "relr";
	case FIXUP_PE_BASE: return "pe-base";
	}
	return "?";
}

static int fixup_cmp(const void *a, const void *b)
{
	const Fixup *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void binary_sort_fixups(Binary *bin)
{
	if (bin->nfixups < 2) /* also keeps a NULL array away from qsort */
		return;
	qsort(bin->fixups, bin->nfixups, sizeof(Fixup), fixup_cmp);
}

void binary_add_fixup(Binary *bin, size_t *cap, uint64_t addr, uint64_t addend, FixupKind kind)
{
	if (bin->nfixups == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		bin->fixups = zc_realloc(bin->fixups, *cap * sizeof(Fixup));
	}
	bin->fixups[bin->nfixups++] = (Fixup){addr, addend, kind};
}

bool range_in_file(const Binary *bin, uint64_t offset, uint64_t len)
{
	return offset <= bin->size && len <= bin->size - offset;
}
