// A driver-API program with a fatbin of its own in its read-only data (PROBE_FATBIN, from
// kernels.cu): it loads it with cuModuleLoadData, prints the pointer it passed, and scales
// an array with its kernel. check_nvidia_path.py runs it converted, on each driver: on the
// CPU driver and the emulator's HIP runtime it computes; on the stand-in NVIDIA driver,
// which computes nothing, the stand-in's log must show each call with the program's own
// pointers.
#include <cuda.h>
#include <cstdio>

#define STRINGIFY(x) #x
#define PATH(x) STRINGIFY(x)
extern "C" const unsigned char probe_fatbin[];
asm(".section .rodata\n.balign 16\n.globl probe_fatbin\nprobe_fatbin:\n.incbin \"" PATH(PROBE_FATBIN)
    "\"\n.previous\n");

#define CALL(x)                                                     \
    do {                                                            \
        CUresult r_ = (x);                                          \
        if (r_ != CUDA_SUCCESS) {                                   \
            printf("FAIL: %s = %d\n", #x, (int)r_);                 \
            return 1;                                               \
        }                                                           \
    } while (0)

int main()
{
    enum { N = 1000 };
    float host[N];
    int count = 0;
    CUdevice device;
    CUcontext context;
    CUmodule module;
    CUfunction function;
    CUdeviceptr data;

    for (int i = 0; i < N; i++)
        host[i] = (float)i;
    CALL(cuInit(0));
    CALL(cuDeviceGetCount(&count));
    printf("devices %d\n", count);
    CALL(cuDeviceGet(&device, 0));
    CALL(cuDevicePrimaryCtxRetain(&context, device));
    CALL(cuCtxSetCurrent(context));
    printf("fatbin %p\n", (const void *)probe_fatbin);
    CALL(cuModuleLoadData(&module, probe_fatbin));
    CALL(cuModuleGetFunction(&function, module, "scale"));
    CALL(cuMemAlloc(&data, sizeof host));
    CALL(cuMemcpyHtoD(data, host, sizeof host));
    float factor = 2.5f;
    int n = N;
    void *args[] = {&data, &factor, &n};
    CALL(cuLaunchKernel(function, (N + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args, 0));
    CALL(cuCtxSynchronize());
    CALL(cuMemcpyDtoH(host, data, sizeof host));
    CALL(cuMemFree(data));
    for (int i = 0; i < N; i++)
        if (host[i] != 2.5f * (float)i) {
            printf("computed: no (element %d is %g)\n", i, host[i]);
            return 0;
        }
    printf("computed: yes\n");
    return 0;
}
