/* Building an AOT image. Additions are collected as given; serializing sorts every table by
 * its lookup key, so the bytes depend only on what was added, not on the order in which
 * parallel compilations finished. The layout is docs/aot-image.md's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "aot_image.h"

/* A fixed level keeps the bytes reproducible with one libzstd; 9 is where code objects stop
 * getting much smaller for the time spent. */
enum { ZSTD_LEVEL = 9 };

typedef struct {
	uint32_t module;
	char *target;
	uint8_t *stored;
	size_t stored_size, size;
	uint64_t hash;
	AotBlobCompression compression;
} CodeObjectIn;

typedef struct {
	uint32_t module;
	AotKernelInfo info; /* name and params owned */
	uint32_t param_size;
} KernelIn;

typedef struct {
	uint32_t module;
	char *name;
	uint64_t size;
	AotStateSpace space;
} GlobalIn;

typedef struct {
	uint64_t hash;
	uint32_t kind, module;
} KeyIn;

typedef struct {
	uint32_t module;
	char *target, *what, *reason;
} UntranslatedIn;

#define ARRAY(T) struct { T *v; size_t n, cap; }
#define PUSH(a, x) ((a).n == (a).cap ? grow((void **)&(a).v, &(a).cap, sizeof(*(a).v)) : (void)0, \
                    (a).v[(a).n++] = (x))

struct AotBuilder {
	ARRAY(char *) modules;
	ARRAY(uint32_t) module_ptx_archs; /* one per module, 0 unless set */
	ARRAY(CodeObjectIn) code_objects;
	ARRAY(KernelIn) kernels;
	ARRAY(GlobalIn) globals;
	ARRAY(KeyIn) keys;
	ARRAY(UntranslatedIn) untranslated;
	uint64_t conversion_key;
	uint32_t flags;
	char error[256]; /* the first inconsistency, reported by serialize */
};

static void grow(void **v, size_t *cap, size_t elem)
{
	*cap = *cap ? *cap * 2 : 16;
	*v = zc_realloc(*v, *cap * elem);
}

static char *dup_or_empty(const char *s)
{
	s = s ? s : "";
	return zc_strndup(s, strlen(s));
}

AotBuilder *aot_builder_new(void)
{
	return zc_alloc(sizeof(AotBuilder));
}

void aot_builder_free(AotBuilder *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->modules.n; i++)
		free(b->modules.v[i]);
	for (size_t i = 0; i < b->code_objects.n; i++) {
		free(b->code_objects.v[i].target);
		free(b->code_objects.v[i].stored);
	}
	for (size_t i = 0; i < b->kernels.n; i++) {
		free((char *)b->kernels.v[i].info.name);
		free((AotParam *)b->kernels.v[i].info.params);
	}
	for (size_t i = 0; i < b->globals.n; i++)
		free(b->globals.v[i].name);
	for (size_t i = 0; i < b->untranslated.n; i++) {
		free(b->untranslated.v[i].target);
		free(b->untranslated.v[i].what);
		free(b->untranslated.v[i].reason);
	}
	free(b->modules.v);
	free(b->module_ptx_archs.v);
	free(b->code_objects.v);
	free(b->kernels.v);
	free(b->globals.v);
	free(b->keys.v);
	free(b->untranslated.v);
	free(b);
}

static bool module_ok(AotBuilder *b, uint32_t module, const char *what)
{
	if (module < b->modules.n)
		return true;
	if (!b->error[0])
		snprintf(b->error, sizeof(b->error), "AOT image: %s added to module %u, which does not "
		         "exist (%zu modules)", what, module, b->modules.n);
	return false;
}

uint32_t aot_add_module(AotBuilder *b, const char *name)
{
	PUSH(b->modules, dup_or_empty(name));
	PUSH(b->module_ptx_archs, 0u);
	return (uint32_t)(b->modules.n - 1);
}

void aot_set_module_ptx_arch(AotBuilder *b, uint32_t module, uint32_t sm)
{
	if (module_ok(b, module, "a PTX arch"))
		b->module_ptx_archs.v[module] = sm;
}

void aot_set_conversion_key(AotBuilder *b, uint64_t key)
{
	b->conversion_key = key;
}

void aot_set_flags(AotBuilder *b, uint32_t flags)
{
	b->flags = flags;
}

void aot_add_key(AotBuilder *b, uint32_t module, AotKeyKind kind, uint64_t hash)
{
	if (module_ok(b, module, "a key"))
		PUSH(b->keys, ((KeyIn){hash, kind, module}));
}

void aot_add_code_object(AotBuilder *b, uint32_t module, const char *target, const uint8_t *bytes,
                         size_t size, bool compress)
{
	CodeObjectIn co = {module, dup_or_empty(target), NULL, size, size, aot_hash(bytes, size),
	                   AOT_STORED};

	if (!module_ok(b, module, "a code object")) {
		free(co.target);
		return;
	}
	if (compress) {
		size_t bound = ZSTD_compressBound(size);
		uint8_t *z = zc_alloc(bound);
		size_t n = ZSTD_compress(z, bound, bytes, size, ZSTD_LEVEL);

		if (!ZSTD_isError(n) && n < size) {
			co.stored = zc_realloc(z, n);
			co.stored_size = n;
			co.compression = AOT_ZSTD;
		} else {
			free(z);
		}
	}
	if (!co.stored) {
		co.stored = zc_alloc(size);
		memcpy(co.stored, bytes, size);
	}
	PUSH(b->code_objects, co);
}

void aot_add_kernel(AotBuilder *b, uint32_t module, const AotKernelInfo *k)
{
	KernelIn in = {module, *k, 0};
	AotParam *params = zc_alloc(k->nparams * sizeof(AotParam));

	if (!module_ok(b, module, "a kernel")) {
		free(params);
		return;
	}
	for (uint32_t i = 0; i < k->nparams; i++) {
		uint64_t end = (uint64_t)k->params[i].offset + k->params[i].size;

		params[i] = k->params[i];
		if (end > in.param_size)
			in.param_size = end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
	}
	in.info.name = dup_or_empty(k->name);
	in.info.params = params;
	PUSH(b->kernels, in);
}

void aot_add_global(AotBuilder *b, uint32_t module, const char *name, uint64_t size,
                    AotStateSpace space)
{
	if (module_ok(b, module, "a global"))
		PUSH(b->globals, ((GlobalIn){module, dup_or_empty(name), size, space}));
}

void aot_add_untranslated(AotBuilder *b, uint32_t module, const char *target, const char *what,
                          const char *reason)
{
	if (module_ok(b, module, "an untranslated entry"))
		PUSH(b->untranslated, ((UntranslatedIn){module, dup_or_empty(target), dup_or_empty(what),
		                                        dup_or_empty(reason)}));
}

/* ---- sorting: every table by module, then by its lookup key ----------------------------- */

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b))

static int code_object_cmp(const void *x, const void *y)
{
	const CodeObjectIn *a = x, *b = y;

	return a->module != b->module ? CMP(a->module, b->module) : strcmp(a->target, b->target);
}

static int kernel_cmp(const void *x, const void *y)
{
	const KernelIn *a = x, *b = y;

	return a->module != b->module ? CMP(a->module, b->module) : strcmp(a->info.name, b->info.name);
}

static int global_cmp(const void *x, const void *y)
{
	const GlobalIn *a = x, *b = y;

	return a->module != b->module ? CMP(a->module, b->module) : strcmp(a->name, b->name);
}

static int key_cmp(const void *x, const void *y)
{
	const KeyIn *a = x, *b = y;

	if (a->hash != b->hash)
		return CMP(a->hash, b->hash);
	return a->kind != b->kind ? CMP(a->kind, b->kind) : CMP(a->module, b->module);
}

static int untranslated_cmp(const void *x, const void *y)
{
	const UntranslatedIn *a = x, *b = y;
	int c;

	if (a->module != b->module)
		return CMP(a->module, b->module);
	if ((c = strcmp(a->target, b->target)) != 0)
		return c;
	if ((c = strcmp(a->what, b->what)) != 0)
		return c;
	return strcmp(a->reason, b->reason);
}

static void sort(void *v, size_t n, size_t elem, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(v, n, elem, cmp);
}

/* Sorted tables make duplicates neighbours. */
static bool check_unique(AotBuilder *b, ZcError *err)
{
	for (size_t i = 1; i < b->code_objects.n; i++)
		if (code_object_cmp(&b->code_objects.v[i - 1], &b->code_objects.v[i]) == 0)
			return zc_fail(err, "AOT image: module %u has two code objects for target %s",
			               b->code_objects.v[i].module, b->code_objects.v[i].target);
	for (size_t i = 1; i < b->kernels.n; i++)
		if (kernel_cmp(&b->kernels.v[i - 1], &b->kernels.v[i]) == 0)
			return zc_fail(err, "AOT image: module %u has two kernels named %s",
			               b->kernels.v[i].module, b->kernels.v[i].info.name);
	for (size_t i = 1; i < b->globals.n; i++)
		if (global_cmp(&b->globals.v[i - 1], &b->globals.v[i]) == 0)
			return zc_fail(err, "AOT image: module %u has two globals named %s",
			               b->globals.v[i].module, b->globals.v[i].name);
	return true;
}

/* Identical keys say the same thing twice: keep one. */
static void drop_duplicate_keys(AotBuilder *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->keys.n; i++)
		if (n == 0 || key_cmp(&b->keys.v[n - 1], &b->keys.v[i]) != 0)
			b->keys.v[n++] = b->keys.v[i];
	b->keys.n = n;
}

/* ---- string table: each distinct string once, in first-use order ---------------------- */

typedef struct {
	char *bytes;
	size_t size, cap;
	uint32_t *slots; /* open addressing: offset + 1, 0 for empty */
	size_t nslots, used;
} Strings;

static uint32_t intern_at(Strings *t, const char *s, size_t len, uint64_t h)
{
	for (size_t i = h & (t->nslots - 1);; i = (i + 1) & (t->nslots - 1)) {
		uint32_t off;

		if (!t->slots[i]) {
			off = (uint32_t)t->size;
			if (t->size + len + 1 > t->cap) {
				t->cap = (t->size + len + 1) * 2;
				t->bytes = zc_realloc(t->bytes, t->cap);
			}
			memcpy(t->bytes + t->size, s, len + 1);
			t->size += len + 1;
			t->slots[i] = off + 1;
			t->used++;
			return off;
		}
		off = t->slots[i] - 1;
		if (strcmp(t->bytes + off, s) == 0)
			return off;
	}
}

static void rehash(Strings *t)
{
	size_t old_n = t->nslots;
	uint32_t *old = t->slots;

	t->nslots = old_n ? old_n * 2 : 256;
	t->slots = zc_alloc(t->nslots * sizeof(uint32_t));
	for (size_t i = 0; i < old_n; i++) {
		if (!old[i])
			continue;
		const char *s = t->bytes + old[i] - 1;
		size_t j = aot_hash(s, strlen(s)) & (t->nslots - 1);

		while (t->slots[j])
			j = (j + 1) & (t->nslots - 1);
		t->slots[j] = old[i];
	}
	free(old);
}

static uint32_t intern(Strings *t, const char *s)
{
	size_t len = strlen(s);

	if (2 * (t->used + 1) > t->nslots)
		rehash(t);
	return intern_at(t, s, len, aot_hash(s, len));
}

/* ---- writing -------------------------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

enum { TABLE_MODULES, TABLE_CODE_OBJECTS, TABLE_KERNELS, TABLE_PARAMS, TABLE_GLOBALS, TABLE_KEYS,
       TABLE_UNTRANSLATED, NTABLES };

static const uint32_t record_size[NTABLES] = {
	AOT_MODULE_RECORD, AOT_CODE_OBJECT_RECORD, AOT_KERNEL_RECORD, AOT_PARAM_RECORD,
	AOT_GLOBAL_RECORD, AOT_KEY_RECORD, AOT_UNTRANSLATED_RECORD,
};

typedef struct {
	uint64_t offset[NTABLES];
	size_t count[NTABLES];
	uint64_t strings, blobs, blobs_size, size;
	uint64_t *blob_offset; /* per code object */
} Layout;

static void plan(AotBuilder *b, const Strings *strings, Layout *l)
{
	uint64_t at = AOT_HEADER_SIZE;

	l->count[TABLE_MODULES] = b->modules.n;
	l->count[TABLE_CODE_OBJECTS] = b->code_objects.n;
	l->count[TABLE_KERNELS] = b->kernels.n;
	l->count[TABLE_PARAMS] = 0;
	for (size_t i = 0; i < b->kernels.n; i++)
		l->count[TABLE_PARAMS] += b->kernels.v[i].info.nparams;
	l->count[TABLE_GLOBALS] = b->globals.n;
	l->count[TABLE_KEYS] = b->keys.n;
	l->count[TABLE_UNTRANSLATED] = b->untranslated.n;
	for (int t = 0; t < NTABLES; t++) {
		l->offset[t] = at;
		at = align_up(at + l->count[t] * record_size[t], 8);
	}
	l->strings = at;
	l->blobs = align_up(at + strings->size, AOT_BLOB_ALIGN);
	at = l->blobs;
	l->blob_offset = zc_alloc((b->code_objects.n + 1) * sizeof(uint64_t));
	for (size_t i = 0; i < b->code_objects.n; i++) {
		at = align_up(at, AOT_BLOB_ALIGN);
		l->blob_offset[i] = at;
		at += b->code_objects.v[i].stored_size;
	}
	l->blobs_size = at - l->blobs;
	l->size = at;
}

static void write_header(uint8_t *out, const Layout *l, uint64_t strings_size, uint64_t key,
                         uint32_t flags)
{
	memcpy(out, AOT_MAGIC, 8);
	put32(out + 8, AOT_VERSION);
	put32(out + 12, AOT_HEADER_SIZE);
	put64(out + 16, l->size);
	put32(out + 24, flags);
	for (int t = 0; t < NTABLES; t++) {
		uint8_t *d = out + 32 + 16 * t;

		put64(d, l->offset[t]);
		put32(d + 8, (uint32_t)l->count[t]);
		put32(d + 12, record_size[t]);
	}
	put64(out + 144, l->strings);
	put64(out + 152, strings_size);
	put64(out + 160, l->blobs);
	put64(out + 168, l->blobs_size);
	put64(out + 176, key);
}

/* Per module: where its run of each table starts and how long it is. */
static void write_modules(AotBuilder *b, uint8_t *out, const Layout *l, const uint32_t *names)
{
	size_t co = 0, k = 0, g = 0, u = 0;

	for (uint32_t m = 0; m < b->modules.n; m++) {
		uint8_t *r = out + l->offset[TABLE_MODULES] + (uint64_t)m * AOT_MODULE_RECORD;
		size_t co0 = co, k0 = k, g0 = g, u0 = u;

		while (co < b->code_objects.n && b->code_objects.v[co].module == m)
			co++;
		while (k < b->kernels.n && b->kernels.v[k].module == m)
			k++;
		while (g < b->globals.n && b->globals.v[g].module == m)
			g++;
		while (u < b->untranslated.n && b->untranslated.v[u].module == m)
			u++;
		put32(r, names[m]);
		put32(r + 4, (uint32_t)co0);
		put32(r + 8, (uint32_t)(co - co0));
		put32(r + 12, (uint32_t)k0);
		put32(r + 16, (uint32_t)(k - k0));
		put32(r + 20, (uint32_t)g0);
		put32(r + 24, (uint32_t)(g - g0));
		put32(r + 28, (uint32_t)u0);
		put32(r + 32, (uint32_t)(u - u0));
		put32(r + 36, b->module_ptx_archs.v[m]);
	}
}

static void write_kernels(AotBuilder *b, uint8_t *out, const Layout *l, Strings *s)
{
	uint32_t p = 0;

	for (size_t i = 0; i < b->kernels.n; i++) {
		const KernelIn *k = &b->kernels.v[i];
		uint8_t *r = out + l->offset[TABLE_KERNELS] + i * AOT_KERNEL_RECORD;
		uint32_t flags = (k->info.dynamic_shared ? AOT_KERNEL_DYNAMIC_SHARED : 0) |
		                 (k->info.has_reqntid ? AOT_KERNEL_REQNTID : 0) |
		                 (k->info.has_maxntid ? AOT_KERNEL_MAXNTID : 0);

		put32(r, intern(s, k->info.name));
		put32(r + 4, p);
		put32(r + 8, k->info.nparams);
		put32(r + 12, k->param_size);
		put32(r + 16, k->info.static_shared);
		put32(r + 20, flags);
		for (int d = 0; d < 3; d++) {
			put32(r + 24 + 4 * d, k->info.has_reqntid ? k->info.reqntid[d] : 0);
			put32(r + 36 + 4 * d, k->info.has_maxntid ? k->info.maxntid[d] : 0);
		}
		for (uint32_t j = 0; j < k->info.nparams; j++, p++) {
			uint8_t *q = out + l->offset[TABLE_PARAMS] + (uint64_t)p * AOT_PARAM_RECORD;

			put32(q, k->info.params[j].offset);
			put32(q + 4, k->info.params[j].size);
			put32(q + 8, k->info.params[j].align);
		}
	}
}

static void write_tables(AotBuilder *b, uint8_t *out, const Layout *l, Strings *s)
{
	for (size_t i = 0; i < b->code_objects.n; i++) {
		const CodeObjectIn *co = &b->code_objects.v[i];
		uint8_t *r = out + l->offset[TABLE_CODE_OBJECTS] + i * AOT_CODE_OBJECT_RECORD;

		put32(r, co->module);
		put32(r + 4, intern(s, co->target));
		put32(r + 8, co->compression);
		put64(r + 16, l->blob_offset[i]);
		put64(r + 24, co->stored_size);
		put64(r + 32, co->size);
		put64(r + 40, co->hash);
		memcpy(out + l->blob_offset[i], co->stored, co->stored_size);
	}
	write_kernels(b, out, l, s);
	for (size_t i = 0; i < b->globals.n; i++) {
		uint8_t *r = out + l->offset[TABLE_GLOBALS] + i * AOT_GLOBAL_RECORD;

		put32(r, intern(s, b->globals.v[i].name));
		put32(r + 4, b->globals.v[i].space);
		put64(r + 8, b->globals.v[i].size);
	}
	for (size_t i = 0; i < b->keys.n; i++) {
		uint8_t *r = out + l->offset[TABLE_KEYS] + i * AOT_KEY_RECORD;

		put64(r, b->keys.v[i].hash);
		put32(r + 8, b->keys.v[i].kind);
		put32(r + 12, b->keys.v[i].module);
	}
	for (size_t i = 0; i < b->untranslated.n; i++) {
		const UntranslatedIn *u = &b->untranslated.v[i];
		uint8_t *r = out + l->offset[TABLE_UNTRANSLATED] + i * AOT_UNTRANSLATED_RECORD;

		put32(r, u->module);
		put32(r + 4, intern(s, u->target));
		put32(r + 8, intern(s, u->what));
		put32(r + 12, intern(s, u->reason));
	}
}

/* The string table's contents are fixed before the layout is planned (its size decides where
 * the blobs go), by interning every string in the order the writers will ask for them. */
static uint32_t *intern_all(AotBuilder *b, Strings *s)
{
	uint32_t *module_names = zc_alloc((b->modules.n + 1) * sizeof(uint32_t));

	intern(s, "");
	for (size_t i = 0; i < b->modules.n; i++)
		module_names[i] = intern(s, b->modules.v[i]);
	for (size_t i = 0; i < b->code_objects.n; i++)
		intern(s, b->code_objects.v[i].target);
	for (size_t i = 0; i < b->kernels.n; i++)
		intern(s, b->kernels.v[i].info.name);
	for (size_t i = 0; i < b->globals.n; i++)
		intern(s, b->globals.v[i].name);
	for (size_t i = 0; i < b->untranslated.n; i++) {
		intern(s, b->untranslated.v[i].target);
		intern(s, b->untranslated.v[i].what);
		intern(s, b->untranslated.v[i].reason);
	}
	return module_names;
}

bool aot_builder_serialize(AotBuilder *b, uint8_t **out, size_t *out_size, ZcError *err)
{
	Strings strings = {0};
	Layout layout = {0};
	uint32_t *module_names;
	uint8_t *bytes;

	if (b->error[0])
		return zc_fail(err, "%s", b->error);
	if (b->modules.n > UINT32_MAX / 2 || b->keys.n > UINT32_MAX / 2 ||
	    b->kernels.n > UINT32_MAX / 2)
		return zc_fail(err, "AOT image: too many entries");
	sort(b->code_objects.v, b->code_objects.n, sizeof(CodeObjectIn), code_object_cmp);
	sort(b->kernels.v, b->kernels.n, sizeof(KernelIn), kernel_cmp);
	sort(b->globals.v, b->globals.n, sizeof(GlobalIn), global_cmp);
	sort(b->keys.v, b->keys.n, sizeof(KeyIn), key_cmp);
	sort(b->untranslated.v, b->untranslated.n, sizeof(UntranslatedIn), untranslated_cmp);
	if (!check_unique(b, err))
		return false;
	drop_duplicate_keys(b);

	module_names = intern_all(b, &strings);
	plan(b, &strings, &layout);
	bytes = zc_alloc(layout.size);
	write_header(bytes, &layout, strings.size, b->conversion_key, b->flags);
	write_modules(b, bytes, &layout, module_names);
	write_tables(b, bytes, &layout, &strings);
	memcpy(bytes + layout.strings, strings.bytes, strings.size);

	free(module_names);
	free(layout.blob_offset);
	free(strings.bytes);
	free(strings.slots);
	*out = bytes;
	*out_size = layout.size;
	return true;
}
