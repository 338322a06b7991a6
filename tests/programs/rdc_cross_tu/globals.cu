// Device globals referenced from main.cu through extern declarations.
#include <cuda_runtime.h>
#include "shared.h"

__device__ int processed;
__constant__ int table[TABLE_SIZE];

__global__ void set_processed(int v) { processed = v; }
void reset_processed() {
    set_processed<<<1, 1>>>(7);
    cudaDeviceSynchronize();
}
