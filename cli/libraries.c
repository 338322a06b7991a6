/* The shared libraries a program loads as it starts, found the way glibc's dynamic loader
 * finds them (ld.so(8)): the objects are loaded breadth first, and each DT_NEEDED name of an
 * object is looked for in the DT_RPATH of that object and of the objects that loaded it (each
 * only where it has no DT_RUNPATH) and of the executable, then LD_LIBRARY_PATH, then the
 * object's DT_RUNPATH, then /etc/ld.so.cache, then the default directories. A name already
 * loaded (or some object's DT_SONAME) is not looked for again, and a file of another ELF
 * class or machine is passed over, as the loader does. glibc-hwcaps subdirectories are not
 * searched: no library that carries fatbins is installed there. */
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libraries.h"

typedef struct {
	char *path;    /* as found: $ORIGIN is its directory */
	char *soname;
	char *rpath, *runpath;
	bool nodeflib; /* DF_1_NODEFLIB: no cache, no default directories */
	char **needed;
	size_t nneeded;
	size_t loader; /* the object whose DT_NEEDED loaded it; SIZE_MAX for the program */
} Object;

typedef struct {
	Object *v;
	size_t n;
	int elf_class, machine; /* the program's, which every library must have */
	const uint8_t *cache;   /* /etc/ld.so.cache, mapped; NULL when absent */
	size_t cache_size;
} Loader;

static char *copy_string(const char *s)
{
	return s ? zc_strndup(s, strlen(s)) : NULL;
}

/* Reads the dynamic section of the ELF file at PATH; false when it is no ELF file of the
 * wanted class and machine (class 0: any, then taken from it). */
static bool read_object(const char *path, int *elf_class, int *machine, Object *o)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;
	bool ok;

	memset(o, 0, sizeof(*o));
	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ok = e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh) &&
	     (*elf_class == 0 || (gelf_getclass(e) == *elf_class && eh.e_machine == *machine));
	if (ok && *elf_class == 0) {
		*elf_class = gelf_getclass(e);
		*machine = eh.e_machine;
	}
	while (ok && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;
			const char *s;

			if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag == DT_FLAGS_1) {
				o->nodeflib |= (dyn.d_un.d_val & DF_1_NODEFLIB) != 0;
				continue;
			}
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_SONAME && dyn.d_tag != DT_RPATH &&
			    dyn.d_tag != DT_RUNPATH)
				continue;
			if (!(s = elf_strptr(e, sh.sh_link, dyn.d_un.d_val)))
				continue;
			if (dyn.d_tag == DT_NEEDED) {
				o->needed = zc_realloc(o->needed, (o->nneeded + 1) * sizeof(char *));
				o->needed[o->nneeded++] = copy_string(s);
			} else if (dyn.d_tag == DT_SONAME && !o->soname) {
				o->soname = copy_string(s);
			} else if (dyn.d_tag == DT_RPATH && !o->rpath) {
				o->rpath = copy_string(s);
			} else if (dyn.d_tag == DT_RUNPATH && !o->runpath) {
				o->runpath = copy_string(s);
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	if (ok)
		o->path = copy_string(path);
	return ok;
}

static void object_free(Object *o)
{
	for (size_t i = 0; i < o->nneeded; i++)
		free(o->needed[i]);
	free(o->needed);
	free(o->path);
	free(o->soname);
	free(o->rpath);
	free(o->runpath);
}

/* An ELF file of the program's class and machine at PATH, read into *o. */
static bool usable(Loader *l, const char *path, Object *o)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       read_object(path, &l->elf_class, &l->machine, o);
}

/* Appends S to *buf at *used (growing it), as the loader expands $ORIGIN, $LIB and
 * $PLATFORM (also written ${...}). */
static void append(char **buf, size_t *used, size_t *cap, const char *s, size_t n)
{
	if (*used + n + 1 > *cap) {
		*cap = (*used + n + 1) * 2;
		*buf = zc_realloc(*buf, *cap);
	}
	memcpy(*buf + *used, s, n);
	*used += n;
	(*buf)[*used] = '\0';
}

static char *expand_tokens(const char *dir, size_t len, const char *origin, bool *used_origin)
{
	static const struct {
		const char *name;
		const char *value;
	} tokens[] = {{"ORIGIN", NULL}, {"LIB", "lib/x86_64-linux-gnu"}, {"PLATFORM", "x86_64"}};
	char *out = NULL;
	size_t used = 0, cap = 0;

	append(&out, &used, &cap, "", 0);
	for (size_t i = 0; i < len;) {
		bool done = false;

		for (size_t t = 0; dir[i] == '$' && !done && t < 3; t++) {
			size_t n = strlen(tokens[t].name);
			const char *value = tokens[t].value ? tokens[t].value : origin;
			bool braced = i + 1 < len && dir[i + 1] == '{';
			size_t at = i + 1 + braced;

			if (at + n > len || strncmp(dir + at, tokens[t].name, n) != 0 ||
			    (braced && (at + n >= len || dir[at + n] != '}')))
				continue;
			append(&out, &used, &cap, value, strlen(value));
			*used_origin |= t == 0;
			i = at + n + braced;
			done = true;
		}
		if (!done)
			append(&out, &used, &cap, dir + i++, 1);
	}
	return out;
}

static char *origin_of(const char *path)
{
	char *copy = copy_string(path), *dir = copy_string(dirname(copy));

	free(copy);
	return dir;
}

/* NAME in each directory of LIST (':'- or ';'-separated; an empty entry is the current
 * directory), $ORIGIN being ORIGIN; *via_origin tells whether the entry it was found
 * through holds $ORIGIN. */
static bool search_list(Loader *l, const char *list, const char *origin, const char *name,
                        Object *found, bool *via_origin)
{
	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ":;");
		char *dir = expand_tokens(p, len, origin, via_origin);
		char *path = zc_alloc(strlen(dir) + strlen(name) + 3);
		bool ok;

		sprintf(path, "%s/%s", *dir ? dir : ".", name);
		ok = usable(l, path, found);
		free(path);
		free(dir);
		if (ok)
			return true;
		*via_origin = false;
		p += len;
		p += *p != '\0';
	}
	return false;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The string at OFFSET of the cache, or NULL when it does not end inside it. */
static const char *cache_string(const Loader *l, uint32_t offset)
{
	if (offset >= l->cache_size || !memchr(l->cache + offset, '\0', l->cache_size - offset))
		return NULL;
	return (const char *)l->cache + offset;
}

/* glibc's cache format "glibc-ld.so.cache1.1": a 48-byte header (nlibs at 20), then nlibs
 * entries of 24 bytes (flags, key, value: offsets from the start of the file). An old
 * "ld.so-1.7.0" table (12-byte entries) may come first. */
static bool search_cache(Loader *l, const char *name, Object *found)
{
	static const char old_magic[] = "ld.so-1.7.0", new_magic[] = "glibc-ld.so.cache1.1";
	size_t at = 0;

	if (!l->cache)
		return false;
	if (l->cache_size >= 16 && memcmp(l->cache, old_magic, sizeof(old_magic) - 1) == 0) {
		uint64_t n = get32(l->cache + 12);

		at = (16 + n * 12 + 7) & ~(uint64_t)7;
	}
	if (at > l->cache_size || l->cache_size - at < 48 ||
	    memcmp(l->cache + at, new_magic, sizeof(new_magic) - 1) != 0)
		return false;
	uint64_t nlibs = get32(l->cache + at + 20);

	for (uint64_t i = 0; i < nlibs; i++) {
		uint64_t entry = at + 48 + i * 24;
		const char *key, *value;

		if (entry + 24 > l->cache_size)
			return false;
		key = cache_string(l, get32(l->cache + entry + 4));
		value = cache_string(l, get32(l->cache + entry + 8));
		if (key && value && strcmp(key, name) == 0 && usable(l, value, found))
			return true;
	}
	return false;
}

static bool search_default_dirs(Loader *l, const char *name, Object *found)
{
	bool via_origin = false;

	return search_list(l, "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:"
	                      "/lib:/usr/lib", "", name, found, &via_origin);
}

/* Where the loader finds NAME, which object WHO needs; *origin_owner, the object whose
 * $ORIGIN it was found through (SIZE_MAX: none). */
static bool find_needed(Loader *l, size_t who, const char *name, Object *found,
                        size_t *origin_owner)
{
	const Object *o = &l->v[who];
	bool ok = false, via_origin = false;
	char *origin;

	*origin_owner = SIZE_MAX;
	if (strchr(name, '/'))
		return usable(l, name, found);
	if (!o->runpath)
		for (size_t a = who; !ok && a != SIZE_MAX; a = l->v[a].loader) {
			origin = origin_of(l->v[a].path);
			ok = !l->v[a].runpath &&
			     search_list(l, l->v[a].rpath, origin, name, found, &via_origin);
			free(origin);
			if (ok && via_origin)
				*origin_owner = a;
		}
	ok = ok || search_list(l, getenv("LD_LIBRARY_PATH"), ".", name, found, &via_origin);
	if (!ok) {
		origin = origin_of(o->path);
		ok = search_list(l, o->runpath, origin, name, found, &via_origin);
		free(origin);
		if (ok && via_origin)
			*origin_owner = who;
	}
	return ok || (!o->nodeflib && (search_cache(l, name, found) ||
	                               search_default_dirs(l, name, found)));
}

/* Whether the loader's default search (its cache, the system directories) finds NAME at
 * PATH too: a system library, which a converted object finds without its $ORIGIN. */
static bool found_by_default(Loader *l, const char *name, const char *path)
{
	Object other;
	char a[PATH_MAX], b[PATH_MAX];
	bool same;

	if (!search_cache(l, name, &other) && !search_default_dirs(l, name, &other))
		return false;
	same = realpath(path, a) && realpath(other.path, b) && strcmp(a, b) == 0;
	object_free(&other);
	return same;
}

static bool loaded(const Loader *l, const char *name, const char *path)
{
	char real[PATH_MAX], other[PATH_MAX];
	bool have_real = path && realpath(path, real);

	for (size_t i = 1; i < l->n; i++) {
		const char *base = strrchr(l->v[i].path, '/');

		if ((l->v[i].soname && strcmp(l->v[i].soname, name) == 0) ||
		    strcmp(base ? base + 1 : l->v[i].path, name) == 0)
			return true;
		if (have_real && realpath(l->v[i].path, other) && strcmp(real, other) == 0)
			return true;
	}
	return false;
}

static void map_cache(Loader *l)
{
	int fd = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p != MAP_FAILED) {
			l->cache = p;
			l->cache_size = (size_t)st.st_size;
		}
	}
	close(fd);
}

/* Libraries that open others by name with dlopen, from their own directory ($ORIGIN), which
 * no DT_NEEDED entry shows: cuDNN's front library opens its parts so. */
static const struct {
	const char *opener;
	const char *parts[8];
} openers[] = {
	{ "libcudnn.so.9", { "libcudnn_graph.so.9", "libcudnn_ops.so.9", "libcudnn_cnn.so.9",
	                     "libcudnn_adv.so.9", "libcudnn_engines_precompiled.so.9",
	                     "libcudnn_engines_runtime_compiled.so.9", "libcudnn_heuristic.so.9" } },
	{ "libcudnn.so.8", { "libcudnn_ops_infer.so.8", "libcudnn_ops_train.so.8",
	                     "libcudnn_cnn_infer.so.8", "libcudnn_cnn_train.so.8",
	                     "libcudnn_adv_infer.so.8", "libcudnn_adv_train.so.8" } },
};

static Library *add_library(Library **libs, size_t *nlibs)
{
	*libs = zc_realloc(*libs, (*nlibs + 1) * sizeof(Library));
	Library *lib = &(*libs)[(*nlibs)++];
	memset(lib, 0, sizeof *lib);
	return lib;
}

/* The parts each opener among the first n libraries opens that are beside it. */
static size_t add_opened_parts(Library **libs, size_t n)
{
	size_t nlibs = n;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(openers) / sizeof(openers[0]); k++) {
			if (!(*libs)[i].path || strcmp((*libs)[i].name, openers[k].opener) != 0)
				continue;
			char *dir = origin_of((*libs)[i].path);
			for (size_t p = 0; p < sizeof openers[k].parts / sizeof openers[k].parts[0] &&
			                   openers[k].parts[p]; p++) {
				char *path = zc_alloc(strlen(dir) + strlen(openers[k].parts[p]) + 2);
				sprintf(path, "%s/%s", dir, openers[k].parts[p]);
				if (access(path, R_OK) != 0) {
					free(path);
					continue;
				}
				Library *part = add_library(libs, &nlibs);
				part->name = copy_string(openers[k].parts[p]);
				part->path = path;
				part->needed_by = copy_string((*libs)[i].path);
				part->opened_by = copy_string((*libs)[i].path);
			}
			free(dir);
		}
	return nlibs;
}

size_t library_closure(const char *program, Library **libs)
{
	Loader l = {0};
	Object prog;
	char real[PATH_MAX];
	size_t nlibs = 0;

	*libs = NULL;
	if (!realpath(program, real) || !read_object(real, &l.elf_class, &l.machine, &prog))
		return 0;
	prog.loader = SIZE_MAX;
	l.v = zc_alloc(sizeof(Object));
	l.v[l.n++] = prog;
	map_cache(&l);
	for (size_t who = 0; who < l.n; who++) {
		for (size_t k = 0; k < l.v[who].nneeded; k++) {
			const char *name = l.v[who].needed[k];
			Object found;
			Library *lib;
			size_t owner;

			bool listed = false;

			for (size_t i = 0; i < nlibs; i++)
				listed |= strcmp((*libs)[i].name, name) == 0;
			if (listed || loaded(&l, name, NULL))
				continue;
			lib = add_library(libs, &nlibs);
			lib->name = copy_string(name);
			lib->needed_by = copy_string(l.v[who].path);
			if (!find_needed(&l, who, name, &found, &owner))
				continue;
			if (owner != SIZE_MAX && found_by_default(&l, name, found.path))
				owner = SIZE_MAX;
			lib->origin_of = owner == SIZE_MAX ? NULL : copy_string(l.v[owner].path);
			if (loaded(&l, name, found.path)) { /* another name of a file already loaded */
				lib->path = copy_string(found.path);
				object_free(&found);
				continue;
			}
			found.loader = who;
			lib->path = copy_string(found.path);
			l.v = zc_realloc(l.v, (l.n + 1) * sizeof(Object));
			l.v[l.n++] = found;
		}
	}
	for (size_t i = 0; i < l.n; i++)
		object_free(&l.v[i]);
	free(l.v);
	if (l.cache)
		munmap((void *)l.cache, l.cache_size);
	return add_opened_parts(libs, nlibs);
}

void libraries_free(Library *libs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(libs[i].name);
		free(libs[i].path);
		free(libs[i].needed_by);
		free(libs[i].origin_of);
		free(libs[i].opened_by);
	}
	free(libs);
}
