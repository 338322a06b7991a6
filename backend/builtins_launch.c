/* Launches from the device (abi/device_launch.h), the same C on every target: a launch
 * is a record in the stub's queue, reserved by the parameter-buffer call and published by
 * the launch call; the stub runs the published ones after the grid. */
#include <stddef.h>

#include "builtins.h"
#include "device_launch.h"

extern uint64_t zluda_convert_device_launches; /* defined by the module that launches */

uint64_t __zc_cdp_parameter_buffer(uint64_t kernel, uint32_t grid_x, uint32_t grid_y,
                                   uint32_t grid_z, uint32_t block_x, uint32_t block_y,
                                   uint32_t block_z, uint32_t shared)
{
	struct zc_launch_queue *q = (struct zc_launch_queue *)zluda_convert_device_launches;
	struct zc_launch_record *r;
	uint32_t at;

	if (!q)
		return 0;
	at = __atomic_fetch_add(&q->next, 1, __ATOMIC_RELAXED);
	if (at >= q->capacity)
		return 0; /* as CUDA's full pending-launch buffer: the launch is not made */
	r = (struct zc_launch_record *)(q + 1) + at;
	r->kernel = kernel;
	r->grid[0] = grid_x;
	r->grid[1] = grid_y;
	r->grid[2] = grid_z;
	r->block[0] = block_x;
	r->block[1] = block_y;
	r->block[2] = block_z;
	r->shared = shared;
	r->state = ZC_LAUNCH_RESERVED;
	return (uint64_t)(uintptr_t)r->params;
}

uint32_t __zc_cdp_launch(uint64_t params, uint64_t stream)
{
	struct zc_launch_record *r;

	if (!params)
		return 0; /* no buffer, so nothing to launch: nvcc's code never asks */
	r = (struct zc_launch_record *)(uintptr_t)(params - offsetof(struct zc_launch_record, params));
	r->stream = stream;
	__atomic_store_n(&r->state, ZC_LAUNCH_LAUNCHED, __ATOMIC_RELEASE);
	return 0;
}

/* Every created stream is one handle: the stub orders launches into it as into the block's
 * own stream. */
uint32_t __zc_cdp_stream_create(uint64_t stream, uint32_t flags)
{
	(void)flags;
	*(uint64_t *)(uintptr_t)stream = 0x100;
	return 0;
}
