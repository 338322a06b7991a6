// Shuffles whose source lane is outside the member mask: PTX leaves the value undefined,
// NVIDIA's GPUs give 0 (and a source past the clamp gives the lane's own value). The
// reduction of cuda-samples' reduce7 counts on the 0: its last warp step shuffles with a
// ballot mask of one lane per warp of the block, reading from lanes outside it.
#include "test_util.h"

template <unsigned block>
__global__ void reduce(const int *in, int *out, unsigned n) {
    __shared__ int partial[32];
    unsigned tid = threadIdx.x;
    int sum = 0;
    for (unsigned i = blockIdx.x * block + tid; i < n; i += block * gridDim.x) sum += in[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (tid % 32 == 0) partial[tid / 32] = sum;
    __syncthreads();
    const unsigned warps = block / 32;
    const unsigned ballot = __ballot_sync(0xffffffffu, tid < warps);
    if (tid < warps) {
        sum = partial[tid];
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(ballot, sum, offset);
    }
    if (tid == 0) out[blockIdx.x] = sum;
}

// What each of lanes 0..7 reads when only they take part.
__global__ void outside(int *out) {
    int lane = threadIdx.x, v = 1000 + lane;
    unsigned mask = __ballot_sync(0xffffffffu, lane < 8);
    if (lane < 8) {
        out[lane * 4 + 0] = __shfl_down_sync(mask, v, 16);
        out[lane * 4 + 1] = __shfl_down_sync(mask, v, 4);
        out[lane * 4 + 2] = __shfl_xor_sync(mask, v, 8);
        out[lane * 4 + 3] = __shfl_sync(mask, v, lane + 3, 8); // width 8: within lanes 0..7
    }
}

int main() {
    Checker c;
    const unsigned n = 1 << 20, blocks = 64;
    int *in = new int[n];
    Lcg rng(7);
    for (unsigned i = 0; i < n; i++) in[i] = rng.next() & 0xff;
    int *din, *dout;
    CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dout, blocks * 4));
    CHECK(cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice));
    reduce<256><<<blocks, 256>>>(din, dout, n);
    CHECK_LAUNCH();
    int out[blocks];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; b++) {
        int want = 0;
        for (unsigned i = b * 256; i < n; i += 256 * blocks)
            for (unsigned j = i; j < i + 256; j++) want += in[j];
        if (out[b] != want) c.fail("block %u: sum %d, want %d", b, out[b], want);
    }
    int lanes[32];
    outside<<<1, 32>>>(dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(lanes, dout, sizeof lanes, cudaMemcpyDeviceToHost));
    for (int lane = 0; lane < 8; lane++) {
        int want[4] = {0, lane + 4 < 8 ? 1004 + lane : 0, 0, 1000 + (lane + 3) % 8};
        for (int r = 0; r < 4; r++)
            if (lanes[lane * 4 + r] != want[r])
                c.fail("lane %d, shuffle %d: %d, want %d", lane, r, lanes[lane * 4 + r], want[r]);
    }
    return c.finish();
}
