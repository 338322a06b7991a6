/* The host driver running real host code objects (exec_kernels.c) found in this program's
 * own AOT image, which zc-exec-image embedded after linking. Modes, one process each
 * because CUDA's launch errors are sticky:
 *   main         loading (every path: data, files, dark API), launching, every block
 *                operation, errors, attributes, stress
 *   trap         a trap fails the launch at the next synchronisation, and later ones
 *   deadlock     threads that can never be released fail the launch instead of hanging
 *   fault        a thread's access to memory nothing maps fails the launch, naming it
 *   fault_once   the same, where the block does not fault when run again
 *   unconverted  (run on the binary without an image) no code, and the reason
 *   untranslated (run on the binary whose image says why its module has no host code, with
 *                no driver chosen) the CPU driver is chosen, and the module's use fails with
 *                the reason
 *   printf       device printf's formatting of a packed argument buffer */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drv_host.h"
#include "exec_module.h"
#include "exports.h"
#include "runtime_code.h"

static int failures;

#define CHECK(cond, ...)                                        \
	do {                                                        \
		if (!(cond)) {                                          \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);     \
			fprintf(stderr, __VA_ARGS__);                       \
			fputc('\n', stderr);                                \
			failures++;                                         \
		}                                                       \
	} while (0)

#define CALL(expected, call) CHECK((call) == (expected), "%s is not %s", #call, #expected)

/* cudart's registration: a __fatBinC_Wrapper_t pointing at the fatbin. */
static const struct {
	int magic, version;
	const void *data;
	void *filename_or_fatbins;
} wrapper = { 0x466243B1, 1, exec_fatbin, NULL };

static CUcontext primary;

static CUdeviceptr
device_alloc(size_t bytes)
{
	CUdeviceptr d = 0;

	CALL(CUDA_SUCCESS, cuMemAlloc_v2(&d, bytes));
	return d;
}

static void
launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
       unsigned bz, unsigned shared, void **params)
{
	CALL(CUDA_SUCCESS, cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, NULL, params, NULL));
}

static void
test_block_sum(CUfunction f)
{
	enum { BLOCKS = 64, THREADS = 256 };
	static uint32_t in[BLOCKS * THREADS], out[BLOCKS];
	CUdeviceptr din = device_alloc(sizeof in), dout = device_alloc(sizeof out);

	for (uint32_t i = 0; i < BLOCKS * THREADS; i++)
		in[i] = i * 3 + 1;
	CALL(CUDA_SUCCESS, cuMemcpyHtoD_v2(din, in, sizeof in));
	launch(f, BLOCKS, 1, 1, THREADS, 1, 1, 0, (void *[]){ &din, &dout });
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(out, dout, sizeof out));
	for (uint32_t b = 0; b < BLOCKS; b++) {
		uint32_t want = 0;
		for (uint32_t i = 0; i < THREADS; i++)
			want += in[b * THREADS + i];
		CHECK(out[b] == want, "block_sum: block %u: %u, want %u", b, out[b], want);
	}
	cuMemFree_v2(din);
	cuMemFree_v2(dout);
}

static uint32_t
v(uint32_t lane)
{
	return lane * 3 + 1;
}

static void
test_warp_ops(CUfunction f)
{
	enum { THREADS = 64, WORDS = 16 };
	static uint32_t out[THREADS * WORDS];
	CUdeviceptr dout = device_alloc(sizeof out);

	launch(f, 1, 1, 1, THREADS, 1, 1, 0, (void *[]){ &dout });
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(out, dout, sizeof out));
	for (uint32_t t = 0; t < THREADS; t++) {
		uint32_t lane = t % 32, xor_high = 0;
		for (uint32_t l = 16; l < 32; l++)
			xor_high ^= l;
		uint32_t want[WORDS] = {
			v(5),
			lane >= 2 ? v(lane - 2) : v(lane),
			lane >= 2,
			lane + 3 <= 31 ? v(lane + 3) : v(lane),
			v(lane ^ 1),
			(lane + 1) / 8 == lane / 8 ? v(lane + 1) : v(lane),
			0xaaaaaaaau,
			3,
			0xfu << (lane / 4 * 4),
			0xffffffffu,
			496,
			(uint32_t)-5,
			lane < 16 ? v(lane ^ 8) : 0xffe00000u,
			lane < 16 ? 15 : xor_high,
			0xffffffffu,
			22 | 1u << 16,
		};
		for (int w = 0; w < WORDS; w++)
			CHECK(out[t * WORDS + w] == want[w], "warp_ops: thread %u word %d: 0x%x, want 0x%x",
			      t, w, out[t * WORDS + w], want[w]);
	}
	cuMemFree_v2(dout);
}

static void
test_named_barriers_and_exit(CUfunction named, CUfunction exit_early)
{
	static uint32_t out[128];
	CUdeviceptr dout = device_alloc(sizeof out);

	launch(named, 1, 1, 1, 128, 1, 1, 0, (void *[]){ &dout });
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(out, dout, sizeof out));
	for (uint32_t t = 0; t < 128; t++)
		CHECK(out[t] == (t ^ 32) * 7, "named barriers: thread %u: %u", t, out[t]);

	CALL(CUDA_SUCCESS, cuMemsetD32_v2(dout, 0xdeadbeef, 64));
	launch(exit_early, 1, 1, 1, 64, 1, 1, 0, (void *[]){ &dout });
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(out, dout, 64 * 4));
	for (uint32_t t = 0; t < 64; t++)
		CHECK(out[t] == (t & 1 ? 0xdeadbeef : 0x55555555u), "exit: thread %u: 0x%x", t, out[t]);
	cuMemFree_v2(dout);
}

/* 80 threads: two full warps and a half one, each with lanes of all four groups. */
static void
test_activemask_groups(CUfunction f)
{
	enum { N = 80 };
	static uint32_t group[N], out[2 * N];
	CUdeviceptr dgroup = device_alloc(sizeof group), dout = device_alloc(sizeof out);
	CUdeviceptr dflag = device_alloc(3 * 4);

	for (uint32_t t = 0; t < N; t++)
		group[t] = (t * 5 + t / 7) % 4;
	CALL(CUDA_SUCCESS, cuMemcpyHtoD_v2(dgroup, group, sizeof group));
	CALL(CUDA_SUCCESS, cuMemsetD32_v2(dout, 0xdeadbeef, 2 * N));
	CALL(CUDA_SUCCESS, cuMemsetD32_v2(dflag, 0, 3));
	launch(f, 1, 1, 1, N, 1, 1, 0, (void *[]){ &dgroup, &dout, &dflag });
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(out, dout, sizeof out));
	for (uint32_t t = 0; t < N; t++) {
		uint32_t same = 0, live = 0, w0 = t / 32 * 32;
		for (uint32_t u = w0; u < w0 + 32 && u < N; u++) {
			same |= (uint32_t)(group[u] == group[t]) << (u - w0);
			live |= (uint32_t)(group[u] != 0) << (u - w0);
		}
		if (group[t] == 0)
			same = live = 0xdeadbeef;
		CHECK(out[2 * t] == same && out[2 * t + 1] == live,
		      "activemask: thread %u of group %u: 0x%x then 0x%x, want 0x%x then 0x%x", t,
		      group[t], out[2 * t], out[2 * t + 1], same, live);
	}
	cuMemFree_v2(dgroup);
	cuMemFree_v2(dout);
	cuMemFree_v2(dflag);
}

/* The driver finds an entry whatever the length of the kernel's name. */
static void
test_long_name(CUmodule mod)
{
	enum { N = 8 };
	uint32_t out[N];
	CUfunction f;
	CUdeviceptr dout = device_alloc(sizeof out);

	CALL(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, ZK_LONG_NAME_STRING));
	launch(f, 1, 1, 1, N, 1, 1, 0, (void *[]){ &dout });
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(out, dout, sizeof out));
	for (uint32_t i = 0; i < N; i++)
		CHECK(out[i] == i, "long name %u: %u", i, out[i]);
	cuMemFree_v2(dout);
}

static void
test_coords(CUfunction f)
{
	enum { GX = 3, GY = 2, GZ = 2, BX = 4, BY = 3, BZ = 2, N = GX * GY * GZ * BX * BY * BZ };
	static uint32_t out[N];
	CUdeviceptr dout = device_alloc(sizeof out);

	launch(f, GX, GY, GZ, BX, BY, BZ, 0, (void *[]){ &dout });
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(out, dout, sizeof out));
	for (uint32_t i = 0; i < N; i++) {
		uint32_t t = i % (BX * BY * BZ), b = i / (BX * BY * BZ);
		uint32_t want = t % BX | t / BX % BY << 4 | t / (BX * BY) << 8 | b % GX << 12 |
		                b / GX % GY << 16 | b / (GX * GY) << 20;
		CHECK(out[i] == want, "coords %u: 0x%x, want 0x%x", i, out[i], want);
	}
	cuMemFree_v2(dout);
}

/* kernelParams and extra give the same packed buffer; module variables are read and
 * written through cuModuleGetGlobal / cuLibraryGetGlobal. */
static void
test_dynamic(CUmodule mod, CUlibrary lib, CUfunction f)
{
	enum { N = 32 };
	uint32_t out[N + 2];
	CUdeviceptr dout = device_alloc(sizeof out), counter, table;
	size_t bytes = 0;
	uint8_t bias = 5;
	uint64_t scale = 3;
	struct {
		CUdeviceptr out;
		uint8_t bias, pad[7];
		uint64_t scale;
	} packed = { dout, 7, { 0 }, 2 };
	size_t packed_size = sizeof packed;
	void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
		              &packed_size, CU_LAUNCH_PARAM_END };
	uint32_t value;

	CALL(CUDA_SUCCESS, cuModuleGetGlobal_v2(&counter, &bytes, mod, "zk_counter"));
	CHECK(bytes == 4, "zk_counter is %zu bytes", bytes);
	value = 100;
	CALL(CUDA_SUCCESS, cuMemcpyHtoD_v2(counter, &value, 4));
	launch(f, 1, 1, 1, N, 1, 1, N * 4, (void *[]){ &dout, &bias, &scale });
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(out, dout, sizeof out));
	for (uint32_t t = 0; t < N; t++)
		CHECK(out[t] == (t + 1) % N * 3 + 5, "dynamic (kernelParams) %u: %u", t, out[t]);
	CHECK(out[N] == N * 4 && out[N + 1] == 130, "dynamic size %u, module variables %u", out[N],
	      out[N + 1]);

	CALL(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, N, 1, 1, N * 4, NULL, NULL, extra));
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(out, dout, sizeof out));
	for (uint32_t t = 0; t < N; t++)
		CHECK(out[t] == (t + 1) % N * 2 + 7, "dynamic (extra) %u: %u", t, out[t]);
	CHECK(out[N + 1] == 131, "the kernel's own increment: %u", out[N + 1]);
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(&value, counter, 4));
	CHECK(value == 102, "zk_counter after two launches: %u", value);

	/* The library holds the same module: its variables are the same memory. */
	CALL(CUDA_SUCCESS, cuLibraryGetGlobal(&table, &bytes, lib, "zk_table"));
	uint32_t words[4];
	CALL(CUDA_SUCCESS, cuMemcpyDtoH_v2(words, table, sizeof words));
	CHECK(bytes == 16 && words[2] == 30, "zk_table: %zu bytes, [2] = %u", bytes, words[2]);
	CALL(CUDA_ERROR_NOT_FOUND, cuLibraryGetGlobal(&table, &bytes, lib, "zk_nothing"));
	cuMemFree_v2(dout);
}

static void
test_launch_errors(CUfunction sum, CUfunction coords, CUfunction dynamic)
{
	CUdeviceptr d = device_alloc(1 << 16);
	void *one[] = { &d, &d, &d };
	uint8_t bias = 0;
	uint64_t scale = 1;

	CALL(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(sum, 1, 1, 1, 2048, 1, 1, 0, NULL, one, NULL));
	CALL(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(sum, 0, 1, 1, 32, 1, 1, 0, NULL, one, NULL));
	CALL(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(sum, 1, 1, 1, 32, 1, 65, 0, NULL, one, NULL));
	CALL(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(coords, 1, 1, 1, 64, 1, 1, 0, NULL, one, NULL));
	CALL(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(sum, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL));
	CALL(CUDA_ERROR_INVALID_HANDLE, cuLaunchKernel((CUfunction)&d, 1, 1, 1, 1, 1, 1, 0, NULL, one, NULL));
	/* Dynamic shared memory above 48 KiB needs the attribute first, as in CUDA. */
	void *params[] = { &d, &bias, &scale };
	CALL(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(dynamic, 1, 1, 1, 32, 1, 1, 64 << 10, NULL, params, NULL));
	CALL(CUDA_SUCCESS, cuFuncSetAttribute(dynamic, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 << 10));
	CALL(CUDA_SUCCESS, cuLaunchKernel(dynamic, 1, 1, 1, 32, 1, 1, 64 << 10, NULL, params, NULL));
	CALL(CUDA_ERROR_INVALID_VALUE, cuFuncSetAttribute(dynamic, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1 << 20));
	CALL(CUDA_SUCCESS, cuCtxSynchronize());
	cuMemFree_v2(d);
}

static void
test_attributes(CUlibrary lib, CUfunction sum, CUfunction coords)
{
	CUkernel k;
	CUfunction f;
	size_t offset = 0, size = 0;
	int value = -1;
	const char *name = NULL;

	CALL(CUDA_SUCCESS, cuKernelGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, sum, 0));
	CHECK(value == 1024, "block_sum max threads %d", value);
	CALL(CUDA_SUCCESS, cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, coords));
	CHECK(value == 32, "coords max threads (.maxntid 32) %d", value);
	CALL(CUDA_SUCCESS, cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, sum));
	CHECK(value == 4096, "block_sum static shared %d", value);
	CALL(CUDA_SUCCESS, cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_NUM_REGS, sum));
	CHECK(value > 0, "registers %d", value);
	CALL(CUDA_SUCCESS, cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_BINARY_VERSION, sum));
	CHECK(value == 86, "binary version %d", value);
	for (int a = 0; a < CU_FUNC_ATTRIBUTE_MAX; a++)
		CALL(CUDA_SUCCESS, cuKernelGetAttribute(&value, (CUfunction_attribute)a, sum, 0));
	CALL(CUDA_ERROR_INVALID_VALUE, cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX, sum));

	CALL(CUDA_SUCCESS, cuLibraryGetKernel(&k, lib, "zk_dynamic"));
	CALL(CUDA_SUCCESS, cuKernelGetFunction(&f, k));
	CALL(CUDA_SUCCESS, cuKernelGetParamInfo(k, 2, &offset, &size));
	CHECK(offset == 16 && size == 8, "zk_dynamic param 2: %zu, %zu", offset, size);
	CALL(CUDA_SUCCESS, cuFuncGetParamInfo(f, 1, &offset, &size));
	CHECK(offset == 8 && size == 1, "zk_dynamic param 1: %zu, %zu", offset, size);
	CALL(CUDA_ERROR_INVALID_VALUE, cuKernelGetParamInfo(k, 3, &offset, &size));
	CALL(CUDA_SUCCESS, cuFuncGetName(&name, f));
	CHECK(name && strcmp(name, "zk_dynamic") == 0, "name %s", name ? name : "(null)");
	CALL(CUDA_ERROR_NOT_FOUND, cuLibraryGetKernel(&k, lib, "zk_nothing"));
}

/* The host device: 1536 threads, 16 blocks, 64K registers and 100 KiB of shared memory
 * per multiprocessor; kernels take 32 registers a thread. zk_block_sum has 4 KiB of
 * static shared memory, zk_coords .maxntid 32. */
static void
test_occupancy(CUfunction sum, CUfunction coords, CUfunction dynamic)
{
	int blocks = -1, grid = -1, block = -1, sms = 0;
	size_t bytes = 1;

	CALL(CUDA_SUCCESS, cuDeviceGetAttribute(&sms, 16 /* MULTIPROCESSOR_COUNT */, 0));
	CALL(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, sum, 256, 0));
	CHECK(blocks == 6, "block_sum, 256 threads: %d blocks (threads allow 6)", blocks);
	CALL(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, sum, 1024, 0,
	                                                                        CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE));
	CHECK(blocks == 1, "block_sum, 1024 threads: %d blocks", blocks);
	CALL(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, sum, 2048, 0));
	CHECK(blocks == 0, "block_sum, 2048 threads: %d blocks", blocks);
	CALL(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, coords, 32, 0));
	CHECK(blocks == 16, "coords, 32 threads: %d blocks (the block limit)", blocks);
	CALL(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, coords, 64, 0));
	CHECK(blocks == 0, "coords, 64 threads (above .maxntid): %d blocks", blocks);
	CALL(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, dynamic, 32, 10000));
	CHECK(blocks == 10, "dynamic, 10000 bytes: %d blocks (shared memory allows 10)", blocks);
	CALL(CUDA_ERROR_INVALID_VALUE,
	     cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, sum, 256, 0, 2));
	CALL(CUDA_ERROR_INVALID_HANDLE,
	     cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (CUfunction)&blocks, 256, 0));

	/* 768 and 512 threads both fill the 1536 threads; the larger wins. */
	CALL(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(&grid, &block, sum, NULL, 0, 0));
	CHECK(block == 768 && grid == 2 * sms, "block_sum potential: %d threads, grid %d", block, grid);
	CALL(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, sum, NULL, 0, 100, 0));
	/* 100 threads take 4 warps of room, 12 blocks: 1200 threads; 96 reach 16 * 96 = 1536. */
	CHECK(block == 96 && grid == 16 * sms, "block_sum potential up to 100: %d, grid %d", block, grid);

	CALL(CUDA_SUCCESS, cuOccupancyAvailableDynamicSMemPerBlock(&bytes, sum, 4, 256));
	CHECK(bytes == 100 * 1024 / 4 - 4096, "4 blocks of block_sum: %zu dynamic bytes", bytes);
	CALL(CUDA_SUCCESS, cuOccupancyAvailableDynamicSMemPerBlock(&bytes, sum, 10, 256));
	CHECK(bytes == 0, "10 blocks of 256 threads cannot fit: %zu bytes", bytes);
}

/* 8 threads, each with its own stream, 500 launches each; every result exact. */
enum { STRESS_THREADS = 8, STRESS_LAUNCHES = 500, STRESS_BLOCK = 64 };

struct stress {
	CUfunction sum;
	uint32_t in[2 * STRESS_BLOCK];
	uint32_t out[STRESS_LAUNCHES][2];
	int failures;
};

static void *
stress_run(void *arg)
{
	struct stress *s = arg;
	CUstream stream;
	CUdeviceptr din, dout;

	if (cuCtxSetCurrent(primary) || cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) ||
	    cuMemAlloc_v2(&din, sizeof s->in) || cuMemAlloc_v2(&dout, sizeof s->out)) {
		s->failures++;
		return NULL;
	}
	s->failures += cuMemcpyHtoDAsync_v2(din, s->in, sizeof s->in, stream) != CUDA_SUCCESS;
	for (int i = 0; i < STRESS_LAUNCHES; i++) {
		CUdeviceptr o = dout + (CUdeviceptr)i * 8;
		s->failures += cuLaunchKernel(s->sum, 2, 1, 1, STRESS_BLOCK, 1, 1, 0, stream,
		                              (void *[]){ &din, &o }, NULL) != CUDA_SUCCESS;
	}
	s->failures += cuMemcpyDtoHAsync_v2(s->out, dout, sizeof s->out, stream) != CUDA_SUCCESS;
	s->failures += cuStreamSynchronize(stream) != CUDA_SUCCESS;
	s->failures += cuStreamDestroy_v2(stream) != CUDA_SUCCESS;
	cuMemFree_v2(din);
	cuMemFree_v2(dout);
	return NULL;
}

static void
test_stress(CUfunction sum)
{
	static struct stress s[STRESS_THREADS];
	pthread_t threads[STRESS_THREADS];

	for (int t = 0; t < STRESS_THREADS; t++) {
		s[t].sum = sum;
		for (int i = 0; i < 2 * STRESS_BLOCK; i++)
			s[t].in[i] = (uint32_t)(t * 1000 + i);
		pthread_create(&threads[t], NULL, stress_run, &s[t]);
	}
	for (int t = 0; t < STRESS_THREADS; t++) {
		pthread_join(threads[t], NULL);
		uint32_t want[2] = { 0, 0 };
		for (int i = 0; i < 2 * STRESS_BLOCK; i++)
			want[i / STRESS_BLOCK] += s[t].in[i];
		int wrong = 0;
		for (int i = 0; i < STRESS_LAUNCHES; i++)
			wrong += s[t].out[i][0] != want[0] || s[t].out[i][1] != want[1];
		CHECK(!s[t].failures && !wrong, "stress thread %d: %d failed calls, %d wrong results", t,
		      s[t].failures, wrong);
	}
}

/* A temporary file holding `bytes`; its path in `path`. */
static void
write_temp(char path[64], const void *bytes, size_t size)
{
	strcpy(path, "/tmp/zc-module-XXXXXX");
	int fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, bytes, size) == (ssize_t)size, "cannot write %s", path);
	if (fd >= 0)
		close(fd);
}

/* The block-sum kernel of a module loaded some other way works like the first one. */
static void
check_module(CUmodule mod)
{
	CUfunction f;

	CALL(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "zk_block_sum"));
	if (!failures)
		test_block_sum(f);
	CALL(CUDA_SUCCESS, cuModuleUnload(mod));
}

/* Older static cudart registers fatbins through CUDART_INTERFACE slots 1, 6 and 8. */
static void
test_dark_api_modules(void)
{
	static const CUuuid cudart_interface = { { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
	                                           0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 } };
	void *const *table;
	CUmodule mod;

	CALL(CUDA_SUCCESS, cuGetExportTable((const void **)&table, &cudart_interface));
	CUresult (*from_cubin)(CUmodule *, const void *) = (CUresult(*)(CUmodule *, const void *))table[1];
	CUresult (*ext1)(CUmodule *, const void *, void *, void *, unsigned) =
		(CUresult(*)(CUmodule *, const void *, void *, void *, unsigned))table[6];
	CUresult (*ext2)(const void *, CUmodule *, void *, void *, unsigned) =
		(CUresult(*)(const void *, CUmodule *, void *, void *, unsigned))table[8];

	CALL(CUDA_SUCCESS, from_cubin(&mod, &wrapper));
	check_module(mod);
	CALL(CUDA_SUCCESS, ext1(&mod, &wrapper, NULL, NULL, 0));
	check_module(mod);
	CALL(CUDA_SUCCESS, ext2(exec_fatbin, &mod, NULL, NULL, 0));
	check_module(mod);
	CALL(CUDA_ERROR_NOT_SUPPORTED, ext1(&mod, &wrapper, NULL, NULL, 1));
	CALL(CUDA_ERROR_NOT_SUPPORTED, ext2(exec_fatbin, &mod, &mod, NULL, 0));
}

/* cuModuleLoad and cuLibraryLoadFromFile: files without an image of their own are found
 * through the image of this program, which has their module. */
static void
test_module_files(void)
{
	static const uint8_t cubin[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };
	static const char unknown[] = "// not in the image\n";
	char ptx_file[64], fatbin_file[64], cubin_file[64], unknown_file[64], short_file[64];
	CUmodule mod;
	CUlibrary lib;
	CUkernel k;

	write_temp(ptx_file, exec_ptx, strlen(exec_ptx));
	write_temp(fatbin_file, exec_fatbin, sizeof exec_fatbin);
	write_temp(cubin_file, cubin, sizeof cubin);
	write_temp(unknown_file, unknown, strlen(unknown));
	write_temp(short_file, exec_fatbin, sizeof exec_fatbin - 1);
	CALL(CUDA_SUCCESS, cuModuleLoad(&mod, ptx_file));
	check_module(mod);
	CALL(CUDA_SUCCESS, cuModuleLoad(&mod, fatbin_file));
	check_module(mod);
	CALL(CUDA_SUCCESS, cuLibraryLoadFromFile(&lib, fatbin_file, NULL, NULL, 0, NULL, NULL, 0));
	CALL(CUDA_SUCCESS, cuLibraryGetKernel(&k, lib, "zk_coords"));
	CALL(CUDA_SUCCESS, cuLibraryUnload(lib));
	CALL(CUDA_ERROR_FILE_NOT_FOUND, cuModuleLoad(&mod, "/nonexistent/kernels.ptx"));
	CALL(CUDA_ERROR_FILE_NOT_FOUND, cuModuleLoad(&mod, "/"));
	CALL(CUDA_ERROR_INVALID_VALUE, cuModuleLoad(&mod, NULL));
	CALL(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoad(&mod, cubin_file));
	/* code no image holds, which the test's ZLUDA_CONVERT_TRANSLATE=0 forbids translating */
	CALL(CUDA_ERROR_JIT_COMPILATION_DISABLED, cuModuleLoad(&mod, unknown_file));
	CALL(CUDA_ERROR_JIT_COMPILATION_DISABLED,
	     cuLibraryLoadFromFile(&lib, unknown_file, NULL, NULL, 0, NULL, NULL, 0));
	CALL(CUDA_ERROR_INVALID_IMAGE, cuModuleLoad(&mod, short_file));
	unlink(ptx_file);
	unlink(fatbin_file);
	unlink(cubin_file);
	unlink(unknown_file);
	unlink(short_file);
}

/* cuLink: the one PTX text it is given is the image, which loads as any; two texts make one
 * text the tool links (abi/runtime_code.h); the device runtime is left out unread; machine
 * code, and a fatbin with other inputs, are refused, and say so in the error log. */
static void
test_link(void)
{
	static const uint8_t cubin[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };
	char error[512] = "";
	CUjit_option options[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *values[] = { error, (void *)(uintptr_t)sizeof error };
	CUlinkState link, two;
	void *image;
	size_t size;
	CUmodule mod;
	CUfunction f;

	CALL(CUDA_SUCCESS, cuLinkCreate_v2(2, options, values, &link));
	CALL(CUDA_ERROR_INVALID_VALUE, cuLinkComplete(link, &image, &size));
	CALL(CUDA_ERROR_NOT_SUPPORTED, cuLinkAddData_v2(link, CU_JIT_INPUT_CUBIN, (void *)cubin,
	                                                sizeof cubin, "sass.cubin", 0, NULL, NULL));
	CALL(CUDA_SUCCESS, cuLinkAddFile_v2(link, CU_JIT_INPUT_LIBRARY, "/nonexistent/libcudadevrt.a",
	                                    0, NULL, NULL));
	CALL(CUDA_SUCCESS, cuLinkAddData_v2(link, CU_JIT_INPUT_PTX, (void *)exec_ptx,
	                                    strlen(exec_ptx) + 1, "exec.ptx", 0, NULL, NULL));
	CALL(CUDA_SUCCESS, cuLinkComplete(link, &image, &size));
	if (size != strlen(exec_ptx) + 1 || memcmp(image, exec_ptx, size) != 0) {
		printf("%s:%d: cuLinkComplete's image is not the PTX added\n", __FILE__, __LINE__);
		failures++;
	}
	CALL(CUDA_SUCCESS, cuModuleLoadData(&mod, image));
	CALL(CUDA_SUCCESS, cuLinkDestroy(link));
	CALL(CUDA_ERROR_INVALID_HANDLE, cuLinkDestroy(link));
	CALL(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "zk_coords"));
	CALL(CUDA_SUCCESS, cuModuleUnload(mod));
	const char *wanted[] = { "nothing to link", "sass.cubin: a CUBIN" };
	for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
		if (!strstr(error, wanted[i])) {
			printf("%s:%d: the error log lacks \"%s\": %s\n", __FILE__, __LINE__, wanted[i], error);
			failures++;
		}
	}
	if ((uintptr_t)values[1] != strlen(error)) {
		printf("%s:%d: the error log's size is %zu, not %zu\n", __FILE__, __LINE__,
		       (size_t)(uintptr_t)values[1], strlen(error));
		failures++;
	}

	CALL(CUDA_SUCCESS, cuLinkCreate_v2(0, NULL, NULL, &two));
	CALL(CUDA_SUCCESS, cuLinkAddData_v2(two, CU_JIT_INPUT_PTX, "// a", 4, "a.ptx", 0, NULL, NULL));
	CALL(CUDA_SUCCESS, cuLinkAddData_v2(two, CU_JIT_INPUT_CUBIN, "// b\n", 6, "b.ptx", 0, NULL, NULL));
	CALL(CUDA_SUCCESS, cuLinkComplete(two, &image, &size));
	const char *linked = ZC_LINK_HEADER ZC_LINK_INPUT "// a\n" ZC_LINK_INPUT "// b\n";
	if (size != strlen(linked) + 1 || memcmp(image, linked, size) != 0) {
		printf("%s:%d: two PTX texts linked into \"%s\"\n", __FILE__, __LINE__, (char *)image);
		failures++;
	}
	CALL(CUDA_ERROR_INVALID_IMAGE, cuLinkAddData_v2(two, CU_JIT_INPUT_FATBINARY, (void *)exec_fatbin,
	                                                sizeof exec_fatbin - 1, "cut.fatbin", 0, NULL, NULL));
	CALL(CUDA_SUCCESS, cuLinkAddData_v2(two, CU_JIT_INPUT_FATBINARY, (void *)exec_fatbin,
	                                    sizeof exec_fatbin, "k.fatbin", 0, NULL, NULL));
	CALL(CUDA_ERROR_NOT_SUPPORTED, cuLinkComplete(two, &image, &size));
	CALL(CUDA_SUCCESS, cuLinkDestroy(two));
}

static int
run_main(void)
{
	CUmodule mod, by_fatbin, missing;
	CUlibrary lib;
	CUfunction sum, warp, named, exit_early, coords, dynamic, groups;

	CALL(CUDA_SUCCESS, cuModuleLoadData(&mod, exec_ptx));
	CALL(CUDA_SUCCESS, cuLibraryLoadData(&lib, &wrapper, NULL, NULL, 0, NULL, NULL, 0));
	CALL(CUDA_SUCCESS, cuModuleLoadFatBinary(&by_fatbin, exec_fatbin));
	CALL(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoadData(&missing, "// sass only\n"));
	CALL(CUDA_ERROR_JIT_COMPILATION_DISABLED, cuModuleLoadData(&missing, "// not in the image\n"));
	if (failures)
		return 1;
	CALL(CUDA_SUCCESS, cuLibraryGetKernel(&sum, lib, "zk_block_sum"));
	CALL(CUDA_SUCCESS, cuModuleGetFunction(&warp, mod, "zk_warp_ops"));
	CALL(CUDA_SUCCESS, cuModuleGetFunction(&named, by_fatbin, "zk_named_barriers"));
	CALL(CUDA_SUCCESS, cuModuleGetFunction(&exit_early, mod, "zk_exit_early"));
	CALL(CUDA_SUCCESS, cuModuleGetFunction(&coords, mod, "zk_coords"));
	CALL(CUDA_SUCCESS, cuModuleGetFunction(&dynamic, mod, "zk_dynamic"));
	CALL(CUDA_SUCCESS, cuModuleGetFunction(&groups, mod, "zk_activemask_groups"));
	if (failures)
		return 1;
	test_block_sum(sum);
	test_dark_api_modules();
	test_module_files();
	test_link();
	test_warp_ops(warp);
	test_named_barriers_and_exit(named, exit_early);
	test_activemask_groups(groups);
	test_coords(coords);
	test_long_name(mod);
	test_dynamic(mod, lib, dynamic);
	test_launch_errors(sum, coords, dynamic);
	test_attributes(lib, sum, coords);
	test_occupancy(sum, coords, dynamic);
	test_stress(sum);
	CALL(CUDA_SUCCESS, cuCtxSynchronize());
	CALL(CUDA_SUCCESS, cuModuleUnload(by_fatbin));
	CALL(CUDA_SUCCESS, cuModuleUnload(mod));
	CALL(CUDA_SUCCESS, cuLibraryUnload(lib));
	CALL(CUDA_ERROR_INVALID_HANDLE, cuLaunchKernel(sum, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	return failures != 0;
}

static int
run_failing(const char *kernel, unsigned threads, CUresult want)
{
	CUmodule mod;
	CUfunction f;
	uint32_t who = 5;

	CALL(CUDA_SUCCESS, cuModuleLoadData(&mod, exec_ptx));
	CALL(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, kernel));
	launch(f, 4, 1, 1, threads, 1, 1, 0, (void *[]){ &who });
	CALL(want, cuCtxSynchronize());
	/* Sticky: the context is unusable from now on. */
	CALL(want, cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, NULL, (void *[]){ &who }, NULL));
	CALL(want, cuCtxSynchronize());
	return failures != 0;
}

/* Thread (1,1,0) of block 2 faults: the launch fails with CUDA_ERROR_ILLEGAL_ADDRESS, and
 * the trace (the test's ZLUDA_CONVERT_TRACE=1) names that block and thread. */
static int
run_fault(const char *kernel)
{
	CUmodule mod;
	CUfunction f;
	uint32_t who = 5;

	CALL(CUDA_SUCCESS, cuModuleLoadData(&mod, exec_ptx));
	CALL(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, kernel));
	launch(f, 4, 1, 1, 4, 2, 1, 0, (void *[]){ &who });
	CALL(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	return failures != 0;
}

static int
run_unconverted(void)
{
	CUmodule mod;
	CUlibrary lib;
	CUkernel k;

	CALL(CUDA_ERROR_JIT_COMPILATION_DISABLED, cuModuleLoadData(&mod, exec_ptx));
	/* cudart loads every registered fatbin at start-up: the error waits for a use. The
	 * fatbin of a file nobody converted (this test) is translated as it loads, which
	 * ZLUDA_CONVERT_TRANSLATE=0 refuses. */
	CALL(CUDA_SUCCESS, cuLibraryLoadData(&lib, &wrapper, NULL, NULL, 0, NULL, NULL, 0));
	CALL(CUDA_ERROR_JIT_COMPILATION_DISABLED, cuLibraryGetKernel(&k, lib, "zk_block_sum"));
	CALL(CUDA_SUCCESS, cuLibraryUnload(lib));
	char ptx_file[64];
	write_temp(ptx_file, exec_ptx, strlen(exec_ptx));
	CALL(CUDA_ERROR_JIT_COMPILATION_DISABLED, cuModuleLoad(&mod, ptx_file));
	unlink(ptx_file);
	return failures != 0;
}

static int
run_untranslated(void)
{
	CUlibrary lib;
	CUkernel k;

	CALL(CUDA_SUCCESS, cuLibraryLoadData(&lib, &wrapper, NULL, NULL, 0, NULL, NULL, 0));
	CALL(CUDA_ERROR_NO_BINARY_FOR_GPU, cuLibraryGetKernel(&k, lib, "zk_block_sum"));
	CALL(CUDA_SUCCESS, cuLibraryUnload(lib));
	return failures != 0;
}

/* The buffer the device compiler packs: each argument at its own alignment. */
static int
run_printf(void)
{
	struct {
		int32_t i;
		double d;
		const char *s;
		int64_t ll;
		uint32_t x;
		int32_t width, star;
	} args = { -7, 2.5, "text", 123456789012, 255, 6, 42 };
	ZcHostThread t = { 0 };
	int n = zc_device_vprintf(&t, "printf: %d %.2f %s %lld %x%% [%*d]\n", &args);

	fflush(stdout);
	CHECK(n == 6, "vprintf counted %d arguments", n);
	return failures != 0;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "main";
	int r;

	if (cuInit(0) != CUDA_SUCCESS || cuDevicePrimaryCtxRetain(&primary, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(primary) != CUDA_SUCCESS) {
		fprintf(stderr, "no host device\n");
		return 1;
	}
	if (strcmp(mode, "trap") == 0)
		r = run_failing("zk_trap", 64, CUDA_ERROR_LAUNCH_FAILED);
	else if (strcmp(mode, "deadlock") == 0)
		r = run_failing("zk_deadlock", 2, CUDA_ERROR_LAUNCH_FAILED);
	else if (strcmp(mode, "deadlock_fibers") == 0)
		r = run_failing("zk_deadlock_fibers", 2, CUDA_ERROR_LAUNCH_FAILED);
	else if (strcmp(mode, "fault") == 0)
		r = run_fault("zk_fault");
	else if (strcmp(mode, "fault_once") == 0)
		r = run_fault("zk_fault_once");
	else if (strcmp(mode, "unconverted") == 0)
		r = run_unconverted();
	else if (strcmp(mode, "untranslated") == 0)
		r = run_untranslated();
	else if (strcmp(mode, "printf") == 0)
		r = run_printf();
	else
		r = run_main();
	cuDevicePrimaryCtxRelease_v2(0);
	if (r == 0)
		printf("ok %s\n", mode);
	return r;
}
