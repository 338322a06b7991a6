/* Device malloc and free on GPUs: the heap AMDGPU code allocates from
 * (amdgpu_backend/builtins/heap.c). A module that calls malloc or free defines the 64-bit
 * variable ZC_DEVICE_HEAP_SYMBOL (ptx_frontend/lower_module.c); the stub points it at a
 * heap in device memory of cudaLimitMallocHeapSize bytes when it loads the code object
 * (0: every malloc returns NULL). */
#ifndef ZC_DEVICE_HEAP_H
#define ZC_DEVICE_HEAP_H

#include <stdint.h>

#define ZC_DEVICE_HEAP_SYMBOL "zluda_convert_device_heap"
#define ZC_HEAP_CLASSES 36 /* blocks of 16 << class bytes: 16 bytes to 512 GiB */

/* The heap: this header, then `size` bytes, all zero at the start. Each block starts with
 * 16 bytes of its own (its class; in a free block, the next free block) before the memory
 * malloc returns. A free list's head is a tag (high 32 bits, against ABA) and the block's
 * offset / 16 + 1 (low 32 bits, 0 for an empty list), so a heap is at most 64 GiB. */
struct zc_device_heap {
	uint64_t size;
	uint64_t bump;                    /* bytes handed out from the never-used end */
	uint64_t free[ZC_HEAP_CLASSES];
};

#endif
