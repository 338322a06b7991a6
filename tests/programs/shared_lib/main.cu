// Main program linked against libshared_lib.so (kernels in a shared
// library, found at run time through RPATH $ORIGIN). The program also has a
// kernel of its own, so two fatbins from two ELF objects are in use.
#include "test_util.h"
#include "kernels.h"

__global__ void doubled(int n, unsigned *v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= 2;
}

int main() {
    Checker c;
    const int n = 3000;
    unsigned *in = new unsigned[n];
    Lcg rng(5);
    for (int i = 0; i < n; i++) in[i] = rng.next();
    for (int round = 0; round < 2; round++) {
        unsigned bins[16], want[16] = {0};
        for (int i = 0; i < n; i++) want[in[i] & 15]++;
        int rc = lib_histogram16(n, in, bins);
        if (rc != 0) c.fail("lib_histogram16 returned %d", rc);
        for (int b = 0; b < 16; b++) if (bins[b] != want[b]) c.fail("round %d bin %d = %u want %u", round, b, bins[b], want[b]);
        unsigned *d;
        CHECK(cudaMalloc(&d, n * 4));
        CHECK(cudaMemcpy(d, in, n * 4, cudaMemcpyHostToDevice));
        doubled<<<(n + 255) / 256, 256>>>(n, d);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(in, d, n * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaFree(d));
    }
    if (lib_call_count() != 2) c.fail("library kernel ran %llu times", lib_call_count());
    return c.finish();
}
