// Surface objects (cudaCreateSurfaceObject on CUDA arrays made with cudaArraySurfaceLoadStore),
// the surface path of the driver replacement and of the PTX lowering (suld, sust): kernels
// read one surface and write a transformed value into another with surf2Dread/surf2Dwrite
// (float and uchar4), surf1Dread/surf1Dwrite (int), surf3Dread/surf3Dwrite (float2, a 3D
// array), surf2DLayeredread/surf2DLayeredwrite (int, 3 layers), surfCubemapread/write (a
// cube map's 6 faces) and surfCubemapLayeredread/write (2 cubes); the host copies the
// results back (cudaMemcpy2DFromArray, cudaMemcpy3D) and compares with its own transform.
// Then the boundary modes: reads outside the surface with cudaBoundaryModeZero return 0 and
// with cudaBoundaryModeClamp the nearest element; writes outside it with cudaBoundaryModeZero
// are dropped and with cudaBoundaryModeClamp land on the nearest element. x coordinates are
// in BYTES, so element x of a float surface is at 4 x; every x here is a multiple of the
// element size, outside the surface too (the H200 faults with "misaligned address" on an
// x that is not, even one that the boundary mode would clamp or drop).
// Last, a texture object and a surface object on the same array: a kernel writes through
// the surface and a later kernel reads the values back through the texture (point
// sampling, and linear filtering between two texels whose weight is exact).
#include <vector>
#include "test_util.h"

using std::vector;

static const int W = 13, H = 7;

// Transforms the kernels apply and the host repeats.
__host__ __device__ inline float tf(float v, int x, int y) { return v * 2.0f - (float)x + 0.25f * (float)y; }
__host__ __device__ inline uchar4 tu4(uchar4 v, int x, int y) {
    return make_uchar4(v.w, v.z ^ 0x5a, (unsigned char)(v.y + x), (unsigned char)(255 - v.x + y));
}
__host__ __device__ inline int ti(int v, int x, int layer) { return v * 3 - x + (layer << 20); }
__host__ __device__ inline float2 tf2(float2 v, int x, int y, int z) { return make_float2(v.y + (float)(x * 100 + y * 10 + z), -v.x); }

__global__ void copy_2d_float(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float v = surf2Dread<float>(src, x * (int)sizeof(float), y);
    surf2Dwrite(tf(v, x, y), dst, x * (int)sizeof(float), y);
}
__global__ void copy_2d_uchar4(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uchar4 v;
    surf2Dread(&v, src, x * (int)sizeof(uchar4), y);  // the form that returns through a pointer
    surf2Dwrite(tu4(v, x, y), dst, x * (int)sizeof(uchar4), y);
}
__global__ void copy_1d_int(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w) return;
    surf1Dwrite(ti(surf1Dread<int>(src, x * (int)sizeof(int)), x, 0), dst, x * (int)sizeof(int));
}
__global__ void copy_3d_float2(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h, int d) {
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    if (x >= w || y >= h || z >= d) return;
    float2 v = surf3Dread<float2>(src, x * (int)sizeof(float2), y, z);
    surf3Dwrite(tf2(v, x, y, z), dst, x * (int)sizeof(float2), y, z);
}
__global__ void copy_layered_int(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y, layer = blockIdx.x;
    if (x >= w || y >= h) return;
    int v = surf2DLayeredread<int>(src, x * (int)sizeof(int), y, layer);
    surf2DLayeredwrite(ti(v, x, layer), dst, x * (int)sizeof(int), y, layer);
}
__global__ void copy_cubemap_int(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y, face = blockIdx.x;
    if (x >= w || y >= h) return;
    int v = surfCubemapread<int>(src, x * (int)sizeof(int), y, face);
    surfCubemapwrite(ti(v, x, face), dst, x * (int)sizeof(int), y, face);
}
__global__ void copy_cubemap_layered_int(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y, layer_face = blockIdx.x;
    if (x >= w || y >= h) return;
    int v = surfCubemapLayeredread<int>(src, x * (int)sizeof(int), y, layer_face);
    surfCubemapLayeredwrite(ti(v, x, layer_face), dst, x * (int)sizeof(int), y, layer_face);
}
// p[i] = (x in bytes, y): zero[i] and clamp[i] read it with the two boundary modes.
__global__ void read_boundary(cudaSurfaceObject_t s, const int2 *p, float *zero, float *clamp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    zero[i] = surf2Dread<float>(s, p[i].x, p[i].y, cudaBoundaryModeZero);
    clamp[i] = surf2Dread<float>(s, p[i].x, p[i].y, cudaBoundaryModeClamp);
}
__global__ void read_boundary_1d(cudaSurfaceObject_t s, const int *x, int *zero, int *clamp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    zero[i] = surf1Dread<int>(s, x[i], cudaBoundaryModeZero);
    clamp[i] = surf1Dread<int>(s, x[i], cudaBoundaryModeClamp);
}
__global__ void write_boundary(cudaSurfaceObject_t s, const int2 *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) surf2Dwrite(-1000.0f - (float)i, s, p[i].x, p[i].y, cudaBoundaryModeZero);
}
__global__ void write_boundary_clamp(cudaSurfaceObject_t s, const int2 *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) surf2Dwrite(-2000.0f - (float)i, s, p[i].x, p[i].y, cudaBoundaryModeClamp);
}
__host__ __device__ inline float pattern(int x, int y, float scale) { return (float)(y * 64 + x) * scale; }
__global__ void write_pattern(cudaSurfaceObject_t s, int w, int h, float scale) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) surf2Dwrite(pattern(x, y, scale), s, x * (int)sizeof(float), y);
}
// p[i] = (x, y) texel coordinates for tex2D.
__global__ void read_texture(cudaTextureObject_t t, const float2 *p, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, p[i].x, p[i].y);
}

template <typename T> static cudaArray_t make_array(int w, int h, const T *init) {
    cudaChannelFormatDesc d = cudaCreateChannelDesc<T>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &d, w, h, cudaArraySurfaceLoadStore));
    if (init) CHECK(cudaMemcpy2DToArray(a, 0, 0, init, w * sizeof(T), w * sizeof(T), h ? h : 1, cudaMemcpyHostToDevice));
    return a;
}
template <typename T> static vector<T> read_array(cudaArray_t a, int w, int h) {
    vector<T> v(w * (h ? h : 1));
    CHECK(cudaMemcpy2DFromArray(v.data(), w * sizeof(T), a, 0, 0, w * sizeof(T), h ? h : 1, cudaMemcpyDeviceToHost));
    return v;
}
template <typename T> static cudaArray_t make_array_3d(int w, int h, int d, unsigned flags, const T *init) {
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<T>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, d), flags | cudaArraySurfaceLoadStore));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr((void *)init, w * sizeof(T), w, h);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    return a;
}
template <typename T> static vector<T> read_array_3d(cudaArray_t a, int w, int h, int d) {
    vector<T> v(w * h * d);
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.dstPtr = make_cudaPitchedPtr(v.data(), w * sizeof(T), w, h);
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    return v;
}

int main() {
    Checker c;
    Lcg rng(77);
    const dim3 block(16, 8), grid((W + 15) / 16, (H + 7) / 8);

    // surf2Dread/surf2Dwrite, float.
    vector<float> f(W * H);
    for (auto &v : f) v = rng.uniform(-100, 100);
    cudaArray_t fa = make_array(W, H, f.data()), fb = make_array<float>(W, H, nullptr);
    cudaSurfaceObject_t fsa = make_surface(fa), fsb = make_surface(fb);
    copy_2d_float<<<grid, block>>>(fsa, fsb, W, H);
    CHECK_LAUNCH();
    vector<float> got = read_array<float>(fb, W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (f2u(got[y * W + x]) != f2u(tf(f[y * W + x], x, y))) {
                c.fail("surf2D float: (%d, %d) = %.9g, want %.9g", x, y, got[y * W + x], tf(f[y * W + x], x, y));
                y = H;
                break;
            }

    // surf2Dread/surf2Dwrite, uchar4.
    {
        vector<uchar4> u(W * H);
        for (auto &v : u) v = make_uchar4(rng.next() >> 24, rng.next() >> 24, rng.next() >> 24, rng.next() >> 24);
        cudaArray_t ua = make_array(W, H, u.data()), ub = make_array<uchar4>(W, H, nullptr);
        cudaSurfaceObject_t sa = make_surface(ua), sb = make_surface(ub);
        copy_2d_uchar4<<<grid, block>>>(sa, sb, W, H);
        CHECK_LAUNCH();
        vector<uchar4> ug = read_array<uchar4>(ub, W, H);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uchar4 g = ug[y * W + x], want = tu4(u[y * W + x], x, y);
                if (memcmp(&g, &want, 4) != 0) {
                    c.fail("surf2D uchar4: (%d, %d) = (%d, %d, %d, %d), want (%d, %d, %d, %d)", x, y, g.x, g.y, g.z, g.w, want.x,
                           want.y, want.z, want.w);
                    y = H;
                    break;
                }
            }
        CHECK(cudaDestroySurfaceObject(sa));
        CHECK(cudaDestroySurfaceObject(sb));
        CHECK(cudaFreeArray(ua));
        CHECK(cudaFreeArray(ub));
    }

    // surf1Dread/surf1Dwrite, int, 37 elements; then its boundary modes.
    {
        const int N = 37;
        vector<int> v(N);
        for (auto &e : v) e = (int)rng.next() >> 3;
        cudaArray_t a = make_array(N, 0, v.data()), b = make_array<int>(N, 0, nullptr);
        cudaSurfaceObject_t sa = make_surface(a), sb = make_surface(b);
        copy_1d_int<<<1, 64>>>(sa, sb, N);
        CHECK_LAUNCH();
        vector<int> g = read_array<int>(b, N, 0);
        for (int x = 0; x < N; x++)
            if (g[x] != ti(v[x], x, 0)) {
                c.fail("surf1D int: element %d = %d, want %d", x, g[x], ti(v[x], x, 0));
                break;
            }
        vector<int> xs = {0, 4 * (N - 1), -4, -400, 4 * N, 4 * N + 4, 4 * (N + 50), 4 * 17};
        int *dx, *dz, *dc;
        int n = (int)xs.size();
        CHECK(cudaMalloc(&dx, n * sizeof(int)));
        CHECK(cudaMalloc(&dz, n * sizeof(int)));
        CHECK(cudaMalloc(&dc, n * sizeof(int)));
        CHECK(cudaMemcpy(dx, xs.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        read_boundary_1d<<<1, 32>>>(sa, dx, dz, dc, n);
        CHECK_LAUNCH();
        vector<int> z(n), cl(n);
        CHECK(cudaMemcpy(z.data(), dz, n * sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(cl.data(), dc, n * sizeof(int), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            int e = xs[i] / 4, inside = e >= 0 && e < N && xs[i] >= 0;
            int wz = inside ? v[e] : 0, wc = v[xs[i] < 0 ? 0 : e >= N ? N - 1 : e];
            if (z[i] != wz) c.fail("surf1Dread zero mode at byte %d = %d, want %d", xs[i], z[i], wz);
            if (cl[i] != wc) c.fail("surf1Dread clamp mode at byte %d = %d, want %d", xs[i], cl[i], wc);
        }
        CHECK(cudaFree(dx));
        CHECK(cudaFree(dz));
        CHECK(cudaFree(dc));
        CHECK(cudaDestroySurfaceObject(sa));
        CHECK(cudaDestroySurfaceObject(sb));
        CHECK(cudaFreeArray(a));
        CHECK(cudaFreeArray(b));
    }

    // surf3Dread/surf3Dwrite, float2, 5 x 4 x 3.
    {
        const int X = 5, Y = 4, Z = 3;
        vector<float2> v(X * Y * Z), zero(X * Y * Z, make_float2(0, 0));
        for (auto &e : v) e = make_float2(rng.uniform(-1, 1), rng.uniform(-1000, 1000));
        cudaArray_t a = make_array_3d(X, Y, Z, 0, v.data()), b = make_array_3d(X, Y, Z, 0, zero.data());
        cudaSurfaceObject_t sa = make_surface(a), sb = make_surface(b);
        copy_3d_float2<<<Z, dim3(X, Y)>>>(sa, sb, X, Y, Z);
        CHECK_LAUNCH();
        vector<float2> g = read_array_3d<float2>(b, X, Y, Z);
        for (int z = 0; z < Z; z++)
            for (int y = 0; y < Y; y++)
                for (int x = 0; x < X; x++) {
                    int i = (z * Y + y) * X + x;
                    float2 want = tf2(v[i], x, y, z);
                    if (f2u(g[i].x) != f2u(want.x) || f2u(g[i].y) != f2u(want.y)) {
                        c.fail("surf3D float2: (%d, %d, %d) = (%g, %g), want (%g, %g)", x, y, z, g[i].x, g[i].y, want.x, want.y);
                        z = Z; y = Y;
                        break;
                    }
                }
        CHECK(cudaDestroySurfaceObject(sa));
        CHECK(cudaDestroySurfaceObject(sb));
        CHECK(cudaFreeArray(a));
        CHECK(cudaFreeArray(b));
    }

    // Layers: surf2DLayeredread/surf2DLayeredwrite, int, 3 layers of 13 x 7; a cube map's
    // faces (8 x 8, 6 faces) and a layered cube map's (2 cubes), whose surface
    // instructions address a face as a layer.
    {
        struct { const char *name; void (*kernel)(cudaSurfaceObject_t, cudaSurfaceObject_t, int, int); int w, h, layers;
                 unsigned flags; } kinds[] = {
            {"surf2DLayered", copy_layered_int, W, H, 3, cudaArrayLayered},
            {"surfCubemap", copy_cubemap_int, 8, 8, 6, cudaArrayCubemap},
            {"surfCubemapLayered", copy_cubemap_layered_int, 8, 8, 12, cudaArrayCubemap | cudaArrayLayered},
        };
        for (auto &k : kinds) {
            const int w = k.w, h = k.h, L = k.layers;
            vector<int> v(w * h * L), zero(w * h * L, 0);
            for (auto &e : v) e = (int)rng.next() >> 4;
            cudaArray_t a = make_array_3d(w, h, L, k.flags, v.data()), b = make_array_3d(w, h, L, k.flags, zero.data());
            cudaSurfaceObject_t sa = make_surface(a), sb = make_surface(b);
            k.kernel<<<L, dim3(w, h)>>>(sa, sb, w, h);
            CHECK_LAUNCH();
            vector<int> g = read_array_3d<int>(b, w, h, L);
            for (int l = 0; l < L; l++)
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        int i = (l * h + y) * w + x;
                        if (g[i] != ti(v[i], x, l)) {
                            c.fail("%s int: (%d, %d) layer %d = %d, want %d", k.name, x, y, l, g[i], ti(v[i], x, l));
                            l = L; y = h;
                            break;
                        }
                    }
            CHECK(cudaDestroySurfaceObject(sa));
            CHECK(cudaDestroySurfaceObject(sb));
            CHECK(cudaFreeArray(a));
            CHECK(cudaFreeArray(b));
        }
    }

    // Reads outside the 2D float surface fa: zero mode gives 0, clamp mode the nearest element.
    {
        vector<int2> p = {{0, 0}, {4 * (W - 1), H - 1}, {4 * 5, 3}, {-4, 0}, {-4 * 9, 2}, {4 * W, 1}, {4 * W + 4, 6},
                          {4 * 1000, 4}, {4 * 3, -1}, {4 * 3, -50}, {4 * 7, H}, {4 * 7, H + 20}, {-4, -1}, {4 * (W + 2), H + 3}};
        int n = (int)p.size();
        int2 *dp;
        float *dz, *dc;
        CHECK(cudaMalloc(&dp, n * sizeof(int2)));
        CHECK(cudaMalloc(&dz, n * sizeof(float)));
        CHECK(cudaMalloc(&dc, n * sizeof(float)));
        CHECK(cudaMemcpy(dp, p.data(), n * sizeof(int2), cudaMemcpyHostToDevice));
        read_boundary<<<1, 32>>>(fsa, dp, dz, dc, n);
        CHECK_LAUNCH();
        vector<float> z(n), cl(n);
        CHECK(cudaMemcpy(z.data(), dz, n * sizeof(float), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(cl.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            int x = p[i].x < 0 ? -1 : p[i].x / 4, y = p[i].y;
            bool inside = x >= 0 && x < W && y >= 0 && y < H;
            int cx = x < 0 ? 0 : x >= W ? W - 1 : x, cy = y < 0 ? 0 : y >= H ? H - 1 : y;
            float wz = inside ? f[y * W + x] : 0.0f, wc = f[cy * W + cx];
            if (f2u(z[i]) != f2u(wz)) c.fail("surf2Dread zero mode at (%d bytes, %d) = %g, want %g", p[i].x, p[i].y, z[i], wz);
            if (f2u(cl[i]) != f2u(wc)) c.fail("surf2Dread clamp mode at (%d bytes, %d) = %g, want %g", p[i].x, p[i].y, cl[i], wc);
        }
        // Writes outside with zero mode are dropped; the ones inside land.
        vector<int2> q = {{-4, 0}, {4 * W, 0}, {4 * W + 8, 3}, {4 * 2, -1}, {4 * 2, H}, {-400, -3}, {4 * 3, 2}, {4 * (W - 1), H - 1}};
        int m = (int)q.size();
        CHECK(cudaMemcpy(dp, q.data(), m * sizeof(int2), cudaMemcpyHostToDevice));
        write_boundary<<<1, 32>>>(fsa, dp, m);
        CHECK_LAUNCH();
        vector<float> after = read_array<float>(fa, W, H), want = f;
        want[2 * W + 3] = -1000.0f - 6;
        want[(H - 1) * W + W - 1] = -1000.0f - 7;
        for (int i = 0; i < W * H; i++)
            if (f2u(after[i]) != f2u(want[i])) {
                c.fail("surf2Dwrite zero mode: element (%d, %d) = %g after out-of-range writes, want %g", i % W, i / W, after[i], want[i]);
                break;
            }
        // Writes outside with clamp mode land on the nearest element (each on another one).
        vector<int2> r = {{-4, 1}, {4 * W + 8, 4}, {4 * 5, -3}, {4 * 6, H + 2}, {-40, -1}, {4 * (W + 5), H + 5}, {4 * 8, 3}};
        int2 at[] = {{0, 1}, {W - 1, 4}, {5, 0}, {6, H - 1}, {0, 0}, {W - 1, H - 1}, {8, 3}};
        int nr = (int)r.size();
        CHECK(cudaMemcpy(dp, r.data(), nr * sizeof(int2), cudaMemcpyHostToDevice));
        write_boundary_clamp<<<1, 32>>>(fsa, dp, nr);
        CHECK_LAUNCH();
        after = read_array<float>(fa, W, H);
        for (int i = 0; i < nr; i++) want[at[i].y * W + at[i].x] = -2000.0f - (float)i;
        for (int i = 0; i < W * H; i++)
            if (f2u(after[i]) != f2u(want[i])) {
                c.fail("surf2Dwrite clamp mode: element (%d, %d) = %g after out-of-range writes, want %g", i % W, i / W, after[i], want[i]);
                break;
            }
        CHECK(cudaFree(dp));
        CHECK(cudaFree(dz));
        CHECK(cudaFree(dc));
    }
    CHECK(cudaDestroySurfaceObject(fsa));
    CHECK(cudaDestroySurfaceObject(fsb));
    CHECK(cudaFreeArray(fa));
    CHECK(cudaFreeArray(fb));

    // A texture and a surface on one array: write through the surface, then read through
    // the texture in a later kernel.
    {
        cudaArray_t a = make_array<float>(W, H, nullptr);
        cudaSurfaceObject_t s = make_surface(a);
        cudaResourceDesc rd = array_resource(a);
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
        td.filterMode = cudaFilterModePoint;
        td.readMode = cudaReadModeElementType;
        cudaTextureObject_t tp, tl;
        CHECK(cudaCreateTextureObject(&tp, &rd, &td, nullptr));
        td.filterMode = cudaFilterModeLinear;
        CHECK(cudaCreateTextureObject(&tl, &rd, &td, nullptr));
        vector<float2> p;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) p.push_back(make_float2(x + 0.5f, y + 0.5f));
        p.push_back(make_float2(-3.0f, 2.5f));
        p.push_back(make_float2(W + 4.0f, H + 1.0f));
        for (int y = 0; y < H; y++)  // halfway between texels (x, y) and (x + 1, y)
            for (int x = 0; x + 1 < W; x++) p.push_back(make_float2(x + 1.0f, y + 0.5f));
        int n = (int)p.size();
        float2 *dp;
        float *dout;
        CHECK(cudaMalloc(&dp, n * sizeof(float2)));
        CHECK(cudaMalloc(&dout, n * sizeof(float)));
        CHECK(cudaMemcpy(dp, p.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
        vector<float> g(n);
        // Twice, so that the second surface write is seen by the texture reads after it.
        const float scales[2] = {0.5f, -0.25f};
        for (float scale : scales) {
            write_pattern<<<grid, block>>>(s, W, H, scale);
            CHECK_LAUNCH();
            read_texture<<<(n + 127) / 128, 128>>>(tp, dp, dout, W * H + 2);
            CHECK_LAUNCH();
            CHECK(cudaMemcpy(g.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
            for (int i = 0; i < W * H + 2; i++) {
                int x = (int)floorf(p[i].x), y = (int)floorf(p[i].y);
                x = x < 0 ? 0 : x >= W ? W - 1 : x;
                y = y < 0 ? 0 : y >= H ? H - 1 : y;
                if (f2u(g[i]) != f2u(pattern(x, y, scale))) {
                    c.fail("texture over a surface-written array (scale %g): (%g, %g) = %g, want %g", scale, p[i].x, p[i].y, g[i],
                           pattern(x, y, scale));
                    break;
                }
            }
            // Linear filtering halfway between two texels: the weight is 1/2 exactly.
            read_texture<<<(n + 127) / 128, 128>>>(tl, dp, dout, n);
            CHECK_LAUNCH();
            CHECK(cudaMemcpy(g.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
            for (int i = W * H + 2; i < n; i++) {
                int x = (int)p[i].x - 1, y = (int)p[i].y;
                float want = 0.5f * pattern(x, y, scale) + 0.5f * pattern(x + 1, y, scale);
                if (f2u(g[i]) != f2u(want)) {
                    c.fail("linear texture over a surface-written array (scale %g): (%g, %g) = %.9g, want %.9g", scale, p[i].x, p[i].y,
                           g[i], want);
                    break;
                }
            }
        }
        CHECK(cudaFree(dp));
        CHECK(cudaFree(dout));
        CHECK(cudaDestroyTextureObject(tp));
        CHECK(cudaDestroyTextureObject(tl));
        CHECK(cudaDestroySurfaceObject(s));
        CHECK(cudaFreeArray(a));
    }
    return c.finish();
}
