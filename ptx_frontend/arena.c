/* The arena every AST node and string of a module lives in, freed in one go with the module.
 * Interning lets later stages compare names, opcodes and modifiers by pointer. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { CHUNK_SIZE = 64 * 1024 };

struct chunk {
	struct chunk *next;
	size_t used, size;
	_Alignas(max_align_t) unsigned char data[];
};

struct intern_entry {
	const char *s;
	uint32_t len;
	uint32_t hash;
};

struct ptx_arena {
	struct chunk *chunks;
	struct intern_entry *table;
	uint32_t table_cap, table_len;
};

struct ptx_arena *arena_new(void)
{
	return calloc(1, sizeof(struct ptx_arena));
}

void arena_free(struct ptx_arena *arena)
{
	if (!arena)
		return;
	struct chunk *c = arena->chunks;
	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
	free(arena);
}

void *arena_alloc(struct ptx_arena *arena, size_t size)
{
	size_t align = _Alignof(max_align_t);
	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + align - 1) & ~(align - 1);
	struct chunk *c = arena->chunks;
	if (!c || c->size - c->used < size) {
		size_t chunk_size = size > CHUNK_SIZE ? size : CHUNK_SIZE;
		c = malloc(sizeof(*c) + chunk_size);
		if (!c)
			return NULL;
		c->size = chunk_size;
		c->used = 0;
		/* A large one-off block goes behind the current chunk so its free space stays usable. */
		if (size > CHUNK_SIZE && arena->chunks) {
			c->next = arena->chunks->next;
			arena->chunks->next = c;
		} else {
			c->next = arena->chunks;
			arena->chunks = c;
		}
	}
	void *p = c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return p;
}

static uint32_t hash_bytes(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static bool intern_grow(struct ptx_arena *arena)
{
	uint32_t cap = arena->table_cap ? arena->table_cap * 2 : 1024;
	struct intern_entry *table = arena_alloc(arena, sizeof(*table) * cap);
	if (!table)
		return false;
	for (uint32_t i = 0; i < arena->table_cap; i++) {
		struct intern_entry e = arena->table[i];
		if (!e.s)
			continue;
		uint32_t j = e.hash & (cap - 1);
		while (table[j].s)
			j = (j + 1) & (cap - 1);
		table[j] = e;
	}
	arena->table = table;
	arena->table_cap = cap;
	return true;
}

const char *arena_intern(struct ptx_arena *arena, const char *s, size_t len)
{
	if (len > UINT32_MAX)
		return NULL;
	if ((arena->table_len + 1) * 2 > arena->table_cap && !intern_grow(arena))
		return NULL;
	uint32_t hash = hash_bytes(s, len);
	uint32_t mask = arena->table_cap - 1;
	uint32_t i = hash & mask;
	for (; arena->table[i].s; i = (i + 1) & mask) {
		struct intern_entry *e = &arena->table[i];
		if (e->hash == hash && e->len == len && memcmp(e->s, s, len) == 0)
			return e->s;
	}
	char *copy = arena_alloc(arena, len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	arena->table[i] = (struct intern_entry){ copy, (uint32_t)len, hash };
	arena->table_len++;
	return copy;
}
