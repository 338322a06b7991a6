/* PE/COFF images (.exe, .dll; PE32 and PE32+): headers, section table, base relocations, and
 * the COFF symbol table that mingw-linked images keep. Every offset, size and count comes from
 * an untrusted file, so each is checked against the file size in 64-bit arithmetic (where u32
 * sums cannot overflow) before anything is read through it. */
#include <string.h>

#include "fatbin.h"

enum {
	DOS_HEADER_SIZE = 64,
	DOS_LFANEW = 0x3c,
	PE_SIGNATURE_SIZE = 4,
	COFF_HEADER_SIZE = 20,
	SECTION_HEADER_SIZE = 40,
	SYMBOL_RECORD_SIZE = 18,
	MAX_SECTIONS = 96, /* the PE format's own limit */
	OPT_MAGIC_PE32 = 0x10b,
	OPT_MAGIC_PE32PLUS = 0x20b,
	DATA_DIRECTORY_IMPORT = 1,
	DATA_DIRECTORY_BASERELOC = 5,
	IMPORT_DESCRIPTOR_SIZE = 20,
	MAX_IMPORTS = 4096,
	MAX_DLL_NAME = 255,
	BASERELOC_BLOCK_HEADER = 8,
};

enum {
	SCN_CNT_CODE = 0x20,
	SCN_MEM_EXECUTE = 0x20000000,
	SCN_MEM_WRITE = 0x80000000,
};

/* The rest are not pointer slots: ABSOLUTE (0) pads blocks to 4 bytes, others patch
 * instruction fields on architectures nvcc does not target. */
enum {
	REL_BASED_HIGHLOW = 3,
	REL_BASED_HIGHADJ = 4, /* obsolete; its parameter takes the next entry */
	REL_BASED_DIR64 = 10,
};

enum { SYM_CLASS_EXTERNAL = 2, SYM_CLASS_STATIC = 3 };

typedef struct {
	uint64_t image_base;
	uint64_t section_table;
	unsigned nsections;
	uint32_t import_rva, import_size;
	uint32_t reloc_rva, reloc_size;
	uint64_t symbol_table; /* 0 when the image has none */
	uint32_t nsymbols;
	uint64_t string_table; /* file offset of the size field; 0 when none */
	uint32_t string_table_size; /* including the 4-byte size field */
} PeLayout;

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)read_le(p, 2);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)read_le(p, 4);
}

static const char *machine_name(uint16_t machine)
{
	switch (machine) {
	case 0x8664: return "x86-64";
	case 0x14c: return "i386";
	case 0xaa64: return "arm64";
	case 0xa641: return "arm64ec";
	case 0x1c4: return "arm";
	default: return "other"; /* as elf.c says: a label for the report, nothing Binary owns */
	}
}

static bool read_headers(Binary *bin, PeLayout *pe, ZcError *err)
{
	unsigned long long file_size = bin->size;
	if (bin->size < DOS_HEADER_SIZE)
		return zc_fail(err, "PE file is %llu bytes, too small for the 64-byte DOS header",
		               file_size);
	uint32_t lfanew = get32(bin->bytes + DOS_LFANEW);
	uint64_t coff = (uint64_t)lfanew + PE_SIGNATURE_SIZE;
	uint64_t opt = coff + COFF_HEADER_SIZE;
	if (opt > bin->size)
		return zc_fail(err, "PE header offset e_lfanew 0x%x is past the end of the file "
		               "(needs 0x%llx bytes, file has 0x%llx)", lfanew,
		               (unsigned long long)opt, file_size);
	if (memcmp(bin->bytes + lfanew, "PE\0\0", PE_SIGNATURE_SIZE) != 0)
		return zc_fail(err, "MZ file without a PE signature at e_lfanew 0x%x", lfanew);

	const uint8_t *h = bin->bytes + coff;
	uint16_t machine = get16(h);
	pe->nsections = get16(h + 2);
	uint32_t symbol_table = get32(h + 8);
	pe->nsymbols = get32(h + 12);
	uint16_t opt_size = get16(h + 16);

	if (opt + opt_size > bin->size)
		return zc_fail(err, "PE optional header (0x%x bytes at 0x%llx) extends past the end of "
		               "the file (file has 0x%llx bytes)", opt_size, (unsigned long long)opt,
		               file_size);
	if (opt_size < 2)
		return zc_fail(err, "PE SizeOfOptionalHeader 0x%x leaves no room for its magic", opt_size);
	const uint8_t *o = bin->bytes + opt;
	uint16_t magic = get16(o);
	if (magic != OPT_MAGIC_PE32 && magic != OPT_MAGIC_PE32PLUS)
		return zc_fail(err, "PE optional header magic 0x%x is neither PE32 (0x10b) nor PE32+ "
		               "(0x20b)", magic);
	bool plus = magic == OPT_MAGIC_PE32PLUS;
	/* the fixed part ends with NumberOfRvaAndSizes; the data directories follow it */
	unsigned fixed = plus ? 112 : 96;
	if (opt_size < fixed)
		return zc_fail(err, "PE SizeOfOptionalHeader 0x%x is smaller than the %s fixed part "
		               "(0x%x bytes)", opt_size, plus ? "PE32+" : "PE32", fixed);
	pe->image_base = plus ? read_le(o + 24, 8) : get32(o + 28);
	uint32_t ndirs = get32(o + fixed - 4);
	if (fixed + (uint64_t)ndirs * 8 > opt_size)
		return zc_fail(err, "PE optional header declares %u data directories, more than "
		               "SizeOfOptionalHeader 0x%x holds", ndirs, opt_size);
	if (ndirs > DATA_DIRECTORY_IMPORT) {
		const uint8_t *dir = o + fixed + DATA_DIRECTORY_IMPORT * 8;
		pe->import_rva = get32(dir);
		pe->import_size = get32(dir + 4);
	}
	if (ndirs > DATA_DIRECTORY_BASERELOC) {
		const uint8_t *dir = o + fixed + DATA_DIRECTORY_BASERELOC * 8;
		pe->reloc_rva = get32(dir);
		pe->reloc_size = get32(dir + 4);
	}
	/* ImageBase + RVA + size must not wrap: RVAs and sizes are u32 */
	if (pe->image_base > UINT64_MAX - 2 * (uint64_t)UINT32_MAX)
		return zc_fail(err, "PE ImageBase 0x%llx leaves no room for the image",
		               (unsigned long long)pe->image_base);

	if (pe->nsections > MAX_SECTIONS)
		return zc_fail(err, "PE NumberOfSections %u exceeds the limit of %d", pe->nsections,
		               MAX_SECTIONS);
	pe->section_table = opt + opt_size;
	uint64_t table_end = pe->section_table + (uint64_t)pe->nsections * SECTION_HEADER_SIZE;
	if (table_end > bin->size)
		return zc_fail(err, "PE section table extends past the end of the file (needs 0x%llx "
		               "bytes, file has 0x%llx)", (unsigned long long)table_end, file_size);

	if (symbol_table) {
		pe->symbol_table = symbol_table;
		/* the string table follows the symbol records directly */
		uint64_t symbols_end = symbol_table + (uint64_t)pe->nsymbols * SYMBOL_RECORD_SIZE;
		if (symbols_end > bin->size)
			return zc_fail(err, "PE symbol table (%u symbols at 0x%x) extends past the end of "
			               "the file (needs 0x%llx bytes, file has 0x%llx)", pe->nsymbols,
			               symbol_table, (unsigned long long)symbols_end, file_size);
		if (symbols_end + 4 > bin->size)
			return zc_fail(err, "PE string table at 0x%llx is past the end of the file (file "
			               "has 0x%llx bytes)", (unsigned long long)symbols_end, file_size);
		pe->string_table = symbols_end;
		pe->string_table_size = get32(bin->bytes + symbols_end);
		if (symbols_end + pe->string_table_size > bin->size)
			return zc_fail(err, "PE string table (0x%x bytes at 0x%llx) extends past the end "
			               "of the file (file has 0x%llx bytes)", pe->string_table_size,
			               (unsigned long long)symbols_end, file_size);
	}

	bin->pointer_size = plus ? 8 : 4;
	bin->machine = machine_name(machine);
	return true;
}

/* The NUL-terminated string at `offset` in the COFF string table, or NULL if there is none.
 * Offsets below 4 would point into the table's own size field. */
static const char *string_at(const Binary *bin, const PeLayout *pe, uint32_t offset)
{
	if (!pe->string_table || offset < 4 || offset >= pe->string_table_size)
		return NULL;
	const char *s = (const char *)bin->bytes + pe->string_table + offset;
	if (!memchr(s, 0, pe->string_table_size - offset))
		return NULL;
	return s;
}

/* Section names are an 8-byte NUL-padded field; GNU ld writes "/nnn" (a decimal string table
 * offset) for longer names, which only an image with a string table can resolve. */
static bool section_name(const Binary *bin, const PeLayout *pe, unsigned index,
                         const uint8_t *field, char **name, ZcError *err)
{
	size_t len = strnlen((const char *)field, 8);
	if (field[0] == '/' && pe->string_table && len > 1) {
		uint32_t offset = 0;
		for (size_t i = 1; i < len; i++) {
			if (field[i] < '0' || field[i] > '9')
				return zc_fail(err, "PE section %u long name \"%.*s\" is not /<decimal offset>",
				               index, (int)len, (const char *)field);
			offset = offset * 10 + (uint32_t)(field[i] - '0');
		}
		const char *s = string_at(bin, pe, offset);
		if (!s)
			return zc_fail(err, "PE section %u long name offset %u does not point at a string in "
			               "the string table (0x%x bytes)", index, offset, pe->string_table_size);
		*name = zc_strndup(s, strlen(s));
		return true;
	}
	*name = zc_strndup((const char *)field, len);
	return true;
}

static bool read_sections(Binary *bin, const PeLayout *pe, ZcError *err)
{
	if (pe->nsections == 0)
		return true;
	bin->sections = zc_alloc(pe->nsections * sizeof *bin->sections);
	for (unsigned i = 0; i < pe->nsections; i++) {
		const uint8_t *h = bin->bytes + pe->section_table + (uint64_t)i * SECTION_HEADER_SIZE;
		Section *s = &bin->sections[i];
		bin->nsections = i + 1; /* binary_close frees the name even if a check below fails */
		if (!section_name(bin, pe, i, h, &s->name, err))
			return false;
		uint32_t virtual_size = get32(h + 8);
		uint32_t rva = get32(h + 12);
		uint32_t raw_size = get32(h + 16);
		uint32_t raw_offset = get32(h + 20);
		uint32_t characteristics = get32(h + 36);

		/* some old linkers leave VirtualSize 0; SizeOfRawData is the size then */
		uint64_t memory_size = virtual_size ? virtual_size : raw_size;
		s->addr = pe->image_base + rva;
		/* The loader maps every section of an image, MEM_DISCARDABLE ones (.reloc, .debug_*)
		 * included: the flag only tells drivers they may drop the pages. */
		s->flags = SEC_ALLOC;
		if (characteristics & SCN_MEM_WRITE)
			s->flags |= SEC_WRITE;
		if (characteristics & (SCN_MEM_EXECUTE | SCN_CNT_CODE))
			s->flags |= SEC_EXEC;
		if (raw_size == 0 || raw_offset == 0) {
			/* like ELF's .bss: size is the memory size, no file bytes behind it */
			s->flags |= SEC_NOBITS;
			s->size = memory_size;
			continue;
		}
		/* SizeOfRawData is padded to FileAlignment; the loader zero-fills past it */
		s->offset = raw_offset;
		s->size = memory_size < raw_size ? memory_size : raw_size;
		if (s->offset + s->size > bin->size)
			return zc_fail(err, "PE section %s data extends past the end of the file (0x%llx + "
			               "0x%llx bytes, file has 0x%llx)", s->name,
			               (unsigned long long)s->offset, (unsigned long long)s->size,
			               (unsigned long long)bin->size);
	}
	return true;
}

/* The base relocation table: blocks of {PageRVA, SizeOfBlock} followed by u16 entries, type in
 * the top 4 bits and the offset within the page in the low 12. Only the pointer-sized types
 * matter here: they mark the slots (such as a wrapper's data pointer) that hold absolute VAs. */
static bool read_base_relocations(Binary *bin, const PeLayout *pe, ZcError *err)
{
	if (pe->reloc_size == 0)
		return true;
	uint64_t table_offset;
	if (!binary_addr_to_offset(bin, pe->image_base + pe->reloc_rva, pe->reloc_size, &table_offset))
		return zc_fail(err, "PE base relocation table (rva 0x%x, 0x%x bytes) is not within "
		               "a section's file data", pe->reloc_rva, pe->reloc_size);
	const uint8_t *table = bin->bytes + table_offset;

	size_t capacity = 0;
	uint32_t pos = 0;
	while (pos < pe->reloc_size) {
		uint32_t left = pe->reloc_size - pos;
		if (left < BASERELOC_BLOCK_HEADER)
			return zc_fail(err, "PE base relocation table ends in a partial block header at rva "
			               "0x%x", pe->reloc_rva + pos);
		uint32_t page = get32(table + pos);
		uint32_t block_size = get32(table + pos + 4);
		if (block_size < BASERELOC_BLOCK_HEADER)
			return zc_fail(err, "PE base relocation block at rva 0x%x has SizeOfBlock 0x%x "
			               "(must be at least 8)", pe->reloc_rva + pos, block_size);
		if (block_size > left)
			return zc_fail(err, "PE base relocation block at rva 0x%x has SizeOfBlock 0x%x, "
			               "past the end of the table (0x%x bytes left)", pe->reloc_rva + pos,
			               block_size, left);
		uint32_t nentries = (block_size - BASERELOC_BLOCK_HEADER) / 2;
		const uint8_t *entries = table + pos + BASERELOC_BLOCK_HEADER;
		for (uint32_t i = 0; i < nentries; i++) {
			uint16_t entry = get16(entries + 2 * i);
			unsigned type = entry >> 12;
			if (type == REL_BASED_HIGHADJ)
				i++;
			else if (type == REL_BASED_DIR64 || type == REL_BASED_HIGHLOW)
				binary_add_fixup(bin, &capacity, pe->image_base + page + (entry & 0xfff), 0,
				                 FIXUP_PE_BASE);
		}
		pos += block_size;
	}
	binary_sort_fixups(bin);
	return true;
}

/* The DLL name at RVA, a NUL-terminated string in a section's file data. */
static bool dll_name(const Binary *bin, const PeLayout *pe, uint32_t rva, unsigned index,
                     char **name, ZcError *err)
{
	uint64_t addr = pe->image_base + rva, offset;
	const Section *s = binary_section_at(bin, addr);
	/* a section without file data (a .bss) has a size but no bytes to read */
	bool in_file = s && binary_addr_to_offset(bin, addr, 1, &offset);
	uint64_t left = in_file ? s->size - (addr - s->addr) : 0;
	const uint8_t *p = in_file ? bin->bytes + offset : NULL;
	const uint8_t *end = p ? memchr(p, 0, left < MAX_DLL_NAME + 1 ? left : MAX_DLL_NAME + 1)
	                       : NULL;

	if (!end)
		return zc_fail(err, "PE import %u: its DLL name (rva 0x%x) is not a string of at most "
		               "%d bytes within a section's file data", index, rva, MAX_DLL_NAME);
	if (end == p)
		return zc_fail(err, "PE import %u: its DLL name (rva 0x%x) is empty", index, rva);
	for (const uint8_t *c = p; c < end; c++)
		if (*c < 0x20 || *c > 0x7e || strchr("/\\:", *c))
			return zc_fail(err, "PE import %u: its DLL name (rva 0x%x) holds byte 0x%02x, no "
			               "file name's", index, rva, *c);
	*name = zc_strndup((const char *)p, (size_t)(end - p));
	return true;
}

/* The import directory: 20-byte descriptors up to an all-zero one, each naming a DLL by the
 * RVA of its name (the fourth field). */
static bool read_imports(Binary *bin, const PeLayout *pe, ZcError *err)
{
	static const uint8_t last[IMPORT_DESCRIPTOR_SIZE];

	if (pe->import_rva == 0 || pe->import_size == 0)
		return true;
	for (unsigned i = 0;; i++) {
		uint64_t at;

		if (i == MAX_IMPORTS)
			return zc_fail(err, "PE import directory names more than %d DLLs", MAX_IMPORTS);
		if (!binary_addr_to_offset(bin, pe->image_base + pe->import_rva +
		                           (uint64_t)i * IMPORT_DESCRIPTOR_SIZE,
		                           IMPORT_DESCRIPTOR_SIZE, &at))
			return zc_fail(err, "PE import directory (rva 0x%x): descriptor %u is not within a "
			               "section's file data", pe->import_rva, i);
		if (memcmp(bin->bytes + at, last, IMPORT_DESCRIPTOR_SIZE) == 0)
			return true;
		bin->imports = zc_realloc(bin->imports, (i + 1) * sizeof(char *));
		if (!dll_name(bin, pe, get32(bin->bytes + at + 12), i, &bin->imports[i], err))
			return false;
		bin->nimports = i + 1;
	}
}

/* Symbol records are 18 bytes: Name[8] (or 4 zero bytes and a string table offset), Value,
 * SectionNumber (1-based; 0 undefined, negative absolute/debug), Type, StorageClass and the
 * count of auxiliary records that follow. COFF records no symbol sizes, so size stays 0. */
static bool read_symbols(Binary *bin, const PeLayout *pe, ZcError *err)
{
	if (!pe->symbol_table || pe->nsymbols == 0)
		return true;
	bin->symbols = zc_alloc(pe->nsymbols * sizeof *bin->symbols);
	for (uint32_t i = 0; i < pe->nsymbols; i++) {
		const uint8_t *r = bin->bytes + pe->symbol_table + (uint64_t)i * SYMBOL_RECORD_SIZE;
		uint32_t value = get32(r + 8);
		int16_t section = (int16_t)get16(r + 12);
		uint8_t storage_class = r[16];
		uint8_t naux = r[17];
		if (naux > pe->nsymbols - i - 1)
			return zc_fail(err, "PE symbol %u has %u auxiliary records past the end of the "
			               "symbol table (%u symbols)", i, naux, pe->nsymbols);
		bool named = storage_class == SYM_CLASS_EXTERNAL || storage_class == SYM_CLASS_STATIC;
		if (named && section >= 1 && (size_t)section <= bin->nsections) {
			char *name;
			if (get32(r) == 0) {
				const char *s = string_at(bin, pe, get32(r + 4));
				if (!s)
					return zc_fail(err, "PE symbol %u name offset 0x%x does not point at a "
					               "string in the string table (0x%x bytes)", i, get32(r + 4),
					               pe->string_table_size);
				name = zc_strndup(s, strlen(s));
			} else {
				name = zc_strndup((const char *)r, strnlen((const char *)r, 8));
			}
			bin->symbols[bin->nsymbols++] = (Symbol){
				.name = name, .addr = bin->sections[section - 1].addr + value, .size = 0};
		}
		i += naux;
	}
	return true;
}

/* On failure, what was read so far stays attached to `bin` (counts kept exact) for
 * binary_close to free. */
bool pe_read(Binary *bin, ZcError *err)
{
	PeLayout pe = {0};

	return read_headers(bin, &pe, err) && read_sections(bin, &pe, err) &&
	       read_imports(bin, &pe, err) && read_base_relocations(bin, &pe, err) &&
	       read_symbols(bin, &pe, err);
}
