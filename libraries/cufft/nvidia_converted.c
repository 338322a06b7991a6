/* cuFFT's engine over NVIDIA's converted cuFFT (delegates.h): where `convert
 * --with-libraries` named cuFFT, NVIDIA's library, converted for the program's targets, lies
 * in nvidia/ beside this one, and each plan is offered to it first. NVIDIA ships the kernels
 * of some sizes, types and architectures as SASS only, which nothing can translate; a plan
 * that needs one cannot run converted, and NVIDIA's library does not always say so (a launch
 * it could not make need not change its status, and the runtime inside it remembers a
 * module that failed to load without asking the driver again). So a plan is kept only after
 * a trial: made, and executed in each direction on an impulse whose transform is known, the
 * result right. Otherwise the next engine, or the project's kernels, make it. */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "delegates.h"
#include "engine.h"

static struct {
	cufftResult (*create)(cufftHandle *plan);
	cufftResult (*destroy)(cufftHandle plan);
	cufftResult (*set_auto_allocation)(cufftHandle plan, int automatic);
	cufftResult (*make_plan_many64)(cufftHandle plan, int rank, long long *n,
	                                long long *inembed, long long istride, long long idist,
	                                long long *onembed, long long ostride, long long odist,
	                                cufftType type, long long batch, size_t *work_size);
	cufftResult (*set_stream)(cufftHandle plan, cudaStream_t stream);
	cufftResult (*set_work_area)(cufftHandle plan, void *area);
	cufftResult (*get_size)(cufftHandle plan, size_t *size);
	cufftResult (*get_size_many64)(cufftHandle plan, int rank, long long *n, long long *inembed,
	                               long long istride, long long idist, long long *onembed,
	                               long long ostride, long long odist, cufftType type,
	                               long long batch, size_t *work_size);
	cufftResult (*exec_c2c)(cufftHandle plan, const void *in, void *out, int direction);
	cufftResult (*exec_z2z)(cufftHandle plan, const void *in, void *out, int direction);
	cufftResult (*exec_r2c)(cufftHandle plan, const void *in, void *out);
	cufftResult (*exec_d2z)(cufftHandle plan, const void *in, void *out);
	cufftResult (*exec_c2r)(cufftHandle plan, const void *in, void *out);
	cufftResult (*exec_z2d)(cufftHandle plan, const void *in, void *out);
} nv;

static const struct zc_engine_function functions[] = {FFT_DELEGATE_FUNCTIONS("cufft", nv)};

static bool loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	void *library = zc_engine_load_converted();

	loaded = library && zc_engine_take_functions(library, "NVIDIA's converted cuFFT",
	                                             "nvidia/" ZC_LIBRARY_SONAME, "not used",
	                                             "is offered every plan first", functions,
	                                             sizeof functions / sizeof functions[0]);
}

struct converted_plan {
	cufftHandle handle;
};

/* One side of a plan's data (the input or the output): its logical sizes (the last one
 * halved on a real transform's complex side), where each element lies, and its element. */
struct side {
	int rank;
	long long n[3], pitch[3], stride, dist, batch;
	bool complex, doubles;
};

static bool complex_side(cufftType type, bool output)
{
	return output ? type != CUFFT_C2R && type != CUFFT_Z2D : type != CUFFT_R2C && type != CUFFT_D2Z;
}

static struct side side_of(bool output, int rank, const long long *n, const long long *embed,
                           long long stride, long long dist, cufftType type, long long batch)
{
	struct side s = {rank, {1, 1, 1}, {1, 1, 1}, embed ? stride : 1, dist, batch,
	                 complex_side(type, output), type == CUFFT_Z2Z || type == CUFFT_D2Z ||
	                                                 type == CUFFT_Z2D};
	bool half = s.complex && !complex_side(type, !output);
	long long pitch = 1;

	for (int d = rank - 1; d >= 0; d--) {
		s.n[d] = d == rank - 1 && half ? n[d] / 2 + 1 : n[d];
		s.pitch[d] = pitch;
		if (__builtin_mul_overflow(pitch, embed ? embed[d] : s.n[d], &pitch))
			pitch = LLONG_MAX;  /* beyond any trial: side_bytes says 0 */
	}
	if (!embed)
		s.dist = pitch;
	return s;
}

/* The elements of one transform of the side; -1 when that overflows. */
static long long side_elements(const struct side *s)
{
	long long elements = 1;

	for (int d = 0; d < 3; d++)
		if (__builtin_mul_overflow(elements, s->n[d], &elements))
			return -1;
	return elements;
}

/* ACC + A * B, false when it overflows. */
static bool add_product(long long *acc, long long a, long long b)
{
	long long product;

	return !__builtin_mul_overflow(a, b, &product) && !__builtin_add_overflow(*acc, product, acc);
}

/* Where logical element INDEX (row-major over the side's sizes) of transform B lies; -1
 * when that overflows (absurd strides or distances). */
static long long side_offset(const struct side *s, long long b, long long index)
{
	long long at = 0, offset = 0;

	for (int d = s->rank - 1; d >= 0; d--) {
		if (!add_product(&at, index % s->n[d], s->pitch[d]))
			return -1;
		index /= s->n[d];
	}
	return add_product(&offset, b, s->dist) && add_product(&offset, at, s->stride) ? offset : -1;
}

static size_t element_bytes(const struct side *s)
{
	return (s->doubles ? 8 : 4) * (s->complex ? 2 : 1);
}

/* Bytes from the side's first element to its last; 0 when beyond any trial. */
static size_t side_bytes(const struct side *s)
{
	long long elements = side_elements(s);
	long long last = elements > 0 ? side_offset(s, s->batch - 1, elements - 1) : -1;

	return last < 0 || last >= (1ll << 36) / (long long)element_bytes(s)
	               ? 0 : (size_t)(last + 1) * element_bytes(s);
}

static void put(const struct side *s, void *data, long long at, double re, double im)
{
	size_t k = (size_t)at * (s->complex ? 2 : 1);

	if (s->doubles) {
		((double *)data)[k] = re;
		if (s->complex)
			((double *)data)[k + 1] = im;
	} else {
		((float *)data)[k] = (float)re;
		if (s->complex)
			((float *)data)[k + 1] = (float)im;
	}
}

static void get(const struct side *s, const void *data, long long at, double *re, double *im)
{
	size_t k = (size_t)at * (s->complex ? 2 : 1);

	*re = s->doubles ? ((const double *)data)[k] : ((const float *)data)[k];
	*im = !s->complex ? 0 : s->doubles ? ((const double *)data)[k + 1] : ((const float *)data)[k + 1];
}

static const double TURN = 6.283185307179586; /* 2 pi */

/* The phase, in turns, of the transform of an impulse at (1, 1, 1) at logical element
 * INDEX of side S of a plan of sizes N: the sum of k_d / n_d. */
static double impulse_phase(const struct side *s, const long long *n, long long index)
{
	double turns = 0;

	for (int d = s->rank - 1; d >= 0; d--) {
		turns += (double)(index % s->n[d] % n[d]) / (double)n[d];
		index /= s->n[d];
	}
	return turns - floor(turns);
}

/* Whether logical element INDEX is the impulse's place (1, 1, 1), each coordinate taken
 * modulo its size. */
static bool impulse_place(const struct side *s, const long long *n, long long index)
{
	for (int d = s->rank - 1; d >= 0; d--) {
		if (index % s->n[d] != 1 % n[d])
			return false;
		index /= s->n[d];
	}
	return true;
}

static cufftResult execute(cufftHandle h, cufftType type, const void *in, void *out, int direction)
{
	switch (type) {
	case CUFFT_C2C: return nv.exec_c2c(h, in, out, direction);
	case CUFFT_Z2Z: return nv.exec_z2z(h, in, out, direction);
	case CUFFT_R2C: return nv.exec_r2c(h, in, out);
	case CUFFT_D2Z: return nv.exec_d2z(h, in, out);
	case CUFFT_C2R: return nv.exec_c2r(h, in, out);
	default: return nv.exec_z2d(h, in, out);
	}
}

/* The input of a trial in each transform: an impulse at (1, 1, 1), or for a complex-to-real
 * transform its half spectrum, exp(-2 pi i phase) (a consistent Hermitian input). */
static void trial_input(const struct side *in, const long long *n, bool spectrum, void *data)
{
	for (long long b = 0; b < in->batch; b++)
		for (long long i = 0; i < side_elements(in); i++) {
			double turns = impulse_phase(in, n, i);
			if (spectrum)
				put(in, data, side_offset(in, b, i), cos(TURN * turns), -sin(TURN * turns));
			else if (impulse_place(in, n, i))
				put(in, data, side_offset(in, b, i), 1, 0);
		}
}

/* The largest difference of the output from the impulse's transform: exp(-+2 pi i phase)
 * for SIGN -+1, or for a complex-to-real transform the impulse scaled by the plan's size
 * (cuFFT does not normalise). */
static double trial_error(const struct side *out, const long long *n, bool spectrum, int sign,
                          const void *data)
{
	double worst = 0, size = (double)(n[0] * (out->rank > 1 ? n[1] : 1) * (out->rank > 2 ? n[2] : 1));

	for (long long b = 0; b < out->batch; b++)
		for (long long i = 0; i < side_elements(out); i++) {
			double re, im, want_re, want_im, turns = impulse_phase(out, n, i);
			get(out, data, side_offset(out, b, i), &re, &im);
			want_re = spectrum ? (impulse_place(out, n, i) ? size : 0) : cos(TURN * turns);
			want_im = spectrum ? 0 : sign * sin(TURN * turns);
			double e = fabs(re - want_re) + fabs(im - want_im);
			if (!(e <= worst))
				worst = e; /* a NaN stays the worst */
		}
	return spectrum ? worst / size : worst;
}

/* The plan tried: executed in each direction its type has, out of place on an impulse (the
 * kernels of every pass leave their mark on its transform), with a work area of its own
 * where the program gives it one, and the result compared with the impulse's transform;
 * NULL when it is right, else why not. */
static const char *trial(cufftHandle h, cufftType type, const struct side *in,
                         const struct side *out, const long long *n, size_t work_size,
                         bool automatic)
{
	size_t in_bytes = side_bytes(in), out_bytes = side_bytes(out);
	bool spectrum = type == CUFFT_C2R || type == CUFFT_Z2D;
	int directions = type == CUFFT_C2C || type == CUFFT_Z2Z ? 2 : 1;
	CUdeviceptr din = 0, dout = 0, work = 0;
	void *input = in_bytes ? calloc(1, in_bytes) : NULL;
	void *output = out_bytes ? malloc(out_bytes) : NULL;
	CUcontext context;
	const char *why = NULL;

	if (!input || !output)
		why = "too large to try";
	else if (zc_kernels_context(&context) != CUDA_SUCCESS || cuMemAlloc(&din, in_bytes) ||
	         cuMemAlloc(&dout, out_bytes) ||
	         (!automatic && work_size && cuMemAlloc(&work, work_size) != CUDA_SUCCESS))
		why = "no memory to try it on";
	else if ((!automatic && nv.set_work_area(h, (void *)(uintptr_t)work) != CUFFT_SUCCESS) ||
	         nv.set_stream(h, NULL) != CUFFT_SUCCESS)
		why = "it refuses a work area or the legacy stream";
	if (!why)
		trial_input(in, n, spectrum, input);
	for (int d = 0; d < directions && !why; d++) {
		int direction = d ? CUFFT_INVERSE : CUFFT_FORWARD;
		/* A complex-to-real execution may overwrite its input. */
		if (cuMemcpyHtoD(din, input, in_bytes) != CUDA_SUCCESS ||
		    cuMemsetD8(dout, 0, out_bytes) != CUDA_SUCCESS)
			why = "no memory to try it on";
		else if (execute(h, type, (const void *)(uintptr_t)din, (void *)(uintptr_t)dout,
		                 direction) != CUFFT_SUCCESS)
			why = "its execution fails";
		else if (cuCtxSynchronize() != CUDA_SUCCESS ||
		         cuMemcpyDtoH(output, dout, out_bytes) != CUDA_SUCCESS)
			why = "its kernels fail";
		else if (!(trial_error(out, n, spectrum, d ? 1 : -1, output) <= 1e-3))
			why = "its transform of an impulse is wrong (a kernel it needs is SASS only?)";
	}
	/* The program's own work area comes with its cufftSetWorkArea, as with NVIDIA's. */
	if (work)
		nv.set_work_area(h, NULL);
	CUdeviceptr buffers[] = {din, dout, work};
	for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++)
		if (buffers[i])
			cuMemFree(buffers[i]);
	free(input);
	free(output);
	return why;
}

static void *converted_plan(const char *routine, int rank, long long *n, long long *inembed,
                            long long istride, long long idist, long long *onembed,
                            long long ostride, long long odist, cufftType type,
                            long long batch, int automatic, size_t *work_size)
{
	size_t size = 0;
	cufftHandle h;
	const char *why;
	cufftResult r;

	pthread_once(&once, load);
	if (!loaded)
		return NULL;
	if ((r = nv.create(&h)) != CUFFT_SUCCESS) {
		zc_engine_trace(routine, "NVIDIA's converted cuFFT makes no handle (status %d)", r);
		return NULL;
	}
	if ((r = nv.set_auto_allocation(h, automatic)) != CUFFT_SUCCESS ||
	    (r = nv.make_plan_many64(h, rank, n, inembed, istride, idist, onembed, ostride, odist,
	                             type, batch, &size)) !=
	        CUFFT_SUCCESS) {
		zc_engine_trace(routine, "NVIDIA's converted cuFFT refuses the plan (status %d)", r);
		nv.destroy(h);
		return NULL;
	}
	struct side in_side = side_of(false, rank, n, inembed, istride, idist, type, batch);
	struct side out_side = side_of(true, rank, n, onembed, ostride, odist, type, batch);
	why = trial(h, type, &in_side, &out_side, n, size, automatic);
	if (why) {
		zc_engine_trace(routine, "NVIDIA's converted cuFFT cannot run the plan: %s", why);
		nv.destroy(h);
		return NULL;
	}
	zc_engine_trace(routine, "NVIDIA's converted cuFFT makes the plan");
	struct converted_plan *plan = malloc(sizeof *plan);
	if (!plan) {
		nv.destroy(h);
		return NULL;
	}
	plan->handle = h;
	if (work_size)
		*work_size = size;
	return plan;
}

static cufftResult converted_exec(void *plan, CUstream stream, const char *routine,
                                  cufftType type, const void *in, void *out, int direction)
{
	cufftHandle h = ((struct converted_plan *)plan)->handle;
	cufftResult r = nv.set_stream(h, (cudaStream_t)stream);

	if (r == CUFFT_SUCCESS)
		r = execute(h, type, in, out, direction);
	if (r != CUFFT_SUCCESS)
		zc_engine_trace(routine, "NVIDIA's converted cuFFT's execution failed (status %d)", r);
	return r;
}

static size_t converted_work_size(const char *routine, int rank, long long *n,
                                  long long *inembed, long long istride, long long idist,
                                  long long *onembed, long long ostride, long long odist,
                                  cufftType type, long long batch)
{
	size_t size = 0;
	cufftHandle h;
	cufftResult r;

	pthread_once(&once, load);
	if (!loaded)
		return 0;
	if ((r = nv.create(&h)) == CUFFT_SUCCESS) {
		r = nv.get_size_many64(h, rank, n, inembed, istride, idist, onembed, ostride, odist,
		                       type, batch, &size);
		nv.destroy(h);
	}
	if (r != CUFFT_SUCCESS) {
		zc_engine_trace(routine, "NVIDIA's converted cuFFT gives no work size (status %d)", r);
		return 0;
	}
	return size;
}

static cufftResult converted_size(void *plan, size_t *size)
{
	return nv.get_size(((struct converted_plan *)plan)->handle, size);
}

static cufftResult converted_work_area(void *plan, void *area)
{
	return nv.set_work_area(((struct converted_plan *)plan)->handle, area);
}

static void converted_destroy(void *plan)
{
	nv.destroy(((struct converted_plan *)plan)->handle);
	free(plan);
}

const struct fft_delegate fft_nvidia_converted = {converted_plan, converted_exec,
                                                  converted_work_size, converted_size,
                                                  converted_work_area, converted_destroy};
