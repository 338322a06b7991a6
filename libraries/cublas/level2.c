/* Level 2: matrix-vector operations, each a case of the gemm kernel (a vector is an n x 1
 * matrix) or of the triangular solve, the matrix in full, band or packed storage. */
#include <stdio.h>
#include <string.h>

#include "blas.h"

#define INVALID(routine, ...) blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, __VA_ARGS__)

static bool bad_op(cublasOperation_t op)
{
	return op != CUBLAS_OP_N && op != CUBLAS_OP_T && op != CUBLAS_OP_C;
}

static bool bad_fill(cublasFillMode_t uplo)
{
	return uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER;
}

/* The arguments of y = alpha op(A) x + beta y for the gemm kernel, A's leading dimension at
 * least MIN_LDA (and 1); x's and A's elements X_SIZE bytes, y's Y_SIZE, the scalars
 * SCALE_SIZE. */
static cublasStatus_t gemv_args(cublasHandle_t h, const char *routine, cublasOperation_t trans,
                                int64_t m, int64_t n, const void *alpha, struct zc_matrix a,
                                int64_t min_lda, const void *x, size_t x_size, int64_t incx,
                                const void *beta, void *y, size_t y_size, int64_t incy,
                                size_t scale_size, struct zc_gemm_args *g)
{
	cublasStatus_t s = blas_begin(h, routine);
	int64_t rows = trans == CUBLAS_OP_N ? m : n, cols = trans == CUBLAS_OP_N ? n : m;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (bad_op(trans) || m < 0 || n < 0 || a.ld < (min_lda > 1 ? min_lda : 1) || incx == 0 ||
	    incy == 0)
		return INVALID(routine, "trans %d, m %lld, n %lld, lda %lld, incx %lld, incy %lld",
		               trans, (long long)m, (long long)n, (long long)a.ld, (long long)incx,
		               (long long)incy);
	if (!alpha || !beta)
		return INVALID(routine, "NULL scalar");
	memset(g, 0, sizeof(*g));
	g->m = rows, g->n = 1, g->k = cols, g->batch = 1;
	g->alpha = blas_scalar(h, alpha, scale_size);
	g->beta = blas_scalar(h, beta, scale_size);
	g->a = a;
	g->b = blas_vector(x, cols, incx, x_size);
	g->c = blas_vector(y, rows, incy, y_size);
	g->fill = ZC_FILL_ALL;
	return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t gemv(cublasHandle_t h, const char *routine, enum blas_type t,
                           cublasOperation_t trans, int64_t m, int64_t n, const void *alpha,
                           struct zc_matrix a, int64_t min_lda, const void *x, int64_t incx,
                           const void *beta, void *y, int64_t incy)
{
	struct zc_gemm_args g;
	cublasStatus_t s = gemv_args(h, routine, trans, m, n, alpha, a, min_lda, x, blas_size(t),
	                             incx, beta, y, blas_size(t), incy, blas_size(t), &g);

	return s ? s : blas_gemm(h, blas_suffix(t), &g);
}

static struct zc_matrix shaped(const void *a, int64_t lda, cublasOperation_t op, int32_t shape,
                               cublasFillMode_t uplo, cublasDiagType_t diag)
{
	struct zc_matrix m = blas_matrix(a, lda, op);

	m.shape = shape;
	m.lower = uplo == CUBLAS_FILL_MODE_LOWER;
	m.unit = diag == CUBLAS_DIAG_UNIT;
	return m;
}

/* A band of SUB subdiagonals and SUPER superdiagonals (of a symmetric, Hermitian or
 * triangular one, those of its stored triangle). */
static struct zc_matrix band(struct zc_matrix m, int64_t sub, int64_t super)
{
	m.storage = ZC_STORAGE_BAND;
	m.sub = sub;
	m.super = super;
	return m;
}

/* One triangle of an N x N matrix, packed. */
static struct zc_matrix packed(struct zc_matrix m, int64_t n)
{
	m.storage = ZC_STORAGE_PACKED;
	m.ld = 1;
	m.order = n;
	return m;
}

/* How a rank-1 update treats A: all of it (ger), one triangle (syr, syr2), or one triangle
 * of a Hermitian matrix, whose diagonal stays real (her with its real alpha, her2). */
enum rank1_kind { RANK1_GENERAL, RANK1_TRIANGLE, RANK1_HERMITIAN, RANK1_HERMITIAN_REAL_ALPHA };

/* A = alpha x op(y) + A over the fill triangle FILL, A in full storage (its leading
 * dimension at least MIN_LDA) or packed; alpha is already the scalar the kernel reads
 * (blas_scalar). */
static cublasStatus_t rank1(cublasHandle_t h, const char *routine, enum blas_type t, int64_t m,
                            int64_t n, struct zc_scalar alpha, const void *x, int64_t incx,
                            const void *y, int64_t incy, bool conjugate, struct zc_matrix a,
                            int64_t min_lda, enum rank1_kind kind, cublasFillMode_t uplo)
{
	cublasStatus_t s = blas_begin(h, routine);
	bool real_alpha = kind == RANK1_HERMITIAN_REAL_ALPHA;
	char name[32];
	struct zc_gemm_args g;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if ((kind != RANK1_GENERAL && bad_fill(uplo)) || m < 0 || n < 0 || incx == 0 || incy == 0 ||
	    a.ld < (min_lda > 1 ? min_lda : 1))
		return INVALID(routine, "uplo %d, m %lld, n %lld, incx %lld, incy %lld, lda %lld", uplo,
		               (long long)m, (long long)n, (long long)incx, (long long)incy,
		               (long long)a.ld);
	memset(&g, 0, sizeof(g));
	g.m = m, g.n = n, g.k = 1, g.batch = 1;
	g.alpha = alpha;
	g.beta = blas_value(1, real_alpha ? (t == BLAS_C ? BLAS_S : BLAS_D) : t);
	g.a = blas_vector(x, m, incx, blas_size(t));
	g.b = blas_vector(y, n, incy, blas_size(t));
	g.b.op = conjugate ? ZC_OP_C : ZC_OP_T;
	g.c = a;
	g.fill = kind == RANK1_GENERAL ? ZC_FILL_ALL
	         : uplo == CUBLAS_FILL_MODE_LOWER ? ZC_FILL_LOWER : ZC_FILL_UPPER;
	g.hermitian_result = kind >= RANK1_HERMITIAN;
	snprintf(name, sizeof(name), "%s%s", blas_suffix(t), real_alpha ? "_real_scale" : "");
	return blas_gemm(h, name, &g);
}

/* The arguments of trmv, trsv and their band and packed forms; A's leading dimension must
 * be at least MIN_LDA (and 1), a band's count K not negative. */
static cublasStatus_t triangular_arguments(const char *routine, cublasFillMode_t uplo,
                                           cublasOperation_t trans, int64_t n, int64_t k,
                                           struct zc_matrix a, int64_t min_lda, int64_t incx)
{
	if (bad_fill(uplo) || bad_op(trans) || n < 0 || k < 0 ||
	    a.ld < (min_lda > 1 ? min_lda : 1) || incx == 0)
		return INVALID(routine, "uplo %d, trans %d, n %lld, k %lld, lda %lld, incx %lld", uplo,
		               trans, (long long)n, (long long)k, (long long)a.ld, (long long)incx);
	return CUBLAS_STATUS_SUCCESS;
}

/* x = op(A) x: through a copy of x, which the product reads while it writes x. A is
 * triangular, op and diagonal already in it. */
static cublasStatus_t trmv(cublasHandle_t h, const char *routine, enum blas_type t,
                           cublasFillMode_t uplo, cublasOperation_t trans, int64_t n, int64_t k,
                           struct zc_matrix a, int64_t min_lda, void *x, int64_t incx)
{
	cublasStatus_t s = blas_begin(h, routine);
	struct zc_gemm_args g;
	struct zc_vector_args v;
	CUdeviceptr copy;
	char kernel[32];

	if (s != CUBLAS_STATUS_SUCCESS ||
	    (s = triangular_arguments(routine, uplo, trans, n, k, a, min_lda, incx)) || n == 0)
		return s;
	if ((s = blas_scratch(h, (size_t)n * blas_size(t), &copy)))
		return s;
	memset(&v, 0, sizeof(v));
	v.n = n, v.x = x, v.incx = incx, v.y = (void *)(uintptr_t)copy, v.incy = 1;
	snprintf(kernel, sizeof(kernel), "zc_copy_%s", blas_suffix(t));
	if ((s = blas_launch(h, kernel, blas_blocks(n, 256), 1, 1, 256, &v)))
		return s;
	memset(&g, 0, sizeof(g));
	g.m = n, g.n = 1, g.k = n, g.batch = 1;
	g.alpha = blas_value(1, t);
	g.beta = blas_value(0, t);
	g.a = a;
	g.b = blas_vector((void *)(uintptr_t)copy, n, 1, blas_size(t));
	g.c = blas_vector(x, n, incx, blas_size(t));
	g.fill = ZC_FILL_ALL;
	return blas_gemm(h, blas_suffix(t), &g);
}

static cublasStatus_t trsv(cublasHandle_t h, const char *routine, enum blas_type t,
                           cublasFillMode_t uplo, cublasOperation_t trans, int64_t n, int64_t k,
                           struct zc_matrix a, int64_t min_lda, void *x, int64_t incx)
{
	cublasStatus_t s = blas_begin(h, routine);
	struct zc_trsm_args r;
	char kernel[32];

	if (s != CUBLAS_STATUS_SUCCESS ||
	    (s = triangular_arguments(routine, uplo, trans, n, k, a, min_lda, incx)) || n == 0)
		return s;
	memset(&r, 0, sizeof(r));
	r.m = n, r.n = 1, r.batch = 1;
	r.alpha = blas_value(1, t);
	r.a = a;
	r.b = blas_vector(x, n, incx, blas_size(t));
	snprintf(kernel, sizeof(kernel), "zc_trsm_%s", blas_suffix(t));
	return blas_launch(h, kernel, 1, 1, 1, 64, &r);
}

#define TRIANGULAR(a, lda, trans, uplo, diag)                                                     \
	shaped(a, lda, trans, ZC_SHAPE_TRIANGULAR, uplo, diag)
#define TYPED(P, T, type)                                                                        \
	cublasStatus_t cublas##P##gemv(cublasHandle_t h, cublasOperation_t trans, int m, int n,      \
	                               const T *alpha, const T *a, int lda, const T *x, int incx,    \
	                               const T *beta, T *y, int incy)                                \
	{                                                                                            \
		return gemv(h, "cublas" #P "gemv", type, trans, m, n, alpha,                             \
		            blas_matrix(a, lda, trans), m, x, incx, beta, y, incy);                      \
	}                                                                                            \
	cublasStatus_t cublas##P##gbmv(cublasHandle_t h, cublasOperation_t trans, int m, int n,      \
	                               int kl, int ku, const T *alpha, const T *a, int lda,          \
	                               const T *x, int incx, const T *beta, T *y, int incy)          \
	{                                                                                            \
		if (kl < 0 || ku < 0)                                                                    \
			return INVALID("cublas" #P "gbmv", "kl %d, ku %d", kl, ku);                          \
		return gemv(h, "cublas" #P "gbmv", type, trans, m, n, alpha,                             \
		            band(blas_matrix(a, lda, trans), kl, ku), (int64_t)kl + ku + 1, x, incx,     \
		            beta, y, incy);                                                              \
	}                                                                                            \
	cublasStatus_t cublas##P##trmv(cublasHandle_t h, cublasFillMode_t uplo,                      \
	                               cublasOperation_t trans, cublasDiagType_t diag, int n,        \
	                               const T *a, int lda, T *x, int incx)                          \
	{                                                                                            \
		return trmv(h, "cublas" #P "trmv", type, uplo, trans, n, 0,                              \
		            TRIANGULAR(a, lda, trans, uplo, diag), n, x, incx);                          \
	}                                                                                            \
	cublasStatus_t cublas##P##tbmv(cublasHandle_t h, cublasFillMode_t uplo,                      \
	                               cublasOperation_t trans, cublasDiagType_t diag, int n, int k, \
	                               const T *a, int lda, T *x, int incx)                          \
	{                                                                                            \
		bool lower = uplo == CUBLAS_FILL_MODE_LOWER;                                             \
		return trmv(h, "cublas" #P "tbmv", type, uplo, trans, n, k,                              \
		            band(TRIANGULAR(a, lda, trans, uplo, diag), lower ? k : 0, lower ? 0 : k),   \
		            (int64_t)k + 1, x, incx);                                                    \
	}                                                                                            \
	cublasStatus_t cublas##P##tpmv(cublasHandle_t h, cublasFillMode_t uplo,                      \
	                               cublasOperation_t trans, cublasDiagType_t diag, int n,        \
	                               const T *a, T *x, int incx)                                   \
	{                                                                                            \
		return trmv(h, "cublas" #P "tpmv", type, uplo, trans, n, 0,                              \
		            packed(TRIANGULAR(a, 1, trans, uplo, diag), n), 1, x, incx);                 \
	}                                                                                            \
	cublasStatus_t cublas##P##trsv(cublasHandle_t h, cublasFillMode_t uplo,                      \
	                               cublasOperation_t trans, cublasDiagType_t diag, int n,        \
	                               const T *a, int lda, T *x, int incx)                          \
	{                                                                                            \
		return trsv(h, "cublas" #P "trsv", type, uplo, trans, n, 0,                              \
		            TRIANGULAR(a, lda, trans, uplo, diag), n, x, incx);                          \
	}                                                                                            \
	cublasStatus_t cublas##P##tbsv(cublasHandle_t h, cublasFillMode_t uplo,                      \
	                               cublasOperation_t trans, cublasDiagType_t diag, int n, int k, \
	                               const T *a, int lda, T *x, int incx)                          \
	{                                                                                            \
		bool lower = uplo == CUBLAS_FILL_MODE_LOWER;                                             \
		return trsv(h, "cublas" #P "tbsv", type, uplo, trans, n, k,                              \
		            band(TRIANGULAR(a, lda, trans, uplo, diag), lower ? k : 0, lower ? 0 : k),   \
		            (int64_t)k + 1, x, incx);                                                    \
	}                                                                                            \
	cublasStatus_t cublas##P##tpsv(cublasHandle_t h, cublasFillMode_t uplo,                      \
	                               cublasOperation_t trans, cublasDiagType_t diag, int n,        \
	                               const T *a, T *x, int incx)                                   \
	{                                                                                            \
		return trsv(h, "cublas" #P "tpsv", type, uplo, trans, n, 0,                              \
		            packed(TRIANGULAR(a, 1, trans, uplo, diag), n), 1, x, incx);                 \
	}
TYPED(S, float, BLAS_S)
TYPED(D, double, BLAS_D)
TYPED(C, cuComplex, BLAS_C)
TYPED(Z, cuDoubleComplex, BLAS_Z)

/* symv and hemv: gemv of a matrix read from one triangle; sbmv and hbmv of a band of it,
 * spmv and hpmv of it packed (complex symv has neither in cuBLAS). */
#define SYMMETRIC(a, lda, uplo, shape)                                                            \
	shaped(a, lda, CUBLAS_OP_N, shape, uplo, CUBLAS_DIAG_NON_UNIT)
#define SYMV_FULL(sy, T, type, shape)                                                              \
	cublasStatus_t cublas##sy(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *alpha,     \
	                          const T *a, int lda, const T *x, int incx, const T *beta, T *y,     \
	                          int incy)                                                           \
	{                                                                                             \
		if (bad_fill(uplo))                                                                       \
			return INVALID("cublas" #sy, "uplo %d", uplo);                                        \
		return gemv(h, "cublas" #sy, type, CUBLAS_OP_N, n, n, alpha,                              \
		            SYMMETRIC(a, lda, uplo, shape), n, x, incx, beta, y, incy);                   \
	}
#define SYMV(sy, sb, sp, T, type, shape)                                                           \
	SYMV_FULL(sy, T, type, shape)                                                                 \
	cublasStatus_t cublas##sb(cublasHandle_t h, cublasFillMode_t uplo, int n, int k,              \
	                          const T *alpha, const T *a, int lda, const T *x, int incx,          \
	                          const T *beta, T *y, int incy)                                      \
	{                                                                                             \
		bool lower = uplo == CUBLAS_FILL_MODE_LOWER;                                              \
		if (bad_fill(uplo) || k < 0)                                                              \
			return INVALID("cublas" #sb, "uplo %d, k %d", uplo, k);                               \
		return gemv(h, "cublas" #sb, type, CUBLAS_OP_N, n, n, alpha,                              \
		            band(SYMMETRIC(a, lda, uplo, shape), lower ? k : 0, lower ? 0 : k),           \
		            (int64_t)k + 1, x, incx, beta, y, incy);                                      \
	}                                                                                             \
	cublasStatus_t cublas##sp(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *alpha,     \
	                          const T *a, const T *x, int incx, const T *beta, T *y, int incy)    \
	{                                                                                             \
		if (bad_fill(uplo))                                                                       \
			return INVALID("cublas" #sp, "uplo %d", uplo);                                        \
		return gemv(h, "cublas" #sp, type, CUBLAS_OP_N, n, n, alpha,                              \
		            packed(SYMMETRIC(a, 1, uplo, shape), n), 1, x, incx, beta, y, incy);          \
	}
SYMV(Ssymv, Ssbmv, Sspmv, float, BLAS_S, ZC_SHAPE_SYMMETRIC)
SYMV(Dsymv, Dsbmv, Dspmv, double, BLAS_D, ZC_SHAPE_SYMMETRIC)
SYMV(Chemv, Chbmv, Chpmv, cuComplex, BLAS_C, ZC_SHAPE_HERMITIAN)
SYMV(Zhemv, Zhbmv, Zhpmv, cuDoubleComplex, BLAS_Z, ZC_SHAPE_HERMITIAN)
SYMV_FULL(Csymv, cuComplex, BLAS_C, ZC_SHAPE_SYMMETRIC)
SYMV_FULL(Zsymv, cuDoubleComplex, BLAS_Z, ZC_SHAPE_SYMMETRIC)

#define GER(name, T, type, conj)                                                                \
	cublasStatus_t cublas##name(cublasHandle_t h, int m, int n, const T *alpha, const T *x,     \
	                            int incx, const T *y, int incy, T *a, int lda)                  \
	{                                                                                           \
		if (!alpha)                                                                             \
			return INVALID("cublas" #name, "NULL scalar");                                      \
		return rank1(h, "cublas" #name, type, m, n, blas_scalar(h, alpha, sizeof(T)), x, incx,  \
		             y, incy, conj, blas_matrix(a, lda, CUBLAS_OP_N), m, RANK1_GENERAL,         \
		             CUBLAS_FILL_MODE_LOWER);                                                   \
	}
GER(Sger, float, BLAS_S, false)
GER(Dger, double, BLAS_D, false)
GER(Cgeru, cuComplex, BLAS_C, false)
GER(Cgerc, cuComplex, BLAS_C, true)
GER(Zgeru, cuDoubleComplex, BLAS_Z, false)
GER(Zgerc, cuDoubleComplex, BLAS_Z, true)

/* One triangle of an N x N matrix, written by a rank update: in full storage, or packed. */
static struct zc_matrix triangle(void *a, int64_t lda, cublasFillMode_t uplo)
{
	struct zc_matrix m = blas_matrix(a, lda, CUBLAS_OP_N);

	m.lower = uplo == CUBLAS_FILL_MODE_LOWER;
	return m;
}
#define PACKED_TRIANGLE(a, uplo, n) packed(triangle(a, 1, uplo), n)

/* syr2, her2 and their packed forms: A = alpha x y' + alpha' y x' + A, ' being ^T, or for
 * her2 ^H with alpha' = conj(alpha); one triangle. */
static cublasStatus_t rank2(cublasHandle_t h, const char *routine, enum blas_type t,
                            bool hermitian, cublasFillMode_t uplo, int64_t n, const void *alpha,
                            const void *x, int64_t incx, const void *y, int64_t incy,
                            struct zc_matrix a, int64_t min_lda)
{
	cublasStatus_t s = blas_begin(h, routine);
	enum rank1_kind kind = hermitian ? RANK1_HERMITIAN : RANK1_TRIANGLE;
	size_t size = blas_size(t);
	struct zc_scalar first, second;

	if (s)
		return s;
	if (!alpha)
		return INVALID(routine, "NULL scalar");
	first = second = blas_scalar(h, alpha, size);
	if (hermitian) {
		memset(&second, 0, sizeof(second));
		if ((s = blas_host_scalar(h, routine, alpha, second.value, size)))
			return s;
		/* conj(alpha): the imaginary half negated */
		if (t == BLAS_C)
			((float *)second.value)[1] = -((float *)second.value)[1];
		else
			((double *)second.value)[1] = -((double *)second.value)[1];
	}
	if ((s = rank1(h, routine, t, n, n, first, x, incx, y, incy, hermitian, a, min_lda, kind,
	               uplo)))
		return s;
	return rank1(h, routine, t, n, n, second, y, incy, x, incx, hermitian, a, min_lda, kind,
	             uplo);
}

/* syr: A = alpha x x^T + A; syr2: A = alpha x y^T + alpha y x^T + A; one triangle, in full
 * storage or packed (spr, spr2: S and D only, as cuBLAS has them). */
#define SYR(P, T, type)                                                                          \
	cublasStatus_t cublas##P##syr(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *alpha, \
	                              const T *x, int incx, T *a, int lda)                           \
	{                                                                                            \
		if (!alpha)                                                                              \
			return INVALID("cublas" #P "syr", "NULL scalar");                                    \
		return rank1(h, "cublas" #P "syr", type, n, n, blas_scalar(h, alpha, sizeof(T)), x, incx, \
		             x, incx, false, triangle(a, lda, uplo), n, RANK1_TRIANGLE, uplo);           \
	}                                                                                            \
	cublasStatus_t cublas##P##syr2(cublasHandle_t h, cublasFillMode_t uplo, int n,               \
	                               const T *alpha, const T *x, int incx, const T *y, int incy,   \
	                               T *a, int lda)                                                \
	{                                                                                            \
		return rank2(h, "cublas" #P "syr2", type, false, uplo, n, alpha, x, incx, y, incy,       \
		             triangle(a, lda, uplo), n);                                                 \
	}
SYR(S, float, BLAS_S)
SYR(D, double, BLAS_D)
SYR(C, cuComplex, BLAS_C)
SYR(Z, cuDoubleComplex, BLAS_Z)

#define SPR(P, T, type)                                                                          \
	cublasStatus_t cublas##P##spr(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *alpha, \
	                              const T *x, int incx, T *ap)                                   \
	{                                                                                            \
		if (!alpha)                                                                              \
			return INVALID("cublas" #P "spr", "NULL scalar");                                    \
		return rank1(h, "cublas" #P "spr", type, n, n, blas_scalar(h, alpha, sizeof(T)), x, incx, \
		             x, incx, false, PACKED_TRIANGLE(ap, uplo, n), 1, RANK1_TRIANGLE, uplo);     \
	}                                                                                            \
	cublasStatus_t cublas##P##spr2(cublasHandle_t h, cublasFillMode_t uplo, int n,               \
	                               const T *alpha, const T *x, int incx, const T *y, int incy,   \
	                               T *ap)                                                        \
	{                                                                                            \
		return rank2(h, "cublas" #P "spr2", type, false, uplo, n, alpha, x, incx, y, incy,       \
		             PACKED_TRIANGLE(ap, uplo, n), 1);                                           \
	}
SPR(S, float, BLAS_S)
SPR(D, double, BLAS_D)

/* her: A = alpha x x^H + A, alpha real; her2: A = alpha x y^H + conj(alpha) y x^H + A; one
 * triangle of a Hermitian A, whose diagonal comes out real, in full storage or packed (hpr,
 * hpr2). */
#define HER(P, T, R, type)                                                                       \
	cublasStatus_t cublas##P##her(cublasHandle_t h, cublasFillMode_t uplo, int n, const R *alpha, \
	                              const T *x, int incx, T *a, int lda)                           \
	{                                                                                            \
		if (!alpha)                                                                              \
			return INVALID("cublas" #P "her", "NULL scalar");                                    \
		return rank1(h, "cublas" #P "her", type, n, n, blas_scalar(h, alpha, sizeof(R)), x, incx, \
		             x, incx, true, triangle(a, lda, uplo), n, RANK1_HERMITIAN_REAL_ALPHA, uplo); \
	}                                                                                            \
	cublasStatus_t cublas##P##hpr(cublasHandle_t h, cublasFillMode_t uplo, int n, const R *alpha, \
	                              const T *x, int incx, T *ap)                                   \
	{                                                                                            \
		if (!alpha)                                                                              \
			return INVALID("cublas" #P "hpr", "NULL scalar");                                    \
		return rank1(h, "cublas" #P "hpr", type, n, n, blas_scalar(h, alpha, sizeof(R)), x, incx, \
		             x, incx, true, PACKED_TRIANGLE(ap, uplo, n), 1,                             \
		             RANK1_HERMITIAN_REAL_ALPHA, uplo);                                          \
	}                                                                                            \
	cublasStatus_t cublas##P##her2(cublasHandle_t h, cublasFillMode_t uplo, int n,               \
	                               const T *alpha, const T *x, int incx, const T *y, int incy,   \
	                               T *a, int lda)                                                \
	{                                                                                            \
		return rank2(h, "cublas" #P "her2", type, true, uplo, n, alpha, x, incx, y, incy,        \
		             triangle(a, lda, uplo), n);                                                 \
	}                                                                                            \
	cublasStatus_t cublas##P##hpr2(cublasHandle_t h, cublasFillMode_t uplo, int n,               \
	                               const T *alpha, const T *x, int incx, const T *y, int incy,   \
	                               T *ap)                                                        \
	{                                                                                            \
		return rank2(h, "cublas" #P "hpr2", type, true, uplo, n, alpha, x, incx, y, incy,        \
		             PACKED_TRIANGLE(ap, uplo, n), 1);                                           \
	}
HER(C, cuComplex, float, BLAS_C)
HER(Z, cuDoubleComplex, double, BLAS_Z)

/* gemvBatched and gemvStridedBatched: y_b = alpha op(A_b) x_b + beta y_b for b < count, by
 * the gemm kernel NAME with scalars of SCALE_SIZE bytes, A's and x's elements of AB_SIZE,
 * y's of Y_SIZE; arrays of pointers when given, else strides from A, x and y. */
struct gemv_batch {
	const void *a, *x;
	void *y;
	const void *const *a_array, *const *x_array;
	void *const *y_array;
	long long stride_a, stride_x, stride_y;
	int64_t count;
};

static cublasStatus_t gemv_batched(cublasHandle_t h, const char *routine, const char *name,
                                   size_t ab_size, size_t y_size, size_t scale_size,
                                   cublasOperation_t trans, int64_t m, int64_t n,
                                   const void *alpha, int64_t lda, int64_t incx,
                                   const void *beta, int64_t incy, struct gemv_batch b)
{
	struct zc_gemm_args g;
	cublasStatus_t s = gemv_args(h, routine, trans, m, n, alpha, blas_matrix(b.a, lda, trans), m,
	                             b.x, ab_size, incx, beta, b.y, y_size, incy, scale_size, &g);

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (b.count < 0)
		return INVALID(routine, "batch count %lld", (long long)b.count);
	g.batch = b.count;
	if (b.a_array) {
		g.a.array = b.a_array, g.b.array = b.x_array, g.c.array = (const void *const *)b.y_array;
		g.b.array_offset = incx < 0 ? (g.k - 1) * -incx : 0;
		g.c.array_offset = incy < 0 ? (g.m - 1) * -incy : 0;
	} else {
		g.a.stride = b.stride_a, g.b.stride = b.stride_x, g.c.stride = b.stride_y;
	}
	return blas_gemm(h, name, &g);
}

#define GEMV_BATCHED(P, TA, TY, TS, name)                                                         \
	cublasStatus_t cublas##P##gemvBatched(cublasHandle_t h, cublasOperation_t trans, int m, int n,  \
	                                      const TS *alpha, const TA *const a[], int lda,            \
	                                      const TA *const x[], int incx, const TS *beta,            \
	                                      TY *const y[], int incy, int count)                       \
	{                                                                                              \
		struct gemv_batch b = {NULL, NULL, NULL, (const void *const *)a,                           \
		                       (const void *const *)x, (void *const *)y, 0, 0, 0, count};          \
		return gemv_batched(h, "cublas" #P "gemvBatched", name, sizeof(TA), sizeof(TY),            \
		                    sizeof(TS), trans, m, n, alpha, lda, incx, beta, incy, b);             \
	}                                                                                              \
	cublasStatus_t cublas##P##gemvStridedBatched(                                                  \
	    cublasHandle_t h, cublasOperation_t trans, int m, int n, const TS *alpha, const TA *a,     \
	    int lda, long long stride_a, const TA *x, int incx, long long stride_x, const TS *beta,    \
	    TY *y, int incy, long long stride_y, int count)                                            \
	{                                                                                              \
		struct gemv_batch b = {a, x, y, NULL, NULL, NULL, stride_a, stride_x, stride_y, count};    \
		return gemv_batched(h, "cublas" #P "gemvStridedBatched", name, sizeof(TA), sizeof(TY),     \
		                    sizeof(TS), trans, m, n, alpha, lda, incx, beta, incy, b);             \
	}
GEMV_BATCHED(S, float, float, float, "s")
GEMV_BATCHED(D, double, double, double, "d")
GEMV_BATCHED(C, cuComplex, cuComplex, cuComplex, "c")
GEMV_BATCHED(Z, cuDoubleComplex, cuDoubleComplex, cuDoubleComplex, "z")
/* Half (H) and bfloat16 (T) A and x with y of their type or float (S), computed in float. */
GEMV_BATCHED(HSH, uint16_t, uint16_t, float, "h_h")
GEMV_BATCHED(HSS, uint16_t, float, float, "h_s")
GEMV_BATCHED(TST, uint16_t, uint16_t, float, "bf_bf")
GEMV_BATCHED(TSS, uint16_t, float, float, "bf_s")

/* tpttr and trttp: the fill triangle of an n x n matrix from packed storage into full (lda
 * at least n), or back; the full matrix's other triangle is neither read nor written. */
static cublasStatus_t convert_triangle(cublasHandle_t h, const char *routine, enum blas_type t,
                                       cublasFillMode_t uplo, int64_t n, const void *from,
                                       void *to, int64_t lda, bool to_full)
{
	cublasStatus_t s = blas_begin(h, routine);
	struct zc_matrix full = triangle((void *)(to_full ? to : from), lda, uplo);
	struct zc_matrix pack = PACKED_TRIANGLE((void *)(to_full ? from : to), uplo, n);
	struct zc_elementwise_args e;
	char kernel[32];

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (bad_fill(uplo) || n < 0 || lda < (n > 1 ? n : 1))
		return INVALID(routine, "uplo %d, n %lld, lda %lld", uplo, (long long)n, (long long)lda);
	if (n == 0)
		return CUBLAS_STATUS_SUCCESS;
	memset(&e, 0, sizeof(e));
	e.m = e.n = n;
	e.a = to_full ? pack : full;
	e.c = to_full ? full : pack;
	snprintf(kernel, sizeof(kernel), "zc_copy_triangle_%s", blas_suffix(t));
	return blas_launch(h, kernel, blas_blocks(n, 256), n > 65535 ? 65535 : (unsigned)n, 1, 256, &e);
}

#define PACKING(P, T, type)                                                                        \
	cublasStatus_t cublas##P##tpttr(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *ap, \
	                                T *a, int lda)                                               \
	{                                                                                            \
		return convert_triangle(h, "cublas" #P "tpttr", type, uplo, n, ap, a, lda, true);        \
	}                                                                                            \
	cublasStatus_t cublas##P##trttp(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *a,  \
	                                int lda, T *ap)                                              \
	{                                                                                            \
		return convert_triangle(h, "cublas" #P "trttp", type, uplo, n, a, ap, lda, false);       \
	}
PACKING(S, float, BLAS_S)
PACKING(D, double, BLAS_D)
PACKING(C, cuComplex, BLAS_C)
PACKING(Z, cuDoubleComplex, BLAS_Z)
