/* Streams: created ones, each context's legacy NULL stream, and each thread's per-thread
 * default stream; the legacy stream's implicit ordering; the one funnel work is queued
 * through; host functions and callbacks. */
#include "api.h"

CUresult
zc_stream_new(struct zc_context *ctx, enum zc_stream_kind kind, unsigned flags, int priority,
              struct zc_stream **out)
{
	struct zc_stream *s = stub_alloc(sizeof *s);
	CUresult r;

	if (!s)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream");
	static _Atomic unsigned long long last_id;

	*s = (struct zc_stream){ .ctx = ctx, .kind = kind, .flags = flags, .priority = priority,
	                         .id = ++last_id };
	r = zc_drv->stream_create(ctx->device, kind, flags, priority, &s->drv);
	if (r == CUDA_SUCCESS && !zc_handle_add(s, ZC_HANDLE_STREAM)) {
		zc_drv->stream_destroy(s->drv);
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream handle");
	}
	if (r != CUDA_SUCCESS) {
		stub_free(s);
		return r;
	}
	pthread_mutex_lock(&ctx->lock);
	s->next = ctx->streams;
	ctx->streams = s;
	pthread_mutex_unlock(&ctx->lock);
	*out = s;
	return CUDA_SUCCESS;
}

static void
end_stream(struct zc_stream *s)
{
	zc_capture_stream_gone(s);
	zc_handle_remove(s);
	zc_drv->stream_destroy(s->drv);
	stub_free(s);
}

void
zc_streams_release(struct zc_context *ctx)
{
	struct zc_stream *s;

	pthread_mutex_lock(&ctx->lock);
	s = ctx->streams;
	ctx->streams = NULL;
	pthread_mutex_unlock(&ctx->lock);
	while (s) {
		struct zc_stream *next = s->next;
		end_stream(s);
		s = next;
	}
}

/* Takes s out of its context's list; false when someone else already did. */
static bool
unlink_stream(struct zc_stream *s)
{
	bool found = false;

	pthread_mutex_lock(&s->ctx->lock);
	for (struct zc_stream **link = &s->ctx->streams; *link; link = &(*link)->next) {
		if (*link == s) {
			*link = s->next;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&s->ctx->lock);
	return found;
}

/* Each thread's per-thread default streams, one per context it used; ended when the
 * thread exits. */
struct thread_stream {
	struct thread_stream *next;
	struct zc_context *ctx;
	struct zc_stream *stream;
};

static _Thread_local struct thread_stream *thread_streams;
static pthread_key_t thread_exit_key;
static pthread_once_t thread_exit_once = PTHREAD_ONCE_INIT;

static void
end_thread_streams(void *unused)
{
	struct thread_stream *t = thread_streams;

	thread_streams = NULL;
	while (t) {
		struct thread_stream *next = t->next;
		/* A context torn down first has ended the stream already. */
		if (zc_handle_is(t->stream, ZC_HANDLE_STREAM) && t->stream->ctx == t->ctx &&
		    unlink_stream(t->stream))
			end_stream(t->stream);
		stub_free(t);
		t = next;
	}
}

static void
make_thread_exit_key(void)
{
	pthread_key_create(&thread_exit_key, end_thread_streams);
}

static CUresult
per_thread_stream(struct zc_context *ctx, struct zc_stream **out)
{
	struct thread_stream *t;
	CUresult r;

	for (t = thread_streams; t; t = t->next) {
		if (t->ctx == ctx && zc_handle_is(t->stream, ZC_HANDLE_STREAM) && t->stream->ctx == ctx) {
			*out = t->stream;
			return CUDA_SUCCESS;
		}
	}
	if (!(t = stub_alloc(sizeof *t)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "per-thread stream");
	if ((r = zc_stream_new(ctx, ZC_STREAM_PER_THREAD, 0, ZC_LEAST_PRIORITY, &t->stream))) {
		stub_free(t);
		return r;
	}
	pthread_once(&thread_exit_once, make_thread_exit_key);
	pthread_setspecific(thread_exit_key, &thread_streams);
	t->ctx = ctx;
	t->next = thread_streams;
	thread_streams = t;
	*out = t->stream;
	return CUDA_SUCCESS;
}

CUresult
zc_stream_resolve(CUstream handle, bool per_thread, struct zc_stream **stream)
{
	struct zc_context *ctx;
	CUresult r;

	if (!handle)
		handle = per_thread ? CU_STREAM_PER_THREAD : CU_STREAM_LEGACY;
	if (handle == CU_STREAM_LEGACY || handle == CU_STREAM_PER_THREAD) {
		if ((r = zc_context_current(&ctx)) != CUDA_SUCCESS)
			return r;
		if (handle == CU_STREAM_PER_THREAD)
			return per_thread_stream(ctx, stream);
		*stream = ctx->legacy;
		return CUDA_SUCCESS;
	}
	if ((r = zc_initialized()) != CUDA_SUCCESS)
		return r;
	if (!zc_handle_is(handle, ZC_HANDLE_STREAM))
		return stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a live stream", (void *)handle);
	*stream = handle;
	return CUDA_SUCCESS;
}

static bool
busy(struct zc_stream *s)
{
	return zc_drv->stream_query(s->drv) == CUDA_ERROR_NOT_READY;
}

/* Work on the legacy stream waits for all blocking streams of its context, and work on a
 * blocking stream waits for the legacy stream. Drivers without a stream_wait_stream do
 * this themselves. */
CUresult
zc_stream_begin(struct zc_stream *s)
{
	struct zc_context *ctx = s->ctx;
	CUresult r = CUDA_SUCCESS;

	if (s->kind == ZC_STREAM_LEGACY && (r = zc_capture_legacy_use(ctx)) != CUDA_SUCCESS)
		return r;
	if (!zc_drv->stream_wait_stream || (s->flags & CU_STREAM_NON_BLOCKING))
		return CUDA_SUCCESS;
	pthread_mutex_lock(&ctx->lock);
	if (s->kind == ZC_STREAM_LEGACY) {
		for (struct zc_stream *t = ctx->streams; t && r == CUDA_SUCCESS; t = t->next)
			if (t != s && !(t->flags & CU_STREAM_NON_BLOCKING) && busy(t))
				r = zc_drv->stream_wait_stream(s->drv, t->drv);
	} else if (ctx->legacy && busy(ctx->legacy)) {
		r = zc_drv->stream_wait_stream(s->drv, ctx->legacy->drv);
	}
	pthread_mutex_unlock(&ctx->lock);
	return r;
}

CUresult
zc_stream_submit(struct zc_stream *s, const struct zc_op *op)
{
	CUresult r;

	if (s->capture || (op->kind == ZC_OP_EVENT_WAIT && op->event.event->capture_id))
		return zc_capture_op(s, op);
	if ((r = zc_stream_begin(s)) != CUDA_SUCCESS)
		return r;
	switch (op->kind) {
	case ZC_OP_LAUNCH:
		return zc_drv->launch(s->drv, &op->kernel.launch);
	case ZC_OP_COPY:
		return zc_drv->copy(s->drv, &op->copy);
	case ZC_OP_FILL:
		return zc_drv->fill(s->drv, &op->fill);
	case ZC_OP_HOST:
		return zc_drv->host_func(s->drv, op->host.fn, op->host.arg);
	case ZC_OP_EVENT_RECORD:
		r = zc_drv->event_record(op->event.event->drv, s->drv);
		if (r == CUDA_SUCCESS) {
			op->event.event->recorded = true;
			zc_capture_event_clear(op->event.event);
		}
		return r;
	case ZC_OP_EVENT_WAIT:
		return zc_drv->stream_wait_event(s->drv, op->event.event->drv);
	}
	return stub_fail(CUDA_ERROR_INVALID_VALUE, "stream work of kind %d", (int)op->kind);
}

static CUresult
create(CUstream *phStream, unsigned flags, int priority)
{
	struct zc_context *ctx;
	CUresult r = zc_context_current(&ctx);

	if (r != CUDA_SUCCESS)
		return r;
	if (!phStream)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phStream");
	if (flags & ~(unsigned)CU_STREAM_NON_BLOCKING)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags);
	/* CUDA clamps priorities into the range it reports. */
	if (priority > ZC_LEAST_PRIORITY)
		priority = ZC_LEAST_PRIORITY;
	if (priority < ZC_GREATEST_PRIORITY)
		priority = ZC_GREATEST_PRIORITY;
	return zc_stream_new(ctx, ZC_STREAM_CREATED, flags, priority, phStream);
}

ZC_EXPORT CUresult
cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
	CUresult r = create(phStream, Flags, ZC_LEAST_PRIORITY);

	return TRACE(r, "0x%x -> %p", Flags, r == CUDA_SUCCESS ? (void *)*phStream : NULL);
}

ZC_EXPORT CUresult
cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
	CUresult r = create(phStream, flags, priority);

	return TRACE(r, "0x%x, %d -> %p", flags, priority,
	             r == CUDA_SUCCESS ? (void *)*phStream : NULL);
}

ZC_EXPORT CUresult
cuStreamDestroy_v2(CUstream hStream)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && (!zc_handle_is(hStream, ZC_HANDLE_STREAM) ||
	                          hStream->kind != ZC_STREAM_CREATED || !unlink_stream(hStream)))
		r = stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a created stream", (void *)hStream);
	if (r == CUDA_SUCCESS)
		end_stream(hStream);
	return TRACE(r, "%p", (void *)hStream);
}

static CUresult
query(CUstream handle, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS)
		r = zc_capture_refuse(s, "cuStreamQuery");
	return r == CUDA_SUCCESS ? zc_drv->stream_query(s->drv) : r;
}

ZC_EXPORT CUresult cuStreamQuery(CUstream h) { return TRACE(query(h, false), "%p", (void *)h); }
ZC_EXPORT CUresult cuStreamQuery_ptsz(CUstream h) { return TRACE(query(h, true), "%p", (void *)h); }

static CUresult
wait_event(CUstream handle, CUevent event, unsigned flags, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r != CUDA_SUCCESS)
		return r;
	if (!zc_handle_is(event, ZC_HANDLE_EVENT))
		return stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a live event", (void *)event);
	if (flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags);
	struct zc_op op = { .kind = ZC_OP_EVENT_WAIT, .event = { event, flags } };
	return zc_stream_submit(s, &op);
}

ZC_EXPORT CUresult
cuStreamWaitEvent(CUstream h, CUevent e, unsigned int flags)
{
	return TRACE(wait_event(h, e, flags, false), "%p, %p, 0x%x", (void *)h, (void *)e, flags);
}

ZC_EXPORT CUresult
cuStreamWaitEvent_ptsz(CUstream h, CUevent e, unsigned int flags)
{
	return TRACE(wait_event(h, e, flags, true), "%p, %p, 0x%x", (void *)h, (void *)e, flags);
}

static CUresult
host_func(CUstream handle, void (*fn)(void *), void *arg, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && !fn)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL function");
	struct zc_op op = { .kind = ZC_OP_HOST, .host = { fn, arg } };
	return r == CUDA_SUCCESS ? zc_stream_submit(s, &op) : r;
}

ZC_EXPORT CUresult
cuLaunchHostFunc(CUstream h, CUhostFn fn, void *userData)
{
	return TRACE(host_func(h, fn, userData, false), "%p, %p", (void *)h, userData);
}

ZC_EXPORT CUresult
cuLaunchHostFunc_ptsz(CUstream h, CUhostFn fn, void *userData)
{
	return TRACE(host_func(h, fn, userData, true), "%p, %p", (void *)h, userData);
}

/* A stream callback also gets the stream and a status; the closure carries them. */
struct callback {
	CUstreamCallback fn;
	CUstream stream;
	void *user_data;
};

static void
run_callback(void *arg)
{
	struct callback *c = arg;

	c->fn(c->stream, CUDA_SUCCESS, c->user_data);
	stub_free(c);
}

static CUresult
add_callback(CUstream handle, CUstreamCallback fn, void *user_data, unsigned flags,
             bool per_thread)
{
	struct callback *c;
	CUresult r;

	if (!fn || flags != 0)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL callback or flags 0x%x", flags);
	if (!(c = stub_alloc(sizeof *c)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "callback");
	*c = (struct callback){ fn, handle, user_data };
	if ((r = host_func(handle, run_callback, c, per_thread)) != CUDA_SUCCESS)
		stub_free(c);
	return r;
}

ZC_EXPORT CUresult
cuStreamAddCallback(CUstream h, CUstreamCallback fn, void *userData, unsigned int flags)
{
	return TRACE(add_callback(h, fn, userData, flags, false), "%p, %p", (void *)h, userData);
}

ZC_EXPORT CUresult
cuStreamAddCallback_ptsz(CUstream h, CUstreamCallback fn, void *userData, unsigned int flags)
{
	return TRACE(add_callback(h, fn, userData, flags, true), "%p, %p", (void *)h, userData);
}

static CUresult
get_flags(CUstream handle, unsigned *flags, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && !flags)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL flags");
	if (r == CUDA_SUCCESS)
		*flags = s->flags;
	return r;
}

ZC_EXPORT CUresult
cuStreamGetFlags(CUstream h, unsigned int *flags)
{
	return TRACE(get_flags(h, flags, false), "%p", (void *)h);
}

ZC_EXPORT CUresult
cuStreamGetFlags_ptsz(CUstream h, unsigned int *flags)
{
	return TRACE(get_flags(h, flags, true), "%p", (void *)h);
}

static CUresult
get_id(CUstream handle, unsigned long long *id, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && !id)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL streamId");
	if (r == CUDA_SUCCESS)
		*id = s->id;
	return r;
}

ZC_EXPORT CUresult
cuStreamGetId(CUstream h, unsigned long long *streamId)
{
	return TRACE(get_id(h, streamId, false), "%p", (void *)h);
}

ZC_EXPORT CUresult
cuStreamGetId_ptsz(CUstream h, unsigned long long *streamId)
{
	return TRACE(get_id(h, streamId, true), "%p", (void *)h);
}

static CUresult
get_device(CUstream handle, CUdevice *device, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && !device)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL device");
	if (r == CUDA_SUCCESS)
		*device = s->ctx->device;
	return r;
}

ZC_EXPORT CUresult
cuStreamGetDevice(CUstream h, CUdevice *device)
{
	return TRACE(get_device(h, device, false), "%p", (void *)h);
}

ZC_EXPORT CUresult
cuStreamGetDevice_ptsz(CUstream h, CUdevice *device)
{
	return TRACE(get_device(h, device, true), "%p", (void *)h);
}

static CUresult
get_priority(CUstream handle, int *priority, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && !priority)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL priority");
	if (r == CUDA_SUCCESS)
		*priority = s->priority;
	return r;
}

ZC_EXPORT CUresult
cuStreamGetPriority(CUstream h, int *priority)
{
	return TRACE(get_priority(h, priority, false), "%p", (void *)h);
}

ZC_EXPORT CUresult
cuStreamGetPriority_ptsz(CUstream h, int *priority)
{
	return TRACE(get_priority(h, priority, true), "%p", (void *)h);
}

static CUresult
get_ctx(CUstream handle, CUcontext *pctx, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && !pctx)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pctx");
	if (r == CUDA_SUCCESS)
		*pctx = s->ctx;
	return r;
}

ZC_EXPORT CUresult
cuStreamGetCtx(CUstream h, CUcontext *pctx)
{
	return TRACE(get_ctx(h, pctx, false), "%p", (void *)h);
}

ZC_EXPORT CUresult
cuStreamGetCtx_ptsz(CUstream h, CUcontext *pctx)
{
	return TRACE(get_ctx(h, pctx, true), "%p", (void *)h);
}

/* ---- attributes: hints, kept and handed back ----------------------------------------- */

static CUresult
check_access_policy(const CUaccessPolicyWindow *w)
{
	if (w->num_bytes > ZC_MAX_ACCESS_POLICY_WINDOW || !(w->hitRatio >= 0 && w->hitRatio <= 1) ||
	    w->hitProp < 0 || w->hitProp > 2 || w->missProp < 0 || w->missProp > 2)
		return stub_fail(CUDA_ERROR_INVALID_VALUE,
		                 "access policy window of %zu bytes (at most %zu), hit ratio %g, "
		                 "properties %d/%d", w->num_bytes, ZC_MAX_ACCESS_POLICY_WINDOW,
		                 (double)w->hitRatio, w->hitProp, w->missProp);
	return CUDA_SUCCESS;
}

/* The stream of an attribute call, whose value must not be NULL. */
static CUresult
attribute_stream(CUstream h, bool per_thread, const void *value, struct zc_stream **s)
{
	CUresult r = zc_stream_resolve(h, per_thread, s);

	return r == CUDA_SUCCESS && !value ? stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL value") : r;
}

static CUresult
set_attribute(CUstream h, int id, const CUlaunchAttributeValue *v, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = attribute_stream(h, per_thread, v, &s);

	if (r != CUDA_SUCCESS)
		return r;
	switch (id) {
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		if ((r = check_access_policy(&v->accessPolicyWindow)) == CUDA_SUCCESS)
			s->access_policy = v->accessPolicyWindow;
		return r;
	case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		s->sync_policy = v->syncPolicy;
		return CUDA_SUCCESS;
	}
	return stub_fail(CUDA_ERROR_INVALID_VALUE, "stream attribute %d", id);
}

static CUresult
get_attribute(CUstream h, int id, CUlaunchAttributeValue *v, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = attribute_stream(h, per_thread, v, &s);

	if (r != CUDA_SUCCESS)
		return r;
	switch (id) {
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		v->accessPolicyWindow = s->access_policy;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		v->syncPolicy = s->sync_policy;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_PRIORITY:
		v->priority = s->priority;
		return CUDA_SUCCESS;
	}
	return stub_fail(CUDA_ERROR_INVALID_VALUE, "stream attribute %d", id);
}

static CUresult
copy_attributes(CUstream dst, CUstream src, bool per_thread)
{
	struct zc_stream *d, *s;
	CUresult r = zc_stream_resolve(dst, per_thread, &d);

	if (r == CUDA_SUCCESS)
		r = zc_stream_resolve(src, per_thread, &s);
	if (r == CUDA_SUCCESS) {
		d->access_policy = s->access_policy;
		d->sync_policy = s->sync_policy;
	}
	return r;
}

ZC_EXPORT CUresult
cuStreamSetAttribute(CUstream h, int attr, const CUlaunchAttributeValue *value)
{
	return TRACE(set_attribute(h, attr, value, false), "%p, %d", (void *)h, attr);
}

ZC_EXPORT CUresult
cuStreamSetAttribute_ptsz(CUstream h, int attr, const CUlaunchAttributeValue *value)
{
	return TRACE(set_attribute(h, attr, value, true), "%p, %d", (void *)h, attr);
}

ZC_EXPORT CUresult
cuStreamGetAttribute(CUstream h, int attr, CUlaunchAttributeValue *value)
{
	return TRACE(get_attribute(h, attr, value, false), "%p, %d", (void *)h, attr);
}

ZC_EXPORT CUresult
cuStreamGetAttribute_ptsz(CUstream h, int attr, CUlaunchAttributeValue *value)
{
	return TRACE(get_attribute(h, attr, value, true), "%p, %d", (void *)h, attr);
}

ZC_EXPORT CUresult
cuStreamCopyAttributes(CUstream dst, CUstream src)
{
	return TRACE(copy_attributes(dst, src, false), "%p, %p", (void *)dst, (void *)src);
}

ZC_EXPORT CUresult
cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src)
{
	return TRACE(copy_attributes(dst, src, true), "%p, %p", (void *)dst, (void *)src);
}
