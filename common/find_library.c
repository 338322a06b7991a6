/* Finding a library by full path: what every platform shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "find_library.h"

#ifdef _WIN32
#define DIRECTORY_SEPARATOR "\\"
#else
#define DIRECTORY_SEPARATOR "/"
#endif

bool
zc_offer_library(struct zc_library_search *s, const char *path)
{
	struct stat st;
	if (s->found || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !s->accept(path, s->arg))
		return s->found;
	snprintf(s->out, s->size, "%s", path);
	s->found = true;
	return true;
}

bool
zc_offer_library_in(struct zc_library_search *s, const char *dir, size_t len)
{
	char path[4096];
	if (len == 0 || len + strlen(s->name) + 2 > sizeof path)
		return s->found;
	snprintf(path, sizeof path, "%.*s" DIRECTORY_SEPARATOR "%s", (int)len, dir, s->name);
	return zc_offer_library(s, path);
}

bool
zc_find_library(const char *name, bool (*accept)(const char *path, void *arg), void *arg,
                char *out, size_t size)
{
	struct zc_library_search s = {name, accept, arg, out, size, false};

	zc_offer_platform_libraries(&s);
	return s.found;
}
