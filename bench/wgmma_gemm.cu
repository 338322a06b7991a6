// A warpgroup GEMM for bench/wmma_instructions.sh: D = A B, 64 x 64 x 128 a block, f16 into
// f32 through wgmma.mma_async m64n64k16 (sm_90a), A and B staged in shared memory in the
// PTX ISA's canonical K-major layout without swizzle (8-row core matrices of 16 bytes, the
// next 8 of K 128 bytes on, the next 8 rows 256 bytes on), one k step of 16 at a time.
// Prints PASS when D equals the product computed on the host (small integers: every sum is
// exact).
#include <cstdio>
#include <cuda_fp16.h>

enum { M = 64, N = 64, K = 128, BLOCKS = 4 };

// Byte offset of element (mn, k) of a 16-wide K slice in the canonical layout.
__device__ static unsigned canonical(unsigned mn, unsigned k) {
    return (mn % 8) * 16 + (mn / 8) * 256 + (k / 8) * 128 + (k % 8) * 2;
}

__device__ static unsigned long long descriptor(const void *smem) {
    unsigned address = (unsigned)__cvta_generic_to_shared(smem);
    return (unsigned long long)((address & 0x3ffff) >> 4) | (unsigned long long)(128 >> 4) << 16 |
           (unsigned long long)(256 >> 4) << 32;
}

// A is M x K by rows and B N x K by columns (B's column n at B + n K), for each block its
// own; D is M x N by rows.
__global__ void __launch_bounds__(128) gemm(const __half *A, const __half *B, float *D) {
    __shared__ __align__(128) unsigned char sa[M * 16 * 2], sb[N * 16 * 2];
    const __half *a = A + blockIdx.x * M * K, *b = B + blockIdx.x * N * K;
    int w = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0;
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int i = threadIdx.x; i < M * 16; i += blockDim.x)
            *(__half *)(sa + canonical(i / 16, i % 16)) = a[(i / 16) * K + k0 + i % 16];
        for (int i = threadIdx.x; i < N * 16; i += blockDim.x)
            *(__half *)(sb + canonical(i / 16, i % 16)) = b[(i / 16) * K + k0 + i % 16];
        __syncthreads();
        asm volatile("fence.proxy.async.shared::cta;");
        asm volatile("wgmma.fence.sync.aligned;");
        asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                     "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                     "%32, %33, 1, 1, 1, 0, 0;"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
                       "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                       "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
                       "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                     : "l"(descriptor(sa)), "l"(descriptor(sb)));
        asm volatile("wgmma.commit_group.sync.aligned;");
        asm volatile("wgmma.wait_group.sync.aligned 0;");
        __syncthreads();
    }
    // D's fragment: register i at row 16w + g + 8((i / 2) % 2), column 8(i / 4) + 2t + i % 2
    for (int i = 0; i < 32; i++)
        D[blockIdx.x * M * N + (16 * w + g + 8 * ((i / 2) % 2)) * N + 8 * (i / 4) + 2 * t + i % 2] = d[i];
}

int main() {
    static __half a[BLOCKS * M * K], b[BLOCKS * N * K];
    static int ai[BLOCKS * M * K], bi[BLOCKS * N * K];
    static float d[BLOCKS * M * N];
    for (int i = 0; i < BLOCKS * M * K; i++) a[i] = __int2half_rn(ai[i] = (i * 7 + 3) % 9 - 4);
    for (int i = 0; i < BLOCKS * N * K; i++) b[i] = __int2half_rn(bi[i] = (i * 5 + 1) % 7 - 3);
    __half *dA, *dB;
    float *dD;
    cudaMalloc(&dA, sizeof a);
    cudaMalloc(&dB, sizeof b);
    cudaMalloc(&dD, sizeof d);
    cudaMemcpy(dA, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, b, sizeof b, cudaMemcpyHostToDevice);
    gemm<<<BLOCKS, 128>>>(dA, dB, dD);
    cudaError_t e = cudaMemcpy(d, dD, sizeof d, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("FAIL: %s\n", cudaGetErrorString(e));
        return 1;
    }
    int wrong = 0;
    for (int blk = 0; blk < BLOCKS; blk++)
        for (int r = 0; r < M; r++)
            for (int c = 0; c < N; c++) {
                long s = 0;
                for (int k = 0; k < K; k++) s += (long)ai[blk * M * K + r * K + k] * bi[blk * N * K + c * K + k];
                wrong += (double)d[blk * M * N + r * N + c] != (double)s;
            }
    if (wrong) {
        printf("FAIL: %d of %d elements wrong\n", wrong, BLOCKS * M * N);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
