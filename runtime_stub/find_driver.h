/* Finding NVIDIA's libcuda.so.1 where the dynamic loader would (find_cuda.c): for the
 * stub's cuda driver and for zluda-convert doctor. Plain libc: no LLVM, no stub state. */
#ifndef ZC_FIND_CUDA_H
#define ZC_FIND_CUDA_H

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

#endif
