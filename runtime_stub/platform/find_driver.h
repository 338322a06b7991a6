/* Where the drivers a converted program can use are (find_driver.c, with the platform's
 * half in find_driver_posix.c or find_driver_windows.c): NVIDIA's driver where the
 * platform's loader would find it (common/find_library.h), and the HIP runtime's names and
 * whether to try them. For the stub's drivers and for zluda-convert doctor, which must
 * agree. Plain libc: no LLVM, no stub state. */
#ifndef ZC_FIND_DRIVER_H
#define ZC_FIND_DRIVER_H

#include <stdbool.h>
#include <stddef.h>

/* A symbol only zluda-convert's libcuda.so.1 exports: a candidate that has it is a copy of
 * the stub, not NVIDIA's driver. */
#define ZC_STUB_MARKER "zluda_convert_stub"

#ifdef _WIN32
#define ZC_NVIDIA_DRIVER_NAME "nvcuda.dll"
enum { ZC_HIP_LIBRARY_COUNT = 2 };
#else
#define ZC_NVIDIA_DRIVER_NAME "libcuda.so.1"
enum { ZC_HIP_LIBRARY_COUNT = 3 };
#endif

/* NVIDIA's driver: ZLUDA_CONVERT_CUDA_PATH alone when it is set; else the first candidate
 * ACCEPT takes of the loader's search (zc_find_library), written into OUT; false when none
 * is. */
bool zc_find_nvidia_driver(bool (*accept)(const char *path, void *arg), void *arg, char *out,
                           size_t size);

/* The HIP runtime's names, newest first; ZLUDA_CONVERT_HIP_PATH, when set, replaces them. */
extern const char *const zc_hip_library_names[ZC_HIP_LIBRARY_COUNT];

/* Loading a HIP runtime costs tens of milliseconds, which a program on an NVIDIA machine
 * with ROCm installed would pay at every start: on Linux HIP is tried only where ROCm's
 * kernel driver is (/dev/kfd), or where ZLUDA_CONVERT_HIP_PATH names a runtime (the
 * emulator's needs no GPU). On Windows AMD's display driver installs the HIP runtime:
 * where it is missing, its load fails at once. */
bool zc_amd_gpu_possible(void);

#endif
