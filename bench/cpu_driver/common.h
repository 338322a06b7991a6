/* What both sides of the CPU driver benchmark share (C and CUDA): the sizes, the inputs,
 * and the arithmetic of one Mandelbrot point and one Black-Scholes option. */
#ifndef CPU_DRIVER_BENCH_COMMON_H
#define CPU_DRIVER_BENCH_COMMON_H

#include <math.h>
#include <stdlib.h>

#ifdef __CUDACC__
#define BENCH_FUNCTION __host__ __device__ static inline
#else
#define BENCH_FUNCTION static inline
#endif

enum {
	SAXPY_N = 1 << 24,
	STENCIL_N = 2048,
	STENCIL_STEPS = 10,
	GEMM_N = 512,
	REDUCE_N = 1 << 24,
	SCAN_N = 1 << 22,
	HISTOGRAM_N = 1 << 24,
	HISTOGRAM_BLOCKS = 1024,
	NBODY_N = 4096,
	SORT_N = 1 << 16,
	SHUFFLE_N = 1 << 22,
	TRANSPOSE_N = 2048,
	MANDELBROT_N = 1024,
	MANDELBROT_LIMIT = 256,
	OPTIONS_N = 1 << 22,
	INPUT_N = 1 << 24, /* the largest of the sizes above */
};

typedef struct {
	float *x, *y, *grid, *bodies, *spot, *strike, *years;
	int *ints;
	unsigned *keys;
	unsigned char *bytes;
} Inputs;

static unsigned bench_random(unsigned *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

static float bench_uniform(unsigned *state, float low, float high)
{
	return low + (high - low) * (float)bench_random(state) / (float)(1u << 24);
}

static void make_inputs(Inputs *in)
{
	unsigned state = 12345;
	in->x = (float *)malloc(INPUT_N * sizeof(float));
	in->y = (float *)malloc(INPUT_N * sizeof(float));
	in->grid = (float *)malloc(STENCIL_N * STENCIL_N * sizeof(float));
	in->bodies = (float *)malloc(4 * NBODY_N * sizeof(float));
	in->spot = (float *)malloc(OPTIONS_N * sizeof(float));
	in->strike = (float *)malloc(OPTIONS_N * sizeof(float));
	in->years = (float *)malloc(OPTIONS_N * sizeof(float));
	in->ints = (int *)malloc(SCAN_N * sizeof(int));
	in->keys = (unsigned *)malloc(SORT_N * sizeof(unsigned));
	in->bytes = (unsigned char *)malloc(HISTOGRAM_N);
	if (!in->x || !in->y || !in->grid || !in->bodies || !in->spot || !in->strike ||
	    !in->years || !in->ints || !in->keys || !in->bytes)
		abort();
	for (int i = 0; i < INPUT_N; i++) {
		in->x[i] = bench_uniform(&state, -1, 1);
		in->y[i] = bench_uniform(&state, -1, 1);
	}
	for (int i = 0; i < STENCIL_N * STENCIL_N; i++)
		in->grid[i] = i % STENCIL_N == 0 ? 1.0f : 0.0f;
	for (int i = 0; i < 4 * NBODY_N; i++)
		in->bodies[i] = i % 4 == 3 ? bench_uniform(&state, 0.5f, 1) : bench_uniform(&state, -1, 1);
	for (int i = 0; i < OPTIONS_N; i++) {
		in->spot[i] = bench_uniform(&state, 5, 30);
		in->strike[i] = bench_uniform(&state, 1, 100);
		in->years[i] = bench_uniform(&state, 0.25f, 10);
	}
	for (int i = 0; i < SCAN_N; i++)
		in->ints[i] = (int)(bench_random(&state) % 100);
	for (int i = 0; i < SORT_N; i++)
		in->keys[i] = bench_random(&state);
	for (int i = 0; i < HISTOGRAM_N; i++)
		in->bytes[i] = (unsigned char)(bench_random(&state) >> 3);
}

/* Iterations until z = z^2 + c leaves the circle of radius 2, at most `limit`. */
BENCH_FUNCTION int mandelbrot_point(int x, int y, int n, int limit)
{
	float cr = -2.0f + 2.5f * x / n, ci = -1.25f + 2.5f * y / n, zr = 0, zi = 0;
	int k = 0;
	while (k < limit && zr * zr + zi * zi < 4.0f) {
		float t = zr * zr - zi * zi + cr;
		zi = 2.0f * zr * zi + ci;
		zr = t;
		k++;
	}
	return k;
}

BENCH_FUNCTION float normal_cdf(float d)
{
	return 0.5f * erfcf(-d * 0.70710678f);
}

/* A European call's price: spot s, strike k, t years, 2 % interest, 30 % volatility. */
BENCH_FUNCTION float black_scholes_call(float s, float k, float t)
{
	const float r = 0.02f, v = 0.3f;
	float sq = sqrtf(t);
	float d1 = (logf(s / k) + (r + 0.5f * v * v) * t) / (v * sq), d2 = d1 - v * sq;
	return s * normal_cdf(d1) - k * expf(-r * t) * normal_cdf(d2);
}

#endif
