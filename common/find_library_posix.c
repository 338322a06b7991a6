/* Finding a library by full path, in the order the dynamic loader searches, on Linux. */
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "find_library.h"

static char *
read_small_file(const char *path, size_t limit, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);
		if (n > 0 && (size_t)n <= limit && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1))) {
			*size = fread(data, 1, (size_t)n, f);
			data[*size] = 0;
		}
	}
	fclose(f);
	return data;
}

/* glibc's cache ("glibc-ld.so.cache1.1", alone or after the old format's table): entries of
 * flags, key and value offsets (from the new header), os version and hwcaps. */
static void
offer_cache(struct zc_library_search *s)
{
	static const char magic[] = "glibc-ld.so.cache1.1";
	size_t size = 0;
	char *data = read_small_file("/etc/ld.so.cache", 64u << 20, &size);
	if (!data)
		return;
	char *start = memmem(data, size, magic, sizeof magic - 1);
	if (start && (size_t)(start - data) + 48 <= size) {
		size_t avail = size - (size_t)(start - data);
		uint32_t nlibs;
		memcpy(&nlibs, start + 20, 4);
		for (uint32_t i = 0; i < nlibs && 48 + (uint64_t)(i + 1) * 24 <= avail && !s->found; i++) {
			uint32_t key, value;
			memcpy(&key, start + 48 + (size_t)i * 24 + 4, 4);
			memcpy(&value, start + 48 + (size_t)i * 24 + 8, 4);
			if (key >= avail || value >= avail || !memchr(start + key, 0, avail - key) ||
			    !memchr(start + value, 0, avail - value))
				continue;
			if (strcmp(start + key, s->name) == 0)
				zc_offer_library(s, start + value);
		}
	}
	free(data);
}

/* ld.so.conf: one directory a line, '#' comments, "include GLOB" lines. */
static void
offer_conf(struct zc_library_search *s, const char *path, int depth)
{
	size_t size = 0;
	char *data = depth <= 4 ? read_small_file(path, 1u << 20, &size) : NULL;
	for (char *line = data, *next; line && *line && !s->found; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		line[strcspn(line, "#\r")] = 0;
		line += strspn(line, " \t");
		size_t len = strcspn(line, " \t");
		if (len == 7 && strncmp(line, "include", 7) == 0) {
			char *pattern = line + 7 + strspn(line + 7, " \t");
			pattern[strcspn(pattern, " \t")] = 0;
			glob_t g;
			if (glob(pattern, 0, NULL, &g) == 0) {
				for (size_t k = 0; k < g.gl_pathc && !s->found; k++)
					offer_conf(s, g.gl_pathv[k], depth + 1);
				globfree(&g);
			}
		} else if (len) {
			zc_offer_library_in(s, line, len);
		}
	}
	free(data);
}

void
zc_offer_platform_libraries(struct zc_library_search *s)
{
	static const char *const usual[] = {
		"/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64",
		"/usr/lib", "/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu/nvidia/current",
		"/usr/lib/wsl/lib", "/usr/local/cuda/lib64",
	};
	const char *ld = getenv("LD_LIBRARY_PATH");

	for (const char *p = ld; p && *p && !s->found;) {
		size_t len = strcspn(p, ":");
		zc_offer_library_in(s, p, len);
		p += len + (p[len] == ':');
	}
	if (!s->found)
		offer_cache(s);
	if (!s->found)
		offer_conf(s, "/etc/ld.so.conf", 0);
	for (size_t i = 0; i < sizeof usual / sizeof usual[0] && !s->found; i++)
		zc_offer_library_in(s, usual[i], strlen(usual[i]));
}
