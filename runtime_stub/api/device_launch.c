/* Kernels that launch kernels (abi/device_launch.h): what follows a grid that made some
 * launches in its device's queue (launch_queue.c).
 *
 * A grid's launches run after it has ended, on its stream, one after another: first those
 * into the block's stream, a created stream or fire-and-forget, in the order they were
 * made, each followed by its own launches; then its tail launches, in their order. CUDA
 * never lets a parent wait for a child (CDP2 has no device-side synchronisation) and does
 * not promise that a child starts before its parent ends, so this is one of the orders it
 * allows; a tail launch runs after its parent and all the parent's other work, as it says.
 * A child's records are given back once it and its own launches have run, so the queue
 * holds what is pending at once, as cudaLimitDevRuntimePendingLaunchCount counts it. */
#include <stdatomic.h>
#include <string.h>

#include "api.h"
#include "device_launch.h"

/* CUDA's deepest nesting: launches from grids deeper than this are not made. */
enum { MAX_DEPTH = 24 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t
queued(struct zc_launch_queue *q)
{
	return atomic_load_explicit((_Atomic uint32_t *)&q->next, memory_order_acquire);
}

static void
give_back(struct zc_launch_queue *q, uint32_t next)
{
	atomic_store_explicit((_Atomic uint32_t *)&q->next, next, memory_order_release);
}

/* The launches the grid that ran (parent) made, from record `first` on. */
static CUresult
follow(const struct zc_device_launcher *parent, struct zc_launch_queue *q, uint32_t first,
       int depth)
{
	uint32_t end = queued(q);
	CUresult r = CUDA_SUCCESS;

	if (end > q->capacity) {
		zc_trace_line("%s: %u launches from the device past cudaLimitDevRuntimePendingLaunchCount "
		              "(%u) were not made", parent->function->name, end - q->capacity,
		              q->capacity);
		end = q->capacity;
	}
	if (end > first && depth == MAX_DEPTH) {
		zc_trace_line("%s: %u launches from the device past the deepest nesting (%d) were "
		              "not made", parent->function->name, end - first, MAX_DEPTH);
		return CUDA_SUCCESS;
	}
	for (int tail = 0; tail < 2 && r == CUDA_SUCCESS; tail++)
		for (uint32_t i = first; i < end && r == CUDA_SUCCESS; i++) {
			struct zc_launch_record *rec = (struct zc_launch_record *)(q + 1) + i;
			struct zc_device_launcher child = *parent;

			if (atomic_load_explicit((_Atomic uint32_t *)&rec->state, memory_order_acquire) !=
			        ZC_LAUNCH_LAUNCHED ||
			    (rec->stream == ZC_STREAM_TAIL_LAUNCH) != tail)
				continue;
			r = zc_library_kernel(parent->function->library, rec->kernel, &child.function);
			if (r != CUDA_SUCCESS)
				break;
			memcpy(child.grid, rec->grid, sizeof child.grid);
			memcpy(child.block, rec->block, sizeof child.block);
			child.shared = rec->shared;
			child.params = child.extra = NULL;
			child.buffer = rec->params;
			child.buffer_size = ZC_LAUNCH_PARAMS_MAX;
			r = parent->launch(&child);
			if (r == CUDA_SUCCESS)
				r = follow(&child, q, end, depth + 1);
			give_back(q, end);
		}
	return r;
}

CUresult
zc_device_launches_run(const struct zc_device_launcher *grid)
{
	struct zc_launch_queue *q = grid->function->library->launches;
	uint32_t first;
	CUresult r;

	pthread_mutex_lock(&lock);
	first = queued(q);
	r = grid->launch(grid);
	if (r == CUDA_SUCCESS)
		r = follow(grid, q, first, 1);
	give_back(q, first);
	pthread_mutex_unlock(&lock);
	return r;
}
