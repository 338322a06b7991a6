/* Embedding into broken binaries: every truncation and many single-byte corruptions of the
 * headers of an ELF and a PE file. Each either fails with a message or gives an output in
 * which the image is found again and which, converted again, gives the same bytes (so the
 * record of the original is exact). Run under ASan+UBSan in CI. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embed.h"
#include "sample_image.h"

typedef bool EmbedFn(const uint8_t *, uint64_t, const uint8_t *, uint64_t, ByteBuffer *,
                     ZcError *);

static int failures;
static uint8_t *image;
static size_t image_size;

static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *bytes;
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	bytes = malloc((size_t)n + 1);
	*size = fread(bytes, 1, (size_t)n, f);
	fclose(f);
	return bytes;
}

/* Returns whether it embedded; checks what must hold of any output. */
static bool try_embed(EmbedFn *embed, const uint8_t *file, uint64_t size, const char *what,
                      uint64_t where)
{
	ByteBuffer out, again;
	ZcError err = {{0}};
	bool found = false;
	uint64_t offset, located_size;

	if (!embed(file, size, image, image_size, &out, &err)) {
		if (!err.msg[0]) {
			fprintf(stderr, "%s 0x%llx: failed without a message\n", what,
			        (unsigned long long)where);
			failures++;
		}
		return false;
	}
	if (!aot_image_locate_in_memory(out.bytes, out.size, &found, &offset, &located_size, &err) ||
	    !found || located_size != image_size || memcmp(out.bytes + offset, image, image_size)) {
		fprintf(stderr, "%s 0x%llx: image not found in the output (%s)\n", what,
		        (unsigned long long)where, found ? "differs" : err.msg);
		failures++;
	} else if (!embed(out.bytes, out.size, image, image_size, &again, &err)) {
		fprintf(stderr, "%s 0x%llx: output does not convert again: %s\n", what,
		        (unsigned long long)where, err.msg);
		failures++;
	} else {
		if (again.size != out.size || memcmp(again.bytes, out.bytes, out.size) != 0) {
			fprintf(stderr, "%s 0x%llx: converting again changes the bytes\n", what,
			        (unsigned long long)where);
			failures++;
		}
		free(again.bytes);
	}
	free(out.bytes);
	return true;
}

static void corrupt_range(EmbedFn *embed, const uint8_t *file, size_t size, uint64_t from,
                          uint64_t len, const char *what, size_t *tried, size_t *embedded)
{
	static const uint8_t values[] = {0x00, 0x01, 0x80, 0xff};
	uint8_t *copy = malloc(size);

	for (uint64_t i = from; i < from + len && i < size; i++) {
		for (size_t v = 0; v < sizeof(values); v++) {
			if (file[i] == values[v])
				continue;
			memcpy(copy, file, size);
			copy[i] = values[v];
			++*tried;
			*embedded += try_embed(embed, copy, size, what, i);
		}
	}
	free(copy);
}

static void test_elf(const char *path)
{
	size_t size, tried = 0, embedded = 0;
	uint8_t *file = read_file(path, &size);
	Elf64_Ehdr eh;

	memcpy(&eh, file, sizeof(eh));
	if (!try_embed(elf_embed, file, size, "elf", 0)) {
		fprintf(stderr, "%s: the intact file does not embed\n", path);
		failures++;
	}
	for (size_t n = 0; n < size; n++)
		try_embed(elf_embed, file, n, "elf truncated to", n);
	corrupt_range(elf_embed, file, size, 0, sizeof(eh), "elf header", &tried, &embedded);
	corrupt_range(elf_embed, file, size, eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr),
	              "elf program header", &tried, &embedded);
	corrupt_range(elf_embed, file, size, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr),
	              "elf section header", &tried, &embedded);
	for (size_t i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, file + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_DYNAMIC)
			corrupt_range(elf_embed, file, size, ph.p_offset, ph.p_filesz, "elf dynamic",
			              &tried, &embedded);
	}
	printf("elf: %zu truncations, %zu corruptions (%zu still embed)\n", size, tried, embedded);
	free(file);
}

static void test_pe(const char *path)
{
	size_t size, tried = 0, embedded = 0;
	uint8_t *file = read_file(path, &size);
	uint32_t headers;

	if (!try_embed(pe_embed, file, size, "pe", 0)) {
		fprintf(stderr, "%s: the intact file does not embed\n", path);
		failures++;
	}
	memcpy(&headers, file + read_le(file + 0x3c, 4) + 24 + 60, 4);
	for (size_t n = 0; n < size; n += n < headers ? 1 : 4093)
		try_embed(pe_embed, file, n, "pe truncated to", n);
	corrupt_range(pe_embed, file, size, 0, headers, "pe header", &tried, &embedded);
	printf("pe: %zu corruptions (%zu still embed)\n", tried, embedded);
	free(file);
}

int main(int argc, char **argv)
{
	AotBuilder *b = sample_builder(false, 0);
	ZcError err;

	if (argc != 3) {
		fprintf(stderr, "usage: test_embed_hostile ELF PE\n");
		return 2;
	}
	if (!aot_builder_serialize(b, &image, &image_size, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	aot_builder_free(b);
	test_elf(argv[1]);
	test_pe(argv[2]);
	free(image);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures ? 1 : 0;
}
