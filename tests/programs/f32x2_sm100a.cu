// sm_100's paired f32 arithmetic (add/sub/mul/fma .f32x2 with every rounding mode, and
// .ftz), through CUDA's __fadd2_* / __fmul2_* / __ffma2_* and inline PTX, against the host's
// IEEE arithmetic in the same rounding mode. Inputs mix random words with zeros,
// infinities, NaNs, subnormals and values whose sums and products round.
#include "test_util.h"
#include <cfenv>

enum { ADD, SUB, MUL, FMA };
struct Form { const char *name; int op, round; bool ftz; };
static const int modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
static const Form forms[] = {
    {"__fadd2_rn", ADD, 0, false}, {"__fadd2_rz", ADD, 1, false}, {"__fadd2_rd", ADD, 2, false},
    {"__fadd2_ru", ADD, 3, false}, {"__fmul2_rn", MUL, 0, false}, {"__fmul2_rz", MUL, 1, false},
    {"__fmul2_rd", MUL, 2, false}, {"__fmul2_ru", MUL, 3, false}, {"__ffma2_rn", FMA, 0, false},
    {"__ffma2_rz", FMA, 1, false}, {"__ffma2_rd", FMA, 2, false}, {"__ffma2_ru", FMA, 3, false},
    {"sub.rm.f32x2", SUB, 2, false}, {"add.rn.ftz.f32x2", ADD, 0, true},
    {"fma.rz.ftz.f32x2", FMA, 1, true},
};
enum { NFORMS = sizeof forms / sizeof forms[0] };

__global__ void paired(int count, const float2 *a, const float2 *b, const float2 *c, float2 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    float2 x = a[i], y = b[i], z = c[i], *o = out + (size_t)i * NFORMS;
    o[0] = __fadd2_rn(x, y); o[1] = __fadd2_rz(x, y); o[2] = __fadd2_rd(x, y); o[3] = __fadd2_ru(x, y);
    o[4] = __fmul2_rn(x, y); o[5] = __fmul2_rz(x, y); o[6] = __fmul2_rd(x, y); o[7] = __fmul2_ru(x, y);
    o[8] = __ffma2_rn(x, y, z); o[9] = __ffma2_rz(x, y, z); o[10] = __ffma2_rd(x, y, z); o[11] = __ffma2_ru(x, y, z);
    unsigned long long px = *(unsigned long long *)&x, py = *(unsigned long long *)&y, pz = *(unsigned long long *)&z, r;
    asm("sub.rm.f32x2 %0, %1, %2;" : "=l"(r) : "l"(px), "l"(py)); o[12] = *(float2 *)&r;
    asm("add.rn.ftz.f32x2 %0, %1, %2;" : "=l"(r) : "l"(px), "l"(py)); o[13] = *(float2 *)&r;
    asm("fma.rz.ftz.f32x2 %0, %1, %2, %3;" : "=l"(r) : "l"(px), "l"(py), "l"(pz)); o[14] = *(float2 *)&r;
}

static unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static float from_bits(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static float flush(float f) { return fabsf(f) < FLT_MIN ? copysignf(0.f, f) : f; }

// One lane as IEEE arithmetic computes it in the form's rounding mode; volatile keeps the
// compiler from computing it in another.
static float lane(const Form &f, float x, float y, float z)
{
    volatile float a = f.ftz ? flush(x) : x, b = f.ftz ? flush(y) : y, c = f.ftz ? flush(z) : z, r;
    fesetround(modes[f.round]);
    switch (f.op) {
    case ADD: r = a + b; break;
    case SUB: r = a - b; break;
    case MUL: r = a * b; break;
    default: r = fmaf(a, b, c); break;
    }
    fesetround(FE_TONEAREST);
    return f.ftz ? flush(r) : r;
}

// Results compare as bits, except that any NaN matches any NaN (payloads are the target's).
static bool same(float got, float want)
{
    return (got != got && want != want) || bits(got) == bits(want);
}

int main()
{
    Checker c;
    const int n = 8192;
    Lcg rng(0xf32f2);
    static const float special[] = {
        0.f, -0.f, 1.f, -1.f, INFINITY, -INFINITY, NAN, FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN,
        1e-40f, -1e-40f, 1.5f, 3.f, 0.1f, 1e30f, 16777217.f, 1.0000001f, 0.99999994f,
    };
    const int ns = sizeof special / sizeof special[0];
    float2 *a = new float2[n], *b = new float2[n], *s = new float2[n];
    for (int i = 0; i < n; i++) {
        float v[6];
        for (int k = 0; k < 6; k++) {
            unsigned r = rng.next();
            v[k] = i < ns * ns ? special[(k % 2 ? i / ns : i % ns)]
                 : i % 3 == 0 ? from_bits(r)
                 : i % 3 == 1 ? from_bits((r & 0x80ffffffu) | (0x3e000000u + (r >> 8 & 0x03000000u)))  // near 1
                 : from_bits(r & 0x80ffffffu);  // tiny: subnormals and the smallest normals
        }
        a[i] = make_float2(v[0], v[1]); b[i] = make_float2(v[2], v[3]); s[i] = make_float2(v[4], v[5]);
    }
    float2 *da, *db, *ds, *dout;
    CHECK(cudaMalloc(&da, n * 8)); CHECK(cudaMalloc(&db, n * 8)); CHECK(cudaMalloc(&ds, n * 8));
    CHECK(cudaMalloc(&dout, (size_t)n * NFORMS * 8));
    CHECK(cudaMemcpy(da, a, n * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, n * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ds, s, n * 8, cudaMemcpyHostToDevice));
    paired<<<n / 128, 128>>>(n, da, db, ds, dout);
    CHECK_LAUNCH();
    float2 *out = new float2[(size_t)n * NFORMS];
    CHECK(cudaMemcpy(out, dout, (size_t)n * NFORMS * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        for (int f = 0; f < NFORMS; f++) {
            float2 got = out[(size_t)i * NFORMS + f];
            float want[2] = { lane(forms[f], a[i].x, b[i].x, s[i].x), lane(forms[f], a[i].y, b[i].y, s[i].y) };
            float have[2] = { got.x, got.y };
            for (int k = 0; k < 2; k++)
                if (!same(have[k], want[k]))
                    c.fail("%s lane %d of (%a, %a, %a): %a want %a", forms[f].name, k,
                           k ? a[i].y : a[i].x, k ? b[i].y : b[i].x, k ? s[i].y : s[i].x, have[k], want[k]);
        }
    return c.finish();
}
