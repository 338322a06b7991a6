/* The contract between the cuBLAS replacement's host code (C) and its kernels (CUDA): each
 * kernel takes one of these structures by value, so both sides must see the same layout. */
#ifndef ZC_BLAS_ARGS_H
#define ZC_BLAS_ARGS_H

#include <stdint.h>

enum { ZC_OP_N, ZC_OP_T, ZC_OP_C };
enum { ZC_SHAPE_GENERAL, ZC_SHAPE_SYMMETRIC, ZC_SHAPE_HERMITIAN, ZC_SHAPE_TRIANGULAR };
enum { ZC_FILL_ALL = -1, ZC_FILL_LOWER = 0, ZC_FILL_UPPER = 1 };
/* How a matrix operand is stored: all of it (column-major), as a band (BLAS's: element
 * (row, col) at data[(super + row - col) + col * ld], zero outside the sub- and
 * superdiagonals), or packed (BLAS's: the stored triangle's columns one after another). */
enum { ZC_STORAGE_FULL, ZC_STORAGE_BAND, ZC_STORAGE_PACKED };

/* A scalar argument as cuBLAS takes it: its bytes, or (device pointer mode) where it is. */
struct zc_scalar {
	unsigned char value[16];
	const void *device;
};

/* A matrix operand, element (row, col) at data[row * inc + col * ld] (inc is 1 for a matrix,
 * a vector's increment otherwise) in full storage, as op(M) of the given shape: symmetric
 * and Hermitian matrices are read from their stored triangle, triangular ones are zero
 * outside it. A band has sub and super diagonals; a packed matrix is order x order. A batch
 * takes `array[b]` + array_offset elements when array is set (a vector with a negative
 * increment starts at its end), else data + b * stride. */
struct zc_matrix {
	const void *data;
	const void *const *array;
	int64_t inc, ld, stride;
	int32_t op, shape, lower, unit;
	int32_t storage;
	int64_t sub, super, order;
	int64_t array_offset;
};

/* cuBLASLt's epilogues, by its bits: bias (4), ReLU (2), GELU (32), the GELU input kept in
 * aux (GELU | 128), the GELU gradient with aux as its input (64 | 128); ReLU's bit mask
 * kept in aux (ReLU | 128), the ReLU gradient with the mask as its input (8 | 128). */
enum {
	ZC_EPILOGUE_RELU = 2, ZC_EPILOGUE_BIAS = 4, ZC_EPILOGUE_DRELU = 8, ZC_EPILOGUE_GELU = 32,
	ZC_EPILOGUE_DGELU = 64, ZC_EPILOGUE_AUX = 128,
};
/* The element types of a bias or aux vector, and of row sums' output. */
enum { ZC_ELEMENT_F32, ZC_ELEMENT_F64, ZC_ELEMENT_F16, ZC_ELEMENT_BF16 };

/* D = alpha op(A) op(B) + beta C over the fill triangle (D is C unless cuBLASLt gives
 * both); hermitian_result zeroes the diagonal's imaginary parts; then cuBLASLt's epilogue
 * on each element of D (row, col): + bias[row], keep the pre-activation in aux[row +
 * col * aux_ld], ReLU, GELU or times GELU's derivative at aux. ReLU's mask is bits, bit
 * row + col * aux_ld (+ batch * aux_stride) of aux counted from each byte's lowest: set
 * where the pre-activation is not negative. */
struct zc_gemm_args {
	int64_t m, n, k, batch;
	struct zc_scalar alpha, beta;
	struct zc_matrix a, b, c, d;
	int32_t fill, hermitian_result;
	uint32_t epilogue;
	int32_t bias_type, aux_type;
	const void *bias;
	void *aux;
	int64_t bias_stride, aux_ld, aux_stride;
};

/* out[i] = sum over l of M(i, l), for i < rows, l < len, each batch b of M at out +
 * b * out_stride (cuBLASLt's bias gradients). */
struct zc_row_sums_args {
	int64_t rows, len, batch;
	struct zc_matrix m;
	void *out;
	int64_t out_stride;
	int32_t out_type;
};

/* B = alpha inv(op(A)) B (left) or alpha B inv(op(A)) (right), in place, A triangular. */
struct zc_trsm_args {
	int64_t m, n, batch;
	struct zc_scalar alpha;
	struct zc_matrix a, b;
	int32_t right;
};

/* Level 1: x and y with their increments (negative ones start at the end: the host points
 * x at element 0), alpha and beta (rot: c and s), a result where reductions write. */
struct zc_vector_args {
	int64_t n;
	struct zc_scalar alpha, beta;
	void *x;
	int64_t incx;
	void *y;
	int64_t incy;
	void *result;
	int32_t conjugate, minimum;
};

/* C = alpha op(A) + beta op(B) (geam), or C = A diag(x) / diag(x) A (dgmm, x in b.data with
 * b.inc its increment, right choosing the side). */
struct zc_elementwise_args {
	int64_t m, n;
	struct zc_scalar alpha, beta;
	struct zc_matrix a, b, c;
	int32_t right;
};

/* The batched LU routines, one block a matrix: getrf factors A in place (P A = L U, pivots
 * 1-based, NULL for none; info the first zero pivot's 1-based column, or 0); getrs solves
 * op(A) X = B with A's factors in place of B; with identity set, B is first made the
 * identity (getri: B becomes inv(A), info as getrf's); copy copies A into B. */
struct zc_lu_args {
	int64_t n, nrhs, batch;
	struct zc_matrix a, b;
	int *pivots;
	int *info;
	int32_t op, identity;
};

/* The batched QR routines, one block a matrix: A (m x n) = Q R by Householder reflections
 * (LAPACK's geqr2: R on and above A's diagonal, the reflectors' vectors below it, their
 * scalars in tau, when set); with c set (gels, m >= n), then C = Q^H C and R X = C's first n
 * rows solved in place for its nrhs columns, info the first zero on R's diagonal (1-based,
 * C then left as Q^H C) or 0. */
struct zc_qr_args {
	int64_t m, n, nrhs, batch;
	struct zc_matrix a, tau, c;
	int *info;
};

#endif
