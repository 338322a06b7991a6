// Per-kernel translation in one module: `square` and `negate` translate; `multicast`
// uses the instruction itself and `triple` through a device function, so both are left
// out. The program passes when the kept kernels are right and each other one is either
// right or reported as having no code.
#include "left_out.h"

__device__ __noinline__ unsigned triple_one(unsigned *p, unsigned v) {
    multicast_add(p, v);
    return v * 3 + 1;
}

__global__ void square(unsigned *out, const unsigned *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i];
}

__global__ void multicast(unsigned *out, const unsigned *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { multicast_add(out + i, in[i]); out[i] = in[i] ^ 0x55u; }
}

__global__ void triple(unsigned *out, const unsigned *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = triple_one(out + i, in[i]);
}

__global__ void negate(unsigned *out, const unsigned *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 0u - in[i];
}

int main() {
    Checker c;
    const int n = 1000;
    unsigned in[n], out[n];
    Lcg rng(77);
    for (int i = 0; i < n; i++) in[i] = rng.next() % 100000u;
    unsigned *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    struct { const char *name; void (*kernel)(unsigned *, const unsigned *, int); bool kept; } cases[] = {
        {"square", square, true}, {"multicast", multicast, false},
        {"triple", triple, false}, {"negate", negate, true},
    };
    for (auto &k : cases) {
        CHECK(cudaMemset(dout, 0, sizeof out));
        if (!ran(c, k.name, [&] { k.kernel<<<(n + 127) / 128, 128>>>(dout, din, n); })) {
            c.expect(!k.kept, "a kernel that translates was left out");
            continue;
        }
        CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            unsigned want = k.kernel == square ? in[i] * in[i] : k.kernel == multicast ? in[i] ^ 0x55u
                          : k.kernel == triple ? in[i] * 3 + 1 : 0u - in[i];
            if (out[i] != want) c.fail("%s[%d] = %u, expected %u", k.name, i, out[i], want);
        }
    }
    return c.finish();
}
