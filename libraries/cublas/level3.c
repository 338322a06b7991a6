/* Level 3: matrix-matrix operations and the extensions (gemmEx, batches, geam, dgmm), each a
 * case of the gemm kernel, the triangular solve or an elementwise kernel. */
#include <stdio.h>
#include <string.h>

#include "blas.h"

#define INVALID(routine, ...) blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, __VA_ARGS__)

static int64_t at_least_1(int64_t v) { return v > 1 ? v : 1; }

static bool bad_op(cublasOperation_t op)
{
	return op != CUBLAS_OP_N && op != CUBLAS_OP_T && op != CUBLAS_OP_C;
}

static bool bad_fill(cublasFillMode_t uplo)
{
	return uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER;
}

/* One batch of operands: a pointer each, or arrays of them, with strides. */
struct operands {
	const void *a, *b;
	void *c;
	const void *const *a_array, *const *b_array;
	void *const *c_array;
	int64_t stride_a, stride_b, stride_c, batch;
};

static struct operands single(const void *a, const void *b, void *c)
{
	struct operands o = {a, b, c, NULL, NULL, NULL, 0, 0, 0, 1};
	return o;
}

/* C = alpha op(A) op(B) + beta C, the kernel NAME computing it with scalars of SCALE_SIZE
 * bytes. */
static cublasStatus_t gemm(cublasHandle_t h, const char *routine, const char *name,
                           size_t scale_size, cublasOperation_t transa, cublasOperation_t transb,
                           int64_t m, int64_t n, int64_t k, const void *alpha, int64_t lda,
                           int64_t ldb, const void *beta, int64_t ldc, struct operands o)
{
	cublasStatus_t s = blas_begin(h, routine);
	struct zc_gemm_args g;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (bad_op(transa) || bad_op(transb) || m < 0 || n < 0 || k < 0 || o.batch < 0 ||
	    lda < at_least_1(transa == CUBLAS_OP_N ? m : k) ||
	    ldb < at_least_1(transb == CUBLAS_OP_N ? k : n) || ldc < at_least_1(m))
		return INVALID(routine, "transa %d, transb %d, m %lld, n %lld, k %lld, lda %lld, "
		               "ldb %lld, ldc %lld, batch %lld", transa, transb, (long long)m,
		               (long long)n, (long long)k, (long long)lda, (long long)ldb,
		               (long long)ldc, (long long)o.batch);
	if (!alpha || !beta)
		return INVALID(routine, "NULL scalar");
	memset(&g, 0, sizeof(g));
	g.m = m, g.n = n, g.k = k, g.batch = o.batch;
	g.alpha = blas_scalar(h, alpha, scale_size);
	g.beta = blas_scalar(h, beta, scale_size);
	g.a = blas_matrix(o.a, lda, transa);
	g.b = blas_matrix(o.b, ldb, transb);
	g.c = blas_matrix(o.c, ldc, CUBLAS_OP_N);
	g.a.array = o.a_array, g.b.array = o.b_array, g.c.array = (const void *const *)o.c_array;
	g.a.stride = o.stride_a, g.b.stride = o.stride_b, g.c.stride = o.stride_c;
	g.fill = ZC_FILL_ALL;
	return blas_gemm(h, name, &g);
}

#define GEMM(P, T, k)                                                                            \
	cublasStatus_t cublas##P##gemm(cublasHandle_t h, cublasOperation_t transa,                   \
	                               cublasOperation_t transb, int m, int n, int kk,               \
	                               const T *alpha, const T *a, int lda, const T *b, int ldb,     \
	                               const T *beta, T *c, int ldc)                                 \
	{                                                                                            \
		return gemm(h, "cublas" #P "gemm", k, sizeof(T), transa, transb, m, n, kk, alpha, lda,  \
		            ldb, beta, ldc, single(a, b, c));                                            \
	}                                                                                            \
	cublasStatus_t cublas##P##gemmBatched(cublasHandle_t h, cublasOperation_t transa,            \
	                                      cublasOperation_t transb, int m, int n, int kk,        \
	                                      const T *alpha, const T *const a[], int lda,           \
	                                      const T *const b[], int ldb, const T *beta,            \
	                                      T *const c[], int ldc, int batch)                      \
	{                                                                                            \
		struct operands o = {NULL, NULL, NULL, (const void *const *)a,                           \
		                     (const void *const *)b, (void *const *)c, 0, 0, 0, batch};          \
		return gemm(h, "cublas" #P "gemmBatched", k, sizeof(T), transa, transb, m, n, kk,       \
		            alpha, lda, ldb, beta, ldc, o);                                              \
	}                                                                                            \
	cublasStatus_t cublas##P##gemmStridedBatched(                                                \
	    cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,     \
	    int kk, const T *alpha, const T *a, int lda, long long stride_a, const T *b, int ldb,  \
	    long long stride_b, const T *beta, T *c, int ldc, long long stride_c, int batch)       \
	{                                                                                            \
		struct operands o = {a, b, c, NULL, NULL, NULL, stride_a, stride_b, stride_c, batch};    \
		return gemm(h, "cublas" #P "gemmStridedBatched", k, sizeof(T), transa, transb, m, n,    \
		            kk, alpha, lda, ldb, beta, ldc, o);                                          \
	}
GEMM(S, float, "s")
GEMM(D, double, "d")
GEMM(C, cuComplex, "c")
GEMM(Z, cuDoubleComplex, "z")
GEMM(H, uint16_t, "h_h_hscale")

cublasStatus_t cublasCgemm3m(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                             int m, int n, int k, const cuComplex *alpha, const cuComplex *a,
                             int lda, const cuComplex *b, int ldb, const cuComplex *beta,
                             cuComplex *c, int ldc)
{
	return gemm(h, "cublasCgemm3m", "c", sizeof(cuComplex), transa, transb, m, n, k, alpha, lda,
	            ldb, beta, ldc, single(a, b, c));
}

cublasStatus_t cublasZgemm3m(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                             int m, int n, int k, const cuDoubleComplex *alpha,
                             const cuDoubleComplex *a, int lda, const cuDoubleComplex *b, int ldb,
                             const cuDoubleComplex *beta, cuDoubleComplex *c, int ldc)
{
	return gemm(h, "cublasZgemm3m", "z", sizeof(cuDoubleComplex), transa, transb, m, n, k, alpha,
	            lda, ldb, beta, ldc, single(a, b, c));
}

static cublasStatus_t gemm_ex(cublasHandle_t h, const char *routine, cublasOperation_t transa,
                              cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                              const void *alpha, cudaDataType a_type, int64_t lda,
                              cudaDataType b_type, int64_t ldb, const void *beta,
                              cudaDataType c_type, int64_t ldc, int compute, struct operands o)
{
	size_t scale_size;
	const char *name = a_type == b_type ? blas_ex_kernel(a_type, c_type, compute, &scale_size) : NULL;

	if (!name)
		return blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, routine,
		                 "types A %d, B %d, C %d with compute type %d", a_type, b_type, c_type,
		                 compute);
	return gemm(h, routine, name, scale_size, transa, transb, m, n, k, alpha, lda, ldb, beta,
	            ldc, o);
}

/* The algorithm argument is a hint; every value gets the one kernel. */
cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                            int m, int n, int k, const void *alpha, const void *a,
                            cudaDataType a_type, int lda, const void *b, cudaDataType b_type,
                            int ldb, const void *beta, void *c, cudaDataType c_type, int ldc,
                            cublasComputeType_t compute, cublasGemmAlgo_t algo)
{
	return gemm_ex(h, "cublasGemmEx", transa, transb, m, n, k, alpha, a_type, lda, b_type, ldb,
	               beta, c_type, ldc, compute, single(a, b, c));
}

cublasStatus_t cublasGemmBatchedEx(cublasHandle_t h, cublasOperation_t transa,
                                   cublasOperation_t transb, int m, int n, int k,
                                   const void *alpha, const void *const a[], cudaDataType a_type,
                                   int lda, const void *const b[], cudaDataType b_type, int ldb,
                                   const void *beta, void *const c[], cudaDataType c_type,
                                   int ldc, int batch, cublasComputeType_t compute,
                                   cublasGemmAlgo_t algo)
{
	struct operands o = {NULL, NULL, NULL, a, b, c, 0, 0, 0, batch};
	return gemm_ex(h, "cublasGemmBatchedEx", transa, transb, m, n, k, alpha, a_type, lda, b_type,
	               ldb, beta, c_type, ldc, compute, o);
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k,
                                          const void *alpha, const void *a, cudaDataType a_type,
                                          int lda, long long stride_a, const void *b,
                                          cudaDataType b_type, int ldb, long long stride_b,
                                          const void *beta, void *c, cudaDataType c_type, int ldc,
                                          long long stride_c, int batch,
                                          cublasComputeType_t compute, cublasGemmAlgo_t algo)
{
	struct operands o = {a, b, c, NULL, NULL, NULL, stride_a, stride_b, stride_c, batch};
	return gemm_ex(h, "cublasGemmStridedBatchedEx", transa, transb, m, n, k, alpha, a_type, lda,
	               b_type, ldb, beta, c_type, ldc, compute, o);
}

cublasStatus_t cublasSgemmEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                             int m, int n, int k, const float *alpha, const void *a,
                             cudaDataType a_type, int lda, const void *b, cudaDataType b_type,
                             int ldb, const float *beta, void *c, cudaDataType c_type, int ldc)
{
	return gemm_ex(h, "cublasSgemmEx", transa, transb, m, n, k, alpha, a_type, lda, b_type, ldb,
	               beta, c_type, ldc, CUBLAS_COMPUTE_32F, single(a, b, c));
}

/* The rank-k updates, C = alpha op(A) op(B)' + beta C over the fill triangle, ' being ^T,
 * or ^H for the Hermitian ones, whose diagonal comes out real: syrk and herk (B is A),
 * syrkx and herkx (B given), syr2k and her2k (B given, and then the product with A and B
 * swapped added, times conj(alpha) for her2k). herk's scalars are real, herkx's and her2k's
 * beta is. */
enum rank_kind { RANK_K, RANK_KX, RANK_2K };

static cublasStatus_t rank_k(cublasHandle_t h, const char *routine, enum blas_type t,
                             enum rank_kind kind, bool hermitian, cublasFillMode_t uplo,
                             cublasOperation_t trans, int64_t n, int64_t k, const void *alpha,
                             const void *a, int64_t lda, const void *b, int64_t ldb,
                             const void *beta, void *c, int64_t ldc)
{
	cublasStatus_t s = blas_begin(h, routine);
	cublasOperation_t other = trans == CUBLAS_OP_N ? (hermitian ? CUBLAS_OP_C : CUBLAS_OP_T)
	                                               : CUBLAS_OP_N;
	int64_t rows_a = trans == CUBLAS_OP_N ? n : k;
	bool real_scale = hermitian && kind == RANK_K;
	size_t size = blas_size(t), real = size / 2;
	char name[32];
	struct zc_gemm_args g;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (kind != RANK_K && !b)
		return INVALID(routine, "NULL B");
	if (bad_fill(uplo) || bad_op(trans) || (hermitian ? trans == CUBLAS_OP_T : trans == CUBLAS_OP_C && t >= BLAS_C) ||
	    n < 0 || k < 0 || lda < at_least_1(rows_a) || (b && ldb < at_least_1(rows_a)) ||
	    ldc < at_least_1(n))
		return INVALID(routine, "uplo %d, trans %d, n %lld, k %lld, lda %lld, ldc %lld", uplo,
		               trans, (long long)n, (long long)k, (long long)lda, (long long)ldc);
	if (!alpha || !beta)
		return INVALID(routine, "NULL scalar");
	snprintf(name, sizeof(name), "%s%s", blas_suffix(t), real_scale ? "_real_scale" : "");
	memset(&g, 0, sizeof(g));
	g.m = n, g.n = n, g.k = k, g.batch = 1;
	if (hermitian && !real_scale) {
		/* A real beta with a complex alpha: the kernel's complex scale, made here. */
		memset(g.beta.value, 0, sizeof(g.beta.value));
		if ((s = blas_host_scalar(h, routine, beta, g.beta.value, real)))
			return s;
		g.alpha = blas_scalar(h, alpha, size);
	} else {
		g.alpha = blas_scalar(h, alpha, real_scale ? real : size);
		g.beta = blas_scalar(h, beta, real_scale ? real : size);
	}
	g.a = blas_matrix(a, lda, trans);
	g.b = blas_matrix(kind == RANK_K ? a : b, kind == RANK_K ? lda : ldb, other);
	g.c = blas_matrix(c, ldc, CUBLAS_OP_N);
	g.fill = uplo == CUBLAS_FILL_MODE_LOWER ? ZC_FILL_LOWER : ZC_FILL_UPPER;
	g.hermitian_result = hermitian;
	if (n == 0 || (s = blas_gemm(h, name, &g)) || kind != RANK_2K)
		return s;
	if (hermitian) {
		unsigned char value[16];
		if ((s = blas_host_scalar(h, routine, alpha, value, size)))
			return s;
		memset(&g.alpha, 0, sizeof(g.alpha));
		memcpy(g.alpha.value, value, size);
		/* conj(alpha): the imaginary half negated */
		if (t == BLAS_C)
			((float *)g.alpha.value)[1] = -((float *)g.alpha.value)[1];
		else
			((double *)g.alpha.value)[1] = -((double *)g.alpha.value)[1];
	}
	g.a = blas_matrix(b, ldb, trans);
	g.b = blas_matrix(a, lda, other);
	g.beta = blas_value(1, t);
	return blas_gemm(h, name, &g);
}

#define SYRK(P, T, type)                                                                         \
	cublasStatus_t cublas##P##syrk(cublasHandle_t h, cublasFillMode_t uplo,                      \
	                               cublasOperation_t trans, int n, int k, const T *alpha,        \
	                               const T *a, int lda, const T *beta, T *c, int ldc)            \
	{                                                                                            \
		return rank_k(h, "cublas" #P "syrk", type, RANK_K, false, uplo, trans, n, k, alpha, a,   \
		              lda, NULL, 0, beta, c, ldc);                                               \
	}                                                                                            \
	cublasStatus_t cublas##P##syrkx(cublasHandle_t h, cublasFillMode_t uplo,                     \
	                                cublasOperation_t trans, int n, int k, const T *alpha,       \
	                                const T *a, int lda, const T *b, int ldb, const T *beta,     \
	                                T *c, int ldc)                                               \
	{                                                                                            \
		return rank_k(h, "cublas" #P "syrkx", type, RANK_KX, false, uplo, trans, n, k, alpha, a, \
		              lda, b, ldb, beta, c, ldc);                                                \
	}                                                                                            \
	cublasStatus_t cublas##P##syr2k(cublasHandle_t h, cublasFillMode_t uplo,                     \
	                                cublasOperation_t trans, int n, int k, const T *alpha,       \
	                                const T *a, int lda, const T *b, int ldb, const T *beta,     \
	                                T *c, int ldc)                                               \
	{                                                                                            \
		return rank_k(h, "cublas" #P "syr2k", type, RANK_2K, false, uplo, trans, n, k, alpha, a, \
		              lda, b, ldb, beta, c, ldc);                                                \
	}
SYRK(S, float, BLAS_S)
SYRK(D, double, BLAS_D)
SYRK(C, cuComplex, BLAS_C)
SYRK(Z, cuDoubleComplex, BLAS_Z)

#define HERK(P, T, R, type)                                                                       \
	cublasStatus_t cublas##P##herk(cublasHandle_t h, cublasFillMode_t uplo,                       \
	                               cublasOperation_t trans, int n, int k, const R *alpha,         \
	                               const T *a, int lda, const R *beta, T *c, int ldc)             \
	{                                                                                             \
		return rank_k(h, "cublas" #P "herk", type, RANK_K, true, uplo, trans, n, k, alpha, a,     \
		              lda, NULL, 0, beta, c, ldc);                                                \
	}                                                                                             \
	cublasStatus_t cublas##P##herkx(cublasHandle_t h, cublasFillMode_t uplo,                      \
	                                cublasOperation_t trans, int n, int k, const T *alpha,        \
	                                const T *a, int lda, const T *b, int ldb, const R *beta,      \
	                                T *c, int ldc)                                                \
	{                                                                                             \
		return rank_k(h, "cublas" #P "herkx", type, RANK_KX, true, uplo, trans, n, k, alpha, a,   \
		              lda, b, ldb, beta, c, ldc);                                                 \
	}                                                                                             \
	cublasStatus_t cublas##P##her2k(cublasHandle_t h, cublasFillMode_t uplo,                      \
	                                cublasOperation_t trans, int n, int k, const T *alpha,        \
	                                const T *a, int lda, const T *b, int ldb, const R *beta,      \
	                                T *c, int ldc)                                                \
	{                                                                                             \
		return rank_k(h, "cublas" #P "her2k", type, RANK_2K, true, uplo, trans, n, k, alpha, a,   \
		              lda, b, ldb, beta, c, ldc);                                                 \
	}
HERK(C, cuComplex, float, BLAS_C)
HERK(Z, cuDoubleComplex, double, BLAS_Z)

static cublasStatus_t trsm(cublasHandle_t h, const char *routine, enum blas_type t,
                           cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,
                           cublasDiagType_t diag, int64_t m, int64_t n, const void *alpha,
                           const void *a, const void *const *a_array, int64_t lda, void *b,
                           void *const *b_array, int64_t ldb, int64_t batch)
{
	cublasStatus_t s = blas_begin(h, routine);
	bool right = side == CUBLAS_SIDE_RIGHT;
	struct zc_trsm_args r;
	char kernel[32];

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if ((side != CUBLAS_SIDE_LEFT && !right) || bad_fill(uplo) || bad_op(trans) || m < 0 ||
	    n < 0 || batch < 0 || lda < at_least_1(right ? n : m) || ldb < at_least_1(m))
		return INVALID(routine, "side %d, uplo %d, trans %d, m %lld, n %lld, lda %lld, ldb %lld",
		               side, uplo, trans, (long long)m, (long long)n, (long long)lda,
		               (long long)ldb);
	if (!alpha)
		return INVALID(routine, "NULL scalar");
	if (m == 0 || n == 0 || batch == 0)
		return CUBLAS_STATUS_SUCCESS;
	memset(&r, 0, sizeof(r));
	r.m = m, r.n = n, r.batch = batch, r.right = right;
	r.alpha = blas_scalar(h, alpha, blas_size(t));
	r.a = blas_matrix(a, lda, trans);
	r.a.array = a_array;
	r.a.shape = ZC_SHAPE_TRIANGULAR;
	r.a.lower = uplo == CUBLAS_FILL_MODE_LOWER;
	r.a.unit = diag == CUBLAS_DIAG_UNIT;
	r.b = blas_matrix(b, ldb, CUBLAS_OP_N);
	r.b.array = (const void *const *)b_array;
	snprintf(kernel, sizeof(kernel), "zc_trsm_%s", blas_suffix(t));
	return blas_launch(h, kernel, blas_blocks(right ? m : n, 64),
	                   batch > 65535 ? 65535 : (unsigned)batch, 1, 64, &r);
}

/* C = alpha S B + beta C (left) or alpha B S + beta C (right), S the shaped operand. */
static cublasStatus_t side_product(cublasHandle_t h, enum blas_type t, bool right,
                                   struct zc_matrix shaped, struct zc_matrix general, int64_t m,
                                   int64_t n, struct zc_scalar alpha, struct zc_scalar beta,
                                   void *c, int64_t ldc)
{
	struct zc_gemm_args g;

	memset(&g, 0, sizeof(g));
	g.m = m, g.n = n, g.k = right ? n : m, g.batch = 1;
	g.alpha = alpha;
	g.beta = beta;
	g.a = right ? general : shaped;
	g.b = right ? shaped : general;
	g.c = blas_matrix(c, ldc, CUBLAS_OP_N);
	g.fill = ZC_FILL_ALL;
	return blas_gemm(h, blas_suffix(t), &g);
}

/* C = alpha op(A) B or alpha B op(A), A triangular (the v2 API's out-of-place form; B may be
 * C, then read from a copy). */
static cublasStatus_t trmm(cublasHandle_t h, const char *routine, enum blas_type t,
                           cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,
                           cublasDiagType_t diag, int64_t m, int64_t n, const void *alpha,
                           const void *a, int64_t lda, const void *b, int64_t ldb, void *c,
                           int64_t ldc)
{
	cublasStatus_t s = blas_begin(h, routine);
	bool right = side == CUBLAS_SIDE_RIGHT;
	struct zc_matrix tri;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if ((side != CUBLAS_SIDE_LEFT && !right) || bad_fill(uplo) || bad_op(trans) || m < 0 ||
	    n < 0 || lda < at_least_1(right ? n : m) || ldb < at_least_1(m) || ldc < at_least_1(m))
		return INVALID(routine, "side %d, uplo %d, trans %d, m %lld, n %lld, lda %lld, ldb %lld",
		               side, uplo, trans, (long long)m, (long long)n, (long long)lda,
		               (long long)ldb);
	if (!alpha)
		return INVALID(routine, "NULL scalar");
	if (m == 0 || n == 0)
		return CUBLAS_STATUS_SUCCESS;
	if (b == c) {
		CUdeviceptr copy;
		CUDA_MEMCPY2D c2;
		size_t size = blas_size(t);
		if ((s = blas_scratch(h, (size_t)(ldb * n) * size, &copy)))
			return s;
		memset(&c2, 0, sizeof(c2));
		c2.srcMemoryType = c2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
		c2.srcDevice = (CUdeviceptr)(uintptr_t)b;
		c2.dstDevice = copy;
		c2.srcPitch = c2.dstPitch = (size_t)ldb * size;
		c2.WidthInBytes = (size_t)m * size;
		c2.Height = (size_t)n;
		if (cuMemcpy2DAsync(&c2, h->stream) != CUDA_SUCCESS)
			return blas_fail(CUBLAS_STATUS_EXECUTION_FAILED, routine, "cannot copy B");
		b = (const void *)(uintptr_t)copy;
	}
	tri = blas_matrix(a, lda, trans);
	tri.shape = ZC_SHAPE_TRIANGULAR;
	tri.lower = uplo == CUBLAS_FILL_MODE_LOWER;
	tri.unit = diag == CUBLAS_DIAG_UNIT;
	return side_product(h, t, right, tri, blas_matrix(b, ldb, CUBLAS_OP_N), m, n,
	                    blas_scalar(h, alpha, blas_size(t)), blas_value(0, t), c, ldc);
}

/* C = alpha A B + beta C or alpha B A + beta C, A symmetric (Hermitian) in one triangle. */
static cublasStatus_t symm(cublasHandle_t h, const char *routine, enum blas_type t, int32_t shape,
                           cublasSideMode_t side, cublasFillMode_t uplo, int64_t m, int64_t n,
                           const void *alpha, const void *a, int64_t lda, const void *b,
                           int64_t ldb, const void *beta, void *c, int64_t ldc)
{
	cublasStatus_t s = blas_begin(h, routine);
	bool right = side == CUBLAS_SIDE_RIGHT;
	struct zc_matrix sym;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if ((side != CUBLAS_SIDE_LEFT && !right) || bad_fill(uplo) || m < 0 || n < 0 ||
	    lda < at_least_1(right ? n : m) || ldb < at_least_1(m) || ldc < at_least_1(m))
		return INVALID(routine, "side %d, uplo %d, m %lld, n %lld, lda %lld, ldb %lld", side,
		               uplo, (long long)m, (long long)n, (long long)lda, (long long)ldb);
	if (!alpha || !beta)
		return INVALID(routine, "NULL scalar");
	sym = blas_matrix(a, lda, CUBLAS_OP_N);
	sym.shape = shape;
	sym.lower = uplo == CUBLAS_FILL_MODE_LOWER;
	return side_product(h, t, right, sym, blas_matrix(b, ldb, CUBLAS_OP_N), m, n,
	                    blas_scalar(h, alpha, blas_size(t)), blas_scalar(h, beta, blas_size(t)),
	                    c, ldc);
}

static cublasStatus_t elementwise(cublasHandle_t h, const char *routine, enum blas_type t,
                                  const char *op, int64_t m, int64_t n,
                                  struct zc_elementwise_args *e)
{
	char kernel[32];

	if (m == 0 || n == 0)
		return CUBLAS_STATUS_SUCCESS;
	e->m = m, e->n = n;
	snprintf(kernel, sizeof(kernel), "zc_%s_%s", op, blas_suffix(t));
	return blas_launch(h, kernel, blas_blocks(m, 256), n > 65535 ? 65535 : (unsigned)n, 1, 256,
	                   e);
}

static cublasStatus_t geam(cublasHandle_t h, const char *routine, enum blas_type t,
                           cublasOperation_t transa, cublasOperation_t transb, int64_t m,
                           int64_t n, const void *alpha, const void *a, int64_t lda,
                           const void *beta, const void *b, int64_t ldb, void *c, int64_t ldc)
{
	cublasStatus_t s = blas_begin(h, routine);
	struct zc_elementwise_args e;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (bad_op(transa) || bad_op(transb) || m < 0 || n < 0 || ldc < at_least_1(m) ||
	    (a && lda < at_least_1(transa == CUBLAS_OP_N ? m : n)) ||
	    (b && ldb < at_least_1(transb == CUBLAS_OP_N ? m : n)) ||
	    (a == c && transa != CUBLAS_OP_N) || (b == c && transb != CUBLAS_OP_N))
		return INVALID(routine, "transa %d, transb %d, m %lld, n %lld, lda %lld, ldb %lld, "
		               "ldc %lld", transa, transb, (long long)m, (long long)n, (long long)lda,
		               (long long)ldb, (long long)ldc);
	if (!alpha || !beta)
		return INVALID(routine, "NULL scalar");
	memset(&e, 0, sizeof(e));
	e.alpha = blas_scalar(h, alpha, blas_size(t));
	e.beta = blas_scalar(h, beta, blas_size(t));
	e.a = blas_matrix(a, lda, transa);
	e.b = blas_matrix(b, ldb, transb);
	e.c = blas_matrix(c, ldc, CUBLAS_OP_N);
	return elementwise(h, routine, t, "geam", m, n, &e);
}

static cublasStatus_t dgmm(cublasHandle_t h, const char *routine, enum blas_type t,
                           cublasSideMode_t side, int64_t m, int64_t n, const void *a,
                           int64_t lda, const void *x, int64_t incx, void *c, int64_t ldc)
{
	cublasStatus_t s = blas_begin(h, routine);
	bool right = side == CUBLAS_SIDE_RIGHT;
	struct zc_elementwise_args e;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if ((side != CUBLAS_SIDE_LEFT && !right) || m < 0 || n < 0 || lda < at_least_1(m) ||
	    ldc < at_least_1(m))
		return INVALID(routine, "side %d, m %lld, n %lld, lda %lld, ldc %lld", side,
		               (long long)m, (long long)n, (long long)lda, (long long)ldc);
	memset(&e, 0, sizeof(e));
	e.a = blas_matrix(a, lda, CUBLAS_OP_N);
	e.b = blas_vector(x, right ? n : m, incx, blas_size(t));
	e.c = blas_matrix(c, ldc, CUBLAS_OP_N);
	e.right = right;
	return elementwise(h, routine, t, "dgmm", m, n, &e);
}

#define TYPED(P, T, type)                                                                         \
	cublasStatus_t cublas##P##trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
	                               cublasOperation_t trans, cublasDiagType_t diag, int m, int n,  \
	                               const T *alpha, const T *a, int lda, T *b, int ldb)            \
	{                                                                                             \
		return trsm(h, "cublas" #P "trsm", type, side, uplo, trans, diag, m, n, alpha, a, NULL,  \
		            lda, b, NULL, ldb, 1);                                                        \
	}                                                                                             \
	cublasStatus_t cublas##P##trsmBatched(cublasHandle_t h, cublasSideMode_t side,                \
	                                      cublasFillMode_t uplo, cublasOperation_t trans,         \
	                                      cublasDiagType_t diag, int m, int n, const T *alpha,    \
	                                      const T *const a[], int lda, T *const b[], int ldb,     \
	                                      int batch)                                              \
	{                                                                                             \
		return trsm(h, "cublas" #P "trsmBatched", type, side, uplo, trans, diag, m, n, alpha,    \
		            NULL, (const void *const *)a, lda, NULL, (void *const *)b, ldb, batch);       \
	}                                                                                             \
	cublasStatus_t cublas##P##trmm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
	                               cublasOperation_t trans, cublasDiagType_t diag, int m, int n,  \
	                               const T *alpha, const T *a, int lda, const T *b, int ldb,      \
	                               T *c, int ldc)                                                 \
	{                                                                                             \
		return trmm(h, "cublas" #P "trmm", type, side, uplo, trans, diag, m, n, alpha, a, lda, b, \
		            ldb, c, ldc);                                                                 \
	}                                                                                             \
	cublasStatus_t cublas##P##symm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
	                               int m, int n, const T *alpha, const T *a, int lda, const T *b, \
	                               int ldb, const T *beta, T *c, int ldc)                         \
	{                                                                                             \
		return symm(h, "cublas" #P "symm", type, ZC_SHAPE_SYMMETRIC, side, uplo, m, n, alpha, a, \
		            lda, b, ldb, beta, c, ldc);                                                   \
	}                                                                                             \
	cublasStatus_t cublas##P##geam(cublasHandle_t h, cublasOperation_t transa,                    \
	                               cublasOperation_t transb, int m, int n, const T *alpha,        \
	                               const T *a, int lda, const T *beta, const T *b, int ldb,       \
	                               T *c, int ldc)                                                 \
	{                                                                                             \
		return geam(h, "cublas" #P "geam", type, transa, transb, m, n, alpha, a, lda, beta, b,   \
		            ldb, c, ldc);                                                                 \
	}                                                                                             \
	cublasStatus_t cublas##P##dgmm(cublasHandle_t h, cublasSideMode_t side, int m, int n,         \
	                               const T *a, int lda, const T *x, int incx, T *c, int ldc)      \
	{                                                                                             \
		return dgmm(h, "cublas" #P "dgmm", type, side, m, n, a, lda, x, incx, c, ldc);           \
	}
TYPED(S, float, BLAS_S)
TYPED(D, double, BLAS_D)
TYPED(C, cuComplex, BLAS_C)
TYPED(Z, cuDoubleComplex, BLAS_Z)

#define HEMM(P, T, type)                                                                          \
	cublasStatus_t cublas##P##hemm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
	                               int m, int n, const T *alpha, const T *a, int lda, const T *b, \
	                               int ldb, const T *beta, T *c, int ldc)                         \
	{                                                                                             \
		return symm(h, "cublas" #P "hemm", type, ZC_SHAPE_HERMITIAN, side, uplo, m, n, alpha, a, \
		            lda, b, ldb, beta, c, ldc);                                                   \
	}
HEMM(C, cuComplex, BLAS_C)
HEMM(Z, cuDoubleComplex, BLAS_Z)

/* The complex Ex forms: A (and B) and C in complex float, as Cgemm, Csyrk and Cherk (the
 * 3m forms too); CgemmEx's 8-bit complex A and B are first widened to complex float in the
 * handle's scratch memory. */
static bool complex_float(cudaDataType a, cudaDataType b, cudaDataType c)
{
	return a == CUDA_C_32F && b == CUDA_C_32F && c == CUDA_C_32F;
}

static cublasStatus_t widen_c8(cublasHandle_t h, const void *from, int64_t count, CUdeviceptr to)
{
	struct zc_vector_args v;

	memset(&v, 0, sizeof(v));
	v.n = count, v.x = (void *)from, v.y = (void *)(uintptr_t)to;
	return count ? blas_launch(h, "zc_widen_c8", blas_blocks(count, 256), 1, 1, 256, &v)
	             : CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t cgemm_ex(cublasHandle_t h, const char *routine, cublasOperation_t transa,
                               cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                               const cuComplex *alpha, const void *a, cudaDataType a_type,
                               int64_t lda, const void *b, cudaDataType b_type, int64_t ldb,
                               const cuComplex *beta, void *c, cudaDataType c_type, int64_t ldc)
{
	int64_t a_count = lda * (transa == CUBLAS_OP_N ? k : m), b_count = ldb * (transb == CUBLAS_OP_N ? n : k);
	bool widen = a_type == CUDA_C_8I && b_type == CUDA_C_8I && c_type == CUDA_C_32F;
	CUdeviceptr wide;
	cublasStatus_t s;

	if (!widen && !complex_float(a_type, b_type, c_type))
		return blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, routine, "types A %d, B %d, C %d", a_type,
		                 b_type, c_type);
	/* Shapes gemm refuses are refused before anything is read. */
	if (widen && !bad_op(transa) && !bad_op(transb) && m >= 0 && n >= 0 && k >= 0 &&
	    lda >= at_least_1(transa == CUBLAS_OP_N ? m : k) &&
	    ldb >= at_least_1(transb == CUBLAS_OP_N ? k : n) && (s = blas_begin(h, routine)) == 0) {
		if ((s = blas_scratch(h, (size_t)(a_count + b_count) * sizeof(cuComplex), &wide)) ||
		    (s = widen_c8(h, a, a_count, wide)) ||
		    (s = widen_c8(h, b, b_count, wide + a_count * sizeof(cuComplex))))
			return s;
		a = (const void *)(uintptr_t)wide;
		b = (const void *)(uintptr_t)(wide + a_count * sizeof(cuComplex));
	}
	return gemm(h, routine, "c", sizeof(cuComplex), transa, transb, m, n, k, alpha, lda, ldb, beta,
	            ldc, single(a, b, c));
}

#define CGEMM_EX(name)                                                                          \
	cublasStatus_t cublas##name(cublasHandle_t h, cublasOperation_t transa,                     \
	                            cublasOperation_t transb, int m, int n, int k,                  \
	                            const cuComplex *alpha, const void *a, cudaDataType a_type,     \
	                            int lda, const void *b, cudaDataType b_type, int ldb,           \
	                            const cuComplex *beta, void *c, cudaDataType c_type, int ldc)   \
	{                                                                                          \
		return cgemm_ex(h, "cublas" #name, transa, transb, m, n, k, alpha, a, a_type, lda, b,  \
		                b_type, ldb, beta, c, c_type, ldc);                                    \
	}
CGEMM_EX(CgemmEx)
CGEMM_EX(Cgemm3mEx)

#define CRANK_K_EX(name, S, hermitian)                                                          \
	cublasStatus_t cublas##name(cublasHandle_t h, cublasFillMode_t uplo,                        \
	                            cublasOperation_t trans, int n, int k, const S *alpha,          \
	                            const void *a, cudaDataType a_type, int lda, const S *beta,     \
	                            void *c, cudaDataType c_type, int ldc)                          \
	{                                                                                          \
		if (!complex_float(a_type, a_type, c_type))                                            \
			return blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, "cublas" #name, "types A %d, C %d",  \
			                 a_type, c_type);                                                  \
		return rank_k(h, "cublas" #name, BLAS_C, RANK_K, hermitian, uplo, trans, n, k, alpha,  \
		              a, lda, NULL, 0, beta, c, ldc);                                          \
	}
CRANK_K_EX(CsyrkEx, cuComplex, false)
CRANK_K_EX(Csyrk3mEx, cuComplex, false)
CRANK_K_EX(CherkEx, float, true)
CRANK_K_EX(Cherk3mEx, float, true)

cublasStatus_t cublasCgemm3mBatched(cublasHandle_t h, cublasOperation_t transa,
                                    cublasOperation_t transb, int m, int n, int k,
                                    const cuComplex *alpha, const cuComplex *const a[], int lda,
                                    const cuComplex *const b[], int ldb, const cuComplex *beta,
                                    cuComplex *const c[], int ldc, int batch)
{
	struct operands o = {NULL, NULL, NULL, (const void *const *)a, (const void *const *)b,
	                     (void *const *)c, 0, 0, 0, batch};
	return gemm(h, "cublasCgemm3mBatched", "c", sizeof(cuComplex), transa, transb, m, n, k,
	            alpha, lda, ldb, beta, ldc, o);
}

cublasStatus_t cublasCgemm3mStridedBatched(cublasHandle_t h, cublasOperation_t transa,
                                           cublasOperation_t transb, int m, int n, int k,
                                           const cuComplex *alpha, const cuComplex *a, int lda,
                                           long long stride_a, const cuComplex *b, int ldb,
                                           long long stride_b, const cuComplex *beta,
                                           cuComplex *c, int ldc, long long stride_c, int batch)
{
	struct operands o = {a, b, c, NULL, NULL, NULL, stride_a, stride_b, stride_c, batch};
	return gemm(h, "cublasCgemm3mStridedBatched", "c", sizeof(cuComplex), transa, transb, m, n,
	            k, alpha, lda, ldb, beta, ldc, o);
}

/* gemmGroupedBatched: group g holds size[g] problems of its own shapes, operations and
 * scalars, C = alpha_g op(A) op(B) + beta_g C each, as one batched gemm a group on the
 * handle's stream; the arrays of pointers run on from one group to the next. Every group is
 * checked before any runs. alpha and beta are host arrays: NVIDIA's cuBLAS answers
 * NOT_SUPPORTED in device pointer mode (measured on an H100). */
struct groups {
	const cublasOperation_t *transa, *transb;
	const void *m, *n, *k, *lda, *ldb, *ldc, *size; /* int, or int64_t for the _64 forms */
	bool wide;
	const void *alpha, *beta;
	const void *const *a, *const *b;
	void *const *c;
	int64_t count;
};

static int64_t entry(const struct groups *gr, const void *array, int64_t g)
{
	return gr->wide ? ((const int64_t *)array)[g] : ((const int *)array)[g];
}

static cublasStatus_t gemm_grouped(cublasHandle_t h, const char *routine, const char *name,
                                   size_t scale_size, const struct groups *gr)
{
	cublasStatus_t s = blas_begin(h, routine);
	int64_t first = 0;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE)
		return blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, routine, "scalars in device memory");
	if (gr->count < 0)
		return INVALID(routine, "group count %lld", (long long)gr->count);
	for (int64_t g = 0; g < gr->count; g++) {
		cublasOperation_t ta = gr->transa[g], tb = gr->transb[g];
		int64_t m = entry(gr, gr->m, g), n = entry(gr, gr->n, g), k = entry(gr, gr->k, g);
		int64_t lda = entry(gr, gr->lda, g), ldb = entry(gr, gr->ldb, g);
		int64_t ldc = entry(gr, gr->ldc, g), size = entry(gr, gr->size, g);
		if (bad_op(ta) || bad_op(tb) || m < 0 || n < 0 || k < 0 || size < 0 ||
		    lda < at_least_1(ta == CUBLAS_OP_N ? m : k) ||
		    ldb < at_least_1(tb == CUBLAS_OP_N ? k : n) || ldc < at_least_1(m))
			return INVALID(routine, "group %lld: transa %d, transb %d, m %lld, n %lld, k %lld, "
			               "lda %lld, ldb %lld, ldc %lld, size %lld", (long long)g, ta, tb,
			               (long long)m, (long long)n, (long long)k, (long long)lda,
			               (long long)ldb, (long long)ldc, (long long)size);
	}
	for (int64_t g = 0; g < gr->count; g++) {
		int64_t size = entry(gr, gr->size, g);
		struct operands o = {NULL, NULL, NULL, gr->a + first, gr->b + first, gr->c + first,
		                     0, 0, 0, size};
		if ((s = gemm(h, routine, name, scale_size, gr->transa[g], gr->transb[g],
		              entry(gr, gr->m, g), entry(gr, gr->n, g), entry(gr, gr->k, g),
		              (const char *)gr->alpha + g * scale_size, entry(gr, gr->lda, g),
		              entry(gr, gr->ldb, g), (const char *)gr->beta + g * scale_size,
		              entry(gr, gr->ldc, g), o)))
			return s;
		first += size;
	}
	return CUBLAS_STATUS_SUCCESS;
}

#define GROUPED(P, T, k, I, wide_form, suffix)                                                    \
	cublasStatus_t cublas##P##gemmGroupedBatched##suffix(                                          \
	    cublasHandle_t h, const cublasOperation_t transa[], const cublasOperation_t transb[],     \
	    const I m[], const I n[], const I kk[], const T alpha[], const T *const a[],             \
	    const I lda[], const T *const b[], const I ldb[], const T beta[], T *const c[],          \
	    const I ldc[], I count, const I size[])                                                  \
	{                                                                                            \
		struct groups gr = {transa, transb, m, n, kk, lda, ldb, ldc, size, wide_form, alpha,     \
		                    beta, (const void *const *)a, (const void *const *)b,                \
		                    (void *const *)c, count};                                            \
		return gemm_grouped(h, "cublas" #P "gemmGroupedBatched" #suffix, k, sizeof(T), &gr);     \
	}
GROUPED(S, float, "s", int, false, )
GROUPED(S, float, "s", int64_t, true, _64)
GROUPED(D, double, "d", int, false, )
GROUPED(D, double, "d", int64_t, true, _64)

/* The types NVIDIA's GemmGroupedBatchedEx takes (measured on an H100): A, B and C of one
 * type, 16F, 16BF or 32F computed in 32F (32F also in TF32), 64F in 64F. */
static cublasStatus_t gemm_grouped_ex(cublasHandle_t h, const char *routine, cudaDataType a_type,
                                      cudaDataType b_type, cudaDataType c_type,
                                      cublasComputeType_t compute, struct groups *gr)
{
	bool f32 = compute == CUBLAS_COMPUTE_32F ||
	           (compute == CUBLAS_COMPUTE_32F_FAST_TF32 && a_type == CUDA_R_32F);
	bool taken = a_type == b_type && a_type == c_type &&
	             (((a_type == CUDA_R_16F || a_type == CUDA_R_16BF || a_type == CUDA_R_32F) && f32) ||
	              (a_type == CUDA_R_64F && compute == CUBLAS_COMPUTE_64F));
	size_t scale_size;
	const char *name = taken ? blas_ex_kernel(a_type, c_type, compute, &scale_size) : NULL;

	if (!name)
		return blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, routine,
		                 "types A %d, B %d, C %d with compute type %d", a_type, b_type, c_type,
		                 compute);
	return gemm_grouped(h, routine, name, scale_size, gr);
}

#define GROUPED_EX(I, wide_form, suffix)                                                          \
	cublasStatus_t cublasGemmGroupedBatchedEx##suffix(                                              \
	    cublasHandle_t h, const cublasOperation_t transa[], const cublasOperation_t transb[],      \
	    const I m[], const I n[], const I k[], const void *alpha, const void *const a[],          \
	    cudaDataType_t a_type, const I lda[], const void *const b[], cudaDataType_t b_type,       \
	    const I ldb[], const void *beta, void *const c[], cudaDataType_t c_type, const I ldc[],   \
	    I count, const I size[], cublasComputeType_t compute)                                     \
	{                                                                                             \
		struct groups gr = {transa, transb, m, n, k, lda, ldb, ldc, size, wide_form, alpha, beta, \
		                    a, b, c, count};                                                      \
		return gemm_grouped_ex(h, "cublasGemmGroupedBatchedEx" #suffix, a_type, b_type, c_type,  \
		                       compute, &gr);                                                     \
	}
GROUPED_EX(int, false, )
GROUPED_EX(int64_t, true, _64)
