/* The target table: lookups over the AMDGPU rows and the host rows. */
#include <stdio.h>
#include <string.h>

#include "target.h"

size_t zc_target_count(void)
{
	return zc_amdgpu_target_count + 2;
}

const ZcTarget *zc_target_at(size_t i)
{
	if (i < zc_amdgpu_target_count)
		return &zc_amdgpu_targets[i];
	return i == zc_amdgpu_target_count ? &zc_host_target
	       : i == zc_amdgpu_target_count + 1 ? &zc_host_windows_target : NULL;
}

const ZcTarget *zc_target_find(const char *name)
{
	for (size_t i = 0; i < zc_target_count(); i++)
		if (strcmp(zc_target_at(i)->name, name) == 0)
			return zc_target_at(i);
	return NULL;
}

void zc_target_names(char *buf, size_t size)
{
	size_t used = 0;
	for (size_t i = 0; i < zc_target_count() && size; i++) {
		const char *name = zc_target_at(i)->name;
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", name);
		if (used >= size)
			return;
	}
}
