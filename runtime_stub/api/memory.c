/* Memory: every allocation the stub hands out, kept in one table sorted by address, so
 * pointers can be checked and described (cuPointerGetAttribute, cuMemGetAddressRange). */
#include <string.h>

#include "api.h"

struct allocation {
	uintptr_t base;
	size_t size;
	size_t slack;          /* bytes the driver gave before base (and after base + size) */
	enum zc_mem_kind kind;
	struct zc_context *ctx;
	unsigned flags;        /* cuMemHostAlloc's flags, for cuMemHostGetFlags */
	bool registered;       /* the program's memory, cuMemHostRegister'ed (kind ZC_MEM_HOST) */
	unsigned long long id; /* CU_POINTER_ATTRIBUTE_BUFFER_ID: unique in the process */
	const void *owner;     /* the library of a module variable; NULL for allocations */
	const void *range;     /* a reservation: its mappings that touch are one address range */
	/* Managed memory: cuMemAdvise's and cuMemPrefetchAsync's hints, for
	 * cuMemRangeGetAttribute. CUDA keeps them per page; here per allocation. Devices as
	 * CUDA numbers them: CU_DEVICE_CPU (-1), CU_DEVICE_INVALID (-2) for none. */
	bool read_mostly;
	int preferred, last_prefetch;
	uint64_t accessed_by;  /* bit 0: the CPU; bit 1 + d: device d */
};

enum { DEVICE_CPU = -1, DEVICE_INVALID = -2 };

static struct {
	pthread_mutex_t lock;
	struct allocation *items;
	size_t count, capacity;
	unsigned long long next_id;
} table = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The index of the first allocation whose base is above addr. Caller holds the lock. */
static size_t
upper_bound(uintptr_t addr)
{
	size_t lo = 0, hi = table.count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (table.items[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A copy of the allocation that holds addr; false when there is none. */
static bool
find(uintptr_t addr, struct allocation *out)
{
	bool found = false;

	pthread_mutex_lock(&table.lock);
	size_t i = upper_bound(addr);
	if (i > 0 && addr - table.items[i - 1].base < table.items[i - 1].size) {
		*out = table.items[i - 1];
		found = true;
	}
	pthread_mutex_unlock(&table.lock);
	return found;
}

static bool
insert(struct allocation a)
{
	bool ok = true;

	pthread_mutex_lock(&table.lock);
	if (table.count == table.capacity) {
		size_t capacity = table.capacity ? table.capacity * 2 : 64;
		struct allocation *items = stub_alloc(capacity * sizeof *items);
		if (items) {
			if (table.count)
				memcpy(items, table.items, table.count * sizeof *items);
			stub_free(table.items);
			table.items = items;
			table.capacity = capacity;
		}
		ok = items != NULL;
	}
	if (ok) {
		size_t i = upper_bound(a.base);
		memmove(&table.items[i + 1], &table.items[i], (table.count - i) * sizeof a);
		a.id = ++table.next_id;
		table.items[i] = a;
		table.count++;
	}
	pthread_mutex_unlock(&table.lock);
	return ok;
}

/* Whether any allocation has a byte in [base, base + bytes). */
static bool
overlaps(uintptr_t base, size_t bytes)
{
	struct allocation a;
	bool found = find(base, &a);

	pthread_mutex_lock(&table.lock);
	size_t i = upper_bound(base);
	found |= i < table.count && table.items[i].base - base < bytes;
	pthread_mutex_unlock(&table.lock);
	return found;
}

/* Takes the allocation starting exactly at base, of the given kind and registered or not,
 * out of the table. */
static bool
take(uintptr_t base, enum zc_mem_kind kind, bool registered, struct allocation *out)
{
	bool found = false;

	pthread_mutex_lock(&table.lock);
	size_t i = upper_bound(base);
	if (i > 0 && table.items[i - 1].base == base && table.items[i - 1].kind == kind &&
	    table.items[i - 1].registered == registered && !table.items[i - 1].owner) {
		*out = table.items[i - 1];
		memmove(&table.items[i - 1], &table.items[i], (table.count - i) * sizeof *out);
		table.count--;
		found = true;
	}
	pthread_mutex_unlock(&table.lock);
	return found;
}

bool
zc_memory_pageable(const void *p)
{
	struct allocation a;

	return !find((uintptr_t)p, &a);
}

/* Whether [ptr, ptr + bytes) lies in one allocation, or in mappings of one reservation that
 * follow each other with no hole. Caller holds the lock. */
static bool
covered(uintptr_t ptr, size_t bytes)
{
	size_t i = upper_bound(ptr);

	if (i == 0 || ptr - table.items[i - 1].base >= table.items[i - 1].size)
		return false;
	if (bytes > UINTPTR_MAX - ptr)
		return false;
	for (const struct allocation *a = &table.items[i - 1];; a++) {
		if (ptr + bytes - a->base <= a->size)
			return true;
		const struct allocation *next = a + 1;
		if (next == table.items + table.count || !a->range || next->range != a->range ||
		    next->base != a->base + a->size)
			return false;
	}
}

CUresult
zc_memory_check(CUdeviceptr ptr, size_t bytes)
{
	pthread_mutex_lock(&table.lock);
	bool inside = covered((uintptr_t)ptr, bytes);
	pthread_mutex_unlock(&table.lock);
	if (!inside)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx + %zu is not inside an allocation",
		               (unsigned long long)ptr, bytes);
	return CUDA_SUCCESS;
}

CUresult
zc_memory_add_global(const void *owner, const void *range, void *base, size_t bytes)
{
	struct allocation a;

	if (find((uintptr_t)base, &a) && a.base == (uintptr_t)base && a.owner == owner)
		return CUDA_SUCCESS;
	if (!insert((struct allocation){ .base = (uintptr_t)base, .size = bytes ? bytes : 1,
	                                 .kind = ZC_MEM_DEVICE, .owner = owner, .range = range }))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "allocation table");
	return CUDA_SUCCESS;
}

void
zc_memory_remove_globals(const void *owner)
{
	pthread_mutex_lock(&table.lock);
	size_t kept = 0;
	for (size_t i = 0; i < table.count; i++)
		if (table.items[i].owner != owner)
			table.items[kept++] = table.items[i];
	table.count = kept;
	pthread_mutex_unlock(&table.lock);
}

void
zc_memory_release(struct zc_context *ctx)
{
	pthread_mutex_lock(&table.lock);
	size_t kept = 0;
	for (size_t i = 0; i < table.count; i++) {
		struct allocation *a = &table.items[i];
		if (a->ctx == ctx)
			zc_drv->free(a->kind, (void *)(a->base - a->slack));
		else
			table.items[kept++] = *a;
	}
	table.count = kept;
	pthread_mutex_unlock(&table.lock);
}

/* Device buffers of LARGE_BUFFER bytes or more get SLACK bytes of the driver's memory before
 * and after them. On NVIDIA's GPUs a read a little before a buffer's start or past its end
 * lands in mapped memory (the neighbouring buffer, the rest of its 2 MiB page), and real
 * programs make such reads and throw the values away (Rodinia's srad fetches the row above
 * and below its image); elsewhere, with a buffer mapped on its own, they would fault. A
 * row of 16,384 floats fits the slack. */
enum { LARGE_BUFFER = 1 << 20, SLACK = 64 << 10 };

/* dest is where the caller will store the pointer: NULL there is the caller's error. */
CUresult
zc_memory_place(enum zc_mem_kind kind, size_t bytes, unsigned flags, const void *dest, void **ptr)
{
	struct zc_context *ctx;
	void *p;
	CUresult r = zc_context_current(&ctx);
	size_t slack = kind == ZC_MEM_DEVICE && bytes >= LARGE_BUFFER &&
	               bytes <= SIZE_MAX - 2 * SLACK ? SLACK : 0;

	if (r != CUDA_SUCCESS)
		return r;
	if (!dest || bytes == 0)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pointer or 0 bytes");
	if ((r = zc_drv->alloc(ctx->device, kind, bytes + 2 * slack, &p)) != CUDA_SUCCESS)
		return r;
	if (!insert((struct allocation){ .base = (uintptr_t)p + slack, .size = bytes, .slack = slack,
	                                 .kind = kind, .ctx = ctx, .flags = flags,
	                                 .preferred = DEVICE_INVALID, .last_prefetch = DEVICE_INVALID })) {
		zc_drv->free(kind, p);
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "allocation table");
	}
	*ptr = (char *)p + slack;
	return CUDA_SUCCESS;
}

CUresult
zc_memory_take(uintptr_t base, enum zc_mem_kind kind, struct zc_taken *out)
{
	struct allocation a;
	CUresult r = zc_initialized();

	if (r != CUDA_SUCCESS)
		return r;
	if (!take(base, kind, false, &a))
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is not an allocation of this kind",
		               (unsigned long long)base);
	*out = (struct zc_taken){ .base = base, .slack = a.slack, .kind = kind, .ctx = a.ctx };
	return CUDA_SUCCESS;
}

CUresult
zc_memory_drop(const struct zc_taken *t)
{
	/* Work queued before the free may still use the memory. */
	zc_context_sync(t->ctx);
	return zc_drv->free(t->kind, (void *)(t->base - t->slack));
}

bool
zc_memory_managed(CUdeviceptr ptr)
{
	struct allocation a;

	return find((uintptr_t)ptr, &a) && a.kind == ZC_MEM_MANAGED;
}

CUresult
zc_memory_alloc_device(void **ptr, size_t bytes)
{
	return zc_memory_place(ZC_MEM_DEVICE, bytes, 0, ptr, ptr);
}

CUresult
zc_memory_free_device(void *ptr)
{
	struct zc_taken t;
	CUresult r = zc_memory_take((uintptr_t)ptr, ZC_MEM_DEVICE, &t);

	return r == CUDA_SUCCESS ? zc_memory_drop(&t) : r;
}

ZC_EXPORT CUresult
cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
	struct zc_context *ctx;
	CUresult r = zc_context_current(&ctx);

	if (r == CUDA_SUCCESS && (!p || !bytesize || (Flags & ~(unsigned)CU_MEMHOSTREGISTER_FLAGS_MASK)))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pointer, 0 bytes or flags 0x%x", Flags);
	if (r == CUDA_SUCCESS && (Flags & CU_MEMHOSTREGISTER_IOMEMORY))
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "registering I/O memory");
	if (r == CUDA_SUCCESS && ((uintptr_t)p > UINTPTR_MAX - bytesize || overlaps((uintptr_t)p, bytesize)))
		r = stub_fail(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
		              "%p + %zu overlaps memory the driver already knows", p, bytesize);
	if (r == CUDA_SUCCESS)
		r = zc_drv->host_register(ctx->device, p, bytesize);
	if (r == CUDA_SUCCESS &&
	    !insert((struct allocation){ .base = (uintptr_t)p, .size = bytesize, .kind = ZC_MEM_HOST,
	                                 .ctx = ctx, .flags = Flags, .registered = true })) {
		zc_drv->host_unregister(p);
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "allocation table");
	}
	return TRACE(r, "%p, %zu, 0x%x", p, bytesize, Flags);
}

ZC_EXPORT CUresult
cuMemHostUnregister(void *p)
{
	struct allocation a;
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !take((uintptr_t)p, ZC_MEM_HOST, true, &a))
		r = stub_fail(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "%p does not start a registered range", p);
	if (r == CUDA_SUCCESS) {
		zc_context_sync(a.ctx); /* work queued before may still use it */
		r = zc_drv->host_unregister(p);
	}
	return TRACE(r, "%p", p);
}

/* Prefetches and advice are hints about where managed memory should live: the range must be
 * managed memory, and then there is nothing to do, as every device of these drivers reads
 * it where it is. */
/* The managed allocation [ptr, ptr + count) lies in, under the lock; NULL, with the lock
 * released and the error made, when there is none. */
static struct allocation *
lock_managed(CUdeviceptr ptr, size_t count, CUresult *r)
{
	if ((*r = zc_initialized()) != CUDA_SUCCESS)
		return NULL;
	pthread_mutex_lock(&table.lock);
	size_t i = upper_bound((uintptr_t)ptr);
	struct allocation *a = i > 0 ? &table.items[i - 1] : NULL;
	if (a && a->kind == ZC_MEM_MANAGED && (uintptr_t)ptr - a->base < a->size &&
	    count <= a->size - ((uintptr_t)ptr - a->base))
		return a;
	pthread_mutex_unlock(&table.lock);
	*r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx + %zu is not inside managed memory",
	               (unsigned long long)ptr, count);
	return NULL;
}

/* A CUmemLocation as a device number; false for a kind hints do not name. */
static bool
location_device(CUmemLocation l, int *device)
{
	if (l.type == CU_MEM_LOCATION_TYPE_HOST)
		*device = DEVICE_CPU;
	else if (l.type == CU_MEM_LOCATION_TYPE_DEVICE && l.id >= 0 && l.id < zc_device_count())
		*device = l.id;
	else
		return false;
	return true;
}

static bool
hint_device(int device)
{
	return device == DEVICE_CPU || (device >= 0 && device < zc_device_count() && device < 63);
}

static CUresult
prefetch(CUdeviceptr ptr, size_t count, int device, unsigned flags, CUstream h, bool per_thread)
{
	struct zc_stream *stream;
	CUresult r = flags ? stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags)
	             : !hint_device(device) ? stub_fail(CUDA_ERROR_INVALID_DEVICE, "device %d", device)
	                                    : zc_stream_resolve(h, per_thread, &stream);
	struct allocation *a = r == CUDA_SUCCESS ? lock_managed(ptr, count, &r) : NULL;

	if (a) {
		a->last_prefetch = device;
		pthread_mutex_unlock(&table.lock);
	}
	return r;
}

enum {
	CU_MEM_ADVISE_SET_READ_MOSTLY = 1, CU_MEM_ADVISE_UNSET_READ_MOSTLY,
	CU_MEM_ADVISE_SET_PREFERRED_LOCATION, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
	CU_MEM_ADVISE_SET_ACCESSED_BY, CU_MEM_ADVISE_UNSET_ACCESSED_BY,
};

static CUresult
advise(CUdeviceptr ptr, size_t count, int advice, int device)
{
	CUresult r = advice < CU_MEM_ADVISE_SET_READ_MOSTLY || advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY
	             ? stub_fail(CUDA_ERROR_INVALID_VALUE, "advice %d", advice)
	             : advice > CU_MEM_ADVISE_UNSET_READ_MOSTLY && !hint_device(device)
	             ? stub_fail(CUDA_ERROR_INVALID_DEVICE, "device %d", device) : CUDA_SUCCESS;
	struct allocation *a = r == CUDA_SUCCESS ? lock_managed(ptr, count, &r) : NULL;

	if (!a)
		return r;
	uint64_t bit = (uint64_t)1 << (device + 1);
	switch (advice) {
	case CU_MEM_ADVISE_SET_READ_MOSTLY: a->read_mostly = true; break;
	case CU_MEM_ADVISE_UNSET_READ_MOSTLY: a->read_mostly = false; break;
	case CU_MEM_ADVISE_SET_PREFERRED_LOCATION: a->preferred = device; break;
	case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION: a->preferred = DEVICE_INVALID; break;
	case CU_MEM_ADVISE_SET_ACCESSED_BY: a->accessed_by |= bit; break;
	case CU_MEM_ADVISE_UNSET_ACCESSED_BY: a->accessed_by &= ~bit; break;
	}
	pthread_mutex_unlock(&table.lock);
	return CUDA_SUCCESS;
}

#define PREFETCH(name, per_thread)                                                           \
	ZC_EXPORT CUresult name(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream) \
	{                                                                                        \
		return TRACE(prefetch(devPtr, count, dstDevice, 0, hStream, per_thread),             \
		             "0x%llx, %zu, %d, %p", (unsigned long long)devPtr, count, dstDevice,    \
		             (void *)hStream);                                                       \
	}
PREFETCH(cuMemPrefetchAsync, false)
PREFETCH(cuMemPrefetchAsync_ptsz, true)
#undef PREFETCH

static CUresult
prefetch_to(CUdeviceptr ptr, size_t count, CUmemLocation location, unsigned flags, CUstream h,
            bool per_thread)
{
	int device = DEVICE_INVALID;

	return location_device(location, &device)
	       ? prefetch(ptr, count, device, flags, h, per_thread)
	       : stub_fail(CUDA_ERROR_INVALID_VALUE, "location type %d", location.type);
}

#define PREFETCH_V2(name, per_thread)                                                        \
	ZC_EXPORT CUresult name(CUdeviceptr devPtr, size_t count, CUmemLocation location,        \
	                        unsigned int flags, CUstream hStream)                            \
	{                                                                                        \
		return TRACE(prefetch_to(devPtr, count, location, flags, hStream, per_thread),       \
		             "0x%llx, %zu, {%d, %d}, %p", (unsigned long long)devPtr, count,         \
		             location.type, location.id, (void *)hStream);                           \
	}
PREFETCH_V2(cuMemPrefetchAsync_v2, false)
PREFETCH_V2(cuMemPrefetchAsync_v2_ptsz, true)
#undef PREFETCH_V2

ZC_EXPORT CUresult
cuMemAdvise(CUdeviceptr devPtr, size_t count, int advice, CUdevice device)
{
	return TRACE(advise(devPtr, count, advice, device), "0x%llx, %zu, %d, %d",
	             (unsigned long long)devPtr, count, advice, device);
}

ZC_EXPORT CUresult
cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, int advice, CUmemLocation location)
{
	int device = DEVICE_INVALID;
	bool located = location_device(location, &device);
	CUresult r = located || advice <= CU_MEM_ADVISE_UNSET_READ_MOSTLY
	             ? advise(devPtr, count, advice, device)
	             : stub_fail(CUDA_ERROR_INVALID_VALUE, "location type %d", location.type);

	return TRACE(r, "0x%llx, %zu, %d, {%d, %d}", (unsigned long long)devPtr, count, advice,
	             location.type, location.id);
}

enum {
	CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
	CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION = 2,
	CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY = 3,
	CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION = 4,
	CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE = 5,
	CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID = 6,
	CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE = 7,
	CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID = 8,
};

/* A device number as a CUmemLocationType (0: invalid) and an id. */
static int
location_type(int device)
{
	return device == DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : device >= 0 ? CU_MEM_LOCATION_TYPE_DEVICE : 0;
}

static CUresult
range_attribute(void *data, size_t size, int attribute, CUdeviceptr ptr, size_t count)
{
	int *out = data;
	CUresult r = CUDA_SUCCESS;

	if (!data || size < sizeof(int) || size % sizeof(int) ||
	    (attribute != CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY && size != sizeof(int)))
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "attribute %d into %zu bytes", attribute, size);
	struct allocation *a = lock_managed(ptr, count, &r);
	if (!a)
		return r;
	switch (attribute) {
	case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY: *out = a->read_mostly; break;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION: *out = a->preferred; break;
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION: *out = a->last_prefetch; break;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE: *out = location_type(a->preferred); break;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID: *out = a->preferred >= 0 ? a->preferred : DEVICE_INVALID; break;
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE: *out = location_type(a->last_prefetch); break;
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID: *out = a->last_prefetch >= 0 ? a->last_prefetch : DEVICE_INVALID; break;
	case CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: {
		size_t n = 0, room = size / sizeof(int);
		for (int d = DEVICE_CPU; d < 63; d++)
			if ((a->accessed_by >> (d + 1) & 1) && n < room)
				out[n++] = d;
		while (n < room)
			out[n++] = DEVICE_INVALID;
		break;
	}
	default:
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "range attribute %d", attribute);
	}
	pthread_mutex_unlock(&table.lock);
	return r;
}

ZC_EXPORT CUresult
cuMemRangeGetAttribute(void *data, size_t dataSize, int attribute, CUdeviceptr devPtr, size_t count)
{
	return TRACE(range_attribute(data, dataSize, attribute, devPtr, count), "%d, 0x%llx, %zu",
	             attribute, (unsigned long long)devPtr, count);
}

ZC_EXPORT CUresult
cuMemRangeGetAttributes(void **data, size_t *dataSizes, int *attributes, size_t numAttributes,
                        CUdeviceptr devPtr, size_t count)
{
	CUresult r = !data || !dataSizes || !attributes || !numAttributes
	             ? stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL arrays or no attributes") : CUDA_SUCCESS;

	for (size_t i = 0; r == CUDA_SUCCESS && i < numAttributes; i++)
		r = range_attribute(data[i], dataSizes[i], attributes[i], devPtr, count);
	return TRACE(r, "%zu, 0x%llx, %zu", numAttributes, (unsigned long long)devPtr, count);
}

static CUresult
host_allocation(void *p, struct allocation *a)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && (!find((uintptr_t)p, a) || a->kind != ZC_MEM_HOST))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%p is not page-locked host memory", p);
	return r;
}

ZC_EXPORT CUresult
cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
	struct allocation a;
	CUresult r = host_allocation(p, &a);

	if (r == CUDA_SUCCESS && (!pdptr || Flags != 0))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pdptr or flags 0x%x", Flags);
	/* Unified addressing: the device sees host memory at the host's address. */
	if (r == CUDA_SUCCESS)
		*pdptr = (CUdeviceptr)(uintptr_t)p;
	return TRACE(r, "%p, 0x%x", p, Flags);
}

ZC_EXPORT CUresult
cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
	struct allocation a;
	CUresult r = host_allocation(p, &a);

	if (r == CUDA_SUCCESS && !pFlags)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pFlags");
	if (r == CUDA_SUCCESS)
		*pFlags = a.flags;
	return TRACE(r, "%p", p);
}

ZC_EXPORT CUresult
cuMemGetInfo_v2(size_t *free_bytes, size_t *total_bytes)
{
	struct zc_context *ctx;
	size_t f = 0, t = 0;
	CUresult r = zc_context_current(&ctx);

	if (r == CUDA_SUCCESS)
		r = zc_drv->mem_info(ctx->device, &f, &t);
	if (r == CUDA_SUCCESS) {
		if (free_bytes)
			*free_bytes = f;
		if (total_bytes)
			*total_bytes = t;
	}
	return TRACE(r, "-> %zu free, %zu total", f, t);
}

ZC_EXPORT CUresult
cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
	struct allocation a;
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !find((uintptr_t)dptr, &a))
		r = stub_fail(CUDA_ERROR_NOT_FOUND, "0x%llx is not inside an allocation",
		            (unsigned long long)dptr);
	if (r == CUDA_SUCCESS) {
		if (pbase)
			*pbase = a.base;
		if (psize)
			*psize = a.size;
	}
	return TRACE(r, "0x%llx", (unsigned long long)dptr);
}

/* One attribute of a known allocation, written as CUDA types it. */
static CUresult
attribute(const struct allocation *a, CUpointer_attribute attribute, void *data, uintptr_t ptr)
{
	switch (attribute) {
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		*(CUcontext *)data = a->ctx;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*(unsigned *)data = a->kind == ZC_MEM_HOST ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		*(CUdeviceptr *)data = ptr;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		if (a->kind == ZC_MEM_DEVICE)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "device memory has no host address");
		*(void **)data = (void *)ptr;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
		*(unsigned long long *)data = a->id;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
		*(unsigned *)data = a->kind == ZC_MEM_MANAGED;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*(int *)data = a->ctx->device;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		*(CUdeviceptr *)data = a->base;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		*(size_t *)data = a->size;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MAPPED:
		*(unsigned *)data = 1;
		return CUDA_SUCCESS;
	default:
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "pointer attribute %d", (int)attribute);
	}
}

ZC_EXPORT CUresult
cuPointerGetAttribute(void *data, CUpointer_attribute attrib, CUdeviceptr ptr)
{
	struct allocation a;
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !data)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL data");
	if (r == CUDA_SUCCESS && !find((uintptr_t)ptr, &a))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is not memory the stub allocated",
		            (unsigned long long)ptr);
	if (r == CUDA_SUCCESS)
		r = attribute(&a, attrib, data, (uintptr_t)ptr);
	return TRACE(r, "%d, 0x%llx", (int)attrib, (unsigned long long)ptr);
}

/* What cuPointerGetAttributes reports for memory the stub does not know (ordinary
 * pageable host memory): zeros, and no device. */
static void
unknown_attribute(CUpointer_attribute attribute, void *data)
{
	switch (attribute) {
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
	case CU_POINTER_ATTRIBUTE_MAPPED:
		*(unsigned *)data = 0;
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*(int *)data = -2;  /* cudaInvalidDeviceId */
		break;
	case CU_POINTER_ATTRIBUTE_CONTEXT:
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		*(uint64_t *)data = 0;
		break;
	default:
		break;
	}
}

ZC_EXPORT CUresult
cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                       CUdeviceptr ptr)
{
	struct allocation a;
	bool known;
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && numAttributes && (!attributes || !data))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL attributes or data");
	if (r == CUDA_SUCCESS) {
		known = find((uintptr_t)ptr, &a);
		for (unsigned i = 0; i < numAttributes; i++) {
			if (!data[i])
				continue;
			/* An attribute a pointer lacks reads as zero rather than failing the call. */
			if (!known || attribute(&a, attributes[i], data[i], (uintptr_t)ptr) != CUDA_SUCCESS)
				unknown_attribute(attributes[i], data[i]);
		}
	}
	return TRACE(r, "%u, 0x%llx", numAttributes, (unsigned long long)ptr);
}
