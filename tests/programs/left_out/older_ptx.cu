// The best PTX of a container, kernel by kernel: built with PTX for compute_80 and
// compute_90, `accumulate` uses an instruction the converter does not translate only in its
// sm_90 form (behind a condition false for every launch, as in left_out.h), so its code
// comes from the compute_80 PTX; `scale` translates from compute_90. Both write one
// __device__ counter, which must be one variable whichever PTX each came from.
#include "left_out.h"

__device__ unsigned total;

__global__ void accumulate(const unsigned *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
#if __CUDA_ARCH__ >= 900
    multicast_add(&total, in[i]);
#endif
    atomicAdd(&total, in[i]);
}

__global__ void scale(unsigned *out, const unsigned *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 3 + total % 7;
}

int main() {
    Checker c;
    const int n = 1000;
    unsigned in[n], out[n], sum = 0, zero = 0;
    Lcg rng(7);
    for (int i = 0; i < n; i++) { in[i] = rng.next() % 1000; sum += in[i]; }
    unsigned *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(total, &zero, 4));
    accumulate<<<(n + 127) / 128, 128>>>(din, n);
    CHECK_LAUNCH();
    unsigned got;
    CHECK(cudaMemcpyFromSymbol(&got, total, 4));
    if (got != sum) c.fail("total = %u, expected %u", got, sum);
    scale<<<(n + 127) / 128, 128>>>(dout, din, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (out[i] != in[i] * 3 + sum % 7) c.fail("scale[%d] = %u", i, out[i]);
    return c.finish();
}
