/* ELF reader (through libelf): sections, object symbols and the relative relocations that
 * fix up pointer slots at load time. */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"

#ifndef SHT_RELR
#define SHT_RELR 19
#endif

enum { R_X86_64_RELATIVE_TYPE = 8, R_386_RELATIVE_TYPE = 8, R_AARCH64_RELATIVE_TYPE = 1027 };

static const char *machine_name(unsigned machine)
{
	switch (machine) {
	case EM_X86_64: return "x86-64";
	case EM_386: return "i386";
	case EM_AARCH64: return "aarch64";
	case EM_PPC64: return "ppc64";
	case 190: return "cuda";
	default: return "other";
	}
}

static bool is_relative_reloc(unsigned machine, uint64_t type)
{
	switch (machine) {
	case EM_X86_64: return type == R_X86_64_RELATIVE_TYPE;
	case EM_386: return type == R_386_RELATIVE_TYPE;
	case EM_AARCH64: return type == R_AARCH64_RELATIVE_TYPE;
	default: return false;
	}
}

/* libelf refuses a short header with a vague message; this one says what is short. */
static bool check_header_in_file(const Binary *bin, ZcError *err)
{
	unsigned elf_class = bin->size > EI_CLASS ? bin->bytes[EI_CLASS] : ELFCLASSNONE;
	uint64_t header_size = elf_class == ELFCLASS32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);

	if (bin->size <= EI_CLASS)
		return zc_fail(err, "ELF file is %llu bytes, too small for an ELF header",
		               (unsigned long long)bin->size);
	if (elf_class != ELFCLASS32 && elf_class != ELFCLASS64)
		return zc_fail(err, "ELF header has an invalid class %u (1 is 32-bit, 2 is 64-bit)",
		               elf_class);
	if (bin->size < header_size)
		return zc_fail(err, "ELF file is %llu bytes, too small for the %llu-byte ELF%d header",
		               (unsigned long long)bin->size, (unsigned long long)header_size,
		               elf_class == ELFCLASS32 ? 32 : 64);
	return true;
}

/* libelf reads a file whose section header table lies past its end as one without sections,
 * which would hide the fatbins of a truncated file: say that it is truncated instead. */
static bool check_section_table_in_file(const Binary *bin, Elf *elf, const GElf_Ehdr *eh,
                                        ZcError *err)
{
	uint64_t entry_size = gelf_getclass(elf) == ELFCLASS32 ? sizeof(Elf32_Shdr)
	                                                       : sizeof(Elf64_Shdr);
	size_t n = eh->e_shnum;

	if (eh->e_shoff == 0)
		return true; /* no section headers at all */
	if (eh->e_shentsize != entry_size)
		return zc_fail(err, "ELF section header size %u is not the %llu bytes of this class",
		               eh->e_shentsize, (unsigned long long)entry_size);
	if (!range_in_file(bin, eh->e_shoff, entry_size))
		return zc_fail(err, "ELF section header table offset 0x%llx is past the end of the "
		               "file (0x%llx bytes)", (unsigned long long)eh->e_shoff,
		               (unsigned long long)bin->size);
	/* e_shnum 0 means the count is in section 0; libelf's own count is 0 for a table it
	 * found truncated, so it is asked only then. */
	if (n == 0 && elf_getshdrnum(elf, &n) != 0)
		return zc_fail(err, "bad ELF section header table: %s", elf_errmsg(-1));
	if (n > bin->size / entry_size || !range_in_file(bin, eh->e_shoff, n * entry_size))
		return zc_fail(err, "ELF section header table (%zu headers at 0x%llx) extends past the "
		               "end of the file (0x%llx bytes)", n, (unsigned long long)eh->e_shoff,
		               (unsigned long long)bin->size);
	return true;
}

static bool read_sections(Binary *bin, Elf *elf, size_t shstrndx, ZcError *err)
{
	size_t n;
	Elf_Scn *scn = NULL;

	if (elf_getshdrnum(elf, &n) != 0)
		return zc_fail(err, "bad ELF section header table: %s", elf_errmsg(-1));
	if (n > 0 && shstrndx >= n)
		return zc_fail(err, "ELF section name table index %zu is out of range (%zu sections)",
		               shstrndx, n);
	bin->sections = zc_alloc(n * sizeof(Section));
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;
		Section *s;

		if (!gelf_getshdr(scn, &sh))
			return zc_fail(err, "bad ELF section header: %s", elf_errmsg(-1));
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			return zc_fail(err, "ELF section %zu has an invalid name offset 0x%x",
			               elf_ndxscn(scn), sh.sh_name);
		s = &bin->sections[bin->nsections++];
		s->name = zc_strndup(name, strlen(name));
		s->addr = sh.sh_addr;
		s->offset = sh.sh_offset;
		s->size = sh.sh_type == SHT_NOBITS ? 0 : sh.sh_size;
		s->flags = (sh.sh_flags & SHF_ALLOC ? SEC_ALLOC : 0) |
		           (sh.sh_flags & SHF_WRITE ? SEC_WRITE : 0) |
		           (sh.sh_flags & SHF_EXECINSTR ? SEC_EXEC : 0) |
		           (sh.sh_type == SHT_NOBITS ? SEC_NOBITS : 0);
		if (!range_in_file(bin, s->offset, s->size))
			return zc_fail(err, "ELF section %s (offset 0x%llx, size 0x%llx) extends past "
			               "the end of the file", name, (unsigned long long)s->offset,
			               (unsigned long long)s->size);
	}
	return true;
}

static bool read_symbols(Binary *bin, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, size_t *cap,
                         ZcError *err)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count;

	if (!data || sh->sh_entsize == 0)
		return true;
	count = data->d_size / sh->sh_entsize;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym))
			return zc_fail(err, "bad ELF symbol %zu: %s", i, elf_errmsg(-1));
		/* Wrappers, containers and module ids are data objects; nothing else is looked up. */
		if (GELF_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name)
			continue;
		if (bin->nsymbols == *cap) {
			*cap = *cap ? *cap * 2 : 256;
			bin->symbols = zc_realloc(bin->symbols, *cap * sizeof(Symbol));
		}
		bin->symbols[bin->nsymbols++] =
			(Symbol){zc_strndup(name, strlen(name)), sym.st_value, sym.st_size};
	}
	return true;
}

static bool read_rel(Binary *bin, Elf_Scn *scn, const GElf_Shdr *sh, unsigned machine,
                     size_t *cap, ZcError *err)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count;

	if (!data || sh->sh_entsize == 0)
		return true;
	count = data->d_size / sh->sh_entsize;
	for (size_t i = 0; i < count; i++) {
		if (sh->sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(data, (int)i, &r))
				return zc_fail(err, "bad ELF relocation %zu: %s", i, elf_errmsg(-1));
			if (is_relative_reloc(machine, GELF_R_TYPE(r.r_info)))
				binary_add_fixup(bin, cap, r.r_offset, (uint64_t)r.r_addend, FIXUP_RELA);
		} else {
			GElf_Rel r;

			if (!gelf_getrel(data, (int)i, &r))
				return zc_fail(err, "bad ELF relocation %zu: %s", i, elf_errmsg(-1));
			if (is_relative_reloc(machine, GELF_R_TYPE(r.r_info)))
				binary_add_fixup(bin, cap, r.r_offset, 0, FIXUP_REL);
		}
	}
	return true;
}

/* RELR: an address word (even) starts a run; each bitmap word (odd) marks which of the next
 * 8*ptr-1 slots are relocated. */
static void read_relr(Binary *bin, const Section *s, size_t *cap)
{
	unsigned ps = (unsigned)bin->pointer_size;
	uint64_t next = 0;

	for (uint64_t off = 0; off + ps <= s->size; off += ps) {
		uint64_t word = read_le(bin->bytes + s->offset + off, (int)ps);

		if ((word & 1) == 0) {
			binary_add_fixup(bin, cap, word, 0, FIXUP_RELR);
			next = word + ps;
			continue;
		}
		for (unsigned bit = 1; bit < 8 * ps; bit++)
			if (word >> bit & 1)
				binary_add_fixup(bin, cap, next + (bit - 1) * ps, 0, FIXUP_RELR);
		next += (8 * ps - 1) * ps;
	}
}

static bool read_symbols_and_fixups(Binary *bin, Elf *elf, unsigned machine, ZcError *err)
{
	size_t symcap = 0, fixcap = 0, index = 0;
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const Section *s = &bin->sections[index++];

		if (!gelf_getshdr(scn, &sh))
			return zc_fail(err, "bad ELF section header: %s", elf_errmsg(-1));
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) {
			if (!read_symbols(bin, elf, scn, &sh, &symcap, err))
				return false;
		} else if ((sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) &&
		           (sh.sh_flags & SHF_ALLOC)) {
			if (!read_rel(bin, scn, &sh, machine, &fixcap, err))
				return false;
		} else if (sh.sh_type == SHT_RELR) {
			read_relr(bin, s, &fixcap);
		}
	}
	binary_sort_fixups(bin);
	return true;
}

bool elf_read(Binary *bin, ZcError *err)
{
	Elf *elf;
	GElf_Ehdr eh;
	size_t shstrndx;
	bool ok = false;

	elf_version(EV_CURRENT);
	if (!check_header_in_file(bin, err))
		return false;
	/* libelf may convert foreign byte order in place: give it a private copy when the
	 * bytes are not a copy-on-write mapping of our own. */
	if (!bin->writable) {
		bin->elf_copy = zc_alloc(bin->size);
		memcpy(bin->elf_copy, bin->bytes, bin->size);
	}
	elf = elf_memory(bin->elf_copy ? bin->elf_copy : (char *)bin->bytes, bin->size);
	if (!elf)
		return zc_fail(err, "bad ELF file: %s", elf_errmsg(-1));
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		zc_fail(err, "bad ELF header: %s", elf_errmsg(-1));
		goto done;
	}
	bin->pointer_size = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	bin->machine = machine_name(eh.e_machine);
	if (!check_section_table_in_file(bin, elf, &eh, err))
		goto done;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
		zc_fail(err, "bad ELF section name table index: %s", elf_errmsg(-1));
		goto done;
	}
	if (!read_sections(bin, elf, shstrndx, err))
		goto done;
	ok = read_symbols_and_fixups(bin, elf, eh.e_machine, err);
done:
	elf_end(elf);
	return ok;
}
