/* The sizes and the inputs both sides of the CPU driver benchmark use (C and CUDA). */
#ifndef CPU_DRIVER_BENCH_SIZES_H
#define CPU_DRIVER_BENCH_SIZES_H

#include <stdlib.h>

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

#endif
