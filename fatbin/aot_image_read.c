/* Reading an AOT image. The bytes come from a file anyone could have written, so parsing checks
 * every offset, count, string reference and sort order once; after that the lookups index and
 * binary-search without further checks and without allocating. Fields are read byte by byte
 * (little-endian), so the image needs no particular alignment in memory. */
#include <string.h>
#include <xxhash.h>
#ifndef ZC_AOT_WITHOUT_ZSTD
#include <zstd.h>
#endif

#include "aot_image.h"

uint64_t aot_hash(const void *bytes, size_t size)
{
	return XXH3_64bits(bytes, size);
}

uint64_t aot_hash_ptx(const char *text)
{
	return XXH3_64bits(text, strlen(text));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static const uint8_t *record(const AotImage *img, const AotTable *t, uint32_t size, uint32_t i)
{
	return img->bytes + t->offset + (uint64_t)i * size;
}

static const char *string_at(const AotImage *img, uint32_t offset)
{
	return (const char *)img->bytes + img->strings + offset;
}

AotModule aot_module(const AotImage *img, uint32_t i)
{
	const uint8_t *r = record(img, &img->modules, AOT_MODULE_RECORD, i);

	return (AotModule){string_at(img, get32(r)), get32(r + 4), get32(r + 8), get32(r + 12),
	                   get32(r + 16), get32(r + 20), get32(r + 24), get32(r + 28), get32(r + 32),
	                   get32(r + 36)};
}

AotCodeObject aot_code_object(const AotImage *img, uint32_t i)
{
	const uint8_t *r = record(img, &img->code_objects, AOT_CODE_OBJECT_RECORD, i);

	return (AotCodeObject){get32(r), string_at(img, get32(r + 4)), (AotBlobCompression)get32(r + 8),
	                       img->bytes + get64(r + 16), get64(r + 24), get64(r + 32), get64(r + 40)};
}

AotKernel aot_kernel(const AotImage *img, uint32_t i)
{
	const uint8_t *r = record(img, &img->kernels, AOT_KERNEL_RECORD, i);
	AotKernel k = {string_at(img, get32(r)), get32(r + 4), get32(r + 8), get32(r + 12),
	               get32(r + 16), get32(r + 20), {0}, {0}};

	for (int d = 0; d < 3; d++) {
		k.reqntid[d] = get32(r + 24 + 4 * d);
		k.maxntid[d] = get32(r + 36 + 4 * d);
	}
	return k;
}

AotParam aot_param(const AotImage *img, uint32_t i)
{
	const uint8_t *r = record(img, &img->params, AOT_PARAM_RECORD, i);

	return (AotParam){get32(r), get32(r + 4), get32(r + 8)};
}

AotGlobal aot_global(const AotImage *img, uint32_t i)
{
	const uint8_t *r = record(img, &img->globals, AOT_GLOBAL_RECORD, i);

	return (AotGlobal){string_at(img, get32(r)), (AotStateSpace)get32(r + 4), get64(r + 8)};
}

AotUntranslated aot_untranslated(const AotImage *img, uint32_t i)
{
	const uint8_t *r = record(img, &img->untranslated, AOT_UNTRANSLATED_RECORD, i);

	return (AotUntranslated){get32(r), string_at(img, get32(r + 4)), string_at(img, get32(r + 8)),
	                         string_at(img, get32(r + 12))};
}

void aot_key(const AotImage *img, uint32_t i, AotKeyKind *kind, uint64_t *hash, uint32_t *module)
{
	const uint8_t *r = record(img, &img->keys, AOT_KEY_RECORD, i);

	*hash = get64(r);
	*kind = (AotKeyKind)get32(r + 8);
	*module = get32(r + 12);
}

static const char *target_of(const AotImage *img, uint32_t i)
{
	return string_at(img, get32(record(img, &img->code_objects, AOT_CODE_OBJECT_RECORD, i) + 4));
}

static const char *kernel_name_of(const AotImage *img, uint32_t i)
{
	return string_at(img, get32(record(img, &img->kernels, AOT_KERNEL_RECORD, i)));
}

static const char *global_name_of(const AotImage *img, uint32_t i)
{
	return string_at(img, get32(record(img, &img->globals, AOT_GLOBAL_RECORD, i)));
}

/* ---- validation --------------------------------------------------------------------- */

static bool read_table(AotImage *img, const uint8_t *d, const char *name, uint32_t want_size,
                       AotTable *t, ZcError *err)
{
	uint64_t offset = get64(d);
	uint32_t count = get32(d + 8), size = get32(d + 12);

	if (size != want_size)
		return zc_fail(err, "AOT image: %s records are %u bytes, version %u has %u", name, size,
		               AOT_VERSION, want_size);
	if (offset < AOT_HEADER_SIZE || offset > img->size ||
	    count > (img->size - offset) / want_size)
		return zc_fail(err, "AOT image: %s table (%u records at 0x%llx) is outside the image "
		               "(0x%llx bytes)", name, count, (unsigned long long)offset,
		               (unsigned long long)img->size);
	*t = (AotTable){offset, count};
	return true;
}

static bool read_region(const AotImage *img, const uint8_t *d, const char *name, uint64_t *offset,
                        uint64_t *size, ZcError *err)
{
	*offset = get64(d);
	*size = get64(d + 8);
	if (*offset < AOT_HEADER_SIZE || *offset > img->size || *size > img->size - *offset)
		return zc_fail(err, "AOT image: %s (0x%llx bytes at 0x%llx) is outside the image "
		               "(0x%llx bytes)", name, (unsigned long long)*size,
		               (unsigned long long)*offset, (unsigned long long)img->size);
	return true;
}

/* The table ends with a NUL, so any offset inside it starts a terminated string. */
static bool string_ok(const AotImage *img, uint32_t offset, const char *what, uint32_t i,
                      ZcError *err)
{
	if (offset >= img->strings_size)
		return zc_fail(err, "AOT image: %s %u names string 0x%x, past the string table "
		               "(0x%llx bytes)", what, i, offset, (unsigned long long)img->strings_size);
	return true;
}

/* One module's run [first, first + n) of a table must start where the previous one ended. */
static bool run_ok(uint32_t first, uint32_t n, uint64_t *next, uint32_t count, const char *what,
                   uint32_t m, ZcError *err)
{
	if (first != *next || n > count - first)
		return zc_fail(err, "AOT image: module %u's %s (%u from %u) do not follow the previous "
		               "module's within the %u records", m, what, n, first, count);
	*next = (uint64_t)first + n;
	return true;
}

static bool check_modules(const AotImage *img, ZcError *err)
{
	uint64_t co = 0, k = 0, g = 0, u = 0;

	for (uint32_t m = 0; m < img->modules.count; m++) {
		const uint8_t *r = record(img, &img->modules, AOT_MODULE_RECORD, m);
		AotModule mod;

		if (!string_ok(img, get32(r), "module", m, err))
			return false;
		mod = aot_module(img, m);
		if (!run_ok(mod.first_code_object, mod.ncode_objects, &co, img->code_objects.count,
		            "code objects", m, err) ||
		    !run_ok(mod.first_kernel, mod.nkernels, &k, img->kernels.count, "kernels", m, err) ||
		    !run_ok(mod.first_global, mod.nglobals, &g, img->globals.count, "globals", m, err) ||
		    !run_ok(mod.first_untranslated, mod.nuntranslated, &u, img->untranslated.count,
		            "untranslated entries", m, err))
			return false;
	}
	if (co != img->code_objects.count || k != img->kernels.count || g != img->globals.count ||
	    u != img->untranslated.count)
		return zc_fail(err, "AOT image: records belong to no module");
	return true;
}

static bool check_code_objects(const AotImage *img, ZcError *err)
{
	for (uint32_t i = 0; i < img->code_objects.count; i++) {
		const uint8_t *r = record(img, &img->code_objects, AOT_CODE_OBJECT_RECORD, i);
		uint64_t offset = get64(r + 16), stored = get64(r + 24);
		uint32_t compression = get32(r + 8);
		AotModule m;

		if (!string_ok(img, get32(r + 4), "code object", i, err))
			return false;
		if (get32(r) >= img->modules.count)
			return zc_fail(err, "AOT image: code object %u belongs to module %u of %u", i,
			               get32(r), img->modules.count);
		m = aot_module(img, get32(r));
		if (i < m.first_code_object || i - m.first_code_object >= m.ncode_objects)
			return zc_fail(err, "AOT image: code object %u is not in its module's run", i);
		if (i > m.first_code_object && strcmp(target_of(img, i - 1), target_of(img, i)) >= 0)
			return zc_fail(err, "AOT image: code objects of module %u are not sorted by target",
			               get32(r));
		if (offset < img->blobs || offset > img->blobs + img->blobs_size ||
		    stored > img->blobs + img->blobs_size - offset)
			return zc_fail(err, "AOT image: code object %u (0x%llx bytes at 0x%llx) is outside "
			               "the blob area", i, (unsigned long long)stored,
			               (unsigned long long)offset);
		if (compression != AOT_STORED && compression != AOT_ZSTD)
			return zc_fail(err, "AOT image: code object %u has unknown compression %u", i,
			               compression);
		if (compression == AOT_STORED && stored != get64(r + 32))
			return zc_fail(err, "AOT image: uncompressed code object %u has stored size 0x%llx "
			               "but size 0x%llx", i, (unsigned long long)stored,
			               (unsigned long long)get64(r + 32));
	}
	return true;
}

static bool check_kernels(const AotImage *img, ZcError *err)
{
	uint64_t next_param = 0;
	uint32_t m = 0;

	for (uint32_t i = 0; i < img->kernels.count; i++) {
		const uint8_t *r = record(img, &img->kernels, AOT_KERNEL_RECORD, i);
		AotKernel k;

		if (!string_ok(img, get32(r), "kernel", i, err))
			return false;
		k = aot_kernel(img, i);
		if (k.first_param != next_param || k.nparams > img->params.count - k.first_param)
			return zc_fail(err, "AOT image: kernel %u's parameters (%u from %u) do not follow "
			               "the previous kernel's within the %u records", i, k.nparams,
			               k.first_param, img->params.count);
		next_param = (uint64_t)k.first_param + k.nparams;
		for (uint32_t p = 0; p < k.nparams; p++) {
			AotParam q = aot_param(img, k.first_param + p);

			if ((uint64_t)q.offset + q.size > k.param_size)
				return zc_fail(err, "AOT image: kernel %s parameter %u ends past the %u bytes "
				               "of parameters", k.name, p, k.param_size);
		}
		while (m < img->modules.count &&
		       i >= aot_module(img, m).first_kernel + (uint64_t)aot_module(img, m).nkernels)
			m++;
		if (i > aot_module(img, m).first_kernel && strcmp(aot_kernel(img, i - 1).name, k.name) >= 0)
			return zc_fail(err, "AOT image: kernels of module %u are not sorted by name", m);
	}
	if (next_param != img->params.count)
		return zc_fail(err, "AOT image: parameters belong to no kernel");
	return true;
}

static bool check_globals(const AotImage *img, ZcError *err)
{
	uint32_t m = 0;

	for (uint32_t i = 0; i < img->globals.count; i++) {
		const uint8_t *r = record(img, &img->globals, AOT_GLOBAL_RECORD, i);

		if (!string_ok(img, get32(r), "global", i, err))
			return false;
		if (get32(r + 4) != AOT_SPACE_GLOBAL && get32(r + 4) != AOT_SPACE_CONST)
			return zc_fail(err, "AOT image: global %u has unknown state space %u", i,
			               get32(r + 4));
		while (m < img->modules.count &&
		       i >= aot_module(img, m).first_global + (uint64_t)aot_module(img, m).nglobals)
			m++;
		if (i > aot_module(img, m).first_global &&
		    strcmp(aot_global(img, i - 1).name, aot_global(img, i).name) >= 0)
			return zc_fail(err, "AOT image: globals of module %u are not sorted by name", m);
	}
	return true;
}

static bool check_keys_and_untranslated(const AotImage *img, ZcError *err)
{
	for (uint32_t i = 0; i < img->keys.count; i++) {
		AotKeyKind kind;
		uint64_t hash, prev_hash;
		uint32_t module;

		aot_key(img, i, &kind, &hash, &module);
		if (kind != AOT_KEY_FATBIN && kind != AOT_KEY_PTX)
			return zc_fail(err, "AOT image: key %u has unknown kind %u", i, kind);
		if (module >= img->modules.count)
			return zc_fail(err, "AOT image: key %u names module %u of %u", i, module,
			               img->modules.count);
		if (i > 0) {
			AotKeyKind prev_kind;
			uint32_t prev_module;

			aot_key(img, i - 1, &prev_kind, &prev_hash, &prev_module);
			if (prev_hash > hash || (prev_hash == hash && prev_kind > kind))
				return zc_fail(err, "AOT image: keys are not sorted by hash");
		}
	}
	for (uint32_t i = 0; i < img->untranslated.count; i++) {
		const uint8_t *r = record(img, &img->untranslated, AOT_UNTRANSLATED_RECORD, i);

		if (!string_ok(img, get32(r + 4), "untranslated entry", i, err) ||
		    !string_ok(img, get32(r + 8), "untranslated entry", i, err) ||
		    !string_ok(img, get32(r + 12), "untranslated entry", i, err))
			return false;
		if (get32(r) >= img->modules.count)
			return zc_fail(err, "AOT image: untranslated entry %u names module %u of %u", i,
			               get32(r), img->modules.count);
	}
	return true;
}

bool aot_image_parse(AotImage *img, const uint8_t *bytes, uint64_t size, ZcError *err)
{
	static const char *const names[] = {"module", "code object", "kernel", "parameter",
	                                    "global", "key", "untranslated"};
	static const uint32_t sizes[] = {AOT_MODULE_RECORD, AOT_CODE_OBJECT_RECORD,
	                                 AOT_KERNEL_RECORD, AOT_PARAM_RECORD, AOT_GLOBAL_RECORD,
	                                 AOT_KEY_RECORD, AOT_UNTRANSLATED_RECORD};
	AotTable *tables[] = {&img->modules, &img->code_objects, &img->kernels, &img->params,
	                      &img->globals, &img->keys, &img->untranslated};

	memset(img, 0, sizeof(*img));
	if (size < 16 || memcmp(bytes, AOT_MAGIC, 8) != 0)
		return zc_fail(err, "AOT image: no %s magic", AOT_MAGIC);
	if (get32(bytes + 8) != AOT_VERSION)
		return zc_fail(err, "AOT image: version %u, this reader reads version %u "
		               "(convert the binary again with this zluda-convert)", get32(bytes + 8),
		               AOT_VERSION);
	if (size < AOT_HEADER_SIZE || get32(bytes + 12) != AOT_HEADER_SIZE)
		return zc_fail(err, "AOT image: header is not the %u bytes of version %u",
		               AOT_HEADER_SIZE, AOT_VERSION);
	if (get64(bytes + 16) != size)
		return zc_fail(err, "AOT image: header says 0x%llx bytes, there are 0x%llx",
		               (unsigned long long)get64(bytes + 16), (unsigned long long)size);
	if ((get32(bytes + 24) & ~(uint32_t)AOT_IMAGE_FOR_HOST) != 0 || get32(bytes + 28) != 0)
		return zc_fail(err, "AOT image: unknown header flags or reserved fields not zero");
	img->bytes = bytes;
	img->flags = get32(bytes + 24);
	img->size = size;
	img->conversion_key = get64(bytes + 176);
	for (int t = 0; t < 7; t++)
		if (!read_table(img, bytes + 32 + 16 * t, names[t], sizes[t], tables[t], err))
			return false;
	if (!read_region(img, bytes + 144, "string table", &img->strings, &img->strings_size, err) ||
	    !read_region(img, bytes + 160, "blob area", &img->blobs, &img->blobs_size, err))
		return false;
	if (img->strings_size == 0 || bytes[img->strings] != 0 ||
	    bytes[img->strings + img->strings_size - 1] != 0)
		return zc_fail(err, "AOT image: string table does not start and end with a NUL");
	return check_modules(img, err) && check_code_objects(img, err) && check_kernels(img, err) &&
	       check_globals(img, err) && check_keys_and_untranslated(img, err);
}

/* ---- lookups ------------------------------------------------------------------------ */

bool aot_find_module(const AotImage *img, AotKeyKind kind, uint64_t hash, uint32_t *module)
{
	uint32_t lo = 0, hi = img->keys.count;

	/* the first key not below (hash, kind): the lowest module of equal keys */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		AotKeyKind k;
		uint64_t h;
		uint32_t m;

		aot_key(img, mid, &k, &h, &m);
		if (h < hash || (h == hash && k < kind))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < img->keys.count) {
		AotKeyKind k;
		uint64_t h;

		aot_key(img, lo, &k, &h, module);
		return h == hash && k == kind;
	}
	return false;
}

/* Binary search of a module's run [first, first + n) sorted by the name `name_of` returns. */
static bool find_name(const AotImage *img, uint32_t first, uint32_t n, const char *name,
                      const char *(*name_of)(const AotImage *, uint32_t), uint32_t *index)
{
	uint32_t lo = first, hi = first + n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name_of(img, mid), name);

		if (c == 0) {
			*index = mid;
			return true;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool aot_find_code_object(const AotImage *img, uint32_t module, const char *target,
                          AotCodeObject *co)
{
	AotModule m;
	uint32_t i;

	if (module >= img->modules.count)
		return false;
	m = aot_module(img, module);
	if (!find_name(img, m.first_code_object, m.ncode_objects, target, target_of, &i))
		return false;
	*co = aot_code_object(img, i);
	return true;
}

bool aot_find_kernel(const AotImage *img, uint32_t module, const char *name, AotKernel *k,
                     uint32_t *index)
{
	AotModule m;
	uint32_t i;

	if (module >= img->modules.count)
		return false;
	m = aot_module(img, module);
	if (!find_name(img, m.first_kernel, m.nkernels, name, kernel_name_of, &i))
		return false;
	*k = aot_kernel(img, i);
	if (index)
		*index = i;
	return true;
}

bool aot_find_global(const AotImage *img, uint32_t module, const char *name, AotGlobal *g)
{
	AotModule m;
	uint32_t i;

	if (module >= img->modules.count)
		return false;
	m = aot_module(img, module);
	if (!find_name(img, m.first_global, m.nglobals, name, global_name_of, &i))
		return false;
	*g = aot_global(img, i);
	return true;
}

bool aot_code_object_read(const AotCodeObject *co, uint8_t *dst, ZcError *err)
{
	if (co->compression == AOT_ZSTD) {
#ifdef ZC_AOT_WITHOUT_ZSTD
		/* nvcuda.dll: the converter stores the code objects of PE files uncompressed */
		return zc_fail(err, "AOT image: code object for %s is zstd-compressed, which this "
		               "build cannot decompress; convert the file again", co->target);
#else
		size_t n = ZSTD_decompress(dst, co->size, co->stored, co->stored_size);

		if (ZSTD_isError(n))
			return zc_fail(err, "AOT image: code object for %s does not decompress: %s",
			               co->target, ZSTD_getErrorName(n));
		if (n != co->size)
			return zc_fail(err, "AOT image: code object for %s decompresses to 0x%zx bytes, "
			               "not 0x%llx", co->target, n, (unsigned long long)co->size);
#endif
	} else {
		memcpy(dst, co->stored, co->size);
	}
	if (aot_hash(dst, co->size) != co->hash)
		return zc_fail(err, "AOT image: code object for %s does not match its hash",
		               co->target);
	return true;
}
