// Every integer atomic on global memory, 32- and 64-bit, signed and unsigned:
// add, sub, exch, min, max, inc, dec, and, or, xor, cas. Results that do not
// depend on the order of the operations are checked exactly; for exch and the
// returned old values the set of values seen is checked.
#include "test_util.h"

struct Cells {
    int add_i, sub_i, min_i, max_i;
    unsigned add_u, min_u, max_u, inc_u, dec_u, and_u, or_u, xor_u, exch_u, cas_u;
    unsigned long long add_ull, min_ull, max_ull, and_ull, or_ull, xor_ull, exch_ull, cas_ull;
    long long min_ll, max_ll;
};

__global__ void hammer(int n, const unsigned *in, Cells *c, unsigned *old_add, unsigned *exch_seen) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = in[i];
    int s = (int)v;
    unsigned long long w = ((unsigned long long)v << 29) ^ (v * 0x9e3779b97f4a7c15ull);
    atomicAdd(&c->add_i, s >> 8);
    atomicSub(&c->sub_i, s >> 9);
    atomicMin(&c->min_i, s);
    atomicMax(&c->max_i, s);
    old_add[i] = atomicAdd(&c->add_u, 1u);  // every old value 0..n-1 appears once
    atomicMin(&c->min_u, v);
    atomicMax(&c->max_u, v);
    atomicInc(&c->inc_u, 16u);   // wraps to 0 after 16: final = n % 17
    atomicDec(&c->dec_u, 20u);   // from 5: 5,4,...,0 then wraps to 20
    atomicAnd(&c->and_u, v | 0x00ff00ffu);
    atomicOr(&c->or_u, v & 0x01010101u);
    atomicXor(&c->xor_u, v);
    exch_seen[i] = atomicExch(&c->exch_u, (unsigned)i + 1);
    // CAS that only the first thread can win (0 -> its id + 1).
    atomicCAS(&c->cas_u, 0u, (unsigned)i + 1);
    atomicAdd(&c->add_ull, w);
    atomicMin(&c->min_ull, w);
    atomicMax(&c->max_ull, w);
    atomicAnd(&c->and_ull, w | 0xff00ff00ff00ff00ull);
    atomicOr(&c->or_ull, w & 0x0010000100001000ull);
    atomicXor(&c->xor_ull, w);
    atomicExch(&c->exch_ull, w);
    atomicCAS(&c->cas_ull, 0ull, w);
    atomicMin(&c->min_ll, (long long)w);
    atomicMax(&c->max_ll, (long long)w);
}

int main() {
    Checker ch;
    const int n = 2000;
    Lcg rng(555);
    unsigned *in = new unsigned[n];
    for (int i = 0; i < n; i++) in[i] = rng.next();
    Cells init{};
    init.min_i = INT32_MAX; init.max_i = INT32_MIN;
    init.min_u = ~0u; init.dec_u = 5; init.and_u = ~0u;
    init.min_ull = ~0ull; init.and_ull = ~0ull;
    init.min_ll = INT64_MAX; init.max_ll = INT64_MIN;
    Cells want = init;
    for (int i = 0; i < n; i++) {
        unsigned v = in[i]; int s = (int)v;
        unsigned long long w = ((unsigned long long)v << 29) ^ (v * 0x9e3779b97f4a7c15ull);
        want.add_i += s >> 8; want.sub_i -= s >> 9;
        want.min_i = s < want.min_i ? s : want.min_i; want.max_i = s > want.max_i ? s : want.max_i;
        want.add_u += 1;
        want.min_u = v < want.min_u ? v : want.min_u; want.max_u = v > want.max_u ? v : want.max_u;
        want.inc_u = want.inc_u >= 16 ? 0 : want.inc_u + 1;
        want.dec_u = (want.dec_u == 0 || want.dec_u > 20) ? 20 : want.dec_u - 1;
        want.and_u &= v | 0x00ff00ffu; want.or_u |= v & 0x01010101u; want.xor_u ^= v;
        want.add_ull += w;
        want.min_ull = w < want.min_ull ? w : want.min_ull; want.max_ull = w > want.max_ull ? w : want.max_ull;
        want.and_ull &= w | 0xff00ff00ff00ff00ull; want.or_ull |= w & 0x0010000100001000ull; want.xor_ull ^= w;
        long long sl = (long long)w;
        want.min_ll = sl < want.min_ll ? sl : want.min_ll; want.max_ll = sl > want.max_ll ? sl : want.max_ll;
    }
    unsigned *din, *dold, *dseen; Cells *dc;
    CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dold, n * 4)); CHECK(cudaMalloc(&dseen, n * 4));
    CHECK(cudaMalloc(&dc, sizeof(Cells)));
    CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, &init, sizeof init, cudaMemcpyHostToDevice));
    hammer<<<(n + 255) / 256, 256>>>(n, din, dc, dold, dseen);
    CHECK_LAUNCH();
    Cells got;
    unsigned *old = new unsigned[n], *seen = new unsigned[n];
    CHECK(cudaMemcpy(&got, dc, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(old, dold, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(seen, dseen, n * 4, cudaMemcpyDeviceToHost));
#define EQ(f) if (got.f != want.f) ch.fail(#f " = %llx want %llx", (unsigned long long)got.f, (unsigned long long)want.f)
    EQ(add_i); EQ(sub_i); EQ(min_i); EQ(max_i); EQ(add_u); EQ(min_u); EQ(max_u); EQ(inc_u); EQ(dec_u);
    EQ(and_u); EQ(or_u); EQ(xor_u); EQ(add_ull); EQ(min_ull); EQ(max_ull); EQ(and_ull); EQ(or_ull);
    EQ(xor_ull); EQ(min_ll); EQ(max_ll);
    // Old values returned by atomicAdd(+1): a permutation of 0..n-1.
    // atomicExch chain: the values seen plus the final one are 0 and 1..n, each once.
    char *hit = new char[n + 1]();
    char *hit2 = new char[n + 1]();
    for (int i = 0; i < n; i++) {
        if (old[i] >= (unsigned)n || hit[old[i]]++) ch.fail("atomicAdd old value %u repeated or out of range", old[i]);
        if (seen[i] > (unsigned)n || hit2[seen[i]]++) ch.fail("atomicExch old value %u repeated or out of range", seen[i]);
    }
    if (got.exch_u < 1 || got.exch_u > (unsigned)n || hit2[got.exch_u]) ch.fail("final exch %u", got.exch_u);
    if (got.cas_u < 1 || got.cas_u > (unsigned)n) ch.fail("cas_u %u: no thread won", got.cas_u);
    bool exch_ok = false, cas_ok = false;
    for (int i = 0; i < n; i++) {
        unsigned long long w = ((unsigned long long)in[i] << 29) ^ (in[i] * 0x9e3779b97f4a7c15ull);
        exch_ok |= got.exch_ull == w; cas_ok |= got.cas_ull == w;
    }
    if (!exch_ok) ch.fail("exch_ull holds no thread's value");
    if (!cas_ok) ch.fail("cas_ull holds no thread's value");
    return ch.finish();
}
