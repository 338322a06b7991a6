// The surface instructions CUDA C has no function for, by inline PTX on surface and texture
// objects: the formatted store sust.p, the reductions sured.b and sured.p, suq.memory_layout,
// txq.level's extents of a mipmap level, txq.force_unnormalized_coords and istypeof. The host
// computes every expected value from the PTX ISA's definitions:
// - sust.p stores a vector of 32-bit values at SAMPLE x (not bytes), the elements taken as
//   f32 for float formats, u32 for unsigned and s32 for signed integer formats, each converted
//   to the array's channel type, as an H200 does: integers saturated to the channel's range,
//   floats to f16 toward zero; channels past the vector are not checked (the ISA calls them
//   unpredictable);
// - sured.b reduces a u32, s32, u64 or s64 at byte x (add, min, max; and, or on b32), atomically
//   (many threads reduce into each element); sured.p does so at sample x, its b32 or b64
//   taken as unsigned or signed by the array's format;
// - .zero drops a reduction outside the surface, .clamp applies it to the nearest element.
// txq.level past the last level, and of an axis the array lacks, gives 0 on an H200 (checked).
// Not here, since an H200 (CUDA 13.0, driver 580) fails to load a module that holds them
// ("operation not supported" for each kernel of it, though ptxas takes them):
// suq.memory_layout and txq.force_unnormalized_coords (tests/ptx/lower/texture.ptx checks
// their lowering). istypeof ptxas rejects.
#include <cmath>
#include <vector>
#include "test_util.h"

using std::vector;

// sust.p of four words at sample x, one of a 1D, a 2D (row y) or a layered 2D surface.
__global__ void store_formatted_1d(cudaSurfaceObject_t s, const uint4 *v, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < n)
        asm volatile("sust.p.1d.v4.b32.trap [%0, {%1}], {%2, %3, %4, %5};" ::"l"(s), "r"(x), "r"(v[x].x), "r"(v[x].y),
                     "r"(v[x].z), "r"(v[x].w)
                     : "memory");
}
__global__ void store_formatted_2d(cudaSurfaceObject_t s, const uint4 *v, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h) {
        uint4 e = v[y * w + x];
        asm volatile("sust.p.2d.v4.b32.trap [%0, {%1, %2}], {%3, %4, %5, %6};" ::"l"(s), "r"(x), "r"(y), "r"(e.x), "r"(e.y),
                     "r"(e.z), "r"(e.w)
                     : "memory");
    }
}
__global__ void store_formatted_layered(cudaSurfaceObject_t s, const uint4 *v, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y, layer = blockIdx.x;
    if (x < w && y < h) {
        uint4 e = v[(layer * h + y) * w + x];
        asm volatile("sust.p.a2d.v4.b32.trap [%0, {%1, %2, %3, %3}], {%4, %5, %6, %7};" ::"l"(s), "r"(layer), "r"(x), "r"(y),
                     "r"(e.x), "r"(e.y), "r"(e.z), "r"(e.w)
                     : "memory");
    }
}
// Fewer words than channels: .v2 at even x, one word at odd x (with .zero, at x = n too:
// dropped).
__global__ void store_formatted_short(cudaSurfaceObject_t s, const uint4 *v, int n) {
    int x = threadIdx.x;
    if (x > n) return;
    uint4 e = x < n ? v[x] : make_uint4(7, 7, 7, 7);
    if (x % 2 == 0)
        asm volatile("sust.p.1d.v2.b32.zero [%0, {%1}], {%2, %3};" ::"l"(s), "r"(x), "r"(e.x), "r"(e.y) : "memory");
    else
        asm volatile("sust.p.1d.b32.zero [%0, {%1}], %2;" ::"l"(s), "r"(x), "r"(e.x) : "memory");
}

// The reductions: thread i reduces value v[i] into element i % n of a 1D surface (byte x for
// sured.b, sample x for sured.p); op picks the instruction.
enum Op { ADD_U32, MIN_U32, MAX_U32, ADD_S32, MIN_S32, MAX_S32, AND_B32, OR_B32, ADD_U64, MIN_U64, MAX_U64, MIN_S64, MAX_S64,
          P_ADD_B32, P_MIN_B32, P_MAX_B32, P_MIN_B64, P_MAX_B64, OPS };
__device__ void reduce(Op op, cudaSurfaceObject_t s, int e, uint64_t v) {
    uint32_t v32 = (uint32_t)v;
    int b4 = e * 4, b8 = e * 8;
    switch (op) {
    case ADD_U32: asm volatile("sured.b.add.1d.u32.trap [%0, {%1}], %2;" ::"l"(s), "r"(b4), "r"(v32) : "memory"); break;
    case MIN_U32: asm volatile("sured.b.min.1d.u32.trap [%0, {%1}], %2;" ::"l"(s), "r"(b4), "r"(v32) : "memory"); break;
    case MAX_U32: asm volatile("sured.b.max.1d.u32.trap [%0, {%1}], %2;" ::"l"(s), "r"(b4), "r"(v32) : "memory"); break;
    case ADD_S32: asm volatile("sured.b.add.1d.s32.trap [%0, {%1}], %2;" ::"l"(s), "r"(b4), "r"(v32) : "memory"); break;
    case MIN_S32: asm volatile("sured.b.min.1d.s32.trap [%0, {%1}], %2;" ::"l"(s), "r"(b4), "r"(v32) : "memory"); break;
    case MAX_S32: asm volatile("sured.b.max.1d.s32.trap [%0, {%1}], %2;" ::"l"(s), "r"(b4), "r"(v32) : "memory"); break;
    case AND_B32: asm volatile("sured.b.and.1d.b32.trap [%0, {%1}], %2;" ::"l"(s), "r"(b4), "r"(v32) : "memory"); break;
    case OR_B32: asm volatile("sured.b.or.1d.b32.trap [%0, {%1}], %2;" ::"l"(s), "r"(b4), "r"(v32) : "memory"); break;
    case ADD_U64: asm volatile("sured.b.add.1d.u64.trap [%0, {%1}], %2;" ::"l"(s), "r"(b8), "l"(v) : "memory"); break;
    case MIN_U64: asm volatile("sured.b.min.1d.u64.trap [%0, {%1}], %2;" ::"l"(s), "r"(b8), "l"(v) : "memory"); break;
    case MAX_U64: asm volatile("sured.b.max.1d.u64.trap [%0, {%1}], %2;" ::"l"(s), "r"(b8), "l"(v) : "memory"); break;
    case MIN_S64: asm volatile("sured.b.min.1d.s64.trap [%0, {%1}], %2;" ::"l"(s), "r"(b8), "l"(v) : "memory"); break;
    case MAX_S64: asm volatile("sured.b.max.1d.s64.trap [%0, {%1}], %2;" ::"l"(s), "r"(b8), "l"(v) : "memory"); break;
    case P_ADD_B32: asm volatile("sured.p.add.1d.b32.trap [%0, {%1}], %2;" ::"l"(s), "r"(e), "r"(v32) : "memory"); break;
    case P_MIN_B32: asm volatile("sured.p.min.1d.b32.trap [%0, {%1}], %2;" ::"l"(s), "r"(e), "r"(v32) : "memory"); break;
    case P_MAX_B32: asm volatile("sured.p.max.1d.b32.trap [%0, {%1}], %2;" ::"l"(s), "r"(e), "r"(v32) : "memory"); break;
    case P_MIN_B64: asm volatile("sured.p.min.1d.b64.trap [%0, {%1}], %2;" ::"l"(s), "r"(e), "l"(v) : "memory"); break;
    case P_MAX_B64: asm volatile("sured.p.max.1d.b64.trap [%0, {%1}], %2;" ::"l"(s), "r"(e), "l"(v) : "memory"); break;
    default: break;
    }
}
__global__ void reduce_all(Op op, cudaSurfaceObject_t s, const uint64_t *v, int count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) reduce(op, s, i % n, v[i]);
}
// Outside a 2D u32 surface: .zero drops the addition, .clamp adds to the nearest element.
__global__ void reduce_boundary(cudaSurfaceObject_t s, const int2 *p, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    asm volatile("sured.b.add.2d.u32.zero [%0, {%1, %2}], %3;" ::"l"(s), "r"(p[i].x), "r"(p[i].y), "r"(1u) : "memory");
    asm volatile("sured.b.add.2d.u32.clamp [%0, {%1, %2}], %3;" ::"l"(s), "r"(p[i].x), "r"(p[i].y), "r"(100u) : "memory");
}

// txq.level's width, height and depth of level l.
__global__ void query_levels(cudaTextureObject_t t, int levels, uint32_t *out) {
    int l = threadIdx.x;
    if (l >= levels) return;
    asm volatile("txq.level.width.b32 %0, [%1], %2;" : "=r"(out[3 * l]) : "l"(t), "r"(l));
    asm volatile("txq.level.height.b32 %0, [%1], %2;" : "=r"(out[3 * l + 1]) : "l"(t), "r"(l));
    asm volatile("txq.level.depth.b32 %0, [%1], %2;" : "=r"(out[3 * l + 2]) : "l"(t), "r"(l));
}

// -- The host's conversions, from the ISA's definitions. --

enum Kind { FLOAT, UNSIGNED, SIGNED };
struct Format {
    const char *name;
    cudaChannelFormatDesc desc;
    int channels, bytes;  // bytes a channel
    Kind kind;
};
static uint32_t clamp_unsigned(uint32_t v, int bytes) {
    uint32_t most = bytes == 4 ? 0xffffffffu : (1u << (8 * bytes)) - 1;
    return v > most ? most : v;
}
static uint32_t clamp_signed(int32_t v, int bytes) {
    int32_t most = bytes == 4 ? 0x7fffffff : (1 << (8 * bytes - 1)) - 1, least = -most - 1;
    return (uint32_t)(v > most ? most : v < least ? least : v);
}
// f32 to f16 as an H200's sust.p converts: toward zero (measured: 0x46619ac0, 14438.69, stores
// 0x730c, not the nearest 0x730d; 65520 and 1e6 store 65504), so a finite value past the range
// is +-65504; infinities stay; NaN stays NaN.
static uint16_t half_of(float f) {
    uint32_t u = f2u(f), sign = (u >> 16) & 0x8000;
    float a = fabsf(f);
    if (a != a) return (uint16_t)(sign | 0x7e00);
    if (a == INFINITY) return (uint16_t)(sign | 0x7c00);
    if (a >= 65504.0f) return (uint16_t)(sign | 0x7bff);
    if (a < 0x1p-14f) return (uint16_t)(sign | (uint32_t)truncf(a * 0x1p24f));  // subnormal: 2^-24s
    int e;
    float m = frexpf(a, &e);  // a = m 2^e, m in [0.5, 1)
    return (uint16_t)(sign | (uint32_t)(e + 14) << 10 | ((uint32_t)truncf(m * 2048.0f) - 1024));
}
// Channel c of a texel as the store leaves it, from the word the thread stored.
static uint32_t converted(const Format &f, uint32_t word) {
    switch (f.kind) {
    case FLOAT: return f.bytes == 2 ? half_of(u2f(word)) : word;
    case UNSIGNED: return clamp_unsigned(word, f.bytes);
    default: return clamp_signed((int32_t)word, f.bytes) & (f.bytes == 4 ? 0xffffffffu : (1u << (8 * f.bytes)) - 1);
    }
}
static uint32_t channel_of(const vector<unsigned char> &bytes, size_t texel, const Format &f, int c) {
    uint32_t v = 0;
    memcpy(&v, &bytes[(texel * f.channels + c) * f.bytes], f.bytes);
    return v;
}
static bool same_channel(const Format &f, uint32_t got, uint32_t want) {
    if (f.kind == FLOAT && f.bytes == 2 && (want & 0x7c00) == 0x7c00 && (want & 0x3ff))
        return (got & 0x7c00) == 0x7c00 && (got & 0x3ff);  // any NaN
    if (f.kind == FLOAT && f.bytes == 4 && u2f(want) != u2f(want)) return u2f(got) != u2f(got);
    return got == want;
}

// Words to store into a format: edge cases of its conversion, then random ones.
static vector<uint32_t> words_for(const Format &f, Lcg &rng, int n) {
    vector<uint32_t> w;
    if (f.kind == FLOAT) {
        const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, 1.0f / 3.0f, 65504.0f, 65519.0f, 65520.0f, 1e6f, -1e6f, 0x1p-24f, 0x1p-25f,
                              0x1.8p-25f, 3 * 0x1p-26f, 0x1p-15f, 1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, NAN, INFINITY, -INFINITY,
                              1e-30f, -2.5f, 0.1f, 1234.567f, 65536.0f, 70000.0f, -65520.0f, 1e-8f, 2.5f * 0x1p-24f,
                              1.5f * 0x1p-24f, 1.0f + 0x1p-11f + 0x1p-20f, 3.0f + 0x1p-10f, 0x1.ffcp-15f, 0x1.ffep-15f};
        for (float e : edge) w.push_back(f2u(e));
        while ((int)w.size() < n) w.push_back(f2u(rng.uniform(-70000.0f, 70000.0f)));
    } else if (f.kind == UNSIGNED) {
        const uint32_t edge[] = {0, 1, 127, 128, 255, 256, 1000, 32767, 32768, 65535, 65536, 0x7fffffffu, 0x80000000u, 0xffffffffu};
        for (uint32_t e : edge) w.push_back(e);
        while ((int)w.size() < n) w.push_back(rng.next() >> (rng.next() % 32));
    } else {
        const int32_t edge[] = {0, 1, -1, 127, 128, -128, -129, 300, -300, 32767, 32768, -32768, -32769, 0x7fffffff, (int32_t)0x80000000};
        for (int32_t e : edge) w.push_back((uint32_t)e);
        while ((int)w.size() < n) w.push_back((uint32_t)((int32_t)rng.next() >> (rng.next() % 32)));
    }
    w.resize(n);
    return w;
}

static cudaArray_t make_array(const Format &f, int w, int h, int layers, const void *init) {
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &f.desc, make_cudaExtent(w, h, layers), cudaArraySurfaceLoadStore | (layers ? cudaArrayLayered : 0)));
    size_t row = (size_t)w * f.channels * f.bytes;
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr((void *)init, row, w, h ? h : 1);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h ? h : 1, layers ? layers : 1);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    return a;
}
static vector<unsigned char> read_array(cudaArray_t a, const Format &f, int w, int h, int layers) {
    size_t row = (size_t)w * f.channels * f.bytes;
    vector<unsigned char> v(row * (h ? h : 1) * (layers ? layers : 1));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.dstPtr = make_cudaPitchedPtr(v.data(), row, w, h ? h : 1);
    p.extent = make_cudaExtent(w, h ? h : 1, layers ? layers : 1);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    return v;
}
template <typename T> static T *to_device(const vector<T> &v) {
    T *d;
    CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

// sust.p into every format, 1D, 2D and layered; then the short vectors.
static void check_formatted_stores(Checker &c, Lcg &rng) {
    const Format formats[] = {
        {"u8x4", cudaCreateChannelDesc<uchar4>(), 4, 1, UNSIGNED},  {"s8x2", cudaCreateChannelDesc<char2>(), 2, 1, SIGNED},
        {"u16", cudaCreateChannelDesc<unsigned short>(), 1, 2, UNSIGNED}, {"s16x4", cudaCreateChannelDesc<short4>(), 4, 2, SIGNED},
        {"u32", cudaCreateChannelDesc<unsigned>(), 1, 4, UNSIGNED}, {"s32x2", cudaCreateChannelDesc<int2>(), 2, 4, SIGNED},
        {"f16x4", cudaCreateChannelDescHalf4(), 4, 2, FLOAT},       {"f16", cudaCreateChannelDescHalf(), 1, 2, FLOAT},
        {"f32x2", cudaCreateChannelDesc<float2>(), 2, 4, FLOAT},    {"f32x4", cudaCreateChannelDesc<float4>(), 4, 4, FLOAT},
    };
    const int N = 40, W = 7, H = 5, L = 3;
    for (const Format &f : formats) {
        for (int shape = 0; shape < 3; shape++) {  // 1D, 2D, layered 2D
            int w = shape ? W : N, h = shape ? H : 0, layers = shape == 2 ? L : 0;
            int texels = w * (h ? h : 1) * (layers ? layers : 1);
            vector<uint32_t> words = words_for(f, rng, 8 * texels);  // the second half for the short vectors
            vector<unsigned char> before(texels * f.channels * f.bytes);
            for (auto &b : before) b = (unsigned char)(rng.next() >> 24);
            cudaArray_t a = make_array(f, w, h, layers, before.data());
            cudaSurfaceObject_t s = make_surface(a);
            uint4 *dv = to_device(vector<uint4>((uint4 *)words.data(), (uint4 *)words.data() + texels));
            if (shape == 0) store_formatted_1d<<<1, 64>>>(s, dv, w);
            else if (shape == 1) store_formatted_2d<<<1, dim3(w, h)>>>(s, dv, w, h);
            else store_formatted_layered<<<layers, dim3(w, h)>>>(s, dv, w, h);
            CHECK_LAUNCH();
            vector<unsigned char> got = read_array(a, f, w, h, layers);
            for (int t = 0; t < texels; t++)
                for (int ch = 0; ch < f.channels; ch++) {
                    uint32_t g = channel_of(got, t, f, ch), want = converted(f, words[4 * t + ch]);
                    if (!same_channel(f, g, want)) {
                        c.fail("sust.p %s (%s) texel %d channel %d: stored 0x%08x, reads 0x%x, want 0x%x", f.name,
                               shape == 0 ? "1d" : shape == 1 ? "2d" : "a2d", t, ch, words[4 * t + ch], g, want);
                        t = texels;
                        break;
                    }
                }
            if (shape == 0 && f.channels > 1) {  // .v2 at even x, one word at odd x, a dropped one past the end
                CHECK(cudaMemcpy(dv, words.data() + 4 * texels, w * sizeof(uint4), cudaMemcpyHostToDevice));
                store_formatted_short<<<1, 64>>>(s, dv, w);
                CHECK_LAUNCH();
                vector<unsigned char> after = read_array(a, f, w, h, layers);
                for (int t = 0; t < w; t++) {
                    int stored = t % 2 == 0 ? 2 : 1;
                    for (int ch = 0; ch < f.channels && ch < stored; ch++) {
                        uint32_t g = channel_of(after, t, f, ch), want = converted(f, words[4 * texels + 4 * t + ch]);
                        if (!same_channel(f, g, want))
                            c.fail("sust.p.%s %s x %d channel %d: stored 0x%08x, reads 0x%x, want 0x%x", stored == 2 ? "v2" : "(scalar)",
                                   f.name, t, ch, words[4 * texels + 4 * t + ch], g, want);
                    }
                }
            }
            CHECK(cudaFree(dv));
            CHECK(cudaDestroySurfaceObject(s));
            CHECK(cudaFreeArray(a));
        }
    }
}

// What op leaves in an element that held `start` after the values v reduce into it.
static uint64_t reduced(Op op, uint64_t start, const vector<uint64_t> &v, size_t first, size_t step, Kind kind_of_p) {
    uint64_t r = start;
    for (size_t i = first; i < v.size(); i += step) {
        uint64_t x = v[i];
        uint32_t r32 = (uint32_t)r, x32 = (uint32_t)x;
        bool p_signed = kind_of_p == SIGNED;
        switch (op) {
        case ADD_U32: case ADD_S32: case P_ADD_B32: r = (uint32_t)(r32 + x32); break;
        case MIN_U32: r = r32 < x32 ? r32 : x32; break;
        case MAX_U32: r = r32 > x32 ? r32 : x32; break;
        case MIN_S32: r = (uint32_t)((int32_t)r32 < (int32_t)x32 ? r32 : x32); break;
        case MAX_S32: r = (uint32_t)((int32_t)r32 > (int32_t)x32 ? r32 : x32); break;
        case P_MIN_B32: r = p_signed ? ((int32_t)r32 < (int32_t)x32 ? r32 : x32) : (r32 < x32 ? r32 : x32); break;
        case P_MAX_B32: r = p_signed ? ((int32_t)r32 > (int32_t)x32 ? r32 : x32) : (r32 > x32 ? r32 : x32); break;
        case AND_B32: r = r32 & x32; break;
        case OR_B32: r = r32 | x32; break;
        case ADD_U64: r += x; break;
        case MIN_U64: r = r < x ? r : x; break;
        case MAX_U64: r = r > x ? r : x; break;
        case MIN_S64: r = (int64_t)r < (int64_t)x ? r : x; break;
        case MAX_S64: r = (int64_t)r > (int64_t)x ? r : x; break;
        case P_MIN_B64: r = p_signed ? ((int64_t)r < (int64_t)x ? r : x) : (r < x ? r : x); break;
        case P_MAX_B64: r = p_signed ? ((int64_t)r > (int64_t)x ? r : x) : (r > x ? r : x); break;
        default: break;
        }
    }
    return r;
}

// Every reduction, 512 threads into the 8 elements of a 1D surface; the sured.p ones on an
// unsigned and a signed format each.
static void check_reductions(Checker &c, Lcg &rng) {
    static const char *names[OPS] = {"b.add.u32", "b.min.u32", "b.max.u32", "b.add.s32", "b.min.s32", "b.max.s32",
                                     "b.and.b32", "b.or.b32",  "b.add.u64", "b.min.u64", "b.max.u64", "b.min.s64",
                                     "b.max.s64", "p.add.b32", "p.min.b32", "p.max.b32", "p.min.b64", "p.max.b64"};
    const int n = 8, count = 512;
    for (int op = 0; op < OPS; op++)
        for (int kind = UNSIGNED; kind <= SIGNED; kind++) {
            bool wide = op >= ADD_U64 && op <= MAX_S64 ? true : op == P_MIN_B64 || op == P_MAX_B64;
            if (op < P_ADD_B32 && kind == SIGNED) continue;  // sured.b: the format does not matter
            Format f = wide ? Format{"x2", kind == SIGNED ? cudaCreateChannelDesc<int2>() : cudaCreateChannelDesc<uint2>(), 2, 4, (Kind)kind}
                            : Format{"x1", kind == SIGNED ? cudaCreateChannelDesc<int>() : cudaCreateChannelDesc<unsigned>(), 1, 4, (Kind)kind};
            vector<uint64_t> start(n), v(count);
            for (auto &e : start) e = wide ? rng.next64() : rng.next();
            for (auto &e : v) {  // small values too, so min and max see both signs
                uint64_t r = wide ? rng.next64() : rng.next();
                e = rng.next() % 3 == 0 ? r >> (rng.next() % 60) : r;
                if (op == AND_B32) e |= rng.next() | rng.next();  // some bits survive
                if (op == OR_B32) e &= rng.next() & rng.next();
            }
            vector<uint32_t> narrow(start.begin(), start.end());  // the elements of a 32-bit format
            cudaArray_t a = make_array(f, n, 0, 0, wide ? (const void *)start.data() : narrow.data());
            cudaSurfaceObject_t s = make_surface(a);
            uint64_t *dv = to_device(v);
            reduce_all<<<count / 128, 128>>>((Op)op, s, dv, count, n);
            CHECK_LAUNCH();
            vector<unsigned char> got = read_array(a, f, n, 0, 0);
            for (int e = 0; e < n; e++) {
                uint64_t g = 0, want = reduced((Op)op, start[e], v, e, n, (Kind)kind);
                memcpy(&g, &got[e * (wide ? 8 : 4)], wide ? 8 : 4);
                if (g != want)
                    c.fail("sured.%s on a %s format, element %d: 0x%llx, want 0x%llx", names[op], kind == SIGNED ? "signed" : "unsigned",
                           e, (unsigned long long)g, (unsigned long long)want);
            }
            CHECK(cudaFree(dv));
            CHECK(cudaDestroySurfaceObject(s));
            CHECK(cudaFreeArray(a));
        }

    // The boundary modes, on a 5 x 3 u32 surface of zeros.
    const Format u32 = {"u32", cudaCreateChannelDesc<unsigned>(), 1, 4, UNSIGNED};
    const int W = 5, H = 3;
    vector<uint32_t> zero(W * H, 0), want(W * H, 0);
    vector<int2> p = {{0, 0}, {4 * 4, 2}, {-4, 1}, {4 * W, 1}, {4 * 2, -1}, {4 * 3, H}, {-40, -7}, {4 * (W + 3), H + 9}};
    int2 nearest[] = {{0, 0}, {4, 2}, {0, 1}, {4, 1}, {2, 0}, {3, 2}, {0, 0}, {4, 2}};
    for (int i = 0; i < (int)p.size(); i++) {
        bool inside = p[i].x >= 0 && p[i].x < 4 * W && p[i].y >= 0 && p[i].y < H;
        want[nearest[i].y * W + nearest[i].x] += 100 + (inside ? 1 : 0);
    }
    cudaArray_t a = make_array(u32, W, H, 0, zero.data());
    cudaSurfaceObject_t s = make_surface(a);
    int2 *dp = to_device(p);
    reduce_boundary<<<1, 32>>>(s, dp, (int)p.size());
    CHECK_LAUNCH();
    vector<unsigned char> got = read_array(a, u32, W, H, 0);
    for (int i = 0; i < W * H; i++) {
        uint32_t g;
        memcpy(&g, &got[4 * i], 4);
        if (g != want[i]) c.fail("sured.b.add .zero/.clamp outside the surface: element (%d, %d) = %u, want %u", i % W, i / W, g, want[i]);
    }
    CHECK(cudaFree(dp));
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
}

// txq.level's extents: max(1, extent >> l) for each level of a 3D mipmapped array of 4
// levels, 0 for the two past them; and of a plain 2D array (one level; no depth: 0).
static void check_level_queries(Checker &c) {
    const int levels = 4, w = 24, h = 10, d = 5;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m;
    CHECK(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(w, h, d), levels, 0));
    cudaResourceDesc rd = mipmap_resource(m);
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.normalizedCoords = 1;
    td.maxMipmapLevelClamp = levels - 1;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    uint32_t *dq;
    CHECK(cudaMalloc(&dq, 3 * (levels + 2) * sizeof(uint32_t)));
    query_levels<<<1, 32>>>(t, levels + 2, dq);
    CHECK_LAUNCH();
    vector<uint32_t> q(3 * (levels + 2));
    CHECK(cudaMemcpy(q.data(), dq, q.size() * 4, cudaMemcpyDeviceToHost));
    for (int l = 0; l < levels + 2; l++) {
        uint32_t want[3] = {0, 0, 0};  // past the last level
        if (l < levels) want[0] = std::max(w >> l, 1), want[1] = std::max(h >> l, 1), want[2] = std::max(d >> l, 1);
        for (int k = 0; k < 3; k++)
            if (q[3 * l + k] != want[k]) c.fail("txq.level.%s of level %d = %u, want %u", k == 0 ? "width" : k == 1 ? "height" : "depth", l,
                                             q[3 * l + k], want[k]);
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeMipmappedArray(m));

    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &desc, 13, 6));
    rd = array_resource(a);
    td.maxMipmapLevelClamp = 0;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    query_levels<<<1, 32>>>(t, 1, dq);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(q.data(), dq, 3 * 4, cudaMemcpyDeviceToHost));
    if (q[0] != 13 || q[1] != 6 || q[2] != 0) c.fail("txq.level of level 0 of a 13 x 6 array = %u x %u x %u", q[0], q[1], q[2]);
    CHECK(cudaFree(dq));
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
}

int main() {
    Checker c;
    Lcg rng(2026);
    check_formatted_stores(c, rng);
    check_reductions(c, rng);
    check_level_queries(c);
    return c.finish();
}
