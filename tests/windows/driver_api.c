/* A Windows program of the project's own that uses the CUDA driver API as cudart does on
 * Windows: nvcuda.dll loaded by name (the loader finds the one beside the program first),
 * its functions through cuGetProcAddress_v2, the private tables through cuGetExportTable,
 * and the fatbin nvcc made in .nv_fatb (embed_fatbin.h). Built with mingw, converted by
 * zluda-convert, run under wine.
 *   driver_api no-device   no driver finds a device: what needs none works, cuInit fails
 *                          with CUDA_ERROR_NO_DEVICE
 *   driver_api run         saxpy runs on the device and is checked: from the program's own
 *                          fatbin loaded as cuModuleLoadData takes it, then from the
 *                          wrapper in kernels.dll loaded as cudart 13 does
 *                          (cuLibraryLoadData), each found in its own file's AOT image;
 *                          then reverse_blocks (shared memory, a barrier, a warp shuffle,
 *                          f16) and reverse_tiles (shared memory and a barrier only: rounds
 *                          on the CPU driver), checked against the same computed here, and
 *                          say (device printf, whose line the test matches)
 *   driver_api fault       store_one through an address no memory backs: the launch fails
 *                          with CUDA_ERROR_ILLEGAL_ADDRESS, and the context with it */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "embed_fatbin.h"

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_FILE_NOT_FOUND = 301,
	CUDA_ERROR_INVALID_HANDLE = 400,
	CUDA_ERROR_ILLEGAL_ADDRESS = 700,
};

static HMODULE driver;
static CUresult (*get_proc_address)(const char *, void **, int, uint64_t, int *);

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("FAIL %s\n", what);
		failures++;
	}
}

/* The driver's function of that name, as cudart 13 asks for it. */
static void *function(const char *name)
{
	void *fn = NULL;
	int status = -1;
	CUresult r = get_proc_address(name, &fn, 13000, 0, &status);

	if (r != CUDA_SUCCESS || !fn) {
		printf("FAIL cuGetProcAddress_v2(%s) = %d, status %d\n", name, r, status);
		ExitProcess(1);
	}
	return fn;
}
#define CALL(name, type) ((CUresult(*) type)function(#name))

/* HYBRID_CUDART, Windows cudart's own table: it names the hybrid runtime library to load,
 * which NVIDIA's driver installs and this machine lacks. */
static void check_hybrid_cudart(void)
{
	static const uint8_t guid[16] = {0xdd, 0x9e, 0x98, 0xa4, 0xf4, 0x10, 0x48, 0x44,
	                                 0x99, 0xb0, 0xe2, 0xae, 0xb7, 0xb4, 0x32, 0xb5};
	const uintptr_t *table = NULL;
	void *fn = NULL;
	size_t token = 0;

	check(CALL(cuGetExportTable, (const void **, const void *))((const void **)&table, guid) ==
	          CUDA_SUCCESS && table && table[0] == 3 * sizeof(void *),
	      "cuGetExportTable gives HYBRID_CUDART");
	if (!table)
		return;
	CUresult (*load)(const char *, void **, size_t *) =
		(CUresult(*)(const char *, void **, size_t *))table[1];
	CUresult (*release)(size_t) = (CUresult(*)(size_t))table[2];
	check(load("nvcudart_hybrid64.dll", &fn, &token) == CUDA_ERROR_FILE_NOT_FOUND && !token,
	      "HYBRID_CUDART[1] without NVIDIA's hybrid runtime");
	check(load("cudart64_13.dll", &fn, &token) == CUDA_ERROR_INVALID_VALUE,
	      "HYBRID_CUDART[1] of another library");
	check(release(302100128) == CUDA_SUCCESS && release(1) == CUDA_ERROR_INVALID_HANDLE,
	      "HYBRID_CUDART[2]");
}

/* The nvcuda.dll loaded is the one beside the program, and what cudart asks before any
 * device exists answers as NVIDIA's does. */
static void check_without_device(void)
{
	char program[MAX_PATH], library[MAX_PATH];
	int version = 0;
	const uintptr_t *integrity = NULL;
	static const uint8_t integrity_guid[16] = {0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
	                                           0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2};
	uint64_t answer[2] = {0, 0};

	GetModuleFileNameA(NULL, program, MAX_PATH);
	GetModuleFileNameA(driver, library, MAX_PATH);
	*strrchr(program, '\\') = 0;
	*strrchr(library, '\\') = 0;
	check(strcmp(program, library) == 0, "nvcuda.dll is the one beside the program");
	check(CALL(cuDriverGetVersion, (int *))(&version) == CUDA_SUCCESS && version == 13000,
	      "cuDriverGetVersion is 13000");
	/* the exported entry point, forward.S's trampoline, reaches the same function */
	version = 0;
	check(((CUresult(*)(int *))(void *)GetProcAddress(driver, "cuDriverGetVersion"))(&version) ==
	          CUDA_SUCCESS && version == 13000, "the exported cuDriverGetVersion is 13000");
	check(CALL(cuGetExportTable, (const void **, const void *))((const void **)&integrity,
	                                                              integrity_guid) == CUDA_SUCCESS &&
	          integrity && integrity[0] == 3 * sizeof(void *),
	      "cuGetExportTable gives INTEGRITY_CHECK");
	if (integrity)
		((CUresult(*)(uint32_t, uint64_t, uint64_t *))integrity[1])(13000, 1764000000, answer);
	check(answer[0] == 0x3341181C03CB675Cull && answer[1] == 0x8ED383AA1F4CD1E8ull,
	      "INTEGRITY_CHECK's answer for 13000");
	check_hybrid_cudart();
}

/* saxpy on 1000 elements, launched as kernel (a CUfunction or a CUkernel), checked. */
static void run_saxpy(void *kernel, void *context, const char *where)
{
	enum { N = 1000 };
	static float x[N], y[N];
	float a = 2.5f;
	int n = N;
	CUdeviceptr dx = 0, dy = 0;

	for (int i = 0; i < N; i++) {
		x[i] = (float)i;
		y[i] = (float)(N - i);
	}
	check(CALL(cuMemAlloc, (CUdeviceptr *, size_t))(&dx, sizeof x) == CUDA_SUCCESS &&
	          CALL(cuMemAlloc, (CUdeviceptr *, size_t))(&dy, sizeof y) == CUDA_SUCCESS,
	      "cuMemAlloc");
	check(CALL(cuMemcpyHtoD, (CUdeviceptr, const void *, size_t))(dx, x, sizeof x) == CUDA_SUCCESS &&
	          CALL(cuMemcpyHtoD, (CUdeviceptr, const void *, size_t))(dy, y, sizeof y) ==
	              CUDA_SUCCESS, "cuMemcpyHtoD");
	if (failures)
		return;
	void *params[] = {&a, &dx, &dy, &n};
	check(CALL(cuLaunchKernel, (void *, unsigned, unsigned, unsigned, unsigned, unsigned,
	                            unsigned, unsigned, void *, void **, void **))(
	          kernel, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL) == CUDA_SUCCESS,
	      "cuLaunchKernel");
	/* CUDA 13's cuCtxSynchronize is cuCtxSynchronize_v2, which names the context */
	check(CALL(cuCtxSynchronize, (void *))(context) == CUDA_SUCCESS, "cuCtxSynchronize");
	check(CALL(cuMemcpyDtoH, (void *, CUdeviceptr, size_t))(y, dy, sizeof y) == CUDA_SUCCESS,
	      "cuMemcpyDtoH");
	for (int i = 0; i < N; i++)
		if (y[i] != a * (float)i + (float)(N - i)) {
			printf("FAIL %s: y[%d] = %g, not %g\n", where, i, y[i], a * (float)i + (float)(N - i));
			failures++;
			break;
		}
	check(CALL(cuMemFree, (CUdeviceptr))(dx) == CUDA_SUCCESS &&
	          CALL(cuMemFree, (CUdeviceptr))(dy) == CUDA_SUCCESS, "cuMemFree");
}

/* reverse_blocks (with the shuffle and f16) or reverse_tiles on 4 blocks of 256, checked
 * against the same computed here (mingw's _Float16 conversion, not the converted code's). */
static void run_reverse_blocks(void *module, void *context, const char *name, int shuffles)
{
	enum { N = 1024 };
	static float x[N], y[N];
	void *kernel = NULL;
	CUdeviceptr dx = 0, dy = 0;

	for (int i = 0; i < N; i++)
		x[i] = (float)i * 0.1f + 1.0f / 3.0f;
	check(CALL(cuModuleGetFunction, (void **, void *, const char *))(&kernel, module, name) == CUDA_SUCCESS,
	      name);
	check(CALL(cuMemAlloc, (CUdeviceptr *, size_t))(&dx, sizeof x) == CUDA_SUCCESS &&
	          CALL(cuMemAlloc, (CUdeviceptr *, size_t))(&dy, sizeof y) == CUDA_SUCCESS &&
	          CALL(cuMemcpyHtoD, (CUdeviceptr, const void *, size_t))(dx, x, sizeof x) == CUDA_SUCCESS,
	      "the memory reverse_blocks and reverse_tiles take");
	if (failures)
		return;
	void *params[] = {&dx, &dy};
	check(CALL(cuLaunchKernel, (void *, unsigned, unsigned, unsigned, unsigned, unsigned,
	                            unsigned, unsigned, void *, void **, void **))(
	          kernel, N / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL) == CUDA_SUCCESS &&
	          CALL(cuCtxSynchronize, (void *))(context) == CUDA_SUCCESS &&
	          CALL(cuMemcpyDtoH, (void *, CUdeviceptr, size_t))(y, dy, sizeof y) == CUDA_SUCCESS,
	      name);
	for (int i = 0; i < N && !failures; i++) {
		int block = i / 256, t = i % 256;
		float v = x[block * 256 + 255 - t], neighbour = x[block * 256 + 255 - (t ^ 1)];
		float expected = shuffles ? (float)(_Float16)v + neighbour : v;
		if (y[i] != expected) {
			printf("FAIL %s: y[%d] = %.9g, not %.9g\n", name, i, y[i], expected);
			failures++;
		}
	}
	CALL(cuMemFree, (CUdeviceptr))(dx);
	CALL(cuMemFree, (CUdeviceptr))(dy);
}

/* say's printf reaches stdout when the context synchronizes (the test matches the line). */
static void run_say(void *module, void *context)
{
	void *kernel = NULL;
	int i = -42;
	long long big = 1234567890123ll;
	double x = 2.71828;
	void *params[] = {&i, &big, &x};

	fflush(stdout);
	check(CALL(cuModuleGetFunction, (void **, void *, const char *))(&kernel, module, "say") == CUDA_SUCCESS &&
	          CALL(cuLaunchKernel, (void *, unsigned, unsigned, unsigned, unsigned, unsigned,
	                                unsigned, unsigned, void *, void **, void **))(
	              kernel, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL) == CUDA_SUCCESS &&
	          CALL(cuCtxSynchronize, (void *))(context) == CUDA_SUCCESS,
	      "say runs");
}

static void *make_context(void)
{
	int count = 0, device = 0;
	void *context = NULL;

	check(CALL(cuDeviceGetCount, (int *))(&count) == CUDA_SUCCESS && count > 0, "a device");
	check(CALL(cuDeviceGet, (int *, int))(&device, 0) == CUDA_SUCCESS, "cuDeviceGet");
	check(CALL(cuDevicePrimaryCtxRetain, (void **, int))(&context, device) == CUDA_SUCCESS,
	      "cuDevicePrimaryCtxRetain");
	check(CALL(cuCtxSetCurrent, (void *))(context) == CUDA_SUCCESS, "cuCtxSetCurrent");
	return context;
}

/* store_one to an address in the first page, which no memory backs. */
static void run_fault(void)
{
	void *context = make_context(), *module = NULL, *kernel = NULL;
	CUdeviceptr nowhere = 0x40;

	check(CALL(cuModuleLoadData, (void **, const void *))(&module, fatbin_data) == CUDA_SUCCESS &&
	          CALL(cuModuleGetFunction, (void **, void *, const char *))(&kernel, module,
	                                                                   "store_one") == CUDA_SUCCESS,
	      "store_one");
	if (failures)
		return;
	void *params[] = {&nowhere};
	CUresult launched = CALL(cuLaunchKernel, (void *, unsigned, unsigned, unsigned, unsigned,
	                                          unsigned, unsigned, unsigned, void *, void **,
	                                          void **))(kernel, 1, 1, 1, 1, 1, 1, 0, NULL, params,
	                                                    NULL);
	CUresult synced = CALL(cuCtxSynchronize, (void *))(context);
	check(launched == CUDA_SUCCESS && synced == CUDA_ERROR_ILLEGAL_ADDRESS,
	      "store_one to nowhere fails with CUDA_ERROR_ILLEGAL_ADDRESS");
	check(CALL(cuCtxSynchronize, (void *))(context) == CUDA_ERROR_ILLEGAL_ADDRESS,
	      "the context keeps the error");
}

static void run_on_device(void)
{
	void *context = make_context(), *module = NULL, *library = NULL, *kernel = NULL;
	HMODULE kernels_dll = LoadLibraryA("kernels.dll");
	const void *(*wrapper_of_dll)(void) =
		kernels_dll ? (const void *(*)(void))(void *)GetProcAddress(kernels_dll, "zc_test_fatbin_wrapper")
		            : NULL;

	/* the fatbin itself, as a driver API program hands it: its code is found in the AOT
	 * image of the file the pointer lies in, this program */
	check(CALL(cuModuleLoadData, (void **, const void *))(&module, fatbin_data) == CUDA_SUCCESS,
	      "cuModuleLoadData of the program's fatbin");
	check(CALL(cuModuleGetFunction, (void **, void *, const char *))(&kernel, module, "saxpy") ==
	          CUDA_SUCCESS, "cuModuleGetFunction saxpy");
	if (!failures)
		run_saxpy(kernel, context, "the program's fatbin");
	if (!failures)
		run_reverse_blocks(module, context, "reverse_blocks", 1);
	if (!failures)
		run_reverse_blocks(module, context, "reverse_tiles", 0);
	if (!failures)
		run_say(module, context);
	check(CALL(cuModuleUnload, (void *))(module) == CUDA_SUCCESS, "cuModuleUnload");

	/* the wrapper in kernels.dll, as cudart 13 hands its registered wrappers over: the code
	 * is in that library's AOT image */
	check(wrapper_of_dll != NULL, "kernels.dll and its zc_test_fatbin_wrapper");
	if (failures)
		return;
	check(CALL(cuLibraryLoadData, (void **, const void *, void *, void **, unsigned, void *,
	                               void **, unsigned))(&library, wrapper_of_dll(), NULL, NULL, 0,
	                                                   NULL, NULL, 0) == CUDA_SUCCESS,
	      "cuLibraryLoadData of kernels.dll's wrapper");
	check(CALL(cuLibraryGetKernel, (void **, void *, const char *))(&kernel, library, "saxpy") ==
	          CUDA_SUCCESS, "cuLibraryGetKernel saxpy");
	if (!failures)
		run_saxpy(kernel, context, "kernels.dll");
	check(CALL(cuLibraryUnload, (void *))(library) == CUDA_SUCCESS, "cuLibraryUnload");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	CUresult init;

	if (!(driver = LoadLibraryA("nvcuda.dll"))) {
		printf("FAIL cannot load nvcuda.dll: error %lu\n", GetLastError());
		return 1;
	}
	get_proc_address = (CUresult(*)(const char *, void **, int, uint64_t, int *))(void *)
		GetProcAddress(driver, "cuGetProcAddress_v2");
	if (!get_proc_address) {
		printf("FAIL nvcuda.dll has no cuGetProcAddress_v2\n");
		return 1;
	}
	check_without_device();
	init = CALL(cuInit, (unsigned))(0);
	if (strcmp(mode, "no-device") == 0) {
		check(init == CUDA_ERROR_NO_DEVICE, "cuInit fails with CUDA_ERROR_NO_DEVICE");
	} else if (strcmp(mode, "run") == 0) {
		check(init == CUDA_SUCCESS, "cuInit");
		if (init == CUDA_SUCCESS)
			run_on_device();
	} else if (strcmp(mode, "fault") == 0) {
		check(init == CUDA_SUCCESS, "cuInit");
		if (init == CUDA_SUCCESS)
			run_fault();
	} else {
		printf("usage: driver_api no-device|run|fault\n");
		return 2;
	}
	if (failures)
		return 1;
	printf("ok %s\n", mode);
	return 0;
}
