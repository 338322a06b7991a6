/* The code object's metadata note (NT_AMDGPU_METADATA, MessagePack): per kernel, the
 * sizes and the arguments the launch must fill, the implicit ones among them. Only what a
 * launch needs is read; anything else is skipped, and every length is checked against the
 * note's end. */
#include <stdio.h>
#include <stdlib.h>

#include "emu.h"
#include "metadata.h"

struct reader {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t take(struct reader *r, unsigned n)
{
	uint64_t v = 0;
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		v = v << 8 | *r->p++;
	return v;
}

enum mp_type { MP_NIL, MP_INT, MP_STR, MP_ARRAY, MP_MAP, MP_OTHER };

struct mp_value {
	enum mp_type type;
	int64_t integer;
	const char *str;
	uint32_t length;  /* string bytes, array or map entries */
};

static struct mp_value next(struct reader *r)
{
	struct mp_value v = {MP_OTHER, 0, NULL, 0};
	uint8_t b = (uint8_t)take(r, 1);
	uint32_t n = 0;

	if (r->bad)
		return v;
	if (b <= 0x7f || b >= 0xe0) {
		v.type = MP_INT;
		v.integer = (int8_t)b;
		if (b <= 0x7f)
			v.integer = b;
		return v;
	}
	if ((b & 0xf0) == 0x80 || b == 0xde || b == 0xdf) {
		v.type = MP_MAP;
		v.length = (b & 0xf0) == 0x80 ? b & 15u : (uint32_t)take(r, b == 0xde ? 2 : 4);
		return v;
	}
	if ((b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd) {
		v.type = MP_ARRAY;
		v.length = (b & 0xf0) == 0x90 ? b & 15u : (uint32_t)take(r, b == 0xdc ? 2 : 4);
		return v;
	}
	if ((b & 0xe0) == 0xa0 || b == 0xd9 || b == 0xda || b == 0xdb) {
		n = (b & 0xe0) == 0xa0 ? b & 31u : (uint32_t)take(r, b == 0xd9 ? 1 : b == 0xda ? 2 : 4);
		if ((size_t)(r->end - r->p) < n) {
			r->bad = true;
			return v;
		}
		v.type = MP_STR;
		v.str = (const char *)r->p;
		v.length = n;
		r->p += n;
		return v;
	}
	switch (b) {
	case 0xc0: v.type = MP_NIL; return v;
	case 0xc2: case 0xc3: v.type = MP_INT; v.integer = b == 0xc3; return v;
	case 0xcc: v.type = MP_INT; v.integer = (int64_t)take(r, 1); return v;
	case 0xcd: v.type = MP_INT; v.integer = (int64_t)take(r, 2); return v;
	case 0xce: v.type = MP_INT; v.integer = (int64_t)take(r, 4); return v;
	case 0xcf: v.type = MP_INT; v.integer = (int64_t)take(r, 8); return v;
	case 0xd0: v.type = MP_INT; v.integer = (int8_t)take(r, 1); return v;
	case 0xd1: v.type = MP_INT; v.integer = (int16_t)take(r, 2); return v;
	case 0xd2: v.type = MP_INT; v.integer = (int32_t)take(r, 4); return v;
	case 0xd3: v.type = MP_INT; v.integer = (int64_t)take(r, 8); return v;
	case 0xca: take(r, 4); return v;
	case 0xcb: take(r, 8); return v;
	case 0xc4: case 0xc5: case 0xc6:
		n = (uint32_t)take(r, b == 0xc4 ? 1 : b == 0xc5 ? 2 : 4);
		if ((size_t)(r->end - r->p) < n)
			r->bad = true;
		else
			r->p += n;
		return v;
	default:
		r->bad = true;
		return v;
	}
}

static void skip(struct reader *r, int depth)
{
	struct mp_value v = next(r);
	if (depth > 32) {
		r->bad = true;
		return;
	}
	if (v.type == MP_ARRAY)
		for (uint32_t i = 0; i < v.length && !r->bad; i++)
			skip(r, depth + 1);
	else if (v.type == MP_MAP)
		for (uint32_t i = 0; i < 2 * v.length && !r->bad; i++)
			skip(r, depth + 1);
}

static bool is(const struct mp_value *v, const char *s)
{
	return v->type == MP_STR && strlen(s) == v->length && memcmp(v->str, s, v->length) == 0;
}

static char *dup_str(const struct mp_value *v)
{
	char *s = malloc(v->length + 1u);
	if (s) {
		memcpy(s, v->str, v->length);
		s[v->length] = 0;
	}
	return s;
}

static void read_args(struct reader *r, struct kernel_meta *k)
{
	struct mp_value list = next(r);
	/* each argument takes at least a byte: a longer list is a lie, not a large kernel */
	if (list.type != MP_ARRAY || k->args || list.length > (size_t)(r->end - r->p)) {
		r->bad = true;
		return;
	}
	k->args = calloc(list.length ? list.length : 1, sizeof *k->args);
	if (!k->args) {
		r->bad = true;
		return;
	}
	for (uint32_t i = 0; i < list.length && !r->bad; i++) {
		struct mp_value map = next(r);
		struct kernel_arg *a = &k->args[k->nargs++];
		if (map.type != MP_MAP) {
			r->bad = true;
			return;
		}
		for (uint32_t j = 0; j < map.length && !r->bad; j++) {
			struct mp_value key = next(r);
			if (is(&key, ".offset") || is(&key, ".size")) {
				struct mp_value n = next(r);
				if (n.type != MP_INT || n.integer < 0 || n.integer > UINT32_MAX)
					r->bad = true;
				else if (is(&key, ".offset"))
					a->offset = (uint32_t)n.integer;
				else
					a->size = (uint32_t)n.integer;
			} else if (is(&key, ".value_kind")) {
				struct mp_value s = next(r);
				if (s.type != MP_STR || s.length >= sizeof a->kind)
					r->bad = true;
				else
					memcpy(a->kind, s.str, s.length);
			} else {
				skip(r, 1);
			}
		}
	}
}

static void read_kernel(struct reader *r, struct kernel_meta *k)
{
	struct mp_value map = next(r);
	if (map.type != MP_MAP) {
		r->bad = true;
		return;
	}
	for (uint32_t j = 0; j < map.length && !r->bad; j++) {
		struct mp_value key = next(r);
		if (is(&key, ".symbol")) {
			struct mp_value s = next(r);
			if (s.type != MP_STR || k->symbol)
				r->bad = true;
			else
				k->symbol = dup_str(&s);
		} else if (is(&key, ".args")) {
			read_args(r, k);
		} else if (is(&key, ".kernarg_segment_size") || is(&key, ".max_flat_workgroup_size") ||
		           is(&key, ".uses_dynamic_stack")) {
			struct mp_value n = next(r);
			if (n.type != MP_INT || n.integer < 0 || n.integer > UINT32_MAX)
				r->bad = true;
			else if (is(&key, ".kernarg_segment_size"))
				k->kernarg_size = (uint32_t)n.integer;
			else if (is(&key, ".max_flat_workgroup_size"))
				k->max_flat_workgroup_size = (uint32_t)n.integer;
			else
				k->dynamic_stack = n.integer != 0;
		} else {
			skip(r, 1);
		}
	}
}

bool emu_read_metadata(const uint8_t *data, size_t size, struct kernel_meta **kernels,
                       uint32_t *count)
{
	struct reader r = {data, data + size, false};
	struct mp_value top = next(&r);

	*kernels = NULL;
	*count = 0;
	if (top.type != MP_MAP)
		return false;
	for (uint32_t i = 0; i < top.length && !r.bad; i++) {
		struct mp_value key = next(&r);
		if (!is(&key, "amdhsa.kernels")) {
			skip(&r, 0);
			continue;
		}
		struct mp_value list = next(&r);
		if (list.type != MP_ARRAY || list.length > (size_t)(r.end - r.p) || *kernels)
			return false;
		*kernels = calloc(list.length ? list.length : 1, sizeof **kernels);
		if (!*kernels)
			return false;
		for (uint32_t k = 0; k < list.length && !r.bad; k++)
			read_kernel(&r, &(*kernels)[(*count)++]);
	}
	return !r.bad;
}

void emu_free_metadata(struct kernel_meta *kernels, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		free(kernels[i].symbol);
		free(kernels[i].args);
	}
	free(kernels);
}
