/* The ranges of host memory that emulated code may address as global memory. A sorted
 * table under a read-write lock, and per thread the last range that answered, which is
 * the range nearly every access of a kernel falls in. */
#include <pthread.h>
#include <stdlib.h>

#include "emu.h"

struct range {
	uint64_t base, end;
};

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static struct range *ranges;
static size_t nranges, capacity;
static uint64_t generation;  /* changes whenever a range goes, so caches are dropped */

static _Thread_local struct range cached;
static _Thread_local uint64_t cached_generation;

void zc_emu_map(const void *base, size_t size)
{
	uint64_t b = (uint64_t)(uintptr_t)base;
	if (!base || !size)
		return;
	pthread_rwlock_wrlock(&lock);
	if (nranges == capacity) {
		size_t c = capacity ? capacity * 2 : 64;
		struct range *grown = realloc(ranges, c * sizeof *ranges);
		if (!grown) {
			pthread_rwlock_unlock(&lock);
			return;
		}
		ranges = grown;
		capacity = c;
	}
	size_t i = nranges;
	while (i > 0 && ranges[i - 1].base > b) {
		ranges[i] = ranges[i - 1];
		i--;
	}
	ranges[i].base = b;
	ranges[i].end = b + size;
	nranges++;
	pthread_rwlock_unlock(&lock);
}

void zc_emu_unmap(const void *base)
{
	uint64_t b = (uint64_t)(uintptr_t)base;
	pthread_rwlock_wrlock(&lock);
	for (size_t i = 0; i < nranges; i++)
		if (ranges[i].base == b) {
			memmove(&ranges[i], &ranges[i + 1], (nranges - i - 1) * sizeof *ranges);
			nranges--;
			break;
		}
	__atomic_fetch_add(&generation, 1, __ATOMIC_RELEASE);
	pthread_rwlock_unlock(&lock);
}

bool emu_mapped(uint64_t address, uint64_t size)
{
	uint64_t end = address + size;
	if (end < address)
		return false;
	if (cached_generation == __atomic_load_n(&generation, __ATOMIC_ACQUIRE) &&
	    address >= cached.base && end <= cached.end)
		return true;
	bool found = false;
	pthread_rwlock_rdlock(&lock);
	size_t lo = 0, hi = nranges;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ranges[mid].base <= address)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Ranges may nest (a sub-allocation registered inside another): look back a little. */
	for (size_t i = lo; i-- > 0 && lo - i <= 8;)
		if (address >= ranges[i].base && end <= ranges[i].end) {
			cached = ranges[i];
			cached_generation = generation;
			found = true;
			break;
		}
	pthread_rwlock_unlock(&lock);
	return found;
}
