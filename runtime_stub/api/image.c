/* Finding the code for a pointer cudart or a program hands over: which file of the process
 * the pointer lies in, that file's AOT image (located, mapped and parsed once per file), and
 * the module the image keys by the hash of what the pointer points at (design decision 6). */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "embed.h"
#include "platform.h"

/* WRAPPER_MAGIC, FATBIN_MAGIC and FATBIN_HEADER_SIZE come from fatbin.h. */
enum { CUBIN_MAGIC = 0x464c457f };  /* "\177ELF": a bare cubin */

/* Every file looked at so far, with or without an image; never freed, so the images (and
 * the strings modules and kernels point into) live as long as the process. */
static struct {
	pthread_mutex_t lock;
	struct zc_image *files;
} cache = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Locates, maps and parses the image of one file. Caller holds the cache lock. */
static struct zc_image *
open_image(const char *path)
{
	struct zc_image *img = stub_alloc(sizeof *img + strlen(path) + 1);
	uint64_t offset = 0, size = 0;
	bool found = false;
	ZcError err;

	if (!img)
		return NULL;
	strcpy(img->path, path);
	img->next = cache.files;
	cache.files = img;
	FILE *file = zc_open_read(path);

	if (!file) {
		stub_fail(CUDA_ERROR_INVALID_IMAGE, "%s: cannot open: %s", path, strerror(errno));
		return img;
	}
	bool located = aot_image_locate_file(file, &found, &offset, &size, &err);
	fclose(file);
	if (!located) {
		stub_fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s", path, err.msg);
		return img;
	}
	if (!found)
		return img;
	const void *map = zc_map_file(path, offset, size);

	if (!map) {
		stub_fail(CUDA_ERROR_OPERATING_SYSTEM, "cannot map the AOT image of %s", path);
		return img;
	}
	if (!aot_image_parse(&img->aot, map, size, &err)) {
		stub_fail(CUDA_ERROR_INVALID_IMAGE, "the AOT image of %s: %s", path, err.msg);
		zc_unmap_file(map, size);
		return img;
	}
	img->found = true;
	return img;
}

static struct zc_image *
image_of_file(const char *path)
{
	struct zc_image *img;

	for (img = cache.files; img; img = img->next)
		if (strcmp(img->path, path) == 0)
			return img;
	return open_image(path);
}

/* A converted module file the program read into memory and handed over as it is: the
 * original bytes, the AOT image 64-aligned after them and the trailer (embed_module.c).
 * Where the buffer ends is unknown, and an unconverted one ends with the original bytes,
 * so everything past them is read by zc_copy_readable. The image is copied: the program
 * may free the buffer once the module is loaded. Caller holds the cache lock. */
static struct zc_image *
image_in_buffer(const uint8_t *code, AotKeyKind kind)
{
	static const char name[] = "a converted module file read into memory";
	uint64_t fat_size, original, start, image_size, trailer, offset, size, stored;
	uint8_t header[AOT_HEADER_SIZE], tail[MODULE_TRAILER_SIZE], *copy = NULL;
	ZcError err;

	if (kind == AOT_KEY_FATBIN) {
		memcpy(&fat_size, code + 8, 8);
		original = FATBIN_HEADER_SIZE + fat_size;
	} else {
		original = strlen((const char *)code) + 1;
	}
	start = align_up(original, AOT_ALIGN_IN_FILE);
	if (start < original || start > UINTPTR_MAX - (uintptr_t)code ||
	    !zc_copy_readable(header, code + start, sizeof header) || memcmp(header, AOT_MAGIC, 8) != 0)
		return NULL;
	memcpy(&image_size, header + 16, 8);
	trailer = align_up(start + image_size, 8);
	if (image_size > UINTPTR_MAX / 2 || trailer > UINTPTR_MAX - (uintptr_t)code - MODULE_TRAILER_SIZE ||
	    !zc_copy_readable(tail, code + trailer, sizeof tail) ||
	    !module_trailer(tail, trailer + MODULE_TRAILER_SIZE, &offset, &size, &stored) ||
	    offset != start || size != image_size)
		return NULL;
	struct zc_image *img = stub_alloc(sizeof *img + sizeof name);
	if (!img || !(copy = stub_alloc(image_size)) || !zc_copy_readable(copy, code + start, image_size)) {
		stub_free(copy);
		stub_free(img);
		return NULL;
	}
	if (!aot_image_parse(&img->aot, copy, image_size, &err)) {
		stub_fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s", name, err.msg);
		stub_free(copy);
		stub_free(img);
		return NULL;
	}
	memcpy(img->path, name, sizeof name);
	img->found = true;
	img->next = cache.files;
	cache.files = img;
	return img;
}

/* What the image keys a container by, or why it has none: a fatbin by its header and the
 * fat_size bytes it claims (within `size`, when the extent is known), a cubin not at all, else
 * a PTX text up to its NUL. */
static CUresult
key_of_container(const uint8_t *code, size_t size, AotKeyKind *kind, uint64_t *hash)
{
	uint32_t magic = 0;
	uint64_t fat_size = 0;

	if (size >= 4)
		memcpy(&magic, code, 4);
	if (magic == CUBIN_MAGIC)
		return stub_fail(CUDA_ERROR_NO_BINARY_FOR_GPU,
		                 "a cubin (SASS) cannot be translated: only PTX can");
	if (magic != FATBIN_MAGIC) {
		*kind = AOT_KEY_PTX;
		*hash = aot_hash_ptx((const char *)code);
		return CUDA_SUCCESS;
	}
	if (size >= FATBIN_HEADER_SIZE)
		memcpy(&fat_size, code + 8, 8);
	if (size < FATBIN_HEADER_SIZE || fat_size > size - FATBIN_HEADER_SIZE)
		return stub_fail(CUDA_ERROR_INVALID_IMAGE, "a fatbin of %llu bytes in %zu bytes",
		                 (unsigned long long)fat_size, size);
	*kind = AOT_KEY_FATBIN;
	*hash = aot_hash(code, FATBIN_HEADER_SIZE + fat_size);
	return CUDA_SUCCESS;
}

/* The same for a pointer a program hands over, whose extent is unknown; a wrapper is
 * followed to its container. */
static CUresult
key_of(const void *code, AotKeyKind *kind, uint64_t *hash, const void **container, bool *wrapped)
{
	uint32_t magic;

	memcpy(&magic, code, 4);
	*wrapped = magic == WRAPPER_MAGIC;
	if (*wrapped) {
		memcpy(&code, (const char *)code + 8, sizeof code);
		if (!code)
			return stub_fail(CUDA_ERROR_INVALID_IMAGE, "a fatbin wrapper without data");
	}
	*container = code;
	return key_of_container(code, SIZE_MAX, kind, hash);
}

/* The module in one image, or in any image when the code lies in no file (a copy the
 * program made at run time): the file the process started from, then every file seen. */
static bool
search(const char *path, AotKeyKind kind, uint64_t hash, struct zc_image **out, uint32_t *module,
       bool *converted)
{
	struct zc_image *img = image_of_file(path ? path : zc_main_program());

	*converted = img && img->found;
	if (*converted && aot_find_module(&img->aot, kind, hash, module)) {
		*out = img;
		return true;
	}
	for (img = path ? NULL : cache.files; img; img = img->next) {
		if (img->found && aot_find_module(&img->aot, kind, hash, module)) {
			*out = img;
			return true;
		}
	}
	*out = NULL;
	return false;
}

struct object_paths {
	char paths[64][ZC_PATH_MAX];
	size_t count;
};

static void
collect_path(const char *path, void *data)
{
	struct object_paths *objects = data;

	if (objects->count < 64)
		snprintf(objects->paths[objects->count++], sizeof objects->paths[0], "%s", path);
}

bool
zc_images_have_cpu_code(const char *target)
{
	static struct object_paths objects;
	bool found = false;

	pthread_mutex_lock(&cache.lock);
	objects.count = 0;
	zc_for_each_loaded_file(collect_path, &objects);
	for (size_t i = 0; i < objects.count && !found; i++) {
		struct zc_image *img = image_of_file(objects.paths[i]);

		found = img && img->found && (img->aot.flags & AOT_IMAGE_FOR_HOST);
		for (uint32_t c = 0; img && img->found && c < img->aot.code_objects.count && !found; c++)
			found = strcmp(aot_code_object(&img->aot, c).target, target) == 0;
		/* converted for the target, though nothing translated: the driver then says why */
		for (uint32_t u = 0; img && img->found && u < img->aot.untranslated.count && !found; u++) {
			const char *t = aot_untranslated(&img->aot, u).target;

			found = t && strcmp(t, target) == 0;
		}
	}
	pthread_mutex_unlock(&cache.lock);
	return found;
}

/* Whether an untranslated entry (module-wide, or of one target) speaks of target. */
static bool
untranslated_for(const AotUntranslated *u, const char *target)
{
	return !u->target || !u->target[0] || strcmp(u->target, target) == 0;
}

/* Whether a module was converted for target: it has code for it, or says why not. */
static bool
converted_for(const struct zc_image *image, uint32_t module, const char *target)
{
	AotModule m = aot_module(&image->aot, module);
	AotCodeObject co;

	for (uint32_t i = 0; i < m.nuntranslated; i++) {
		AotUntranslated u = aot_untranslated(&image->aot, m.first_untranslated + i);

		if (untranslated_for(&u, target))
			return true;
	}
	return aot_find_code_object(&image->aot, module, target, &co);
}

/* What of a module translated at run time was not, in jit's logs: the error log when the
 * target has no code at all (CUDA_ERROR_INVALID_PTX, as when ptxas fails), else the info log
 * (a kernel left out fails when it is asked for). */
static CUresult
explain_untranslated(struct zc_jit *jit, const struct zc_image *image, uint32_t module,
                     const char *target)
{
	AotModule m = aot_module(&image->aot, module);
	AotCodeObject co;
	bool none = !aot_find_code_object(&image->aot, module, target, &co);

	for (uint32_t i = 0; i < m.nuntranslated; i++) {
		AotUntranslated u = aot_untranslated(&image->aot, m.first_untranslated + i);

		if (untranslated_for(&u, target))
			zc_jit_note(jit, none, "zluda-convert: %s%s%s", u.what && u.what[0] ? u.what : "",
			            u.what && u.what[0] ? ": " : "", u.reason);
	}
	if (none)
		return stub_fail(CUDA_ERROR_INVALID_PTX, "%s: no code for %s", image->path, target);
	return CUDA_SUCCESS;
}

/* The image of a converted module file and the module in it for the code; `fresh`: the file
 * was written again, so its image is read anew. */
static bool
module_in_file(const char *path, bool fresh, AotKeyKind kind, uint64_t hash,
               struct zc_image **image, uint32_t *module)
{
	pthread_mutex_lock(&cache.lock);
	*image = fresh ? open_image(path) : image_of_file(path);
	bool found = *image && (*image)->found && aot_find_module(&(*image)->aot, kind, hash, module);
	pthread_mutex_unlock(&cache.lock);
	return found;
}

/* Code no image holds, made at run time: kept when the run is recorded; shipped beside the
 * program, converted for the target; else translated at run time (translate.c), the
 * converted module file the cache has or the translation writes opened as any other, and one
 * damaged in the cache translated again. Called without the cache lock: translating takes
 * seconds. */
static CUresult
translated(const uint8_t *container, size_t size, AotKeyKind kind, uint64_t hash,
           struct zc_jit *jit, struct zc_image **image, uint32_t *module)
{
	char path[ZC_PATH_MAX], target[64];
	bool fatbin = kind == AOT_KEY_FATBIN, found = false;
	CUresult r = zc_drv->code_target(jit->ordinal, target, sizeof target);

	if (r != CUDA_SUCCESS)
		return r;
	zc_record_code(container, size, hash, fatbin);
	if (zc_shipped_code(hash, fatbin, path, sizeof path) &&
	    module_in_file(path, false, kind, hash, image, module) &&
	    converted_for(*image, *module, target)) {
		zc_jit_note(jit, false, "zluda-convert: shipped beside the program: %s", path);
		return explain_untranslated(jit, *image, *module, target);
	}
	for (int again = 0; again < 2 && !found && r == CUDA_SUCCESS; again++) {
		r = zc_translate(container, size, hash, fatbin, target, again, jit, path, sizeof path);
		found = r == CUDA_SUCCESS && module_in_file(path, again, kind, hash, image, module);
	}
	if (r == CUDA_SUCCESS && !found)
		r = stub_fail(CUDA_ERROR_INVALID_IMAGE, "%s: translated, yet its image holds no module "
		              "for the code", path);
	if (r == CUDA_SUCCESS)
		r = explain_untranslated(jit, *image, *module, target);
	return r;
}

/* How many bytes of a container keyed as `kind` the translator gets. */
static size_t
container_size(const uint8_t *container, AotKeyKind kind)
{
	uint64_t fat_size;

	if (kind != AOT_KEY_FATBIN)
		return strlen((const char *)container);
	memcpy(&fat_size, container + 8, 8);
	return FATBIN_HEADER_SIZE + fat_size;
}

CUresult
zc_image_find_file(const char *path, const uint8_t *bytes, size_t size, struct zc_jit *jit,
                   struct zc_image **image, uint32_t *module)
{
	char real[ZC_PATH_MAX];
	AotKeyKind kind = AOT_KEY_PTX;
	uint64_t hash = 0;
	bool found, converted, others_converted;
	CUresult r = key_of_container(bytes, size, &kind, &hash);

	if (r != CUDA_SUCCESS)
		return r;
	if (!zc_real_path(path, real, sizeof real))
		return stub_fail(CUDA_ERROR_FILE_NOT_FOUND, "%s: %s", path, strerror(errno));
	pthread_mutex_lock(&cache.lock);
	/* its own image, then any image (the same code converted inside another file) */
	found = search(real, kind, hash, image, module, &converted) ||
	        search(NULL, kind, hash, image, module, &others_converted);
	pthread_mutex_unlock(&cache.lock);
	if (found)
		return CUDA_SUCCESS;
	if (jit)
		return translated(bytes, container_size(bytes, kind), kind, hash, jit, image, module);
	if (!converted)
		return stub_fail(CUDA_ERROR_NO_BINARY_FOR_GPU,
		                 "%s: not converted by zluda-convert (no AOT image); run "
		                 "zluda-convert on it", path);
	return stub_fail(CUDA_ERROR_NO_BINARY_FOR_GPU,
	                 "%s: its AOT image has no module for its contents (hash %016llx); "
	                 "convert it again", path, (unsigned long long)hash);
}

/* translated for a fatbin of the unconverted file `path`; without a tool to translate it,
 * the file's state is what the caller needs to hear. */
static CUresult
translated_unconverted(const char *path, const uint8_t *container, AotKeyKind kind,
                       uint64_t hash, struct zc_jit *jit, struct zc_image **image,
                       uint32_t *module)
{
	jit->unconverted_file = path;
	CUresult r = translated(container, container_size(container, kind), kind, hash, jit, image,
	                        module);
	jit->unconverted_file = NULL;
	if (r == CUDA_ERROR_JIT_COMPILER_NOT_FOUND)
		return stub_fail(CUDA_ERROR_NO_BINARY_FOR_GPU,
		                 "%s: not converted by zluda-convert (no AOT image), and no tool to "
		                 "translate it at run time; convert it (zluda-convert FILE -o FILE, "
		                 "placed where the program loads it)", path);
	return r;
}

CUresult
zc_image_find(const void *code, struct zc_jit *jit, struct zc_image **image, uint32_t *module)
{
	char path[ZC_PATH_MAX];
	bool in_file;
	const void *container = code;
	AotKeyKind kind = AOT_KEY_PTX;
	uint64_t hash = 0;
	bool found, converted, wrapped;
	CUresult r = key_of(code, &kind, &hash, &container, &wrapped);

	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&cache.lock);
	in_file = zc_file_of_address(code, path, sizeof path) ||
	          zc_file_of_address(container, path, sizeof path);
	found = search(in_file ? path : NULL, kind, hash, image, module, &converted);
	if (!found && (*image = image_in_buffer(container, kind))) {
		converted = true;
		found = aot_find_module(&(*image)->aot, kind, hash, module);
	}
	pthread_mutex_unlock(&cache.lock);
	if (found)
		return CUDA_SUCCESS;
	/* a wrapper is cudart registering a file's fatbin: a converted file's are translated
	 * ahead of time, so one its image lacks means an old conversion; those of a file nobody
	 * converted (a library the program opened itself) are translated as code made at run
	 * time is, when cudart first loads them */
	if (jit && wrapped && in_file && !converted)
		return translated_unconverted(path, container, kind, hash, jit, image, module);
	if (jit && !wrapped)
		return translated(container, container_size(container, kind), kind, hash, jit, image,
		                  module);
	if (!in_file)
		return stub_fail(CUDA_ERROR_NO_BINARY_FOR_GPU,
		                 "a %s in memory (hash %016llx) that no converted file of the process "
		                 "holds; a module file read into memory must be converted itself "
		                 "(zluda-convert FILE -o FILE)",
		                 kind == AOT_KEY_FATBIN ? "fatbin" : "PTX text", (unsigned long long)hash);
	if (!converted)
		return stub_fail(CUDA_ERROR_NO_BINARY_FOR_GPU,
		                 "%s: not converted by zluda-convert (no AOT image)", path);
	return stub_fail(CUDA_ERROR_NO_BINARY_FOR_GPU,
	                 "%s: the AOT image has no module for this %s (hash %016llx); convert "
	                 "the binary again", path,
	                 kind == AOT_KEY_FATBIN ? "fatbin" : "PTX text", (unsigned long long)hash);
}
