/* The PE reader on images built in memory: a valid PE32+ and PE32, then damaged copies, each of
 * which must be refused with its exact message (and, under ASan, without touching a byte past
 * the end or leaking). */
#include <stdio.h>
#include <string.h>

#include "fatbin.h"

/* Where the test image keeps things (file offsets; RVAs for the sections). */
enum {
	LFANEW = 0x40,
	COFF = LFANEW + 4,
	OPT = COFF + 20,
	NSECTIONS = 5,
	TEXT_RAW = 0x400,
	WRAPPER_RAW = 0x600,
	RELOC_RAW = 0x800,
	DEBUG_RAW = 0xa00,
	SYMTAB = 0xc00,
	NSYMBOLS = 5,
	STRTAB = SYMTAB + NSYMBOLS * 18,
	RELOC_SIZE = 24,
	DIR64 = 10,
	HIGHLOW = 3,
};

static const uint64_t image_base64 = 0x140000000;
static const uint64_t image_base32 = 0x400000;
static const char strings[] = ".debug_info\0__fatbinwrap_long_name";
enum { LONG_SECTION_NAME = 4, LONG_SYMBOL_NAME = 4 + 12 };

static uint8_t image[0x1000];
static uint64_t image_size;
static int failures;

static void put16(uint64_t at, uint16_t v)
{
	image[at] = (uint8_t)v;
	image[at + 1] = (uint8_t)(v >> 8);
}

static void put32(uint64_t at, uint32_t v)
{
	put16(at, (uint16_t)v);
	put16(at + 2, (uint16_t)(v >> 16));
}

static void put64(uint64_t at, uint64_t v)
{
	put32(at, (uint32_t)v);
	put32(at + 4, (uint32_t)(v >> 32));
}

static unsigned opt_size(bool pe32)
{
	return (pe32 ? 96 : 112) + 16 * 8;
}

static uint64_t section_header(bool pe32, int index)
{
	return OPT + opt_size(pe32) + (uint64_t)index * 40;
}

static void add_section(bool pe32, int index, const char *name, uint32_t vsize, uint32_t rva,
                        uint32_t raw_size, uint32_t raw_offset, uint32_t characteristics)
{
	uint64_t h = section_header(pe32, index);

	memcpy(image + h, name, strlen(name));
	put32(h + 8, vsize);
	put32(h + 12, rva);
	put32(h + 16, raw_size);
	put32(h + 20, raw_offset);
	put32(h + 36, characteristics);
}

static void add_symbol(int index, const char *name, uint32_t string_offset, uint32_t value,
                       int16_t section, uint8_t storage_class, uint8_t naux)
{
	uint64_t r = SYMTAB + (uint64_t)index * 18;

	if (name)
		memcpy(image + r, name, strlen(name));
	else
		put32(r + 4, string_offset);
	put32(r + 8, value);
	put16(r + 12, (uint16_t)section);
	image[r + 16] = storage_class;
	image[r + 17] = naux;
}

/* Five sections (one NOBITS, one with a /nnn long name), two base relocation blocks out of
 * order, and a symbol table with an auxiliary record, an undefined and a long-named symbol. */
static void build(bool pe32)
{
	uint16_t reloc_type = pe32 ? HIGHLOW : DIR64;
	unsigned fixed = pe32 ? 96 : 112;

	memset(image, 0, sizeof(image));
	image[0] = 'M';
	image[1] = 'Z';
	put32(0x3c, LFANEW);
	memcpy(image + LFANEW, "PE\0\0", 4);
	put16(COFF, pe32 ? 0x14c : 0x8664);
	put16(COFF + 2, NSECTIONS);
	put32(COFF + 8, SYMTAB);
	put32(COFF + 12, NSYMBOLS);
	put16(COFF + 16, (uint16_t)opt_size(pe32));
	put16(OPT, pe32 ? 0x10b : 0x20b);
	if (pe32)
		put32(OPT + 28, (uint32_t)image_base32);
	else
		put64(OPT + 24, image_base64);
	put32(OPT + fixed - 4, 16);
	put32(OPT + fixed + 5 * 8, 0x3000);
	put32(OPT + fixed + 5 * 8 + 4, RELOC_SIZE);

	add_section(pe32, 0, ".text", 0x10, 0x1000, 0x200, TEXT_RAW, 0x60000020);
	add_section(pe32, 1, ".nvFatBi", 0x18, 0x2000, 0x200, WRAPPER_RAW, 0x40000040);
	add_section(pe32, 2, ".reloc", RELOC_SIZE, 0x3000, 0x200, RELOC_RAW, 0x42000040);
	add_section(pe32, 3, ".bss", 0x100, 0x4000, 0, 0, 0xc0000080);
	add_section(pe32, 4, "/4", 0x20, 0x5000, 0x200, DEBUG_RAW, 0x42000040);

	put32(RELOC_RAW, 0x2000);
	put32(RELOC_RAW + 4, 12);
	put16(RELOC_RAW + 8, (uint16_t)(reloc_type << 12 | 0x8));
	put16(RELOC_RAW + 10, 0); /* ABSOLUTE: padding */
	put32(RELOC_RAW + 12, 0x1000);
	put32(RELOC_RAW + 16, 12);
	put16(RELOC_RAW + 20, (uint16_t)(reloc_type << 12 | 0x8));
	put16(RELOC_RAW + 22, (uint16_t)(reloc_type << 12 | 0x0));

	add_symbol(0, ".text", 0, 0, 1, 3, 1);
	memset(image + SYMTAB + 18, 0xff, 18); /* the auxiliary record: not a symbol */
	add_symbol(2, "wrapper", 0, 0, 2, 3, 0);
	add_symbol(3, NULL, LONG_SYMBOL_NAME, 8, 2, 2, 0);
	add_symbol(4, "extern", 0, 0, 0, 2, 0);
	put32(STRTAB, 4 + sizeof(strings));
	memcpy(image + STRTAB + 4, strings, sizeof(strings));
	image_size = STRTAB + 4 + sizeof(strings);
}

#define CHECK(cond, ...)                                                                 \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);        \
			fprintf(stderr, __VA_ARGS__);                                     \
			fputc('\n', stderr);                                              \
			failures++;                                                       \
		}                                                                         \
	} while (0)

static void check_section(const Binary *bin, size_t i, const char *name, uint64_t addr,
                          uint64_t offset, uint64_t size, unsigned flags)
{
	const Section *s = &bin->sections[i];

	CHECK(strcmp(s->name, name) == 0, "section %zu is %s, expected %s", i, s->name, name);
	CHECK(s->addr == addr && s->offset == offset && s->size == size && s->flags == flags,
	      "section %s: addr 0x%llx offset 0x%llx size 0x%llx flags %u", s->name,
	      (unsigned long long)s->addr, (unsigned long long)s->offset,
	      (unsigned long long)s->size, s->flags);
}

static void check_valid(bool pe32)
{
	uint64_t base = pe32 ? image_base32 : image_base64;
	Binary bin;
	ZcError err;

	build(pe32);
	if (!binary_from_memory(&bin, "valid", image, image_size, &err)) {
		CHECK(false, "valid %s image refused: %s", pe32 ? "PE32" : "PE32+", err.msg);
		return;
	}
	CHECK(bin.format == BIN_PE, "format %d", bin.format);
	CHECK(bin.pointer_size == (pe32 ? 4 : 8), "pointer size %d", bin.pointer_size);
	CHECK(strcmp(bin.machine, pe32 ? "i386" : "x86-64") == 0, "machine %s", bin.machine);
	CHECK(bin.nsections == NSECTIONS, "%zu sections", bin.nsections);
	if (bin.nsections == NSECTIONS) {
		check_section(&bin, 0, ".text", base + 0x1000, TEXT_RAW, 0x10,
		              SEC_ALLOC | SEC_EXEC);
		check_section(&bin, 1, ".nvFatBi", base + 0x2000, WRAPPER_RAW, 0x18, SEC_ALLOC);
		check_section(&bin, 2, ".reloc", base + 0x3000, RELOC_RAW, RELOC_SIZE, SEC_ALLOC);
		check_section(&bin, 3, ".bss", base + 0x4000, 0, 0x100,
		              SEC_ALLOC | SEC_WRITE | SEC_NOBITS);
		check_section(&bin, 4, ".debug_info", base + 0x5000, DEBUG_RAW, 0x20, SEC_ALLOC);
	}
	uint64_t fixups[] = {base + 0x1000, base + 0x1008, base + 0x2008};
	CHECK(bin.nfixups == 3, "%zu fixups", bin.nfixups);
	for (size_t i = 0; i < bin.nfixups && i < 3; i++)
		CHECK(bin.fixups[i].addr == fixups[i] && bin.fixups[i].kind == FIXUP_PE_BASE &&
		      bin.fixups[i].addend == 0, "fixup %zu at 0x%llx kind %d", i,
		      (unsigned long long)bin.fixups[i].addr, bin.fixups[i].kind);
	CHECK(bin.nsymbols == 3, "%zu symbols", bin.nsymbols);
	if (bin.nsymbols == 3) {
		CHECK(strcmp(bin.symbols[0].name, ".text") == 0 && bin.symbols[0].addr == base + 0x1000,
		      "symbol 0: %s", bin.symbols[0].name);
		CHECK(strcmp(bin.symbols[1].name, "wrapper") == 0 && bin.symbols[1].addr == base + 0x2000,
		      "symbol 1: %s", bin.symbols[1].name);
		CHECK(strcmp(bin.symbols[2].name, "__fatbinwrap_long_name") == 0 &&
		      bin.symbols[2].addr == base + 0x2008, "symbol 2: %s", bin.symbols[2].name);
	}
	binary_close(&bin);
}

/* Without a symbol table there is no string table: "/4" stays as written. */
static void check_no_symbol_table(void)
{
	Binary bin;
	ZcError err;

	build(false);
	put32(COFF + 8, 0);
	put16(COFF, 0x1234);
	if (!binary_from_memory(&bin, "nosyms", image, image_size, &err)) {
		CHECK(false, "image without symbols refused: %s", err.msg);
		return;
	}
	CHECK(bin.nsymbols == 0, "%zu symbols", bin.nsymbols);
	CHECK(strcmp(bin.sections[4].name, "/4") == 0, "section 4 is %s", bin.sections[4].name);
	CHECK(strcmp(bin.machine, "other") == 0, "machine %s", bin.machine);
	binary_close(&bin);
}

static void expect_error(int line, const char *expected)
{
	Binary bin;
	ZcError err = {{0}};

	if (binary_from_memory(&bin, "damaged", image, image_size, &err)) {
		fprintf(stderr, "%s:%d: damaged image accepted, expected: %s\n", __FILE__, line,
		        expected);
		failures++;
		binary_close(&bin);
	} else if (strcmp(err.msg, expected) != 0) {
		fprintf(stderr, "%s:%d: got      %s\n%*sexpected %s\n", __FILE__, line, err.msg,
		        (int)strlen(__FILE__) + 3, "", expected);
		failures++;
	}
}

#define EXPECT_ERROR(msg) expect_error(__LINE__, msg)

static void check_damaged(void)
{
	char msg[256];
	uint64_t reloc_dir = OPT + 112 + 5 * 8;

	build(false);
	image_size = 40;
	EXPECT_ERROR("PE file is 40 bytes, too small for the 64-byte DOS header");

	build(false);
	put32(0x3c, 0xffffffff);
	snprintf(msg, sizeof(msg), "PE header offset e_lfanew 0xffffffff is past the end of the "
	         "file (needs 0x100000017 bytes, file has 0x%llx)", (unsigned long long)image_size);
	EXPECT_ERROR(msg);

	build(false);
	image[LFANEW + 1] = 'X';
	EXPECT_ERROR("MZ file without a PE signature at e_lfanew 0x40");

	build(false);
	put16(OPT, 0x107);
	EXPECT_ERROR("PE optional header magic 0x107 is neither PE32 (0x10b) nor PE32+ (0x20b)");

	build(false);
	put16(COFF + 16, 1);
	EXPECT_ERROR("PE SizeOfOptionalHeader 0x1 leaves no room for its magic");

	build(false);
	put16(COFF + 16, 0x10);
	EXPECT_ERROR("PE SizeOfOptionalHeader 0x10 is smaller than the PE32+ fixed part (0x70 bytes)");

	build(false);
	put16(COFF + 16, 0xffff);
	image_size = 0x1000;
	EXPECT_ERROR("PE optional header (0xffff bytes at 0x58) extends past the end of the file "
	             "(file has 0x1000 bytes)");

	build(false);
	put32(OPT + 108, 0x10000000);
	EXPECT_ERROR("PE optional header declares 268435456 data directories, more than "
	             "SizeOfOptionalHeader 0xf0 holds");

	build(false);
	put64(OPT + 24, 0xffffffffffff0000);
	EXPECT_ERROR("PE ImageBase 0xffffffffffff0000 leaves no room for the image");

	build(false);
	put16(COFF + 2, 0xffff);
	EXPECT_ERROR("PE NumberOfSections 65535 exceeds the limit of 96");

	build(false);
	image_size = 0x180;
	EXPECT_ERROR("PE section table extends past the end of the file (needs 0x210 bytes, "
	             "file has 0x180)");

	build(false);
	put32(COFF + 12, 0x10000000);
	snprintf(msg, sizeof(msg), "PE symbol table (268435456 symbols at 0xc00) extends past the "
	         "end of the file (needs 0x120000c00 bytes, file has 0x%llx)",
	         (unsigned long long)image_size);
	EXPECT_ERROR(msg);

	build(false);
	image_size = STRTAB + 2;
	EXPECT_ERROR("PE string table at 0xc5a is past the end of the file (file has 0xc5c bytes)");

	build(false);
	put32(STRTAB, 0xffffffff);
	snprintf(msg, sizeof(msg), "PE string table (0xffffffff bytes at 0xc5a) extends past the "
	         "end of the file (file has 0x%llx bytes)", (unsigned long long)image_size);
	EXPECT_ERROR(msg);

	build(false);
	memcpy(image + section_header(false, 4), "/999", 4);
	snprintf(msg, sizeof(msg), "PE section 4 long name offset 999 does not point at a string "
	         "in the string table (0x%zx bytes)", 4 + sizeof(strings));
	EXPECT_ERROR(msg);

	build(false);
	memcpy(image + section_header(false, 4), "/4x", 3);
	EXPECT_ERROR("PE section 4 long name \"/4x\" is not /<decimal offset>");

	build(false);
	put32(section_header(false, 0) + 20, 0xfffffff0);
	snprintf(msg, sizeof(msg), "PE section .text data extends past the end of the file "
	         "(0xfffffff0 + 0x10 bytes, file has 0x%llx)", (unsigned long long)image_size);
	EXPECT_ERROR(msg);

	build(false);
	put32(reloc_dir + 4, 0x10000);
	EXPECT_ERROR("PE base relocation table (rva 0x3000, 0x10000 bytes) is not within a "
	             "section's file data");

	build(false);
	put32(RELOC_RAW + 4, 0);
	EXPECT_ERROR("PE base relocation block at rva 0x3000 has SizeOfBlock 0x0 (must be at "
	             "least 8)");

	build(false);
	put32(RELOC_RAW + 12 + 4, 0xfffffff0);
	EXPECT_ERROR("PE base relocation block at rva 0x300c has SizeOfBlock 0xfffffff0, past the "
	             "end of the table (0xc bytes left)");

	build(false);
	put32(section_header(false, 2) + 8, RELOC_SIZE + 4);
	put32(reloc_dir + 4, RELOC_SIZE + 4);
	EXPECT_ERROR("PE base relocation table ends in a partial block header at rva 0x3018");

	build(false);
	put32(SYMTAB + 3 * 18 + 4, 0x5000);
	snprintf(msg, sizeof(msg), "PE symbol 3 name offset 0x5000 does not point at a string in "
	         "the string table (0x%zx bytes)", 4 + sizeof(strings));
	EXPECT_ERROR(msg);

	/* the table's size cuts the last string before its NUL */
	build(false);
	put32(STRTAB, 4 + sizeof(strings) - 1);
	snprintf(msg, sizeof(msg), "PE symbol 3 name offset 0x10 does not point at a string in "
	         "the string table (0x%zx bytes)", 4 + sizeof(strings) - 1);
	EXPECT_ERROR(msg);

	build(false);
	image[SYMTAB + 4 * 18 + 17] = 1;
	EXPECT_ERROR("PE symbol 4 has 1 auxiliary records past the end of the symbol table "
	             "(5 symbols)");
}

int main(void)
{
	check_valid(false);
	check_valid(true);
	check_no_symbol_table();
	check_damaged();
	if (failures) {
		fprintf(stderr, "test_pe: %d failures\n", failures);
		return 1;
	}
	printf("test_pe: ok\n");
	return 0;
}
