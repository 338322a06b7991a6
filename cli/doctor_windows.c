/* zluda-convert doctor on a Windows program (PE): the machine it will run on is not this
 * one, so doctor says what the file brings there: whether it was converted and for which
 * targets, and whether the nvcuda.dll beside it, and the DLL of each library the project
 * replaces that it imports, are zluda-convert's, which Windows' loader finds first
 * (docs/user-guide.md, "Windows programs"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "convert.h"
#include "embed.h"

enum nvcuda_state { NVCUDA_MISSING, NVCUDA_OURS, NVCUDA_OTHER };

static const char *const nvcuda_words[] = {
	[NVCUDA_MISSING] = "missing", [NVCUDA_OURS] = "zluda-convert", [NVCUDA_OTHER] = "other",
};

/* Whether the file at PATH holds MARK, read a block at a time; false when it cannot be read. */
static bool file_holds(const char *path, const char *mark)
{
	size_t mark_size = strlen(mark), kept = 0, got;
	char buf[1 << 16];
	bool holds = false;
	FILE *f = fopen(path, "rb");

	while (f && !holds && (got = fread(buf + kept, 1, sizeof buf - kept, f)) > 0) {
		size_t n = kept + got;
		holds = memmem(buf, n, mark, mark_size) != NULL;
		kept = n < mark_size ? n : mark_size - 1;  /* a mark across two reads */
		memmove(buf, buf + n - kept, kept);
	}
	if (f)
		fclose(f);
	return holds;
}

/* zluda-convert's nvcuda.dll carries the stub's messages, which name the project; NVIDIA's
 * does not. */
static enum nvcuda_state nvcuda_beside(const char *program, char *path, size_t size)
{
	char *dir = output_directory(program);

	snprintf(path, size, "%s/nvcuda.dll", dir);
	free(dir);
	if (access(path, F_OK) != 0)
		return NVCUDA_MISSING;
	return file_holds(path, "zluda-convert: using the %s driver") ? NVCUDA_OURS : NVCUDA_OTHER;
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

enum library_state { LIBRARY_OURS, LIBRARY_MISSING, LIBRARY_OTHER, LIBRARY_WITHOUT_CODE };

static const char *const library_words[] = {
	[LIBRARY_OURS] = "zluda-convert", [LIBRARY_MISSING] = "missing",
	[LIBRARY_OTHER] = "other", [LIBRARY_WITHOUT_CODE] = "without-code",
};

/* The project's DLL at PATH, which replaces one the program imports: there, zluda-convert's
 * (its trampolines' message names the project), and with code for every target of the
 * program where it carries kernels; the first target it lacks into *LACKING. */
static enum library_state library_beside(const char *path, const Replacement *r,
                                         const char **targets, size_t ntargets,
                                         const char **lacking)
{
	static const char ours[] = "not provided by zluda-convert"; /* the engine's trace */
	Input dll = {0};
	ZcError err;
	bool found = false;
	enum library_state state = LIBRARY_OURS;

	if (access(path, F_OK) != 0)
		return LIBRARY_MISSING;
	if (!binary_open(&dll.bin, path, &err))
		return LIBRARY_OTHER;
	if (!memmem(dll.bin.bytes, dll.bin.file_size, ours, sizeof ours - 1))
		state = LIBRARY_OTHER;
	else if (r->kernels &&
	         (!binary_aot_image(&dll.bin, &found, &dll.image, &err) || !found))
		state = LIBRARY_WITHOUT_CODE;
	dll.has_image = found;
	const char *own[64];
	size_t nown = found ? image_targets(&dll, own, 64) : 0;
	for (size_t i = 0; state == LIBRARY_OURS && r->kernels && i < ntargets; i++) {
		bool has = false;
		for (size_t k = 0; k < nown; k++)
			has |= strcmp(own[k], targets[i]) == 0;
		if (!has) {
			*lacking = targets[i];
			state = LIBRARY_WITHOUT_CODE;
		}
	}
	binary_close(&dll.bin);
	return state;
}

/* Each DLL the program imports that the project replaces, checked beside it and reported,
 * counted in *COUNT; false when one is not in order. */
static bool libraries_in_order(const Input *in, const char **targets, size_t ntargets, Json *j,
                               size_t *count)
{
	char *dir = output_directory(in->path);
	bool ok = true;

	if (j) {
		json_key(j, "libraries");
		json_array_begin(j);
	}
	for (size_t i = 0; i < in->bin.nimports; i++) {
		char name[64], path[4200];
		const Replacement *r = replaced_dll(in->bin.imports[i], name, sizeof name);
		const char *lacking = NULL;
		enum library_state state;

		if (!r)
			continue;
		++*count;
		snprintf(path, sizeof path, "%s/%s", dir, name);
		state = library_beside(path, r, targets, ntargets, &lacking);
		ok &= state == LIBRARY_OURS;
		if (j) {
			json_object_begin(j);
			json_field_string(j, "path", path);
			json_field_string(j, "state", library_words[state]);
			json_object_end(j);
		} else if (state == LIBRARY_MISSING)
			printf("%s: missing: the program imports it and zluda-convert provides it (%s); "
			       "converting the program places it\n", path, r->why);
		else if (state == LIBRARY_OTHER)
			printf("%s: not zluda-convert's (%s): converting the program places its own\n",
			       path, r->why);
		else if (state == LIBRARY_WITHOUT_CODE)
			printf("%s: zluda-convert's, but without code for %s: converting the program "
			       "places it again\n", path, lacking ? lacking : "any target");
		else
			printf("%s: zluda-convert's\n", path);
	}
	if (j)
		json_array_end(j);
	free(dir);
	return ok;
}

int doctor_windows_program(const Input *in, bool as_json)
{
	const char *targets[64];
	size_t ntargets = image_targets(in, targets, 64);
	char nvcuda[4200];
	size_t nlibraries = 0;
	enum nvcuda_state state = nvcuda_beside(in->path, nvcuda, sizeof nvcuda);
	/* A program of library calls only (cuBLAS, ...) has nothing of its own to convert. */
	bool own_code = in->set.ncontainers > 0;
	bool ready = (!own_code || (in->has_image && ntargets > 0)) && state == NVCUDA_OURS;

	if (as_json) {
		Json j;
		json_init(&j, stdout);
		json_object_begin(&j);
		json_field_string(&j, "path", in->path);
		json_field_bool(&j, "windows", true);
		json_field_bool(&j, "converted", in->has_image);
		json_field_bool(&j, "own_gpu_code", own_code);
		json_key(&j, "targets");
		json_array_begin(&j);
		for (size_t i = 0; i < ntargets; i++)
			json_string(&j, targets[i]);
		json_array_end(&j);
		json_field_string(&j, "nvcuda_dll", nvcuda_words[state]);
		ready &= libraries_in_order(in, targets, ntargets, &j, &nlibraries);
		json_field_bool(&j, "ready", ready);
		json_object_end(&j);
		json_finish(&j);
		return ready ? 0 : 1;
	}
	printf("%s: a Windows executable or DLL, ", in->path);
	if (!own_code)
		printf("no GPU code of its own\n");
	else if (!in->has_image)
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
	ready &= libraries_in_order(in, targets, ntargets, NULL, &nlibraries);
	printf("on Windows, nvcuda.dll uses an AMD GPU (HIP SDK 6.x or 7.x), else an NVIDIA GPU, "
	       "else the CPU when the program has code for it; ZLUDA_CONVERT_TRACE=1 prints its "
	       "choice there\n");
	if (!ready)
		printf("not ready\n");
	else
		printf("ready to copy to Windows with its nvcuda.dll%s\n",
		       nlibraries ? " and the libraries above" : "");
	return ready ? 0 : 1;
}
