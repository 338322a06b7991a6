// cg::reduce with plus/less/greater/bit_and/bit_or/bit_xor and
// cg::inclusive_scan / exclusive_scan over thread_block_tile<32> and <8>.
// Built for sm_86, where cg::reduce on 32-bit integers uses redux.sync.
#include "test_util.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

enum { SUM32, MIN32, MAX32, AND32, OR32, XOR32, SUM8, FSUM8, INC32, EXC32, INC8MAX, NRES };

__global__ void reductions(const int *in, long long *out) {
    auto block = cg::this_thread_block();
    auto t32 = cg::tiled_partition<32>(block);
    auto t8 = cg::tiled_partition<8>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    unsigned u = (unsigned)v * 2654435761u;
    long long *o = out + (size_t)i * NRES;
    o[SUM32] = cg::reduce(t32, v, cg::plus<int>());
    o[MIN32] = cg::reduce(t32, v, cg::less<int>());
    o[MAX32] = cg::reduce(t32, v, cg::greater<int>());
    o[AND32] = cg::reduce(t32, u | 0x80000001u, cg::bit_and<unsigned>());
    o[OR32] = cg::reduce(t32, u & 0x10204080u, cg::bit_or<unsigned>());
    o[XOR32] = cg::reduce(t32, u, cg::bit_xor<unsigned>());
    o[SUM8] = cg::reduce(t8, (long long)v * 1000000007LL, cg::plus<long long>());
    // Halves of small integers: every partial sum is exact, so order does not matter.
    o[FSUM8] = (long long)(cg::reduce(t8, v * 0.5f, cg::plus<float>()) * 2.0f);
    o[INC32] = cg::inclusive_scan(t32, v);
    o[EXC32] = cg::exclusive_scan(t32, v);
    o[INC8MAX] = cg::inclusive_scan(t8, v, cg::greater<int>());
}

int main() {
    Checker c;
    const int block = 96, blocks = 2, n = block * blocks;
    Lcg rng(86);
    int in[n];
    for (int i = 0; i < n; i++) in[i] = rng.range(-5000, 5000);
    int *din; long long *dout;
    CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, n * NRES * 8));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    reductions<<<blocks, block>>>(din, dout);
    CHECK_LAUNCH();
    long long *out = new long long[n * NRES];
    CHECK(cudaMemcpy(out, dout, n * NRES * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int lane = i % 32, w0 = i - lane, l8 = i % 8, e0 = i - l8;
        long long w[NRES];
        int sum = 0, mn = INT32_MAX, mx = INT32_MIN, inc = 0, exc = 0;
        unsigned a = ~0u, o_ = 0, x = 0;
        for (int l = 0; l < 32; l++) {
            int v = in[w0 + l];
            unsigned u = (unsigned)v * 2654435761u;
            sum += v; mn = v < mn ? v : mn; mx = v > mx ? v : mx;
            a &= u | 0x80000001u; o_ |= u & 0x10204080u; x ^= u;
            if (l <= lane) inc += v;
            if (l < lane) exc += v;
        }
        long long s8 = 0, f8 = 0; int m8 = INT32_MIN;
        for (int l = 0; l < 8; l++) {
            s8 += (long long)in[e0 + l] * 1000000007LL; f8 += in[e0 + l];
            if (l <= l8) m8 = in[e0 + l] > m8 ? in[e0 + l] : m8;
        }
        w[SUM32] = sum; w[MIN32] = mn; w[MAX32] = mx;
        w[AND32] = a; w[OR32] = o_; w[XOR32] = x;
        w[SUM8] = s8; w[FSUM8] = f8; w[INC32] = inc; w[EXC32] = exc; w[INC8MAX] = m8;
        for (int r = 0; r < NRES; r++)
            if (out[i * NRES + r] != w[r]) c.fail("thread %d op %d: %lld want %lld", i, r, out[i * NRES + r], w[r]);
    }
    return c.finish();
}
