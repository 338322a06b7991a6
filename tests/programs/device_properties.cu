// Device queries: cudaGetDeviceCount, cudaGetDevice/SetDevice,
// cudaGetDeviceProperties and cudaDeviceGetAttribute, checking only what
// must hold on any CUDA-capable device (warp size 32, at least 1024 threads
// per block, 48 KiB shared memory per block, consistent attribute and
// property values); cudaDriverGetVersion / cudaRuntimeGetVersion; and a
// kernel reading warpSize and %nsmid-style limits through the builtins.
#include "test_util.h"

__global__ void device_side(int *out) {
    out[0] = warpSize;
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    unsigned nsmid;
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    out[1] = smid < nsmid;
    long long t0 = clock64();
    long long t1 = clock64();
    out[2] = t1 >= t0;
}

int main() {
    Checker c;
    int count = 0, dev = -1;
    CHECK(cudaGetDeviceCount(&count));
    if (count < 1) c.fail("device count %d", count);
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    if (dev != 0) c.fail("current device %d", dev);
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    if (p.warpSize != 32) c.fail("warpSize %d", p.warpSize);
    if (p.maxThreadsPerBlock < 1024) c.fail("maxThreadsPerBlock %d", p.maxThreadsPerBlock);
    if (p.maxThreadsDim[0] < 1024 || p.maxThreadsDim[1] < 1024 || p.maxThreadsDim[2] < 64) c.fail("maxThreadsDim");
    if (p.maxGridSize[0] < 65535 || p.maxGridSize[1] < 65535 || p.maxGridSize[2] < 65535) c.fail("maxGridSize");
    if (p.sharedMemPerBlock < 48 * 1024) c.fail("sharedMemPerBlock %zu", p.sharedMemPerBlock);
    if (p.multiProcessorCount < 1) c.fail("multiProcessorCount %d", p.multiProcessorCount);
    if (p.totalGlobalMem == 0) c.fail("totalGlobalMem 0");
    if (p.name[0] == 0) c.fail("empty device name");
    if (p.major < 1) c.fail("compute capability %d.%d", p.major, p.minor);
    int v = 0;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    if (v != p.warpSize) c.fail("attribute warp size %d", v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0));
    if (v != p.maxThreadsPerBlock) c.fail("attribute max threads %d", v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    if (v != p.multiProcessorCount) c.fail("attribute SM count %d", v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    if (v != p.major) c.fail("attribute major %d", v);
    int drv = 0, rt = 0;
    CHECK(cudaDriverGetVersion(&drv));
    CHECK(cudaRuntimeGetVersion(&rt));
    if (rt < 13000 || drv < 1) c.fail("versions: driver %d runtime %d", drv, rt);
    int *d, h[3];
    CHECK(cudaMalloc(&d, sizeof h));
    device_side<<<1, 1>>>(d);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    if (h[0] != 32) c.fail("device warpSize %d", h[0]);
    if (!h[1]) c.fail("%%smid not below %%nsmid");
    if (!h[2]) c.fail("clock64 went backwards");
    return c.finish();
}
