/* Contexts: primary and created ones, their life (each holds a legacy stream, memory and
 * the state cudart stored), flags, limits and cache settings. The thread's stack of
 * current contexts is current.c's. */
#include "api.h"

/* Serialises primary-context activation, deactivation and flag changes. */
static pthread_mutex_t primary_lock = PTHREAD_MUTEX_INITIALIZER;

static CUresult
activate(struct zc_context *ctx)
{
	for (int i = 0; i < CU_LIMIT_COUNT; i++)
		ctx->limits[i] = zc_default_limits[i];
	return zc_stream_new(ctx, ZC_STREAM_LEGACY, 0, ZC_LEAST_PRIORITY, &ctx->legacy);
}

/* Ends everything the context holds: its work, the state cudart stored, streams and
 * memory. The context object itself stays. */
static void
deactivate(struct zc_context *ctx)
{
	struct zc_cls_entry *cls;

	zc_context_sync(ctx);
	pthread_mutex_lock(&ctx->lock);
	cls = ctx->cls;
	ctx->cls = NULL;
	pthread_mutex_unlock(&ctx->lock);
	while (cls) {
		struct zc_cls_entry *next = cls->next;
		if (cls->dtor)
			cls->dtor(ctx, cls->key, cls->value);
		stub_free(cls);
		cls = next;
	}
	zc_streams_release(ctx);
	ctx->legacy = NULL;
	zc_memory_release(ctx);
}

CUresult
zc_context_new(CUdevice device, unsigned flags, bool primary, struct zc_context **out)
{
	struct zc_context *ctx = stub_alloc(sizeof *ctx);
	CUresult r;

	if (!ctx)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "context");
	ctx->device = device;
	ctx->flags = flags;
	ctx->primary = primary;
	pthread_mutex_init(&ctx->lock, NULL);
	/* A primary context is activated when first retained. */
	r = primary ? CUDA_SUCCESS : activate(ctx);
	if (r == CUDA_SUCCESS && !zc_handle_add(ctx, ZC_HANDLE_CONTEXT))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "context handle");
	if (r != CUDA_SUCCESS) {
		deactivate(ctx);
		pthread_mutex_destroy(&ctx->lock);
		stub_free(ctx);
		return r;
	}
	*out = ctx;
	return CUDA_SUCCESS;
}

/* Primary contexts. */

ZC_EXPORT CUresult
cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && !pctx)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pctx");
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&primary_lock);
		if (d->primary->primary_refs == 0)
			r = activate(d->primary);
		if (r == CUDA_SUCCESS) {
			d->primary->primary_refs++;
			*pctx = d->primary;
		}
		pthread_mutex_unlock(&primary_lock);
	}
	return TRACE(r, "%d -> %p", dev, r == CUDA_SUCCESS ? (void *)*pctx : NULL);
}

ZC_EXPORT CUresult
cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&primary_lock);
		if (d->primary->primary_refs == 0)
			r = stub_fail(CUDA_ERROR_INVALID_CONTEXT, "the primary context is not retained");
		else if (--d->primary->primary_refs == 0)
			deactivate(d->primary);
		pthread_mutex_unlock(&primary_lock);
	}
	return TRACE(r, "%d", dev);
}

/* cudart 13 still asks for the unversioned release (at version 7000); the _v2 of CUDA 11
 * changed nothing a caller can see. */
ZC_EXPORT CUresult
cuDevicePrimaryCtxRelease(CUdevice dev)
{
	return cuDevicePrimaryCtxRelease_v2(dev);
}

ZC_EXPORT CUresult
cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&primary_lock);
		if (d->primary->primary_refs > 0)
			deactivate(d->primary);
		d->primary->primary_refs = 0;
		d->primary->flags = 0;
		pthread_mutex_unlock(&primary_lock);
	}
	return TRACE(r, "%d", dev);
}

ZC_EXPORT CUresult
cuDevicePrimaryCtxReset(CUdevice dev)
{
	return cuDevicePrimaryCtxReset_v2(dev);
}

ZC_EXPORT CUresult
cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && (!flags || !active))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL flags or active");
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&primary_lock);
		*flags = d->primary->flags;
		*active = d->primary->primary_refs > 0;
		pthread_mutex_unlock(&primary_lock);
	}
	return TRACE(r, "%d -> flags %u, active %d", dev, r ? 0 : *flags, r ? 0 : *active);
}

ZC_EXPORT CUresult
cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && (flags & ~(unsigned)CU_CTX_FLAGS_MASK))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags);
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&primary_lock);
		d->primary->flags = flags;
		pthread_mutex_unlock(&primary_lock);
	}
	return TRACE(r, "%d, 0x%x", dev, flags);
}

/* Created contexts and the stack. */

static CUresult
create(CUcontext *pctx, unsigned flags, CUdevice dev)
{
	struct zc_device *d;
	struct zc_context *ctx;
	CUresult r = zc_device_get(dev, &d);

	if (r != CUDA_SUCCESS)
		return r;
	if (!pctx)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pctx");
	if (flags & ~(unsigned)CU_CTX_FLAGS_MASK)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags);
	if ((r = zc_context_new(dev, flags, false, &ctx)) != CUDA_SUCCESS)
		return r;
	if ((r = zc_context_push(ctx)) != CUDA_SUCCESS)
		return r;
	*pctx = ctx;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	CUresult r = create(pctx, flags, dev);

	return TRACE(r, "0x%x, %d -> %p", flags, dev, r == CUDA_SUCCESS ? (void *)*pctx : NULL);
}

ZC_EXPORT CUresult
cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev)
{
	CUresult r;

	if (params && (params->numExecAffinityParams != 0 || params->cigParams))
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "execution affinity and CIG contexts");
	else
		r = create(pctx, flags, dev);
	return TRACE(r, "%p, 0x%x, %d -> %p", (void *)params, flags, dev,
	             r == CUDA_SUCCESS ? (void *)*pctx : NULL);
}

ZC_EXPORT CUresult
cuCtxDestroy_v2(CUcontext ctx)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && (!zc_handle_is(ctx, ZC_HANDLE_CONTEXT) || ctx->primary))
		r = stub_fail(CUDA_ERROR_INVALID_CONTEXT, "%p is not a created context", (void *)ctx);
	if (r == CUDA_SUCCESS) {
		/* Other threads find the handle dead when they next use it. */
		zc_context_forget(ctx);
		zc_handle_remove(ctx);
		deactivate(ctx);
		pthread_mutex_destroy(&ctx->lock);
		stub_free(ctx);
	}
	return TRACE(r, "%p", (void *)ctx);
}

ZC_EXPORT CUresult
cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
	struct zc_context *c;
	CUresult r = zc_context_resolve(ctx, &c);

	if (r == CUDA_SUCCESS && !version)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL version");
	/* The context API version, unchanged since CUDA 3.2 made contexts what they are. */
	if (r == CUDA_SUCCESS)
		*version = 3020;
	return TRACE(r, "%p", (void *)ctx);
}

ZC_EXPORT CUresult
cuCtxGetFlags(unsigned int *flags)
{
	struct zc_context *c;
	CUresult r = zc_context_current(&c);

	if (r == CUDA_SUCCESS && !flags)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL flags");
	if (r == CUDA_SUCCESS)
		*flags = c->flags;
	return TRACE(r, "-> 0x%x", r == CUDA_SUCCESS ? *flags : 0);
}

ZC_EXPORT CUresult
cuCtxSetFlags(unsigned int flags)
{
	struct zc_context *c;
	CUresult r = zc_context_current(&c);

	if (r == CUDA_SUCCESS && (flags & ~(unsigned)CU_CTX_FLAGS_MASK))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags);
	if (r == CUDA_SUCCESS)
		c->flags = flags;
	return TRACE(r, "0x%x", flags);
}

/* A limit CUDA 13 names; the CIG shared-memory fallback exists only on a CIG context. */
static CUresult
limit_known(CUlimit limit)
{
	if ((unsigned)limit >= CU_LIMIT_MAX)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "no limit %d", (int)limit);
	if (limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED)
		return stub_fail(CUDA_ERROR_UNSUPPORTED_LIMIT, "limit %d is a CIG context's",
		                 (int)limit);
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
	struct zc_context *c;
	CUresult r = zc_context_current(&c);

	struct zc_device *dev;

	if (r == CUDA_SUCCESS && !pvalue)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pvalue");
	if (r == CUDA_SUCCESS)
		r = limit_known(limit);
	/* what a context that is no CUDA-in-graphics (CIG) one answers, as on an H200 */
	if (r == CUDA_SUCCESS && limit == CU_LIMIT_SHMEM_SIZE &&
	    (r = zc_device_get(c->device, &dev)) == CUDA_SUCCESS)
		*pvalue = (size_t)dev->info.shared_per_block_optin;
	else if (r == CUDA_SUCCESS && limit == CU_LIMIT_CIG_ENABLED)
		*pvalue = 0;
	else if (r == CUDA_SUCCESS)
		*pvalue = c->limits[limit];
	return TRACE(r, "%d -> %zu", (int)limit, r == CUDA_SUCCESS ? *pvalue : 0);
}

ZC_EXPORT CUresult
cuCtxSetLimit(CUlimit limit, size_t value)
{
	struct zc_context *c;
	CUresult r = zc_context_current(&c);

	if (r == CUDA_SUCCESS)
		r = limit_known(limit);
	if (r == CUDA_SUCCESS && (limit == CU_LIMIT_SHMEM_SIZE || limit == CU_LIMIT_CIG_ENABLED))
		r = stub_fail(CUDA_ERROR_NOT_PERMITTED, "limit %d can only be queried", (int)limit);
	if (r == CUDA_SUCCESS && limit == CU_LIMIT_STACK_SIZE && zc_drv->set_stack_size)
		r = zc_drv->set_stack_size(c->device, value);
	if (r == CUDA_SUCCESS && limit == CU_LIMIT_PERSISTING_L2_CACHE_SIZE) {
		/* taken in the L2's sixteenths, as NVIDIA's driver does */
		size_t step = zc_persisting_l2_granularity(c->device);

		if (value > zc_max_persisting_l2(c->device))
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%zu bytes of persisting L2, of at most %zu",
			              value, zc_max_persisting_l2(c->device));
		value = (value + step - 1) / step * step;
	}
	if (r == CUDA_SUCCESS)
		c->limits[limit] = value;
	return TRACE(r, "%d, %zu", (int)limit, value);
}

/* Nothing persists in an L2 here: there is nothing to reset. */
ZC_EXPORT CUresult
cuCtxResetPersistingL2Cache(void)
{
	struct zc_context *c;

	return TRACE(zc_context_current(&c), "-");
}

ZC_EXPORT CUresult
cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
	struct zc_context *c;
	CUresult r = zc_context_current(&c);

	if (r == CUDA_SUCCESS) {
		if (leastPriority)
			*leastPriority = ZC_LEAST_PRIORITY;
		if (greatestPriority)
			*greatestPriority = ZC_GREATEST_PRIORITY;
	}
	return TRACE(r, "-");
}

ZC_EXPORT CUresult
cuCtxGetCacheConfig(int *config)
{
	struct zc_context *c;
	CUresult r = zc_context_current(&c);

	if (r == CUDA_SUCCESS && !config)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL config");
	if (r == CUDA_SUCCESS)
		*config = 0;  /* CU_FUNC_CACHE_PREFER_NONE: there is no cache split to prefer */
	return TRACE(r, "-");
}

ZC_EXPORT CUresult
cuCtxSetCacheConfig(int config)
{
	struct zc_context *c;
	CUresult r = zc_context_current(&c);

	if (r == CUDA_SUCCESS && (config < 0 || config > 3))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "cache config %d", config);
	return TRACE(r, "%d", config);
}

/* cudaProfilerStart/Stop mark a region for a profiler attached to the process; with none
 * to tell, they succeed, as CUDA's do when no profiler runs (programs such as CUDA's own
 * samples stop on any error from them). */
ZC_EXPORT CUresult
cuProfilerStart(void)
{
	struct zc_context *ctx;

	return TRACE(zc_context_current(&ctx), "-");
}

ZC_EXPORT CUresult
cuProfilerStop(void)
{
	struct zc_context *ctx;

	return TRACE(zc_context_current(&ctx), "-");
}

/* Shared-memory bank sizes are Kepler's; every later GPU has 4-byte banks and ignores the
 * setting, as here. */
enum { CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE = 0, CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE = 2,
       CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE = 1 };

ZC_EXPORT CUresult
cuCtxGetSharedMemConfig(int *pConfig)
{
	struct zc_context *ctx;
	CUresult r = zc_context_current(&ctx);

	if (r == CUDA_SUCCESS && !pConfig)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pConfig");
	if (r == CUDA_SUCCESS)
		*pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
	return TRACE(r, "-> %d", r == CUDA_SUCCESS ? *pConfig : -1);
}

ZC_EXPORT CUresult
cuCtxSetSharedMemConfig(int config)
{
	struct zc_context *ctx;
	CUresult r = zc_context_current(&ctx);

	if (r == CUDA_SUCCESS && (config < CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE ||
	                          config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "shared memory config %d", config);
	return TRACE(r, "%d", config);
}
