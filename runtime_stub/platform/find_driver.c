/* Finding NVIDIA's driver by full path: what every platform shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "find_driver.h"

#ifdef _WIN32
#define DIRECTORY_SEPARATOR "\\"
#else
#define DIRECTORY_SEPARATOR "/"
#endif

bool
zc_offer_driver(struct zc_driver_search *s, const char *path)
{
	struct stat st;
	if (s->found || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !s->accept(path, s->arg))
		return s->found;
	snprintf(s->out, s->size, "%s", path);
	s->found = true;
	return true;
}

bool
zc_offer_driver_in(struct zc_driver_search *s, const char *dir, size_t len)
{
	char path[4096];
	if (len == 0 || len > sizeof path - sizeof ZC_NVIDIA_DRIVER_NAME - 2)
		return s->found;
	snprintf(path, sizeof path, "%.*s" DIRECTORY_SEPARATOR "%s", (int)len, dir,
	         ZC_NVIDIA_DRIVER_NAME);
	return zc_offer_driver(s, path);
}

bool
zc_find_nvidia_driver(bool (*accept)(const char *path, void *arg), void *arg, char *out,
                      size_t size)
{
	struct zc_driver_search s = {accept, arg, out, size, false};
	const char *forced = getenv("ZLUDA_CONVERT_CUDA_PATH");

	if (forced && *forced)
		return zc_offer_driver(&s, forced);
	zc_offer_platform_drivers(&s);
	return s.found;
}
