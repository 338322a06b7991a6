/* instruction_table: every instruction LLVM's disassembler knows for a processor's compute
 * encodings, and whether the emulator has a handler for it.
 *
 *   instruction_table PROCESSOR...
 *
 * Each encoding's opcode field is walked through all its values, each tried with operand
 * bits from a fixed pseudo-random sequence until LLVM reads an instruction (and on, to catch
 * opcodes whose name depends on operands); the mnemonics are gathered without the encoding
 * suffix (_e32, _e64, _dpp, _sdwa). Prints, per processor and encoding, one line per
 * mnemonic: "PROCESSOR ENCODING MNEMONIC emulated|not-emulated", sorted; graphics encodings
 * (MIMG, export, interpolation, LDS parameter loads) are not walked. The list is the
 * emulator's instruction table (docs/amdgpu-emulator-instructions.md). */
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

#ifndef SEED
#define SEED 0x9e3779b97f4a7c15u
#endif
#include "emulator.h"

/* An encoding: the bits `fixed` of the first word are `value`; the opcode is `width` bits
 * at `shift`; the instruction is `words` words long before any literal. */
struct encoding {
	const char *name;
	uint32_t fixed, value;
	int shift, width, words;
	int generations; /* bit g - 10 for gfx(g) */
};

enum { GFX10 = 1, GFX11 = 2, GFX12 = 4, ALL = 7 };

static const struct encoding encodings[] = {
	/* The scalar encodings share SOP2's space: the narrower ones first, so that each
	 * mnemonic is listed under the encoding that is its own. */
	{"SOPP", 0xff800000, 0xbf800000, 16, 7, 1, ALL},
	{"SOPC", 0xff800000, 0xbf000000, 16, 7, 1, ALL},
	{"SOP1", 0xff800000, 0xbe800000, 8, 8, 1, ALL},
	{"SOPK", 0xf0000000, 0xb0000000, 23, 5, 1, ALL},
	{"SOP2", 0xc0000000, 0x80000000, 23, 7, 1, ALL},
	{"SMEM", 0xfc000000, 0xf4000000, 18, 8, 2, GFX10 | GFX11},
	{"SMEM", 0xfc000000, 0xf4000000, 13, 8, 2, GFX12},
	/* VOP1's and VOPC's words are VOP2's last opcodes, and VOP3 holds the others' 64-bit
	 * forms: each after those it holds. */
	{"VOP1", 0xfe000000, 0x7e000000, 9, 8, 1, ALL},
	{"VOPC", 0xfe000000, 0x7c000000, 17, 8, 1, ALL},
	{"VOP2", 0x80000000, 0x00000000, 25, 6, 1, ALL},
	{"VOP3", 0xfc000000, 0xd4000000, 16, 10, 2, ALL},
	{"VOP3P", 0xff000000, 0xcc000000, 16, 7, 2, ALL},
	{"VOPD", 0xfc000000, 0xc8000000, 17, 9, 2, GFX11 | GFX12},
	{"DS", 0xfc000000, 0xd8000000, 18, 8, 2, ALL},
	/* The segment (flat, scratch, global) is a field of its own: one walk each. */
	{"FLAT", 0xfc00c000, 0xdc000000, 18, 7, 2, GFX10},
	{"SCRATCH", 0xfc00c000, 0xdc004000, 18, 7, 2, GFX10},
	{"GLOBAL", 0xfc00c000, 0xdc008000, 18, 7, 2, GFX10},
	{"FLAT", 0xfc030000, 0xdc000000, 18, 7, 2, GFX11},
	{"SCRATCH", 0xfc030000, 0xdc010000, 18, 7, 2, GFX11},
	{"GLOBAL", 0xfc030000, 0xdc020000, 18, 7, 2, GFX11},
	{"FLAT", 0xff000000, 0xec000000, 14, 7, 3, GFX12},
	{"SCRATCH", 0xff000000, 0xed000000, 14, 7, 3, GFX12},
	{"GLOBAL", 0xff000000, 0xee000000, 14, 7, 3, GFX12},
	{"MUBUF", 0xfc000000, 0xe0000000, 18, 8, 2, GFX10 | GFX11},
	{"MTBUF", 0xfc000000, 0xe8000000, 16, 4, 2, GFX10 | GFX11},
	{"VBUFFER", 0xfc000000, 0xc4000000, 14, 8, 3, GFX12},
};

enum { TRIES = 512, ENOUGH_READS = 32, MAX_MNEMONICS = 4096 };
/* A VOP3's or VOP3P's second word naming v0 as each of its three sources; VOP3P's
 * op_sel_hi bits: the third source's in the first word, the others' in the second. */
enum { VECTOR_SOURCES = 0x100 | 0x100 << 9 | 0x100 << 18, OP_SEL_HI_2 = 1 << 14,
       OP_SEL_HI_0_1 = 3 << 27 };

struct row {
	const char *encoding;
	char mnemonic[64];
};

static uint64_t state = SEED;

static uint32_t next_random(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)state;
}

/* Operand bits: each byte zero, random, or a value fields must often hold for an opcode to
 * read (zero for an unused destination or a second data register; 0x7c, gfx11's and gfx12's
 * "off" in place of a scalar address, and 0x7d, gfx10's; 0xff). */
static uint32_t operand_bits(void)
{
	uint32_t bits = 0, choice = next_random(), random = next_random();
	for (int byte = 0; byte < 4; byte++) {
		uint32_t value;
		switch (choice >> 3 * byte & 7) {
		case 0: case 1: case 2: value = 0; break;
		case 3: value = 0x7c; break;
		case 4: value = 0x7d; break;
		case 5: value = 0xff; break;
		default: value = random >> 8 * byte & 0xff; break;
		}
		bits |= value << 8 * byte;
	}
	return bits;
}

static int by_name(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->encoding, y->encoding);
	return c ? c : strcmp(x->mnemonic, y->mnemonic);
}

/* The mnemonic at LINE without its encoding suffix, into OUT. */
static void mnemonic_of(const char *line, char *out, size_t size)
{
	while (*line == ' ' || *line == '\t')
		line++;
	size_t n = strcspn(line, " \t");
	snprintf(out, size, "%.*s", (int)n, line);
	emu_strip_encoding_suffix(out);
}

static size_t add_row(struct row *rows, size_t n, const char *encoding, const char *mnemonic)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].mnemonic, mnemonic) == 0)
			return n;
	if (n == MAX_MNEMONICS) {
		fprintf(stderr, "instruction_table: more than %d mnemonics\n", MAX_MNEMONICS);
		exit(2);
	}
	rows[n].encoding = encoding;
	snprintf(rows[n].mnemonic, sizeof rows[n].mnemonic, "%s", mnemonic);
	return n + 1;
}

static int table(const char *processor)
{
	int generation = zc_emu_generation(processor);
	if (generation < 10) {
		fprintf(stderr, "instruction_table: processor %s is not emulated\n", processor);
		return 2;
	}
	LLVMDisasmContextRef dc = LLVMCreateDisasmCPUFeatures("amdgcn-amd-amdhsa", processor,
	                                                      "+wavefrontsize32", NULL, 0, NULL, NULL);
	static struct row rows[MAX_MNEMONICS];
	size_t n = 0;
	if (!dc) {
		fprintf(stderr, "instruction_table: LLVM has no disassembler for %s\n", processor);
		return 2;
	}
	for (size_t e = 0; e < sizeof encodings / sizeof encodings[0]; e++) {
		const struct encoding *enc = &encodings[e];
		if (!(enc->generations >> (generation - 10) & 1))
			continue;
		uint32_t op_mask = ((1u << enc->width) - 1) << enc->shift;
		for (uint32_t op = 0; op < 1u << enc->width; op++)
			for (int t = 0, reads = 0; t < TRIES && reads < ENOUGH_READS; t++) {
				/* Words beyond the instruction's own are zero where a literal or a DPP
				 * word would read them. */
				uint32_t words[4] = {0};
				char line[512], mnemonic[64];
				/* First every operand field zero, then every source v0 (the matrix and
				 * dot instructions read only VGPRs), the same with VOP3P's op_sel_hi
				 * bits set (which some of those must keep at their default), each one
				 * bit of the first word alone (DS's gds), then the mixes of
				 * operand_bits. */
				uint32_t free_bits = ~enc->fixed & ~op_mask, first = 0, rest = 0;
				if (t == 1 || t == 2)
					rest = VECTOR_SOURCES | (t == 2 ? OP_SEL_HI_0_1 : 0);
				if (t == 2)
					first = OP_SEL_HI_2;
				else if (t >= 3 && t < 35)
					first = 1u << (t - 3);
				else if (t >= 35)
					first = operand_bits();
				words[0] = enc->value | op << enc->shift | (first & free_bits);
				for (int w = 1; w < enc->words; w++)
					words[w] = t < 35 ? rest : operand_bits();
				if (!emu_disassemble(dc, (const uint8_t *)words, sizeof words, 0, generation, line, sizeof line))
					continue;
				reads += t >= 35;
				mnemonic_of(line, mnemonic, sizeof mnemonic);
				n = add_row(rows, n, enc->name, mnemonic);
				const char *second = strstr(line, " :: ");
				if (second) {
					mnemonic_of(second + 4, mnemonic, sizeof mnemonic);
					n = add_row(rows, n, enc->name, mnemonic);
				}
			}
	}
	LLVMDisasmDispose(dc);
	qsort(rows, n, sizeof rows[0], by_name);
	for (size_t i = 0; i < n; i++)
		printf("%s %s %s %s\n", processor, rows[i].encoding, rows[i].mnemonic,
		       emu_mnemonic_emulated(rows[i].mnemonic) ? "emulated" : "not-emulated");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: instruction_table PROCESSOR...\n");
		return 2;
	}
	LLVMInitializeAMDGPUTargetInfo();
	LLVMInitializeAMDGPUTargetMC();
	LLVMInitializeAMDGPUDisassembler();
	for (int i = 1; i < argc; i++) {
		int status = table(argv[i]);
		if (status)
			return status;
	}
	return 0;
}
