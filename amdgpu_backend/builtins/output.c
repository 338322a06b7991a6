/* vprintf and __assertfail on AMDGPU: records in the stub's buffer (backend/device_output.h).
 * The arguments are read the way runtime_stub/device_printf.c formats them, so that the
 * record holds exactly what the host needs: nvcc packs them each at its own size's
 * alignment, 4-byte integers unless l, j, z or t widen them, doubles, 8-byte pointers. */
#include "amdgpu.h"
#include "device_output.h"

extern uint64_t zluda_convert_device_output; /* defined by the module that prints */

static uint32_t text_length(const char *s)
{
	uint32_t n = 0;

	while (s[n])
		n++;
	return n;
}

static uint32_t span(const char *s, const char *set)
{
	uint32_t n = 0;

	for (;; n++) {
		const char *c = set;

		while (*c && *c != s[n])
			c++;
		if (!*c || !s[n])
			return n;
	}
}

static uint32_t pad8(uint32_t n) { return (n + 7) & ~7u; }

static void copy_bytes(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = src[i];
}

/* Where the arguments go in a record, and where its strings go. */
struct layout {
	uint8_t *record;     /* NULL while measuring */
	uint32_t args_at, strings_at, strings;
};

/* One argument of `size` bytes at the packed buffer's next aligned offset; %s strings are
 * measured and, into a record, copied and pointed at. */
static void take(struct layout *l, const uint8_t *args, uint32_t *offset, uint32_t size, int string)
{
	*offset = (*offset + size - 1) / size * size;
	if (string) {
		const char *s;

		copy_bytes((uint8_t *)&s, args + *offset, 8);
		uint32_t bytes = s ? text_length(s) + 1 : 0;
		if (l->record) {
			uint64_t slot = s ? ZC_OUTPUT_STRING | (l->strings_at + l->strings) : 0;

			copy_bytes(l->record + l->args_at + *offset, (const uint8_t *)&slot, 8);
			copy_bytes(l->record + l->strings_at + l->strings, (const uint8_t *)s, bytes);
		}
		l->strings += bytes;
	} else if (l->record) {
		copy_bytes(l->record + l->args_at + *offset, args + *offset, size);
	}
	*offset += size;
}

/* Returns the bytes of the packed arguments; *count, the conversions that take one. */
static uint32_t walk(const char *format, const uint8_t *args, struct layout *l, int32_t *count)
{
	uint32_t offset = 0;

	*count = 0;
	for (const char *p = format; *p;) {
		if (*p != '%') {
			p++;
			continue;
		}
		if (p[1] == '%') {
			p += 2;
			continue;
		}
		uint32_t n = 1 + span(p + 1, "-+ #0123456789.*"), length = span(p + n, "hljztL");
		char conversion = p[n + length];
		int wide = 0, stars = 0;

		if (!conversion)
			break;
		for (uint32_t i = 0; i < length; i++)
			wide |= p[n + i] == 'l' || p[n + i] == 'j' || p[n + i] == 'z' || p[n + i] == 't';
		for (uint32_t i = 1; i < n; i++)
			if (p[i] == '*' && stars < 2) {
				stars++;
				take(l, args, &offset, 4, 0);
			}
		p += n + length + 1;
		switch (conversion) {
		case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c':
			take(l, args, &offset, wide ? 8 : 4, 0);
			break;
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
		case 'p':
			take(l, args, &offset, 8, 0);
			break;
		case 's':
			take(l, args, &offset, 8, 1);
			break;
		default:
			continue; /* printed as it stands, no argument */
		}
		++*count;
	}
	return offset;
}

/* Room for a record of `length` bytes, or NULL when the buffer is full or absent. */
static struct zc_output_record *reserve(uint32_t length)
{
	struct zc_device_output *o = (struct zc_device_output *)zluda_convert_device_output;

	if (!o)
		return 0;
	uint32_t at = __scoped_atomic_fetch_add(&o->used, length, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
	if (length > o->size || at > o->size - length) {
		__scoped_atomic_fetch_add(&o->lost, 1, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
		return 0;
	}
	return (struct zc_output_record *)((uint8_t *)(o + 1) + at);
}

static void publish(struct zc_output_record *r, uint32_t length, uint32_t kind)
{
	r->kind = kind;
	r->block[0] = __builtin_amdgcn_workgroup_id_x();
	r->block[1] = __builtin_amdgcn_workgroup_id_y();
	r->block[2] = __builtin_amdgcn_workgroup_id_z();
	r->thread[0] = __builtin_amdgcn_workitem_id_x();
	r->thread[1] = __builtin_amdgcn_workitem_id_y();
	r->thread[2] = __builtin_amdgcn_workitem_id_z();
	__scoped_atomic_store_n(&r->length, length, __ATOMIC_RELEASE, __MEMORY_SCOPE_SYSTEM);
}

int32_t __zc_vprintf(uint64_t format, uint64_t args)
{
	const char *f = (const char *)format;
	struct layout l = {0};
	int32_t count;

	if (!f)
		return -1;
	uint32_t format_bytes = text_length(f) + 1;
	uint32_t args_bytes = walk(f, (const uint8_t *)args, &l, &count);
	uint32_t strings = l.strings;
	uint32_t length = (uint32_t)sizeof(struct zc_output_record) + pad8(format_bytes) +
	                  pad8(args_bytes) + pad8(strings);
	struct zc_output_record *r = reserve(length);

	if (!r)
		return -1;
	r->sizes[0] = format_bytes;
	r->sizes[1] = args_bytes;
	r->sizes[2] = strings;
	copy_bytes((uint8_t *)(r + 1), (const uint8_t *)f, format_bytes);
	l = (struct layout){(uint8_t *)r, (uint32_t)sizeof *r + pad8(format_bytes),
	                    (uint32_t)sizeof *r + pad8(format_bytes) + pad8(args_bytes), 0};
	walk(f, (const uint8_t *)args, &l, &count);
	publish(r, length, ZC_OUTPUT_PRINTF);
	return count;
}

/* The message CUDA prints, then the trap that fails the launch (the stub reports it as
 * CUDA_ERROR_ASSERT on seeing the record). */
_Noreturn void __zc_assertfail(uint64_t expression, uint64_t file, uint32_t line,
                               uint64_t function, uint64_t char_size)
{
	const char *parts[3] = {(const char *)expression, (const char *)file, (const char *)function};
	uint32_t bytes[3], length = (uint32_t)sizeof(struct zc_output_record);
	struct zc_output_record *r;

	(void)char_size;
	for (int i = 0; i < 3; i++) {
		if (!parts[i])
			parts[i] = "?";
		bytes[i] = text_length(parts[i]) + 1;
		length += pad8(bytes[i]);
	}
	if ((r = reserve(length))) {
		uint8_t *at = (uint8_t *)(r + 1);

		for (int i = 0; i < 3; i++) {
			r->sizes[i] = bytes[i];
			copy_bytes(at, (const uint8_t *)parts[i], bytes[i]);
			at += pad8(bytes[i]);
		}
		r->line = line;
		publish(r, length, ZC_OUTPUT_ASSERT);
	}
	__builtin_trap();
}
