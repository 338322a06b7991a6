// The kernels of the project's own cuBLAS: portable CUDA, compiled to PTX by nvcc and
// converted by the project's pipeline like any program's kernels, so that the same code runs
// on the CPU driver, the emulator and an AMD GPU. Each kernel takes one argument structure
// (blas_args.h) and is looked up by its unmangled name.
#include <cuComplex.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

#include "blas_args.h"

typedef cuComplex c32;
typedef cuDoubleComplex c64;

// Arithmetic over the element types, complex included.
__device__ inline float add(float a, float b) { return a + b; }
__device__ inline double add(double a, double b) { return a + b; }
__device__ inline int add(int a, int b) { return a + b; }
__device__ inline __half add(__half a, __half b) { return __hadd(a, b); }
__device__ inline c32 add(c32 a, c32 b) { return cuCaddf(a, b); }
__device__ inline c64 add(c64 a, c64 b) { return cuCadd(a, b); }
__device__ inline float mul(float a, float b) { return a * b; }
__device__ inline double mul(double a, double b) { return a * b; }
__device__ inline int mul(int a, int b) { return a * b; }
__device__ inline __half mul(__half a, __half b) { return __hmul(a, b); }
__device__ inline c32 mul(c32 a, c32 b) { return cuCmulf(a, b); }
__device__ inline c64 mul(c64 a, c64 b) { return cuCmul(a, b); }
__device__ inline c32 mul(float a, c32 b) { return make_cuComplex(a * b.x, a * b.y); }
__device__ inline c64 mul(double a, c64 b) { return make_cuDoubleComplex(a * b.x, a * b.y); }
__device__ inline c32 sub(c32 a, c32 b) { return cuCsubf(a, b); }
__device__ inline c64 sub(c64 a, c64 b) { return cuCsub(a, b); }
__device__ inline float sub(float a, float b) { return a - b; }
__device__ inline double sub(double a, double b) { return a - b; }
__device__ inline c32 div(c32 a, c32 b) { return cuCdivf(a, b); }
__device__ inline c64 div(c64 a, c64 b) { return cuCdiv(a, b); }
__device__ inline float div(float a, float b) { return a / b; }
__device__ inline double div(double a, double b) { return a / b; }
template <class T> __device__ inline T conjugate(T a) { return a; }
template <> __device__ inline c32 conjugate(c32 a) { return cuConjf(a); }
template <> __device__ inline c64 conjugate(c64 a) { return cuConj(a); }
template <class T> __device__ inline T real_part(T a) { return a; }
template <> __device__ inline c32 real_part(c32 a) { return make_cuComplex(a.x, 0); }
template <> __device__ inline c64 real_part(c64 a) { return make_cuDoubleComplex(a.x, 0); }
template <class T> __device__ inline T zero() { return T(0); }
template <> __device__ inline c32 zero() { return make_cuComplex(0, 0); }
template <> __device__ inline c64 zero() { return make_cuDoubleComplex(0, 0); }
template <> __device__ inline __half zero() { return __float2half(0.0f); }
template <class T> __device__ inline T one() { return T(1); }
template <> __device__ inline c32 one() { return make_cuComplex(1, 0); }
template <> __device__ inline c64 one() { return make_cuDoubleComplex(1, 0); }
template <> __device__ inline __half one() { return __float2half(1.0f); }
template <class T> __device__ inline bool is_zero(T a) { return a == T(0); }
template <> __device__ inline bool is_zero(c32 a) { return a.x == 0 && a.y == 0; }
template <> __device__ inline bool is_zero(c64 a) { return a.x == 0 && a.y == 0; }
template <> __device__ inline bool is_zero(__half a) { return __half2float(a) == 0.0f; }

// Conversions between storage, accumulation and scale types.
template <class To, class From> struct Convert {
	__device__ static To to(From v) { return To(v); }
};
template <class T> struct Convert<T, T> {
	__device__ static T to(T v) { return v; }
};
template <> struct Convert<float, __half> {
	__device__ static float to(__half v) { return __half2float(v); }
};
template <> struct Convert<__half, float> {
	__device__ static __half to(float v) { return __float2half_rn(v); }
};
template <> struct Convert<double, __half> {
	__device__ static double to(__half v) { return __half2float(v); }
};
template <> struct Convert<__half, double> {
	__device__ static __half to(double v) { return __float2half_rn((float)v); }
};
template <> struct Convert<double, __nv_bfloat16> {
	__device__ static double to(__nv_bfloat16 v) { return __bfloat162float(v); }
};
template <> struct Convert<float, __nv_bfloat16> {
	__device__ static float to(__nv_bfloat16 v) { return __bfloat162float(v); }
};
template <> struct Convert<__nv_bfloat16, double> {
	__device__ static __nv_bfloat16 to(double v) { return __float2bfloat16_rn((float)v); }
};
template <> struct Convert<__nv_bfloat16, float> {
	__device__ static __nv_bfloat16 to(float v) { return __float2bfloat16_rn(v); }
};
template <class To, class From> __device__ inline To convert(From v) { return Convert<To, From>::to(v); }

template <class T> __device__ inline T scalar(const zc_scalar &s)
{
	if (s.device)
		return *(const T *)s.device;
	T v;
	memcpy(&v, s.value, sizeof(T));
	return v;
}

template <class T> __device__ inline const T *batch_base(const zc_matrix &m, int64_t b)
{
	return m.array ? (const T *)m.array[b] + m.array_offset : (const T *)m.data + b * m.stride;
}

// Where the stored element (r, c) of M is, by M's storage.
__device__ inline int64_t position(const zc_matrix &m, int64_t r, int64_t c)
{
	switch (m.storage) {
	case ZC_STORAGE_BAND: return m.super + r - c + c * m.ld;
	case ZC_STORAGE_PACKED: return m.lower ? r + (2 * m.order - c - 1) * c / 2 : r + c * (c + 1) / 2;
	default: return r * m.inc + c * m.ld;
	}
}

// Element (i, l) of op(M), for M of the matrix's shape and storage.
template <class T> __device__ T element(const zc_matrix &m, const T *base, int64_t i, int64_t l)
{
	int64_t r = m.op == ZC_OP_N ? i : l, c = m.op == ZC_OP_N ? l : i;
	bool conj = m.op == ZC_OP_C;

	if (m.shape != ZC_SHAPE_GENERAL && (m.lower ? r < c : r > c)) {
		if (m.shape == ZC_SHAPE_TRIANGULAR)
			return zero<T>();
		int64_t t = r;
		r = c;
		c = t;
		conj ^= m.shape == ZC_SHAPE_HERMITIAN;
	}
	if (m.shape == ZC_SHAPE_TRIANGULAR && m.unit && r == c)
		return one<T>();
	if (m.storage == ZC_STORAGE_BAND && (r - c > m.sub || c - r > m.super))
		return zero<T>();
	T v = base[position(m, r, c)];
	if (m.shape == ZC_SHAPE_HERMITIAN && r == c)
		v = real_part(v);
	return conj ? conjugate(v) : v;
}

// A bias or aux element of a type cuBLASLt names, as a double, and back.
__device__ inline double load_element(const void *p, int32_t type, int64_t i)
{
	switch (type) {
	case ZC_ELEMENT_F64: return ((const double *)p)[i];
	case ZC_ELEMENT_F16: return __half2float(((const __half *)p)[i]);
	case ZC_ELEMENT_BF16: return __bfloat162float(((const __nv_bfloat16 *)p)[i]);
	default: return ((const float *)p)[i];
	}
}

__device__ inline void store_element(void *p, int32_t type, int64_t i, double v)
{
	switch (type) {
	case ZC_ELEMENT_F64: ((double *)p)[i] = v; break;
	case ZC_ELEMENT_F16: ((__half *)p)[i] = __float2half_rn((float)v); break;
	case ZC_ELEMENT_BF16: ((__nv_bfloat16 *)p)[i] = __float2bfloat16_rn((float)v); break;
	default: ((float *)p)[i] = (float)v; break;
	}
}

// GELU as cuBLASLt's epilogue computes it, by the tanh approximation, and its derivative.
__device__ inline double gelu(double x)
{
	return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

__device__ inline double gelu_derivative(double x)
{
	double inner = 0.7978845608028654 * (x + 0.044715 * x * x * x);
	double t = tanh(inner);
	return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.7978845608028654 * (1 + 3 * 0.044715 * x * x);
}

// ReLU's mask, a bit an element; neighbours are written by other threads, and the bits
// past the matrix's rows are the caller's.
__device__ inline bool relu_mask(const zc_gemm_args &g, int64_t bit)
{
	return (((const uint32_t *)g.aux)[bit / 32] >> (bit % 32)) & 1;
}

__device__ inline void set_relu_mask(const zc_gemm_args &g, int64_t bit, bool set)
{
	uint32_t *word = (uint32_t *)g.aux + bit / 32, mask = 1u << (bit % 32);
	if (set)
		atomicOr(word, mask);
	else
		atomicAnd(word, ~mask);
}

// The epilogue of one element, for the real types cuBLASLt allows it on.
template <class Mid> struct Epilogue {
	__device__ static Mid apply(const zc_gemm_args &, Mid r, int64_t, int64_t, int64_t) { return r; }
};
template <class Mid> struct RealEpilogue {
	__device__ static Mid apply(const zc_gemm_args &g, Mid r, int64_t b, int64_t row, int64_t col)
	{
		double x = convert<double>(r);
		int64_t at = b * g.aux_stride + row + col * g.aux_ld;
		if (g.epilogue & ZC_EPILOGUE_BIAS)
			x += load_element(g.bias, g.bias_type, b * g.bias_stride + row);
		if (g.epilogue & ZC_EPILOGUE_DGELU)
			x *= gelu_derivative(load_element(g.aux, g.aux_type, at));
		else if (g.epilogue & ZC_EPILOGUE_DRELU)
			x = relu_mask(g, at) ? x : 0;
		else if ((g.epilogue & (ZC_EPILOGUE_AUX | ZC_EPILOGUE_RELU)) == (ZC_EPILOGUE_AUX | ZC_EPILOGUE_RELU))
			set_relu_mask(g, at, x >= 0);
		else if (g.epilogue & ZC_EPILOGUE_AUX)
			store_element(g.aux, g.aux_type, at, x);
		if (g.epilogue & ZC_EPILOGUE_RELU)
			x = x > 0 ? x : 0;
		if (g.epilogue & ZC_EPILOGUE_GELU)
			x = gelu(x);
		return convert<Mid>(x);
	}
};
template <> struct Epilogue<float> : RealEpilogue<float> {};
template <> struct Epilogue<double> : RealEpilogue<double> {};
template <> struct Epilogue<__half> : RealEpilogue<__half> {};
template <class Mid>
__device__ inline Mid epilogue(const zc_gemm_args &g, Mid r, int64_t b, int64_t row, int64_t col)
{
	return Epilogue<Mid>::apply(g, r, b, row, col);
}

// D = alpha op(A) op(B) + beta C, BM x BN elements a block of GEMM_THREADS threads, BK of
// the inner dimension at a time through shared memory. The inputs are converted to Acc as
// they are staged (any op, shape and order on the way), the result computed in Mid (the
// scale type, or the accumulation type where a real scale multiplies a complex product).
#define BM 64
#define BN 64
#define BK 16
#define GEMM_THREADS 256

template <class TC, class Acc, class Scale, class Mid>
__device__ inline void finish(const zc_gemm_args &g, int64_t b, int64_t row, int64_t col, Acc sum,
                              Scale alpha, Scale beta)
{
	if (row >= g.m || col >= g.n ||
	    (g.fill != ZC_FILL_ALL && (g.fill == ZC_FILL_LOWER ? row < col : row > col)))
		return;
	const TC *in = batch_base<TC>(g.c, b) + position(g.c, row, col);
	TC *out = (TC *)batch_base<TC>(g.d, b) + position(g.d, row, col);
	Mid r = mul(alpha, convert<Mid>(sum));
	if (!is_zero(beta))
		r = add(r, mul(beta, convert<Mid>(*in)));
	if (g.hermitian_result && row == col)
		r = real_part(r);
	if (g.epilogue)
		r = epilogue(g, r, b, row, col);
	*out = convert<TC>(r);
}

// Stages the BM x BK slice of op(A) and the BK x BN slice of op(B) that start at k0,
// zero outside the matrices: a_tile[r][l] = op(A)(row0 + r, k0 + l), b_tile[c][l] =
// op(B)(k0 + l, col0 + c).
template <class TA, class T, int LD>
__device__ inline void stage(const zc_gemm_args &g, const TA *a, const TA *bm, int64_t row0,
                             int64_t col0, int64_t k0, T (*a_tile)[LD], T (*b_tile)[LD])
{
	for (int e = threadIdx.x; e < BM * BK; e += GEMM_THREADS) {
		int r = e % BM, l = e / BM;
		int64_t row = row0 + r, k = k0 + l;
		a_tile[r][l] = row < g.m && k < g.k ? convert<T>(element(g.a, a, row, k)) : zero<T>();
	}
	for (int e = threadIdx.x; e < BN * BK; e += GEMM_THREADS) {
		int l = e % BK, c = e / BK;
		int64_t col = col0 + c, k = k0 + l;
		b_tile[c][l] = k < g.k && col < g.n ? convert<T>(element(g.b, bm, k, col)) : zero<T>();
	}
}

// Each thread sums a 4 x 4 block of D in registers (rows tx + 16 i, columns ty + 16 j).
template <class TA, class TC, class Acc, class Scale, class Mid>
__device__ void gemm(const zc_gemm_args &g)
{
	__shared__ Acc a_tile[BM][BK + 1], b_tile[BN][BK + 1];
	int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
	int64_t row0 = (int64_t)blockIdx.x * BM, col0 = (int64_t)blockIdx.y * BN;
	Scale alpha = scalar<Scale>(g.alpha), beta = scalar<Scale>(g.beta);

	for (int64_t b = blockIdx.z; b < g.batch; b += gridDim.z) {
		const TA *a = batch_base<TA>(g.a, b), *bm = batch_base<TA>(g.b, b);
		Acc sum[4][4];
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++)
				sum[i][j] = zero<Acc>();
		for (int64_t k0 = 0; k0 < g.k; k0 += BK) {
			stage<TA, Acc, BK + 1>(g, a, bm, row0, col0, k0, a_tile, b_tile);
			__syncthreads();
			for (int l = 0; l < BK; l++) {
				Acc av[4], bv[4];
				for (int i = 0; i < 4; i++) {
					av[i] = a_tile[tx + 16 * i][l];
					bv[i] = b_tile[ty + 16 * i][l];
				}
				for (int i = 0; i < 4; i++)
					for (int j = 0; j < 4; j++)
						sum[i][j] = add(sum[i][j], mul(av[i], bv[j]));
			}
			__syncthreads();
		}
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++)
				finish<TC, Acc, Scale, Mid>(g, b, row0 + tx + 16 * i, col0 + ty + 16 * j,
				                            sum[i][j], alpha, beta);
	}
}

// The same tile by the matrix instructions (wmma, which the converter lowers to WMMA on
// gfx11 and gfx12): 16-bit and 8-bit inputs, staged as they are; each of the 8 warps
// computes a 16 x 32 part of the tile, then the sums go through shared memory to finish.
#define TILE_LD (BK + 16) /* 32 elements: every fragment pointer 32-byte aligned */
template <class TA, class TC, class Acc, class Scale, class Mid>
__device__ void gemm_matrix(const zc_gemm_args &g)
{
	using namespace nvcuda;
	__shared__ __align__(32) TA a_tile[BM][TILE_LD], b_tile[BN][TILE_LD];
	__shared__ __align__(32) Acc sums[BM][BN + 8];
	int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
	int64_t row0 = (int64_t)blockIdx.x * BM, col0 = (int64_t)blockIdx.y * BN;
	Scale alpha = scalar<Scale>(g.alpha), beta = scalar<Scale>(g.beta);

	for (int64_t b = blockIdx.z; b < g.batch; b += gridDim.z) {
		const TA *a = batch_base<TA>(g.a, b), *bm = batch_base<TA>(g.b, b);
		wmma::fragment<wmma::accumulator, 16, 16, 16, Acc> acc[2];
		wmma::fill_fragment(acc[0], zero<Acc>());
		wmma::fill_fragment(acc[1], zero<Acc>());
		for (int64_t k0 = 0; k0 < g.k; k0 += BK) {
			stage<TA, TA, TILE_LD>(g, a, bm, row0, col0, k0, a_tile, b_tile);
			__syncthreads();
			wmma::fragment<wmma::matrix_a, 16, 16, 16, TA, wmma::row_major> fa;
			wmma::load_matrix_sync(fa, &a_tile[wr * 16][0], TILE_LD);
			for (int j = 0; j < 2; j++) {
				wmma::fragment<wmma::matrix_b, 16, 16, 16, TA, wmma::col_major> fb;
				wmma::load_matrix_sync(fb, &b_tile[wc * 32 + j * 16][0], TILE_LD);
				wmma::mma_sync(acc[j], fa, fb, acc[j]);
			}
			__syncthreads();
		}
		for (int j = 0; j < 2; j++)
			wmma::store_matrix_sync(&sums[wr * 16][wc * 32 + j * 16], acc[j], BN + 8,
			                        wmma::mem_row_major);
		__syncthreads();
		for (int e = threadIdx.x; e < BM * BN; e += GEMM_THREADS) {
			int r = e % BM, c = e / BM;
			finish<TC, Acc, Scale, Mid>(g, b, row0 + r, col0 + c, sums[r][c], alpha, beta);
		}
		__syncthreads();
	}
}

#define GEMM_BY(body, name, TA, TC, Acc, Scale, Mid)                                            \
	extern "C" __global__ void __launch_bounds__(GEMM_THREADS) zc_gemm_##name(zc_gemm_args g) \
	{                                                                                          \
		body<TA, TC, Acc, Scale, Mid>(g);                                                  \
	}
#define GEMM(...) GEMM_BY(gemm, __VA_ARGS__)
#define GEMM_MATRIX(...) GEMM_BY(gemm_matrix, __VA_ARGS__)
GEMM(s, float, float, float, float, float)
GEMM(d, double, double, double, double, double)
GEMM(c, c32, c32, c32, c32, c32)
GEMM(z, c64, c64, c64, c64, c64)
GEMM(c_real_scale, c32, c32, c32, float, c32)
GEMM(z_real_scale, c64, c64, c64, double, c64)
GEMM_MATRIX(h_h_hscale, __half, __half, float, __half, __half)
GEMM_MATRIX(h_h, __half, __half, float, float, float)
GEMM_MATRIX(h_s, __half, float, float, float, float)
GEMM_MATRIX(bf_bf, __nv_bfloat16, __nv_bfloat16, float, float, float)
GEMM_MATRIX(bf_s, __nv_bfloat16, float, float, float, float)
GEMM_MATRIX(i8_i32, signed char, int32_t, int32_t, int32_t, int32_t)
GEMM_MATRIX(i8_s, signed char, float, int32_t, float, float)

// Triangular solves, one thread per right-hand side (a column of B on the left, a row on
// the right), by substitution in the order op(A)'s triangle needs.
template <class T> __device__ void trsm(const zc_trsm_args &t)
{
	int64_t rhs = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	int64_t size = t.right ? t.n : t.m, count = t.right ? t.m : t.n;
	bool lower = t.a.lower ^ (t.a.op != ZC_OP_N);
	// Left: op(A) x = b runs down when op(A) is lower; right: x op(A) = b runs down when
	// op(A) is upper.
	bool forward = t.right ? !lower : lower;
	T alpha = scalar<T>(t.alpha);

	if (rhs >= count)
		return;
	for (int64_t b = blockIdx.y; b < t.batch; b += gridDim.y) {
		const T *a = batch_base<T>(t.a, b);
		T *x = (T *)batch_base<T>(t.b, b);
		int64_t step = t.right ? t.b.ld : t.b.inc, base = t.right ? rhs * t.b.inc : rhs * t.b.ld;

		for (int64_t s = 0; s < size; s++) {
			int64_t i = forward ? s : size - 1 - s;
			T v = mul(alpha, x[base + i * step]);
			for (int64_t q = 0; q < s; q++) {
				int64_t l = forward ? q : size - 1 - q;
				T coeff = t.right ? element(t.a, a, l, i) : element(t.a, a, i, l);
				v = sub(v, mul(coeff, x[base + l * step]));
			}
			if (!t.a.unit)
				v = div(v, element(t.a, a, i, i));
			x[base + i * step] = v;
		}
	}
}

#define TRSM(name, T) \
	extern "C" __global__ void zc_trsm_##name(zc_trsm_args t) { trsm<T>(t); }
TRSM(s, float)
TRSM(d, double)
TRSM(c, c32)
TRSM(z, c64)

// C = alpha op(A) + beta op(B), or a diagonal scaling (dgmm).
template <class T> __device__ void geam(const zc_elementwise_args &e, bool dgmm)
{
	int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const T *a = (const T *)e.a.data, *b = (const T *)e.b.data;
	T *c = (T *)e.c.data;

	for (int64_t col = blockIdx.y; row < e.m && col < e.n; col += gridDim.y) {
	T r;
	if (dgmm) {
		int64_t i = e.right ? col : row;
		r = mul(element(e.a, a, row, col), b[i * e.b.inc]);
	} else {
		T alpha = scalar<T>(e.alpha), beta = scalar<T>(e.beta);
		r = zero<T>();
		if (!is_zero(alpha))
			r = mul(alpha, element(e.a, a, row, col));
		if (!is_zero(beta))
			r = add(r, mul(beta, element(e.b, b, row, col)));
	}
	c[row + col * e.c.ld] = r;
	}
}

// One triangle of A (a.lower's) copied into C, each in its own storage (tpttr: packed into
// full; trttp: full into packed); C's other triangle is left as it was.
template <class T> __device__ void copy_triangle(const zc_elementwise_args &e)
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= e.m)
		return;
	for (int64_t j = blockIdx.y; j < e.n; j += gridDim.y)
		if (e.a.lower ? i >= j : i <= j)
			((T *)e.c.data)[position(e.c, i, j)] = ((const T *)e.a.data)[position(e.a, i, j)];
}

#define ELEMENTWISE(name, T)                                                              \
	extern "C" __global__ void zc_geam_##name(zc_elementwise_args e) { geam<T>(e, false); } \
	extern "C" __global__ void zc_dgmm_##name(zc_elementwise_args e) { geam<T>(e, true); } \
	extern "C" __global__ void zc_copy_triangle_##name(zc_elementwise_args e) { copy_triangle<T>(e); }
ELEMENTWISE(s, float)
ELEMENTWISE(d, double)
ELEMENTWISE(c, c32)
ELEMENTWISE(z, c64)

// Level 1. Element i of a vector with increment inc; the host points x at the element
// that comes first in memory.
#define AT(p, i, inc) ((p)[(inc) >= 0 ? (i) * (inc) : ((i) - n + 1) * (inc)])
#define FOR_EACH(i, n) \
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (int64_t)gridDim.x * blockDim.x)

template <class T> __device__ void axpy(const zc_vector_args &v)
{
	T alpha = scalar<T>(v.alpha), *x = (T *)v.x, *y = (T *)v.y;
	int64_t n = v.n;
	FOR_EACH(i, n)
	AT(y, i, v.incy) = add(AT(y, i, v.incy), mul(alpha, AT(x, i, v.incx)));
}

template <class T, class S> __device__ void scal(const zc_vector_args &v)
{
	S alpha = scalar<S>(v.alpha);
	T *x = (T *)v.x;
	int64_t n = v.n;
	FOR_EACH(i, n)
	AT(x, i, v.incx) = mul(alpha, AT(x, i, v.incx));
}

template <class T> __device__ void copy(const zc_vector_args &v)
{
	T *x = (T *)v.x, *y = (T *)v.y;
	int64_t n = v.n;
	FOR_EACH(i, n)
	AT(y, i, v.incy) = AT(x, i, v.incx);
}

template <class T> __device__ void swap(const zc_vector_args &v)
{
	T *x = (T *)v.x, *y = (T *)v.y;
	int64_t n = v.n;
	FOR_EACH(i, n) {
		T t = AT(x, i, v.incx);
		AT(x, i, v.incx) = AT(y, i, v.incy);
		AT(y, i, v.incy) = t;
	}
}

// x = c x + s y, y = c y - conj(s) x.
template <class T, class C, class S> __device__ void rot(const zc_vector_args &v)
{
	C c = scalar<C>(v.alpha);
	S s = scalar<S>(v.beta);
	T *x = (T *)v.x, *y = (T *)v.y;
	int64_t n = v.n;
	FOR_EACH(i, n) {
		T xi = AT(x, i, v.incx), yi = AT(y, i, v.incy);
		AT(x, i, v.incx) = add(mul(c, xi), mul(s, yi));
		AT(y, i, v.incy) = sub(mul(c, yi), mul(conjugate(s), xi));
	}
}

// (x, y) = H (x, y) for the modified Givens matrix H whose rows the host gives in alpha's
// and beta's bytes (rotm).
template <class T> __device__ void rotm(const zc_vector_args &v)
{
	const T *h1 = (const T *)v.alpha.value, *h2 = (const T *)v.beta.value;
	T *x = (T *)v.x, *y = (T *)v.y;
	int64_t n = v.n;
	FOR_EACH(i, n) {
		T xi = AT(x, i, v.incx), yi = AT(y, i, v.incy);
		AT(x, i, v.incx) = h1[0] * xi + h1[1] * yi;
		AT(y, i, v.incy) = h2[0] * xi + h2[1] * yi;
	}
}

#define VECTOR(name, body) \
	extern "C" __global__ void zc_##name(zc_vector_args v) { body; }
#define FOR_TYPES(op, kernel) \
	VECTOR(op##_s, kernel<float>(v)) VECTOR(op##_d, kernel<double>(v)) \
	VECTOR(op##_c, kernel<c32>(v)) VECTOR(op##_z, kernel<c64>(v))
FOR_TYPES(axpy, axpy)
FOR_TYPES(copy, copy)
FOR_TYPES(swap, swap)
VECTOR(scal_s, (scal<float, float>(v)))
VECTOR(scal_d, (scal<double, double>(v)))
VECTOR(scal_c, (scal<c32, c32>(v)))
VECTOR(scal_z, (scal<c64, c64>(v)))
VECTOR(scal_cs, (scal<c32, float>(v)))
VECTOR(scal_zd, (scal<c64, double>(v)))
VECTOR(rot_s, (rot<float, float, float>(v)))
VECTOR(rot_d, (rot<double, double, double>(v)))
VECTOR(rot_c, (rot<c32, float, c32>(v)))
VECTOR(rot_cs, (rot<c32, float, float>(v)))
VECTOR(rot_z, (rot<c64, double, c64>(v)))
VECTOR(rot_zd, (rot<c64, double, double>(v)))
VECTOR(rotm_s, rotm<float>(v))
VECTOR(rotm_d, rotm<double>(v))

// Reductions run in one block of REDUCE_THREADS threads, so that the result does not
// depend on the grid and needs no second pass.
#define REDUCE_THREADS 256
template <class T> __device__ T block_sum(T v)
{
	__shared__ T part[REDUCE_THREADS];
	part[threadIdx.x] = v;
	__syncthreads();
	for (int s = REDUCE_THREADS / 2; s > 0; s /= 2) {
		if (threadIdx.x < s)
			part[threadIdx.x] = add(part[threadIdx.x], part[threadIdx.x + s]);
		__syncthreads();
	}
	T r = part[0];
	__syncthreads();
	return r;
}

template <class T> __device__ void dot(const zc_vector_args &v)
{
	const T *x = (const T *)v.x, *y = (const T *)v.y;
	int64_t n = v.n;
	T sum = zero<T>();
	for (int64_t i = threadIdx.x; i < n; i += REDUCE_THREADS) {
		T xi = AT(x, i, v.incx);
		sum = add(sum, mul(v.conjugate ? conjugate(xi) : xi, AT(y, i, v.incy)));
	}
	sum = block_sum(sum);
	if (threadIdx.x == 0)
		*(T *)v.result = sum;
}

__device__ inline float magnitude1(float a) { return fabsf(a); }
__device__ inline double magnitude1(double a) { return fabs(a); }
__device__ inline float magnitude1(c32 a) { return fabsf(a.x) + fabsf(a.y); }
__device__ inline double magnitude1(c64 a) { return fabs(a.x) + fabs(a.y); }
__device__ inline float largest_part(float a) { return fabsf(a); }
__device__ inline double largest_part(double a) { return fabs(a); }
__device__ inline float largest_part(c32 a) { return fmaxf(fabsf(a.x), fabsf(a.y)); }
__device__ inline double largest_part(c64 a) { return fmax(fabs(a.x), fabs(a.y)); }
__device__ inline double square_scaled(float a, double s) { return ((double)a / s) * ((double)a / s); }
__device__ inline double square_scaled(double a, double s) { return (a / s) * (a / s); }
__device__ inline double square_scaled(c32 a, double s) { return square_scaled(a.x, s) + square_scaled(a.y, s); }
__device__ inline double square_scaled(c64 a, double s) { return square_scaled(a.x, s) + square_scaled(a.y, s); }

// Summed in Acc, the result of type R.
template <class T, class R, class Acc = R> __device__ void asum(const zc_vector_args &v)
{
	const T *x = (const T *)v.x;
	int64_t n = v.n;
	Acc sum = 0;
	for (int64_t i = threadIdx.x; i < n; i += REDUCE_THREADS)
		sum += magnitude1(x[i * v.incx]);
	sum = block_sum(sum);
	if (threadIdx.x == 0)
		*(R *)v.result = convert<R>(sum);
}

// The Euclidean norm without overflow or underflow: the largest magnitude first, then the
// sum of squares scaled by it.
template <class T, class R> __device__ void nrm2(const zc_vector_args &v)
{
	__shared__ double part[REDUCE_THREADS];
	const T *x = (const T *)v.x;
	int64_t n = v.n;
	double largest = 0;
	for (int64_t i = threadIdx.x; i < n; i += REDUCE_THREADS)
		largest = fmax(largest, (double)largest_part(x[i * v.incx]));
	part[threadIdx.x] = largest;
	__syncthreads();
	for (int s = REDUCE_THREADS / 2; s > 0; s /= 2) {
		if (threadIdx.x < s)
			part[threadIdx.x] = fmax(part[threadIdx.x], part[threadIdx.x + s]);
		__syncthreads();
	}
	largest = part[0];
	__syncthreads();
	double sum = 0;
	if (largest > 0 && isfinite(largest))
		for (int64_t i = threadIdx.x; i < n; i += REDUCE_THREADS)
			sum += square_scaled(x[i * v.incx], largest);
	sum = block_sum(sum);
	if (threadIdx.x == 0)
		*(R *)v.result = convert<R>(isfinite(largest) ? largest * sqrt(sum) : largest);
}

// The 1-based index of the first element of largest (or smallest) |re| + |im|.
template <class T, class R> __device__ void iamax(const zc_vector_args &v)
{
	__shared__ R best[REDUCE_THREADS];
	__shared__ int64_t where[REDUCE_THREADS];
	const T *x = (const T *)v.x;
	int64_t n = v.n, at = -1;
	R value = 0;
	for (int64_t i = threadIdx.x; i < n; i += REDUCE_THREADS) {
		R m = magnitude1(x[i * v.incx]);
		if (at < 0 || (v.minimum ? m < value : m > value)) {
			value = m;
			at = i;
		}
	}
	best[threadIdx.x] = value;
	where[threadIdx.x] = at;
	__syncthreads();
	for (int s = REDUCE_THREADS / 2; s > 0; s /= 2) {
		if (threadIdx.x < s) {
			int64_t other = where[threadIdx.x + s];
			R o = best[threadIdx.x + s];
			int64_t mine = where[threadIdx.x];
			bool better = other >= 0 &&
			              (mine < 0 || (v.minimum ? o < best[threadIdx.x] : o > best[threadIdx.x]) ||
			               (o == best[threadIdx.x] && other < mine));
			if (better) {
				best[threadIdx.x] = o;
				where[threadIdx.x] = other;
			}
		}
		__syncthreads();
	}
	if (threadIdx.x == 0)
		*(int *)v.result = (int)(where[0] + 1);
}

VECTOR(dot_s, dot<float>(v))
VECTOR(dot_d, dot<double>(v))
VECTOR(dot_c, dot<c32>(v))
VECTOR(dot_z, dot<c64>(v))
VECTOR(asum_s, (asum<float, float>(v)))
VECTOR(asum_d, (asum<double, double>(v)))
VECTOR(asum_c, (asum<c32, float>(v)))
VECTOR(asum_z, (asum<c64, double>(v)))
VECTOR(nrm2_s, (nrm2<float, float>(v)))
VECTOR(nrm2_d, (nrm2<double, double>(v)))
VECTOR(nrm2_c, (nrm2<c32, float>(v)))
VECTOR(nrm2_z, (nrm2<c64, double>(v)))
VECTOR(iamax_s, (iamax<float, float>(v)))
VECTOR(iamax_d, (iamax<double, double>(v)))
VECTOR(iamax_c, (iamax<c32, float>(v)))
VECTOR(iamax_z, (iamax<c64, double>(v)))

// The Ex forms' 16-bit vectors (half, bfloat16), executed in float as cuBLAS executes them:
// each element is widened, computed on and rounded back once. alpha is a float; rot's c and
// s are of the vectors' type; rotm's matrix rows come from the host as floats; asum's
// result is a float, the others' of the vectors' type.
__device__ inline float magnitude1(__half a) { return fabsf(__half2float(a)); }
__device__ inline float magnitude1(__nv_bfloat16 a) { return fabsf(__bfloat162float(a)); }
__device__ inline float largest_part(__half a) { return magnitude1(a); }
__device__ inline float largest_part(__nv_bfloat16 a) { return magnitude1(a); }
__device__ inline double square_scaled(__half a, double s) { return square_scaled(__half2float(a), s); }
__device__ inline double square_scaled(__nv_bfloat16 a, double s) { return square_scaled(__bfloat162float(a), s); }

template <class T> __device__ void axpy_ex(const zc_vector_args &v)
{
	float alpha = scalar<float>(v.alpha);
	T *x = (T *)v.x, *y = (T *)v.y;
	int64_t n = v.n;
	FOR_EACH(i, n)
	AT(y, i, v.incy) = convert<T>(fmaf(alpha, convert<float>(AT(x, i, v.incx)),
	                                   convert<float>(AT(y, i, v.incy))));
}

template <class T> __device__ void scal_ex(const zc_vector_args &v)
{
	float alpha = scalar<float>(v.alpha);
	T *x = (T *)v.x;
	int64_t n = v.n;
	FOR_EACH(i, n)
	AT(x, i, v.incx) = convert<T>(alpha * convert<float>(AT(x, i, v.incx)));
}

template <class T> __device__ void rot_ex(const zc_vector_args &v)
{
	float c = convert<float>(scalar<T>(v.alpha)), s = convert<float>(scalar<T>(v.beta));
	T *x = (T *)v.x, *y = (T *)v.y;
	int64_t n = v.n;
	FOR_EACH(i, n) {
		float xi = convert<float>(AT(x, i, v.incx)), yi = convert<float>(AT(y, i, v.incy));
		AT(x, i, v.incx) = convert<T>(c * xi + s * yi);
		AT(y, i, v.incy) = convert<T>(c * yi - s * xi);
	}
}

template <class T> __device__ void rotm_ex(const zc_vector_args &v)
{
	const float *h1 = (const float *)v.alpha.value, *h2 = (const float *)v.beta.value;
	T *x = (T *)v.x, *y = (T *)v.y;
	int64_t n = v.n;
	FOR_EACH(i, n) {
		float xi = convert<float>(AT(x, i, v.incx)), yi = convert<float>(AT(y, i, v.incy));
		AT(x, i, v.incx) = convert<T>(h1[0] * xi + h1[1] * yi);
		AT(y, i, v.incy) = convert<T>(h2[0] * xi + h2[1] * yi);
	}
}

template <class T> __device__ void dot_ex(const zc_vector_args &v)
{
	const T *x = (const T *)v.x, *y = (const T *)v.y;
	int64_t n = v.n;
	float sum = 0;
	for (int64_t i = threadIdx.x; i < n; i += REDUCE_THREADS)
		sum += convert<float>(AT(x, i, v.incx)) * convert<float>(AT(y, i, v.incy));
	sum = block_sum(sum);
	if (threadIdx.x == 0)
		*(T *)v.result = convert<T>(sum);
}

// A float dot product summed in double (DotEx of float vectors into a double result).
__device__ void dot_sd(const zc_vector_args &v)
{
	const float *x = (const float *)v.x, *y = (const float *)v.y;
	int64_t n = v.n;
	double sum = 0;
	for (int64_t i = threadIdx.x; i < n; i += REDUCE_THREADS)
		sum += (double)AT(x, i, v.incx) * AT(y, i, v.incy);
	sum = block_sum(sum);
	if (threadIdx.x == 0)
		*(double *)v.result = sum;
}

#define EX_TYPES(name, T)                                 \
	VECTOR(axpy_##name, axpy_ex<T>(v))                     \
	VECTOR(scal_##name, scal_ex<T>(v))                     \
	VECTOR(rot_##name, rot_ex<T>(v))                       \
	VECTOR(rotm_##name, rotm_ex<T>(v))                     \
	VECTOR(dot_##name, dot_ex<T>(v))                       \
	VECTOR(nrm2_##name, (nrm2<T, T>(v)))                   \
	VECTOR(asum_##name, (asum<T, float>(v)))                   \
	VECTOR(iamax_##name, (iamax<T, float>(v)))
EX_TYPES(h, __half)
EX_TYPES(bf, __nv_bfloat16)
VECTOR(dot_sd, dot_sd(v))
VECTOR(copy_h, copy<uint16_t>(v))

// 8-bit complex elements widened to complex float (CgemmEx's 8-bit A and B), x to y.
__device__ void widen_c8(const zc_vector_args &v)
{
	const char2 *x = (const char2 *)v.x;
	c32 *y = (c32 *)v.y;
	FOR_EACH(i, v.n)
	y[i] = make_cuComplex(x[i].x, x[i].y);
}
VECTOR(widen_c8, widen_c8(v))
VECTOR(swap_h, swap<uint16_t>(v))

// Row sums for cuBLASLt's bias gradients, in double whatever the element type.
template <class T> __device__ void row_sums(const zc_row_sums_args &r)
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= r.rows)
		return;
	for (int64_t b = blockIdx.y; b < r.batch; b += gridDim.y) {
		const T *m = batch_base<T>(r.m, b);
		double sum = 0;
		for (int64_t l = 0; l < r.len; l++)
			sum += convert<double>(element(r.m, m, i, l));
		store_element(r.out, r.out_type, b * r.out_stride + i, sum);
	}
}

#define ROW_SUMS(name, T) \
	extern "C" __global__ void zc_row_sums_##name(zc_row_sums_args r) { row_sums<T>(r); }
ROW_SUMS(s, float)
ROW_SUMS(d, double)
ROW_SUMS(h, __half)
ROW_SUMS(bf, __nv_bfloat16)

// The batched LU routines (zc_lu_args), one block of LU_THREADS threads a matrix. getrf is
// LAPACK's getf2: the pivot is the first largest |re| + |im| of the column's rest, a zero
// pivot is recorded in info and leaves its column unscaled.
#define LU_THREADS 256
template <class T> __device__ void getrf(const zc_lu_args &l)
{
	__shared__ double best[LU_THREADS];
	__shared__ int64_t where[LU_THREADS];
	int64_t n = l.n, lda = l.a.ld;
	int t = threadIdx.x;

	for (int64_t b = blockIdx.x; b < l.batch; b += gridDim.x) {
		T *a = (T *)batch_base<T>(l.a, b);
		int info = 0;
		for (int64_t k = 0; k < n; k++) {
			if (l.pivots) {
				double m = -1;
				int64_t at = k;
				for (int64_t i = k + t; i < n; i += LU_THREADS)
					if (magnitude1(a[i + k * lda]) > m)
						m = magnitude1(a[i + k * lda]), at = i;
				best[t] = m, where[t] = at;
				__syncthreads();
				for (int s = LU_THREADS / 2; s > 0; s >>= 1) {
					if (t < s && (best[t + s] > best[t] ||
					              (best[t + s] == best[t] && where[t + s] < where[t])))
						best[t] = best[t + s], where[t] = where[t + s];
					__syncthreads();
				}
				int64_t p = where[0];
				if (t == 0)
					l.pivots[b * n + k] = (int)(p + 1);
				for (int64_t j = t; p != k && j < n; j += LU_THREADS) {
					T x = a[k + j * lda];
					a[k + j * lda] = a[p + j * lda];
					a[p + j * lda] = x;
				}
				__syncthreads();
			}
			T pivot = a[k + k * lda];
			if (is_zero(pivot)) {
				if (!info)
					info = (int)(k + 1);
			} else {
				for (int64_t i = k + 1 + t; i < n; i += LU_THREADS)
					a[i + k * lda] = div(a[i + k * lda], pivot);
			}
			__syncthreads();
			int64_t rest = n - k - 1;
			for (int64_t e = t; e < rest * rest; e += LU_THREADS) {
				int64_t i = k + 1 + e % rest, j = k + 1 + e / rest;
				a[i + j * lda] = sub(a[i + j * lda], mul(a[i + k * lda], a[k + j * lda]));
			}
			__syncthreads();
		}
		if (t == 0)
			l.info[b] = info;
		__syncthreads();
	}
}

// op(A) X = B from getrf's factors, a thread a column of B: for N the row swaps, L (unit)
// and U; for T and C op(U), op(L) and the swaps undone in reverse.
template <class T> __device__ void getrs(const zc_lu_args &l)
{
	int64_t n = l.n, lda = l.a.ld;
	bool conj = l.op == ZC_OP_C;

	for (int64_t b = blockIdx.x; b < l.batch; b += gridDim.x) {
		const T *a = batch_base<T>(l.a, b);
		T *x = (T *)batch_base<T>(l.b, b);
		const int *piv = l.pivots ? l.pivots + b * n : NULL;
		if (l.identity && threadIdx.x == 0) {
			int info = 0;
			for (int64_t i = 0; i < n && !info; i++)
				if (is_zero(a[i + i * lda]))
					info = (int)(i + 1);
			l.info[b] = info;
		}
		for (int64_t c = threadIdx.x; c < l.nrhs; c += LU_THREADS) {
			T *col = x + c * l.b.ld;
			if (l.identity)
				for (int64_t i = 0; i < n; i++)
					col[i] = i == c ? one<T>() : zero<T>();
			if (l.op == ZC_OP_N) {
				for (int64_t k = 0; piv && k < n; k++) {
					T s = col[k];
					col[k] = col[piv[k] - 1];
					col[piv[k] - 1] = s;
				}
				for (int64_t i = 0; i < n; i++)
					for (int64_t k = 0; k < i; k++)
						col[i] = sub(col[i], mul(a[i + k * lda], col[k]));
				for (int64_t i = n - 1; i >= 0; i--) {
					for (int64_t k = i + 1; k < n; k++)
						col[i] = sub(col[i], mul(a[i + k * lda], col[k]));
					col[i] = div(col[i], a[i + i * lda]);
				}
			} else {
				for (int64_t i = 0; i < n; i++) {
					for (int64_t k = 0; k < i; k++) {
						T u = a[k + i * lda];
						col[i] = sub(col[i], mul(conj ? conjugate(u) : u, col[k]));
					}
					T d = a[i + i * lda];
					col[i] = div(col[i], conj ? conjugate(d) : d);
				}
				for (int64_t i = n - 1; i >= 0; i--)
					for (int64_t k = i + 1; k < n; k++) {
						T m = a[k + i * lda];
						col[i] = sub(col[i], mul(conj ? conjugate(m) : m, col[k]));
					}
				for (int64_t k = n - 1; piv && k >= 0; k--) {
					T s = col[k];
					col[k] = col[piv[k] - 1];
					col[piv[k] - 1] = s;
				}
			}
		}
		__syncthreads();
	}
}

template <class T> __device__ void lu_copy(const zc_lu_args &l)
{
	for (int64_t b = blockIdx.x; b < l.batch; b += gridDim.x) {
		const T *a = batch_base<T>(l.a, b);
		T *to = (T *)batch_base<T>(l.b, b);
		for (int64_t e = threadIdx.x; e < l.n * l.n; e += LU_THREADS)
			to[e % l.n + e / l.n * l.b.ld] = a[e % l.n + e / l.n * l.a.ld];
	}
}

// Householder QR (zc_qr_args), one block of LU_THREADS threads a matrix.
__device__ inline double real_of(float a) { return a; }
__device__ inline double real_of(double a) { return a; }
__device__ inline double real_of(c32 a) { return a.x; }
__device__ inline double real_of(c64 a) { return a.x; }
__device__ inline double imag_of(float) { return 0; }
__device__ inline double imag_of(double) { return 0; }
__device__ inline double imag_of(c32 a) { return a.y; }
__device__ inline double imag_of(c64 a) { return a.y; }
template <class T> __device__ inline T from_parts(double re, double im) { return (T)re; }
template <> __device__ inline c32 from_parts(double re, double im) { return make_cuComplex(re, im); }
template <> __device__ inline c64 from_parts(double re, double im) { return make_cuDoubleComplex(re, im); }

// M's rows j.. and columns 0..cols-1 times H^H = I - conj(tau) v v^H, v(j) = 1 and v below
// it in column j of a: a column a thread.
template <class T>
__device__ void reflect(const T *a, int64_t lda, int64_t m, int64_t j, T tau, T *mat, int64_t ld,
                        int64_t first, int64_t cols)
{
	for (int64_t c = first + threadIdx.x; c < cols; c += LU_THREADS) {
		T w = mat[j + c * ld];
		for (int64_t i = j + 1; i < m; i++)
			w = add(w, mul(conjugate(a[i + j * lda]), mat[i + c * ld]));
		w = mul(conjugate(tau), w);
		mat[j + c * ld] = sub(mat[j + c * ld], w);
		for (int64_t i = j + 1; i < m; i++)
			mat[i + c * ld] = sub(mat[i + c * ld], mul(a[i + j * lda], w));
	}
}

template <class T> __device__ void qr(const zc_qr_args &q)
{
	__shared__ T tau, scale;
	int64_t m = q.m, n = q.n, steps = m < n ? m : n, lda = q.a.ld;

	for (int64_t b = blockIdx.x; b < q.batch; b += gridDim.x) {
		T *a = (T *)batch_base<T>(q.a, b);
		T *c = q.c.array ? (T *)batch_base<T>(q.c, b) : NULL;
		for (int64_t j = 0; j < steps; j++) {
			// LAPACK's larfg: beta = -sign(re alpha) |(alpha, x)|, tau = (beta - alpha) /
			// beta, v = x / (alpha - beta)
			double sum = 0;
			for (int64_t i = j + 1 + threadIdx.x; i < m; i += LU_THREADS)
				sum += real_of(a[i + j * lda]) * real_of(a[i + j * lda]) +
				       imag_of(a[i + j * lda]) * imag_of(a[i + j * lda]);
			sum = block_sum(sum);
			if (threadIdx.x == 0) {
				T alpha = a[j + j * lda];
				double re = real_of(alpha), im = imag_of(alpha);
				if (sum == 0 && im == 0) {
					tau = zero<T>();
				} else {
					double beta = -copysign(sqrt(re * re + im * im + sum), re);
					tau = from_parts<T>((beta - re) / beta, -im / beta);
					scale = div(one<T>(), from_parts<T>(re - beta, im));
					a[j + j * lda] = from_parts<T>(beta, 0);
				}
				if (q.tau.array)
					((T *)batch_base<T>(q.tau, b))[j] = tau;
			}
			__syncthreads();
			if (!is_zero(tau))
				for (int64_t i = j + 1 + threadIdx.x; i < m; i += LU_THREADS)
					a[i + j * lda] = mul(scale, a[i + j * lda]);
			__syncthreads();
			reflect(a, lda, m, j, tau, a, lda, j + 1, n);
			if (c)
				reflect(a, lda, m, j, tau, c, q.c.ld, 0, q.nrhs);
			__syncthreads();
		}
		if (!c)
			continue;
		int info = 0;
		for (int64_t i = 0; i < n && !info; i++)
			if (is_zero(a[i + i * lda]))
				info = (int)(i + 1);
		for (int64_t r = threadIdx.x; !info && r < q.nrhs; r += LU_THREADS)
			for (int64_t i = n - 1; i >= 0; i--) {
				T x = c[i + r * q.c.ld];
				for (int64_t k = i + 1; k < n; k++)
					x = sub(x, mul(a[i + k * lda], c[k + r * q.c.ld]));
				c[i + r * q.c.ld] = div(x, a[i + i * lda]);
			}
		if (threadIdx.x == 0)
			q.info[b] = info;
		__syncthreads();
	}
}

#define LU(name, T)                                                                             \
	extern "C" __global__ void __launch_bounds__(LU_THREADS) zc_getrf_##name(zc_lu_args l)    \
	{                                                                                         \
		getrf<T>(l);                                                                          \
	}                                                                                         \
	extern "C" __global__ void __launch_bounds__(LU_THREADS) zc_getrs_##name(zc_lu_args l)    \
	{                                                                                         \
		getrs<T>(l);                                                                          \
	}                                                                                         \
	extern "C" __global__ void __launch_bounds__(LU_THREADS) zc_lu_copy_##name(zc_lu_args l)  \
	{                                                                                         \
		lu_copy<T>(l);                                                                        \
	}                                                                                         \
	extern "C" __global__ void __launch_bounds__(LU_THREADS) zc_qr_##name(zc_qr_args q)       \
	{                                                                                         \
		qr<T>(q);                                                                             \
	}
LU(s, float)
LU(d, double)
LU(c, c32)
LU(z, c64)
