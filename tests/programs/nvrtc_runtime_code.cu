// Kernels made while the program runs: the binary holds none. NVRTC compiles CUDA source to
// PTX for the architecture the device reports (compute_XY), with a template instantiated
// through a name expression, and the driver loads that PTX in each way programs hand it
// over: cuModuleLoadDataEx with JIT options (info and error log buffers, wall time, an
// option that does not apply), cuModuleLoadData of the same text again, cuLibraryLoadData,
// cuModuleLoad of the PTX written to a file, and cuModuleLoadData of what cuLink makes of
// it (with its own log buffers). NVRTC also compiles the source to a CUBIN for the device's
// architecture (-arch sm_XY), which cuModuleLoadData loads, and two sources apart with -rdc,
// which cuLink links (a kernel calling a function and using variables the other defines). Each module's kernels run and
// are checked against the host, a module-scope variable is set through cuModuleGetGlobal,
// and PTX that does not compile fails with CUDA_ERROR_INVALID_PTX and a message in the
// error log. Prints "PASS" or "FAIL: ...".
#include <string>
#include <unistd.h>
#include <vector>
#include "separate_compilation.h"

static const char *source = R"(
__device__ int offset;

template <typename T>
__global__ void scale(T *x, T factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * factor + (T)offset;
}

extern "C" __global__ void warp_sums(const int *x, int *sums) {
    int v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) sums[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}
)";

struct Compiled {
    std::string ptx, scale_name;  // ptx: the CUBIN where one was asked for
};

// PTX for the device's architecture (compute_XY), or a CUBIN for it (sm_XY, in two options
// as programs may pass it) as NVIDIA's samples ask for.
static Compiled compile(CUdevice dev, bool cubin) {
    std::string sm = std::to_string(device_sm(dev));
    std::string arch = cubin ? "sm_" + sm : "--gpu-architecture=compute_" + sm;
    const char *options[] = {cubin ? "-arch" : "--std=c++17", arch.c_str()};
    nvrtcProgram prog;
    NVRTC(nvrtcCreateProgram(&prog, source, "runtime_code.cu", 0, nullptr, nullptr));
    NVRTC(nvrtcAddNameExpression(prog, "scale<float>"));
    nvrtcResult built = nvrtcCompileProgram(prog, 2, options);
    if (built != NVRTC_SUCCESS) {
        size_t size = 0;
        nvrtcGetProgramLogSize(prog, &size);
        std::string log(size, 0);
        nvrtcGetProgramLog(prog, &log[0]);
        printf("FAIL: nvrtcCompileProgram: %s\n%s\n", nvrtcGetErrorString(built), log.c_str());
        exit(1);
    }
    Compiled c;
    size_t size = 0;
    if (cubin) {
        NVRTC(nvrtcGetCUBINSize(prog, &size));
        c.ptx.resize(size);
        NVRTC(nvrtcGetCUBIN(prog, &c.ptx[0]));
    } else {
        NVRTC(nvrtcGetPTXSize(prog, &size));
        c.ptx.resize(size);
        NVRTC(nvrtcGetPTX(prog, &c.ptx[0]));
    }
    const char *lowered = nullptr;
    NVRTC(nvrtcGetLoweredName(prog, "scale<float>", &lowered));
    c.scale_name = lowered;
    NVRTC(nvrtcDestroyProgram(&prog));
    return c;
}

// Runs both kernels of a module and checks them; `offset` is the module's variable's value.
static void run_kernels(Checker &c, const char *how, CUfunction scale, CUfunction warp_sums,
                        int offset) {
    const int n = 1000, threads = 256, blocks = (n + threads - 1) / threads;
    std::vector<float> x(n);
    for (int i = 0; i < n; i++) x[i] = (float)(i % 17) - 8.0f;
    CUdeviceptr dx;
    CU(cuMemAlloc(&dx, n * sizeof(float)));
    CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
    float factor = 2.5f;
    int count = n;
    void *scale_args[] = {&dx, &factor, &count};
    CU(cuLaunchKernel(scale, blocks, 1, 1, threads, 1, 1, 0, nullptr, scale_args, nullptr));
    std::vector<float> got(n);
    CU(cuMemcpyDtoH(got.data(), dx, n * sizeof(float)));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (got[i] != x[i] * factor + (float)offset && bad++ == 0)
            c.fail("%s: scale<float>[%d] = %g, want %g", how, i, got[i], x[i] * factor + offset);

    const int m = 512;
    std::vector<int> v(m);
    for (int i = 0; i < m; i++) v[i] = (i * 7919) % 101 - 50;
    CUdeviceptr dv, dsums;
    CU(cuMemAlloc(&dv, m * sizeof(int)));
    CU(cuMemAlloc(&dsums, m / 32 * sizeof(int)));
    CU(cuMemcpyHtoD(dv, v.data(), m * sizeof(int)));
    void *sum_args[] = {&dv, &dsums};
    CU(cuLaunchKernel(warp_sums, m / 128, 1, 1, 128, 1, 1, 0, nullptr, sum_args, nullptr));
    std::vector<int> sums(m / 32);
    CU(cuMemcpyDtoH(sums.data(), dsums, sums.size() * sizeof(int)));
    for (int w = 0; w < m / 32; w++) {
        int want = 0;
        for (int i = 0; i < 32; i++) want += v[w * 32 + i];
        if (sums[w] != want) c.fail("%s: warp_sums[%d] = %d, want %d", how, w, sums[w], want);
    }
    CU(cuMemFree(dx));
    CU(cuMemFree(dv));
    CU(cuMemFree(dsums));
}

static void set_offset(CUmodule module, int value) {
    CUdeviceptr address;
    size_t bytes = 0;
    CU(cuModuleGetGlobal(&address, &bytes, module, "offset"));
    CU(cuMemcpyHtoD(address, &value, sizeof value));
}

static void run_module(Checker &c, const char *how, CUmodule module, const Compiled &k, int offset) {
    CUfunction scale, warp_sums;
    CU(cuModuleGetFunction(&scale, module, k.scale_name.c_str()));
    CU(cuModuleGetFunction(&warp_sums, module, "warp_sums"));
    set_offset(module, offset);
    run_kernels(c, how, scale, warp_sums, offset);
}

// A log the driver filled: NUL-terminated within its buffer, as long as it says.
static void check_log(Checker &c, const char *what, const char *log, size_t size, size_t used) {
    size_t length = strnlen(log, size);
    if (length == size) c.fail("%s: not NUL-terminated", what);
    else if (used > size) c.fail("%s: %zu bytes used of %zu", what, used, size);
}

static void load_with_options(Checker &c, const Compiled &k) {
    char info[4096], error[4096];
    memset(info, 'x', sizeof info);
    memset(error, 'x', sizeof error);
    CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_WALL_TIME, CU_JIT_MAX_REGISTERS};
    void *values[] = {info, (void *)(uintptr_t)sizeof info, error,
                      (void *)(uintptr_t)sizeof error, nullptr, (void *)(uintptr_t)64};
    CUmodule module;
    CU(cuModuleLoadDataEx(&module, k.ptx.c_str(), 6, options, values));
    check_log(c, "info log", info, sizeof info, (uintptr_t)values[1]);
    check_log(c, "error log", error, sizeof error, (uintptr_t)values[3]);
    if (error[0]) c.fail("a successful load has an error log: %s", error);
    float ms;
    memcpy(&ms, &values[4], sizeof ms);
    if (!(ms >= 0.0f)) c.fail("wall time %g ms", ms);
    run_module(c, "cuModuleLoadDataEx", module, k, 3);
    CU(cuModuleUnload(module));
}

static void load_twice(Checker &c, const Compiled &k) {
    CUmodule first, second;
    CU(cuModuleLoadData(&first, k.ptx.c_str()));
    CU(cuModuleLoadData(&second, k.ptx.c_str()));
    // each module has its own variable
    set_offset(first, 10);
    run_module(c, "cuModuleLoadData (second)", second, k, -4);
    CUfunction scale, warp_sums;
    CU(cuModuleGetFunction(&scale, first, k.scale_name.c_str()));
    CU(cuModuleGetFunction(&warp_sums, first, "warp_sums"));
    run_kernels(c, "cuModuleLoadData (first)", scale, warp_sums, 10);
    CU(cuModuleUnload(first));
    CU(cuModuleUnload(second));
}

static void load_library(Checker &c, const Compiled &k) {
    CUlibrary library;
    CU(cuLibraryLoadData(&library, k.ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    CUmodule module;
    CU(cuLibraryGetModule(&module, library));
    run_module(c, "cuLibraryLoadData", module, k, 7);
    CU(cuLibraryUnload(library));
}

static void load_file(Checker &c, const Compiled &k) {
    char path[] = "/tmp/runtime_code_XXXXXX.ptx";
    int fd = mkstemps(path, 4);
    if (fd < 0 || write(fd, k.ptx.data(), k.ptx.size()) != (ssize_t)k.ptx.size()) {
        c.fail("cannot write %s", path);
        return;
    }
    close(fd);
    CUmodule module;
    CUresult r = cuModuleLoad(&module, path);
    unlink(path);
    CU(r);
    run_module(c, "cuModuleLoad", module, k, 1);
    CU(cuModuleUnload(module));
}

// The two sources of separate_compilation.h compiled apart with -rdc and linked with
// cuLink: NVRTC's separate compilation.
static void link_separate(Checker &c, CUdevice dev) {
    std::string a = compile_separately(dev, separate_kernel, "apply.cu", false);
    std::string b = compile_separately(dev, separate_function, "scale_bias.cu", false);
    CUlinkState link;
    CU(cuLinkCreate(0, nullptr, nullptr, &link));
    CU(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)a.data(), a.size(), "apply.ptx", 0, nullptr, nullptr));
    CU(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)b.data(), b.size(), "scale_bias.ptx", 0, nullptr,
                     nullptr));
    void *image = nullptr;
    size_t size = 0;
    CU(cuLinkComplete(link, &image, &size));
    run_separately_linked(c, "cuLink of -rdc PTX", image);
    CU(cuLinkDestroy(link));
}

// cuLink of the PTX, its image loaded; the module outlives the link.
static void link_ptx(Checker &c, const Compiled &k) {
    char info[2048], error[2048];
    CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {info, (void *)(uintptr_t)sizeof info, error, (void *)(uintptr_t)sizeof error};
    CUlinkState link;
    CU(cuLinkCreate(4, options, values, &link));
    CU(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)k.ptx.data(), k.ptx.size(), "runtime_code.ptx",
                     0, nullptr, nullptr));
    void *image = nullptr;
    size_t size = 0;
    CU(cuLinkComplete(link, &image, &size));
    if (!image || !size) c.fail("cuLinkComplete: an empty image");
    CUmodule module;
    CU(cuModuleLoadData(&module, image));
    CU(cuLinkDestroy(link));
    check_log(c, "cuLink's info log", info, sizeof info, (uintptr_t)values[1]);
    check_log(c, "cuLink's error log", error, sizeof error, (uintptr_t)values[3]);
    if (error[0]) c.fail("a successful link has an error log: %s", error);
    run_module(c, "cuLinkComplete", module, k, 6);
    CU(cuModuleUnload(module));
}

static void load_cubin(Checker &c, CUdevice dev) {
    Compiled cubin = compile(dev, true);
    CUmodule module;
    CU(cuModuleLoadData(&module, cubin.ptx.data()));
    run_module(c, "cuModuleLoadData of a CUBIN", module, cubin, 5);
    CU(cuModuleUnload(module));
}

static void load_bad_ptx(Checker &c) {
    const char *bad = ".version 7.0\n.target sm_52\n.address_size 64\n"
                      ".visible .entry broken() {\n\tnot_an_instruction %r1;\n}\n";
    char error[2048];
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {error, (void *)(uintptr_t)sizeof error};
    CUmodule module;
    CUresult r = cuModuleLoadDataEx(&module, bad, 2, options, values);
    const char *name = "?";
    cuGetErrorName(r, &name);
    if (r != CUDA_ERROR_INVALID_PTX) c.fail("bad PTX: %s, want CUDA_ERROR_INVALID_PTX", name);
    check_log(c, "error log of bad PTX", error, sizeof error, (uintptr_t)values[1]);
    if (!error[0]) c.fail("bad PTX: empty error log");
    // a log cut by its buffer: the buffer's size written back (as an H200 does)
    char small[16];
    void *cut[] = {small, (void *)(uintptr_t)sizeof small};
    r = cuModuleLoadDataEx(&module, bad, 2, options, cut);
    if (r != CUDA_ERROR_INVALID_PTX || strnlen(small, sizeof small) != sizeof small - 1 ||
        (uintptr_t)cut[1] != sizeof small)
        c.fail("bad PTX, a 16-byte error log: %d, %zu characters, %zu written back", (int)r,
               strnlen(small, sizeof small), (size_t)(uintptr_t)cut[1]);
}

int main() {
    Checker c;
    CUdevice dev = first_device();
    Compiled k = compile(dev, false);
    load_with_options(c, k);
    load_twice(c, k);
    load_library(c, k);
    load_file(c, k);
    link_ptx(c, k);
    link_separate(c, dev);
    load_cubin(c, dev);
    load_bad_ptx(c);
    CU(cuDevicePrimaryCtxRelease(dev));
    return c.finish();
}
