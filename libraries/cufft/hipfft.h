/* cuFFT's AMD engine (hipfft.c): under the HIP driver, where AMD's hipFFT loads, a plan is
 * made by hipFFT and executed on the program's own stream; where hipFFT is absent or
 * refuses a plan, the project's kernels make it (cufft.c). hipFFT's API is cuFFT's: the
 * types, directions, layouts and statuses have cuFFT's values. */
#ifndef ZC_HIPFFT_H
#define ZC_HIPFFT_H

#include <cuda.h>
#include <cufft.h>
#include <stddef.h>

/* hipFFT's plan for these arguments (cufftMakePlanMany64's, the embeds NULL for the basic
 * layout; AUTOMATIC as cufftSetAutoAllocation set it), its work size in *WORK_SIZE; NULL
 * where hipFFT is not there or refuses it (traced). */
void *fft_amd_plan(const char *routine, int rank, const long long *n, const long long *inembed,
                   long long istride, long long idist, const long long *onembed,
                   long long ostride, long long odist, cufftType type, long long batch,
                   int automatic, size_t *work_size);
cufftResult fft_amd_exec(void *plan, CUstream stream, const char *routine, cufftType type,
                         const void *in, void *out, int direction);
cufftResult fft_amd_size(void *plan, size_t *size);
cufftResult fft_amd_work_area(void *plan, void *area);
void fft_amd_destroy(void *plan);

#endif
