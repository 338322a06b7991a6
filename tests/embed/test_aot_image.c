/* The AOT image: round trip of every record kind, deterministic bytes, lookups, builder errors,
 * and hostile bytes (every truncation, every single-byte corruption) giving clean errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_image.h"

static int failures;

#define CHECK(cond)                                                                       \
	do {                                                                                  \
		if (!(cond)) {                                                                    \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
			failures++;                                                                   \
		}                                                                                 \
	} while (0)

static void serialize(AotBuilder *b, uint8_t **bytes, size_t *size)
{
	ZcError err;

	if (!aot_builder_serialize(b, bytes, size, &err)) {
		fprintf(stderr, "serialize: %s\n", err.msg);
		exit(1);
	}
	aot_builder_free(b);
}

static void check_code_object(const AotImage *img, uint32_t module, const char *target,
                              AotBlobCompression compression)
{
	AotCodeObject co;
	uint8_t want[4096], got[4096];
	size_t n = sample_code_object(module, target, 0, want);
	ZcError err;

	CHECK(aot_find_code_object(img, module, target, &co));
	CHECK(co.module == module && strcmp(co.target, target) == 0);
	CHECK(co.compression == compression);
	CHECK(co.size == n && co.hash == aot_hash(want, n));
	CHECK(compression == AOT_STORED ? co.stored_size == n : co.stored_size < n);
	CHECK((co.stored - img->bytes) % AOT_BLOB_ALIGN == 0);
	CHECK(aot_code_object_read(&co, got, &err) && memcmp(got, want, n) == 0);
}

static void check_round_trip(const AotImage *img)
{
	uint32_t m;
	AotKernel k;
	AotGlobal g;
	AotModule mod;

	CHECK(img->modules.count == 3 && img->code_objects.count == 3 && img->kernels.count == 3);
	CHECK(img->params.count == 5 && img->globals.count == 2 && img->keys.count == 4);
	CHECK(img->untranslated.count == 2);

	CHECK(aot_find_module(img, AOT_KEY_FATBIN, aot_hash(SAMPLE_FATBIN_0, strlen(SAMPLE_FATBIN_0)),
	                      &m) && m == 0);
	CHECK(aot_find_module(img, AOT_KEY_PTX, aot_hash_ptx(SAMPLE_PTX_0), &m) && m == 0);
	CHECK(aot_find_module(img, AOT_KEY_FATBIN, aot_hash(SAMPLE_FATBIN_1, strlen(SAMPLE_FATBIN_1)),
	                      &m) && m == 1);
	CHECK(aot_find_module(img, AOT_KEY_FATBIN,
	                      aot_hash(SAMPLE_FATBIN_SASS, strlen(SAMPLE_FATBIN_SASS)), &m) && m == 2);
	/* the PTX text's hash is no fatbin key, and unknown hashes are not found */
	CHECK(!aot_find_module(img, AOT_KEY_FATBIN, aot_hash_ptx(SAMPLE_PTX_0), &m));
	CHECK(!aot_find_module(img, AOT_KEY_PTX, 12345, &m));

	mod = aot_module(img, 0);
	CHECK(strcmp(mod.name, "module 0") == 0 && mod.ncode_objects == 2 && mod.nkernels == 2);
	check_code_object(img, 0, "gfx1100", AOT_ZSTD);
	check_code_object(img, 0, "host", AOT_STORED);
	check_code_object(img, 1, "gfx1030", AOT_ZSTD);
	AotCodeObject co;
	CHECK(!aot_find_code_object(img, 0, "gfx1030", &co));
	CHECK(!aot_find_code_object(img, 2, "gfx1100", &co));
	CHECK(!aot_find_code_object(img, 7, "gfx1100", &co));

	uint32_t index;
	CHECK(aot_find_kernel(img, 0, "_Z5firstPfiS_c", &k, &index));
	CHECK(k.nparams == 4 && k.param_size == 41 && k.static_shared == 1024 && k.flags == 0);
	AotParam p = aot_param(img, k.first_param + 2);
	CHECK(p.offset == 16 && p.size == 24 && p.align == 8);
	CHECK(aot_find_kernel(img, 0, "second", &k, NULL));
	CHECK(k.flags == (AOT_KERNEL_DYNAMIC_SHARED | AOT_KERNEL_REQNTID));
	CHECK(k.reqntid[0] == 128 && k.reqntid[1] == 2 && k.reqntid[2] == 1 && k.maxntid[0] == 0);
	CHECK(aot_find_kernel(img, 1, "third", &k, NULL));
	CHECK(k.flags == AOT_KERNEL_MAXNTID && k.maxntid[0] == 256 && k.nparams == 0);
	CHECK(!aot_find_kernel(img, 1, "second", &k, NULL));
	CHECK(!aot_find_kernel(img, 0, "secon", &k, NULL));

	CHECK(aot_find_global(img, 0, "coefficients", &g) && g.size == 64 &&
	      g.space == AOT_SPACE_CONST);
	CHECK(aot_find_global(img, 0, "launch_counter", &g) && g.size == 4 &&
	      g.space == AOT_SPACE_GLOBAL);
	CHECK(!aot_find_global(img, 1, "launch_counter", &g));

	mod = aot_module(img, 1);
	CHECK(mod.nuntranslated == 1);
	AotUntranslated u = aot_untranslated(img, mod.first_untranslated);
	CHECK(u.module == 1 && strcmp(u.target, "gfx1030") == 0 && strcmp(u.what, "fourth") == 0);
	mod = aot_module(img, 2);
	CHECK(mod.ncode_objects == 0 && mod.nuntranslated == 1);
	u = aot_untranslated(img, mod.first_untranslated);
	CHECK(u.module == 2 && !*u.target && !*u.what && strstr(u.reason, "SASS only"));
}

/* Whatever a corrupted image parses to, reading all of it must stay within the bytes. */
static void exercise(const AotImage *img)
{
	static uint8_t buf[1 << 16];
	ZcError err;

	for (uint32_t i = 0; i < img->modules.count; i++) {
		AotModule m = aot_module(img, i);
		AotKernel k;
		AotGlobal g;
		AotCodeObject co;

		for (uint32_t j = 0; j < m.ncode_objects; j++) {
			co = aot_code_object(img, m.first_code_object + j);
			aot_find_code_object(img, i, co.target, &co);
			if (co.size <= sizeof(buf))
				aot_code_object_read(&co, buf, &err);
		}
		for (uint32_t j = 0; j < m.nkernels; j++) {
			k = aot_kernel(img, m.first_kernel + j);
			for (uint32_t q = 0; q < k.nparams; q++)
				aot_param(img, k.first_param + q);
			aot_find_kernel(img, i, k.name, &k, NULL);
		}
		for (uint32_t j = 0; j < m.nglobals; j++)
			aot_find_global(img, i, aot_global(img, m.first_global + j).name, &g);
		for (uint32_t j = 0; j < m.nuntranslated; j++)
			aot_untranslated(img, m.first_untranslated + j);
	}
	for (uint32_t i = 0; i < img->keys.count; i++) {
		AotKeyKind kind;
		uint64_t hash;
		uint32_t module;

		aot_key(img, i, &kind, &hash, &module);
		aot_find_module(img, kind, hash, &module);
	}
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static void test_hostile(const uint8_t *bytes, size_t size)
{
	uint8_t *copy = malloc(size);
	AotImage img;
	ZcError err;
	size_t accepted = 0;

	/* truncated, and truncated with the header's size field agreeing */
	for (size_t n = 0; n < size; n++) {
		uint8_t *cut = malloc(n ? n : 1);

		memcpy(cut, bytes, n);
		CHECK(!aot_image_parse(&img, cut, n, &err) && err.msg[0]);
		if (n >= 24) {
			put64(cut + 16, n);
			if (aot_image_parse(&img, cut, n, &err))
				exercise(&img);
		}
		free(cut);
	}
	/* every byte of the header and tables set to values that break offsets and counts */
	static const uint8_t values[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
	for (size_t i = 0; i < size; i++) {
		for (size_t v = 0; v < sizeof(values); v++) {
			memcpy(copy, bytes, size);
			if (copy[i] == values[v])
				continue;
			copy[i] = values[v];
			if (aot_image_parse(&img, copy, size, &err)) {
				accepted++;
				exercise(&img);
			} else {
				CHECK(err.msg[0] != 0);
			}
		}
	}
	printf("hostile: %zu truncations refused, %zu of %zu corruptions still parse (in names or "
	       "blobs) and read safely\n", size, accepted, size * sizeof(values));
	free(copy);
}

static void test_builder_errors(void)
{
	AotBuilder *b = aot_builder_new();
	AotKernelInfo k = {"dup", NULL, 0, 0, false, false, false, {0}, {0}};
	uint8_t *out;
	size_t size;
	ZcError err;
	uint32_t m = aot_add_module(b, "m");

	aot_add_kernel(b, m, &k);
	aot_add_kernel(b, m, &k);
	CHECK(!aot_builder_serialize(b, &out, &size, &err) && strstr(err.msg, "two kernels"));
	aot_builder_free(b);

	b = aot_builder_new();
	aot_add_global(b, 3, "g", 4, AOT_SPACE_GLOBAL);
	CHECK(!aot_builder_serialize(b, &out, &size, &err) && strstr(err.msg, "does not exist"));
	aot_builder_free(b);

	b = aot_builder_new();
	m = aot_add_module(b, "m");
	aot_add_code_object(b, m, "gfx1100", (const uint8_t *)"x", 1, false);
	aot_add_code_object(b, m, "gfx1100", (const uint8_t *)"y", 1, false);
	CHECK(!aot_builder_serialize(b, &out, &size, &err) && strstr(err.msg, "two code objects"));
	aot_builder_free(b);
}

static void test_empty(void)
{
	uint8_t *bytes;
	size_t size;
	AotImage img;
	ZcError err;
	uint32_t m;

	serialize(aot_builder_new(), &bytes, &size);
	CHECK(aot_image_parse(&img, bytes, size, &err));
	CHECK(img.modules.count == 0 && !aot_find_module(&img, AOT_KEY_FATBIN, 0, &m));
	free(bytes);
}

int main(void)
{
	uint8_t *a, *b, *c;
	size_t na, nb, nc;
	AotImage img;
	ZcError err;

	serialize(sample_builder(false, 0), &a, &na);
	serialize(sample_builder(true, 0), &b, &nb);
	serialize(sample_builder(false, 0), &c, &nc);
	CHECK(na == nb && memcmp(a, b, na) == 0); /* addition order does not matter */
	CHECK(na == nc && memcmp(a, c, na) == 0);
	CHECK(memcmp(a, AOT_MAGIC, 8) == 0);
	if (!aot_image_parse(&img, a, na, &err)) {
		fprintf(stderr, "parse: %s\n", err.msg);
		return 1;
	}
	check_round_trip(&img);
	test_hostile(a, na);
	test_builder_errors();
	test_empty();
	free(a);
	free(b);
	free(c);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
