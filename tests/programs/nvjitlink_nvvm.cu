// Kernels made while the program runs by CUDA's other compilers: libNVVM compiles NVVM IR
// text (a kernel written as LLVM IR) to PTX for the device's architecture, and nvJitLink
// links, for the device's architecture (-arch=sm_XY), PTX that NVRTC compiled apart with
// -rdc, and LTO-IR that NVRTC compiled with -dlto (-lto): a kernel in one input calling a
// function and counting into a variable the other defines. Each result is loaded with
// cuModuleLoadData, run, and checked against the host; an LTO-IR input without -lto is
// refused. Prints "PASS" or "FAIL: ...".
#include <nvJitLink.h>
#include <nvrtc.h>
#include <nvvm.h>
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
#define JITLINK(call)                                                                    \
    do {                                                                                 \
        nvJitLinkResult r_ = (call);                                                     \
        if (r_ != NVJITLINK_SUCCESS) {                                                   \
            printf("FAIL: %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)r_); \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

// x[i] = x[i] * a + 1 for i < n, in NVVM IR (libNVVM's LLVM 7 dialect).
static const char *nvvm_ir = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @scale_add_one(float addrspace(1)* %x, float %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %done
body:
  %i64 = sext i32 %i to i64
  %p = getelementptr float, float addrspace(1)* %x, i64 %i64
  %v = load float, float addrspace(1)* %p
  %w = fmul float %v, %a
  %r = fadd float %w, 1.0
  store float %r, float addrspace(1)* %p
  br label %done
done:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, float, i32)* @scale_add_one, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
)";

static const char *kernel_source = R"(
extern __device__ float triple_minus(float v);
extern __device__ int calls;
extern "C" __global__ void apply(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { x[i] = triple_minus(x[i]); atomicAdd(&calls, 1); }
}
)";
static const char *function_source = R"(
__device__ int calls;
__device__ float triple_minus(float v) { return 3.0f * v - 2.0f; }
)";

static int sm(CUdevice dev) {
    int major = 0, minor = 0;
    CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    return major * 10 + minor;
}

static std::vector<float> inputs(int n) {
    std::vector<float> x(n);
    for (int i = 0; i < n; i++) x[i] = (float)(i % 11) - 5.0f;
    return x;
}

static void run_nvvm(Checker &c, CUdevice dev) {
    nvvmProgram prog;
    if (nvvmCreateProgram(&prog) != NVVM_SUCCESS ||
        nvvmAddModuleToProgram(prog, nvvm_ir, strlen(nvvm_ir), "scale.ll") != NVVM_SUCCESS) {
        c.fail("libNVVM: cannot make the program");
        return;
    }
    std::string arch = "-arch=compute_" + std::to_string(sm(dev));
    const char *options[] = {arch.c_str()};
    if (nvvmCompileProgram(prog, 1, options) != NVVM_SUCCESS) {
        size_t size = 0;
        nvvmGetProgramLogSize(prog, &size);
        std::string log(size, 0);
        nvvmGetProgramLog(prog, &log[0]);
        c.fail("libNVVM: %s", log.c_str());
        return;
    }
    size_t size = 0;
    nvvmGetCompiledResultSize(prog, &size);
    std::string ptx(size, 0);
    nvvmGetCompiledResult(prog, &ptx[0]);
    nvvmDestroyProgram(&prog);
    CUmodule module;
    CUfunction f;
    CU(cuModuleLoadData(&module, ptx.c_str()));
    CU(cuModuleGetFunction(&f, module, "scale_add_one"));
    const int n = 500;
    std::vector<float> x = inputs(n), got(n);
    CUdeviceptr dx;
    CU(cuMemAlloc(&dx, n * sizeof(float)));
    CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
    float a = -1.5f;
    int count = n;
    void *args[] = {&dx, &a, &count};
    CU(cuLaunchKernel(f, 4, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
    CU(cuMemcpyDtoH(got.data(), dx, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        if (got[i] != x[i] * a + 1.0f) {
            c.fail("libNVVM: scale_add_one[%d] = %g, want %g", i, got[i], x[i] * a + 1.0f);
            break;
        }
    CU(cuMemFree(dx));
    CU(cuModuleUnload(module));
}

// NVRTC's output for separate compilation: PTX (-rdc) or LTO-IR (-dlto).
static std::string compile(CUdevice dev, const char *src, const char *name, bool lto) {
    std::string arch = "--gpu-architecture=compute_" + std::to_string(sm(dev));
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

static void run_linked(Checker &c, const char *how, const std::vector<char> &cubin) {
    CUmodule module;
    CUfunction apply;
    CU(cuModuleLoadData(&module, cubin.data()));
    CU(cuModuleGetFunction(&apply, module, "apply"));
    const int n = 400;
    std::vector<float> x = inputs(n), got(n);
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

static void run_jitlink(Checker &c, CUdevice dev, bool lto) {
    const char *how = lto ? "nvJitLink of LTO-IR" : "nvJitLink of PTX";
    std::string a = compile(dev, kernel_source, "apply.cu", lto);
    std::string b = compile(dev, function_source, "triple_minus.cu", lto);
    std::string arch = "-arch=sm_" + std::to_string(sm(dev));
    const char *options[] = {arch.c_str(), "-lto"};
    nvJitLinkHandle link;
    nvJitLinkInputType type = lto ? NVJITLINK_INPUT_LTOIR : NVJITLINK_INPUT_PTX;
    JITLINK(nvJitLinkCreate(&link, lto ? 2 : 1, options));
    JITLINK(nvJitLinkAddData(link, type, a.data(), a.size(), "apply"));
    JITLINK(nvJitLinkAddData(link, type, b.data(), b.size(), "triple_minus"));
    JITLINK(nvJitLinkComplete(link));
    size_t size = 0;
    JITLINK(nvJitLinkGetLinkedCubinSize(link, &size));
    std::vector<char> cubin(size);
    JITLINK(nvJitLinkGetLinkedCubin(link, cubin.data()));
    JITLINK(nvJitLinkDestroy(&link));
    run_linked(c, how, cubin);
}

static void refuse_ltoir_without_lto(Checker &c, CUdevice dev) {
    std::string a = compile(dev, function_source, "triple_minus.cu", true);
    std::string arch = "-arch=sm_" + std::to_string(sm(dev));
    const char *options[] = {arch.c_str()};
    nvJitLinkHandle link;
    JITLINK(nvJitLinkCreate(&link, 1, options));
    nvJitLinkResult r = nvJitLinkAddData(link, NVJITLINK_INPUT_LTOIR, a.data(), a.size(), "lto");
    if (r == NVJITLINK_SUCCESS) r = nvJitLinkComplete(link);
    if (r != NVJITLINK_ERROR_LTO_NOT_ENABLED)
        c.fail("LTO-IR without -lto: %d, want NVJITLINK_ERROR_LTO_NOT_ENABLED", (int)r);
    JITLINK(nvJitLinkDestroy(&link));
}

int main() {
    Checker c;
    CU(cuInit(0));
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    run_nvvm(c, dev);
    run_jitlink(c, dev, false);
    run_jitlink(c, dev, true);
    refuse_ltoir_without_lto(c, dev);
    CU(cuDevicePrimaryCtxRelease(dev));
    return c.finish();
}
