/* `convert`: the main job, as the design's pipeline reads:
 * input -> fatbins -> units -> PTX -> code objects -> AOT image -> embedded output -> report. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aot_image.h"
#include "convert.h"
#include "embed.h"

static const char *take_value(int argc, char **argv, int *i, const char *flag)
{
	size_t n = strlen(flag);

	if (strncmp(argv[*i], flag, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (++*i == argc)
		fail_usage("convert: %s needs a value", flag);
	return argv[*i];
}

static void add_targets(ConvertOptions *o, const char *list)
{
	char *copy = zc_strndup(list, strlen(list)), *rest = copy, *name;

	while ((name = strsep(&rest, ","))) {
		const ZcTarget *t = zc_target_find(name);
		bool seen = false;

		if (!t) {
			char names[2048];

			zc_target_names(names, sizeof(names));
			if (!*list)
				fail_usage("convert: --offload-arch= needs one or more targets; valid: %s", names);
			if (!*name)
				fail_usage("convert: --offload-arch '%s' has an empty name; valid: %s", list, names);
			fail_usage("convert: unknown --offload-arch '%s'; valid: %s", name, names);
		}
		for (size_t i = 0; i < o->ntargets; i++)
			seen |= o->targets[i] == t;
		if (!seen && o->ntargets < MAX_TARGETS)
			o->targets[o->ntargets++] = t;
	}
	free(copy);
}

static void parse_options(int argc, char **argv, ConvertOptions *o)
{
	const char *v;

	for (int i = 0; i < argc; i++) {
		if ((v = take_value(argc, argv, &i, "--output")) || (v = take_value(argc, argv, &i, "-o")))
			o->out = v;
		else if (strncmp(argv[i], "-o", 2) == 0 && argv[i][2])
			o->out = argv[i] + 2;
		else if ((v = take_value(argc, argv, &i, "--offload-arch")))
			add_targets(o, v);
		else if ((v = take_value(argc, argv, &i, "--jobs")) || (v = take_value(argc, argv, &i, "-j")) ||
		         (strncmp(argv[i], "-j", 2) == 0 && (v = argv[i] + 2))) {
			char *end;
			long n = strtol(v, &end, 10);

			if (*v == '\0' || *end || n < 1 || n > 1024)
				fail_usage("convert: -j needs a number of jobs from 1 to 1024, not '%s'", v);
			o->jobs = (int)n;
		} else if ((v = take_value(argc, argv, &i, "--report")))
			o->report = v;
		else if ((v = take_value(argc, argv, &i, "--save-temps")))
			o->save_temps = v;
		else if ((v = take_value(argc, argv, &i, "--dump"))) {
			if (strcmp(v, "ptx") && strcmp(v, "ll") && strcmp(v, "ll-opt") && strcmp(v, "asm"))
				fail_usage("convert: --dump takes ptx, ll, ll-opt or asm, not '%s'", v);
			o->dump = v;
		}
		else if (strcmp(argv[i], "--with-libraries") == 0)
			o->with_libraries = true;
		else if ((v = take_value(argc, argv, &i, "--with-libraries"))) {
			if (!*v)
				fail_usage("convert: --with-libraries= needs library names or patterns");
			o->with_libraries = true;
			o->library_patterns = v;
		} else if (strcmp(argv[i], "--strict") == 0)
			o->strict = true;
		else if (strcmp(argv[i], "--no-line-info") == 0)
			o->no_line_info = true;
		else if (strcmp(argv[i], "--portable-matrix") == 0)
			o->portable_matrix = true;
		else if (strcmp(argv[i], "--replace-driver") == 0)
			o->replace_driver = true;
		else if (strcmp(argv[i], "--no-cache") == 0)
			o->no_cache = true;
		else if ((v = take_value(argc, argv, &i, "--cache-dir"))) {
			if (!*v)
				fail_usage("convert: --cache-dir needs a directory");
			o->cache_root = v;
		}
		else if (argv[i][0] == '-' && argv[i][1])
			fail_usage("convert: unknown option '%s'", argv[i]);
		else if (o->in)
			fail_usage("convert: one input file expected, got '%s' and '%s'", o->in, argv[i]);
		else
			o->in = argv[i];
	}
	if (!o->in)
		fail_usage("convert: no input file");
	if (!o->out || !*o->out)
		fail_usage("convert: no output file (use -o OUT)");
	if (o->no_cache && o->cache_root)
		fail_usage("convert: --cache-dir and --no-cache contradict each other");
	o->unit_detail = 1;
	if (o->ntargets == 0)
		for (size_t i = 0; i < zc_target_count(); i++)
			if (zc_target_at(i)->is_default)
				o->targets[o->ntargets++] = zc_target_at(i);
}

char *output_directory(const char *out)
{
	char *copy = zc_strndup(out, strlen(out)), *dir;

	dir = dirname(copy);
	dir = zc_strndup(dir, strlen(dir));
	free(copy);
	return dir;
}

/* A file to be written, checked before any work is done rather than after it. */
static void check_directory_of(const char *path)
{
	char *dir = output_directory(path);
	bool writable = access(dir, W_OK) == 0;
	int why = errno;

	free(dir);
	if (!writable)
		fail_input(path, "cannot write into its directory: %s", strerror(why));
}

static void check_output(const ConvertOptions *o)
{
	struct stat a, b;

	if (stat(o->in, &a) == 0 && stat(o->out, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		fail_usage("convert: the output %s is the input; converting never modifies its input",
		           o->out);
	check_directory_of(o->out);
	if (o->report)
		check_directory_of(o->report);
}

/* A fatbin key is only added once: byte-identical fatbins share their module. */
static void add_key_once(AotBuilder *b, uint32_t m, AotKeyKind kind, uint64_t hash,
                         uint64_t **seen, size_t *nseen)
{
	for (size_t i = 0; i < *nseen; i++)
		if ((*seen)[i] == hash)
			return;
	*seen = zc_realloc(*seen, (*nseen + 1) * sizeof(uint64_t));
	(*seen)[(*nseen)++] = hash;
	aot_add_key(b, m, kind, hash);
}

static void add_unit(const Input *in, const ConvertOptions *o, AotBuilder *b, const Unit *u,
                     uint64_t **seen, size_t *nseen)
{
	uint32_t m = aot_add_module(b, u->name);

	aot_set_module_ptx_arch(b, m, u->ptx_arch);

	if (u->container >= 0) {
		const Container *c = &in->set.containers[u->container];
		add_key_once(b, m, AOT_KEY_FATBIN, aot_hash(in->bin.bytes + c->offset, c->size), seen, nseen);
	}
	for (size_t i = 0; i < u->nmembers; i++)
		add_key_once(b, m, AOT_KEY_PTX, u->ptx_hashes[i], seen, nseen);
	if (u->skip_reason) {
		aot_add_untranslated(b, m, NULL, NULL, u->skip_reason);
		return;
	}
	for (size_t t = 0; t < o->ntargets; t++) {
		for (uint32_t k = 0; u->left_out[t] && k < u->nkernels; k++)
			if (u->left_out[t][k])
				aot_add_untranslated(b, m, o->targets[t]->name, u->kernels[k].name,
				                     u->left_out[t][k]);
		if (u->error[t])
			aot_add_untranslated(b, m, o->targets[t]->name, NULL, u->error[t]);
		else
			/* Host code objects stay uncompressed: the CPU driver writes them to a memfd
			 * as they are, and they are small beside a library's GPU code. So do a PE's:
			 * nvcuda.dll carries no zstd. */
			aot_add_code_object(b, m, o->targets[t]->name, u->code[t].data, u->code[t].size,
			                    o->targets[t]->kind != ZC_CODE_OBJECT_HOST &&
			                        in->bin.format == BIN_ELF);
	}
	for (uint32_t k = 0; k < u->nkernels; k++) {
		const struct ptx_kernel_info *ki = &u->kernels[k];
		AotKernelInfo info = {
			.name = ki->name, .params = (const AotParam *)ki->params, .nparams = ki->nparams,
			.static_shared = ki->static_shared, .dynamic_shared = ki->dynamic_shared,
			.has_reqntid = ki->reqntid[0] != 0, .has_maxntid = ki->maxntid[0] != 0,
		};

		for (int d = 0; d < 3; d++) {
			info.reqntid[d] = ki->reqntid[d] ? ki->reqntid[d] : 1;
			info.maxntid[d] = ki->maxntid[d] ? ki->maxntid[d] : 1;
		}
		aot_add_kernel(b, m, &info);
	}
	for (size_t g = 0; g < u->nglobals; g++)
		aot_add_global(b, m, u->globals[g], u->global_sizes[g],
		               u->global_const[g] ? AOT_SPACE_CONST : AOT_SPACE_GLOBAL);
}

/* --dump: each module's text at the stage asked for, per target, on stdout, in order. */
static void print_dumps(const ConvertOptions *o, const Unit *units, size_t nunits)
{
	for (size_t i = 0; i < nunits; i++) {
		const Unit *u = &units[i];

		for (size_t m = 0; strcmp(o->dump, "ptx") == 0 && m < u->nmembers; m++)
			printf("// %s: %s\n%s\n", u->name, unit_member_name(u, m).text, u->texts[m]);
		for (size_t t = 0; strcmp(o->dump, "ptx") != 0 && t < o->ntargets; t++)
			if (u->dump[t])
				printf("; %s, %s, %s\n%s\n", u->name, o->targets[t]->name, o->dump, u->dump[t]);
	}
}

static void write_output(const Input *in, const ConvertOptions *o, Unit *units, size_t nunits)
{
	AotBuilder *b = aot_builder_new();
	uint64_t *seen = NULL;
	size_t nseen = 0;
	uint8_t *image;
	size_t size;
	ZcError err;

	for (size_t i = 0; i < nunits; i++)
		add_unit(in, o, b, &units[i], &seen, &nseen);
	free(seen);
	aot_set_conversion_key(b, conversion_key(in->bin.bytes, in->bin.size, o));
	for (size_t t = 0; t < o->ntargets; t++)
		if (o->targets[t]->kind == ZC_CODE_OBJECT_HOST)
			aot_set_flags(b, AOT_IMAGE_FOR_HOST);
	if (!aot_builder_serialize(b, &image, &size, &err))
		fail_input(o->in, "building the AOT image: %s", err.msg);
	aot_builder_free(b);
	if (!embed_image(&in->bin, image, size, o->out, &err))
		fail_input(o->in, "writing the output: %s", err.msg);
	free(image);
}

/* The temporary a file is written as before it is renamed to PATH: beside it (one file
 * system) and named by the process. temporary_for also has a signal that ends the process
 * remove it, until temporary_done. */
static char *temporary_name(const char *path)
{
	char *tmp;

	if (asprintf(&tmp, "%s.tmp%ld", path, (long)getpid()) < 0)
		fail_input(path, "out of memory");
	return tmp;
}

static char *temporary_for(const char *path)
{
	char *tmp = temporary_name(path);

	zc_temporary_add(tmp);
	return tmp;
}

static void temporary_done(char *tmp)
{
	zc_temporary_forget(tmp);
	free(tmp);
}

bool copy_file(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n = 0;
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	bool ok;

	if (in < 0)
		return false;
	char *tmp = temporary_for(to);
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	ok = out >= 0;
	while (ok && (n = read(in, buf, sizeof(buf))) > 0)
		for (ssize_t done = 0, w; ok && done < n; done += w)  /* a write may take part */
			ok = (w = write(out, buf + done, (size_t)(n - done))) > 0;
	ok = ok && n == 0;
	close(in);
	if (out >= 0)
		ok = close(out) == 0 && ok;
	ok = ok && rename(tmp, to) == 0;
	if (!ok) {
		int why = errno; /* what failed, not the clean-up */

		unlink(tmp);
		errno = why;
	}
	temporary_done(tmp);
	return ok;
}

/* The driver file a converted program gets beside it, refused before any work when a file
 * there is not ours (unless --replace-driver). */
static void check_driver_place(const Input *in, const ConvertOptions *o)
{
	char dest[PATH_MAX + 64], target[16];
	char *dir = output_directory(o->out);
	struct stat st;

	snprintf(dest, sizeof(dest), "%s/%s", dir,
	         in->bin.format == BIN_PE ? "nvcuda.dll" : "libcuda.so.1");
	if (!o->replace_driver && driver_file_state(dest) == DRIVER_FILE_OTHER)
		fail_input(dest, "is not zluda-convert's driver; not replaced (move it away, or "
		           "--replace-driver)");
	/* libcuda.so, for linking: ours is a link to libcuda.so.1 */
	snprintf(dest, sizeof(dest), "%s/libcuda.so", dir);
	free(dir);
	if (in->bin.format == BIN_ELF && !o->replace_driver && lstat(dest, &st) == 0 &&
	    (readlink(dest, target, sizeof(target)) != 12 || memcmp(target, "libcuda.so.1", 12) != 0))
		fail_input(dest, "is not zluda-convert's link to libcuda.so.1; not replaced (move it "
		           "away, or --replace-driver)");
}

/* design decision 8: libcuda.so.1 beside the output, found through its $ORIGIN path; on
 * Windows nvcuda.dll beside it, which the loader searches first. */
static void place_stub(const Input *in, const ConvertOptions *o)
{
	char stub[PATH_MAX + 64], dest[PATH_MAX + 64], link[PATH_MAX + 64];
	char *dir = output_directory(o->out);

	if (in->bin.format != BIN_ELF) {
		if (find_tool_file("nvcuda.dll", stub, sizeof(stub))) {
			snprintf(dest, sizeof(dest), "%s/nvcuda.dll", dir);
			if (!copy_file(stub, dest))
				fail_input(dest, "cannot write: %s", strerror(errno));
		} else {
			inform(1, "zluda-convert: %s: warning: the Windows driver nvcuda.dll was not "
			       "built with this zluda-convert (no mingw-w64); place one beside the "
			       "output", o->out);
		}
		free(dir);
		return;
	}
	if (!find_tool_file("libcuda.so.1", stub, sizeof(stub)))
		fail_input(o->out, "cannot find the runtime stub libcuda.so.1 to place beside it");
	snprintf(dest, sizeof(dest), "%s/libcuda.so.1", dir);
	snprintf(link, sizeof(link), "%s/libcuda.so", dir);
	if (!copy_file(stub, dest))
		fail_input(dest, "cannot write: %s", strerror(errno));
	/* made beside it, then renamed over it: conversions of a tree's files into one
	 * directory place it at once */
	char *made = temporary_for(link);
	unlink(made);
	if (symlink("libcuda.so.1", made) != 0 || rename(made, link) != 0) {
		inform(1, "zluda-convert: %s: warning: cannot create the libcuda.so link: %s", link,
		       strerror(errno));
		unlink(made);
	}
	temporary_done(made);
	free(dir);
}

/* A module not translated for a target is one failure, and so is each kernel left out. */
static size_t count_failures(const ConvertOptions *o, const Unit *units, size_t nunits)
{
	size_t failures = 0;

	for (size_t i = 0; i < nunits; i++) {
		failures += units[i].undecodable;
		for (size_t t = 0; !units[i].skip_reason && t < o->ntargets; t++)
			failures += units[i].error[t] ? 1 : unit_left_out(&units[i], t);
	}
	return failures;
}

static size_t count_sass_only(const Unit *units, size_t nunits)
{
	size_t n = 0;

	for (size_t i = 0; i < nunits; i++)
		n += units[i].sass_only;
	return n;
}

const char *strict_refusal(const ConvertSummary *s, char *buf, size_t size)
{
	if (s->failures)
		snprintf(buf, size, "%zu translation failure%s and --strict", s->failures,
		         s->failures == 1 ? "" : "s");
	else if (s->sass_only)
		snprintf(buf, size, "%zu fatbin%s with SASS only, no PTX, and --strict", s->sass_only,
		         s->sass_only == 1 ? "" : "s");
	else
		return NULL;
	return buf;
}

/* Backend messages start with the target's name, which the report already gives. */
static const char *without_target(const char *message, const char *target)
{
	size_t n = strlen(target);

	return strncmp(message, target, n) == 0 && message[n] == ':' ? message + n + 2 : message;
}

/* Left-out kernels printed at the normal level; -v prints them all. */
#define LEFT_OUT_SHOWN 10

/* One warning per left-out kernel and reason, naming the targets that reason holds for. */
static void report_left_out(const ConvertOptions *o, const Unit *u, size_t *shown, size_t *hidden)
{
	for (uint32_t k = 0; k < u->nkernels; k++) {
		bool done[MAX_TARGETS] = {false};

		for (size_t t = 0; t < o->ntargets; t++) {
			const char *why = u->left_out[t] ? u->left_out[t][k] : NULL;
			char targets[MAX_TARGETS * 24];
			size_t used = 0;

			if (!why || done[t])
				continue;
			for (size_t other = t; other < o->ntargets; other++)
				if (u->left_out[other] && u->left_out[other][k] &&
				    strcmp(u->left_out[other][k], why) == 0) {
					done[other] = true;
					used += (size_t)snprintf(targets + used, sizeof(targets) - used, "%s%s",
					                         used ? ", " : "", o->targets[other]->name);
				}
			if (verbosity < 2 && *shown == LEFT_OUT_SHOWN) {
				++*hidden;
				continue;
			}
			++*shown;
			inform(1, "%s: %s: warning: kernel %s left out for %s: %s", o->in, u->name,
			       u->kernels[k].name, targets, why);
		}
	}
}

/* The kernels that have code for every target the unit was translated for. */
static uint32_t translated_everywhere(const ConvertOptions *o, const Unit *u)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < u->nkernels; k++) {
		bool everywhere = true;

		for (size_t t = 0; t < o->ntargets; t++)
			everywhere &= u->error[t] || !u->left_out[t] || !u->left_out[t][k];
		n += everywhere;
	}
	return n;
}

/* One line per unit and a total, on stderr; warnings name what was not translated. */
static void report(const ConvertOptions *o, const Unit *units, size_t nunits, double seconds,
                   ConvertSummary *summary)
{
	size_t kernels = 0, failures = count_failures(o, units, nunits), modules = 0;
	size_t shown = 0, hidden = 0, sass_only = 0, compiled = 0, cached = 0;

	for (size_t i = 0; i < nunits; i++) {
		const Unit *u = &units[i];
		size_t ok = 0;
		uint32_t everywhere;

		if (u->undecodable) {
			inform(1, "%s: %s: warning: not translated: %s", o->in, u->name, u->skip_reason);
			continue;
		}
		if (u->skip_reason) {
			inform(o->unit_detail, "%s: %s: skipped: %s", o->in, u->name, u->skip_reason);
			sass_only += u->sass_only;
			continue;
		}
		for (size_t t = 0; t < o->ntargets; t++) {
			compiled += !u->error[t];
			cached += u->cached[t];
			if (u->error[t])
				inform(1, "%s: %s: warning: not translated for %s: %s", o->in, u->name,
				       o->targets[t]->name, without_target(u->error[t], o->targets[t]->name));
			else
				ok++;
		}
		for (size_t t = 0; t < o->ntargets; t++)
			if (u->unoptimized[t])
				inform(1, "%s: %s: warning: code generation for %s failed (%s); generated "
				       "again without LLVM's optimising code generator", o->in, u->name,
				       o->targets[t]->name, without_target(u->unoptimized[t], o->targets[t]->name));
		report_left_out(o, u, &shown, &hidden);
		for (size_t t = 0; t < o->ntargets; t++)
			for (uint32_t k = 0; u->older_ptx[t] && k < u->nkernels; k++)
				if (u->older_ptx[t][k])
					inform(2, "%s: %s: kernel %s translated for %s from the %s PTX", o->in,
					       u->name, u->kernels[k].name, o->targets[t]->name,
					       u->older_ptx[t][k]);
		if (ok) {
			modules++;
			kernels += u->nkernels;
			everywhere = translated_everywhere(o, u);
			if (everywhere == u->nkernels)
				inform(o->unit_detail, "%s: %s: %u kernel%s translated for %zu of %zu targets", o->in,
				       u->name, u->nkernels, u->nkernels == 1 ? "" : "s", ok, o->ntargets);
			else
				inform(o->unit_detail, "%s: %s: %u of %u kernels translated for %zu of %zu targets, the "
				       "others left out", o->in, u->name, everywhere, u->nkernels, ok,
				       o->ntargets);
		}
	}
	if (o->cache && compiled)
		inform(2, "%s: %zu of %zu module code objects from the cache (%s)", o->in, cached,
		       compiled, o->cache_root);
	if (hidden)
		inform(1, "%s: %zu more kernel%s left out (-v lists them all, --report writes them)",
		       o->in, hidden, hidden == 1 ? "" : "s");
	inform(1, "%s: %zu module%s, %zu kernel%s, %zu target%s, %zu failure%s (%.1f s)", o->out,
	       modules, modules == 1 ? "" : "s", kernels, kernels == 1 ? "" : "s", o->ntargets,
	       o->ntargets == 1 ? "" : "s", failures, failures == 1 ? "" : "s", seconds);
	*summary = (ConvertSummary){.modules = modules, .kernels = kernels, .sass_only = sass_only,
	                            .failures = failures};
}

/* "key": [{"kernel": name, field: note}] for the unit's kernels that have a note. */
static void kernel_notes(Json *j, const char *key, const Unit *u, const char *const *notes,
                         const char *field)
{
	json_key(j, key);
	json_array_begin(j);
	for (uint32_t k = 0; notes && k < u->nkernels; k++) {
		if (!notes[k])
			continue;
		json_object_begin(j);
		json_field_string(j, "kernel", u->kernels[k].name);
		json_field_string(j, field, notes[k]);
		json_object_end(j);
	}
	json_array_end(j);
}

/* The report is written beside its name and renamed to it at the end: whole or absent. */
FILE *report_begin(const ConvertOptions *o, Json *j)
{
	char *temporary = temporary_for(o->report);
	FILE *f = fopen(temporary, "w");

	if (!f) {
		int why = errno;
		temporary_done(temporary);
		fail_input(o->report, "cannot write: %s", strerror(why));
	}
	free(temporary); /* still registered: report_end names it again */
	json_init(j, f);
	json_object_begin(j);
	tool_version_json(j);
	json_field_string(j, "input", o->in);
	json_field_string(j, "output", o->out);
	return f;
}

void report_end(const ConvertOptions *o, FILE *f, Json *j)
{
	char *temporary = temporary_name(o->report);

	json_object_end(j);
	json_finish(j);
	bool written = fclose(f) == 0 && rename(temporary, o->report) == 0;
	int why = errno;
	if (!written)
		unlink(temporary);
	temporary_done(temporary);
	if (!written)
		fail_input(o->report, "cannot write: %s", strerror(why));
}

static void write_report(const ConvertOptions *o, const Unit *units, size_t nunits, double seconds)
{
	Json j;
	FILE *f = report_begin(o, &j);

	json_key(&j, "targets");
	json_array_begin(&j);
	for (size_t t = 0; t < o->ntargets; t++)
		json_string(&j, o->targets[t]->name);
	json_array_end(&j);
	json_key(&j, "modules");
	json_array_begin(&j);
	for (size_t i = 0; i < nunits; i++) {
		const Unit *u = &units[i];

		json_object_begin(&j);
		json_field_string(&j, "name", u->name);
		json_field_string(&j, "skipped", u->skip_reason);
		json_key(&j, "kernels");
		json_array_begin(&j);
		for (uint32_t k = 0; k < u->nkernels; k++)
			json_string(&j, u->kernels[k].name);
		json_array_end(&j);
		json_key(&j, "results");
		json_object_begin(&j);
		for (size_t t = 0; !u->skip_reason && t < o->ntargets; t++) {
			json_key(&j, o->targets[t]->name);
			json_object_begin(&j);
			json_field_bool(&j, "translated", !u->error[t]);
			json_field_string(&j, "error", u->error[t]);
			json_field_uint(&j, "code_object_size", u->error[t] ? 0 : u->code[t].size);
			json_field_string(&j, "unoptimized_codegen", u->unoptimized[t]);
			json_field_bool(&j, "cached", u->cached[t]);
			json_field_bool(&j, "shared_middle_end", u->shared[t]);
			json_field_uint(&j, "parts", u->parts[t]);
			kernel_notes(&j, "from_older_ptx", u, u->older_ptx[t], "arch");
			kernel_notes(&j, "left_out", u, (const char *const *)u->left_out[t], "reason");
			json_object_end(&j);
		}
		json_object_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "seconds");
	fprintf(f, "%.3f", seconds);
	report_end(o, f, &j);
}

static uint64_t converter_bytes_hash;

static void hash_converter(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *p;

	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) != MAP_FAILED) {
		converter_bytes_hash = aot_hash(p, (size_t)st.st_size);
		munmap(p, (size_t)st.st_size);
	}
	if (fd >= 0)
		close(fd);
}

uint64_t converter_hash(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, hash_converter);
	return converter_bytes_hash;
}

uint64_t conversion_key(const uint8_t *bytes, uint64_t size, const ConvertOptions *o)
{
	unsigned major, minor, patch;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	uint64_t key;

	if (!f)
		fail_input(o->out, "out of memory");
	LLVMGetVersion(&major, &minor, &patch);
	fprintf(f, "%016llx zluda-convert %s %016llx LLVM %u.%u.%u",
	        (unsigned long long)aot_hash(bytes, size), ZC_VERSION,
	        (unsigned long long)converter_hash(), major, minor, patch);
	for (size_t t = 0; t < o->ntargets; t++)
		fprintf(f, " %s", o->targets[t]->name);
	fprintf(f, "%s%s", o->no_line_info ? " --no-line-info" : "",
	        o->portable_matrix ? " --portable-matrix" : "");
	fclose(f);
	key = aot_hash(text, len);
	free(text);
	return key ? key : 1;
}

/* "host" is the CPU of the system the input runs on, which for a PE file is Windows; a
 * module file (fatbin, PTX) gets Linux's unless x86_64-windows is asked for. Host code is
 * x86-64, which a 32-bit program cannot load. */
static void host_for_format(ConvertOptions *o, const Binary *bin)
{
	BinaryFormat format = bin->format;
	size_t kept = 0;

	for (size_t t = 0; t < o->ntargets; t++) {
		const ZcTarget *target = o->targets[t];
		bool seen = false;

		if (target->kind == ZC_CODE_OBJECT_HOST && bin->pointer_size == 4 &&
		    (format == BIN_PE || format == BIN_ELF))
			fail_usage("convert: %s is a 32-bit program: code for the CPU driver (%s) is x86-64, "
			           "which it cannot load; leave host out", o->in, target->name);
		if (format == BIN_PE && target == &zc_host_target)
			target = &zc_host_windows_target;
		else if (format == BIN_ELF && target == &zc_host_windows_target)
			fail_usage("convert: %s is a Linux program (ELF): its CPU code is --offload-arch=host; "
			           "x86_64-windows is for Windows programs and module files they load", o->in);
		for (size_t k = 0; k < kept; k++)
			seen |= o->targets[k] == target;
		if (!seen)
			o->targets[kept++] = target;
	}
	o->ntargets = kept;
}

/* Converts o->in into o->out (and the stub beside it); summary says what it did. */
void convert_file(const ConvertOptions *options, ConvertSummary *summary)
{
	ConvertOptions for_input = *options;
	const ConvertOptions *o = &for_input;
	Input in = {0};
	Unit *units;
	size_t nunits, failures;
	struct timespec start, end;
	double seconds;

	clock_gettime(CLOCK_MONOTONIC, &start);
	check_output(o);
	input_load(&in, o->in, false);
	host_for_format(&for_input, &in.bin);
	if ((in.bin.format == BIN_ELF || in.bin.format == BIN_PE) && !o->driver_elsewhere)
		check_driver_place(&in, o);
	units_find(&in, &units, &nunits);
	if (nunits == 0)
		inform(1, "%s: warning: no fatbin in it: no GPU code to translate", o->in);
	units_compile(&in, units, nunits, o);
	failures = count_failures(o, units, nunits);
	if (o->dump)
		print_dumps(o, units, nunits);
	if (!(o->strict && (failures || count_sass_only(units, nunits)))) {
		/* the driver first: a converted program never stands without it; a module file
		 * is loaded by a program, which brings the driver */
		if ((in.bin.format == BIN_ELF || in.bin.format == BIN_PE) && !o->driver_elsewhere)
			place_stub(&in, o);
		write_output(&in, o, units, nunits);
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
	report(o, units, nunits, seconds, summary);
	if (o->report)
		write_report(o, units, nunits, seconds);
	units_free(units, nunits);
	input_free(&in);
}

int cmd_convert(int argc, char **argv)
{
	ConvertOptions o = {0};
	ConvertSummary summary;

	zc_temporaries_on_signals();
	parse_options(argc, argv, &o);
	module_cache_choose(&o);
	struct stat st;
	if (stat(o.in, &st) == 0 && S_ISDIR(st.st_mode))
		return convert_tree(&o);
	if (o.save_temps && mkdir(o.save_temps, 0777) != 0 && errno != EEXIST)
		fail_input(o.save_temps, "cannot create directory: %s", strerror(errno));
	char why[128];

	convert_file(&o, &summary);
	if (o.strict && strict_refusal(&summary, why, sizeof why))
		fail_input(o.in, "%s: no output written", why);
	if (!provide_libraries(&o) || (o.with_libraries && !convert_libraries(&o)))
		return 1;
	return 0;
}
