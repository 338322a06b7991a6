/* Finding every fatbin in a binary: the sections nvcc names, a magic scan of all other data
 * (libraries keep fatbins for cuModuleLoadData in .rodata or .ldata), and the wrappers that
 * register them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"

typedef struct {
	const Binary *bin;
	FatbinSet *set;
	size_t container_cap, wrapper_cap, note_cap;
	Symbol **by_addr; /* symbols sorted by address */
} Discovery;

static bool name_is(const char *name, const char *elf_name, const char *pe_name)
{
	return strcmp(name, elf_name) == 0 || strcmp(name, pe_name) == 0;
}

static bool is_fatbin_section(const char *n) { return name_is(n, ".nv_fatbin", ".nv_fatb"); }
static bool is_relfatbin_section(const char *n) { return name_is(n, "__nv_relfatbin", "__nv_rel"); }
static bool is_wrapper_section(const char *n) { return name_is(n, ".nvFatBinSegment", ".nvFatBi"); }
static bool is_module_id_section(const char *n) { return name_is(n, "__nv_module_id", "__nv_mod"); }

const char *container_origin_name(ContainerOrigin o)
{
	switch (o) {
	case ORIGIN_FATBIN_SECTION: return "fatbin-section";
	case ORIGIN_RELFATBIN_SECTION: return "relfatbin-section";
	case ORIGIN_SCAN: return "scan";
	case ORIGIN_WHOLE_FILE: return "file";
	}
	return "?";
}

static void note(Discovery *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(Discovery *d, const char *fmt, ...)
{
	FatbinSet *set = d->set;
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (set->nnotes == d->note_cap) {
		d->note_cap = d->note_cap ? d->note_cap * 2 : 8;
		set->notes = zc_realloc(set->notes, d->note_cap * sizeof(char *));
	}
	set->notes[set->nnotes++] = zc_strndup(buf, strlen(buf));
}

static void add_container(Discovery *d, Container *c, const Section *s, ContainerOrigin origin)
{
	FatbinSet *set = d->set;

	c->section = s;
	c->origin = origin;
	c->addr = s ? s->addr + (c->offset - s->offset) : 0;
	if (set->ncontainers == d->container_cap) {
		d->container_cap = d->container_cap ? d->container_cap * 2 : 16;
		set->containers = zc_realloc(set->containers, d->container_cap * sizeof(Container));
	}
	set->containers[set->ncontainers++] = *c;
	for (size_t i = 0; i < c->nentries; i++)
		if (c->nskipped && c->entries[i].kind != ENTRY_PTX &&
		    c->entries[i].kind != ENTRY_CUBIN && c->entries[i].kind != ENTRY_LTOIR)
			note(d, "fatbin %zu entry %zu: unknown entry kind 0x%x skipped",
			     set->ncontainers - 1, i, c->entries[i].kind);
}

static bool all_zero(const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* A section that holds nothing but fatbins, back to back, possibly with zero padding. */
static bool walk_section(Discovery *d, const Section *s, ContainerOrigin origin, ZcError *err)
{
	const Binary *bin = d->bin;
	uint64_t at = s->offset, end = s->offset + s->size;

	while (at < end) {
		Container c;

		if (bin->bytes[at] == 0) { /* padding between fatbins */
			at++;
			continue;
		}
		if (!container_parse(bin, at, end, &c, err)) {
			char inner[sizeof(err->msg)];

			memcpy(inner, err->msg, sizeof(inner));
			return zc_fail(err, "section %s: %s", s->name, inner);
		}
		add_container(d, &c, s, origin);
		at += c.size;
	}
	return true;
}

/* Other data: fatbins start 8-aligned; a candidate must have a valid outer header and parse. */
static void scan_section(Discovery *d, const Section *s)
{
	const Binary *bin = d->bin;
	uint64_t at = s->offset + (8 - s->addr % 8) % 8, end = s->offset + s->size;

	while (at + FATBIN_HEADER_SIZE <= end) {
		Container c;
		ZcError err;

		if (read_le(bin->bytes + at, 4) != FATBIN_MAGIC || !container_looks_valid(bin, at, end)) {
			at += 8;
			continue;
		}
		if (!container_parse(bin, at, end, &c, &err)) {
			note(d, "section %s: fatbin-like data at 0x%llx ignored: %s", s->name,
			     (unsigned long long)at, err.msg);
			at += 8;
			continue;
		}
		add_container(d, &c, s, ORIGIN_SCAN);
		at += c.size;
	}
}

static int symbol_addr_cmp(const void *a, const void *b)
{
	const Symbol *x = *(Symbol *const *)a, *y = *(Symbol *const *)b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const char *symbol_at(const Discovery *d, uint64_t addr)
{
	size_t lo = 0, hi = d->bin->nsymbols;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->by_addr[mid]->addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Prefer the __fatbinwrap_ name when a static alias shares the address. */
	for (size_t i = lo; i < d->bin->nsymbols && d->by_addr[i]->addr == addr; i++)
		if (strncmp(d->by_addr[i]->name, "__fatbinwrap_", 13) == 0)
			return d->by_addr[i]->name;
	return lo < d->bin->nsymbols && d->by_addr[lo]->addr == addr ? d->by_addr[lo]->name : NULL;
}

static int container_at(const FatbinSet *set, uint64_t addr)
{
	for (size_t i = 0; i < set->ncontainers; i++)
		if (set->containers[i].section && set->containers[i].addr == addr)
			return (int)i;
	return -1;
}

/* A wrapper that points at a fatbin in data the walk and scan did not cover. */
static bool container_for_pointer(Discovery *d, uint64_t wrapper_addr, uint64_t data, int *index,
                                  ZcError *err)
{
	const Binary *bin = d->bin;
	const Section *s = binary_section_at(bin, data);
	uint64_t off;
	Container c;

	*index = container_at(d->set, data);
	if (*index >= 0)
		return true;
	if (!s || !binary_addr_to_offset(bin, data, FATBIN_HEADER_SIZE, &off))
		return zc_fail(err, "wrapper at 0x%llx points to 0x%llx, outside the file's data",
		               (unsigned long long)wrapper_addr, (unsigned long long)data);
	if (!container_parse(bin, off, s->offset + s->size, &c, err)) {
		char inner[sizeof(err->msg)];

		memcpy(inner, err->msg, sizeof(inner));
		return zc_fail(err, "wrapper at 0x%llx points into %s at 0x%llx: %s",
		               (unsigned long long)wrapper_addr, s->name, (unsigned long long)data,
		               inner);
	}
	add_container(d, &c, s, ORIGIN_SCAN);
	*index = (int)d->set->ncontainers - 1;
	return true;
}

static bool read_wrapper(Discovery *d, const Section *s, uint64_t off, ZcError *err)
{
	const Binary *bin = d->bin;
	FatbinSet *set = d->set;
	unsigned ps = (unsigned)bin->pointer_size;
	uint64_t addr = s->addr + (off - s->offset);
	Wrapper w = {.addr = addr, .offset = off, .container = -1};
	FixupKind prelinked_fixup;

	w.version = (uint32_t)read_le(bin->bytes + off + 4, 4);
	if (w.version != 1 && w.version != 2)
		return zc_fail(err, "wrapper at 0x%llx has unsupported version %u",
		               (unsigned long long)addr, w.version);
	if (!binary_read_pointer(bin, addr + 8, &w.data, &w.data_fixup, err) ||
	    !binary_read_pointer(bin, addr + 8 + ps, &w.prelinked, &prelinked_fixup, err))
		return false;
	if (w.data == 0) {
		note(d, "wrapper at 0x%llx has no data pointer (an unlinked object file?)",
		     (unsigned long long)addr);
	} else if (!container_for_pointer(d, addr, w.data, &w.container, err)) {
		return false;
	}
	if (d->by_addr) {
		const char *sym = symbol_at(d, addr);

		if (sym)
			w.symbol = zc_strndup(sym, strlen(sym));
	}
	w.rdc_member = (w.symbol && strncmp(w.symbol, "__fatbinwrap_", 13) == 0) ||
	               (w.container >= 0 &&
	                set->containers[w.container].origin == ORIGIN_RELFATBIN_SECTION);
	if (set->nwrappers == d->wrapper_cap) {
		d->wrapper_cap = d->wrapper_cap ? d->wrapper_cap * 2 : 16;
		set->wrappers = zc_realloc(set->wrappers, d->wrapper_cap * sizeof(Wrapper));
	}
	set->wrappers[set->nwrappers] = w;
	if (w.container >= 0 && set->containers[w.container].wrapper < 0)
		set->containers[w.container].wrapper = (int)set->nwrappers;
	set->nwrappers++;
	return true;
}

/* The wrapper is {int magic; int version; ptr data; ptr filename_or_fatbins}. */
static bool read_wrappers(Discovery *d, const Section *s, bool named, ZcError *err)
{
	const Binary *bin = d->bin;
	unsigned ps = (unsigned)bin->pointer_size, size = 8 + 2 * ps;

	for (uint64_t at = s->offset; at + size <= s->offset + s->size; at += named ? size : ps) {
		uint32_t magic = (uint32_t)read_le(bin->bytes + at, 4);

		if (magic == WRAPPER_MAGIC) {
			if (!read_wrapper(d, s, at, err))
				return false;
			if (!named)
				at += size - ps;
		} else if (named && !all_zero(bin->bytes + at, size)) {
			return zc_fail(err, "section %s: bad wrapper magic 0x%08x at 0x%llx (expected "
			               "0x%08x)", s->name, magic,
			               (unsigned long long)(s->addr + (at - s->offset)), WRAPPER_MAGIC);
		}
	}
	return true;
}

static void read_module_ids(Discovery *d, const Section *s)
{
	const char *p = (const char *)d->bin->bytes + s->offset, *end = p + s->size;
	FatbinSet *set = d->set;
	/* A binary may hold several module-id sections: the ids of earlier ones fill the array. */
	size_t cap = set->nmodule_ids;

	while (p < end) {
		size_t len = strnlen(p, (size_t)(end - p));

		if (len > 4 && strncmp(p, "def ", 4) == 0) {
			if (set->nmodule_ids == cap) {
				cap = cap ? cap * 2 : 8;
				set->module_ids = zc_realloc(set->module_ids, cap * sizeof(char *));
			}
			set->module_ids[set->nmodule_ids++] = zc_strndup(p + 4, len - 4);
		}
		p += len + 1;
	}
}

static bool discover_sections(Discovery *d, ZcError *err)
{
	const Binary *bin = d->bin;
	bool have_wrapper_section = false;

	for (size_t i = 0; i < bin->nsections; i++) {
		const Section *s = &bin->sections[i];

		if (is_fatbin_section(s->name) && !(s->flags & SEC_NOBITS)) {
			if (!walk_section(d, s, ORIGIN_FATBIN_SECTION, err))
				return false;
		} else if (is_relfatbin_section(s->name) && !(s->flags & SEC_NOBITS)) {
			if (!walk_section(d, s, ORIGIN_RELFATBIN_SECTION, err))
				return false;
		}
	}
	for (size_t i = 0; i < bin->nsections; i++) {
		const Section *s = &bin->sections[i];

		if (is_wrapper_section(s->name))
			have_wrapper_section = true;
		else if (is_module_id_section(s->name) && !(s->flags & SEC_NOBITS))
			read_module_ids(d, s);
		else if ((s->flags & SEC_ALLOC) && !(s->flags & (SEC_EXEC | SEC_NOBITS)) &&
		         !is_fatbin_section(s->name) && !is_relfatbin_section(s->name))
			scan_section(d, s);
	}
	/* Wrappers last: they may point at containers found by either pass. Without the named
	 * section (stripped section headers are rare but legal) scan writable data instead.
	 * Sections without file bytes are skipped: a PE section without raw data keeps its
	 * memory size, which no file data backs. */
	for (size_t i = 0; i < bin->nsections; i++) {
		const Section *s = &bin->sections[i];
		bool named = is_wrapper_section(s->name);

		if (s->flags & SEC_NOBITS)
			continue;
		if ((named || (!have_wrapper_section && (s->flags & SEC_WRITE))) &&
		    !read_wrappers(d, s, named, err))
			return false;
	}
	return true;
}

static bool discover_raw(Discovery *d, ZcError *err)
{
	uint64_t at = 0;

	while (at < d->bin->size) {
		Container c;

		if (d->bin->size - at < FATBIN_HEADER_SIZE && all_zero(d->bin->bytes + at, d->bin->size - at))
			break;
		if (!container_parse(d->bin, at, d->bin->size, &c, err))
			return false;
		add_container(d, &c, NULL, ORIGIN_WHOLE_FILE);
		at += c.size;
	}
	return true;
}

bool fatbin_discover(const Binary *bin, FatbinSet *set, ZcError *err)
{
	Discovery d = {.bin = bin, .set = set};
	bool ok;

	memset(set, 0, sizeof(*set));
	if (bin->nsymbols) {
		d.by_addr = zc_alloc(bin->nsymbols * sizeof(Symbol *));
		for (size_t i = 0; i < bin->nsymbols; i++)
			d.by_addr[i] = &bin->symbols[i];
		qsort(d.by_addr, bin->nsymbols, sizeof(Symbol *), symbol_addr_cmp);
	}
	if (bin->format == BIN_PTX)
		ok = true; /* a PTX file holds no fatbin */
	else
		ok = bin->format == BIN_RAW_FATBIN ? discover_raw(&d, err) : discover_sections(&d, err);
	free(d.by_addr);
	if (!ok)
		fatbin_set_free(set);
	return ok;
}

void fatbin_set_free(FatbinSet *set)
{
	for (size_t i = 0; i < set->ncontainers; i++)
		container_free(&set->containers[i]);
	for (size_t i = 0; i < set->nwrappers; i++)
		free(set->wrappers[i].symbol);
	for (size_t i = 0; i < set->nmodule_ids; i++)
		free(set->module_ids[i]);
	for (size_t i = 0; i < set->nnotes; i++)
		free(set->notes[i]);
	free(set->containers);
	free(set->wrappers);
	free(set->module_ids);
	free(set->notes);
	memset(set, 0, sizeof(*set));
}
