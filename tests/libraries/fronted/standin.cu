// A stand-in for NVIDIA's cuFFT, which zluda-convert converts into nvidia/ beside a program
// and the project's cuFFT fronts (check_fronted.py): the functions the front calls, making
// one-dimensional C2C plans in cuFFT's advanced layout (any batch, stride and distance) by a
// direct DFT in double precision, and refusing every other plan as NVIDIA's refuses what
// it cannot make. The DFT kernel of even sizes carries PTX; that of odd sizes is SASS only
// (standin_sass.cu), as NVIDIA ships some of cuFFT's, and a failed launch of it does not
// change the status, as NVIDIA's need not. Each plan made and executed is logged to the
// file ZC_CUFFT_STANDIN_LOG names.
#include <cstdio>
#include <cstdlib>
#include <cufft.h>

#include "standin.h"

namespace {

struct Plan {
    bool made;
    long long n, batch, stride, dist;
    cudaStream_t stream;
    float2 *copy; // the input, read whole by every output element
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
    Plan *p = plan_of(h);
    if (!p)
        return CUFFT_INVALID_PLAN;
    cudaFree(p->copy);
    p->made = false;
    return CUFFT_SUCCESS;
}

cufftResult cufftSetAutoAllocation(cufftHandle, int) { return CUFFT_SUCCESS; }

cufftResult cufftMakePlanMany64(cufftHandle h, int rank, long long *n, long long *inembed,
                                long long istride, long long idist, long long *onembed,
                                long long ostride, long long odist, cufftType type,
                                long long batch, size_t *work_size)
{
    if (h < 0 || h >= count)
        return CUFFT_INVALID_PLAN;
    if (rank != 1 || type != CUFFT_C2C ||
        (inembed && (istride != ostride || idist != odist || !onembed)))
        return CUFFT_NOT_SUPPORTED;
    Plan &p = plans[h];
    p.n = n[0];
    p.batch = batch;
    p.stride = inembed ? istride : 1;
    p.dist = inembed ? idist : n[0];
    p.stream = nullptr;
    if (cudaMalloc(&p.copy, ((p.batch - 1) * p.dist + (p.n - 1) * p.stride + 1) * sizeof(float2)) !=
        cudaSuccess)
        return CUFFT_ALLOC_FAILED;
    p.made = true;
    if (work_size)
        *work_size = 0;
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

cufftResult cufftSetWorkArea(cufftHandle h, void *) { return plan_of(h) ? CUFFT_SUCCESS : CUFFT_INVALID_PLAN; }

cufftResult cufftGetSize(cufftHandle h, size_t *size)
{
    if (!plan_of(h))
        return CUFFT_INVALID_PLAN;
    *size = 0;
    return CUFFT_SUCCESS;
}

cufftResult cufftExecC2C(cufftHandle h, cufftComplex *in, cufftComplex *out, int direction)
{
    Plan *p = plan_of(h);
    if (!p)
        return CUFFT_INVALID_PLAN;
    long long span = (p->batch - 1) * p->dist + (p->n - 1) * p->stride + 1;
    cudaMemcpyAsync(p->copy, in, span * sizeof(float2), cudaMemcpyDeviceToDevice, p->stream);
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
