// Fused multiply-adds whose added constant has the bits of an AMD inline-constant code
// (0x80 to 0xff: denormals of f32 and f16). AMD's compiler puts such a constant in the
// instruction's K field (v_fmaak_f32, v_fmaak_f16, and their dual-issue forms), which a
// disassembler may read as the inline constant of the same code (0xf0 as 0.5): each result
// is checked bit for bit against the same fma computed on the host.
#include <cstring>
#include <cuda_fp16.h>

#include "test_util.h"

static const unsigned constants[] = {0x80, 0x81, 0xc1, 0xf0, 0xf7, 0xfe, 0xff};
static const int N = 256;

__global__ void fma_f32(const float *a, const float *b, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i], y = b[i];
    out[i * 7 + 0] = fmaf(x, y, __uint_as_float(0x80));
    out[i * 7 + 1] = fmaf(x, y, __uint_as_float(0x81));
    out[i * 7 + 2] = fmaf(x, y, __uint_as_float(0xc1));
    out[i * 7 + 3] = fmaf(x, y, __uint_as_float(0xf0));
    out[i * 7 + 4] = fmaf(x, y, __uint_as_float(0xf7));
    out[i * 7 + 5] = fmaf(x, y, __uint_as_float(0xfe));
    out[i * 7 + 6] = fmaf(x, y, __uint_as_float(0xff));
}

__global__ void fma_f16(const __half *a, const __half *b, __half *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half x = a[i], y = b[i];
    out[i * 7 + 0] = __hfma(x, y, __ushort_as_half(0x80));
    out[i * 7 + 1] = __hfma(x, y, __ushort_as_half(0x81));
    out[i * 7 + 2] = __hfma(x, y, __ushort_as_half(0xc1));
    out[i * 7 + 3] = __hfma(x, y, __ushort_as_half(0xf0));
    out[i * 7 + 4] = __hfma(x, y, __ushort_as_half(0xf7));
    out[i * 7 + 5] = __hfma(x, y, __ushort_as_half(0xfe));
    out[i * 7 + 6] = __hfma(x, y, __ushort_as_half(0xff));
}

// f16's fma on the host: exact in double (11-bit significands), rounded once to half by
// float's conversion, which is exact for the sum's 24 bits that matter here: the inputs are
// small denormal-scale values whose products and sums fit float exactly.
static unsigned short half_fma(unsigned short a, unsigned short b, unsigned short c) {
    return __half_as_ushort(__float2half_rn(__half2float(__ushort_as_half(a)) *
                                                __half2float(__ushort_as_half(b)) +
                                            __half2float(__ushort_as_half(c))));
}

int main() {
    Checker c;
    float a[N], b[N], got[N * 7];
    unsigned short ha[N], hb[N], hgot[N * 7];
    for (int i = 0; i < N; i++) {
        a[i] = (float)(i - N / 2) * 1e-21f;
        b[i] = (float)(i % 7 + 1) * 1e-20f;
        ha[i] = __half_as_ushort(__float2half((float)(i - N / 2) / 64.0f));
        hb[i] = __half_as_ushort(__float2half((float)(i % 5 + 1) / 65536.0f));
    }
    float *da, *db, *dout;
    __half *dha, *dhb, *dhout;
    CHECK(cudaMalloc(&da, sizeof a));
    CHECK(cudaMalloc(&db, sizeof b));
    CHECK(cudaMalloc(&dout, sizeof got));
    CHECK(cudaMalloc(&dha, sizeof ha));
    CHECK(cudaMalloc(&dhb, sizeof hb));
    CHECK(cudaMalloc(&dhout, sizeof hgot));
    CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dha, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dhb, hb, sizeof hb, cudaMemcpyHostToDevice));
    fma_f32<<<N / 64, 64>>>(da, db, dout);
    fma_f16<<<N / 64, 64>>>(dha, dhb, dhout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hgot, dhout, sizeof hgot, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 7; k++) {
            float constant, want;
            memcpy(&constant, &constants[k], 4);
            want = fmaf(a[i], b[i], constant);
            if (memcmp(&want, &got[i * 7 + k], 4) != 0)
                c.fail("f32 fma(%a, %a, bits 0x%x) = %a, want %a", a[i], b[i], constants[k],
                       got[i * 7 + k], want);
            unsigned short hw = half_fma(ha[i], hb[i], (unsigned short)constants[k]);
            if (hw != hgot[i * 7 + k])
                c.fail("f16 fma(0x%04x, 0x%04x, bits 0x%x) = 0x%04x, want 0x%04x", ha[i], hb[i],
                       constants[k], hgot[i * 7 + k], hw);
        }
    return c.finish();
}
