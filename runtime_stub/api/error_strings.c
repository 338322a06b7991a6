/* cuGetErrorName and cuGetErrorString: CUDA's names and texts of its error codes. */
#include "api.h"

ZC_EXPORT CUresult
cuGetErrorName(CUresult error, const char **str)
{
	const char *name, *text;
	bool known = zc_error_describe(error, &name, &text);

	if (!str)
		return TRACE(stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL str"), "%d", error);
	*str = name;
	return TRACE(known ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE, "%d", error);
}

ZC_EXPORT CUresult
cuGetErrorString(CUresult error, const char **str)
{
	const char *name, *text;
	bool known = zc_error_describe(error, &name, &text);

	if (!str)
		return TRACE(stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL str"), "%d", error);
	*str = text;
	return TRACE(known ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE, "%d", error);
}
