/* cuBLAS's legacy API (cublas.h), for programs that still use it: no handle, scalars by
 * value, characters for the operations, the last error kept for cublasGetError. Each
 * function is its v2 form called on a handle of the library's own (host pointer mode, the
 * stream cublasSetKernelStream chose), made by cublasInit or the first call. cublas_v2.h would take these
 * names for the v2 functions, so this file includes cublas.h alone, defines each function
 * as zc_impl_NAME (legacy_exports.inc exports it under NAME) and checks it against
 * cublas.h's prototype. */
#include "replacement_rename.h"

#include <cublas.h>
#include <cuda.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static cublasHandle_t legacy_handle;
static cublasStatus_t last_error = CUBLAS_STATUS_SUCCESS;

/* The same type as cublas.h's NAME: the definition below is what programs call by it. */
#define SAME_AS(name)                                                                             \
	_Static_assert(__builtin_types_compatible_p(__typeof__(zc_impl_##name), __typeof__(name)),   \
	               #name " as cublas.h declares it")

static void record(cublasStatus_t s)
{
	if (s != CUBLAS_STATUS_SUCCESS)
		__atomic_store_n(&last_error, s, __ATOMIC_RELAXED);
}

cublasStatus zc_impl_cublasInit(void);

/* The library's handle, made on the first call when the program has not called cublasInit,
 * as NVIDIA's library does (measured on an H200, cuBLAS 13: a call before cublasInit runs);
 * NULL, the error recorded, when it cannot be made. */
static cublasHandle_t legacy(void)
{
	cublasHandle_t h = __atomic_load_n(&legacy_handle, __ATOMIC_ACQUIRE);
	cublasStatus_t s;

	if (!h && (s = zc_impl_cublasInit()) != CUBLAS_STATUS_SUCCESS)
		record(s);
	return h ? h : __atomic_load_n(&legacy_handle, __ATOMIC_ACQUIRE);
}

/* The v2 call, on the handle read once (legacy() has recorded why there is none). */
#define CALL(v2)                                                                                  \
	do {                                                                                         \
		cublasHandle_t handle = legacy();                                                        \
		if (handle)                                                                              \
			record(v2);                                                                          \
	} while (0)

static cublasOperation_t op(char c)
{
	return c == 'N' || c == 'n' ? CUBLAS_OP_N
	       : c == 'T' || c == 't' ? CUBLAS_OP_T
	       : c == 'C' || c == 'c' ? CUBLAS_OP_C : (cublasOperation_t)-1;
}

static cublasFillMode_t fill(char c)
{
	return c == 'U' || c == 'u' ? CUBLAS_FILL_MODE_UPPER
	       : c == 'L' || c == 'l' ? CUBLAS_FILL_MODE_LOWER : (cublasFillMode_t)-1;
}

static cublasDiagType_t diag(char c)
{
	return c == 'U' || c == 'u' ? CUBLAS_DIAG_UNIT
	       : c == 'N' || c == 'n' ? CUBLAS_DIAG_NON_UNIT : (cublasDiagType_t)-1;
}

static cublasSideMode_t side(char c)
{
	return c == 'L' || c == 'l' ? CUBLAS_SIDE_LEFT
	       : c == 'R' || c == 'r' ? CUBLAS_SIDE_RIGHT : (cublasSideMode_t)-1;
}

cublasStatus zc_impl_cublasInit(void)
{
	cublasStatus_t s = CUBLAS_STATUS_SUCCESS;

	pthread_mutex_lock(&lock);
	if (!legacy_handle) {
		cublasHandle_t h;
		if ((s = cublasCreate_v2(&h)) == CUBLAS_STATUS_SUCCESS)
			__atomic_store_n(&legacy_handle, h, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	return s;
}
SAME_AS(cublasInit);

cublasStatus zc_impl_cublasShutdown(void);
cublasStatus zc_impl_cublasShutdown(void)
{
	cublasStatus_t s = CUBLAS_STATUS_NOT_INITIALIZED;

	pthread_mutex_lock(&lock);
	if (legacy_handle) {
		s = cublasDestroy_v2(legacy_handle);
		__atomic_store_n(&legacy_handle, NULL, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	return s;
}
SAME_AS(cublasShutdown);

cublasStatus zc_impl_cublasGetError(void);
cublasStatus zc_impl_cublasGetError(void)
{
	return __atomic_exchange_n(&last_error, CUBLAS_STATUS_SUCCESS, __ATOMIC_RELAXED);
}
SAME_AS(cublasGetError);

cublasStatus zc_impl_cublasGetVersion(int *version);
cublasStatus zc_impl_cublasGetVersion(int *version)
{
	cublasHandle_t h = legacy();

	return h ? cublasGetVersion_v2(h, version) : CUBLAS_STATUS_NOT_INITIALIZED;
}
SAME_AS(cublasGetVersion);

cublasStatus zc_impl_cublasAlloc(int n, int elemSize, void **devicePtr);
cublasStatus zc_impl_cublasAlloc(int n, int elemSize, void **devicePtr)
{
	CUdeviceptr p;

	if (!legacy())
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (n <= 0 || elemSize <= 0 || !devicePtr)
		return CUBLAS_STATUS_INVALID_VALUE;
	if (cuMemAlloc(&p, (size_t)n * (size_t)elemSize) != CUDA_SUCCESS)
		return CUBLAS_STATUS_ALLOC_FAILED;
	*devicePtr = (void *)(uintptr_t)p;
	return CUBLAS_STATUS_SUCCESS;
}
SAME_AS(cublasAlloc);

cublasStatus zc_impl_cublasFree(void *devicePtr);
cublasStatus zc_impl_cublasFree(void *devicePtr)
{
	if (!legacy())
		return CUBLAS_STATUS_NOT_INITIALIZED;
	return cuMemFree((CUdeviceptr)(uintptr_t)devicePtr) == CUDA_SUCCESS
	       ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INTERNAL_ERROR;
}
SAME_AS(cublasFree);

cublasStatus zc_impl_cublasSetKernelStream(cudaStream_t stream);
cublasStatus zc_impl_cublasSetKernelStream(cudaStream_t stream)
{
	cublasHandle_t h = legacy();

	return h ? cublasSetStream_v2(h, stream) : CUBLAS_STATUS_NOT_INITIALIZED;
}
SAME_AS(cublasSetKernelStream);

/* Level 1: reductions return their result (0 on an error). */
#define REDUCTION(name, R, T, v2)                                                                 \
	R zc_impl_##name(int n, const T *x, int incx);                                               \
	R zc_impl_##name(int n, const T *x, int incx)                                                \
	{                                                                                            \
		R r = 0;                                                                                 \
		CALL(v2(handle, n, x, incx, &r));                                                        \
		return r;                                                                                \
	}                                                                                            \
	SAME_AS(name);
REDUCTION(cublasSnrm2, float, float, cublasSnrm2_v2)
REDUCTION(cublasDnrm2, double, double, cublasDnrm2_v2)
REDUCTION(cublasScnrm2, float, cuComplex, cublasScnrm2_v2)
REDUCTION(cublasDznrm2, double, cuDoubleComplex, cublasDznrm2_v2)
REDUCTION(cublasSasum, float, float, cublasSasum_v2)
REDUCTION(cublasDasum, double, double, cublasDasum_v2)
REDUCTION(cublasScasum, float, cuComplex, cublasScasum_v2)
REDUCTION(cublasDzasum, double, cuDoubleComplex, cublasDzasum_v2)
REDUCTION(cublasIsamax, int, float, cublasIsamax_v2)
REDUCTION(cublasIdamax, int, double, cublasIdamax_v2)
REDUCTION(cublasIcamax, int, cuComplex, cublasIcamax_v2)
REDUCTION(cublasIzamax, int, cuDoubleComplex, cublasIzamax_v2)
REDUCTION(cublasIsamin, int, float, cublasIsamin_v2)
REDUCTION(cublasIdamin, int, double, cublasIdamin_v2)
REDUCTION(cublasIcamin, int, cuComplex, cublasIcamin_v2)
REDUCTION(cublasIzamin, int, cuDoubleComplex, cublasIzamin_v2)

#define DOT(name, T, v2)                                                                          \
	T zc_impl_##name(int n, const T *x, int incx, const T *y, int incy);                         \
	T zc_impl_##name(int n, const T *x, int incx, const T *y, int incy)                          \
	{                                                                                            \
		T r = {0};                                                                               \
		CALL(v2(handle, n, x, incx, y, incy, &r));                                               \
		return r;                                                                                \
	}                                                                                            \
	SAME_AS(name);
DOT(cublasSdot, float, cublasSdot_v2)
DOT(cublasDdot, double, cublasDdot_v2)
DOT(cublasCdotu, cuComplex, cublasCdotu_v2)
DOT(cublasCdotc, cuComplex, cublasCdotc_v2)
DOT(cublasZdotu, cuDoubleComplex, cublasZdotu_v2)
DOT(cublasZdotc, cuDoubleComplex, cublasZdotc_v2)

/* The elementwise ones: scal (A the scalar's type), axpy, copy, swap, rot. */
#define SCAL(name, A, T, v2)                                                                      \
	void zc_impl_##name(int n, A alpha, T *x, int incx);                                         \
	void zc_impl_##name(int n, A alpha, T *x, int incx)                                          \
	{                                                                                            \
		CALL(v2(handle, n, &alpha, x, incx));                                                    \
	}                                                                                            \
	SAME_AS(name);
SCAL(cublasSscal, float, float, cublasSscal_v2)
SCAL(cublasDscal, double, double, cublasDscal_v2)
SCAL(cublasCscal, cuComplex, cuComplex, cublasCscal_v2)
SCAL(cublasZscal, cuDoubleComplex, cuDoubleComplex, cublasZscal_v2)
SCAL(cublasCsscal, float, cuComplex, cublasCsscal_v2)
SCAL(cublasZdscal, double, cuDoubleComplex, cublasZdscal_v2)

#define VECTORS(P, T)                                                                             \
	void zc_impl_cublas##P##axpy(int n, T alpha, const T *x, int incx, T *y, int incy);          \
	void zc_impl_cublas##P##axpy(int n, T alpha, const T *x, int incx, T *y, int incy)           \
	{                                                                                            \
		CALL(cublas##P##axpy_v2(handle, n, &alpha, x, incx, y, incy));                           \
	}                                                                                            \
	SAME_AS(cublas##P##axpy);                                                                    \
	void zc_impl_cublas##P##copy(int n, const T *x, int incx, T *y, int incy);                   \
	void zc_impl_cublas##P##copy(int n, const T *x, int incx, T *y, int incy)                    \
	{                                                                                            \
		CALL(cublas##P##copy_v2(handle, n, x, incx, y, incy));                                   \
	}                                                                                            \
	SAME_AS(cublas##P##copy);                                                                    \
	void zc_impl_cublas##P##swap(int n, T *x, int incx, T *y, int incy);                         \
	void zc_impl_cublas##P##swap(int n, T *x, int incx, T *y, int incy)                          \
	{                                                                                            \
		CALL(cublas##P##swap_v2(handle, n, x, incx, y, incy));                                   \
	}                                                                                            \
	SAME_AS(cublas##P##swap);
VECTORS(S, float)
VECTORS(D, double)
VECTORS(C, cuComplex)
VECTORS(Z, cuDoubleComplex)

#define ROT(name, T, C, S, v2)                                                                    \
	void zc_impl_##name(int n, T *x, int incx, T *y, int incy, C c, S s);                        \
	void zc_impl_##name(int n, T *x, int incx, T *y, int incy, C c, S s)                         \
	{                                                                                            \
		CALL(v2(handle, n, x, incx, y, incy, &c, &s));                                           \
	}                                                                                            \
	SAME_AS(name);
ROT(cublasSrot, float, float, float, cublasSrot_v2)
ROT(cublasDrot, double, double, double, cublasDrot_v2)
ROT(cublasCrot, cuComplex, float, cuComplex, cublasCrot_v2)
ROT(cublasCsrot, cuComplex, float, float, cublasCsrot_v2)
ROT(cublasZrot, cuDoubleComplex, double, cuDoubleComplex, cublasZrot_v2)
ROT(cublasZdrot, cuDoubleComplex, double, double, cublasZdrot_v2)

/* Level 2 and 3, every type. */
#define MATRICES(P, T)                                                                            \
	void zc_impl_cublas##P##gemv(char trans, int m, int n, T alpha, const T *A, int lda,         \
	                             const T *x, int incx, T beta, T *y, int incy);                  \
	void zc_impl_cublas##P##gemv(char trans, int m, int n, T alpha, const T *A, int lda,         \
	                             const T *x, int incx, T beta, T *y, int incy)                   \
	{                                                                                            \
		CALL(cublas##P##gemv_v2(handle, op(trans), m, n, &alpha, A, lda, x, incx, &beta, y,      \
		                        incy));                                                          \
	}                                                                                            \
	SAME_AS(cublas##P##gemv);                                                                    \
	void zc_impl_cublas##P##trsv(char uplo, char trans, char dg, int n, const T *A, int lda,     \
	                             T *x, int incx);                                                \
	void zc_impl_cublas##P##trsv(char uplo, char trans, char dg, int n, const T *A, int lda,     \
	                             T *x, int incx)                                                 \
	{                                                                                            \
		CALL(cublas##P##trsv_v2(handle, fill(uplo), op(trans), diag(dg), n, A, lda, x, incx));   \
	}                                                                                            \
	SAME_AS(cublas##P##trsv);                                                                    \
	void zc_impl_cublas##P##trmv(char uplo, char trans, char dg, int n, const T *A, int lda,     \
	                             T *x, int incx);                                                \
	void zc_impl_cublas##P##trmv(char uplo, char trans, char dg, int n, const T *A, int lda,     \
	                             T *x, int incx)                                                 \
	{                                                                                            \
		CALL(cublas##P##trmv_v2(handle, fill(uplo), op(trans), diag(dg), n, A, lda, x, incx));   \
	}                                                                                            \
	SAME_AS(cublas##P##trmv);                                                                    \
	void zc_impl_cublas##P##gemm(char transa, char transb, int m, int n, int k, T alpha,         \
	                             const T *A, int lda, const T *B, int ldb, T beta, T *C,         \
	                             int ldc);                                                       \
	void zc_impl_cublas##P##gemm(char transa, char transb, int m, int n, int k, T alpha,         \
	                             const T *A, int lda, const T *B, int ldb, T beta, T *C,         \
	                             int ldc)                                                        \
	{                                                                                            \
		CALL(cublas##P##gemm_v2(handle, op(transa), op(transb), m, n, k, &alpha, A, lda, B, ldb, \
		                        &beta, C, ldc));                                                 \
	}                                                                                            \
	SAME_AS(cublas##P##gemm);                                                                    \
	void zc_impl_cublas##P##trsm(char sd, char uplo, char transa, char dg, int m, int n,         \
	                             T alpha, const T *A, int lda, T *B, int ldb);                   \
	void zc_impl_cublas##P##trsm(char sd, char uplo, char transa, char dg, int m, int n,         \
	                             T alpha, const T *A, int lda, T *B, int ldb)                    \
	{                                                                                            \
		CALL(cublas##P##trsm_v2(handle, side(sd), fill(uplo), op(transa), diag(dg), m, n,        \
		                        &alpha, A, lda, B, ldb));                                        \
	}                                                                                            \
	SAME_AS(cublas##P##trsm);                                                                    \
	void zc_impl_cublas##P##syrk(char uplo, char trans, int n, int k, T alpha, const T *A,       \
	                             int lda, T beta, T *C, int ldc);                                \
	void zc_impl_cublas##P##syrk(char uplo, char trans, int n, int k, T alpha, const T *A,       \
	                             int lda, T beta, T *C, int ldc)                                 \
	{                                                                                            \
		CALL(cublas##P##syrk_v2(handle, fill(uplo), op(trans), n, k, &alpha, A, lda, &beta, C,   \
		                        ldc));                                                           \
	}                                                                                            \
	SAME_AS(cublas##P##syrk);                                                                    \
	void zc_impl_cublas##P##symm(char sd, char uplo, int m, int n, T alpha, const T *A, int lda, \
	                             const T *B, int ldb, T beta, T *C, int ldc);                    \
	void zc_impl_cublas##P##symm(char sd, char uplo, int m, int n, T alpha, const T *A, int lda, \
	                             const T *B, int ldb, T beta, T *C, int ldc)                     \
	{                                                                                            \
		CALL(cublas##P##symm_v2(handle, side(sd), fill(uplo), m, n, &alpha, A, lda, B, ldb,      \
		                        &beta, C, ldc));                                                 \
	}                                                                                            \
	SAME_AS(cublas##P##symm);
MATRICES(S, float)
MATRICES(D, double)
MATRICES(C, cuComplex)
MATRICES(Z, cuDoubleComplex)

/* The real ones' rank-1 updates and symv; the complex ones' Hermitian herk and hemm. */
#define REAL(P, T)                                                                                \
	void zc_impl_cublas##P##ger(int m, int n, T alpha, const T *x, int incx, const T *y,         \
	                            int incy, T *A, int lda);                                        \
	void zc_impl_cublas##P##ger(int m, int n, T alpha, const T *x, int incx, const T *y,         \
	                            int incy, T *A, int lda)                                         \
	{                                                                                            \
		CALL(cublas##P##ger_v2(handle, m, n, &alpha, x, incx, y, incy, A, lda));                 \
	}                                                                                            \
	SAME_AS(cublas##P##ger);                                                                     \
	void zc_impl_cublas##P##symv(char uplo, int n, T alpha, const T *A, int lda, const T *x,     \
	                             int incx, T beta, T *y, int incy);                              \
	void zc_impl_cublas##P##symv(char uplo, int n, T alpha, const T *A, int lda, const T *x,     \
	                             int incx, T beta, T *y, int incy)                               \
	{                                                                                            \
		CALL(cublas##P##symv_v2(handle, fill(uplo), n, &alpha, A, lda, x, incx, &beta, y, incy)); \
	}                                                                                            \
	SAME_AS(cublas##P##symv);
REAL(S, float)
REAL(D, double)

#define HERMITIAN(P, T, R)                                                                        \
	void zc_impl_cublas##P##herk(char uplo, char trans, int n, int k, R alpha, const T *A,       \
	                             int lda, R beta, T *C, int ldc);                                \
	void zc_impl_cublas##P##herk(char uplo, char trans, int n, int k, R alpha, const T *A,       \
	                             int lda, R beta, T *C, int ldc)                                 \
	{                                                                                            \
		CALL(cublas##P##herk_v2(handle, fill(uplo), op(trans), n, k, &alpha, A, lda, &beta, C,   \
		                        ldc));                                                           \
	}                                                                                            \
	SAME_AS(cublas##P##herk);                                                                    \
	void zc_impl_cublas##P##hemm(char sd, char uplo, int m, int n, T alpha, const T *A, int lda, \
	                             const T *B, int ldb, T beta, T *C, int ldc);                    \
	void zc_impl_cublas##P##hemm(char sd, char uplo, int m, int n, T alpha, const T *A, int lda, \
	                             const T *B, int ldb, T beta, T *C, int ldc)                     \
	{                                                                                            \
		CALL(cublas##P##hemm_v2(handle, side(sd), fill(uplo), m, n, &alpha, A, lda, B, ldb,      \
		                        &beta, C, ldc));                                                 \
	}                                                                                            \
	SAME_AS(cublas##P##hemm);
HERMITIAN(C, cuComplex, float)
HERMITIAN(Z, cuDoubleComplex, double)

/* Level 2's band and packed forms, every type. */
#define BANDED(P, T)                                                                              \
	void zc_impl_cublas##P##gbmv(char trans, int m, int n, int kl, int ku, T alpha, const T *A,  \
	                             int lda, const T *x, int incx, T beta, T *y, int incy);         \
	void zc_impl_cublas##P##gbmv(char trans, int m, int n, int kl, int ku, T alpha, const T *A,  \
	                             int lda, const T *x, int incx, T beta, T *y, int incy)          \
	{                                                                                            \
		CALL(cublas##P##gbmv_v2(handle, op(trans), m, n, kl, ku, &alpha, A, lda, x, incx, &beta, \
		                        y, incy));                                                       \
	}                                                                                            \
	SAME_AS(cublas##P##gbmv);                                                                    \
	void zc_impl_cublas##P##tbmv(char uplo, char trans, char dg, int n, int k, const T *A,       \
	                             int lda, T *x, int incx);                                       \
	void zc_impl_cublas##P##tbmv(char uplo, char trans, char dg, int n, int k, const T *A,       \
	                             int lda, T *x, int incx)                                        \
	{                                                                                            \
		CALL(cublas##P##tbmv_v2(handle, fill(uplo), op(trans), diag(dg), n, k, A, lda, x, incx)); \
	}                                                                                            \
	SAME_AS(cublas##P##tbmv);                                                                    \
	void zc_impl_cublas##P##tbsv(char uplo, char trans, char dg, int n, int k, const T *A,       \
	                             int lda, T *x, int incx);                                       \
	void zc_impl_cublas##P##tbsv(char uplo, char trans, char dg, int n, int k, const T *A,       \
	                             int lda, T *x, int incx)                                        \
	{                                                                                            \
		CALL(cublas##P##tbsv_v2(handle, fill(uplo), op(trans), diag(dg), n, k, A, lda, x, incx)); \
	}                                                                                            \
	SAME_AS(cublas##P##tbsv);                                                                    \
	void zc_impl_cublas##P##tpmv(char uplo, char trans, char dg, int n, const T *AP, T *x,       \
	                             int incx);                                                      \
	void zc_impl_cublas##P##tpmv(char uplo, char trans, char dg, int n, const T *AP, T *x,       \
	                             int incx)                                                       \
	{                                                                                            \
		CALL(cublas##P##tpmv_v2(handle, fill(uplo), op(trans), diag(dg), n, AP, x, incx));       \
	}                                                                                            \
	SAME_AS(cublas##P##tpmv);                                                                    \
	void zc_impl_cublas##P##tpsv(char uplo, char trans, char dg, int n, const T *AP, T *x,       \
	                             int incx);                                                      \
	void zc_impl_cublas##P##tpsv(char uplo, char trans, char dg, int n, const T *AP, T *x,       \
	                             int incx)                                                       \
	{                                                                                            \
		CALL(cublas##P##tpsv_v2(handle, fill(uplo), op(trans), diag(dg), n, AP, x, incx));       \
	}                                                                                            \
	SAME_AS(cublas##P##tpsv);                                                                    \
	void zc_impl_cublas##P##trmm(char sd, char uplo, char transa, char dg, int m, int n,         \
	                             T alpha, const T *A, int lda, T *B, int ldb);                   \
	void zc_impl_cublas##P##trmm(char sd, char uplo, char transa, char dg, int m, int n,         \
	                             T alpha, const T *A, int lda, T *B, int ldb)                    \
	{                                                                                            \
		CALL(cublas##P##trmm_v2(handle, side(sd), fill(uplo), op(transa), diag(dg), m, n,        \
		                        &alpha, A, lda, B, ldb, B, ldb));                                \
	}                                                                                            \
	SAME_AS(cublas##P##trmm);
BANDED(S, float)
BANDED(D, double)
BANDED(C, cuComplex)
BANDED(Z, cuDoubleComplex)

/* syr2k, every type; the real ones' symmetric band, packed and rank updates, rotg, rotm and
 * rotmg (host pointers, as the handle's pointer mode). */
#define SYR2K(P, T)                                                                               \
	void zc_impl_cublas##P##syr2k(char uplo, char trans, int n, int k, T alpha, const T *A,      \
	                              int lda, const T *B, int ldb, T beta, T *C, int ldc);          \
	void zc_impl_cublas##P##syr2k(char uplo, char trans, int n, int k, T alpha, const T *A,      \
	                              int lda, const T *B, int ldb, T beta, T *C, int ldc)           \
	{                                                                                            \
		CALL(cublas##P##syr2k_v2(handle, fill(uplo), op(trans), n, k, &alpha, A, lda, B, ldb,    \
		                         &beta, C, ldc));                                                \
	}                                                                                            \
	SAME_AS(cublas##P##syr2k);
SYR2K(S, float)
SYR2K(D, double)
SYR2K(C, cuComplex)
SYR2K(Z, cuDoubleComplex)

#define SYMMETRIC(P, T)                                                                           \
	void zc_impl_cublas##P##sbmv(char uplo, int n, int k, T alpha, const T *A, int lda,          \
	                             const T *x, int incx, T beta, T *y, int incy);                  \
	void zc_impl_cublas##P##sbmv(char uplo, int n, int k, T alpha, const T *A, int lda,          \
	                             const T *x, int incx, T beta, T *y, int incy)                   \
	{                                                                                            \
		CALL(cublas##P##sbmv_v2(handle, fill(uplo), n, k, &alpha, A, lda, x, incx, &beta, y,     \
		                        incy));                                                          \
	}                                                                                            \
	SAME_AS(cublas##P##sbmv);                                                                    \
	void zc_impl_cublas##P##spmv(char uplo, int n, T alpha, const T *AP, const T *x, int incx,   \
	                             T beta, T *y, int incy);                                        \
	void zc_impl_cublas##P##spmv(char uplo, int n, T alpha, const T *AP, const T *x, int incx,   \
	                             T beta, T *y, int incy)                                         \
	{                                                                                            \
		CALL(cublas##P##spmv_v2(handle, fill(uplo), n, &alpha, AP, x, incx, &beta, y, incy));    \
	}                                                                                            \
	SAME_AS(cublas##P##spmv);                                                                    \
	void zc_impl_cublas##P##spr(char uplo, int n, T alpha, const T *x, int incx, T *AP);         \
	void zc_impl_cublas##P##spr(char uplo, int n, T alpha, const T *x, int incx, T *AP)          \
	{                                                                                            \
		CALL(cublas##P##spr_v2(handle, fill(uplo), n, &alpha, x, incx, AP));                     \
	}                                                                                            \
	SAME_AS(cublas##P##spr);                                                                     \
	void zc_impl_cublas##P##spr2(char uplo, int n, T alpha, const T *x, int incx, const T *y,    \
	                             int incy, T *AP);                                               \
	void zc_impl_cublas##P##spr2(char uplo, int n, T alpha, const T *x, int incx, const T *y,    \
	                             int incy, T *AP)                                                \
	{                                                                                            \
		CALL(cublas##P##spr2_v2(handle, fill(uplo), n, &alpha, x, incx, y, incy, AP));           \
	}                                                                                            \
	SAME_AS(cublas##P##spr2);                                                                    \
	void zc_impl_cublas##P##syr(char uplo, int n, T alpha, const T *x, int incx, T *A, int lda); \
	void zc_impl_cublas##P##syr(char uplo, int n, T alpha, const T *x, int incx, T *A, int lda)  \
	{                                                                                            \
		CALL(cublas##P##syr_v2(handle, fill(uplo), n, &alpha, x, incx, A, lda));                 \
	}                                                                                            \
	SAME_AS(cublas##P##syr);                                                                     \
	void zc_impl_cublas##P##syr2(char uplo, int n, T alpha, const T *x, int incx, const T *y,    \
	                             int incy, T *A, int lda);                                       \
	void zc_impl_cublas##P##syr2(char uplo, int n, T alpha, const T *x, int incx, const T *y,    \
	                             int incy, T *A, int lda)                                        \
	{                                                                                            \
		CALL(cublas##P##syr2_v2(handle, fill(uplo), n, &alpha, x, incx, y, incy, A, lda));       \
	}                                                                                            \
	SAME_AS(cublas##P##syr2);                                                                    \
	void zc_impl_cublas##P##rotg(T *a, T *b, T *c, T *s);                                        \
	void zc_impl_cublas##P##rotg(T *a, T *b, T *c, T *s)                                         \
	{                                                                                            \
		CALL(cublas##P##rotg_v2(handle, a, b, c, s));                                            \
	}                                                                                            \
	SAME_AS(cublas##P##rotg);                                                                    \
	void zc_impl_cublas##P##rotm(int n, T *x, int incx, T *y, int incy, const T *param);         \
	void zc_impl_cublas##P##rotm(int n, T *x, int incx, T *y, int incy, const T *param)          \
	{                                                                                            \
		CALL(cublas##P##rotm_v2(handle, n, x, incx, y, incy, param));                            \
	}                                                                                            \
	SAME_AS(cublas##P##rotm);                                                                    \
	void zc_impl_cublas##P##rotmg(T *d1, T *d2, T *x1, const T *y1, T *param);                   \
	void zc_impl_cublas##P##rotmg(T *d1, T *d2, T *x1, const T *y1, T *param)                    \
	{                                                                                            \
		CALL(cublas##P##rotmg_v2(handle, d1, d2, x1, y1, param));                                \
	}                                                                                            \
	SAME_AS(cublas##P##rotmg);
SYMMETRIC(S, float)
SYMMETRIC(D, double)

/* The complex ones' Hermitian band, packed and rank updates, gerc, geru, her2k and rotg (b
 * by value). */
#define HERMITIAN_MORE(P, T, R)                                                                   \
	void zc_impl_cublas##P##hemv(char uplo, int n, T alpha, const T *A, int lda, const T *x,     \
	                             int incx, T beta, T *y, int incy);                              \
	void zc_impl_cublas##P##hemv(char uplo, int n, T alpha, const T *A, int lda, const T *x,     \
	                             int incx, T beta, T *y, int incy)                               \
	{                                                                                            \
		CALL(cublas##P##hemv_v2(handle, fill(uplo), n, &alpha, A, lda, x, incx, &beta, y, incy)); \
	}                                                                                            \
	SAME_AS(cublas##P##hemv);                                                                    \
	void zc_impl_cublas##P##hbmv(char uplo, int n, int k, T alpha, const T *A, int lda,          \
	                             const T *x, int incx, T beta, T *y, int incy);                  \
	void zc_impl_cublas##P##hbmv(char uplo, int n, int k, T alpha, const T *A, int lda,          \
	                             const T *x, int incx, T beta, T *y, int incy)                   \
	{                                                                                            \
		CALL(cublas##P##hbmv_v2(handle, fill(uplo), n, k, &alpha, A, lda, x, incx, &beta, y,     \
		                        incy));                                                          \
	}                                                                                            \
	SAME_AS(cublas##P##hbmv);                                                                    \
	void zc_impl_cublas##P##hpmv(char uplo, int n, T alpha, const T *AP, const T *x, int incx,   \
	                             T beta, T *y, int incy);                                        \
	void zc_impl_cublas##P##hpmv(char uplo, int n, T alpha, const T *AP, const T *x, int incx,   \
	                             T beta, T *y, int incy)                                         \
	{                                                                                            \
		CALL(cublas##P##hpmv_v2(handle, fill(uplo), n, &alpha, AP, x, incx, &beta, y, incy));    \
	}                                                                                            \
	SAME_AS(cublas##P##hpmv);                                                                    \
	void zc_impl_cublas##P##her(char uplo, int n, R alpha, const T *x, int incx, T *A, int lda); \
	void zc_impl_cublas##P##her(char uplo, int n, R alpha, const T *x, int incx, T *A, int lda)  \
	{                                                                                            \
		CALL(cublas##P##her_v2(handle, fill(uplo), n, &alpha, x, incx, A, lda));                 \
	}                                                                                            \
	SAME_AS(cublas##P##her);                                                                     \
	void zc_impl_cublas##P##her2(char uplo, int n, T alpha, const T *x, int incx, const T *y,    \
	                             int incy, T *A, int lda);                                       \
	void zc_impl_cublas##P##her2(char uplo, int n, T alpha, const T *x, int incx, const T *y,    \
	                             int incy, T *A, int lda)                                        \
	{                                                                                            \
		CALL(cublas##P##her2_v2(handle, fill(uplo), n, &alpha, x, incx, y, incy, A, lda));       \
	}                                                                                            \
	SAME_AS(cublas##P##her2);                                                                    \
	void zc_impl_cublas##P##hpr(char uplo, int n, R alpha, const T *x, int incx, T *AP);         \
	void zc_impl_cublas##P##hpr(char uplo, int n, R alpha, const T *x, int incx, T *AP)          \
	{                                                                                            \
		CALL(cublas##P##hpr_v2(handle, fill(uplo), n, &alpha, x, incx, AP));                     \
	}                                                                                            \
	SAME_AS(cublas##P##hpr);                                                                     \
	void zc_impl_cublas##P##hpr2(char uplo, int n, T alpha, const T *x, int incx, const T *y,    \
	                             int incy, T *AP);                                               \
	void zc_impl_cublas##P##hpr2(char uplo, int n, T alpha, const T *x, int incx, const T *y,    \
	                             int incy, T *AP)                                                \
	{                                                                                            \
		CALL(cublas##P##hpr2_v2(handle, fill(uplo), n, &alpha, x, incx, y, incy, AP));           \
	}                                                                                            \
	SAME_AS(cublas##P##hpr2);                                                                    \
	void zc_impl_cublas##P##gerc(int m, int n, T alpha, const T *x, int incx, const T *y,        \
	                             int incy, T *A, int lda);                                       \
	void zc_impl_cublas##P##gerc(int m, int n, T alpha, const T *x, int incx, const T *y,        \
	                             int incy, T *A, int lda)                                        \
	{                                                                                            \
		CALL(cublas##P##gerc_v2(handle, m, n, &alpha, x, incx, y, incy, A, lda));                \
	}                                                                                            \
	SAME_AS(cublas##P##gerc);                                                                    \
	void zc_impl_cublas##P##geru(int m, int n, T alpha, const T *x, int incx, const T *y,        \
	                             int incy, T *A, int lda);                                       \
	void zc_impl_cublas##P##geru(int m, int n, T alpha, const T *x, int incx, const T *y,        \
	                             int incy, T *A, int lda)                                        \
	{                                                                                            \
		CALL(cublas##P##geru_v2(handle, m, n, &alpha, x, incx, y, incy, A, lda));                \
	}                                                                                            \
	SAME_AS(cublas##P##geru);                                                                    \
	void zc_impl_cublas##P##her2k(char uplo, char trans, int n, int k, T alpha, const T *A,      \
	                              int lda, const T *B, int ldb, R beta, T *C, int ldc);          \
	void zc_impl_cublas##P##her2k(char uplo, char trans, int n, int k, T alpha, const T *A,      \
	                              int lda, const T *B, int ldb, R beta, T *C, int ldc)           \
	{                                                                                            \
		CALL(cublas##P##her2k_v2(handle, fill(uplo), op(trans), n, k, &alpha, A, lda, B, ldb,    \
		                         &beta, C, ldc));                                                \
	}                                                                                            \
	SAME_AS(cublas##P##her2k);                                                                   \
	void zc_impl_cublas##P##rotg(T *a, T b, R *c, T *s);                                         \
	void zc_impl_cublas##P##rotg(T *a, T b, R *c, T *s)                                          \
	{                                                                                            \
		CALL(cublas##P##rotg_v2(handle, a, &b, c, s));                                           \
	}                                                                                            \
	SAME_AS(cublas##P##rotg);
HERMITIAN_MORE(C, cuComplex, float)
HERMITIAN_MORE(Z, cuDoubleComplex, double)
