/* cuBLAS's handles and the helpers around them: streams, pointer, math and atomics modes,
 * workspace, versions, status strings, logging. */
#include <stdlib.h>

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

/* A mode of the handle: set (checked by VALID) and read back. */
#define MODE(Name, type, field, valid)                                                            \
	cublasStatus_t cublasSet##Name##Mode(cublasHandle_t h, type mode)                            \
	{                                                                                            \
		cublasStatus_t s = blas_begin(h, "cublasSet" #Name "Mode");                              \
		if (s == CUBLAS_STATUS_SUCCESS && !(valid))                                              \
			return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasSet" #Name "Mode", "mode %d", \
			                 (int)mode);                                                         \
		if (s == CUBLAS_STATUS_SUCCESS)                                                          \
			h->field = mode;                                                                     \
		return s;                                                                                \
	}                                                                                            \
	cublasStatus_t cublasGet##Name##Mode(cublasHandle_t h, type *mode)                           \
	{                                                                                            \
		cublasStatus_t s = blas_begin(h, "cublasGet" #Name "Mode");                              \
		if (s == CUBLAS_STATUS_SUCCESS && !mode)                                                 \
			return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGet" #Name "Mode",            \
			                 "NULL pointer");                                                    \
		if (s == CUBLAS_STATUS_SUCCESS)                                                          \
			*mode = h->field;                                                                    \
		return s;                                                                                \
	}
MODE(Pointer, cublasPointerMode_t, pointer_mode,
     mode == CUBLAS_POINTER_MODE_HOST || mode == CUBLAS_POINTER_MODE_DEVICE)
/* Math modes choose speed against accuracy; every mode is computed at full precision here,
 * which each mode allows. */
MODE(Math, cublasMath_t, math_mode, true)
/* No routine here uses atomics, so results are deterministic in either mode. */
MODE(Atomics, cublasAtomicsMode_t, atomics_mode,
     mode == CUBLAS_ATOMICS_NOT_ALLOWED || mode == CUBLAS_ATOMICS_ALLOWED)

/* The routines here need no workspace of the caller's; the one given is accepted. */
cublasStatus_t cublasSetWorkspace(cublasHandle_t h, void *workspace, size_t size)
{
	return blas_begin(h, "cublasSetWorkspace");
}

cublasStatus_t cublasLoggerConfigure(int log_on, int log_to_stdout, int log_to_stderr,
                                     const char *file_name)
{
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
