/* The contract between the cuFFT replacement's host code (C) and its kernels (CUDA): one
 * argument structure per kernel, taken by value. A transform's data lives in a work array
 * of complex elements, row-major per transform ([batch][n0][n1][n2]). */
#ifndef ZC_FFT_ARGS_H
#define ZC_FFT_ARGS_H

#include <stdint.h>

/* One Stockham pass of radix `radix` over `lines` contiguous transforms of length n: ns is
 * the product of the radices done before; sign -1 forward, +1 inverse. */
struct zc_fft_pass_args {
	int64_t n, lines;
	int32_t radix, ns, sign;
	const void *in;
	void *out;
};

/* The lines of one axis (length n, stride s: the product of the later dimensions) of a work
 * array, copied into contiguous lines (gather) or back (scatter). */
struct zc_fft_lines_args {
	int64_t n, s, outer, batch, total;
	const void *in;
	void *out;
	int32_t scatter;
};

enum {
	ZC_FFT_LOAD_COMPLEX, /* user complex -> work */
	ZC_FFT_LOAD_REAL,    /* user real -> work, imaginary parts 0 */
	ZC_FFT_LOAD_HALF,    /* user half spectrum (last dimension n/2+1) -> work, by symmetry */
	ZC_FFT_STORE_COMPLEX,
	ZC_FFT_STORE_REAL,   /* work's real parts -> user real */
	ZC_FFT_STORE_HALF,   /* work's first n/2+1 of the last dimension -> user complex */
};

/* Between the program's layout (cuFFT's advanced layout: element (b, x0, x1, x2) at
 * b * dist + ((x0 * embed[1] + x1) * embed[2] + x2) * stride) and the work array. */
struct zc_fft_layout_args {
	int32_t rank, mode;
	int64_t n[3], embed[3];
	int64_t stride, dist, batch, total;
	const void *user;
	void *work;
};

/* Bluestein's algorithm for lines of a length n with a large prime factor, through a
 * convolution of power-of-two length m: step 0 a = x c (padded to m), step 1 A = A B / m
 * (B the transform of the chirp, in chirp_transform), step 2 X = c C; c_k =
 * exp(sign pi i k^2 / n). */
struct zc_fft_bluestein_args {
	int64_t n, m, lines;
	int32_t sign, step;
	const void *in;
	void *out;
	const void *chirp_transform;
};

#endif
