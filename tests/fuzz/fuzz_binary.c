/* libFuzzer harness for the binary readers: any bytes go through binary_from_memory (which
 * picks the ELF, PE or bare-fatbin reader by magic), fatbin discovery, the decompression of
 * every entry and the kernel-name scan of every PTX text. Errors are fine; crashes, hangs,
 * leaks and undefined behaviour are not. */
#include <stdint.h>
#include <stdlib.h>

#include "fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_entry(const Binary *bin, const Entry *e)
{
	uint8_t *contents;
	uint64_t contents_size;
	char **kernels;
	size_t nkernels;
	ZcError err;

	if (!entry_contents(bin, e, &contents, &contents_size, &err))
		return;
	if (e->kind == ENTRY_PTX) {
		nkernels = ptx_entry_names((const char *)contents, contents_size, &kernels);
		for (size_t k = 0; k < nkernels; k++)
			free(kernels[k]);
		free(kernels);
	}
	free(contents);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Binary bin;
	FatbinSet set;
	ZcError err;

	if (!binary_from_memory(&bin, "fuzz-input", data, size, &err))
		return 0;
	if (fatbin_discover(&bin, &set, &err)) {
		for (size_t ci = 0; ci < set.ncontainers; ci++)
			for (size_t ei = 0; ei < set.containers[ci].nentries; ei++)
				read_entry(&bin, &set.containers[ci].entries[ei]);
		fatbin_set_free(&set);
	}
	binary_close(&bin);
	return 0;
}
