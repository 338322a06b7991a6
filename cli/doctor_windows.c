/* zluda-convert doctor on a Windows program (PE): the machine it will run on is not this
 * one, so doctor says what the file brings there: whether it was converted and for which
 * targets, and whether the nvcuda.dll beside it is zluda-convert's, which Windows' loader
 * finds first (docs/user-guide.md, "Windows programs"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "convert.h"

enum nvcuda_state { NVCUDA_MISSING, NVCUDA_OURS, NVCUDA_OTHER };

static const char *const nvcuda_words[] = {
	[NVCUDA_MISSING] = "missing", [NVCUDA_OURS] = "zluda-convert", [NVCUDA_OTHER] = "other",
};

/* zluda-convert's nvcuda.dll carries the stub's messages, which name the project; NVIDIA's
 * does not. */
static enum nvcuda_state nvcuda_beside(const char *program, char *path, size_t size)
{
	char *dir = output_directory(program);
	static const char mark[] = "zluda-convert: using the %s driver";
	enum nvcuda_state state = NVCUDA_OTHER;
	FILE *f;

	snprintf(path, size, "%s/nvcuda.dll", dir);
	free(dir);
	if (!(f = fopen(path, "rb")))
		return NVCUDA_MISSING;
	char buf[1 << 16];
	size_t kept = 0, got;
	while (state == NVCUDA_OTHER && (got = fread(buf + kept, 1, sizeof buf - kept, f)) > 0) {
		size_t n = kept + got;
		if (memmem(buf, n, mark, sizeof mark - 1))
			state = NVCUDA_OURS;
		kept = n < sizeof mark ? n : sizeof mark - 1;  /* a mark across two reads */
		memmove(buf, buf + n - kept, kept);
	}
	fclose(f);
	return state;
}

/* The targets of the image's code objects, each once, in order. */
static size_t image_targets(const Input *in, const char **targets, size_t max)
{
	size_t n = 0;

	for (uint32_t c = 0; in->has_image && c < in->image.code_objects.count; c++) {
		const char *t = aot_code_object(&in->image, c).target;
		bool seen = false;
		for (size_t i = 0; i < n; i++)
			seen |= strcmp(targets[i], t) == 0;
		if (!seen && n < max)
			targets[n++] = t;
	}
	return n;
}

int doctor_windows_program(const Input *in, bool as_json)
{
	const char *targets[64];
	size_t ntargets = image_targets(in, targets, 64);
	char nvcuda[4200];
	enum nvcuda_state state = nvcuda_beside(in->path, nvcuda, sizeof nvcuda);
	bool ready = in->has_image && ntargets > 0 && state == NVCUDA_OURS;

	if (as_json) {
		Json j;
		json_init(&j, stdout);
		json_object_begin(&j);
		json_field_string(&j, "path", in->path);
		json_field_bool(&j, "windows", true);
		json_field_bool(&j, "converted", in->has_image);
		json_key(&j, "targets");
		json_array_begin(&j);
		for (size_t i = 0; i < ntargets; i++)
			json_string(&j, targets[i]);
		json_array_end(&j);
		json_field_string(&j, "nvcuda_dll", nvcuda_words[state]);
		json_field_bool(&j, "ready", ready);
		json_object_end(&j);
		json_finish(&j);
		return ready ? 0 : 1;
	}
	printf("%s: a Windows executable or DLL, ", in->path);
	if (!in->has_image)
		printf("not converted: no AMD code (zluda-convert FILE -o OUT converts it)\n");
	else if (!ntargets)
		printf("converted, but no kernel translated for any target\n");
	else
		for (size_t i = 0; i < ntargets; i++)
			printf("%s%s%s", i ? ", " : "converted for ", targets[i],
			       i + 1 == ntargets ? "\n" : "");
	if (state == NVCUDA_MISSING)
		printf("%s: missing: copy zluda-convert's nvcuda.dll beside the program\n", nvcuda);
	else if (state == NVCUDA_OTHER)
		printf("%s: not zluda-convert's: the program would run its original fatbins through it\n",
		       nvcuda);
	else
		printf("%s: zluda-convert's\n", nvcuda);
	printf("on Windows, nvcuda.dll uses an AMD GPU (HIP SDK 6.x or 7.x), else an NVIDIA GPU, "
	       "else the CPU when the program has code for it; ZLUDA_CONVERT_TRACE=1 prints its "
	       "choice there\n");
	printf("%s\n", ready ? "ready to copy to Windows with its nvcuda.dll" : "not ready");
	return ready ? 0 : 1;
}
