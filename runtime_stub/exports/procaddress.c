/* cuGetProcAddress's resolution over the table generated from procaddress.tsv. */
#include <stddef.h>
#include <string.h>

#include "procaddress.h"

/* Names are offsets into one string pool, so the table needs no relocations
 * when the stub is loaded. */
struct proc_row {
	uint32_t name;
	uint32_t symbol;
	int32_t min_version;
	int32_t max_version;  /* inclusive; OPEN_VERSION when the row has no upper bound */
	uint8_t flags;
};

#define OPEN_VERSION INT32_MAX

/* Defines proc_strings and proc_rows. The generator has checked that the rows are sorted
 * by (name, flags, min_version), that each (name, flags) group's ranges follow one another
 * without gap or overlap, and that each group's last row is open. */
#include "procaddress_table.inc"

enum { ROW_COUNT = sizeof proc_rows / sizeof proc_rows[0] };

static int
compare_key(const char *name, uint64_t flags, const struct proc_row *row)
{
	int c = strcmp(name, proc_strings + row->name);

	if (c != 0)
		return c;
	return (flags > row->flags) - (flags < row->flags);
}

/* The first row of the (name, flags) group, or NULL when there is none. */
static const struct proc_row *
find_group(const char *name, uint64_t flags)
{
	size_t lo = 0, hi = ROW_COUNT;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (compare_key(name, flags, &proc_rows[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ROW_COUNT || compare_key(name, flags, &proc_rows[lo]) != 0)
		return NULL;
	return &proc_rows[lo];
}

struct zc_proc_resolution
zc_proc_resolve(const char *name, int version, uint64_t flags)
{
	const struct proc_row *row;

	if (!name || !(row = find_group(name, flags)))
		return (struct zc_proc_resolution){ ZC_PROC_NOT_FOUND, NULL };
	if (version < row->min_version)
		return (struct zc_proc_resolution){ ZC_PROC_VERSION_NOT_SUFFICIENT, NULL };
	/* The ranges are contiguous and the last is open, so the walk ends inside the group. */
	while (version > row->max_version)
		row++;
	return (struct zc_proc_resolution){ ZC_PROC_FOUND, proc_strings + row->symbol };
}
