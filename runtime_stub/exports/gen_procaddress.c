/* Build-time generator: turns procaddress.tsv into the C table procaddress.c includes.
 * It checks every property the lookup relies on, so bad data fails the build rather
 * than a program at run time.
 *
 * usage: gen_procaddress procaddress.tsv procaddress_table.inc */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct row {
	char *name;
	char *symbol;
	long min_version;
	long max_version;  /* -1: open */
	int flags;
	long line;
};

static const char *input_path;

static _Noreturn void
fail(long line, const char *fmt, ...)
{
	va_list ap;

	if (line > 0)
		fprintf(stderr, "gen_procaddress: %s:%ld: ", input_path, line);
	else
		fprintf(stderr, "gen_procaddress: %s: ", input_path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *
xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		fprintf(stderr, "gen_procaddress: out of memory\n");
		exit(1);
	}
	return p;
}

static char *
xstrdup(const char *s)
{
	size_t size = strlen(s) + 1;

	return memcpy(xrealloc(NULL, size), s, size);
}

#define IDENTIFIER_START "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"

static int
is_identifier(const char *s)
{
	return *s && strchr(IDENTIFIER_START, *s)
	       && s[strspn(s, IDENTIFIER_START "0123456789")] == '\0';
}

/* A version must fit the table's int32_t (cudaVersion is an int); an empty field is an open bound. */
static long
parse_version(const char *s, long line, int may_be_empty)
{
	char *end;
	long v;

	if (*s == '\0' && may_be_empty)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno || v > INT32_MAX)
		fail(line, "bad version '%s'", s);
	return v;
}

static struct row
parse_row(char *text, long line)
{
	char *field[5];
	int n = 0;
	struct row r;

	for (char *p = text;; p++) {
		if (n == 5)
			fail(line, "more than 5 tab-separated fields");
		field[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p = '\0';
	}
	if (n != 5)
		fail(line, "%d fields, want 5", n);
	if (!is_identifier(field[0]) || !is_identifier(field[4]))
		fail(line, "name and symbol must be C identifiers");
	if (strlen(field[1]) != 1 || field[1][0] < '0' || field[1][0] > '2')
		fail(line, "flags '%s' is not 0, 1 or 2", field[1]);
	r.name = xstrdup(field[0]);
	r.symbol = xstrdup(field[4]);
	r.flags = field[1][0] - '0';
	r.min_version = parse_version(field[2], line, 0);
	r.max_version = parse_version(field[3], line, 1);
	if (r.max_version != -1 && r.max_version < r.min_version)
		fail(line, "max_version below min_version");
	r.line = line;
	return r;
}

static int
compare_rows(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c != 0)
		return c;
	if (x->flags != y->flags)
		return x->flags - y->flags;
	return (x->min_version > y->min_version) - (x->min_version < y->min_version);
}

static int
same_group(const struct row *a, const struct row *b)
{
	return a->flags == b->flags && strcmp(a->name, b->name) == 0;
}

/* The lookup walks a group upward from its first row and stops at the first range that
 * holds the version, so the ranges must follow one another and the last must be open. */
static void
check_groups(const struct row *rows, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		const struct row *r = &rows[i];
		int last = i + 1 == count || !same_group(r, r + 1);

		if (last && r->max_version != -1)
			fail(r->line, "%s flags %d: the last range must be open", r->name, r->flags);
		if (!last && (r->max_version == -1 || r[1].min_version != r->max_version + 1))
			fail(r[1].line, "%s flags %d: ranges overlap or leave a gap", r->name, r->flags);
	}
}

struct pool {
	char **strings;  /* sorted, unique */
	size_t count;
	size_t *offsets;
};

static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every distinct name and symbol once, so equal names share one offset. */
static struct pool
build_pool(const struct row *rows, size_t count)
{
	struct pool pool;
	size_t n = 0, offset = 0;

	pool.strings = xrealloc(NULL, 2 * count * sizeof *pool.strings);
	for (size_t i = 0; i < count; i++) {
		pool.strings[n++] = rows[i].name;
		pool.strings[n++] = rows[i].symbol;
	}
	qsort(pool.strings, n, sizeof *pool.strings, compare_strings);
	pool.count = 0;
	for (size_t i = 0; i < n; i++)
		if (pool.count == 0 || strcmp(pool.strings[pool.count - 1], pool.strings[i]) != 0)
			pool.strings[pool.count++] = pool.strings[i];
	pool.offsets = xrealloc(NULL, pool.count * sizeof *pool.offsets);
	for (size_t i = 0; i < pool.count; i++) {
		pool.offsets[i] = offset;
		offset += strlen(pool.strings[i]) + 1;
	}
	if (offset > UINT32_MAX)
		fail(0, "string pool too large");
	return pool;
}

static size_t
pool_offset(const struct pool *pool, const char *s)
{
	char **found = bsearch(&s, pool->strings, pool->count, sizeof *pool->strings,
	                       compare_strings);

	return pool->offsets[found - pool->strings];
}

static void
emit(FILE *out, const struct row *rows, size_t count, const struct pool *pool)
{
	fprintf(out, "/* Generated by gen_procaddress from procaddress.tsv: do not edit. */\n\n");
	fprintf(out, "static const char proc_strings[] =\n");
	for (size_t i = 0; i < pool->count; i++)
		fprintf(out, "\t\"%s\\0\"%s\n", pool->strings[i], i + 1 == pool->count ? ";" : "");
	fprintf(out, "\nstatic const struct proc_row proc_rows[] = {\n");
	for (size_t i = 0; i < count; i++) {
		const struct row *r = &rows[i];
		char max[32] = "OPEN_VERSION";

		if (r->max_version != -1)
			snprintf(max, sizeof max, "%ld", r->max_version);
		fprintf(out, "\t{ %zu, %zu, %ld, %s, %d },  /* %s -> %s */\n",
		        pool_offset(pool, r->name), pool_offset(pool, r->symbol),
		        r->min_version, max, r->flags, r->name, r->symbol);
	}
	fprintf(out, "};\n");
}

static void
free_all(struct row *rows, size_t count, struct pool *pool)
{
	for (size_t i = 0; i < count; i++) {
		free(rows[i].name);
		free(rows[i].symbol);
	}
	free(rows);
	free(pool->strings);
	free(pool->offsets);
}

int
main(int argc, char **argv)
{
	FILE *in, *out;
	char *line = NULL;
	size_t cap = 0, count = 0;
	ssize_t len;
	long lineno = 0;
	struct row *rows = NULL;
	struct pool pool;

	if (argc != 3) {
		fprintf(stderr, "usage: gen_procaddress procaddress.tsv output.inc\n");
		return 2;
	}
	input_path = argv[1];
	in = fopen(input_path, "r");
	if (!in)
		fail(0, "%s", strerror(errno));
	while ((len = getline(&line, &cap, in)) != -1) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		rows = xrealloc(rows, (count + 1) * sizeof *rows);
		rows[count++] = parse_row(line, lineno);
	}
	free(line);
	if (ferror(in))
		fail(lineno, "read error");
	fclose(in);
	if (count == 0)
		fail(lineno, "no rows");

	qsort(rows, count, sizeof *rows, compare_rows);
	check_groups(rows, count);
	pool = build_pool(rows, count);

	out = fopen(argv[2], "w");
	if (!out) {
		fprintf(stderr, "gen_procaddress: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	emit(out, rows, count, &pool);
	free_all(rows, count, &pool);
	if (ferror(out) | fclose(out)) {
		fprintf(stderr, "gen_procaddress: %s: write error\n", argv[2]);
		remove(argv[2]);
		return 1;
	}
	return 0;
}
