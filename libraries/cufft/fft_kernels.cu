// The kernels of the project's own cuFFT: portable CUDA, compiled to PTX by nvcc and
// converted by the project's pipeline like a program's kernels. Each kernel takes one
// argument structure (fft_args.h) and is looked up by its unmangled name.
#include <cuComplex.h>
#include <stdint.h>

#include "fft_args.h"

// Complex arithmetic and e^(i pi x) for both precisions.
__device__ inline float2 cmul(float2 a, float2 b) { return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__device__ inline double2 cmul(double2 a, double2 b) { return make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__device__ inline float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ inline double2 cadd(double2 a, double2 b) { return make_double2(a.x + b.x, a.y + b.y); }
__device__ inline float2 cscale(float2 a, double s) { return make_float2(a.x * (float)s, a.y * (float)s); }
__device__ inline double2 cscale(double2 a, double s) { return make_double2(a.x * s, a.y * s); }
template <class C> __device__ inline C czero();
template <> __device__ inline float2 czero() { return make_float2(0, 0); }
template <> __device__ inline double2 czero() { return make_double2(0, 0); }
template <class C> __device__ inline C cispi(double x);
template <> __device__ inline float2 cispi(double x)
{
	float s, c;
	sincospif((float)x, &s, &c);
	return make_float2(c, s);
}
template <> __device__ inline double2 cispi(double x)
{
	double s, c;
	sincospi(x, &s, &c);
	return make_double2(c, s);
}

// Radices up to this are done by a direct DFT of the radix in registers.
#define MAX_RADIX 64

template <class C> __device__ void pass(const zc_fft_pass_args &p)
{
	int64_t butterflies = p.n / p.radix;
	int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= butterflies * p.lines)
		return;
	int64_t line = t / butterflies, j = t % butterflies, k = j % p.ns;
	const C *in = (const C *)p.in + line * p.n;
	C *out = (C *)p.out + line * p.n;
	C v[MAX_RADIX], roots[MAX_RADIX];

	// the twiddle exp(sign 2 pi i k q / (ns radix)) as the q-th power of its first
	C twiddle = cispi<C>(p.sign * 2.0 * (double)k / (double)(p.ns * p.radix)), w = twiddle;
	v[0] = in[j];
	for (int q = 1; q < p.radix; q++) {
		v[q] = cmul(in[j + q * butterflies], w);
		w = cmul(w, twiddle);
	}
	// the radix's roots of unity, each from sincospi (powers would drift over 64 steps)
	for (int t = 0; t < p.radix; t++)
		roots[t] = cispi<C>(p.sign * 2.0 * t / p.radix);
	int64_t base = (j / p.ns) * p.ns * p.radix + k;
	for (int r = 0; r < p.radix; r++) {
		C sum = v[0];
		for (int q = 1, t = r; q < p.radix; q++, t = (t + r) % p.radix)
			sum = cadd(sum, cmul(v[q], roots[t]));
		out[base + r * p.ns] = sum;
	}
}

template <class C> __device__ void lines(const zc_fft_lines_args &l)
{
	int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	int64_t per_batch = l.outer * l.s;
	if (t >= l.batch * per_batch * l.n)
		return;
	int64_t line = t / l.n, j = t % l.n;
	int64_t b = line / per_batch, rem = line % per_batch, o = rem / l.s, i = rem % l.s;
	int64_t at = b * l.total + o * l.n * l.s + j * l.s + i;
	if (l.scatter)
		((C *)l.out)[at] = ((const C *)l.in)[t];
	else
		((C *)l.out)[t] = ((const C *)l.in)[at];
}

// The offset in the program's array of element (b, x) and the coordinates of work element w.
__device__ inline int64_t user_offset(const zc_fft_layout_args &a, int64_t b, const int64_t *x)
{
	int64_t linear = x[0];
	for (int d = 1; d < a.rank; d++)
		linear = linear * a.embed[d] + x[d];
	return b * a.dist + linear * a.stride;
}

template <class C, class R> __device__ void layout(const zc_fft_layout_args &a)
{
	int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (w >= a.batch * a.total)
		return;
	int64_t b = w / a.total, rem = w % a.total, x[3];
	for (int d = a.rank - 1; d >= 0; d--) {
		x[d] = rem % a.n[d];
		rem /= a.n[d];
	}
	C *work = (C *)a.work;
	int last = a.rank - 1;
	int64_t half = a.n[last] / 2 + 1;
	switch (a.mode) {
	case ZC_FFT_LOAD_COMPLEX: work[w] = ((const C *)a.user)[user_offset(a, b, x)]; break;
	case ZC_FFT_LOAD_REAL: {
		C v = czero<C>();
		v.x = ((const R *)a.user)[user_offset(a, b, x)];
		work[w] = v;
		break;
	}
	case ZC_FFT_LOAD_HALF: {
		// X(x) = conj(X(-x)) for the last coordinates past the half the program holds.
		bool mirrored = x[last] >= half;
		if (mirrored)
			for (int d = 0; d < a.rank; d++)
				x[d] = (a.n[d] - x[d]) % a.n[d];
		C v = ((const C *)a.user)[user_offset(a, b, x)];
		if (mirrored)
			v.y = -v.y;
		work[w] = v;
		break;
	}
	case ZC_FFT_STORE_COMPLEX: ((C *)a.user)[user_offset(a, b, x)] = work[w]; break;
	case ZC_FFT_STORE_REAL: ((R *)a.user)[user_offset(a, b, x)] = work[w].x; break;
	case ZC_FFT_STORE_HALF:
		if (x[last] < half)
			((C *)a.user)[user_offset(a, b, x)] = work[w];
		break;
	}
}

template <class C> __device__ void bluestein(const zc_fft_bluestein_args &a)
{
	int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= a.lines * a.m)
		return;
	int64_t line = t / a.m, k = t % a.m;
	// c_k = exp(sign pi i k^2 / n), k^2 reduced mod 2n (its period) so that the angle stays exact
	C c = cispi<C>(a.sign * (double)(k * k % (2 * a.n)) / (double)a.n);
	const C *in = (const C *)a.in;
	C *out = (C *)a.out;
	switch (a.step) {
	case 0:
		out[t] = k < a.n ? cmul(in[line * a.n + k], c) : czero<C>();
		break;
	case 1:
		out[t] = cscale(cmul(in[t], ((const C *)a.chirp_transform)[k]), 1.0 / (double)a.m);
		break;
	case 2:
		if (k < a.n)
			out[line * a.n + k] = cmul(in[t], c);
		break;
	}
}

// The chirp's conjugate, wrapped for a circular convolution: b_j = exp(-sign pi i j^2 / n)
// at j and m - j.
template <class C> __device__ void chirp(const zc_fft_bluestein_args &a)
{
	int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (j >= a.m)
		return;
	int64_t d = j < a.n ? j : a.m - j < a.n ? a.m - j : -1;
	((C *)a.out)[j] = d < 0 ? czero<C>() : cispi<C>(-a.sign * (double)(d * d % (2 * a.n)) / (double)a.n);
}

#define KERNELS(suffix, C, R)                                                                      \
	extern "C" __global__ void zc_fft_pass_##suffix(zc_fft_pass_args p) { pass<C>(p); }             \
	extern "C" __global__ void zc_fft_lines_##suffix(zc_fft_lines_args l) { lines<C>(l); }          \
	extern "C" __global__ void zc_fft_layout_##suffix(zc_fft_layout_args a) { layout<C, R>(a); }    \
	extern "C" __global__ void zc_fft_bluestein_##suffix(zc_fft_bluestein_args a) { bluestein<C>(a); } \
	extern "C" __global__ void zc_fft_chirp_##suffix(zc_fft_bluestein_args a) { chirp<C>(a); }
KERNELS(c, float2, float)
KERNELS(z, double2, double)
