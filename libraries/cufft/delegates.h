/* Libraries with cuFFT's API that make a plan in place of the project's kernels (cufft.c),
 * each offered a plan in turn, the first to take it running it: NVIDIA's converted cuFFT
 * (nvidia_converted.c), where `convert --with-libraries` placed it beside this library, on
 * any of the stub's drivers; AMD's hipFFT (hipfft.c) under the HIP driver. A plan none takes
 * is made by the project's kernels: the choice is per plan. */
#ifndef ZC_FFT_DELEGATES_H
#define ZC_FFT_DELEGATES_H

#include <cuda.h>
#include <cufft.h>
#include <stddef.h>

struct fft_delegate {
	/* The library's plan for these arguments (cufftMakePlanMany64's, the embeds NULL for
	 * the basic layout, the arrays writable copies as cuFFT's and hipFFT's prototypes take
	 * them; AUTOMATIC as cufftSetAutoAllocation set it), its work size in *WORK_SIZE; NULL
	 * where the library is not there or cannot run it (traced). */
	void *(*plan)(const char *routine, int rank, long long *n, long long *inembed,
	              long long istride, long long idist, long long *onembed, long long ostride,
	              long long odist, cufftType type, long long batch, int automatic,
	              size_t *work_size);
	/* The plan executed on STREAM (the plan's, as cufftSetStream set it). */
	cufftResult (*exec)(void *plan, CUstream stream, const char *routine, cufftType type,
	                    const void *in, void *out, int direction);
	/* The work size the library's plan for these arguments would want (as plan() takes
	 * them; cufftGetSizeMany64 on a new handle), 0 where the library is not there or
	 * answers nothing (traced). */
	size_t (*work_size)(const char *routine, int rank, long long *n, long long *inembed,
	                    long long istride, long long idist, long long *onembed,
	                    long long ostride, long long odist, cufftType type, long long batch);
	cufftResult (*size)(void *plan, size_t *size);
	cufftResult (*work_area)(void *plan, void *area);
	void (*destroy)(void *plan);
};

extern const struct fft_delegate fft_nvidia_converted, fft_hipfft;

/* What a delegate takes from its library, whose functions are cuFFT's under another PREFIX
 * ("cufft", "hipfft"), into TABLE's members of the same meaning (zc_engine_take_functions). */
#define FFT_DELEGATE_FUNCTIONS(prefix, table)                                    \
	{ prefix "Create", (void **)&table.create },                             \
	{ prefix "Destroy", (void **)&table.destroy },                           \
	{ prefix "SetAutoAllocation", (void **)&table.set_auto_allocation },     \
	{ prefix "MakePlanMany64", (void **)&table.make_plan_many64 },           \
	{ prefix "SetStream", (void **)&table.set_stream },                      \
	{ prefix "SetWorkArea", (void **)&table.set_work_area },                 \
	{ prefix "GetSize", (void **)&table.get_size },                          \
	{ prefix "GetSizeMany64", (void **)&table.get_size_many64 },             \
	{ prefix "ExecC2C", (void **)&table.exec_c2c },                          \
	{ prefix "ExecZ2Z", (void **)&table.exec_z2z },                          \
	{ prefix "ExecR2C", (void **)&table.exec_r2c },                          \
	{ prefix "ExecD2Z", (void **)&table.exec_d2z },                          \
	{ prefix "ExecC2R", (void **)&table.exec_c2r },                          \
	{ prefix "ExecZ2D", (void **)&table.exec_z2d }

#endif
