/* cache_folder.h on Windows: no cache directory yet (code made at run time is not
 * translated there), so nothing is made, kept or trimmed. */
#include <errno.h>

#include "cache_folder.h"

bool
zc_user_cache_dir(char *out, size_t size)
{
	(void)out, (void)size;
	errno = ENOSYS;
	return false;
}

bool
zc_make_directories(const char *path)
{
	(void)path;
	errno = ENOSYS;
	return false;
}

bool
zc_touch(const char *path)
{
	(void)path;
	return false;
}

void
zc_trim_directory(const char *dir, bool (*ours)(const char *name), uint64_t limit)
{
	(void)dir, (void)ours, (void)limit;
}

