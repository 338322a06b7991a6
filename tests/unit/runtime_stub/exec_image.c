/* zc-exec-image CODE_OBJECT IN OUT [--untranslated]: what `zluda-convert` will do for the
 * execution test, done by hand: an AOT image with one module (exec_kernels.c's host code
 * object, keyed by the PTX text and the fatbin of exec_module.h) embedded into the binary
 * IN, written to OUT. With --untranslated, the module has no code but a record saying why it
 * was not translated for host: a file converted for the CPU whose only module failed. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_image.h"
#include "embed.h"
#include "exec_module.h"

static uint8_t *
read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *bytes = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (bytes = malloc((size_t)n)) && fread(bytes, 1, (size_t)n, f) == (size_t)n)
		*size = (size_t)n;
	else
		bytes = (free(bytes), NULL);
	if (f)
		fclose(f);
	return bytes;
}

int
main(int argc, char **argv)
{
	uint8_t *code, *image;
	size_t code_size, image_size;
	Binary bin;
	ZcError err;

	bool untranslated = argc == 5 && strcmp(argv[4], "--untranslated") == 0;

	if (argc != 4 && !untranslated) {
		fprintf(stderr, "usage: zc-exec-image CODE_OBJECT IN OUT [--untranslated]\n");
		return 2;
	}
	if (!(code = read_file(argv[1], &code_size))) {
		fprintf(stderr, "zc-exec-image: cannot read %s\n", argv[1]);
		return 1;
	}
	AotBuilder *b = aot_builder_new();
	uint32_t m = aot_add_module(b, "exec_kernels");
	aot_add_key(b, m, AOT_KEY_PTX, aot_hash_ptx(exec_ptx));
	aot_add_key(b, m, AOT_KEY_FATBIN, aot_hash(exec_fatbin, sizeof exec_fatbin));
	if (untranslated)
		aot_add_untranslated(b, m, "host", "", "the exec module, line 1:1: not supported yet: a test");
	else
		aot_add_code_object(b, m, "host", code, code_size, true);
	for (int i = 0; i < EXEC_KERNELS; i++) {
		const struct exec_kernel *k = &exec_kernels[i];
		AotParam params[3];
		for (uint32_t p = 0; p < k->nparams; p++)
			params[p] = (AotParam){ k->params[p].offset, k->params[p].size, k->params[p].size };
		aot_add_kernel(b, m, &(AotKernelInfo){
			.name = k->name, .params = params, .nparams = k->nparams,
			.static_shared = k->static_shared, .dynamic_shared = k->dynamic,
			.has_maxntid = k->maxntid != 0, .maxntid = { k->maxntid, 1, 1 } });
	}
	aot_add_global(b, m, "zk_counter", 4, AOT_SPACE_GLOBAL);
	aot_add_global(b, m, "zk_table", 16, AOT_SPACE_GLOBAL);
	/* A second module without code for the host: what a SASS-only fatbin becomes. */
	uint32_t sass = aot_add_module(b, "sass_only");
	aot_add_key(b, sass, AOT_KEY_PTX, aot_hash_ptx("// sass only\n"));
	aot_add_untranslated(b, sass, "", "", "the fatbin holds SASS only, no PTX");
	bool ok = aot_builder_serialize(b, &image, &image_size, &err);
	aot_builder_free(b);
	free(code);
	if (!ok || !binary_open(&bin, argv[2], &err)) {
		fprintf(stderr, "zc-exec-image: %s\n", err.msg);
		return 1;
	}
	ok = embed_image(&bin, image, image_size, argv[3], &err);
	binary_close(&bin);
	free(image);
	if (!ok)
		fprintf(stderr, "zc-exec-image: %s: %s\n", argv[3], err.msg);
	return ok ? 0 : 1;
}
