// redux.sync on f32 (sm_100a, inline PTX): min and max over the lanes of a mask, with .abs
// and .NaN, against a host reference written from the PTX ISA: NaN inputs are ignored
// unless .NaN (then any NaN gives the canonical NaN, as all NaN inputs do), -0 is below +0.
#include "test_util.h"

enum { MIN, MAX, MIN_ABS, MAX_NAN, MIN_ABS_NAN, NOPS };
static const char *const names[NOPS] = {
    "redux.sync.min.f32", "redux.sync.max.f32", "redux.sync.min.abs.f32", "redux.sync.max.NaN.f32",
    "redux.sync.min.abs.NaN.f32",
};

// Warp w reduces its lanes' values over masks[w]; lanes outside the mask write nothing.
__global__ void reduce(const float *values, const unsigned *masks, unsigned *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, w = t / 32, lane = t % 32, mask = masks[w];
    float v = values[t];
    unsigned *o = out + (size_t)t * NOPS;
    if (!(mask >> lane & 1))
        return;
    asm volatile("redux.sync.min.f32 %0, %1, %2;" : "=r"(o[MIN]) : "f"(v), "r"(mask));
    asm volatile("redux.sync.max.f32 %0, %1, %2;" : "=r"(o[MAX]) : "f"(v), "r"(mask));
    asm volatile("redux.sync.min.abs.f32 %0, %1, %2;" : "=r"(o[MIN_ABS]) : "f"(v), "r"(mask));
    asm volatile("redux.sync.max.NaN.f32 %0, %1, %2;" : "=r"(o[MAX_NAN]) : "f"(v), "r"(mask));
    asm volatile("redux.sync.min.abs.NaN.f32 %0, %1, %2;" : "=r"(o[MIN_ABS_NAN]) : "f"(v), "r"(mask));
}

static unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static float from_bits(unsigned u) { float f; memcpy(&f, &u, 4); return f; }

// min/max of two non-NaN floats with -0 below +0.
static float pick(float a, float b, bool is_max)
{
    if (a == b && a == 0)
        return (bits(a) >> 31) == (unsigned)!is_max ? a : b;
    return (is_max ? a > b : a < b) ? a : b;
}

static unsigned reference(int op, const float *lanes, unsigned mask)
{
    bool is_max = op == MAX || op == MAX_NAN, abs = op == MIN_ABS || op == MIN_ABS_NAN;
    bool nan_wins = op == MAX_NAN || op == MIN_ABS_NAN, seen = false, any_nan = false;
    float r = 0;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1)) continue;
        float v = abs ? fabsf(lanes[l]) : lanes[l];
        if (v != v) { any_nan = true; continue; }
        r = seen ? pick(r, v, is_max) : v;
        seen = true;
    }
    return (any_nan && nan_wins) || !seen ? 0x7fffffffu : bits(r);
}

int main()
{
    Checker c;
    const int warps = 256, n = warps * 32;
    Lcg rng(0xed0c5);
    static const float special[] = { 0.f, -0.f, INFINITY, -INFINITY, NAN, -NAN, FLT_MAX, -FLT_MAX,
                                     1e-40f, -1e-40f, 1.f, -1.f };
    const int ns = sizeof special / sizeof special[0];
    float *values = new float[n];
    unsigned masks[warps];
    for (int w = 0; w < warps; w++) {
        static const unsigned fixed[] = { 0xffffffffu, 1u, 0x80000001u, 0x0000ffffu, 0xaaaaaaaau };
        masks[w] = w < 5 ? fixed[w] : rng.next() | 1u << (rng.next() % 32);
        int kind = w % 4;  // random words, random specials, all one special, all NaN but one
        for (int l = 0; l < 32; l++) {
            float v = kind == 0 ? from_bits(rng.next())
                    : kind == 1 ? special[rng.next() % ns]
                    : kind == 2 ? special[w / 4 % ns]
                    : (l == (int)(rng.next() % 32) ? from_bits(rng.next() & 0x7f7fffffu) : NAN);
            values[w * 32 + l] = v;
        }
    }
    float *dvalues;
    unsigned *dmasks, *dout;
    CHECK(cudaMalloc(&dvalues, n * 4)); CHECK(cudaMalloc(&dmasks, sizeof masks));
    CHECK(cudaMalloc(&dout, (size_t)n * NOPS * 4));
    CHECK(cudaMemcpy(dvalues, values, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dmasks, masks, sizeof masks, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0xee, (size_t)n * NOPS * 4));
    reduce<<<warps / 4, 128>>>(dvalues, dmasks, dout);
    CHECK_LAUNCH();
    unsigned *out = new unsigned[(size_t)n * NOPS];
    CHECK(cudaMemcpy(out, dout, (size_t)n * NOPS * 4, cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; w++)
        for (int op = 0; op < NOPS; op++) {
            unsigned want = reference(op, values + w * 32, masks[w]);
            for (int l = 0; l < 32; l++) {
                unsigned got = out[(size_t)(w * 32 + l) * NOPS + op];
                unsigned expect = masks[w] >> l & 1 ? want : 0xeeeeeeeeu;
                if (got != expect)
                    c.fail("%s, mask %#x, lane %d: %#x want %#x", names[op], masks[w], l, got, expect);
            }
        }
    return c.finish();
}
