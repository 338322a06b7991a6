// Managed-memory hints read back (cudaMemAdvise, cudaMemPrefetchAsync, then
// cudaMemRangeGetAttribute(s): read-mostly, preferred location, accessed-by, last prefetch
// location), stream ids (unique, stable), and the device attributes that announce memory
// pools, cooperative launch, host registration and unified addressing. The kernel's results
// on the advised memory are checked against the host.
#include "test_util.h"

__global__ void twice(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= 2;
}

static int range_int(Checker &c, cudaMemRangeAttribute attribute, const void *p, size_t bytes) {
    int value = 12345;
    CHECK(cudaMemRangeGetAttribute(&value, sizeof value, attribute, p, bytes));
    return value;
}

int main() {
    Checker c;
    const int n = 1 << 16;
    int *m;
    CHECK(cudaMallocManaged(&m, n * sizeof(int)));
    for (int i = 0; i < n; i++) m[i] = i - 7;

    cudaMemLocation device0 = {cudaMemLocationTypeDevice, 0}, host = {cudaMemLocationTypeHost, 0};
    if (range_int(c, cudaMemRangeAttributeReadMostly, m, n * sizeof(int)) != 0)
        c.fail("read-mostly before any advice");
    if (range_int(c, cudaMemRangeAttributePreferredLocation, m, n * sizeof(int)) != cudaInvalidDeviceId)
        c.fail("a preferred location before any advice");
    CHECK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetReadMostly, device0));
    CHECK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetPreferredLocation, device0));
    CHECK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetAccessedBy, device0));
    CHECK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetAccessedBy, host));
    if (range_int(c, cudaMemRangeAttributeReadMostly, m, n * sizeof(int)) != 1)
        c.fail("read-mostly after cudaMemAdviseSetReadMostly");
    if (range_int(c, cudaMemRangeAttributePreferredLocation, m, n * sizeof(int)) != 0)
        c.fail("preferred location %d, want device 0",
               range_int(c, cudaMemRangeAttributePreferredLocation, m, n * sizeof(int)));
    int by[4] = {99, 99, 99, 99};
    CHECK(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy, m, n * sizeof(int)));
    bool gpu = false, cpu = false;
    for (int i = 0; i < 4; i++) {
        if (by[i] == 0) gpu = true;
        else if (by[i] == cudaCpuDeviceId) cpu = true;
        else if (by[i] != cudaInvalidDeviceId) c.fail("accessed-by lists %d", by[i]);
    }
    if (!gpu || !cpu) c.fail("accessed-by lists device 0 %d, the CPU %d", gpu, cpu);

    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemPrefetchAsync(m, n * sizeof(int), device0, 0, s));
    twice<<<n / 256, 256, 0, s>>>(m, n);
    CHECK(cudaStreamSynchronize(s));
    if (range_int(c, cudaMemRangeAttributeLastPrefetchLocation, m, n * sizeof(int)) != 0)
        c.fail("last prefetch location, want device 0");
    CHECK(cudaMemPrefetchAsync(m, n * sizeof(int), host, 0, s));
    CHECK(cudaStreamSynchronize(s));
    if (range_int(c, cudaMemRangeAttributeLastPrefetchLocation, m, n * sizeof(int)) != cudaCpuDeviceId)
        c.fail("last prefetch location, want the CPU");
    for (int i = 0; i < n; i++)
        if (m[i] != 2 * (i - 7)) { c.fail("m[%d] = %d, want %d", i, m[i], 2 * (i - 7)); break; }

    // Several attributes at once, after undoing two hints.
    CHECK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseUnsetReadMostly, device0));
    CHECK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseUnsetPreferredLocation, device0));
    int mostly = 7, preferred = 7;
    void *data[] = {&mostly, &preferred};
    size_t sizes[] = {sizeof mostly, sizeof preferred};
    cudaMemRangeAttribute which[] = {cudaMemRangeAttributeReadMostly, cudaMemRangeAttributePreferredLocation};
    CHECK(cudaMemRangeGetAttributes(data, sizes, which, 2, m, n * sizeof(int)));
    if (mostly != 0 || preferred != cudaInvalidDeviceId)
        c.fail("after unsetting: read-mostly %d, preferred %d", mostly, preferred);

    // Stream ids: distinct, and the same each time they are asked for.
    cudaStream_t t;
    CHECK(cudaStreamCreate(&t));
    unsigned long long id_s = 0, id_t = 0, again = 0;
    CHECK(cudaStreamGetId(s, &id_s));
    CHECK(cudaStreamGetId(t, &id_t));
    CHECK(cudaStreamGetId(s, &again));
    if (id_s == id_t || id_s != again) c.fail("stream ids %llu, %llu, then %llu", id_s, id_t, again);

    int value = 0;
    const cudaDeviceAttr announced[] = {cudaDevAttrMemoryPoolsSupported, cudaDevAttrCooperativeLaunch,
                                        cudaDevAttrHostRegisterSupported, cudaDevAttrUnifiedAddressing,
                                        cudaDevAttrManagedMemory};
    for (cudaDeviceAttr a : announced) {
        CHECK(cudaDeviceGetAttribute(&value, a, 0));
        if (value != 1) c.fail("device attribute %d is %d", (int)a, value);
    }
    // Attributes programs divide by or index with: at least one memory-synchronisation
    // domain; no NUMA node (-1) where the device is not in a NUMA configuration.
    CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMemSyncDomainCount, 0));
    if (value < 1) c.fail("%d memory synchronisation domains", value);
    int numa_config = 0, numa_id = 0;
    CHECK(cudaDeviceGetAttribute(&numa_config, cudaDevAttrNumaConfig, 0));
    CHECK(cudaDeviceGetAttribute(&numa_id, cudaDevAttrNumaId, 0));
    if (numa_config == 0 && numa_id != -1) c.fail("NUMA id %d without a NUMA configuration", numa_id);
    // Read-only registration, where announced, works and the device reads the memory.
    CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrHostRegisterReadOnlySupported, 0));
    if (value) {
        static int readonly[1024];
        for (int i = 0; i < 1024; i++) readonly[i] = i;
        CHECK(cudaHostRegister(readonly, sizeof readonly, cudaHostRegisterMapped | cudaHostRegisterReadOnly));
        int *dev = nullptr, back[4] = {};
        CHECK(cudaHostGetDevicePointer((void **)&dev, readonly, 0));
        CHECK(cudaMemcpy(back, dev + 500, sizeof back, cudaMemcpyDeviceToHost));
        if (back[0] != 500 || back[3] != 503) c.fail("read-only registered memory reads %d, %d", back[0], back[3]);
        CHECK(cudaHostUnregister(readonly));
    }

    CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamDestroy(t));
    CHECK(cudaFree(m));
    return c.finish();
}
