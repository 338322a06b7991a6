// A stand-in for NVIDIA's cuFFT, which zluda-convert converts into nvidia/ beside a program
// and the project's cuFFT fronts (check_fronted.py): the functions the front calls, making
// one-dimensional C2C plans in cuFFT's advanced layout (any batch, stride and distance) by a
// direct DFT in double precision, and refusing every other plan as NVIDIA's refuses what
// it cannot make. The DFT kernel of even sizes carries PTX; that of odd sizes is SASS only
// (standin_sass.cu), as NVIDIA ships some of cuFFT's, and a failed launch of it does not
// change the status, as NVIDIA's need not. A plan wants a work area of the size of its
// input, which it allocates itself or, with auto-allocation off, takes from the program
// (cufftSetWorkArea), as NVIDIA's plans do; cufftGetSizeMany64 says how large. Each plan made
// and executed is logged to the file ZC_CUFFT_STANDIN_LOG names.
#include <cstdio>
#include <cstdlib>
#include <cufft.h>

#include "standin.h"

namespace {

struct Plan {
    bool made, program_area; // program_area: cufftSetAutoAllocation(0)
    long long n, batch, stride, dist;
    cudaStream_t stream;
    float2 *copy; // the work area: the input, read whole by every output element
};

Plan plans[256];
int count;

void log(const char *fmt, long long a, long long b)
{
    const char *path = getenv("ZC_CUFFT_STANDIN_LOG");
    FILE *f = path ? fopen(path, "a") : nullptr;
    if (f) {
        fprintf(f, fmt, a, b);
        fputc('\n', f);
        fclose(f);
    }
}

Plan *plan_of(cufftHandle h)
{
    return h >= 0 && h < count && plans[h].made ? &plans[h] : nullptr;
}

// The bytes of a plan's input, and so of its work area.
size_t span_bytes(long long n, long long batch, long long stride, long long dist)
{
    return ((batch - 1) * dist + (n - 1) * stride + 1) * sizeof(float2);
}

// The plans made here: C2C of rank 1, the same stride and distance on both sides. Their
// work area's bytes, or 0 for a plan refused.
size_t work_bytes(int rank, long long *n, long long *inembed, long long istride, long long idist,
                  long long *onembed, long long ostride, long long odist, cufftType type,
                  long long batch)
{
    if (rank != 1 || type != CUFFT_C2C ||
        (inembed && (istride != ostride || idist != odist || !onembed)))
        return 0;
    return span_bytes(n[0], batch, inembed ? istride : 1, inembed ? idist : n[0]);
}

} // namespace

__global__ void standin_dft_even(StandinDft d)
{
    standin_dft(d);
}

extern "C" {

cufftResult cufftCreate(cufftHandle *h)
{
    if (count == (int)(sizeof plans / sizeof plans[0]))
        return CUFFT_ALLOC_FAILED;
    *h = count++;
    return CUFFT_SUCCESS;
}

cufftResult cufftDestroy(cufftHandle h)
{
    if (h < 0 || h >= count)
        return CUFFT_INVALID_PLAN;
    if (plans[h].made && !plans[h].program_area)
        cudaFree(plans[h].copy);
    plans[h].made = false;
    return CUFFT_SUCCESS;
}

cufftResult cufftSetAutoAllocation(cufftHandle h, int automatic)
{
    if (h < 0 || h >= count)
        return CUFFT_INVALID_PLAN;
    plans[h].program_area = !automatic;
    return CUFFT_SUCCESS;
}

cufftResult cufftGetSizeMany64(cufftHandle h, int rank, long long *n, long long *inembed,
                               long long istride, long long idist, long long *onembed,
                               long long ostride, long long odist, cufftType type,
                               long long batch, size_t *size)
{
    if (h < 0 || h >= count)
        return CUFFT_INVALID_PLAN;
    *size = work_bytes(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
    return *size ? CUFFT_SUCCESS : CUFFT_NOT_SUPPORTED;
}

cufftResult cufftMakePlanMany64(cufftHandle h, int rank, long long *n, long long *inembed,
                                long long istride, long long idist, long long *onembed,
                                long long ostride, long long odist, cufftType type,
                                long long batch, size_t *work_size)
{
    if (h < 0 || h >= count)
        return CUFFT_INVALID_PLAN;
    size_t bytes = work_bytes(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
    if (!bytes)
        return CUFFT_NOT_SUPPORTED;
    Plan &p = plans[h];
    p.n = n[0];
    p.batch = batch;
    p.stride = inembed ? istride : 1;
    p.dist = inembed ? idist : n[0];
    p.stream = nullptr;
    p.copy = nullptr;
    if (!p.program_area && cudaMalloc(&p.copy, bytes) != cudaSuccess)
        return CUFFT_ALLOC_FAILED;
    p.made = true;
    if (work_size)
        *work_size = bytes;
    log("plan n %lld batch %lld", p.n, p.batch);
    return CUFFT_SUCCESS;
}

cufftResult cufftSetStream(cufftHandle h, cudaStream_t stream)
{
    Plan *p = plan_of(h);
    if (!p)
        return CUFFT_INVALID_PLAN;
    p->stream = stream;
    return CUFFT_SUCCESS;
}

cufftResult cufftSetWorkArea(cufftHandle h, void *area)
{
    Plan *p = plan_of(h);
    if (!p)
        return CUFFT_INVALID_PLAN;
    if (p->program_area)
        p->copy = (float2 *)area;
    return CUFFT_SUCCESS;
}

cufftResult cufftGetSize(cufftHandle h, size_t *size)
{
    Plan *p = plan_of(h);
    if (!p)
        return CUFFT_INVALID_PLAN;
    *size = span_bytes(p->n, p->batch, p->stride, p->dist);
    return CUFFT_SUCCESS;
}

cufftResult cufftExecC2C(cufftHandle h, cufftComplex *in, cufftComplex *out, int direction)
{
    Plan *p = plan_of(h);
    if (!p)
        return CUFFT_INVALID_PLAN;
    cudaMemcpyAsync(p->copy, in, span_bytes(p->n, p->batch, p->stride, p->dist),
                    cudaMemcpyDeviceToDevice, p->stream);
    StandinDft d = {p->copy, out, p->n, p->batch, p->stride, p->dist, direction == CUFFT_INVERSE ? 1 : -1};
    unsigned blocks = (unsigned)((p->n * p->batch + 127) / 128);
    if (p->n % 2 == 0)
        standin_dft_even<<<blocks, 128, 0, p->stream>>>(d);
    else
        standin_launch_odd(blocks, p->stream, d);
    cudaGetLastError(); // a failed launch is not the status, as with NVIDIA's
    log("exec n %lld direction %lld", p->n, direction);
    return CUFFT_SUCCESS;
}

// The other types: no plan of theirs is ever made here.
cufftResult cufftExecZ2Z(cufftHandle, cufftDoubleComplex *, cufftDoubleComplex *, int) { return CUFFT_INVALID_PLAN; }
cufftResult cufftExecR2C(cufftHandle, cufftReal *, cufftComplex *) { return CUFFT_INVALID_PLAN; }
cufftResult cufftExecD2Z(cufftHandle, cufftDoubleReal *, cufftDoubleComplex *) { return CUFFT_INVALID_PLAN; }
cufftResult cufftExecC2R(cufftHandle, cufftComplex *, cufftReal *) { return CUFFT_INVALID_PLAN; }
cufftResult cufftExecZ2D(cufftHandle, cufftDoubleComplex *, cufftDoubleReal *) { return CUFFT_INVALID_PLAN; }
}
