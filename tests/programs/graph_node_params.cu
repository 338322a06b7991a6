// CUDA graphs through the generic node API and the calls around it: cudaGraphAddNode for
// kernel, memset, memcpy, host, event-record and child-graph nodes (cloned and moved);
// cudaGraphNodeSetParams and cudaGraphExecNodeSetParams; kernel-node attributes set, read
// back and copied; capture into an existing graph (cudaStreamBeginCaptureToGraph) after a
// node already there; a launch-completion event (cudaLaunchKernelEx) recorded by the
// launch, which another stream waits for; user objects whose destructor runs once neither graph, executable graph nor
// launch holds them. Every result is checked against the host.
#include <chrono>
#include <thread>
#include <atomic>
#include "test_util.h"

__global__ void fill_affine(int *y, int a, int b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * i + b;
}

__global__ void add_into(int *y, const int *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i];
}


static const int N = 777;

static cudaGraphNodeParams kernel_node(void *func, void **args) {
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = func;
    p.kernel.gridDim = dim3((N + 127) / 128);
    p.kernel.blockDim = dim3(128);
    p.kernel.kernelParams = args;
    return p;
}

static cudaGraphNodeParams memset_node(int *dst, int byte) {
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeMemset;
    p.memset.dst = dst;
    p.memset.value = byte;
    p.memset.elementSize = 1;
    p.memset.width = N * sizeof(int);
    p.memset.height = 1;
    return p;
}

static void expect_values(Checker &c, const char *what, const int *dev, int a, int b) {
    static int host[N];
    CHECK(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        if (host[i] != a * i + b) {
            c.fail("%s: [%d] = %d, want %d", what, i, host[i], a * i + b);
            return;
        }
}

static void host_count(void *p) { (*(int *)p)++; }

// A host function that holds its stream until the program lets it go (or 2 s have
// passed: where a stream's work runs within the call that gives it, nobody can), and
// one that notes, where it runs, whether the first still holds.
struct Hold {
    std::atomic<int> held{1}, released{0}, seen_held{0}, observed{0};
};
static void hold_stream(void *p) {
    Hold *h = (Hold *)p;
    for (int i = 0; i < 2000 && h->held.load(); i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    h->released = 1;
}
static void observe_hold(void *p) {
    Hold *h = (Hold *)p;
    h->seen_held = !h->released.load();
    h->observed = 1;
}

static std::atomic<int> destroyed;
static void destroy_counter(void *p) { destroyed += *(int *)p; }

// Up to 5 s for a destructor CUDA runs on a thread of its own.
static bool destroyed_reaches(int want) {
    for (int i = 0; i < 500 && destroyed.load() < want; i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return destroyed.load() == want;
}

int main() {
    Checker c;
    int *x, *y, *copy;
    CHECK(cudaMalloc(&x, N * sizeof(int)));
    CHECK(cudaMalloc(&y, N * sizeof(int)));
    CHECK(cudaMalloc(&copy, N * sizeof(int)));
    cudaStream_t s, other;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    cudaEvent_t done;
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    int n = N;

    // memset(x) -> fill(x, 2i+5) -> memcpy(copy <- x) -> host, event record.
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t ms, fill, cp, host, rec;
    cudaGraphNodeParams p = memset_node(x, 0x55);
    CHECK(cudaGraphAddNode(&ms, g, nullptr, nullptr, 0, &p));
    int a = 2, b = 5;
    void *fill_args[4] = {&x, &a, &b, &n};
    p = kernel_node((void *)fill_affine, fill_args);
    CHECK(cudaGraphAddNode(&fill, g, &ms, nullptr, 1, &p));
    p = {};
    p.type = cudaGraphNodeTypeMemcpy;
    p.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(x, N * sizeof(int), N * sizeof(int), 1);
    p.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(copy, N * sizeof(int), N * sizeof(int), 1);
    p.memcpy.copyParams.extent = make_cudaExtent(N * sizeof(int), 1, 1);
    p.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaGraphAddNode(&cp, g, &fill, nullptr, 1, &p));
    int host_runs = 0;
    p = {};
    p.type = cudaGraphNodeTypeHost;
    p.host.fn = host_count;
    p.host.userData = &host_runs;
    CHECK(cudaGraphAddNode(&host, g, &cp, nullptr, 1, &p));
    p = {};
    p.type = cudaGraphNodeTypeEventRecord;
    p.eventRecord.event = done;
    CHECK(cudaGraphAddNode(&rec, g, &host, nullptr, 1, &p));
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(cp, &type));
    if (type != cudaGraphNodeTypeMemcpy) c.fail("the memcpy node reads as type %d", (int)type);

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaEventSynchronize(done));
    expect_values(c, "generic nodes", copy, 2, 5);
    if (host_runs != 1) c.fail("the host node ran %d times, want 1", host_runs);

    // New arguments through the generic setters: on the graph, then on the executable graph.
    int a2 = -3, b2 = 11;
    void *args2[4] = {&x, &a2, &b2, &n};
    p = kernel_node((void *)fill_affine, args2);
    CHECK(cudaGraphNodeSetParams(fill, &p));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    expect_values(c, "the executable graph keeps its own copy", copy, 2, 5);
    cudaGraphExec_t exec2;
    CHECK(cudaGraphInstantiate(&exec2, g, 0));
    CHECK(cudaGraphLaunch(exec2, s));
    CHECK(cudaStreamSynchronize(s));
    expect_values(c, "cudaGraphNodeSetParams", copy, -3, 11);
    int a3 = 7, b3 = -1;
    void *args3[4] = {&x, &a3, &b3, &n};
    p = kernel_node((void *)fill_affine, args3);
    CHECK(cudaGraphExecNodeSetParams(exec, fill, &p));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    expect_values(c, "cudaGraphExecNodeSetParams", copy, 7, -1);
    if (host_runs != 4) c.fail("the host node ran %d times, want 4", host_runs);

    // Parameters of another type than the node's are refused.
    p = memset_node(x, 0);
    cudaError_t e = cudaGraphNodeSetParams(fill, &p);
    if (e != cudaErrorInvalidValue) c.fail("memset parameters on a kernel node: %s", cudaGetErrorName(e));
    (void)cudaGetLastError();

    // Kernel-node attributes: read back as set, defaults of zero, copied to another node.
    cudaKernelNodeAttrValue v = {};
    v.priority = 0;
    CHECK(cudaGraphKernelNodeGetAttribute(fill, cudaKernelNodeAttributePriority, &v));
    if (v.priority != 0) c.fail("a new node's priority is %d", v.priority);
    v = {};
    v.accessPolicyWindow.base_ptr = x;
    v.accessPolicyWindow.num_bytes = N * sizeof(int);
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK(cudaGraphKernelNodeSetAttribute(fill, cudaKernelNodeAttributeAccessPolicyWindow, &v));
    // A priority outside the device's range reads back as the nearest end of it.
    int least, greatest;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    v = {};
    v.priority = least + 1;
    CHECK(cudaGraphKernelNodeSetAttribute(fill, cudaKernelNodeAttributePriority, &v));
    CHECK(cudaGraphKernelNodeGetAttribute(fill, cudaKernelNodeAttributePriority, &v));
    if (v.priority != least) c.fail("priority %d set reads back as %d, want %d", least + 1, v.priority, least);
    v.priority = greatest;
    CHECK(cudaGraphKernelNodeSetAttribute(fill, cudaKernelNodeAttributePriority, &v));
    cudaGraphNode_t twin;
    p = kernel_node((void *)fill_affine, fill_args);
    CHECK(cudaGraphAddNode(&twin, g, nullptr, nullptr, 0, &p));
    CHECK(cudaGraphKernelNodeCopyAttributes(twin, fill));
    v = {};
    CHECK(cudaGraphKernelNodeGetAttribute(twin, cudaKernelNodeAttributeAccessPolicyWindow, &v));
    if (v.accessPolicyWindow.base_ptr != x || v.accessPolicyWindow.num_bytes != N * sizeof(int) ||
        v.accessPolicyWindow.hitRatio != 0.5f ||
        v.accessPolicyWindow.hitProp != cudaAccessPropertyPersisting ||
        v.accessPolicyWindow.missProp != cudaAccessPropertyStreaming)
        c.fail("the copied access policy window reads back changed");
    v = {};
    CHECK(cudaGraphKernelNodeGetAttribute(twin, cudaKernelNodeAttributePriority, &v));
    if (v.priority != greatest) c.fail("the copied priority is %d, want %d", v.priority, greatest);
    v = {};
    CHECK(cudaGraphKernelNodeGetAttribute(twin, cudaLaunchAttributeMemSyncDomainMap, &v));
    if (v.memSyncDomainMap.default_ != 0 || v.memSyncDomainMap.remote != 1)
        c.fail("the default memory-synchronisation domain map is {%d, %d}, want {0, 1}",
               v.memSyncDomainMap.default_, v.memSyncDomainMap.remote);
    CHECK(cudaGraphDestroyNode(twin));

    // A child graph cloned into a node, and one moved into it (the node owns it then).
    cudaGraph_t child, moved, parent;
    CHECK(cudaGraphCreate(&child, 0));
    CHECK(cudaGraphCreate(&moved, 0));
    CHECK(cudaGraphCreate(&parent, 0));
    int a4 = 1, b4 = 100;
    void *child_args[4] = {&y, &a4, &b4, &n};
    cudaGraphNode_t inner;
    p = kernel_node((void *)fill_affine, child_args);
    CHECK(cudaGraphAddNode(&inner, child, nullptr, nullptr, 0, &p));
    void *add_args[3] = {&y, &x, &n};
    p = kernel_node((void *)add_into, add_args);
    CHECK(cudaGraphAddNode(&inner, moved, nullptr, nullptr, 0, &p));
    cudaGraphNode_t first, second;
    p = {};
    p.type = cudaGraphNodeTypeGraph;
    p.graph.graph = child;
    CHECK(cudaGraphAddNode(&first, parent, nullptr, nullptr, 0, &p));
    CHECK(cudaGraphDestroy(child));  // the node has its own clone
    p.graph.graph = moved;
    p.graph.ownership = cudaGraphChildGraphOwnershipMove;
    CHECK(cudaGraphAddNode(&second, parent, &first, nullptr, 1, &p));
    cudaGraph_t held;
    CHECK(cudaGraphChildGraphNodeGetGraph(second, &held));
    if (held != moved) c.fail("a moved child graph is not the node's graph");
    cudaGraphExec_t parent_exec;
    CHECK(cudaGraphInstantiate(&parent_exec, parent, 0));
    CHECK(cudaGraphLaunch(parent_exec, s));  // y = i + 100, then y += x (7i - 1)
    CHECK(cudaStreamSynchronize(s));
    expect_values(c, "cloned and moved child graphs", y, 8, 99);

    // Capture into the existing graph g, after its memcpy node: y = copy's values + 1000.
    cudaGraph_t captured = g;
    CHECK(cudaStreamBeginCaptureToGraph(s, g, &cp, nullptr, 1, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemcpyAsync(y, copy, N * sizeof(int), cudaMemcpyDeviceToDevice, s));
    int a5 = 0, b5 = 1000;
    fill_affine<<<(N + 127) / 128, 128, 0, s>>>(x, a5, b5, n);
    add_into<<<(N + 127) / 128, 128, 0, s>>>(y, x, n);
    CHECK(cudaStreamEndCapture(s, &captured));
    if (captured != g) c.fail("capture into a graph ended with another graph");
    size_t count = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &count));
    if (count != 8) c.fail("the graph has %zu nodes after the capture, want 8", count);
    cudaGraphExec_t exec3;
    CHECK(cudaGraphInstantiate(&exec3, g, 0));
    CHECK(cudaGraphLaunch(exec3, s));
    CHECK(cudaStreamSynchronize(s));
    expect_values(c, "captured after an existing node", y, -3, 1011);

    // A launch-completion event, recorded by the launch: work another stream puts behind it
    // runs only after the kernel has begun, so after the host function that holds the
    // kernel's stream has let go. Never recorded, it would let that work run at once.
    cudaEvent_t begun;
    CHECK(cudaEventCreateWithFlags(&begun, cudaEventDisableTiming));
    Hold hold;
    CHECK(cudaLaunchHostFunc(s, hold_stream, &hold));
    cudaLaunchAttribute attr[1] = {};
    attr[0].id = cudaLaunchAttributeLaunchCompletionEvent;
    attr[0].val.launchCompletionEvent.event = begun;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((N + 127) / 128);
    config.blockDim = dim3(128);
    config.stream = s;
    config.attrs = attr;
    config.numAttrs = 1;
    int seven = 7;
    CHECK(cudaLaunchKernelEx(&config, fill_affine, y, 0, seven, n));
    CHECK(cudaStreamWaitEvent(other, begun, 0));
    CHECK(cudaLaunchHostFunc(other, observe_hold, &hold));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    hold.held = 0;
    CHECK(cudaStreamSynchronize(other));
    CHECK(cudaStreamSynchronize(s));
    if (hold.seen_held) c.fail("work behind a launch-completion event ran before the kernel's stream went on");
    if (!hold.observed) c.fail("the host function behind the completion event did not run");
    expect_values(c, "the kernel launched with a completion event", y, 0, 7);

    // User objects: a graph holds one moved in; an executable graph made from it holds it too;
    // it goes once the graph, the executable graph and its launch have all let it go.
    int weight = 1;
    cudaUserObject_t object;
    CHECK(cudaUserObjectCreate(&object, &weight, destroy_counter, 1, cudaUserObjectNoDestructorSync));
    cudaGraph_t owner;
    CHECK(cudaGraphCreate(&owner, 0));
    int runs = 0;
    cudaGraphNode_t h;
    p = {};
    p.type = cudaGraphNodeTypeHost;
    p.host.fn = host_count;
    p.host.userData = &runs;
    CHECK(cudaGraphAddNode(&h, owner, nullptr, nullptr, 0, &p));
    CHECK(cudaGraphRetainUserObject(owner, object, 1, cudaGraphUserObjectMove));
    cudaGraphExec_t owner_exec;
    CHECK(cudaGraphInstantiate(&owner_exec, owner, 0));
    CHECK(cudaGraphDestroy(owner));
    CHECK(cudaGraphLaunch(owner_exec, s));
    CHECK(cudaStreamSynchronize(s));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (destroyed.load() != 0) c.fail("a user object an executable graph holds was destroyed");
    CHECK(cudaGraphExecDestroy(owner_exec));
    if (!destroyed_reaches(1)) c.fail("the user object's destructor ran %d times, want 1", destroyed.load());
    if (runs != 1) c.fail("the owner graph's host node ran %d times", runs);

    // A reference a graph takes (not moved) is the graph's own: the object stays while
    // the graph holds it, whatever the program releases.
    cudaUserObject_t second_object;
    CHECK(cudaUserObjectCreate(&second_object, &weight, destroy_counter, 2, cudaUserObjectNoDestructorSync));
    CHECK(cudaGraphRetainUserObject(parent, second_object, 1, 0));
    CHECK(cudaUserObjectRelease(second_object, 2));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (destroyed.load() != 1) c.fail("a user object a graph holds was destroyed");
    CHECK(cudaGraphReleaseUserObject(parent, second_object, 1));
    if (!destroyed_reaches(2)) c.fail("the second destructor ran %d times in all", destroyed.load());

    CHECK(cudaGraphExecDestroy(parent_exec));
    CHECK(cudaGraphExecDestroy(exec3));
    CHECK(cudaGraphExecDestroy(exec2));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaEventDestroy(done));
    CHECK(cudaEventDestroy(begun));
    CHECK(cudaStreamDestroy(other));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(copy));
    return c.finish();
}
