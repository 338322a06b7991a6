/* convert --with-libraries: the libraries a program loads that carry fatbins (NVIDIA's
 * cuRAND, cuFFT, cuBLAS, ... or the program's own), converted beside its output under the
 * names the loader looks for, so that the output's $ORIGIN search path finds them before the
 * originals. A library converted there before from the same bytes, by this converter, for
 * the same targets and options, is reused. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "libraries.h"

/* A pattern with a wildcard is a shell glob on the library's name; a plain word names the
 * library itself (libcurand.so.10) or its stem: curand and libcurand both match
 * libcurand.so.10. */
static bool pattern_matches(const char *pattern, size_t len, const char *name)
{
	char *p = zc_strndup(pattern, len);
	bool match;

	if (strpbrk(p, "*?["))
		match = fnmatch(p, name, 0) == 0;
	else {
		size_t lib = strncmp(p, "lib", 3) == 0 ? 0 : 3;
		size_t n = strlen(p);

		match = strcmp(p, name) == 0 ||
		        ((lib == 0 || strncmp(name, "lib", 3) == 0) && strncmp(name + lib, p, n) == 0 &&
		         strncmp(name + lib + n, ".so", 3) == 0);
	}
	free(p);
	return match;
}

/* Which pattern of the list matches NAME: its index, or -1. */
static int matching_pattern(const char *patterns, const char *name)
{
	int index = 0;

	for (const char *p = patterns; *p; index++) {
		size_t len = strcspn(p, ",");

		if (len && pattern_matches(p, len, name))
			return index;
		p += len;
		p += *p == ',';
	}
	return -1;
}

static uint64_t little_endian(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* The conversion key of the converted file at PATH; 0 when it has none. */
static uint64_t key_of_converted(const char *path)
{
	uint8_t header[AOT_HEADER_SIZE];
	uint64_t offset, size, key = 0;
	bool found;
	ZcError err;
	int fd;

	if (access(path, R_OK) != 0 || !aot_image_locate(path, &found, &offset, &size, &err) ||
	    !found || size < AOT_HEADER_SIZE || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (pread(fd, header, sizeof(header), (off_t)offset) == (ssize_t)sizeof(header) &&
	    memcmp(header, AOT_MAGIC, 8) == 0 && little_endian(header + 8, 4) == AOT_VERSION &&
	    little_endian(header + 12, 4) == AOT_HEADER_SIZE)
		key = little_endian(header + 176, 8);
	close(fd);
	return key;
}

static bool same_file(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

/* Converts LIB into DIR, or reuses it there; false when it is not there afterwards (no
 * fatbins, or failures under --strict, which clear *ok). */
static bool convert_library(const ConvertOptions *o, const Library *lib, const char *dir,
                            bool named, bool *ok)
{
	ConvertOptions lo = *o;
	ConvertSummary summary;
	Input probe = {0};
	char *out = zc_alloc(strlen(dir) + strlen(lib->name) + 2);
	bool gpu_code, placed = false;
	uint64_t key;

	sprintf(out, "%s/%s", dir, lib->name);
	lo.in = lib->path;
	lo.out = out;
	lo.report = lo.save_temps = lo.dump = NULL;
	lo.with_libraries = false;
	lo.unit_detail = 2;
	input_load(&probe, lib->path, false);
	gpu_code = probe.set.ncontainers > 0;
	key = gpu_code ? conversion_key(probe.bin.bytes, probe.bin.size, &lo) : 0;
	input_free(&probe);
	if (!gpu_code) {
		if (named)
			inform(1, "zluda-convert: %s: carries no fatbins; nothing to convert", lib->path);
	} else if (same_file(lib->path, out)) {
		inform(1, "zluda-convert: %s: warning: the loader finds the library at its output "
		       "path; convert the original on its own", out);
	} else if (key_of_converted(out) == key) {
		inform(1, "%s: unchanged since it was converted from %s; reused", out, lib->path);
		placed = true;
	} else {
		inform(1, "%s: converting %s (%s by %s)", out, lib->path,
		       lib->opened_by ? "opened" : "needed", lib->needed_by);
		char why[128];

		convert_file(&lo, &summary);
		if (summary.sass_only)
			inform(1, "%s: %zu fatbin%s carry SASS only, no PTX: their kernels cannot run "
			       "converted (-v lists them)", out, summary.sass_only,
			       summary.sass_only == 1 ? "" : "s");
		if (lo.strict && strict_refusal(&summary, why, sizeof why)) {
			fprintf(stderr, "zluda-convert: %s: %s: not written\n", lib->path, why);
			*ok = false;
		} else {
			placed = true;
		}
	}
	free(out);
	return placed;
}

/* A library that stays where it is, which a converted object finds through its own
 * $ORIGIN (`finder`): linked beside the output, where that object's copy now looks. A file
 * already there (a copy converted before) is kept. */
static void link_beside(const Library *lib, const char *dir, const char *finder)
{
	char target[PATH_MAX];
	char *link = zc_alloc(strlen(dir) + strlen(lib->name) + 2);
	struct stat st;

	sprintf(link, "%s/%s", dir, lib->name);
	if (lstat(link, &st) == 0 && !S_ISLNK(st.st_mode))
		inform(2, "%s: kept; %s finds it through $ORIGIN", link, finder);
	else if (realpath(lib->path, target) && !same_file(target, link)) {
		unlink(link);
		if (symlink(target, link) == 0)
			inform(2, "%s: linked to %s, which %s finds through $ORIGIN", link, target, finder);
		else
			inform(1, "zluda-convert: %s: warning: cannot link it to %s, which %s finds "
			       "through $ORIGIN: %s", link, target, finder, strerror(errno));
	}
	free(link);
}

/* A part placed beside the output under its name for the loader, also under its file's own
 * name where that differs (libcudnn_ops.so.9.19.0 for libcudnn_ops.so.9), which the opener
 * tries first: one the system has under that name would be found before the part beside. */
static void link_file_name(const Library *part, const char *dir)
{
	char real[PATH_MAX];
	const char *base;

	if (!realpath(part->path, real) || !(base = strrchr(real, '/')) ||
	    strcmp(++base, part->name) == 0)
		return;
	char *link = zc_alloc(strlen(dir) + strlen(base) + 2);
	sprintf(link, "%s/%s", dir, base);
	unlink(link);
	if (symlink(part->name, link) != 0)
		inform(1, "zluda-convert: %s: warning: cannot link it to %s: %s", link, part->name,
		       strerror(errno));
	free(link);
}

static bool in_list(char **list, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

/* Whether PATH starts as an ELF file does. */
static bool is_elf(const char *path)
{
	unsigned char magic[4] = {0};
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool elf = fd >= 0 && read(fd, magic, 4) == 4 && memcmp(magic, "\177ELF", 4) == 0;

	if (fd >= 0)
		close(fd);
	return elf;
}

/* The libraries the project replaces (Replacement: convert.h). */
static const Replacement replacements[] = {
	{"libcublas.so.", "cublas64_", "NVIDIA's kernels ship as machine code only", true, false},
	{"libcublasLt.so.", "cublasLt64_", "NVIDIA's kernels ship as machine code only", true,
	 false},
	{"libcufft.so.", "cufft64_", "NVIDIA's kernels for many sizes ship as machine code only",
	 true, true},
	{"libnvidia-ml.so.", "nvml.dll", "NVIDIA's is a part of NVIDIA's driver", false, false},
	{"libnvrtc.so.", NULL,
	 "NVIDIA's makes CUBINs, which no AMD GPU runs; it hands over PTX instead", false, false},
	{"libnvJitLink.so.", NULL,
	 "NVIDIA's links CUBINs, which no AMD GPU runs; it links PTX instead", false, false},
};

/* The project's replacement for library NAME, found beside the tool into PATH: its index
 * in replacements, or -1 when it has none. */
static int replacement(const char *name, char *path, size_t size)
{
	for (size_t i = 0; i < sizeof(replacements) / sizeof(replacements[0]); i++) {
		size_t n = strlen(replacements[i].stem);

		if (strncmp(name, replacements[i].stem, n) == 0 && name[n] &&
		    strspn(name + n, "0123456789.") == strlen(name + n) &&
		    find_tool_file(name, path, size))
			return (int)i;
	}
	return -1;
}

/* Whether --with-libraries=LIST names the library, asking for NVIDIA's own converted. */
static bool named_by_user(const ConvertOptions *o, const char *name)
{
	return o->with_libraries && o->library_patterns &&
	       matching_pattern(o->library_patterns, name) >= 0;
}

/* The project's replacement for library NAME when it stays in place (the project's when
 * --with-libraries does not name it, or when it fronts NVIDIA's), found beside the tool into
 * PATH: its index in replacements, or -1. */
static int replacement_in_place(const ConvertOptions *o, const char *name, char *path,
                                size_t size)
{
	int r = replacement(name, path, size);

	return r >= 0 && named_by_user(o, name) && !replacements[r].fronts_nvidia ? -1 : r;
}

/* Whether --with-libraries names library NAME and the project's fronts it: NVIDIA's is
 * converted into nvidia/. */
static bool fronted(const ConvertOptions *o, const char *name)
{
	char path[PATH_MAX + 64];
	int r = replacement(name, path, sizeof path);

	return r >= 0 && replacements[r].fronts_nvidia && named_by_user(o, name);
}

static bool provided(const ConvertOptions *o, const Library *libs, size_t nlibs,
                     const Library *lib);

/* Whether LIB is loaded only for a library the project replaces (NVIDIA's cuBLASLt for
 * NVIDIA's cuBLAS). */
static bool loaded_for_replaced(const ConvertOptions *o, const Library *libs, size_t nlibs,
                                const Library *lib)
{
	for (size_t i = 0; lib->needed_by && i < nlibs; i++)
		if (libs[i].path && strcmp(libs[i].path, lib->needed_by) == 0)
			return &libs[i] != lib && provided(o, libs, nlibs, &libs[i]);
	return false;
}

/* Whether the project provides LIB instead of NVIDIA's, or LIB is loaded only for one it
 * provides. */
static bool provided(const ConvertOptions *o, const Library *libs, size_t nlibs,
                     const Library *lib)
{
	char path[PATH_MAX + 64];

	return replacement_in_place(o, lib->name, path, sizeof(path)) >= 0 ||
	       loaded_for_replaced(o, libs, nlibs, lib);
}

/* Places replacement R, found at OURS->path, as OURS->name in DIR: converted for the
 * program's targets when it carries kernels, else copied. ALTERNATIVE says how to have
 * NVIDIA's instead, or is NULL. */
static bool place_replacement(const ConvertOptions *o, const Replacement *r, const Library *ours,
                              const char *dir, const char *alternative)
{
	char *dest;
	bool ok = true;

	if (alternative)
		inform(1, "%s/%s: zluda-convert's own, for %s (%s; %s)", dir, ours->name,
		       ours->needed_by, r->why, alternative);
	else
		inform(1, "%s/%s: zluda-convert's own, for %s (%s)", dir, ours->name, ours->needed_by,
		       r->why);
	if (r->kernels)
		return convert_library(o, ours, dir, true, &ok) && ok;
	dest = zc_alloc(strlen(dir) + strlen(ours->name) + 2);
	sprintf(dest, "%s/%s", dir, ours->name);
	if (!copy_file(ours->path, dest)) {
		fprintf(stderr, "zluda-convert: %s: cannot write: %s\n", dest, strerror(errno));
		ok = false;
	}
	free(dest);
	return ok;
}

const Replacement *replaced_dll(const char *name, char *canonical, size_t size)
{
	for (size_t i = 0; i < sizeof(replacements) / sizeof(replacements[0]); i++) {
		const char *stem = replacements[i].dll_stem;
		size_t n = stem ? strlen(stem) : 0, digits;

		if (!stem || strncasecmp(name, stem, n) != 0)
			continue;
		if (n > 4 && strcmp(stem + n - 4, ".dll") == 0) {
			if (name[n])
				continue;
			snprintf(canonical, size, "%s", stem);
		} else {
			digits = strspn(name + n, "0123456789");
			if (digits == 0 || strcasecmp(name + n + digits, ".dll") != 0)
				continue;
			snprintf(canonical, size, "%s%.*s.dll", stem, (int)digits, name + n);
		}
		return &replacements[i];
	}
	return NULL;
}

/* A Windows program's imports: the DLLs the project replaces, placed beside its output.
 * Only what it imports itself: NVIDIA's DLLs are not where their own imports could be
 * followed. */
static bool provide_dlls(const ConvertOptions *o)
{
	Binary bin;
	ZcError err;
	char *dir;
	bool ok = true;

	if (!binary_open(&bin, o->in, &err))
		return true; /* convert_file read it already; nothing imports from a failed read */
	dir = output_directory(o->out);
	for (size_t i = 0; bin.format == BIN_PE && i < bin.nimports; i++) {
		char path[PATH_MAX + 64], name[64];
		const Replacement *r = replaced_dll(bin.imports[i], name, sizeof name);
		Library ours = {name, path, (char *)o->in, NULL, NULL};

		if (!r)
			continue;
		if (!find_tool_file(name, path, sizeof path))
			inform(1, "zluda-convert: %s: warning: it imports %s, which zluda-convert replaces, "
			       "but this zluda-convert was built without its DLLs (mingw-w64); not placed",
			       o->in, bin.imports[i]);
		else if (!place_replacement(o, r, &ours, dir, NULL))
			ok = false;
	}
	free(dir);
	binary_close(&bin);
	return ok;
}

bool provide_libraries(const ConvertOptions *o)
{
	Library *libs;
	size_t nlibs;
	char *dir;
	bool ok = true;

	if (!is_elf(o->in))
		return provide_dlls(o);
	nlibs = library_closure(o->in, &libs);
	dir = output_directory(o->out);
	for (size_t i = 0; i < nlibs; i++) {
		char path[PATH_MAX + 64], alternative[160];
		Library ours = libs[i];
		int r = replacement_in_place(o, libs[i].name, path, sizeof(path));

		if (r < 0 || loaded_for_replaced(o, libs, nlibs, &libs[i]))
			continue;
		ours.path = path;
		if (fronted(o, libs[i].name))
			snprintf(alternative, sizeof alternative, "NVIDIA's, converted into nvidia/, is "
			         "offered each plan first");
		else if (replacements[r].fronts_nvidia)
			snprintf(alternative, sizeof alternative, "--with-libraries=%s also converts "
			         "NVIDIA's, to be offered each plan first", libs[i].name);
		else
			snprintf(alternative, sizeof alternative, "--with-libraries=%s converts NVIDIA's "
			         "instead", libs[i].name);
		if (!place_replacement(o, &replacements[r], &ours, dir,
		                       replacements[r].kernels ? alternative : NULL))
			ok = false;
	}
	libraries_free(libs, nlibs);
	free(dir);
	return ok;
}

/* The name of the library that opens a part: a pattern naming it names its parts too
 * (cudnn: all of cuDNN). */
static const char *opener_name(const Library *libs, size_t nlibs, const Library *part)
{
	for (size_t i = 0; i < nlibs; i++)
		if (libs[i].path && strcmp(libs[i].path, part->opened_by) == 0)
			return libs[i].name;
	return part->name;
}

/* An opener (cuDNN's front library) finds its parts beside itself: where any part was
 * converted, the opener is placed beside the output too (linked, when it has no fatbins), and
 * every part with it, so that each opens the others' converted copies. */
static void place_openers(const char *program, const Library *libs, size_t nlibs,
                          const char *dir, char **moved, size_t nmoved)
{
	for (size_t i = 0; i < nlibs; i++) {
		bool converted_part = false;

		if (!libs[i].path)
			continue;
		for (size_t k = 0; k < nlibs; k++)
			converted_part |= libs[k].opened_by && strcmp(libs[k].opened_by, libs[i].path) == 0 &&
			                  in_list(moved, nmoved, libs[k].path);
		if (!converted_part)
			continue;
		if (!in_list(moved, nmoved, libs[i].path))
			link_beside(&libs[i], dir, program);
		for (size_t k = 0; k < nlibs; k++) {
			if (!libs[k].opened_by || strcmp(libs[k].opened_by, libs[i].path) != 0)
				continue;
			if (!in_list(moved, nmoved, libs[k].path))
				link_beside(&libs[k], dir, libs[i].path);
			link_file_name(&libs[k], dir);
		}
	}
}

/* NVIDIA's library LIB, which the project's in DIR fronts, converted into DIR/nvidia. */
static bool convert_fronted(const ConvertOptions *o, const Library *lib, const char *dir)
{
	char *nvidia = zc_alloc(strlen(dir) + sizeof "/nvidia");
	ConvertOptions fo = *o;
	bool ok = true;

	sprintf(nvidia, "%s/nvidia", dir);
	if (mkdir(nvidia, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "zluda-convert: %s: cannot make the folder: %s\n", nvidia,
		        strerror(errno));
		ok = false;
	} else {
		fo.driver_elsewhere = true;
		convert_library(&fo, lib, nvidia, true, &ok);
	}
	free(nvidia);
	return ok;
}

bool convert_libraries(const ConvertOptions *o)
{
	Library *libs;
	size_t nlibs;

	if (!is_elf(o->in)) {
		inform(1, "zluda-convert: %s: warning: --with-libraries follows the libraries of Linux "
		       "ELF programs and libraries only; none converted", o->in);
		return true;
	}
	nlibs = library_closure(o->in, &libs);
	const char *patterns = o->library_patterns;
	char *dir = output_directory(o->out);
	unsigned long long matched = 0; /* per pattern, the first 64 */
	char real[PATH_MAX];
	char **moved = zc_alloc((nlibs + 1) * sizeof(char *)); /* objects with a converted copy */
	size_t nmoved = 0;
	bool ok = true;

	if (realpath(o->in, real))
		moved[nmoved++] = real;
	for (size_t i = 0; i < nlibs; i++) {
		const Library *lib = &libs[i];
		int p = patterns ? matching_pattern(patterns, lib->name) : -1;

		if (patterns && p < 0 && lib->opened_by)
			p = matching_pattern(patterns, opener_name(libs, nlibs, lib));

		if (strncmp(lib->name, "libcuda.so", 10) == 0)
			continue; /* the driver is the stub placed beside the output */
		bool front = fronted(o, lib->name);

		if (!front && provided(o, libs, nlibs, lib))
			continue; /* provide_libraries placed the project's */
		if (p >= 0 && p < 64)
			matched |= 1ull << p;
		if (!lib->path && (!patterns || p >= 0))
			inform(1, "zluda-convert: %s: warning: %s, which %s needs, is not where the loader "
			       "looks (LD_LIBRARY_PATH?); not converted", o->in, lib->name, lib->needed_by);
		else if (front)
			ok = convert_fronted(o, lib, dir) && ok;
		else if (lib->path && (!patterns || p >= 0) && convert_library(o, lib, dir, p >= 0, &ok))
			moved[nmoved++] = lib->path;
		else if (lib->path && in_list(moved, nmoved, lib->origin_of))
			link_beside(lib, dir, lib->origin_of);
	}
	place_openers(o->in, libs, nlibs, dir, moved, nmoved);
	free(moved);
	for (int p = 0; patterns && *patterns; p++) {
		size_t len = strcspn(patterns, ",");

		if (len && p < 64 && !(matched & 1ull << p))
			inform(1, "zluda-convert: %s: warning: it loads no library matching '%.*s'", o->in,
			       (int)len, patterns);
		patterns += len;
		patterns += *patterns == ',';
	}
	libraries_free(libs, nlibs);
	free(dir);
	return ok;
}
