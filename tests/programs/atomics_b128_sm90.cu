// 128-bit atomics (sm_90, inline PTX): compare-and-swap loops that move a {count, sum}
// pair forward together, and exchanges of {token, ~token} pairs whose old values must come
// back whole and each exactly once. A torn or lost update shows in the final pair or in the
// tokens returned.
#include "test_util.h"
#include <algorithm>
#include <vector>

struct alignas(16) Pair { unsigned long long lo, hi; };

__device__ Pair cas128(Pair *p, Pair expected, Pair desired)
{
    Pair old;
    asm volatile("{\n\t.reg .b128 e, d, o;\n\t"
                 "mov.b128 e, {%2, %3};\n\t"
                 "mov.b128 d, {%4, %5};\n\t"
                 "atom.global.cas.b128 o, [%6], e, d;\n\t"
                 "mov.b128 {%0, %1}, o;\n\t}"
                 : "=l"(old.lo), "=l"(old.hi)
                 : "l"(expected.lo), "l"(expected.hi), "l"(desired.lo), "l"(desired.hi), "l"(p)
                 : "memory");
    return old;
}

__device__ Pair exch128(Pair *p, Pair value)
{
    Pair old;
    asm volatile("{\n\t.reg .b128 v, o;\n\t"
                 "mov.b128 v, {%2, %3};\n\t"
                 "atom.acq_rel.gpu.global.exch.b128 o, [%4], v;\n\t"
                 "mov.b128 {%0, %1}, o;\n\t}"
                 : "=l"(old.lo), "=l"(old.hi) : "l"(value.lo), "l"(value.hi), "l"(p) : "memory");
    return old;
}

// Each thread adds 1 to the count and its index to the sum of one pair, rounds times.
__global__ void counting(Pair *pair, int rounds)
{
    unsigned long long t = blockIdx.x * blockDim.x + threadIdx.x;
    Pair seen = {0, 0};
    for (int r = 0; r < rounds; r++) {
        for (;;) {
            Pair old = cas128(pair, seen, Pair{seen.lo + 1, seen.hi + t});
            if (old.lo == seen.lo && old.hi == seen.hi)
                break;
            seen = old;
        }
        seen.lo += 1;
        seen.hi += t;
    }
}

__global__ void exchanging(Pair *slot, Pair *returned)
{
    unsigned long long t = blockIdx.x * blockDim.x + threadIdx.x + 1;
    returned[t - 1] = exch128(slot, Pair{t, ~t});
}

int main()
{
    Checker c;
    const int blocks = 4, threads = 128, n = blocks * threads, rounds = 4;
    Pair *dpair, *dreturned;
    CHECK(cudaMalloc(&dpair, sizeof(Pair)));
    CHECK(cudaMalloc(&dreturned, n * sizeof(Pair)));
    CHECK(cudaMemset(dpair, 0, sizeof(Pair)));
    counting<<<blocks, threads>>>(dpair, rounds);
    CHECK_LAUNCH();
    Pair pair;
    CHECK(cudaMemcpy(&pair, dpair, sizeof pair, cudaMemcpyDeviceToHost));
    unsigned long long want_sum = (unsigned long long)rounds * n * (n - 1) / 2;
    if (pair.lo != (unsigned long long)rounds * n || pair.hi != want_sum)
        c.fail("cas.b128 counting: {%llu, %llu}, want {%llu, %llu}", pair.lo, pair.hi,
               (unsigned long long)rounds * n, want_sum);

    Pair start = {0, ~0ull};
    CHECK(cudaMemcpy(dpair, &start, sizeof start, cudaMemcpyHostToDevice));
    exchanging<<<blocks, threads>>>(dpair, dreturned);
    CHECK_LAUNCH();
    std::vector<Pair> returned(n);
    CHECK(cudaMemcpy(returned.data(), dreturned, n * sizeof(Pair), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&pair, dpair, sizeof pair, cudaMemcpyDeviceToHost));
    returned.push_back(pair);  // the tokens seen, and the one left, are the start and every token
    std::vector<unsigned long long> tokens;
    for (const Pair &p : returned) {
        if (p.hi != ~p.lo)
            c.fail("exch.b128 returned a torn pair {%#llx, %#llx}", p.lo, p.hi);
        tokens.push_back(p.lo);
    }
    std::sort(tokens.begin(), tokens.end());
    for (int i = 0; i <= n; i++)
        if (tokens[i] != (unsigned long long)i) {
            c.fail("exch.b128: tokens sorted [%d] = %llu, want %d", i, tokens[i], i);
            break;
        }
    return c.finish();
}
