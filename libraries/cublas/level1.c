/* Level 1: vector operations and reductions, every type each has. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "blas.h"

#define THREADS 256

static cublasStatus_t elementwise(cublasHandle_t h, const char *routine, const char *kernel,
                                  int64_t n, const void *alpha, size_t alpha_size,
                                  const void *beta, size_t beta_size, void *x, int64_t incx,
                                  void *y, int64_t incy)
{
	cublasStatus_t s = blas_begin(h, routine);
	struct zc_vector_args v;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if ((alpha_size && !alpha) || (beta_size && !beta))
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, "NULL scalar");
	if (n <= 0 || (!y && incx <= 0)) /* scal does nothing for a negative increment */
		return CUBLAS_STATUS_SUCCESS;
	memset(&v, 0, sizeof(v));
	v.n = n;
	if (alpha_size)
		v.alpha = blas_scalar(h, alpha, alpha_size);
	if (beta_size)
		v.beta = blas_scalar(h, beta, beta_size);
	v.x = x;
	v.incx = incx;
	v.y = y;
	v.incy = incy;
	return blas_launch(h, kernel, blas_blocks(n, THREADS), 1, 1, THREADS, &v);
}

/* A reduction into result (RESULT_SIZE bytes); nrm2, asum and iamax give 0 for a
 * non-positive increment, which the kernel gives for no elements. */
static cublasStatus_t reduce(cublasHandle_t h, const char *routine, const char *kernel,
                             int64_t n, const void *x, int64_t incx, const void *y, int64_t incy,
                             void *result, size_t result_size, bool conjugate, bool minimum)
{
	cublasStatus_t s = blas_begin(h, routine);
	struct zc_vector_args v;
	void *target;

	if (s != CUBLAS_STATUS_SUCCESS || (s = blas_result_begin(h, result, &target)))
		return s;
	memset(&v, 0, sizeof(v));
	v.n = n < 0 || (!y && incx <= 0) ? 0 : n;
	v.x = (void *)x;
	v.incx = incx;
	v.y = (void *)y;
	v.incy = incy;
	v.result = target;
	v.conjugate = conjugate;
	v.minimum = minimum;
	if ((s = blas_launch(h, kernel, 1, 1, 1, THREADS, &v)))
		return s;
	return blas_result_end(h, result, target, result_size);
}

#define TYPED(P, T, k)                                                                           \
	cublasStatus_t cublas##P##axpy(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, \
	                               T *y, int incy)                                                \
	{                                                                                            \
		return elementwise(h, "cublas" #P "axpy", "zc_axpy_" k, n, alpha, sizeof(T), NULL, 0,  \
		                   (void *)x, incx, y, incy);                                           \
	}                                                                                            \
	cublasStatus_t cublas##P##scal(cublasHandle_t h, int n, const T *alpha, T *x, int incx)     \
	{                                                                                            \
		return elementwise(h, "cublas" #P "scal", "zc_scal_" k, n, alpha, sizeof(T), NULL, 0,  \
		                   x, incx, NULL, 0);                                                   \
	}                                                                                            \
	cublasStatus_t cublas##P##copy(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy) \
	{                                                                                            \
		return elementwise(h, "cublas" #P "copy", "zc_copy_" k, n, NULL, 0, NULL, 0, (void *)x, \
		                   incx, y, incy);                                                      \
	}                                                                                            \
	cublasStatus_t cublas##P##swap(cublasHandle_t h, int n, T *x, int incx, T *y, int incy)     \
	{                                                                                            \
		return elementwise(h, "cublas" #P "swap", "zc_swap_" k, n, NULL, 0, NULL, 0, x, incx, y, \
		                   incy);                                                               \
	}
TYPED(S, float, "s")
TYPED(D, double, "d")
TYPED(C, cuComplex, "c")
TYPED(Z, cuDoubleComplex, "z")

cublasStatus_t cublasCsscal(cublasHandle_t h, int n, const float *alpha, cuComplex *x, int incx)
{
	return elementwise(h, "cublasCsscal", "zc_scal_cs", n, alpha, sizeof(float), NULL, 0, x, incx,
	                   NULL, 0);
}

cublasStatus_t cublasZdscal(cublasHandle_t h, int n, const double *alpha, cuDoubleComplex *x,
                            int incx)
{
	return elementwise(h, "cublasZdscal", "zc_scal_zd", n, alpha, sizeof(double), NULL, 0, x, incx,
	                   NULL, 0);
}

#define ROT(name, T, C, S, k)                                                                 \
	cublasStatus_t cublas##name(cublasHandle_t h, int n, T *x, int incx, T *y, int incy,     \
	                            const C *c, const S *s)                                      \
	{                                                                                         \
		return elementwise(h, "cublas" #name, "zc_rot_" k, n, c, sizeof(C), s, sizeof(S), x, \
		                   incx, y, incy);                                                   \
	}
ROT(Srot, float, float, float, "s")
ROT(Drot, double, double, double, "d")
ROT(Crot, cuComplex, float, cuComplex, "c")
ROT(Csrot, cuComplex, float, float, "cs")
ROT(Zrot, cuDoubleComplex, double, cuDoubleComplex, "z")
ROT(Zdrot, cuDoubleComplex, double, double, "zd")

#define DOT(name, T, k, conj)                                                                    \
	cublasStatus_t cublas##name(cublasHandle_t h, int n, const T *x, int incx, const T *y,      \
	                            int incy, T *result)                                            \
	{                                                                                            \
		return reduce(h, "cublas" #name, "zc_dot_" k, n, x, incx, y, incy, result, sizeof(T), \
		              conj, false);                                                          \
	}
DOT(Sdot, float, "s", false)
DOT(Ddot, double, "d", false)
DOT(Cdotu, cuComplex, "c", false)
DOT(Cdotc, cuComplex, "c", true)
DOT(Zdotu, cuDoubleComplex, "z", false)
DOT(Zdotc, cuDoubleComplex, "z", true)

#define REAL_REDUCTION(name, kernel, T, R)                                                      \
	cublasStatus_t cublas##name(cublasHandle_t h, int n, const T *x, int incx, R *result)       \
	{                                                                                           \
		return reduce(h, "cublas" #name, kernel, n, x, incx, NULL, 0, result, sizeof(R), false, \
		              false);                                                                 \
	}
REAL_REDUCTION(Snrm2, "zc_nrm2_s", float, float)
REAL_REDUCTION(Dnrm2, "zc_nrm2_d", double, double)
REAL_REDUCTION(Scnrm2, "zc_nrm2_c", cuComplex, float)
REAL_REDUCTION(Dznrm2, "zc_nrm2_z", cuDoubleComplex, double)
REAL_REDUCTION(Sasum, "zc_asum_s", float, float)
REAL_REDUCTION(Dasum, "zc_asum_d", double, double)
REAL_REDUCTION(Scasum, "zc_asum_c", cuComplex, float)
REAL_REDUCTION(Dzasum, "zc_asum_z", cuDoubleComplex, double)

#define INDEX_REDUCTION(P, T, k)                                                                  \
	cublasStatus_t cublasI##P##amax(cublasHandle_t h, int n, const T *x, int incx, int *result) \
	{                                                                                           \
		return reduce(h, "cublasI" #P "amax", "zc_iamax_" k, n, x, incx, NULL, 0, result,       \
		              sizeof(int), false, false);                                             \
	}                                                                                           \
	cublasStatus_t cublasI##P##amin(cublasHandle_t h, int n, const T *x, int incx, int *result) \
	{                                                                                           \
		return reduce(h, "cublasI" #P "amin", "zc_iamax_" k, n, x, incx, NULL, 0, result,       \
		              sizeof(int), false, true);                                              \
	}
INDEX_REDUCTION(s, float, "s")
INDEX_REDUCTION(d, double, "d")
INDEX_REDUCTION(c, cuComplex, "c")
INDEX_REDUCTION(z, cuDoubleComplex, "z")

/* The _64 forms of the index reductions (the others are generated: gen_wide.py): the index,
 * 1-based and at most n, as an int64_t. In device memory the 32-bit routine writes its low
 * word (little-endian) and the high word is zeroed after it on the handle's stream. */
static cublasStatus_t wide_index(cublasHandle_t h, const char *routine, int64_t n, int64_t incx,
                                 int64_t *result,
                                 cublasStatus_t (*narrow)(cublasHandle_t, int, const void *, int, int *),
                                 const void *x)
{
	if (n < INT_MIN || n > INT_MAX || incx < INT_MIN || incx > INT_MAX)
		return blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, routine, "n or incx beyond 2^31 - 1");
	if (!h || h->magic != BLAS_HANDLE_MAGIC || h->pointer_mode != CUBLAS_POINTER_MODE_DEVICE) {
		int index = 0;
		cublasStatus_t status = narrow(h, (int)n, x, (int)incx, &index);
		if (status == CUBLAS_STATUS_SUCCESS)
			*result = index;
		return status;
	}
	cublasStatus_t status = narrow(h, (int)n, x, (int)incx, (int *)result);
	if (status == CUBLAS_STATUS_SUCCESS &&
	    cuMemsetD32Async((CUdeviceptr)(uintptr_t)result + 4, 0, 1, h->stream) != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_EXECUTION_FAILED, routine, "zeroing the index's high word failed");
	return status;
}

#define WIDE_INDEX_OF(P, T, which)                                                                 \
	static cublasStatus_t narrow_I##P##which(cublasHandle_t h, int n, const void *x, int incx, int *r) \
	{                                                                                               \
		return cublasI##P##which(h, n, (const T *)x, incx, r);                                     \
	}                                                                                               \
	cublasStatus_t cublasI##P##which##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx,   \
	                                         int64_t *result)                                        \
	{                                                                                               \
		return wide_index(h, "cublasI" #P #which "_v2_64", n, incx, result, narrow_I##P##which, x); \
	}
#define WIDE_INDEX(P, T) WIDE_INDEX_OF(P, T, amax) WIDE_INDEX_OF(P, T, amin)
WIDE_INDEX(s, float)
WIDE_INDEX(d, double)
WIDE_INDEX(c, cuComplex)
WIDE_INDEX(z, cuDoubleComplex)

/* rotg, rotmg and rotm's param are a few scalars, read on the host (blas_host_scalar) and
 * written back once computed there. */
static cublasStatus_t scalar_out(cublasHandle_t h, const char *routine, void *p,
                                 const void *host, size_t size)
{
	if (h->pointer_mode == CUBLAS_POINTER_MODE_HOST)
		memcpy(p, host, size);
	else if (cuMemcpyHtoD((CUdeviceptr)(uintptr_t)p, host, size) != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_EXECUTION_FAILED, routine, "cannot write its results");
	return CUBLAS_STATUS_SUCCESS;
}

/* The reference BLAS's rotg: r = ±sqrt(a² + b²) with the sign of the larger, and z from
 * which c and s can be rebuilt. */
static void real_rotg(double *a, double *b, double *c, double *s)
{
	double roe = fabs(*a) > fabs(*b) ? *a : *b, scale = fabs(*a) + fabs(*b), r, z;

	if (scale == 0) {
		*c = 1, *s = 0, r = 0, z = 0;
	} else {
		r = scale * sqrt((*a / scale) * (*a / scale) + (*b / scale) * (*b / scale));
		r = copysign(1.0, roe) * r;
		*c = *a / r;
		*s = *b / r;
		z = 1;
		if (fabs(*a) > fabs(*b))
			z = *s;
		if (fabs(*b) >= fabs(*a) && *c != 0)
			z = 1 / *c;
	}
	*a = r;
	*b = z;
}

/* The reference BLAS's complex rotg: c real, s complex, a becomes r. */
static void complex_rotg(double a[2], const double b[2], double *c, double s[2])
{
	double abs_a = hypot(a[0], a[1]), abs_b = hypot(b[0], b[1]);

	if (abs_a == 0) {
		*c = 0;
		s[0] = 1, s[1] = 0;
		a[0] = b[0], a[1] = b[1];
		return;
	}
	double scale = abs_a + abs_b;
	double norm = scale * hypot(abs_a / scale, abs_b / scale);
	double alpha[2] = {a[0] / abs_a, a[1] / abs_a};
	*c = abs_a / norm;
	s[0] = (alpha[0] * b[0] + alpha[1] * b[1]) / norm; /* alpha conj(b) */
	s[1] = (alpha[1] * b[0] - alpha[0] * b[1]) / norm;
	a[0] = alpha[0] * norm;
	a[1] = alpha[1] * norm;
}

#define REAL_ROTG(name, T)                                                                 \
	cublasStatus_t cublas##name(cublasHandle_t h, T *a, T *b, T *c, T *s)                \
	{                                                                                    \
		const char *routine = "cublas" #name;                                            \
		cublasStatus_t st = blas_begin(h, routine);                                      \
		T in[2], out[2];                                                                 \
		double da, db, dc, ds;                                                           \
		if (st || (st = blas_host_scalar(h, routine, a, &in[0], sizeof(T))) ||         \
		    (st = blas_host_scalar(h, routine, b, &in[1], sizeof(T))))                  \
			return st;                                                               \
		if (!c || !s)                                                                    \
			return blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, "NULL argument"); \
		da = in[0], db = in[1];                                                          \
		real_rotg(&da, &db, &dc, &ds);                                                   \
		out[0] = (T)dc, out[1] = (T)ds, in[0] = (T)da, in[1] = (T)db;                    \
		if ((st = scalar_out(h, routine, a, &in[0], sizeof(T))) ||                      \
		    (st = scalar_out(h, routine, b, &in[1], sizeof(T))) ||                      \
		    (st = scalar_out(h, routine, c, &out[0], sizeof(T))))                       \
			return st;                                                               \
		return scalar_out(h, routine, s, &out[1], sizeof(T));                            \
	}
REAL_ROTG(Srotg, float)
REAL_ROTG(Drotg, double)

#define COMPLEX_ROTG(name, T, R)                                                           \
	cublasStatus_t cublas##name(cublasHandle_t h, T *a, T *b, R *c, T *s)                \
	{                                                                                    \
		const char *routine = "cublas" #name;                                            \
		cublasStatus_t st = blas_begin(h, routine);                                      \
		T ha, hb, hs;                                                                    \
		R hc;                                                                            \
		double da[2], db[2], dc, ds[2];                                                  \
		if (st || (st = blas_host_scalar(h, routine, a, &ha, sizeof(T))) ||             \
		    (st = blas_host_scalar(h, routine, b, &hb, sizeof(T))))                     \
			return st;                                                               \
		if (!c || !s)                                                                    \
			return blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, "NULL argument"); \
		da[0] = ha.x, da[1] = ha.y, db[0] = hb.x, db[1] = hb.y;                          \
		complex_rotg(da, db, &dc, ds);                                                   \
		ha.x = (R)da[0], ha.y = (R)da[1], hc = (R)dc, hs.x = (R)ds[0], hs.y = (R)ds[1];  \
		if ((st = scalar_out(h, routine, a, &ha, sizeof(T))) ||                         \
		    (st = scalar_out(h, routine, c, &hc, sizeof(R))))                           \
			return st;                                                               \
		return scalar_out(h, routine, s, &hs, sizeof(T));                                \
	}
COMPLEX_ROTG(Crotg, cuComplex, float)
COMPLEX_ROTG(Zrotg, cuDoubleComplex, double)

/* The modified Givens matrix [h11 h12; h21 h22] that rotm's param encodes by its flag
 * (param[0]: -1 all four given, 0 a unit diagonal, 1 h12 = 1 and h21 = -1); false for -2,
 * the identity. */
static bool modified_givens(const double p[5], double m[4])
{
	if (p[0] == -2)
		return false;
	m[0] = p[0] == 0 ? 1 : p[1];
	m[1] = p[0] > 0 ? 1 : p[3];
	m[2] = p[0] > 0 ? -1 : p[2];
	m[3] = p[0] == 0 ? 1 : p[4];
	return true;
}

/* The reference BLAS's rotmg: the modified Givens transformation that zeroes the second
 * component of (sqrt(d1) x1, sqrt(d2) y1), rescaling d1 and d2 by gamma^2 = 4096^2 to keep
 * them in range. */
static void reference_rotmg(double *d1, double *d2, double *x1, double y1, double p[5])
{
	const double gam = 4096, gamsq = gam * gam, rgamsq = 1 / gamsq;
	double flag, h11 = 0, h12 = 0, h21 = 0, h22 = 0, p1, p2, q1, q2, u;

	if (*d1 < 0) {
		flag = -1;
		*d1 = *d2 = *x1 = 0;
	} else {
		if ((p2 = *d2 * y1) == 0) {
			p[0] = -2;
			return;
		}
		p1 = *d1 * *x1;
		q2 = p2 * y1;
		q1 = p1 * *x1;
		if (fabs(q1) > fabs(q2)) {
			h21 = -y1 / *x1;
			h12 = p2 / p1;
			u = 1 - h12 * h21;
			if (u > 0) {
				flag = 0;
				*d1 /= u;
				*d2 /= u;
				*x1 *= u;
			} else {
				flag = -1;
				h11 = h12 = h21 = h22 = 0;
				*d1 = *d2 = *x1 = 0;
			}
		} else if (q2 < 0) {
			flag = -1;
			*d1 = *d2 = *x1 = 0;
		} else {
			double t;
			flag = 1;
			h11 = p1 / p2;
			h22 = *x1 / y1;
			u = 1 + h11 * h22;
			t = *d2 / u;
			*d2 = *d1 / u;
			*d1 = t;
			*x1 = y1 * u;
		}
		while (*d1 != 0 && (*d1 <= rgamsq || *d1 >= gamsq)) {
			if (flag == 0)
				h11 = h22 = 1;
			else
				h21 = -1, h12 = 1;
			flag = -1;
			if (*d1 <= rgamsq) {
				*d1 *= gamsq, *x1 /= gam, h11 /= gam, h12 /= gam;
			} else {
				*d1 /= gamsq, *x1 *= gam, h11 *= gam, h12 *= gam;
			}
		}
		while (*d2 != 0 && (fabs(*d2) <= rgamsq || fabs(*d2) >= gamsq)) {
			if (flag == 0)
				h11 = h22 = 1;
			else
				h21 = -1, h12 = 1;
			flag = -1;
			if (fabs(*d2) <= rgamsq)
				*d2 *= gamsq, h21 /= gam, h22 /= gam;
			else
				*d2 /= gamsq, h21 *= gam, h22 *= gam;
		}
	}
	if (flag < 0)
		p[1] = h11, p[2] = h21, p[3] = h12, p[4] = h22;
	else if (flag == 0)
		p[2] = h21, p[3] = h12;
	else
		p[1] = h11, p[4] = h22;
	p[0] = flag;
}

/* rotm: (x, y) = H (x, y) elementwise, H read from param on the host (in device pointer
 * mode once the stream's work is done); rotmg on the host, as rotg. */
#define ROTM(P, T, k)                                                                              \
	cublasStatus_t cublas##P##rotm(cublasHandle_t h, int n, T *x, int incx, T *y, int incy,      \
	                               const T *param)                                               \
	{                                                                                            \
		const char *routine = "cublas" #P "rotm";                                                \
		cublasStatus_t st = blas_begin(h, routine);                                              \
		struct zc_vector_args v;                                                                 \
		T in[5], h_rows[4];                                                                      \
		double p[5], m[4];                                                                       \
		if (st || (st = blas_host_scalar(h, routine, param, in, sizeof(in))))                    \
			return st;                                                                           \
		for (int i = 0; i < 5; i++)                                                              \
			p[i] = in[i];                                                                        \
		if (n <= 0 || !modified_givens(p, m))                                                    \
			return CUBLAS_STATUS_SUCCESS;                                                        \
		for (int i = 0; i < 4; i++)                                                              \
			h_rows[i] = (T)m[i];                                                                 \
		memset(&v, 0, sizeof(v));                                                                \
		memcpy(v.alpha.value, h_rows, 2 * sizeof(T));                                            \
		memcpy(v.beta.value, h_rows + 2, 2 * sizeof(T));                                         \
		v.n = n, v.x = x, v.incx = incx, v.y = y, v.incy = incy;                                 \
		return blas_launch(h, "zc_rotm_" k, blas_blocks(n, THREADS), 1, 1, THREADS, &v);        \
	}                                                                                            \
	cublasStatus_t cublas##P##rotmg(cublasHandle_t h, T *d1, T *d2, T *x1, const T *y1,          \
	                                T *param)                                                    \
	{                                                                                            \
		const char *routine = "cublas" #P "rotmg";                                               \
		cublasStatus_t st = blas_begin(h, routine);                                              \
		T in[4], out[5];                                                                         \
		double dd1, dd2, dx1, p[5];                                                              \
		if (st || (st = blas_host_scalar(h, routine, d1, &in[0], sizeof(T))) ||                 \
		    (st = blas_host_scalar(h, routine, d2, &in[1], sizeof(T))) ||                       \
		    (st = blas_host_scalar(h, routine, x1, &in[2], sizeof(T))) ||                       \
		    (st = blas_host_scalar(h, routine, y1, &in[3], sizeof(T))) ||                       \
		    (st = blas_host_scalar(h, routine, param, out, sizeof(out))))                        \
			return st;                                                                           \
		dd1 = in[0], dd2 = in[1], dx1 = in[2];                                                   \
		for (int i = 0; i < 5; i++)                                                              \
			p[i] = out[i];                                                                       \
		reference_rotmg(&dd1, &dd2, &dx1, in[3], p);                                             \
		in[0] = (T)dd1, in[1] = (T)dd2, in[2] = (T)dx1;                                          \
		for (int i = 0; i < 5; i++)                                                              \
			out[i] = (T)p[i];                                                                    \
		if ((st = scalar_out(h, routine, d1, &in[0], sizeof(T))) ||                             \
		    (st = scalar_out(h, routine, d2, &in[1], sizeof(T))) ||                             \
		    (st = scalar_out(h, routine, x1, &in[2], sizeof(T))))                               \
			return st;                                                                           \
		return scalar_out(h, routine, param, out, sizeof(out));                                  \
	}
ROTM(S, float, "s")
ROTM(D, double, "d")
