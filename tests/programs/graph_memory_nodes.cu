// Graph memory nodes: an allocation node, kernels that use its memory, and a free node, built
// node by node and launched three times (the memory is at one address, the address the
// node reports); cudaMallocAsync and cudaFreeAsync captured into a graph that is launched
// twice; the device's graph-memory attributes; a graph that allocates without freeing, its
// memory freed outside it (cudaFreeAsync, cudaFree) and by another graph's free node between
// launches, then kept by the program past the graph (as cuda-samples' graphMemoryNodes
// does). Checked against the host.
#include "test_util.h"

__global__ void fill(int *p, int base, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = base + 3 * i;
}

__global__ void add_into(int *out, const int *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += in[i];
}

static const int N = 4096;

static void expect(Checker &c, const char *what, const int *d, int (*want)(int)) {
    static int h[N];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        if (h[i] != want(i)) {
            c.fail("%s: [%d] = %d, want %d", what, i, h[i], want(i));
            return;
        }
}

static int three_rounds(int i) { return 3 * (5 + 3 * i); }
static int two_rounds(int i) { return 2 * (-9 + 3 * i); }
static int two_rounds_four_fills(int i) { return two_rounds(i) + 4 * (7 + 3 * i); }

int main() {
    Checker c;
    int *out;
    CHECK(cudaMalloc(&out, N * sizeof(int)));
    CHECK(cudaMemset(out, 0, N * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    // alloc -> fill -> add into out -> free
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = N * sizeof(int);
    cudaGraphNode_t alloc, filled, added, freed;
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
    if (!ap.dptr) c.fail("the allocation node gave no address");
    int *tmp = (int *)ap.dptr, base = 5, n = N;
    void *fill_args[] = {&tmp, &base, &n};
    cudaKernelNodeParams k = {};
    k.func = (void *)fill;
    k.gridDim = dim3(N / 256);
    k.blockDim = dim3(256);
    k.kernelParams = fill_args;
    CHECK(cudaGraphAddKernelNode(&filled, g, &alloc, 1, &k));
    void *add_args[] = {&out, &tmp, &n};
    k.func = (void *)add_into;
    k.kernelParams = add_args;
    CHECK(cudaGraphAddKernelNode(&added, g, &filled, 1, &k));
    CHECK(cudaGraphAddMemFreeNode(&freed, g, &added, 1, ap.dptr));
    cudaMemAllocNodeParams back = {};
    CHECK(cudaGraphMemAllocNodeGetParams(alloc, &back));
    void *freed_ptr = nullptr;
    CHECK(cudaGraphMemFreeNodeGetParams(freed, &freed_ptr));
    if (back.dptr != ap.dptr || freed_ptr != ap.dptr || back.bytesize != ap.bytesize)
        c.fail("the memory nodes read back other addresses or sizes");
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int i = 0; i < 3; i++) CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    expect(c, "three launches of the node-built graph", out, three_rounds);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // The same through capture: cudaMallocAsync and cudaFreeAsync become the memory nodes.
    CHECK(cudaMemset(out, 0, N * sizeof(int)));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    int *captured;
    CHECK(cudaMallocAsync(&captured, N * sizeof(int), s));
    fill<<<N / 256, 256, 0, s>>>(captured, -9, N);
    add_into<<<N / 256, 256, 0, s>>>(out, captured, N);
    CHECK(cudaFreeAsync(captured, s));
    CHECK(cudaStreamEndCapture(s, &g));
    size_t count = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &count));
    if (count != 4) c.fail("the captured graph has %zu nodes, not 4", count);
    cudaGraphNode_t nodes[4];
    CHECK(cudaGraphGetNodes(g, nodes, &count));
    cudaGraphNodeType first, last;
    CHECK(cudaGraphNodeGetType(nodes[0], &first));
    CHECK(cudaGraphNodeGetType(nodes[3], &last));
    if (first != cudaGraphNodeTypeMemAlloc || last != cudaGraphNodeTypeMemFree)
        c.fail("captured node types %d ... %d", (int)first, (int)last);
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int i = 0; i < 2; i++) CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    expect(c, "two launches of the captured graph", out, two_rounds);

    uint64_t used = 0, high = 0;
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
    if (high < used || high < (uint64_t)N * sizeof(int))
        c.fail("graph memory used %llu, high-water mark %llu", (unsigned long long)used,
               (unsigned long long)high);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // alloc -> fill, no free node: each launch allocates the memory again at its address
    CHECK(cudaGraphCreate(&g, 0));
    ap.dptr = nullptr;
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
    int *kept = (int *)ap.dptr, kept_base = 7;
    void *kept_args[] = {&kept, &kept_base, &n};
    k.func = (void *)fill;
    k.kernelParams = kept_args;
    CHECK(cudaGraphAddKernelNode(&filled, g, &alloc, 1, &k));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    cudaGraph_t frees;
    cudaGraphExec_t frees_exec;
    CHECK(cudaGraphCreate(&frees, 0));
    CHECK(cudaGraphAddMemFreeNode(&freed, frees, nullptr, 0, kept));
    CHECK(cudaGraphInstantiate(&frees_exec, frees, 0));
    for (int round = 0; round < 3; round++) {
        CHECK(cudaGraphLaunch(exec, s));
        add_into<<<N / 256, 256, 0, s>>>(out, kept, N);
        if (round == 0) CHECK(cudaFreeAsync(kept, s));
        if (round == 1) CHECK(cudaGraphLaunch(frees_exec, s));
        CHECK(cudaStreamSynchronize(s));
        if (round == 2) {
            // cudaFree is forbidden during a global capture, of graph memory too
            cudaStream_t capturing;
            cudaGraph_t none = nullptr;
            CHECK(cudaStreamCreateWithFlags(&capturing, cudaStreamNonBlocking));
            CHECK(cudaStreamBeginCapture(capturing, cudaStreamCaptureModeGlobal));
            cudaError_t during = cudaFree(kept);
            if (during != cudaErrorStreamCaptureUnsupported)
                c.fail("cudaFree of graph memory during a global capture: %s", cudaGetErrorName(during));
            if (cudaStreamEndCapture(capturing, &none) != cudaErrorStreamCaptureInvalidated || none)
                c.fail("the capture cudaFree broke ended otherwise");
            cudaGetLastError();
            CHECK(cudaStreamDestroy(capturing));
            CHECK(cudaFree(kept));
        }
    }
    CHECK(cudaGraphLaunch(exec, s)); // and the program keeps this one
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(frees_exec));
    CHECK(cudaGraphDestroy(frees));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    add_into<<<N / 256, 256, 0, s>>>(out, kept, N);
    CHECK(cudaFreeAsync(kept, s));
    CHECK(cudaStreamSynchronize(s));
    expect(c, "four fills by a graph freed outside it, the last past the graph", out, two_rounds_four_fills);
    CHECK(cudaDeviceGraphMemTrim(0));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(out));
    return c.finish();
}
