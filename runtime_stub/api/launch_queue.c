/* The queue kernels launch kernels into (abi/device_launch.h): one per device for the
 * process, in mapped host memory, made when a code object first needs it; device_launch.c
 * runs what a grid queued there. */
#include <string.h>

#include "api.h"
#include "device_launch.h"

void *
zc_device_launch_queue(int ordinal, size_t records)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct zc_launch_queue *queues[64];
	size_t bytes = sizeof(struct zc_launch_queue) + records * sizeof(struct zc_launch_record);
	void *p = NULL;

	if (ordinal < 0 || ordinal >= 64 || records == 0 || records > UINT32_MAX / 2)
		return NULL;
	pthread_mutex_lock(&lock);
	if (!queues[ordinal] && zc_drv->alloc(ordinal, ZC_MEM_HOST, bytes, &p) == CUDA_SUCCESS) {
		memset(p, 0, sizeof(struct zc_launch_queue));
		queues[ordinal] = p;
		queues[ordinal]->capacity = (uint32_t)records;
	}
	p = queues[ordinal];
	pthread_mutex_unlock(&lock);
	return p;
}
