/* cuBLAS's handles and the helpers around them: streams, pointer, math and atomics modes,
 * workspace, versions, status strings, logging. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"

cublasStatus_t cublasCreate(cublasHandle_t *handle)
{
	struct cublasContext *h;
	cublasStatus_t s;

	if (!handle)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasCreate", "NULL handle pointer");
	if (cuInit(0) != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_NOT_INITIALIZED, "cublasCreate", "cuInit failed");
	if (!(h = malloc(sizeof(*h))))
		return blas_fail(CUBLAS_STATUS_ALLOC_FAILED, "cublasCreate", "out of memory");
	if ((s = blas_context_init(h, "cublasCreate")) != CUBLAS_STATUS_SUCCESS) {
		free(h);
		return s;
	}
	*handle = h;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy(cublasHandle_t h)
{
	cublasStatus_t s = blas_begin(h, "cublasDestroy");

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	blas_context_fini(h);
	free(h);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion(cublasHandle_t h, int *version)
{
	if (!version)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGetVersion", "NULL pointer");
	*version = BLAS_VERSION;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value)
{
	return blas_property("cublasGetProperty", type, value);
}

size_t cublasGetCudartVersion(void)
{
	return ZC_CUBLAS_MAJOR * 1000;
}

/* The handle's scratch memory is ordered by its stream: work queued on the old stream that
 * may still use it is waited for before another stream can reuse it. */
cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t stream)
{
	cublasStatus_t s = blas_begin(h, "cublasSetStream");

	if (s == CUBLAS_STATUS_SUCCESS && h->scratch && (CUstream)stream != h->stream &&
	    cuStreamSynchronize(h->stream) != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_EXECUTION_FAILED, "cublasSetStream",
		                 "the previous stream failed");
	if (s == CUBLAS_STATUS_SUCCESS)
		h->stream = (CUstream)stream;
	return s;
}

cublasStatus_t cublasGetStream(cublasHandle_t h, cudaStream_t *stream)
{
	cublasStatus_t s = blas_begin(h, "cublasGetStream");

	if (s == CUBLAS_STATUS_SUCCESS && !stream)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGetStream", "NULL pointer");
	if (s == CUBLAS_STATUS_SUCCESS)
		*stream = (cudaStream_t)h->stream;
	return s;
}

/* A setting of the handle: set (checked by VALID) and read back. */
#define SETTING(Name, type, field, valid)                                                         \
	cublasStatus_t cublasSet##Name(cublasHandle_t h, type value)                                 \
	{                                                                                            \
		cublasStatus_t s = blas_begin(h, "cublasSet" #Name);                                     \
		if (s == CUBLAS_STATUS_SUCCESS && !(valid))                                              \
			return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasSet" #Name, "out of range");  \
		if (s == CUBLAS_STATUS_SUCCESS)                                                          \
			h->field = value;                                                                    \
		return s;                                                                                \
	}                                                                                            \
	cublasStatus_t cublasGet##Name(cublasHandle_t h, type *value)                                \
	{                                                                                            \
		cublasStatus_t s = blas_begin(h, "cublasGet" #Name);                                     \
		if (s == CUBLAS_STATUS_SUCCESS && !value)                                                \
			return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGet" #Name, "NULL pointer");  \
		if (s == CUBLAS_STATUS_SUCCESS)                                                          \
			*value = h->field;                                                                   \
		return s;                                                                                \
	}
SETTING(PointerMode, cublasPointerMode_t, pointer_mode,
        value == CUBLAS_POINTER_MODE_HOST || value == CUBLAS_POINTER_MODE_DEVICE)
/* Math modes choose speed against accuracy; every mode is computed at full precision here,
 * which each mode allows. */
SETTING(MathMode, cublasMath_t, math_mode, true)
/* No routine here uses atomics, so results are deterministic in either mode. */
SETTING(AtomicsMode, cublasAtomicsMode_t, atomics_mode,
        value == CUBLAS_ATOMICS_NOT_ALLOWED || value == CUBLAS_ATOMICS_ALLOWED)

/* CUDA 13's settings: floating-point emulation (which allows less precision, never requires
 * it: everything here computes at full precision) and the multiprocessors to aim for (at most
 * the device's). The ranges NVIDIA's cuBLAS 13 accepts, measured on an H100. */
static int multiprocessors(void)
{
	CUdevice device;
	int count = 0;

	if (cuCtxGetDevice(&device) == CUDA_SUCCESS)
		cuDeviceGetAttribute(&count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
	return count;
}

SETTING(EmulationStrategy, cublasEmulationStrategy_t, emulation_strategy,
        value >= CUBLAS_EMULATION_STRATEGY_DEFAULT && value <= CUBLAS_EMULATION_STRATEGY_EAGER)
SETTING(EmulationSpecialValuesSupport, cudaEmulationSpecialValuesSupport, special_values,
        (unsigned)value <= CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT)
SETTING(FixedPointEmulationMantissaControl, cudaEmulationMantissaControl, mantissa_control,
        value == CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC || value == CUDA_EMULATION_MANTISSA_CONTROL_FIXED)
SETTING(FixedPointEmulationMaxMantissaBitCount, int, max_mantissa_bits, value >= 0)
SETTING(FixedPointEmulationMantissaBitOffset, int, mantissa_bit_offset, true)
SETTING(FixedPointEmulationMantissaBitCountPointer, int *, mantissa_bit_count, true)
SETTING(SmCountTarget, int, sm_count_target, value >= 0 && value <= multiprocessors())

/* The routines here need no workspace of the caller's; the one given is accepted. */
cublasStatus_t cublasSetWorkspace(cublasHandle_t h, void *workspace, size_t size)
{
	return blas_begin(h, "cublasSetWorkspace");
}

/* The logger: cublasLoggerConfigure's destinations (stdout, stderr, a file) and the
 * program's callback, which turns logging on by itself; CUBLAS_LOGINFO_DBG=1 turns it on
 * when the library loads, to CUBLAS_LOGDEST_DBG (stdout, stderr, or a file's name), as
 * NVIDIA's cuBLAS reads them. One line a call, naming the function (not its arguments). */
static struct {
	pthread_mutex_t lock;
	bool to_stdout, to_stderr;
	FILE *file;
	cublasLogCallback callback;
} logger = {PTHREAD_MUTEX_INITIALIZER, false, false, NULL, NULL};

static void update_logging(void)
{
	bool on = logger.to_stdout || logger.to_stderr || logger.file || logger.callback;

	__atomic_store_n(&zc_engine_logging, on, __ATOMIC_RELEASE);
}

void zc_library_log(const char *name)
{
	char line[192];
	cublasLogCallback callback;

	snprintf(line, sizeof(line), "I! cuBLAS (v%d.%d) function %s() called\n", ZC_CUBLAS_MAJOR,
	         BLAS_VERSION_MINOR, name);
	pthread_mutex_lock(&logger.lock);
	if (logger.to_stdout)
		fputs(line, stdout);
	if (logger.to_stderr)
		fputs(line, stderr);
	if (logger.file) {
		fputs(line, logger.file);
		fflush(logger.file);
	}
	callback = logger.callback;
	pthread_mutex_unlock(&logger.lock);
	if (callback)
		callback(line);
}

static cublasStatus_t configure(bool on, bool to_stdout, bool to_stderr, const char *file_name)
{
	FILE *file = NULL;

	if (on && file_name && !(file = fopen(file_name, "a")))
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasLoggerConfigure",
		                 "cannot open the log file %s", file_name);
	pthread_mutex_lock(&logger.lock);
	if (logger.file)
		fclose(logger.file);
	logger.file = file;
	logger.to_stdout = on && to_stdout;
	logger.to_stderr = on && to_stderr;
	update_logging();
	pthread_mutex_unlock(&logger.lock);
	return CUBLAS_STATUS_SUCCESS;
}

__attribute__((constructor)) static void logging_from_environment(void)
{
	const char *on = getenv("CUBLAS_LOGINFO_DBG"), *to = getenv("CUBLAS_LOGDEST_DBG");

	if (!on || strcmp(on, "1") != 0 || !to || !*to)
		return;
	configure(true, strcmp(to, "stdout") == 0, strcmp(to, "stderr") == 0,
	          strcmp(to, "stdout") == 0 || strcmp(to, "stderr") == 0 ? NULL : to);
}

cublasStatus_t cublasLoggerConfigure(int log_on, int log_to_stdout, int log_to_stderr,
                                     const char *file_name)
{
	return configure(log_on, log_to_stdout, log_to_stderr, file_name);
}

cublasStatus_t cublasSetLoggerCallback(cublasLogCallback callback)
{
	pthread_mutex_lock(&logger.lock);
	logger.callback = callback;
	update_logging();
	pthread_mutex_unlock(&logger.lock);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetLoggerCallback(cublasLogCallback *callback)
{
	if (!callback)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGetLoggerCallback", "NULL pointer");
	pthread_mutex_lock(&logger.lock);
	*callback = logger.callback;
	pthread_mutex_unlock(&logger.lock);
	return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusName(cublasStatus_t status)
{
	return blas_status_name(status);
}

const char *cublasGetStatusString(cublasStatus_t status)
{
	return blas_status_string(status);
}

/* The reference BLAS's error report, in the words NVIDIA's prints (seen on an H100). */
void cublasXerbla(const char *name, int info)
{
	printf(" ** On entry to %s  parameter number %d had an illegal value\n", name ? name : "", info);
}
