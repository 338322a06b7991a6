/* check_decoded: lists the instructions of AMDGPU code objects that the emulator cannot run,
 * so that code a test never executes is still known to be covered.
 *
 *   check_decoded [--no-trap] PROCESSOR CODE_OBJECT...
 *
 * Prints "FILE: not emulated: INSTRUCTION at 0xADDRESS" for each, and with --no-trap
 * "FILE: s_trap at 0xADDRESS" for each s_trap (read as the emulator decodes the code, which
 * works around the faults of LLVM's disassembler that llvm-objdump has); exit status 0 when
 * there are none, 1 when there are, 2 when a code object does not load. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "emulator.h"

static void report(const char *text, uint64_t address, void *file)
{
	printf("%s: not emulated: %s at 0x%llx\n", (const char *)file, text, (unsigned long long)address);
}

/* The s_trap instructions of OBJECT, reported; whether there are any. */
static int traps(const struct zc_emu_object *object, const char *file)
{
	int found = 0;

	for (uint32_t i = 0; i < object->ncode; i++)
		if (strncmp(object->code[i].text, "s_trap", 6) == 0) {
			printf("%s: s_trap at 0x%llx\n", file, (unsigned long long)object->code[i].address);
			found = 1;
		}
	return found;
}

int main(int argc, char **argv)
{
	int status = 0, no_trap = argc > 1 && strcmp(argv[1], "--no-trap") == 0;

	argv += no_trap, argc -= no_trap;
	if (argc < 3) {
		fprintf(stderr, "usage: check_decoded [--no-trap] PROCESSOR CODE_OBJECT...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		char error[ZC_EMU_ERROR_SIZE];
		struct zc_emu_object *object;
		if (!f) {
			fprintf(stderr, "check_decoded: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		fseek(f, 0, SEEK_END);
		long size = ftell(f);
		fseek(f, 0, SEEK_SET);
		void *data = malloc(size > 0 ? (size_t)size : 1);
		size_t got = data ? fread(data, 1, (size_t)size, f) : 0;
		fclose(f);
		if (got != (size_t)size || zc_emu_load(data, got, argv[1], &object, error) != ZC_EMU_OK) {
			fprintf(stderr, "check_decoded: %s: %s\n", argv[i], got != (size_t)size ? "cannot read" : error);
			free(data);
			return 2;
		}
		if (zc_emu_unemulated(object, report, argv[i]) || (no_trap && traps(object, argv[i])))
			status = 1;
		zc_emu_unload(object);
		free(data);
	}
	return status;
}
