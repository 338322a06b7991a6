/* What GPU code prints (backend/device_output.h): one buffer in mapped host memory for the
 * process, which every code object the HIP driver loads is pointed at; each
 * synchronisation prints the records that are complete, in the order they were reserved,
 * with the CPU driver's formatting (device_printf.c). Being host memory, it is still
 * readable after a trap has lost the GPU context, which is when an assert's message
 * matters. A record that does not fit is lost, and the next drain says how many were. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "device_output.h"

static struct {
	pthread_mutex_t lock;
	struct zc_device_output *buffer;
	uint32_t read;   /* offset of the first record not printed yet */
	bool asserted;   /* an assert's record was printed: launch failures are CUDA_ERROR_ASSERT */
} out = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, false};

static void drain_at_exit(void)
{
	zc_device_output_drain(CUDA_SUCCESS);
}

void *
zc_device_output_buffer(int ordinal, size_t bytes)
{
	void *p = NULL;

	pthread_mutex_lock(&out.lock);
	if (!out.buffer && bytes < UINT32_MAX &&
	    zc_drv->alloc(ordinal, ZC_MEM_HOST, sizeof *out.buffer + bytes, &p) == CUDA_SUCCESS) {
		memset(p, 0, sizeof *out.buffer + bytes);
		out.buffer = p;
		out.buffer->size = (uint32_t)bytes;
		atexit(drain_at_exit);
	}
	p = out.buffer;
	pthread_mutex_unlock(&out.lock);
	return p;
}

/* A printf record's %s slots become pointers into the copy. */
static void print_printf(uint8_t *record, const struct zc_output_record *r)
{
	size_t args_at = sizeof *r + (r->sizes[0] + 7) / 8 * 8;

	for (size_t at = 0; at + 8 <= r->sizes[1]; at += 8) {
		uint64_t slot;

		memcpy(&slot, record + args_at + at, 8);
		if ((slot & ZC_OUTPUT_STRING) && (slot & ~ZC_OUTPUT_STRING) < r->length) {
			const char *s = (const char *)record + (slot & ~ZC_OUTPUT_STRING);
			memcpy(record + args_at + at, &s, 8);
		}
	}
	record[sizeof *r + r->sizes[0] - 1] = '\0';
	zc_print_device_printf((const char *)record + sizeof *r, record + args_at);
}

static void print_assert(uint8_t *record, const struct zc_output_record *r)
{
	const char *parts[3];
	size_t at = sizeof *r;

	for (int i = 0; i < 3; i++) {
		parts[i] = (const char *)record + at;
		record[at + r->sizes[i] - 1] = '\0';
		at += (r->sizes[i] + 7) / 8 * 8;
	}
	zc_print_device_assert(parts[0], parts[1], r->line, parts[2], r->block, r->thread);
	out.asserted = true;
}

/* A record the device wrote: its parts must lie within it. */
static bool well_formed(const struct zc_output_record *r)
{
	uint64_t need = sizeof *r;

	for (int i = 0; i < 3; i++)
		need += (r->sizes[i] + 7ull) / 8 * 8;
	return r->length % 8 == 0 && need <= r->length &&
	       (r->kind != ZC_OUTPUT_PRINTF || r->sizes[0] > 0) &&
	       (r->kind != ZC_OUTPUT_ASSERT || (r->sizes[0] && r->sizes[1] && r->sizes[2]));
}

CUresult
zc_device_output_drain(CUresult sync)
{
	struct zc_device_output *o;
	uint8_t *data;

	pthread_mutex_lock(&out.lock);
	if (!(o = out.buffer)) {
		pthread_mutex_unlock(&out.lock);
		return sync;
	}
	data = (uint8_t *)(o + 1);
	uint32_t used = atomic_load_explicit((_Atomic uint32_t *)&o->used, memory_order_acquire);
	uint32_t end = used < o->size ? used : o->size;
	while (out.read + sizeof(struct zc_output_record) <= end) {
		struct zc_output_record *at = (struct zc_output_record *)(data + out.read), r;
		uint32_t length = atomic_load_explicit((_Atomic uint32_t *)&at->length, memory_order_acquire);
		uint8_t *copy;

		if (length == 0)
			break; /* still being written */
		memcpy(&r, at, sizeof r);
		r.length = length;
		if (length > end - out.read || !well_formed(&r) || !(copy = stub_alloc(length))) {
			out.read = end; /* a damaged record: what follows cannot be found */
			break;
		}
		memcpy(copy, at, length);
		if (r.kind == ZC_OUTPUT_PRINTF)
			print_printf(copy, &r);
		else if (r.kind == ZC_OUTPUT_ASSERT)
			print_assert(copy, &r);
		stub_free(copy);
		out.read += length;
	}
	fflush(stdout);
	uint32_t lost = atomic_exchange((_Atomic uint32_t *)&o->lost, 0);
	if (lost)
		fprintf(stderr, "zluda-convert: %u device printf record%s did not fit the %u-byte buffer "
		        "and %s lost (cudaLimitPrintfFifoSize sets its size)\n", lost,
		        lost == 1 ? "" : "s", o->size, lost == 1 ? "was" : "were");
	/* Everything reserved is printed: start over, unless the device reserved more meanwhile. */
	if (out.read == used && used <= o->size) {
		memset(data, 0, out.read);
		if (atomic_compare_exchange_strong((_Atomic uint32_t *)&o->used, &used, 0))
			out.read = 0;
	} else if (used > o->size && out.read == end) {
		memset(data, 0, end);
		if (atomic_compare_exchange_strong((_Atomic uint32_t *)&o->used, &used, 0))
			out.read = 0;
	}
	CUresult r = out.asserted && sync != CUDA_SUCCESS ? CUDA_ERROR_ASSERT : sync;
	pthread_mutex_unlock(&out.lock);
	return r;
}
