/* cuFFT's AMD engine (delegates.h): AMD's hipFFT (loaded at run time, never a build
 * dependency) makes and runs a plan under the HIP driver, on the HIP stream behind the plan's
 * CUDA stream. Loaded once: ZLUDA_CONVERT_HIPFFT_PATH, else ROCm's libhipfft.so.0. hipFFT's
 * API is cuFFT's: the types, directions, layouts and statuses have cuFFT's values. */
#include <pthread.h>
#include <stdlib.h>

#include "engine.h"
#include "delegates.h"

enum { HIPFFT_SUCCESS = 0 };

static struct {
	int (*create)(void **plan);
	int (*destroy)(void *plan);
	int (*set_auto_allocation)(void *plan, int automatic);
	int (*make_plan_many64)(void *plan, int rank, long long *n, long long *inembed,
	                        long long istride, long long idist, long long *onembed,
	                        long long ostride, long long odist, int type, long long batch,
	                        size_t *work_size);
	int (*set_stream)(void *plan, void *stream);
	int (*set_work_area)(void *plan, void *area);
	int (*get_size)(void *plan, size_t *size);
	int (*get_size_many64)(void *plan, int rank, long long *n, long long *inembed,
	                       long long istride, long long idist, long long *onembed,
	                       long long ostride, long long odist, int type, long long batch,
	                       size_t *work_size);
	int (*exec_c2c)(void *plan, const void *in, void *out, int direction);
	int (*exec_z2z)(void *plan, const void *in, void *out, int direction);
	int (*exec_r2c)(void *plan, const void *in, void *out);
	int (*exec_d2z)(void *plan, const void *in, void *out);
	int (*exec_c2r)(void *plan, const void *in, void *out);
	int (*exec_z2d)(void *plan, const void *in, void *out);
} hip;

static const struct zc_engine_function functions[] = {FFT_DELEGATE_FUNCTIONS("hipfft", hip)};

static bool loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* ROCm's on Linux; on Windows, where the HIP SDK's hipfft.dll has not been tried, only what
 * ZLUDA_CONVERT_HIPFFT_PATH names. */
static void load(void)
{
	static const char *const names[] = {
#ifndef _WIN32
		"libhipfft.so.0",
#endif
		NULL
	};

	loaded = zc_engine_load_amd_functions("hipFFT", "ZLUDA_CONVERT_HIPFFT_PATH", names,
	                                      "the project's kernels make every plan",
	                                      "makes the plans it can", functions,
	                                      sizeof functions / sizeof functions[0]);
}

static void *amd_plan(const char *routine, int rank, long long *n, long long *inembed,
                      long long istride, long long idist, long long *onembed, long long ostride,
                      long long odist, cufftType type, long long batch, int automatic,
                      size_t *work_size)
{
	size_t size = 0;
	void *plan = NULL;
	int r;

	pthread_once(&once, load);
	if (!loaded)
		return NULL;
	if ((r = hip.create(&plan)) != HIPFFT_SUCCESS ||
	    (r = hip.set_auto_allocation(plan, automatic)) != HIPFFT_SUCCESS ||
	    (r = hip.make_plan_many64(plan, rank, n, inembed, istride, idist, onembed, ostride,
	                              odist, type, batch, &size)) !=
	        HIPFFT_SUCCESS) {
		zc_engine_trace(routine, "hipFFT refuses the plan (status %d): the project's kernels "
		                "make it", r);
		if (plan)
			hip.destroy(plan);
		return NULL;
	}
	if (work_size)
		*work_size = size;
	return plan;
}

static cufftResult amd_exec(void *plan, CUstream stream, const char *routine, cufftType type,
                            const void *in, void *out, int direction)
{
	void *native;
	CUresult c;
	int r;

	if ((c = zc_engine_native_stream(stream, &native)) != CUDA_SUCCESS) {
		zc_engine_trace(routine, "hipFFT's plan cannot run on this stream (error %d: a "
		                "capturing one, whose graph would miss hipFFT's work)", c);
		return CUFFT_EXEC_FAILED;
	}
	if ((r = hip.set_stream(plan, native)) != HIPFFT_SUCCESS)
		return (cufftResult)r;
	switch (type) {
	case CUFFT_C2C: r = hip.exec_c2c(plan, in, out, direction); break;
	case CUFFT_Z2Z: r = hip.exec_z2z(plan, in, out, direction); break;
	case CUFFT_R2C: r = hip.exec_r2c(plan, in, out); break;
	case CUFFT_D2Z: r = hip.exec_d2z(plan, in, out); break;
	case CUFFT_C2R: r = hip.exec_c2r(plan, in, out); break;
	default: r = hip.exec_z2d(plan, in, out); break;
	}
	if (r != HIPFFT_SUCCESS)
		zc_engine_trace(routine, "hipFFT's execution failed (status %d)", r);
	return (cufftResult)r;
}

static size_t amd_work_size(const char *routine, int rank, long long *n, long long *inembed,
                            long long istride, long long idist, long long *onembed,
                            long long ostride, long long odist, cufftType type,
                            long long batch)
{
	size_t size = 0;
	void *plan = NULL;
	int r;

	pthread_once(&once, load);
	if (!loaded)
		return 0;
	if ((r = hip.create(&plan)) == HIPFFT_SUCCESS)
		r = hip.get_size_many64(plan, rank, n, inembed, istride, idist, onembed, ostride, odist,
		                        type, batch, &size);
	if (plan)
		hip.destroy(plan);
	if (r != HIPFFT_SUCCESS) {
		zc_engine_trace(routine, "hipFFT gives no work size (status %d)", r);
		return 0;
	}
	return size;
}

static cufftResult amd_size(void *plan, size_t *size)
{
	return (cufftResult)hip.get_size(plan, size);
}

static cufftResult amd_work_area(void *plan, void *area)
{
	return (cufftResult)hip.set_work_area(plan, area);
}

static void amd_destroy(void *plan)
{
	hip.destroy(plan);
}

const struct fft_delegate fft_hipfft = {amd_plan, amd_exec, amd_work_size, amd_size,
                                        amd_work_area, amd_destroy};
