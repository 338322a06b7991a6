/* The kernel names of a PTX text, by a light scan for `.entry NAME` outside comments and
 * strings. Enough to list kernels; the PTX frontend parses properly. */
#include <ctype.h>
#include <string.h>

#include "fatbin.h"

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%';
}

static const char *skip_comment_or_string(const char *p, const char *end)
{
	if (p + 1 < end && p[0] == '/' && p[1] == '/') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		return nl ? nl : end;
	}
	if (p + 1 < end && p[0] == '/' && p[1] == '*') {
		for (p += 2; p + 1 < end; p++)
			if (p[0] == '*' && p[1] == '/')
				return p + 2;
		return end;
	}
	if (*p == '"') {
		for (p++; p < end && *p != '"' && *p != '\n'; p++)
			if (*p == '\\' && p + 1 < end)
				p++;
		return p < end ? p + 1 : end;
	}
	return NULL;
}

size_t ptx_entry_names(const char *text, size_t len, char ***names)
{
	const char *p = text, *end = text + len;
	size_t n = 0, cap = 0;

	*names = NULL;
	while (p < end) {
		const char *after = skip_comment_or_string(p, end);
		const char *name;

		if (after) {
			p = after;
			continue;
		}
		if (*p != '.' || (size_t)(end - p) < 7 || memcmp(p, ".entry", 6) != 0 ||
		    is_ident_char(p[6]) || (p > text && is_ident_char(p[-1]))) {
			p++;
			continue;
		}
		for (p += 6; p < end && isspace((unsigned char)*p); p++)
			;
		for (name = p; p < end && is_ident_char(*p); p++)
			;
		if (p == name)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			*names = zc_realloc(*names, cap * sizeof(char *));
		}
		(*names)[n++] = zc_strndup(name, (size_t)(p - name));
	}
	return n;
}
