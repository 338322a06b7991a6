// PTX forms that CUDA code reaches through inline PTX or newer features, each checked against
// what the PTX ISA specifies: isspacep on pointers into every state space, the generic address
// of a __grid_constant__ parameter (cvta.param), elect.sync, the sm_90 vector atomics
// (atom/red .v2/.v4/.v8 of f32, f16, bf16, f16x2, bf16x2), 128-bit loads, stores and moves,
// and the hints that must not change a result (griddepcontrol, createpolicy with a
// cache-hinted load, applypriority, discard).
#include "test_util.h"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <algorithm>
#include <vector>

struct Table { int v[8]; };

__device__ int global_words[8];
__constant__ int const_words[8];

// ---- isspacep and cvta.param -----------------------------------------------------------

enum { SPACE_GLOBAL = 1, SPACE_SHARED = 2, SPACE_LOCAL = 4, SPACE_CONST = 8, SPACE_PARAM = 16 };
enum { P_BUFFER, P_GLOBAL_VAR, P_SHARED, P_LOCAL, P_CONST, P_PARAM, NPOINTERS };
static const char *const pointer_names[NPOINTERS] = {
    "cudaMalloc buffer", "__device__ variable", "__shared__ array", "local array",
    "__constant__ variable", "__grid_constant__ parameter",
};

// The spaces isspacep finds a generic address in, one bit each.
__device__ __noinline__ unsigned spaces_of(const void *p)
{
    unsigned r = 0, in;
#define IS(space, bit) \
    asm volatile("{.reg .pred q; isspacep." space " q, %1; selp.u32 %0, 1, 0, q;}" : "=r"(in) : "l"(p)); \
    r |= in ? bit : 0
    IS("global", SPACE_GLOBAL); IS("shared", SPACE_SHARED); IS("local", SPACE_LOCAL);
    IS("const", SPACE_CONST); IS("param", SPACE_PARAM);
#undef IS
    return r;
}

// Called with the generic address of a parameter: the caller takes it with cvta.param.
__device__ __noinline__ int weighted_sum(const Table *t)
{
    int s = 0;
    for (int i = 0; i < 8; i++)
        s += (i + 1) * t->v[i];
    return s;
}

__global__ void spaces(const __grid_constant__ Table table, const int *buffer, unsigned *found, int *sums)
{
    __shared__ int shared_words[8];
    int local_words[8];
    volatile int k = threadIdx.x & 7;  // a dynamic index keeps local_words in local memory
    local_words[k] = buffer[k];
    shared_words[k] = local_words[k] + 1;
    const void *pointers[NPOINTERS] = {
        buffer + k, global_words + k, shared_words + k, local_words + k, const_words + k, &table.v[k],
    };
    for (int i = 0; i < NPOINTERS; i++)
        found[threadIdx.x * NPOINTERS + i] = spaces_of(pointers[i]);
    sums[threadIdx.x] = weighted_sum(&table) + shared_words[k] + local_words[k];
}

// ---- elect.sync ------------------------------------------------------------------------

// Warp w runs elect.sync with masks[w] in the lanes of that mask; each lane writes the
// leader it got and whether it is the leader (lanes outside the mask write nothing).
__global__ void elect(const unsigned *masks, unsigned *leader, unsigned *is_leader)
{
    unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    unsigned mask = masks[warp], i = warp * 32 + lane;
    if (mask >> lane & 1)
        asm volatile("{.reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q;}"
                     : "=r"(leader[i]), "=r"(is_leader[i]) : "r"(mask));
}

// ---- vector atomics ----------------------------------------------------------------------

// Every thread t adds to or takes the min/max with the same words: the old values that atom
// returns are checked as a set, the final words exactly. A vector atomic's address is
// aligned to the whole vector.
struct AtomicWords {
    alignas(16) float add4[4];
    alignas(8) float red2[2];
    alignas(16) unsigned short add8_f16[8];
    alignas(8) unsigned short add4_bf16[4], min4_f16[4];
    alignas(8) unsigned max2_bf16x2[2], add2_f16x2[2];
};

struct AtomicOld {
    float add4[4];
    unsigned short add8_f16[8], add4_bf16[4], min4_f16[4];
    unsigned max2_bf16x2[2], add2_f16x2[2];
};

__device__ unsigned short f16_bits(float x) { return __half_as_ushort(__float2half_rn(x)); }
__device__ unsigned short bf16_bits(float x) { return __bfloat16_as_ushort(__float2bfloat16_rn(x)); }

__global__ void vector_atomics(AtomicWords *w, AtomicOld *old)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    AtomicOld *o = old + t;
    asm volatile("atom.global.add.v4.f32 {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"
                 : "=f"(o->add4[0]), "=f"(o->add4[1]), "=f"(o->add4[2]), "=f"(o->add4[3])
                 : "l"(w->add4), "f"(1.f), "f"(2.f), "f"(3.f), "f"(4.f) : "memory");
    asm volatile("red.global.add.v2.f32 [%0], {%1, %2};" :: "l"(w->red2), "f"(1.f), "f"(-2.f) : "memory");
    unsigned short h[8];
    for (int i = 0; i < 8; i++)
        h[i] = f16_bits(i + 1);
    asm volatile("atom.global.add.noftz.v8.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], "
                 "{%9, %10, %11, %12, %13, %14, %15, %16};"
                 : "=h"(o->add8_f16[0]), "=h"(o->add8_f16[1]), "=h"(o->add8_f16[2]), "=h"(o->add8_f16[3]),
                   "=h"(o->add8_f16[4]), "=h"(o->add8_f16[5]), "=h"(o->add8_f16[6]), "=h"(o->add8_f16[7])
                 : "l"(w->add8_f16), "h"(h[0]), "h"(h[1]), "h"(h[2]), "h"(h[3]), "h"(h[4]), "h"(h[5]),
                   "h"(h[6]), "h"(h[7]) : "memory");
    unsigned short one = bf16_bits(1.f);
    asm volatile("atom.global.add.noftz.v4.bf16 {%0, %1, %2, %3}, [%4], {%5, %5, %5, %5};"
                 : "=h"(o->add4_bf16[0]), "=h"(o->add4_bf16[1]), "=h"(o->add4_bf16[2]), "=h"(o->add4_bf16[3])
                 : "l"(w->add4_bf16), "h"(one) : "memory");
    asm volatile("atom.global.min.noftz.v4.f16 {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"
                 : "=h"(o->min4_f16[0]), "=h"(o->min4_f16[1]), "=h"(o->min4_f16[2]), "=h"(o->min4_f16[3])
                 : "l"(w->min4_f16), "h"(f16_bits(t)), "h"(f16_bits(-(float)t - 1)), "h"(f16_bits(t * 0.25f)),
                   "h"(f16_bits(100.f - t)) : "memory");
    unsigned m0 = bf16_bits(t) | (unsigned)bf16_bits(-(float)t - 1) << 16;
    unsigned m1 = bf16_bits(t * 0.5f) | (unsigned)bf16_bits(t - 100.f) << 16;
    asm volatile("atom.global.max.noftz.v2.bf16x2 {%0, %1}, [%2], {%3, %4};"
                 : "=r"(o->max2_bf16x2[0]), "=r"(o->max2_bf16x2[1]) : "l"(w->max2_bf16x2), "r"(m0), "r"(m1)
                 : "memory");
    unsigned a0 = f16_bits(1.f) | (unsigned)f16_bits(0.5f) << 16, a1 = f16_bits(-1.f) | (unsigned)f16_bits(2.f) << 16;
    asm volatile("atom.global.add.noftz.v2.f16x2 {%0, %1}, [%2], {%3, %4};"
                 : "=r"(o->add2_f16x2[0]), "=r"(o->add2_f16x2[1]) : "l"(w->add2_f16x2), "r"(a0), "r"(a1)
                 : "memory");
}

// ---- 128-bit moves and hints ---------------------------------------------------------------

// out[i] = in[i] with its two 64-bit halves swapped, through shared memory.
__global__ void move128(const __int128 *in, __int128 *out)
{
    __shared__ __int128 staged[128];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    __int128 v, swapped;
    unsigned long long lo, hi;
    asm volatile("ld.global.b128 %0, [%1];" : "=q"(v) : "l"(in + i));
    asm volatile("st.shared.b128 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(staged + threadIdx.x)), "q"(v));
    __syncthreads();
    asm volatile("ld.shared.b128 %0, [%1];" : "=q"(v) : "r"((unsigned)__cvta_generic_to_shared(staged + threadIdx.x)));
    asm volatile("mov.b128 {%0, %1}, %2;" : "=l"(lo), "=l"(hi) : "q"(v));
    asm volatile("mov.b128 %0, {%1, %2};" : "=q"(swapped) : "l"(hi), "l"(lo));
    asm volatile("st.global.b128 [%0], %1;" :: "l"(out + i), "q"(swapped) : "memory");
}

__global__ void hinted(const unsigned *in, unsigned *out, unsigned *scratch)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v;
    unsigned long long policy;
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    asm volatile("ld.global.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(v) : "l"(in + i), "l"(policy));
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(in + (i & ~31u)));
    asm volatile("discard.global.L2 [%0], 128;" :: "l"(scratch + (i & ~31u)) : "memory");
    asm volatile("griddepcontrol.launch_dependents;");
    out[i] = v * 3 + 1;
}

// ---- host side -----------------------------------------------------------------------------

static float f16_to_float(unsigned short h)
{
    unsigned sign = h >> 15, exponent = h >> 10 & 31, mantissa = h & 0x3ff;
    float m = exponent ? 1 + mantissa / 1024.f : mantissa / 1024.f;
    float v = exponent == 31 ? (mantissa ? NAN : INFINITY) : ldexpf(m, exponent ? (int)exponent - 15 : -14);
    return sign ? -v : v;
}

static float bf16_to_float(unsigned short b)
{
    unsigned bits = (unsigned)b << 16;
    float v;
    memcpy(&v, &bits, 4);
    return v;
}

// The old values that N adds of step returned, as a set: 0, step, ..., (N - 1) step.
static void check_adds(Checker &c, const char *what, std::vector<float> olds, float step)
{
    std::sort(olds.begin(), olds.end());
    for (size_t k = 0; k < olds.size(); k++)
        if (olds[k] != k * step) {
            c.fail("%s: old values sorted: [%zu] = %g, want %g", what, k, olds[k], k * step);
            return;
        }
}

static void check_spaces(Checker &c)
{
    const int threads = 64;
    Table table;
    int buffer[8];
    for (int i = 0; i < 8; i++)
        table.v[i] = 3 * i - 7, buffer[i] = 100 + i;
    int *dbuffer, *dsums;
    unsigned *dfound;
    CHECK(cudaMalloc(&dbuffer, sizeof buffer));
    CHECK(cudaMalloc(&dfound, threads * NPOINTERS * 4));
    CHECK(cudaMalloc(&dsums, threads * 4));
    CHECK(cudaMemcpy(dbuffer, buffer, sizeof buffer, cudaMemcpyHostToDevice));
    spaces<<<1, threads>>>(table, dbuffer, dfound, dsums);
    CHECK_LAUNCH();
    unsigned found[threads * NPOINTERS];
    int sums[threads];
    CHECK(cudaMemcpy(found, dfound, sizeof found, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost));
    // PTX: the parameter window lies within the global one, so isspacep.global holds there too.
    static const unsigned want[NPOINTERS] = {
        SPACE_GLOBAL, SPACE_GLOBAL, SPACE_SHARED, SPACE_LOCAL, SPACE_CONST, SPACE_PARAM | SPACE_GLOBAL,
    };
    int weighted = 0;
    for (int i = 0; i < 8; i++)
        weighted += (i + 1) * table.v[i];
    for (int t = 0; t < threads; t++) {
        for (int p = 0; p < NPOINTERS; p++)
            if (found[t * NPOINTERS + p] != want[p])
                c.fail("isspacep of a %s (thread %d): spaces %#x, want %#x", pointer_names[p], t,
                       found[t * NPOINTERS + p], want[p]);
        int k = t & 7, expect = weighted + 2 * buffer[k] + 1;
        if (sums[t] != expect)
            c.fail("weighted sum through cvta.param (thread %d): %d, want %d", t, sums[t], expect);
    }
    CHECK(cudaFree(dbuffer)); CHECK(cudaFree(dfound)); CHECK(cudaFree(dsums));
}

static void check_elect(Checker &c, Lcg &rng)
{
    const int warps = 64;
    unsigned masks[warps];
    for (int w = 0; w < warps; w++) {
        static const unsigned fixed[] = { 0xffffffffu, 1u, 0x80000000u, 0xf0f0f0f0u, 0x00010000u, 0xfffffffeu };
        masks[w] = w < 6 ? fixed[w] : rng.next() | 1u << (rng.next() % 32);
    }
    unsigned *dmasks, *dleader, *dis;
    CHECK(cudaMalloc(&dmasks, sizeof masks));
    CHECK(cudaMalloc(&dleader, warps * 32 * 4));
    CHECK(cudaMalloc(&dis, warps * 32 * 4));
    CHECK(cudaMemcpy(dmasks, masks, sizeof masks, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dleader, 0xee, warps * 32 * 4));
    CHECK(cudaMemset(dis, 0xee, warps * 32 * 4));
    elect<<<warps / 4, 128>>>(dmasks, dleader, dis);
    CHECK_LAUNCH();
    unsigned leader[warps * 32], is[warps * 32];
    CHECK(cudaMemcpy(leader, dleader, sizeof leader, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(is, dis, sizeof is, cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; w++) {
        unsigned lowest = 0;
        while (!(masks[w] >> lowest & 1))
            lowest++;
        for (unsigned lane = 0; lane < 32; lane++) {
            bool member = masks[w] >> lane & 1;
            unsigned want_leader = member ? lowest : 0xeeeeeeeeu;
            unsigned want_is = member ? lane == lowest : 0xeeeeeeeeu;
            if (leader[w * 32 + lane] != want_leader || is[w * 32 + lane] != want_is)
                c.fail("elect.sync with mask %#x, lane %u: leader %#x, is leader %#x; want %#x, %#x",
                       masks[w], lane, leader[w * 32 + lane], is[w * 32 + lane], want_leader, want_is);
        }
    }
    CHECK(cudaFree(dmasks)); CHECK(cudaFree(dleader)); CHECK(cudaFree(dis));
}

static void check_vector_atomics(Checker &c)
{
    const int blocks = 2, threads = 128, n = blocks * threads;
    AtomicWords w = {};
    for (int i = 0; i < 4; i++)
        w.min4_f16[i] = 0x7c00;  // +inf
    for (int i = 0; i < 2; i++)
        w.max2_bf16x2[i] = 0xff80ff80u;  // -inf, -inf
    AtomicWords *dw;
    AtomicOld *dold;
    CHECK(cudaMalloc(&dw, sizeof w));
    CHECK(cudaMalloc(&dold, n * sizeof(AtomicOld)));
    CHECK(cudaMemcpy(dw, &w, sizeof w, cudaMemcpyHostToDevice));
    vector_atomics<<<blocks, threads>>>(dw, dold);
    CHECK_LAUNCH();
    std::vector<AtomicOld> old(n);
    CHECK(cudaMemcpy(&w, dw, sizeof w, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(old.data(), dold, n * sizeof(AtomicOld), cudaMemcpyDeviceToHost));
    char what[80];
    std::vector<float> olds(n);
    for (int e = 0; e < 4; e++) {
        for (int t = 0; t < n; t++) olds[t] = old[t].add4[e];
        snprintf(what, sizeof what, "atom.add.v4.f32 element %d", e);
        check_adds(c, what, olds, e + 1.f);
        if (w.add4[e] != n * (e + 1.f)) c.fail("%s: final %g, want %g", what, w.add4[e], n * (e + 1.f));
    }
    if (w.red2[0] != n || w.red2[1] != -2.f * n)
        c.fail("red.add.v2.f32: final (%g, %g), want (%d, %d)", w.red2[0], w.red2[1], n, -2 * n);
    for (int e = 0; e < 8; e++) {
        for (int t = 0; t < n; t++) olds[t] = f16_to_float(old[t].add8_f16[e]);
        snprintf(what, sizeof what, "atom.add.noftz.v8.f16 element %d", e);
        check_adds(c, what, olds, e + 1.f);
        if (f16_to_float(w.add8_f16[e]) != n * (e + 1.f))
            c.fail("%s: final %g, want %g", what, f16_to_float(w.add8_f16[e]), n * (e + 1.f));
    }
    for (int e = 0; e < 4; e++) {
        for (int t = 0; t < n; t++) olds[t] = bf16_to_float(old[t].add4_bf16[e]);
        snprintf(what, sizeof what, "atom.add.noftz.v4.bf16 element %d", e);
        check_adds(c, what, olds, 1.f);
        if (bf16_to_float(w.add4_bf16[e]) != n) c.fail("%s: final %g, want %d", what, bf16_to_float(w.add4_bf16[e]), n);
    }
    for (int e = 0; e < 4; e++) {
        for (int t = 0; t < n; t++) olds[t] = f16_to_float(old[t].add2_f16x2[e / 2] >> 16 * (e % 2));
        static const float steps[4] = { 1.f, 0.5f, -1.f, 2.f };
        snprintf(what, sizeof what, "atom.add.noftz.v2.f16x2 half %d", e);
        if (steps[e] < 0) {
            for (float &x : olds) x = -x;
            check_adds(c, what, olds, -steps[e]);
        } else {
            check_adds(c, what, olds, steps[e]);
        }
        float final = f16_to_float(w.add2_f16x2[e / 2] >> 16 * (e % 2));
        if (final != n * steps[e]) c.fail("%s: final %g, want %g", what, final, n * steps[e]);
    }
    // min/max: the final words exactly; every old value is the start or a thread's operand
    // no smaller (max) or no larger (min) than the final.
    static const float min_want[4] = { 0.f, -(float)n, 0.f, 100.f - (n - 1) };
    static const float max_want[4] = { (float)(n - 1), -1.f, (n - 1) * 0.5f, (n - 1) - 100.f };
    for (int e = 0; e < 4; e++) {
        if (f16_to_float(w.min4_f16[e]) != min_want[e])
            c.fail("atom.min.noftz.v4.f16 element %d: final %g, want %g", e, f16_to_float(w.min4_f16[e]), min_want[e]);
        float got = bf16_to_float(w.max2_bf16x2[e / 2] >> 16 * (e % 2));
        if (got != max_want[e])
            c.fail("atom.max.noftz.v2.bf16x2 half %d: final %g, want %g", e, got, max_want[e]);
        for (int t = 0; t < n; t++) {
            float omin = f16_to_float(old[t].min4_f16[e]), omax = bf16_to_float(old[t].max2_bf16x2[e / 2] >> 16 * (e % 2));
            if (omin < min_want[e] || (omin != INFINITY && omin != floorf(omin * 4) / 4))
                c.fail("atom.min.noftz.v4.f16 element %d: thread %d saw %g", e, t, omin);
            if (omax > max_want[e] || (omax != -INFINITY && omax != floorf(omax * 2) / 2))
                c.fail("atom.max.noftz.v2.bf16x2 half %d: thread %d saw %g", e, t, omax);
        }
    }
    CHECK(cudaFree(dw)); CHECK(cudaFree(dold));
}

static void check_moves_and_hints(Checker &c, Lcg &rng)
{
    const int n = 512;
    std::vector<unsigned long long> in(2 * n), out(2 * n);
    for (auto &x : in) x = rng.next64();
    __int128 *din, *dout;
    CHECK(cudaMalloc(&din, n * 16)); CHECK(cudaMalloc(&dout, n * 16));
    CHECK(cudaMemcpy(din, in.data(), n * 16, cudaMemcpyHostToDevice));
    move128<<<n / 128, 128>>>(din, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out.data(), dout, n * 16, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (out[2 * i] != in[2 * i + 1] || out[2 * i + 1] != in[2 * i])
            c.fail("b128 move %d: (%#llx, %#llx), want (%#llx, %#llx)", i, out[2 * i], out[2 * i + 1],
                   in[2 * i + 1], in[2 * i]);
    unsigned *words = (unsigned *)in.data(), *dwords = (unsigned *)din, *dres = (unsigned *)dout, *dscratch;
    CHECK(cudaMalloc(&dscratch, n * 4));
    hinted<<<n / 128, 128>>>(dwords, dres, dscratch);
    CHECK_LAUNCH();
    std::vector<unsigned> res(n);
    CHECK(cudaMemcpy(res.data(), dres, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (res[i] != words[i] * 3 + 1)
            c.fail("cache-hinted load %d: %#x, want %#x", i, res[i], words[i] * 3 + 1);
    CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(dscratch));
}

int main()
{
    Checker c;
    Lcg rng(0x5ace5);
    check_spaces(c);
    check_elect(c, rng);
    check_vector_atomics(c);
    check_moves_and_hints(c, rng);
    return c.finish();
}
