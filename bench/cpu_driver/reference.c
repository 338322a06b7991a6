/* The CPU driver benchmark's reference (bench/cpu_driver.sh): kernels.cu's algorithms as
 * plain C loops parallelised with OpenMP, printing the same lines. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

typedef void (*Body)(void *);

static void measure(const char *name, Body body, void *arg, double (*sum)(void *))
{
	body(arg);
	double best = 1e30;
	for (int i = 0; i < 3; i++) {
		double t = now();
		body(arg);
		t = now() - t;
		best = t < best ? t : best;
	}
	printf("%-12s %10.6f %.9e\n", name, best, sum(arg));
}

static double sum_floats(const float *x, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s;
}

static float *copy_floats(const float *x, size_t n)
{
	float *p = malloc(n * sizeof *p);
	if (!p)
		abort();
	if (x)
		memcpy(p, x, n * sizeof *p);
	else
		memset(p, 0, n * sizeof *p);
	return p;
}

static Inputs in;

/* ---- saxpy ---- */
static float *saxpy_y;
static void saxpy(void *arg)
{
	(void)arg;
#pragma omp parallel for
	for (int i = 0; i < SAXPY_N; i++)
		saxpy_y[i] = 2.0f * in.x[i] + saxpy_y[i];
}
static double saxpy_sum(void *arg) { (void)arg; return sum_floats(saxpy_y, SAXPY_N); }

/* ---- stencil ---- */
static float *stencil_a, *stencil_b;
static void stencil(void *arg)
{
	const int n = STENCIL_N;
	(void)arg;
	for (int s = 0; s < STENCIL_STEPS; s++) {
#pragma omp parallel for
		for (int y = 1; y < n - 1; y++)
			for (int x = 1; x < n - 1; x++)
				stencil_b[y * n + x] = 0.25f * (stencil_a[y * n + x - 1] + stencil_a[y * n + x + 1] +
				                                stencil_a[(y - 1) * n + x] + stencil_a[(y + 1) * n + x]);
		float *t = stencil_a;
		stencil_a = stencil_b;
		stencil_b = t;
	}
}
static double stencil_sum(void *arg) { (void)arg; return sum_floats(stencil_a, STENCIL_N * STENCIL_N); }

/* ---- gemm ---- */
static float *gemm_c;
static void gemm(void *arg)
{
	const int n = GEMM_N;
	(void)arg;
#pragma omp parallel for
	for (int i = 0; i < n; i++) {
		float *row = gemm_c + (size_t)i * n;
		for (int j = 0; j < n; j++)
			row[j] = 0;
		for (int k = 0; k < n; k++) {
			float a = in.x[i * n + k];
			for (int j = 0; j < n; j++)
				row[j] += a * in.y[k * n + j];
		}
	}
}
static double gemm_sum(void *arg) { (void)arg; return sum_floats(gemm_c, GEMM_N * GEMM_N); }

/* ---- reduction: one partial sum per 512 elements ---- */
static float *partial;
static void reduction(void *arg)
{
	(void)arg;
#pragma omp parallel for
	for (int b = 0; b < REDUCE_N / 512; b++) {
		float s = 0;
		for (int i = 0; i < 512; i++)
			s += in.x[b * 512 + i];
		partial[b] = s;
	}
}
static double reduction_sum(void *arg) { (void)arg; return sum_floats(partial, REDUCE_N / 512); }

/* ---- scan: inclusive, within each 256 elements ---- */
static int *scanned;
static void scan(void *arg)
{
	(void)arg;
#pragma omp parallel for
	for (int b = 0; b < SCAN_N / 256; b++) {
		int s = 0;
		for (int i = b * 256; i < (b + 1) * 256; i++)
			scanned[i] = s += in.ints[i];
	}
}
static double scan_sum(void *arg)
{
	double s = 0;
	(void)arg;
	for (int i = 0; i < SCAN_N; i++)
		s += scanned[i];
	return s;
}

/* ---- histogram ---- */
static unsigned bins[256];
static void histogram(void *arg)
{
	(void)arg;
	memset(bins, 0, sizeof bins);
#pragma omp parallel
	{
		unsigned local[256] = {0};
#pragma omp for
		for (int i = 0; i < HISTOGRAM_N; i++)
			local[in.bytes[i]]++;
		for (int b = 0; b < 256; b++) {
#pragma omp atomic
			bins[b] += local[b];
		}
	}
}
static double histogram_sum(void *arg)
{
	double s = 0;
	(void)arg;
	for (int b = 0; b < 256; b++)
		s += bins[b];
	return s;
}

/* ---- nbody ---- */
static float *acc;
static void nbody(void *arg)
{
	const float *p = in.bodies;
	(void)arg;
#pragma omp parallel for
	for (int i = 0; i < NBODY_N; i++) {
		float ax = 0, ay = 0, az = 0;
		for (int j = 0; j < NBODY_N; j++) {
			float dx = p[4 * j] - p[4 * i], dy = p[4 * j + 1] - p[4 * i + 1];
			float dz = p[4 * j + 2] - p[4 * i + 2];
			float r2 = dx * dx + dy * dy + dz * dz + 1e-3f;
			float inv = 1.0f / sqrtf(r2);
			float s = p[4 * j + 3] * inv * inv * inv;
			ax += dx * s;
			ay += dy * s;
			az += dz * s;
		}
		acc[3 * i] = ax;
		acc[3 * i + 1] = ay;
		acc[3 * i + 2] = az;
	}
}
static double nbody_sum(void *arg) { (void)arg; return sum_floats(acc, 3 * NBODY_N); }

/* ---- sort: the same bitonic network ---- */
static unsigned *keys;
static void sort(void *arg)
{
	(void)arg;
	memcpy(keys, in.keys, SORT_N * sizeof *keys);
	for (int k = 2; k <= SORT_N; k <<= 1)
		for (int j = k >> 1; j > 0; j >>= 1) {
#pragma omp parallel for
			for (int i = 0; i < SORT_N; i++) {
				int partner = i ^ j;
				if (partner <= i)
					continue;
				unsigned a = keys[i], b = keys[partner];
				if ((a > b) == ((i & k) == 0)) {
					keys[i] = b;
					keys[partner] = a;
				}
			}
		}
}
static double sort_sum(void *arg)
{
	double s = 0;
	(void)arg;
	for (int i = 0; i < SORT_N; i++)
		s += (double)keys[i] * (i % 7);
	return s;
}

/* ---- shuffle: a sum per 32 elements, as a warp's tree adds them ---- */
static float *sums;
static void shuffle(void *arg)
{
	(void)arg;
#pragma omp parallel for
	for (int w = 0; w < SHUFFLE_N / 32; w++) {
		float v[32];
		for (int l = 0; l < 32; l++)
			v[l] = in.x[w * 32 + l];
		for (int offset = 16; offset > 0; offset >>= 1)
			for (int l = 0; l < offset; l++)
				v[l] += v[l + offset];
		sums[w] = v[0];
	}
}
static double shuffle_sum(void *arg) { (void)arg; return sum_floats(sums, SHUFFLE_N / 32); }

/* ---- transpose, in 32x32 tiles ---- */
static float *transposed;
static void transpose(void *arg)
{
	const int n = TRANSPOSE_N;
	(void)arg;
#pragma omp parallel for
	for (int by = 0; by < n; by += 32)
		for (int bx = 0; bx < n; bx += 32)
			for (int y = by; y < by + 32; y++)
				for (int x = bx; x < bx + 32; x++)
					transposed[x * n + y] = in.x[y * n + x];
}
static double transpose_sum(void *arg)
{
	double s = 0;
	(void)arg;
	for (size_t i = 0; i < (size_t)TRANSPOSE_N * TRANSPOSE_N; i++)
		s += (double)transposed[i] * (i % 5);
	return s;
}

/* ---- mandelbrot ---- */
static int *iterations;
static void mandelbrot(void *arg)
{
	const int n = MANDELBROT_N;
	(void)arg;
#pragma omp parallel for schedule(dynamic, 8)
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++)
			iterations[y * n + x] = mandelbrot_point(x, y, n, MANDELBROT_LIMIT);
}
static double mandelbrot_sum(void *arg)
{
	double s = 0;
	(void)arg;
	for (int i = 0; i < MANDELBROT_N * MANDELBROT_N; i++)
		s += iterations[i];
	return s;
}

/* ---- Black-Scholes ---- */
static float *call;
static void black_scholes(void *arg)
{
	(void)arg;
#pragma omp parallel for
	for (int i = 0; i < OPTIONS_N; i++)
		call[i] = black_scholes_call(in.spot[i], in.strike[i], in.years[i]);
}
static double black_scholes_sum(void *arg) { (void)arg; return sum_floats(call, OPTIONS_N); }

int main(void)
{
	make_inputs(&in);
	saxpy_y = copy_floats(in.y, SAXPY_N);
	stencil_a = copy_floats(in.grid, STENCIL_N * STENCIL_N);
	stencil_b = copy_floats(in.grid, STENCIL_N * STENCIL_N);
	gemm_c = copy_floats(NULL, GEMM_N * GEMM_N);
	partial = copy_floats(NULL, REDUCE_N / 512);
	scanned = malloc(SCAN_N * sizeof *scanned);
	acc = copy_floats(NULL, 3 * NBODY_N);
	keys = malloc(SORT_N * sizeof *keys);
	sums = copy_floats(NULL, SHUFFLE_N / 32);
	transposed = copy_floats(NULL, TRANSPOSE_N * TRANSPOSE_N);
	iterations = malloc(MANDELBROT_N * MANDELBROT_N * sizeof *iterations);
	call = copy_floats(NULL, OPTIONS_N);
	if (!scanned || !keys || !iterations)
		abort();
	measure("saxpy", saxpy, NULL, saxpy_sum);
	measure("stencil", stencil, NULL, stencil_sum);
	measure("gemm", gemm, NULL, gemm_sum);
	measure("reduction", reduction, NULL, reduction_sum);
	measure("scan", scan, NULL, scan_sum);
	measure("histogram", histogram, NULL, histogram_sum);
	measure("nbody", nbody, NULL, nbody_sum);
	measure("sort", sort, NULL, sort_sum);
	measure("shuffle", shuffle, NULL, shuffle_sum);
	measure("transpose", transpose, NULL, transpose_sum);
	measure("mandelbrot", mandelbrot, NULL, mandelbrot_sum);
	measure("blackscholes", black_scholes, NULL, black_scholes_sum);
	return 0;
}
