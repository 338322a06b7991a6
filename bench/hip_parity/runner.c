/* Runs the HIP parity benchmark's kernels (bench/hip_parity/kernels.cu) on the AMDGPU
 * emulator and counts the wave instructions each executes and their estimated cycles
 * (zc_emu_cycles_estimated: issue cycles at AMD's documented rates, amdgpu_emulator/cost.c):
 *
 *   runner CODE_OBJECT PROCESSOR [KERNEL...]
 *       each kernel (default all) once: name, instructions, cycles, checksum of its outputs;
 *   runner --compare CONVERTED HIP PROCESSOR [KERNEL...]
 *       each kernel on both code objects, from the same inputs: name, the two instruction
 *       counts and their ratio, the two cycle estimates and their ratio, the two checksums,
 *       and "ok" or what disagrees: the outputs
 *       are compared element by element (within a tolerance for floating point, since the
 *       two compilers may contract or reorder differently), and the explicit kernel
 *       arguments packed by each code object's metadata must be the same bytes.
 *
 * Exit status 1 when a launch fails or anything disagrees, so that a script notices.
 *
 * One table (CASES) describes every kernel: its launch geometry and, for each parameter in
 * order, a scalar value or a buffer with its element type, length, role and how it is filled.
 * Inputs come from a generator seeded by the kernel's and the argument's position, so both
 * code objects see the same numbers. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator.h"

enum type { F32, F64, F16, I32, U32, U64, SCALAR_I32, SCALAR_F32, SCALAR_F64 };
enum role { NONE, IN, OUT, INOUT };
enum fill { ZERO, RANDOM, CONSTANT, STEP };
/* Flags of an output: its elements in any order (a list built through an atomic counter) */
enum { UNORDERED = 1 };

struct arg {
	enum type type;
	enum role role;
	long count;        /* elements of a buffer */
	enum fill fill;
	double a, b;       /* RANDOM: uniform in [a, b) (full range for U64); CONSTANT: a; STEP:
	                      element i is a i + b; a scalar's value is a */
	int flags;
};

enum { MAX_ARGS = 8 };
struct kernel_case {
	const char *name;
	uint32_t grid[3], block[3];
	struct arg args[MAX_ARGS];
};

#define BUF(t, r, n, f, lo, hi) { t, r, n, f, lo, hi, 0 }
#define INT(v) { SCALAR_I32, NONE, 0, ZERO, v, 0, 0 }
#define FLT(v) { SCALAR_F32, NONE, 0, ZERO, v, 0, 0 }
#define DBL(v) { SCALAR_F64, NONE, 0, ZERO, v, 0, 0 }
#define RND(t, n) BUF(t, IN, n, RANDOM, -1, 1)
#define RES(t, n) BUF(t, OUT, n, ZERO, 0, 0)

/* Problem sizes keep every kernel to a few thousand waves, so that the whole benchmark runs
 * in seconds on the emulator. */
static const struct kernel_case CASES[] = {
	{"vector_add", {256, 1, 1}, {256, 1, 1}, {RND(F32, 65536), RND(F32, 65536), RES(F32, 65536), INT(65536)}},
	{"saxpy", {64, 1, 1}, {256, 1, 1},
	 {FLT(1.5), RND(F32, 65536), BUF(F32, INOUT, 65536, RANDOM, -1, 1), INT(65536)}},
	{"reduce_sum", {32, 1, 1}, {256, 1, 1}, {RND(F32, 65536), RES(F32, 32), INT(65536)}},
	{"reduce_double", {32, 1, 1}, {256, 1, 1}, {RND(F64, 32768), RES(F64, 32), INT(32768)}},
	{"sgemm_64", {2, 2, 1}, {256, 1, 1},
	 {RND(F32, 128 * 256), RND(F32, 256 * 128), RES(F32, 128 * 128), INT(128), INT(128), INT(256)}},
	{"transpose", {8, 8, 1}, {32, 8, 1}, {RND(F32, 65536), RES(F32, 65536), INT(256), INT(256)}},
	{"histogram", {32, 1, 1}, {256, 1, 1},
	 {BUF(U32, IN, 65536, RANDOM, 0, 4294967296.0), RES(U32, 256), INT(65536)}},
	{"stencil5", {8, 32, 1}, {32, 8, 1}, {RND(F32, 65536), RES(F32, 65536), INT(256), INT(256)}},
	{"gaussian3x3", {16, 16, 1}, {16, 16, 1}, {RND(F32, 65536), RES(F32, 65536), INT(256), INT(256)}},
	{"softmax_rows", {256, 1, 1}, {128, 1, 1},
	 {BUF(F32, IN, 256 * 512, RANDOM, -4, 4), RES(F32, 256 * 512), INT(512)}},
	{"block_scan", {256, 1, 1}, {256, 1, 1},
	 {BUF(I32, IN, 65536, RANDOM, -100, 100), RES(I32, 65536), RES(I32, 256), INT(65536)}},
	{"warp_scan", {256, 1, 1}, {256, 1, 1},
	 {BUF(I32, IN, 65536, RANDOM, -100, 100), RES(I32, 65536), INT(65536)}},
	{"nbody", {8, 1, 1}, {128, 1, 1},
	 {BUF(F32, IN, 4 * 1024, RANDOM, 0.1, 1), RES(F32, 4 * 1024), INT(1024), FLT(0.01)}},
	{"haxpy", {128, 1, 1}, {256, 1, 1},
	 {FLT(0.75), RND(F16, 65536), BUF(F16, INOUT, 65536, RANDOM, -1, 1), INT(32768)}},
	{"hash64", {64, 1, 1}, {256, 1, 1}, {RND(U64, 16384), RES(U64, 16384), INT(16384)}},
	{"wmma_gemm", {2, 8, 1}, {128, 1, 1},
	 {RND(F16, 128 * 128), RND(F16, 128 * 128), RES(F32, 128 * 128), INT(128), INT(128), INT(128)}},
	{"bfs_expand", {4, 1, 1}, {256, 1, 1},
	 {BUF(I32, IN, 4097, STEP, 8, 0),                  /* CSR rows: 4096 vertices of degree 8 */
	  BUF(I32, IN, 4096 * 8, RANDOM, 0, 4096),          /* their neighbours */
	  BUF(I32, IN, 1024, RANDOM, 0, 4096),              /* the frontier */
	  INT(1024),
	  BUF(I32, OUT, 4096, CONSTANT, -1, 0),             /* dist: -1 unvisited */
	  {I32, OUT, 8192, ZERO, 0, 0, UNORDERED},          /* next frontier */
	  RES(I32, 1), INT(0)}},
	{"degree_count", {32, 1, 1}, {256, 1, 1},
	 {BUF(I32, IN, 32768, RANDOM, 0, 4096), BUF(I32, IN, 32768, RANDOM, 0, 4096), RES(I32, 4096),
	  INT(32768)}},
	{"daxpy_dot", {32, 1, 1}, {256, 1, 1},
	 {DBL(0.375), RND(F64, 32768), BUF(F64, INOUT, 32768, RANDOM, -1, 1), RES(F64, 32), INT(32768)}},
	{"poly_f64", {64, 1, 1}, {256, 1, 1}, {RND(F64, 16384), RES(F64, 16384), INT(16384)}},
	{"dot_dp4a", {32, 1, 1}, {256, 1, 1},
	 {BUF(I32, IN, 256 * 256, RANDOM, -2147483648.0, 2147483648.0),
	  BUF(I32, IN, 256, RANDOM, -2147483648.0, 2147483648.0), RES(I32, 256), INT(256), INT(256)}},
	{"activation", {256, 1, 1}, {256, 1, 1},
	 {BUF(F32, IN, 65536, RANDOM, -4, 4), RES(F32, 65536), INT(65536)}},
	{"activation_fast", {256, 1, 1}, {256, 1, 1},
	 {BUF(F32, IN, 65536, RANDOM, -4, 4), RES(F32, 65536), INT(65536)}},
	{"bitonic_sort", {64, 1, 1}, {256, 1, 1}, {BUF(F32, INOUT, 64 * 512, RANDOM, -1, 1)}},
	{"matvec", {64, 1, 1}, {256, 1, 1},
	 {RND(F32, 512 * 512), RND(F32, 512), RES(F32, 512), INT(512), INT(512)}},
};
enum { NCASES = sizeof CASES / sizeof CASES[0] };

static size_t element_size(enum type t)
{
	switch (t) {
	case F64: case U64: case SCALAR_F64: return 8;
	case F16: return 2;
	default: return 4;
	}
}

static uint64_t splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void fill(const struct arg *a, void *p, uint64_t seed)
{
	uint64_t state = seed;
	for (long i = 0; i < a->count; i++) {
		double v = 0;
		uint64_t bits = splitmix(&state);
		if (a->fill == RANDOM)
			v = a->a + (a->b - a->a) * (double)(bits >> 11) * 0x1p-53;
		else if (a->fill == CONSTANT)
			v = a->a;
		else if (a->fill == STEP)
			v = a->a * (double)i + a->b;
		switch (a->type) {
		case F32: ((float *)p)[i] = (float)v; break;
		case F64: ((double *)p)[i] = v; break;
		case F16: ((_Float16 *)p)[i] = (_Float16)v; break;
		case I32: ((int32_t *)p)[i] = (int32_t)floor(v); break;
		case U32: ((uint32_t *)p)[i] = (uint32_t)floor(v); break;
		case U64: ((uint64_t *)p)[i] = a->fill == RANDOM ? bits : (uint64_t)v; break;
		default: break;
		}
	}
}

static double element(enum type t, const void *p, long i)
{
	switch (t) {
	case F32: return ((const float *)p)[i];
	case F64: return ((const double *)p)[i];
	case F16: return (double)((const _Float16 *)p)[i];
	case I32: return ((const int32_t *)p)[i];
	case U32: return ((const uint32_t *)p)[i];
	/* the low 52 bits, exactly; a checksum needs no more */
	case U64: return (double)(((const uint64_t *)p)[i] & ((1ull << 52) - 1));
	default: return 0;
	}
}

static int compare_int(const void *x, const void *y)
{
	int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
	return (a > b) - (a < b);
}

/* What one run left in the kernel's outputs. */
struct result {
	bool ran;
	uint64_t instructions;
	uint64_t cycles;
	double checksum;
	void *out[MAX_ARGS];
};

/* Allocates, fills and registers the buffers, launches, and keeps the outputs. */
static bool run(const struct zc_emu_object *object, int index, struct result *r)
{
	const struct kernel_case *c = &CASES[index];
	const struct zc_emu_kernel *kernel;
	char error[ZC_EMU_ERROR_SIZE];
	void *buffers[MAX_ARGS] = {0};
	void *params[MAX_ARGS] = {0};
	union { int32_t i; float f; double d; } scalars[MAX_ARGS];
	int nargs = 0;
	bool ok = false;

	memset(r, 0, sizeof *r);
	if (zc_emu_find_kernel(object, c->name, &kernel, error) != ZC_EMU_OK) {
		fprintf(stderr, "runner: %s: %s\n", c->name, error);
		return false;
	}
	for (; nargs < MAX_ARGS && c->args[nargs].type + c->args[nargs].role + c->args[nargs].count != 0;
	     nargs++) {
		const struct arg *a = &c->args[nargs];
		if (a->type == SCALAR_I32)
			scalars[nargs].i = (int32_t)a->a;
		else if (a->type == SCALAR_F32)
			scalars[nargs].f = (float)a->a;
		else if (a->type == SCALAR_F64)
			scalars[nargs].d = a->a;
		if (a->type >= SCALAR_I32) {
			params[nargs] = &scalars[nargs];
			continue;
		}
		size_t bytes = ((size_t)a->count * element_size(a->type) + 255) & ~(size_t)255;
		buffers[nargs] = aligned_alloc(256, bytes);
		if (!buffers[nargs]) {
			fprintf(stderr, "runner: out of memory\n");
			goto done;
		}
		memset(buffers[nargs], 0, bytes);
		fill(a, buffers[nargs], (uint64_t)index << 8 | (uint64_t)nargs);
		zc_emu_map(buffers[nargs], bytes);
		params[nargs] = &buffers[nargs];
	}

	unsigned char *kernarg;
	size_t kernarg_size;
	if (!zc_emu_pack_arguments(kernel, params, &kernarg, &kernarg_size)) {
		fprintf(stderr, "runner: %s: the table's %d arguments do not fit the kernel's\n", c->name,
		        nargs);
		goto done;
	}
	struct zc_emu_dispatch d = {
		.grid = {c->grid[0], c->grid[1], c->grid[2]},
		.block = {c->block[0], c->block[1], c->block[2]},
		.kernarg = kernarg,
		.kernarg_size = kernarg_size,
	};
	uint64_t before = zc_emu_instructions_executed(), cycles = zc_emu_cycles_estimated();
	enum zc_emu_status status = zc_emu_launch(kernel, &d, error);
	r->instructions = zc_emu_instructions_executed() - before;
	r->cycles = zc_emu_cycles_estimated() - cycles;
	free(kernarg);
	if (status != ZC_EMU_OK) {
		fprintf(stderr, "runner: %s: %s\n", c->name, error);
		goto done;
	}
	r->ran = true;
	ok = true;

	/* The checksum weighs each element by its position (mod 61), so that a permutation shows;
	 * an unordered output is sorted first. */
	for (int i = 0; i < nargs; i++) {
		const struct arg *a = &c->args[i];
		if (a->role != OUT && a->role != INOUT)
			continue;
		if (a->flags & UNORDERED)
			qsort(buffers[i], (size_t)a->count, element_size(a->type), compare_int);
		for (long e = 0; e < a->count; e++)
			r->checksum += (1.0 + (double)(e % 61) / 64.0) * element(a->type, buffers[i], e);
		r->out[i] = buffers[i];
		buffers[i] = NULL;
	}
done:
	for (int i = 0; i < MAX_ARGS; i++)
		if (buffers[i]) {
			zc_emu_unmap(buffers[i]);
			free(buffers[i]);
		}
	for (int i = 0; i < MAX_ARGS; i++)
		if (r->out[i])
			zc_emu_unmap(r->out[i]);
	return ok;
}

static void release(struct result *r)
{
	for (int i = 0; i < MAX_ARGS; i++)
		free(r->out[i]);
}

/* How far two outputs may differ: the two compilers may contract, reorder or (with fast
 * math) approximate differently, so floating point agrees to a tolerance relative to the
 * magnitude (at least 1, since the inputs lie in [-1, 1) and sums of them may cancel);
 * integers must agree exactly. */
static double tolerance(enum type t)
{
	switch (t) {
	case F32: return 2e-3;
	case F16: return 1e-2;
	case F64: return 1e-9;
	default: return 0;
	}
}

/* Element by element; writes what disagrees into WHY. */
static bool agree(int index, const struct result *x, const struct result *y, char *why, size_t size)
{
	const struct kernel_case *c = &CASES[index];
	for (int i = 0; i < MAX_ARGS; i++) {
		const struct arg *a = &c->args[i];
		if (!x->out[i])
			continue;
		long bad = 0, first = -1;
		double worst = 0;
		for (long e = 0; e < a->count; e++) {
			double u = element(a->type, x->out[i], e), v = element(a->type, y->out[i], e);
			double scale = fmax(1.0, fmax(fabs(u), fabs(v)));
			double err = fabs(u - v) / scale;
			if (!(err <= tolerance(a->type)) || (a->type == U64 &&
			    ((const uint64_t *)x->out[i])[e] != ((const uint64_t *)y->out[i])[e])) {
				if (first < 0)
					first = e;
				bad++;
				if (err > worst || err != err)
					worst = err;
			}
		}
		if (bad) {
			snprintf(why, size, "MISMATCH:arg%d:%ld/%ld:first=%ld:%.9g/%.9g:worst=%.3g", i, bad,
			         a->count, first, element(a->type, x->out[i], first),
			         element(a->type, y->out[i], first), worst);
			return false;
		}
	}
	return true;
}

/* The explicit arguments as each code object lays them out, from the same made-up values:
 * the same bytes when the converted kernel's parameters sit where HIP's do. */
static bool same_layout(const struct zc_emu_object *x, const struct zc_emu_object *y, int index)
{
	const struct kernel_case *c = &CASES[index];
	const struct zc_emu_kernel *kx, *ky;
	char error[ZC_EMU_ERROR_SIZE];
	uint64_t values[MAX_ARGS];
	void *params[MAX_ARGS] = {0};
	unsigned char *bx, *by;
	size_t sx, sy;

	for (int i = 0; i < MAX_ARGS; i++) {
		values[i] = 0x0101010101010101ull * (uint64_t)(i + 1);
		if (c->args[i].type + c->args[i].role + c->args[i].count != 0)
			params[i] = &values[i];
	}
	if (zc_emu_find_kernel(x, c->name, &kx, error) || zc_emu_find_kernel(y, c->name, &ky, error) ||
	    !zc_emu_pack_arguments(kx, params, &bx, &sx))
		return false;
	if (!zc_emu_pack_arguments(ky, params, &by, &sy)) {
		free(bx);
		return false;
	}
	bool same = sx == sy && memcmp(bx, by, sx) == 0;
	free(bx);
	free(by);
	return same;
}

static struct zc_emu_object *load(const char *path, const char *processor)
{
	FILE *f = fopen(path, "rb");
	char error[ZC_EMU_ERROR_SIZE];
	struct zc_emu_object *object = NULL;

	if (!f) {
		perror(path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	rewind(f);
	void *image = malloc((size_t)size);
	if (image && fread(image, 1, (size_t)size, f) == (size_t)size &&
	    zc_emu_load(image, (size_t)size, processor, &object, error) != ZC_EMU_OK)
		fprintf(stderr, "runner: %s: %s\n", path, error);
	free(image);
	fclose(f);
	return object;
}

static bool wanted(int index, char **names, int count)
{
	if (count == 0)
		return true;
	for (int i = 0; i < count; i++)
		if (!strcmp(names[i], CASES[index].name))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	bool compare = argc > 1 && !strcmp(argv[1], "--compare");
	int first = compare ? 5 : 3;

	if (argc < first) {
		fprintf(stderr, "usage: runner CODE_OBJECT PROCESSOR [KERNEL...]\n"
		                "       runner --compare CONVERTED HIP PROCESSOR [KERNEL...]\n");
		return 2;
	}
	const char *processor = argv[compare ? 4 : 2];
	struct zc_emu_object *x = load(argv[compare ? 2 : 1], processor);
	struct zc_emu_object *y = compare ? load(argv[3], processor) : NULL;
	if (!x || (compare && !y))
		return 1;
	for (int i = first; i < argc; i++) {
		int k = 0;
		while (k < NCASES && strcmp(CASES[k].name, argv[i]))
			k++;
		if (k == NCASES) {
			fprintf(stderr, "runner: no kernel %s in the table\n", argv[i]);
			return 2;
		}
	}

	int status = 0;
	for (int k = 0; k < NCASES; k++) {
		struct result rx, ry;
		char why[256] = "ok";
		if (!wanted(k, argv + first, argc - first))
			continue;
		if (!compare) {
			if (!run(x, k, &rx))
				status = 1;
			printf("%-16s %12llu %12llu %.12g\n", CASES[k].name,
			       (unsigned long long)rx.instructions, (unsigned long long)rx.cycles, rx.checksum);
			release(&rx);
			continue;
		}
		bool ran = run(x, k, &rx) & run(y, k, &ry);
		if (!ran)
			snprintf(why, sizeof why, "FAILED");
		else if (!agree(k, &rx, &ry, why, sizeof why))
			;
		else if (!same_layout(x, y, k))
			snprintf(why, sizeof why, "KERNARG-LAYOUT-DIFFERS");
		if (strcmp(why, "ok"))
			status = 1;
		printf("%-16s %12llu %12llu %7.3f %12llu %12llu %7.3f %.12g %.12g %s\n", CASES[k].name,
		       (unsigned long long)rx.instructions, (unsigned long long)ry.instructions,
		       ry.instructions ? (double)rx.instructions / (double)ry.instructions : 0.0,
		       (unsigned long long)rx.cycles, (unsigned long long)ry.cycles,
		       ry.cycles ? (double)rx.cycles / (double)ry.cycles : 0.0,
		       rx.checksum, ry.checksum, why);
		release(&rx);
		release(&ry);
	}
	zc_emu_unload(x);
	if (y)
		zc_emu_unload(y);
	return status;
}
