/* The batched factorisations for many small matrices: getrfBatched (LU with partial pivoting
 * or none), getrsBatched (solves with its factors), getriBatched (the inverse from them),
 * matinvBatched (the inverse of A itself), geqrfBatched (Householder QR) and gelsBatched
 * (least squares by it), each matrix by one block (blas_kernels.cu's getrf, getrs, lu_copy
 * and qr). */
#include <stdio.h>
#include <string.h>

#include "blas.h"

enum { LU_THREADS = 256, MATINV_MAX = 32 };

#define INVALID(routine, ...) blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, __VA_ARGS__)

static struct zc_matrix batch(const void *const *array, int64_t ld)
{
	struct zc_matrix m = {.array = array, .inc = 1, .ld = ld};
	return m;
}

static cublasStatus_t lu_launch(cublasHandle_t h, const char *kernel, enum blas_type t,
                                const struct zc_lu_args *l)
{
	char name[32];

	snprintf(name, sizeof(name), "zc_%s_%s", kernel, blas_suffix(t));
	return blas_launch(h, name, blas_blocks(l->batch, 1), 1, 1, LU_THREADS, l);
}

static cublasStatus_t getrf(cublasHandle_t h, const char *routine, enum blas_type t, int64_t n,
                            void *const *a, int64_t lda, int *pivots, int *info, int64_t count)
{
	cublasStatus_t s = blas_begin(h, routine);
	struct zc_lu_args l;

	if (s)
		return s;
	if (n < 0 || lda < (n > 1 ? n : 1) || count < 0)
		return INVALID(routine, "n %lld, lda %lld, batch %lld", (long long)n, (long long)lda,
		               (long long)count);
	if (!info || (count && !a))
		return INVALID(routine, "NULL info or A");
	if (n == 0 || count == 0)
		return CUBLAS_STATUS_SUCCESS;
	memset(&l, 0, sizeof(l));
	l.n = n, l.batch = count;
	l.a = batch((const void *const *)a, lda);
	l.pivots = pivots;
	l.info = info;
	return lu_launch(h, "getrf", t, &l);
}

static cublasStatus_t getrs(cublasHandle_t h, const char *routine, enum blas_type t,
                            cublasOperation_t op, int64_t n, int64_t nrhs, const void *const *a,
                            int64_t lda, const int *pivots, void *const *b, int64_t ldb,
                            int *info, int64_t count)
{
	cublasStatus_t s = blas_begin(h, routine);
	struct zc_lu_args l;
	int bad = 0;

	if (s)
		return s;
	/* info is the host's: the 1-based position of the first bad argument, LAPACK's way */
	if (op != CUBLAS_OP_N && op != CUBLAS_OP_T && op != CUBLAS_OP_C)
		bad = 1;
	else if (n < 0)
		bad = 2;
	else if (nrhs < 0)
		bad = 3;
	else if (lda < (n > 1 ? n : 1))
		bad = 5;
	else if (ldb < (n > 1 ? n : 1))
		bad = 8;
	else if (count < 0)
		bad = 10;
	if (!info)
		return INVALID(routine, "NULL info");
	*info = -bad;
	if (bad)
		return INVALID(routine, "argument %d (trans %d, n %lld, nrhs %lld, lda %lld, ldb %lld)",
		               bad, op, (long long)n, (long long)nrhs, (long long)lda, (long long)ldb);
	if (n == 0 || nrhs == 0 || count == 0)
		return CUBLAS_STATUS_SUCCESS;
	memset(&l, 0, sizeof(l));
	l.n = n, l.nrhs = nrhs, l.batch = count;
	l.a = batch(a, lda);
	l.b = batch((const void *const *)b, ldb);
	l.pivots = (int *)pivots;
	l.op = blas_op(op);
	return lu_launch(h, "getrs", t, &l);
}

/* C = inv(A) from A's factors (getri), or of A itself through a copy factored in the
 * handle's scratch memory (matinv, at most 32 x 32 as cuBLAS's). */
static cublasStatus_t inverse(cublasHandle_t h, const char *routine, enum blas_type t,
                              int64_t n, const void *const *a, int64_t lda, const int *pivots,
                              void *const *c, int64_t ldc, int *info, int64_t count,
                              bool factor)
{
	cublasStatus_t s = blas_begin(h, routine);
	size_t size = blas_size(t);
	struct zc_lu_args l;
	CUdeviceptr work;

	if (s)
		return s;
	if (n < 0 || (factor && n > MATINV_MAX) || lda < (n > 1 ? n : 1) ||
	    ldc < (n > 1 ? n : 1) || count < 0)
		return INVALID(routine, "n %lld, lda %lld, ldc %lld, batch %lld", (long long)n,
		               (long long)lda, (long long)ldc, (long long)count);
	if (!info || (count && (!a || !c)))
		return INVALID(routine, "NULL info, A or C");
	if (n == 0 || count == 0)
		return CUBLAS_STATUS_SUCCESS;
	memset(&l, 0, sizeof(l));
	l.n = n, l.nrhs = n, l.batch = count;
	l.a = batch(a, lda);
	l.b = batch((const void *const *)c, ldc);
	l.pivots = (int *)pivots;
	l.info = info;
	l.identity = 1;
	if (factor) {
		/* the copies of A, n x n each, then their pivots */
		size_t copies = (size_t)(n * n * count) * size;
		if ((s = blas_scratch(h, copies + (size_t)(n * count) * sizeof(int), &work)))
			return s;
		l.b = (struct zc_matrix){.data = (void *)(uintptr_t)work, .inc = 1, .ld = n,
		                         .stride = n * n};
		if ((s = lu_launch(h, "lu_copy", t, &l)))
			return s;
		l.a = l.b;
		l.pivots = (int *)(uintptr_t)(work + copies);
		if ((s = lu_launch(h, "getrf", t, &l)))
			return s;
		l.b = batch((const void *const *)c, ldc);
	}
	return lu_launch(h, "getrs", t, &l);
}

#define LU_ROUTINES(P, T, type)                                                                   \
	cublasStatus_t cublas##P##getrfBatched(cublasHandle_t h, int n, T *const a[], int lda,       \
	                                       int *pivots, int *info, int count)                    \
	{                                                                                             \
		return getrf(h, "cublas" #P "getrfBatched", type, n, (void *const *)a, lda, pivots,      \
		             info, count);                                                               \
	}                                                                                             \
	cublasStatus_t cublas##P##getrsBatched(cublasHandle_t h, cublasOperation_t op, int n,        \
	                                       int nrhs, const T *const a[], int lda,                \
	                                       const int *pivots, T *const b[], int ldb, int *info,  \
	                                       int count)                                            \
	{                                                                                             \
		return getrs(h, "cublas" #P "getrsBatched", type, op, n, nrhs,                           \
		             (const void *const *)a, lda, pivots, (void *const *)b, ldb, info, count);   \
	}                                                                                             \
	cublasStatus_t cublas##P##getriBatched(cublasHandle_t h, int n, const T *const a[], int lda, \
	                                       const int *pivots, T *const c[], int ldc, int *info,  \
	                                       int count)                                            \
	{                                                                                             \
		return inverse(h, "cublas" #P "getriBatched", type, n, (const void *const *)a, lda,      \
		               pivots, (void *const *)c, ldc, info, count, false);                       \
	}                                                                                             \
	cublasStatus_t cublas##P##matinvBatched(cublasHandle_t h, int n, const T *const a[],         \
	                                        int lda, T *const c[], int ldc, int *info,           \
	                                        int count)                                           \
	{                                                                                             \
		return inverse(h, "cublas" #P "matinvBatched", type, n, (const void *const *)a, lda,     \
		               NULL, (void *const *)c, ldc, info, count, true);                          \
	}
LU_ROUTINES(S, float, BLAS_S)
LU_ROUTINES(D, double, BLAS_D)
LU_ROUTINES(C, cuComplex, BLAS_C)
LU_ROUTINES(Z, cuDoubleComplex, BLAS_Z)

/* geqrfBatched and gelsBatched: *info is 0, or -i for the i-th argument wrong, counted as
 * NVIDIA's cuBLAS counts them (the handle not, gels's op not either: measured on an H100);
 * gels takes op N and m >= n only (NOT_SUPPORTED otherwise, info 0, as NVIDIA's), and writes
 * each matrix's devInfo. */
static cublasStatus_t qr(cublasHandle_t h, const char *routine, enum blas_type t, int64_t m,
                         int64_t n, void *const *a, int64_t lda, void *const *tau, int64_t nrhs,
                         void *const *c, int64_t ldc, int *info, int *dev_info, int64_t count)
{
	cublasStatus_t s = blas_begin(h, routine);
	struct zc_qr_args q;
	char name[32];

	if (s)
		return s;
	if (!info)
		return INVALID(routine, "NULL info");
	memset(&q, 0, sizeof(q));
	q.m = m, q.n = n, q.nrhs = nrhs, q.batch = count;
	q.a = batch((const void *const *)a, lda);
	if (tau)
		q.tau = batch((const void *const *)tau, 1);
	if (c)
		q.c = batch((const void *const *)c, ldc);
	q.info = dev_info;
	snprintf(name, sizeof(name), "zc_qr_%s", blas_suffix(t));
	*info = 0;
	return m && n && count ? blas_launch(h, name, blas_blocks(count, 1), 1, 1, LU_THREADS, &q)
	                       : CUBLAS_STATUS_SUCCESS;
}

/* The first wrong argument's place, as *info reports it, or 0. */
static int wrong(const bool bad[], int count)
{
	for (int i = 0; i < count; i++)
		if (bad[i])
			return -(i + 1);
	return 0;
}

#define QR_ROUTINES(P, T, type)                                                                   \
	cublasStatus_t cublas##P##geqrfBatched(cublasHandle_t h, int m, int n, T *const a[], int lda, \
	                                       T *const tau[], int *info, int count)                 \
	{                                                                                             \
		const bool bad[] = {m < 0, n < 0, !a && count, lda < (m > 1 ? m : 1), !tau && count,    \
		                    !info, count < 0};                                                   \
		int which = wrong(bad, 7);                                                               \
		if (which) {                                                                             \
			if (info)                                                                            \
				*info = which;                                                                   \
			return INVALID("cublas" #P "geqrfBatched", "argument %d", -which);                   \
		}                                                                                        \
		return qr(h, "cublas" #P "geqrfBatched", type, m, n, (void *const *)a, lda,              \
		          (void *const *)tau, 0, NULL, 0, info, NULL, count);                            \
	}                                                                                             \
	cublasStatus_t cublas##P##gelsBatched(cublasHandle_t h, cublasOperation_t op, int m, int n,  \
	                                      int nrhs, T *const a[], int lda, T *const c[], int ldc, \
	                                      int *info, int *dev_info, int count)                   \
	{                                                                                             \
		const bool bad[] = {m < 0, n < 0, nrhs < 0, !a && count, lda < (m > 1 ? m : 1),          \
		                    !c && count, ldc < (m > 1 ? m : 1), !info, !dev_info && count,       \
		                    count < 0};                                                          \
		int which = wrong(bad, 10);                                                              \
		if (info)                                                                                \
			*info = which;                                                                       \
		if (which)                                                                               \
			return INVALID("cublas" #P "gelsBatched", "argument %d", -which);                    \
		if (op != CUBLAS_OP_N || m < n)                                                          \
			return blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, "cublas" #P "gelsBatched",             \
			                 "op %d, m %d < n %d", op, m, n);                                    \
		return qr(h, "cublas" #P "gelsBatched", type, m, n, (void *const *)a, lda, NULL, nrhs,   \
		          (void *const *)c, ldc, info, dev_info, count);                                 \
	}
QR_ROUTINES(S, float, BLAS_S)
QR_ROUTINES(D, double, BLAS_D)
QR_ROUTINES(C, cuComplex, BLAS_C)
QR_ROUTINES(Z, cuDoubleComplex, BLAS_Z)
