/* Code the program makes while it runs (NVRTC's PTX, a PTX text or fatbin it builds or reads
 * and hands to cuModuleLoadData*, an unconverted PTX file it loads with cuModuleLoad) is in
 * no AOT image. It is translated when it is loaded, the one exception to design decision 7:
 * the zluda-convert tool, run as a child process, converts it for the device's target into
 * a converted module file in the cache, whose image the load then reads as any other.
 *
 * A child rather than the pipeline linked in: the stub loads no LLVM into the program
 * (programs that carry their own, as Triton and XLA do, keep theirs untouched), stays
 * small, and a translation that fails or crashes costs the load, never the program.
 *
 * A cached file is named by a hash of the code, the target and the translating tool's file
 * (its inode, size and time: a rebuilt or upgraded tool translates again, and a cache hit
 * reads nothing of it). The tool writes its output through a temporary renamed into place,
 * so processes translating the same code at once each end with a whole file; a damaged one
 * is translated again. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "cache_folder.h"
#include "platform.h"
#include "runtime_code.h"

/* What the tool prints is kept for the logs; more is of no use to anyone. */
enum { TOOL_OUTPUT_LIMIT = 64 * 1024 };

static struct {
	pthread_mutex_t lock;
	bool looked;
	char tool[ZC_PATH_MAX];  /* empty: none found */
	uint64_t identity;
} translator = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* ZLUDA_CONVERT_TRANSLATE=0 refuses run-time translation: every module then comes from a
 * converted file or the cache (a deployment that must compile nothing). */
static bool
translation_refused(void)
{
	const char *value = getenv("ZLUDA_CONVERT_TRANSLATE");

	return value && strcmp(value, "0") == 0;
}

static CUresult
refused(const char *what)
{
	return stub_fail(CUDA_ERROR_JIT_COMPILATION_DISABLED,
	                 "code made at run time that is not in the cache (%s), and "
	                 "ZLUDA_CONVERT_TRANSLATE=0 refuses to translate it", what);
}

/* The stub's own folder, links resolved: a converted program's libcuda.so.1 may be a link
 * to the installed runtime's. */
static bool
stub_directory(char *out, size_t size)
{
	char path[ZC_PATH_MAX];
	char *slash;

	if (!zc_file_of_address((const void *)stub_directory, path, sizeof path) ||
	    !zc_real_path(path, out, size) || !(slash = strrchr(out, '/')))
		return false;
	*slash = 0;
	return true;
}

static bool
readable_file(const char *path)
{
	FILE *f = zc_open_read(path);

	if (f)
		fclose(f);
	return f != NULL;
}

/* ZLUDA_CONVERT_TRANSLATOR, else the tool of the installation the stub belongs to (its
 * runtime folder's ZC_TOOL_FROM_RUNTIME, or in the build tree the cli folder), else
 * zluda-convert in PATH. */
static bool
find_tool(char *out, size_t size)
{
	const char *forced = getenv("ZLUDA_CONVERT_TRANSLATOR");
	char dir[ZC_PATH_MAX], probe[ZC_PATH_MAX + 64];

	if (forced && forced[0])
		return snprintf(out, size, "%s", forced) < (int)size;
	if (stub_directory(dir, sizeof dir)) {
		snprintf(probe, sizeof probe, "%s/../CMakeCache.txt", dir);
		bool build_tree = readable_file(probe);

		snprintf(probe, sizeof probe, "%s/%s/zluda-convert", dir,
		         build_tree ? "../cli" : ZC_TOOL_FROM_RUNTIME);
		if (readable_file(probe) && zc_real_path(probe, out, size))
			return true;
	}
	return zc_find_in_path("zluda-convert", out, size);
}

/* The tool's path and what identifies its file, found once. */
static CUresult
tool(const char **path, uint64_t *identity)
{
	CUresult r = CUDA_SUCCESS;

	pthread_mutex_lock(&translator.lock);
	if (!translator.looked) {
		translator.looked = true;
		uint64_t words[ZC_FILE_IDENTITY_WORDS];

		if (find_tool(translator.tool, sizeof translator.tool) &&
		    zc_file_identity(translator.tool, words))
			translator.identity = aot_hash(words, sizeof words);
		else
			translator.tool[0] = 0;
	}
	if (!translator.tool[0])
		r = stub_fail(CUDA_ERROR_JIT_COMPILER_NOT_FOUND,
		              "code made at run time needs the zluda-convert tool to translate it, "
		              "and none was found (beside the runtime, in PATH, or in "
		              "ZLUDA_CONVERT_TRANSLATOR)");
	*path = translator.tool;
	*identity = translator.identity;
	pthread_mutex_unlock(&translator.lock);
	return r;
}

/* ZLUDA_CONVERT_CACHE_DIR, else the user's cache directory. */
static CUresult
cache_directory(char *out, size_t size)
{
	const char *forced = getenv("ZLUDA_CONVERT_CACHE_DIR");

	if (forced && forced[0]) {
		if (snprintf(out, size, "%s", forced) >= (int)size || !zc_make_directories(out))
			return stub_fail(CUDA_ERROR_OPERATING_SYSTEM, "ZLUDA_CONVERT_CACHE_DIR=%s: %s", forced,
			                 strerror(errno));
		return CUDA_SUCCESS;
	}
	if (!zc_user_cache_dir(out, size))
		return stub_fail(CUDA_ERROR_OPERATING_SYSTEM,
		                 "no cache directory for code translated at run time (%s); set "
		                 "ZLUDA_CONVERT_CACHE_DIR", strerror(errno));
	return CUDA_SUCCESS;
}

/* A cache entry's name, as zc_translate makes them: 16 hex digits, '-', the target, and
 * ".ptx" or ".fatbin". Nothing else in the directory is ever removed. */
static bool
cache_entry(const char *name)
{
	size_t n = strlen(name), hex = strspn(name, "0123456789abcdef");
	const char *dot = strchr(name, '.');

	return hex == 16 && name[16] == '-' && dot && dot > name + 17 &&
	       strspn(name + 17, "abcdefghijklmnopqrstuvwxyz0123456789_-") == (size_t)(dot - name - 17) &&
	       (strcmp(dot, ".ptx") == 0 || strcmp(dot, ".fatbin") == 0) && n < 200;
}

/* Appends to a log buffer the program gave, always NUL-terminated; what does not fit is
 * cut, and *used becomes the buffer's size, as NVIDIA's driver reports a log it cut (an
 * H200: 16 for a 16-byte buffer, 15 characters and the NUL). */
static void
log_append(char *buffer, size_t size, size_t *used, const char *text)
{
	size_t room, length = strlen(text);

	if (!buffer || !size || *used >= size)
		return;
	room = size - 1 - *used;
	memcpy(buffer + *used, text, length < room ? length : room);
	buffer[*used + (length < room ? length : room)] = 0;
	*used = length <= room ? *used + length : size;
}

void
zc_jit_note(struct zc_jit *jit, bool error, const char *fmt, ...)
{
	char line[ZC_PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	zc_trace_line("  %s", line);
	strcat(line, "\n");
	if (error)
		log_append(jit->error, jit->error_size, &jit->error_used, line);
	else
		log_append(jit->info, jit->info_size, &jit->info_used, line);
}

static bool
write_file(const char *path, const uint8_t *bytes, size_t size)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(bytes, 1, size, f) == size;

	if (f && fclose(f) != 0)
		ok = false;
	return ok;
}

/* The tool converts `input` into `output` for `target`; its messages go to the error log.
 * The converted file is what this cache keeps: the tool's own cache of compiled modules
 * would only hold a second copy. */
static CUresult
run_tool(const char *tool_path, const char *input, const char *output, const char *target,
         struct zc_jit *jit)
{
	char arch[96], *messages = stub_alloc(TOOL_OUTPUT_LIMIT);
	const char *argv[] = { tool_path, "convert", input, "-o", output, arch, "-q", "--no-cache", NULL };
	int status = 0;
	CUresult r = CUDA_SUCCESS;

	if (!messages)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "the translator's messages");
	snprintf(arch, sizeof arch, "--offload-arch=%s", target);
	if (!zc_run_program(argv, messages, TOOL_OUTPUT_LIMIT, &status))
		r = stub_fail(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "%s: cannot run it: %s", tool_path,
		              strerror(errno));
	else if (status != 0)
		r = stub_fail(CUDA_ERROR_INVALID_PTX, "translating for %s failed: %s", target, messages);
	log_append(jit->error, jit->error_size, &jit->error_used, messages);
	stub_free(messages);
	return r;
}

/* A file of code the stub was handed, named as abi/runtime_code.h says (by its hash), in
 * dir. */
static bool
code_file(const char *dir, uint64_t hash, bool fatbin, char *path, size_t path_size)
{
	return snprintf(path, path_size, "%s/%016llx.%s", dir, (unsigned long long)hash,
	                fatbin ? "fatbin" : "ptx") < (int)path_size;
}

bool
zc_shipped_code(uint64_t hash, bool fatbin, char *path, size_t path_size)
{
	char program[ZC_PATH_MAX], dir[ZC_PATH_MAX + 64];
	char *slash;

	if (!zc_real_path(zc_main_program(), program, sizeof program) || !(slash = strrchr(program, '/')))
		return false;
	*slash = 0;
	snprintf(dir, sizeof dir, "%s/" ZC_RUNTIME_CODE_DIR, program);
	return code_file(dir, hash, fatbin, path, path_size) && readable_file(path);
}

void
zc_record_code(const uint8_t *code, size_t size, uint64_t hash, bool fatbin)
{
	const char *dir = getenv(ZC_RECORD_VARIABLE);
	char path[ZC_PATH_MAX], partial[ZC_PATH_MAX + 32];

	if (!dir || !dir[0] || !code_file(dir, hash, fatbin, path, sizeof path) ||
	    readable_file(path))
		return;
	snprintf(partial, sizeof partial, "%s.%u.partial", path, zc_process_id());
	if (!zc_make_directories(dir) || !write_file(partial, code, size) || rename(partial, path) != 0) {
		remove(partial);
		zc_trace_line("  cannot record %s: %s", path, strerror(errno));
	}
}

/* Whether no fatbin of the unconverted file `path` was translated before in this process: a
 * library such as cuDNN has dozens, and one line a file says it all. */
static bool
first_translation_of(const char *path)
{
	static uint64_t files[64];
	static unsigned nfiles;
	uint64_t key = aot_hash(path, strlen(path));
	bool first = true;

	pthread_mutex_lock(&translator.lock);
	for (unsigned i = 0; i < nfiles && first; i++)
		first = files[i] != key;
	if (first && nfiles < sizeof files / sizeof files[0])
		files[nfiles++] = key;
	pthread_mutex_unlock(&translator.lock);
	return first;
}

CUresult
zc_translate(const uint8_t *code, size_t size, uint64_t hash, bool fatbin, const char *target,
             bool again, struct zc_jit *jit, char *path, size_t path_size)
{
	char dir[ZC_PATH_MAX], input[ZC_PATH_MAX + 64];
	const char *tool_path, *kind = fatbin ? "fatbin" : "ptx";
	static unsigned serial;
	uint64_t tool_identity, key[3];
	struct timespec start, end;
	CUresult r;

	clock_gettime(CLOCK_MONOTONIC, &start);
	/* the cache is keyed by the tool, so without one only refusing is left to say */
	if ((r = tool(&tool_path, &tool_identity)) != CUDA_SUCCESS)
		return translation_refused() ? refused(fatbin ? "fatbin" : "PTX text") : r;
	if ((r = cache_directory(dir, sizeof dir)) != CUDA_SUCCESS)
		return r;
	key[0] = hash;
	key[1] = aot_hash(target, strlen(target));
	key[2] = tool_identity;
	if (snprintf(path, path_size, "%s/%016llx-%s.%s", dir, (unsigned long long)aot_hash(key, sizeof key),
	             target, kind) >= (int)path_size)
		return stub_fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: cache path too long", dir);
	if (again) {
		remove(path);
	} else if (readable_file(path)) {
		zc_touch(path);  /* used: the last to go when the cache is trimmed */
		zc_jit_note(jit, false, "zluda-convert: the %s for %s from the cache: %s", kind, target, path);
		return CUDA_SUCCESS;
	}
	if (translation_refused())
		return refused(path);
	pthread_mutex_lock(&translator.lock);
	unsigned n = serial++;
	pthread_mutex_unlock(&translator.lock);
	snprintf(input, sizeof input, "%s.input-%u-%u.%s", path, zc_process_id(), n, kind);
	if (!write_file(input, code, size)) {
		r = stub_fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: cannot write: %s", input, strerror(errno));
		remove(input);
		return r;
	}
	if (jit->unconverted_file && first_translation_of(jit->unconverted_file))
		fprintf(stderr, "zluda-convert: translating the fatbins of %s for %s as they load (the "
		        "file was not converted; converting it ahead of time saves this)\n",
		        jit->unconverted_file, target);
	r = run_tool(tool_path, input, path, target, jit);
	remove(input);
	clock_gettime(CLOCK_MONOTONIC, &end);
	jit->wall_ms = (float)((double)(end.tv_sec - start.tv_sec) * 1e3 +
	                       (double)(end.tv_nsec - start.tv_nsec) / 1e6);
	if (r == CUDA_SUCCESS) {
		zc_jit_note(jit, false, "zluda-convert: the %s translated for %s in %.0f ms: %s", kind,
		            target, (double)jit->wall_ms, path);
		zc_trim_directory(dir, cache_entry, zc_cache_limit());
	}
	return r;
}

/* The JIT options that shape NVIDIA's code, by their numbers, for the trace that says each is
 * ignored. */
static const char *
ignored_option(CUjit_option option)
{
	static const char *const names[] = {
		[0] = "MAX_REGISTERS", [1] = "THREADS_PER_BLOCK", [7] = "OPTIMIZATION_LEVEL",
		[8] = "TARGET_FROM_CUCONTEXT", [9] = "TARGET", [10] = "FALLBACK_STRATEGY",
		[11] = "GENERATE_DEBUG_INFO", [12] = "LOG_VERBOSE", [13] = "GENERATE_LINE_INFO",
		[14] = "CACHE_MODE", [16] = "FAST_COMPILE", [20] = "LTO", [21] = "FTZ",
		[22] = "PREC_DIV", [23] = "PREC_SQRT", [24] = "FMA",
	};

	if ((unsigned)option < sizeof names / sizeof names[0] && names[option])
		return names[option];
	return "an option this driver does not know";
}

void
zc_jit_options_read(struct zc_jit *jit, unsigned n, const CUjit_option *options, void *const *values)
{
	for (unsigned i = 0; options && values && i < n; i++) {
		switch (options[i]) {
		case CU_JIT_INFO_LOG_BUFFER: jit->info = values[i]; break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: jit->info_size = (uintptr_t)values[i]; break;
		case CU_JIT_ERROR_LOG_BUFFER: jit->error = values[i]; break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: jit->error_size = (uintptr_t)values[i]; break;
		case CU_JIT_WALL_TIME: break;
		default:
			zc_trace_line("  JIT option %d (CU_JIT_%s) ignored: the code is translated as "
			              "zluda-convert translates it", (int)options[i], ignored_option(options[i]));
		}
	}
	if (jit->info && jit->info_size)
		jit->info[0] = 0;
	if (jit->error && jit->error_size)
		jit->error[0] = 0;
}

void
zc_jit_options_write(const struct zc_jit *jit, unsigned n, const CUjit_option *options, void **values)
{
	for (unsigned i = 0; options && values && i < n; i++) {
		switch (options[i]) {
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: values[i] = (void *)(uintptr_t)jit->info_used; break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: values[i] = (void *)(uintptr_t)jit->error_used; break;
		/* a float in the option's slot, as NVIDIA's driver writes it */
		case CU_JIT_WALL_TIME: memcpy(&values[i], &jit->wall_ms, sizeof jit->wall_ms); break;
		}
	}
}
