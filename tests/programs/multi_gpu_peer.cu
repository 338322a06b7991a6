// Two GPUs: each device fills its own buffer from its own stream; peer access is asked for,
// turned on (twice: cudaErrorPeerAccessAlreadyEnabled), used by a kernel of device 0 that
// reads device 1's memory directly, and turned off (twice: cudaErrorPeerAccessNotEnabled);
// cudaMemcpyPeer and cudaMemcpyPeerAsync between the devices; a stream of device 0 waits for
// an event of device 1; the P2P attributes; a device is not its own peer. Needs two devices
// (converted: the environment in programs.txt gives the CPU driver and the emulator two).
#include "test_util.h"

__global__ void fill(int *p, int base, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = base + i;
}

__global__ void add_peer(int *out, const int *mine, const int *peer, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = mine[i] * 2 + peer[i];
}

static const int N = 5000;

static void expect(Checker &c, const char *what, const int *d, int dev, int (*want)(int)) {
    static int h[N];
    CHECK(cudaSetDevice(dev));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        if (h[i] != want(i)) {
            c.fail("%s: [%d] = %d, want %d", what, i, h[i], want(i));
            return;
        }
}

static int on0(int i) { return 1000 + i; }
static int on1(int i) { return -7 * 1000 + i; }
static int summed(int i) { return on0(i) * 2 + on1(i); }

int main() {
    Checker c;
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    if (count < 2) {
        printf("FAIL: %d device(s); this program needs 2\n", count);
        return 1;
    }
    int can01 = -1, can10 = -1, self = -1;
    CHECK(cudaDeviceCanAccessPeer(&can01, 0, 1));
    CHECK(cudaDeviceCanAccessPeer(&can10, 1, 0));
    CHECK(cudaDeviceCanAccessPeer(&self, 0, 0));
    if (!can01 || !can10) c.fail("peer access 0->1 %d, 1->0 %d", can01, can10);
    if (self != 0) c.fail("device 0 is its own peer (%d)", self);
    int attr = -1;
    CHECK(cudaDeviceGetP2PAttribute(&attr, cudaDevP2PAttrAccessSupported, 0, 1));
    if (attr != 1) c.fail("P2P access supported: %d", attr);
    cudaError_t e = cudaDeviceGetP2PAttribute(&attr, cudaDevP2PAttrAccessSupported, 0, 0);
    if (e != cudaErrorInvalidDevice) c.fail("P2P attribute of a device and itself: %s", cudaGetErrorName(e));
    cudaGetLastError();

    int *a, *b, *sum, *copy;
    cudaStream_t s0, s1;
    cudaEvent_t filled1;
    CHECK(cudaSetDevice(1));
    CHECK(cudaMalloc(&b, N * sizeof(int)));
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaEventCreateWithFlags(&filled1, cudaEventDisableTiming));
    fill<<<(N + 255) / 256, 256, 0, s1>>>(b, -7000, N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(filled1, s1));

    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&a, N * sizeof(int)));
    CHECK(cudaMalloc(&sum, N * sizeof(int)));
    CHECK(cudaMalloc(&copy, N * sizeof(int)));
    CHECK(cudaStreamCreate(&s0));
    fill<<<(N + 255) / 256, 256, 0, s0>>>(a, 1000, N);
    CHECK(cudaGetLastError());

    CHECK(cudaDeviceEnablePeerAccess(1, 0));
    e = cudaDeviceEnablePeerAccess(1, 0);
    if (e != cudaErrorPeerAccessAlreadyEnabled) c.fail("peer access on twice: %s", cudaGetErrorName(e));
    cudaGetLastError();
    // Device 0's kernel reads device 1's buffer once device 1's fill is done.
    CHECK(cudaStreamWaitEvent(s0, filled1, 0));
    add_peer<<<(N + 255) / 256, 256, 0, s0>>>(sum, a, b, N);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s0));
    expect(c, "device 0 summing device 1's memory", sum, 0, summed);
    CHECK(cudaSetDevice(0));
    CHECK(cudaDeviceDisablePeerAccess(1));
    e = cudaDeviceDisablePeerAccess(1);
    if (e != cudaErrorPeerAccessNotEnabled) c.fail("peer access off twice: %s", cudaGetErrorName(e));
    cudaGetLastError();

    // Copies between the devices need no peer access.
    CHECK(cudaMemcpyPeer(copy, 0, b, 1, N * sizeof(int)));
    expect(c, "cudaMemcpyPeer from device 1", copy, 0, on1);
    CHECK(cudaSetDevice(1));
    CHECK(cudaMemcpyPeerAsync(b, 1, a, 0, N * sizeof(int), s1));
    CHECK(cudaStreamSynchronize(s1));
    expect(c, "cudaMemcpyPeerAsync to device 1", b, 1, on0);

    CHECK(cudaSetDevice(0));
    CHECK(cudaFree(a));
    CHECK(cudaFree(sum));
    CHECK(cudaFree(copy));
    CHECK(cudaStreamDestroy(s0));
    CHECK(cudaSetDevice(1));
    CHECK(cudaFree(b));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaEventDestroy(filled1));
    return c.finish();
}
