// Virtual memory management through the driver API: one physical allocation mapped at two
// addresses shows a kernel's writes at both; a reservation grown by mapping a second
// allocation right after the first is one contiguous buffer to a kernel; the granularity,
// the access a range was given, the handle and properties behind an address; memory kept
// alive by its mapping after cuMemRelease; what an H200 refuses, with its codes: a size off
// the granularity, a misaligned address or a range past the allocation, an overlapping
// mapping, a partial unmap. Checked against the host.
#include "test_util.h"

__global__ void fill(int *p, int base, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = base + (int)(i % 100000);
}

__global__ void sum(const int *p, size_t n, long long *out) {
    long long s = 0;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += p[i];
    atomicAdd((unsigned long long *)out, (unsigned long long)s);
}

static long long host_sum(int base, size_t n) {
    long long s = 0;
    for (size_t i = 0; i < n; i++) s += base + (int)(i % 100000);
    return s;
}

static void expect_error(Checker &c, const char *what, CUresult got, CUresult want) {
    if (got != want) {
        const char *g = "?", *w = "?";
        cuGetErrorName(got, &g);
        cuGetErrorName(want, &w);
        c.fail("%s: %s, want %s", what, g, w);
    }
}

int main() {
    Checker c;
    CHECK(cudaFree(0));
    CUdevice dev;
    CU(cuCtxGetDevice(&dev));
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t g = 0, recommended = 0;
    CU(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CU(cuMemGetAllocationGranularity(&recommended, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    if (!g || recommended % g) c.fail("granularity %zu, recommended %zu", g, recommended);

    CUmemAccessDesc rw = {};
    rw.location = prop.location;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;

    // One allocation at two addresses.
    CUmemGenericAllocationHandle h;
    CU(cuMemCreate(&h, 2 * g, &prop, 0));
    CUdeviceptr va;
    CU(cuMemAddressReserve(&va, 8 * g, 0, 0, 0));
    CU(cuMemMap(va, 2 * g, 0, h, 0));
    CU(cuMemMap(va + 4 * g, 2 * g, 0, h, 0));
    CU(cuMemSetAccess(va, 2 * g, &rw, 1));
    CU(cuMemSetAccess(va + 4 * g, 2 * g, &rw, 1));
    size_t n = 2 * g / sizeof(int);
    fill<<<64, 256>>>((int *)va, 17, n);
    CHECK_LAUNCH();
    long long *total;
    CHECK(cudaMalloc(&total, sizeof *total));
    CHECK(cudaMemset(total, 0, sizeof *total));
    sum<<<64, 256>>>((const int *)(va + 4 * g), n, total);
    CHECK_LAUNCH();
    long long got = 0;
    CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
    if (got != host_sum(17, n)) c.fail("the second mapping sums to %lld, want %lld", got, host_sum(17, n));
    int probe[4];
    CHECK(cudaMemcpy(probe, (void *)(va + 4 * g + 1000 * sizeof(int)), sizeof probe, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++)
        if (probe[i] != 17 + 1000 + i) c.fail("copy from the second mapping: [%d] = %d", i, probe[i]);

    unsigned long long access = 0;
    CU(cuMemGetAccess(&access, &prop.location, va + g));
    if (access != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) c.fail("access %llu", access);
    CUmemGenericAllocationHandle again;
    CU(cuMemRetainAllocationHandle(&again, (void *)(va + 4 * g + 64)));
    if (again != h) c.fail("the handle behind the second mapping is not the one mapped");
    CU(cuMemRelease(again));
    CUmemAllocationProp back = {};
    CU(cuMemGetAllocationPropertiesFromHandle(&back, h));
    if (back.type != CU_MEM_ALLOCATION_TYPE_PINNED || back.location.id != dev ||
        back.location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        c.fail("the allocation's properties read back wrong");

    // What CUDA refuses.
    CUmemGenericAllocationHandle odd;
    expect_error(c, "cuMemCreate of half the granularity", cuMemCreate(&odd, g / 2, &prop, 0),
                 CUDA_ERROR_INVALID_VALUE);
    expect_error(c, "cuMemMap at a misaligned address", cuMemMap(va + 6 * g + 4096, g, 0, h, 0),
                 CUDA_ERROR_NOT_SUPPORTED);
    expect_error(c, "cuMemMap over a mapping", cuMemMap(va + g, 2 * g, 0, h, 0),
                 CUDA_ERROR_INVALID_VALUE);
    expect_error(c, "cuMemMap past the allocation", cuMemMap(va + 6 * g, 2 * g, g, h, 0),
                 CUDA_ERROR_NOT_SUPPORTED);

    // Released while mapped, the memory stays until unmapped.
    CU(cuMemRelease(h));
    CHECK(cudaMemcpy(probe, (void *)va, sizeof probe, cudaMemcpyDeviceToHost));
    if (probe[0] != 17) c.fail("after cuMemRelease the mapping reads %d", probe[0]);
    CU(cuMemUnmap(va, 2 * g));
    CU(cuMemUnmap(va + 4 * g, 2 * g));

    // A buffer that grows in place: a second allocation mapped right after the first.
    CUmemGenericAllocationHandle first, second;
    CU(cuMemCreate(&first, g, &prop, 0));
    CU(cuMemCreate(&second, 3 * g, &prop, 0));
    CU(cuMemMap(va, g, 0, first, 0));
    CU(cuMemSetAccess(va, g, &rw, 1));
    fill<<<64, 256>>>((int *)va, 5, g / sizeof(int));
    CHECK_LAUNCH();
    CU(cuMemMap(va + g, 3 * g, 0, second, 0));
    CU(cuMemSetAccess(va + g, 3 * g, &rw, 1));
    fill<<<64, 256>>>((int *)(va + g), 5 + (int)((g / sizeof(int)) % 100000), 3 * g / sizeof(int));
    CHECK_LAUNCH();
    CHECK(cudaMemset(total, 0, sizeof *total));
    size_t whole = 4 * g / sizeof(int);
    sum<<<64, 256>>>((const int *)va, whole, total);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
    long long want = host_sum(5, g / sizeof(int));
    for (size_t i = 0; i < 3 * g / sizeof(int); i++)
        want += 5 + (int)((g / sizeof(int)) % 100000) + (int)(i % 100000);
    if (got != want) c.fail("the grown buffer sums to %lld, want %lld", got, want);
    expect_error(c, "cuMemUnmap of part of a mapping", cuMemUnmap(va + g, g), CUDA_ERROR_INVALID_VALUE);
    CU(cuMemUnmap(va, 4 * g));
    CU(cuMemRelease(first));
    CU(cuMemRelease(second));
    CU(cuMemAddressFree(va, 8 * g));
    CHECK(cudaFree(total));
    return c.finish();
}
