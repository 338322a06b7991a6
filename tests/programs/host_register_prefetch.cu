// Memory the program allocated itself, registered with cudaHostRegister: a kernel writes it
// through its device pointer, copies read it, and registering twice or unregistering what
// is not registered fail with CUDA's errors. Managed memory with cudaMemAdvise and
// cudaMemPrefetchAsync (CUDA 13's cudaMemLocation forms) to the device and back.
#include "test_util.h"
#include <vector>

__global__ void fill(int *p, int n, int base) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = base + i * 3;
}

int main() {
    Checker c;
    const int n = 10000;
    std::vector<int> mine(n + 1024);
    int *p = mine.data();
    CHECK(cudaHostRegister(p, n * sizeof(int), cudaHostRegisterMapped));
    int *dp = nullptr;
    CHECK(cudaHostGetDevicePointer((void **)&dp, p, 0));
    fill<<<(n + 255) / 256, 256>>>(dp, n, 7);
    CHECK_LAUNCH();
    for (int i = 0; i < n; i++)
        if (p[i] != 7 + i * 3) { c.fail("registered memory: element %d: %d, want %d", i, p[i], 7 + i * 3); break; }
    int *dev;
    CHECK(cudaMalloc(&dev, n * sizeof(int)));
    CHECK(cudaMemcpyAsync(dev, p, n * sizeof(int), cudaMemcpyHostToDevice, 0));
    fill<<<1, 1>>>(dev, 1, -1);
    CHECK(cudaMemcpyAsync(p, dev, n * sizeof(int), cudaMemcpyDeviceToHost, 0));
    CHECK(cudaStreamSynchronize(0));
    if (p[0] != -1 || p[n - 1] != 7 + (n - 1) * 3) c.fail("copies through registered memory: %d %d", p[0], p[n - 1]);
    cudaError_t again = cudaHostRegister(p + 16, 64, cudaHostRegisterDefault);
    if (again != cudaErrorHostMemoryAlreadyRegistered)
        c.fail("registering an overlapping range: %s", cudaGetErrorName(again));
    cudaGetLastError();
    CHECK(cudaHostUnregister(p));
    cudaError_t twice = cudaHostUnregister(p);
    if (twice != cudaErrorHostMemoryNotRegistered) c.fail("unregistering twice: %s", cudaGetErrorName(twice));
    cudaGetLastError();

    int *managed;
    CHECK(cudaMallocManaged(&managed, n * sizeof(int)));
    for (int i = 0; i < n; i++) managed[i] = 0;
    cudaMemLocation device = {cudaMemLocationTypeDevice, 0}, host = {cudaMemLocationTypeHost, 0};
    CHECK(cudaMemAdvise(managed, n * sizeof(int), cudaMemAdviseSetPreferredLocation, device));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemPrefetchAsync(managed, n * sizeof(int), device, 0, s));
    fill<<<(n + 255) / 256, 256, 0, s>>>(managed, n, 100);
    CHECK(cudaMemPrefetchAsync(managed, n * sizeof(int), host, 0, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        if (managed[i] != 100 + i * 3) { c.fail("managed memory: element %d: %d", i, managed[i]); break; }
    cudaError_t not_managed = cudaMemPrefetchAsync(dev, 64, device, 0, s);
    if (not_managed != cudaErrorInvalidValue)
        c.fail("prefetching device memory: %s", cudaGetErrorName(not_managed));
    cudaGetLastError();
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(managed));
    CHECK(cudaFree(dev));
    return c.finish();
}
