/* Tracing: ZLUDA_CONVERT_TRACE=1 writes one line per driver call to stderr, any other
 * non-empty value names a file to append to. Unsupported calls are counted and listed
 * when the process exits, so a user sees what a program needs. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

bool zc_tracing;
static FILE *trace_out;

enum { MAX_UNSUPPORTED_NAMES = 256 };
static struct {
	pthread_mutex_t lock;
	struct {
		const char *name;
		unsigned long calls;
	} names[MAX_UNSUPPORTED_NAMES];
	int count;
} unsupported = { .lock = PTHREAD_MUTEX_INITIALIZER };

void
zc_trace_line(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!zc_tracing)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	/* One fputs per line, so lines of concurrent threads do not interleave. */
	strcat(line, "\n");
	fputs(line, trace_out);
	fflush(trace_out);
}

CUresult
zc_unsupported(const char *name)
{
	if (!zc_tracing)
		return CUDA_ERROR_NOT_SUPPORTED;
	pthread_mutex_lock(&unsupported.lock);
	int i = 0;
	while (i < unsupported.count && strcmp(unsupported.names[i].name, name) != 0)
		i++;
	if (i == unsupported.count && i < MAX_UNSUPPORTED_NAMES)
		unsupported.names[unsupported.count++].name = name;
	if (i < unsupported.count)
		unsupported.names[i].calls++;
	pthread_mutex_unlock(&unsupported.lock);
	zc_trace_line("zluda-convert: %s(...) = CUDA_ERROR_NOT_SUPPORTED (not implemented)", name);
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* A destructor, not atexit: cudart makes its last driver calls from its own exit handlers,
 * which run before the libraries are finalised. */
__attribute__((destructor)) static void
print_summary(void)
{
	if (!zc_tracing)
		return;
	pthread_mutex_lock(&unsupported.lock);
	if (unsupported.count == 0)
		zc_trace_line("zluda-convert: no unsupported driver calls");
	else
		zc_trace_line("zluda-convert: %d unsupported driver functions were called:",
		              unsupported.count);
	for (int i = 0; i < unsupported.count; i++)
		zc_trace_line("zluda-convert:   %s (%lu calls)", unsupported.names[i].name,
		              unsupported.names[i].calls);
	pthread_mutex_unlock(&unsupported.lock);
}

__attribute__((constructor)) static void
trace_start(void)
{
	const char *value = getenv("ZLUDA_CONVERT_TRACE");

	if (!value || !*value || strcmp(value, "0") == 0)
		return;
	trace_out = stderr;
	if (strcmp(value, "1") != 0 && !(trace_out = fopen(value, "a"))) {
		fprintf(stderr, "zluda-convert: cannot open trace file %s; tracing to stderr\n", value);
		trace_out = stderr;
	}
	zc_tracing = true;
}
