// Stream-ordered allocation: cudaMallocAsync and cudaFreeAsync in a loop on one stream reuse
// what was freed (the pool's reserved high-water mark stays far below the sum of the
// allocations); the pool's counters (used and reserved, current and high); the release
// threshold (memory goes back at the next synchronisation unless the threshold holds it);
// cudaMemPoolTrimTo; a created pool, as the device's current pool and allocated from
// directly; memory freed on one stream and allocated on another; cudaFree of pool memory.
// Every result is checked against the host.
#include "test_util.h"

__global__ void fill_value(int *p, int value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = value + i;
}

__global__ void accumulate(long long *sum, const int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd((unsigned long long *)sum, (unsigned long long)(long long)p[i]);
}

static uint64_t attribute(cudaMemPool_t pool, cudaMemPoolAttr attr) {
    uint64_t value = 0;
    CHECK(cudaMemPoolGetAttribute(pool, attr, &value));
    return value;
}

static const int N = 1 << 18;  // 1 MiB of ints
static const size_t BYTES = N * sizeof(int);

// 100 rounds of allocate, fill, sum, free on one stream.
static void check_loop(Checker &c, cudaMemPool_t pool, cudaStream_t s) {
    long long *sum;
    CHECK(cudaMalloc(&sum, sizeof *sum));
    CHECK(cudaMemsetAsync(sum, 0, sizeof *sum, s));
    const int rounds = 100;
    for (int r = 0; r < rounds; r++) {
        int *p;
        CHECK(cudaMallocAsync(&p, BYTES, s));
        fill_value<<<N / 256, 256, 0, s>>>(p, r, N);
        accumulate<<<N / 256, 256, 0, s>>>(sum, p, N);
        CHECK(cudaFreeAsync(p, s));
    }
    long long got;
    CHECK(cudaMemcpyAsync(&got, sum, sizeof got, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    long long want = 0;
    for (int r = 0; r < rounds; r++) want += (long long)r * N + (long long)N * (N - 1) / 2;
    if (got != want) c.fail("the loop summed %lld, want %lld", got, want);
    uint64_t high = attribute(pool, cudaMemPoolAttrReservedMemHigh);
    if (high < BYTES || high >= rounds * BYTES / 2)
        c.fail("reserved high-water mark %llu bytes for %d rounds of %zu", (unsigned long long)high,
               rounds, BYTES);
    if (attribute(pool, cudaMemPoolAttrUsedMemCurrent) != 0)
        c.fail("%llu bytes still used after every free", (unsigned long long)attribute(pool, cudaMemPoolAttrUsedMemCurrent));
    CHECK(cudaFree(sum));
}

static void check_threshold(Checker &c, cudaMemPool_t pool, cudaStream_t s) {
    uint64_t keep_all = UINT64_MAX, none = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
    int *p;
    CHECK(cudaMallocAsync(&p, BYTES, s));
    CHECK(cudaStreamSynchronize(s));
    if (attribute(pool, cudaMemPoolAttrUsedMemCurrent) < BYTES)
        c.fail("%llu bytes used with %zu allocated", (unsigned long long)attribute(pool, cudaMemPoolAttrUsedMemCurrent), BYTES);
    CHECK(cudaFreeAsync(p, s));
    CHECK(cudaStreamSynchronize(s));
    if (attribute(pool, cudaMemPoolAttrReservedMemCurrent) < BYTES)
        c.fail("the pool kept %llu bytes under an unlimited threshold",
               (unsigned long long)attribute(pool, cudaMemPoolAttrReservedMemCurrent));
    CHECK(cudaMemPoolTrimTo(pool, 0));
    if (attribute(pool, cudaMemPoolAttrReservedMemCurrent) != 0)
        c.fail("%llu bytes reserved after trimming to 0",
               (unsigned long long)attribute(pool, cudaMemPoolAttrReservedMemCurrent));

    // With a threshold of 0, the next synchronisation gives idle memory back.
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &none));
    CHECK(cudaMallocAsync(&p, BYTES, s));
    CHECK(cudaFreeAsync(p, s));
    CHECK(cudaStreamSynchronize(s));
    if (attribute(pool, cudaMemPoolAttrReservedMemCurrent) != 0)
        c.fail("%llu bytes reserved after a synchronisation with a threshold of 0",
               (unsigned long long)attribute(pool, cudaMemPoolAttrReservedMemCurrent));
    uint64_t zero = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero));
    if (attribute(pool, cudaMemPoolAttrReservedMemHigh) != 0)
        c.fail("the reserved high-water mark is %llu after a reset with nothing reserved",
               (unsigned long long)attribute(pool, cudaMemPoolAttrReservedMemHigh));
    int flag = 0;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &flag));
    if (flag != 1) c.fail("opportunistic reuse is %d by default", flag);
}

static void check_created_pool(Checker &c, cudaStream_t s, cudaStream_t other) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool, current;
    CHECK(cudaMemPoolCreate(&pool, &props));

    int *p, host[64];
    CHECK(cudaMallocFromPoolAsync(&p, BYTES, pool, s));
    if (attribute(pool, cudaMemPoolAttrUsedMemCurrent) < BYTES) c.fail("the created pool did not hand out the block");
    fill_value<<<N / 256, 256, 0, s>>>(p, 7, N);
    CHECK(cudaFreeAsync(p, s));

    // Freed on s, allocated on another stream after an event: its contents are the fill's.
    cudaEvent_t freed;
    CHECK(cudaEventCreateWithFlags(&freed, cudaEventDisableTiming));
    CHECK(cudaEventRecord(freed, s));
    CHECK(cudaStreamWaitEvent(other, freed, 0));
    int *q;
    CHECK(cudaMallocFromPoolAsync(&q, BYTES, pool, other));
    fill_value<<<N / 256, 256, 0, other>>>(q, 100, N);
    CHECK(cudaMemcpyAsync(host, q, sizeof host, cudaMemcpyDeviceToHost, other));
    CHECK(cudaStreamSynchronize(other));
    for (int i = 0; i < 64; i++)
        if (host[i] != 100 + i) c.fail("block from the other stream: [%d] = %d", i, host[i]);
    CHECK(cudaFreeAsync(q, other));

    // As the device's current pool, it serves cudaMallocAsync.
    CHECK(cudaDeviceSetMemPool(0, pool));
    CHECK(cudaDeviceGetMemPool(&current, 0));
    if (current != pool) c.fail("the device's current pool is not the one set");
    CHECK(cudaMallocAsync(&p, BYTES, s));
    if (attribute(pool, cudaMemPoolAttrUsedMemCurrent) < BYTES) c.fail("cudaMallocAsync did not use the current pool");
    fill_value<<<1, 64, 0, s>>>(p, -5, 64);
    CHECK(cudaMemcpyAsync(host, p, sizeof host, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < 64; i++)
        if (host[i] != i - 5) c.fail("block of the current pool: [%d] = %d", i, host[i]);
    // cudaFree takes pool memory too (an H200 goes on counting it as used).
    CHECK(cudaFree(p));

    cudaMemPool_t fallback;
    CHECK(cudaDeviceGetDefaultMemPool(&fallback, 0));
    CHECK(cudaDeviceSetMemPool(0, fallback));
    CHECK(cudaStreamSynchronize(other));
    CHECK(cudaMemPoolDestroy(pool));
    CHECK(cudaEventDestroy(freed));
}

int main() {
    Checker c;
    cudaStream_t s, other;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    uint64_t keep_all = UINT64_MAX;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
    check_loop(c, pool, s);
    check_threshold(c, pool, s);
    check_created_pool(c, s, other);

    // Memory cudaMalloc gave is freed in stream order too, after the work before it.
    int *plain, host[64];
    CHECK(cudaMalloc(&plain, 64 * sizeof(int)));
    fill_value<<<1, 64, 0, s>>>(plain, 3, 64);
    CHECK(cudaMemcpyAsync(host, plain, sizeof host, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(plain, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < 64; i++)
        if (host[i] != 3 + i) c.fail("work before cudaFreeAsync of cudaMalloc memory: [%d] = %d", i, host[i]);
    cudaError_t e = cudaFree(plain);
    if (e != cudaErrorInvalidValue) c.fail("cudaFree after cudaFreeAsync: %s", cudaGetErrorName(e));
    cudaGetLastError();
    e = cudaFreeAsync(host, s);
    if (e != cudaErrorInvalidValue) c.fail("cudaFreeAsync of host memory: %s", cudaGetErrorName(e));
    cudaGetLastError();
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamDestroy(other));
    return c.finish();
}
