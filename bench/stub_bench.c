/* The runtime stub's two benchmarks (bench/stub_bench.sh builds and runs this):
 *
 *   load:   cuModuleLoadData of a 1,000-kernel module (AOT image lookup by the fatbin's hash,
 *           code object read, memfd + dlopen) and cuModuleUnload, against the memfd + dlopen
 *           + dlclose of the same host code object (CODE_OBJECT, extracted from this binary);
 *   launch: cuLaunchKernel of an empty kernel (1 block of 1 thread) on a stream, synchronised
 *           every SYNC_EVERY launches, against the same launches handed straight to the CPU
 *           driver (zc_host_driver.launch and .stream_sync).
 *
 * The fatbin is compiled in (FATBIN, by .incbin, into .nv_fatbin as nvcc places it) so that
 * zluda-convert finds it and the stub finds the converted module by its pointer. Each
 * measurement alternates the two sides and reports medians, so both see the same machine. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "api.h"

#define STR(x) #x
#define XSTR(x) STR(x)
__asm__(".section .nv_fatbin,\"a\"\n.balign 8\n"
        "bench_fatbin:\n.incbin \"" XSTR(FATBIN) "\"\n.previous");
extern const unsigned char bench_fatbin[] __asm__("bench_fatbin");

enum { LOAD_ROUNDS = 31, LAUNCH_ROUNDS = 9, LAUNCHES = 20000, SYNC_EVERY = 100 };

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, by_value);
	return v[n / 2];
}

static void
must(CUresult r, const char *what)
{
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "stub_bench: %s: %s\n", what, zc_error_name(r));
		exit(1);
	}
}

static unsigned char *
read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *bytes = NULL;
	long n = -1;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (bytes = malloc((size_t)n)) && fread(bytes, 1, (size_t)n, f) != (size_t)n)
		bytes = (free(bytes), NULL);
	if (f)
		fclose(f);
	if (!bytes) {
		fprintf(stderr, "stub_bench: cannot read %s\n", path);
		exit(1);
	}
	*size = (size_t)n;
	return bytes;
}

/* What the CPU driver does with a code object, and nothing else. */
static double
load_directly(const unsigned char *code, size_t size)
{
	double start = now();
	int fd = memfd_create("stub-bench", MFD_CLOEXEC);
	char path[64];
	void *handle;

	if (fd < 0 || write(fd, code, size) != (ssize_t)size)
		exit(1);
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (!(handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)) || !dlsym(handle, "__zc_host_abi_version")) {
		fprintf(stderr, "stub_bench: dlopen: %s\n", dlerror());
		exit(1);
	}
	dlclose(handle);
	close(fd);
	return now() - start;
}

static double
load_through_stub(void)
{
	double start = now();
	CUmodule m;

	must(cuModuleLoadData(&m, bench_fatbin), "cuModuleLoadData");
	must(cuModuleUnload(m), "cuModuleUnload");
	return now() - start;
}

static void
bench_load(const char *code_path)
{
	size_t size;
	unsigned char *code = read_file(code_path, &size);
	double stub[LOAD_ROUNDS], direct[LOAD_ROUNDS];
	double first = load_through_stub();  /* also maps and parses the AOT image, once */

	for (int i = 0; i < LOAD_ROUNDS; i++) {
		stub[i] = load_through_stub();
		direct[i] = load_directly(code, size);
	}
	double s = median(stub, LOAD_ROUNDS), d = median(direct, LOAD_ROUNDS);
	printf("module load (%zu-byte host code object): stub %.3f ms, direct %.3f ms, "
	       "ratio %.2fx (goal < 1.2x); first load with the image lookup %.3f ms\n",
	       size, s * 1e3, d * 1e3, s / d, first * 1e3);
	free(code);
}

static double
launch_through_stub(CUfunction f, CUstream stream)
{
	double start = now();

	for (int i = 1; i <= LAUNCHES; i++) {
		must(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL), "cuLaunchKernel");
		if (i % SYNC_EVERY == 0)
			must(cuStreamSynchronize(stream), "cuStreamSynchronize");
	}
	return (now() - start) / LAUNCHES;
}

static double
launch_directly(CUfunction f, struct zc_drv_stream *stream)
{
	struct zc_launch l = {
		.function = f->drv, .name = f->name,
		.grid = { 1, 1, 1 }, .block = { 1, 1, 1 },
		.static_shared = f->static_shared,
	};
	double start = now();

	for (int i = 1; i <= LAUNCHES; i++) {
		must(zc_host_driver.launch(stream, &l), "launch");
		if (i % SYNC_EVERY == 0)
			must(zc_host_driver.stream_sync(stream), "stream_sync");
	}
	return (now() - start) / LAUNCHES;
}

static void
bench_launch(void)
{
	CUmodule m;
	CUfunction f;
	CUstream stream;
	struct zc_drv_stream *direct_stream;
	double stub[LAUNCH_ROUNDS], direct[LAUNCH_ROUNDS];

	must(cuModuleLoadData(&m, bench_fatbin), "cuModuleLoadData");
	must(cuModuleGetFunction(&f, m, "zc_bench_empty"), "cuModuleGetFunction");
	must(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
	must(zc_host_driver.stream_create(0, ZC_STREAM_CREATED, CU_STREAM_NON_BLOCKING, 0,
	                                  &direct_stream), "stream_create");
	for (int i = 0; i < LAUNCH_ROUNDS; i++) {
		stub[i] = launch_through_stub(f, stream);
		direct[i] = launch_directly(f, direct_stream);
	}
	double s = median(stub, LAUNCH_ROUNDS), d = median(direct, LAUNCH_ROUNDS);
	printf("launch (empty kernel, 1x1, synchronised every %d): stub %.2f us, direct %.2f us, "
	       "ratio %.2fx (goal < 1.5x)\n", SYNC_EVERY, s * 1e6, d * 1e6, s / d);
	must(zc_host_driver.stream_destroy(direct_stream), "stream_destroy");
	must(cuStreamDestroy_v2(stream), "cuStreamDestroy");
	must(cuModuleUnload(m), "cuModuleUnload");
}

int
main(int argc, char **argv)
{
	CUcontext ctx;

	if (argc != 2) {
		fprintf(stderr, "usage: stub_bench CODE_OBJECT   (run by bench/stub_bench.sh)\n");
		return 2;
	}
	must(cuInit(0), "cuInit");
	must(cuDevicePrimaryCtxRetain(&ctx, 0), "cuDevicePrimaryCtxRetain");
	must(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
	bench_load(argv[1]);
	bench_launch();
	return 0;
}
