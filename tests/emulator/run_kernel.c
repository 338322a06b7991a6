/* run_kernel: runs one kernel of an AMDGPU code object on the emulator and checks the words
 * of the buffer it writes, for the instruction-family tests (emutest.py).
 *
 *   run_kernel [--block N] [--words N] [--init FILE] [--expect FILE] [--expect-error FILE]
 *              [--lanes N] [--expect-cycles N] CODE_OBJECT PROCESSOR KERNEL
 *
 * One workgroup of N work-items (--block, default 32) runs; its kernel's only argument is
 * the address of a buffer of --words 32-bit words (default 1024), registered with the
 * emulator and filled from --init (whitespace-separated hex words; the rest are 0). Then:
 * - with --expect FILE (one token per word, hex, or "-" for a word not checked): the launch
 *   must succeed and every checked word equal its token; mismatches are listed as
 *   "word W (slot S lane L): expected X got Y", S and L counting words in rows of --lanes;
 * - with --expect-error FILE: the launch must fail, with exactly the message the file's
 *   first line holds;
 * - with --expect-cycles N (besides --expect): the emulator's cycle estimate of the launch
 *   (zc_emu_cycles_estimated) must be N.
 * Exit status 0: as expected; 1: not as expected; 2: bad usage or a code object that did
 * not load. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator.h"

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t used = 0, cap = 0;
	if (!f) {
		fprintf(stderr, "run_kernel: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (used == cap) {
			cap = cap ? cap * 2 : 65536;
			char *grown = realloc(data, cap + 1);
			if (!grown) {
				free(data);
				fclose(f);
				return NULL;
			}
			data = grown;
		}
		size_t n = fread(data + used, 1, cap - used, f);
		used += n;
		if (n == 0)
			break;
	}
	fclose(f);
	data[used] = 0;
	*size = used;
	return data;
}

static void usage(void)
{
	fprintf(stderr, "usage: run_kernel [--block N] [--words N] [--init FILE] [--expect FILE] "
	        "[--expect-error FILE] [--lanes N] [--expect-cycles N] CODE_OBJECT PROCESSOR KERNEL\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long block = 32, words = 1024, lanes = 32;
	const char *init = NULL, *expect = NULL, *expect_error = NULL, *expect_cycles = NULL;
	const char *positional[3];
	int npositional = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--block") == 0 && i + 1 < argc)
			block = strtoul(argv[++i], NULL, 0);
		else if (strcmp(a, "--words") == 0 && i + 1 < argc)
			words = strtoul(argv[++i], NULL, 0);
		else if (strcmp(a, "--lanes") == 0 && i + 1 < argc)
			lanes = strtoul(argv[++i], NULL, 0);
		else if (strcmp(a, "--init") == 0 && i + 1 < argc)
			init = argv[++i];
		else if (strcmp(a, "--expect") == 0 && i + 1 < argc)
			expect = argv[++i];
		else if (strcmp(a, "--expect-cycles") == 0 && i + 1 < argc)
			expect_cycles = argv[++i];
		else if (strcmp(a, "--expect-error") == 0 && i + 1 < argc)
			expect_error = argv[++i];
		else if (a[0] == '-' || npositional == 3)
			usage();
		else
			positional[npositional++] = a;
	}
	if (npositional != 3 || (!expect) == (!expect_error) || block == 0 || block > 1024 ||
	    words == 0 || lanes == 0)
		usage();

	size_t image_size;
	void *image = read_file(positional[0], &image_size);
	if (!image)
		return 2;
	char error[ZC_EMU_ERROR_SIZE];
	struct zc_emu_object *object;
	const struct zc_emu_kernel *kernel;
	if (zc_emu_load(image, image_size, positional[1], &object, error) != ZC_EMU_OK ||
	    zc_emu_find_kernel(object, positional[2], &kernel, error) != ZC_EMU_OK) {
		fprintf(stderr, "run_kernel: %s\n", error);
		return 2;
	}
	free(image);

	uint32_t *buffer = aligned_alloc(256, (words * 4 + 255) & ~(size_t)255);
	if (!buffer)
		return 2;
	memset(buffer, 0, words * 4);
	if (init) {
		size_t size;
		char *text = read_file(init, &size), *p = text, *end;
		if (!text)
			return 2;
		for (unsigned long i = 0; i < words; i++) {
			unsigned long long v = strtoull(p, &end, 16);
			if (end == p)
				break;
			buffer[i] = (uint32_t)v;
			p = end;
		}
		free(text);
	}
	zc_emu_map(buffer, words * 4);

	uint64_t argument = (uint64_t)(uintptr_t)buffer;
	struct zc_emu_dispatch dispatch = {
		.grid = {1, 1, 1},
		.block = {(uint32_t)block, 1, 1},
		.kernarg = &argument,
		.kernarg_size = sizeof argument,
	};
	uint64_t cycles_before = zc_emu_cycles_estimated();
	enum zc_emu_status status = zc_emu_launch(kernel, &dispatch, error);
	uint64_t cycles = zc_emu_cycles_estimated() - cycles_before;
	int result = 0;

	if (expect_cycles && status == ZC_EMU_OK && cycles != strtoull(expect_cycles, NULL, 0)) {
		printf("cycle estimate %" PRIu64 ", expected %s\n", cycles, expect_cycles);
		result = 1;
	}

	if (expect_error) {
		size_t size;
		char *want = read_file(expect_error, &size);
		if (!want)
			return 2;
		want[strcspn(want, "\n")] = 0;
		if (status == ZC_EMU_OK) {
			printf("the launch succeeded; expected it to fail with: %s\n", want);
			result = 1;
		} else if (strcmp(error, want) != 0) {
			printf("the launch failed with: %s\nexpected:               %s\n", error, want);
			result = 1;
		}
		free(want);
	} else if (status != ZC_EMU_OK) {
		printf("the launch failed (status %d): %s\n", (int)status, error);
		result = 1;
	} else {
		size_t size;
		char *text = read_file(expect, &size), *p = text;
		unsigned mismatches = 0;
		if (!text)
			return 2;
		for (unsigned long i = 0; i < words; i++) {
			while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
				p++;
			if (!*p)
				break;
			if (*p == '-') {
				p++;
				continue;
			}
			char *end;
			uint32_t want = (uint32_t)strtoull(p, &end, 16);
			if (end == p) {
				fprintf(stderr, "run_kernel: %s: bad token at word %lu\n", expect, i);
				return 2;
			}
			p = end;
			if (buffer[i] != want) {
				if (mismatches < 64)
					printf("word %lu (slot %lu lane %lu): expected 0x%08" PRIx32 " got 0x%08"
					       PRIx32 "\n", i, i / lanes, i % lanes, want, buffer[i]);
				mismatches++;
			}
		}
		free(text);
		if (mismatches) {
			printf("%u words differ\n", mismatches);
			result = 1;
		}
	}
	zc_emu_unmap(buffer);
	free(buffer);
	zc_emu_unload(object);
	return result;
}
