/* libFuzzer harness for the AOT image reader the runtime stub trusts: any bytes go through
 * the locator (ELF section, PE or module-file trailer) and, found or not, the parser; a
 * parsed image is then read as the stub reads it: every table through its accessors, every
 * lookup by the names and keys it holds, every code object decompressed and checked
 * against its hash. Errors are fine; crashes, hangs, leaks and undefined behaviour are not. */
#include <stdint.h>
#include <stdlib.h>

#include "aot_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The stub allocates what a code object claims before it decompresses; past this the
 * harness would only measure malloc. */
#define LARGEST_CODE_OBJECT (64u << 20)

static void read_code_objects(const AotImage *img)
{
	for (uint32_t i = 0; i < img->code_objects.count; i++) {
		AotCodeObject co = aot_code_object(img, i), found;
		uint8_t *bytes;
		ZcError err;

		aot_find_code_object(img, co.module, co.target, &found);
		if (co.size > LARGEST_CODE_OBJECT || !(bytes = malloc(co.size ? co.size : 1)))
			continue;
		aot_code_object_read(&co, bytes, &err);
		free(bytes);
	}
}

static void read_tables(const AotImage *img)
{
	for (uint32_t i = 0; i < img->kernels.count; i++) {
		AotKernel k = aot_kernel(img, i), found;
		uint32_t index;

		for (uint32_t p = 0; p < k.nparams; p++)
			aot_param(img, k.first_param + p);
		for (uint32_t m = 0; m < img->modules.count; m++)
			aot_find_kernel(img, m, k.name, &found, &index);
	}
	for (uint32_t i = 0; i < img->globals.count; i++) {
		AotGlobal g = aot_global(img, i), found;

		for (uint32_t m = 0; m < img->modules.count; m++)
			aot_find_global(img, m, g.name, &found);
	}
	for (uint32_t i = 0; i < img->keys.count; i++) {
		AotKeyKind kind;
		uint64_t hash;
		uint32_t module, found;

		aot_key(img, i, &kind, &hash, &module);
		aot_find_module(img, kind, hash, &found);
	}
	for (uint32_t i = 0; i < img->untranslated.count; i++)
		aot_untranslated(img, i);
}

static void read_image(const uint8_t *bytes, uint64_t size)
{
	AotImage img;
	ZcError err;

	if (!aot_image_parse(&img, bytes, size, &err))
		return;
	read_tables(&img);
	read_code_objects(&img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool found;
	uint64_t offset, image_size;
	ZcError err;

	if (aot_image_locate_in_memory(data, size, &found, &offset, &image_size, &err) && found)
		read_image(data + offset, image_size);
	read_image(data, size);
	return 0;
}
