/* Finding a shared library by full path, in the order the platform's loader searches for it
 * (find_library.c, with the platform's order in find_library_posix.c or
 * find_library_windows.c): for what must reach a library other than the one a converted
 * program's own search path finds first (NVIDIA's driver behind the stub, NVIDIA's cuBLAS
 * behind the project's). Plain libc. */
#ifndef ZC_FIND_LIBRARY_H
#define ZC_FIND_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

/* Offers ACCEPT each candidate path for library NAME in the loader's order: on Linux
 * LD_LIBRARY_PATH's directories, /etc/ld.so.cache's entries of that name, the directories of
 * /etc/ld.so.conf (and what it includes), and the usual locations of NVIDIA's driver and
 * toolkit; on Windows the system directory, PATH's directories and the toolkit's (CUDA_PATH),
 * never the program's directory, which holds the project's files. Writes the first accepted
 * into OUT; false when none is. */
bool zc_find_library(const char *name, bool (*accept)(const char *path, void *arg), void *arg,
                     char *out, size_t size);

/* Between find_library.c and the platform's half: a search in progress, the offer of one
 * candidate (true once one is accepted), and the platform's candidates in its order. */
struct zc_library_search {
	const char *name;
	bool (*accept)(const char *path, void *arg);
	void *arg;
	char *out;
	size_t size;
	bool found;
};
bool zc_offer_library(struct zc_library_search *s, const char *path);
bool zc_offer_library_in(struct zc_library_search *s, const char *dir, size_t len);
void zc_offer_platform_libraries(struct zc_library_search *s);

#endif
