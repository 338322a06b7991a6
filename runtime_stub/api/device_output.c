/* What GPU code prints (abi/device_output.h): one ring in mapped host memory for the
 * process, which every code object the HIP driver loads is pointed at; each
 * synchronisation prints the records that are complete, in the order they were reserved,
 * with the CPU driver's formatting (device_printf.c). Being host memory, it is still
 * readable after a trap has lost the GPU context, which is when an assert's message
 * matters. The records are also printed while kernels run, as NVIDIA's driver does; output
 * that outruns that and passes the ring's size overwrites the oldest, as on NVIDIA's GPUs
 * (an H200 then keeps the newest and says nothing); tracing says so. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "device_output.h"

static struct {
	pthread_mutex_t lock;
	struct zc_device_output *buffer;
	uint64_t read;   /* the ring's count at the first record not printed yet */
	bool asserted;   /* an assert's record was printed: launch failures are CUDA_ERROR_ASSERT */
} out = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, false};

static void drain_at_exit(void)
{
	zc_device_output_drain(CUDA_SUCCESS);
}

/* NVIDIA's driver prints device output while kernels run, not only at synchronisations:
 * a thread printing 200,000 lines loses none there. So does a thread of ours, every 2 ms. */
static void *drain_while_running(void *unused)
{
	(void)unused;
	for (;;) {
		nanosleep(&(struct timespec){.tv_nsec = 2000000}, NULL);
		zc_device_output_drain(CUDA_SUCCESS);
	}
	return NULL;
}

void *
zc_device_output_buffer(int ordinal, size_t bytes)
{
	void *p = NULL;

	pthread_mutex_lock(&out.lock);
	if (!out.buffer && bytes >= 8 * sizeof(struct zc_output_record) && bytes < UINT32_MAX &&
	    zc_drv->alloc(ordinal, ZC_MEM_HOST, sizeof *out.buffer + bytes, &p) == CUDA_SUCCESS) {
		memset(p, 0, sizeof *out.buffer + bytes);
		pthread_t drainer;

		out.buffer = p;
		out.buffer->size = (uint32_t)bytes / 8 * 8;
		atexit(drain_at_exit);
		if (pthread_create(&drainer, NULL, drain_while_running, NULL) == 0)
			pthread_detach(drainer);
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

/* The ring's bytes from count `at` on, into dst. */
static void
take_bytes(const struct zc_device_output *o, uint64_t at, void *dst, size_t n)
{
	const uint8_t *data = (const uint8_t *)(o + 1);
	size_t place = (size_t)(at % o->size), first = n < o->size - place ? n : o->size - place;

	memcpy(dst, data + place, first);
	memcpy((uint8_t *)dst + first, data, n - first);
}

enum record_state { INCOMPLETE, COMPLETE, DAMAGED };

/* Whether the record at count `at` is complete (its header in *r), still being written,
 * or complete but not well-formed (then what follows cannot be found). */
static enum record_state
record_at(const struct zc_device_output *o, uint64_t at, uint64_t used,
          struct zc_output_record *r)
{
	const uint8_t *data = (const uint8_t *)(o + 1);
	uint64_t tag = atomic_load_explicit((_Atomic uint64_t *)(data + at % o->size),
	                                    memory_order_acquire);

	if (tag != at + 1)
		return INCOMPLETE;
	take_bytes(o, at, r, sizeof *r);
	return r->length <= used - at && r->length <= o->size && well_formed(r) ? COMPLETE : DAMAGED;
}

CUresult
zc_device_output_drain(CUresult sync)
{
	struct zc_device_output *o;
	struct zc_output_record r;

	pthread_mutex_lock(&out.lock);
	if (!(o = out.buffer)) {
		pthread_mutex_unlock(&out.lock);
		return sync;
	}
	uint64_t used = atomic_load_explicit((_Atomic uint64_t *)&o->used, memory_order_acquire);
	if (used - out.read > o->size) {
		/* overwritten: the first whole record of the last `size` bytes */
		uint64_t from = out.read;

		out.read = (used - o->size + 7) / 8 * 8;
		while (out.read + sizeof r <= used && record_at(o, out.read, used, &r) != COMPLETE)
			out.read += 8;
		zc_trace_line("device printf: %llu bytes of output past the %u-byte buffer "
		              "(cudaLimitPrintfFifoSize) overwrote the oldest",
		              (unsigned long long)(used - from - o->size), o->size);
	}
	for (enum record_state state; out.read + sizeof r <= used &&
	                              (state = record_at(o, out.read, used, &r)) != INCOMPLETE;) {
		uint8_t *copy = state == COMPLETE ? stub_alloc(r.length) : NULL;

		if (!copy) {
			out.read = used;
			break;
		}
		take_bytes(o, out.read, copy, r.length);
		if (r.kind == ZC_OUTPUT_PRINTF)
			print_printf(copy, &r);
		else if (r.kind == ZC_OUTPUT_ASSERT)
			print_assert(copy, &r);
		stub_free(copy);
		out.read += r.length;
	}
	fflush(stdout);
	CUresult result = out.asserted && sync != CUDA_SUCCESS ? CUDA_ERROR_ASSERT : sync;
	pthread_mutex_unlock(&out.lock);
	return result;
}

CUresult
zc_synchronize_stream(struct zc_drv_stream *stream)
{
	return zc_device_output_drain(zc_drv->stream_sync(stream));
}

CUresult
zc_synchronize_event(struct zc_drv_event *event)
{
	return zc_device_output_drain(zc_drv->event_sync(event));
}

CUresult
zc_context_sync(struct zc_context *ctx)
{
	CUresult first = CUDA_SUCCESS;

	pthread_mutex_lock(&ctx->lock);
	for (struct zc_stream *s = ctx->streams; s; s = s->next) {
		CUresult r = zc_synchronize_stream(s->drv);
		if (first == CUDA_SUCCESS)
			first = r;
	}
	pthread_mutex_unlock(&ctx->lock);
	return first;
}
