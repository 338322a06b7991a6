// The stand-in's kernel for odd sizes, built as SASS only (no PTX): no converter can
// translate it, so the converted stand-in cannot run such plans.
#include "standin.h"

__global__ void standin_dft_odd(StandinDft d)
{
    standin_dft(d);
}

void standin_launch_odd(unsigned blocks, cudaStream_t stream, const StandinDft &d)
{
    standin_dft_odd<<<blocks, 128, 0, stream>>>(d);
}
