// Runs under the runtime stub's HIP driver over the emulator's HIP runtime
// (libzc-emu-hip.so), which executes the kernel's AMD code: what the stub hands HIP is what
// check_hip_path.py reads back from the runtime's log. It sets a stack size, prints the
// device pointer it launches with, and checks what comes back through device memory, a
// memset and a __constant__ variable against what it computes on the host: the kernel's
// results where it wrote, the copied-in data and the memset elsewhere.
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
    // What the kernel computes, for the 3 x 64 threads of each row of blocks (both rows
    // write the same values): out[i] for i < 192; the rest keeps the copy and the memset.
    int want[256];
    memcpy(want, host, sizeof want);
    for (int i = 200; i < 210; i++)
        want[i] = 0x5a5a5a5a;
    float f = 2.5f;
    Pair p{-1, 9};
    double d = 0.125;
    for (int i = 0; i < 3 * 64; i++)
        want[i] = (int)(f * scales[i % 4] + p.first + p.second + d) + i;
    for (int i = 0; i < 256; i++)
        if (back[i] != want[i]) {
            printf("FAIL: out[%d] is %d, want %d\n", i, back[i], want[i]);
            return 1;
        }
    if (memcmp(scales, scales_back, sizeof scales)) {
        printf("FAIL: the __constant__ variable did not come back\n");
        return 1;
    }
    printf("device pointer %p\n", (void *)dev);
    printf("PASS\n");
    return 0;
}
