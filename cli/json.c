#include "json.h"

void json_init(Json *j, FILE *out)
{
	*j = (Json){.out = out};
}

static void indent(Json *j)
{
	fputc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Everything that starts a value goes through here. */
static void value_prefix(Json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	j->need_comma[j->depth] = true;
	indent(j);
}

static void open(Json *j, char c)
{
	value_prefix(j);
	fputc(c, j->out);
	j->depth++;
	j->need_comma[j->depth] = false;
}

static void close(Json *j, char c)
{
	bool empty = !j->need_comma[j->depth];

	j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->out);
}

void json_object_begin(Json *j) { open(j, '{'); }
void json_object_end(Json *j) { close(j, '}'); }
void json_array_begin(Json *j) { open(j, '['); }
void json_array_end(Json *j) { close(j, ']'); }

static void write_string(Json *j, const char *s)
{
	fputc('"', j->out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(j->out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", j->out);
		else if (*p == '\t')
			fputs("\\t", j->out);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(j->out, "\\u%04x", *p); /* file names are bytes, not text: keep it ASCII */
		else
			fputc(*p, j->out);
	}
	fputc('"', j->out);
}

void json_key(Json *j, const char *key)
{
	value_prefix(j);
	write_string(j, key);
	fputs(": ", j->out);
	j->after_key = true;
}

void json_string(Json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	value_prefix(j);
	write_string(j, s);
}

void json_uint(Json *j, uint64_t v)
{
	value_prefix(j);
	fprintf(j->out, "%llu", (unsigned long long)v);
}

void json_bool(Json *j, bool v)
{
	value_prefix(j);
	fputs(v ? "true" : "false", j->out);
}

void json_null(Json *j)
{
	value_prefix(j);
	fputs("null", j->out);
}

void json_raw(Json *j, const char *text)
{
	value_prefix(j);
	fputs(text, j->out);
}

void json_field_string(Json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_field_uint(Json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_uint(j, v);
}

void json_field_bool(Json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_finish(Json *j)
{
	fputc('\n', j->out);
}
