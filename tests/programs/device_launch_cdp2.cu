// Kernels that launch kernels (CUDA dynamic parallelism, CDP2, -rdc=true): a recursive
// quicksort that launches a child grid per half in created streams down to a depth limit;
// a chain of tail launches, each grid appending its step and tail-launching the next; a
// grid whose tail launch reads what its children wrote into the block's stream, a created
// stream and fire-and-forget; launches from many blocks and threads at once with
// parameters of several sizes; and nesting to the depth CUDA allows.
#include "test_util.h"
#include <algorithm>

// ---- recursive quicksort (as cuda-samples' cdpSimpleQuicksort, written anew) ----------
__device__ void selection_sort(int *a, int lo, int hi) {
    for (int i = lo; i <= hi; i++) {
        int m = i;
        for (int j = i + 1; j <= hi; j++)
            if (a[j] < a[m]) m = j;
        int t = a[i]; a[i] = a[m]; a[m] = t;
    }
}

__global__ void quicksort(int *a, int lo, int hi, int depth) {
    if (depth >= 12 || hi - lo < 32) {
        selection_sort(a, lo, hi);
        return;
    }
    int pivot = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < pivot) i++;
        while (a[j] > pivot) j--;
        if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
    }
    if (lo < j) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        quicksort<<<1, 1, 0, s>>>(a, lo, j, depth + 1);
        cudaStreamDestroy(s);
    }
    if (i < hi) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        quicksort<<<1, 1, 0, s>>>(a, i, hi, depth + 1);
        cudaStreamDestroy(s);
    }
}

// ---- a chain of tail launches: each step runs after the one that launched it ---------
__global__ void chain_step(int *log, int step, int steps) {
    if (threadIdx.x != 0) return;
    int at = atomicAdd(&log[0], 1);
    log[1 + at] = step;
    if (step + 1 < steps)
        chain_step<<<1, 32, 0, cudaStreamTailLaunch>>>(log, step + 1, steps);
}

// ---- a tail launch sees its parent's children's work ----------------------------------
__global__ void add_to(int *slots, int slot, int value) {
    atomicAdd(&slots[slot * blockDim.x + threadIdx.x], value);
}

__global__ void read_after(const int *slots, int threads, int *seen) {
    int sum = 0;
    for (int i = 0; i < 3 * threads; i++) sum += slots[i];
    seen[threadIdx.x] = sum;
}

__global__ void parent_with_tail(int *slots, int threads, int *seen) {
    if (threadIdx.x != 0) return;
    add_to<<<1, threads>>>(slots, 0, 1);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    add_to<<<1, threads, 0, s>>>(slots, 1, 2);
    cudaStreamDestroy(s);
    read_after<<<1, 4, 0, cudaStreamTailLaunch>>>(slots, threads, seen);
    add_to<<<1, threads>>>(slots, 2, 4);
}

// ---- many launching threads, parameters of several sizes -----------------------------
struct Big { int values[100]; double scale; };

__global__ void fill_big(int *out, Big b, char tag, short bias) {
    int i = threadIdx.x;
    out[i] = (int)(b.values[i] * b.scale) + tag + bias;
}

__global__ void launch_many(int *out) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    Big b;
    for (int i = 0; i < 100; i++) b.values[i] = id * 1000 + i;
    b.scale = 2.0;
    fill_big<<<1, 100>>>(out + id * 100, b, (char)(id & 63), (short)-id);
}

// ---- nesting: each level launches the next and records its depth ---------------------
__global__ void nest(int *depths, int depth, int deepest) {
    depths[depth] = depth + 1;
    if (depth + 1 < deepest) nest<<<1, 1>>>(depths, depth + 1, deepest);
}

int main() {
    Checker c;

    // quicksort
    const int n = 4096;
    Lcg rng(11);
    static int host[n], sorted[n];
    for (int &v : host) v = rng.range(-100000, 100000);
    int *d;
    CHECK(cudaMalloc(&d, sizeof host));
    CHECK(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice));
    quicksort<<<1, 1>>>(d, 0, n - 1, 0);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(sorted, d, sizeof sorted, cudaMemcpyDeviceToHost));
    std::sort(host, host + n);
    for (int i = 0; i < n; i++)
        if (sorted[i] != host[i]) c.fail("quicksort: [%d] = %d, expected %d", i, sorted[i], host[i]);

    // tail-launch chain
    const int steps = 20;
    int *log, hlog[1 + steps];
    CHECK(cudaMalloc(&log, sizeof hlog));
    CHECK(cudaMemset(log, 0, sizeof hlog));
    chain_step<<<1, 32>>>(log, 0, steps);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hlog, log, sizeof hlog, cudaMemcpyDeviceToHost));
    if (hlog[0] != steps) c.fail("tail chain: %d steps ran, expected %d", hlog[0], steps);
    for (int i = 0; i < steps && i < hlog[0]; i++)
        if (hlog[1 + i] != i) c.fail("tail chain: step %d ran as the %dth", hlog[1 + i], i);

    // a tail launch after its parent's children
    const int threads = 64;
    int *slots, *seen, hseen[4];
    CHECK(cudaMalloc(&slots, 3 * threads * sizeof(int)));
    CHECK(cudaMalloc(&seen, sizeof hseen));
    CHECK(cudaMemset(slots, 0, 3 * threads * sizeof(int)));
    parent_with_tail<<<1, 32>>>(slots, threads, seen);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hseen, seen, sizeof hseen, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++)
        if (hseen[i] != 7 * threads) c.fail("tail launch saw %d, expected %d", hseen[i], 7 * threads);

    // many launching threads
    const int blocks = 4, per_block = 64, launches = blocks * per_block;
    int *out;
    static int hout[launches * 100];
    CHECK(cudaMalloc(&out, sizeof hout));
    CHECK(cudaMemset(out, 0, sizeof hout));
    launch_many<<<blocks, per_block>>>(out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
    for (int id = 0; id < launches; id++)
        for (int i = 0; i < 100; i++) {
            int want = (id * 1000 + i) * 2 + (id & 63) - id;
            if (hout[id * 100 + i] != want)
                c.fail("launch %d: out[%d] = %d, expected %d", id, i, hout[id * 100 + i], want);
        }

    // nesting to CUDA's deepest level (24, counting the host's launch)
    const int deepest = 24;
    int *depths, hdepths[deepest];
    CHECK(cudaMalloc(&depths, sizeof hdepths));
    CHECK(cudaMemset(depths, 0, sizeof hdepths));
    nest<<<1, 1>>>(depths, 0, deepest);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hdepths, depths, sizeof hdepths, cudaMemcpyDeviceToHost));
    for (int i = 0; i < deepest; i++)
        if (hdepths[i] != i + 1) c.fail("nesting: depth %d recorded %d", i, hdepths[i]);

    CHECK(cudaFree(d)); CHECK(cudaFree(log)); CHECK(cudaFree(slots)); CHECK(cudaFree(seen));
    CHECK(cudaFree(out)); CHECK(cudaFree(depths));
    return c.finish();
}
