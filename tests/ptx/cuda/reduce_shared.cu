// Block reduction through shared memory, warp shuffles, votes and atomics.
#include <cstdio>

extern __shared__ float dynamic_smem[];

__global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0.0f);
    if ((threadIdx.x & 31) == 0)
        partial[threadIdx.x / 32] = v + (float)__popc(ballot) * 0.0f;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_xor_sync(0xffffffffu, v, offset);
        if (threadIdx.x == 0)
            atomicAdd(out, v);
    }
}

__global__ void histogram(const unsigned char *data, unsigned *bins, int n)
{
    unsigned *local_bins = (unsigned *)dynamic_smem;
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local_bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local_bins[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        atomicMax(&bins[b], local_bins[b]);
        atomicCAS(&bins[b], 0u, local_bins[b]);
    }
    if (threadIdx.x == 0 && blockIdx.x == 0)
        printf("histogram of %d bytes, first bin %u\n", n, bins[0]);
}
