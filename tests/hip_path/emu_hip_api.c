/* The emulator's HIP runtime called directly, for what the stub's HIP driver does not show:
 * the device it reports, memory accounting, event timing, callbacks, refused code objects
 * and launches, and the lost context after a kernel faults. Declared with hip_api.h's
 * prototypes and linked against libzc-emu-hip.so.
 *
 * usage: emu_hip_api GFX1100_CODE_OBJECT GFX1030_CODE_OBJECT (hip_probe.cu's, converted)
 * Prints "ok emu_hip_api" or a FAIL line per problem. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hip_api.h"

#define DECLARE(name, params) hipError_t name params;
HIP_FUNCTIONS(DECLARE)
HIP_OPTIONAL_FUNCTIONS_6(DECLARE)
#undef DECLARE

static int failures;

#define EXPECT(condition)                                                      \
	do {                                                                       \
		if (!(condition)) {                                                    \
			printf("FAIL emu_hip_api line %d: %s\n", __LINE__, #condition);    \
			failures++;                                                        \
		}                                                                      \
	} while (0)

static void *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	long size;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    !(data = malloc((size_t)size)) || fread(data, 1, (size_t)size, f) != (size_t)size) {
		printf("FAIL emu_hip_api: cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	return data;
}

static int called;
static void callback(hipStream_t stream, hipError_t status, void *arg)
{
	called = status == 0 && arg == &called;
}

int main(int argc, char **argv)
{
	_Alignas(16) char properties[ZC_HIP_PROPS_BUFFER_SIZE];
	char name[256];
	int value, count;
	size_t free_bytes, total, size;
	void *p, *q;

	if (argc != 3) {
		fprintf(stderr, "usage: emu_hip_api GFX1100_CODE_OBJECT GFX1030_CODE_OBJECT\n");
		return 2;
	}
	setenv("ZC_EMU_PROCESSOR", "gfx1100", 1);
	unsetenv("ZC_EMU_HIP_LOG");

	/* The device: a Radeon RX 7900 XTX. */
	EXPECT(hipInit(0) == 0);
	EXPECT(hipGetDeviceCount(&count) == 0 && count == 1);
	EXPECT(hipSetDevice(1) == 101);
	EXPECT(hipDeviceGetName(name, sizeof name, 0) == 0 && strcmp(name, "AMD Radeon RX 7900 XTX") == 0);
	EXPECT(hipDeviceTotalMem(&total, 0) == 0 && total == (size_t)24 << 30);
	EXPECT(hipDeviceGetAttribute(&value, hipDeviceAttributeComputeCapabilityMajor, 0) == 0 && value == 11);
	EXPECT(hipDeviceGetAttribute(&value, hipDeviceAttributeComputeCapabilityMinor, 0) == 0 && value == 0);
	EXPECT(hipDeviceGetAttribute(&value, hipDeviceAttributeMultiprocessorCount, 0) == 0 && value == 96);
	EXPECT(hipDeviceGetAttribute(&value, hipDeviceAttributeMemoryBusWidth, 0) == 0 && value == 384);
	EXPECT(hipDeviceGetAttribute(&value, hipDeviceAttributeMaxSharedMemoryPerBlock, 0) == 0 &&
	       value == 65536);
	EXPECT(hipGetDevicePropertiesR0600((hipDeviceProp_tR0600 *)(void *)properties, 0) == 0 &&
	       strcmp(properties, "AMD Radeon RX 7900 XTX") == 0 &&
	       strcmp(properties + ZC_HIP_PROPS_R0600_GCN_ARCH_NAME, "gfx1100") == 0);

	/* Memory: aligned, counted against the card's, given back. */
	EXPECT(hipMemGetInfo(&free_bytes, &total) == 0 && free_bytes == total);
	EXPECT(hipMalloc(&p, 1000) == 0 && p && (uintptr_t)p % 256 == 0);
	EXPECT(hipMemGetInfo(&free_bytes, &total) == 0 && free_bytes == total - 1024);
	EXPECT(hipMalloc(&q, total) == 2);
	EXPECT(hipMalloc(&q, 0) == 0 && q == NULL);
	EXPECT(hipHostMalloc(&q, 100, hipHostMallocMapped) == 0 && q);
	EXPECT(hipMemGetInfo(&free_bytes, &total) == 0 && free_bytes == total - 1024);
	EXPECT(hipMemsetD32Async(p, 0x01020304, 250, NULL) == 0 && ((int *)p)[249] == 0x01020304);
	EXPECT(hipMemcpy2DAsync(q, 10, p, 20, 8, 3, hipMemcpyDefault, NULL) == 0 &&
	       ((int *)q)[5] == 0x01020304);
	EXPECT(hipFree((char *)p + 1) == 1);
	EXPECT(hipFree(p) == 0 && hipHostFree(q) == 0);
	EXPECT(hipMemGetInfo(&free_bytes, &total) == 0 && free_bytes == total);

	/* Streams and events: done at the call; timing is real. */
	hipStream_t stream;
	hipEvent_t start, end, untimed;
	float ms = -1;
	EXPECT(hipStreamCreateWithPriority(&stream, 0, 0) == 0);
	EXPECT(hipStreamAddCallback(stream, callback, &called, 0) == 0 && called);
	EXPECT(hipStreamQuery(stream) == 0);
	EXPECT(hipEventCreateWithFlags(&start, 0) == 0 && hipEventCreateWithFlags(&end, 0) == 0);
	EXPECT(hipEventCreateWithFlags(&untimed, 2) == 0);
	EXPECT(hipEventElapsedTime(&ms, start, end) == 400);
	EXPECT(hipEventRecord(start, stream) == 0);
	nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
	EXPECT(hipEventRecord(end, stream) == 0 && hipEventRecord(untimed, stream) == 0);
	EXPECT(hipEventQuery(end) == 0 && hipEventSynchronize(end) == 0);
	EXPECT(hipEventElapsedTime(&ms, start, end) == 0 && ms >= 19 && ms < 2000);
	EXPECT(hipEventElapsedTime(&ms, start, untimed) == 400);
	EXPECT(hipEventDestroy(start) == 0 && hipEventDestroy(end) == 0 && hipEventDestroy(untimed) == 0);

	/* Code objects: not one, another processor's, and the device's. */
	hipModule_t module;
	hipFunction_t function;
	hipDeviceptr_t global;
	void *gfx1100 = read_file(argv[1]), *gfx1030 = read_file(argv[2]);
	const char *kernel = "_Z5probePiif4Paird";
	static const char junk[64] = "not a code object";
	EXPECT(hipModuleLoadData(&module, junk) == 200);
	EXPECT(hipModuleLoadData(&module, gfx1030) == 209);
	EXPECT(hipModuleLoadData(&module, gfx1100) == 0);
	free(gfx1100);  /* the module keeps its own copy */
	free(gfx1030);
	EXPECT(hipModuleGetFunction(&function, module, "no_such_kernel") == 500);
	EXPECT(hipModuleGetGlobal(&global, &size, module, "no_such_variable") == 500);
	EXPECT(hipModuleGetGlobal(&global, &size, module, "scale") == 0 && global && size == 16);
	EXPECT(hipModuleGetFunction(&function, module, kernel) == 0);

	/* Arguments through params cannot be laid out: refused, and nothing is lost. */
	struct { int *out; int n; float f; int first, second; double d; } args = { NULL, 200, 2.5f, -1, 9, 0.125 };
	void *params[] = { &args.out, &args.n, &args.f, &args.first, &args.d };
	EXPECT(hipModuleLaunchKernel(function, 1, 1, 1, 64, 1, 1, 256, stream, params, NULL) == 1);
	EXPECT(hipSetDevice(0) == 0);

	/* A kernel that writes where no memory is: the launch is accepted, and every call after it
	 * says the context is lost by an illegal address, as on a GPU, where the fault shows at
	 * the next synchronization. */
	size_t args_size = sizeof args;
	args.out = (int *)(uintptr_t)4096;
	void *extra[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &args_size,
	                  HIP_LAUNCH_PARAM_END };
	EXPECT(hipModuleLaunchKernel(function, 1, 1, 1, 64, 1, 1, 256, stream, NULL, extra) == 0);
	EXPECT(hipMalloc(&p, 16) == 700);
	EXPECT(hipStreamSynchronize(stream) == 700);
	EXPECT(hipModuleLaunchKernel(function, 1, 1, 1, 64, 1, 1, 256, stream, NULL, extra) == 700);

	if (!failures)
		printf("ok emu_hip_api\n");
	return failures != 0;
}
