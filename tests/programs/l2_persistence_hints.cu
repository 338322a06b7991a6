// Persisting-L2 hints, as programs tuned for Ampere and later give them: the device
// attributes that size them, cudaLimitPersistingL2CacheSize (taken in sixteenths of the L2,
// refused past its maximum), a stream's access policy window set, read back, refused when
// too large or with a hit ratio past 1, copied to another stream, a launch attribute with
// the same window, and cudaCtxResetPersistingL2Cache. The kernels give the same results.
#include "test_util.h"

__global__ void add_one(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

int main() {
    Checker c;
    int l2 = 0, max_persisting = 0, max_window = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    CHECK(cudaDeviceGetAttribute(&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, 0));
    CHECK(cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, 0));
    if (max_persisting <= 0 || max_persisting > l2 || max_window <= 0)
        c.fail("L2 %d, persisting at most %d, window at most %d", l2, max_persisting, max_window);
    size_t limit = 0;
    CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1 << 20));
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize));
    size_t step = (size_t)l2 / 16;
    if (limit < (1 << 20) || limit % step != 0) c.fail("limit %zu for 1 MiB asked (L2 %d)", limit, l2);
    cudaError_t e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, (size_t)max_persisting + step);
    if (e != cudaErrorInvalidValue) c.fail("a limit past the maximum: %s", cudaGetErrorName(e));
    cudaGetLastError();

    const int n = 4096;
    int *d;
    CHECK(cudaMalloc(&d, n * 4));
    CHECK(cudaMemset(d, 0, n * 4));
    cudaStream_t s, t;
    CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -1));
    CHECK(cudaStreamCreate(&t));
    cudaStreamAttrValue v = {};
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    if (v.accessPolicyWindow.base_ptr || v.accessPolicyWindow.num_bytes) c.fail("a new stream has a window");
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributePriority, &v));
    if (v.priority != -1) c.fail("priority attribute %d, want -1", v.priority);
    cudaStreamAttrValue w = {};
    w.accessPolicyWindow.base_ptr = d;
    w.accessPolicyWindow.num_bytes = n * 4;
    w.accessPolicyWindow.hitRatio = 0.6f;
    w.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    w.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &w));
    v = {};
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    if (v.accessPolicyWindow.base_ptr != d || v.accessPolicyWindow.num_bytes != n * 4 ||
        v.accessPolicyWindow.hitRatio != 0.6f || v.accessPolicyWindow.hitProp != cudaAccessPropertyPersisting ||
        v.accessPolicyWindow.missProp != cudaAccessPropertyStreaming)
        c.fail("the window read back differs");
    cudaStreamAttrValue bad = w;
    bad.accessPolicyWindow.num_bytes = (size_t)max_window + 1;
    e = cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &bad);
    if (e != cudaErrorInvalidValue) c.fail("a window past the maximum: %s", cudaGetErrorName(e));
    cudaGetLastError();
    bad = w;
    bad.accessPolicyWindow.hitRatio = 1.5f;
    e = cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &bad);
    if (e != cudaErrorInvalidValue) c.fail("a hit ratio of 1.5: %s", cudaGetErrorName(e));
    cudaGetLastError();
    CHECK(cudaStreamCopyAttributes(t, s));
    v = {};
    CHECK(cudaStreamGetAttribute(t, cudaStreamAttributeAccessPolicyWindow, &v));
    if (v.accessPolicyWindow.num_bytes != n * 4) c.fail("copied window: %zu bytes", v.accessPolicyWindow.num_bytes);

    add_one<<<n / 256, 256, 0, s>>>(d, n);
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeAccessPolicyWindow;
    a[0].val.accessPolicyWindow = w.accessPolicyWindow;
    cudaLaunchConfig_t config = {};
    config.gridDim = n / 256;
    config.blockDim = 256;
    config.stream = s;
    config.attrs = a;
    config.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&config, add_one, d, n));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaCtxResetPersistingL2Cache());
    int h[n];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h[i] != 2) { c.fail("element %d: %d, want 2", i, h[i]); break; }
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamDestroy(t));
    CHECK(cudaFree(d));
    return c.finish();
}
