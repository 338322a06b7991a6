/* Loading a code object: the ELF's segments copied into device memory, its dynamic
 * relocations applied, its symbols, kernel descriptors and metadata read, its code decoded.
 * The image is untrusted: every offset and size is checked against the image. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "emu.h"
#include "metadata.h"

#define EM_AMDGPU_ 224
#define R_AMDGPU_ABS32_LO 1
#define R_AMDGPU_ABS32_HI 2
#define R_AMDGPU_ABS64 3
#define R_AMDGPU_ABS32 6
#define R_AMDGPU_RELATIVE64 13
#define NT_AMDGPU_METADATA 32

static const struct {
	const char *name;
	unsigned mach;
	int generation;
} processors[] = {
	{"gfx1030", 0x36, 10}, {"gfx1031", 0x37, 10}, {"gfx1032", 0x38, 10},
	{"gfx1033", 0x39, 10}, {"gfx1034", 0x3e, 10}, {"gfx1035", 0x3d, 10},
	{"gfx1036", 0x45, 10}, {"gfx1100", 0x41, 11}, {"gfx1101", 0x46, 11},
	{"gfx1102", 0x47, 11}, {"gfx1103", 0x44, 11}, {"gfx1150", 0x43, 11},
	{"gfx1151", 0x4a, 11}, {"gfx1152", 0x55, 11}, {"gfx1153", 0x58, 11},
	{"gfx1200", 0x48, 12}, {"gfx1201", 0x4e, 12},
};
/* Generic code objects run on every processor of their generation. */
static const struct {
	unsigned mach;
	int generation;
	const char *name;
} generics[] = {{0x53, 10, "gfx10-3-generic"}, {0x54, 11, "gfx11-generic"}, {0x59, 12, "gfx12-generic"}};

static int find_processor(const char *processor)
{
	size_t n = strcspn(processor, ":");
	for (size_t i = 0; i < sizeof processors / sizeof processors[0]; i++)
		if (strlen(processors[i].name) == n && strncmp(processors[i].name, processor, n) == 0)
			return (int)i;
	return -1;
}

int zc_emu_generation(const char *processor)
{
	int i = processor ? find_processor(processor) : -1;
	return i < 0 ? 0 : processors[i].generation;
}

static enum zc_emu_status bad(char *error, const char *what)
{
	snprintf(error, ZC_EMU_ERROR_SIZE, "invalid code object: %s", what);
	return ZC_EMU_INVALID_IMAGE;
}

static bool in_image(size_t size, uint64_t offset, uint64_t length)
{
	return offset <= size && length <= size - offset;
}

/* A table of ELF structures read in place: inside the image and at an offset they can be
 * read from (zc_emu_load gives the image itself that alignment). */
static bool table_in_image(size_t size, uint64_t offset, uint64_t length)
{
	return in_image(size, offset, length) && offset % 8 == 0;
}

static const char *mach_name(unsigned mach)
{
	for (size_t i = 0; i < sizeof processors / sizeof processors[0]; i++)
		if (processors[i].mach == mach)
			return processors[i].name;
	for (size_t i = 0; i < sizeof generics / sizeof generics[0]; i++)
		if (generics[i].mach == mach)
			return generics[i].name;
	return NULL;
}

static enum zc_emu_status check_header(const uint8_t *image, size_t size, const char *processor,
                                       int *generation, char *error)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	int p = find_processor(processor);

	if (p < 0) {
		snprintf(error, ZC_EMU_ERROR_SIZE, "processor %s is not emulated", processor);
		return ZC_EMU_INVALID_VALUE;
	}
	if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
		return bad(error, "not an ELF file");
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_machine != EM_AMDGPU_)
		return bad(error, "not an AMDGPU ELF");
	unsigned mach = eh->e_flags & 0xff;
	const char *name = mach_name(mach);
	bool generic_match = false;
	for (size_t i = 0; i < sizeof generics / sizeof generics[0]; i++)
		if (generics[i].mach == mach && generics[i].generation == processors[p].generation)
			generic_match = true;
	if (mach != processors[p].mach && !generic_match) {
		snprintf(error, ZC_EMU_ERROR_SIZE, "the code object is for %s, not %s",
		         name ? name : "an unknown processor", processor);
		return ZC_EMU_WRONG_PROCESSOR;
	}
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || !table_in_image(size, eh->e_phoff,
	    (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)))
		return bad(error, "program headers outside the file or misaligned");
	if (eh->e_shnum && (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !table_in_image(size, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr))))
		return bad(error, "section headers outside the file or misaligned");
	*generation = processors[p].generation;
	return ZC_EMU_OK;
}

static enum zc_emu_status load_segments(struct zc_emu_object *o, const uint8_t *image,
                                        size_t size, char *error)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(image + eh->e_phoff);
	uint64_t top = 0;

	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_filesz > ph[i].p_memsz || !in_image(size, ph[i].p_offset, ph[i].p_filesz) ||
		    ph[i].p_vaddr > (1ull << 32) || ph[i].p_memsz > (1ull << 32))
			return bad(error, "a segment outside the file or too large");
		if (ph[i].p_vaddr + ph[i].p_memsz > top)
			top = ph[i].p_vaddr + ph[i].p_memsz;
	}
	if (top == 0)
		return bad(error, "no loadable segment");
	o->memory_size = (top + 4095) & ~4095ull;
	/* zeroed pages as they are touched: a large __device__ array costs what it uses */
	o->memory = mmap(NULL, o->memory_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	                 -1, 0);
	if (o->memory == MAP_FAILED) {
		o->memory = NULL;
		snprintf(error, ZC_EMU_ERROR_SIZE, "out of memory loading a code object");
		return ZC_EMU_INVALID_VALUE;
	}
	for (unsigned i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD)
			memcpy(o->memory + ph[i].p_vaddr, image + ph[i].p_offset, ph[i].p_filesz);
	zc_emu_map(o->memory, o->memory_size);
	return ZC_EMU_OK;
}

static const Elf64_Shdr *section(const uint8_t *image, unsigned i)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	return i < eh->e_shnum ? (const Elf64_Shdr *)(image + eh->e_shoff) + i : NULL;
}

/* Symbols: .symtab where the object keeps one (local functions, for messages), else the
 * dynamic symbols. */
static enum zc_emu_status read_symbols(struct zc_emu_object *o, const uint8_t *image, size_t size,
                                       char *error)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	const Elf64_Shdr *table = NULL;

	for (unsigned i = 0; i < eh->e_shnum; i++)
		if (section(image, i)->sh_type == SHT_SYMTAB ||
		    (!table && section(image, i)->sh_type == SHT_DYNSYM))
			table = section(image, i);
	if (!table)
		return bad(error, "no symbol table");
	const Elf64_Shdr *strings = section(image, table->sh_link);
	if (!strings || !table_in_image(size, table->sh_offset, table->sh_size) ||
	    !in_image(size, strings->sh_offset, strings->sh_size) ||
	    table->sh_entsize != sizeof(Elf64_Sym))
		return bad(error, "symbol table outside the file or misaligned");
	size_t n = table->sh_size / sizeof(Elf64_Sym);
	const Elf64_Sym *sym = (const Elf64_Sym *)(image + table->sh_offset);
	const char *names = (const char *)image + strings->sh_offset;
	o->symbols = calloc(n ? n : 1, sizeof *o->symbols);
	if (!o->symbols)
		return bad(error, "out of memory");
	for (size_t i = 0; i < n; i++) {
		int type = ELF64_ST_TYPE(sym[i].st_info);
		if (sym[i].st_name >= strings->sh_size || sym[i].st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_OBJECT))
			continue;
		const char *name = names + sym[i].st_name;
		if (!memchr(name, 0, strings->sh_size - sym[i].st_name))
			return bad(error, "a symbol name runs past its table");
		if (sym[i].st_value > o->memory_size || sym[i].st_size > o->memory_size - sym[i].st_value)
			return bad(error, "a symbol outside the loaded segments");
		struct symbol *s = &o->symbols[o->nsymbols++];
		s->name = strdup(name);
		s->value = sym[i].st_value;
		s->size = sym[i].st_size;
		s->is_function = type == STT_FUNC;
	}
	return ZC_EMU_OK;
}

static const struct symbol *lookup(const struct zc_emu_object *o, const char *name)
{
	for (uint32_t i = 0; i < o->nsymbols; i++)
		if (strcmp(o->symbols[i].name, name) == 0)
			return &o->symbols[i];
	return NULL;
}

uint32_t emu_instruction_at(const struct zc_emu_object *o, uint64_t address)
{
	uint64_t word = (address - o->text_start) / 4;

	if (address < o->text_start || address % 4 || word >= o->index_size || !o->index_of)
		return UINT32_MAX;
	return o->index_of[word];
}

const struct symbol *emu_symbol_at(const struct zc_emu_object *o, uint64_t address)
{
	const struct symbol *best = NULL;
	for (uint32_t i = 0; i < o->nsymbols; i++) {
		const struct symbol *s = &o->symbols[i];
		if (s->is_function && s->value <= address && (!best || s->value > best->value))
			best = s;
	}
	return best;
}

static enum zc_emu_status relocate(struct zc_emu_object *o, const uint8_t *image, size_t size,
                                   char *error)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;

	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = section(image, i);
		if (sh->sh_type != SHT_RELA || !(sh->sh_flags & SHF_ALLOC))
			continue;
		const Elf64_Shdr *symtab = section(image, sh->sh_link);
		if (!table_in_image(size, sh->sh_offset, sh->sh_size) || !symtab ||
		    !table_in_image(size, symtab->sh_offset, symtab->sh_size))
			return bad(error, "relocations outside the file or misaligned");
		const Elf64_Rela *r = (const Elf64_Rela *)(image + sh->sh_offset);
		const Elf64_Sym *syms = (const Elf64_Sym *)(image + symtab->sh_offset);
		size_t nsyms = symtab->sh_size / sizeof(Elf64_Sym);
		for (size_t k = 0; k < sh->sh_size / sizeof *r; k++) {
			uint32_t type = ELF64_R_TYPE(r[k].r_info), si = ELF64_R_SYM(r[k].r_info);
			uint64_t base = (uint64_t)(uintptr_t)o->memory, s = 0;
			if (si >= nsyms)
				return bad(error, "a relocation names no symbol");
			if (si)
				s = base + syms[si].st_value;
			uint64_t v;
			unsigned width = 8;
			switch (type) {
			case R_AMDGPU_RELATIVE64: v = base + (uint64_t)r[k].r_addend; break;
			case R_AMDGPU_ABS64: v = s + (uint64_t)r[k].r_addend; break;
			case R_AMDGPU_ABS32:
			case R_AMDGPU_ABS32_LO: v = s + (uint64_t)r[k].r_addend; width = 4; break;
			case R_AMDGPU_ABS32_HI: v = (s + (uint64_t)r[k].r_addend) >> 32; width = 4; break;
			default:
				snprintf(error, ZC_EMU_ERROR_SIZE,
				         "invalid code object: dynamic relocation type %u is not supported", type);
				return ZC_EMU_INVALID_IMAGE;
			}
			if (r[k].r_offset > o->memory_size || width > o->memory_size - r[k].r_offset)
				return bad(error, "a relocation outside the loaded segments");
			memcpy(o->memory + r[k].r_offset, &v, width);
		}
	}
	return ZC_EMU_OK;
}

static const uint8_t *find_metadata(const uint8_t *image, size_t size, size_t *length)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(image + eh->e_phoff);

	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_NOTE || !in_image(size, ph[i].p_offset, ph[i].p_filesz))
			continue;
		const uint8_t *p = image + ph[i].p_offset, *end = p + ph[i].p_filesz;
		while ((size_t)(end - p) >= 12) {
			uint32_t namesz, descsz, type;
			memcpy(&namesz, p, 4);
			memcpy(&descsz, p + 4, 4);
			memcpy(&type, p + 8, 4);
			uint64_t name_padded = ((uint64_t)namesz + 3) & ~3ull;
			uint64_t desc_padded = ((uint64_t)descsz + 3) & ~3ull;
			if (name_padded + desc_padded > (uint64_t)(end - p - 12))
				break;
			if (type == NT_AMDGPU_METADATA && namesz == 7 && memcmp(p + 12, "AMDGPU", 7) == 0) {
				*length = descsz;
				return p + 12 + name_padded;
			}
			p += 12 + name_padded + desc_padded;
		}
	}
	return NULL;
}

static enum zc_emu_status read_kernels(struct zc_emu_object *o, const uint8_t *image,
                                       size_t size, char *error)
{
	size_t length = 0;
	const uint8_t *note = find_metadata(image, size, &length);
	struct kernel_meta *meta;
	uint32_t nmeta;

	if (!note)
		return bad(error, "no AMDGPU metadata note");
	if (!emu_read_metadata(note, length, &meta, &nmeta)) {
		emu_free_metadata(meta, nmeta);
		return bad(error, "malformed AMDGPU metadata");
	}
	o->kernels = calloc(nmeta ? nmeta : 1, sizeof *o->kernels);
	if (!o->kernels) {
		emu_free_metadata(meta, nmeta);
		return bad(error, "out of memory");
	}
	for (uint32_t i = 0; i < nmeta; i++) {
		const struct symbol *kd = meta[i].symbol ? lookup(o, meta[i].symbol) : NULL;
		size_t n = meta[i].symbol ? strlen(meta[i].symbol) : 0;
		if (!kd || n < 4 || strcmp(meta[i].symbol + n - 3, ".kd") != 0 ||
		    kd->value + 64 > o->memory_size) {
			emu_free_metadata(meta, nmeta);
			return bad(error, "a kernel without its descriptor");
		}
		const uint8_t *d = o->memory + kd->value;
		struct zc_emu_kernel *k = &o->kernels[o->nkernels++];
		int64_t entry;
		k->object = o;
		k->name = strndup(meta[i].symbol, n - 3);
		memcpy(&k->group_segment_size, d, 4);
		memcpy(&k->private_segment_size, d + 4, 4);
		memcpy(&k->kernarg_size, d + 8, 4);
		memcpy(&entry, d + 16, 8);
		memcpy(&k->rsrc3, d + 44, 4);
		memcpy(&k->rsrc1, d + 48, 4);
		memcpy(&k->rsrc2, d + 52, 4);
		memcpy(&k->code_properties, d + 56, 2);
		if (meta[i].kernarg_size > k->kernarg_size)
			k->kernarg_size = meta[i].kernarg_size;
		k->max_flat_workgroup_size = meta[i].max_flat_workgroup_size ? meta[i].max_flat_workgroup_size : 1024;
		k->dynamic_stack = meta[i].dynamic_stack || (k->code_properties >> 11 & 1);
		k->args = meta[i].args;
		k->nargs = meta[i].nargs;
		meta[i].args = NULL;
		uint64_t address = kd->value + (uint64_t)entry;
		if ((k->entry = emu_instruction_at(o, address)) == UINT32_MAX) {
			emu_free_metadata(meta, nmeta);
			return bad(error, "a kernel whose entry is not an instruction");
		}
	}
	emu_free_metadata(meta, nmeta);
	return ZC_EMU_OK;
}

void zc_emu_unload(struct zc_emu_object *o)
{
	if (!o)
		return;
	if (o->memory) {
		zc_emu_unmap(o->memory);
		munmap(o->memory, o->memory_size);
	}
	for (uint32_t i = 0; i < o->nsymbols; i++)
		free(o->symbols[i].name);
	free(o->symbols);
	for (uint32_t i = 0; i < o->nkernels; i++) {
		free(o->kernels[i].name);
		free(o->kernels[i].args);
	}
	free(o->kernels);
	for (uint32_t i = 0; o->code && i < o->ncode; i++)
		free((void *)o->code[i].pair);
	free(o->code);
	free(o->index_of);
	free(o->texts);
	free(o);
}

static enum zc_emu_status load(const uint8_t *image, size_t size, const char *processor,
                               struct zc_emu_object **object, char *error)
{
	struct zc_emu_object *o;
	enum zc_emu_status st;
	int generation = 0;

	if ((st = check_header(image, size, processor, &generation, error)) != ZC_EMU_OK)
		return st;
	if (!(o = calloc(1, sizeof *o)))
		return bad(error, "out of memory");
	o->generation = generation;
	snprintf(o->processor, sizeof o->processor, "%.*s", (int)strcspn(processor, ":"), processor);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	uint64_t text_start = 0, text_size = 0;
	if ((st = load_segments(o, image, size, error)) == ZC_EMU_OK &&
	    (st = read_symbols(o, image, size, error)) == ZC_EMU_OK &&
	    (st = relocate(o, image, size, error)) == ZC_EMU_OK) {
		for (unsigned i = 0; i < eh->e_shnum; i++) {
			const Elf64_Shdr *sh = section(image, i);
			if (sh->sh_type == SHT_PROGBITS && (sh->sh_flags & SHF_EXECINSTR)) {
				if (sh->sh_addr > o->memory_size || sh->sh_size > o->memory_size - sh->sh_addr) {
					st = bad(error, "code outside the loaded segments");
					break;
				}
				/* code is what the file holds, in whole instruction words */
				if (!in_image(size, sh->sh_offset, sh->sh_size) || sh->sh_addr % 4 ||
				    sh->sh_size % 4) {
					st = bad(error, "code outside the file or misaligned");
					break;
				}
				text_start = sh->sh_addr;
				text_size = sh->sh_size;
			}
		}
	}
	/* A code object may hold no code: every kernel of its module was left out, and its
	 * variables are still there. */
	if (st == ZC_EMU_OK && text_size)
		st = emu_decode(o, text_start, text_size, error);
	if (st == ZC_EMU_OK)
		st = read_kernels(o, image, size, error);
	if (st != ZC_EMU_OK) {
		zc_emu_unload(o);
		return st;
	}
	*object = o;
	return ZC_EMU_OK;
}

enum zc_emu_status zc_emu_load(const void *data, size_t size, const char *processor,
                               struct zc_emu_object **object, char *error)
{
	enum zc_emu_status st;
	void *copy;

	*object = NULL;
	if ((uintptr_t)data % 8 == 0)
		return load(data, size, processor, object, error);
	/* The ELF structures are read in place: a caller's image at any address is copied. */
	if (!(copy = malloc(size ? size : 1)))
		return bad(error, "out of memory");
	memcpy(copy, data, size);
	st = load(copy, size, processor, object, error);
	free(copy);
	return st;
}

enum zc_emu_status zc_emu_find_kernel(const struct zc_emu_object *o, const char *name,
                                      const struct zc_emu_kernel **kernel, char *error)
{
	for (uint32_t i = 0; i < o->nkernels; i++)
		if (strcmp(o->kernels[i].name, name) == 0) {
			*kernel = &o->kernels[i];
			return ZC_EMU_OK;
		}
	snprintf(error, ZC_EMU_ERROR_SIZE, "no kernel %s in the code object", name);
	return ZC_EMU_NOT_FOUND;
}

enum zc_emu_status zc_emu_find_global(const struct zc_emu_object *o, const char *name,
                                      void **address, size_t *size, char *error)
{
	const struct symbol *s = lookup(o, name);
	if (!s || s->is_function) {
		snprintf(error, ZC_EMU_ERROR_SIZE, "no global %s in the code object", name);
		return ZC_EMU_NOT_FOUND;
	}
	*address = o->memory + s->value;
	*size = s->size;
	return ZC_EMU_OK;
}

void zc_emu_kernel_info(const struct zc_emu_kernel *k, struct zc_emu_kernel_info *info)
{
	info->name = k->name;
	info->kernarg_size = k->kernarg_size;
	info->group_segment_size = k->group_segment_size;
	info->private_segment_size = k->private_segment_size;
	info->max_flat_workgroup_size = k->max_flat_workgroup_size;
}
