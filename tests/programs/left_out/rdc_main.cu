// Per-kernel translation across an -rdc link: `mix` calls a device function of another
// translation unit that translates, `multicast` one that does not, so only `multicast` is
// left out of the linked code.
#include "left_out.h"

__device__ unsigned plain_mix(unsigned v);
__device__ unsigned multicast_mix(unsigned *p, unsigned v);

__global__ void mix(unsigned *out, const unsigned *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = plain_mix(in[i]);
}

__global__ void multicast(unsigned *out, const unsigned *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = multicast_mix(out + i, in[i]);
}

int main() {
    Checker c;
    const int n = 777;
    unsigned in[n], out[n];
    Lcg rng(78);
    for (int i = 0; i < n; i++) in[i] = rng.next();
    unsigned *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    if (!ran(c, "mix", [&] { mix<<<(n + 63) / 64, 64>>>(dout, din, n); }))
        c.fail("mix, which translates, was left out");
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (out[i] != ((in[i] << 3) ^ (in[i] >> 2))) c.fail("mix[%d] = %u", i, out[i]);
    if (ran(c, "multicast", [&] { multicast<<<(n + 63) / 64, 64>>>(dout, din, n); })) {
        CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            if (out[i] != in[i] + 12345u) c.fail("multicast[%d] = %u", i, out[i]);
    }
    return c.finish();
}
