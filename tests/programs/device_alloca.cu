// alloca in device code (nvcc emits PTX's alloca.u64 for it): blocks of a size each thread
// picks, memory that a function's return gives back (called many times over more than a
// thread's stack holds), and stacksave/stackrestore through inline PTX around an alloca in
// a loop. The results are checked against sums computed on the host.
#include "test_util.h"
#include <alloca.h>

// Writes i * i + seed into n ints of its own alloca and returns their weighted sum.
__device__ __noinline__ long long squares(int n, int seed)
{
    int *block = (int *)alloca(n * sizeof(int));
    for (int i = 0; i < n; i++)
        block[i] = i * i + seed;
    long long sum = 0;
    for (int i = n - 1; i >= 0; i--)
        sum += (long long)(i + 1) * block[i];
    return sum;
}

// Each round allocates bytes of local memory between stacksave and stackrestore, so the
// rounds reuse one block; without the restore they would need rounds * bytes.
__device__ unsigned rounds_of_scratch(unsigned rounds, unsigned bytes, unsigned seed)
{
    unsigned total = 0;
    for (unsigned r = 0; r < rounds; r++) {
        unsigned got;
        asm volatile("{\n\t.reg .b64 saved, block;\n\t"
                     "stacksave.u64 saved;\n\t"
                     "alloca.u64 block, %1, 16;\n\t"
                     "st.local.u32 [block], %2;\n\t"
                     "st.local.u32 [block+4], %3;\n\t"
                     "ld.local.u32 %0, [block];\n\t"
                     "stackrestore.u64 saved;\n\t}"
                     : "=r"(got) : "l"((unsigned long long)bytes), "r"(seed + r), "r"(r) : "memory");
        total += got;
    }
    return total;
}

__global__ void allocas(long long *sums, unsigned *scratch_totals, int calls)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = t % 13 + 1;
    long long sum = 0;
    for (int c = 0; c < calls; c++)
        sum += squares(n + c % 3, t + c);
    sums[t] = sum;
    scratch_totals[t] = rounds_of_scratch(2000, 256 + 16 * (t % 8), t);
}

static long long squares_ref(int n, int seed)
{
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += (long long)(i + 1) * (i * i + seed);
    return sum;
}

int main()
{
    Checker c;
    const int threads = 256, calls = 600;
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    long long *dsums;
    unsigned *dtotals;
    CHECK(cudaMalloc(&dsums, threads * sizeof(long long)));
    CHECK(cudaMalloc(&dtotals, threads * sizeof(unsigned)));
    allocas<<<threads / 64, 64>>>(dsums, dtotals, calls);
    CHECK_LAUNCH();
    long long sums[threads];
    unsigned totals[threads];
    CHECK(cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(totals, dtotals, sizeof totals, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        long long want = 0;
        for (int k = 0; k < calls; k++)
            want += squares_ref(t % 13 + 1 + k % 3, t + k);
        if (sums[t] != want)
            c.fail("thread %d: sum of allocas %lld, want %lld", t, sums[t], want);
        unsigned want_total = 0;
        for (unsigned r = 0; r < 2000; r++)
            want_total += t + r;
        if (totals[t] != want_total)
            c.fail("thread %d: stacksave/alloca/stackrestore rounds %u, want %u", t, totals[t], want_total);
    }
    return c.finish();
}
