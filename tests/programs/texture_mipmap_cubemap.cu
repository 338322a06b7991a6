// Mipmapped CUDA arrays and cube-map textures, through texture objects: every kernel samples
// one texture at coordinates the host chose, one result per thread, and the host compares
// with its own sampler, made exact where an NVIDIA H200 (driver 580, CUDA 13.0) was measured
// with thousands of samples (level-constant textures, whose results read back the level of
// detail and the weight of each level, and random ones):
//   - mipmapped arrays (cudaMallocMipmappedArray, cudaGetMipmappedArrayLevel, one
//     cudaMemcpy2DToArray / cudaMemcpy3D per level with its own contents,
//     cudaFreeMipmappedArray) of 2D float and float4 (16 x 8, 5 levels), 1D float (16, 5
//     levels) and 3D float (8 x 4 x 4, 4 levels), with the level extents cudaArrayGetInfo
//     gives; texture objects of resType cudaResourceTypeMipmappedArray, normalized
//     coordinates, clamp addressing;
//   - tex2DLod with mipmapFilterMode point and linear and filterMode point and linear, at
//     levels of detail on, between and beyond the levels (negative, past the last, +-inf,
//     NaN), with mipmapLevelBias, minMipmapLevelClamp and maxMipmapLevelClamp; tex2D on a
//     mipmapped texture; tex2DGrad with axis-aligned gradients, isotropic and not;
//     tex1DLod and tex3DLod (point sampling);
//   - cube maps (cudaMalloc3DArray with cudaArrayCubemap, 6 faces of 8 x 8) read by
//     texCubemap<float> and <float4> at directions hitting each face, its edges and corners
//     and the directions where two or three axes tie, point and linear filtering, clamp and
//     wrap addressing, seamlessCubemap on and off; texCubemapLayered on a layered cube map
//     (cudaArrayCubemap | cudaArrayLayered, depth 6 * 3), layers out of range too;
//   - tld4 on cube maps (inline PTX .cube and .acube; CUDA C++ has no cube gather): each
//     component of the four texels of the linear footprint on the face, clamp, wrap and
//     seamless.
// What the H200 does (and the reference below reproduces):
//   - The level of detail is fixed point with 8 fraction bits. The lod given (and the bias,
//     and both clamps) are each truncated toward zero to a multiple of 1/256; NaN reads 0,
//     +-inf saturate. lod' = lod + bias, then min(lod', maxClamp), then max(., minClamp)
//     (so minClamp wins when it exceeds maxClamp), then clamped to [0, levels - 1].
//   - mipmapFilterMode point reads level floor(lod' + 1/2) (lod' = 0.5 reads level 1).
//     Linear reads levels floor(lod') and the next one with weights (256 - f, f) / 256,
//     f the 8 fraction bits; with filterMode point the two texels are summed like a 1D
//     linear filter (the fixed-point sum measured by texture_objects.cu), bit for bit.
//   - With both filters linear (trilinear) the 8 weights are multiples of 1/256: split the
//     level's share T (256 - f or f) along x, wx1 = round(a T / 256), wx0 = T - wx1, then
//     each column along y, w.1 = round(wx. b / 256) (halves up), a and b the level's 1/256
//     bilinear fractions. This matched 439 of 452 random samples; the others had one unit
//     of weight moved between the two texels of a column. So trilinear results are compared
//     bit for bit where every product (256 - a or a)(256 - b or b)T / 65536 is an integer
//     (coordinates on a half-texel grid, f a multiple of 64), and elsewhere within
//     sum |t| / 256 of that rule.
//   - tex2D (no lod) on a mipmapped texture reads as if the level of detail were -inf:
//     level minMipmapLevelClamp (after the steps above), the bias having no effect; so do
//     tex2DGrad with zero gradients, and tex.base (inline PTX).
//   - tex2DGrad (maxAnisotropy 1): for gradients along the axes the level of detail is
//     log2 of the largest gradient length in texels (dPdx.x * width, dPdy.y * height, ...),
//     then the bias and clamps as above. But the H200's log2 is approximate: a monotone
//     function of the length's significand that is within about 1.1/256 of the exact log2
//     (256 log2 = 573.23 gave 574, 967.40 gave 968, 2^(14/64) gave 55/256, not 56). So this
//     program uses lengths 2^(k/4) (exact there) with linear mipmap filtering, and with
//     point mipmap filtering lengths whose exact lod is 2/256 or more from a level
//     boundary. Gradients that are not along the axes give levels of detail that neither
//     the larger of |dPdx| and |dPdy|, nor the Jacobian's singular values, nor per-axis
//     lengths explain (off by up to 1/2 level): they are not tested.
//   - tex1DLod and tex3DLod follow the same level selection.
//   - Cube maps: the face is that of the largest |component|, ties going to z, then y, then
//     x (so (1, 1, 1) reads face 4, +z); face: (sc, tc, ma) = +x: (-z, -y, x), -x: (z, -y,
//     -x), +y: (x, z, y), -y: (x, -z, -y), +z: (x, -y, z), -z: (-x, -y, -z), and the face
//     is sampled at s = (sc / ma + 1) / 2 * 8, t = (tc / ma + 1) / 2 * 8 (float arithmetic)
//     like a 2D texture of unnormalized coordinates; the layer index is face (+ 6 * layer).
//     With seamlessCubemap 0 (the default) linear filtering stays on the face and applies
//     the address mode at its edges (clamp: the edge texels; wrap: the opposite edge of the
//     same face). With seamlessCubemap 1, a footprint texel past one edge is taken from the
//     adjacent face: the texel that the direction of its centre projects to (bit for bit);
//     footprints past a corner are not reproduced here (the missing texel is often, not
//     always, the mean of the other three): the seamless case skips the few random points
//     whose footprint reaches past one. Point filtering is the same with and without
//     seamlessCubemap; normalizedCoords makes no difference.
//   - texCubemapLayered reads the last layer for a layer index outside [0, layers),
//     negative ones included (as tex2DLayered does).
// Point sampling is compared bit for bit everywhere; so is linear filtering except the
// trilinear points named above. The linear filter's arithmetic (footprint, weights_2d,
// filter_channel) is texture_objects.cu's, shared through texture_reference.h.
#include <vector>
#include <algorithm>
#include "test_util.h"
#include "texture_reference.h"

using std::vector;

// ---------------------------------------------------------------- kernels

struct GradIn { float x, y, dxx, dxy, dyx, dyy; };

// Inputs are (x, y, z, lod), the coordinates a kernel does not use left 0.
template <typename T> __global__ void lod2d_kernel(cudaTextureObject_t t, const float4 *p, T *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLod<T>(t, p[i].x, p[i].y, p[i].w);
}
template <typename T> __global__ void tex2d_kernel(cudaTextureObject_t t, const float4 *p, T *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<T>(t, p[i].x, p[i].y);
}
// tex.base (inline PTX; tex2D emits tex without a mipmap mode).
__global__ void base2d_kernel(cudaTextureObject_t t, const float4 *p, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float r, g, b, a;
    if (i >= n) return;
    asm volatile("tex.base.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                 : "=f"(r), "=f"(g), "=f"(b), "=f"(a) : "l"(t), "f"(p[i].x), "f"(p[i].y));
    out[i] = r;
}
__global__ void grad2d_kernel(cudaTextureObject_t t, const GradIn *p, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(t, p[i].x, p[i].y, make_float2(p[i].dxx, p[i].dxy), make_float2(p[i].dyx, p[i].dyy));
}
__global__ void lod1d_kernel(cudaTextureObject_t t, const float4 *p, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1DLod<float>(t, p[i].x, p[i].w);
}
__global__ void lod3d_kernel(cudaTextureObject_t t, const float4 *p, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3DLod<float>(t, p[i].x, p[i].y, p[i].z, p[i].w);
}
template <typename T> __global__ void cube_kernel(cudaTextureObject_t t, const float4 *p, T *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = texCubemap<T>(t, p[i].x, p[i].y, p[i].z);
}
// p[i].w holds the layer.
// tld4 .r, .g, .b and .a of a cube map (the layer p.w with .acube).
struct Gather4 {
    float4 c[4];
};
template <bool layered> __global__ void cube_gather_kernel(cudaTextureObject_t t, const float4 *p, Gather4 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = p[i].x, y = p[i].y, z = p[i].z;
    int layer = (int)p[i].w;
    float4 *o = out[i].c;
#define GATHER(c, k)                                                                                                   \
    if (layered)                                                                                                       \
        asm volatile("tld4." c ".acube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];"                           \
                     : "=f"(o[k].x), "=f"(o[k].y), "=f"(o[k].z), "=f"(o[k].w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(z)); \
    else                                                                                                               \
        asm volatile("tld4." c ".cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"                            \
                     : "=f"(o[k].x), "=f"(o[k].y), "=f"(o[k].z), "=f"(o[k].w) : "l"(t), "f"(x), "f"(y), "f"(z));
    GATHER("r", 0)
    GATHER("g", 1)
    GATHER("b", 2)
    GATHER("a", 3)
#undef GATHER
}

template <typename T> __global__ void cube_layered_kernel(cudaTextureObject_t t, const float4 *p, T *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = texCubemapLayered<T>(t, p[i].x, p[i].y, p[i].z, (int)p[i].w);
}

// Runs one of the kernels above over the inputs and returns the results.
template <typename In, typename Out>
static vector<Out> sample(void (*k)(cudaTextureObject_t, const In *, Out *, int), cudaTextureObject_t t, const vector<In> &in) {
    int n = (int)in.size();
    In *din;
    Out *dout;
    CHECK(cudaMalloc(&din, n * sizeof(In)));
    CHECK(cudaMalloc(&dout, n * sizeof(Out)));
    CHECK(cudaMemcpy(din, in.data(), n * sizeof(In), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0xcd, n * sizeof(Out)));
    k<<<(n + 63) / 64, 64>>>(t, din, dout, n);
    CHECK_LAUNCH();
    vector<Out> out(n);
    CHECK(cudaMemcpy(out.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    return out;
}


static float4 as4(float v) { return make_float4(v, 0, 0, 0); }
static float4 as4(float4 v) { return v; }

// ---------------------------------------------------------------- mipmapped textures

struct MipTexture {
    int dims = 2, levels = 1;
    int w[8], h[8], d[8];              // extent of each level
    vector<vector<float4>> texels;     // per level, (z * h + y) * w + x, missing channels 0
    bool linear = false, mip_linear = false;
    float bias = 0, min_clamp = 0, max_clamp = 0;
};

static const int LOD_INF = 1 << 24;  // a level of detail beyond every level, in 1/256

// v * 256 truncated toward zero (saturated); NaN reads 0.
static int fixed256(float v) {
    if (std::isnan(v)) return 0;
    double q = trunc((double)v * 256.0);
    return q > LOD_INF ? LOD_INF : q < -LOD_INF ? -LOD_INF : (int)q;
}
// The level of detail used, in 1/256, from the one given (raw: already in 1/256, +-LOD_INF
// for +-inf): bias, maxClamp, minClamp, then the levels there are.
static int lod_used(const MipTexture &t, int raw) {
    int q = raw <= -LOD_INF || raw >= LOD_INF ? raw : raw + fixed256(t.bias);
    q = std::min(q, fixed256(t.max_clamp));
    q = std::max(q, fixed256(t.min_clamp));
    return std::min(std::max(q, 0), 256 * (t.levels - 1));
}
static int lod_raw(float lod) { return std::isinf(lod) ? (lod > 0 ? LOD_INF : -LOD_INF) : fixed256(lod); }

static float4 mip_texel(const MipTexture &t, int L, int x, int y, int z) {
    x = std::min(std::max(x, 0), t.w[L] - 1);
    y = std::min(std::max(y, 0), t.h[L] - 1);
    z = std::min(std::max(z, 0), t.d[L] - 1);
    return t.texels[L][((size_t)z * t.h[L] + y) * t.w[L] + x];
}
// The texels one level contributes (1, or 2 x 2 with linear filtering in 2D) and the
// fractions a, b of the bilinear footprint.
static int level_taps(const MipTexture &t, int L, float x, float y, float z, float4 *tx, int *a, int *b) {
    float c[3] = {x * (float)t.w[L], y * (float)t.h[L], z * (float)t.d[L]};
    if (!t.linear) {
        tx[0] = mip_texel(t, L, (int)floorf(c[0]), t.dims > 1 ? (int)floorf(c[1]) : 0, t.dims > 2 ? (int)floorf(c[2]) : 0);
        return 1;
    }
    int i, j;
    footprint(c[0], &i, a);
    footprint(c[1], &j, b);
    for (int q = 0; q < 4; q++) tx[q] = mip_texel(t, L, i + (q & 1), j + (q >> 1), 0);
    return 4;
}
// Trilinear weights of one level whose share is T (in 1/256): along x, then each column
// along y, rounding halves up (see the comment at the top). *exact: equal to the products.
static void weights_trilinear(int a, int b, int T, int *w, bool *exact) {
    int wx1 = (a * T + 128) >> 8, wx0 = T - wx1;
    int w01 = (wx0 * b + 128) >> 8, w11 = (wx1 * b + 128) >> 8;
    w[0] = wx0 - w01; w[1] = wx1 - w11; w[2] = w01; w[3] = w11;
    if ((a * T) % 256 || (wx0 * b) % 256 || (wx1 * b) % 256) *exact = false;
}
// Samples the mipmapped texture at (x, y, z) with the level of detail `raw` (in 1/256,
// before bias and clamps). *tol: 0 (bit for bit) but for trilinear points off the grid.
static float4 mip_reference(const MipTexture &t, float x, float y, float z, int raw, float4 *tol) {
    *tol = make_float4(0, 0, 0, 0);
    int q = lod_used(t, raw);
    float4 tx[8];
    int a[2], b[2], wt[8];
    if (!t.mip_linear || (q & 255) == 0) {
        int L = t.mip_linear ? q >> 8 : (q + 128) >> 8;
        int n = level_taps(t, L, x, y, z, tx, &a[0], &b[0]);
        if (n == 1) return tx[0];
        weights_2d(a[0], b[0], wt);
    } else {
        int L = q >> 8, f = q & 255;
        int n = level_taps(t, L, x, y, z, tx, &a[0], &b[0]);
        level_taps(t, L + 1, x, y, z, tx + n, &a[1], &b[1]);
        if (n == 1) {
            wt[0] = 256 - f; wt[1] = f;
            float4 r;
            for (int ch = 0; ch < 4; ch++) {
                float tc[2] = {comp(tx[0], ch), comp(tx[1], ch)};
                set_comp(r, ch, filter_channel(2, tc, wt));
            }
            return r;
        }
        bool exact = true;
        weights_trilinear(a[0], b[0], 256 - f, wt, &exact);
        weights_trilinear(a[1], b[1], f, wt + 4, &exact);
        float4 r;
        for (int ch = 0; ch < 4; ch++) {
            float tc[8], mag = 0;
            for (int k = 0; k < 8; k++) { tc[k] = comp(tx[k], ch); mag += fabsf(tc[k]); }
            set_comp(r, ch, filter_channel(8, tc, wt));
            if (!exact) set_comp(*tol, ch, mag / 256.0f);
        }
        return r;
    }
    float4 r;
    for (int ch = 0; ch < 4; ch++) {
        float tc[4] = {comp(tx[0], ch), comp(tx[1], ch), comp(tx[2], ch), comp(tx[3], ch)};
        set_comp(r, ch, filter_channel(4, tc, wt));
    }
    return r;
}

// Makes a mipmapped array of the given extent (h = d = 1 below 2D / 3D), one level after
// another filled by fill(level, x, y, z); checks the extent of every level.
template <typename Fill>
static cudaMipmappedArray_t make_mip(Checker &c, MipTexture &t, int dims, int w, int h, int d, int levels, bool four, Fill fill) {
    cudaChannelFormatDesc desc = four ? cudaCreateChannelDesc<float4>() : cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m;
    CHECK(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(w, dims > 1 ? h : 0, dims > 2 ? d : 0), levels, 0));
    t.dims = dims;
    t.levels = levels;
    t.texels.assign(levels, vector<float4>());
    for (int L = 0; L < levels; L++) {
        t.w[L] = std::max(w >> L, 1);
        t.h[L] = dims > 1 ? std::max(h >> L, 1) : 1;
        t.d[L] = dims > 2 ? std::max(d >> L, 1) : 1;
        cudaArray_t a;
        CHECK(cudaGetMipmappedArrayLevel(&a, m, L));
        cudaChannelFormatDesc gd;
        cudaExtent ge;
        unsigned flags;
        CHECK(cudaArrayGetInfo(&gd, &ge, &flags, a));
        if (ge.width != (size_t)t.w[L] || ge.height != (size_t)(dims > 1 ? t.h[L] : 0) || ge.depth != (size_t)(dims > 2 ? t.d[L] : 0) ||
            gd.x != 32 || gd.y != (four ? 32 : 0))
            c.fail("%dD mipmapped array level %d: cudaArrayGetInfo gives %zu x %zu x %zu, want %d x %d x %d", dims, L, ge.width,
                   ge.height, ge.depth, t.w[L], dims > 1 ? t.h[L] : 0, dims > 2 ? t.d[L] : 0);
        vector<float> buf;
        for (int z = 0; z < t.d[L]; z++)
            for (int y = 0; y < t.h[L]; y++)
                for (int x = 0; x < t.w[L]; x++) {
                    float4 v = fill(L, x, y, z);
                    if (!four) v.y = v.z = v.w = 0;
                    t.texels[L].push_back(v);
                    buf.push_back(v.x);
                    if (four) { buf.push_back(v.y); buf.push_back(v.z); buf.push_back(v.w); }
                }
        size_t es = four ? 16 : 4, row = t.w[L] * es;
        if (dims < 3) {
            CHECK(cudaMemcpy2DToArray(a, 0, 0, buf.data(), row, row, t.h[L], cudaMemcpyHostToDevice));
        } else {
            cudaMemcpy3DParms mp;
            memset(&mp, 0, sizeof mp);
            mp.srcPtr = make_cudaPitchedPtr(buf.data(), row, t.w[L], t.h[L]);
            mp.dstArray = a;
            mp.extent = make_cudaExtent(t.w[L], t.h[L], t.d[L]);
            mp.kind = cudaMemcpyHostToDevice;
            CHECK(cudaMemcpy3D(&mp));
        }
    }
    return m;
}
static cudaTextureObject_t make_mip_tex(cudaMipmappedArray_t m, const MipTexture &t) {
    cudaResourceDesc rd = mipmap_resource(m);
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = t.linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.mipmapFilterMode = t.mip_linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    td.mipmapLevelBias = t.bias;
    td.minMipmapLevelClamp = t.min_clamp;
    td.maxMipmapLevelClamp = t.max_clamp;
    td.maxAnisotropy = 1;
    cudaTextureObject_t o;
    CHECK(cudaCreateTextureObject(&o, &rd, &td, nullptr));
    return o;
}

// A normalized coordinate in [lo, hi) whose texel (and 1/256 bilinear fraction) is the same
// however its last bits round, at every level of an extent n texture (n a power of two).
static float safe_coord(Lcg &rng, int n, int levels, float lo, float hi) {
    for (;;) {
        float u = rng.uniform(lo, hi);
        bool ok = true;
        for (int L = 0; L < levels && ok; L++) {
            double x = (double)u * std::max(n >> L, 1), xb = (x - 0.5) * 256;
            if (fabs(x - floor(x + 0.5)) < 1e-3 || fabs(xb - floor(xb) - 0.5) < 0.05) ok = false;
        }
        if (ok) return u;
    }
}

// Compares results with the reference at the same points: p = (x, y, z, lod).
template <typename Out>
static void compare_mip(Checker &c, const char *what, const MipTexture &t, const vector<float4> &p, const vector<Out> &got, int comps) {
    for (size_t i = 0; i < p.size(); i++) {
        float4 tol, want = mip_reference(t, p[i].x, p[i].y, p[i].z, lod_raw(p[i].w), &tol), g = as4(got[i]);
        bool ok = true;
        for (int ch = 0; ch < comps; ch++) ok = ok && within(comp(g, ch), comp(want, ch), comp(tol, ch));
        if (!ok) {
            c.fail("%s: point %zu (%.9g, %.9g, %.9g, lod %.9g) = (%.9g, %.9g, %.9g, %.9g), want (%.9g, %.9g, %.9g, %.9g)", what, i,
                   p[i].x, p[i].y, p[i].z, p[i].w, g.x, g.y, g.z, g.w, want.x, want.y, want.z, want.w);
            return;
        }
    }
}

// Levels of detail on, between and beyond the levels.
static vector<float> some_lods(Lcg &rng) {
    vector<float> l = {-1.0f, -1.0f / 512, 0.0f, 0.25f, 0.5f, 0.5f - 1.0f / 1024, 1.0f, 1.5f, 1.75f, 2.0f, 2.5f - 1.0f / 512,
                       3.0f, 3.5f, 4.0f, 4.6f, 9.0f, INFINITY, -INFINITY, NAN};
    for (int k = 0; k < 5; k++) l.push_back(rng.range(-256, 5 * 256) / 256.0f + rng.range(0, 4) / 1024.0f);
    return l;
}

// 2D float and float4 mipmapped arrays: tex2DLod, tex2D and tex2DGrad.
static void mip2d_cases(Checker &c, Lcg &rng) {
    const int W = 16, H = 8, LV = 5;
    MipTexture t1, t4;
    cudaMipmappedArray_t m1 = make_mip(c, t1, 2, W, H, 1, LV, false, [&](int L, int, int, int) {
        return make_float4(10.0f * L + rng.uniform(-4, 4), 0, 0, 0);
    });
    cudaMipmappedArray_t m4 = make_mip(c, t4, 2, W, H, 1, LV, true, [&](int L, int, int, int) {
        float4 v;
        v.x = rng.uniform(-1, 1); v.y = rng.uniform(-100, 100); v.z = L + rng.uniform(0, 1); v.w = rng.uniform(-5, 5);
        return v;
    });
    // level 2 copied back
    {
        cudaArray_t a;
        CHECK(cudaGetMipmappedArrayLevel(&a, m4, 2));
        vector<float4> back(t4.w[2] * t4.h[2]);
        CHECK(cudaMemcpy2DFromArray(back.data(), t4.w[2] * 16, a, 0, 0, t4.w[2] * 16, t4.h[2], cudaMemcpyDeviceToHost));
        if (memcmp(back.data(), t4.texels[2].data(), back.size() * 16) != 0) c.fail("float4 mipmapped array: level 2 copied back differs");
    }

    struct Cfg { bool mip_linear, linear; float bias, min_clamp, max_clamp; const char *name; } cfgs[] = {
        {false, false, 0, 0, 4, "mip point, point"},
        {true, false, 0, 0, 4, "mip linear, point"},
        {false, true, 0, 0, 4, "mip point, linear"},
        {true, true, 0, 0, 4, "mip linear, linear"},
        {true, false, 0.3f, 1.3f, 2.7f, "mip linear, point, bias 0.3, clamps [1.3, 2.7]"},
        {false, false, -0.7f, 0.5f, 3.2f, "mip point, point, bias -0.7, clamps [0.5, 3.2]"},
        {true, false, 2.2f, 0, 10, "mip linear, point, bias 2.2, maxClamp 10"},
        {true, false, 0, 0, 0, "mip linear, point, maxClamp 0"},
        {false, true, 0, 2.5f, 1.5f, "mip point, linear, minClamp 2.5 > maxClamp 1.5"},
    };
    char what[256];
    for (auto &cf : cfgs) {
        for (MipTexture *t : {&t1, &t4}) {
            t->mip_linear = cf.mip_linear; t->linear = cf.linear;
            t->bias = cf.bias; t->min_clamp = cf.min_clamp; t->max_clamp = cf.max_clamp;
        }
        bool four = &cf == &cfgs[1] || &cf == &cfgs[2] || &cf == &cfgs[3];
        MipTexture &t = four ? t4 : t1;
        cudaTextureObject_t o = make_mip_tex(four ? m4 : m1, t);
        vector<float> lods = some_lods(rng);
        vector<float4> p;
        for (float l : lods) p.push_back(make_float4(safe_coord(rng, W, LV, -0.1f, 1.1f), safe_coord(rng, H, LV, -0.1f, 1.1f), 0, l));
        if (cf.mip_linear && cf.linear) {
            // trilinear on the exact grid: x at level L a multiple of 1/2 texel, lod L + j/4
            for (int k = 0; k < 16; k++) {
                int L = rng.range(0, LV - 1);
                float u = rng.range(-1, 2 * t.w[L] + 2) / (2.0f * t.w[L]), v = rng.range(-1, 2 * t.h[L] + 2) / (2.0f * t.h[L]);
                p.push_back(make_float4(u, v, 0, L + rng.range(1, 4) / 4.0f));
            }
        }
        snprintf(what, sizeof what, "tex2DLod<%s> %s", four ? "float4" : "float", cf.name);
        if (four) compare_mip(c, what, t, p, sample(lod2d_kernel<float4>, o, p), 4);
        else compare_mip(c, what, t, p, sample(lod2d_kernel<float>, o, p), 1);
        // tex2D without a level of detail: as lod -inf
        vector<float4> q(p.begin(), p.begin() + 6);
        for (auto &e : q) e.w = -INFINITY;
        snprintf(what, sizeof what, "tex2D<%s> on a mipmapped texture, %s", four ? "float4" : "float", cf.name);
        if (four) compare_mip(c, what, t, q, sample(tex2d_kernel<float4>, o, q), 4);
        else compare_mip(c, what, t, q, sample(tex2d_kernel<float>, o, q), 1);
        if (!four) {  // tex.base reads as tex without a mipmap mode
            snprintf(what, sizeof what, "tex.base on a mipmapped texture, %s", cf.name);
            compare_mip(c, what, t, q, sample(base2d_kernel, o, q), 1);
        }
        CHECK(cudaDestroyTextureObject(o));
    }

    // tex2DGrad with gradients along the axes (see the comment at the top).
    struct GCfg { bool mip_linear; float bias, min_clamp, max_clamp; const char *name; } gcfgs[] = {
        {true, 0, 0, 4, "mip linear"}, {false, 0, 0, 4, "mip point"}, {true, 0.3f, 1.3f, 2.7f, "mip linear, bias 0.3, clamps [1.3, 2.7]"},
        {false, 0.3f, 0, 4, "mip point, bias 0.3"}};
    static const float root4[4] = {0x1p+0f, 0x1.306fe0p+0f, 0x1.6a09e6p+0f, 0x1.ae89fap+0f};  // 2^(k/4) rounded
    for (auto &g : gcfgs) {
        MipTexture &t = t1;
        t.mip_linear = g.mip_linear; t.linear = false;
        t.bias = g.bias; t.min_clamp = g.min_clamp; t.max_clamp = g.max_clamp;
        cudaTextureObject_t o = make_mip_tex(m1, t);
        vector<GradIn> in;
        vector<int> raw;  // the level of detail each should give, in 1/256
        while (in.size() < 24) {
            float len;
            int lod256;
            if (g.mip_linear) {
                int k = rng.range(-4, 22);  // lod -1 .. 5.25
                len = ldexpf(root4[k & 3], k >> 2);
                lod256 = 64 * k;
            } else {
                len = exp2f(rng.uniform(-1.0f, 5.0f));
                double e = 256.0 * log2((double)len);
                // the H200's log2 is within about 1.1/256 of this: keep the lengths whose
                // level is the same anywhere within 2/256 of it
                if ((lod_used(t, (int)floor(e - 2)) + 128) >> 8 != (lod_used(t, (int)floor(e + 2)) + 128) >> 8) continue;
                lod256 = (int)floor(e);
            }
            float other = len * rng.uniform(0.0f, 1.0f);  // the shorter gradient (0 to len)
            GradIn gi;
            gi.x = safe_coord(rng, W, LV, 0.0f, 1.0f);
            gi.y = safe_coord(rng, H, LV, 0.0f, 1.0f);
            switch (rng.range(0, 4)) {
            case 0: gi.dxx = len / W; gi.dxy = 0; gi.dyx = 0; gi.dyy = other / H; break;           // along x, then y
            case 1: gi.dxx = other / W; gi.dxy = 0; gi.dyx = 0; gi.dyy = len / H; break;
            case 2: gi.dxx = 0; gi.dxy = -len / H; gi.dyx = other / W; gi.dyy = 0; break;          // swapped, signs
            default: gi.dxx = 0; gi.dxy = 0; gi.dyx = -len / W; gi.dyy = 0; break;                 // dPdx zero
            }
            in.push_back(gi);
            raw.push_back(lod256);
        }
        // isotropic and zero gradients
        GradIn iso = {0.3f + 1.0f / 64, 0.6f + 1.0f / 64, 4.0f / W, 0, 0, 4.0f / H};  // lod 2
        in.push_back(iso); raw.push_back(512);
        GradIn zero = {0.7f + 1.0f / 64, 0.2f + 1.0f / 64, 0, 0, 0, 0};
        in.push_back(zero); raw.push_back(-LOD_INF);
        vector<float> got = sample(grad2d_kernel, o, in);
        for (size_t i = 0; i < in.size(); i++) {
            float4 tol, want = mip_reference(t, in[i].x, in[i].y, 0, raw[i], &tol);
            if (!same_bits(got[i], want.x)) {
                c.fail("tex2DGrad %s: point %zu (%.9g, %.9g), dPdx (%.9g, %.9g), dPdy (%.9g, %.9g) = %.9g, want %.9g (lod %d/256)", g.name,
                       i, in[i].x, in[i].y, in[i].dxx, in[i].dxy, in[i].dyx, in[i].dyy, got[i], want.x, raw[i]);
                break;
            }
        }
        CHECK(cudaDestroyTextureObject(o));
    }
    CHECK(cudaFreeMipmappedArray(m1));
    CHECK(cudaFreeMipmappedArray(m4));
}

// 1D and 3D mipmapped arrays: tex1DLod and tex3DLod.
static void mip1d3d_cases(Checker &c, Lcg &rng) {
    MipTexture t1, t3;
    cudaMipmappedArray_t m1 = make_mip(c, t1, 1, 16, 1, 1, 5, false, [&](int L, int, int, int) {
        return make_float4(100.0f * L + rng.uniform(-40, 40), 0, 0, 0);
    });
    cudaMipmappedArray_t m3 = make_mip(c, t3, 3, 8, 4, 4, 4, false, [&](int L, int, int, int) {
        return make_float4(1000.0f * L + rng.uniform(-400, 400), 0, 0, 0);
    });
    char what[128];
    for (int ml = 0; ml < 2; ml++) {
        t1.mip_linear = ml; t1.max_clamp = 4;
        t3.mip_linear = false; t3.max_clamp = ml ? 3 : 2; t3.bias = ml ? 0.5f : 0;
        cudaTextureObject_t o1 = make_mip_tex(m1, t1), o3 = make_mip_tex(m3, t3);
        vector<float> lods = some_lods(rng);
        vector<float4> p1, p3;
        for (float l : lods) {
            p1.push_back(make_float4(safe_coord(rng, 16, 5, -0.1f, 1.1f), 0, 0, l));
            float x = safe_coord(rng, 8, 4, -0.1f, 1.1f), y = safe_coord(rng, 4, 4, -0.1f, 1.1f), z = safe_coord(rng, 4, 4, -0.1f, 1.1f);
            p3.push_back(make_float4(x, y, z, l));
        }
        snprintf(what, sizeof what, "tex1DLod %s", ml ? "mip linear, point" : "mip point, point");
        compare_mip(c, what, t1, p1, sample(lod1d_kernel, o1, p1), 1);
        snprintf(what, sizeof what, "tex3DLod mip point, point%s", ml ? ", bias 0.5, maxClamp 3" : ", maxClamp 2");
        vector<float> got = sample(lod3d_kernel, o3, p3);
        for (size_t i = 0; i < p3.size(); i++) {
            float4 tol, want = mip_reference(t3, p3[i].x, p3[i].y, p3[i].z, lod_raw(p3[i].w), &tol);
            if (!same_bits(got[i], want.x)) {
                c.fail("%s: point %zu (%.9g, %.9g, %.9g, lod %.9g) = %.9g, want %.9g", what, i, p3[i].x, p3[i].y, p3[i].z, p3[i].w, got[i], want.x);
                break;
            }
        }
        CHECK(cudaDestroyTextureObject(o1));
        CHECK(cudaDestroyTextureObject(o3));
    }
    CHECK(cudaFreeMipmappedArray(m1));
    CHECK(cudaFreeMipmappedArray(m3));
}

// ---------------------------------------------------------------- cube maps

struct HostCube {
    int layers = 1;
    vector<float4> texels;  // ((layer * 6 + face) * 8 + y) * 8 + x
    bool linear = false, wrap = false, seamless = false;
};

// The face a direction hits (ties: z, then y, then x) and its (sc, tc, ma).
static int cube_face(float x, float y, float z, float *sc, float *tc, float *ma) {
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
    if (az >= ax && az >= ay) {
        *ma = az; *tc = -y;
        if (z >= 0) { *sc = x; return 4; }
        *sc = -x; return 5;
    }
    if (ay >= ax) {
        *ma = ay; *sc = x;
        if (y >= 0) { *tc = z; return 2; }
        *tc = -z; return 3;
    }
    *ma = ax; *tc = -y;
    if (x >= 0) { *sc = -z; return 0; }
    *sc = z; return 1;
}
// The direction of the point (sc, tc) of a face (ma = 1): the inverse of cube_face.
static void cube_dir(int f, double sc, double tc, double *v) {
    switch (f) {
    case 0: v[0] = 1; v[1] = -tc; v[2] = -sc; break;
    case 1: v[0] = -1; v[1] = -tc; v[2] = sc; break;
    case 2: v[0] = sc; v[1] = 1; v[2] = tc; break;
    case 3: v[0] = sc; v[1] = -1; v[2] = -tc; break;
    case 4: v[0] = sc; v[1] = -tc; v[2] = 1; break;
    default: v[0] = -sc; v[1] = -tc; v[2] = -1; break;
    }
}
// Face coordinates in texels, as the H200 computes them.
static int cube_st(float x, float y, float z, float *s, float *t) {
    float sc, tc, ma;
    int f = cube_face(x, y, z, &sc, &tc, &ma);
    *s = (sc / ma + 1.0f) * 0.5f * 8.0f;
    *t = (tc / ma + 1.0f) * 0.5f * 8.0f;
    return f;
}
// Texel (i, j) of face f; past one edge with seamless filtering, the texel of the adjacent
// face that the direction of its centre projects to. Returns false past a corner.
static bool cube_texel(const HostCube &h, int f, int i, int j, int layer, float4 *out) {
    bool in_i = i >= 0 && i < 8, in_j = j >= 0 && j < 8;
    if (!in_i || !in_j) {
        if (h.seamless) {
            if (!in_i && !in_j) return false;
            double v[3];
            cube_dir(f, (i + 0.5) / 4 - 1, (j + 0.5) / 4 - 1, v);
            float s, t;
            f = cube_st((float)v[0], (float)v[1], (float)v[2], &s, &t);
            i = (int)floorf(s);
            j = (int)floorf(t);
        } else if (h.wrap) {
            i &= 7; j &= 7;
        }
        i = std::min(std::max(i, 0), 7);
        j = std::min(std::max(j, 0), 7);
    }
    if ((unsigned)layer >= (unsigned)h.layers) layer = h.layers - 1;
    *out = h.texels[((size_t)(layer * 6 + f) * 8 + j) * 8 + i];
    return true;
}
// Samples the cube map; returns false where the reference does not apply (a seamless
// footprint past a corner).
static bool cube_reference(const HostCube &h, float x, float y, float z, int layer, float4 *r) {
    float s, t;
    int f = cube_st(x, y, z, &s, &t);
    if (!h.linear) return cube_texel(h, f, std::min(std::max((int)floorf(s), 0), 7), std::min(std::max((int)floorf(t), 0), 7), layer, r);
    int i, j, a, b, w[4];
    footprint(s, &i, &a);
    footprint(t, &j, &b);
    weights_2d(a, b, w);
    float4 tx[4];
    for (int q = 0; q < 4; q++)
        if (!cube_texel(h, f, i + (q & 1), j + (q >> 1), layer, &tx[q])) return false;
    for (int ch = 0; ch < 4; ch++) {
        float tc[4] = {comp(tx[0], ch), comp(tx[1], ch), comp(tx[2], ch), comp(tx[3], ch)};
        set_comp(*r, ch, filter_channel(4, tc, w));
    }
    return true;
}

// The direction to (s, t) of face f (texel units), scaled by m.
static float4 cube_point(int f, float s, float t, float m) {
    double v[3];
    cube_dir(f, s / 4.0 - 1, t / 4.0 - 1, v);
    return make_float4((float)(v[0] * m), (float)(v[1] * m), (float)(v[2] * m), 0);
}
// A texel coordinate in [lo, hi) a quarter of 1/256 away from every rounding boundary.
static float face_coord(Lcg &rng, int lo, int hi) {
    return (float)rng.range(lo, hi) + 0.5f + (rng.range(0, 256) + (rng.next() & 0x100 ? 0.75f : 0.25f)) / 256.0f;
}
// Directions on every face: inside, near and on edges and corners, and the ties.
static vector<float4> cube_points(Lcg &rng, bool edges_only_one = false) {
    vector<float4> p;
    const float scales[] = {1.0f, 0.25f, 8.0f, 3.0f};
    for (int f = 0; f < 6; f++) {
        for (int k = 0; k < 3; k++) p.push_back(cube_point(f, face_coord(rng, 0, 7), face_coord(rng, 0, 7), scales[rng.range(0, 4)]));
        // near an edge: the last half texel (past the last texel centre)
        for (int k = 0; k < 4; k++) {
            float e = (rng.range(0, 120) + 0.25f) / 256.0f, s = face_coord(rng, 1, 6);
            float along = k & 1 ? 8.0f - e : e;
            p.push_back(k < 2 ? cube_point(f, along, s, scales[k & 3]) : cube_point(f, s, along, scales[k & 3]));
        }
        if (!edges_only_one) {
            float e = (rng.range(0, 120) + 0.25f) / 256.0f;
            p.push_back(cube_point(f, 8.0f - e, e, 1.0f));        // near a corner
            p.push_back(cube_point(f, face_coord(rng, 0, 7), 8.0f, 2.0f));  // on an edge (a tie)
        }
    }
    if (!edges_only_one)
        for (int sx = -1; sx <= 1; sx++)
            for (int sy = -1; sy <= 1; sy++)
                for (int sz = -1; sz <= 1; sz++)
                    if (sx || sy || sz) p.push_back(make_float4(sx * 0.5f, sy * 0.5f, sz * 0.5f, 0));
    // random directions, kept where the coordinates are clear of rounding boundaries
    while (p.size() < (edges_only_one ? 40u : 90u)) {
        float4 d = make_float4(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), 0);
        float s, t;
        cube_st(d.x, d.y, d.z, &s, &t);
        double sb = s * 256.0 - 128, tb = t * 256.0 - 128;
        if (fabs(sb - floor(sb) - 0.5) < 0.02 || fabs(tb - floor(tb) - 0.5) < 0.02 || fabs(s - floorf(s + 0.5f)) < 1e-3f ||
            fabs(t - floorf(t + 0.5f)) < 1e-3f)
            continue;
        if (edges_only_one && !(s < 0.5f || s > 7.5f || t < 0.5f || t > 7.5f)) continue;
        p.push_back(d);
    }
    return p;
}

template <typename Out>
static void compare_cube(Checker &c, const char *what, const HostCube &h, const vector<float4> &p, const vector<Out> &got, int comps) {
    for (size_t i = 0; i < p.size(); i++) {
        float4 want, g = as4(got[i]);
        if (!cube_reference(h, p[i].x, p[i].y, p[i].z, (int)p[i].w, &want)) continue;
        bool ok = true;
        for (int ch = 0; ch < comps; ch++) ok = ok && same_bits(comp(g, ch), comp(want, ch));
        if (!ok) {
            c.fail("%s: direction %zu (%.9g, %.9g, %.9g, layer %d) = (%.9g, %.9g, %.9g, %.9g), want (%.9g, %.9g, %.9g, %.9g)", what, i,
                   p[i].x, p[i].y, p[i].z, (int)p[i].w, g.x, g.y, g.z, g.w, want.x, want.y, want.z, want.w);
            return;
        }
    }
}

// tld4 on a cube map: for component ch, channel ch of the footprint's texels (i, j+1),
// (i+1, j+1), (i+1, j), (i, j) on the face, by the address mode or, seamless, the next face.
static void compare_cube_gather(Checker &c, const char *what, const HostCube &h, const vector<float4> &p,
                                const vector<Gather4> &got) {
    for (size_t k = 0; k < p.size(); k++) {
        float s, t;
        int f = cube_st(p[k].x, p[k].y, p[k].z, &s, &t), i, j, a, b;
        footprint(s, &i, &a);
        footprint(t, &j, &b);
        float4 tx[4];
        const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
        bool known = true;
        for (int q = 0; q < 4; q++) known = known && cube_texel(h, f, i + di[q], j + dj[q], (int)p[k].w, &tx[q]);
        if (!known) continue;
        for (int ch = 0; ch < 4; ch++) {
            float4 want = make_float4(comp(tx[0], ch), comp(tx[1], ch), comp(tx[2], ch), comp(tx[3], ch)), g = got[k].c[ch];
            if (!same_bits(g.x, want.x) || !same_bits(g.y, want.y) || !same_bits(g.z, want.z) || !same_bits(g.w, want.w)) {
                c.fail("%s: direction %zu (%.9g, %.9g, %.9g, layer %d), component %d = (%.9g, %.9g, %.9g, %.9g), want "
                       "(%.9g, %.9g, %.9g, %.9g)", what, k, p[k].x, p[k].y, p[k].z, (int)p[k].w, ch, g.x, g.y, g.z, g.w,
                       want.x, want.y, want.z, want.w);
                return;
            }
        }
    }
}

static cudaTextureObject_t make_cube_tex(cudaArray_t a, const HostCube &h, bool norm) {
    cudaResourceDesc rd = array_resource(a);
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = h.wrap ? cudaAddressModeWrap : cudaAddressModeClamp;
    td.filterMode = h.linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = norm;
    td.seamlessCubemap = h.seamless;
    cudaTextureObject_t o;
    CHECK(cudaCreateTextureObject(&o, &rd, &td, nullptr));
    return o;
}
static cudaArray_t make_cube(HostCube &h, int layers, bool four, Lcg &rng) {
    cudaChannelFormatDesc d = four ? cudaCreateChannelDesc<float4>() : cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &d, make_cudaExtent(8, 8, 6 * layers), layers > 1 ? cudaArrayCubemap | cudaArrayLayered : cudaArrayCubemap));
    h.layers = layers;
    vector<float> buf;
    for (int k = 0; k < 6 * layers; k++)  // face k % 6 of layer k / 6
        for (int i = 0; i < 64; i++) {
            float4 v = make_float4(10.0f * k + rng.uniform(-4, 4), rng.uniform(-1, 1), (float)k, rng.uniform(-50, 50));
            if (!four) v.y = v.z = v.w = 0;
            h.texels.push_back(v);
            buf.push_back(v.x);
            if (four) { buf.push_back(v.y); buf.push_back(v.z); buf.push_back(v.w); }
        }
    cudaMemcpy3DParms mp;
    memset(&mp, 0, sizeof mp);
    mp.srcPtr = make_cudaPitchedPtr(buf.data(), 8 * (four ? 16 : 4), 8, 8);
    mp.dstArray = a;
    mp.extent = make_cudaExtent(8, 8, 6 * layers);
    mp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&mp));
    return a;
}

static void cube_cases(Checker &c, Lcg &rng) {
    HostCube h1, h4, hl;
    cudaArray_t a1 = make_cube(h1, 1, false, rng), a4 = make_cube(h4, 1, true, rng), al = make_cube(hl, 3, false, rng);
    vector<float4> p = cube_points(rng);
    // texCubemap<float>: point (normalized coordinates off and on), linear clamp, linear wrap
    struct { bool linear, wrap, norm; const char *name; } cs[] = {
        {false, false, false, "point"}, {false, false, true, "point, normalizedCoords"}, {true, false, false, "linear, clamp"},
        {true, true, true, "linear, wrap"}};
    char what[128];
    for (auto &m : cs) {
        h1.linear = m.linear; h1.wrap = m.wrap; h1.seamless = false;
        cudaTextureObject_t o = make_cube_tex(a1, h1, m.norm);
        snprintf(what, sizeof what, "texCubemap<float> %s", m.name);
        compare_cube(c, what, h1, p, sample(cube_kernel<float>, o, p), 1);
        CHECK(cudaDestroyTextureObject(o));
    }
    // seamless linear filtering across one edge (no footprint past a corner)
    {
        vector<float4> pe = cube_points(rng, true);
        h1.linear = true; h1.wrap = false; h1.seamless = true;
        cudaTextureObject_t o = make_cube_tex(a1, h1, false);
        compare_cube(c, "texCubemap<float> linear, seamlessCubemap", h1, pe, sample(cube_kernel<float>, o, pe), 1);
        CHECK(cudaDestroyTextureObject(o));
        h1.seamless = false;
    }
    // texCubemap<float4>: point and linear
    for (int lin = 0; lin < 2; lin++) {
        h4.linear = lin;
        cudaTextureObject_t o = make_cube_tex(a4, h4, true);
        snprintf(what, sizeof what, "texCubemap<float4> %s", lin ? "linear" : "point");
        compare_cube(c, what, h4, p, sample(cube_kernel<float4>, o, p), 4);
        CHECK(cudaDestroyTextureObject(o));
    }
    // tld4 .cube: clamp and wrap on the face, seamless across one edge
    {
        vector<float4> pe = cube_points(rng, true);
        struct { bool wrap, seamless; const vector<float4> *pts; const char *name; } gs[] = {
            {false, false, &p, "tld4.cube, clamp"}, {true, false, &p, "tld4.cube, wrap"},
            {false, true, &pe, "tld4.cube, seamlessCubemap"}};
        for (auto &m : gs) {
            h4.linear = true; h4.wrap = m.wrap; h4.seamless = m.seamless;
            cudaTextureObject_t o = make_cube_tex(a4, h4, true);
            compare_cube_gather(c, m.name, h4, *m.pts, sample(cube_gather_kernel<false>, o, *m.pts));
            CHECK(cudaDestroyTextureObject(o));
        }
        h4.wrap = h4.seamless = false;
    }
    // texCubemapLayered<float>: 3 layers, indices outside [0, 3) too
    {
        vector<float4> pl;
        for (size_t i = 0; i < p.size(); i += 2) {
            float4 e = p[i];
            int k = rng.range(0, 8);
            e.w = (float)(k < 6 ? k % 3 : k == 6 ? -1 - rng.range(0, 100) : 3 + rng.range(0, 100));
            pl.push_back(e);
        }
        for (int lin = 0; lin < 2; lin++) {
            hl.linear = lin;
            cudaTextureObject_t o = make_cube_tex(al, hl, false);
            snprintf(what, sizeof what, "texCubemapLayered<float> %s", lin ? "linear" : "point");
            compare_cube(c, what, hl, pl, sample(cube_layered_kernel<float>, o, pl), 1);
            if (lin)
                compare_cube_gather(c, "tld4.acube", hl, pl, sample(cube_gather_kernel<true>, o, pl));
            CHECK(cudaDestroyTextureObject(o));
        }
    }
    CHECK(cudaFreeArray(a1));
    CHECK(cudaFreeArray(a4));
    CHECK(cudaFreeArray(al));
}

int main() {
    Checker c;
    Lcg rng(2025);
    mip2d_cases(c, rng);
    mip1d3d_cases(c, rng);
    cube_cases(c, rng);
    return c.finish();
}
