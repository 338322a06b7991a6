// Runs under the runtime stub's HIP driver over a stand-in HIP runtime that executes no
// kernel (fake_hip.c): what the stub hands HIP is what check_hip_path.py reads back from
// the stand-in's log. It sets a stack size, prints the device pointer it launches with, and
// checks that the data it copies in comes back untouched (no kernel ran) through device
// memory, a memset and a __constant__ variable.
#include <cstdio>
#include <cstring>

struct Pair { int first, second; };
__constant__ float scale[4];

__global__ void probe(int *out, int n, float f, Pair p, double d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    extern __shared__ int staged[];
    staged[threadIdx.x] = i;
    if (i < n)
        out[i] = (int)(f * scale[i % 4] + p.first + p.second + d) + staged[threadIdx.x];
}

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t e = (call);                                                       \
        if (e != cudaSuccess) {                                                       \
            printf("FAIL: %s: %s\n", #call, cudaGetErrorString(e));                   \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

int main()
{
    int host[256], back[256];
    float scales[4] = {1, 2, 3, 4}, scales_back[4];
    for (int i = 0; i < 256; i++)
        host[i] = i * 7 - 3;
    int *dev;
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
    CHECK(cudaMalloc(&dev, sizeof host));
    CHECK(cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dev + 200, 0x5a, 10 * sizeof(int)));
    CHECK(cudaMemcpyToSymbol(scale, scales, sizeof scales));
    probe<<<dim3(3, 2, 1), dim3(64, 1, 1), 64 * sizeof(int)>>>(dev, 200, 2.5f, Pair{-1, 9}, 0.125);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(back, dev, sizeof back, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpyFromSymbol(scales_back, scale, sizeof scales_back));
    for (int i = 200; i < 210; i++)
        host[i] = 0x5a5a5a5a;
    if (memcmp(host, back, sizeof host) || memcmp(scales, scales_back, sizeof scales)) {
        printf("FAIL: the data did not come back\n");
        return 1;
    }
    printf("device pointer %p\n", (void *)dev);
    printf("PASS\n");
    return 0;
}
