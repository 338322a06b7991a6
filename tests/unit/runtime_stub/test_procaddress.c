/* cuGetProcAddress resolution against its data: every row of procaddress.tsv at and around
 * its bounds, the header's rule (a)/(b)/(c) applied literally as a reference, and every
 * look-up cudart 13 made.
 *
 * usage: test_procaddress procaddress.tsv cudart13-lookups.txt */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procaddress.h"

struct row {
	char name[64];
	char symbol[64];
	int flags;
	int min_version;
	int max_version;  /* INT_MAX when open */
};

static struct row *rows;
static size_t row_count;
static int failures;

static const char *
status_name(enum zc_proc_status s)
{
	switch (s) {
	case ZC_PROC_FOUND: return "found";
	case ZC_PROC_NOT_FOUND: return "not found";
	case ZC_PROC_VERSION_NOT_SUFFICIENT: return "version not sufficient";
	}
	return "?";
}

/* Splits a row on tabs, keeping the empty max_version field. */
static int
parse_row(char *line, struct row *r)
{
	char *field[5], *p = line;
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	while (p && n < 5)
		field[n++] = strsep(&p, "\t");
	if (n != 5 || p || strlen(field[0]) >= sizeof r->name || strlen(field[4]) >= sizeof r->symbol)
		return -1;
	strcpy(r->name, field[0]);
	strcpy(r->symbol, field[4]);
	r->flags = atoi(field[1]);
	r->min_version = atoi(field[2]);
	r->max_version = field[3][0] ? atoi(field[3]) : INT_MAX;
	return 0;
}

static int
load_rows(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	/* The header's comment lines are long: read whole lines. */
	while (getline(&line, &cap, f) != -1) {
		struct row r;

		if (line[0] == '#')
			continue;
		if (parse_row(line, &r) != 0) {
			printf("FAIL %s: bad row: %s\n", path, line);
			free(line);
			fclose(f);
			return -1;
		}
		rows = realloc(rows, (row_count + 1) * sizeof *rows);
		rows[row_count++] = r;
	}
	free(line);
	fclose(f);
	return 0;
}

/* The rule of procaddress.tsv's header, applied to the rows one by one. */
static struct zc_proc_resolution
reference_resolve(const char *name, int version, unsigned long long flags)
{
	int matched = 0, below_all = 1;

	for (size_t i = 0; i < row_count; i++) {
		const struct row *r = &rows[i];

		if ((unsigned long long)r->flags != flags || strcmp(r->name, name) != 0)
			continue;
		matched = 1;
		if (r->min_version <= version && version <= r->max_version)
			return (struct zc_proc_resolution){ ZC_PROC_FOUND, r->symbol };  /* (b) */
		if (version >= r->min_version)
			below_all = 0;
	}
	if (!matched)
		return (struct zc_proc_resolution){ ZC_PROC_NOT_FOUND, NULL };  /* (a) */
	if (below_all)
		return (struct zc_proc_resolution){ ZC_PROC_VERSION_NOT_SUFFICIENT, NULL };  /* (c) */
	printf("FAIL data: %s@%d flags %llu falls in a gap\n", name, version, flags);
	failures++;
	return (struct zc_proc_resolution){ ZC_PROC_NOT_FOUND, NULL };
}

static void
expect(const char *name, int version, unsigned long long flags, enum zc_proc_status status,
       const char *symbol)
{
	struct zc_proc_resolution got = zc_proc_resolve(name, version, flags);

	if (got.status == status && (symbol ? got.symbol && strcmp(got.symbol, symbol) == 0
	                                    : got.symbol == NULL))
		return;
	printf("FAIL resolve(\"%s\", %d, %llu): got %s %s, want %s %s\n",
	       name ? name : "(null)", version, flags, status_name(got.status),
	       got.symbol ? got.symbol : "-", status_name(status), symbol ? symbol : "-");
	failures++;
}

static void
expect_reference(const char *name, int version, unsigned long long flags)
{
	struct zc_proc_resolution want = reference_resolve(name, version, flags);

	expect(name, version, flags, want.status, want.symbol);
}

static void
check_rows(void)
{
	static const int versions[] = { INT_MIN, -1, 0, 999, 1000, 7000, 12999, 13000, 13001,
	                                 99999, INT_MAX };

	for (size_t i = 0; i < row_count; i++) {
		const struct row *r = &rows[i];
		int top = r->max_version == INT_MAX ? 13000 : r->max_version;
		char other[80];

		expect(r->name, r->min_version, r->flags, ZC_PROC_FOUND, r->symbol);
		expect(r->name, top, r->flags, ZC_PROC_FOUND, r->symbol);
		expect(r->name, r->max_version, r->flags, ZC_PROC_FOUND, r->symbol);
		expect(r->name, r->min_version + (top - r->min_version) / 2, r->flags, ZC_PROC_FOUND,
		       r->symbol);
		/* Just below min: the previous range's symbol, or (c) for a group's first row. */
		expect_reference(r->name, r->min_version - 1, r->flags);
		if (r->max_version != INT_MAX)
			expect_reference(r->name, r->max_version + 1, r->flags);
		for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++)
			expect_reference(r->name, versions[v], r->flags);
		expect(r->name, r->min_version, 3, ZC_PROC_NOT_FOUND, NULL);
		expect(r->name, r->min_version, (unsigned long long)r->flags + (1ull << 32),
		       ZC_PROC_NOT_FOUND, NULL);
		/* (a): the versioned names are never rows themselves. */
		snprintf(other, sizeof other, "%s_v2", r->name);
		expect(other, 13000, r->flags, ZC_PROC_NOT_FOUND, NULL);
		snprintf(other, sizeof other, "%s_ptsz", r->name);
		expect(other, 13000, r->flags, ZC_PROC_NOT_FOUND, NULL);
		snprintf(other, sizeof other, "%s_ptds", r->name);
		expect(other, 13000, r->flags, ZC_PROC_NOT_FOUND, NULL);
		/* A name one letter short is another name: it resolves by its own rows or not at all. */
		snprintf(other, sizeof other, "%.*s", (int)strlen(r->name) - 1, r->name);
		expect_reference(other, 13000, r->flags);
	}
}

static void
check_rule_examples(void)
{
	/* (a) */
	expect("", 0, 0, ZC_PROC_NOT_FOUND, NULL);
	expect("", 13000, 0, ZC_PROC_NOT_FOUND, NULL);
	expect(NULL, 13000, 0, ZC_PROC_NOT_FOUND, NULL);
	expect("cuMemAlloc_v2", 13000, 0, ZC_PROC_NOT_FOUND, NULL);
	expect("cuStreamQuery_ptsz", 13000, 2, ZC_PROC_NOT_FOUND, NULL);
	expect("cuMemcpy_ptds", 13000, 2, ZC_PROC_NOT_FOUND, NULL);
	expect("cuEventCreateFromEGLSync", 13000, 0, ZC_PROC_NOT_FOUND, NULL);
	expect("cuNoSuchFunction", 13000, 0, ZC_PROC_NOT_FOUND, NULL);
	expect("cumemalloc", 13000, 0, ZC_PROC_NOT_FOUND, NULL);
	expect("cuMemAllocX", 13000, 0, ZC_PROC_NOT_FOUND, NULL);
	expect("a", 13000, 0, ZC_PROC_NOT_FOUND, NULL);
	expect("zzzz", 13000, 0, ZC_PROC_NOT_FOUND, NULL);
	expect("cuMemAlloc", 13000, 3, ZC_PROC_NOT_FOUND, NULL);
	expect("cuMemAlloc", 13000, ~0ull, ZC_PROC_NOT_FOUND, NULL);
	/* (b) */
	expect("cuMemAlloc", 2000, 0, ZC_PROC_FOUND, "cuMemAlloc");
	expect("cuMemAlloc", 3019, 1, ZC_PROC_FOUND, "cuMemAlloc");
	expect("cuMemAlloc", 3020, 0, ZC_PROC_FOUND, "cuMemAlloc_v2");
	expect("cuMemAlloc", INT_MAX, 2, ZC_PROC_FOUND, "cuMemAlloc_v2");
	expect("cuGetProcAddress", 11030, 0, ZC_PROC_FOUND, "cuGetProcAddress");
	expect("cuGetProcAddress", 11999, 0, ZC_PROC_FOUND, "cuGetProcAddress");
	expect("cuGetProcAddress", 12000, 0, ZC_PROC_FOUND, "cuGetProcAddress_v2");
	expect("cuMemcpy", 7000, 0, ZC_PROC_FOUND, "cuMemcpy");
	expect("cuMemcpy", 7000, 2, ZC_PROC_FOUND, "cuMemcpy_ptds");
	expect("cuStreamQuery", 7000, 2, ZC_PROC_FOUND, "cuStreamQuery_ptsz");
	expect("cuCtxSynchronize", 12999, 0, ZC_PROC_FOUND, "cuCtxSynchronize");
	expect("cuCtxSynchronize", 13000, 0, ZC_PROC_FOUND, "cuCtxSynchronize_v2");
	/* (c) */
	expect("cuMemAlloc", 1999, 0, ZC_PROC_VERSION_NOT_SUFFICIENT, NULL);
	expect("cuMemAlloc", INT_MIN, 0, ZC_PROC_VERSION_NOT_SUFFICIENT, NULL);
	expect("cuGetProcAddress", 11029, 0, ZC_PROC_VERSION_NOT_SUFFICIENT, NULL);
	expect("cuMemcpy", 6999, 2, ZC_PROC_VERSION_NOT_SUFFICIENT, NULL);
	expect("cuMemcpy", 6999, 0, ZC_PROC_FOUND, "cuMemcpy");
	expect("cuLibraryLoadData", 11080, 0, ZC_PROC_VERSION_NOT_SUFFICIENT, NULL);
}

/* Each line is "GPA <name> ver=<version> flags=<flags>"; the name may be empty. */
static int
check_cudart_lookups(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int named = 0, unnamed = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		char *name, *rest;
		int version;
		unsigned long long flags;

		if (line[0] == '#')
			continue;
		rest = strchr(line + 4, ' ');
		if (strncmp(line, "GPA ", 4) != 0 || !rest
		    || sscanf(rest, " ver=%d flags=%llu", &version, &flags) != 2) {
			printf("FAIL %s: bad line: %s", path, line);
			failures++;
			continue;
		}
		*rest = '\0';
		name = line + 4;
		if (name[0] == '\0') {
			unnamed++;
			expect(name, version, flags, ZC_PROC_NOT_FOUND, NULL);
			continue;
		}
		/* Rule (b) and nothing else, with the symbol the rows name. */
		named++;
		struct zc_proc_resolution want = reference_resolve(name, version, flags);
		if (want.status != ZC_PROC_FOUND) {
			printf("FAIL data: cudart's %s@%d flags %llu is not a (b) row\n", name, version,
			       flags);
			failures++;
		}
		expect(name, version, flags, ZC_PROC_FOUND, want.symbol);
	}
	fclose(f);
	if (named != 439 || unnamed != 1) {
		printf("FAIL %s: %d named and %d empty look-ups, want 439 and 1\n", path, named,
		       unnamed);
		failures++;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_procaddress procaddress.tsv cudart13-lookups.txt\n");
		return 2;
	}
	if (load_rows(argv[1]) != 0 || check_cudart_lookups(argv[2]) != 0) {
		free(rows);
		return 1;
	}
	if (row_count != 1690) {
		printf("FAIL %s: %zu rows, want 1690\n", argv[1], row_count);
		failures++;
	}
	check_rows();
	check_rule_examples();
	free(rows);
	if (failures) {
		printf("%d check(s) failed\n", failures);
		return 1;
	}
	printf("procaddress: %zu rows and the cudart 13 look-ups resolve as stated\n", row_count);
	return 0;
}
