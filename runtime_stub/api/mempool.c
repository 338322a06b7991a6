/* Stream-ordered allocation and memory pools (cuMemAllocAsync, cuMemFreeAsync, cuMemPool*).
 * A pool hands out device memory the API layer allocates (so every check knows it) and
 * keeps what is freed for reuse: a block freed on a stream may serve that stream's next
 * allocation at once, since the stream orders them; another stream may take it once the
 * free has completed (an event recorded at the free), unless the pool's opportunistic reuse
 * is turned off. Above the release threshold, idle blocks go back to the driver at the next
 * synchronisation, as CUDA does, and cuMemPoolTrimTo gives them back on demand. Memory not
 * from a pool is freed in stream order too, as on an H200. */
#include <string.h>

#include "api.h"

struct block {
	struct block *next;
	void *ptr;
	size_t size;
	struct zc_stream *stream;      /* freed on: reusable there at once */
	struct zc_drv_event *freed;    /* recorded at the free */
};

struct zc_mempool {
	struct zc_mempool *next;  /* in pools */
	CUdevice device;
	bool destroyed;           /* by cuMemPoolDestroy: ends with its last block */
	struct block *live, *idle;
	size_t reserved, reserved_high, used, used_high;
	uint64_t release_threshold;
	int follow_event_dependencies, allow_opportunistic, allow_internal_dependencies;
};

enum { MAX_DEVICES = 64 };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct zc_mempool *pools;
static struct zc_mempool *default_pool[MAX_DEVICES], *current_pool[MAX_DEVICES];

static CUresult
new_pool(CUdevice device, struct zc_mempool **out)
{
	struct zc_mempool *p = stub_alloc(sizeof *p);

	if (!p || !zc_handle_add(p, ZC_HANDLE_MEMPOOL)) {
		stub_free(p);
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "memory pool");
	}
	*p = (struct zc_mempool){ .next = pools, .device = device, .allow_opportunistic = 1,
	                          .follow_event_dependencies = 1, .allow_internal_dependencies = 1 };
	pools = p;
	*out = p;
	return CUDA_SUCCESS;
}

/* The device's default pool, made on first use; call with the lock held. */
static CUresult
default_of(CUdevice device, struct zc_mempool **out)
{
	CUresult r = CUDA_SUCCESS;

	if (device < 0 || device >= zc_device_count() || device >= MAX_DEVICES)
		return stub_fail(CUDA_ERROR_INVALID_DEVICE, "device %d", device);
	if (!default_pool[device])
		r = new_pool(device, &default_pool[device]);
	*out = default_pool[device];
	return r;
}

static bool
free_completed(const struct block *b)
{
	return zc_drv->event_query(b->freed) == CUDA_SUCCESS;
}

/* Takes idle blocks whose free completed off p until it holds at most `keep` bytes; the
 * caller gives them back to the driver with give_back, outside the lock. */
static struct block *
take_idle(struct zc_mempool *p, size_t keep)
{
	struct block *taken = NULL;

	for (struct block **link = &p->idle; *link && p->reserved > keep;) {
		struct block *b = *link;
		if (!free_completed(b)) {
			link = &b->next;
			continue;
		}
		*link = b->next;
		p->reserved -= b->size;
		b->next = taken;
		taken = b;
	}
	return taken;
}

static void
give_back(struct block *b)
{
	while (b) {
		struct block *next = b->next;
		zc_drv->event_destroy(b->freed);
		zc_memory_free_device(b->ptr);
		stub_free(b);
		b = next;
	}
}

static void
end_pool(struct zc_mempool *p)
{
	for (struct zc_mempool **link = &pools; *link; link = &(*link)->next) {
		if (*link == p) {
			*link = p->next;
			break;
		}
	}
	zc_handle_remove(p);
	stub_free(p);
}

void
zc_mempool_sync_point(void)
{
	struct block *taken = NULL;

	if (!pools)
		return;
	pthread_mutex_lock(&lock);
	for (struct zc_mempool *p = pools; p; p = p->next) {
		struct block *some = take_idle(p, p->release_threshold);
		while (some) {
			struct block *next = some->next;
			some->next = taken;
			taken = some;
			some = next;
		}
	}
	pthread_mutex_unlock(&lock);
	give_back(taken);
}

/* cuMemFree of pool memory, in use or already freed to the pool: it leaves the pool. */
void
zc_mempool_forget(void *ptr)
{
	if (!pools)
		return;
	pthread_mutex_lock(&lock);
	for (struct zc_mempool *p = pools; p; p = p->next) {
		for (int idle = 0; idle < 2; idle++) {
			for (struct block **link = idle ? &p->idle : &p->live; *link; link = &(*link)->next) {
				struct block *b = *link;
				if (b->ptr != ptr)
					continue;
				*link = b->next;
				if (!idle)
					p->used -= b->size;
				p->reserved -= b->size;
				zc_drv->event_destroy(b->freed);
				stub_free(b);
				if (p->destroyed && !p->live)
					end_pool(p);
				pthread_mutex_unlock(&lock);
				return;
			}
		}
	}
	pthread_mutex_unlock(&lock);
}

/* A reusable idle block of at least `size` bytes and at most twice that, for stream s. */
static struct block *
reuse(struct zc_mempool *p, size_t size, const struct zc_stream *s)
{
	for (struct block **link = &p->idle; *link; link = &(*link)->next) {
		struct block *b = *link;
		if (b->size < size || b->size / 2 > size)
			continue;
		if (b->stream == s || (p->allow_opportunistic && free_completed(b))) {
			*link = b->next;
			return b;
		}
	}
	return NULL;
}

static CUresult
alloc_from(struct zc_mempool *p, size_t bytes, struct zc_stream *s, CUdeviceptr *dptr)
{
	size_t size = (bytes + 255) & ~(size_t)255;
	struct block *b;
	CUresult r = CUDA_SUCCESS;

	pthread_mutex_lock(&lock);
	if (p->destroyed) {
		pthread_mutex_unlock(&lock);
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "memory pool %p was destroyed", (void *)p);
	}
	b = reuse(p, size, s);
	pthread_mutex_unlock(&lock);
	if (!b) {
		if (!(b = stub_alloc(sizeof *b)))
			return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "pool block");
		r = zc_drv->event_create(CU_EVENT_DISABLE_TIMING, &b->freed);
		if (r == CUDA_SUCCESS && (r = zc_memory_alloc_device(&b->ptr, size)) != CUDA_SUCCESS)
			zc_drv->event_destroy(b->freed);
		if (r != CUDA_SUCCESS) {
			stub_free(b);
			return r;
		}
		b->size = size;
		pthread_mutex_lock(&lock);
		p->reserved += size;
		if (p->reserved > p->reserved_high)
			p->reserved_high = p->reserved;
	} else {
		pthread_mutex_lock(&lock);
	}
	b->stream = NULL;
	b->next = p->live;
	p->live = b;
	p->used += b->size;
	if (p->used > p->used_high)
		p->used_high = p->used;
	pthread_mutex_unlock(&lock);
	*dptr = (CUdeviceptr)(uintptr_t)b->ptr;
	return CUDA_SUCCESS;
}

static CUresult
live_pool(CUmemoryPool p)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(p, ZC_HANDLE_MEMPOOL))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%p is not a live memory pool", (void *)p);
	return r;
}

static CUresult
alloc_async(CUdeviceptr *dptr, size_t bytes, CUmemoryPool pool, CUstream handle, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && (!dptr || !bytes))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL dptr or 0 bytes");
	if (r == CUDA_SUCCESS && s->capture)
		return pool ? stub_fail(CUDA_ERROR_NOT_SUPPORTED,
		                        "capturing an allocation from a created pool")
		            : zc_capture_alloc(s, bytes, dptr);
	if (r == CUDA_SUCCESS && pool && (r = live_pool(pool)) == CUDA_SUCCESS &&
	    pool->device != s->ctx->device)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "pool of device %d, stream of device %d",
		              pool->device, s->ctx->device);
	if (r == CUDA_SUCCESS && !pool) {
		pthread_mutex_lock(&lock);
		r = default_of(s->ctx->device, &pool);
		if (r == CUDA_SUCCESS && current_pool[s->ctx->device])
			pool = current_pool[s->ctx->device];
		pthread_mutex_unlock(&lock);
	}
	return r == CUDA_SUCCESS ? alloc_from(pool, bytes, s, dptr) : r;
}

ZC_EXPORT CUresult
cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	CUresult r = alloc_async(dptr, bytesize, NULL, hStream, false);

	return TRACE(r, "%zu, %p -> 0x%llx", bytesize, (void *)hStream,
	             r == CUDA_SUCCESS ? (unsigned long long)*dptr : 0ull);
}

ZC_EXPORT CUresult
cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	CUresult r = alloc_async(dptr, bytesize, NULL, hStream, true);

	return TRACE(r, "%zu, %p -> 0x%llx", bytesize, (void *)hStream,
	             r == CUDA_SUCCESS ? (unsigned long long)*dptr : 0ull);
}

ZC_EXPORT CUresult
cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
	CUresult r = pool ? alloc_async(dptr, bytesize, pool, hStream, false)
	                  : stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pool");

	return TRACE(r, "%zu, %p, %p -> 0x%llx", bytesize, (void *)pool, (void *)hStream,
	             r == CUDA_SUCCESS ? (unsigned long long)*dptr : 0ull);
}

ZC_EXPORT CUresult
cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                             CUstream hStream)
{
	CUresult r = pool ? alloc_async(dptr, bytesize, pool, hStream, true)
	                  : stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pool");

	return TRACE(r, "%zu, %p, %p -> 0x%llx", bytesize, (void *)pool, (void *)hStream,
	             r == CUDA_SUCCESS ? (unsigned long long)*dptr : 0ull);
}

static CUresult
free_async(CUdeviceptr dptr, CUstream handle, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && s->capture)
		return zc_capture_free(s, dptr);
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&lock);
	for (struct zc_mempool *p = pools; p; p = p->next) {
		for (struct block **link = &p->live; *link; link = &(*link)->next) {
			struct block *b = *link;
			if ((uintptr_t)b->ptr != dptr)
				continue;
			if ((r = zc_stream_begin(s)) == CUDA_SUCCESS)
				r = zc_drv->event_record(b->freed, s->drv);
			if (r == CUDA_SUCCESS) {
				*link = b->next;
				p->used -= b->size;
				b->stream = s;
				b->next = p->idle;
				p->idle = b;
			}
			pthread_mutex_unlock(&lock);
			return r;
		}
		for (struct block *b = p->idle; b; b = b->next) {
			if ((uintptr_t)b->ptr == dptr) {
				pthread_mutex_unlock(&lock);
				return stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx was freed already",
				                 (unsigned long long)dptr);
			}
		}
	}
	pthread_mutex_unlock(&lock);
	if (zc_graph_memory_free(dptr, s, &r))
		return r;
	/* Memory cudaMalloc gave is freed in stream order too: here, once the stream's work is
	 * done. */
	if ((r = zc_memory_check(dptr, 1)) == CUDA_SUCCESS && (r = zc_synchronize_stream(s->drv)) == CUDA_SUCCESS)
		r = zc_memory_free_device((void *)(uintptr_t)dptr);
	return r;
}

ZC_EXPORT CUresult
cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
	return TRACE(free_async(dptr, hStream, false), "0x%llx, %p", (unsigned long long)dptr,
	             (void *)hStream);
}

ZC_EXPORT CUresult
cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream)
{
	return TRACE(free_async(dptr, hStream, true), "0x%llx, %p", (unsigned long long)dptr,
	             (void *)hStream);
}

/* ---- pools -------------------------------------------------------------------- */

static CUresult
check_location(const CUmemLocation *l)
{
	if (l->type != CU_MEM_LOCATION_TYPE_DEVICE)
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "pools of memory other than a device's (type %d)",
		                 l->type);
	if (l->id < 0 || l->id >= zc_device_count() || l->id >= MAX_DEVICES)
		return stub_fail(CUDA_ERROR_INVALID_DEVICE, "device %d", l->id);
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && (!pool || !poolProps))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pool or properties");
	if (r == CUDA_SUCCESS && poolProps->allocType != CU_MEM_ALLOCATION_TYPE_PINNED)
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "pools of allocation type %d", poolProps->allocType);
	if (r == CUDA_SUCCESS && poolProps->handleTypes)
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "pools exported to other processes (handle types 0x%x)",
		              poolProps->handleTypes);
	if (r == CUDA_SUCCESS)
		r = check_location(&poolProps->location);
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&lock);
		r = new_pool(poolProps->location.id, pool);
		pthread_mutex_unlock(&lock);
	}
	return TRACE(r, "-> %p", r == CUDA_SUCCESS ? (void *)*pool : NULL);
}

ZC_EXPORT CUresult
cuMemPoolDestroy(CUmemoryPool pool)
{
	CUresult r = live_pool(pool);
	struct block *taken = NULL;

	pthread_mutex_lock(&lock);
	if (r == CUDA_SUCCESS && pool == default_pool[pool->device])
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "the default pool of device %d cannot be destroyed",
		              pool->device);
	if (r == CUDA_SUCCESS) {
		if (current_pool[pool->device] == pool)
			current_pool[pool->device] = NULL;
		pool->destroyed = true;
		/* The frees still pending complete before the blocks go back. */
		for (struct block *b = pool->idle; b; b = b->next)
			zc_synchronize_event(b->freed);
		taken = take_idle(pool, 0);
		if (!pool->live)
			end_pool(pool);
	}
	pthread_mutex_unlock(&lock);
	give_back(taken);
	return TRACE(r, "%p", (void *)pool);
}

ZC_EXPORT CUresult
cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
	CUresult r = live_pool(pool);
	struct block *taken = NULL;

	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&lock);
		taken = take_idle(pool, minBytesToKeep);
		pthread_mutex_unlock(&lock);
		give_back(taken);
	}
	return TRACE(r, "%p, %zu", (void *)pool, minBytesToKeep);
}

static CUresult
pool_attribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value, bool set)
{
	CUresult r = live_pool(pool);
	int *flag = NULL;
	size_t *high = NULL, counter = 0;

	if (r == CUDA_SUCCESS && !value)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL value");
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&lock);
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES: flag = &pool->follow_event_dependencies; break;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC: flag = &pool->allow_opportunistic; break;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES: flag = &pool->allow_internal_dependencies; break;
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		if (set)
			pool->release_threshold = *(const uint64_t *)value;
		else
			*(uint64_t *)value = pool->release_threshold;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: counter = pool->reserved; break;
	case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: counter = pool->used; break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: high = &pool->reserved_high; break;
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH: high = &pool->used_high; break;
	default:
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "pool attribute %d", (int)attr);
	}
	if (flag && set)
		*flag = *(const int *)value != 0;
	else if (flag)
		*(int *)value = *flag;
	if (attr == CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT || attr == CU_MEMPOOL_ATTR_USED_MEM_CURRENT) {
		if (set)
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "pool attribute %d cannot be set", (int)attr);
		else
			*(uint64_t *)value = counter;
	}
	/* A high-water mark can only be reset, to the current value (CUDA: set it to 0). */
	if (high && set && *(const uint64_t *)value != 0)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a high-water mark is only reset, with 0");
	else if (high && set)
		*high = high == &pool->reserved_high ? pool->reserved : pool->used;
	else if (high)
		*(uint64_t *)value = *high;
	pthread_mutex_unlock(&lock);
	return r;
}

ZC_EXPORT CUresult
cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	return TRACE(pool_attribute(pool, attr, value, true), "%p, %d", (void *)pool, (int)attr);
}

ZC_EXPORT CUresult
cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	return TRACE(pool_attribute(pool, attr, value, false), "%p, %d", (void *)pool, (int)attr);
}

/* One device: its own memory is the only access there is to give. */
ZC_EXPORT CUresult
cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count)
{
	CUresult r = live_pool(pool);

	if (r == CUDA_SUCCESS && count && !map)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL access map");
	for (size_t i = 0; r == CUDA_SUCCESS && i < count; i++) {
		r = check_location(&map[i].location);
		if (r == CUDA_SUCCESS && map[i].location.id == pool->device &&
		    map[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a pool's own device keeps read-write access");
		else if (r == CUDA_SUCCESS && map[i].location.id != pool->device)
			r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "peer access to pool memory");
	}
	return TRACE(r, "%p, %zu", (void *)pool, count);
}

ZC_EXPORT CUresult
cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location)
{
	CUresult r = live_pool(memPool);

	if (r == CUDA_SUCCESS && (!flags || !location))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL flags or location");
	if (r == CUDA_SUCCESS)
		r = check_location(location);
	if (r == CUDA_SUCCESS)
		*flags = location->id == memPool->device ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
		                                         : CU_MEM_ACCESS_FLAGS_PROT_NONE;
	return TRACE(r, "%p", (void *)memPool);
}

ZC_EXPORT CUresult
cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !pool_out)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pool_out");
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&lock);
		r = default_of(dev, pool_out);
		pthread_mutex_unlock(&lock);
	}
	return TRACE(r, "%d -> %p", dev, r == CUDA_SUCCESS ? (void *)*pool_out : NULL);
}

ZC_EXPORT CUresult
cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !pool)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pool");
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&lock);
		r = default_of(dev, pool);
		if (r == CUDA_SUCCESS && current_pool[dev])
			*pool = current_pool[dev];
		pthread_mutex_unlock(&lock);
	}
	return TRACE(r, "%d -> %p", dev, r == CUDA_SUCCESS ? (void *)*pool : NULL);
}

ZC_EXPORT CUresult
cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
	CUresult r = live_pool(pool);

	if (r == CUDA_SUCCESS && pool->device != dev)
		r = stub_fail(CUDA_ERROR_INVALID_DEVICE, "a pool of device %d for device %d", pool->device, dev);
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&lock);
		current_pool[dev] = pool;
		pthread_mutex_unlock(&lock);
	}
	return TRACE(r, "%d, %p", dev, (void *)pool);
}

/* CUDA 13's forms, by location and allocation type: a device's pinned memory only. */
static CUresult
device_of_location(const CUmemLocation *location, int type, CUdevice *device)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !location)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL location");
	if (r == CUDA_SUCCESS && type != CU_MEM_ALLOCATION_TYPE_PINNED)
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "pools of allocation type %d", type);
	if (r == CUDA_SUCCESS)
		r = check_location(location);
	if (r == CUDA_SUCCESS)
		*device = location->id;
	return r;
}

ZC_EXPORT CUresult
cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location, int type)
{
	CUdevice device;
	CUresult r = device_of_location(location, type, &device);

	return r == CUDA_SUCCESS ? cuDeviceGetDefaultMemPool(pool_out, device) : TRACE(r, "%d", type);
}

ZC_EXPORT CUresult
cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location, int type)
{
	CUdevice device;
	CUresult r = device_of_location(location, type, &device);

	return r == CUDA_SUCCESS ? cuDeviceGetMemPool(pool, device) : TRACE(r, "%d", type);
}

ZC_EXPORT CUresult
cuMemSetMemPool(CUmemLocation *location, int type, CUmemoryPool pool)
{
	CUdevice device;
	CUresult r = device_of_location(location, type, &device);

	return r == CUDA_SUCCESS ? cuDeviceSetMemPool(device, pool) : TRACE(r, "%d", type);
}
