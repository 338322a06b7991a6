/* The error funnel of library code (common.h), on its own so that the runtime stub, which
 * compiles in the AOT image reader, has it without the allocation funnel. */
#include <stdarg.h>
#include <stdio.h>

#include "common.h"

bool zc_fail(ZcError *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return false;
}
