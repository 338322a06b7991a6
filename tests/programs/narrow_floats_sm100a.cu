// The sm_100 narrow float conversions that CUDA's cuda_fp4.h, cuda_fp6.h and cuda_fp8.h
// compile to single PTX instructions on sm_100a (cvt to and from e2m1x2, e2m3x2, e3m2x2,
// ue8m0x2), checked against the same headers' host code, NVIDIA's software rendering of
// them. Inputs: ties and boundaries of every format, powers of two and their neighbours,
// zeros, infinities, NaNs, subnormals and random words.
#include "test_util.h"
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

enum { TO_E2M1, TO_E2M3, TO_E3M2, TO_E4M3, FROM_E2M1, FROM_E2M3, FROM_E3M2,
       TO_UE8M0_RZ_SAT, TO_UE8M0_RZ, TO_UE8M0_RP_SAT, TO_UE8M0_RP,
       BF16_TO_UE8M0_RZ_SAT, BF16_TO_UE8M0_RZ, BF16_TO_UE8M0_RP_SAT, BF16_TO_UE8M0_RP,
       FROM_UE8M0, NOPS };

static const char *const names[NOPS] = {
    "float2 -> e2m1x2", "float2 -> e2m3x2", "float2 -> e3m2x2", "float2 -> e4m3x2",
    "e2m1x2 -> half2", "e2m3x2 -> half2", "e3m2x2 -> half2",
    "float2 -> ue8m0x2 rz satfinite", "float2 -> ue8m0x2 rz", "float2 -> ue8m0x2 rp satfinite",
    "float2 -> ue8m0x2 rp", "bfloat162 -> ue8m0x2 rz satfinite", "bfloat162 -> ue8m0x2 rz",
    "bfloat162 -> ue8m0x2 rp satfinite", "bfloat162 -> ue8m0x2 rp", "ue8m0x2 -> bfloat162",
};

// The same code on the device (one cvt each on sm_100a) and on the host (the headers'
// software conversions).
__host__ __device__ static unsigned convert(int op, float x, float y, unsigned bits)
{
    float2 v = make_float2(x, y);
    __nv_bfloat162_raw b;
    b.x = (unsigned short)bits;
    b.y = (unsigned short)(bits >> 16);
    __half2_raw h;
    switch (op) {
    case TO_E2M1: return __nv_cvt_float2_to_fp4x2(v, __NV_E2M1, cudaRoundNearest);
    case TO_E2M3: return __nv_cvt_float2_to_fp6x2(v, __NV_E2M3, cudaRoundNearest);
    case TO_E3M2: return __nv_cvt_float2_to_fp6x2(v, __NV_E3M2, cudaRoundNearest);
    case TO_E4M3: return __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
    case FROM_E2M1: h = __nv_cvt_fp4x2_to_halfraw2((__nv_fp4x2_storage_t)bits, __NV_E2M1); break;
    case FROM_E2M3: h = __nv_cvt_fp6x2_to_halfraw2((__nv_fp6x2_storage_t)(bits & 0x3f3f), __NV_E2M3); break;
    case FROM_E3M2: h = __nv_cvt_fp6x2_to_halfraw2((__nv_fp6x2_storage_t)(bits & 0x3f3f), __NV_E3M2); break;
    case TO_UE8M0_RZ_SAT: return __nv_cvt_float2_to_e8m0x2(v, __NV_SATFINITE, cudaRoundZero);
    case TO_UE8M0_RZ: return __nv_cvt_float2_to_e8m0x2(v, __NV_NOSAT, cudaRoundZero);
    case TO_UE8M0_RP_SAT: return __nv_cvt_float2_to_e8m0x2(v, __NV_SATFINITE, cudaRoundPosInf);
    case TO_UE8M0_RP: return __nv_cvt_float2_to_e8m0x2(v, __NV_NOSAT, cudaRoundPosInf);
    case BF16_TO_UE8M0_RZ_SAT: return __nv_cvt_bfloat162raw_to_e8m0x2(b, __NV_SATFINITE, cudaRoundZero);
    case BF16_TO_UE8M0_RZ: return __nv_cvt_bfloat162raw_to_e8m0x2(b, __NV_NOSAT, cudaRoundZero);
    case BF16_TO_UE8M0_RP_SAT: return __nv_cvt_bfloat162raw_to_e8m0x2(b, __NV_SATFINITE, cudaRoundPosInf);
    case BF16_TO_UE8M0_RP: return __nv_cvt_bfloat162raw_to_e8m0x2(b, __NV_NOSAT, cudaRoundPosInf);
    default: b = __nv_cvt_e8m0x2_to_bf162raw((__nv_fp8x2_storage_t)bits); return b.x | (unsigned)b.y << 16;
    }
    return h.x | (unsigned)h.y << 16;
}

__global__ void conversions(int count, const float *x, const float *y, const unsigned *bits, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    for (int op = 0; op < NOPS; op++)
        out[(size_t)i * NOPS + op] = convert(op, x[i], y[i], bits[i]);
}

static float from_bits(unsigned u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

int main()
{
    Checker c;
    const int n = 16384;
    Lcg rng(0xf4f6e8);
    float *x = new float[n], *y = new float[n];
    unsigned *bits = new unsigned[n];
    const float special[] = {
        0.f, -0.f, 0.25f, 0.26f, 0.5f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.f, 6.f, 6.5f, 7.f, 7.5f,
        7.75f, 8.f, 28.f, 30.f, 32.f, 1e-3f, -1e-3f, 0.0625f, 0.03125f, 0.09375f, 448.f, 500.f,
        INFINITY, -INFINITY, NAN, -NAN, 1e-40f, -1e-40f, 3e38f, -3e38f, 5.877472e-39f, 1.17549435e-38f,
    };
    const int ns = sizeof special / sizeof special[0];
    for (int i = 0; i < n; i++) {
        if (i < ns * ns) {
            x[i] = special[i % ns];
            y[i] = special[i / ns];
        } else if (i % 4 == 0) {  // multiples of 1/16 up to +-40: the narrow formats' ties
            x[i] = (float)rng.range(-640, 640) / 16;
            y[i] = (float)rng.range(-640, 640) / 16;
        } else if (i % 4 == 1) {  // powers of two and their neighbours, every exponent
            int e = rng.range(-126, 128);
            unsigned u = (unsigned)(e + 127) << 23;
            x[i] = from_bits(u + (unsigned)rng.range(-2, 3)) * (rng.next() & 1 ? -1 : 1);
            y[i] = from_bits((rng.next() % 254 + 1) << 23 | (rng.next() & 0x1ffff));
        } else {
            x[i] = from_bits(rng.next());
            y[i] = from_bits(rng.next());
        }
        bits[i] = i < 65536 && i < n / 4 ? (unsigned)i * 0x00010001u : rng.next();
    }
    float *dx, *dy;
    unsigned *dbits, *dout;
    CHECK(cudaMalloc(&dx, n * 4)); CHECK(cudaMalloc(&dy, n * 4)); CHECK(cudaMalloc(&dbits, n * 4));
    CHECK(cudaMalloc(&dout, (size_t)n * NOPS * 4));
    CHECK(cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbits, bits, n * 4, cudaMemcpyHostToDevice));
    conversions<<<n / 128, 128>>>(n, dx, dy, dbits, dout);
    CHECK_LAUNCH();
    unsigned *out = new unsigned[(size_t)n * NOPS];
    CHECK(cudaMemcpy(out, dout, (size_t)n * NOPS * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        for (int op = 0; op < NOPS; op++) {
            unsigned want = convert(op, x[i], y[i], bits[i]), got = out[(size_t)i * NOPS + op];
            if (got != want)
                c.fail("%s of (%a, %a, %#x): %#x want %#x", names[op], x[i], y[i], bits[i], got, want);
        }
    return c.finish();
}
