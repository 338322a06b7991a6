/* cuBLAS's AMD engine: under the HIP driver, where AMD's rocBLAS loads (at run time, never a
 * build dependency), its routines take the level-3 and gemv calls of the cuBLAS API on the
 * program's own stream, so a converted program gets AMD's tuned kernels. A handle is the
 * project's (its kernels loaded as ever) with a rocBLAS handle beside it; a call that
 * rocBLAS does not implement for its arguments (a gemmEx type combination, say) runs on
 * the project's kernels, as does any routine not mapped here. The mapping follows rocBLAS's
 * documented API (rocblas-functions.h of ROCm 6 and 7: librocblas.so.4 and .5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"

/* rocBLAS's enumerations, as its rocblas-types.h numbers them. */
enum {
	ROC_OPERATION_NONE = 111,
	ROC_FILL_UPPER = 121,
	ROC_FILL_LOWER = 122,
	ROC_DIAGONAL_NON_UNIT = 131,
	ROC_SIDE_LEFT = 141,
	ROC_F16_R = 150, ROC_F32_R = 151, ROC_F64_R = 152,
	ROC_F16_C = 153, ROC_F32_C = 154, ROC_F64_C = 155,
	ROC_I8_R = 160, ROC_U8_R = 161, ROC_I32_R = 162, ROC_U32_R = 163,
	ROC_BF16_R = 168, ROC_BF16_C = 169,
	ROC_DATATYPE_INVALID = 255,
	ROC_GEMM_ALGO_STANDARD = 0,
};

enum roc_status {
	ROC_SUCCESS = 0, ROC_INVALID_HANDLE, ROC_NOT_IMPLEMENTED, ROC_INVALID_POINTER,
	ROC_INVALID_SIZE, ROC_MEMORY_ERROR, ROC_INTERNAL_ERROR, ROC_PERF_DEGRADED,
	ROC_INVALID_VALUE = 11, ROC_EXCLUDED_FROM_BUILD = 14, ROC_ARCH_MISMATCH = 15,
};

typedef void *roc_handle;

static struct {
	int (*create_handle)(roc_handle *);
	int (*destroy_handle)(roc_handle);
	int (*set_stream)(roc_handle, void *);
	int (*set_pointer_mode)(roc_handle, int);
	int (*set_atomics_mode)(roc_handle, int);
} roc;

static const struct {
	const char *symbol;
	void **fn;
} roc_helpers[] = {
	{ "rocblas_create_handle", (void **)&roc.create_handle },
	{ "rocblas_destroy_handle", (void **)&roc.destroy_handle },
	{ "rocblas_set_stream", (void **)&roc.set_stream },
	{ "rocblas_set_pointer_mode", (void **)&roc.set_pointer_mode },
	{ "rocblas_set_atomics_mode", (void **)&roc.set_atomics_mode },
};

static int roc_op(cublasOperation_t op)
{
	return ROC_OPERATION_NONE + (int)op;
}

static int roc_fill(cublasFillMode_t fill)
{
	return fill == CUBLAS_FILL_MODE_LOWER ? ROC_FILL_LOWER
	       : fill == CUBLAS_FILL_MODE_UPPER ? ROC_FILL_UPPER : ROC_FILL_UPPER + 2;
}

static int roc_diag(cublasDiagType_t diag)
{
	return ROC_DIAGONAL_NON_UNIT + (int)diag;
}

static int roc_side(cublasSideMode_t side)
{
	return ROC_SIDE_LEFT + (int)side;
}

static int roc_type(cudaDataType t)
{
	switch (t) {
	case CUDA_R_16F: return ROC_F16_R;
	case CUDA_R_32F: return ROC_F32_R;
	case CUDA_R_64F: return ROC_F64_R;
	case CUDA_C_16F: return ROC_F16_C;
	case CUDA_C_32F: return ROC_F32_C;
	case CUDA_C_64F: return ROC_F64_C;
	case CUDA_R_8I: return ROC_I8_R;
	case CUDA_R_8U: return ROC_U8_R;
	case CUDA_R_32I: return ROC_I32_R;
	case CUDA_R_32U: return ROC_U32_R;
	case CUDA_R_16BF: return ROC_BF16_R;
	case CUDA_C_16BF: return ROC_BF16_C;
	default: return ROC_DATATYPE_INVALID;
	}
}

/* rocBLAS names the compute type as a data type, complex where C is: the scalars' type in
 * both APIs. CUDA 10's compute types were data types already. */
static int roc_compute(int compute, cudaDataType c)
{
	bool complex = c == CUDA_C_16F || c == CUDA_C_32F || c == CUDA_C_64F || c == CUDA_C_16BF;

	switch (compute) {
	case CUBLAS_COMPUTE_16F:
	case CUBLAS_COMPUTE_16F_PEDANTIC:
		return complex ? ROC_F16_C : ROC_F16_R;
	case CUBLAS_COMPUTE_32F:
	case CUBLAS_COMPUTE_32F_PEDANTIC:
	case CUBLAS_COMPUTE_32F_FAST_16F:
	case CUBLAS_COMPUTE_32F_FAST_16BF:
	case CUBLAS_COMPUTE_32F_FAST_TF32:
		return complex ? ROC_F32_C : ROC_F32_R;
	case CUBLAS_COMPUTE_64F:
	case CUBLAS_COMPUTE_64F_PEDANTIC:
		return complex ? ROC_F64_C : ROC_F64_R;
	case CUBLAS_COMPUTE_32I:
	case CUBLAS_COMPUTE_32I_PEDANTIC:
		return ROC_I32_R;
	default:
		return compute < CUBLAS_COMPUTE_16F ? roc_type((cudaDataType)compute)
		                                    : ROC_DATATYPE_INVALID;
	}
}

static cublasStatus_t cublas_status(int status)
{
	switch (status) {
	case ROC_SUCCESS:
	case ROC_PERF_DEGRADED: return CUBLAS_STATUS_SUCCESS;
	case ROC_INVALID_HANDLE: return CUBLAS_STATUS_NOT_INITIALIZED;
	case ROC_INVALID_POINTER:
	case ROC_INVALID_SIZE:
	case ROC_INVALID_VALUE: return CUBLAS_STATUS_INVALID_VALUE;
	case ROC_MEMORY_ERROR: return CUBLAS_STATUS_ALLOC_FAILED;
	case ROC_ARCH_MISMATCH: return CUBLAS_STATUS_ARCH_MISMATCH;
	case ROC_NOT_IMPLEMENTED:
	case ROC_EXCLUDED_FROM_BUILD: return CUBLAS_STATUS_NOT_SUPPORTED;
	default: return CUBLAS_STATUS_INTERNAL_ERROR;
	}
}

/* The handle's rocBLAS handle set to its stream and modes, or NULL where the call stays the
 * project's: a handle without one, or a capturing stream (the stub records the project's
 * launches into the graph; rocBLAS's would escape it). */
static roc_handle amd_begin(cublasHandle_t h, const char *routine)
{
	void *native;
	CUresult r;

	if (!h->amd)
		return NULL;
	if ((r = zc_engine_native_stream(h->stream, &native)) != CUDA_SUCCESS) {
		zc_engine_trace(routine, "the stream has no HIP stream to give rocBLAS (error %d): "
		                "the project's kernels run it", r);
		return NULL;
	}
	if (roc.set_stream(h->amd, native) != ROC_SUCCESS ||
	    roc.set_pointer_mode(h->amd, h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE) !=
	        ROC_SUCCESS ||
	    roc.set_atomics_mode(h->amd, h->atomics_mode == CUBLAS_ATOMICS_ALLOWED) != ROC_SUCCESS)
		return NULL;
	return h->amd;
}

/* A rocBLAS status for ROUTINE: what it says, unless it has no implementation for these
 * arguments, when the project's kernels are asked (true). */
static bool amd_declined(int status, const char *routine)
{
	if (status != ROC_NOT_IMPLEMENTED && status != ROC_EXCLUDED_FROM_BUILD)
		return false;
	zc_engine_trace(routine, "rocBLAS has no implementation for these arguments (status %d): "
	                "the project's kernels run it", status);
	return true;
}

/* The body of a mapped routine NAME: rocBLAS's FN called with ARGS on the handle's rocBLAS
 * handle (roc_h), else the project's implementation OWN with OWN_ARGS. */
#define AMD_CALL(name, own, fn, args, own_args)                                                    \
	do {                                                                                       \
		cublasStatus_t begun;                                                              \
		roc_handle roc_h;                                                                  \
		int status;                                                                        \
		if (zc_engine_logging) /* as the trampolines log the project's, before anything */ \
			zc_library_log(name);                                                          \
		begun = blas_begin(h, name);                                                       \
		if (begun != CUBLAS_STATUS_SUCCESS)                                                \
			return begun;                                                              \
		if ((roc_h = amd_begin(h, name)) && !amd_declined(status = fn args, name))         \
			return cublas_status(status);                                              \
		return own own_args;                                                               \
	} while (0)

/* Each family of routines: the rocBLAS function's pointer SYMBOL, and the mapped routine
 * AMD_NAME, called NAME, whose own implementation is OWN. */
#define GEMM(amd_name, name, own, symbol, T)                                                       \
	static int (*symbol)(roc_handle, int, int, int, int, int, const T *, const T *, int,       \
	                     const T *, int, const T *, T *, int);                                 \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasOperation_t ta,                     \
	                                    cublasOperation_t tb, int m, int n, int k,             \
	                                    const T *alpha, const T *A, int lda, const T *B,       \
	                                    int ldb, const T *beta, T *C, int ldc)                 \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_op(ta), roc_op(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc), \
		         (h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));               \
	}

#define GEMM_BATCHED(amd_name, name, own, symbol, T)                                               \
	static int (*symbol)(roc_handle, int, int, int, int, int, const T *, const T *const *, int, \
	                     const T *const *, int, const T *, T *const *, int, int);              \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasOperation_t ta,                     \
	                                    cublasOperation_t tb, int m, int n, int k,             \
	                                    const T *alpha, const T *const A[], int lda,           \
	                                    const T *const B[], int ldb, const T *beta,            \
	                                    T *const C[], int ldc, int count)                      \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_op(ta), roc_op(tb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, \
		          count),                                                                  \
		         (h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, count));        \
	}

#define GEMM_STRIDED(amd_name, name, own, symbol, T)                                               \
	static int (*symbol)(roc_handle, int, int, int, int, int, const T *, const T *, int,       \
	                     int64_t, const T *, int, int64_t, const T *, T *, int, int64_t, int); \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasOperation_t ta,                     \
	                                    cublasOperation_t tb, int m, int n, int k,             \
	                                    const T *alpha, const T *A, int lda, long long sa,     \
	                                    const T *B, int ldb, long long sb, const T *beta,      \
	                                    T *C, int ldc, long long sc, int count)                \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_op(ta), roc_op(tb), m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, \
		          C, ldc, sc, count),                                                      \
		         (h, ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, count)); \
	}

#define TRSM(amd_name, name, own, symbol, T)                                                       \
	static int (*symbol)(roc_handle, int, int, int, int, int, int, const T *, const T *, int,  \
	                     T *, int);                                                            \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasSideMode_t side,                    \
	                                    cublasFillMode_t uplo, cublasOperation_t op,           \
	                                    cublasDiagType_t diag, int m, int n, const T *alpha,   \
	                                    const T *A, int lda, T *B, int ldb)                    \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_side(side), roc_fill(uplo), roc_op(op), roc_diag(diag), m, n, \
		          alpha, A, lda, B, ldb),                                                  \
		         (h, side, uplo, op, diag, m, n, alpha, A, lda, B, ldb));                  \
	}

#define TRSM_BATCHED(amd_name, name, own, symbol, T)                                               \
	static int (*symbol)(roc_handle, int, int, int, int, int, int, const T *, const T *const *, \
	                     int, T *const *, int, int);                                           \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasSideMode_t side,                    \
	                                    cublasFillMode_t uplo, cublasOperation_t op,           \
	                                    cublasDiagType_t diag, int m, int n, const T *alpha,   \
	                                    const T *const A[], int lda, T *const B[], int ldb,    \
	                                    int count)                                             \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_side(side), roc_fill(uplo), roc_op(op), roc_diag(diag), m, n, \
		          alpha, A, lda, B, ldb, count),                                           \
		         (h, side, uplo, op, diag, m, n, alpha, A, lda, B, ldb, count));           \
	}

#define TRMM(amd_name, name, own, symbol, T)                                                       \
	static int (*symbol)(roc_handle, int, int, int, int, int, int, const T *, const T *, int,  \
	                     const T *, int, T *, int);                                            \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasSideMode_t side,                    \
	                                    cublasFillMode_t uplo, cublasOperation_t op,           \
	                                    cublasDiagType_t diag, int m, int n, const T *alpha,   \
	                                    const T *A, int lda, const T *B, int ldb, T *C,        \
	                                    int ldc)                                               \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_side(side), roc_fill(uplo), roc_op(op), roc_diag(diag), m, n, \
		          alpha, A, lda, B, ldb, C, ldc),                                          \
		         (h, side, uplo, op, diag, m, n, alpha, A, lda, B, ldb, C, ldc));          \
	}

/* syrk and herk: S is the scalars' type (real for herk). */
#define SYRK(amd_name, name, own, symbol, T, S)                                                    \
	static int (*symbol)(roc_handle, int, int, int, int, const S *, const T *, int, const S *, \
	                     T *, int);                                                            \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasFillMode_t uplo,                    \
	                                    cublasOperation_t op, int n, int k, const S *alpha,    \
	                                    const T *A, int lda, const S *beta, T *C, int ldc)     \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_fill(uplo), roc_op(op), n, k, alpha, A, lda, beta, C, ldc),   \
		         (h, uplo, op, n, k, alpha, A, lda, beta, C, ldc));                        \
	}

/* syr2k, syrkx and, with a real beta (S), her2k and herkx. */
#define SYR2K(amd_name, name, own, symbol, T, S)                                           \
	static int (*symbol)(roc_handle, int, int, int, int, const T *, const T *, int, const T *, \
	                     int, const S *, T *, int);                                            \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasFillMode_t uplo,                    \
	                                    cublasOperation_t op, int n, int k, const T *alpha,    \
	                                    const T *A, int lda, const T *B, int ldb,              \
	                                    const S *beta, T *C, int ldc)                          \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_fill(uplo), roc_op(op), n, k, alpha, A, lda, B, ldb, beta, C, ldc), \
		         (h, uplo, op, n, k, alpha, A, lda, B, ldb, beta, C, ldc));                \
	}

/* symm and hemm. */
#define SYMM(amd_name, name, own, symbol, T)                                                       \
	static int (*symbol)(roc_handle, int, int, int, int, const T *, const T *, int, const T *, \
	                     int, const T *, T *, int);                                            \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasSideMode_t side,                    \
	                                    cublasFillMode_t uplo, int m, int n, const T *alpha,   \
	                                    const T *A, int lda, const T *B, int ldb,              \
	                                    const T *beta, T *C, int ldc)                          \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_side(side), roc_fill(uplo), m, n, alpha, A, lda, B, ldb, beta, C, \
		          ldc),                                                                    \
		         (h, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc));              \
	}

#define GEAM(amd_name, name, own, symbol, T)                                                       \
	static int (*symbol)(roc_handle, int, int, int, int, const T *, const T *, int, const T *, \
	                     const T *, int, T *, int);                                            \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasOperation_t ta,                     \
	                                    cublasOperation_t tb, int m, int n, const T *alpha,    \
	                                    const T *A, int lda, const T *beta, const T *B,        \
	                                    int ldb, T *C, int ldc)                                \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_op(ta), roc_op(tb), m, n, alpha, A, lda, beta, B, ldb, C, ldc), \
		         (h, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc));                  \
	}

#define DGMM(amd_name, name, own, symbol, T)                                                       \
	static int (*symbol)(roc_handle, int, int, int, const T *, int, const T *, int, T *, int); \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasSideMode_t side, int m, int n,      \
	                                    const T *A, int lda, const T *x, int incx, T *C,       \
	                                    int ldc)                                               \
	{                                                                                          \
		AMD_CALL(name, own, symbol, (roc_h, roc_side(side), m, n, A, lda, x, incx, C, ldc), \
		         (h, side, m, n, A, lda, x, incx, C, ldc));                                \
	}

#define GEMV(amd_name, name, own, symbol, T)                                                       \
	static int (*symbol)(roc_handle, int, int, int, const T *, const T *, int, const T *, int, \
	                     const T *, T *, int);                                                 \
	static cublasStatus_t amd_name(cublasHandle_t h, cublasOperation_t op, int m, int n,       \
	                                    const T *alpha, const T *A, int lda, const T *x,       \
	                                    int incx, const T *beta, T *y, int incy)               \
	{                                                                                          \
		AMD_CALL(name, own, symbol,                                                        \
		         (roc_h, roc_op(op), m, n, alpha, A, lda, x, incx, beta, y, incy),         \
		         (h, op, m, n, alpha, A, lda, x, incx, beta, y, incy));                    \
	}

/* Every mapped routine: its family, cuBLAS's name (the project's implementation, after
 * replacement_rename.h), rocBLAS's, and the element type. */
#define MAPPED(X)                                                                                  \
	X(GEMM, cublasSgemm_v2, rocblas_sgemm, float)                                              \
	X(GEMM, cublasDgemm_v2, rocblas_dgemm, double)                                             \
	X(GEMM, cublasCgemm_v2, rocblas_cgemm, cuComplex)                                          \
	X(GEMM, cublasZgemm_v2, rocblas_zgemm, cuDoubleComplex)                                    \
	X(GEMM, cublasHgemm, rocblas_hgemm, uint16_t)                                                \
	X(GEMM_BATCHED, cublasSgemmBatched, rocblas_sgemm_batched, float)                          \
	X(GEMM_BATCHED, cublasDgemmBatched, rocblas_dgemm_batched, double)                         \
	X(GEMM_BATCHED, cublasCgemmBatched, rocblas_cgemm_batched, cuComplex)                      \
	X(GEMM_BATCHED, cublasZgemmBatched, rocblas_zgemm_batched, cuDoubleComplex)                \
	X(GEMM_BATCHED, cublasHgemmBatched, rocblas_hgemm_batched, uint16_t)                         \
	X(GEMM_STRIDED, cublasSgemmStridedBatched, rocblas_sgemm_strided_batched, float)           \
	X(GEMM_STRIDED, cublasDgemmStridedBatched, rocblas_dgemm_strided_batched, double)          \
	X(GEMM_STRIDED, cublasCgemmStridedBatched, rocblas_cgemm_strided_batched, cuComplex)       \
	X(GEMM_STRIDED, cublasZgemmStridedBatched, rocblas_zgemm_strided_batched, cuDoubleComplex) \
	X(GEMM_STRIDED, cublasHgemmStridedBatched, rocblas_hgemm_strided_batched, uint16_t)          \
	X(TRSM, cublasStrsm_v2, rocblas_strsm, float)                                              \
	X(TRSM, cublasDtrsm_v2, rocblas_dtrsm, double)                                             \
	X(TRSM, cublasCtrsm_v2, rocblas_ctrsm, cuComplex)                                          \
	X(TRSM, cublasZtrsm_v2, rocblas_ztrsm, cuDoubleComplex)                                    \
	X(TRSM_BATCHED, cublasStrsmBatched, rocblas_strsm_batched, float)                          \
	X(TRSM_BATCHED, cublasDtrsmBatched, rocblas_dtrsm_batched, double)                         \
	X(TRSM_BATCHED, cublasCtrsmBatched, rocblas_ctrsm_batched, cuComplex)                      \
	X(TRSM_BATCHED, cublasZtrsmBatched, rocblas_ztrsm_batched, cuDoubleComplex)                \
	X(TRMM, cublasStrmm_v2, rocblas_strmm, float)                                              \
	X(TRMM, cublasDtrmm_v2, rocblas_dtrmm, double)                                             \
	X(TRMM, cublasCtrmm_v2, rocblas_ctrmm, cuComplex)                                          \
	X(TRMM, cublasZtrmm_v2, rocblas_ztrmm, cuDoubleComplex)                                    \
	X(SYRK, cublasSsyrk_v2, rocblas_ssyrk, float, float)                                       \
	X(SYRK, cublasDsyrk_v2, rocblas_dsyrk, double, double)                                     \
	X(SYRK, cublasCsyrk_v2, rocblas_csyrk, cuComplex, cuComplex)                               \
	X(SYRK, cublasZsyrk_v2, rocblas_zsyrk, cuDoubleComplex, cuDoubleComplex)                   \
	X(SYRK, cublasCherk_v2, rocblas_cherk, cuComplex, float)                                   \
	X(SYRK, cublasZherk_v2, rocblas_zherk, cuDoubleComplex, double)                            \
	X(SYR2K, cublasSsyr2k_v2, rocblas_ssyr2k, float, float)                                    \
	X(SYR2K, cublasDsyr2k_v2, rocblas_dsyr2k, double, double)                                  \
	X(SYR2K, cublasCsyr2k_v2, rocblas_csyr2k, cuComplex, cuComplex)                            \
	X(SYR2K, cublasZsyr2k_v2, rocblas_zsyr2k, cuDoubleComplex, cuDoubleComplex)                \
	X(SYR2K, cublasSsyrkx, rocblas_ssyrkx, float, float)                                       \
	X(SYR2K, cublasDsyrkx, rocblas_dsyrkx, double, double)                                     \
	X(SYR2K, cublasCsyrkx, rocblas_csyrkx, cuComplex, cuComplex)                               \
	X(SYR2K, cublasZsyrkx, rocblas_zsyrkx, cuDoubleComplex, cuDoubleComplex)                   \
	X(SYR2K, cublasCherkx, rocblas_cherkx, cuComplex, float)                                   \
	X(SYR2K, cublasCher2k_v2, rocblas_cher2k, cuComplex, float)                                \
	X(SYR2K, cublasZherkx, rocblas_zherkx, cuDoubleComplex, double)                            \
	X(SYR2K, cublasZher2k_v2, rocblas_zher2k, cuDoubleComplex, double)                         \
	X(SYMM, cublasSsymm_v2, rocblas_ssymm, float)                                              \
	X(SYMM, cublasDsymm_v2, rocblas_dsymm, double)                                             \
	X(SYMM, cublasCsymm_v2, rocblas_csymm, cuComplex)                                          \
	X(SYMM, cublasZsymm_v2, rocblas_zsymm, cuDoubleComplex)                                    \
	X(SYMM, cublasChemm_v2, rocblas_chemm, cuComplex)                                          \
	X(SYMM, cublasZhemm_v2, rocblas_zhemm, cuDoubleComplex)                                    \
	X(GEAM, cublasSgeam, rocblas_sgeam, float)                                                 \
	X(GEAM, cublasDgeam, rocblas_dgeam, double)                                                \
	X(GEAM, cublasCgeam, rocblas_cgeam, cuComplex)                                             \
	X(GEAM, cublasZgeam, rocblas_zgeam, cuDoubleComplex)                                       \
	X(DGMM, cublasSdgmm, rocblas_sdgmm, float)                                                 \
	X(DGMM, cublasDdgmm, rocblas_ddgmm, double)                                                \
	X(DGMM, cublasCdgmm, rocblas_cdgmm, cuComplex)                                             \
	X(DGMM, cublasZdgmm, rocblas_zdgmm, cuDoubleComplex)                                       \
	X(GEMV, cublasSgemv_v2, rocblas_sgemv, float)                                              \
	X(GEMV, cublasDgemv_v2, rocblas_dgemv, double)                                             \
	X(GEMV, cublasCgemv_v2, rocblas_cgemv, cuComplex)                                          \
	X(GEMV, cublasZgemv_v2, rocblas_zgemv, cuDoubleComplex)

#define DEFINE(family, routine, symbol, ...)                                                      \
	family(amd_##routine, #routine, routine, symbol, __VA_ARGS__)
MAPPED(DEFINE)
#undef DEFINE

/* gemmEx and its batched forms: D is C, in place. */
static int (*rocblas_gemm_ex)(roc_handle, int, int, int, int, int, const void *, const void *,
                              int, int, const void *, int, int, const void *, const void *, int,
                              int, void *, int, int, int, int, int32_t, uint32_t);
static int (*rocblas_gemm_batched_ex)(roc_handle, int, int, int, int, int, const void *,
                                      const void *, int, int, const void *, int, int,
                                      const void *, const void *, int, int, void *const *, int,
                                      int, int, int, int, int32_t, uint32_t);
static int (*rocblas_gemm_strided_batched_ex)(roc_handle, int, int, int, int, int, const void *,
                                              const void *, int, int, int64_t, const void *,
                                              int, int, int64_t, const void *, const void *,
                                              int, int, int64_t, void *, int, int, int64_t, int,
                                              int, int, int32_t, uint32_t);

static cublasStatus_t amd_cublasGemmEx(cublasHandle_t h, cublasOperation_t ta,
                                       cublasOperation_t tb, int m, int n, int k,
                                       const void *alpha, const void *A, cudaDataType at,
                                       int lda, const void *B, cudaDataType bt, int ldb,
                                       const void *beta, void *C, cudaDataType ct, int ldc,
                                       cublasComputeType_t compute, cublasGemmAlgo_t algo)
{
	AMD_CALL("cublasGemmEx", cublasGemmEx, rocblas_gemm_ex,
	         (roc_h, roc_op(ta), roc_op(tb), m, n, k, alpha, A, roc_type(at), lda, B,
	          roc_type(bt), ldb, beta, C, roc_type(ct), ldc, C, roc_type(ct), ldc,
	          roc_compute(compute, ct), ROC_GEMM_ALGO_STANDARD, 0, 0),
	         (h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc, compute,
	          algo));
}

static cublasStatus_t amd_cublasGemmBatchedEx(cublasHandle_t h, cublasOperation_t ta,
                                              cublasOperation_t tb, int m, int n, int k,
                                              const void *alpha, const void *const A[],
                                              cudaDataType at, int lda, const void *const B[],
                                              cudaDataType bt, int ldb, const void *beta,
                                              void *const C[], cudaDataType ct, int ldc,
                                              int count, cublasComputeType_t compute,
                                              cublasGemmAlgo_t algo)
{
	AMD_CALL("cublasGemmBatchedEx", cublasGemmBatchedEx, rocblas_gemm_batched_ex,
	         (roc_h, roc_op(ta), roc_op(tb), m, n, k, alpha, A, roc_type(at), lda, B,
	          roc_type(bt), ldb, beta, C, roc_type(ct), ldc, C, roc_type(ct), ldc, count,
	          roc_compute(compute, ct), ROC_GEMM_ALGO_STANDARD, 0, 0),
	         (h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc, count,
	          compute, algo));
}

static cublasStatus_t amd_cublasGemmStridedBatchedEx(
	cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
	const void *alpha, const void *A, cudaDataType at, int lda, long long sa, const void *B,
	cudaDataType bt, int ldb, long long sb, const void *beta, void *C, cudaDataType ct, int ldc,
	long long sc, int count, cublasComputeType_t compute, cublasGemmAlgo_t algo)
{
	AMD_CALL("cublasGemmStridedBatchedEx", cublasGemmStridedBatchedEx,
	         rocblas_gemm_strided_batched_ex,
	         (roc_h, roc_op(ta), roc_op(tb), m, n, k, alpha, A, roc_type(at), lda, sa, B,
	          roc_type(bt), ldb, sb, beta, C, roc_type(ct), ldc, sc, C, roc_type(ct), ldc, sc,
	          count, roc_compute(compute, ct), ROC_GEMM_ALGO_STANDARD, 0, 0),
	         (h, ta, tb, m, n, k, alpha, A, at, lda, sa, B, bt, ldb, sb, beta, C, ct, ldc, sc,
	          count, compute, algo));
}

/* A handle made as ever, with rocBLAS's beside it; without one (rocBLAS could not make it),
 * the handle's routines are all the project's. */
static cublasStatus_t amd_cublasCreate_v2(cublasHandle_t *handle)
{
	cublasStatus_t s = cublasCreate(handle);
	void *native;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	/* The legacy stream's device made HIP's current one, which rocBLAS's handle takes. */
	if (zc_engine_native_stream(NULL, &native) != CUDA_SUCCESS ||
	    roc.create_handle(&(*handle)->amd) != ROC_SUCCESS) {
		(*handle)->amd = NULL;
		zc_engine_trace("cublasCreate", "rocBLAS made no handle: the project's kernels run "
		                "this handle's routines");
	}
	return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t amd_cublasDestroy_v2(cublasHandle_t h)
{
	cublasStatus_t s = blas_begin(h, "cublasDestroy");

	if (s == CUBLAS_STATUS_SUCCESS && h->amd) {
		roc.destroy_handle(h->amd);
		h->amd = NULL;
	}
	return s == CUBLAS_STATUS_SUCCESS ? cublasDestroy(h) : s;
}

static const struct {
	const char *routine, *symbol;
	void **fn;
	void *mapped;
} mapped[] = {
#define ENTRY(family, routine, symbol, ...)                                                        \
	{ #routine, #symbol, (void **)&symbol, (void *)amd_##routine },
	MAPPED(ENTRY)
#undef ENTRY
	{ "cublasGemmEx", "rocblas_gemm_ex", (void **)&rocblas_gemm_ex, (void *)amd_cublasGemmEx },
	{ "cublasGemmBatchedEx", "rocblas_gemm_batched_ex", (void **)&rocblas_gemm_batched_ex,
	  (void *)amd_cublasGemmBatchedEx },
	{ "cublasGemmStridedBatchedEx", "rocblas_gemm_strided_batched_ex",
	  (void **)&rocblas_gemm_strided_batched_ex, (void *)amd_cublasGemmStridedBatchedEx },
	{ "cublasCreate_v2", NULL, NULL, (void *)amd_cublasCreate_v2 },
	{ "cublasDestroy_v2", NULL, NULL, (void *)amd_cublasDestroy_v2 },
};

/* rocBLAS as ZLUDA_CONVERT_ROCBLAS_PATH names it, else ROCm 7's or ROCm 6's. */
/* ROCm 7's and 6's on Linux; on Windows, where the HIP SDK's rocblas.dll has not been tried,
 * only what ZLUDA_CONVERT_ROCBLAS_PATH names. */
static void *load_rocblas(char *name, size_t size)
{
	static const char *const names[] = {
#ifndef _WIN32
		"librocblas.so.5", "librocblas.so.4",
#endif
		NULL
	};

	return zc_engine_load_amd("rocBLAS", "ZLUDA_CONVERT_ROCBLAS_PATH", names,
	                          "the project's kernels run every routine", name, size);
}

void zc_engine_amd(const char *const *names, void **functions, size_t count)
{
	char name[4096];
	void *lib = load_rocblas(name, sizeof name);
	size_t taken = 0;

	if (!lib)
		return;
	for (size_t i = 0; i < sizeof roc_helpers / sizeof roc_helpers[0]; i++)
		if (!(*roc_helpers[i].fn = zc_engine_symbol(lib, roc_helpers[i].symbol))) {
			zc_engine_trace("rocBLAS", "%s lacks %s: the project's kernels run every routine",
			                name, roc_helpers[i].symbol);
			zc_engine_close(lib);
			return;
		}
	for (size_t m = 0; m < sizeof mapped / sizeof mapped[0]; m++) {
		if (mapped[m].symbol && !(*mapped[m].fn = zc_engine_symbol(lib, mapped[m].symbol)))
			continue;
		for (size_t i = 0; i < count; i++)
			if (strcmp(names[i], mapped[m].routine) == 0) {
				functions[i] = mapped[m].mapped;
				taken++;
			}
	}
	zc_engine_trace("rocBLAS", "%s takes %zu routines", name, taken);
}
