/* The cache of compiled modules: a code object for each lowered module and target, in
 * ROOT/modules/, so that converting again what was converted before compiles only what
 * changed. An entry is named by a 128-bit hash of the lowered module's bitcode, the target,
 * and this converter (its version, its executable's bytes, LLVM's version): everything the
 * code object is made of. Entries are written to a temporary and renamed into place, so that
 * conversions running at once share the folder; each holds its code object's length and
 * hash, and one that does not match them is compiled again and replaced. The folder is kept
 * to ZLUDA_CONVERT_CACHE_MAX, least recently used first. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <xxhash.h>

#include "cache_folder.h"
#include "convert.h"

#define ENTRY_MAGIC "ZCMODULE1\n"
#define ENTRY_HEADER (sizeof ENTRY_MAGIC - 1 + 16) /* magic, size, hash */
#define ENTRY_SUFFIX ".co"

/* The process's cache: module_cache_choose runs once, and the options point here. */
static char chosen_root[4096], chosen_folder[4096 + 16];

/* The folder entries go in under root, made; false (errno set) when it cannot be. */
static bool entries_folder(const char *root, const char **folder)
{
	if (strlen(root) >= sizeof chosen_root) {
		errno = ENAMETOOLONG;
		return false;
	}
	snprintf(chosen_folder, sizeof chosen_folder, "%s/modules", root);
	if (!zc_make_directories(chosen_folder))
		return false;
	*folder = chosen_folder;
	return true;
}

void module_cache_choose(ConvertOptions *o)
{
	const char *variable = getenv("ZLUDA_CONVERT_CACHE_DIR");

	if (o->no_cache)
		return;
	if (o->cache_root) {
		if (!entries_folder(o->cache_root, &o->cache))
			fail_input(o->cache_root, "cannot use it as the cache directory: %s", strerror(errno));
		return;
	}
	if (variable && *variable) {
		if (!entries_folder(variable, &o->cache))
			inform(1, "zluda-convert: warning: ZLUDA_CONVERT_CACHE_DIR=%s: %s; compiling "
			       "without the cache", variable, strerror(errno));
		else
			o->cache_root = variable;
		return;
	}
	if (!zc_user_cache_dir(chosen_root, sizeof chosen_root) || !entries_folder(chosen_root, &o->cache)) {
		inform(2, "zluda-convert: no cache directory (%s); compiling without the cache",
		       strerror(errno));
		return;
	}
	o->cache_root = chosen_root;
}

ZcBytes module_bitcode(LLVMModuleRef m)
{
	LLVMMemoryBufferRef buffer = LLVMWriteBitcodeToMemoryBuffer(m);
	ZcBytes bitcode;

	if (!buffer) {
		fputs("zluda-convert: out of memory\n", stderr);
		abort();
	}
	bitcode.size = LLVMGetBufferSize(buffer);
	bitcode.data = zc_alloc(bitcode.size);
	memcpy(bitcode.data, LLVMGetBufferStart(buffer), bitcode.size);
	LLVMDisposeMemoryBuffer(buffer);
	return bitcode;
}

ModuleKey module_cache_key(const ZcBytes *bitcode, const ZcTarget *target)
{
	XXH3_state_t *state = XXH3_createState();
	unsigned major, minor, patch;
	char converter[160];
	XXH128_hash_t hash;

	if (!state) {
		fputs("zluda-convert: out of memory\n", stderr);
		abort();
	}
	LLVMGetVersion(&major, &minor, &patch);
	snprintf(converter, sizeof converter, "zluda-convert %s %016llx LLVM %u.%u.%u %s", ZC_VERSION,
	         (unsigned long long)converter_hash(), major, minor, patch, target->name);
	XXH3_128bits_reset(state);
	XXH3_128bits_update(state, converter, strlen(converter) + 1);
	XXH3_128bits_update(state, bitcode->data, bitcode->size);
	hash = XXH3_128bits_digest(state);
	XXH3_freeState(state);
	return (ModuleKey){hash.low64, hash.high64};
}

static char *entry_path(const char *cache, const ModuleKey *key, const ZcTarget *target)
{
	char *path;

	if (asprintf(&path, "%s/%016llx%016llx-%s" ENTRY_SUFFIX, cache, (unsigned long long)key->high,
	             (unsigned long long)key->low, target->name) < 0) {
		fputs("zluda-convert: out of memory\n", stderr);
		abort();
	}
	return path;
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* The entry's code object, when it is whole: its magic, its length (the rest of the file)
 * and its hash all as written. */
static bool read_entry(const char *path, ZcBytes *code)
{
	FILE *f = fopen(path, "rb");
	unsigned char header[ENTRY_HEADER];
	struct stat st;
	uint64_t size;
	bool whole = false;

	if (!f)
		return false;
	if (fstat(fileno(f), &st) == 0 && fread(header, 1, sizeof header, f) == sizeof header &&
	    memcmp(header, ENTRY_MAGIC, sizeof ENTRY_MAGIC - 1) == 0) {
		size = get64(header + sizeof ENTRY_MAGIC - 1);
		if (size > 0 && (uint64_t)st.st_size == ENTRY_HEADER + size) {
			code->data = zc_alloc(size);
			code->size = size;
			whole = fread(code->data, 1, size, f) == size &&
			        XXH3_64bits(code->data, size) == get64(header + sizeof ENTRY_MAGIC - 1 + 8);
			if (!whole) {
				free(code->data);
				*code = (ZcBytes){0};
			}
		}
	}
	fclose(f);
	return whole;
}

bool module_cache_get(const char *cache, const ModuleKey *key, const ZcTarget *target, ZcBytes *code)
{
	char *path = entry_path(cache, key, target);
	bool hit = read_entry(path, code);

	if (hit)
		zc_touch(path); /* used: the last to go when the folder is trimmed */
	free(path);
	return hit;
}

/* Failing to keep an entry only costs a later conversion its time: nothing is said. */
void module_cache_put(const char *cache, const ModuleKey *key, const ZcTarget *target,
                      const ZcBytes *code)
{
	char *path = entry_path(cache, key, target), *partial;
	unsigned char header[ENTRY_HEADER];
	FILE *f;
	bool written;

	/* one writer per thread and process: every other conversion sees the whole entry or none */
	if (asprintf(&partial, "%s.tmp%ld-%lx", path, (long)getpid(), (unsigned long)pthread_self()) < 0) {
		free(path);
		return;
	}
	memcpy(header, ENTRY_MAGIC, sizeof ENTRY_MAGIC - 1);
	put64(header + sizeof ENTRY_MAGIC - 1, code->size);
	put64(header + sizeof ENTRY_MAGIC - 1 + 8, XXH3_64bits(code->data, code->size));
	zc_temporary_add(partial);
	f = fopen(partial, "wb");
	written = f && fwrite(header, 1, sizeof header, f) == sizeof header &&
	          fwrite(code->data, 1, code->size, f) == code->size;
	if (f && fclose(f) != 0)
		written = false;
	if (!written || rename(partial, path) != 0)
		unlink(partial);
	zc_temporary_forget(partial);
	free(partial);
	free(path);
}

/* An entry's name as entry_path makes it: 32 hex digits, '-', the target, ".co". */
static bool cache_entry(const char *name)
{
	size_t n = strlen(name), suffix = sizeof ENTRY_SUFFIX - 1;

	return n > 33 + suffix && strspn(name, "0123456789abcdef") == 32 && name[32] == '-' &&
	       strcmp(name + n - suffix, ENTRY_SUFFIX) == 0 &&
	       strspn(name + 33, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n - 33 - suffix;
}

void module_cache_trim(const char *cache)
{
	zc_trim_directory(cache, cache_entry, zc_cache_limit());
}
