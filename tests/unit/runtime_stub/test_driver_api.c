/* The driver API called directly, on the host driver: contexts across threads, stream
 * order, events, every copy and fill shape against a reference, exact error codes, the
 * cuGetProcAddress answers cudart 13 needs, and the export tables. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "exports.h"


static CUcontext primary;

static void
test_exports_sorted(void)
{
	static const char *const names[] = {
#define ZC_FUNCTION(name, params) #name,
#include "exports.inc"
#undef ZC_FUNCTION
	};
	for (size_t i = 1; i < sizeof names / sizeof names[0]; i++)
		EXPECT(strcmp(names[i - 1], names[i]) < 0);
}

static void
test_before_init(void)
{
	int count, version;
	CUdeviceptr p;

	EXPECT(cuDeviceGetCount(&count) == CUDA_ERROR_NOT_INITIALIZED);
	EXPECT(cuMemAlloc_v2(&p, 16) == CUDA_ERROR_NOT_INITIALIZED);
	OK(cuDriverGetVersion(&version));
	EXPECT(version == 13000);
	EXPECT(cuInit(1) == CUDA_ERROR_INVALID_VALUE);
}

static void
test_devices(void)
{
	int count = 0, value = 0, major = 0, minor = 0, least = 1, greatest = 1;
	char name[256];
	size_t bytes = 0;
	CUdevice dev = -1;
	CUdevprop prop;
	CUuuid uuid;

	OK(cuInit(0));
	OK(cuDeviceGetCount(&count));
	EXPECT(count == 1);
	OK(cuDeviceGet(&dev, 0));
	EXPECT(dev == 0);
	EXPECT(cuDeviceGet(&dev, 1) == CUDA_ERROR_INVALID_DEVICE);
	EXPECT(cuDeviceGet(NULL, 0) == CUDA_ERROR_INVALID_VALUE);
	OK(cuDeviceGetName(name, sizeof name, 0));
	EXPECT(strstr(name, "zluda-convert") != NULL);
	OK(cuDeviceTotalMem_v2(&bytes, 0));
	EXPECT(bytes > 0);
	OK(cuDeviceGetAttribute(&value, 10 /* WARP_SIZE */, 0));
	EXPECT(value == 32);
	OK(cuDeviceGetAttribute(&value, 1 /* MAX_THREADS_PER_BLOCK */, 0));
	EXPECT(value == 1024);
	OK(cuDeviceGetAttribute(&value, 8 /* MAX_SHARED_MEMORY_PER_BLOCK */, 0));
	EXPECT(value == 48 << 10);
	EXPECT(cuDeviceGetAttribute(&value, 0, 0) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuDeviceGetAttribute(&value, 10, 7) == CUDA_ERROR_INVALID_DEVICE);
	OK(cuDeviceComputeCapability(&major, &minor, 0));
	EXPECT(major == 8 && minor == 6);
	OK(cuDeviceGetProperties(&prop, 0));
	EXPECT(prop.SIMDWidth == 32 && prop.maxThreadsDim[2] == 64);
	OK(cuDeviceGetUuid_v2(&uuid, 0));
	EXPECT(memcmp(uuid.bytes, "zluda-convert", 13) == 0);

	/* The CUDART_INTERFACE-style primary context handle before it is retained. */
	unsigned flags = 1;
	int active = 1;
	OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
	EXPECT(flags == 0 && active == 0);
	OK(cuDevicePrimaryCtxRetain(&primary, 0));
	OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
	EXPECT(active == 1);
	OK(cuCtxSetCurrent(primary));
	OK(cuCtxGetStreamPriorityRange(&least, &greatest));
	EXPECT(least == 0 && greatest < 0);
}

/* Each thread creates, pushes and pops its own contexts; the stacks must not mix. */
static void *
context_thread(void *arg)
{
	CUcontext mine, popped = NULL, current = NULL;
	CUdevice dev = -1;
	size_t limit = 0;

	EXPECT(cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == NULL);
	OK(cuCtxCreate_v2(&mine, 0, 0));
	OK(cuCtxGetCurrent(&current));
	EXPECT(current == mine);
	OK(cuCtxGetDevice(&dev));
	EXPECT(dev == 0);
	OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, (size_t)(uintptr_t)arg));
	OK(cuCtxGetLimit(&limit, CU_LIMIT_MALLOC_HEAP_SIZE));
	EXPECT(limit == (size_t)(uintptr_t)arg);
	OK(cuCtxPushCurrent_v2(primary));
	OK(cuCtxGetCurrent(&current));
	EXPECT(current == primary);
	OK(cuCtxPopCurrent_v2(&popped));
	EXPECT(popped == primary);
	OK(cuCtxSynchronize());
	OK(cuCtxPopCurrent_v2(&popped));
	EXPECT(popped == mine);
	EXPECT(cuCtxPopCurrent_v2(&popped) == CUDA_ERROR_INVALID_CONTEXT);
	OK(cuCtxDestroy_v2(mine));
	EXPECT(cuCtxDestroy_v2(mine) == CUDA_ERROR_INVALID_CONTEXT);
	EXPECT(cuCtxPushCurrent_v2(mine) == CUDA_ERROR_INVALID_CONTEXT);
	return NULL;
}

static void
test_contexts(void)
{
	pthread_t threads[4];
	CUcontext current;

	for (uintptr_t i = 0; i < 4; i++)
		pthread_create(&threads[i], NULL, context_thread, (void *)(1000 + i));
	for (int i = 0; i < 4; i++)
		pthread_join(threads[i], NULL);
	OK(cuCtxGetCurrent(&current));
	EXPECT(current == primary);
	EXPECT(cuCtxDestroy_v2(primary) == CUDA_ERROR_INVALID_CONTEXT);
}

static void
record_order(void *arg)
{
	int *log = arg;
	log[1 + log[0]] = log[0];
	log[0]++;
}

static void
test_streams_and_events(void)
{
	CUstream s, s2;
	CUevent a, b, untimed;
	int log[1 + 64] = { 0 };
	float ms = -1;
	unsigned flags;
	int priority;

	/* No stream is ever capturing. */
	int capture = -1;
	unsigned long long capture_id = 7;
	size_t dependencies = 7;
	OK(cuStreamIsCapturing(NULL, &capture));
	EXPECT(capture == 0);
	capture = -1;
	OK(cuStreamGetCaptureInfo_v3(NULL, &capture, &capture_id, NULL, NULL, NULL, &dependencies));
	EXPECT(capture == 0 && capture_id == 0 && dependencies == 0);
	EXPECT(cuStreamGetCaptureInfo_v2(NULL, NULL, NULL, NULL, NULL, NULL) == CUDA_ERROR_INVALID_VALUE);

	/* Query-only limits, as a context that is no CIG one answers them on an H200. */
	size_t limit = 0;
	OK(cuCtxGetLimit(&limit, CU_LIMIT_SHMEM_SIZE));
	EXPECT(limit == 99 << 10);
	limit = 1;
	OK(cuCtxGetLimit(&limit, CU_LIMIT_CIG_ENABLED));
	EXPECT(limit == 0);
	EXPECT(cuCtxGetLimit(&limit, CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED) == CUDA_ERROR_UNSUPPORTED_LIMIT);
	EXPECT(cuCtxGetLimit(&limit, CU_LIMIT_MAX) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuCtxSetLimit(CU_LIMIT_SHMEM_SIZE, 1) == CUDA_ERROR_NOT_PERMITTED);
	EXPECT(cuCtxSetLimit(CU_LIMIT_CIG_ENABLED, 1) == CUDA_ERROR_NOT_PERMITTED);

	OK(cuStreamCreateWithPriority(&s, CU_STREAM_NON_BLOCKING, -100));
	OK(cuStreamGetPriority(s, &priority));
	EXPECT(priority == -5);
	OK(cuStreamGetFlags(s, &flags));
	EXPECT(flags == CU_STREAM_NON_BLOCKING);
	OK(cuStreamCreate(&s2, 0));
	OK(cuEventCreate(&a, 0));
	OK(cuEventCreate(&b, 0));
	OK(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
	EXPECT(cuEventElapsedTime_v2(&ms, a, b) == CUDA_ERROR_INVALID_HANDLE);  /* never recorded */
	OK(cuEventQuery(a));

	OK(cuEventRecord(a, s));
	for (int i = 0; i < 32; i++)
		OK(cuLaunchHostFunc(s, record_order, log));
	OK(cuEventRecord(b, s));
	/* s2 waits for b, then adds to the same log: it must come after all 32. */
	OK(cuStreamWaitEvent(s2, b, 0));
	OK(cuLaunchHostFunc(s2, record_order, log));
	OK(cuStreamSynchronize(s2));
	EXPECT(log[0] == 33);
	for (int i = 0; i < 33; i++)
		EXPECT(log[1 + i] == i);
	OK(cuEventSynchronize(b));
	OK(cuEventElapsedTime_v2(&ms, a, b));
	EXPECT(ms >= 0);
	OK(cuEventRecord(untimed, s));
	EXPECT(cuEventElapsedTime_v2(&ms, a, untimed) == CUDA_ERROR_INVALID_HANDLE);

	/* The legacy stream waits for the blocking stream s2. */
	log[0] = 0;
	OK(cuLaunchHostFunc(s2, record_order, log));
	OK(cuLaunchHostFunc(NULL, record_order, log));
	OK(cuStreamSynchronize(NULL));
	EXPECT(log[0] == 2 && log[1] == 0 && log[2] == 1);

	/* Per-thread default stream entry points take NULL as the thread's stream. */
	OK(cuLaunchHostFunc_ptsz(NULL, record_order, log));
	OK(cuStreamSynchronize_ptsz(NULL));
	EXPECT(log[0] == 3);
	CUcontext ctx;
	OK(cuStreamGetCtx(CU_STREAM_PER_THREAD, &ctx));
	EXPECT(ctx == primary);

	/* Bad handles give errors, not crashes. */
	EXPECT(cuStreamQuery((CUstream)&log) == CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuEventQuery((CUevent)&log) == CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuStreamWaitEvent(s, (CUevent)&log, 0) == CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuStreamDestroy_v2(CU_STREAM_LEGACY) == CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuStreamCreate(NULL, 0) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuStreamCreate(&s, 8) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuLaunchHostFunc(s, NULL, NULL) == CUDA_ERROR_INVALID_VALUE);

	OK(cuEventDestroy_v2(a));
	OK(cuEventDestroy_v2(b));
	OK(cuEventDestroy_v2(untimed));
	EXPECT(cuEventDestroy_v2(a) == CUDA_ERROR_INVALID_HANDLE);
	OK(cuStreamDestroy_v2(s));
	OK(cuStreamDestroy_v2(s2));
	EXPECT(cuStreamDestroy_v2(s) == CUDA_ERROR_INVALID_HANDLE);
}

/* Event timestamps follow queue order. */
static void
test_event_timing_monotonic(void)
{
	CUstream s;
	CUevent e[8];
	float ms;

	OK(cuStreamCreate(&s, 0));
	for (int i = 0; i < 8; i++) {
		OK(cuEventCreate(&e[i], 0));
		OK(cuEventRecord(e[i], s));
	}
	OK(cuStreamSynchronize(s));
	for (int i = 1; i < 8; i++) {
		OK(cuEventElapsedTime_v2(&ms, e[i - 1], e[i]));
		EXPECT(ms >= 0);
	}
	for (int i = 0; i < 8; i++)
		OK(cuEventDestroy_v2(e[i]));
	OK(cuStreamDestroy_v2(s));
}

static void
test_memory(void)
{
	enum { N = 4096 };
	unsigned char ref[N], out[N];
	CUdeviceptr d, d2, base;
	size_t size, free_bytes, total_bytes;
	CUstream s;

	for (int i = 0; i < N; i++)
		ref[i] = (unsigned char)(i * 13 + 1);
	OK(cuMemAlloc_v2(&d, N));
	OK(cuMemAlloc_v2(&d2, N));
	EXPECT(d % 256 == 0);
	OK(cuMemcpyHtoD_v2(d, ref, N));
	OK(cuMemcpyDtoD_v2(d2, d, N));
	memset(out, 0, N);
	OK(cuMemcpyDtoH_v2(out, d2, N));
	EXPECT(memcmp(ref, out, N) == 0);
	OK(cuMemcpy_ptds(d, d2, N));
	OK(cuMemGetAddressRange_v2(&base, &size, d + 100));
	EXPECT(base == d && size == N);
	OK(cuMemGetInfo_v2(&free_bytes, &total_bytes));
	EXPECT(total_bytes > 0);

	/* Async copies and fills, 8/16/32-bit, against a reference. */
	OK(cuStreamCreate(&s, 0));
	OK(cuMemsetD8Async(d, 0xab, N, s));
	OK(cuMemsetD16Async(d + 2, 0x1234, 10, s));
	OK(cuMemsetD32Async_ptsz(d + 64, 0xdeadbeef, 4, s));
	OK(cuMemcpyDtoHAsync_v2(out, d, N, s));
	OK(cuStreamSynchronize(s));
	memset(ref, 0xab, N);
	for (int i = 0; i < 10; i++)
		memcpy(ref + 2 + 2 * i, &(uint16_t){ 0x1234 }, 2);
	for (int i = 0; i < 4; i++)
		memcpy(ref + 64 + 4 * i, &(uint32_t){ 0xdeadbeef }, 4);
	EXPECT(memcmp(ref, out, N) == 0);

	/* 2D fills leave the gaps between rows alone. */
	OK(cuMemsetD8_v2(d, 0, N));
	OK(cuMemsetD2D32_v2(d, 64, 7, 3, 5));
	OK(cuMemcpyDtoH_v2(out, d, N));
	memset(ref, 0, N);
	for (int y = 0; y < 5; y++)
		for (int x = 0; x < 3; x++)
			memcpy(ref + 64 * y + 4 * x, &(uint32_t){ 7 }, 4);
	EXPECT(memcmp(ref, out, N) == 0);

	/* A 2D sub-rectangle, then a 3D box, against loops over the same indices. */
	unsigned char src[8][40], dst2d[16][32];
	for (int y = 0; y < 8; y++)
		for (int x = 0; x < 40; x++)
			src[y][x] = (unsigned char)(y * 40 + x);
	OK(cuMemsetD8_v2(d, 0xee, N));
	CUDA_MEMCPY2D c2 = {
		.srcXInBytes = 3, .srcY = 1, .srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = src,
		.srcPitch = 40, .dstXInBytes = 5, .dstY = 2, .dstMemoryType = CU_MEMORYTYPE_DEVICE,
		.dstDevice = d, .dstPitch = 32, .WidthInBytes = 20, .Height = 6,
	};
	OK(cuMemcpy2D_v2(&c2));
	OK(cuMemcpyDtoH_v2(dst2d, d, sizeof dst2d));
	bool same = true;
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 32; x++) {
			bool inside = y >= 2 && y < 8 && x >= 5 && x < 25;
			same &= dst2d[y][x] == (inside ? src[y - 2 + 1][x - 5 + 3] : 0xee);
		}
	EXPECT(same);
	c2.WidthInBytes = 41;  /* wider than the source pitch */
	EXPECT(cuMemcpy2D_v2(&c2) == CUDA_ERROR_INVALID_VALUE);

	unsigned char box[4][6][10], back[4][6][10];
	for (int z = 0; z < 4; z++)
		for (int y = 0; y < 6; y++)
			for (int x = 0; x < 10; x++)
				box[z][y][x] = (unsigned char)(z * 60 + y * 10 + x);
	CUDA_MEMCPY3D c3 = {
		.srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = box, .srcPitch = 10, .srcHeight = 6,
		.dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = d, .dstPitch = 16, .dstHeight = 8,
		.WidthInBytes = 10, .Height = 6, .Depth = 4,
	};
	OK(cuMemcpy3DAsync_v2(&c3, s));
	CUDA_MEMCPY3D r3 = {
		.srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = d, .srcPitch = 16, .srcHeight = 8,
		.dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = back, .dstPitch = 10, .dstHeight = 6,
		.WidthInBytes = 10, .Height = 6, .Depth = 4,
	};
	OK(cuMemcpy3DAsync_v2(&r3, s));
	OK(cuStreamSynchronize(s));
	EXPECT(memcmp(box, back, sizeof box) == 0);
	c3.dstPitch = 64;  /* 4 slices of 8 rows of 64 bytes pass the end of the allocation */
	c3.dstHeight = 32;
	EXPECT(cuMemcpy3D_v2(&c3) == CUDA_ERROR_INVALID_VALUE);

	/* Pitched, host and managed allocations, and what pointers say about themselves. */
	CUdeviceptr pitched, managed;
	size_t pitch;
	void *host;
	unsigned type = 0, host_flags = 0;
	CUdeviceptr mapped;
	OK(cuMemAllocPitch_v2(&pitched, &pitch, 100, 10, 4));
	EXPECT(pitch >= 100 && pitch % 32 == 0);
	EXPECT(cuMemAllocPitch_v2(&pitched, &pitch, 100, 10, 3) == CUDA_ERROR_INVALID_VALUE);
	OK(cuMemHostAlloc(&host, 256, CU_MEMHOSTALLOC_DEVICEMAP));
	OK(cuMemHostGetFlags(&host_flags, host));
	EXPECT(host_flags == CU_MEMHOSTALLOC_DEVICEMAP);
	OK(cuMemHostGetDevicePointer_v2(&mapped, host, 0));
	EXPECT(mapped == (CUdeviceptr)(uintptr_t)host);
	OK(cuMemAllocManaged(&managed, 64, CU_MEM_ATTACH_GLOBAL));
	OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
	EXPECT(type == CU_MEMORYTYPE_DEVICE);
	OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, mapped));
	EXPECT(type == CU_MEMORYTYPE_HOST);
	OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_IS_MANAGED, managed));
	EXPECT(type == 1);
	CUcontext owner = NULL;
	OK(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, d));
	EXPECT(owner == primary);
	EXPECT(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)ref) ==
	       CUDA_ERROR_INVALID_VALUE);
	CUpointer_attribute which[2] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL };
	int ordinal = 7;
	type = 9;
	void *data[2] = { &type, &ordinal };
	OK(cuPointerGetAttributes(2, which, data, (CUdeviceptr)(uintptr_t)ref));
	EXPECT(type == 0 && ordinal == -2);

	/* Errors: NULL, unknown and out-of-range pointers. */
	EXPECT(cuMemAlloc_v2(&d2, 0) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemAlloc_v2(NULL, 16) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemcpyHtoD_v2(d, NULL, 16) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemcpyHtoD_v2(d + N - 8, ref, 16) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemcpyDtoH_v2(out, 0x1000, 16) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemsetD32_v2(d + 1, 0, 4) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemFree_v2(0x1000) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemFreeHost((void *)(uintptr_t)d) == CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemGetAddressRange_v2(&base, &size, 0x1000) == CUDA_ERROR_NOT_FOUND);
	OK(cuMemFree_v2(0));

	OK(cuStreamDestroy_v2(s));
	OK(cuMemFree_v2(managed));
	OK(cuMemFreeHost(host));
	OK(cuMemFree_v2(pitched));
	OK(cuMemFree_v2(d2));
	OK(cuMemFree_v2(d));
	EXPECT(cuMemFree_v2(d) == CUDA_ERROR_INVALID_VALUE);
}

/* Every look-up cudart 13 makes finds a function; names the stub lacks find nothing. */
static void
test_proc_address(const char *lookups)
{
	FILE *f = fopen(lookups, "r");
	char line[256], name[128];
	int version, lines = 0, status;
	unsigned long long flags;
	void *fn;

	EXPECT(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "GPA %127s ver=%d flags=%llu", name, &version, &flags) != 3)
			continue;
		lines++;
		OK(cuGetProcAddress_v2(name, &fn, version, flags, &status));
		EXPECT(fn != NULL && status == CU_GET_PROC_ADDRESS_SUCCESS);
		if (!fn)
			fprintf(stderr, "  no function for %s@%d flags %llu\n", name, version, flags);
	}
	fclose(f);
	EXPECT(lines == 439);
	EXPECT(cuGetProcAddress_v2("", &fn, 0, 0, &status) == CUDA_ERROR_NOT_FOUND);
	EXPECT(fn == NULL && status == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
	EXPECT(cuGetProcAddress_v2("cuMemAlloc_v2", &fn, 13000, 0, &status) == CUDA_ERROR_NOT_FOUND);
	EXPECT(cuGetProcAddress_v2("cuMemAlloc", &fn, 1000, 0, &status) == CUDA_ERROR_NOT_FOUND);
	EXPECT(status == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
	OK(cuGetProcAddress_v2("cuMemAlloc", &fn, 3020, 0, &status));
	EXPECT(fn == (void *)cuMemAlloc_v2);
	OK(cuGetProcAddress_v2("cuMemcpyHtoD", &fn, 7000, 2, &status));
	EXPECT(fn == (void *)cuMemcpyHtoD_v2_ptds);
	OK(cuGetProcAddress("cuGetProcAddress", &fn, 12000, 0));
	EXPECT(fn == (void *)cuGetProcAddress_v2);
	/* A known function the stub does not implement answers "not supported". */
	OK(cuGetProcAddress_v2("cuGraphAddExternalSemaphoresSignalNode", &fn, 12000, 0, &status));
	EXPECT(fn && ((CUresult(*)(void))fn)() == CUDA_ERROR_NOT_SUPPORTED);
}

static void
test_export_tables(void)
{
	static const CUuuid integrity = { { (char)0xd4, 0x08, 0x20, 0x55, (char)0xbd, (char)0xe6, 0x70,
	                                    0x4b, (char)0x8d, 0x34, (char)0xba, 0x12, 0x3c, 0x66,
	                                    (char)0xe1, (char)0xf2 } };
	static const CUuuid cls = { { (char)0xc6, (char)0x93, 0x33, 0x6e, 0x11, 0x21, (char)0xdf, 0x11,
	                              (char)0xa8, (char)0xc3, 0x68, (char)0xf3, 0x55, (char)0xd8,
	                              (char)0x95, (char)0x93 } };
	static const CUuuid bogus = { { 1, 2, 3 } };
	const void *table, *again;
	uint64_t out[2];

	OK(cuGetExportTable(&table, &integrity));
	OK(cuGetExportTable(&again, &integrity));
	EXPECT(table == again);
	EXPECT(((const uintptr_t *)table)[0] == 24);
	CUresult (*check)(uint32_t, uint64_t, uint64_t *) =
		(CUresult(*)(uint32_t, uint64_t, uint64_t *))((void *const *)table)[1];
	OK(check(13000, 1764000000, out));
	EXPECT(out[0] == 0x3341181C03CB675Cu && out[1] == 0x8ED383AA1F4CD1E8u);
	OK(check(13001, 1764000000, out));
	EXPECT(out[0] == 0x1841181C03CB675Cu && out[1] == 0x8ED383AA1F4CD1E8u);
	EXPECT(cuGetExportTable(&table, &bogus) == CUDA_ERROR_INVALID_VALUE);

	/* Context-local storage returns what was put, per context. */
	int key, value;
	void *got = NULL;
	OK(cuGetExportTable(&table, &cls));
	CUresult (*put)(CUcontext, void *, void *, void (*)(CUcontext, void *, void *)) =
		(CUresult(*)(CUcontext, void *, void *, void (*)(CUcontext, void *, void *)))((void *const *)table)[0];
	CUresult (*del)(CUcontext, void *) = (CUresult(*)(CUcontext, void *))((void *const *)table)[1];
	CUresult (*get)(void **, CUcontext, void *) =
		(CUresult(*)(void **, CUcontext, void *))((void *const *)table)[2];
	EXPECT(get(&got, primary, &key) != CUDA_SUCCESS);
	OK(put(NULL, &key, &value, NULL));
	OK(get(&got, primary, &key));
	EXPECT(got == &value);
	OK(del(primary, &key));
	EXPECT(get(&got, NULL, &key) != CUDA_SUCCESS);

	/* TOOLS_TLS [2]: the tools' per-thread data, NULL as an H200 gives it. */
	static const CUuuid tools_tls = { { 0x42, (char)0xd8, 0x5a, (char)0x81, 0x23, (char)0xf6,
	                                    (char)0xcb, 0x47, (char)0x82, (char)0x98, (char)0xf6,
	                                    (char)0xe7, (char)0x8a, 0x3a, (char)0xec, (char)0xdc } };
	void *tls_data = &key;
	OK(cuGetExportTable(&table, &tools_tls));
	EXPECT(((const uintptr_t *)table)[0] == 24);
	OK(((CUresult(*)(void **))((void *const *)table)[2])(&tls_data));
	EXPECT(tls_data == NULL);

	/* cuBLAS's table: the three slots it calls answer 0 or NULL, as an H200's do. */
	static const CUuuid streams = { { 0x21, 0x31, (char)0x8c, 0x60, (char)0x97, 0x14, 0x32, 0x48,
	                                  (char)0x8c, (char)0xa6, 0x41, (char)0xff, 0x73, 0x24,
	                                  (char)0xc8, (char)0xf2 } };
	uint64_t context_key = 1, identity = 1;
	void *stream = &key;
	OK(cuGetExportTable(&table, &streams));
	EXPECT(((const uintptr_t *)table)[0] == 93 * sizeof(void *));
	CUresult (*key_of)(CUcontext, uint64_t *) = (CUresult(*)(CUcontext, uint64_t *))((void *const *)table)[4];
	CUresult (*stream_of)(CUcontext, CUstream, void **, int) =
		(CUresult(*)(CUcontext, CUstream, void **, int))((void *const *)table)[51];
	CUresult (*identity_of)(CUcontext, const void *, uint64_t *) =
		(CUresult(*)(CUcontext, const void *, uint64_t *))((void *const *)table)[39];
	OK(key_of(primary, &context_key));
	OK(stream_of(primary, (CUstream)(uintptr_t)1 /* CU_STREAM_LEGACY */, &stream, 0));
	OK(identity_of(primary, stream, &identity));
	EXPECT(context_key == 0 && stream == NULL && identity == 0);
	EXPECT(stream_of(primary, NULL, NULL, 0) == CUDA_ERROR_INVALID_VALUE);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s cudart13-lookups.txt\n", argv[0]);
		return 2;
	}
	test_exports_sorted();
	test_before_init();
	test_devices();
	test_contexts();
	test_streams_and_events();
	test_event_timing_monotonic();
	test_memory();
	test_proc_address(argv[1]);
	test_export_tables();
	OK(cuDevicePrimaryCtxRelease_v2(0));
	EXPECT(cuDevicePrimaryCtxRelease_v2(0) == CUDA_ERROR_INVALID_CONTEXT);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures != 0;
}
