// Relocatable device code (-rdc=true): the kernel here calls device
// functions defined in math_dev.cu and uses a __device__ global and a
// __constant__ table defined in globals.cu (declared extern here). The
// device linker resolves them; the host sets the table through its symbol.
#include "test_util.h"
#include "shared.h"

__global__ void apply(int n, const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    out[i] = mix(v, table[i % TABLE_SIZE]) + gcd(v < 0 ? -v : v, 84);
    atomicAdd(&processed, 1);
}

int main() {
    Checker c;
    int t[TABLE_SIZE];
    for (int i = 0; i < TABLE_SIZE; i++) t[i] = i * 11 + 1;
    CHECK(cudaMemcpyToSymbol(table, t, sizeof t));
    reset_processed();  // host function in globals.cu
    const int n = 700;
    int in[n], out[n];
    Lcg rng(21);
    for (int i = 0; i < n; i++) in[i] = rng.range(-5000, 5000);
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    apply<<<(n + 127) / 128, 128>>>(n, din, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int w = host_mix(in[i], t[i % TABLE_SIZE]) + host_gcd(in[i] < 0 ? -in[i] : in[i], 84);
        if (out[i] != w) { c.fail("out[%d] = %d want %d", i, out[i], w); break; }
    }
    int p = 0;
    CHECK(cudaMemcpyFromSymbol(&p, processed, sizeof p));
    if (p != n + 7) c.fail("processed %d want %d", p, n + 7);  // reset_processed starts it at 7
    return c.finish();
}
