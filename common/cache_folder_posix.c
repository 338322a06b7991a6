/* cache_folder.h, POSIX: directories made as needed, the user's cache directory, and a
 * folder of cache entries kept under a size by recency (mtime). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_folder.h"

bool
zc_make_directories(const char *path)
{
	char partial[4096];
	size_t length = strlen(path);

	if (length >= sizeof partial) {
		errno = ENAMETOOLONG;
		return false;
	}
	memcpy(partial, path, length + 1);
	for (size_t i = 1; i <= length; i++) {
		if (partial[i] != '/' && partial[i] != 0)
			continue;
		partial[i] = 0;
		if (mkdir(partial, 0700) != 0 && errno != EEXIST)
			return false;
		partial[i] = path[i];
	}
	return true;
}

bool
zc_user_cache_dir(char *out, size_t size)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int length;

	/* a relative XDG_CACHE_HOME is to be ignored (the XDG base directory specification) */
	if (xdg && xdg[0] == '/')
		length = snprintf(out, size, "%s/zluda-convert", xdg);
	else if (home && home[0] == '/')
		length = snprintf(out, size, "%s/.cache/zluda-convert", home);
	else {
		errno = ENOENT;
		return false;
	}
	if (length < 0 || (size_t)length >= size) {
		errno = ENAMETOOLONG;
		return false;
	}
	return zc_make_directories(out);
}

bool
zc_touch(const char *path)
{
	return utimensat(AT_FDCWD, path, NULL, 0) == 0;
}

struct dated_file {
	struct timespec modified;
	uint64_t size;
	char name[256];
};

static int
older_first(const void *a, const void *b)
{
	const struct timespec *x = &((const struct dated_file *)a)->modified;
	const struct timespec *y = &((const struct dated_file *)b)->modified;

	if (x->tv_sec != y->tv_sec)
		return x->tv_sec < y->tv_sec ? -1 : 1;
	return x->tv_nsec < y->tv_nsec ? -1 : x->tv_nsec > y->tv_nsec;
}

void
zc_trim_directory(const char *dir, bool (*ours)(const char *name), uint64_t limit)
{
	DIR *d = opendir(dir);
	struct dated_file *files = NULL;
	size_t count = 0, capacity = 0;
	uint64_t total = 0;
	struct dirent *e;
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!ours(e->d_name) || strlen(e->d_name) >= sizeof files->name ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (count == capacity) {
			struct dated_file *grown = realloc(files, (capacity = capacity ? 2 * capacity : 64) *
			                                          sizeof *files);
			if (!grown)
				break;
			files = grown;
		}
		files[count].modified = st.st_mtim;
		files[count].size = (uint64_t)st.st_size;
		strcpy(files[count].name, e->d_name);
		total += (uint64_t)st.st_size;
		count++;
	}
	if (count > 1)
		qsort(files, count, sizeof *files, older_first);
	for (size_t i = 0; i + 1 < count && total > limit; i++)
		if (unlinkat(dirfd(d), files[i].name, 0) == 0)
			total -= files[i].size;
	closedir(d);
	free(files);
}
