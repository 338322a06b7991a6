/* zc-embed-test: the embedding tests' driver.
 *   make-image OUT [SALT]   write the sample AOT image
 *   embed IN IMAGE OUT      embed IMAGE into the binary IN, writing OUT
 *   fatbins FILE            our readers' view of FILE: sections, containers, wrappers, and
 *                           the AOT image it carries (binary_aot_image) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embed.h"
#include "sample_image.h"

static int fail(const char *what, const ZcError *err)
{
	fprintf(stderr, "zc-embed-test: %s: %s\n", what, err->msg);
	return 1;
}

static bool read_file(const char *path, uint8_t **bytes, size_t *size)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		if (f)
			fclose(f);
		return false;
	}
	*bytes = malloc(n ? (size_t)n : 1);
	*size = (size_t)n;
	bool ok = fread(*bytes, 1, *size, f) == *size;
	fclose(f);
	return ok;
}

static bool write_file(const char *path, const uint8_t *bytes, size_t size)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(bytes, 1, size, f) == size;

	return f && fclose(f) == 0 && ok;
}

static int make_image(const char *out, unsigned salt)
{
	uint8_t *bytes;
	size_t size;
	ZcError err;
	AotBuilder *b = sample_builder(false, salt);
	bool ok = aot_builder_serialize(b, &bytes, &size, &err);

	aot_builder_free(b);
	if (!ok)
		return fail("make-image", &err);
	ok = write_file(out, bytes, size);
	free(bytes);
	return ok ? 0 : 1;
}

static int embed(const char *in, const char *image_path, const char *out)
{
	Binary bin;
	ZcError err;
	uint8_t *image;
	size_t size;

	if (!read_file(image_path, &image, &size)) {
		fprintf(stderr, "zc-embed-test: cannot read %s\n", image_path);
		return 1;
	}
	if (!binary_open(&bin, in, &err))
		return fail(in, &err);
	bool ok = embed_image(&bin, image, size, out, &err);
	binary_close(&bin);
	free(image);
	return ok ? 0 : fail(out, &err);
}

static int fatbins(const char *path)
{
	Binary bin;
	FatbinSet set = {0};
	ZcError err;

	if (!binary_open(&bin, path, &err))
		return fail(path, &err);
	if (!fatbin_discover(&bin, &set, &err)) {
		binary_close(&bin);
		return fail(path, &err);
	}
	for (size_t i = 0; i < bin.nsections; i++)
		printf("section %s 0x%llx 0x%llx\n", bin.sections[i].name,
		       (unsigned long long)bin.sections[i].offset,
		       (unsigned long long)bin.sections[i].size);
	for (size_t i = 0; i < set.ncontainers; i++)
		printf("container 0x%llx 0x%llx %zu\n", (unsigned long long)set.containers[i].offset,
		       (unsigned long long)set.containers[i].size, set.containers[i].nentries);
	for (size_t i = 0; i < set.nwrappers; i++)
		printf("wrapper 0x%llx -> 0x%llx\n", (unsigned long long)set.wrappers[i].offset,
		       (unsigned long long)set.wrappers[i].data);
	bool found;
	AotImage img;
	if (!binary_aot_image(&bin, &found, &img, &err)) {
		fatbin_set_free(&set);
		binary_close(&bin);
		return fail(path, &err);
	}
	if (found)
		printf("aot image: %u modules, %u code objects\n", img.modules.count,
		       img.code_objects.count);
	fatbin_set_free(&set);
	binary_close(&bin);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "make-image") == 0)
		return make_image(argv[2], argc > 3 ? (unsigned)atoi(argv[3]) : 0);
	if (argc == 5 && strcmp(argv[1], "embed") == 0)
		return embed(argv[2], argv[3], argv[4]);
	if (argc == 3 && strcmp(argv[1], "fatbins") == 0)
		return fatbins(argv[2]);
	fprintf(stderr, "usage: zc-embed-test make-image OUT [SALT] | embed IN IMAGE OUT | "
	                "fatbins FILE\n");
	return 2;
}
