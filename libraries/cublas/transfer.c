/* Copies between host and device memory with strides: vectors with increments, matrices
 * with leading dimensions, each a 2D copy of the driver's. */
#include <string.h>

#include "blas.h"

static cublasStatus_t copy_2d(const char *routine, int64_t rows_bytes, int64_t cols,
                              const void *src, int64_t src_pitch, void *dst, int64_t dst_pitch,
                              bool to_device, cudaStream_t stream, bool async)
{
	CUDA_MEMCPY2D c;

	if (rows_bytes == 0 || cols == 0)
		return CUBLAS_STATUS_SUCCESS;
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = to_device ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
	c.dstMemoryType = to_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
	if (to_device) {
		c.srcHost = src;
		c.dstDevice = (CUdeviceptr)(uintptr_t)dst;
	} else {
		c.srcDevice = (CUdeviceptr)(uintptr_t)src;
		c.dstHost = dst;
	}
	c.srcPitch = (size_t)src_pitch;
	c.dstPitch = (size_t)dst_pitch;
	c.WidthInBytes = (size_t)rows_bytes;
	c.Height = (size_t)cols;
	CUresult r = async ? cuMemcpy2DAsync(&c, (CUstream)stream) : cuMemcpy2D(&c);
	if (r != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_MAPPING_ERROR, routine, "copy failed (error %d)", r);
	return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t vector(const char *routine, int n, int size, const void *x, int incx,
                             void *y, int incy, bool to_device, cudaStream_t stream, bool async)
{
	if (n < 0 || size <= 0 || incx <= 0 || incy <= 0 || (n && (!x || !y)))
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, "n %d, size %d, incx %d, incy %d",
		                 n, size, incx, incy);
	/* One element a row, a row per element: pitches are the increments in bytes. */
	return copy_2d(routine, size, n, x, (int64_t)incx * size, y, (int64_t)incy * size, to_device,
	               stream, async);
}

static cublasStatus_t matrix(const char *routine, int rows, int cols, int size, const void *a,
                             int lda, void *b, int ldb, bool to_device, cudaStream_t stream,
                             bool async)
{
	if (rows < 0 || cols < 0 || size <= 0 || lda < rows || ldb < rows || lda <= 0 || ldb <= 0 ||
	    (rows && cols && (!a || !b)))
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine,
		                 "rows %d, cols %d, size %d, lda %d, ldb %d", rows, cols, size, lda, ldb);
	return copy_2d(routine, (int64_t)rows * size, cols, a, (int64_t)lda * size, b,
	               (int64_t)ldb * size, to_device, stream, async);
}

cublasStatus_t cublasSetVector(int n, int size, const void *x, int incx, void *y, int incy)
{
	return vector("cublasSetVector", n, size, x, incx, y, incy, true, 0, false);
}

cublasStatus_t cublasGetVector(int n, int size, const void *x, int incx, void *y, int incy)
{
	return vector("cublasGetVector", n, size, x, incx, y, incy, false, 0, false);
}

cublasStatus_t cublasSetVectorAsync(int n, int size, const void *x, int incx, void *y, int incy,
                                    cudaStream_t stream)
{
	return vector("cublasSetVectorAsync", n, size, x, incx, y, incy, true, stream, true);
}

cublasStatus_t cublasGetVectorAsync(int n, int size, const void *x, int incx, void *y, int incy,
                                    cudaStream_t stream)
{
	return vector("cublasGetVectorAsync", n, size, x, incx, y, incy, false, stream, true);
}

cublasStatus_t cublasSetMatrix(int rows, int cols, int size, const void *a, int lda, void *b,
                               int ldb)
{
	return matrix("cublasSetMatrix", rows, cols, size, a, lda, b, ldb, true, 0, false);
}

cublasStatus_t cublasGetMatrix(int rows, int cols, int size, const void *a, int lda, void *b,
                               int ldb)
{
	return matrix("cublasGetMatrix", rows, cols, size, a, lda, b, ldb, false, 0, false);
}

cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int size, const void *a, int lda,
                                    void *b, int ldb, cudaStream_t stream)
{
	return matrix("cublasSetMatrixAsync", rows, cols, size, a, lda, b, ldb, true, stream, true);
}

cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int size, const void *a, int lda,
                                    void *b, int ldb, cudaStream_t stream)
{
	return matrix("cublasGetMatrixAsync", rows, cols, size, a, lda, b, ldb, false, stream, true);
}
