/* A stand-in for AMD's rocBLAS, written from its documented API (rocblas-functions.h of
 * ROCm 6), for the test of cuBLAS's AMD engine where there is neither an AMD GPU nor ROCm:
 * the routines that engine maps, computed on the host in double (complex) precision between
 * copies through the process's HIP runtime (ZLUDA_CONVERT_HIP_PATH: the emulator's). Every
 * call is appended to the file ZC_ROCBLAS_STANDIN_LOG names, so that the test knows rocBLAS
 * served it. As rocBLAS documents: sizes are checked (rocblas_status_invalid_size), scalars
 * follow the handle's pointer mode, gemm_ex refuses the type combinations rocBLAS lacks
 * (rocblas_status_not_implemented), and a beta of 0 never reads C. */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standin_hip.h"

typedef double complex cplx;

enum { NONE = 111, TRANS = 112, CONJ = 113 };
enum { UPPER = 121, LOWER = 122 };
enum { NON_UNIT = 131, UNIT = 132 };
enum { LEFT = 141, RIGHT = 142 };
enum { F16 = 150, F32 = 151, F64 = 152, C16 = 153, C32 = 154, C64 = 155, I8 = 160,
       I32 = 162, BF16 = 168 };
enum { SUCCESS = 0, INVALID_HANDLE = 1, NOT_IMPLEMENTED = 2, INVALID_POINTER = 3,
       INVALID_SIZE = 4, MEMORY_ERROR = 5, INVALID_VALUE = 11 };

struct handle {
	void *stream;
	int pointer_mode, atomics_mode;
};
typedef struct handle *handle;

#define EXPORT __attribute__((visibility("default")))

/* The stream the routine runs on: its copies are ordered by it. */
static void *current_stream;

static void log_call(const char *name)
{
	const char *path = getenv("ZC_ROCBLAS_STANDIN_LOG");
	FILE *f;

	if (path && (f = fopen(path, "a"))) {
		fprintf(f, "%s\n", name);
		fclose(f);
	}
}

static size_t type_size(int t)
{
	switch (t) {
	case F16: case BF16: return 2;
	case F32: case I32: case C16: return 4;
	case F64: case C32: return 8;
	case C64: return 16;
	case I8: return 1;
	}
	return 0;
}

static float bf16_float(uint16_t b)
{
	uint32_t bits = (uint32_t)b << 16;
	float f;

	memcpy(&f, &bits, 4);
	return f;
}

static uint16_t float_bf16(float f)
{
	uint32_t bits;

	memcpy(&bits, &f, 4);
	if (isnan(f))
		return 0x7fc0;
	return (uint16_t)((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

static cplx load(const void *p, int64_t i, int t)
{
	switch (t) {
	case F16: return ((const _Float16 *)p)[i];
	case BF16: return bf16_float(((const uint16_t *)p)[i]);
	case F32: return ((const float *)p)[i];
	case F64: return ((const double *)p)[i];
	case C16: return CMPLX(((const _Float16 *)p)[2 * i], ((const _Float16 *)p)[2 * i + 1]);
	case C32: return CMPLX(((const float *)p)[2 * i], ((const float *)p)[2 * i + 1]);
	case C64: return CMPLX(((const double *)p)[2 * i], ((const double *)p)[2 * i + 1]);
	case I8: return ((const int8_t *)p)[i];
	case I32: return ((const int32_t *)p)[i];
	}
	return 0;
}

static void store(void *p, int64_t i, int t, cplx v)
{
	switch (t) {
	case F16: ((_Float16 *)p)[i] = (_Float16)creal(v); break;
	case BF16: ((uint16_t *)p)[i] = float_bf16((float)creal(v)); break;
	case F32: ((float *)p)[i] = (float)creal(v); break;
	case F64: ((double *)p)[i] = creal(v); break;
	case C16:
		((_Float16 *)p)[2 * i] = (_Float16)creal(v);
		((_Float16 *)p)[2 * i + 1] = (_Float16)cimag(v);
		break;
	case C32:
		((float *)p)[2 * i] = (float)creal(v);
		((float *)p)[2 * i + 1] = (float)cimag(v);
		break;
	case C64:
		((double *)p)[2 * i] = creal(v);
		((double *)p)[2 * i + 1] = cimag(v);
		break;
	case I32: ((int32_t *)p)[i] = (int32_t)lround(creal(v)); break;
	}
}

/* A matrix (or vector: cols 1, ld its increment's magnitude) copied from the device. */
struct mat {
	void *dev;
	char *host;
	int t;
	int64_t ld, inc, len;
	size_t bytes;
};

static int fetch(struct mat *m, const void *dev, int t, int64_t rows, int64_t cols, int64_t ld)
{
	m->dev = (void *)dev;
	m->t = t;
	m->ld = ld;
	m->inc = 1;
	m->len = rows;
	m->bytes = rows > 0 && cols > 0 ? (size_t)((cols - 1) * ld + rows) * type_size(t) : 0;
	m->host = malloc(m->bytes ? m->bytes : 1);
	return m->host && (!m->bytes || copy(m->host, dev, m->bytes, TO_HOST, current_stream) == 0);
}

static int fetch_vector(struct mat *m, const void *dev, int t, int64_t len, int64_t inc)
{
	int64_t step = inc < 0 ? -inc : inc;
	int ok = fetch(m, dev, t, len > 0 ? 1 : 0, len, step);

	m->inc = inc;
	m->len = len;
	return ok;
}

static int put_back(struct mat *m)
{
	int ok = !m->bytes || copy(m->dev, m->host, m->bytes, TO_DEVICE, current_stream) == 0;

	free(m->host);
	return ok;
}

static cplx at(const struct mat *m, int64_t i, int64_t j)
{
	return load(m->host, i + j * m->ld, m->t);
}

static void set(struct mat *m, int64_t i, int64_t j, cplx v)
{
	store(m->host, i + j * m->ld, m->t, v);
}

/* BLAS's vector element I: negative increments count from the end. */
static int64_t vector_index(const struct mat *v, int64_t i)
{
	return v->inc >= 0 ? i * v->inc : (v->len - 1 - i) * -v->inc;
}

static cplx op_at(const struct mat *m, int op, int64_t i, int64_t j)
{
	return op == NONE ? at(m, i, j) : op == TRANS ? at(m, j, i) : conj(at(m, j, i));
}

static int scalar(handle h, const void *p, int t, cplx *out)
{
	char buf[16];

	if (!p)
		return 0;
	if (h->pointer_mode && copy(buf, p, type_size(t), TO_HOST, current_stream) != 0)
		return 0;
	*out = load(h->pointer_mode ? buf : p, 0, t);
	return 1;
}

static int begin(handle h, const char *name)
{
	if (!h)
		return INVALID_HANDLE;
	if (!hip_loaded())
		return MEMORY_ERROR;
	log_call(name);
	current_stream = h->stream;
	return hip.stream_synchronize(h->stream) ? MEMORY_ERROR : SUCCESS;
}

static int real_of(int t)
{
	return t == C32 ? F32 : t == C64 ? F64 : t == C16 ? F16 : t;
}

/* C = alpha op(A) op(B) + beta C. */
static int gemm(handle h, int ta, int tb, int m, int n, int k, const void *alpha_p,
                const void *A, int at_, int lda, const void *B, int bt, int ldb,
                const void *beta_p, void *C, int ct, int ldc, int st)
{
	struct mat a, b, c;
	cplx alpha, beta;
	int ok;

	if (m < 0 || n < 0 || k < 0 || lda < (ta == NONE ? m : k) || lda < 1 ||
	    ldb < (tb == NONE ? k : n) || ldb < 1 || ldc < m || ldc < 1)
		return INVALID_SIZE;
	if (!m || !n)
		return SUCCESS;
	if (!scalar(h, alpha_p, st, &alpha) || !scalar(h, beta_p, st, &beta))
		return INVALID_POINTER;
	ok = fetch(&a, A, at_, ta == NONE ? m : k, ta == NONE ? k : m, lda) &
	     fetch(&b, B, bt, tb == NONE ? k : n, tb == NONE ? n : k, ldb) &
	     fetch(&c, C, ct, m, n, ldc);
	for (int64_t j = 0; ok && j < n; j++)
		for (int64_t i = 0; i < m; i++) {
			cplx sum = 0;
			for (int64_t l = 0; l < k; l++)
				sum += op_at(&a, ta, i, l) * op_at(&b, tb, l, j);
			set(&c, i, j, alpha * sum + (beta == 0 ? 0 : beta * at(&c, i, j)));
		}
	free(a.host);
	free(b.host);
	return put_back(&c) && ok ? SUCCESS : MEMORY_ERROR;
}

/* The COUNT pointers of a batched routine's array. */
static void **pointers(const void *array, int count)
{
	void **p = calloc(count > 0 ? count : 1, sizeof(void *));

	if (p && count > 0 && copy(p, array, count * sizeof(void *), TO_HOST, current_stream) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

static int gemm_batched(handle h, int ta, int tb, int m, int n, int k, const void *alpha,
                        const void *A, int at_, int lda, const void *B, int bt, int ldb,
                        const void *beta, const void *C, int ct, int ldc, int count, int st)
{
	void **a = pointers(A, count), **b = pointers(B, count), **c = pointers(C, count);
	int s = a && b && c ? SUCCESS : MEMORY_ERROR;

	if (count < 0)
		s = INVALID_SIZE;
	for (int i = 0; s == SUCCESS && i < count; i++)
		s = gemm(h, ta, tb, m, n, k, alpha, a[i], at_, lda, b[i], bt, ldb, beta, c[i], ct,
		         ldc, st);
	free(a);
	free(b);
	free(c);
	return s;
}

static int gemm_strided(handle h, int ta, int tb, int m, int n, int k, const void *alpha,
                        const void *A, int at_, int lda, int64_t sa, const void *B, int bt,
                        int ldb, int64_t sb, const void *beta, void *C, int ct, int ldc,
                        int64_t sc, int count, int st)
{
	int s = count < 0 ? INVALID_SIZE : SUCCESS;

	for (int i = 0; s == SUCCESS && i < count; i++)
		s = gemm(h, ta, tb, m, n, k, alpha, (const char *)A + i * sa * type_size(at_), at_, lda,
		         (const char *)B + i * sb * type_size(bt), bt, ldb, beta,
		         (char *)C + i * sc * type_size(ct), ct, ldc, st);
	return s;
}

#define TYPED_GEMM(p, T, t)                                                                       \
	EXPORT int rocblas_##p##gemm(handle h, int ta, int tb, int m, int n, int k, const T *alpha,  \
	                             const T *A, int lda, const T *B, int ldb, const T *beta, T *C,  \
	                             int ldc)                                                        \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "gemm");                                                  \
		return s ? s : gemm(h, ta, tb, m, n, k, alpha, A, t, lda, B, t, ldb, beta, C, t, ldc, t); \
	}                                                                                            \
	EXPORT int rocblas_##p##gemm_batched(handle h, int ta, int tb, int m, int n, int k,          \
	                                     const T *alpha, const T *const A[], int lda,            \
	                                     const T *const B[], int ldb, const T *beta,             \
	                                     T *const C[], int ldc, int count)                       \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "gemm_batched");                                          \
		return s ? s : gemm_batched(h, ta, tb, m, n, k, alpha, A, t, lda, B, t, ldb, beta, C, t, \
		                            ldc, count, t);                                              \
	}                                                                                            \
	EXPORT int rocblas_##p##gemm_strided_batched(handle h, int ta, int tb, int m, int n, int k,  \
	                                             const T *alpha, const T *A, int lda,            \
	                                             int64_t sa, const T *B, int ldb, int64_t sb,    \
	                                             const T *beta, T *C, int ldc, int64_t sc,       \
	                                             int count)                                      \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "gemm_strided_batched");                                  \
		return s ? s : gemm_strided(h, ta, tb, m, n, k, alpha, A, t, lda, sa, B, t, ldb, sb,    \
		                            beta, C, t, ldc, sc, count, t);                              \
	}
TYPED_GEMM(s, float, F32)
TYPED_GEMM(d, double, F64)
TYPED_GEMM(c, void, C32)
TYPED_GEMM(z, void, C64)
TYPED_GEMM(h, uint16_t, F16)

/* The combinations rocblas_gemm_ex documents (A and B, C, compute). */
static int ex_supported(int ab, int bt, int c, int d, int compute)
{
	static const int combos[][3] = {
		{ F64, F64, F64 }, { F32, F32, F32 }, { F16, F16, F16 }, { F16, F16, F32 },
		{ F16, F32, F32 }, { BF16, BF16, F32 }, { BF16, F32, F32 }, { I8, I32, I32 },
		{ C32, C32, C32 }, { C64, C64, C64 },
	};

	if (ab != bt || c != d)
		return 0;
	for (size_t i = 0; i < sizeof combos / sizeof combos[0]; i++)
		if (combos[i][0] == ab && combos[i][1] == c && combos[i][2] == compute)
			return 1;
	return 0;
}

EXPORT int rocblas_gemm_ex(handle h, int ta, int tb, int m, int n, int k, const void *alpha,
                           const void *A, int at_, int lda, const void *B, int bt, int ldb,
                           const void *beta, const void *C, int ct, int ldc, void *D, int dt,
                           int ldd, int compute, int algo, int32_t solution, uint32_t flags)
{
	int s = begin(h, "rocblas_gemm_ex");

	if (s)
		return s;
	if (!ex_supported(at_, bt, ct, dt, compute))
		return NOT_IMPLEMENTED;
	if (C != D || ldc != ldd)
		return NOT_IMPLEMENTED; /* out of place: not what cuBLAS's engine asks */
	return gemm(h, ta, tb, m, n, k, alpha, A, at_, lda, B, bt, ldb, beta, D, dt, ldd, compute);
}

EXPORT int rocblas_gemm_batched_ex(handle h, int ta, int tb, int m, int n, int k,
                                   const void *alpha, const void *A, int at_, int lda,
                                   const void *B, int bt, int ldb, const void *beta,
                                   const void *C, int ct, int ldc, void *D, int dt, int ldd,
                                   int count, int compute, int algo, int32_t solution,
                                   uint32_t flags)
{
	int s = begin(h, "rocblas_gemm_batched_ex");

	if (s)
		return s;
	if (!ex_supported(at_, bt, ct, dt, compute) || C != D || ldc != ldd)
		return NOT_IMPLEMENTED;
	return gemm_batched(h, ta, tb, m, n, k, alpha, A, at_, lda, B, bt, ldb, beta, D, dt, ldd,
	                    count, compute);
}

EXPORT int rocblas_gemm_strided_batched_ex(handle h, int ta, int tb, int m, int n, int k,
                                           const void *alpha, const void *A, int at_, int lda,
                                           int64_t sa, const void *B, int bt, int ldb,
                                           int64_t sb, const void *beta, const void *C, int ct,
                                           int ldc, int64_t sc, void *D, int dt, int ldd,
                                           int64_t sd, int count, int compute, int algo,
                                           int32_t solution, uint32_t flags)
{
	int s = begin(h, "rocblas_gemm_strided_batched_ex");

	if (s)
		return s;
	if (!ex_supported(at_, bt, ct, dt, compute) || C != D || ldc != ldd || sc != sd)
		return NOT_IMPLEMENTED;
	return gemm_strided(h, ta, tb, m, n, k, alpha, A, at_, lda, sa, B, bt, ldb, sb, beta, D, dt,
	                    ldd, sd, count, compute);
}

/* op(A) of a triangular A as a dense K x K matrix (row-major in OUT). */
static void triangle(const struct mat *a, int uplo, int op, int diag, int64_t k, cplx *out)
{
	for (int64_t i = 0; i < k; i++)
		for (int64_t j = 0; j < k; j++) {
			int64_t r = op == NONE ? i : j, c = op == NONE ? j : i;
			int inside = uplo == UPPER ? r <= c : r >= c;
			cplx v = !inside ? 0 : r == c && diag == UNIT ? 1 : at(a, r, c);
			out[i * k + j] = op == CONJ ? conj(v) : v;
		}
}

/* Solves T x = b in place for a dense triangular T (row-major, K x K, LOWER or upper);
 * TRANSPOSED solves T^T x = b. */
static void solve(const cplx *t, int64_t k, int lower, int transposed, cplx *x)
{
	if (transposed)
		lower = !lower;
	for (int64_t s = 0; s < k; s++) {
		int64_t i = lower ? s : k - 1 - s;
		cplx v = x[i];
		for (int64_t l = 0; l < k; l++)
			if (lower ? l < i : l > i)
				v -= (transposed ? t[l * k + i] : t[i * k + l]) * x[l];
		x[i] = v / t[i * k + i];
	}
}

static int trsm(handle h, int side, int uplo, int op, int diag, int m, int n,
                const void *alpha_p, const void *A, int lda, void *B, int ldb, int t)
{
	int64_t k = side == LEFT ? m : n;
	struct mat a, b;
	cplx alpha, *tri, *x;
	int ok;

	if (m < 0 || n < 0 || lda < k || lda < 1 || ldb < m || ldb < 1)
		return INVALID_SIZE;
	if (!m || !n)
		return SUCCESS;
	if (!scalar(h, alpha_p, t, &alpha))
		return INVALID_POINTER;
	ok = fetch(&a, A, t, k, k, lda) & fetch(&b, B, t, m, n, ldb);
	tri = malloc(k * k * sizeof(cplx));
	x = malloc(k * sizeof(cplx));
	ok = ok && tri && x;
	if (ok)
		triangle(&a, uplo, op, diag, k, tri);
	/* Left: op(A) X = alpha B, column by column; right: X op(A) = alpha B, row by row,
	 * that is op(A)^T x^T = alpha b^T. */
	for (int64_t v = 0; ok && v < (side == LEFT ? n : m); v++) {
		for (int64_t l = 0; l < k; l++)
			x[l] = alpha * (side == LEFT ? at(&b, l, v) : at(&b, v, l));
		solve(tri, k, (uplo == LOWER) == (op == NONE), side == RIGHT, x);
		for (int64_t l = 0; l < k; l++)
			if (side == LEFT)
				set(&b, l, v, x[l]);
			else
				set(&b, v, l, x[l]);
	}
	free(tri);
	free(x);
	free(a.host);
	return put_back(&b) && ok ? SUCCESS : MEMORY_ERROR;
}

static int trmm(handle h, int side, int uplo, int op, int diag, int m, int n,
                const void *alpha_p, const void *A, int lda, const void *B, int ldb, void *C,
                int ldc, int t)
{
	int64_t k = side == LEFT ? m : n;
	struct mat a, b, c;
	cplx alpha, *tri;
	int ok;

	if (m < 0 || n < 0 || lda < k || lda < 1 || ldb < m || ldb < 1 || ldc < m || ldc < 1)
		return INVALID_SIZE;
	if (!m || !n)
		return SUCCESS;
	if (!scalar(h, alpha_p, t, &alpha))
		return INVALID_POINTER;
	ok = fetch(&a, A, t, k, k, lda) & fetch(&b, B, t, m, n, ldb) & fetch(&c, C, t, m, n, ldc);
	tri = malloc(k * k * sizeof(cplx));
	ok = ok && tri;
	if (ok)
		triangle(&a, uplo, op, diag, k, tri);
	for (int64_t j = 0; ok && j < n; j++)
		for (int64_t i = 0; i < m; i++) {
			cplx sum = 0;
			for (int64_t l = 0; l < k; l++)
				sum += side == LEFT ? tri[i * k + l] * at(&b, l, j)
				                    : at(&b, i, l) * tri[l * k + j];
			set(&c, i, j, alpha * sum);
		}
	free(tri);
	free(a.host);
	free(b.host);
	return put_back(&c) && ok ? SUCCESS : MEMORY_ERROR;
}

/* The rank-k updates: the UPLO triangle of C = alpha op(A) op(B)' + beta C, ' being ^T or,
 * for the Hermitian ones (HERM), ^H with the diagonal real. KIND 0: B is A (syrk, herk, whose
 * alpha is real too); 1: B given (syrkx, herkx); 2: plus alpha' op(B) op(A)', alpha' being
 * conj(alpha) for her2k (syr2k, her2k). The Hermitian ones' beta is real. */
static int rank_k(handle h, int uplo, int op, int n, int k, const void *alpha_p,
                  const void *A, int lda, const void *B, int ldb, const void *beta_p, void *C,
                  int ldc, int t, int herm, int kind)
{
	int64_t rows = op == NONE ? n : k, cols = op == NONE ? k : n;
	struct mat a, b, c;
	cplx alpha, beta;
	int ok;

	if (n < 0 || k < 0 || lda < rows || lda < 1 || (kind && (ldb < rows || ldb < 1)) ||
	    ldc < n || ldc < 1)
		return INVALID_SIZE;
	if (!n)
		return SUCCESS;
	if (!scalar(h, alpha_p, herm && !kind ? real_of(t) : t, &alpha) ||
	    !scalar(h, beta_p, herm ? real_of(t) : t, &beta))
		return INVALID_POINTER;
	ok = fetch(&a, A, t, rows, cols, lda) & fetch(&c, C, t, n, n, ldc);
	if (kind)
		ok &= fetch(&b, B, t, rows, cols, ldb);
	else
		b = a;
	for (int64_t j = 0; ok && j < n; j++)
		for (int64_t i = 0; i < n; i++) {
			cplx sum = 0, sum2 = 0, v;
			if (uplo == UPPER ? i > j : i < j)
				continue;
			for (int64_t l = 0; l < k; l++) {
				cplx ai = op == NONE ? at(&a, i, l) : at(&a, l, i);
				cplx aj = op == NONE ? at(&a, j, l) : at(&a, l, j);
				cplx bi = op == NONE ? at(&b, i, l) : at(&b, l, i);
				cplx bj = op == NONE ? at(&b, j, l) : at(&b, l, j);
				if (herm && op != NONE) /* op(X) = X^H: conjugate what is read */
					ai = conj(ai), aj = conj(aj), bi = conj(bi), bj = conj(bj);
				sum += ai * (herm ? conj(bj) : bj);
				sum2 += bi * (herm ? conj(aj) : aj);
			}
			v = alpha * sum + (beta == 0 ? 0 : beta * at(&c, i, j));
			if (kind == 2)
				v += (herm ? conj(alpha) : alpha) * sum2;
			set(&c, i, j, herm && i == j ? creal(v) : v);
		}
	free(a.host);
	if (kind)
		free(b.host);
	return put_back(&c) && ok ? SUCCESS : MEMORY_ERROR;
}

/* symm and hemm (HERM): C = alpha A B + beta C (left) or alpha B A + beta C (right), A
 * symmetric or Hermitian from its UPLO triangle. */
static int symm(handle h, int side, int uplo, int m, int n, const void *alpha_p, const void *A,
                int lda, const void *B, int ldb, const void *beta_p, void *C, int ldc, int t,
                int herm)
{
	int64_t k = side == LEFT ? m : n;
	struct mat a, b, c;
	cplx alpha, beta;
	int ok;

	if (m < 0 || n < 0 || lda < k || lda < 1 || ldb < m || ldb < 1 || ldc < m || ldc < 1)
		return INVALID_SIZE;
	if (!m || !n)
		return SUCCESS;
	if (!scalar(h, alpha_p, t, &alpha) || !scalar(h, beta_p, t, &beta))
		return INVALID_POINTER;
	ok = fetch(&a, A, t, k, k, lda) & fetch(&b, B, t, m, n, ldb) & fetch(&c, C, t, m, n, ldc);
	for (int64_t j = 0; ok && j < n; j++)
		for (int64_t i = 0; i < m; i++) {
			cplx sum = 0;
			for (int64_t l = 0; l < k; l++) {
				int64_t r = side == LEFT ? i : l, q = side == LEFT ? l : j;
				int inside = uplo == UPPER ? r <= q : r >= q;
				cplx e = inside ? at(&a, r, q) : herm ? conj(at(&a, q, r)) : at(&a, q, r);
				if (herm && r == q)
					e = creal(e);
				sum += side == LEFT ? e * at(&b, l, j) : at(&b, i, l) * e;
			}
			set(&c, i, j, alpha * sum + (beta == 0 ? 0 : beta * at(&c, i, j)));
		}
	free(a.host);
	free(b.host);
	return put_back(&c) && ok ? SUCCESS : MEMORY_ERROR;
}

static int geam(handle h, int ta, int tb, int m, int n, const void *alpha_p, const void *A,
                int lda, const void *beta_p, const void *B, int ldb, void *C, int ldc, int t)
{
	struct mat a = {0}, b = {0}, c;
	cplx alpha, beta;
	int ok = 1;

	if (m < 0 || n < 0 || ldc < m || ldc < 1)
		return INVALID_SIZE;
	if (!m || !n)
		return SUCCESS;
	if (!scalar(h, alpha_p, t, &alpha) || !scalar(h, beta_p, t, &beta))
		return INVALID_POINTER;
	if (alpha != 0)
		ok &= fetch(&a, A, t, ta == NONE ? m : n, ta == NONE ? n : m, lda);
	if (beta != 0)
		ok &= fetch(&b, B, t, tb == NONE ? m : n, tb == NONE ? n : m, ldb);
	ok &= fetch(&c, C, t, m, n, ldc);
	for (int64_t j = 0; ok && j < n; j++)
		for (int64_t i = 0; i < m; i++)
			set(&c, i, j, (alpha != 0 ? alpha * op_at(&a, ta, i, j) : 0) +
			              (beta != 0 ? beta * op_at(&b, tb, i, j) : 0));
	free(a.host);
	free(b.host);
	return put_back(&c) && ok ? SUCCESS : MEMORY_ERROR;
}

static int dgmm(handle h, int side, int m, int n, const void *A, int lda, const void *X,
                int incx, void *C, int ldc, int t)
{
	struct mat a, x, c;
	int ok;

	if (m < 0 || n < 0 || lda < m || lda < 1 || ldc < m || ldc < 1)
		return INVALID_SIZE;
	if (!m || !n)
		return SUCCESS;
	ok = fetch(&a, A, t, m, n, lda) & fetch_vector(&x, X, t, side == LEFT ? m : n, incx) &
	     fetch(&c, C, t, m, n, ldc);
	for (int64_t j = 0; ok && j < n; j++)
		for (int64_t i = 0; i < m; i++)
			set(&c, i, j,
			    at(&a, i, j) * load(x.host, vector_index(&x, side == LEFT ? i : j), t));
	free(a.host);
	free(x.host);
	return put_back(&c) && ok ? SUCCESS : MEMORY_ERROR;
}

static int gemv(handle h, int op, int m, int n, const void *alpha_p, const void *A, int lda,
                const void *X, int incx, const void *beta_p, void *Y, int incy, int t)
{
	int64_t xlen = op == NONE ? n : m, ylen = op == NONE ? m : n;
	struct mat a, x, y;
	cplx alpha, beta;
	int ok;

	if (m < 0 || n < 0 || lda < m || lda < 1 || !incx || !incy)
		return INVALID_SIZE;
	if (!m || !n)
		return SUCCESS;
	if (!scalar(h, alpha_p, t, &alpha) || !scalar(h, beta_p, t, &beta))
		return INVALID_POINTER;
	ok = fetch(&a, A, t, m, n, lda) & fetch_vector(&x, X, t, xlen, incx) &
	     fetch_vector(&y, Y, t, ylen, incy);
	for (int64_t i = 0; ok && i < ylen; i++) {
		cplx sum = 0;
		int64_t yi = vector_index(&y, i);
		for (int64_t l = 0; l < xlen; l++)
			sum += op_at(&a, op, i, l) * load(x.host, vector_index(&x, l), t);
		store(y.host, yi, t, alpha * sum + (beta == 0 ? 0 : beta * load(y.host, yi, t)));
	}
	free(a.host);
	free(x.host);
	return put_back(&y) && ok ? SUCCESS : MEMORY_ERROR;
}

#define TYPED(p, T, t)                                                                            \
	EXPORT int rocblas_##p##trsm(handle h, int side, int uplo, int op, int diag, int m, int n,  \
	                             const T *alpha, const T *A, int lda, T *B, int ldb)            \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "trsm");                                                  \
		return s ? s : trsm(h, side, uplo, op, diag, m, n, alpha, A, lda, B, ldb, t);           \
	}                                                                                            \
	EXPORT int rocblas_##p##trsm_batched(handle h, int side, int uplo, int op, int diag, int m, \
	                                     int n, const T *alpha, const T *const A[], int lda,    \
	                                     T *const B[], int ldb, int count)                      \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "trsm_batched");                                          \
		void **a = pointers(A, count), **b = pointers(B, count);                                 \
		if (!s && (!a || !b))                                                                    \
			s = MEMORY_ERROR;                                                                    \
		for (int i = 0; !s && i < count; i++)                                                    \
			s = trsm(h, side, uplo, op, diag, m, n, alpha, a[i], lda, b[i], ldb, t);             \
		free(a);                                                                                 \
		free(b);                                                                                 \
		return s;                                                                                \
	}                                                                                            \
	EXPORT int rocblas_##p##trmm(handle h, int side, int uplo, int op, int diag, int m, int n,  \
	                             const T *alpha, const T *A, int lda, const T *B, int ldb,      \
	                             T *C, int ldc)                                                  \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "trmm");                                                  \
		return s ? s : trmm(h, side, uplo, op, diag, m, n, alpha, A, lda, B, ldb, C, ldc, t);   \
	}                                                                                            \
	EXPORT int rocblas_##p##syrk(handle h, int uplo, int op, int n, int k, const T *alpha,      \
	                             const T *A, int lda, const T *beta, T *C, int ldc)             \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "syrk");                                                  \
		return s ? s : rank_k(h, uplo, op, n, k, alpha, A, lda, NULL, 0, beta, C, ldc, t, 0, 0); \
	}                                                                                            \
	EXPORT int rocblas_##p##syr2k(handle h, int uplo, int op, int n, int k, const T *alpha,     \
	                              const T *A, int lda, const T *B, int ldb, const T *beta,      \
	                              T *C, int ldc)                                                 \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "syr2k");                                                 \
		return s ? s : rank_k(h, uplo, op, n, k, alpha, A, lda, B, ldb, beta, C, ldc, t, 0, 2); \
	}                                                                                            \
	EXPORT int rocblas_##p##syrkx(handle h, int uplo, int op, int n, int k, const T *alpha,     \
	                              const T *A, int lda, const T *B, int ldb, const T *beta,      \
	                              T *C, int ldc)                                                 \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "syrkx");                                                 \
		return s ? s : rank_k(h, uplo, op, n, k, alpha, A, lda, B, ldb, beta, C, ldc, t, 0, 1); \
	}                                                                                            \
	EXPORT int rocblas_##p##symm(handle h, int side, int uplo, int m, int n, const T *alpha,    \
	                             const T *A, int lda, const T *B, int ldb, const T *beta, T *C, \
	                             int ldc)                                                        \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "symm");                                                  \
		return s ? s : symm(h, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc, t, 0);    \
	}                                                                                            \
	EXPORT int rocblas_##p##geam(handle h, int ta, int tb, int m, int n, const T *alpha,        \
	                             const T *A, int lda, const T *beta, const T *B, int ldb, T *C, \
	                             int ldc)                                                        \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "geam");                                                  \
		return s ? s : geam(h, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc, t);           \
	}                                                                                            \
	EXPORT int rocblas_##p##dgmm(handle h, int side, int m, int n, const T *A, int lda,         \
	                             const T *x, int incx, T *C, int ldc)                           \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "dgmm");                                                  \
		return s ? s : dgmm(h, side, m, n, A, lda, x, incx, C, ldc, t);                         \
	}                                                                                            \
	EXPORT int rocblas_##p##gemv(handle h, int op, int m, int n, const T *alpha, const T *A,    \
	                             int lda, const T *x, int incx, const T *beta, T *y, int incy)  \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "gemv");                                                  \
		return s ? s : gemv(h, op, m, n, alpha, A, lda, x, incx, beta, y, incy, t);             \
	}
TYPED(s, float, F32)
TYPED(d, double, F64)
TYPED(c, void, C32)
TYPED(z, void, C64)

#define HERMITIAN(p, T, R, t)                                                                     \
	EXPORT int rocblas_##p##herk(handle h, int uplo, int op, int n, int k, const R *alpha,      \
	                             const T *A, int lda, const R *beta, T *C, int ldc)             \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "herk");                                                  \
		return s ? s : rank_k(h, uplo, op, n, k, alpha, A, lda, NULL, 0, beta, C, ldc, t, 1, 0); \
	}                                                                                            \
	EXPORT int rocblas_##p##herkx(handle h, int uplo, int op, int n, int k, const T *alpha,     \
	                              const T *A, int lda, const T *B, int ldb, const R *beta,      \
	                              T *C, int ldc)                                                 \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "herkx");                                                 \
		return s ? s : rank_k(h, uplo, op, n, k, alpha, A, lda, B, ldb, beta, C, ldc, t, 1, 1); \
	}                                                                                            \
	EXPORT int rocblas_##p##her2k(handle h, int uplo, int op, int n, int k, const T *alpha,     \
	                              const T *A, int lda, const T *B, int ldb, const R *beta,      \
	                              T *C, int ldc)                                                 \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "her2k");                                                 \
		return s ? s : rank_k(h, uplo, op, n, k, alpha, A, lda, B, ldb, beta, C, ldc, t, 1, 2); \
	}                                                                                            \
	EXPORT int rocblas_##p##hemm(handle h, int side, int uplo, int m, int n, const T *alpha,    \
	                             const T *A, int lda, const T *B, int ldb, const T *beta, T *C, \
	                             int ldc)                                                        \
	{                                                                                            \
		int s = begin(h, "rocblas_" #p "hemm");                                                  \
		return s ? s : symm(h, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc, t, 1);    \
	}
HERMITIAN(c, void, float, C32)
HERMITIAN(z, void, double, C64)

EXPORT int rocblas_create_handle(handle *out)
{
	if (!out)
		return INVALID_POINTER;
	*out = calloc(1, sizeof(struct handle));
	return *out ? SUCCESS : MEMORY_ERROR;
}

EXPORT int rocblas_destroy_handle(handle h)
{
	free(h);
	return h ? SUCCESS : INVALID_HANDLE;
}

EXPORT int rocblas_set_stream(handle h, void *stream)
{
	if (!h)
		return INVALID_HANDLE;
	h->stream = stream;
	return SUCCESS;
}

EXPORT int rocblas_set_pointer_mode(handle h, int mode)
{
	if (!h)
		return INVALID_HANDLE;
	if (mode != 0 && mode != 1)
		return INVALID_VALUE;
	h->pointer_mode = mode;
	return SUCCESS;
}

EXPORT int rocblas_set_atomics_mode(handle h, int mode)
{
	if (!h)
		return INVALID_HANDLE;
	h->atomics_mode = mode;
	return SUCCESS;
}
