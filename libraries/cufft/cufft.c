/* cuFFT over the driver API: plans of rank 1 to 3, every transform type, batches and
 * cuFFT's advanced layouts, each axis by mixed-radix Stockham passes (every prime factor up
 * to 64 a radix of its own) or, for a larger prime factor, Bluestein's algorithm through a
 * power-of-two convolution. The kernels are fft_kernels.cu; the data goes through a work
 * array in row-major order, one axis at a time. NVIDIA's converted cuFFT, where it was
 * placed beside this library, and AMD's hipFFT under the HIP driver, make the plans they can
 * instead (delegates.h). */
#include "replacement_rename.h"

#include <cuda.h>
#include <cufft.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fft_args.h"
#include "delegates.h"

enum { MAX_RADICES = 64, RADIX_LIMIT = 64, THREADS = 256 };

/* How one axis is transformed: its radices, or Bluestein's convolution of length m with
 * the transform of the chirp for each direction. */
struct axis {
	int64_t n, m;
	int nradices, nconvolution;
	int radices[MAX_RADICES], convolution[MAX_RADICES];
	CUdeviceptr chirp[2]; /* [0] forward, [1] inverse */
};

struct plan {
	bool made;
	int rank;
	cufftType type;
	int64_t n[3], batch, total;
	int64_t embed[2][3], stride[2], dist[2]; /* [0] input, [1] output */
	struct axis axes[3];
	CUcontext context;
	CUmodule module;
	CUstream stream;
	CUdeviceptr work, lines[2], convolution[2];
	const struct fft_delegate *delegate; /* the library that made the plan instead */
	void *delegated;                     /* and its plan */
	bool no_auto_allocation; /* cufftSetAutoAllocation(0): the program gives the work area */
};

static struct {
	pthread_mutex_t lock;
	struct plan **plans;
	int count;
} table = {PTHREAD_MUTEX_INITIALIZER, NULL, 0};

static cufftResult fail(cufftResult r, const char *routine, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static cufftResult fail(cufftResult r, const char *routine, const char *fmt, ...)
{
	static const char *const names[] = {
		"CUFFT_SUCCESS", "CUFFT_INVALID_PLAN", "CUFFT_ALLOC_FAILED", "CUFFT_INVALID_TYPE",
		"CUFFT_INVALID_VALUE", "CUFFT_INTERNAL_ERROR", "CUFFT_EXEC_FAILED",
		"CUFFT_SETUP_FAILED", "CUFFT_INVALID_SIZE"};
	if (zc_engine_tracing()) {
		va_list ap;
		va_start(ap, fmt);
		zc_engine_vtrace(routine, fmt, ap,
		                 (unsigned)r < sizeof(names) / sizeof(names[0]) ? names[r] : "CUFFT_ERROR");
		va_end(ap);
	}
	return r;
}

static struct plan *plan_of(cufftHandle h)
{
	struct plan *p = NULL;

	pthread_mutex_lock(&table.lock);
	if (h >= 0 && h < table.count)
		p = table.plans[h];
	pthread_mutex_unlock(&table.lock);
	return p;
}

static bool complex_in(cufftType t) { return t != CUFFT_R2C && t != CUFFT_D2Z; }
static bool complex_out(cufftType t) { return t != CUFFT_C2R && t != CUFFT_Z2D; }
static bool double_precision(cufftType t) { return t == CUFFT_Z2Z || t == CUFFT_D2Z || t == CUFFT_Z2D; }
static size_t complex_size(const struct plan *p) { return double_precision(p->type) ? 16 : 8; }

static cufftResult launch(const struct plan *p, const char *name, int64_t threads, const void *args)
{
	char kernel[48];
	int64_t blocks = (threads + THREADS - 1) / THREADS;
	CUresult r;

	if (threads == 0)
		return CUFFT_SUCCESS;
	snprintf(kernel, sizeof(kernel), "zc_fft_%s_%s", name, double_precision(p->type) ? "z" : "c");
	if (blocks > 0x7fffffff)
		return fail(CUFFT_INVALID_SIZE, kernel, "%lld threads", (long long)threads);
	if ((r = zc_kernels_launch(p->module, kernel, (unsigned)blocks, 1, 1, THREADS, p->stream,
	                           args)) != CUDA_SUCCESS)
		return fail(CUFFT_EXEC_FAILED, kernel, "launch failed (error %d)", r);
	return CUFFT_SUCCESS;
}

/* N's prime factors up to RADIX_LIMIT, fours kept together (fewer passes); false when a
 * larger prime factor is left. */
static bool factor(int64_t n, int *radices, int *count)
{
	*count = 0;
	while (n % 4 == 0 && *count < MAX_RADICES) {
		radices[(*count)++] = 4;
		n /= 4;
	}
	for (int64_t f = 2; f <= RADIX_LIMIT && n > 1 && *count < MAX_RADICES; f++)
		while (n % f == 0 && *count < MAX_RADICES) {
			radices[(*count)++] = (int)f;
			n /= f;
		}
	return n == 1;
}

/* Stockham passes over LINES transforms in BUFFER (with OTHER for ping-pong); the result
 * ends in *result, one of the two. */
static cufftResult passes(const struct plan *p, int64_t n, int64_t lines, const int *radices,
                          int count, int sign, CUdeviceptr buffer, CUdeviceptr other,
                          CUdeviceptr *result)
{
	struct zc_fft_pass_args a = {n, lines, 0, 1, sign, NULL, NULL};
	CUdeviceptr from = buffer, to = other;
	cufftResult r;

	for (int i = 0; i < count; i++) {
		a.radix = radices[i];
		a.in = (const void *)(uintptr_t)from;
		a.out = (void *)(uintptr_t)to;
		if ((r = launch(p, "pass", n / a.radix * lines, &a)) != CUFFT_SUCCESS)
			return r;
		a.ns *= a.radix;
		CUdeviceptr t = from;
		from = to;
		to = t;
	}
	*result = from;
	return CUFFT_SUCCESS;
}

/* Bluestein's steps over LINES transforms of length n in X (result there too). */
static cufftResult bluestein(const struct plan *p, const struct axis *ax, int64_t lines, int sign,
                             CUdeviceptr x)
{
	struct zc_fft_bluestein_args a = {ax->n, ax->m, lines, sign, 0, NULL, NULL, NULL};
	CUdeviceptr c = p->convolution[0], d = p->convolution[1], r;
	cufftResult s;

	a.in = (const void *)(uintptr_t)x;
	a.out = (void *)(uintptr_t)c;
	if ((s = launch(p, "bluestein", lines * ax->m, &a)) ||
	    (s = passes(p, ax->m, lines, ax->convolution, ax->nconvolution, -1, c, d, &r)))
		return s;
	a.step = 1;
	a.in = (const void *)(uintptr_t)r;
	a.out = (void *)(uintptr_t)(r == c ? d : c);
	a.chirp_transform = (const void *)(uintptr_t)ax->chirp[sign > 0];
	if ((s = launch(p, "bluestein", lines * ax->m, &a)) ||
	    (s = passes(p, ax->m, lines, ax->convolution, ax->nconvolution, 1, r == c ? d : c, r, &r)))
		return s;
	a.step = 2;
	a.in = (const void *)(uintptr_t)r;
	a.out = (void *)(uintptr_t)x;
	return launch(p, "bluestein", lines * ax->m, &a);
}

/* One axis of the work array, all its lines. */
static cufftResult transform_axis(const struct plan *p, int d, int sign)
{
	const struct axis *ax = &p->axes[d];
	int64_t s = 1;
	cufftResult r;
	CUdeviceptr result;

	for (int e = d + 1; e < p->rank; e++)
		s *= p->n[e];
	struct zc_fft_lines_args l = {ax->n, s, p->total / (ax->n * s), p->batch, p->total,
	                              (const void *)(uintptr_t)p->work,
	                              (void *)(uintptr_t)p->lines[0], 0};
	int64_t lines = p->batch * p->total / ax->n;

	if ((r = launch(p, "lines", lines * ax->n, &l)) != CUFFT_SUCCESS)
		return r;
	if (ax->m)
		r = bluestein(p, ax, lines, sign, p->lines[0]), result = p->lines[0];
	else
		r = passes(p, ax->n, lines, ax->radices, ax->nradices, sign, p->lines[0], p->lines[1],
		           &result);
	if (r != CUFFT_SUCCESS)
		return r;
	l.in = (const void *)(uintptr_t)result;
	l.out = (void *)(uintptr_t)p->work;
	l.scatter = 1;
	return launch(p, "lines", lines * ax->n, &l);
}

static cufftResult move_data(const struct plan *p, int side, int mode, const void *user)
{
	struct zc_fft_layout_args a;

	memset(&a, 0, sizeof(a));
	a.rank = p->rank;
	a.mode = mode;
	memcpy(a.n, p->n, sizeof(a.n));
	memcpy(a.embed, p->embed[side], sizeof(a.embed));
	a.stride = p->stride[side];
	a.dist = p->dist[side];
	a.batch = p->batch;
	a.total = p->total;
	a.user = user;
	a.work = (void *)(uintptr_t)p->work;
	return launch(p, "layout", p->batch * p->total, &a);
}

static cufftResult execute(cufftHandle h, const char *routine, const void *in, void *out,
                           int direction, cufftType expected)
{
	struct plan *p = plan_of(h);
	int sign = direction == CUFFT_INVERSE ? 1 : -1;
	int load = complex_in(expected) ? (complex_out(expected) ? ZC_FFT_LOAD_COMPLEX : ZC_FFT_LOAD_HALF)
	                                : ZC_FFT_LOAD_REAL;
	int store = complex_out(expected) ? (complex_in(expected) ? ZC_FFT_STORE_COMPLEX : ZC_FFT_STORE_HALF)
	                                  : ZC_FFT_STORE_REAL;
	cufftResult r;

	if (!p || !p->made)
		return fail(CUFFT_INVALID_PLAN, routine, "plan %d", h);
	if (p->type != expected)
		return fail(CUFFT_INVALID_TYPE, routine, "a plan of type %#x", p->type);
	if (!in || !out)
		return fail(CUFFT_INVALID_VALUE, routine, "NULL data");
	if (expected == CUFFT_C2C || expected == CUFFT_Z2Z) {
		if (direction != CUFFT_FORWARD && direction != CUFFT_INVERSE)
			return fail(CUFFT_INVALID_VALUE, routine, "direction %d", direction);
	} else {
		sign = complex_in(expected) ? 1 : -1;
	}
	if (p->delegate)
		return p->delegate->exec(p->delegated, p->stream, routine, expected, in, out,
		                         direction);
	if ((r = move_data(p, 0, load, in)) != CUFFT_SUCCESS)
		return r;
	for (int d = p->rank - 1; d >= 0; d--)
		if ((r = transform_axis(p, d, sign)) != CUFFT_SUCCESS)
			return r;
	return move_data(p, 1, store, out);
}

cufftResult cufftExecC2C(cufftHandle h, cufftComplex *in, cufftComplex *out, int direction)
{
	return execute(h, "cufftExecC2C", in, out, direction, CUFFT_C2C);
}

cufftResult cufftExecZ2Z(cufftHandle h, cufftDoubleComplex *in, cufftDoubleComplex *out,
                         int direction)
{
	return execute(h, "cufftExecZ2Z", in, out, direction, CUFFT_Z2Z);
}

cufftResult cufftExecR2C(cufftHandle h, cufftReal *in, cufftComplex *out)
{
	return execute(h, "cufftExecR2C", in, out, CUFFT_FORWARD, CUFFT_R2C);
}

cufftResult cufftExecD2Z(cufftHandle h, cufftDoubleReal *in, cufftDoubleComplex *out)
{
	return execute(h, "cufftExecD2Z", in, out, CUFFT_FORWARD, CUFFT_D2Z);
}

cufftResult cufftExecC2R(cufftHandle h, cufftComplex *in, cufftReal *out)
{
	return execute(h, "cufftExecC2R", in, out, CUFFT_INVERSE, CUFFT_C2R);
}

cufftResult cufftExecZ2D(cufftHandle h, cufftDoubleComplex *in, cufftDoubleReal *out)
{
	return execute(h, "cufftExecZ2D", in, out, CUFFT_INVERSE, CUFFT_Z2D);
}

/* The chirp's transform for each direction (Bluestein's B), made once with the plan. */
static cufftResult prepare_chirp(struct plan *p, struct axis *ax)
{
	for (int i = 0; i < 2; i++) {
		struct zc_fft_bluestein_args a = {ax->n, ax->m, 1, i ? 1 : -1, 0, NULL, NULL, NULL};
		CUdeviceptr result;
		cufftResult r;

		if (cuMemAlloc(&ax->chirp[i], (size_t)ax->m * complex_size(p)) != CUDA_SUCCESS)
			return fail(CUFFT_ALLOC_FAILED, "cufftMakePlan", "chirp of %lld", (long long)ax->m);
		a.out = (void *)(uintptr_t)p->convolution[0];
		if ((r = launch(p, "chirp", ax->m, &a)) ||
		    (r = passes(p, ax->m, 1, ax->convolution, ax->nconvolution, -1, p->convolution[0],
		                p->convolution[1], &result)))
			return r;
		if (cuMemcpyDtoDAsync(ax->chirp[i], result, (size_t)ax->m * complex_size(p), p->stream) !=
		    CUDA_SUCCESS)
			return fail(CUFFT_SETUP_FAILED, "cufftMakePlan", "copying the chirp");
	}
	return CUFFT_SUCCESS;
}

static void release(struct plan *p)
{
	CUdeviceptr *buffers[] = {&p->work, &p->lines[0], &p->lines[1], &p->convolution[0],
	                          &p->convolution[1], &p->axes[0].chirp[0], &p->axes[0].chirp[1],
	                          &p->axes[1].chirp[0], &p->axes[1].chirp[1], &p->axes[2].chirp[0],
	                          &p->axes[2].chirp[1]};
	if (p->made)
		cuStreamSynchronize(p->stream);
	if (p->delegate)
		p->delegate->destroy(p->delegated), p->delegate = NULL;
	for (size_t i = 0; i < sizeof(buffers) / sizeof(buffers[0]); i++)
		if (*buffers[i])
			cuMemFree(*buffers[i]), *buffers[i] = 0;
	if (p->module)
		cuModuleUnload(p->module), p->module = NULL;
	p->made = false;
}

/* The layout of one side: the program's (embed non-NULL, as cufftPlanMany takes it) or the
 * basic one, whose last dimension holds n/2+1 complex elements on a real transform's
 * complex side. */
static void set_layout(struct plan *p, int side, const long long *embed, long long stride,
                       long long dist, bool half)
{
	int last = p->rank - 1;

	for (int d = 0; d < p->rank; d++)
		p->embed[side][d] = embed ? embed[d] : p->n[d];
	if (!embed && half)
		p->embed[side][last] = p->n[last] / 2 + 1;
	p->stride[side] = embed ? stride : 1;
	if (embed) {
		p->dist[side] = dist;
	} else {
		p->dist[side] = 1;
		for (int d = 0; d < p->rank; d++)
			p->dist[side] *= p->embed[side][d];
	}
}

/* Who is offered a plan before the project's kernels, in order: NVIDIA's own code where it
 * runs, then AMD's library. */
static const struct fft_delegate *const delegates[] = {&fft_nvidia_converted, &fft_hipfft};

/* A plan's sizes and embeds as the delegates take them: writable, as cuFFT's and hipFFT's
 * prototypes have them. */
static void writable_copies(int rank, const long long *n, const long long *inembed,
                            const long long *onembed, long long dims[3], long long in[3],
                            long long on[3])
{
	memcpy(dims, n, rank * sizeof(long long));
	if (inembed) {
		memcpy(in, inembed, rank * sizeof(long long));
		memcpy(on, onembed, rank * sizeof(long long));
	}
}

static cufftResult make_plan(cufftHandle h, const char *routine, int rank, const long long *n,
                             const long long *inembed, long long istride, long long idist,
                             const long long *onembed, long long ostride, long long odist,
                             cufftType type, long long batch, size_t *work_size)
{
	struct plan *p = plan_of(h);
	long long dims[3], in[3], on[3]; /* writable, for the delegates */
	int64_t biggest_lines = 0, biggest_m = 0;
	CUresult c;
	cufftResult r;

	if (!p)
		return fail(CUFFT_INVALID_PLAN, routine, "plan %d", h);
	if (rank < 1 || rank > 3 || batch < 1)
		return fail(CUFFT_INVALID_SIZE, routine, "rank %d, batch %lld", rank, batch);
	if (type != CUFFT_C2C && type != CUFFT_Z2Z && type != CUFFT_R2C && type != CUFFT_D2Z &&
	    type != CUFFT_C2R && type != CUFFT_Z2D)
		return fail(CUFFT_INVALID_TYPE, routine, "type %#x", type);
	release(p);
	p->rank = rank;
	p->type = type;
	p->batch = batch;
	p->total = 1;
	for (int d = 0; d < rank; d++) {
		if (n[d] < 1)
			return fail(CUFFT_INVALID_SIZE, routine, "n[%d] = %lld", d, n[d]);
		p->n[d] = n[d];
		p->total *= n[d];
	}
	writable_copies(rank, n, inembed, onembed, dims, in, on);
	for (size_t i = 0; i < sizeof delegates / sizeof delegates[0]; i++)
		if ((p->delegated = delegates[i]->plan(routine, rank, dims, inembed ? in : NULL,
		                                       istride, idist, onembed ? on : NULL, ostride,
		                                       odist, type, batch, !p->no_auto_allocation,
		                                       work_size))) {
			p->delegate = delegates[i];
			p->made = true;
			return CUFFT_SUCCESS;
		}
	set_layout(p, 0, inembed, istride, idist, !complex_out(type));
	set_layout(p, 1, onembed, ostride, odist, !complex_in(type));
	for (int d = 0; d < rank; d++) {
		struct axis *ax = &p->axes[d];
		memset(ax, 0, sizeof(*ax));
		ax->n = p->n[d];
		if (!factor(ax->n, ax->radices, &ax->nradices)) {
			for (ax->m = 1; ax->m < 2 * ax->n - 1; ax->m *= 2)
				;
			factor(ax->m, ax->convolution, &ax->nconvolution);
			int64_t lines = p->batch * p->total / ax->n;
			biggest_lines = lines > biggest_lines ? lines : biggest_lines;
			biggest_m = ax->m > biggest_m ? ax->m : biggest_m;
		}
	}
	if ((c = zc_kernels_load(&p->context, &p->module)) != CUDA_SUCCESS)
		return fail(CUFFT_SETUP_FAILED, routine, "no context, or its kernels did not load "
		            "(error %d): was it converted?", c);
	size_t elements = (size_t)(p->batch * p->total), size = complex_size(p);
	size_t convolution = (size_t)(biggest_lines > 1 ? biggest_lines : 1) * (size_t)biggest_m;
	if (cuMemAlloc(&p->work, elements * size) != CUDA_SUCCESS ||
	    cuMemAlloc(&p->lines[0], elements * size) != CUDA_SUCCESS ||
	    cuMemAlloc(&p->lines[1], elements * size) != CUDA_SUCCESS ||
	    (biggest_m && (cuMemAlloc(&p->convolution[0], convolution * size) != CUDA_SUCCESS ||
	                   cuMemAlloc(&p->convolution[1], convolution * size) != CUDA_SUCCESS))) {
		release(p);
		return fail(CUFFT_ALLOC_FAILED, routine, "work memory");
	}
	for (int d = 0; d < rank; d++)
		if (p->axes[d].m && (r = prepare_chirp(p, &p->axes[d])) != CUFFT_SUCCESS) {
			release(p);
			return r;
		}
	p->made = true;
	/* The plan owns its work memory: the program's work area is not needed. */
	if (work_size)
		*work_size = 0;
	return CUFFT_SUCCESS;
}

cufftResult cufftCreate(cufftHandle *handle)
{
	struct plan *p;

	if (!handle)
		return fail(CUFFT_INVALID_VALUE, "cufftCreate", "NULL handle pointer");
	if (!(p = calloc(1, sizeof(*p))))
		return fail(CUFFT_ALLOC_FAILED, "cufftCreate", "out of memory");
	pthread_mutex_lock(&table.lock);
	struct plan **grown = realloc(table.plans, (size_t)(table.count + 1) * sizeof(*grown));
	if (!grown) {
		pthread_mutex_unlock(&table.lock);
		free(p);
		return fail(CUFFT_ALLOC_FAILED, "cufftCreate", "out of memory");
	}
	table.plans = grown;
	table.plans[table.count] = p;
	*handle = table.count++;
	pthread_mutex_unlock(&table.lock);
	return CUFFT_SUCCESS;
}

cufftResult cufftDestroy(cufftHandle h)
{
	struct plan *p;

	pthread_mutex_lock(&table.lock);
	p = h >= 0 && h < table.count ? table.plans[h] : NULL;
	if (p)
		table.plans[h] = NULL;
	pthread_mutex_unlock(&table.lock);
	if (!p)
		return fail(CUFFT_INVALID_PLAN, "cufftDestroy", "plan %d", h);
	release(p);
	free(p);
	return CUFFT_SUCCESS;
}

/* cufftPlanMany's int arrays as the 64-bit ones make_plan takes (the embeds left alone when
 * NULL); CUFFT_INVALID_VALUE for a rank outside 1 to 3, no n or one embed NULL. */
static cufftResult widen(const char *routine, int rank, const int *n, const int *inembed,
                         const int *onembed, long long n64[3], long long in64[3],
                         long long on64[3])
{
	if (!n || rank < 1 || rank > 3 || (!inembed) != (!onembed))
		return fail(CUFFT_INVALID_VALUE, routine, "rank %d, n or one embed NULL", rank);
	for (int d = 0; d < rank; d++) {
		n64[d] = n[d];
		if (inembed) {
			in64[d] = inembed[d];
			on64[d] = onembed[d];
		}
	}
	return CUFFT_SUCCESS;
}

cufftResult cufftMakePlanMany64(cufftHandle h, int rank, long long *n, long long *inembed,
                                long long istride, long long idist, long long *onembed,
                                long long ostride, long long odist, cufftType type,
                                long long batch, size_t *work_size)
{
	if (!n || (!inembed) != (!onembed))
		return fail(CUFFT_INVALID_VALUE, "cufftMakePlanMany64", "n or one embed NULL");
	return make_plan(h, "cufftMakePlanMany64", rank, n, inembed, istride, idist, onembed, ostride,
	                 odist, type, batch, work_size);
}

cufftResult cufftMakePlanMany(cufftHandle h, int rank, int *n, int *inembed, int istride,
                              int idist, int *onembed, int ostride, int odist, cufftType type,
                              int batch, size_t *work_size)
{
	long long n64[3], in64[3], on64[3];
	cufftResult r = widen("cufftMakePlanMany", rank, n, inembed, onembed, n64, in64, on64);

	return r != CUFFT_SUCCESS ? r : make_plan(h, "cufftMakePlanMany", rank, n64,
	                                          inembed ? in64 : NULL, istride, idist,
	                                          onembed ? on64 : NULL, ostride, odist, type,
	                                          batch, work_size);
}

cufftResult cufftMakePlan1d(cufftHandle h, int nx, cufftType type, int batch, size_t *work_size)
{
	long long n[1] = {nx};
	return make_plan(h, "cufftMakePlan1d", 1, n, NULL, 1, 0, NULL, 1, 0, type, batch, work_size);
}

cufftResult cufftMakePlan2d(cufftHandle h, int nx, int ny, cufftType type, size_t *work_size)
{
	long long n[2] = {nx, ny};
	return make_plan(h, "cufftMakePlan2d", 2, n, NULL, 1, 0, NULL, 1, 0, type, 1, work_size);
}

cufftResult cufftMakePlan3d(cufftHandle h, int nx, int ny, int nz, cufftType type,
                            size_t *work_size)
{
	long long n[3] = {nx, ny, nz};
	return make_plan(h, "cufftMakePlan3d", 3, n, NULL, 1, 0, NULL, 1, 0, type, 1, work_size);
}

/* The one-call forms: a handle and its plan; no handle is left when the plan fails. */
static cufftResult created(cufftHandle *plan, cufftResult made)
{
	if (made != CUFFT_SUCCESS)
		cufftDestroy(*plan);
	return made;
}

cufftResult cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch)
{
	cufftResult r = cufftCreate(plan);
	return r != CUFFT_SUCCESS ? r : created(plan, cufftMakePlan1d(*plan, nx, type, batch, NULL));
}

cufftResult cufftPlan2d(cufftHandle *plan, int nx, int ny, cufftType type)
{
	cufftResult r = cufftCreate(plan);
	return r != CUFFT_SUCCESS ? r : created(plan, cufftMakePlan2d(*plan, nx, ny, type, NULL));
}

cufftResult cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz, cufftType type)
{
	cufftResult r = cufftCreate(plan);
	return r != CUFFT_SUCCESS ? r : created(plan, cufftMakePlan3d(*plan, nx, ny, nz, type, NULL));
}

cufftResult cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed, int istride,
                          int idist, int *onembed, int ostride, int odist, cufftType type,
                          int batch)
{
	cufftResult r = cufftCreate(plan);
	return r != CUFFT_SUCCESS ? r
	                          : created(plan, cufftMakePlanMany(*plan, rank, n, inembed, istride,
	                                                            idist, onembed, ostride, odist,
	                                                            type, batch, NULL));
}

/* The project's plans own their work memory and need no work area. A plan a delegate makes
 * may want one, and which engine makes a plan is known only once it is made: a size asked
 * before is the largest any delegate's plan for those arguments would want (a larger area
 * than the project's plan needs is harmless). */
static cufftResult size_before_plan(const char *routine, int rank, const long long *n,
                                    const long long *inembed, long long istride, long long idist,
                                    const long long *onembed, long long ostride, long long odist,
                                    cufftType type, long long batch, size_t *size)
{
	long long dims[3], in[3], on[3]; /* writable, for the delegates */

	if (!size)
		return fail(CUFFT_INVALID_VALUE, routine, "NULL size");
	if (rank < 1 || rank > 3 || batch < 1)
		return fail(CUFFT_INVALID_SIZE, routine, "rank %d, batch %lld", rank, batch);
	*size = 0;
	writable_copies(rank, n, inembed, onembed, dims, in, on);
	for (size_t i = 0; i < sizeof delegates / sizeof delegates[0]; i++) {
		size_t wanted = delegates[i]->work_size(routine, rank, dims, inembed ? in : NULL,
		                                        istride, idist, onembed ? on : NULL, ostride,
		                                        odist, type, batch);
		*size = wanted > *size ? wanted : *size;
	}
	return CUFFT_SUCCESS;
}

/* size_before_plan for cufftPlanMany's int arrays. */
static cufftResult size_before_plan_many(const char *routine, int rank, const int *n,
                                         const int *inembed, int istride, int idist,
                                         const int *onembed, int ostride, int odist,
                                         cufftType type, int batch, size_t *size)
{
	long long n64[3], in64[3], on64[3];
	cufftResult r = widen(routine, rank, n, inembed, onembed, n64, in64, on64);

	return r != CUFFT_SUCCESS ? r : size_before_plan(routine, rank, n64, inembed ? in64 : NULL,
	                                                 istride, idist, onembed ? on64 : NULL,
	                                                 ostride, odist, type, batch, size);
}

static cufftResult check_handle(cufftHandle h, const char *routine)
{
	return plan_of(h) ? CUFFT_SUCCESS : fail(CUFFT_INVALID_PLAN, routine, "plan %d", h);
}

cufftResult cufftGetSize(cufftHandle h, size_t *size)
{
	struct plan *p = plan_of(h);

	if (!p)
		return fail(CUFFT_INVALID_PLAN, "cufftGetSize", "plan %d", h);
	if (!size)
		return fail(CUFFT_INVALID_VALUE, "cufftGetSize", "NULL size");
	if (p->delegate)
		return p->delegate->size(p->delegated, size);
	*size = 0;
	return CUFFT_SUCCESS;
}

cufftResult cufftGetSize1d(cufftHandle h, int nx, cufftType type, int batch, size_t *size)
{
	long long n[1] = {nx};
	cufftResult r = check_handle(h, "cufftGetSize1d");
	return r != CUFFT_SUCCESS ? r : size_before_plan("cufftGetSize1d", 1, n, NULL, 1, 0, NULL,
	                                                 1, 0, type, batch, size);
}

cufftResult cufftGetSize2d(cufftHandle h, int nx, int ny, cufftType type, size_t *size)
{
	long long n[2] = {nx, ny};
	cufftResult r = check_handle(h, "cufftGetSize2d");
	return r != CUFFT_SUCCESS ? r : size_before_plan("cufftGetSize2d", 2, n, NULL, 1, 0, NULL,
	                                                 1, 0, type, 1, size);
}

cufftResult cufftGetSize3d(cufftHandle h, int nx, int ny, int nz, cufftType type, size_t *size)
{
	long long n[3] = {nx, ny, nz};
	cufftResult r = check_handle(h, "cufftGetSize3d");
	return r != CUFFT_SUCCESS ? r : size_before_plan("cufftGetSize3d", 3, n, NULL, 1, 0, NULL,
	                                                 1, 0, type, 1, size);
}

cufftResult cufftGetSizeMany(cufftHandle h, int rank, int *n, int *inembed, int istride,
                             int idist, int *onembed, int ostride, int odist, cufftType type,
                             int batch, size_t *size)
{
	cufftResult r = check_handle(h, "cufftGetSizeMany");
	return r != CUFFT_SUCCESS ? r : size_before_plan_many("cufftGetSizeMany", rank, n, inembed,
	                                                      istride, idist, onembed, ostride,
	                                                      odist, type, batch, size);
}

cufftResult cufftGetSizeMany64(cufftHandle h, int rank, long long *n, long long *inembed,
                               long long istride, long long idist, long long *onembed,
                               long long ostride, long long odist, cufftType type,
                               long long batch, size_t *size)
{
	cufftResult r = check_handle(h, "cufftGetSizeMany64");
	if (r == CUFFT_SUCCESS && (!n || (!inembed) != (!onembed)))
		r = fail(CUFFT_INVALID_VALUE, "cufftGetSizeMany64", "n or one embed NULL");
	return r != CUFFT_SUCCESS ? r : size_before_plan("cufftGetSizeMany64", rank, n, inembed,
	                                                 istride, idist, onembed, ostride, odist,
	                                                 type, batch, size);
}

cufftResult cufftEstimate1d(int nx, cufftType type, int batch, size_t *size)
{
	long long n[1] = {nx};
	return size_before_plan("cufftEstimate1d", 1, n, NULL, 1, 0, NULL, 1, 0, type, batch, size);
}

cufftResult cufftEstimate2d(int nx, int ny, cufftType type, size_t *size)
{
	long long n[2] = {nx, ny};
	return size_before_plan("cufftEstimate2d", 2, n, NULL, 1, 0, NULL, 1, 0, type, 1, size);
}

cufftResult cufftEstimate3d(int nx, int ny, int nz, cufftType type, size_t *size)
{
	long long n[3] = {nx, ny, nz};
	return size_before_plan("cufftEstimate3d", 3, n, NULL, 1, 0, NULL, 1, 0, type, 1, size);
}

cufftResult cufftEstimateMany(int rank, int *n, int *inembed, int istride, int idist,
                              int *onembed, int ostride, int odist, cufftType type, int batch,
                              size_t *size)
{
	return size_before_plan_many("cufftEstimateMany", rank, n, inembed, istride, idist, onembed,
	                             ostride, odist, type, batch, size);
}

cufftResult cufftSetWorkArea(cufftHandle h, void *area)
{
	struct plan *p = plan_of(h);

	if (!p)
		return fail(CUFFT_INVALID_PLAN, "cufftSetWorkArea", "plan %d", h);
	return p->delegate ? p->delegate->work_area(p->delegated, area) : CUFFT_SUCCESS;
}

/* Kept for the plan a delegate may make next; the project's own need no work area. */
cufftResult cufftSetAutoAllocation(cufftHandle h, int automatic)
{
	struct plan *p = plan_of(h);

	if (!p)
		return fail(CUFFT_INVALID_PLAN, "cufftSetAutoAllocation", "plan %d", h);
	p->no_auto_allocation = !automatic;
	return CUFFT_SUCCESS;
}

cufftResult cufftSetStream(cufftHandle h, cudaStream_t stream)
{
	struct plan *p = plan_of(h);

	if (!p)
		return fail(CUFFT_INVALID_PLAN, "cufftSetStream", "plan %d", h);
	p->stream = (CUstream)stream;
	return CUFFT_SUCCESS;
}

/* The cuFFT release whose API this library follows, by the major version it is built as. */
#if ZC_CUFFT_MAJOR == 10
enum { VERSION = 10900, MINOR = 9, PATCH = 0 };
#elif ZC_CUFFT_MAJOR == 11
enum { VERSION = 11400, MINOR = 4, PATCH = 1 };
#else
enum { VERSION = CUFFT_VERSION, MINOR = CUFFT_VER_MINOR, PATCH = CUFFT_VER_PATCH };
#endif

cufftResult cufftGetVersion(int *version)
{
	if (!version)
		return fail(CUFFT_INVALID_VALUE, "cufftGetVersion", "NULL pointer");
	*version = VERSION;
	return CUFFT_SUCCESS;
}

cufftResult cufftGetProperty(libraryPropertyType type, int *value)
{
	if (!value)
		return fail(CUFFT_INVALID_VALUE, "cufftGetProperty", "NULL pointer");
	switch (type) {
	case MAJOR_VERSION: *value = ZC_CUFFT_MAJOR; break;
	case MINOR_VERSION: *value = MINOR; break;
	case PATCH_LEVEL: *value = PATCH; break;
	default: return fail(CUFFT_INVALID_TYPE, "cufftGetProperty", "type %d", type);
	}
	return CUFFT_SUCCESS;
}
