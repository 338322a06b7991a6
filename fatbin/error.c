/* The error funnel, on its own so that the AOT image reader (zc_aot_reader, linked into the
 * runtime stub) has it without the rest of the fatbin library. */
#include <stdarg.h>
#include <stdio.h>

#include "fatbin.h"

bool zc_fail(ZcError *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return false;
}
