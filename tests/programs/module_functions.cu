// The functions of a module, listed: cuModuleGetFunctionCount and cuModuleEnumerateFunctions
// (and their cuLibrary* forms through the kernel's library), and the private table
// {6E163FBE-...} whose slot 7 cuFFT calls for every module it loads: it hands each function
// of the module to a callback and answers their count. Each list is checked against the
// handles cudart gives for this file's three kernels, and each kernel is launched through
// the handle the list gave.
#include <algorithm>
#include "test_util.h"

extern "C" __global__ void add_one(int *x) { x[threadIdx.x] += 1; }
extern "C" __global__ void add_two(int *x) { x[threadIdx.x] += 2; }
extern "C" __global__ void add_four(int *x) { x[threadIdx.x] += 4; }

struct Listed {
    CUfunction functions[8];
    int count;
};

static void note_function(void *user, CUfunction f, const void *) {
    Listed *l = (Listed *)user;
    if (l->count < 8) l->functions[l->count] = f;
    l->count++;
}

static bool same_set(CUfunction *a, CUfunction *b, int n) {
    std::sort(a, a + n);
    std::sort(b, b + n);
    return std::equal(a, a + n, b);
}

int main() {
    Checker c;
    CHECK(cudaFree(0));
    CUfunction want[3];
    const void *kernels[3] = {(const void *)add_one, (const void *)add_two, (const void *)add_four};
    for (int i = 0; i < 3; i++) CHECK(cudaGetFuncBySymbol(&want[i], kernels[i]));
    CUmodule module;
    CU(cuFuncGetModule(&module, want[0]));

    unsigned count = 0;
    CU(cuModuleGetFunctionCount(&count, module));
    if (count != 3) c.fail("cuModuleGetFunctionCount: %u, want 3", count);
    CUfunction listed[3] = {};
    CU(cuModuleEnumerateFunctions(listed, 3, module));
    CUfunction expected[3] = {want[0], want[1], want[2]};
    if (!same_set(listed, expected, 3)) c.fail("cuModuleEnumerateFunctions lists other functions");

    // Through the kernel's library: the same kernels, as CUkernels.
    CUkernel kernel;
    CHECK(cudaGetKernel((cudaKernel_t *)&kernel, kernels[1]));
    CUlibrary library;
    CU(cuKernelGetLibrary(&library, kernel));
    CU(cuLibraryGetKernelCount(&count, library));
    if (count != 3) c.fail("cuLibraryGetKernelCount: %u, want 3", count);
    CUkernel ks[3] = {};
    CU(cuLibraryEnumerateKernels(ks, 3, library));
    bool found = false;
    for (int i = 0; i < 3; i++) found |= ks[i] == kernel;
    if (!found) c.fail("cuLibraryEnumerateKernels does not list the kernel cudaGetKernel gives");

    // The private table: every function, once each, and their count as the answer.
    static const CUuuid tools_module = {{(char)0x6e, (char)0x16, (char)0x3f, (char)0xbe, (char)0xb9,
                                         (char)0x58, (char)0x44, (char)0x4d, (char)0x83, (char)0x5c,
                                         (char)0xe1, (char)0x82, (char)0xaf, (char)0xf1, (char)0x99,
                                         (char)0x1e}};
    const void **table = nullptr;
    CU(cuGetExportTable((const void **)&table, &tools_module));
    if ((uintptr_t)table[0] < 8 * sizeof(void *)) c.fail("the table holds %zu bytes", (size_t)(uintptr_t)table[0]);
    typedef int (*each_function_t)(CUcontext, CUmodule, void (*)(void *, CUfunction, const void *), void *);
    CUcontext ctx;
    CU(cuCtxGetCurrent(&ctx));
    Listed l = {};
    int answer = ((each_function_t)table[7])(ctx, module, note_function, &l);
    if (answer != 3 || l.count != 3) c.fail("slot 7 answered %d after %d calls, want 3 and 3", answer, l.count);
    if (l.count == 3 && !same_set(l.functions, expected, 3)) c.fail("slot 7 hands out other functions");

    // Each listed handle launches its kernel: 1 + 2 + 4.
    int *x;
    CHECK(cudaMalloc(&x, 32 * sizeof(int)));
    CHECK(cudaMemset(x, 0, 32 * sizeof(int)));
    for (int i = 0; i < 3 && i < l.count; i++) {
        void *args[] = {&x};
        CU(cuLaunchKernel(l.functions[i], 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
    }
    int host[32];
    CHECK(cudaMemcpy(host, x, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        if (host[i] != 7) {
            c.fail("x[%d] = %d after the three listed kernels, want 7", i, host[i]);
            break;
        }
    CHECK(cudaFree(x));
    return c.finish();
}
