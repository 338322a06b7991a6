// One kernel per module that cannot be translated, and the rest that can: the converter
// leaves out only the kernels that need an instruction it does not translate, and
// launching one of those gives cudaErrorNoKernelImageForDevice. multimem.red (sm_90,
// multicast memory) stands for any such instruction; it sits behind a condition that is
// false for every launch, so on NVIDIA GPUs the same kernels run and are checked.
#pragma once
#include "test_util.h"

#define NEVER 0xdeadbeefu

__device__ __forceinline__ void multicast_add(unsigned *p, unsigned v) {
    if (v == NEVER)
        asm volatile("multimem.red.relaxed.sys.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Launches a kernel that may have been left out: returns false when it was (after checking
// that the error is the one CUDA gives for a kernel without code), true when it ran.
template <typename Launch>
static bool ran(Checker &c, const char *name, Launch launch) {
    launch();
    cudaError_t err = cudaGetLastError();
    if (err == cudaErrorNoKernelImageForDevice)
        return false;
    if (err != cudaSuccess) {
        c.fail("%s: launch gave %s", name, cudaGetErrorString(err));
        return false;
    }
    CHECK(cudaDeviceSynchronize());
    return true;
}
