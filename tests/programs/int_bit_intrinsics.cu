// Integer bit intrinsics against plain C references: __brev(ll), __clz(ll),
// __ffs(ll), __popc(ll), __byte_perm, __funnelshift_l/lc/r/rc, __mulhi,
// __umulhi, __mul64hi, __umul64hi, __mul24, __umul24, __sad, __usad,
// __hadd, __rhadd, __uhadd, __urhadd. Inputs mix random words with 0, ~0,
// single bits and sign boundaries.
#include "test_util.h"

enum { BREV, BREVLL, CLZ, CLZLL, FFS, FFSLL, POPC, POPCLL, PERM, FSL, FSLC, FSR, FSRC, MULHI, UMULHI,
       MUL64HI, UMUL64HI, MUL24, UMUL24, SAD, USAD, HADD, RHADD, UHADD, URHADD, NOPS };

__global__ void bits(int n, const unsigned *a, const unsigned *b, const unsigned *s, unsigned long long *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i], z = s[i];
    unsigned long long X = ((unsigned long long)x << 32) | y, Y = ((unsigned long long)z << 32) | x;
    unsigned long long *o = out + (size_t)i * NOPS;
    o[BREV] = __brev(x);
    o[BREVLL] = __brevll(X);
    o[CLZ] = __clz((int)x);
    o[CLZLL] = __clzll((long long)X);
    o[FFS] = __ffs((int)x);
    o[FFSLL] = __ffsll((long long)X);
    o[POPC] = __popc(x);
    o[POPCLL] = __popcll(X);
    o[PERM] = __byte_perm(x, y, z & 0xffff7777u);  // selector nibbles 0..7; upper half ignored
    o[FSL] = __funnelshift_l(x, y, z);
    o[FSLC] = __funnelshift_lc(x, y, z & 63);
    o[FSR] = __funnelshift_r(x, y, z);
    o[FSRC] = __funnelshift_rc(x, y, z & 63);
    o[MULHI] = (unsigned)__mulhi((int)x, (int)y);
    o[UMULHI] = __umulhi(x, y);
    o[MUL64HI] = (unsigned long long)__mul64hi((long long)X, (long long)Y);
    o[UMUL64HI] = __umul64hi(X, Y);
    o[MUL24] = (unsigned)__mul24((int)x, (int)y);
    o[UMUL24] = __umul24(x, y);
    o[SAD] = __sad((int)x, (int)y, z);
    o[USAD] = __usad(x, y, z);
    o[HADD] = (unsigned)__hadd((int)x, (int)y);
    o[RHADD] = (unsigned)__rhadd((int)x, (int)y);
    o[UHADD] = __uhadd(x, y);
    o[URHADD] = __urhadd(x, y);
}

static unsigned long long reference(int op, unsigned x, unsigned y, unsigned z) {
    unsigned long long X = ((unsigned long long)x << 32) | y, Y = ((unsigned long long)z << 32) | x;
    switch (op) {
    case BREV: { unsigned r = 0; for (int k = 0; k < 32; k++) if (x >> k & 1) r |= 1u << (31 - k); return r; }
    case BREVLL: { unsigned long long r = 0; for (int k = 0; k < 64; k++) if (X >> k & 1) r |= 1ull << (63 - k); return r; }
    case CLZ: { int k = 0; while (k < 32 && !(x >> (31 - k) & 1)) k++; return k; }
    case CLZLL: { int k = 0; while (k < 64 && !(X >> (63 - k) & 1)) k++; return k; }
    case FFS: { for (int k = 0; k < 32; k++) if (x >> k & 1) return k + 1; return 0; }
    case FFSLL: { for (int k = 0; k < 64; k++) if (X >> k & 1) return k + 1; return 0; }
    case POPC: { int c = 0; for (int k = 0; k < 32; k++) c += x >> k & 1; return c; }
    case POPCLL: { int c = 0; for (int k = 0; k < 64; k++) c += X >> k & 1; return c; }
    case PERM: {
        unsigned long long bytes = ((unsigned long long)y << 32) | x;  // x is bytes 0..3, y bytes 4..7
        unsigned r = 0;
        for (int k = 0; k < 4; k++) r |= (unsigned)((bytes >> (8 * ((z >> (4 * k)) & 7))) & 0xff) << (8 * k);
        return r;
    }
    case FSL: { unsigned long long hl = ((unsigned long long)y << 32) | x; return (unsigned)((hl << (z & 31)) >> 32); }
    case FSLC: { unsigned sh = (z & 63) > 32 ? 32 : (z & 63); unsigned long long hl = ((unsigned long long)y << 32) | x; return (unsigned)((hl << sh) >> 32); }
    case FSR: { unsigned long long hl = ((unsigned long long)y << 32) | x; return (unsigned)(hl >> (z & 31)); }
    case FSRC: { unsigned sh = (z & 63) > 32 ? 32 : (z & 63); unsigned long long hl = ((unsigned long long)y << 32) | x; return (unsigned)(hl >> sh); }
    case MULHI: return (unsigned)(((long long)(int)x * (long long)(int)y) >> 32);
    case UMULHI: return (unsigned)(((unsigned long long)x * y) >> 32);
    case MUL64HI: return (unsigned long long)(long long)(((__int128)(long long)X * (__int128)(long long)Y) >> 64);
    case UMUL64HI: return (unsigned long long)(((unsigned __int128)X * Y) >> 64);
    case MUL24: {  // low 24 bits of each operand, sign-extended; low 32 bits of the product
        int xs = (int)(x << 8) >> 8, ys = (int)(y << 8) >> 8;
        return (unsigned)((long long)xs * ys);
    }
    case UMUL24: return (unsigned)((unsigned long long)(x & 0xffffff) * (y & 0xffffff));
    case SAD: return z + ((int)x < (int)y ? y - x : x - y);
    case USAD: return z + (x < y ? y - x : x - y);
    case HADD: return (unsigned)(int)(((long long)(int)x + (int)y) >> 1);
    case RHADD: return (unsigned)(int)(((long long)(int)x + (int)y + 1) >> 1);
    case UHADD: return (unsigned)(((unsigned long long)x + y) >> 1);
    case URHADD: return (unsigned)(((unsigned long long)x + y + 1) >> 1);
    }
    return 0;
}

int main() {
    Checker c;
    const int n = 1024;
    Lcg rng(0xb175);
    unsigned *a = new unsigned[n], *b = new unsigned[n], *s = new unsigned[n];
    const unsigned special[] = {0, ~0u, 1, 0x80000000u, 0x7fffffffu, 0x00800000u, 0xff000000u, 0x0000ffffu};
    for (int i = 0; i < n; i++) {
        a[i] = i < 64 ? special[i % 8] : rng.next() >> (rng.next() % 32);
        b[i] = i < 64 ? special[i / 8] : rng.next();
        s[i] = rng.next();
        if (i % 5 == 0) s[i] &= 0xffffffc0u | (unsigned)(i % 64);  // shift counts around 32
    }
    unsigned *da, *db, *ds; unsigned long long *dout;
    CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&ds, n * 4));
    CHECK(cudaMalloc(&dout, (size_t)n * NOPS * 8));
    CHECK(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ds, s, n * 4, cudaMemcpyHostToDevice));
    bits<<<n / 128, 128>>>(n, da, db, ds, dout);
    CHECK_LAUNCH();
    unsigned long long *out = new unsigned long long[(size_t)n * NOPS];
    CHECK(cudaMemcpy(out, dout, (size_t)n * NOPS * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        for (int op = 0; op < NOPS; op++) {
            unsigned long long want = reference(op, a[i], b[i], s[i]);
            if (out[(size_t)i * NOPS + op] != want)
                c.fail("op %d on (%#x, %#x, %#x): %#llx want %#llx", op, a[i], b[i], s[i], out[(size_t)i * NOPS + op], want);
        }
    return c.finish();
}
