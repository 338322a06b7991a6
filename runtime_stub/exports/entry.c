/* The entry points cudart reaches first: cuInit with the choice of driver,
 * cuDriverGetVersion, and cuGetProcAddress, which is how cudart finds everything else. */
#include <stdlib.h>
#include <string.h>

#include "forward.h"
#include "find_driver.h"
#include "procaddress.h"

static pthread_once_t selected = PTHREAD_ONCE_INIT;

/* The process's NVIDIA driver, when it was chosen (nvidia_driver.c). */
static bool forwarding;
static char nvidia_driver_path[4096];

static CUresult
start_cuda(void)
{
	CUresult r = zc_cuda_forward(nvidia_driver_path, sizeof nvidia_driver_path);
	forwarding = r == CUDA_SUCCESS;
	return r;
}

/* Once per process. ZLUDA_CONVERT_DRIVER=hip|cuda|host chooses; otherwise an AMD GPU
 * through HIP, else an NVIDIA GPU through NVIDIA's own driver (the program then runs as
 * the unconverted one, on its original fatbins), else the CPU when a converted file of the
 * process has code for it, else no device: a program converted only for GPUs then fails
 * the way it would on a machine without one. */
static void
select_driver(void)
{
	const char *choice = getenv("ZLUDA_CONVERT_DRIVER");
	CUresult result;

	if (choice && strcmp(choice, "hip") == 0)
		result = zc_api_start(&zc_hip_driver);
	else if (choice && strcmp(choice, "cuda") == 0)
		result = start_cuda();
	else if (choice && strcmp(choice, "host") == 0)
		result = zc_api_start(&zc_host_driver);
	else if (choice && *choice)
		result = stub_fail(CUDA_ERROR_NO_DEVICE,
		                   "ZLUDA_CONVERT_DRIVER=%s is not hip, cuda or host", choice);
	else if ((zc_amd_gpu_possible() && zc_api_start(&zc_hip_driver) == CUDA_SUCCESS) ||
	         start_cuda() == CUDA_SUCCESS)
		result = CUDA_SUCCESS;
	else if (zc_images_have_cpu_code(zc_host_code_target_name))
		result = zc_api_start(&zc_host_driver);
	else
		result = stub_fail(CUDA_ERROR_NO_DEVICE,
		                   "no AMD GPU, no NVIDIA GPU, and no converted file of this "
		                   "process has code for the CPU (--offload-arch=host)");
	zc_api_set_initialized(result);
	if (zc_tracing && forwarding)
		zc_trace_line("zluda-convert: using NVIDIA's driver %s: every call goes to it from "
		              "here on, and is not traced", nvidia_driver_path);
	else if (zc_tracing && zc_drv)
		zc_trace_line("zluda-convert: using the %s driver", zc_drv->name);
}

bool
zc_select_driver(void)
{
	pthread_once(&selected, select_driver);
	return forwarding;
}

ZC_EXPORT CUresult
cuInit(unsigned int flags)
{
	if (flags != 0)
		return TRACE(stub_fail(CUDA_ERROR_INVALID_VALUE, "flags must be 0"), "%u", flags);
	if (zc_select_driver())
		return ZC_FORWARDED(cuInit)(flags);
	return TRACE(zc_initialized(), "%u", flags);
}

ZC_EXPORT CUresult
cuDriverGetVersion(int *version)
{
	if (zc_select_driver())
		return ZC_FORWARDED(cuDriverGetVersion)(version);
	if (!version)
		return TRACE(stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL version"), "NULL");
	*version = ZC_DRIVER_VERSION;
	return TRACE(CUDA_SUCCESS, "-> %d", *version);
}

/* Symbol name -> function, for the functions the stub implements and, from
 * procaddress.tsv, for every other symbol the real driver can hand out. Both lists are in
 * strcmp order (the unit tests check exports.inc's). */
struct named_function {
	const char *name;
	void (*function)(void);
};

#define ZC_FUNCTION(symbol, params) { #symbol, (void (*)(void))symbol },
static const struct named_function implemented[] = {
#include "exports.inc"
};
#undef ZC_FUNCTION

/* x86-64 SysV lets a function that ignores its arguments stand for any signature that
 * returns an int-sized value, so one body per name serves every unimplemented function. */
/* Each is the stub's side of forward.S's exported entry point of its name. */
#define UNSUPPORTED(symbol) \
	CUresult unsupported_##symbol(void) __asm__("zc_impl_" #symbol); \
	CUresult unsupported_##symbol(void) { return zc_unsupported(#symbol); }
#include "unsupported_table.inc"
#undef UNSUPPORTED

#define UNSUPPORTED(symbol) { #symbol, (void (*)(void))unsupported_##symbol },
static const struct named_function unsupported[] = {
#include "unsupported_table.inc"
};
#undef UNSUPPORTED

enum {
	IMPLEMENTED_COUNT = sizeof implemented / sizeof implemented[0],
	UNSUPPORTED_COUNT = sizeof unsupported / sizeof unsupported[0],
};

static int
compare_names(const void *a, const void *b)
{
	return strcmp(((const struct named_function *)a)->name,
	              ((const struct named_function *)b)->name);
}

static void (*function_named(const char *name))(void)
{
	struct named_function key = { name, NULL };
	const struct named_function *found;

	found = bsearch(&key, implemented, IMPLEMENTED_COUNT, sizeof key, compare_names);
	if (!found)
		found = bsearch(&key, unsupported, UNSUPPORTED_COUNT, sizeof key, compare_names);
	return found ? found->function : NULL;
}

static CUresult
get_proc_address(const char *symbol, void **pfn, int version, uint64_t flags, int *status)
{
	struct zc_proc_resolution found;
	void (*function)(void) = NULL;

	if (!symbol || !pfn)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL symbol or pfn");
	found = zc_proc_resolve(symbol, version, flags);
	if (found.status == ZC_PROC_FOUND)
		function = function_named(found.symbol);
	*pfn = (void *)function;
	if (status)
		*status = function ? CU_GET_PROC_ADDRESS_SUCCESS
		          : found.status == ZC_PROC_VERSION_NOT_SUFFICIENT
		              ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
		              : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	return function ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

ZC_EXPORT CUresult
cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, uint64_t flags)
{
	if (zc_select_driver())
		return ZC_FORWARDED(cuGetProcAddress)(symbol, pfn, cudaVersion, flags);
	CUresult r = get_proc_address(symbol, pfn, cudaVersion, flags, NULL);

	return TRACE(r, "\"%s\", %d, %llu", symbol ? symbol : "(null)", cudaVersion,
	             (unsigned long long)flags);
}

ZC_EXPORT CUresult
cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, uint64_t flags,
                    int *symbolStatus)
{
	if (zc_select_driver())
		return ZC_FORWARDED(cuGetProcAddress_v2)(symbol, pfn, cudaVersion, flags, symbolStatus);
	CUresult r = get_proc_address(symbol, pfn, cudaVersion, flags, symbolStatus);

	return TRACE(r, "\"%s\", %d, %llu", symbol ? symbol : "(null)", cudaVersion,
	             (unsigned long long)flags);
}
