// Integer division and remainder, signed and unsigned, 32- and 64-bit, by
// run-time divisors (the general division sequence) and by compile-time
// constants (multiply-by-reciprocal), plus 128-bit multiply, sign/zero
// extension through narrow types, and 64-bit shifts by variable counts.
#include "test_util.h"

enum { DIV32S, REM32S, DIV32U, REM32U, DIV64S, REM64S, DIV64U, REM64U, DIV7S, REM7S, DIV10U, DIV1000LL,
       MUL128LO, MUL128HI, SEXT8, ZEXT16, SHL64, SHR64S, SHR64U, NOPS };

__global__ void divide(int n, const long long *a, const long long *b, unsigned long long *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i], y = b[i];
    int x32 = (int)x, y32 = (int)y;
    unsigned long long *o = out + (size_t)i * NOPS;
    o[DIV32S] = (unsigned)(x32 / y32);
    o[REM32S] = (unsigned)(x32 % y32);
    o[DIV32U] = (unsigned)x32 / (unsigned)y32;
    o[REM32U] = (unsigned)x32 % (unsigned)y32;
    o[DIV64S] = x / y;
    o[REM64S] = x % y;
    o[DIV64U] = (unsigned long long)x / (unsigned long long)y;
    o[REM64U] = (unsigned long long)x % (unsigned long long)y;
    o[DIV7S] = (unsigned)(x32 / 7);
    o[REM7S] = (unsigned)(x32 % 7);
    o[DIV10U] = (unsigned)x32 / 10u;
    o[DIV1000LL] = x / 1000;
    unsigned __int128 p = (unsigned __int128)(unsigned long long)x * (unsigned long long)y;
    o[MUL128LO] = (unsigned long long)p;
    o[MUL128HI] = (unsigned long long)(p >> 64);
    o[SEXT8] = (long long)(signed char)x;
    o[ZEXT16] = (unsigned long long)(unsigned short)x;
    int sh = (int)((unsigned long long)y % 64);
    o[SHL64] = (unsigned long long)x << sh;
    o[SHR64S] = (unsigned long long)(x >> sh);
    o[SHR64U] = (unsigned long long)x >> sh;
}

int main() {
    Checker c;
    const int n = 1024;
    Lcg rng(64);
    long long *a = new long long[n], *b = new long long[n];
    for (int i = 0; i < n; i++) {
        a[i] = (long long)rng.next64() >> (rng.next() % 60);
        b[i] = (long long)rng.next64() >> (rng.next() % 63);
        if (i % 9 == 0) b[i] = (long long)(rng.next() % 70) - 35;    // small divisors, both signs
        if (i % 13 == 0) b[i] = 1ll << (rng.next() % 62);            // powers of two
        if ((int)b[i] == 0) b[i] |= 3;                               // no division by zero...
        if ((int)b[i] == -1 && (int)a[i] == INT32_MIN) a[i] += 1;    // ...and no INT_MIN / -1
        if (b[i] == -1 && a[i] == INT64_MIN) a[i] += 1;
    }
    a[0] = INT64_MIN + 1; b[0] = -1;
    long long *da, *db; unsigned long long *dout;
    CHECK(cudaMalloc(&da, n * 8)); CHECK(cudaMalloc(&db, n * 8)); CHECK(cudaMalloc(&dout, (size_t)n * NOPS * 8));
    CHECK(cudaMemcpy(da, a, n * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, b, n * 8, cudaMemcpyHostToDevice));
    divide<<<n / 128, 128>>>(n, da, db, dout);
    CHECK_LAUNCH();
    unsigned long long *out = new unsigned long long[(size_t)n * NOPS];
    CHECK(cudaMemcpy(out, dout, (size_t)n * NOPS * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        long long x = a[i], y = b[i];
        int x32 = (int)x, y32 = (int)y;
        unsigned long long w[NOPS];
        w[DIV32S] = (unsigned)(x32 / y32); w[REM32S] = (unsigned)(x32 % y32);
        w[DIV32U] = (unsigned)x32 / (unsigned)y32; w[REM32U] = (unsigned)x32 % (unsigned)y32;
        w[DIV64S] = x / y; w[REM64S] = x % y;
        w[DIV64U] = (unsigned long long)x / (unsigned long long)y; w[REM64U] = (unsigned long long)x % (unsigned long long)y;
        w[DIV7S] = (unsigned)(x32 / 7); w[REM7S] = (unsigned)(x32 % 7); w[DIV10U] = (unsigned)x32 / 10u;
        w[DIV1000LL] = x / 1000;
        unsigned __int128 p = (unsigned __int128)(unsigned long long)x * (unsigned long long)y;
        w[MUL128LO] = (unsigned long long)p; w[MUL128HI] = (unsigned long long)(p >> 64);
        w[SEXT8] = (long long)(signed char)x; w[ZEXT16] = (unsigned short)x;
        int sh = (int)((unsigned long long)y % 64);
        w[SHL64] = (unsigned long long)x << sh; w[SHR64S] = (unsigned long long)(x >> sh); w[SHR64U] = (unsigned long long)x >> sh;
        for (int op = 0; op < NOPS; op++)
            if (out[(size_t)i * NOPS + op] != w[op]) c.fail("op %d on (%lld, %lld): %#llx want %#llx", op, x, y, out[(size_t)i * NOPS + op], w[op]);
    }
    return c.finish();
}
