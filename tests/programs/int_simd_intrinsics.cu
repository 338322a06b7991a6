// SIMD-within-a-word intrinsics on 4 x 8-bit and 2 x 16-bit lanes:
// __vabsdiffs4, __vabsdiffu4/u2, __vadd4/2, __vsub4, __vaddss4, __vaddus4, __vmaxu4, __vmins4,
// __vmaxs2, __vcmpeq4, __vcmpgtu4, __vcmpges2, __vsadu4, __vavgu4, and the dot
// products __dp4a (signed and unsigned), __dp2a_lo, __dp2a_hi.
#include "test_util.h"

enum { ABSDIFFS4, ABSDIFF4, ABSDIFF2, ADD4, ADD2, SUB4, ADDSS4, ADDUS4, MAXU4, MINS4, MAXS2, CMPEQ4, CMPGTU4, CMPGES2,
       SADU4, AVGU4, DP4A_S, DP4A_U, DP2A_LO, DP2A_HI, NOPS };

__global__ void simd(int n, const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i], z = c[i];
    unsigned *o = out + i * NOPS;
    o[ABSDIFFS4] = __vabsdiffs4(x, y);
    o[ABSDIFF4] = __vabsdiffu4(x, y);
    o[ABSDIFF2] = __vabsdiffu2(x, y);
    o[ADD4] = __vadd4(x, y);
    o[ADD2] = __vadd2(x, y);
    o[SUB4] = __vsub4(x, y);
    o[ADDSS4] = __vaddss4(x, y);
    o[ADDUS4] = __vaddus4(x, y);
    o[MAXU4] = __vmaxu4(x, y);
    o[MINS4] = __vmins4(x, y);
    o[MAXS2] = __vmaxs2(x, y);
    o[CMPEQ4] = __vcmpeq4(x, (i & 1) ? x ^ 0x00ff0000u : y);
    o[CMPGTU4] = __vcmpgtu4(x, y);
    o[CMPGES2] = __vcmpges2(x, y);
    o[SADU4] = __vsadu4(x, y);
    o[AVGU4] = __vavgu4(x, y);
    o[DP4A_S] = (unsigned)__dp4a((int)x, (int)y, (int)z);
    o[DP4A_U] = __dp4a(x, y, z);
    o[DP2A_LO] = (unsigned)__dp2a_lo((int)x, (int)y, (int)z);
    o[DP2A_HI] = (unsigned)__dp2a_hi((int)x, (int)y, (int)z);
}

static unsigned ub(unsigned v, int k) { return (v >> (8 * k)) & 0xff; }
static int sb(unsigned v, int k) { return (signed char)ub(v, k); }
static unsigned uh(unsigned v, int k) { return (v >> (16 * k)) & 0xffff; }
static int sh(unsigned v, int k) { return (short)uh(v, k); }

static unsigned reference(int op, int i, unsigned x, unsigned y, unsigned z) {
    unsigned r = 0;
    switch (op) {
    case ABSDIFFS4: for (int k = 0; k < 4; k++) r |= (unsigned)(abs(sb(x, k) - sb(y, k)) & 0xff) << (8 * k); return r;
    case ABSDIFF4: for (int k = 0; k < 4; k++) r |= (unsigned)abs((int)ub(x, k) - (int)ub(y, k)) << (8 * k); return r;
    case ABSDIFF2: for (int k = 0; k < 2; k++) r |= (unsigned)abs((int)uh(x, k) - (int)uh(y, k)) << (16 * k); return r;
    case ADD4: for (int k = 0; k < 4; k++) r |= ((ub(x, k) + ub(y, k)) & 0xff) << (8 * k); return r;
    case ADD2: for (int k = 0; k < 2; k++) r |= ((uh(x, k) + uh(y, k)) & 0xffff) << (16 * k); return r;
    case SUB4: for (int k = 0; k < 4; k++) r |= ((ub(x, k) - ub(y, k)) & 0xff) << (8 * k); return r;
    case ADDSS4: for (int k = 0; k < 4; k++) { int s = sb(x, k) + sb(y, k); s = s > 127 ? 127 : s < -128 ? -128 : s; r |= (unsigned)(s & 0xff) << (8 * k); } return r;
    case ADDUS4: for (int k = 0; k < 4; k++) { unsigned s = ub(x, k) + ub(y, k); r |= (s > 255 ? 255 : s) << (8 * k); } return r;
    case MAXU4: for (int k = 0; k < 4; k++) r |= (ub(x, k) > ub(y, k) ? ub(x, k) : ub(y, k)) << (8 * k); return r;
    case MINS4: for (int k = 0; k < 4; k++) r |= (unsigned)((sb(x, k) < sb(y, k) ? sb(x, k) : sb(y, k)) & 0xff) << (8 * k); return r;
    case MAXS2: for (int k = 0; k < 2; k++) r |= (unsigned)((sh(x, k) > sh(y, k) ? sh(x, k) : sh(y, k)) & 0xffff) << (16 * k); return r;
    case CMPEQ4: { unsigned yy = (i & 1) ? x ^ 0x00ff0000u : y; for (int k = 0; k < 4; k++) r |= (ub(x, k) == ub(yy, k) ? 0xffu : 0) << (8 * k); return r; }
    case CMPGTU4: for (int k = 0; k < 4; k++) r |= (ub(x, k) > ub(y, k) ? 0xffu : 0) << (8 * k); return r;
    case CMPGES2: for (int k = 0; k < 2; k++) r |= (sh(x, k) >= sh(y, k) ? 0xffffu : 0) << (16 * k); return r;
    case SADU4: for (int k = 0; k < 4; k++) r += abs((int)ub(x, k) - (int)ub(y, k)); return r;
    case AVGU4: for (int k = 0; k < 4; k++) r |= ((ub(x, k) + ub(y, k) + 1) >> 1) << (8 * k); return r;
    case DP4A_S: { int s = (int)z; for (int k = 0; k < 4; k++) s += sb(x, k) * sb(y, k); return (unsigned)s; }
    case DP4A_U: { unsigned s = z; for (int k = 0; k < 4; k++) s += ub(x, k) * ub(y, k); return s; }
    case DP2A_LO: return (unsigned)((int)z + sh(x, 0) * sb(y, 0) + sh(x, 1) * sb(y, 1));
    case DP2A_HI: return (unsigned)((int)z + sh(x, 0) * sb(y, 2) + sh(x, 1) * sb(y, 3));
    }
    return 0;
}

int main() {
    Checker c;
    const int n = 1024;
    Lcg rng(4444);
    unsigned *a = new unsigned[n], *b = new unsigned[n], *z = new unsigned[n];
    for (int i = 0; i < n; i++) {
        a[i] = rng.next(); b[i] = rng.next(); z[i] = rng.next() >> (i % 17);
        if (i % 7 == 0) b[i] = a[i] ^ (rng.next() & 0x01010101u);  // near-equal lanes
        if (i % 11 == 0) { a[i] = 0x7f807fffu; b[i] = 0x7f7f8001u; }  // saturation edges
    }
    unsigned *da, *db, *dz, *dout;
    CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&dz, n * 4));
    CHECK(cudaMalloc(&dout, n * NOPS * 4));
    CHECK(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dz, z, n * 4, cudaMemcpyHostToDevice));
    simd<<<n / 256, 256>>>(n, da, db, dz, dout);
    CHECK_LAUNCH();
    unsigned *out = new unsigned[n * NOPS];
    CHECK(cudaMemcpy(out, dout, n * NOPS * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        for (int op = 0; op < NOPS; op++) {
            unsigned want = reference(op, i, a[i], b[i], z[i]);
            if (out[i * NOPS + op] != want) c.fail("op %d on (%#x, %#x, %#x): %#x want %#x", op, a[i], b[i], z[i], out[i * NOPS + op], want);
        }
    return c.finish();
}
