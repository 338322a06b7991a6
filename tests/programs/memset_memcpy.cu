// Linear memory operations: cudaMemset with several byte values, lengths and
// unaligned offsets; cudaMemsetAsync; cudaMemcpy host->device, device->device
// (overlapping-free sub-ranges at odd offsets), device->host, and
// cudaMemcpyDefault with unified addressing; cudaMemGetInfo sanity.
#include "test_util.h"

__global__ void checksum(const unsigned char *p, int n, unsigned long long *out) {
    unsigned long long s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += (unsigned long long)p[i] * (i + 1);
    atomicAdd(out, s);
}

int main() {
    Checker c;
    const int n = 4099;  // odd size
    unsigned char *d, *e;
    CHECK(cudaMalloc(&d, n)); CHECK(cudaMalloc(&e, n));
    unsigned char ref[n], got[n];
    memset(ref, 0, n);
    CHECK(cudaMemset(d, 0, n));
    struct { int off, len, val; } sets[] = {{1, 7, 0xab}, {13, 1000, 0x01}, {1013, 3, 0xff}, {4000, 99, 0x5a}, {2048, 513, 0x80}};
    for (auto &s : sets) { CHECK(cudaMemset(d + s.off, s.val, s.len)); memset(ref + s.off, s.val, s.len); }
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    CHECK(cudaMemsetAsync(d + 3001, 0x33, 17, st)); memset(ref + 3001, 0x33, 17);
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaMemcpy(got, d, n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (got[i] != ref[i]) { c.fail("memset byte %d = %#x want %#x", i, got[i], ref[i]); break; }
    // D2D at odd offsets, then D2H through cudaMemcpyDefault.
    CHECK(cudaMemset(e, 0x11, n));
    CHECK(cudaMemcpy(e + 5, d + 1000, 2001, cudaMemcpyDeviceToDevice));
    unsigned char ref2[n];
    memset(ref2, 0x11, n);
    memcpy(ref2 + 5, ref + 1000, 2001);
    CHECK(cudaMemcpy(got, e, n, cudaMemcpyDefault));
    if (memcmp(got, ref2, n)) c.fail("device-to-device copy");
    // H2D at an offset with cudaMemcpyDefault, then a kernel checksum.
    unsigned char src[300];
    for (int i = 0; i < 300; i++) src[i] = (unsigned char)(i * 7);
    CHECK(cudaMemcpy(e + 777, src, 300, cudaMemcpyDefault));
    memcpy(ref2 + 777, src, 300);
    unsigned long long *dsum, sum = 0, want = 0;
    CHECK(cudaMalloc(&dsum, 8)); CHECK(cudaMemset(dsum, 0, 8));
    checksum<<<1, 128>>>(e, n, dsum);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&sum, dsum, 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) want += (unsigned long long)ref2[i] * (i + 1);
    if (sum != want) c.fail("checksum %llu want %llu", sum, want);
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (total_b == 0 || free_b > total_b) c.fail("cudaMemGetInfo free %zu total %zu", free_b, total_b);
    CHECK(cudaStreamDestroy(st));
    return c.finish();
}
