/* Virtual memory management (cuMemAddressReserve, cuMemCreate, cuMemMap, cuMemSetAccess):
 * the API layer checks what CUDA checks (granularity, ranges inside a reservation, no
 * overlapping mappings, whole mappings unmapped) and keeps what is reserved, made and mapped
 * where; the driver reserves the address space, makes the physical memory and maps it, so
 * that one allocation mapped twice shows the same bytes at both addresses. A mapped range
 * is device memory every copy and launch check accepts. */
#include <string.h>

#include "api.h"

struct reservation {
	struct reservation *next;
	uintptr_t base;
	size_t size;
};

struct physical {
	struct physical *next;
	struct zc_drv_physical *drv;
	size_t size;
	CUmemAllocationProp prop;
	int handles;   /* cuMemCreate's and cuMemRetainAllocationHandle's, less cuMemRelease's */
	int mappings;
};

enum { ACCESS_DEVICES = 64 };

struct mapping {
	struct mapping *next;
	uintptr_t base;
	size_t size;
	struct physical *physical;
	unsigned char access[ACCESS_DEVICES];  /* CUmemAccess_flags per device */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct reservation *reservations;
static struct physical *physicals;
static struct mapping *mappings;

static CUresult
driver_has_vmm(void)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_drv->va_reserve)
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "virtual memory on the %s driver", zc_drv->name);
	return r;
}

static CUresult
device_location(const CUmemLocation *l)
{
	if (!l)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL location");
	if (l->type != CU_MEM_LOCATION_TYPE_DEVICE)
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "virtual memory of location type %d (only a device's)",
		                 l->type);
	if (l->id < 0 || l->id >= zc_device_count() || l->id >= ACCESS_DEVICES)
		return stub_fail(CUDA_ERROR_INVALID_DEVICE, "device %d", l->id);
	return CUDA_SUCCESS;
}

static CUresult
check_prop(const CUmemAllocationProp *prop)
{
	if (!prop)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL allocation properties");
	if (prop->type != CU_MEM_ALLOCATION_TYPE_PINNED)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "allocation type %d", prop->type);
	if (prop->requestedHandleTypes & ~CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "shareable handle types 0x%x",
		                 prop->requestedHandleTypes);
	return device_location(&prop->location);
}

static size_t
granularity(int device)
{
	return zc_drv->va_granularity(device);
}

static bool
aligned(uintptr_t value, size_t to)
{
	return value % to == 0;
}

ZC_EXPORT CUresult
cuMemGetAllocationGranularity(size_t *out, const CUmemAllocationProp *prop, int option)
{
	CUresult r = driver_has_vmm();

	if (r == CUDA_SUCCESS && (!out || (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
	                                   option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL granularity or option %d", option);
	if (r == CUDA_SUCCESS)
		r = check_prop(prop);
	if (r == CUDA_SUCCESS)
		*out = granularity(prop->location.id);
	return TRACE(r, "%d -> %zu", option, r == CUDA_SUCCESS ? *out : 0);
}

static struct reservation *
reservation_of(uintptr_t base, size_t size)
{
	for (struct reservation *v = reservations; v; v = v->next)
		if (base >= v->base && size <= v->size && base - v->base <= v->size - size)
			return v;
	return NULL;
}

static CUresult
reserve(CUdeviceptr *out, size_t size, size_t alignment, CUdeviceptr hint, unsigned long long flags)
{
	struct reservation *v;
	void *p;
	CUresult r = driver_has_vmm();
	size_t g = r == CUDA_SUCCESS ? granularity(0) : 1;

	if (r == CUDA_SUCCESS && (!out || !size || flags || !aligned(size, g) ||
	                          (alignment & (alignment - 1))))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE,
		              "reserving %zu bytes aligned to %zu, flags 0x%llx (sizes are multiples of %zu)",
		              size, alignment, flags, g);
	if (r != CUDA_SUCCESS)
		return r;
	if (!(v = stub_alloc(sizeof *v)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "reservation");
	r = zc_drv->va_reserve(size, alignment > g ? alignment : g, (void *)(uintptr_t)hint, &p);
	if (r != CUDA_SUCCESS) {
		stub_free(v);
		return r;
	}
	*v = (struct reservation){ .base = (uintptr_t)p, .size = size };
	pthread_mutex_lock(&lock);
	v->next = reservations;
	reservations = v;
	pthread_mutex_unlock(&lock);
	*out = (CUdeviceptr)v->base;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                    unsigned long long flags)
{
	CUresult r = reserve(ptr, size, alignment, addr, flags);

	return TRACE(r, "%zu, %zu, 0x%llx -> 0x%llx", size, alignment, (unsigned long long)addr,
	             r == CUDA_SUCCESS ? (unsigned long long)*ptr : 0ull);
}

static bool
overlaps_mapping(uintptr_t base, size_t size)
{
	for (struct mapping *m = mappings; m; m = m->next)
		if (base < m->base + m->size && m->base < base + size)
			return true;
	return false;
}

static CUresult
address_free(CUdeviceptr ptr, size_t size)
{
	CUresult r = driver_has_vmm();

	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&lock);
	struct reservation **link = &reservations;
	while (*link && ((*link)->base != ptr || (*link)->size != size))
		link = &(*link)->next;
	if (!*link)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx + %zu is not a reservation",
		              (unsigned long long)ptr, size);
	else if (overlaps_mapping((uintptr_t)ptr, size))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx + %zu still has mappings",
		              (unsigned long long)ptr, size);
	if (r == CUDA_SUCCESS) {
		struct reservation *v = *link;
		*link = v->next;
		r = zc_drv->va_free((void *)v->base, v->size);
		stub_free(v);
	}
	pthread_mutex_unlock(&lock);
	return r;
}

ZC_EXPORT CUresult
cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
	return TRACE(address_free(ptr, size), "0x%llx, %zu", (unsigned long long)ptr, size);
}

static struct physical *
physical_of(CUmemGenericAllocationHandle handle)
{
	for (struct physical *p = physicals; p; p = p->next)
		if ((uintptr_t)p == handle && p->handles > 0)
			return p;
	return NULL;
}

/* Call with the lock held. */
static void
maybe_free(struct physical *p)
{
	if (p->handles > 0 || p->mappings > 0)
		return;
	for (struct physical **link = &physicals; *link; link = &(*link)->next) {
		if (*link == p) {
			*link = p->next;
			break;
		}
	}
	zc_drv->physical_release(p->drv);
	stub_free(p);
}

static CUresult
create(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
       unsigned long long flags)
{
	struct physical *p;
	CUresult r = driver_has_vmm();

	if (r == CUDA_SUCCESS)
		r = check_prop(prop);
	if (r == CUDA_SUCCESS && (!handle || !size || flags || !aligned(size, granularity(prop->location.id))))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%zu bytes, flags 0x%llx (a multiple of %zu)", size,
		              flags, granularity(prop->location.id));
	if (r != CUDA_SUCCESS)
		return r;
	if ((r = zc_capture_allows("cuMemCreate")) != CUDA_SUCCESS)
		return r;
	if (!(p = stub_alloc(sizeof *p)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "physical allocation");
	bool shareable = prop->requestedHandleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	if ((r = zc_drv->physical_create(prop->location.id, size, shareable, &p->drv)) != CUDA_SUCCESS) {
		stub_free(p);
		return r;
	}
	p->size = size;
	p->prop = *prop;
	p->handles = 1;
	pthread_mutex_lock(&lock);
	p->next = physicals;
	physicals = p;
	pthread_mutex_unlock(&lock);
	*handle = (CUmemGenericAllocationHandle)(uintptr_t)p;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
            unsigned long long flags)
{
	CUresult r = create(handle, size, prop, flags);

	return TRACE(r, "%zu, 0x%llx -> 0x%llx", size, flags, r == CUDA_SUCCESS ? *handle : 0ull);
}

/* The memory lives on while a mapping uses it. */
ZC_EXPORT CUresult
cuMemRelease(CUmemGenericAllocationHandle handle)
{
	CUresult r = driver_has_vmm();
	struct physical *p;

	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&lock);
		if (!(p = physical_of(handle))) {
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is not an allocation handle", handle);
		} else {
			p->handles--;
			maybe_free(p);
		}
		pthread_mutex_unlock(&lock);
	}
	return TRACE(r, "0x%llx", handle);
}

static CUresult
map(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
    unsigned long long flags)
{
	struct mapping *m;
	struct physical *p;
	CUresult r = driver_has_vmm();

	if (r != CUDA_SUCCESS)
		return r;
	if (!(m = stub_alloc(sizeof *m)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "mapping");
	pthread_mutex_lock(&lock);
	p = physical_of(handle);
	size_t g = p ? granularity(p->prop.location.id) : 1;
	if (!p)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is not an allocation handle", handle);
	else if (flags || !size)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "mapping %zu bytes, flags 0x%llx", size, flags);
	else if (!aligned(ptr, g) || !aligned(size, g) || !aligned(offset, g) || offset > p->size ||
	         size > p->size - offset)  /* NOT_SUPPORTED, as an H200 answers */
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED,
		              "mapping %zu bytes at offset %zu of a %zu-byte allocation to 0x%llx (all "
		              "multiples of %zu)", size, offset, p->size, (unsigned long long)ptr, g);
	else if (!reservation_of((uintptr_t)ptr, size))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx + %zu is not inside a reservation",
		              (unsigned long long)ptr, size);
	else if (overlaps_mapping((uintptr_t)ptr, size))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx + %zu is mapped already",
		              (unsigned long long)ptr, size);
	if (r == CUDA_SUCCESS)
		r = zc_drv->va_map((void *)(uintptr_t)ptr, size, offset, p->drv);
	if (r == CUDA_SUCCESS &&
	    (r = zc_memory_add_global(m, reservation_of((uintptr_t)ptr, size), (void *)(uintptr_t)ptr,
	                              size)) != CUDA_SUCCESS)
		zc_drv->va_unmap((void *)(uintptr_t)ptr, size);
	if (r == CUDA_SUCCESS) {
		m->base = (uintptr_t)ptr;
		m->size = size;
		m->physical = p;
		p->mappings++;
		m->next = mappings;
		mappings = m;
	} else {
		stub_free(m);
	}
	pthread_mutex_unlock(&lock);
	return r;
}

ZC_EXPORT CUresult
cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
         unsigned long long flags)
{
	return TRACE(map(ptr, size, offset, handle, flags), "0x%llx, %zu, %zu, 0x%llx",
	             (unsigned long long)ptr, size, offset, handle);
}

/* Whether [base, base + size) cuts no mapping, and (ends) starts where a mapping starts and
 * ends where one ends: cuMemUnmap takes any range that cuts none, unmapped parts and all,
 * and cuMemSetAccess one with mappings at both ends, holes between them included, as an
 * H200 answers. */
static bool
whole_mappings(uintptr_t base, size_t size, bool ends)
{
	bool first = false, last = false;

	for (struct mapping *m = mappings; m; m = m->next) {
		bool in = m->base >= base && m->base + m->size <= base + size;
		if (!in && base < m->base + m->size && m->base < base + size)
			return false;
		first |= in && m->base == base;
		last |= in && m->base + m->size == base + size;
	}
	return size && (!ends || (first && last));
}

static CUresult
unmap(CUdeviceptr ptr, size_t size)
{
	struct zc_context *ctx;
	CUresult r = driver_has_vmm();

	if (r != CUDA_SUCCESS)
		return r;
	/* Work queued before may still use the memory. */
	if (zc_context_current(&ctx) == CUDA_SUCCESS)
		zc_context_sync(ctx);
	pthread_mutex_lock(&lock);
	if (!whole_mappings((uintptr_t)ptr, size, false))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx + %zu cuts a mapping",
		              (unsigned long long)ptr, size);
	for (struct mapping **link = &mappings; r == CUDA_SUCCESS && *link;) {
		struct mapping *m = *link;
		if (m->base < ptr || m->base + m->size > ptr + size) {
			link = &m->next;
			continue;
		}
		*link = m->next;
		zc_memory_remove_globals(m);
		r = zc_drv->va_unmap((void *)m->base, m->size);
		m->physical->mappings--;
		maybe_free(m->physical);
		stub_free(m);
	}
	pthread_mutex_unlock(&lock);
	return r;
}

ZC_EXPORT CUresult
cuMemUnmap(CUdeviceptr ptr, size_t size)
{
	return TRACE(unmap(ptr, size), "0x%llx, %zu", (unsigned long long)ptr, size);
}

static CUresult
set_access(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
	CUresult r = driver_has_vmm();

	if (r == CUDA_SUCCESS && (!desc || !count))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "no access descriptors");
	for (size_t i = 0; r == CUDA_SUCCESS && i < count; i++) {
		r = device_location(&desc[i].location);
		if (r == CUDA_SUCCESS && desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
		    desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
		    desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "access flags %d", (int)desc[i].flags);
	}
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&lock);
	/* Holes between the mappings stay inaccessible. */
	if (!whole_mappings((uintptr_t)ptr, size, true))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx + %zu is not whole mappings",
		              (unsigned long long)ptr, size);
	for (size_t i = 0; r == CUDA_SUCCESS && i < count; i++) {
		int f = desc[i].flags;
		for (struct mapping *m = mappings; r == CUDA_SUCCESS && m; m = m->next) {
			if (m->base < ptr || m->base + m->size > ptr + size)
				continue;
			r = zc_drv->va_set_access((void *)m->base, m->size, desc[i].location.id,
			                          f != CU_MEM_ACCESS_FLAGS_PROT_NONE,
			                          f == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
			if (r == CUDA_SUCCESS)
				m->access[desc[i].location.id] = (unsigned char)f;
		}
	}
	pthread_mutex_unlock(&lock);
	return r;
}

ZC_EXPORT CUresult
cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
	return TRACE(set_access(ptr, size, desc, count), "0x%llx, %zu, %zu", (unsigned long long)ptr,
	             size, count);
}

static struct mapping *
mapping_at(uintptr_t address)
{
	for (struct mapping *m = mappings; m; m = m->next)
		if (address >= m->base && address - m->base < m->size)
			return m;
	return NULL;
}

ZC_EXPORT CUresult
cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr)
{
	CUresult r = driver_has_vmm();
	struct mapping *m;

	if (r == CUDA_SUCCESS && !flags)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL flags");
	if (r == CUDA_SUCCESS)
		r = device_location(location);
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&lock);
		if ((m = mapping_at((uintptr_t)ptr)))
			*flags = m->access[location->id];
		else
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is not mapped", (unsigned long long)ptr);
		pthread_mutex_unlock(&lock);
	}
	return TRACE(r, "0x%llx -> %llu", (unsigned long long)ptr, r == CUDA_SUCCESS ? *flags : 0ull);
}

ZC_EXPORT CUresult
cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle)
{
	CUresult r = driver_has_vmm();
	struct physical *p;

	if (r == CUDA_SUCCESS && !prop)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL prop");
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&lock);
		if ((p = physical_of(handle)))
			*prop = p->prop;
		else
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is not an allocation handle", handle);
		pthread_mutex_unlock(&lock);
	}
	return TRACE(r, "0x%llx", handle);
}

/* Shareable handles: a POSIX file descriptor for an allocation made to be shared, which
 * cuMemImportFromShareableHandle here or in another process turns into a handle to the
 * same memory. */
static CUresult
export(void *shareable, CUmemGenericAllocationHandle handle, int type, unsigned long long flags)
{
	CUresult r = driver_has_vmm();
	struct physical *p;

	if (r == CUDA_SUCCESS && (!shareable || flags))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL shareableHandle or flags 0x%llx", flags);
	if (r == CUDA_SUCCESS && type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "shareable handles of type %d (POSIX file "
		              "descriptors only)", type);
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&lock);
	if (!(p = physical_of(handle)))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is not an allocation handle", handle);
	else if (!(p->prop.requestedHandleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx was not made to be shared as a file "
		              "descriptor", handle);
	else
		r = zc_drv->physical_export(p->drv, shareable);
	pthread_mutex_unlock(&lock);
	return r;
}

ZC_EXPORT CUresult
cuMemExportToShareableHandle(void *shareableHandle, CUmemGenericAllocationHandle handle,
                             int handleType, unsigned long long flags)
{
	return TRACE(export(shareableHandle, handle, handleType, flags), "0x%llx, %d", handle,
	             handleType);
}

static CUresult
import(CUmemGenericAllocationHandle *handle, void *os_handle, int type)
{
	struct zc_context *ctx;
	struct physical *p;
	CUresult r = driver_has_vmm();

	if (r == CUDA_SUCCESS && !handle)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL handle");
	if (r == CUDA_SUCCESS && type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "shareable handles of type %d (POSIX file "
		              "descriptors only)", type);
	if (r == CUDA_SUCCESS)
		r = zc_context_current(&ctx);
	if (r != CUDA_SUCCESS)
		return r;
	if (!(p = stub_alloc(sizeof *p)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "physical allocation");
	r = zc_drv->physical_import(ctx->device, (int)(intptr_t)os_handle, &p->size, &p->drv);
	if (r != CUDA_SUCCESS) {
		stub_free(p);
		return r;
	}
	p->prop = (CUmemAllocationProp){ .type = CU_MEM_ALLOCATION_TYPE_PINNED,
	                                 .requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
	                                 .location = { CU_MEM_LOCATION_TYPE_DEVICE, ctx->device } };
	p->handles = 1;
	pthread_mutex_lock(&lock);
	p->next = physicals;
	physicals = p;
	pthread_mutex_unlock(&lock);
	*handle = (CUmemGenericAllocationHandle)(uintptr_t)p;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *osHandle, int shHandleType)
{
	CUresult r = import(handle, osHandle, shHandleType);

	return TRACE(r, "%d, %d -> 0x%llx", (int)(intptr_t)osHandle, shHandleType,
	             r == CUDA_SUCCESS ? *handle : 0ull);
}

/* The handle of what is mapped at addr, which the caller releases as one it made. */
ZC_EXPORT CUresult
cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
	CUresult r = driver_has_vmm();
	struct mapping *m;

	if (r == CUDA_SUCCESS && !handle)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL handle");
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&lock);
		if ((m = mapping_at((uintptr_t)addr))) {
			m->physical->handles++;
			*handle = (CUmemGenericAllocationHandle)(uintptr_t)m->physical;
		} else {
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%p is not mapped", addr);
		}
		pthread_mutex_unlock(&lock);
	}
	return TRACE(r, "%p -> 0x%llx", addr, r == CUDA_SUCCESS ? *handle : 0ull);
}
