/* malloc and free in device code on AMDGPU (abi/device_heap.h): blocks of a power of
 * two, kept on one lock-free list per size after free and reused by the next malloc of that
 * size; a miss takes new memory from the heap's end. Lanes of one wave never wait for each
 * other, so no lock can deadlock them. */
#include "amdgpu.h"
#include "device_heap.h"

extern uint64_t zluda_convert_device_heap;

static uint8_t *heap_base(struct zc_device_heap *h) { return (uint8_t *)(h + 1); }

uint64_t __zc_malloc(uint64_t bytes)
{
	struct zc_device_heap *h = (struct zc_device_heap *)zluda_convert_device_heap;
	uint32_t k = 0;

	if (!h || bytes == 0 || bytes > h->size)
		return 0;
	while ((16ull << k) < bytes + 16)
		k++;
	uint64_t head = __scoped_atomic_load_n(&h->free[k], __ATOMIC_ACQUIRE, __MEMORY_SCOPE_DEVICE);
	uint64_t offset = 0;
	int found = 0;
	while ((uint32_t)head) {
		offset = ((uint64_t)(uint32_t)head - 1) * 16;
		uint64_t next = __scoped_atomic_load_n((uint64_t *)(heap_base(h) + offset + 8),
		                                       __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
		uint64_t taken = ((head >> 32) + 1) << 32 | (uint32_t)next;
		if (__scoped_atomic_compare_exchange_n(&h->free[k], &head, taken, 0, __ATOMIC_ACQUIRE,
		                                       __ATOMIC_ACQUIRE, __MEMORY_SCOPE_DEVICE)) {
			found = 1;
			break;
		}
	}
	if (!found) {
		offset = __scoped_atomic_fetch_add(&h->bump, 16ull << k, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
		if (offset > h->size || (16ull << k) > h->size - offset)
			return 0;
	}
	*(uint32_t *)(heap_base(h) + offset) = k;
	return (uint64_t)(heap_base(h) + offset + 16);
}

void __zc_free(uint64_t pointer)
{
	struct zc_device_heap *h = (struct zc_device_heap *)zluda_convert_device_heap;

	if (!h || !pointer)
		return;
	uint8_t *block = (uint8_t *)pointer - 16;
	uint32_t k = *(uint32_t *)block;
	uint64_t index = (uint64_t)(block - heap_base(h)) / 16 + 1;
	uint64_t head = __scoped_atomic_load_n(&h->free[k], __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE), next;

	do {
		__scoped_atomic_store_n((uint64_t *)(block + 8), (uint64_t)(uint32_t)head, __ATOMIC_RELAXED,
		                        __MEMORY_SCOPE_DEVICE);
		next = ((head >> 32) + 1) << 32 | index;
	} while (!__scoped_atomic_compare_exchange_n(&h->free[k], &head, next, 0, __ATOMIC_RELEASE,
	                                             __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE));
}
