// CUDA vector types: 16-byte float4/int4 and double2 loads and stores (which
// compile to vector memory instructions), char4/uchar4/short2 packing and
// per-component arithmetic, make_* constructors, and a struct holding a
// float4 (16-byte aligned) in an array.
#include "test_util.h"

struct __align__(16) Particle { float4 pos; int id; float mass; };

__global__ void vectors(int n, const float4 *a, const int4 *b, const double2 *c, const uchar4 *px, Particle *parts,
                        float4 *oa, int4 *ob, double2 *oc, char4 *opx, short2 *osh) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = a[i];
    oa[i] = make_float4(v.x + v.y, v.y * 2.0f, v.z - v.w, v.w);
    int4 w = b[i];
    ob[i] = make_int4(w.w, w.z, w.y ^ w.x, w.x + w.w);
    double2 d = c[i];
    oc[i] = make_double2(d.y, d.x * 0.5);
    uchar4 p = px[i];
    opx[i] = make_char4((signed char)(p.x - 128), (signed char)(p.y >> 1), (signed char)(255 - p.z), (signed char)p.w);
    osh[i] = make_short2((short)(p.x * p.y), (short)(p.z - p.w));
    Particle q = parts[i];
    q.pos.x += q.mass; q.pos.w = (float)q.id;
    q.id = -q.id;
    parts[i] = q;
}

int main() {
    Checker ch;
    const int n = 300;
    float4 *a = new float4[n], *oa = new float4[n];
    int4 *b = new int4[n], *ob = new int4[n];
    double2 *c = new double2[n], *oc = new double2[n];
    uchar4 *px = new uchar4[n]; char4 *opx = new char4[n]; short2 *osh = new short2[n];
    Particle *parts = new Particle[n], *oparts = new Particle[n];
    Lcg rng(44);
    for (int i = 0; i < n; i++) {
        a[i] = make_float4(rng.range(-99, 99), rng.range(-99, 99), rng.range(-99, 99), rng.range(-99, 99));
        b[i] = make_int4(rng.next(), rng.next(), rng.next(), rng.next() >> 2);
        c[i] = make_double2(rng.uniformd(-1, 1), rng.uniformd(-1, 1));
        unsigned r = rng.next();
        px[i] = make_uchar4(r & 255, (r >> 8) & 255, (r >> 16) & 255, r >> 24);
        parts[i].pos = make_float4(i, i + 1, i + 2, 0); parts[i].id = i * 3; parts[i].mass = 0.25f * (i % 8);
    }
    float4 *da, *doa; int4 *db, *dob; double2 *dc, *doc; uchar4 *dpx; char4 *dopx; short2 *dosh; Particle *dparts;
    CHECK(cudaMalloc(&da, n * 16)); CHECK(cudaMalloc(&doa, n * 16)); CHECK(cudaMalloc(&db, n * 16)); CHECK(cudaMalloc(&dob, n * 16));
    CHECK(cudaMalloc(&dc, n * 16)); CHECK(cudaMalloc(&doc, n * 16)); CHECK(cudaMalloc(&dpx, n * 4)); CHECK(cudaMalloc(&dopx, n * 4));
    CHECK(cudaMalloc(&dosh, n * 4)); CHECK(cudaMalloc(&dparts, n * sizeof(Particle)));
    CHECK(cudaMemcpy(da, a, n * 16, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, b, n * 16, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, c, n * 16, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dpx, px, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dparts, parts, n * sizeof(Particle), cudaMemcpyHostToDevice));
    vectors<<<(n + 63) / 64, 64>>>(n, da, db, dc, dpx, dparts, doa, dob, doc, dopx, dosh);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(oa, doa, n * 16, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(ob, dob, n * 16, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(oc, doc, n * 16, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(opx, dopx, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(osh, dosh, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(oparts, dparts, n * sizeof(Particle), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float4 v = a[i];
        if (oa[i].x != v.x + v.y || oa[i].y != v.y * 2.0f || oa[i].z != v.z - v.w || oa[i].w != v.w) ch.fail("float4 %d", i);
        int4 w = b[i];
        if (ob[i].x != w.w || ob[i].y != w.z || ob[i].z != (w.y ^ w.x) || ob[i].w != (int)((unsigned)w.x + (unsigned)w.w)) ch.fail("int4 %d", i);
        if (oc[i].x != c[i].y || oc[i].y != c[i].x * 0.5) ch.fail("double2 %d", i);
        uchar4 p = px[i];
        if (opx[i].x != (signed char)(p.x - 128) || opx[i].y != (signed char)(p.y >> 1) || opx[i].z != (signed char)(255 - p.z) ||
            opx[i].w != (signed char)p.w) ch.fail("char4 %d", i);
        if (osh[i].x != (short)(p.x * p.y) || osh[i].y != (short)(p.z - p.w)) ch.fail("short2 %d", i);
        const Particle &q = oparts[i];
        if (q.pos.x != i + 0.25f * (i % 8) || q.pos.y != i + 1 || q.pos.w != (float)(i * 3) || q.id != -i * 3 || q.mass != 0.25f * (i % 8))
            ch.fail("particle %d", i);
    }
    return ch.finish();
}
