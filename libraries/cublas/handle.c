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
	cublasStatus_t (*nvidia)(cublasHandle_t *) = blas_choose_engine("cublasCreate_v2");
	if (nvidia)
		return nvidia(handle);
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

/* The cuBLAS release whose API this library follows, by the major version it is built as. */
#if ZC_CUBLAS_MAJOR == 11
enum { VERSION_MINOR = 11, VERSION_PATCH = 3 };
#elif ZC_CUBLAS_MAJOR == 12
enum { VERSION_MINOR = 9, VERSION_PATCH = 1 };
#else
enum { VERSION_MINOR = CUBLAS_VER_MINOR, VERSION_PATCH = CUBLAS_VER_PATCH };
#endif

cublasStatus_t cublasGetVersion(cublasHandle_t h, int *version)
{
	if (!version)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGetVersion", "NULL pointer");
	*version = ZC_CUBLAS_MAJOR * 10000 + VERSION_MINOR * 100 + VERSION_PATCH;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value)
{
	if (!value)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGetProperty", "NULL pointer");
	switch (type) {
	case MAJOR_VERSION: *value = ZC_CUBLAS_MAJOR; break;
	case MINOR_VERSION: *value = VERSION_MINOR; break;
	case PATCH_LEVEL: *value = VERSION_PATCH; break;
	default: return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGetProperty", "type %d", type);
	}
	return CUBLAS_STATUS_SUCCESS;
}

size_t cublasGetCudartVersion(void)
{
	return ZC_CUBLAS_MAJOR * 1000;
}

cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t stream)
{
	cublasStatus_t s = blas_begin(h, "cublasSetStream");

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

cublasStatus_t cublasSetPointerMode(cublasHandle_t h, cublasPointerMode_t mode)
{
	cublasStatus_t s = blas_begin(h, "cublasSetPointerMode");

	if (s == CUBLAS_STATUS_SUCCESS && mode != CUBLAS_POINTER_MODE_HOST &&
	    mode != CUBLAS_POINTER_MODE_DEVICE)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasSetPointerMode", "mode %d", mode);
	if (s == CUBLAS_STATUS_SUCCESS)
		h->pointer_mode = mode;
	return s;
}

cublasStatus_t cublasGetPointerMode(cublasHandle_t h, cublasPointerMode_t *mode)
{
	cublasStatus_t s = blas_begin(h, "cublasGetPointerMode");

	if (s == CUBLAS_STATUS_SUCCESS && !mode)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGetPointerMode", "NULL pointer");
	if (s == CUBLAS_STATUS_SUCCESS)
		*mode = h->pointer_mode;
	return s;
}

/* Math modes choose speed against accuracy; every mode is computed at full precision here,
 * which each mode allows. */
cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t mode)
{
	cublasStatus_t s = blas_begin(h, "cublasSetMathMode");

	if (s == CUBLAS_STATUS_SUCCESS)
		h->math_mode = mode;
	return s;
}

cublasStatus_t cublasGetMathMode(cublasHandle_t h, cublasMath_t *mode)
{
	cublasStatus_t s = blas_begin(h, "cublasGetMathMode");

	if (s == CUBLAS_STATUS_SUCCESS && !mode)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGetMathMode", "NULL pointer");
	if (s == CUBLAS_STATUS_SUCCESS)
		*mode = h->math_mode;
	return s;
}

/* No routine here uses atomics, so results are deterministic in either mode. */
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t mode)
{
	cublasStatus_t s = blas_begin(h, "cublasSetAtomicsMode");

	if (s == CUBLAS_STATUS_SUCCESS)
		h->atomics_mode = mode;
	return s;
}

cublasStatus_t cublasGetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t *mode)
{
	cublasStatus_t s = blas_begin(h, "cublasGetAtomicsMode");

	if (s == CUBLAS_STATUS_SUCCESS && !mode)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "cublasGetAtomicsMode", "NULL pointer");
	if (s == CUBLAS_STATUS_SUCCESS)
		*mode = h->atomics_mode;
	return s;
}

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
