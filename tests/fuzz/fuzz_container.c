/* libFuzzer harness for the container parser alone: the bytes are a bare buffer, parsed as
 * one fatbin from offset 0 and then probed at every 8-aligned offset the way discovery scans
 * unknown data. Without ELF or PE headers in front, every mutation lands on fatbin and entry
 * headers or payloads. */
#include <stdint.h>
#include <stdlib.h>

#include "fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void parse_at(const Binary *bin, uint64_t offset)
{
	Container c;
	ZcError err;

	if (!container_parse(bin, offset, bin->size, &c, &err))
		return;
	for (size_t ei = 0; ei < c.nentries; ei++) {
		uint8_t *contents;
		uint64_t contents_size;

		if (entry_contents(bin, &c.entries[ei], &contents, &contents_size, &err))
			free(contents);
	}
	container_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Binary bin = {.format = BIN_RAW_FATBIN, .path = "fuzz-input", .bytes = data, .size = size,
	              .pointer_size = 8, .machine = "none"};

	parse_at(&bin, 0);
	for (uint64_t at = 8; at + FATBIN_HEADER_SIZE <= size; at += 8)
		if (container_looks_valid(&bin, at, size))
			parse_at(&bin, at);
	return 0;
}
