/* Printing diagnostics the way clang does: location, message, source line, caret. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Control bytes from untrusted input must not reach the terminal as they are. */
static void put_source_byte(FILE *out, unsigned char c)
{
	fputc(c == '\t' || (c >= 0x20 && c != 0x7f) ? c : '?', out);
}

/* What a message becomes when even it cannot be allocated. */
static char out_of_memory[] = "out of memory";

void ptx_diag_vappend(struct ptx_diag *diag, size_t at, const char *fmt, va_list ap)
{
	char *old = at ? diag->message : NULL, *grown;
	va_list copy;

	if (old == out_of_memory)
		return;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		n = 0;
	if (!(grown = realloc(old, at + (size_t)n + 1))) {
		free(old);
		diag->message = out_of_memory;
		return;
	}
	vsnprintf(grown + at, (size_t)n + 1, fmt, ap);
	diag->message = grown;
}

void ptx_diag_free(struct ptx_diag *diag)
{
	if (diag->message != out_of_memory)
		free(diag->message);
	diag->message = NULL;
}

void ptx_diag_print(FILE *out, const struct ptx_diag *diag, const char *text, size_t len)
{
	fprintf(out, "%s:%u:%u: error: ", diag->file, diag->loc.line, diag->loc.col);
	for (const char *c = diag->message; *c; c++)
		put_source_byte(out, (unsigned char)*c);
	fputc('\n', out);
	const char *line = text, *end = text + len;
	for (uint32_t n = 1; n < diag->loc.line && line < end; n++) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			return;
		line = nl + 1;
	}
	const char *line_end = memchr(line, '\n', (size_t)(end - line));
	if (!line_end)
		line_end = end;
	if (line_end > line && line_end[-1] == '\r')
		line_end--;
	for (const char *c = line; c < line_end; c++)
		put_source_byte(out, (unsigned char)*c);
	fputc('\n', out);
	/* Tabs are copied into the caret line so the caret lines up whatever the tab width. */
	for (uint32_t col = 1; col < diag->loc.col; col++) {
		const char *c = line + col - 1;
		fputc(c < line_end && *c == '\t' ? '\t' : ' ', out);
	}
	fputs("^\n", out);
}
