/* vprintf and __assertfail on AMDGPU: records in the stub's ring (abi/device_output.h).
 * The arguments are read the way runtime_stub/base/device_printf.c formats them, so that the
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

/* A record being written: where it was reserved (the ring's count), or NO_RECORD. */
#define NO_RECORD (~0ull)

/* N bytes at offset `at` of the ring's count, wrapping past its end. */
static void put(uint64_t at, const void *src, uint32_t n)
{
	struct zc_device_output *o = (struct zc_device_output *)zluda_convert_device_output;
	uint8_t *data = (uint8_t *)(o + 1);
	uint32_t place = (uint32_t)(at % o->size), first = n < o->size - place ? n : o->size - place;

	copy_bytes(data + place, (const uint8_t *)src, first);
	copy_bytes(data, (const uint8_t *)src + first, n - first);
}

/* Where the arguments go in a record, and where its strings go. */
struct layout {
	uint64_t record;     /* NO_RECORD while measuring */
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
		if (l->record != NO_RECORD) {
			uint64_t slot = s ? ZC_OUTPUT_STRING | (l->strings_at + l->strings) : 0;

			put(l->record + l->args_at + *offset, &slot, 8);
			put(l->record + l->strings_at + l->strings, s, bytes);
		}
		l->strings += bytes;
	} else if (l->record != NO_RECORD) {
		put(l->record + l->args_at + *offset, args + *offset, size);
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

/* Where a record of `length` bytes goes, or NO_RECORD without a buffer (or when the
 * record is larger than all of it). Older records it reaches are overwritten. */
static uint64_t reserve(uint32_t length)
{
	struct zc_device_output *o = (struct zc_device_output *)zluda_convert_device_output;

	if (!o || length > o->size)
		return NO_RECORD;
	return __scoped_atomic_fetch_add(&o->used, length, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
}

/* The header, then the tag that makes the record complete. The tag's 8 bytes never wrap:
 * records and the ring are multiples of 8. */
static void publish(uint64_t at, struct zc_output_record *h, uint32_t length, uint32_t kind)
{
	struct zc_device_output *o = (struct zc_device_output *)zluda_convert_device_output;

	h->length = length;
	h->kind = kind;
	h->block[0] = __builtin_amdgcn_workgroup_id_x();
	h->block[1] = __builtin_amdgcn_workgroup_id_y();
	h->block[2] = __builtin_amdgcn_workgroup_id_z();
	h->thread[0] = __builtin_amdgcn_workitem_id_x();
	h->thread[1] = __builtin_amdgcn_workitem_id_y();
	h->thread[2] = __builtin_amdgcn_workitem_id_z();
	put(at + 8, (const uint8_t *)h + 8, (uint32_t)sizeof *h - 8);
	__scoped_atomic_store_n((uint64_t *)((uint8_t *)(o + 1) + at % o->size), at + 1,
	                        __ATOMIC_RELEASE, __MEMORY_SCOPE_SYSTEM);
}

int32_t __zc_vprintf(uint64_t format, uint64_t args)
{
	const char *f = (const char *)format;
	struct layout l = {NO_RECORD, 0, 0, 0};
	int32_t count;

	if (!f)
		return -1;
	uint32_t format_bytes = text_length(f) + 1;
	uint32_t args_bytes = walk(f, (const uint8_t *)args, &l, &count);
	uint32_t strings = l.strings;
	uint32_t length = (uint32_t)sizeof(struct zc_output_record) + pad8(format_bytes) +
	                  pad8(args_bytes) + pad8(strings);
	uint64_t at = reserve(length);
	struct zc_output_record h = {0};

	if (at == NO_RECORD)
		return -1;
	h.sizes[0] = format_bytes;
	h.sizes[1] = args_bytes;
	h.sizes[2] = strings;
	put(at + sizeof h, f, format_bytes);
	l = (struct layout){at, (uint32_t)sizeof h + pad8(format_bytes),
	                    (uint32_t)sizeof h + pad8(format_bytes) + pad8(args_bytes), 0};
	walk(f, (const uint8_t *)args, &l, &count);
	publish(at, &h, length, ZC_OUTPUT_PRINTF);
	return count;
}

/* The message CUDA prints, then the trap that fails the launch (the stub reports it as
 * CUDA_ERROR_ASSERT on seeing the record). */
_Noreturn void __zc_assertfail(uint64_t expression, uint64_t file, uint32_t line,
                               uint64_t function, uint64_t char_size)
{
	const char *parts[3] = {(const char *)expression, (const char *)file, (const char *)function};
	uint32_t bytes[3], length = (uint32_t)sizeof(struct zc_output_record);
	struct zc_output_record h = {0};
	uint64_t at;

	(void)char_size;
	for (int i = 0; i < 3; i++) {
		if (!parts[i])
			parts[i] = "?";
		bytes[i] = text_length(parts[i]) + 1;
		length += pad8(bytes[i]);
	}
	if ((at = reserve(length)) != NO_RECORD) {
		uint64_t part = at + sizeof h;

		for (int i = 0; i < 3; i++) {
			h.sizes[i] = bytes[i];
			put(part, parts[i], bytes[i]);
			part += pad8(bytes[i]);
		}
		h.line = line;
		publish(at, &h, length, ZC_OUTPUT_ASSERT);
	}
	__builtin_trap();
}
