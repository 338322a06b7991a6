// f16x2 and bf16x2 comparisons, each half on its own: the __h*2 intrinsics (set.*.f16x2
// with a half2 result), the __hb*2 ones (setp with both halves and-ed), unordered forms,
// and inline PTX for set to u32 and setp's p|q pair. Inputs mix ordinary values with
// +-0, subnormals, infinities and NaNs; results are checked against the same comparisons
// done on the host (test_util.h's half_value and bf16_value).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cmath>

#include "test_util.h"

enum { N = 4096, OPS = 9 };

__global__ void compare(const __half2 *a, const __half2 *b, const __nv_bfloat162 *c,
                        const __nv_bfloat162 *d, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N)
        return;
    __half2 x = a[i], y = b[i];
    unsigned *o = out + i * OPS;
    __half2 lt = __hlt2(x, y), geu = __hgeu2(x, y), ne = __hne2(x, y);
    o[0] = *(unsigned *)&lt;
    o[1] = *(unsigned *)&geu;
    o[2] = *(unsigned *)&ne;
    o[3] = __hble2(x, y);
    o[4] = __hbequ2(x, y);
    __nv_bfloat162 blt = __hlt2(c[i], d[i]);
    o[5] = *(unsigned *)&blt;
    unsigned u, p, q;
    asm("set.gtu.u32.f16x2 %0, %1, %2;" : "=r"(u) : "r"(*(const unsigned *)&x), "r"(*(const unsigned *)&y));
    o[6] = u;
    asm("{ .reg .pred p, q; setp.num.f16x2 p|q, %2, %3; selp.u32 %0, 1, 0, p; selp.u32 %1, 1, 0, q; }"
        : "=r"(p), "=r"(q) : "r"(*(const unsigned *)&x), "r"(*(const unsigned *)&y));
    o[7] = p;
    o[8] = q;
}

static const uint16_t half_edges[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00,
                                      0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x3555};
static const uint16_t bf16_edges[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x3f80, 0xbf80,
                                      0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0x3eab};

int main()
{
    static uint32_t a[N], b[N], c[N], d[N], got[N * OPS];
    Lcg rng(424242);
    for (int i = 0; i < N; i++) {
        uint16_t h[4], g[4];
        for (int k = 0; k < 4; k++) {
            uint32_t r = rng.next();
            h[k] = r % 4 == 0 ? half_edges[r >> 8 & 15] : (uint16_t)(r >> 12);
            g[k] = r % 4 == 0 ? bf16_edges[r >> 8 & 15] : (uint16_t)(r >> 12);
        }
        if (i % 8 == 1) { h[2] = h[0]; h[3] = h[1]; g[2] = g[0]; g[3] = g[1]; }   // equal halves
        a[i] = h[0] | (uint32_t)h[1] << 16;
        b[i] = h[2] | (uint32_t)h[3] << 16;
        c[i] = g[0] | (uint32_t)g[1] << 16;
        d[i] = g[2] | (uint32_t)g[3] << 16;
    }
    void *da, *db, *dc, *dd;
    unsigned *dout;
    CHECK(cudaMalloc(&da, sizeof a));
    CHECK(cudaMalloc(&db, sizeof b));
    CHECK(cudaMalloc(&dc, sizeof c));
    CHECK(cudaMalloc(&dd, sizeof d));
    CHECK(cudaMalloc(&dout, sizeof got));
    CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dd, d, sizeof d, cudaMemcpyHostToDevice));
    compare<<<N / 128, 128>>>((const __half2 *)da, (const __half2 *)db, (const __nv_bfloat162 *)dc,
                              (const __nv_bfloat162 *)dd, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
    Checker ck;
    for (int i = 0; i < N; i++) {
        double x[2] = {half_value((uint16_t)a[i]), half_value((uint16_t)(a[i] >> 16))};
        double y[2] = {half_value((uint16_t)b[i]), half_value((uint16_t)(b[i] >> 16))};
        double u[2] = {bf16_value((uint16_t)c[i]), bf16_value((uint16_t)(c[i] >> 16))};
        double v[2] = {bf16_value((uint16_t)d[i]), bf16_value((uint16_t)(d[i] >> 16))};
        uint32_t want[OPS] = {0, 0, 0, 1, 1, 0, 0, 0, 0};
        for (int h = 0; h < 2; h++) {
            bool un = std::isnan(x[h]) || std::isnan(y[h]);
            want[0] |= (uint32_t)(x[h] < y[h] ? 0x3c00 : 0) << 16 * h;
            want[1] |= (uint32_t)(un || x[h] >= y[h] ? 0x3c00 : 0) << 16 * h;
            want[2] |= (uint32_t)(!un && x[h] != y[h] ? 0x3c00 : 0) << 16 * h;
            want[3] &= x[h] <= y[h];
            want[4] &= un || x[h] == y[h];
            want[5] |= (uint32_t)(u[h] < v[h] ? 0x3f80 : 0) << 16 * h;
            want[6] |= (uint32_t)(un || x[h] > y[h] ? 0xffff : 0) << 16 * h;
            want[7 + h] = !un;
        }
        for (int k = 0; k < OPS; k++)
            if (got[i * OPS + k] != want[k])
                ck.fail("op %d on a=%08x b=%08x (bf16 %08x %08x): %08x want %08x", k, a[i], b[i], c[i],
                        d[i], got[i * OPS + k], want[k]);
    }
    return ck.finish();
}
