/* sweep_main: runs one family of instruction sweeps on the host target and checks every
 * result against the PTX ISA's definition (sweep_ref.c).
 *
 *   sweep_main FAMILY FILE.ptx SUMMARY_DIR [KERNEL]
 *       lowers FILE.ptx for the host target (ptx_lower), compiles it (zc_compile), loads
 *       the code object and runs every kernel of FAMILY in sweep_cases.inc over its inputs;
 *       prints "sweep FAMILY: N instructions x modifiers, M inputs, F failures", writes
 *       that line to SUMMARY_DIR/FAMILY.summary and fails on any failure. KERNEL runs
 *       that kernel alone (for debugging).
 *   sweep_main --emulate PROCESSOR FAMILY FILE.ptx SUMMARY_DIR [KERNEL]
 *       the same on the AMDGPU target: FILE.ptx lowered for AMDGPU, compiled for
 *       PROCESSOR and run on the emulator (amdgpu_emulator), over a reduced set of inputs:
 *       all of them where a kernel has at most 2^16, else 2^16 spread evenly over them plus
 *       the last 1,024 (where the edge values are). The summary is FAMILY.PROCESSOR.summary.
 *   sweep_main --x86-64-v3 FAMILY FILE.ptx SUMMARY_DIR [KERNEL]
 *       the same on the host target, calling the kernels' x86-64-v3 entries (host_abi.h),
 *       which must give the same results as the baseline's; the summary is
 *       FAMILY.x86-64-v3.summary. Exits 77 (skipped) where the processor lacks x86-64-v3.
 *   sweep_main --summary SUMMARY_DIR FAMILY...
 *       adds up the families' summaries; fails if one is missing or has failures.
 *
 * Kernels run as host_abi.h describes: a thread entry is called once per thread with a
 * ZcHostThread, a block entry once. The sweeps need no block operations, so those abort
 * if called. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "emulator.h"
#include "host_abi.h"
#include "sweep.h"
/* The frontend's target.h (ptx_lower, ptx_target_host) shares its name with the backend's,
 * which backend.h has included; name it by path. */
#include "../../ptx_frontend/target.h"

static const struct sweep_case cases[] = {
#include "sweep_cases.inc"
};
enum { CASE_COUNT = sizeof(cases) / sizeof(cases[0]) };

enum { CHUNK = 1 << 16, THREADS = 2, MISMATCHES_SHOWN = 5, REDUCED = 1 << 16, EDGES = 1024,
       EMULATED_BLOCK = 256 };

/* Where the kernels run: the host code object (its entries for baseline x86-64, or those
 * whose names have `entry_level`), or a code object on the emulator. */
struct runner {
	void *host;
	const char *entry_level;
	struct zc_emu_object *emulated;
};

typedef void KernelEntry(const void *params, ZcHostThread *thread);

struct kernel_params {
	uint64_t *in_a, *in_b, *in_c, *out;
	uint32_t count;
};

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static _Noreturn void unexpected_block_op(const char *what)
{
	fprintf(stderr, "sweep: a kernel called the block operation %s, which no sweep uses\n", what);
	abort();
}

static void no_barrier(ZcHostThread *t, uint32_t id, uint32_t count) { (void)t, (void)id, (void)count; unexpected_block_op("barrier"); }
static void no_trap(ZcHostThread *t) { (void)t; unexpected_block_op("trap"); }
static void no_exit(ZcHostThread *t) { (void)t; unexpected_block_op("exit"); }

static const ZcHostOps host_ops = {
	.barrier = no_barrier,
	.trap = no_trap,
	.exit = no_exit,
};

static char *read_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *text = malloc((size_t)size + 1);
	if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	text[size] = 0;
	*len = (size_t)size;
	return text;
}

/* PTX text to a loaded code object, through the same libraries the converter uses: the
 * host's, dlopened, or PROCESSOR's, loaded by the emulator. */
static bool build_code_object(const char *path, const char *processor, struct runner *runner)
{
	size_t len;
	char *text = read_text(path, &len);
	if (!text) {
		fprintf(stderr, "sweep: %s: cannot read\n", path);
		return NULL;
	}
	struct ptx_diag diag;
	struct ptx_module *module = ptx_parse(path, text, len, &diag);
	LLVMContextRef context = LLVMContextCreate();
	struct ptx_lowered lowered;
	const struct ptx_target *target = processor ? &ptx_target_amdgpu : &ptx_target_host;
	bool built = false;

	/* as the converter lowers it: a module whose f32 code all flushes runs in that mode */
	struct ptx_lower_options lower_options = {
		.f32_subnormals_flushed = module && ptx_f32_subnormals(module) == PTX_SUBNORMALS_FLUSHED,
	};

	if (!module || !ptx_lower(module, target, context, &lower_options, &lowered, &diag)) {
		ptx_diag_print(stderr, &diag, text, len);
		ptx_diag_free(&diag);
	} else {
		ZcCodegenOptions options = {0};
		ZcBytes code = {0};
		char *error = NULL;
		zc_backend_init();
		const ZcTarget *backend = zc_target_find(processor ? processor : "host");
		char emu_error[ZC_EMU_ERROR_SIZE];
		if (!backend) {
			fprintf(stderr, "sweep: no target %s\n", processor);
		} else if (zc_compile(lowered.module, backend, &options, &code, &error) != 0) {
			fprintf(stderr, "sweep: %s: %s\n", path, error);
			free(error);
		} else if (processor) {
			if (zc_emu_load(code.data, code.size, processor, &runner->emulated, emu_error) != ZC_EMU_OK)
				fprintf(stderr, "sweep: %s: %s\n", path, emu_error);
			built = runner->emulated != NULL;
			free(code.data);
		} else {
			/* dlopen wants a file: an anonymous one, gone when the process ends. */
			int fd = memfd_create("sweep.host.co", 0);
			char fd_path[64];
			snprintf(fd_path, sizeof fd_path, "/proc/self/fd/%d", fd);
			if (fd < 0 || write(fd, code.data, code.size) != (ssize_t)code.size)
				fprintf(stderr, "sweep: cannot write the code object\n");
			else if (!(runner->host = dlopen(fd_path, RTLD_NOW | RTLD_LOCAL)))
				fprintf(stderr, "sweep: dlopen: %s\n", dlerror());
			built = runner->host != NULL;
			if (fd >= 0)
				close(fd);
			free(code.data);
		}
		ptx_lowered_free(&lowered);
	}
	if (module)
		ptx_module_free(module);
	LLVMContextDispose(context);
	free(text);
	return built;
}

static bool float_bits_match(uint64_t got, uint64_t expect, unsigned exponent_bits, unsigned bits)
{
	unsigned mantissa_bits = bits - 1 - exponent_bits;
	uint64_t exponent_mask = ((1ull << exponent_bits) - 1) << mantissa_bits;
	uint64_t mantissa_mask = (1ull << mantissa_bits) - 1;
	bool got_nan = (got & exponent_mask) == exponent_mask && (got & mantissa_mask);
	bool expect_nan = (expect & exponent_mask) == exponent_mask && (expect & mantissa_mask);
	return got_nan || expect_nan ? got_nan && expect_nan : got == expect;
}

static bool result_matches(const struct sweep_case *c, const uint64_t in[3], uint64_t got,
                           uint64_t *expect)
{
	uint64_t mask = c->out_bytes >= 8 ? ~0ull : (1ull << (c->out_bytes * 8)) - 1;
	got &= mask;
	if (c->check == CHECK_APPROX)
		return sweep_approx_ok(c, in, (uint32_t)got, expect);
	if (!sweep_reference(c, in, expect))
		return true; /* PTX leaves this result unspecified */
	*expect &= mask;
	switch (c->check) {
	case CHECK_F16: return float_bits_match(got, *expect, 5, 16);
	case CHECK_BF16: return float_bits_match(got, *expect, 8, 16);
	case CHECK_F32: return float_bits_match(got, *expect, 8, 32);
	case CHECK_F64: return float_bits_match(got, *expect, 11, 64);
	case CHECK_F16X2: case CHECK_BF16X2: {
		unsigned exponent_bits = c->check == CHECK_F16X2 ? 5 : 8;
		return float_bits_match(got & 0xffff, *expect & 0xffff, exponent_bits, 16) &&
		       float_bits_match(got >> 16, *expect >> 16, exponent_bits, 16);
	}
	default: return got == *expect;
	}
}

/* Runs a kernel over N elements of PARAMS; false (said on stderr) when it could not run. */
static bool run_chunk(const struct runner *r, const struct sweep_case *c,
                      struct kernel_params *params)
{
	if (r->host) {
		KernelEntry *kernel;
		ZcHostBlock block = {.ops = &host_ops};
		char block_entry[256], thread_entry[256];
		snprintf(block_entry, sizeof block_entry, "%s%s" ZC_HOST_BLOCK_ENTRY_SUFFIX, c->kernel, r->entry_level);
		snprintf(thread_entry, sizeof thread_entry, "%s%s", c->kernel, r->entry_level);
		*(void **)&kernel = dlsym(r->host, block_entry);
		bool whole_block = kernel != NULL;
		if (!kernel)
			*(void **)&kernel = dlsym(r->host, thread_entry);
		if (!kernel) {
			fprintf(stderr, "FAIL %s: no such kernel in the code object\n", c->kernel);
			return false;
		}
		for (uint32_t t = 0; t < (whole_block ? 1 : THREADS); t++) {
			ZcHostThread thread = {.tid = {t, 0, 0}, .ntid = {THREADS, 1, 1},
			                       .nctaid = {1, 1, 1}, .block = &block};
			kernel(params, &thread);
		}
		return true;
	}
	const struct zc_emu_kernel *kernel;
	char error[ZC_EMU_ERROR_SIZE];
	struct zc_emu_dispatch d = {.grid = {1, 1, 1}, .block = {EMULATED_BLOCK, 1, 1},
	                            .kernarg = params, .kernarg_size = sizeof *params};
	if (zc_emu_find_kernel(r->emulated, c->kernel, &kernel, error) != ZC_EMU_OK ||
	    zc_emu_launch(kernel, &d, error) != ZC_EMU_OK) {
		fprintf(stderr, "FAIL %s: %s\n", c->kernel, error);
		return false;
	}
	return true;
}

/* The index of the J-th input a run takes: every one, or for an emulated run of a large
 * set, an even spread and then the last EDGES. */
static uint64_t input_index(bool reduced, uint64_t total, uint64_t j)
{
	if (!reduced || total <= REDUCED + EDGES)
		return j;
	if (j < REDUCED)
		return j * ((total - EDGES) / REDUCED);
	return total - EDGES + (j - REDUCED);
}

/* Runs one case over its inputs; returns the number of mismatches. */
static uint64_t run_case(const struct runner *r, const struct sweep_case *c, uint64_t *elements,
                         uint64_t *buffers)
{
	bool reduced = r->emulated != NULL;
	uint64_t all = sweep_count(c), failures = 0;
	uint64_t total = reduced && all > REDUCED + EDGES ? REDUCED + EDGES : all;
	uint64_t *in[3] = {buffers, buffers + CHUNK, buffers + 2 * CHUNK}, *out = buffers + 3 * CHUNK;

	for (uint64_t first = 0; first < total; first += CHUNK) {
		uint32_t n = (uint32_t)(total - first < CHUNK ? total - first : CHUNK);
		for (uint32_t i = 0; i < n; i++) {
			uint64_t element[3], index = input_index(reduced, all, first + i);
			for (unsigned k = 0; k < 3; k++)
				in[k][i] = element[k] = sweep_input(c, k, index, element);
			out[i] = 0;
		}
		struct kernel_params params = {in[0], in[1], in[2], out, n};
		if (!run_chunk(r, c, &params))
			return 1;
		for (uint32_t i = 0; i < n; i++) {
			uint64_t element[3] = {in[0][i], in[1][i], in[2][i]}, expect = 0;
			if (result_matches(c, element, out[i], &expect))
				continue;
			if (failures++ < MISMATCHES_SHOWN)
				fprintf(stderr, "FAIL %s #%llu: a=0x%llx b=0x%llx c=0x%llx: got 0x%llx, "
				        "expected 0x%llx\n", c->kernel,
				        (unsigned long long)input_index(reduced, all, first + i),
				        (unsigned long long)element[0], (unsigned long long)element[1],
				        (unsigned long long)element[2], (unsigned long long)out[i],
				        (unsigned long long)expect);
		}
	}
	if (failures > MISMATCHES_SHOWN)
		fprintf(stderr, "FAIL %s: %llu mismatches in all\n", c->kernel, (unsigned long long)failures);
	*elements += total;
	return failures;
}

static int run_family(const char *processor, const char *entry_level, const char *family,
                      const char *ptx_path, const char *summary_dir, const char *only)
{
	double start = now();
	struct runner runner = {NULL, entry_level, NULL};
	if (!build_code_object(ptx_path, processor, &runner))
		return 1;
	double built = now();
	size_t buffer_bytes = 4 * CHUNK * sizeof(uint64_t);
	uint64_t *buffers = malloc(buffer_bytes);
	zc_emu_map(buffers, buffer_bytes);
	uint64_t kernels = 0, elements = 0, failures = 0, failed_kernels = 0;

	for (int i = 0; i < CASE_COUNT; i++) {
		const struct sweep_case *c = &cases[i];
		if (strcmp(c->family, family) != 0 || (only && strcmp(c->kernel, only) != 0))
			continue;
		uint64_t f = run_case(&runner, c, &elements, buffers);
		failures += f;
		failed_kernels += f != 0;
		kernels++;
	}
	zc_emu_unmap(buffers);
	free(buffers);
	if (runner.host)
		dlclose(runner.host);
	zc_emu_unload(runner.emulated);
	if (kernels == 0) {
		fprintf(stderr, "sweep: no kernels in family %s\n", family);
		return 1;
	}
	char line[256], name[96];
	const char *variant = processor ? processor : *entry_level ? "x86-64-v3" : NULL;
	snprintf(name, sizeof name, "%s%s%s", family, variant ? "." : "", variant ? variant : "");
	snprintf(line, sizeof line, "sweep %s: %llu instructions x modifiers, %llu inputs, %llu failures",
	         name, (unsigned long long)kernels, (unsigned long long)elements,
	         (unsigned long long)failures);
	double ran = now() - built;
	printf("%s (%llu kernels failed; build %.1f s, run %.1f s", line,
	       (unsigned long long)failed_kernels, built - start, ran);
	if (processor)
		printf("; %.3g wave instructions emulated, %.3g a second", (double)zc_emu_instructions_executed(),
		       (double)zc_emu_instructions_executed() / ran);
	printf(")\n");
	if (!only) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s.summary", summary_dir, name);
		FILE *f = fopen(path, "w");
		if (!f || fprintf(f, "%s\n", line) < 0 || fclose(f) != 0) {
			fprintf(stderr, "sweep: cannot write %s\n", path);
			return 1;
		}
	}
	return failures != 0;
}

static int summarize(const char *summary_dir, int nfamilies, char **families)
{
	unsigned long long kernels = 0, elements = 0, failures = 0;
	int missing = 0;

	for (int i = 0; i < nfamilies; i++) {
		char path[4096], name[64];
		unsigned long long k, e, f;
		snprintf(path, sizeof path, "%s/%s.summary", summary_dir, families[i]);
		FILE *file = fopen(path, "r");
		if (!file || fscanf(file, "sweep %63[^:]: %llu instructions x modifiers, %llu inputs, %llu failures",
		                    name, &k, &e, &f) != 4) {
			fprintf(stderr, "sweep summary: no result for family %s (%s)\n", families[i], path);
			missing++;
		} else {
			kernels += k;
			elements += e;
			failures += f;
		}
		if (file)
			fclose(file);
	}
	printf("sweeps: %d families, %llu instructions x modifiers, %llu inputs, %llu failures%s\n",
	       nfamilies - missing, kernels, elements, failures,
	       missing ? " (some families did not report)" : "");
	return failures || missing;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "--summary") == 0)
		return summarize(argv[2], argc - 3, argv + 3);
	const char *processor = NULL, *entry_level = "";
	if (argc >= 3 && strcmp(argv[1], "--emulate") == 0) {
		processor = argv[2];
		argc -= 2;
		argv += 2;
	} else if (argc >= 2 && strcmp(argv[1], "--x86-64-v3") == 0) {
		__builtin_cpu_init();
		if (!__builtin_cpu_supports("x86-64-v3")) {
			printf("sweep: this processor has no x86-64-v3: skipped\n");
			return 77;
		}
		entry_level = ZC_HOST_V3_SUFFIX;
		argc--;
		argv++;
	}
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: sweep_main [--emulate PROCESSOR | --x86-64-v3] FAMILY FILE.ptx SUMMARY_DIR [KERNEL]\n"
		                "       sweep_main --summary SUMMARY_DIR FAMILY...\n");
		return 2;
	}
	int rc = run_family(processor, entry_level, argv[1], argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	LLVMShutdown();
	return rc;
}
