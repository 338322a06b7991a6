/* Device-side printf and assert with CUDA's formatting: for the host driver, which calls
 * these from the kernel's threads (drv_host_exec.c), and for the records GPU code leaves
 * (device_output.c). The device
 * compiler packs printf's arguments into one buffer, each at its own size's alignment:
 * integers of 4 bytes unless an l, ll, j, z or t modifier makes them 8, floating-point
 * values promoted to double, pointers (%s, %p) of 8. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base.h"

enum { LINE_MAX_BYTES = 4096 };

struct line {
	char text[LINE_MAX_BYTES];
	size_t used;
};

static void __attribute__((format(ZC_PRINTF_FORMAT, 2, 3)))
append(struct line *l, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof l->text - l->used;

	va_start(ap, fmt);
	int n = vsnprintf(l->text + l->used, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->used += (size_t)n < room ? (size_t)n : room - 1;
}

/* The next argument of `size` bytes from the packed buffer. */
static const uint8_t *
next_arg(const uint8_t *args, size_t *offset, size_t size)
{
	*offset = (*offset + size - 1) / size * size;
	const uint8_t *at = args + *offset;
	*offset += size;
	return at;
}

static int64_t
integer_arg(const uint8_t *args, size_t *offset, size_t size)
{
	const uint8_t *at = next_arg(args, offset, size);
	int32_t narrow;
	int64_t wide;

	if (size == 8) {
		memcpy(&wide, at, 8);
		return wide;
	}
	memcpy(&narrow, at, 4);
	return narrow;
}

/* The '*' width and precision arguments come before the value. */
#define APPEND_STARRED(v)                                          \
	(nstars == 2 ? append(&out, full, stars[0], stars[1], (v))    \
	 : nstars == 1 ? append(&out, full, stars[0], (v))             \
	               : append(&out, full, (v)))

int
zc_print_device_printf(const char *format, const void *packed)
{
	const uint8_t *args = packed;
	struct line out;
	size_t offset = 0;
	int count = 0;

	if (!format)
		return -1;
	out.used = 0;
	out.text[0] = '\0';
	for (const char *p = format; *p;) {
		if (*p != '%') {
			size_t n = strcspn(p, "%");
			append(&out, "%.*s", (int)n, p);
			p += n;
			continue;
		}
		if (p[1] == '%') {
			append(&out, "%%");
			p += 2;
			continue;
		}
		/* One conversion: rebuild it with the arguments' real C types. */
		char spec[32];
		size_t n = 1 + strspn(p + 1, "-+ #0123456789.*");
		size_t length = strspn(p + n, "hljztL");
		char conversion = p[n + length];
		bool wide = memchr(p + n, 'l', length) || memchr(p + n, 'j', length) ||
		            memchr(p + n, 'z', length) || memchr(p + n, 't', length);
		if (!conversion || n + length + 2 > sizeof spec)
			break;
		/* A `*` width or precision takes an int argument of its own. */
		int stars[2], nstars = 0;
		for (size_t i = 1; i < n; i++)
			if (p[i] == '*' && nstars < 2)
				stars[nstars++] = (int)integer_arg(args, &offset, 4);
		memcpy(spec, p, n);
		spec[n] = '\0';
		p += n + length + 1;
		count++;
		char full[40];
		switch (conversion) {
		case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c': {
			int64_t v = integer_arg(args, &offset, wide ? 8 : 4);
			if (conversion == 'c') {
				snprintf(full, sizeof full, "%sc", spec);
				v = (unsigned char)v;
			} else {
				snprintf(full, sizeof full, "%sll%c", spec, conversion);
				if (!wide)
					v = (conversion == 'd' || conversion == 'i') ? (int64_t)(int32_t)v
					                                             : (int64_t)(uint32_t)v;
			}
			APPEND_STARRED(v);
			break;
		}
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
			double v;
			memcpy(&v, next_arg(args, &offset, 8), 8);
			snprintf(full, sizeof full, "%s%c", spec, conversion);
			APPEND_STARRED(v);
			break;
		}
		case 's': case 'p': {
			const void *v;
			memcpy(&v, next_arg(args, &offset, 8), 8);
			if (conversion == 's' && !v)
				v = "(null)";
			snprintf(full, sizeof full, "%s%c", spec, conversion);
			APPEND_STARRED(v);
			break;
		}
		default:
			/* CUDA prints an unknown conversion as it stands and takes no argument. */
			append(&out, "%s%c", spec, conversion);
			count--;
		}
	}
	fwrite(out.text, 1, out.used, stdout);
	return count;
}

void
zc_print_device_assert(const char *expression, const char *file, uint32_t line,
                       const char *function, const uint32_t block[3], const uint32_t thread[3])
{
	fflush(stdout);
	fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
	        file ? file : "?", line, function ? function : "?", block[0], block[1], block[2],
	        thread[0], thread[1], thread[2], expression ? expression : "?");
}
