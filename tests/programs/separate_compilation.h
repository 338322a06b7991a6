// What the programs of code made at run time share: NVRTC's calls checked, the first device
// made current and the compute capability it reports, and separate compilation: a kernel in one source that
// calls a function and counts into a variable the other source defines, each compiled by
// NVRTC apart (-rdc PTX, or -dlto LTO-IR), and the linked image loaded, run and checked.
#pragma once
#include <nvrtc.h>
#include <string>
#include <vector>
#include "test_util.h"

#define NVRTC(call)                                                                      \
    do {                                                                                 \
        nvrtcResult r_ = (call);                                                         \
        if (r_ != NVRTC_SUCCESS) {                                                       \
            printf("FAIL: %s:%d: %s returned %s\n", __FILE__, __LINE__, #call,           \
                   nvrtcGetErrorString(r_));                                             \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

// The first device, its primary context made current.
inline CUdevice first_device() {
    CUdevice dev;
    CUcontext ctx;
    CU(cuInit(0));
    CU(cuDeviceGet(&dev, 0));
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    return dev;
}

inline int device_sm(CUdevice dev) {
    int major = 0, minor = 0;
    CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    return major * 10 + minor;
}

static const char *const separate_kernel = R"(
extern __device__ float scale_bias(float v);
extern __device__ int calls;
extern "C" __global__ void apply(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { x[i] = scale_bias(x[i]); atomicAdd(&calls, 1); }
}
)";
static const char *const separate_function = R"(
__device__ int calls;
__device__ float bias = -2.0f;
__device__ float scale_bias(float v) { return 3.0f * v + bias; }
)";

// NVRTC's output for separate compilation, for the device's architecture: PTX (-rdc) or
// LTO-IR (-dlto).
inline std::string compile_separately(CUdevice dev, const char *src, const char *name, bool lto) {
    std::string arch = "--gpu-architecture=compute_" + std::to_string(device_sm(dev));
    const char *options[] = {arch.c_str(), "-rdc=true", "-dlto"};
    nvrtcProgram prog;
    NVRTC(nvrtcCreateProgram(&prog, src, name, 0, nullptr, nullptr));
    NVRTC(nvrtcCompileProgram(prog, lto ? 3 : 2, options));
    size_t size = 0;
    std::string out;
    if (lto) {
        NVRTC(nvrtcGetLTOIRSize(prog, &size));
        out.resize(size);
        NVRTC(nvrtcGetLTOIR(prog, &out[0]));
    } else {
        NVRTC(nvrtcGetPTXSize(prog, &size));
        out.resize(size);
        NVRTC(nvrtcGetPTX(prog, &out[0]));
    }
    NVRTC(nvrtcDestroyProgram(&prog));
    return out;
}

// The linked image of both sources loaded; apply run over 400 elements and checked, and
// the calls it counted.
inline void run_separately_linked(Checker &c, const char *how, const void *image) {
    CUmodule module;
    CUfunction apply;
    CU(cuModuleLoadData(&module, image));
    CU(cuModuleGetFunction(&apply, module, "apply"));
    const int n = 400;
    std::vector<float> x(n), got(n);
    for (int i = 0; i < n; i++) x[i] = (float)(i % 11) - 5.0f;
    CUdeviceptr dx, calls;
    CU(cuMemAlloc(&dx, n * sizeof(float)));
    CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
    int count = n, made = 0;
    void *args[] = {&dx, &count};
    CU(cuLaunchKernel(apply, 4, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
    CU(cuMemcpyDtoH(got.data(), dx, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        if (got[i] != 3.0f * x[i] - 2.0f) {
            c.fail("%s: apply[%d] = %g, want %g", how, i, got[i], 3.0f * x[i] - 2.0f);
            break;
        }
    size_t bytes = 0;
    CU(cuModuleGetGlobal(&calls, &bytes, module, "calls"));
    CU(cuMemcpyDtoH(&made, calls, sizeof made));
    if (made != n) c.fail("%s: %d calls counted, want %d", how, made, n);
    CU(cuMemFree(dx));
    CU(cuModuleUnload(module));
}
