/* A stand-in for AMD's hipFFT, written from its documented API (hipfft.h of ROCm 6), for the
 * test of cuFFT's AMD engine where there is neither an AMD GPU nor ROCm: plans of rank 1
 * and 2 in cuFFT's advanced layout, executed on the host by direct DFTs in double precision
 * between copies through the process's HIP runtime (ZLUDA_CONVERT_HIP_PATH: the
 * emulator's). Plans of rank 3 are refused with HIPFFT_NOT_IMPLEMENTED, as a library may
 * refuse a plan, so that the test sees cuFFT fall back to the project's kernels. Every
 * plan made and every execution are appended to the file ZC_HIPFFT_STANDIN_LOG names. */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standin_hip.h"

typedef double complex cplx;

static const double PI = 3.14159265358979323846;

enum { SUCCESS = 0, INVALID_PLAN = 1, ALLOC_FAILED = 2, INVALID_TYPE = 3, INVALID_VALUE = 4,
       EXEC_FAILED = 6, INVALID_SIZE = 8, NOT_IMPLEMENTED = 14 };
enum { R2C = 0x2a, C2R = 0x2c, C2C = 0x29, D2Z = 0x6a, Z2D = 0x6c, Z2Z = 0x69 };

struct plan {
	int made, rank, type;
	long long n[3], embed[2][3], stride[2], dist[2], batch;
	void *stream;
};
typedef struct plan *plan;

#define EXPORT __attribute__((visibility("default")))

static void log_line(const char *fmt, int a, long long b)
{
	const char *path = getenv("ZC_HIPFFT_STANDIN_LOG");
	FILE *f;

	if (path && (f = fopen(path, "a"))) {
		fprintf(f, fmt, a, b);
		fputc('\n', f);
		fclose(f);
	}
}

static int is_double(int t) { return t == Z2Z || t == D2Z || t == Z2D; }
static int complex_in(int t) { return t != R2C && t != D2Z; }
static int complex_out(int t) { return t != C2R && t != Z2D; }

EXPORT int hipfftCreate(plan *out)
{
	if (!out)
		return INVALID_VALUE;
	*out = calloc(1, sizeof(struct plan));
	return *out ? SUCCESS : ALLOC_FAILED;
}

EXPORT int hipfftDestroy(plan p)
{
	free(p);
	return p ? SUCCESS : INVALID_PLAN;
}

EXPORT int hipfftSetAutoAllocation(plan p, int automatic)
{
	return p ? SUCCESS : INVALID_PLAN;
}

EXPORT int hipfftSetStream(plan p, void *stream)
{
	if (!p)
		return INVALID_PLAN;
	p->stream = stream;
	return SUCCESS;
}

EXPORT int hipfftSetWorkArea(plan p, void *area)
{
	return p ? SUCCESS : INVALID_PLAN;
}

EXPORT int hipfftGetSize(plan p, size_t *size)
{
	if (!p || !size)
		return !p ? INVALID_PLAN : INVALID_VALUE;
	*size = 0;
	return SUCCESS;
}

/* Its plans need no work area; rank 3 is refused, as its plans are. */
EXPORT int hipfftGetSizeMany64(plan p, int rank, long long *n, long long *inembed,
                               long long istride, long long idist, long long *onembed,
                               long long ostride, long long odist, int type, long long batch,
                               size_t *work_size)
{
	if (!p || !work_size)
		return !p ? INVALID_PLAN : INVALID_VALUE;
	*work_size = 0;
	return rank == 3 ? NOT_IMPLEMENTED : SUCCESS;
}

/* One side's layout: the program's, or the basic one, whose last dimension holds n/2+1
 * elements on a real transform's complex side. */
static void layout(plan p, int side, const long long *embed, long long stride, long long dist,
                   int half)
{
	int last = p->rank - 1;

	p->dist[side] = 1;
	for (int d = 0; d < p->rank; d++) {
		p->embed[side][d] = embed ? embed[d] : p->n[d];
		if (!embed && half && d == last)
			p->embed[side][d] = p->n[d] / 2 + 1;
		p->dist[side] *= p->embed[side][d];
	}
	p->stride[side] = embed ? stride : 1;
	if (embed)
		p->dist[side] = dist;
}

EXPORT int hipfftMakePlanMany64(plan p, int rank, long long *n, long long *inembed,
                                long long istride, long long idist, long long *onembed,
                                long long ostride, long long odist, int type, long long batch,
                                size_t *work_size)
{
	if (!p)
		return INVALID_PLAN;
	if (rank == 3) {
		log_line("refused rank %d (batch %lld)", rank, batch);
		return NOT_IMPLEMENTED;
	}
	if (rank < 1 || rank > 3 || batch < 1 || !n)
		return INVALID_SIZE;
	if (type != R2C && type != C2R && type != C2C && type != D2Z && type != Z2D && type != Z2Z)
		return INVALID_TYPE;
	p->rank = rank;
	p->type = type;
	p->batch = batch;
	for (int d = 0; d < rank; d++) {
		if (n[d] < 1)
			return INVALID_SIZE;
		p->n[d] = n[d];
	}
	layout(p, 0, inembed, istride, idist, !complex_out(type));
	layout(p, 1, onembed, ostride, odist, !complex_in(type));
	p->made = 1;
	if (work_size)
		*work_size = 0;
	log_line("plan rank %d batch %lld", rank, batch);
	return SUCCESS;
}

/* The offset, in elements, of batch B's element at multi-index I on one side, whose last
 * dimension holds LAST elements. */
static long long offset(plan p, int side, long long b, const long long *i)
{
	long long o = 0;

	for (int d = 0; d < p->rank; d++)
		o = o * (d ? p->embed[side][d] : 1) + i[d];
	return b * p->dist[side] + o * p->stride[side];
}

/* The elements one side spans. */
static long long span(plan p, int side, long long last)
{
	long long top[3];

	for (int d = 0; d < p->rank; d++)
		top[d] = d == p->rank - 1 ? last - 1 : p->n[d] - 1;
	return offset(p, side, p->batch - 1, top) + 1;
}

static cplx get(const void *data, int cplx_, int dbl, long long k)
{
	if (cplx_)
		return dbl ? CMPLX(((const double *)data)[2 * k], ((const double *)data)[2 * k + 1])
		           : CMPLX(((const float *)data)[2 * k], ((const float *)data)[2 * k + 1]);
	return dbl ? ((const double *)data)[k] : ((const float *)data)[k];
}

static void put(void *data, int cplx_, int dbl, long long k, cplx v)
{
	if (cplx_ && dbl) {
		((double *)data)[2 * k] = creal(v);
		((double *)data)[2 * k + 1] = cimag(v);
	} else if (cplx_) {
		((float *)data)[2 * k] = (float)creal(v);
		((float *)data)[2 * k + 1] = (float)cimag(v);
	} else if (dbl) {
		((double *)data)[k] = creal(v);
	} else {
		((float *)data)[k] = (float)creal(v);
	}
}

/* The multi-index of element E of an array of the plan's dims (row-major). */
static void unflatten(plan p, long long e, long long *i)
{
	for (int d = p->rank - 1; d >= 0; d--) {
		i[d] = e % p->n[d];
		e /= p->n[d];
	}
}

static int execute(plan p, int type, const void *in, void *out, int sign)
{
	int dbl = is_double(type), cin = complex_in(type), cout = complex_out(type);
	size_t real = dbl ? 8 : 4, in_size = cin ? 2 * real : real, out_size = cout ? 2 * real : real;
	long long total = 1, last, half, in_span, out_span;
	cplx *x, *y;
	void *hin, *hout;
	int ok;

	if (!p || !p->made)
		return INVALID_PLAN;
	if (p->type != type)
		return INVALID_TYPE;
	if (!hip_loaded())
		return EXEC_FAILED;
	last = p->n[p->rank - 1];
	half = last / 2 + 1;
	log_line("exec rank %d type %#llx", p->rank, (long long)type);
	for (int d = 0; d < p->rank; d++)
		total *= p->n[d];
	in_span = span(p, 0, cin && !cout ? half : last);
	out_span = span(p, 1, cout && !cin ? half : last);
	x = malloc(total * sizeof(cplx));
	y = malloc(total * sizeof(cplx));
	hin = malloc(in_span * in_size);
	hout = malloc(out_span * out_size);
	ok = x && y && hin && hout && !copy(hin, in, in_span * in_size, TO_HOST, p->stream) &&
	     !copy(hout, out, out_span * out_size, TO_HOST, p->stream);
	for (long long b = 0; ok && b < p->batch; b++) {
		long long i[3], k[3], mirror[3];
		for (long long e = 0; e < total; e++) {
			unflatten(p, e, i);
			if (cin && !cout && i[p->rank - 1] >= half) {
				/* C2R: the rest of the spectrum by Hermitian symmetry. */
				for (int d = 0; d < p->rank; d++)
					mirror[d] = (p->n[d] - i[d]) % p->n[d];
				x[e] = conj(get(hin, 1, dbl, offset(p, 0, b, mirror)));
			} else {
				x[e] = get(hin, cin, dbl, offset(p, 0, b, i));
			}
		}
		for (long long e = 0; e < total; e++) {
			cplx sum = 0;
			unflatten(p, e, k);
			for (long long f = 0; f < total; f++) {
				double phase = 0;
				unflatten(p, f, i);
				for (int d = 0; d < p->rank; d++)
					phase += (double)(i[d] * k[d] % p->n[d]) / p->n[d];
				sum += x[f] * cexp(CMPLX(0.0, sign * 2 * PI * phase));
			}
			y[e] = sum;
		}
		for (long long e = 0; e < total; e++) {
			unflatten(p, e, k);
			if (cout && !cin && k[p->rank - 1] >= half)
				continue;
			put(hout, cout, dbl, offset(p, 1, b, k), y[e]);
		}
	}
	ok = ok && !copy(out, hout, out_span * out_size, TO_DEVICE, p->stream);
	free(x);
	free(y);
	free(hin);
	free(hout);
	return ok ? SUCCESS : EXEC_FAILED;
}

EXPORT int hipfftExecC2C(plan p, const void *in, void *out, int direction)
{
	return execute(p, C2C, in, out, direction);
}

EXPORT int hipfftExecZ2Z(plan p, const void *in, void *out, int direction)
{
	return execute(p, Z2Z, in, out, direction);
}

EXPORT int hipfftExecR2C(plan p, const void *in, void *out)
{
	return execute(p, R2C, in, out, -1);
}

EXPORT int hipfftExecD2Z(plan p, const void *in, void *out)
{
	return execute(p, D2Z, in, out, -1);
}

EXPORT int hipfftExecC2R(plan p, const void *in, void *out)
{
	return execute(p, C2R, in, out, 1);
}

EXPORT int hipfftExecZ2D(plan p, const void *in, void *out)
{
	return execute(p, Z2D, in, out, 1);
}
