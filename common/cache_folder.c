/* cache_folder.h: what both platforms share. */
#include <stdlib.h>

#include "cache_folder.h"

uint64_t zc_cache_limit(void)
{
	const char *value = getenv("ZLUDA_CONVERT_CACHE_MAX");
	char *end;
	unsigned long long mib = value ? strtoull(value, &end, 10) : 0;

	if (!value || end == value || *end || mib == 0 || mib > (1ull << 40))
		mib = 1024;
	return (uint64_t)mib << 20;
}
