/* One metadata note for a code object linked from several parts. Each part's object carries
 * its own NT_AMDGPU_METADATA note (MessagePack: amdhsa.kernels, the parts' kernels, and
 * amdhsa.target and amdhsa.version, the same in each), and lld keeps them side by side.
 * Loaders that read the first note alone would miss every other part's kernels, so the
 * notes become one: the first note's map with every note's kernels in its amdhsa.kernels.
 * The merged note is shorter than the notes it replaces, so it is written in their place
 * and the note segment and section shrink to fit; nothing else in the file moves. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "common.h"

#define NT_AMDGPU_METADATA 32
enum { MAX_DEPTH = 64, MAX_KEYS = 16 };

typedef struct {
	const unsigned char *p, *end;
	bool bad;
} Reader;

static uint64_t take(Reader *r, size_t n)
{
	uint64_t v = 0;
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		v = v << 8 | *r->p++;
	return v;
}

static void skip_bytes(Reader *r, uint64_t n)
{
	if ((uint64_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
	} else {
		r->p += n;
	}
}

/* The header of an array or map (*entries, and true), else false with r unmoved. */
static bool container(Reader *r, bool map, uint64_t *entries)
{
	unsigned char b;

	if (r->p >= r->end)
		return false;
	b = *r->p;
	if ((b & 0xf0) == (map ? 0x80 : 0x90)) {
		r->p++;
		*entries = b & 15u;
		return true;
	}
	if (b == (map ? 0xde : 0xdc) || b == (map ? 0xdf : 0xdd)) {
		r->p++;
		*entries = take(r, b == 0xde || b == 0xdc ? 2 : 4);
		return !r->bad;
	}
	return false;
}

/* Past one value, whatever it is. */
static void skip(Reader *r, int depth)
{
	uint64_t n;
	unsigned char b;

	if (depth > MAX_DEPTH) {
		r->bad = true;
		return;
	}
	if (container(r, true, &n)) {
		for (uint64_t i = 0; i < 2 * n && !r->bad; i++)
			skip(r, depth + 1);
		return;
	}
	if (container(r, false, &n)) {
		for (uint64_t i = 0; i < n && !r->bad; i++)
			skip(r, depth + 1);
		return;
	}
	b = (unsigned char)take(r, 1);
	if (r->bad || b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3)
		return;
	if ((b & 0xe0) == 0xa0)
		return skip_bytes(r, b & 31u);
	switch (b) {
	case 0xc4: case 0xd9: n = take(r, 1); return skip_bytes(r, n);
	case 0xc5: case 0xda: n = take(r, 2); return skip_bytes(r, n);
	case 0xc6: case 0xdb: n = take(r, 4); return skip_bytes(r, n);
	case 0xc7: n = take(r, 1); return skip_bytes(r, n + 1);
	case 0xc8: n = take(r, 2); return skip_bytes(r, n + 1);
	case 0xc9: n = take(r, 4); return skip_bytes(r, n + 1);
	case 0xcc: case 0xd0: return skip_bytes(r, 1);
	case 0xcd: case 0xd1: case 0xd4: return skip_bytes(r, 2);
	case 0xd5: return skip_bytes(r, 3);
	case 0xca: case 0xce: case 0xd2: return skip_bytes(r, 4);
	case 0xd6: return skip_bytes(r, 5);
	case 0xcb: case 0xcf: case 0xd3: return skip_bytes(r, 8);
	case 0xd7: return skip_bytes(r, 9);
	case 0xd8: return skip_bytes(r, 17);
	default: r->bad = true;
	}
}

static const unsigned char KERNELS_KEY[] = "\xae" "amdhsa.kernels";

typedef struct {
	const unsigned char *start, *end; /* the pair: its key, then its value */
} Pair;

typedef struct {
	Pair pairs[MAX_KEYS];
	size_t npairs, kernels;          /* kernels: the amdhsa.kernels pair */
	uint64_t nkernels;
	const unsigned char *elements;   /* its array's elements, up to pairs[kernels].end */
} Metadata;

static bool read_metadata(const unsigned char *desc, size_t size, Metadata *m)
{
	Reader r = {desc, desc + size, false};
	uint64_t n;

	m->kernels = MAX_KEYS;
	if (!container(&r, true, &n) || n > MAX_KEYS)
		return false;
	m->npairs = (size_t)n;
	for (size_t i = 0; i < m->npairs && !r.bad; i++) {
		m->pairs[i].start = r.p;
		if ((size_t)(r.end - r.p) >= sizeof KERNELS_KEY - 1 &&
		    memcmp(r.p, KERNELS_KEY, sizeof KERNELS_KEY - 1) == 0) {
			r.p += sizeof KERNELS_KEY - 1;
			if (!container(&r, false, &m->nkernels))
				return false;
			m->kernels = i;
			m->elements = r.p;
			for (uint64_t k = 0; k < m->nkernels && !r.bad; k++)
				skip(&r, 1);
		} else {
			skip(&r, 0);
			skip(&r, 0);
		}
		m->pairs[i].end = r.p;
	}
	return !r.bad && m->kernels < MAX_KEYS;
}

static size_t pair_size(const Pair *p)
{
	return (size_t)(p->end - p->start);
}

/* The notes' metadata as one description (malloc'd), or NULL where they differ in more than
 * their kernels. */
static unsigned char *merge(const Metadata *m, size_t n, size_t *size)
{
	size_t length = 0;
	uint64_t nkernels = 0;
	unsigned char *out, *p;

	for (size_t i = 0; i < n; i++) {
		if (m[i].npairs != m[0].npairs || m[i].kernels != m[0].kernels)
			return NULL;
		for (size_t k = 0; k < m[0].npairs; k++)
			if (k != m[0].kernels && (pair_size(&m[i].pairs[k]) != pair_size(&m[0].pairs[k]) ||
			                          memcmp(m[i].pairs[k].start, m[0].pairs[k].start, pair_size(&m[0].pairs[k]))))
				return NULL;
		nkernels += m[i].nkernels;
		length += (size_t)(m[i].pairs[m[i].kernels].end - m[i].elements);
	}
	if (nkernels > UINT32_MAX)
		return NULL;
	*size = 1 + 4 + sizeof KERNELS_KEY - 1 + 5 + length;
	for (size_t k = 0; k < m[0].npairs; k++)
		*size += k != m[0].kernels ? pair_size(&m[0].pairs[k]) : 0;
	p = out = zc_alloc(*size);
	*p++ = 0xdf; /* map32 */
	for (int shift = 24; shift >= 0; shift -= 8)
		*p++ = (unsigned char)(m[0].npairs >> shift);
	for (size_t k = 0; k < m[0].npairs; k++) {
		if (k != m[0].kernels) {
			memcpy(p, m[0].pairs[k].start, pair_size(&m[0].pairs[k]));
			p += pair_size(&m[0].pairs[k]);
			continue;
		}
		memcpy(p, KERNELS_KEY, sizeof KERNELS_KEY - 1);
		p += sizeof KERNELS_KEY - 1;
		*p++ = 0xdd; /* array32 */
		for (int shift = 24; shift >= 0; shift -= 8)
			*p++ = (unsigned char)(nkernels >> shift);
		for (size_t i = 0; i < n; i++) {
			size_t bytes = (size_t)(m[i].pairs[m[i].kernels].end - m[i].elements);
			memcpy(p, m[i].elements, bytes);
			p += bytes;
		}
	}
	return out;
}

static size_t padded(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

typedef struct {
	size_t offset, size; /* a whole note record in the file */
	bool metadata;
} Record;

/* The note records of segment [start, end), at most max; 0 where they do not fill it. */
static size_t records(const unsigned char *image, size_t start, size_t end, Record *out, size_t max)
{
	size_t n = 0, at = start;

	while (at < end && n < max) {
		uint32_t namesz, descsz, type;

		if (end - at < 12)
			return 0;
		memcpy(&namesz, image + at, 4);
		memcpy(&descsz, image + at + 4, 4);
		memcpy(&type, image + at + 8, 4);
		if (padded(namesz) + padded(descsz) > end - at - 12)
			return 0;
		out[n].offset = at;
		out[n].size = 12 + padded(namesz) + padded(descsz);
		out[n].metadata = type == NT_AMDGPU_METADATA && namesz == 7 && memcmp(image + at + 12, "AMDGPU", 7) == 0;
		at += out[n++].size;
	}
	return at == end ? n : 0;
}

static const unsigned char *description(const unsigned char *image, const Record *r, uint32_t *size)
{
	memcpy(size, image + r->offset + 4, 4);
	return image + r->offset + 12 + padded(7);
}

int zc_merge_metadata_notes(ZcBytes *code_object, char **error)
{
	enum { MAX_RECORDS = 256 };
	unsigned char *image = code_object->data;
	size_t size = code_object->size, nrecords, nmeta = 0, merged_size, at;
	Elf64_Ehdr eh;
	Elf64_Phdr *note = NULL;
	Record *found;
	Metadata *meta;
	unsigned char *merged, *segment;

	if (size < sizeof eh)
		return backend_fail(error, "the linked code object is truncated");
	memcpy(&eh, image, sizeof eh);
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > size ||
	    (size - eh.e_phoff) / sizeof(Elf64_Phdr) < eh.e_phnum ||
	    (eh.e_shnum && (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
	                    (size - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum)))
		return backend_fail(error, "the linked code object's headers are out of bounds");
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(image + eh.e_phoff) + i;
		if (ph->p_type == PT_NOTE) {
			if (note || ph->p_offset > size || ph->p_filesz > size - ph->p_offset)
				return backend_fail(error, "the linked code object's notes are not one segment");
			note = ph;
		}
	}
	if (!note)
		return backend_fail(error, "the linked code object has no notes");
	found = zc_alloc(MAX_RECORDS * sizeof *found);
	nrecords = records(image, note->p_offset, note->p_offset + note->p_filesz, found, MAX_RECORDS);
	meta = zc_alloc((nrecords + 1) * sizeof *meta);
	for (size_t i = 0; i < nrecords; i++) {
		uint32_t length;
		const unsigned char *desc = found[i].metadata ? description(image, &found[i], &length) : NULL;

		if (desc && !read_metadata(desc, length, &meta[nmeta++])) {
			free(found);
			free(meta);
			return backend_fail(error, "the metadata note of a part is malformed");
		}
	}
	merged = nmeta > 1 ? merge(meta, nmeta, &merged_size) : NULL;
	free(meta);
	if (!merged) {
		free(found);
		return nmeta > 1 ? backend_fail(error, "the parts' metadata notes differ in more than their kernels")
		                 : 0;
	}
	/* the other notes as they were, then the merged one */
	segment = zc_alloc(note->p_filesz + 1);
	at = 0;
	for (size_t i = 0; i < nrecords; i++)
		if (!found[i].metadata) {
			memcpy(segment + at, image + found[i].offset, found[i].size);
			at += found[i].size;
		}
	free(found);
	if (at + 12 + padded(7) + padded(merged_size) > note->p_filesz || merged_size > UINT32_MAX) {
		free(segment);
		free(merged);
		return backend_fail(error, "the merged metadata note does not fit");
	}
	memcpy(segment + at, &(uint32_t){7}, 4);
	memcpy(segment + at + 4, &(uint32_t){(uint32_t)merged_size}, 4);
	memcpy(segment + at + 8, &(uint32_t){NT_AMDGPU_METADATA}, 4);
	memcpy(segment + at + 12, "AMDGPU\0\0", 8);
	memcpy(segment + at + 20, merged, merged_size);
	memset(segment + at + 20 + merged_size, 0, padded(merged_size) - merged_size);
	at += 20 + padded(merged_size);
	free(merged);
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr *sh = (Elf64_Shdr *)(image + eh.e_shoff) + i;
		if (sh->sh_type == SHT_NOTE && (sh->sh_offset != note->p_offset || sh->sh_size != note->p_filesz)) {
			free(segment);
			return backend_fail(error, "the linked code object's note sections are not its note segment");
		}
	}
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr *sh = (Elf64_Shdr *)(image + eh.e_shoff) + i;
		if (sh->sh_type == SHT_NOTE)
			sh->sh_size = at;
	}
	memset(image + note->p_offset, 0, note->p_filesz);
	memcpy(image + note->p_offset, segment, at);
	free(segment);
	note->p_filesz = note->p_memsz = at;
	return 0;
}
