/* The set of live handles: an open-addressing hash table from pointer to kind. CUDA
 * promises errors, not crashes, for destroyed or foreign handles, and the objects behind
 * handles are plain memory, so a handle is checked here before it is used. */
#include <stdint.h>

#include "api.h"

struct slot {
	uintptr_t key;  /* 0: never used; TOMBSTONE: removed */
	enum zc_handle_kind kind;
};

#define TOMBSTONE ((uintptr_t)1)

static struct {
	pthread_mutex_t lock;
	struct slot *slots;
	size_t capacity;  /* a power of two */
	size_t used;      /* live and tombstone slots */
} table = { .lock = PTHREAD_MUTEX_INITIALIZER };

static size_t
hash(uintptr_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdu;
	key ^= key >> 33;
	return (size_t)key;
}

static struct slot *
find(uintptr_t key)
{
	if (!table.slots)
		return NULL;
	for (size_t i = hash(key) & (table.capacity - 1);; i = (i + 1) & (table.capacity - 1)) {
		if (table.slots[i].key == key)
			return &table.slots[i];
		if (table.slots[i].key == 0)
			return NULL;
	}
}

static bool
grow(void)
{
	size_t capacity = table.capacity ? table.capacity * 2 : 64;
	struct slot *slots = stub_alloc(capacity * sizeof *slots);
	struct slot *old = table.slots;
	size_t old_capacity = table.capacity;

	if (!slots)
		return false;
	table.slots = slots;
	table.capacity = capacity;
	table.used = 0;
	for (size_t i = 0; i < old_capacity; i++) {
		if (old[i].key <= TOMBSTONE)
			continue;
		size_t j = hash(old[i].key) & (capacity - 1);
		while (slots[j].key)
			j = (j + 1) & (capacity - 1);
		slots[j] = old[i];
		table.used++;
	}
	stub_free(old);
	return true;
}

bool
zc_handle_add(const void *handle, enum zc_handle_kind kind)
{
	uintptr_t key = (uintptr_t)handle;
	bool ok = true;

	pthread_mutex_lock(&table.lock);
	/* Keep at most half the slots used, so probes stay short and always end. */
	if ((table.used + 1) * 2 > table.capacity)
		ok = grow();
	if (ok) {
		size_t i = hash(key) & (table.capacity - 1);
		while (table.slots[i].key > TOMBSTONE)
			i = (i + 1) & (table.capacity - 1);
		if (table.slots[i].key == 0)
			table.used++;
		table.slots[i] = (struct slot){ key, kind };
	}
	pthread_mutex_unlock(&table.lock);
	return ok;
}

void
zc_handle_remove(const void *handle)
{
	pthread_mutex_lock(&table.lock);
	struct slot *s = find((uintptr_t)handle);
	if (s)
		s->key = TOMBSTONE;
	pthread_mutex_unlock(&table.lock);
}

bool
zc_handle_is(const void *handle, enum zc_handle_kind kind)
{
	uintptr_t key = (uintptr_t)handle;
	bool live;

	if (key <= TOMBSTONE)
		return false;
	pthread_mutex_lock(&table.lock);
	struct slot *s = find(key);
	live = s && s->kind == kind;
	pthread_mutex_unlock(&table.lock);
	return live;
}

CUresult
zc_graph_check(CUgraph g)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(g, ZC_HANDLE_GRAPH))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%p is not a live graph", (void *)g);
	return r;
}
