// CUDA graphs built node by node: kernel, memset, memcpy, host, empty, child-graph and
// event nodes in a diamond of dependencies; what the graph says of its nodes and edges;
// instantiated and launched; a kernel node's arguments changed in the executable graph;
// cudaGraphExecUpdate from a graph of the same shape, and refused for another shape; a clone;
// a node removed; the DOT description. Every result is checked against the host.
#include "test_util.h"

__global__ void fill_affine(int *y, int a, int b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * i + b;
}

__global__ void combine(int *out, const int *x, const int *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] * 3 + y[i];
}

static const int N = 1000;

struct Buffers {
    int *x, *y, *out, *copy;
    int *host;
};

static cudaKernelNodeParams affine_params(void **args) {
    cudaKernelNodeParams p = {};
    p.func = (void *)fill_affine;
    p.gridDim = dim3((N + 127) / 128);
    p.blockDim = dim3(128);
    p.kernelParams = args;
    return p;
}

static void host_add_one(void *p) { (*(int *)p)++; }

struct Diamond {
    cudaGraph_t graph;
    cudaGraphNode_t fill_x, fill_y, join, memset, memcpy, host, empty;
};

// memset(out) -> {fill_x, fill_y} -> combine -> memcpy(copy <- out) -> host -> empty
static Diamond build(Buffers &b, int ax, int bx, int ay, int by, int *host_counter) {
    Diamond d;
    CHECK(cudaGraphCreate(&d.graph, 0));
    cudaMemsetParams ms = {};
    ms.dst = b.out;
    ms.value = 0x7f;
    ms.elementSize = 1;
    ms.width = N * sizeof(int);
    ms.height = 1;
    CHECK(cudaGraphAddMemsetNode(&d.memset, d.graph, nullptr, 0, &ms));

    int n = N;
    int *px = b.x, *py = b.y;
    void *args_x[4] = {&px, &ax, &bx, &n}, *args_y[4] = {&py, &ay, &by, &n};
    cudaKernelNodeParams kx = affine_params(args_x);
    cudaKernelNodeParams ky = affine_params(args_y);
    CHECK(cudaGraphAddKernelNode(&d.fill_x, d.graph, &d.memset, 1, &kx));
    CHECK(cudaGraphAddKernelNode(&d.fill_y, d.graph, &d.memset, 1, &ky));

    void *args_c[4] = {&b.out, &b.x, &b.y, &n};
    cudaKernelNodeParams kc = {};
    kc.func = (void *)combine;
    kc.gridDim = dim3((N + 127) / 128);
    kc.blockDim = dim3(128);
    kc.kernelParams = args_c;
    cudaGraphNode_t both[2] = {d.fill_x, d.fill_y};
    CHECK(cudaGraphAddKernelNode(&d.join, d.graph, both, 2, &kc));

    CHECK(cudaGraphAddMemcpyNode1D(&d.memcpy, d.graph, &d.join, 1, b.copy, b.out, N * sizeof(int),
                                   cudaMemcpyDeviceToDevice));
    cudaHostNodeParams hp = {host_add_one, host_counter};
    CHECK(cudaGraphAddHostNode(&d.host, d.graph, &d.memcpy, 1, &hp));
    CHECK(cudaGraphAddEmptyNode(&d.empty, d.graph, &d.host, 1));
    return d;
}

static void expect_result(Checker &c, const char *what, Buffers &b, int ax, int bx, int ay, int by) {
    CHECK(cudaMemcpy(b.host, b.copy, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int want = (ax * i + bx) * 3 + (ay * i + by);
        if (b.host[i] != want) {
            c.fail("%s: copy[%d] = %d, want %d", what, i, b.host[i], want);
            return;
        }
    }
}

static void check_structure(Checker &c, Diamond &d) {
    size_t count = 0;
    CHECK(cudaGraphGetNodes(d.graph, nullptr, &count));
    if (count != 7) c.fail("%zu nodes, want 7", count);
    cudaGraphNode_t roots[8];
    count = 8;
    CHECK(cudaGraphGetRootNodes(d.graph, roots, &count));
    if (count != 1 || roots[0] != d.memset) c.fail("%zu roots, want the memset alone", count);
    size_t edges = 0;
    CHECK(cudaGraphGetEdges(d.graph, nullptr, nullptr, nullptr, &edges));
    if (edges != 7) c.fail("%zu edges, want 7", edges);
    cudaGraphNode_t deps[4];
    count = 4;
    CHECK(cudaGraphNodeGetDependencies(d.join, deps, nullptr, &count));
    if (count != 2 || !((deps[0] == d.fill_x && deps[1] == d.fill_y) ||
                        (deps[0] == d.fill_y && deps[1] == d.fill_x)))
        c.fail("combine has %zu dependencies, want both fills", count);
    count = 4;
    CHECK(cudaGraphNodeGetDependentNodes(d.memset, deps, nullptr, &count));
    if (count != 2) c.fail("the memset has %zu dependents, want 2", count);
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(d.host, &type));
    if (type != cudaGraphNodeTypeHost) c.fail("host node type %d", (int)type);
    CHECK(cudaGraphNodeGetType(d.memcpy, &type));
    if (type != cudaGraphNodeTypeMemcpy) c.fail("memcpy node type %d", (int)type);
    cudaKernelNodeParams got = {};
    CHECK(cudaGraphKernelNodeGetParams(d.join, &got));
    if (got.func != (void *)combine || got.gridDim.x != (N + 127) / 128 || got.blockDim.x != 128)
        c.fail("combine's node parameters read back wrong");
}

int main() {
    Checker c;
    Buffers b;
    CHECK(cudaMalloc(&b.x, N * sizeof(int)));
    CHECK(cudaMalloc(&b.y, N * sizeof(int)));
    CHECK(cudaMalloc(&b.out, N * sizeof(int)));
    CHECK(cudaMalloc(&b.copy, N * sizeof(int)));
    b.host = (int *)malloc(N * sizeof(int));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int counter = 0;

    Diamond d = build(b, 2, 5, -1, 7, &counter);
    check_structure(c, d);
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, d.graph, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    expect_result(c, "first launch", b, 2, 5, -1, 7);
    if (counter != 1) c.fail("host node ran %d times after one launch", counter);

    // New arguments for one kernel node of the executable graph; the graph keeps its own.
    int n = N, ax = 4, bx = -3;
    int *px = b.x;
    void *args[4] = {&px, &ax, &bx, &n};
    cudaKernelNodeParams kx = affine_params(args);
    CHECK(cudaGraphExecKernelNodeSetParams(exec, d.fill_x, &kx));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    expect_result(c, "after cudaGraphExecKernelNodeSetParams", b, 4, -3, -1, 7);

    // An update from a graph of the same shape takes all of its parameters.
    Diamond same = build(b, 1, 1, 10, -20, &counter);
    cudaGraphExecUpdateResultInfo info = {};
    CHECK(cudaGraphExecUpdate(exec, same.graph, &info));
    if (info.result != cudaGraphExecUpdateSuccess) c.fail("update result %d", (int)info.result);
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    expect_result(c, "after cudaGraphExecUpdate", b, 1, 1, 10, -20);

    // Another shape is refused, and the executable graph is kept as it was.
    Diamond other = build(b, 0, 0, 0, 0, &counter);
    CHECK(cudaGraphDestroyNode(other.empty));
    cudaError_t e = cudaGraphExecUpdate(exec, other.graph, &info);
    if (e != cudaErrorGraphExecUpdateFailure || info.result != cudaGraphExecUpdateErrorTopologyChanged)
        c.fail("update to another shape: %s, result %d", cudaGetErrorName(e), (int)info.result);
    cudaGetLastError();

    // A child graph node runs a copy of the clone; an event node records an event.
    cudaGraph_t clone, parent;
    CHECK(cudaGraphClone(&clone, d.graph));
    CHECK(cudaGraphCreate(&parent, 0));
    cudaGraphNode_t child, record;
    CHECK(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, clone));
    cudaEvent_t done;
    CHECK(cudaEventCreate(&done));
    CHECK(cudaGraphAddEventRecordNode(&record, parent, &child, 1, done));
    cudaGraphExec_t parent_exec;
    CHECK(cudaGraphInstantiate(&parent_exec, parent, 0));
    CHECK(cudaGraphLaunch(parent_exec, s));
    CHECK(cudaEventSynchronize(done));
    expect_result(c, "the clone in a child graph", b, 2, 5, -1, 7);
    size_t child_nodes = 0;
    cudaGraph_t inner;
    CHECK(cudaGraphChildGraphNodeGetGraph(child, &inner));
    CHECK(cudaGraphGetNodes(inner, nullptr, &child_nodes));
    if (child_nodes != 7) c.fail("the child graph has %zu nodes", child_nodes);

    // Launched many times in a row on one stream, each launch follows the one before.
    counter = 0;
    for (int i = 0; i < 50; i++) CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    if (counter != 50) c.fail("host node ran %d times in 50 launches", counter);
    expect_result(c, "the 50th launch", b, 1, 1, 10, -20);

    // The DOT description names the graph's kernels.
    const char *dot = "graph_explicit.dot";
    CHECK(cudaGraphDebugDotPrint(d.graph, dot, 0));
    FILE *f = fopen(dot, "r");
    char text[16384] = {0};
    size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    remove(dot);
    if (!got || !strstr(text, "digraph") || !strstr(text, "fill_affine"))
        c.fail("the DOT file does not describe the graph");

    CHECK(cudaGraphExecDestroy(parent_exec));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaGraphDestroy(clone));
    CHECK(cudaGraphDestroy(other.graph));
    CHECK(cudaGraphDestroy(same.graph));
    CHECK(cudaGraphDestroy(d.graph));
    CHECK(cudaEventDestroy(done));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(b.x));
    CHECK(cudaFree(b.y));
    CHECK(cudaFree(b.out));
    CHECK(cudaFree(b.copy));
    free(b.host);
    return c.finish();
}
