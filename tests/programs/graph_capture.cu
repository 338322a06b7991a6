// CUDA graphs built by stream capture: a fork-join capture over two streams (copies, a
// memset, kernels, a host function), replayed with new inputs; what capture reports while
// it runs; the calls each capture mode forbids, on this thread and on another, and the
// invalidated capture they leave; an unjoined fork; the capture mode a thread exchanges;
// what CUDA refuses during any capture (each answer as an H200 gives it). Every result is
// checked against the host.
#include "test_util.h"
#include <thread>

__global__ void scale_add(float *y, const float *x, float a, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}

__global__ void add_into(float *y, const float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i];
}

struct HostCount {
    int calls;
    float seen;  // the first output element, read by the host function after the copy back
    const float *out;
};

static void CUDART_CB count_call(void *p) {
    HostCount *h = (HostCount *)p;
    h->calls++;
    h->seen = h->out[0];
}

static const int N = 3000;

// Captures: in -> d_x (copy), d_y = 2 x + 1 (stream a), d_z = 0 (memset, stream b), d_z += x
// (stream b), join, d_y += d_z, d_y -> out (copy), host function.
static cudaGraph_t capture_pipeline(Checker &c, cudaStream_t a, cudaStream_t b, float *in, float *out,
                                    float *d_x, float *d_y, float *d_z, HostCount *hc) {
    cudaEvent_t fork, join;
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    CHECK(cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal));

    cudaStreamCaptureStatus status;
    unsigned long long id = 0;
    CHECK(cudaStreamIsCapturing(a, &status));
    if (status != cudaStreamCaptureStatusActive) c.fail("stream a capture status %d", (int)status);
    CHECK(cudaStreamIsCapturing(b, &status));
    if (status != cudaStreamCaptureStatusNone) c.fail("stream b status %d before it joins", (int)status);

    int blocks = (N + 255) / 256;
    CHECK(cudaMemcpyAsync(d_x, in, N * sizeof(float), cudaMemcpyHostToDevice, a));
    CHECK(cudaEventRecord(fork, a));
    CHECK(cudaStreamWaitEvent(b, fork, 0));
    CHECK(cudaStreamIsCapturing(b, &status));
    if (status != cudaStreamCaptureStatusActive) c.fail("stream b status %d after it joins", (int)status);
    scale_add<<<blocks, 256, 0, a>>>(d_y, d_x, 2.0f, 1.0f, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemsetAsync(d_z, 0, N * sizeof(float), b));
    add_into<<<blocks, 256, 0, b>>>(d_z, d_x, N);
    CHECK(cudaGetLastError());

    cudaGraph_t building = nullptr;
    const cudaGraphNode_t *deps = nullptr;
    size_t ndeps = 0;
    CHECK(cudaStreamGetCaptureInfo(a, &status, &id, &building, &deps, nullptr, &ndeps));
    if (status != cudaStreamCaptureStatusActive || id == 0 || !building || ndeps != 1)
        c.fail("capture info: status %d, id %llu, graph %p, %zu dependencies", (int)status, id,
               (void *)building, ndeps);
    unsigned long long id_b = 0;
    CHECK(cudaStreamGetCaptureInfo(b, &status, &id_b, nullptr, nullptr, nullptr, nullptr));
    if (id_b != id) c.fail("stream b captures into %llu, stream a into %llu", id_b, id);

    CHECK(cudaEventRecord(join, b));
    CHECK(cudaStreamWaitEvent(a, join, 0));
    add_into<<<blocks, 256, 0, a>>>(d_y, d_z, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(out, d_y, N * sizeof(float), cudaMemcpyDeviceToHost, a));
    CHECK(cudaLaunchHostFunc(a, count_call, hc));

    cudaGraph_t graph;
    CHECK(cudaStreamEndCapture(a, &graph));
    CHECK(cudaStreamIsCapturing(b, &status));
    if (status != cudaStreamCaptureStatusNone) c.fail("stream b status %d after the capture", (int)status);
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(join));
    return graph;
}

static void check_pipeline(Checker &c) {
    cudaStream_t a, b;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    float *in, *out, *d_x, *d_y, *d_z;
    CHECK(cudaMallocHost(&in, N * sizeof(float)));
    CHECK(cudaMallocHost(&out, N * sizeof(float)));
    CHECK(cudaMalloc(&d_x, N * sizeof(float)));
    CHECK(cudaMalloc(&d_y, N * sizeof(float)));
    CHECK(cudaMalloc(&d_z, N * sizeof(float)));
    HostCount hc = {0, 0.0f, out};

    cudaGraph_t graph = capture_pipeline(c, a, b, in, out, d_x, d_y, d_z, &hc);
    if (hc.calls) c.fail("the host function ran during capture");
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    if (nodes != 7) c.fail("the captured graph has %zu nodes, not 7", nodes);

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    Lcg rng(11);
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < N; i++) in[i] = rng.uniform(-4.0f, 4.0f);
        CHECK(cudaGraphLaunch(exec, a));
        CHECK(cudaStreamSynchronize(a));
        for (int i = 0; i < N; i++) {
            float want = (2.0f * in[i] + 1.0f) + in[i];
            if (out[i] != want) c.fail("round %d: out[%d] = %g, want %g", round, i, out[i], want);
        }
        if (hc.calls != round + 1 || hc.seen != out[0])
            c.fail("round %d: host function called %d times, saw %g", round, hc.calls, hc.seen);
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_z));
    CHECK(cudaFreeHost(in));
    CHECK(cudaFreeHost(out));
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
}

// A call the mode forbids fails with `forbidden_error` and invalidates the capture, whose end
// then fails with cudaErrorStreamCaptureInvalidated and gives no graph.
static void expect_invalidated(Checker &c, const char *what, cudaStream_t s, cudaError_t got,
                               cudaError_t want) {
    if (got != want)
        c.fail("%s during capture: %s, want %s", what, cudaGetErrorName(got), cudaGetErrorName(want));
    cudaStreamCaptureStatus status;
    CHECK(cudaStreamIsCapturing(s, &status));
    if (status != cudaStreamCaptureStatusInvalidated)
        c.fail("%s: capture status %d, want invalidated", what, (int)status);
    cudaGraph_t graph = (cudaGraph_t)&c;
    cudaError_t end = cudaStreamEndCapture(s, &graph);
    if (end != cudaErrorStreamCaptureInvalidated || graph != nullptr)
        c.fail("%s: end of capture %s, graph %p", what, cudaGetErrorName(end), (void *)graph);
    cudaGetLastError();
}

static void check_modes(Checker &c) {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    void *p = nullptr;

    // Global mode: cudaMalloc is forbidden on the capturing thread and on any other.
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaError_t other = cudaSuccess;
    std::thread([&] { other = cudaMalloc(&p, 256); }).join();
    if (other != cudaErrorStreamCaptureUnsupported)
        c.fail("another thread's cudaMalloc in global capture: %s", cudaGetErrorName(other));
    expect_invalidated(c, "global: another thread's cudaMalloc", s, other,
                       cudaErrorStreamCaptureUnsupported);

    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    expect_invalidated(c, "global: cudaMalloc", s, cudaMalloc(&p, 256), cudaErrorStreamCaptureUnsupported);

    // A thread may exchange its mode for relaxed, and then allocate.
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    if (mode != cudaStreamCaptureModeGlobal) c.fail("the thread's mode was %d, not global", (int)mode);
    CHECK(cudaMalloc(&p, 256));
    CHECK(cudaFree(p));
    CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    if (mode != cudaStreamCaptureModeRelaxed) c.fail("the exchanged mode was %d, not relaxed", (int)mode);
    cudaGraph_t graph;
    CHECK(cudaStreamEndCapture(s, &graph));
    size_t nodes = 1;
    CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    if (nodes != 0) c.fail("an empty capture has %zu nodes", nodes);
    CHECK(cudaGraphDestroy(graph));

    // Thread-local mode: other threads may allocate and free; the capturing thread may not.
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    std::thread([&] {
        other = cudaMalloc(&p, 256);
        if (other == cudaSuccess) other = cudaFree(p);
    }).join();
    if (other != cudaSuccess)
        c.fail("another thread's cudaMalloc and cudaFree in thread-local capture: %s",
               cudaGetErrorName(other));
    expect_invalidated(c, "thread-local: cudaMalloc", s, cudaMalloc(&p, 256),
                       cudaErrorStreamCaptureUnsupported);

    // Relaxed mode: allocation is allowed; waiting for the capturing stream is not.
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    CHECK(cudaMalloc(&p, 256));
    CHECK(cudaFree(p));
    expect_invalidated(c, "relaxed: cudaStreamSynchronize", s, cudaStreamSynchronize(s),
                       cudaErrorStreamCaptureUnsupported);

    // A synchronous copy waits for the legacy stream, which a blocking stream's capture
    // forbids.
    cudaStream_t blocking;
    CHECK(cudaStreamCreate(&blocking));
    float *d;
    float h[4] = {1, 2, 3, 4};
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaStreamBeginCapture(blocking, cudaStreamCaptureModeRelaxed));
    expect_invalidated(c, "relaxed: cudaMemcpy beside a blocking stream", blocking,
                       cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice),
                       cudaErrorStreamCaptureImplicit);

    // A stream that forked from the capture and never joined leaves it unjoined.
    cudaStream_t side;
    cudaEvent_t fork;
    CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemsetAsync(d, 0, sizeof h, s));
    CHECK(cudaEventRecord(fork, s));
    CHECK(cudaStreamWaitEvent(side, fork, 0));
    CHECK(cudaMemsetAsync(d, 1, sizeof h, side));
    graph = (cudaGraph_t)&c;
    cudaError_t end = cudaStreamEndCapture(s, &graph);
    if (end != cudaErrorStreamCaptureUnjoined || graph != nullptr)
        c.fail("unjoined end of capture: %s, graph %p", cudaGetErrorName(end), (void *)graph);
    cudaGetLastError();
    cudaStreamCaptureStatus status;
    CHECK(cudaStreamIsCapturing(side, &status));
    if (status != cudaStreamCaptureStatusNone) c.fail("the unjoined stream still captures (%d)", (int)status);

    // Nothing captured ran: the memsets never reached d.
    float back[4];
    CHECK(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    if (memcmp(back, h, sizeof h) != 0) c.fail("work captured into a failed capture ran");
    // Ending a capture that was never begun.
    end = cudaStreamEndCapture(s, &graph);
    if (end != cudaErrorIllegalState) c.fail("end without a capture: %s", cudaGetErrorName(end));
    cudaGetLastError();

    CHECK(cudaEventDestroy(fork));
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(side));
    CHECK(cudaStreamDestroy(blocking));
    CHECK(cudaStreamDestroy(s));
}

__global__ void bump(int *p) { p[threadIdx.x] += 1; }

// What CUDA 13 refuses during a capture whatever its mode, each invalidating it.
static void check_refusals(Checker &c) {
    cudaStream_t s, side;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    int *d;
    CHECK(cudaMalloc(&d, 32 * sizeof(int)));
    CHECK(cudaMemset(d, 0, 32 * sizeof(int)));
    cudaEvent_t outside, inside;
    CHECK(cudaEventCreate(&outside));
    CHECK(cudaEventCreate(&inside));
    CHECK(cudaEventRecord(outside, side));
    CHECK(cudaStreamSynchronize(side));

    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    expect_invalidated(c, "waiting for an event recorded outside the capture", s,
                       cudaStreamWaitEvent(s, outside, 0), cudaErrorStreamCaptureIsolation);

    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    bump<<<1, 32, 0, s>>>(d);
    expect_invalidated(c, "relaxed: cudaDeviceSynchronize", s, cudaDeviceSynchronize(),
                       cudaErrorStreamCaptureUnsupported);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    expect_invalidated(c, "relaxed: cudaStreamQuery", s, cudaStreamQuery(s),
                       cudaErrorStreamCaptureUnsupported);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    bump<<<1, 32, 0, s>>>(d);
    CHECK(cudaEventRecord(inside, s));
    expect_invalidated(c, "relaxed: cudaEventQuery of a captured event", s, cudaEventQuery(inside),
                       cudaErrorCapturedEvent);

    cudaError_t e = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
    if (e != cudaErrorStreamCaptureUnsupported) c.fail("capture of the legacy stream: %s", cudaGetErrorName(e));
    cudaGetLastError();
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (e != cudaErrorIllegalState) c.fail("a second begin: %s", cudaGetErrorName(e));
    cudaGetLastError();
    cudaGraph_t inner;
    bump<<<1, 32, 0, s>>>(d);
    CHECK(cudaStreamEndCapture(s, &inner));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, inner, 0));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    expect_invalidated(c, "a graph launched into a capture", s, cudaGraphLaunch(exec, s),
                       cudaErrorStreamCaptureUnsupported);

    // An event of one capture waited for in another merges them: both are invalidated.
    CHECK(cudaStreamBeginCapture(side, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(inside, side));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    e = cudaStreamWaitEvent(s, inside, 0);
    expect_invalidated(c, "merging captures (the waiting one)", s, e, cudaErrorStreamCaptureMerge);
    expect_invalidated(c, "merging captures (the recording one)", side, e, cudaErrorStreamCaptureMerge);

    // Ending in a stream that joined, not the one that began.
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(inside, s));
    CHECK(cudaStreamWaitEvent(side, inside, 0));
    cudaGraph_t graph = (cudaGraph_t)&c;
    e = cudaStreamEndCapture(side, &graph);
    if (e != cudaErrorStreamCaptureUnmatched) c.fail("end in a joined stream: %s", cudaGetErrorName(e));
    expect_invalidated(c, "end in a joined stream", s, e, cudaErrorStreamCaptureUnmatched);

    // Nothing captured ran, and the graph instantiated from the one good capture runs.
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    int back[32];
    CHECK(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        if (back[i] != 1) c.fail("d[%d] = %d after one launch of a one-kernel graph", i, back[i]);

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(inner));
    CHECK(cudaEventDestroy(outside));
    CHECK(cudaEventDestroy(inside));
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamDestroy(side));
}

int main() {
    Checker c;
    check_pipeline(c);
    check_modes(c);
    check_refusals(c);
    CHECK(cudaDeviceSynchronize());
    return c.finish();
}
