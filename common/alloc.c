/* The allocation funnel (common.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void out_of_memory(size_t size)
{
	fprintf(stderr, "zluda-convert: out of memory (allocating %zu bytes)\n", size);
	abort();
}

void *zc_alloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		out_of_memory(size);
	return p;
}

void *zc_realloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

char *zc_strndup(const char *s, size_t n)
{
	char *d = zc_alloc(n + 1);

	memcpy(d, s, n);
	return d;
}
