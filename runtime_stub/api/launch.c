/* Kernel launches and what programs ask about kernels: attributes, parameters. A launch is
 * checked against the kernel and the device here, its arguments packed into the PTX .param
 * layout the kernel table gives (design decision 3), and queued on its stream. */
#include <string.h>

#include "api.h"

struct launch_request {
	struct zc_function *f;
	uint32_t grid[3], block[3];
	uint32_t shared;
	CUstream stream;
	void **params;
	void **extra;
	bool per_thread;
	bool cooperative;
};

/* The .param buffer from kernelParams (a pointer to each argument) or from extra's
 * CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE pair. */
static CUresult
pack(const struct launch_request *q, uint8_t *buffer)
{
	const struct zc_function *f = q->f;
	const void *given = NULL;
	size_t given_size = 0;

	if (q->params) {
		for (uint32_t i = 0; i < f->nparams; i++) {
			if (!q->params[i])
				return stub_fail(CUDA_ERROR_INVALID_VALUE, "%s: NULL kernelParams[%u]", f->name, i);
			memcpy(buffer + f->params[i].offset, q->params[i], f->params[i].size);
		}
		return CUDA_SUCCESS;
	}
	for (void **e = q->extra; e && *e != CU_LAUNCH_PARAM_END; e += 2) {
		if (e[0] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			given = e[1];
		else if (e[0] == CU_LAUNCH_PARAM_BUFFER_SIZE && e[1])
			given_size = *(const size_t *)e[1];
		else
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "%s: extra key %p", f->name, e[0]);
	}
	if (f->param_size == 0)
		return CUDA_SUCCESS;
	if (!given || given_size < f->param_size)
		return stub_fail(CUDA_ERROR_INVALID_VALUE,
		                 "%s: needs %u bytes of parameters; given %zu at %p", f->name,
		                 f->param_size, given_size, given);
	memcpy(buffer, given, f->param_size);
	return CUDA_SUCCESS;
}

static CUresult
check_shape(const struct launch_request *q, const struct zc_device_info *info)
{
	const struct zc_function *f = q->f;
	uint64_t threads = (uint64_t)q->block[0] * q->block[1] * q->block[2];

	for (int i = 0; i < 3; i++) {
		if (q->grid[i] == 0 || q->block[i] == 0 || q->grid[i] > (uint32_t)info->max_grid[i] ||
		    q->block[i] > (uint32_t)info->max_block[i])
			return stub_fail(CUDA_ERROR_INVALID_VALUE,
			                 "%s: grid (%u,%u,%u) or block (%u,%u,%u) out of the device's range",
			                 f->name, q->grid[0], q->grid[1], q->grid[2], q->block[0],
			                 q->block[1], q->block[2]);
	}
	if (threads > f->max_threads)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "%s: %llu threads a block; at most %u",
		                 f->name, (unsigned long long)threads, f->max_threads);
	if (f->reqntid[0] && memcmp(f->reqntid, q->block, sizeof q->block) != 0)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "%s: .reqntid %u,%u,%u", f->name,
		                 f->reqntid[0], f->reqntid[1], f->reqntid[2]);
	if (q->shared > f->max_dynamic_shared)
		return stub_fail(CUDA_ERROR_INVALID_VALUE,
		                 "%s: %u bytes of dynamic shared memory; at most %u", f->name,
		                 q->shared, f->max_dynamic_shared);
	return CUDA_SUCCESS;
}

/* A cooperative grid runs all at once: no more blocks than fit the device together. */
static CUresult
check_coresident(const struct launch_request *q)
{
	uint64_t blocks = (uint64_t)q->grid[0] * q->grid[1] * q->grid[2];
	int fit = zc_coresident_blocks(q->f, (int)(q->block[0] * q->block[1] * q->block[2]), q->shared);

	if (blocks > (uint64_t)fit)
		return stub_fail(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
		                 "%s: a cooperative grid of %llu blocks; %d fit the device at once",
		                 q->f->name, (unsigned long long)blocks, fit);
	return CUDA_SUCCESS;
}

/* A cooperative grid waits for the device's one before it: they share the device's grid
 * workspace (abi/grid_workspace.h), whose barrier two grids syncing at once would mix
 * up, so that their blocks wait for arrivals that never come. CUDA never promises that
 * grids overlap; they follow each other in the order they were launched. */
static CUresult
submit_cooperative(struct zc_device *dev, struct zc_stream *s, const struct zc_op *op)
{
	CUresult r = CUDA_SUCCESS;

	pthread_mutex_lock(&dev->cooperative_lock);
	if (!dev->cooperative_done)
		r = zc_drv->event_create(CU_EVENT_DISABLE_TIMING, &dev->cooperative_done);
	else
		r = zc_drv->stream_wait_event(s->drv, dev->cooperative_done);
	if (r == CUDA_SUCCESS)
		r = zc_stream_submit(s, op);
	if (r == CUDA_SUCCESS)
		r = zc_drv->event_record(dev->cooperative_done, s->drv);
	pthread_mutex_unlock(&dev->cooperative_lock);
	return r;
}

/* Queues the launch; *used is the stream it went on. */
static CUresult
queue_launch(const struct launch_request *q, struct zc_stream **used)
{
	struct zc_stream *s = NULL;
	struct zc_device *dev;
	uint8_t small[256];
	uint8_t *buffer = small;
	void *args_small[32], **args = args_small;
	CUresult r = zc_function_check(q->f);

	if (r == CUDA_SUCCESS && q->f->left_out)
		r = stub_fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "%s: kernel %s was left out of its code for %s: %s",
		              q->f->library->image->path, q->f->name, q->f->library->target,
		              q->f->left_out);
	if (r == CUDA_SUCCESS && !zc_drv->launch)
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "the %s driver launches nothing", zc_drv->name);
	if (r == CUDA_SUCCESS && (q->params != NULL) == (q->extra != NULL) && q->f->nparams)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%s: give kernelParams or extra, one of them",
		              q->f->name);
	if (r == CUDA_SUCCESS)
		r = zc_stream_resolve(q->stream, q->per_thread, &s);
	if (r == CUDA_SUCCESS)
		r = zc_device_get(s->ctx->device, &dev);
	if (r == CUDA_SUCCESS)
		r = check_shape(q, &dev->info);
	if (r == CUDA_SUCCESS && q->f->param_size > sizeof small &&
	    !(buffer = stub_alloc(q->f->param_size)))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "parameters");
	if (r == CUDA_SUCCESS)
		r = pack(q, buffer);
	if (r == CUDA_SUCCESS && q->cooperative)
		r = check_coresident(q);
	/* Only a cooperative launch through HIP takes its arguments one by one. */
	if (r == CUDA_SUCCESS && q->cooperative && q->f->nparams > 32 &&
	    !(args = stub_alloc(q->f->nparams * sizeof *args)))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "parameters");
	for (uint32_t i = 0; r == CUDA_SUCCESS && q->cooperative && i < q->f->nparams; i++)
		args[i] = buffer + q->f->params[i].offset;
	if (r == CUDA_SUCCESS) {
		struct zc_op op = { .kind = ZC_OP_LAUNCH, .kernel.function = q->f };
		op.kernel.launch = (struct zc_launch){
			.function = q->f->drv,
			.name = q->f->name,
			.grid = { q->grid[0], q->grid[1], q->grid[2] },
			.block = { q->block[0], q->block[1], q->block[2] },
			.static_shared = q->f->static_shared,
			.dynamic_shared = q->shared,
			.params = buffer,
			.params_size = q->f->param_size,
			.args = q->cooperative ? args : NULL,
			.malloc_heap = s->ctx->limits[CU_LIMIT_MALLOC_HEAP_SIZE],
			.cooperative = q->cooperative,
		};
		r = q->cooperative && !s->capture ? submit_cooperative(dev, s, &op)
		                                  : zc_stream_submit(s, &op);
	}
	if (args != args_small)
		stub_free(args);
	if (buffer != small)
		stub_free(buffer);
	*used = s;
	return r;
}

/* zc_device_launcher's launch: queued and waited for. */
static CUresult
launch_and_wait(const struct zc_device_launcher *g)
{
	size_t size = g->buffer_size;
	void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, (void *)g->buffer, CU_LAUNCH_PARAM_BUFFER_SIZE,
	                 &size, CU_LAUNCH_PARAM_END};
	struct launch_request q = {
		g->function, {g->grid[0], g->grid[1], g->grid[2]}, {g->block[0], g->block[1], g->block[2]},
		g->shared, g->stream, g->params, g->buffer ? extra : g->extra, g->per_thread, false,
	};
	struct zc_stream *s = NULL;
	CUresult r = queue_launch(&q, &s);

	return r == CUDA_SUCCESS ? zc_synchronize_stream(s->drv) : r;
}

/* A kernel whose module launches kernels from the device is waited for, so that the
 * launches it made can follow it (device_launch.c); captured, it is a node like any other. */
static CUresult
launch(const struct launch_request *q)
{
	struct zc_stream *s;
	CUresult r = zc_function_check(q->f);

	if (r == CUDA_SUCCESS && q->f->library->launches &&
	    zc_stream_resolve(q->stream, q->per_thread, &s) == CUDA_SUCCESS && !s->capture) {
		struct zc_device_launcher g = {
			q->f, {q->grid[0], q->grid[1], q->grid[2]}, {q->block[0], q->block[1], q->block[2]},
			q->shared, q->stream, q->per_thread, q->params, q->extra, NULL, 0, launch_and_wait,
		};
		return zc_device_launches_run(&g);
	}
	return r == CUDA_SUCCESS ? queue_launch(q, &s) : r;
}

CUresult
zc_launch_pack(struct zc_function *f, void **params, void **extra, uint8_t **buffer)
{
	struct launch_request q = { .f = f, .params = params, .extra = extra };
	CUresult r = zc_function_check(f);

	if (r == CUDA_SUCCESS && (params != NULL) == (extra != NULL) && f->nparams)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%s: give kernelParams or extra, one of them",
		              f->name);
	if (r == CUDA_SUCCESS && !(*buffer = stub_alloc(f->param_size)))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "parameters");
	if (r == CUDA_SUCCESS && (r = pack(&q, *buffer)) != CUDA_SUCCESS)
		stub_free(*buffer);
	return r;
}

CUresult
zc_launch_packed(struct zc_function *f, const uint32_t grid[3], const uint32_t block[3],
                 uint32_t shared, const void *params, bool cooperative, struct zc_stream *s)
{
	size_t size = f->param_size;
	void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, (void *)params, CU_LAUNCH_PARAM_BUFFER_SIZE,
	                 &size, CU_LAUNCH_PARAM_END};

	return launch(&(struct launch_request){
		f, {grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}, shared, s, NULL, extra,
		false, cooperative });
}

#define LAUNCH_ARGS                                                                           \
	CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,        \
	    unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,               \
	    unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra

#define LAUNCH_REQUEST(per_thread)                                                            \
	(struct launch_request)                                                                   \
	{                                                                                         \
		f, { gridDimX, gridDimY, gridDimZ }, { blockDimX, blockDimY, blockDimZ },             \
		    sharedMemBytes, hStream, kernelParams, extra, per_thread, false                   \
	}

ZC_EXPORT CUresult
cuLaunchKernel(LAUNCH_ARGS)
{
	return TRACE(launch(&LAUNCH_REQUEST(false)), "%p, (%u,%u,%u), (%u,%u,%u), %u, %p", (void *)f,
	             gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
	             (void *)hStream);
}

ZC_EXPORT CUresult
cuLaunchKernel_ptsz(LAUNCH_ARGS)
{
	return TRACE(launch(&LAUNCH_REQUEST(true)), "%p, (%u,%u,%u), (%u,%u,%u), %u, %p", (void *)f,
	             gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
	             (void *)hStream);
}

#define COOPERATIVE_ARGS                                                                      \
	CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,        \
	    unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,               \
	    unsigned int sharedMemBytes, CUstream hStream, void **kernelParams

#define COOPERATIVE_REQUEST(per_thread)                                                       \
	(struct launch_request)                                                                   \
	{                                                                                         \
		f, { gridDimX, gridDimY, gridDimZ }, { blockDimX, blockDimY, blockDimZ },             \
		    sharedMemBytes, hStream, kernelParams, NULL, per_thread, true                     \
	}

ZC_EXPORT CUresult
cuLaunchCooperativeKernel(COOPERATIVE_ARGS)
{
	return TRACE(launch(&COOPERATIVE_REQUEST(false)), "%p, (%u,%u,%u), (%u,%u,%u), %u, %p",
	             (void *)f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
	             sharedMemBytes, (void *)hStream);
}

ZC_EXPORT CUresult
cuLaunchCooperativeKernel_ptsz(COOPERATIVE_ARGS)
{
	return TRACE(launch(&COOPERATIVE_REQUEST(true)), "%p, (%u,%u,%u), (%u,%u,%u), %u, %p",
	             (void *)f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
	             sharedMemBytes, (void *)hStream);
}

CUresult
zc_launch_attribute_check(CUlaunchAttributeID id, const CUlaunchAttributeValue *v)
{
	switch (id) {
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
		if ((uint64_t)v->dim[0] * v->dim[1] * v->dim[2] > 1)
			return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "thread block clusters");
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		if (v->accessPolicyWindow.num_bytes > ZC_MAX_ACCESS_POLICY_WINDOW)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "access policy window of %zu bytes",
			                 v->accessPolicyWindow.num_bytes);
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
	case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT:  /* the codes an H200 gives */
		if (!zc_handle_is(v->event.event, ZC_HANDLE_EVENT))
			return stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a live event",
			                 (void *)v->event.event);
		if (!(v->event.event->flags & CU_EVENT_DISABLE_TIMING))
			return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "a launch's event that keeps time");
		if (v->event.flags & CU_EVENT_RECORD_EXTERNAL)
			return stub_fail(CUDA_ERROR_ILLEGAL_STATE, "a launch's event recorded as external");
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
		if (v->deviceUpdatableKernelNode.deviceUpdatable)
			return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "kernel nodes updated from the device");
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_IGNORE:
	case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
	case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
	case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
	case CU_LAUNCH_ATTRIBUTE_PRIORITY:
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
	case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
		return CUDA_SUCCESS;
	default:
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "launch attribute %d", (int)id);
	}
}

/* A kernel's programmatic event and its completion event are recorded once the whole
 * kernel has run: later than CUDA may fire them, which only ever makes waiters wait
 * longer. Programmatic serialisation may be relaxed by CUDA; here launches never overlap. */
static CUresult
launch_ex(const CUlaunchConfig *c, CUfunction f, void **params, void **extra, bool per_thread)
{
	bool cooperative = false;
	CUresult r = CUDA_SUCCESS;
	struct zc_stream *s;

	if (!c || (c->numAttrs && !c->attrs))
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL config or attributes");
	for (unsigned i = 0; r == CUDA_SUCCESS && i < c->numAttrs; i++) {
		r = zc_launch_attribute_check((CUlaunchAttributeID)c->attrs[i].id, &c->attrs[i].value);
		if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
			cooperative = c->attrs[i].value.cooperative != 0;
	}
	if (r == CUDA_SUCCESS)
		r = launch(&(struct launch_request){
			f, { c->gridDimX, c->gridDimY, c->gridDimZ },
			{ c->blockDimX, c->blockDimY, c->blockDimZ }, c->sharedMemBytes, c->hStream, params,
			extra, per_thread, cooperative });
	for (unsigned i = 0; r == CUDA_SUCCESS && i < c->numAttrs; i++) {
		const CUlaunchAttribute *a = &c->attrs[i];
		if (a->id != CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT &&
		    a->id != CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT)
			continue;
		struct zc_op record = {
			.kind = ZC_OP_EVENT_RECORD, .event = { a->value.event.event, 0 },
		};
		r = zc_stream_resolve(c->hStream, per_thread, &s);
		if (r == CUDA_SUCCESS)
			r = zc_stream_submit(s, &record);
	}
	return r;
}

ZC_EXPORT CUresult
cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
	return TRACE(launch_ex(config, f, kernelParams, extra, false), "%p", (void *)f);
}

ZC_EXPORT CUresult
cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                      void **extra)
{
	return TRACE(launch_ex(config, f, kernelParams, extra, true), "%p", (void *)f);
}

/* ---- attributes ---------------------------------------------------------- */

static CUresult
get_attribute(int *value, CUfunction_attribute attribute, CUfunction f)
{
	struct zc_device *dev;
	CUresult r = zc_function_check(f);

	if (r == CUDA_SUCCESS && !value)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL value");
	if (r == CUDA_SUCCESS)
		r = zc_device_get(f->library->device, &dev);
	if (r != CUDA_SUCCESS)
		return r;
	switch (attribute) {
	case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = (int)f->max_threads; break;
	case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = (int)f->static_shared; break;
	case CU_FUNC_ATTRIBUTE_NUM_REGS: *value = ZC_REGS_PER_THREAD; break;
	case CU_FUNC_ATTRIBUTE_PTX_VERSION: {
		/* The arch the PTX was written for, as NVIDIA's driver reports it: CUB and Thrust
		 * pick the kernels they launch by it, and only that arch's have a body. */
		uint32_t arch = aot_module(&f->library->image->aot, f->library->module).ptx_arch;

		*value = arch ? (int)arch : dev->info.cc_major * 10 + dev->info.cc_minor;
		break;
	}
	case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
		*value = dev->info.cc_major * 10 + dev->info.cc_minor;
		break;
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = (int)f->max_dynamic_shared; break;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = f->carveout; break;
	default:
		if ((unsigned)attribute >= CU_FUNC_ATTRIBUTE_MAX)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "attribute %d", (int)attribute);
		*value = 0;  /* constant and local sizes, cache mode, clusters */
	}
	return CUDA_SUCCESS;
}

static CUresult
set_attribute(CUfunction f, CUfunction_attribute attribute, int value)
{
	struct zc_device *dev;
	CUresult r = zc_function_check(f);

	if (r == CUDA_SUCCESS)
		r = zc_device_get(f->library->device, &dev);
	if (r != CUDA_SUCCESS)
		return r;
	switch (attribute) {
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		if (value < 0 ||
		    (uint64_t)value + f->static_shared > (uint64_t)dev->info.shared_per_block_optin)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "%s: %d bytes of dynamic shared memory",
			                 f->name, value);
		f->max_dynamic_shared = (uint32_t)value;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		if (value < -1 || value > 100)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "carveout %d", value);
		f->carveout = value;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
	case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
	case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		return CUDA_SUCCESS;
	default:
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "attribute %d cannot be set", (int)attribute);
	}
}

ZC_EXPORT CUresult
cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
	CUresult r = get_attribute(pi, attrib, hfunc);

	return TRACE(r, "%d, %p -> %d", (int)attrib, (void *)hfunc, r == CUDA_SUCCESS ? *pi : 0);
}

ZC_EXPORT CUresult
cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
	CUresult r = get_attribute(pi, attrib, kernel);

	return TRACE(r, "%d, %p, %d -> %d", (int)attrib, (void *)kernel, dev,
	             r == CUDA_SUCCESS ? *pi : 0);
}

ZC_EXPORT CUresult
cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
	return TRACE(set_attribute(hfunc, attrib, value), "%p, %d, %d", (void *)hfunc, (int)attrib,
	             value);
}

ZC_EXPORT CUresult
cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
	return TRACE(set_attribute(kernel, attrib, val), "%d, %d, %p, %d", (int)attrib, val,
	             (void *)kernel, dev);
}

/* Cache preferences mean nothing to either driver. */
ZC_EXPORT CUresult
cuFuncSetCacheConfig(CUfunction hfunc, int config)
{
	return TRACE(zc_function_check(hfunc), "%p, %d", (void *)hfunc, config);
}

ZC_EXPORT CUresult
cuKernelSetCacheConfig(CUkernel kernel, int config, CUdevice dev)
{
	return TRACE(zc_function_check(kernel), "%p, %d", (void *)kernel, config);
}

ZC_EXPORT CUresult
cuFuncSetSharedMemConfig(CUfunction hfunc, int config)
{
	CUresult r = zc_function_check(hfunc);

	if (r == CUDA_SUCCESS && (config < 0 || config > 2))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "shared memory config %d", config);
	return TRACE(r, "%p, %d", (void *)hfunc, config);
}

static CUresult
param_info(CUfunction f, size_t index, size_t *offset, size_t *size)
{
	CUresult r = zc_function_check(f);

	if (r == CUDA_SUCCESS && index >= f->nparams)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%s has %u parameters", f->name, f->nparams);
	if (r == CUDA_SUCCESS && offset)
		*offset = f->params[index].offset;
	if (r == CUDA_SUCCESS && size)
		*size = f->params[index].size;
	return r;
}

ZC_EXPORT CUresult
cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
	return TRACE(param_info(kernel, paramIndex, paramOffset, paramSize), "%p, %zu",
	             (void *)kernel, paramIndex);
}

ZC_EXPORT CUresult
cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
	return TRACE(param_info(func, paramIndex, paramOffset, paramSize), "%p, %zu", (void *)func,
	             paramIndex);
}
