// A reserved range is one address range across its mappings: two physical allocations
// mapped back to back are one buffer to a kernel, to copies (to and from the host, device
// to device, partial ranges), to memsets and to access control, whichever mapping a range
// starts in. A range with an unmapped hole is not: copies and memsets across the hole are
// refused, and a kernel that touches it faults; access control and unmapping pass over the
// hole between two mappings, access control refusing a range that starts or ends in it. What an H200
// answers for each (the codes, and the address range of a pointer in the second mapping)
// is what is checked.
#include "test_util.h"

#include <vector>

__global__ void fill(int *p, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = (int)(i * 2654435761u);
}

__global__ void touch(volatile int *p) { p[0] = 1; }

static void expect_error(Checker &c, const char *what, CUresult got, CUresult want) {
    if (got != want) {
        const char *g = "?", *w = "?";
        cuGetErrorName(got, &g);
        cuGetErrorName(want, &w);
        c.fail("%s: %s, want %s", what, g, w);
    }
}

static int value(size_t i) { return (int)(i * 2654435761u); }

int main() {
    Checker c;
    CHECK(cudaFree(0));
    CUdevice dev;
    CU(cuCtxGetDevice(&dev));
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t g = 0;
    CU(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemAccessDesc rw = {};
    rw.location = prop.location;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;

    // Two allocations mapped back to back, access given to both in one call.
    CUmemGenericAllocationHandle a, b;
    CU(cuMemCreate(&a, 2 * g, &prop, 0));
    CU(cuMemCreate(&b, 2 * g, &prop, 0));
    CUdeviceptr va;
    CU(cuMemAddressReserve(&va, 8 * g, 0, 0, 0));
    CU(cuMemMap(va, 2 * g, 0, a, 0));
    CU(cuMemMap(va + 2 * g, 2 * g, 0, b, 0));
    CU(cuMemSetAccess(va, 4 * g, &rw, 1));
    const size_t bytes = 4 * g, n = bytes / 4;

    // A kernel writes the whole range; one copy reads both mappings back.
    fill<<<64, 256>>>((int *)va, n);
    CHECK_LAUNCH();
    std::vector<int> host(n);
    CU(cuMemcpyDtoH(host.data(), va, bytes));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += host[i] != value(i);
    if (bad) c.fail("copy of both mappings: %zu of %zu words differ", bad, n);

    // A memset across the boundary, then a partial copy of it.
    const size_t seam = 2 * g;
    CU(cuMemsetD32(va + seam - 64, 0xabcdef01u, 32));
    int around[64];
    CU(cuMemcpyDtoH(around, va + seam - 128, sizeof around));
    for (int i = 0; i < 64; i++) {
        int want = i >= 16 && i < 48 ? (int)0xabcdef01u : value((seam - 128) / 4 + i);
        if (around[i] != want) c.fail("memset across the seam: word %d = %#x, want %#x", i, around[i], want);
    }
    // From the host into a range spanning the seam, and device to device across it.
    std::vector<int> pattern(g / 4);
    for (size_t i = 0; i < pattern.size(); i++) pattern[i] = (int)(0x51000000 + i);
    CU(cuMemcpyHtoD(va + seam - g / 2, pattern.data(), g));
    CUdeviceptr flat;
    CU(cuMemAlloc(&flat, g));
    CU(cuMemcpyDtoD(flat, va + seam - g / 2, g));
    CU(cuMemcpyDtoD(va + g / 4, flat, g));  // back, inside the first mapping
    std::vector<int> back(g / 4);
    CU(cuMemcpyDtoH(back.data(), va + g / 4, g));
    for (size_t i = 0; i < back.size(); i++)
        if (back[i] != pattern[i]) { c.fail("device-to-device across the seam: word %zu = %#x", i, back[i]); break; }
    CU(cuMemsetD8Async(va + seam - 3, 0x7e, 6, 0));
    unsigned char bytes6[8];
    CU(cuMemcpyDtoHAsync(bytes6, va + seam - 4, 8, 0));
    CU(cuStreamSynchronize(0));
    for (int i = 0; i < 8; i++) {
        unsigned char want = i >= 1 && i < 7 ? 0x7e : ((unsigned char *)pattern.data())[g / 2 - 4 + i];
        if (bytes6[i] != want) c.fail("async memset across the seam: byte %d = %#x, want %#x", i, bytes6[i], want);
    }

    // The address range of a pointer in the second mapping: its mapping.
    CUdeviceptr base = 0;
    size_t size = 0;
    CU(cuMemGetAddressRange(&base, &size, va + seam + 4));
    if (base != va + seam || size != 2 * g)
        c.fail("cuMemGetAddressRange(second mapping + 4) = %#llx + %zu, want %#llx + %zu",
               (unsigned long long)base, size, (unsigned long long)(va + seam), 2 * g);

    // A hole: copies and memsets across it are refused; nothing on either side changes.
    CUdeviceptr hv;
    CU(cuMemAddressReserve(&hv, 6 * g, 0, 0, 0));
    CU(cuMemUnmap(va, 2 * g));
    CU(cuMemMap(hv, 2 * g, 0, a, 0));
    CU(cuMemMap(hv + 4 * g, 2 * g, 0, b, 0));
    CU(cuMemSetAccess(hv, 2 * g, &rw, 1));
    CU(cuMemSetAccess(hv + 4 * g, 2 * g, &rw, 1));
    // An H200 accepts access given over the hole too.
    expect_error(c, "cuMemSetAccess over the hole", cuMemSetAccess(hv, 6 * g, &rw, 1), CUDA_SUCCESS);
    int edge_before[2], edge[2];
    CU(cuMemcpyDtoH(edge_before, hv + 2 * g - 8, 8));
    std::vector<int> wide(6 * g / 4);
    expect_error(c, "cuMemcpyDtoH across the hole", cuMemcpyDtoH(wide.data(), hv + g, 2 * g), CUDA_ERROR_INVALID_VALUE);
    expect_error(c, "cuMemsetD32 across the hole", cuMemsetD32(hv + 2 * g - 8, 0, 4), CUDA_ERROR_INVALID_VALUE);
    CU(cuMemcpyDtoH(edge, hv + 2 * g - 8, 8));
    if (edge[0] != edge_before[0] || edge[1] != edge_before[1])
        c.fail("the words before the hole changed: %#x %#x, were %#x %#x", edge[0], edge[1],
               edge_before[0], edge_before[1]);

    // Access takes a range that starts where a mapping starts and ends where one ends, holes
    // between included; an unmapped start or end, or a cut mapping, is refused. Unmapping
    // takes any range that cuts no mapping.
    expect_error(c, "cuMemSetAccess ending in the hole", cuMemSetAccess(hv, 3 * g, &rw, 1), CUDA_ERROR_INVALID_VALUE);
    expect_error(c, "cuMemSetAccess starting in the hole", cuMemSetAccess(hv + 2 * g, 4 * g, &rw, 1), CUDA_ERROR_INVALID_VALUE);
    expect_error(c, "cuMemSetAccess cutting a mapping", cuMemSetAccess(hv + g, 5 * g, &rw, 1), CUDA_ERROR_INVALID_VALUE);
    expect_error(c, "cuMemUnmap cutting a mapping", cuMemUnmap(hv + g, 2 * g), CUDA_ERROR_INVALID_VALUE);
    expect_error(c, "cuMemUnmap over the hole", cuMemUnmap(hv, 6 * g), CUDA_SUCCESS);

    // A kernel that writes into the hole faults (and the context is lost: last).
    touch<<<1, 1>>>((int *)(hv + 3 * g));
    cudaError_t fault = cudaDeviceSynchronize();
    if (fault != cudaErrorIllegalAddress)
        c.fail("a kernel writing into the hole: %s, want cudaErrorIllegalAddress", cudaGetErrorName(fault));
    return c.finish();
}
