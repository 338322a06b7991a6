// Texture objects (cudaCreateTextureObject), the texture path of the driver replacement and
// of the PTX lowering (tex, tld4): every kernel samples one texture at coordinates the host
// chose, one result per thread, and the host compares with its own sampler, written from
// the CUDA C++ Programming Guide's "Texture Fetching" appendix and made exact where an
// NVIDIA H200 was measured to differ from a plain reading of it:
//   - linear-memory resources read by tex1Dfetch: float, float2, float4, int, unsigned,
//     short (as short and as normalized float), uchar4 and signed char (normalized float),
//     every u8 and s8 value and 2100 of u16 and s16 normalized; indices before and past
//     the end (and far past it) read 0 in every component;
//   - pitched 2D memory (cudaMallocPitch) read by tex2D<float> and tex2D<float4>, point and
//     linear filtering, clamp and border (with a border colour) on unnormalized coordinates,
//     wrap and mirror on normalized ones, at texel centres, between texels and far outside;
//   - CUDA arrays: 2D uchar4 read as normalized float (linear; and point with wrap and with
//     a border colour, which reads as the format holds it), copied back with
//     cudaMemcpy2DFromArray; 1D (tex1D), 3D (tex3D, point and linear), 2D layered
//     (tex2DLayered, layer indices out of range too) and tex2Dgather of each component;
//   - what 1- and 2-channel float textures return in the components they lack when read as
//     float4 (0, w included), and what cudaGetTextureObjectResourceDesc/TextureDesc give back;
//   - tex and tld4 with an offset (inline PTX), against the sample at the moved point;
//   - tex with f16 results (.v4.f16 and .v2.f16x2, inline PTX): each channel of the float
//     sample rounded to the nearest f16 (ties to even; past 65520 infinity, tiny values to
//     subnormals), f16x2 pairing channels 0 and 1, then 2 and 3, the first in the low half.
// Point sampling and tex1Dfetch must match bit for bit; so must linear filtering of float
// textures in 1D and 2D, with the filter arithmetic measured on the H200 (see "Linear
// filtering" below: weights rounded to 1/256, not truncated, and a fixed-point weighted
// sum). 3D filtering and 8-bit unorm filtering are compared within the bounds stated
// there. Sample coordinates sit a quarter of 1/256 away from every rounding boundary of
// the filter weights, so that the coordinate arithmetic's last bits do not matter.
// Normalized-float reads return v / 255, v / 127, v / 65535 and v / 32767 rounded once
// (the most negative signed value gives -1).
#include <vector>
#include "test_util.h"
#include "texture_reference.h"

using std::vector;

// ---------------------------------------------------------------- kernels (one per fetch kind)

template <typename T> __global__ void fetch_kernel(cudaTextureObject_t t, const int *idx, T *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<T>(t, idx[i]);
}
template <typename T> __global__ void tex1d_kernel(cudaTextureObject_t t, const float *x, T *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<T>(t, x[i]);
}
template <typename T> __global__ void tex2d_kernel(cudaTextureObject_t t, const float4 *p, T *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<T>(t, p[i].x, p[i].y);
}
template <typename T> __global__ void tex3d_kernel(cudaTextureObject_t t, const float4 *p, T *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<T>(t, p[i].x, p[i].y, p[i].z);
}
// p[i].w holds the layer.
template <typename T> __global__ void layered_kernel(cudaTextureObject_t t, const float4 *p, T *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLayered<T>(t, p[i].x, p[i].y, (int)p[i].w);
}
// Thread i gathers component i % 4 at point i / 4.
__global__ void gather_kernel(cudaTextureObject_t t, const float4 *p, float4 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2Dgather<float4>(t, p[i / 4].x, p[i / 4].y, i % 4);
}

// Runs one of the kernels above over n inputs (n_out results) and returns the results.
template <typename In, typename Out>
static vector<Out> sample(void (*k)(cudaTextureObject_t, const In *, Out *, int), cudaTextureObject_t t,
                          const vector<In> &in, int n_out = -1) {
    int n = n_out < 0 ? (int)in.size() : n_out;
    In *din;
    Out *dout;
    CHECK(cudaMalloc(&din, in.size() * sizeof(In)));
    CHECK(cudaMalloc(&dout, n * sizeof(Out)));
    CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(In), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0xcd, n * sizeof(Out)));
    k<<<(n + 63) / 64, 64>>>(t, din, dout, n);
    CHECK_LAUNCH();
    vector<Out> out(n);
    CHECK(cudaMemcpy(out.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    return out;
}

// ---------------------------------------------------------------- texture object helpers

static cudaTextureDesc tex_desc(cudaTextureAddressMode am, cudaTextureFilterMode fm, cudaTextureReadMode rm, bool norm,
                                float4 border = make_float4(0, 0, 0, 0)) {
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = am;
    td.filterMode = fm;
    td.readMode = rm;
    td.normalizedCoords = norm;
    td.borderColor[0] = border.x; td.borderColor[1] = border.y; td.borderColor[2] = border.z; td.borderColor[3] = border.w;
    return td;
}
static cudaTextureObject_t make_tex(const cudaResourceDesc &rd, const cudaTextureDesc &td) {
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}
static cudaResourceDesc linear_res(void *p, cudaChannelFormatDesc d, size_t bytes) {
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = p;
    rd.res.linear.desc = d;
    rd.res.linear.sizeInBytes = bytes;
    return rd;
}

// ---------------------------------------------------------------- the host's reference sampler

// Normalized-float conversions as the H200 does them: the integer divided by its largest
// positive value, rounded once to float; the most negative signed value gives -1.
static float unorm8(unsigned v) { return (float)v / 255.0f; }
static float snorm8(int v) { float f = (float)v / 127.0f; return f < -1.0f ? -1.0f : f; }
static float unorm16(unsigned v) { return (float)v / 65535.0f; }
static float snorm16(int v) { float f = (float)v / 32767.0f; return f < -1.0f ? -1.0f : f; }

// Linear filtering, as measured on the H200 (each rule was checked against thousands of
// filtered samples, of one-hot and of random textures, and matched every one):
//  - x_B = x - 0.5 is rounded to the nearest multiple of 1/256, halves upward; the integer
//    part is i, the fraction alpha (0..255 in 1/256). The texels chosen follow the rounded
//    value: x_B = 9.999 reads texels 10 and 11 with alpha 0 (tex2Dgather too).
//  - 1D weights (256 - a, a) / 256. 2D weights are quantized to 1/256 as well, keeping the
//    sums along x and y: w11 = floor(a b / 256 + 1/2), w10 = a - w11, w01 = b - w11,
//    w00 = 256 - a - b + w11.
//  - float texels: among the texels of nonzero weight let 2^(e-1) <= max |t| < 2^e; every
//    texel is truncated toward zero to a multiple of 2^(e-28), the weighted sum is formed
//    exactly and rounded to float once, halves away from zero. The result is then exact.
//  - 3D weights are also multiples of 1/256 summing to 1, each within 1/256 of the product
//    of the three 1D weights, but by a rounding rule not reproduced here: at points whose
//    fractions are multiples of 1/4 every product is an exact multiple of 1/256 and the
//    result is compared exactly; elsewhere within sum |t| / 256 of the exact trilinear value.
//  - 8-bit unorm texels (uchar4 read as normalized float) are filtered on the integers: the
//    result is within half a step of 1/(255 * 256) of sum w v / (255 * 256) (measured at most
//    0.4985 of a step); 0.55 of a step is allowed, while a weight off by 1/256 between two
//    texels that differ, or a wrong texel, moves the result by at least a whole step.
//  - a 1D CUDA array is sampled as a 2D one of height 1 at y = 0, so that with linear
//    filtering and border addressing half of every result comes from the border colour:
//    no case here combines the two.

struct HostTexture {
    int dims = 2;                 // 1, 2 or 3 coordinates
    int w = 1, h = 1, d = 1;      // extent in texels
    int layers = 0;               // > 0: a layered 2D texture
    vector<float4> texels;        // ((layer * d + z) * h + y) * w + x, missing channels as read
    cudaTextureAddressMode am = cudaAddressModeClamp;
    bool linear = false, normalized = false;
    bool unorm8 = false;          // texels are 8-bit unorm values v / 255
    float4 border = make_float4(0, 0, 0, 0);  // as read: missing channels 0, unorm8 quantized
};

// Applies the address mode to an integer texel index; sets *outside for border texels.
static int address(int i, int n, cudaTextureAddressMode m, bool *outside) {
    switch (m) {
    case cudaAddressModeWrap:
        i %= n;
        return i < 0 ? i + n : i;
    case cudaAddressModeMirror: {
        int p = i % (2 * n);
        if (p < 0) p += 2 * n;
        return p < n ? p : 2 * n - 1 - p;
    }
    case cudaAddressModeBorder:
        if (i < 0 || i >= n) *outside = true;
        return i;
    default:
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

static float4 texel(const HostTexture &t, int x, int y, int z, int layer) {
    bool outside = false;
    x = address(x, t.w, t.am, &outside);
    y = t.dims > 1 ? address(y, t.h, t.am, &outside) : 0;
    z = t.dims > 2 ? address(z, t.d, t.am, &outside) : 0;
    if (outside) return t.border;
    // a layer index outside [0, layers) reads the last layer (negative ones too: unsigned)
    if (t.layers) layer = (unsigned)layer >= (unsigned)t.layers ? t.layers - 1 : layer;
    return t.texels[((size_t)(layer * t.d + z) * t.h + y) * t.w + x];
}


// Samples the host texture at (x, y, z) (and a layer). *tol gets how far the H200's result
// may be from it: 0 (bit for bit) except in the cases the comment above names.
static float4 reference(const HostTexture &t, float x, float y, float z, int layer, float4 *tol) {
    float c[3] = {x, y, z};
    int n[3] = {t.w, t.h, t.d};
    for (int k = 0; k < t.dims; k++)
        if (t.normalized) c[k] = c[k] * (float)n[k];
    *tol = make_float4(0, 0, 0, 0);
    if (!t.linear) {
        int i[3] = {0, 0, 0};
        for (int k = 0; k < t.dims; k++) i[k] = (int)floorf(c[k]);
        return texel(t, i[0], i[1], i[2], layer);
    }
    int i[3] = {0, 0, 0}, a[3] = {0, 0, 0};
    for (int k = 0; k < t.dims; k++) footprint(c[k], &i[k], &a[k]);
    // the footprint's texels, corner q at (i + (q & 1), j + (q >> 1 & 1), k + (q >> 2))
    int ncorner = 1 << t.dims;
    float4 tx[8];
    for (int q = 0; q < ncorner; q++) tx[q] = texel(t, i[0] + (q & 1), i[1] + (q >> 1 & 1), i[2] + (q >> 2), layer);
    int w[8];
    double wexact[8];
    bool exact_weights = true;
    if (t.dims == 1) {
        w[0] = 256 - a[0]; w[1] = a[0];
    } else if (t.dims == 2) {
        weights_2d(a[0], a[1], w);
    } else {
        for (int q = 0; q < 8; q++) {
            int p = ((q & 1) ? a[0] : 256 - a[0]) * ((q & 2) ? a[1] : 256 - a[1]) * ((q & 4) ? a[2] : 256 - a[2]);
            wexact[q] = p / 65536.0;
            w[q] = p / 65536;
            if (p % 65536) exact_weights = false;
        }
    }
    float4 r;
    for (int ch = 0; ch < 4; ch++) {
        float tc[8];
        for (int q = 0; q < ncorner; q++) tc[q] = comp(tx[q], ch);
        if (t.unorm8) {
            double sum = 0;
            for (int q = 0; q < ncorner; q++) sum += w[q] * (double)lrintf(tc[q] * 255.0f);
            set_comp(r, ch, (float)(sum / (255.0 * 256.0)));
            set_comp(*tol, ch, 0.55f / (255.0f * 256.0f));
        } else if (exact_weights) {
            set_comp(r, ch, filter_channel(ncorner, tc, w));
        } else {
            double sum = 0, mag = 0;
            for (int q = 0; q < ncorner; q++) { sum += wexact[q] / 256.0 * tc[q]; mag += fabs((double)tc[q]); }
            set_comp(r, ch, (float)sum);
            set_comp(*tol, ch, (float)(mag / 256.0));
        }
    }
    return r;
}

// ---------------------------------------------------------------- comparisons

static bool same4(float4 a, float4 b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z) && same_bits(a.w, b.w); }
static float4 as4(float v) { return make_float4(v, 0, 0, 0); }
static float4 as4(float4 v) { return v; }

// Compares sampled results (float or float4) with the reference at the same points; only
// the first `comps` components are compared.
template <typename Out>
static void compare(Checker &c, const char *what, const HostTexture &t, const vector<float4> &pts, const vector<Out> &got,
                    int comps) {
    for (size_t i = 0; i < pts.size(); i++) {
        float4 tol, want = reference(t, pts[i].x, pts[i].y, pts[i].z, (int)pts[i].w, &tol), g = as4(got[i]);
        bool ok = true;
        for (int ch = 0; ch < comps; ch++) ok = ok && within(comp(g, ch), comp(want, ch), comp(tol, ch));
        if (!ok) {
            c.fail("%s: point %zu (%.9g, %.9g, %.9g, layer %d) = (%.9g, %.9g, %.9g, %.9g), want (%.9g, %.9g, %.9g, %.9g)",
                   what, i, pts[i].x, pts[i].y, pts[i].z, (int)pts[i].w, g.x, g.y, g.z, g.w, want.x, want.y, want.z, want.w);
            return;
        }
    }
}

// A coordinate in [lo, hi): a texel centre plus a random number of 1/256 steps and a quarter
// step, so that neither the texel chosen by point sampling nor the 1/256 filter weight
// depends on how the last bits of the coordinate are rounded.
static float coord(Lcg &rng, int lo, int hi) {
    return (float)rng.range(lo, hi) + 0.5f + (rng.range(0, 256) + (rng.next() & 0x100 ? 0.75f : 0.25f)) / 256.0f;
}

// Texel centres, points between texels and points far outside, for a w x h texture.
static vector<float4> points_2d(Lcg &rng, int w, int h, int outside, bool normalized) {
    vector<float4> p;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) p.push_back(make_float4(x + 0.5f, y + 0.5f, 0, 0));
    for (int k = 0; k < 40; k++) p.push_back(make_float4(coord(rng, -1, w), coord(rng, -1, h), 0, 0));
    for (int k = 0; k < 24; k++) p.push_back(make_float4(coord(rng, -outside, w + outside), coord(rng, -outside, h + outside), 0, 0));
    if (!normalized) {
        // exact texel edges: point sampling takes the texel to the right of / below the edge
        for (int k = 0; k < 8; k++) p.push_back(make_float4((float)rng.range(0, w + 1), (float)rng.range(0, h + 1), 0, 0));
    } else {
        for (auto &q : p) { q.x /= (float)w; q.y /= (float)h; }
    }
    return p;
}

// ---------------------------------------------------------------- the cases

// tex1Dfetch over linear memory: one type, read as Out; want(i) gives the expected value
// of element i (indices outside [0, n) read zero).
template <typename E, typename Out, typename Want>
static void linear_case(Checker &c, const char *what, const vector<E> &data, cudaChannelFormatDesc desc,
                        cudaTextureReadMode rm, Want want) {
    int n = (int)data.size();
    void *dev;
    CHECK(cudaMalloc(&dev, n * sizeof(E)));
    CHECK(cudaMemcpy(dev, data.data(), n * sizeof(E), cudaMemcpyHostToDevice));
    cudaTextureObject_t t = make_tex(linear_res(dev, desc, n * sizeof(E)), tex_desc(cudaAddressModeClamp, cudaFilterModePoint, rm, false));
    vector<int> idx;
    for (int i = 0; i < n; i++) idx.push_back(i);
    int outside[] = {-1, -2, -1000, n, n + 1, n + 1000, 1 << 20};
    for (int i : outside) idx.push_back(i);
    vector<Out> got = sample(fetch_kernel<Out>, t, idx);
    for (size_t k = 0; k < idx.size(); k++) {
        Out w = want(idx[k]);
        if (memcmp(&got[k], &w, sizeof(Out)) != 0) {
            c.fail("%s: tex1Dfetch(%d) differs from the %s", what, idx[k], idx[k] < 0 || idx[k] >= n ? "expected zero" : "element");
            break;
        }
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(dev));
}

static void linear_cases(Checker &c, Lcg &rng) {
    const int n = 37;
    vector<float> f(n);
    vector<float2> f2(n);
    vector<float4> f4(n);
    vector<int> si(n);
    vector<unsigned> ui(n);
    vector<short> sh(n);
    vector<uchar4> u4(n);
    vector<signed char> sc(n);
    for (int i = 0; i < n; i++) {
        f[i] = rng.uniform(-100, 100);
        f2[i] = make_float2(rng.uniform(-1, 1), rng.uniform(-1e6f, 1e6f));
        f4[i] = make_float4(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
        si[i] = (int)rng.next();
        ui[i] = rng.next();
        sh[i] = (short)rng.next();
        u4[i] = make_uchar4(rng.next() >> 24, rng.next() >> 24, rng.next() >> 24, rng.next() >> 24);
        sc[i] = (signed char)(rng.next() >> 24);
    }
    // the extremes of the small integer types
    sh[0] = -32768; sh[1] = 32767; sh[2] = -32767; sh[3] = 0; sh[4] = -1;
    u4[0] = make_uchar4(0, 255, 1, 254);
    sc[0] = -128; sc[1] = 127; sc[2] = -127; sc[3] = 0; sc[4] = -1;
    auto in = [n](int i) { return i >= 0 && i < n; };
    linear_case<float, float>(c, "linear float", f, cudaCreateChannelDesc<float>(), cudaReadModeElementType,
                              [&](int i) { return in(i) ? f[i] : 0.0f; });
    linear_case<float2, float2>(c, "linear float2", f2, cudaCreateChannelDesc<float2>(), cudaReadModeElementType,
                                [&](int i) { return in(i) ? f2[i] : make_float2(0, 0); });
    linear_case<float4, float4>(c, "linear float4", f4, cudaCreateChannelDesc<float4>(), cudaReadModeElementType,
                                [&](int i) { return in(i) ? f4[i] : make_float4(0, 0, 0, 0); });
    linear_case<int, int>(c, "linear int", si, cudaCreateChannelDesc<int>(), cudaReadModeElementType,
                          [&](int i) { return in(i) ? si[i] : 0; });
    linear_case<unsigned, unsigned>(c, "linear unsigned", ui, cudaCreateChannelDesc<unsigned>(), cudaReadModeElementType,
                                    [&](int i) { return in(i) ? ui[i] : 0u; });
    linear_case<short, short>(c, "linear short", sh, cudaCreateChannelDesc<short>(), cudaReadModeElementType,
                              [&](int i) { return in(i) ? sh[i] : (short)0; });
    linear_case<short, float>(c, "linear short normalized", sh, cudaCreateChannelDesc<short>(), cudaReadModeNormalizedFloat,
                              [&](int i) { return in(i) ? snorm16(sh[i]) : 0.0f; });
    linear_case<uchar4, float4>(c, "linear uchar4 normalized", u4, cudaCreateChannelDesc<uchar4>(), cudaReadModeNormalizedFloat,
                                [&](int i) {
                                    return in(i) ? make_float4(unorm8(u4[i].x), unorm8(u4[i].y), unorm8(u4[i].z), unorm8(u4[i].w))
                                                 : make_float4(0, 0, 0, 0);
                                });
    linear_case<signed char, float>(c, "linear char normalized", sc, cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned),
                                    cudaReadModeNormalizedFloat, [&](int i) { return in(i) ? snorm8(sc[i]) : 0.0f; });

    // Every value of u8 and s8 through the normalized-float read; of u16 and s16 the 512 at
    // each end of the range and every 61st between (about 2100 each, for the emulator's
    // sake: v * (1 / 65535.0f) already differs from the correctly rounded quotient for 512
    // of the 65536 u16 values, so a stride this fine catches such a conversion).
    vector<unsigned char> all_u8(256);
    vector<signed char> all_s8(256);
    vector<unsigned short> some_u16;
    vector<short> some_s16;
    for (int i = 0; i < 256; i++) { all_u8[i] = (unsigned char)i; all_s8[i] = (signed char)(i - 128); }
    for (int v = 0; v < 65536; v++)
        if (v < 512 || v >= 65536 - 512 || v % 61 == 0) { some_u16.push_back((unsigned short)v); some_s16.push_back((short)(v - 32768)); }
    auto n8 = [](int i) { return i >= 0 && i < 256; };
    int n16 = (int)some_u16.size();
    auto in16 = [n16](int i) { return i >= 0 && i < n16; };
    linear_case<unsigned char, float>(c, "every u8 normalized", all_u8, cudaCreateChannelDesc<unsigned char>(), cudaReadModeNormalizedFloat,
                                      [&](int i) { return n8(i) ? unorm8(all_u8[i]) : 0.0f; });
    linear_case<signed char, float>(c, "every s8 normalized", all_s8, cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned),
                                    cudaReadModeNormalizedFloat, [&](int i) { return n8(i) ? snorm8(all_s8[i]) : 0.0f; });
    linear_case<unsigned short, float>(c, "u16 normalized", some_u16, cudaCreateChannelDesc<unsigned short>(), cudaReadModeNormalizedFloat,
                                       [&](int i) { return in16(i) ? unorm16(some_u16[i]) : 0.0f; });
    linear_case<short, float>(c, "s16 normalized", some_s16, cudaCreateChannelDesc<short>(), cudaReadModeNormalizedFloat,
                              [&](int i) { return in16(i) ? snorm16(some_s16[i]) : 0.0f; });
}

// Pitched 2D memory: a float and a float4 texture, every address mode and both filters.
static void pitch2d_cases(Checker &c, Lcg &rng) {
    const int w = 13, h = 7;
    vector<float> f(w * h);
    vector<float4> f4(w * h);
    for (int i = 0; i < w * h; i++) {
        f[i] = rng.uniform(-8, 8);
        f4[i] = make_float4(rng.uniform(-1, 1), rng.uniform(0, 100), rng.uniform(-1000, 0), rng.uniform(-4, 4));
    }
    float *pf;
    float4 *pf4;
    size_t pitch, pitch4;
    CHECK(cudaMallocPitch((void **)&pf, &pitch, w * sizeof(float), h));
    CHECK(cudaMallocPitch((void **)&pf4, &pitch4, w * sizeof(float4), h));
    CHECK(cudaMemcpy2D(pf, pitch, f.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2D(pf4, pitch4, f4.data(), w * sizeof(float4), w * sizeof(float4), h, cudaMemcpyHostToDevice));
    cudaResourceDesc rd, rd4;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypePitch2D;
    rd.res.pitch2D.devPtr = pf;
    rd.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    rd.res.pitch2D.width = w;
    rd.res.pitch2D.height = h;
    rd.res.pitch2D.pitchInBytes = pitch;
    rd4 = rd;
    rd4.res.pitch2D.devPtr = pf4;
    rd4.res.pitch2D.desc = cudaCreateChannelDesc<float4>();
    rd4.res.pitch2D.pitchInBytes = pitch4;

    HostTexture ht, ht4;
    ht.w = ht4.w = w;
    ht.h = ht4.h = h;
    for (int i = 0; i < w * h; i++) { ht.texels.push_back(make_float4(f[i], 0, 0, 0)); ht4.texels.push_back(f4[i]); }

    struct Mode { cudaTextureAddressMode am; bool norm; const char *name; };
    const Mode modes[] = {{cudaAddressModeClamp, false, "clamp"}, {cudaAddressModeBorder, false, "border"},
                          {cudaAddressModeWrap, true, "wrap"}, {cudaAddressModeMirror, true, "mirror"}};
    const float4 border = make_float4(-2.5f, 0.75f, 1024.0f, -0.125f);
    for (const Mode &m : modes)
        for (int linear = 0; linear < 2; linear++) {
            char what[96];
            cudaTextureFilterMode fm = linear ? cudaFilterModeLinear : cudaFilterModePoint;
            vector<float4> pts = points_2d(rng, w, h, m.norm ? 2 * w : 20, m.norm);
            // float: default (zero) border colour
            ht.am = m.am; ht.linear = linear; ht.normalized = m.norm; ht.border = make_float4(0, 0, 0, 0);
            cudaTextureObject_t t = make_tex(rd, tex_desc(m.am, fm, cudaReadModeElementType, m.norm));
            snprintf(what, sizeof what, "pitch2D float %s %s", m.name, linear ? "linear" : "point");
            compare(c, what, ht, pts, sample(tex2d_kernel<float>, t, pts), 1);
            CHECK(cudaDestroyTextureObject(t));
            // float4: a border colour of its own
            ht4.am = m.am; ht4.linear = linear; ht4.normalized = m.norm; ht4.border = border;
            t = make_tex(rd4, tex_desc(m.am, fm, cudaReadModeElementType, m.norm, border));
            snprintf(what, sizeof what, "pitch2D float4 %s %s", m.name, linear ? "linear" : "point");
            compare(c, what, ht4, pts, sample(tex2d_kernel<float4>, t, pts), 4);
            CHECK(cudaDestroyTextureObject(t));
        }

    // The descriptors given back are the ones set.
    cudaTextureObject_t t = make_tex(rd4, tex_desc(cudaAddressModeBorder, cudaFilterModeLinear, cudaReadModeElementType, false, border));
    cudaResourceDesc grd;
    cudaTextureDesc gtd;
    CHECK(cudaGetTextureObjectResourceDesc(&grd, t));
    CHECK(cudaGetTextureObjectTextureDesc(&gtd, t));
    if (grd.resType != cudaResourceTypePitch2D || grd.res.pitch2D.devPtr != pf4 || grd.res.pitch2D.width != (size_t)w ||
        grd.res.pitch2D.height != (size_t)h || grd.res.pitch2D.pitchInBytes != pitch4 || grd.res.pitch2D.desc.x != 32 ||
        grd.res.pitch2D.desc.y != 32 || grd.res.pitch2D.desc.z != 32 || grd.res.pitch2D.desc.w != 32 ||
        grd.res.pitch2D.desc.f != cudaChannelFormatKindFloat)
        c.fail("cudaGetTextureObjectResourceDesc: pitch2D resource differs from the one set");
    // (borderColor is not compared: the H200's cudart 13 hands back garbage there)
    if (gtd.addressMode[0] != cudaAddressModeBorder || gtd.addressMode[1] != cudaAddressModeBorder ||
        gtd.addressMode[2] != cudaAddressModeBorder || gtd.filterMode != cudaFilterModeLinear ||
        gtd.readMode != cudaReadModeElementType || gtd.normalizedCoords != 0)
        c.fail("cudaGetTextureObjectTextureDesc: texture description differs from the one set");
    CHECK(cudaDestroyTextureObject(t));

    const size_t bytes = 4 * sizeof(short);
    void *ps;
    CHECK(cudaMalloc(&ps, bytes));
    t = make_tex(linear_res(ps, cudaCreateChannelDesc<short>(), bytes),
                 tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, false));
    CHECK(cudaGetTextureObjectResourceDesc(&grd, t));
    CHECK(cudaGetTextureObjectTextureDesc(&gtd, t));
    if (grd.resType != cudaResourceTypeLinear || grd.res.linear.devPtr != ps || grd.res.linear.sizeInBytes != bytes ||
        grd.res.linear.desc.x != 16 || grd.res.linear.desc.y != 0 || grd.res.linear.desc.f != cudaChannelFormatKindSigned)
        c.fail("cudaGetTextureObjectResourceDesc: linear resource differs from the one set");
    if (gtd.readMode != cudaReadModeNormalizedFloat || gtd.filterMode != cudaFilterModePoint)
        c.fail("cudaGetTextureObjectTextureDesc: linear texture's read mode or filter differs from the one set");
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(ps));
    CHECK(cudaFree(pf));
    CHECK(cudaFree(pf4));
}

// CUDA arrays: 2D uchar4 normalized and filtered, 1D, 3D, layered, gather, and the missing
// channels of 1- and 2-channel textures.
static void array_cases(Checker &c, Lcg &rng) {
    const int w = 13, h = 7;
    char what[96];

    // 2D uchar4, normalized float, linear filtering, clamp; copied back first. Then point
    // sampling with wrap, and with border: the border colour is read as the texture's format
    // would hold it, clamped to [0, 1] and rounded to a multiple of 1/255.
    {
        vector<uchar4> u(w * h), back(w * h);
        for (auto &v : u) v = make_uchar4(rng.next() >> 24, rng.next() >> 24, rng.next() >> 24, rng.next() >> 24);
        cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &d, w, h));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, u.data(), w * sizeof(uchar4), w * sizeof(uchar4), h, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy2DFromArray(back.data(), w * sizeof(uchar4), a, 0, 0, w * sizeof(uchar4), h, cudaMemcpyDeviceToHost));
        if (memcmp(back.data(), u.data(), w * h * sizeof(uchar4)) != 0) c.fail("uchar4 array: cudaMemcpy2DFromArray differs from what was copied in");
        HostTexture ht;
        ht.w = w; ht.h = h; ht.linear = true; ht.unorm8 = true;
        for (auto &v : u) ht.texels.push_back(make_float4(unorm8(v.x), unorm8(v.y), unorm8(v.z), unorm8(v.w)));
        cudaTextureObject_t t = make_tex(array_resource(a), tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, false));
        vector<float4> pts = points_2d(rng, w, h, 10, false);
        compare(c, "uchar4 array normalized linear", ht, pts, sample(tex2d_kernel<float4>, t, pts), 4);
        // the same array read at texel centres with normalized coordinates and wrap
        CHECK(cudaDestroyTextureObject(t));
        t = make_tex(array_resource(a), tex_desc(cudaAddressModeWrap, cudaFilterModePoint, cudaReadModeNormalizedFloat, true));
        ht.linear = false; ht.normalized = true; ht.am = cudaAddressModeWrap;
        pts = points_2d(rng, w, h, 3 * w, true);
        compare(c, "uchar4 array normalized point wrap", ht, pts, sample(tex2d_kernel<float4>, t, pts), 4);
        CHECK(cudaDestroyTextureObject(t));
        t = make_tex(array_resource(a), tex_desc(cudaAddressModeBorder, cudaFilterModePoint, cudaReadModeNormalizedFloat, false,
                                            make_float4(0.25f, -0.5f, 2.0f, 0.8f)));
        ht.normalized = false; ht.am = cudaAddressModeBorder;
        ht.border = make_float4(unorm8(64), 0.0f, 1.0f, unorm8(204));  // 0.25 * 255 = 63.75 -> 64, 0.8 * 255 = 204
        pts = points_2d(rng, w, h, 10, false);
        compare(c, "uchar4 array normalized point border", ht, pts, sample(tex2d_kernel<float4>, t, pts), 4);
        // and linear filtering with border texels taking part
        ht.linear = true;
        CHECK(cudaDestroyTextureObject(t));
        t = make_tex(array_resource(a), tex_desc(cudaAddressModeBorder, cudaFilterModeLinear, cudaReadModeNormalizedFloat, false,
                                            make_float4(0.25f, -0.5f, 2.0f, 0.8f)));
        compare(c, "uchar4 array normalized linear border", ht, pts, sample(tex2d_kernel<float4>, t, pts), 4);
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeArray(a));
    }

    // 1D array, tex1D<float>: clamp point and linear, border point, mirror and wrap on
    // normalized coordinates.
    {
        vector<float> f(w);
        for (auto &v : f) v = rng.uniform(-3, 3);
        cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &d, w, 0));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, f.data(), w * sizeof(float), w * sizeof(float), 1, cudaMemcpyHostToDevice));
        HostTexture ht;
        ht.dims = 1; ht.w = w;
        for (float v : f) ht.texels.push_back(make_float4(v, 0, 0, 0));
        // (no border with linear filtering: see the note on 1D arrays above)
        struct { cudaTextureAddressMode am; bool norm, linear; } cs[] = {
            {cudaAddressModeClamp, false, false}, {cudaAddressModeClamp, false, true}, {cudaAddressModeBorder, false, false},
            {cudaAddressModeMirror, true, true}, {cudaAddressModeWrap, true, false}, {cudaAddressModeWrap, true, true}};
        for (auto &m : cs) {
            ht.am = m.am; ht.normalized = m.norm; ht.linear = m.linear;
            cudaTextureObject_t t = make_tex(array_resource(a), tex_desc(m.am, m.linear ? cudaFilterModeLinear : cudaFilterModePoint,
                                                                     cudaReadModeElementType, m.norm));
            vector<float4> p4 = points_2d(rng, w, 1, m.norm ? 2 * w : 9, m.norm);
            vector<float> xs;
            for (auto &q : p4) { q.y = 0; xs.push_back(q.x); }
            snprintf(what, sizeof what, "1D array tex1D %s %s",
                     m.am == cudaAddressModeClamp ? "clamp" : m.am == cudaAddressModeWrap ? "wrap" : m.am == cudaAddressModeBorder ? "border" : "mirror",
                     m.linear ? "linear" : "point");
            compare(c, what, ht, p4, sample(tex1d_kernel<float>, t, xs), 1);
            CHECK(cudaDestroyTextureObject(t));
        }
        CHECK(cudaFreeArray(a));
    }

    // 3D array 5 x 4 x 3, tex3D<float>, point and linear, clamp and border (border colour 0).
    {
        const int X = 5, Y = 4, Z = 3;
        vector<float> f(X * Y * Z), back(X * Y * Z);
        for (auto &v : f) v = rng.uniform(-50, 50);
        cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
        cudaArray_t a;
        CHECK(cudaMalloc3DArray(&a, &d, make_cudaExtent(X, Y, Z), 0));
        cudaMemcpy3DParms mp;
        memset(&mp, 0, sizeof mp);
        mp.srcPtr = make_cudaPitchedPtr(f.data(), X * sizeof(float), X, Y);
        mp.dstArray = a;
        mp.extent = make_cudaExtent(X, Y, Z);
        mp.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&mp));
        memset(&mp, 0, sizeof mp);
        mp.srcArray = a;
        mp.dstPtr = make_cudaPitchedPtr(back.data(), X * sizeof(float), X, Y);
        mp.extent = make_cudaExtent(X, Y, Z);
        mp.kind = cudaMemcpyDeviceToHost;
        CHECK(cudaMemcpy3D(&mp));
        if (back != f) c.fail("3D array: cudaMemcpy3D back differs from what was copied in");
        HostTexture ht;
        ht.dims = 3; ht.w = X; ht.h = Y; ht.d = Z;
        for (float v : f) ht.texels.push_back(make_float4(v, 0, 0, 0));
        vector<float4> pts;
        for (int z = 0; z < Z; z++)
            for (int y = 0; y < Y; y++)
                for (int x = 0; x < X; x++) pts.push_back(make_float4(x + 0.5f, y + 0.5f, z + 0.5f, 0));
        for (int k = 0; k < 48; k++) pts.push_back(make_float4(coord(rng, -1, X), coord(rng, -1, Y), coord(rng, -1, Z), 0));
        // fractions of x_B that are multiples of 1/4: every trilinear weight is exact
        for (int k = 0; k < 48; k++)
            pts.push_back(make_float4(rng.range(-1, X) + 0.5f + rng.range(0, 4) * 0.25f, rng.range(-1, Y) + 0.5f + rng.range(0, 4) * 0.25f,
                                      rng.range(-1, Z) + 0.5f + rng.range(0, 4) * 0.25f, 0));
        for (int k = 0; k < 16; k++) pts.push_back(make_float4(coord(rng, -6, X + 6), coord(rng, -6, Y + 6), coord(rng, -6, Z + 6), 0));
        for (int am = 0; am < 2; am++)
            for (int linear = 0; linear < 2; linear++) {
                ht.am = am ? cudaAddressModeBorder : cudaAddressModeClamp;
                ht.linear = linear;
                cudaTextureObject_t t = make_tex(array_resource(a), tex_desc(ht.am, linear ? cudaFilterModeLinear : cudaFilterModePoint,
                                                                         cudaReadModeElementType, false));
                snprintf(what, sizeof what, "3D array tex3D %s %s", am ? "border" : "clamp", linear ? "linear" : "point");
                compare(c, what, ht, pts, sample(tex3d_kernel<float>, t, pts), 1);
                CHECK(cudaDestroyTextureObject(t));
            }
        CHECK(cudaFreeArray(a));
    }

    // Layered 2D array, 3 layers of 13 x 7, tex2DLayered<float>; layers outside [0, 3) too:
    // the H200 reads the last layer for all of them, negative ones included.
    {
        const int L = 3;
        vector<float> f(w * h * L);
        for (auto &v : f) v = rng.uniform(-20, 20);
        cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
        cudaArray_t a;
        CHECK(cudaMalloc3DArray(&a, &d, make_cudaExtent(w, h, L), cudaArrayLayered));
        cudaMemcpy3DParms mp;
        memset(&mp, 0, sizeof mp);
        mp.srcPtr = make_cudaPitchedPtr(f.data(), w * sizeof(float), w, h);
        mp.dstArray = a;
        mp.extent = make_cudaExtent(w, h, L);
        mp.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&mp));
        HostTexture ht;
        ht.w = w; ht.h = h; ht.layers = L;
        for (float v : f) ht.texels.push_back(make_float4(v, 0, 0, 0));
        for (int linear = 0; linear < 2; linear++) {
            ht.linear = linear;
            cudaTextureObject_t t = make_tex(array_resource(a), tex_desc(cudaAddressModeClamp, linear ? cudaFilterModeLinear : cudaFilterModePoint,
                                                                     cudaReadModeElementType, false));
            vector<float4> pts = points_2d(rng, w, h, 6, false);
            for (auto &q : pts) q.w = (float)rng.range(0, L);
            for (int k = 0; k < 6; k++) pts.push_back(make_float4(coord(rng, 0, w), coord(rng, 0, h), 0, (float)(k < 3 ? -1 - k : L + k)));
            snprintf(what, sizeof what, "layered array tex2DLayered %s", linear ? "linear" : "point");
            compare(c, what, ht, pts, sample(layered_kernel<float>, t, pts), 1);
            CHECK(cudaDestroyTextureObject(t));
        }
        CHECK(cudaFreeArray(a));
    }

    // tex2Dgather on a 2D float4 array (made with cudaArrayTextureGather): component k of
    // the four texels of the bilinear footprint (i, j) (as linear filtering finds it, from
    // x - 0.5 and y - 0.5 rounded to 1/256), in the order (i, j+1), (i+1, j+1), (i+1, j),
    // (i, j); clamp addressing.
    {
        vector<float4> f(w * h);
        for (auto &v : f) v = make_float4(rng.uniform(-1, 1), rng.uniform(-10, 10), rng.uniform(-100, 100), rng.uniform(0, 1));
        cudaChannelFormatDesc d = cudaCreateChannelDesc<float4>();
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &d, w, h, cudaArrayTextureGather));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, f.data(), w * sizeof(float4), w * sizeof(float4), h, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_tex(array_resource(a), tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, false));
        vector<float4> pts = points_2d(rng, w, h, 5, false);
        vector<float4> got = sample(gather_kernel, t, pts, 4 * (int)pts.size());
        auto at = [&](int x, int y, int k) {
            x = x < 0 ? 0 : x >= w ? w - 1 : x;
            y = y < 0 ? 0 : y >= h ? h - 1 : y;
            return ((const float *)&f[y * w + x])[k];
        };
        for (size_t p = 0; p < pts.size(); p++) {
            int i, j, a, b;  // the footprint of linear filtering, from x_B rounded to 1/256
            footprint(pts[p].x, &i, &a);
            footprint(pts[p].y, &j, &b);
            for (int k = 0; k < 4; k++) {
                float4 want = make_float4(at(i, j + 1, k), at(i + 1, j + 1, k), at(i + 1, j, k), at(i, j, k)), g = got[4 * p + k];
                if (!same4(g, want)) {
                    c.fail("tex2Dgather component %d at (%.9g, %.9g) = (%g, %g, %g, %g), want (%g, %g, %g, %g)", k, pts[p].x, pts[p].y,
                           g.x, g.y, g.z, g.w, want.x, want.y, want.z, want.w);
                    p = pts.size();
                    break;
                }
            }
        }
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeArray(a));
    }

    // 1- and 2-channel float arrays read as float4: the H200 returns 0 in every missing
    // component, w included (not the 1 that some APIs give alpha), and a border colour's
    // components past the texture's channels read 0 as well.
    {
        vector<float> f1(w * h);
        vector<float2> f2(w * h);
        for (int i = 0; i < w * h; i++) { f1[i] = rng.uniform(-5, 5); f2[i] = make_float2(rng.uniform(-5, 5), rng.uniform(-5, 5)); }
        cudaChannelFormatDesc d1 = cudaCreateChannelDesc<float>(), d2 = cudaCreateChannelDesc<float2>();
        cudaArray_t a1, a2;
        CHECK(cudaMallocArray(&a1, &d1, w, h));
        CHECK(cudaMallocArray(&a2, &d2, w, h));
        CHECK(cudaMemcpy2DToArray(a1, 0, 0, f1.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy2DToArray(a2, 0, 0, f2.data(), w * sizeof(float2), w * sizeof(float2), h, cudaMemcpyHostToDevice));
        HostTexture h1, h2;
        h1.w = h2.w = w;
        h1.h = h2.h = h;
        for (int i = 0; i < w * h; i++) {
            h1.texels.push_back(make_float4(f1[i], 0, 0, 0));
            h2.texels.push_back(make_float4(f2[i].x, f2[i].y, 0, 0));
        }
        const float4 border = make_float4(-1.5f, 2.25f, 3.0f, 4.0f);
        for (int mode = 0; mode < 4; mode++) {
            bool linear = mode & 1, bordered = mode & 2;
            h1.linear = h2.linear = linear;
            h1.am = h2.am = bordered ? cudaAddressModeBorder : cudaAddressModeClamp;
            h1.border = make_float4(border.x, 0, 0, 0);
            h2.border = make_float4(border.x, border.y, 0, 0);
            cudaTextureDesc td = tex_desc(h1.am, linear ? cudaFilterModeLinear : cudaFilterModePoint, cudaReadModeElementType, false, border);
            cudaTextureObject_t t1 = make_tex(array_resource(a1), td), t2 = make_tex(array_resource(a2), td);
            vector<float4> pts = points_2d(rng, w, h, 4, false);
            snprintf(what, sizeof what, "1-channel float read as float4 (%s, %s)", linear ? "linear" : "point", bordered ? "border" : "clamp");
            compare(c, what, h1, pts, sample(tex2d_kernel<float4>, t1, pts), 4);
            snprintf(what, sizeof what, "2-channel float read as float4 (%s, %s)", linear ? "linear" : "point", bordered ? "border" : "clamp");
            compare(c, what, h2, pts, sample(tex2d_kernel<float4>, t2, pts), 4);
            CHECK(cudaDestroyTextureObject(t1));
            CHECK(cudaDestroyTextureObject(t2));
        }
        // the array resource given back is the array set
        cudaTextureObject_t t = make_tex(array_resource(a2), tex_desc(cudaAddressModeMirror, cudaFilterModePoint, cudaReadModeElementType, true));
        cudaResourceDesc grd;
        cudaTextureDesc gtd;
        CHECK(cudaGetTextureObjectResourceDesc(&grd, t));
        CHECK(cudaGetTextureObjectTextureDesc(&gtd, t));
        if (grd.resType != cudaResourceTypeArray || grd.res.array.array != a2)
            c.fail("cudaGetTextureObjectResourceDesc: array resource differs from the one set");
        if (gtd.addressMode[0] != cudaAddressModeMirror || gtd.addressMode[1] != cudaAddressModeMirror || gtd.normalizedCoords != 1 ||
            gtd.filterMode != cudaFilterModePoint)
            c.fail("cudaGetTextureObjectTextureDesc: array texture description differs from the one set");
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFreeArray(a1));
        CHECK(cudaFreeArray(a2));
    }
}

// ---------------------------------------------------------------- offsets

// tex and tld4 with an offset (inline PTX: CUDA C++ has no way to ask for one): for each
// point, the offset's sample and tld4, then the same without an offset at the point moved by
// the offset (o[p], in texels; scaled by the extent `scale` for normalized coordinates).
__global__ void offset_kernel(cudaTextureObject_t t, const float4 *pts, const int2 *o, float scale, float4 *out, int n) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n) return;
    float x = pts[p].x, y = pts[p].y;
    int ox = o[p].x, oy = o[p].y;
    float4 v, g;
    asm volatile("tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7, %8};"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(t), "f"(x), "f"(y), "r"(ox), "r"(oy));
    asm volatile("tld4.r.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7, %8};"
                 : "=f"(g.x), "=f"(g.y), "=f"(g.z), "=f"(g.w) : "l"(t), "f"(x), "f"(y), "r"(ox), "r"(oy));
    out[4 * p] = v;
    out[4 * p + 1] = g;
    out[4 * p + 2] = tex2D<float4>(t, x + ox / scale, y + oy / scale);
    out[4 * p + 3] = tex2Dgather<float4>(t, x + ox / scale, y + oy / scale, 0);
}

// A 16 x 16 float array: with unnormalized coordinates and clamp addressing, point and linear
// filtering, and with normalized ones and wrap addressing (16 a power of two, so that the
// moved point is exact). The offset moves the sample by whole texels: the offset's result
// equals the moved point's, bit for bit, and with point filtering both equal the texel the
// host picks.
static void offset_cases(Checker &c, Lcg &rng) {
    const int w = 16, h = 16;
    vector<float> f(w * h);
    for (auto &v : f) v = rng.uniform(-10, 10);
    cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &d, w, h, cudaArrayTextureGather));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, f.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    struct { cudaTextureAddressMode am; cudaTextureFilterMode fm; bool norm; const char *name; } modes[] = {
        {cudaAddressModeClamp, cudaFilterModePoint, false, "point, clamp"},
        {cudaAddressModeClamp, cudaFilterModeLinear, false, "linear, clamp"},
        {cudaAddressModeWrap, cudaFilterModePoint, true, "point, wrap, normalized"},
    };
    for (auto &m : modes) {
        cudaTextureObject_t t = make_tex(array_resource(a), tex_desc(m.am, m.fm, cudaReadModeElementType, m.norm));
        vector<float4> pts;
        vector<int2> offsets;
        for (int k = 0; k < 64; k++) {
            // points on a 1/64 grid, so that moving them by whole texels is exact
            float x = rng.range(-2 * 64, (w + 2) * 64) / 64.0f, y = rng.range(-2 * 64, (h + 2) * 64) / 64.0f;
            pts.push_back(m.norm ? make_float4(x / w, y / h, 0, 0) : make_float4(x, y, 0, 0));
            offsets.push_back(make_int2(rng.range(-3, 4), rng.range(-3, 4)));
        }
        float4 *dp, *dout;
        int2 *doff;
        int n = (int)pts.size();
        vector<float4> got(4 * n);
        CHECK(cudaMalloc(&dp, n * sizeof(float4)));
        CHECK(cudaMalloc(&doff, n * sizeof(int2)));
        CHECK(cudaMalloc(&dout, 4 * n * sizeof(float4)));
        CHECK(cudaMemcpy(dp, pts.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(doff, offsets.data(), n * sizeof(int2), cudaMemcpyHostToDevice));
        offset_kernel<<<(n + 63) / 64, 64>>>(t, dp, doff, m.norm ? (float)w : 1.0f, dout, n);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got.data(), dout, 4 * n * sizeof(float4), cudaMemcpyDeviceToHost));
        for (int p = 0; p < n; p++) {
            float4 v = got[4 * p], g = got[4 * p + 1], moved = got[4 * p + 2], moved_g = got[4 * p + 3];
            bool ok = same4(v, moved) && same4(g, moved_g);
            if (ok && m.fm == cudaFilterModePoint) {
                float x = m.norm ? pts[p].x * w : pts[p].x, y = m.norm ? pts[p].y * h : pts[p].y;
                int i = (int)floorf(x) + offsets[p].x, j = (int)floorf(y) + offsets[p].y;
                i = m.norm ? ((i % w) + w) % w : i < 0 ? 0 : i >= w ? w - 1 : i;
                j = m.norm ? ((j % h) + h) % h : j < 0 ? 0 : j >= h ? h - 1 : j;
                ok = same_bits(v.x, f[j * w + i]);
            }
            if (!ok) {
                c.fail("offset (%d, %d), %s, at (%.9g, %.9g): tex %g, tld4 (%g, %g, %g, %g); moved: tex %g, tex2Dgather (%g, %g, %g, %g)",
                       offsets[p].x, offsets[p].y, m.name, pts[p].x, pts[p].y, v.x, g.x, g.y, g.z, g.w, moved.x, moved_g.x,
                       moved_g.y, moved_g.z, moved_g.w);
                break;
            }
        }
        CHECK(cudaFree(dp));
        CHECK(cudaFree(doff));
        CHECK(cudaFree(dout));
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(a));
}

// ---------------------------------------------------------------- f16 results

// For each point: tex.v4.f16's four halves, tex.v2.f16x2's two words, and the float sample.
__global__ void half_kernel(cudaTextureObject_t t, const float4 *pts, unsigned short *halves, uint2 *pairs, float4 *floats,
                            int n) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n) return;
    float x = pts[p].x, y = pts[p].y;
    unsigned short h0, h1, h2, h3;
    unsigned w0, w1;
    asm volatile("tex.2d.v4.f16.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                 : "=h"(h0), "=h"(h1), "=h"(h2), "=h"(h3) : "l"(t), "f"(x), "f"(y));
    asm volatile("tex.2d.v2.f16x2.f32 {%0, %1}, [%2, {%3, %4}];" : "=r"(w0), "=r"(w1) : "l"(t), "f"(x), "f"(y));
    halves[4 * p] = h0; halves[4 * p + 1] = h1; halves[4 * p + 2] = h2; halves[4 * p + 3] = h3;
    pairs[p] = make_uint2(w0, w1);
    floats[p] = tex2D<float4>(t, x, y);
}

// An 8 x 8 float4 array of values that round: halfway between two halves (ties either way),
// just past 65504 and past 65520 (rounding to 65504 and to infinity), subnormal and below
// the smallest subnormal, random ones; read at texel centres (point) and between texels
// (linear, whose sums round too).
static void half_result_cases(Checker &c, Lcg &rng) {
    const int w = 8, h = 8;
    const float special[] = {1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048, -(1.0f + 1.0f / 2048), 65519.0f, 65520.0f, -70000.0f,
                             1e-5f, -3e-8f, 2.9e-8f, 1e-9f, 0.1f, -1e30f};
    vector<float4> texels(w * h);
    for (int i = 0; i < w * h; i++) {
        float v[4];
        for (int ch = 0; ch < 4; ch++) {
            int k = (i * 4 + ch) % 24;
            v[ch] = k < 12 ? special[k] : rng.uniform(-100, 100);
        }
        texels[i] = make_float4(v[0], v[1], v[2], v[3]);
    }
    cudaChannelFormatDesc d = cudaCreateChannelDesc<float4>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &d, w, h));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, texels.data(), w * sizeof(float4), w * sizeof(float4), h, cudaMemcpyHostToDevice));
    for (int linear = 0; linear < 2; linear++) {
        cudaTextureObject_t t = make_tex(array_resource(a), tex_desc(cudaAddressModeClamp, linear ? cudaFilterModeLinear
                                                                     : cudaFilterModePoint, cudaReadModeElementType, false));
        vector<float4> pts;
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++)
                pts.push_back(linear ? make_float4(i + rng.range(1, 256) / 256.0f + 1.0f / 1024, j + 0.5f, 0, 0)
                                     : make_float4(i + 0.5f, j + 0.5f, 0, 0));
        int n = (int)pts.size();
        float4 *dp, *dfloats;
        unsigned short *dhalves;
        uint2 *dpairs;
        CHECK(cudaMalloc(&dp, n * sizeof(float4)));
        CHECK(cudaMalloc(&dfloats, n * sizeof(float4)));
        CHECK(cudaMalloc(&dhalves, 4 * n * sizeof(unsigned short)));
        CHECK(cudaMalloc(&dpairs, n * sizeof(uint2)));
        CHECK(cudaMemcpy(dp, pts.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
        half_kernel<<<(n + 63) / 64, 64>>>(t, dp, dhalves, dpairs, dfloats, n);
        CHECK_LAUNCH();
        vector<float4> floats(n);
        vector<unsigned short> halves(4 * n);
        vector<uint2> pairs(n);
        CHECK(cudaMemcpy(floats.data(), dfloats, n * sizeof(float4), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(halves.data(), dhalves, 4 * n * sizeof(unsigned short), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(pairs.data(), dpairs, n * sizeof(uint2), cudaMemcpyDeviceToHost));
        for (int p = 0; p < n; p++) {
            const unsigned short *got = &halves[4 * p];
            bool ok = pairs[p].x == (got[0] | (unsigned)got[1] << 16) && pairs[p].y == (got[2] | (unsigned)got[3] << 16);
            for (int ch = 0; ch < 4; ch++) {
                float f = comp(floats[p], ch);
                if (!linear) ok &= same_bits(f, comp(texels[p], ch));  // the point sample is the texel
                ok &= same_value(half_value(got[ch]), round_half(f));
            }
            if (!ok) {
                c.fail("tex f16 results, %s, at (%.9g, %.9g): float (%.9g, %.9g, %.9g, %.9g), f16 %04x %04x %04x %04x, "
                       "f16x2 %08x %08x", linear ? "linear" : "point", pts[p].x, pts[p].y, floats[p].x, floats[p].y,
                       floats[p].z, floats[p].w, got[0], got[1], got[2], got[3], pairs[p].x, pairs[p].y);
                break;
            }
        }
        CHECK(cudaFree(dp));
        CHECK(cudaFree(dfloats));
        CHECK(cudaFree(dhalves));
        CHECK(cudaFree(dpairs));
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(a));
}

int main() {
    Checker c;
    Lcg rng(2024);
    linear_cases(c, rng);
    pitch2d_cases(c, rng);
    array_cases(c, rng);
    offset_cases(c, rng);
    half_result_cases(c, rng);
    return c.finish();
}
