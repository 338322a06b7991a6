/* The sample image: three modules (two targets with kernels and globals; one target with an
 * untranslated kernel; a SASS-only container with no code at all). */
#include <string.h>

#include "sample_image.h"

size_t sample_code_object(uint32_t module, const char *target, unsigned salt, uint8_t *buf)
{
	/* gfx targets: repetitive, so zstd shrinks them; host: pseudo-random, stored as is */
	bool random = strcmp(target, "host") == 0;
	size_t size = 1000 + 300 * module + strlen(target);
	uint32_t x = 2463534242u + module * 977 + salt * 131 + (uint32_t)strlen(target);

	for (size_t i = 0; i < size; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		buf[i] = random ? (uint8_t)x : (uint8_t)("ELF code object "[i % 16] + salt + module);
	}
	return size;
}

static const AotParam first_params[] = {{0, 8, 8}, {8, 4, 4}, {16, 24, 8}, {40, 1, 1}};
static const AotParam second_params[] = {{0, 8, 8}};

static void add_code(AotBuilder *b, uint32_t module, const char *target, unsigned salt)
{
	uint8_t buf[4096];
	size_t n = sample_code_object(module, target, salt, buf);

	aot_add_code_object(b, module, target, buf, n, true);
}

static void add_module0(AotBuilder *b, uint32_t m, bool reversed, unsigned salt)
{
	AotKernelInfo first = {"_Z5firstPfiS_c", first_params, 4, 1024, false, false, false,
	                       {0}, {0}};
	AotKernelInfo second = {"second", second_params, 1, 0, true, true, false, {128, 2, 1}, {0}};

	if (reversed) {
		aot_add_key(b, m, AOT_KEY_PTX, aot_hash_ptx(SAMPLE_PTX_0));
		aot_add_global(b, m, "launch_counter", 4, AOT_SPACE_GLOBAL);
		aot_add_global(b, m, "coefficients", 64, AOT_SPACE_CONST);
		aot_add_kernel(b, m, &second);
		aot_add_kernel(b, m, &first);
		add_code(b, m, "host", salt);
		add_code(b, m, "gfx1100", salt);
		aot_add_key(b, m, AOT_KEY_FATBIN, aot_hash(SAMPLE_FATBIN_0, strlen(SAMPLE_FATBIN_0)));
	} else {
		aot_add_key(b, m, AOT_KEY_FATBIN, aot_hash(SAMPLE_FATBIN_0, strlen(SAMPLE_FATBIN_0)));
		add_code(b, m, "gfx1100", salt);
		add_code(b, m, "host", salt);
		aot_add_kernel(b, m, &first);
		aot_add_kernel(b, m, &second);
		aot_add_global(b, m, "coefficients", 64, AOT_SPACE_CONST);
		aot_add_global(b, m, "launch_counter", 4, AOT_SPACE_GLOBAL);
		aot_add_key(b, m, AOT_KEY_PTX, aot_hash_ptx(SAMPLE_PTX_0));
	}
}

static void add_module1(AotBuilder *b, uint32_t m, unsigned salt)
{
	AotKernelInfo k = {"third", NULL, 0, 16, false, false, true, {0}, {256, 1, 1}};

	aot_add_key(b, m, AOT_KEY_FATBIN, aot_hash(SAMPLE_FATBIN_1, strlen(SAMPLE_FATBIN_1)));
	add_code(b, m, "gfx1030", salt);
	aot_add_kernel(b, m, &k);
	aot_add_untranslated(b, m, "gfx1030", "fourth", "uses tex.2d, which has no translation");
}

static void add_module2(AotBuilder *b, uint32_t m)
{
	aot_add_key(b, m, AOT_KEY_FATBIN, aot_hash(SAMPLE_FATBIN_SASS, strlen(SAMPLE_FATBIN_SASS)));
	aot_add_untranslated(b, m, NULL, NULL, "SASS only (sm_80): no PTX to translate");
}

AotBuilder *sample_builder(bool reversed, unsigned salt)
{
	AotBuilder *b = aot_builder_new();
	uint32_t m0 = aot_add_module(b, "module 0");
	uint32_t m1 = aot_add_module(b, "module 1");
	uint32_t m2 = aot_add_module(b, "module 2 (sass)");

	if (reversed) {
		add_module2(b, m2);
		add_module1(b, m1, salt);
		add_module0(b, m0, true, salt);
	} else {
		add_module0(b, m0, false, salt);
		add_module1(b, m1, salt);
		add_module2(b, m2);
	}
	return b;
}
