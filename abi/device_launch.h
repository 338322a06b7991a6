/* Kernels that launch kernels (CUDA dynamic parallelism, CDP2) on every target: the launches
 * a grid makes are records in a queue the stub owns (runtime_stub/api/device_launch.c), which
 * it runs once the grid has ended. A module whose PTX calls the device runtime's
 * __cuda_syscall_cnpv2GetParameterBufferV2 (ptx_frontend/lower_cdp.c) defines the 64-bit
 * variable ZC_DEVICE_LAUNCHES_SYMBOL; the stub sets it to the queue's address when it loads
 * the code object (0: every launch fails as when the queue is full). A kernel's address,
 * as PTX takes it for a launch (`mov.u64 %rd, kernel`), is zc_kernel_handle of its name.
 * Shared by the lowering, the builtins (backend/builtins_launch.c) and the stub: plain C
 * types, little-endian. */
#ifndef ZC_DEVICE_LAUNCH_H
#define ZC_DEVICE_LAUNCH_H

#include <stdint.h>

#define ZC_DEVICE_LAUNCHES_SYMBOL "zluda_convert_device_launches"

/* The most parameter bytes a launch from the device takes (CUDA's limit is 4 KiB). */
#define ZC_LAUNCH_PARAMS_MAX 4096

/* The queue: this header, then `capacity` records. */
struct zc_launch_queue {
	uint32_t capacity;
	uint32_t next;     /* records reserved so far, atomically; may pass capacity */
	uint32_t reserved[14];
};

enum { ZC_LAUNCH_RESERVED = 0, ZC_LAUNCH_LAUNCHED = 1 };

/* A launch: GetParameterBuffer reserves it and returns `params`; LaunchDevice stores the
 * stream and then, with release, `state`. CUDA's stream handles cudaStreamTailLaunch (3)
 * and cudaStreamFireAndForget (4) keep their values; 0 is the block's own stream. */
struct zc_launch_record {
	uint64_t kernel;  /* zc_kernel_handle of its name */
	uint64_t stream;
	uint32_t grid[3], block[3];
	uint32_t shared;
	uint32_t state;
	uint8_t pad[16];
	uint8_t params[ZC_LAUNCH_PARAMS_MAX];
};

#define ZC_STREAM_TAIL_LAUNCH 3u
#define ZC_STREAM_FIRE_AND_FORGET 4u

/* FNV-1a of the name, never 0. */
static inline uint64_t zc_kernel_handle(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*name)
		h = (h ^ (uint8_t)*name++) * 0x100000001b3ull;
	return h ? h : 1;
}

#endif
