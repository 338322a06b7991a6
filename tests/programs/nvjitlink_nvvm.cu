// Kernels made while the program runs by CUDA's other compilers: libNVVM compiles NVVM IR
// text (a kernel written as LLVM IR) to PTX for the device's architecture, and nvJitLink
// links, for the device's architecture (-arch=sm_XY), PTX that NVRTC compiled apart with
// -rdc, and LTO-IR that NVRTC compiled with -dlto (-lto): a kernel in one input calling a
// function and counting into a variable the other defines. Each result is loaded with
// cuModuleLoadData, run, and checked against the host; an LTO-IR input without -lto is
// refused. Prints "PASS" or "FAIL: ...".
#include <nvJitLink.h>
#include <nvvm.h>
#include "separate_compilation.h"

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

static void run_nvvm(Checker &c, CUdevice dev) {
    nvvmProgram prog;
    if (nvvmCreateProgram(&prog) != NVVM_SUCCESS ||
        nvvmAddModuleToProgram(prog, nvvm_ir, strlen(nvvm_ir), "scale.ll") != NVVM_SUCCESS) {
        c.fail("libNVVM: cannot make the program");
        return;
    }
    std::string arch = "-arch=compute_" + std::to_string(device_sm(dev));
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
    std::vector<float> x(n), got(n);
    for (int i = 0; i < n; i++) x[i] = (float)(i % 11) - 5.0f;
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

// The two sources of separate_compilation.h compiled apart, linked by nvJitLink.
static void run_jitlink(Checker &c, CUdevice dev, bool lto) {
    std::string a = compile_separately(dev, separate_kernel, "apply.cu", lto);
    std::string b = compile_separately(dev, separate_function, "scale_bias.cu", lto);
    std::string arch = "-arch=sm_" + std::to_string(device_sm(dev));
    const char *options[] = {arch.c_str(), "-lto"};
    nvJitLinkHandle link;
    nvJitLinkInputType type = lto ? NVJITLINK_INPUT_LTOIR : NVJITLINK_INPUT_PTX;
    JITLINK(nvJitLinkCreate(&link, lto ? 2 : 1, options));
    JITLINK(nvJitLinkAddData(link, type, a.data(), a.size(), "apply"));
    JITLINK(nvJitLinkAddData(link, type, b.data(), b.size(), "scale_bias"));
    JITLINK(nvJitLinkComplete(link));
    size_t size = 0;
    JITLINK(nvJitLinkGetLinkedCubinSize(link, &size));
    std::vector<char> cubin(size);
    JITLINK(nvJitLinkGetLinkedCubin(link, cubin.data()));
    JITLINK(nvJitLinkDestroy(&link));
    run_separately_linked(c, lto ? "nvJitLink of LTO-IR" : "nvJitLink of PTX", cubin.data());
}

static void refuse_ltoir_without_lto(Checker &c, CUdevice dev) {
    std::string a = compile_separately(dev, separate_function, "scale_bias.cu", true);
    std::string arch = "-arch=sm_" + std::to_string(device_sm(dev));
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
    CUdevice dev = first_device();
    run_nvvm(c, dev);
    run_jitlink(c, dev, false);
    run_jitlink(c, dev, true);
    refuse_ltoir_without_lto(c, dev);
    CU(cuDevicePrimaryCtxRelease(dev));
    return c.finish();
}
