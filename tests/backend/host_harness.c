/* Runs host code objects made by zc-codegen from this directory's .ll files, calling the
 * kernel entries directly the way the CPU driver will (abi/host_abi.h): a thread entry
 * once per thread, a block entry once per block. Blocks with several threads run only
 * kernels without block operations; the fake operations answer as a block of one thread
 * would.
 *
 * usage: host_harness DIR    (DIR holds vadd.host.co, reduce_shared.host.co, ...) */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_abi.h"

typedef void KernelEntry(const void *params, ZcHostThread *thread);

typedef struct {
	KernelEntry *entry;
	int whole_block;
} Kernel;

static int failures;
static unsigned barriers, shuffles;
static jmp_buf trapped;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL %s\n", what);
		failures++;
	}
}

static void fake_barrier(ZcHostThread *t, uint32_t id, uint32_t count)
{
	(void)t;
	check(id == 0 && count == 0, "bar.sync operands reach the driver");
	barriers++;
}

/* A warp of one lane in rounds: every in-bounds source is this lane. */
static uint64_t fake_round_warps(ZcHostThread *t, ZcRoundLane *lanes, uint32_t *states, uint64_t warp_stops,
                                 uint32_t exit_state, uint32_t others_run, uint64_t *blocked)
{
	check(t->ntid[0] * t->ntid[1] * t->ntid[2] == 1 && !others_run && states[0] != exit_state &&
	      (warp_stops >> states[0] & 1), "round_warps: the block's one thread waits in a warp operation");
	check(lanes[0].code == (ZC_WARP_SHUFFLE | ZC_SHFL_BFLY << 8) && lanes[0].mask == ~0u &&
	      lanes[0].b >= 1 && lanes[0].b <= 16 && lanes[0].c == 31, "shfl.sync operands reach the driver");
	shuffles++;
	lanes[0].result = lanes[0].value | (uint64_t)1 << 32;
	uint64_t ready = 1ull << states[0];
	states[0] |= ZC_ROUND_READY;
	*blocked = 0;
	return ready;
}

static void fake_trap(ZcHostThread *t)
{
	(void)t;
	longjmp(trapped, 1);
}

static uint64_t fake_globaltimer(ZcHostThread *t)
{
	(void)t;
	return 0;
}

static const ZcHostOps ops = {
	.barrier = fake_barrier,
	.round_warps = fake_round_warps,
	.globaltimer = fake_globaltimer,
	.trap = fake_trap,
};

static void *open_object(const char *dir, const char *stem)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.host.co", dir, stem);
	void *object = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!object) {
		fprintf(stderr, "FAIL dlopen: %s\n", dlerror());
		exit(1);
	}
	const uint32_t *version = dlsym(object, "__zc_host_abi_version");
	check(version && *version == ZC_HOST_ABI_VERSION, "the code object's ABI version");
	return object;
}

/* The kernel's entry, which must be a block entry or not as `whole_block` says. */
static Kernel entry(void *object, const char *name, int whole_block)
{
	char block_name[256];
	Kernel kernel = {0};
	snprintf(block_name, sizeof block_name, "%s" ZC_HOST_BLOCK_ENTRY_SUFFIX, name);
	*(void **)&kernel.entry = dlsym(object, block_name);
	kernel.whole_block = kernel.entry != NULL;
	if (!kernel.entry)
		*(void **)&kernel.entry = dlsym(object, name);
	if (!kernel.entry) {
		fprintf(stderr, "FAIL no kernel %s\n", name);
		exit(1);
	}
	if (kernel.whole_block != whole_block)
		fprintf(stderr, "FAIL %s: %s\n", name, whole_block ? "no block entry" : "a block entry");
	failures += kernel.whole_block != whole_block;
	return kernel;
}

/* Runs every thread of a grid of 1-D blocks in order: one call per thread, or per block
 * (the tid it starts with is not the first thread's: a block entry sets each). */
static void launch(Kernel kernel, const void *params, uint32_t blocks, uint32_t threads,
                   ZcHostBlock *block)
{
	for (uint32_t b = 0; b < blocks; b++)
		for (uint32_t i = 0; i < (kernel.whole_block ? 1 : threads); i++) {
			ZcHostThread t = {
				.tid = {kernel.whole_block ? 7 : i, 0, 0}, .ntid = {threads, 1, 1},
				.ctaid = {b, 0, 0}, .nctaid = {blocks, 1, 1},
				.block = block,
			};
			kernel.entry(params, &t);
		}
}

static void test_vadd(const char *dir, ZcHostBlock *block)
{
	void *object = open_object(dir, "vadd");
	enum { N = 37 };
	float a[N], b[N], c[N + 3];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 0.5f * (float)i;
	}
	memset(c, 0, sizeof c);
	struct { float *a, *b, *c; uint32_t n; } params = {a, b, c, N};
	launch(entry(object, "vadd", 1), &params, 5, 8, block);
	int ok = 1;
	for (int i = 0; i < N; i++)
		ok &= c[i] == 1.5f * (float)i;
	check(ok && c[N] == 0, "vadd: c = a + b for the first n elements only");
	dlclose(object);
}

static void test_block_sum(const char *dir, ZcHostBlock *block)
{
	void *object = open_object(dir, "reduce_shared");
	enum { BLOCKS = 4, THREADS = 8 };
	float in[BLOCKS * THREADS], out[BLOCKS] = {0};
	for (int i = 0; i < BLOCKS * THREADS; i++)
		in[i] = (float)(i + 1);
	struct { float *in, *out; } params = {in, out};
	barriers = 0;
	launch(entry(object, "block_sum", 1), &params, BLOCKS, THREADS, block);
	int ok = 1;
	for (int b = 0; b < BLOCKS; b++)
		ok &= out[b] == (float)(THREADS * (THREADS * b + 1) + THREADS * (THREADS - 1) / 2);
	check(ok, "block_sum: each block of 8 threads sums its values (a tree in shared memory, a barrier a step)");
	check(barriers == 0, "block_sum: the block entry runs its barriers itself, calling no driver");
	dlclose(object);
}

static void test_warp_sum(const char *dir, ZcHostBlock *block)
{
	void *object = open_object(dir, "shuffle");
	int32_t in[2] = {3, -5}, out[2] = {0};
	struct { int32_t *in, *out; } params = {in, out};
	shuffles = 0;
	launch(entry(object, "warp_sum", 1), &params, 2, 1, block);
	check(out[0] == 3 * 32 && out[1] == -5 * 32, "warp_sum: doubles five times with one lane");
	check(shuffles == 10, "warp_sum: the block entry's rounds complete five shuffles a block");
	dlclose(object);
}

static void test_params(const char *dir, ZcHostBlock *block)
{
	void *object = open_object(dir, "params");
	uint64_t out[2] = {0};
	unsigned char params[48] = {0};
	params[0] = 3;
	for (int i = 0; i < 24; i++)
		params[8 + i] = (unsigned char)(i + 1);
	uint64_t x = 1000;
	uint64_t *out_address = out;
	memcpy(params + 32, &x, sizeof x);
	memcpy(params + 40, &out_address, sizeof out_address);
	launch(entry(object, "params", 1), params, 1, 1, block);
	check(out[0] == 3 + 300 + 1000, "params: u8 @0, byref [24 x i8] @8, u64 @32, pointer @40");
	check(out[1] == block->dynamic_smem_size, "params: dynamic shared memory and its size");
	dlclose(object);
}

static void test_trap(const char *dir, ZcHostBlock *block)
{
	void *object = open_object(dir, "trap");
	Kernel kernel = entry(object, "traps", 0);
	int32_t flag = 0;
	struct { int32_t *flag; } params = {&flag};
	launch(kernel, &params, 1, 1, block);
	flag = 1;
	int trap_reached = 0;
	if (setjmp(trapped) == 0)
		launch(kernel, &params, 1, 1, block);
	else
		trap_reached = 1;
	check(trap_reached, "traps: the trap operation is called");
	dlclose(object);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: host_harness DIR\n");
		return 2;
	}
	_Alignas(16) static unsigned char dynamic_smem[64];
	ZcHostBlock block = {.ops = &ops, .dynamic_smem = dynamic_smem,
	                     .dynamic_smem_size = sizeof dynamic_smem};
	test_vadd(argv[1], &block);
	test_block_sum(argv[1], &block);
	test_warp_sum(argv[1], &block);
	test_params(argv[1], &block);
	test_trap(argv[1], &block);
	if (failures)
		return 1;
	printf("host code objects: vadd, block_sum, warp_sum, params, traps ran correctly\n");
	return 0;
}
