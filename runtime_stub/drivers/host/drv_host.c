/* The CPU driver: device memory is host memory, and each stream is an ordered queue that a
 * worker thread of its own runs, so work is asynchronous to the thread that queued it.
 * Events mark a point in a queue and take the time when the worker reaches it. Kernels
 * run in drv_host_exec.c; the first launch that fails makes every later synchronisation
 * fail with its error, as CUDA's sticky errors do. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drv_host.h"

struct zc_drv_event {
	pthread_mutex_t lock;
	pthread_cond_t reached;
	uint64_t records;    /* records issued */
	uint64_t completed;  /* the latest record the stream has reached */
	struct timespec time;
	atomic_int refs;     /* the owner's, and one per queued op that names the event */
};

enum op_kind {
	OP_COPY, OP_FILL, OP_HOST_FUNC, OP_RECORD, OP_WAIT_EVENT, OP_WAIT_STREAM, OP_LAUNCH, OP_QUIT
};

struct op {
	struct op *next;
	enum op_kind kind;
	uint64_t seq;
	union {
		struct zc_copy copy;
		struct zc_fill fill;
		struct {
			void (*fn)(void *);
			void *arg;
		} host;
		struct {
			struct zc_drv_event *event;
			uint64_t record;
		} event;
		struct {
			struct zc_drv_stream *stream;
			uint64_t seq;
		} stream;
		struct zc_launch launch;  /* its params are a copy the op owns */
	} u;
};

static _Atomic CUresult sticky_error;

struct zc_drv_stream {
	pthread_mutex_t lock;
	pthread_cond_t progressed;
	struct op *head, *tail;
	uint64_t queued;  /* seq of the last op queued */
	uint64_t done;    /* seq of the last op finished */
	atomic_int refs;  /* the owner's, the worker's, and one per op waiting on this stream */
};

static void
event_unref(struct zc_drv_event *e)
{
	if (atomic_fetch_sub(&e->refs, 1) == 1) {
		pthread_mutex_destroy(&e->lock);
		pthread_cond_destroy(&e->reached);
		stub_free(e);
	}
}

static void
stream_unref(struct zc_drv_stream *s)
{
	if (atomic_fetch_sub(&s->refs, 1) == 1) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->progressed);
		stub_free(s);
	}
}

static void
run_copy(const struct zc_copy *c)
{
	for (size_t z = 0; z < c->depth; z++) {
		for (size_t y = 0; y < c->height; y++) {
			char *dst = (char *)c->dst + (z * c->dst_height + y) * c->dst_pitch;
			const char *src = (const char *)c->src + (z * c->src_height + y) * c->src_pitch;
			memmove(dst, src, c->width);
		}
	}
}

static void
run_fill(const struct zc_fill *f)
{
	for (size_t y = 0; y < f->height; y++) {
		char *row = (char *)f->dst + y * f->pitch;
		if (f->elem_size == 1) {
			memset(row, (int)f->value, f->width);
		} else if (f->elem_size == 2) {
			uint16_t v = (uint16_t)f->value;
			for (size_t x = 0; x < f->width; x++)
				memcpy(row + 2 * x, &v, 2);
		} else {
			for (size_t x = 0; x < f->width; x++)
				memcpy(row + 4 * x, &f->value, 4);
		}
	}
}

static void
run(struct op *op)
{
	switch (op->kind) {
	case OP_COPY:
		run_copy(&op->u.copy);
		break;
	case OP_FILL:
		run_fill(&op->u.fill);
		break;
	case OP_HOST_FUNC:
		op->u.host.fn(op->u.host.arg);
		break;
	case OP_RECORD: {
		struct zc_drv_event *e = op->u.event.event;
		pthread_mutex_lock(&e->lock);
		if (op->u.event.record > e->completed) {
			e->completed = op->u.event.record;
			clock_gettime(CLOCK_MONOTONIC, &e->time);
		}
		pthread_cond_broadcast(&e->reached);
		pthread_mutex_unlock(&e->lock);
		event_unref(e);
		break;
	}
	case OP_WAIT_EVENT: {
		struct zc_drv_event *e = op->u.event.event;
		pthread_mutex_lock(&e->lock);
		while (e->completed < op->u.event.record)
			pthread_cond_wait(&e->reached, &e->lock);
		pthread_mutex_unlock(&e->lock);
		event_unref(e);
		break;
	}
	case OP_WAIT_STREAM: {
		struct zc_drv_stream *t = op->u.stream.stream;
		pthread_mutex_lock(&t->lock);
		while (t->done < op->u.stream.seq)
			pthread_cond_wait(&t->progressed, &t->lock);
		pthread_mutex_unlock(&t->lock);
		stream_unref(t);
		break;
	}
	case OP_LAUNCH: {
		CUresult none = CUDA_SUCCESS;
		if (atomic_load(&sticky_error) == CUDA_SUCCESS) {
			CUresult r = zc_host_run_grid(&op->u.launch);
			if (r != CUDA_SUCCESS)
				atomic_compare_exchange_strong(&sticky_error, &none, r);
		}
		stub_free((void *)op->u.launch.params);
		break;
	}
	case OP_QUIT:
		break;
	}
}

static void *
worker(void *arg)
{
	struct zc_drv_stream *s = arg;
	bool quit = false;

	while (!quit) {
		pthread_mutex_lock(&s->lock);
		while (!s->head)
			pthread_cond_wait(&s->progressed, &s->lock);
		struct op *op = s->head;
		/* An event is reached once everything before it is done. Recording it under the
		 * stream's lock, with the stream's progress, means no thread sees one without the
		 * other: not the stream idle with its last event pending, nor the reverse. */
		bool record = op->kind == OP_RECORD;
		if (!record) {
			pthread_mutex_unlock(&s->lock);
			run(op);
			pthread_mutex_lock(&s->lock);
		}
		quit = op->kind == OP_QUIT;
		s->head = op->next;
		if (!s->head)
			s->tail = NULL;
		s->done = op->seq;
		if (record)
			run(op);
		pthread_cond_broadcast(&s->progressed);
		pthread_mutex_unlock(&s->lock);
		stub_free(op);
	}
	stream_unref(s);
	return NULL;
}

static CUresult
enqueue(struct zc_drv_stream *s, struct op *op)
{
	pthread_mutex_lock(&s->lock);
	op->seq = ++s->queued;
	if (s->tail)
		s->tail->next = op;
	else
		s->head = op;
	s->tail = op;
	pthread_cond_broadcast(&s->progressed);
	pthread_mutex_unlock(&s->lock);
	return CUDA_SUCCESS;
}

static struct op *
new_op(enum op_kind kind)
{
	struct op *op = stub_alloc(sizeof *op);

	if (op)
		op->kind = kind;
	return op;
}

/* One device, or ZLUDA_CONVERT_HOST_DEVICES of them (up to 16), so that code written for
 * several GPUs runs here too. They share the CPU and its memory. */
enum { MAX_HOST_DEVICES = 16 };

static CUresult
host_init(int *device_count)
{
	const char *wanted = getenv("ZLUDA_CONVERT_HOST_DEVICES");
	char *end;
	long n = wanted && *wanted ? strtol(wanted, &end, 10) : 1;

	if (wanted && *wanted && (*end || n < 1 || n > MAX_HOST_DEVICES)) {
		fprintf(stderr, "zluda-convert: ZLUDA_CONVERT_HOST_DEVICES=%s: not a number of devices "
		        "from 1 to %d; the CPU driver offers 1\n", wanted, MAX_HOST_DEVICES);
		n = 1;
	}
	*device_count = (int)n;
	return CUDA_SUCCESS;
}

static CUresult
host_device_info(int ordinal, struct zc_device_info *i)
{
	struct zc_host_system system;
	/* A fixed, recognisable UUID: "zluda-convert" and the ordinal. */
	static const uint8_t uuid[16] = "zluda-convert-h";

	zc_host_system(&system);
	*i = (struct zc_device_info){
		.name = "zluda-convert host CPU device",
		.total_mem = system.total_memory,
		/* Ampere's limits, as the compute capability device.c reports: what programs
		 * built for the default sm_75..sm_86 expect. */
		.sm_count = (int)system.processors,
		.clock_khz = 1000000, .mem_clock_khz = 1000000, .mem_bus_width = 64,
		.l2_bytes = 4 << 20,
		.max_threads_per_block = 1024, .max_block = { 1024, 1024, 64 },
		.max_grid = { 0x7fffffff, 65535, 65535 },
		.max_threads_per_sm = 1536, .max_blocks_per_sm = 16,
		.shared_per_block = 48 << 10, .shared_per_block_optin = 99 << 10,
		.shared_per_sm = 100 << 10,
		.const_mem = 64 << 10, .regs_per_block = 65536, .regs_per_sm = 65536,
		.pci_bus = ordinal,
		.integrated = 1,
		.virtual_memory = ZC_HOST_VIRTUAL_MEMORY,
	};
	memcpy(i->uuid, uuid, 15);
	i->uuid[15] = (uint8_t)ordinal;
	return CUDA_SUCCESS;
}

static CUresult
host_mem_info(int ordinal, size_t *free_bytes, size_t *total_bytes)
{
	struct zc_host_system system;

	zc_host_system(&system);
	*free_bytes = system.free_memory;
	*total_bytes = system.total_memory;
	return CUDA_SUCCESS;
}

/* Device memory, not the stub's own: it has CUDA's 256-byte alignment and is not zeroed,
 * as on a GPU. */
/* The CPU is the device: host memory is device memory already. */
static CUresult
host_register(int ordinal, void *ptr, size_t bytes)
{
	(void)ordinal, (void)ptr, (void)bytes;
	return CUDA_SUCCESS;
}

static CUresult
host_unregister(void *ptr)
{
	(void)ptr;
	return CUDA_SUCCESS;
}

/* The devices share the host's memory: each reaches all of it. */
static CUresult
host_peer_can_access(int ordinal, int peer, int *can)
{
	(void)ordinal, (void)peer;
	*can = 1;
	return CUDA_SUCCESS;
}

static CUresult
host_peer_switch(int ordinal, int peer)
{
	(void)ordinal, (void)peer;
	return CUDA_SUCCESS;
}

static CUresult
host_alloc(int ordinal, enum zc_mem_kind kind, size_t bytes, void **ptr)
{
	size_t rounded = (bytes + 255) & ~(size_t)255;

	if (rounded < bytes || !(*ptr = zc_host_aligned_alloc(256, rounded)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "%zu bytes", bytes);
	return CUDA_SUCCESS;
}

static CUresult
host_free(enum zc_mem_kind kind, void *ptr)
{
	zc_host_aligned_free(ptr);
	return CUDA_SUCCESS;
}

static CUresult
host_stream_create(int ordinal, enum zc_stream_kind kind, unsigned flags, int priority,
                   struct zc_drv_stream **out)
{
	struct zc_drv_stream *s = stub_alloc(sizeof *s);
	pthread_t thread;

	if (!s)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream");
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->progressed, NULL);
	atomic_init(&s->refs, 2);
	if (pthread_create(&thread, NULL, worker, s) != 0) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->progressed);
		stub_free(s);
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream worker thread");
	}
	pthread_detach(thread);
	*out = s;
	return CUDA_SUCCESS;
}

static CUresult
host_stream_destroy(struct zc_drv_stream *s)
{
	struct op *op = new_op(OP_QUIT);

	if (!op)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream end");
	enqueue(s, op);
	stream_unref(s);
	return CUDA_SUCCESS;
}

static CUresult
host_stream_query(struct zc_drv_stream *s)
{
	pthread_mutex_lock(&s->lock);
	bool idle = s->done == s->queued;
	pthread_mutex_unlock(&s->lock);
	return idle ? atomic_load(&sticky_error) : CUDA_ERROR_NOT_READY;
}

static CUresult
host_stream_sync(struct zc_drv_stream *s)
{
	pthread_mutex_lock(&s->lock);
	uint64_t target = s->queued;
	while (s->done < target)
		pthread_cond_wait(&s->progressed, &s->lock);
	pthread_mutex_unlock(&s->lock);
	return atomic_load(&sticky_error);
}

static CUresult
host_stream_wait_stream(struct zc_drv_stream *waiter, struct zc_drv_stream *target)
{
	struct op *op = new_op(OP_WAIT_STREAM);

	if (!op)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream wait");
	pthread_mutex_lock(&target->lock);
	op->u.stream.seq = target->queued;
	pthread_mutex_unlock(&target->lock);
	atomic_fetch_add(&target->refs, 1);
	op->u.stream.stream = target;
	return enqueue(waiter, op);
}

static CUresult
host_copy(struct zc_drv_stream *s, const struct zc_copy *c)
{
	struct op *op = new_op(OP_COPY);

	if (!op)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "copy");
	op->u.copy = *c;
	return enqueue(s, op);
}

static CUresult
host_fill(struct zc_drv_stream *s, const struct zc_fill *f)
{
	struct op *op = new_op(OP_FILL);

	if (!op)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "fill");
	op->u.fill = *f;
	return enqueue(s, op);
}

static CUresult
host_host_func(struct zc_drv_stream *s, void (*fn)(void *), void *arg)
{
	struct op *op = new_op(OP_HOST_FUNC);

	if (!op)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "host function");
	op->u.host.fn = fn;
	op->u.host.arg = arg;
	return enqueue(s, op);
}

static CUresult
host_launch(struct zc_drv_stream *s, const struct zc_launch *l)
{
	CUresult r = atomic_load(&sticky_error);
	struct op *op;
	void *params;

	if (r != CUDA_SUCCESS)
		return r;
	if (!(op = new_op(OP_LAUNCH)) || !(params = stub_alloc(l->params_size))) {
		stub_free(op);
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "launch");
	}
	if (l->params_size)
		memcpy(params, l->params, l->params_size);
	op->u.launch = *l;
	op->u.launch.params = params;
	op->u.launch.args = NULL;  /* they point into the caller's buffer */
	return enqueue(s, op);
}

static CUresult
host_event_create(unsigned flags, struct zc_drv_event **out)
{
	struct zc_drv_event *e = stub_alloc(sizeof *e);

	if (!e)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "event");
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->reached, NULL);
	atomic_init(&e->refs, 1);
	*out = e;
	return CUDA_SUCCESS;
}

static CUresult
host_event_destroy(struct zc_drv_event *e)
{
	event_unref(e);
	return CUDA_SUCCESS;
}

static CUresult
host_event_record(struct zc_drv_event *e, struct zc_drv_stream *s)
{
	struct op *op = new_op(OP_RECORD);

	if (!op)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "event record");
	pthread_mutex_lock(&e->lock);
	op->u.event.record = ++e->records;
	pthread_mutex_unlock(&e->lock);
	atomic_fetch_add(&e->refs, 1);
	op->u.event.event = e;
	return enqueue(s, op);
}

static CUresult
host_stream_wait_event(struct zc_drv_stream *s, struct zc_drv_event *e)
{
	struct op *op = new_op(OP_WAIT_EVENT);

	if (!op)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "event wait");
	pthread_mutex_lock(&e->lock);
	op->u.event.record = e->records;
	pthread_mutex_unlock(&e->lock);
	atomic_fetch_add(&e->refs, 1);
	op->u.event.event = e;
	return enqueue(s, op);
}

static CUresult
host_event_query(struct zc_drv_event *e)
{
	pthread_mutex_lock(&e->lock);
	bool reached = e->completed >= e->records;
	pthread_mutex_unlock(&e->lock);
	return reached ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

static CUresult
host_event_sync(struct zc_drv_event *e)
{
	pthread_mutex_lock(&e->lock);
	uint64_t target = e->records;
	while (e->completed < target)
		pthread_cond_wait(&e->reached, &e->lock);
	pthread_mutex_unlock(&e->lock);
	return atomic_load(&sticky_error);
}

static CUresult
host_event_elapsed(float *ms, struct zc_drv_event *start, struct zc_drv_event *end)
{
	struct timespec t0, t1;

	if (host_event_query(start) != CUDA_SUCCESS || host_event_query(end) != CUDA_SUCCESS)
		return stub_fail(CUDA_ERROR_NOT_READY, "an event has not been reached yet");
	pthread_mutex_lock(&start->lock);
	t0 = start->time;
	pthread_mutex_unlock(&start->lock);
	pthread_mutex_lock(&end->lock);
	t1 = end->time;
	pthread_mutex_unlock(&end->lock);
	*ms = (float)((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	return CUDA_SUCCESS;
}

const struct zc_driver zc_host_driver = {
	.name = "host",
	.init = host_init,
	.peer_can_access = host_peer_can_access,
	.peer_enable = host_peer_switch,
	.peer_disable = host_peer_switch,
#if ZC_HOST_VIRTUAL_MEMORY
	.va_granularity = zc_host_va_granularity,
	.va_reserve = zc_host_va_reserve,
	.va_free = zc_host_va_free,
	.physical_create = zc_host_physical_create,
	.physical_release = zc_host_physical_release,
	.physical_export = zc_host_physical_export,
	.physical_import = zc_host_physical_import,
	.va_map = zc_host_va_map,
	.va_unmap = zc_host_va_unmap,
	.va_set_access = zc_host_va_set_access,
#endif
	.device_info = host_device_info,
	.mem_info = host_mem_info,
	.alloc = host_alloc,
	.free = host_free,
	.host_register = host_register,
	.host_unregister = host_unregister,
	.stream_create = host_stream_create,
	.stream_destroy = host_stream_destroy,
	.stream_query = host_stream_query,
	.stream_sync = host_stream_sync,
	.stream_wait_stream = host_stream_wait_stream,
	.stream_wait_event = host_stream_wait_event,
	.copy = host_copy,
	.fill = host_fill,
	.host_func = host_host_func,
	.event_create = host_event_create,
	.event_destroy = host_event_destroy,
	.event_record = host_event_record,
	.event_query = host_event_query,
	.event_sync = host_event_sync,
	.event_elapsed = host_event_elapsed,
	.code_target = zc_host_code_target,
	.module_load = zc_host_module_load,
	.module_unload = zc_host_module_unload,
	.module_function = zc_host_module_function,
	.module_global = zc_host_module_global,
	.module_launch_queue = zc_host_module_launch_queue,
	.launch = host_launch,
};
