/* The calling thread's stack of current contexts (the top is the current one), what a
 * handle that may be NULL resolves to, the limits a context keeps, and the context-local
 * storage cudart keeps its own state in. Contexts as objects, and their life, are
 * context.c's. */
#include "api.h"

enum { MAX_STACK_DEPTH = 64 };

/* The calling thread's context stack; the top is the current context. */
static _Thread_local struct {
	struct zc_context *items[MAX_STACK_DEPTH];
	int depth;
} stack;

const size_t zc_default_limits[CU_LIMIT_COUNT] = {
	[CU_LIMIT_STACK_SIZE] = 1024,
	[CU_LIMIT_PRINTF_FIFO_SIZE] = 1 << 20,
	[CU_LIMIT_MALLOC_HEAP_SIZE] = 8 << 20,
	[CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH] = 2,
	[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = 2048,
	[CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 64,
	[CU_LIMIT_PERSISTING_L2_CACHE_SIZE] = 0,
};

size_t
zc_current_limit(CUlimit limit)
{
	struct zc_context *ctx = NULL;

	return zc_context_current(&ctx) == CUDA_SUCCESS ? ctx->limits[limit] : zc_default_limits[limit];
}

static CUresult
check_usable(struct zc_context *ctx)
{
	if (!zc_handle_is(ctx, ZC_HANDLE_CONTEXT))
		return stub_fail(CUDA_ERROR_INVALID_CONTEXT, "%p is not a live context", (void *)ctx);
	if (ctx->primary && ctx->primary_refs == 0)
		return stub_fail(CUDA_ERROR_INVALID_CONTEXT, "the primary context is not retained");
	return CUDA_SUCCESS;
}

CUresult
zc_context_current(struct zc_context **ctx)
{
	CUresult r = zc_initialized();

	if (r != CUDA_SUCCESS)
		return r;
	if (stack.depth == 0)
		return stub_fail(CUDA_ERROR_INVALID_CONTEXT, "no current context");
	*ctx = stack.items[stack.depth - 1];
	return check_usable(*ctx);
}

CUresult
zc_context_resolve(CUcontext handle, struct zc_context **ctx)
{
	CUresult r = zc_initialized();

	if (r != CUDA_SUCCESS)
		return r;
	if (!handle)
		return zc_context_current(ctx);
	*ctx = handle;
	return check_usable(handle);
}

/* Context-local storage, reached through the CONTEXT_LOCAL_STORAGE export table. It works
 * on a primary context that is not retained yet: cudart asks before it retains. */
static CUresult
cls_context(CUcontext handle, struct zc_context **ctx)
{
	if (!handle && stack.depth > 0)
		handle = stack.items[stack.depth - 1];
	if (!zc_handle_is(handle, ZC_HANDLE_CONTEXT))
		return stub_fail(CUDA_ERROR_INVALID_CONTEXT, "no context for local storage");
	*ctx = handle;
	return CUDA_SUCCESS;
}

CUresult
zc_cls_put(CUcontext handle, void *key, void *value, void (*dtor)(CUcontext, void *, void *))
{
	struct zc_context *ctx;
	struct zc_cls_entry *e;
	CUresult r = cls_context(handle, &ctx);

	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&ctx->lock);
	for (e = ctx->cls; e && e->key != key; e = e->next)
		;
	if (!e && (e = stub_alloc(sizeof *e))) {
		e->next = ctx->cls;
		ctx->cls = e;
	}
	if (e) {
		e->key = key;
		e->value = value;
		e->dtor = dtor;
	}
	pthread_mutex_unlock(&ctx->lock);
	return e ? CUDA_SUCCESS : stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "local storage entry");
}

CUresult
zc_cls_get(CUcontext handle, void *key, void **value)
{
	struct zc_context *ctx;
	struct zc_cls_entry *e;
	CUresult r = cls_context(handle, &ctx);

	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&ctx->lock);
	for (e = ctx->cls; e && e->key != key; e = e->next)
		;
	if (e)
		*value = e->value;
	pthread_mutex_unlock(&ctx->lock);
	/* cudart takes a miss as "not stored yet" and puts. */
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult
zc_cls_delete(CUcontext handle, void *key)
{
	struct zc_context *ctx;
	struct zc_cls_entry **link, *e = NULL;
	CUresult r = cls_context(handle, &ctx);

	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&ctx->lock);
	for (link = &ctx->cls; *link; link = &(*link)->next) {
		if ((*link)->key == key) {
			e = *link;
			*link = e->next;
			break;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	stub_free(e);
	return e ? CUDA_SUCCESS : stub_fail(CUDA_ERROR_INVALID_HANDLE, "no such key");
}

CUresult
zc_context_push(struct zc_context *ctx)
{
	if (stack.depth == MAX_STACK_DEPTH)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "more than %d contexts pushed", MAX_STACK_DEPTH);
	stack.items[stack.depth++] = ctx;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuCtxPushCurrent_v2(CUcontext ctx)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(ctx, ZC_HANDLE_CONTEXT))
		r = stub_fail(CUDA_ERROR_INVALID_CONTEXT, "%p is not a live context", (void *)ctx);
	if (r == CUDA_SUCCESS)
		r = zc_context_push(ctx);
	return TRACE(r, "%p", (void *)ctx);
}

ZC_EXPORT CUresult
cuCtxPopCurrent_v2(CUcontext *pctx)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && stack.depth == 0)
		r = stub_fail(CUDA_ERROR_INVALID_CONTEXT, "the context stack is empty");
	if (r == CUDA_SUCCESS) {
		struct zc_context *top = stack.items[--stack.depth];
		if (pctx)
			*pctx = top;
	}
	return TRACE(r, "-> %p", r == CUDA_SUCCESS && pctx ? (void *)*pctx : NULL);
}

ZC_EXPORT CUresult
cuCtxSetCurrent(CUcontext ctx)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && ctx && !zc_handle_is(ctx, ZC_HANDLE_CONTEXT))
		r = stub_fail(CUDA_ERROR_INVALID_CONTEXT, "%p is not a live context", (void *)ctx);
	if (r == CUDA_SUCCESS) {
		if (!ctx) {
			if (stack.depth > 0)
				stack.depth--;
		} else if (stack.depth == 0) {
			r = zc_context_push(ctx);
		} else {
			stack.items[stack.depth - 1] = ctx;
		}
	}
	return TRACE(r, "%p", (void *)ctx);
}

ZC_EXPORT CUresult
cuCtxGetCurrent(CUcontext *pctx)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !pctx)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pctx");
	if (r == CUDA_SUCCESS)
		*pctx = stack.depth ? stack.items[stack.depth - 1] : NULL;
	return TRACE(r, "-> %p", r == CUDA_SUCCESS ? (void *)*pctx : NULL);
}

ZC_EXPORT CUresult
cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
	struct zc_context *c;
	CUresult r = zc_context_resolve(ctx, &c);

	if (r == CUDA_SUCCESS && !device)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL device");
	if (r == CUDA_SUCCESS)
		*device = c->device;
	return TRACE(r, "%p -> %d", (void *)ctx, r == CUDA_SUCCESS ? *device : -1);
}

ZC_EXPORT CUresult
cuCtxGetDevice(CUdevice *device)
{
	return cuCtxGetDevice_v2(device, NULL);
}

void
zc_context_forget(struct zc_context *ctx)
{
	int kept = 0;

	for (int i = 0; i < stack.depth; i++)
		if (stack.items[i] != ctx)
			stack.items[kept++] = stack.items[i];
	stack.depth = kept;
}
