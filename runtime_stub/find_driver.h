/* Where the drivers a converted program can use are (find_driver.c): NVIDIA's
 * libcuda.so.1 where the dynamic loader would find it, and the HIP runtime's names and
 * whether to try them. For the stub's drivers and for zluda-convert doctor, which must
 * agree. Plain libc: no LLVM, no stub state. */
#ifndef ZC_FIND_DRIVER_H
#define ZC_FIND_DRIVER_H

#include <stdbool.h>
#include <stddef.h>

/* A symbol only zluda-convert's libcuda.so.1 exports: a candidate that has it is a copy of
 * the stub, not NVIDIA's driver. */
#define ZC_STUB_MARKER "zluda_convert_stub"

/* Offers ACCEPT each candidate path in the loader's order: ZLUDA_CONVERT_CUDA_PATH alone
 * when it is set; else LD_LIBRARY_PATH's directories, /etc/ld.so.cache's libcuda.so.1
 * entries, the directories of /etc/ld.so.conf (and what it includes), and the usual driver
 * locations. Writes the first accepted into OUT; false when none is. */
bool zc_find_nvidia_driver(bool (*accept)(const char *path, void *arg), void *arg, char *out,
                           size_t size);

/* The HIP runtime's names, newest first; ZLUDA_CONVERT_HIP_PATH, when set, replaces them. */
enum { ZC_HIP_LIBRARY_COUNT = 3 };
extern const char *const zc_hip_library_names[ZC_HIP_LIBRARY_COUNT];

/* Loading a HIP runtime costs tens of milliseconds, which a program on an NVIDIA machine
 * with ROCm installed would pay at every start: HIP is tried only where ROCm's kernel
 * driver is (/dev/kfd), or where ZLUDA_CONVERT_HIP_PATH names a runtime (the emulator's
 * needs no GPU). */
bool zc_amd_gpu_possible(void);

#endif
