/* Level 1: vector operations and reductions, every type each has. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
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
 * word (little-endian) and the high word is zeroed after it on the handle's stream. NARROW
 * is the 32-bit routine, given TYPE for the Ex forms. */
typedef cublasStatus_t narrow_index(cublasHandle_t, int, const void *, cudaDataType, int, int *);

static cublasStatus_t wide_index(cublasHandle_t h, const char *routine, int64_t n,
                                 const void *x, cudaDataType type, int64_t incx, int64_t *result,
                                 narrow_index *narrow)
{
	if (n < INT_MIN || n > INT_MAX || incx < INT_MIN || incx > INT_MAX)
		return blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, routine, "n or incx beyond 2^31 - 1");
	if (!h || h->magic != BLAS_HANDLE_MAGIC || h->pointer_mode != CUBLAS_POINTER_MODE_DEVICE) {
		int index = 0;
		cublasStatus_t status = narrow(h, (int)n, x, type, (int)incx, &index);
		if (status == CUBLAS_STATUS_SUCCESS)
			*result = index;
		return status;
	}
	cublasStatus_t status = narrow(h, (int)n, x, type, (int)incx, (int *)result);
	if (status == CUBLAS_STATUS_SUCCESS &&
	    cuMemsetD32Async((CUdeviceptr)(uintptr_t)result + 4, 0, 1, h->stream) != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_EXECUTION_FAILED, routine, "zeroing the index's high word failed");
	return status;
}

#define WIDE_INDEX_OF(P, T, which)                                                                 \
	static cublasStatus_t narrow_I##P##which(cublasHandle_t h, int n, const void *x,              \
	                                         cudaDataType type, int incx, int *r)                 \
	{                                                                                             \
		return cublasI##P##which(h, n, (const T *)x, incx, r);                                     \
	}                                                                                             \
	cublasStatus_t cublasI##P##which##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, \
	                                         int64_t *result)                                      \
	{                                                                                             \
		return wide_index(h, "cublasI" #P #which "_v2_64", n, x, CUDA_R_32F, incx, result,        \
		                  narrow_I##P##which);                                                     \
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

/* A real scalar of the Ex forms' types (16F, 16BF, 32F, 64F) on the host: its value, and a
 * value rounded to it (through float for the 16-bit types, which cuBLAS
 * computes in float). */
static double real_in(const void *p, cudaDataType t)
{
	uint16_t half;
	uint32_t bits;
	float f;
	double d;

	switch (t) {
	case CUDA_R_16F:
		memcpy(&half, p, 2);
		_Float16 h;
		memcpy(&h, &half, 2);
		return h;
	case CUDA_R_16BF:
		memcpy(&half, p, 2);
		bits = (uint32_t)half << 16;
		memcpy(&f, &bits, 4);
		return f;
	case CUDA_R_32F:
		memcpy(&f, p, 4);
		return f;
	default:
		memcpy(&d, p, 8);
		return d;
	}
}

static void real_out(void *p, cudaDataType t, double value)
{
	float f = (float)value;
	uint32_t bits;
	uint16_t half;

	switch (t) {
	case CUDA_R_16F: {
		_Float16 h = (_Float16)f;
		memcpy(p, &h, 2);
		break;
	}
	case CUDA_R_16BF: /* to nearest, ties to even; a NaN stays quiet */
		memcpy(&bits, &f, 4);
		half = isnan(f) ? (uint16_t)(bits >> 16 | 0x40)
		                : (uint16_t)((bits + 0x7fff + (bits >> 16 & 1)) >> 16);
		memcpy(p, &half, 2);
		break;
	case CUDA_R_32F:
		memcpy(p, &f, 4);
		break;
	default:
		memcpy(p, &value, 8);
	}
}

/* rotg of a real type on the host. */
static cublasStatus_t rotg(cublasHandle_t h, const char *routine, void *a, void *b, void *c,
                           void *s, cudaDataType t)
{
	cublasStatus_t st = blas_begin(h, routine);
	size_t size = blas_data_size(t);
	unsigned char in[2][8], out[2][8];
	double da, db, dc, ds;

	if (st || (st = blas_host_scalar(h, routine, a, in[0], size)) ||
	    (st = blas_host_scalar(h, routine, b, in[1], size)))
		return st;
	if (!c || !s)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, "NULL argument");
	da = real_in(in[0], t), db = real_in(in[1], t);
	real_rotg(&da, &db, &dc, &ds);
	real_out(in[0], t, da), real_out(in[1], t, db), real_out(out[0], t, dc), real_out(out[1], t, ds);
	if ((st = scalar_out(h, routine, a, in[0], size)) ||
	    (st = scalar_out(h, routine, b, in[1], size)) ||
	    (st = scalar_out(h, routine, c, out[0], size)))
		return st;
	return scalar_out(h, routine, s, out[1], size);
}

cublasStatus_t cublasSrotg(cublasHandle_t h, float *a, float *b, float *c, float *s)
{
	return rotg(h, "cublasSrotg", a, b, c, s, CUDA_R_32F);
}

cublasStatus_t cublasDrotg(cublasHandle_t h, double *a, double *b, double *c, double *s)
{
	return rotg(h, "cublasDrotg", a, b, c, s, CUDA_R_64F);
}

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
 * mode once the stream's work is done) and handed to the kernel as rows of floats (doubles
 * for 64F); rotmg on the host, as rotg. */
static cublasStatus_t rotm(cublasHandle_t h, const char *routine, int64_t n, void *x,
                           int64_t incx, void *y, int64_t incy, const void *param,
                           cudaDataType t, const char *suffix)
{
	cublasStatus_t st = blas_begin(h, routine);
	size_t size = blas_data_size(t);
	unsigned char in[5][8];
	struct zc_vector_args v;
	double p[5], m[4];
	char kernel[24];

	if (st || (st = blas_host_scalar(h, routine, param, in, 5 * size)))
		return st;
	for (int i = 0; i < 5; i++)
		p[i] = real_in(in[0] + i * size, t);
	if (n <= 0 || !modified_givens(p, m))
		return CUBLAS_STATUS_SUCCESS;
	memset(&v, 0, sizeof(v));
	for (int i = 0; i < 4; i++) {
		unsigned char *row = i < 2 ? v.alpha.value : v.beta.value;
		if (t == CUDA_R_64F)
			memcpy(row + i % 2 * 8, &m[i], 8);
		else
			memcpy(row + i % 2 * 4, &(float){(float)m[i]}, 4);
	}
	v.n = n, v.x = x, v.incx = incx, v.y = y, v.incy = incy;
	snprintf(kernel, sizeof(kernel), "zc_rotm_%s", suffix);
	return blas_launch(h, kernel, blas_blocks(n, THREADS), 1, 1, THREADS, &v);
}

static cublasStatus_t rotmg(cublasHandle_t h, const char *routine, void *d1, void *d2, void *x1,
                            const void *y1, void *param, cudaDataType t)
{
	cublasStatus_t st = blas_begin(h, routine);
	size_t size = blas_data_size(t);
	unsigned char in[4][8], out[5][8];
	double dd1, dd2, dx1, p[5];

	if (st || (st = blas_host_scalar(h, routine, d1, in[0], size)) ||
	    (st = blas_host_scalar(h, routine, d2, in[1], size)) ||
	    (st = blas_host_scalar(h, routine, x1, in[2], size)) ||
	    (st = blas_host_scalar(h, routine, y1, in[3], size)) ||
	    (st = blas_host_scalar(h, routine, param, out, 5 * size)))
		return st;
	dd1 = real_in(in[0], t), dd2 = real_in(in[1], t), dx1 = real_in(in[2], t);
	for (int i = 0; i < 5; i++)
		p[i] = real_in(out[0] + i * size, t);
	reference_rotmg(&dd1, &dd2, &dx1, real_in(in[3], t), p);
	real_out(in[0], t, dd1), real_out(in[1], t, dd2), real_out(in[2], t, dx1);
	for (int i = 0; i < 5; i++)
		real_out(out[0] + i * size, t, p[i]);
	if ((st = scalar_out(h, routine, d1, in[0], size)) ||
	    (st = scalar_out(h, routine, d2, in[1], size)) ||
	    (st = scalar_out(h, routine, x1, in[2], size)))
		return st;
	return scalar_out(h, routine, param, out, 5 * size);
}

#define ROTM(P, T, type, k)                                                                      \
	cublasStatus_t cublas##P##rotm(cublasHandle_t h, int n, T *x, int incx, T *y, int incy,    \
	                               const T *param)                                             \
	{                                                                                          \
		return rotm(h, "cublas" #P "rotm", n, x, incx, y, incy, param, type, k);               \
	}                                                                                          \
	cublasStatus_t cublas##P##rotmg(cublasHandle_t h, T *d1, T *d2, T *x1, const T *y1,        \
	                                T *param)                                                  \
	{                                                                                          \
		return rotmg(h, "cublas" #P "rotmg", d1, d2, x1, y1, param, type);                     \
	}
ROTM(S, float, CUDA_R_32F, "s")
ROTM(D, double, CUDA_R_64F, "d")

/* The Ex forms take each vector's and scalar's type and an execution type, in the
 * combinations NVIDIA's cuBLAS accepts (measured on an H100, cuBLAS 13: any other is
 * CUBLAS_STATUS_NOT_SUPPORTED there and here). 16-bit vectors run kernels of their own,
 * executed in float; the others run the typed routines' kernels. */
static const char *ex_suffix(cudaDataType type, cudaDataType exec)
{
	static const struct {
		cudaDataType type, exec;
		const char *suffix;
	} forms[] = {
		{CUDA_R_16F, CUDA_R_32F, "h"}, {CUDA_R_16BF, CUDA_R_32F, "bf"},
		{CUDA_R_32F, CUDA_R_32F, "s"}, {CUDA_R_64F, CUDA_R_64F, "d"},
		{CUDA_C_32F, CUDA_C_32F, "c"}, {CUDA_C_64F, CUDA_C_64F, "z"},
	};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (forms[i].type == type && forms[i].exec == exec)
			return forms[i].suffix;
	return NULL;
}

static bool ex_complex(cudaDataType t)
{
	return t == CUDA_C_32F || t == CUDA_C_64F;
}

/* The real type of a complex one; a real type itself. */
static cudaDataType ex_real(cudaDataType t)
{
	return t == CUDA_C_32F ? CUDA_R_32F : t == CUDA_C_64F ? CUDA_R_64F : t;
}

/* The execution type a vector type runs in: float for the 16-bit ones. */
static cudaDataType ex_exec(cudaDataType t)
{
	return t == CUDA_R_16F || t == CUDA_R_16BF ? CUDA_R_32F : t;
}

#define EX_REFUSED(routine, ...)                                                         \
	blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, routine, "types " __VA_ARGS__)
#define EX_KERNEL(buffer, op, suffix) (snprintf(buffer, sizeof(buffer), "zc_" op "_%s", suffix), buffer)

cublasStatus_t cublasAxpyEx(cublasHandle_t h, int n, const void *alpha, cudaDataType alpha_type,
                            const void *x, cudaDataType x_type, int incx, void *y,
                            cudaDataType y_type, int incy, cudaDataType exec)
{
	const char *suffix = ex_suffix(x_type, exec);
	char kernel[24];

	if (!suffix || y_type != x_type || alpha_type != exec)
		return EX_REFUSED("cublasAxpyEx", "alpha %d, x %d, y %d, execution %d", alpha_type,
		                  x_type, y_type, exec);
	return elementwise(h, "cublasAxpyEx", EX_KERNEL(kernel, "axpy", suffix), n, alpha,
	                   blas_data_size(alpha_type), NULL, 0, (void *)x, incx, y, incy);
}

cublasStatus_t cublasScalEx(cublasHandle_t h, int n, const void *alpha, cudaDataType alpha_type,
                            void *x, cudaDataType x_type, int incx, cudaDataType exec)
{
	const char *suffix = ex_suffix(x_type, exec);
	char kernel[24];

	if (!suffix || alpha_type != exec)
		return EX_REFUSED("cublasScalEx", "alpha %d, x %d, execution %d", alpha_type, x_type,
		                  exec);
	return elementwise(h, "cublasScalEx", EX_KERNEL(kernel, "scal", suffix), n, alpha,
	                   blas_data_size(alpha_type), NULL, 0, x, incx, NULL, 0);
}

static cublasStatus_t dot_ex(cublasHandle_t h, const char *routine, int n, const void *x,
                             cudaDataType x_type, int incx, const void *y, cudaDataType y_type,
                             int incy, void *result, cudaDataType result_type,
                             cudaDataType exec, bool conjugate)
{
	const char *suffix = ex_suffix(x_type, exec);
	char kernel[24];

	if (!suffix || y_type != x_type || result_type != x_type)
		return EX_REFUSED(routine, "x %d, y %d, result %d, execution %d", x_type, y_type,
		                  result_type, exec);
	return reduce(h, routine, EX_KERNEL(kernel, "dot", suffix), n, x, incx, y, incy, result,
	              blas_data_size(result_type), conjugate && ex_complex(x_type), false);
}

cublasStatus_t cublasDotEx(cublasHandle_t h, int n, const void *x, cudaDataType x_type, int incx,
                           const void *y, cudaDataType y_type, int incy, void *result,
                           cudaDataType result_type, cudaDataType exec)
{
	return dot_ex(h, "cublasDotEx", n, x, x_type, incx, y, y_type, incy, result, result_type,
	              exec, false);
}

cublasStatus_t cublasDotcEx(cublasHandle_t h, int n, const void *x, cudaDataType x_type, int incx,
                            const void *y, cudaDataType y_type, int incy, void *result,
                            cudaDataType result_type, cudaDataType exec)
{
	return dot_ex(h, "cublasDotcEx", n, x, x_type, incx, y, y_type, incy, result, result_type,
	              exec, true);
}

/* nrm2's result is of the vector's real type, its execution type the real one too; asum's
 * result of a 16-bit vector is a float, and a complex vector's execution type is complex. */
cublasStatus_t cublasNrm2Ex(cublasHandle_t h, int n, const void *x, cudaDataType x_type,
                            int incx, void *result, cudaDataType result_type, cudaDataType exec)
{
	const char *suffix = ex_suffix(x_type, ex_exec(x_type));
	char kernel[24];

	if (!suffix || result_type != ex_real(x_type) || exec != ex_exec(ex_real(x_type)))
		return EX_REFUSED("cublasNrm2Ex", "x %d, result %d, execution %d", x_type, result_type,
		                  exec);
	return reduce(h, "cublasNrm2Ex", EX_KERNEL(kernel, "nrm2", suffix), n, x, incx, NULL, 0,
	              result, blas_data_size(result_type), false, false);
}

cublasStatus_t cublasAsumEx(cublasHandle_t h, int n, const void *x, cudaDataType x_type,
                            int incx, void *result, cudaDataType result_type, cudaDataType exec)
{
	const char *suffix = ex_suffix(x_type, exec);
	char kernel[24];

	if (!suffix || result_type != ex_exec(ex_real(x_type)))
		return EX_REFUSED("cublasAsumEx", "x %d, result %d, execution %d", x_type, result_type,
		                  exec);
	return reduce(h, "cublasAsumEx", EX_KERNEL(kernel, "asum", suffix), n, x, incx, NULL, 0,
	              result, blas_data_size(result_type), false, false);
}

static cublasStatus_t index_ex(cublasHandle_t h, const char *routine, int n, const void *x,
                               cudaDataType x_type, int incx, int *result, bool minimum)
{
	const char *suffix = ex_suffix(x_type, ex_exec(x_type));
	char kernel[24];

	if (!suffix)
		return EX_REFUSED(routine, "x %d", x_type);
	return reduce(h, routine, EX_KERNEL(kernel, "iamax", suffix), n, x, incx, NULL, 0, result,
	              sizeof(int), false, minimum);
}


/* copy and swap move elements whole, by their size. */
static cublasStatus_t move_ex(cublasHandle_t h, const char *routine, const char *op, int n,
                              const void *x, cudaDataType x_type, int incx, void *y,
                              cudaDataType y_type, int incy)
{
	static const char *const by_size[17] = {[2] = "h", [4] = "s", [8] = "d", [16] = "z"};
	char kernel[24];

	if (!ex_suffix(x_type, ex_exec(x_type)) || y_type != x_type)
		return EX_REFUSED(routine, "x %d, y %d", x_type, y_type);
	snprintf(kernel, sizeof(kernel), "zc_%s_%s", op, by_size[blas_data_size(x_type)]);
	return elementwise(h, routine, kernel, n, NULL, 0, NULL, 0, (void *)x, incx, y, incy);
}

cublasStatus_t cublasCopyEx(cublasHandle_t h, int n, const void *x, cudaDataType x_type, int incx,
                            void *y, cudaDataType y_type, int incy)
{
	return move_ex(h, "cublasCopyEx", "copy", n, x, x_type, incx, y, y_type, incy);
}

cublasStatus_t cublasSwapEx(cublasHandle_t h, int n, void *x, cudaDataType x_type, int incx,
                            void *y, cudaDataType y_type, int incy)
{
	return move_ex(h, "cublasSwapEx", "swap", n, x, x_type, incx, y, y_type, incy);
}

/* A complex rot's c is read as a real (a complex c's imaginary part is not read, as on
 * NVIDIA's), s as the cs type: "c" and "z" take s complex, "cs" and "zd" real. */
cublasStatus_t cublasRotEx(cublasHandle_t h, int n, void *x, cudaDataType x_type, int incx,
                           void *y, cudaDataType y_type, int incy, const void *c, const void *s,
                           cudaDataType cs_type, cudaDataType exec)
{
	const char *suffix = ex_suffix(x_type, exec);
	char kernel[24];

	if (!suffix || y_type != x_type || (cs_type != x_type && cs_type != ex_real(x_type)))
		return EX_REFUSED("cublasRotEx", "x %d, y %d, c and s %d, execution %d", x_type,
		                  y_type, cs_type, exec);
	if (cs_type != x_type)
		suffix = x_type == CUDA_C_32F ? "cs" : "zd";
	return elementwise(h, "cublasRotEx", EX_KERNEL(kernel, "rot", suffix), n, c,
	                   blas_data_size(ex_real(cs_type)), s, blas_data_size(cs_type), x, incx, y, incy);
}

cublasStatus_t cublasRotmEx(cublasHandle_t h, int n, void *x, cudaDataType x_type, int incx,
                            void *y, cudaDataType y_type, int incy, const void *param,
                            cudaDataType param_type, cudaDataType exec)
{
	const char *suffix = ex_suffix(x_type, exec);

	if (!suffix || ex_complex(x_type) || y_type != x_type || param_type != x_type)
		return EX_REFUSED("cublasRotmEx", "x %d, y %d, param %d, execution %d", x_type, y_type,
		                  param_type, exec);
	return rotm(h, "cublasRotmEx", n, x, incx, y, incy, param, param_type, suffix);
}

cublasStatus_t cublasRotgEx(cublasHandle_t h, void *a, void *b, cudaDataType ab_type, void *c,
                            void *s, cudaDataType cs_type, cudaDataType exec)
{
	if (!ex_suffix(ab_type, exec) || ex_complex(ab_type) || cs_type != ab_type)
		return EX_REFUSED("cublasRotgEx", "a and b %d, c and s %d, execution %d", ab_type,
		                  cs_type, exec);
	return rotg(h, "cublasRotgEx", a, b, c, s, ab_type);
}

cublasStatus_t cublasRotmgEx(cublasHandle_t h, void *d1, cudaDataType d1_type, void *d2,
                             cudaDataType d2_type, void *x1, cudaDataType x1_type, const void *y1,
                             cudaDataType y1_type, void *param, cudaDataType param_type,
                             cudaDataType exec)
{
	if (!ex_suffix(d1_type, exec) || ex_complex(d1_type) || d2_type != d1_type ||
	    x1_type != d1_type || y1_type != d1_type || param_type != d1_type)
		return EX_REFUSED("cublasRotmgEx", "d1 %d, d2 %d, x1 %d, y1 %d, param %d, execution %d",
		                  d1_type, d2_type, x1_type, y1_type, param_type, exec);
	return rotmg(h, "cublasRotmgEx", d1, d2, x1, y1, param, d1_type);
}

/* IamaxEx and IaminEx, and their _64 forms through wide_index. */
#define INDEX_EX(which, minimum)                                                                  \
	cublasStatus_t cublasI##which##Ex(cublasHandle_t h, int n, const void *x, cudaDataType x_type, \
	                                  int incx, int *result)                                     \
	{                                                                                            \
		return index_ex(h, "cublasI" #which "Ex", n, x, x_type, incx, result, minimum);          \
	}                                                                                            \
	cublasStatus_t cublasI##which##Ex_64(cublasHandle_t h, int64_t n, const void *x,             \
	                                     cudaDataType x_type, int64_t incx, int64_t *result)     \
	{                                                                                            \
		return wide_index(h, "cublasI" #which "Ex_64", n, x, x_type, incx, result,               \
		                  cublasI##which##Ex);                                                   \
	}
INDEX_EX(amax, false)
INDEX_EX(amin, true)
