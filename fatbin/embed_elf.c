/* Embedding an AOT image into a 64-bit little-endian ELF file. Everything new is appended; of
 * the original bytes only the ELF header changes (e_phoff, e_phnum, e_shoff, e_shnum,
 * e_shstrndx). Appended, in file order:
 *
 *   .zluda_orig   the original file size and ELF header: converting again starts from them
 *   .zluda_aot    the image (not loaded)
 *   a PT_LOAD     when the loader must learn $ORIGIN: the program header table (one entry
 *                 longer), .dynstr with the new search path appended, .dynamic with
 *                 DT_RPATH/DT_RUNPATH and DT_STRTAB/DT_STRSZ pointing at them
 *   .shstrtab     the original names and the new sections' names
 *   the section header table
 *
 * The search path follows design decision 8: DT_RPATH=$ORIGIN, or $ORIGIN put first in an
 * existing DT_RPATH, unless it already holds $ORIGIN; an existing DT_RUNPATH becomes a
 * DT_RPATH (with $ORIGIN first), since shared cudart's dlopen never sees a RUNPATH. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "embed.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "embed_elf.c copies ELF structures as they are in memory: little-endian hosts only"
#endif

typedef struct {
	const uint8_t *file;
	uint64_t size;
	Elf64_Ehdr eh;
	Elf64_Phdr *ph;
	size_t phnum;
	Elf64_Shdr *sh;
	size_t shnum, shstrndx; /* shstrndx 0: the file has no section name table */
} ElfFile;

typedef struct {
	const Elf64_Phdr *dynamic; /* NULL: not dynamically linked, nothing to add */
	uint64_t strtab_offset, strsz;
	size_t ndyn;
	int path_tag;              /* DT_RPATH or DT_RUNPATH to write, 0 for none */
	size_t path_entry;         /* index of the existing entry to rewrite, or ndyn to add one */
	char *path;                /* the new search path */
} DynamicPlan;

static bool in_file(const ElfFile *f, uint64_t offset, uint64_t len)
{
	return offset <= f->size && len <= f->size - offset;
}

static void elf_free(ElfFile *f)
{
	free(f->ph);
	free(f->sh);
}

static bool elf_parse(ElfFile *f, const uint8_t *file, uint64_t size, ZcError *err)
{
	memset(f, 0, sizeof(*f));
	f->file = file;
	f->size = size;
	if (size < sizeof(Elf64_Ehdr) || memcmp(file, ELFMAG, SELFMAG) != 0)
		return zc_fail(err, "not an ELF file");
	if (file[EI_CLASS] != ELFCLASS64 || file[EI_DATA] != ELFDATA2LSB)
		return zc_fail(err, "embedding supports 64-bit little-endian ELF files only");
	memcpy(&f->eh, file, sizeof(f->eh));
	f->phnum = f->eh.e_phnum;
	if (f->phnum && (f->eh.e_phentsize != sizeof(Elf64_Phdr) || f->phnum == PN_XNUM ||
	                 !in_file(f, f->eh.e_phoff, f->phnum * sizeof(Elf64_Phdr))))
		return zc_fail(err, "ELF program header table is malformed or outside the file");
	f->ph = zc_alloc((f->phnum + 1) * sizeof(Elf64_Phdr));
	memcpy(f->ph, file + f->eh.e_phoff, f->phnum * sizeof(Elf64_Phdr));
	if (f->eh.e_shoff == 0)
		return true;
	f->shnum = f->eh.e_shnum;
	f->shstrndx = f->eh.e_shstrndx;
	if (f->eh.e_shentsize != sizeof(Elf64_Shdr) || !in_file(f, f->eh.e_shoff, sizeof(Elf64_Shdr)))
		return zc_fail(err, "ELF section header table is malformed or outside the file");
	if (f->shnum == 0 || f->shstrndx == SHN_XINDEX) {
		Elf64_Shdr first;

		memcpy(&first, file + f->eh.e_shoff, sizeof(first));
		if (f->shnum == 0)
			f->shnum = first.sh_size;
		if (f->shstrndx == SHN_XINDEX)
			f->shstrndx = first.sh_link;
	}
	if (f->shnum > (size - f->eh.e_shoff) / sizeof(Elf64_Shdr))
		return zc_fail(err, "ELF section header table extends past the end of the file");
	f->sh = zc_alloc(f->shnum * sizeof(Elf64_Shdr));
	memcpy(f->sh, file + f->eh.e_shoff, f->shnum * sizeof(Elf64_Shdr));
	if (f->shstrndx >= f->shnum)
		f->shstrndx = 0;
	if (f->shstrndx && (f->sh[f->shstrndx].sh_type != SHT_STRTAB ||
	                    f->sh[f->shstrndx].sh_size > UINT32_MAX / 2 ||
	                    !in_file(f, f->sh[f->shstrndx].sh_offset, f->sh[f->shstrndx].sh_size)))
		return zc_fail(err, "ELF section name table is malformed or outside the file");
	return true;
}

/* The name of section i, or "" when it has none that can be read. */
static const char *section_name(const ElfFile *f, size_t i)
{
	const Elf64_Shdr *names = &f->sh[f->shstrndx];
	const char *s = (const char *)f->file + names->sh_offset;

	if (!f->shstrndx || f->sh[i].sh_name >= names->sh_size ||
	    !memchr(s + f->sh[i].sh_name, 0, names->sh_size - f->sh[i].sh_name))
		return "";
	return s + f->sh[i].sh_name;
}

static const Elf64_Shdr *find_section(const ElfFile *f, const char *name)
{
	for (size_t i = 1; i < f->shnum; i++)
		if (strcmp(section_name(f, i), name) == 0)
			return &f->sh[i];
	return NULL;
}

/* A converted file is its original bytes, with the original ELF header, up to the size that
 * .zluda_orig records; *restored is NULL for a file that was never converted. */
static bool original_bytes(const ElfFile *f, uint8_t **restored, uint64_t *size, ZcError *err)
{
	const Elf64_Shdr *rec = find_section(f, ELF_ORIGINAL_SECTION);
	const uint8_t *r;

	*restored = NULL;
	if (!rec) {
		if (find_section(f, ELF_AOT_SECTION))
			return zc_fail(err, "has a %s section but no %s record of its original layout",
			               ELF_AOT_SECTION, ELF_ORIGINAL_SECTION);
		return true;
	}
	r = f->file + rec->sh_offset;
	if (rec->sh_size != ELF_ORIGINAL_RECORD || !in_file(f, rec->sh_offset, rec->sh_size) ||
	    memcmp(r, ELF_ORIGINAL_MAGIC, 8) != 0)
		return zc_fail(err, "%s section is not a record of the original layout",
		               ELF_ORIGINAL_SECTION);
	memcpy(size, r + 8, 8);
	/* a tool that rewrote the file (strip, objcopy) moved the record; the original bytes
	 * are then no longer the file's first ones */
	if (*size < sizeof(Elf64_Ehdr) || *size > rec->sh_offset ||
	    rec->sh_offset != align_up(*size, 8))
		return zc_fail(err, "was rewritten by another tool after it was converted (its %s "
		               "section moved): convert the original binary instead",
		               ELF_ORIGINAL_SECTION);
	*restored = zc_alloc(*size);
	memcpy(*restored, f->file, *size);
	memcpy(*restored, r + 16, sizeof(Elf64_Ehdr));
	return true;
}

/* ---- the dynamic section -------------------------------------------------------------- */

static bool vaddr_to_offset(const ElfFile *f, uint64_t addr, uint64_t len, uint64_t *offset)
{
	for (size_t i = 0; i < f->phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];

		if (p->p_type == PT_LOAD && addr >= p->p_vaddr && addr - p->p_vaddr <= p->p_filesz &&
		    len <= p->p_filesz - (addr - p->p_vaddr)) {
			*offset = p->p_offset + (addr - p->p_vaddr);
			return in_file(f, *offset, len);
		}
	}
	return false;
}

static Elf64_Dyn dyn_at(const ElfFile *f, const DynamicPlan *d, size_t i)
{
	Elf64_Dyn e;

	memcpy(&e, f->file + d->dynamic->p_offset + i * sizeof(e), sizeof(e));
	return e;
}

/* True if a search path has an entry that is exactly the object's own directory. */
static bool path_has_origin(const char *path)
{
	static const char *const spellings[] = {"$ORIGIN", "$ORIGIN/", "${ORIGIN}", "${ORIGIN}/"};

	for (const char *p = path;; p++) {
		size_t len = strcspn(p, ":");

		for (size_t i = 0; i < sizeof(spellings) / sizeof(*spellings); i++)
			if (len == strlen(spellings[i]) && memcmp(p, spellings[i], len) == 0)
				return true;
		p += len;
		if (!*p)
			return false;
	}
}

static bool plan_dynamic(const ElfFile *f, DynamicPlan *d, ZcError *err)
{
	uint64_t strtab = 0;
	size_t rpath = SIZE_MAX, runpath = SIZE_MAX, null = SIZE_MAX;
	const char *old = NULL;
	size_t chosen;

	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < f->phnum; i++)
		if (f->ph[i].p_type == PT_DYNAMIC)
			d->dynamic = &f->ph[i];
	if (!d->dynamic)
		return true;
	if (!in_file(f, d->dynamic->p_offset, d->dynamic->p_filesz))
		return zc_fail(err, "ELF dynamic segment is outside the file");
	d->ndyn = d->dynamic->p_filesz / sizeof(Elf64_Dyn);
	for (size_t i = 0; i < d->ndyn && null == SIZE_MAX; i++) {
		Elf64_Dyn e = dyn_at(f, d, i);

		switch (e.d_tag) {
		case DT_NULL: null = i; break;
		case DT_STRTAB: strtab = e.d_un.d_ptr; break;
		case DT_STRSZ: d->strsz = e.d_un.d_val; break;
		case DT_RPATH: rpath = i; break;
		case DT_RUNPATH: runpath = i; break;
		}
	}
	if (null == SIZE_MAX || !strtab || !vaddr_to_offset(f, strtab, d->strsz, &d->strtab_offset) ||
	    d->strsz == 0 || f->file[d->strtab_offset + d->strsz - 1] != 0)
		return zc_fail(err, "ELF dynamic section has no DT_NULL or no usable string table");
	/* glibc ignores DT_RPATH when DT_RUNPATH is present */
	chosen = runpath != SIZE_MAX ? runpath : rpath;
	if (chosen != SIZE_MAX) {
		uint64_t at = dyn_at(f, d, chosen).d_un.d_val;

		if (at >= d->strsz)
			return zc_fail(err, "ELF search path string is outside the dynamic string table");
		old = (const char *)f->file + d->strtab_offset + at;
		if (path_has_origin(old) && chosen == rpath) {
			d->dynamic = NULL; /* already found beside the binary: change nothing */
			return true;
		}
	}
	/* Always DT_RPATH: a shared libcudart's dlopen("libcuda.so.1") searches the
	 * executable's DT_RPATH but never its DT_RUNPATH (design decision 8), so a RUNPATH
	 * becomes an RPATH with the same directories, $ORIGIN first. */
	d->path_tag = DT_RPATH;
	d->path_entry = chosen == SIZE_MAX ? null : chosen;
	if (old && path_has_origin(old)) {
		d->path = zc_strndup(old, strlen(old));
	} else if (old && *old) {
		d->path = zc_alloc(strlen(old) + sizeof("$ORIGIN:"));
		strcpy(d->path, "$ORIGIN:");
		strcat(d->path, old);
	} else {
		d->path = zc_strndup("$ORIGIN", 7);
	}
	return true;
}

/* ---- layout and writing --------------------------------------------------------------- */

typedef struct {
	uint64_t record, image, segment, shstrtab, shdrs, end;
	uint64_t segment_vaddr, segment_align, segment_size;
	uint64_t phdrs_size, dynstr, dynstr_size, dyn, dyn_size;
	uint64_t names_size;
	size_t new_shnum, new_phnum;
	bool new_shstrtab;
} Layout;

/* The end of the highest segment's memory, the largest segment alignment, and the first
 * segment's address minus offset (when that is not negative). */
static uint64_t segments_end(const ElfFile *f, uint64_t *align, uint64_t *base_delta,
                             bool *delta_ok)
{
	uint64_t end = 0, lowest = UINT64_MAX;

	*align = 0x1000;
	*delta_ok = false;
	for (size_t i = 0; i < f->phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];

		if (p->p_type != PT_LOAD)
			continue;
		if (p->p_vaddr + p->p_memsz > end)
			end = p->p_vaddr + p->p_memsz;
		if (p->p_align > *align && (p->p_align & (p->p_align - 1)) == 0)
			*align = p->p_align;
		if (p->p_vaddr < lowest) {
			lowest = p->p_vaddr;
			*delta_ok = p->p_vaddr >= p->p_offset;
			*base_delta = p->p_vaddr - p->p_offset;
		}
	}
	return end;
}

/* The new segment's file offset and address. Its address minus its offset is kept equal to the
 * first segment's (when that is aligned), because kernels before Linux 5.18 tell the program
 * where its program headers are as "first segment's load address + e_phoff". That can mean
 * padding the file up to the end of the last segment's memory (a large .bss); beyond
 * MAX_PADDING the segment goes right after the file instead, for newer kernels only. */
static bool place_segment(const ElfFile *f, Layout *l, uint64_t after, ZcError *err)
{
	enum { MAX_ALIGN = 1 << 24, MAX_PADDING = 64 << 20 };
	uint64_t align, delta = 0, free_vaddr;
	bool delta_ok;
	uint64_t end = segments_end(f, &align, &delta, &delta_ok);

	if (align > MAX_ALIGN || end > UINT64_MAX / 4)
		return zc_fail(err, "ELF segments are too large or too aligned to add one after them");
	l->segment_align = align;
	l->segment = align_up(after, align);
	free_vaddr = align_up(end, align);
	if (delta_ok && delta % align == 0) {
		if (l->segment + delta < free_vaddr && free_vaddr - delta - l->segment <= MAX_PADDING)
			l->segment = free_vaddr - delta;
		if (l->segment + delta >= free_vaddr) {
			l->segment_vaddr = l->segment + delta;
			return true;
		}
	}
	l->segment_vaddr = free_vaddr; /* both aligned: offset and address agree modulo align */
	return true;
}

static bool plan_layout(const ElfFile *f, const DynamicPlan *d, uint64_t image_size, Layout *l,
                        ZcError *err)
{
	uint64_t at;

	memset(l, 0, sizeof(*l));
	l->new_shstrtab = f->shstrndx == 0;
	l->new_shnum = (f->shnum ? f->shnum : 1) + 2 + l->new_shstrtab;
	l->new_phnum = f->phnum + (d->dynamic ? 1 : 0);
	l->record = align_up(f->size, 8);
	l->image = align_up(l->record + ELF_ORIGINAL_RECORD, AOT_ALIGN_IN_FILE);
	at = l->image + image_size;
	if (d->dynamic) {
		l->phdrs_size = l->new_phnum * sizeof(Elf64_Phdr);
		l->dynstr_size = d->strsz + strlen(d->path) + 1;
		l->dyn_size = (d->ndyn + (d->path_entry == d->ndyn ? 1 : 0)) * sizeof(Elf64_Dyn);
		if (!place_segment(f, l, at, err))
			return false;
		l->dynstr = l->phdrs_size;
		l->dyn = align_up(l->dynstr + l->dynstr_size, 8);
		l->segment_size = l->dyn + l->dyn_size;
		at = l->segment + l->segment_size;
	}
	l->shstrtab = at;
	l->names_size = (f->shstrndx ? f->sh[f->shstrndx].sh_size : 1) + 1 +
	                sizeof(ELF_AOT_SECTION) + sizeof(ELF_ORIGINAL_SECTION) +
	                (l->new_shstrtab ? sizeof(".shstrtab") : 0);
	l->shdrs = align_up(l->shstrtab + l->names_size, 8);
	l->end = l->shdrs + l->new_shnum * sizeof(Elf64_Shdr);
	return true;
}

/* .dynamic copy: every entry, DT_STRTAB/DT_STRSZ repointed, the search path entry rewritten,
 * or inserted before the first DT_NULL. */
static void write_dynamic(const ElfFile *f, const DynamicPlan *d, const Layout *l, uint8_t *seg)
{
	uint8_t *out = seg + l->dyn;
	uint64_t path_offset = d->strsz;
	size_t j = 0;

	memcpy(seg + l->dynstr, f->file + d->strtab_offset, d->strsz);
	memcpy(seg + l->dynstr + d->strsz, d->path, strlen(d->path) + 1);
	for (size_t i = 0; i < d->ndyn; i++) {
		Elf64_Dyn e = dyn_at(f, d, i);

		if (i == d->path_entry) {
			Elf64_Dyn path = {.d_tag = d->path_tag, .d_un.d_val = path_offset};

			memcpy(out + j++ * sizeof(path), &path, sizeof(path));
			if (e.d_tag != DT_NULL)
				continue; /* rewritten in place; an added entry goes before the DT_NULL */
		}
		if (e.d_tag == DT_STRTAB)
			e.d_un.d_ptr = l->segment_vaddr + l->dynstr;
		else if (e.d_tag == DT_STRSZ)
			e.d_un.d_val = l->dynstr_size;
		memcpy(out + j++ * sizeof(e), &e, sizeof(e));
	}
}

/* The program header table: the new PT_LOAD after the last PT_LOAD (they stay sorted by
 * address), PT_PHDR and PT_DYNAMIC pointing into it. */
static void write_phdrs(const ElfFile *f, const DynamicPlan *d, const Layout *l, uint8_t *seg)
{
	size_t last_load = 0, j = 0;
	Elf64_Phdr load = {
		.p_type = PT_LOAD,
		.p_flags = PF_R | (d->dynamic->p_flags & PF_W), /* glibc writes into a writable .dynamic */
		.p_offset = l->segment,
		.p_vaddr = l->segment_vaddr,
		.p_paddr = l->segment_vaddr,
		.p_filesz = l->segment_size,
		.p_memsz = l->segment_size,
		.p_align = l->segment_align,
	};

	for (size_t i = 0; i < f->phnum; i++)
		if (f->ph[i].p_type == PT_LOAD)
			last_load = i;
	for (size_t i = 0; i < f->phnum; i++) {
		Elf64_Phdr p = f->ph[i];

		if (p.p_type == PT_PHDR) {
			p.p_offset = l->segment;
			p.p_vaddr = p.p_paddr = l->segment_vaddr;
			p.p_filesz = p.p_memsz = l->phdrs_size;
		} else if (p.p_type == PT_DYNAMIC) {
			p.p_offset = l->segment + l->dyn;
			p.p_vaddr = p.p_paddr = l->segment_vaddr + l->dyn;
			p.p_filesz = p.p_memsz = l->dyn_size;
		}
		memcpy(seg + j++ * sizeof(p), &p, sizeof(p));
		if (i == last_load)
			memcpy(seg + j++ * sizeof(load), &load, sizeof(load));
	}
}

static Elf64_Shdr new_section(uint32_t name, uint64_t offset, uint64_t size, uint64_t align,
                              uint32_t type)
{
	return (Elf64_Shdr){.sh_name = name, .sh_type = type, .sh_offset = offset, .sh_size = size,
	                    .sh_addralign = align};
}

static void write_sections(const ElfFile *f, const DynamicPlan *d, const Layout *l,
                           uint64_t image_size, uint8_t *out)
{
	Elf64_Shdr *sh = (Elf64_Shdr *)(out + l->shdrs); /* shdrs is 8-aligned in a malloc'd buffer */
	uint64_t names_base = f->shstrndx ? f->sh[f->shstrndx].sh_size : 1;
	uint32_t aot_name = (uint32_t)names_base + 1; /* after a NUL ending any unterminated name */
	uint32_t orig_name = aot_name + sizeof(ELF_AOT_SECTION);
	size_t n = f->shnum ? f->shnum : 1, names_index = f->shstrndx;

	if (f->shstrndx)
		memcpy(out + l->shstrtab, f->file + f->sh[f->shstrndx].sh_offset, names_base);
	memcpy(out + l->shstrtab + aot_name, ELF_AOT_SECTION, sizeof(ELF_AOT_SECTION));
	memcpy(out + l->shstrtab + orig_name, ELF_ORIGINAL_SECTION, sizeof(ELF_ORIGINAL_SECTION));
	if (f->shnum)
		memcpy(sh, f->sh, f->shnum * sizeof(Elf64_Shdr));
	for (size_t i = 1; d->dynamic && i < f->shnum; i++) {
		if (sh[i].sh_type == SHT_DYNAMIC) {
			sh[i].sh_offset = l->segment + l->dyn;
			sh[i].sh_addr = l->segment_vaddr + l->dyn;
			sh[i].sh_size = l->dyn_size;
		} else if (sh[i].sh_type == SHT_STRTAB && (sh[i].sh_flags & SHF_ALLOC) &&
		           sh[i].sh_offset == d->strtab_offset) {
			sh[i].sh_offset = l->segment + l->dynstr;
			sh[i].sh_addr = l->segment_vaddr + l->dynstr;
			sh[i].sh_size = l->dynstr_size;
		}
	}
	sh[n++] = new_section(orig_name, l->record, ELF_ORIGINAL_RECORD, 8, SHT_PROGBITS);
	sh[n++] = new_section(aot_name, l->image, image_size, AOT_ALIGN_IN_FILE, SHT_PROGBITS);
	/* names the original table did not hold must not become the new ones */
	for (size_t i = 0; i < f->shnum; i++)
		if (sh[i].sh_name >= names_base)
			sh[i].sh_name = 0;
	if (l->new_shstrtab) {
		names_index = n;
		memcpy(out + l->shstrtab + orig_name + sizeof(ELF_ORIGINAL_SECTION), ".shstrtab",
		       sizeof(".shstrtab"));
		sh[n++] = new_section(orig_name + sizeof(ELF_ORIGINAL_SECTION), 0, 0, 1, SHT_STRTAB);
	}
	sh[names_index].sh_offset = l->shstrtab;
	sh[names_index].sh_size = l->names_size;

	Elf64_Ehdr eh = f->eh;

	eh.e_shoff = l->shdrs;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	/* extended numbering (the ELF spec's): counts that do not fit go into section 0 */
	eh.e_shnum = n < SHN_LORESERVE ? (uint16_t)n : 0;
	sh[0].sh_size = n < SHN_LORESERVE ? 0 : n;
	eh.e_shstrndx = names_index < SHN_LORESERVE ? (uint16_t)names_index : SHN_XINDEX;
	sh[0].sh_link = names_index < SHN_LORESERVE ? 0 : (uint32_t)names_index;
	if (d->dynamic) {
		eh.e_phoff = l->segment;
		eh.e_phnum = (uint16_t)l->new_phnum;
	}
	memcpy(out, &eh, sizeof(eh));
}

static bool embed_original(const ElfFile *f, const uint8_t *image, uint64_t image_size,
                           ByteBuffer *out, ZcError *err)
{
	DynamicPlan d;
	Layout l;
	uint8_t *bytes;

	if (!plan_dynamic(f, &d, err))
		return false;
	if (d.dynamic && f->phnum + 1 >= PN_XNUM) {
		free(d.path);
		return zc_fail(err, "ELF file has too many program headers to add one");
	}
	if (!plan_layout(f, &d, image_size, &l, err)) {
		free(d.path);
		return false;
	}
	bytes = zc_alloc(l.end); /* zeroed: padding between the parts is zero */
	memcpy(bytes, f->file, f->size);
	memcpy(bytes + l.record, ELF_ORIGINAL_MAGIC, 8);
	memcpy(bytes + l.record + 8, &f->size, 8);
	memcpy(bytes + l.record + 16, &f->eh, sizeof(f->eh));
	memcpy(bytes + l.image, image, image_size);
	if (d.dynamic) {
		write_phdrs(f, &d, &l, bytes + l.segment);
		write_dynamic(f, &d, &l, bytes + l.segment);
	}
	write_sections(f, &d, &l, image_size, bytes);
	free(d.path);
	out->bytes = bytes;
	out->size = l.end;
	return true;
}

bool elf_embed(const uint8_t *file, uint64_t size, const uint8_t *image, uint64_t image_size,
               ByteBuffer *out, ZcError *err)
{
	ElfFile f, original;
	uint8_t *restored;
	uint64_t restored_size;
	bool ok;

	if (!elf_parse(&f, file, size, err) || !original_bytes(&f, &restored, &restored_size, err)) {
		elf_free(&f);
		return false;
	}
	if (!restored) {
		ok = embed_original(&f, image, image_size, out, err);
		elf_free(&f);
		return ok;
	}
	elf_free(&f);
	ok = elf_parse(&original, restored, restored_size, err);
	if (ok && (find_section(&original, ELF_AOT_SECTION) ||
	           find_section(&original, ELF_ORIGINAL_SECTION)))
		ok = zc_fail(err, "the original layout recorded in %s holds an AOT image itself",
		             ELF_ORIGINAL_SECTION);
	ok = ok && embed_original(&original, image, image_size, out, err);
	elf_free(&original);
	free(restored);
	return ok;
}
