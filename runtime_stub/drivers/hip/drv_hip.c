/* The HIP driver: maps the driver interface onto the user's ROCm HIP runtime, loaded with
 * the platform's loader (never linked at build time); hip_api.h declares what it calls. Device properties
 * come from hipDeviceGetAttribute, whose numbering is the same in HIP 5, 6 and 7, rather
 * than from hipDeviceProp_t, whose layout changed in HIP 6; only the code object target,
 * which no attribute gives, is read from hipDeviceProp_t, at the offset of its version. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base.h"
#include "driver.h"
#include "device_heap.h"
#include "device_launch.h"
#include "device_output.h"
#include "grid_workspace.h"
#include "find_driver.h"
#include "hip_api.h"
#include "platform.h"

static struct {
#define DECLARE(name, params) hipError_t(*name) params;
	HIP_FUNCTIONS(DECLARE)
	HIP_OPTIONAL_FUNCTIONS(DECLARE)
	HIP_VMM_FUNCTIONS(DECLARE)
	HIP_OPTIONAL_FUNCTIONS_6(DECLARE)
#undef DECLARE
} hip;

struct zc_drv_stream {
	hipStream_t hip;
	int device;
};

struct zc_drv_event {
	hipEvent_t hip;
};

struct zc_drv_module {
	hipModule_t hip;
	int device;
	void *launches; /* the launch queue it was pointed at */
};

/* A struct zc_drv_function is a hipFunction_t itself: HIP keeps the function as long as
 * its module, and the launch needs nothing else. */
static hipFunction_t
hip_function(struct zc_drv_function *f)
{
	return (hipFunction_t)(void *)f;
}

/* HIP's codes follow CUDA's runtime numbering; from 100 on they are the driver's too. */
static CUresult
hip_result(hipError_t e, const char *call)
{
	CUresult r;

	if (e == 0)
		return CUDA_SUCCESS;
	if (e <= 8)
		r = (CUresult)e;
	else if (e == 35)  /* hipErrorInsufficientDriver */
		r = CUDA_ERROR_NO_DEVICE;
	else if (e < 100)
		r = CUDA_ERROR_INVALID_VALUE;
	else if (e < 1000)
		r = (CUresult)e;
	else
		r = CUDA_ERROR_UNKNOWN;
	/* Not-ready answers are not failures. */
	if (r == CUDA_ERROR_NOT_READY)
		return r;
	return stub_fail(r, "%s: HIP error %d", call, e);
}

#define CALL(name, ...) hip_result(hip.name(__VA_ARGS__), #name)

/* HIP's calls act on the thread's current device. */
static CUresult
use_device(int device)
{
	static _Thread_local int current = -1;

	if (device == current)
		return CUDA_SUCCESS;
	CUresult r = CALL(hipSetDevice, device);
	if (r == CUDA_SUCCESS)
		current = device;
	return r;
}

static CUresult
load(void)
{
	const char *path = getenv("ZLUDA_CONVERT_HIP_PATH");
	void *lib = NULL;
	char why[512] = "";

	if (path && *path)
		lib = zc_library_open(path, false, why, sizeof why);
	for (size_t i = 0; !lib && !(path && *path) && i < ZC_HIP_LIBRARY_COUNT; i++)
		lib = zc_library_open(zc_hip_library_names[i], false, why, sizeof why);
	if (!lib)
		return stub_fail(CUDA_ERROR_NO_DEVICE, "cannot load the HIP runtime: %s", why);
#define RESOLVE(name, params)                                                        \
	if (!(*(void **)&hip.name = zc_library_symbol(lib, #name))) {                    \
		zc_library_close(lib);                                                       \
		return stub_fail(CUDA_ERROR_NO_DEVICE, "the HIP runtime lacks %s", #name);     \
	}
	HIP_FUNCTIONS(RESOLVE)
#undef RESOLVE
#define RESOLVE_OPTIONAL(name, params) *(void **)&hip.name = zc_library_symbol(lib, #name);
	HIP_OPTIONAL_FUNCTIONS(RESOLVE_OPTIONAL)
	HIP_VMM_FUNCTIONS(RESOLVE_OPTIONAL)
	HIP_OPTIONAL_FUNCTIONS_6(RESOLVE_OPTIONAL)
#undef RESOLVE_OPTIONAL
	return CUDA_SUCCESS;
}

static CUresult
hip_init(int *device_count)
{
	CUresult r = load();

	/* However HIP says it found nothing usable, CUDA programs expect to hear "no device". */
	if (r == CUDA_SUCCESS && CALL(hipInit, 0) != CUDA_SUCCESS)
		r = stub_fail(CUDA_ERROR_NO_DEVICE, "HIP initialisation failed");
	if (r == CUDA_SUCCESS && CALL(hipGetDeviceCount, device_count) != CUDA_SUCCESS)
		r = stub_fail(CUDA_ERROR_NO_DEVICE, "HIP counts no devices");
	return r;
}

static bool
hip_has_vmm(void)
{
	return hip.hipMemAddressReserve && hip.hipMemCreate && hip.hipMemMap && hip.hipMemSetAccess &&
	       hip.hipMemUnmap && hip.hipMemRelease && hip.hipMemAddressFree &&
	       hip.hipMemGetAllocationGranularity;
}

static CUresult
hip_device_info(int ordinal, struct zc_device_info *i)
{
	static const struct {
		hipDeviceAttribute_t attribute;
		size_t offset;
	} attributes[] = {
#define A(hip_name, field) { hipDeviceAttribute##hip_name, offsetof(struct zc_device_info, field) }
		A(ClockRate, clock_khz), A(Integrated, integrated), A(L2CacheSize, l2_bytes),
		A(MaxBlocksPerMultiProcessor, max_blocks_per_sm),
		A(MaxBlockDimX, max_block[0]), A(MaxBlockDimY, max_block[1]),
		A(MaxBlockDimZ, max_block[2]), A(MaxGridDimX, max_grid[0]),
		A(MaxGridDimY, max_grid[1]), A(MaxGridDimZ, max_grid[2]),
		A(MaxThreadsPerBlock, max_threads_per_block),
		A(MaxThreadsPerMultiProcessor, max_threads_per_sm),
		A(MemoryBusWidth, mem_bus_width), A(MemoryClockRate, mem_clock_khz),
		A(MultiprocessorCount, sm_count), A(PciBusId, pci_bus), A(PciDeviceId, pci_device),
		A(PciDomainID, pci_domain), A(MaxRegistersPerBlock, regs_per_block),
		A(MaxRegistersPerMultiprocessor, regs_per_sm),
		A(MaxSharedMemoryPerBlock, shared_per_block),
		A(SharedMemPerBlockOptin, shared_per_block_optin),
		A(SharedMemPerMultiprocessor, shared_per_sm),
		A(TotalConstantMemory, const_mem),
#undef A
	};
	char name[200] = "";
	CUresult r = CALL(hipDeviceGetName, name, (int)sizeof name, ordinal);

	*i = (struct zc_device_info){ 0 };
	if (r == CUDA_SUCCESS)
		r = CALL(hipDeviceTotalMem, &i->total_mem, ordinal);
	for (size_t k = 0; r == CUDA_SUCCESS && k < sizeof attributes / sizeof attributes[0]; k++)
		r = CALL(hipDeviceGetAttribute, (int *)((char *)i + attributes[k].offset),
		         attributes[k].attribute, ordinal);
	if (r != CUDA_SUCCESS)
		return r;
	snprintf(i->name, sizeof i->name, "%s [zluda-convert]", name);
	i->virtual_memory = hip_has_vmm();
	/* A UUID the stub can report the same way every time: the PCI location. */
	snprintf((char *)i->uuid, sizeof i->uuid, "zc%04x%02x%02x", (unsigned)i->pci_domain,
	         (unsigned)i->pci_bus & 0xff, (unsigned)i->pci_device & 0xff);
	return CUDA_SUCCESS;
}

static CUresult
hip_mem_info(int ordinal, size_t *free_bytes, size_t *total_bytes)
{
	CUresult r = use_device(ordinal);

	return r == CUDA_SUCCESS ? CALL(hipMemGetInfo, free_bytes, total_bytes) : r;
}

static CUresult
hip_alloc(int ordinal, enum zc_mem_kind kind, size_t bytes, void **ptr)
{
	CUresult r = use_device(ordinal);

	if (r != CUDA_SUCCESS)
		return r;
	switch (kind) {
	case ZC_MEM_DEVICE:
		return CALL(hipMalloc, ptr, bytes);
	case ZC_MEM_HOST:
		return CALL(hipHostMalloc, ptr, bytes, hipHostMallocPortable | hipHostMallocMapped);
	case ZC_MEM_MANAGED:
		return CALL(hipMallocManaged, ptr, bytes, hipMemAttachGlobal);
	}
	return stub_fail(CUDA_ERROR_INVALID_VALUE, "memory kind %d", (int)kind);
}

static CUresult
hip_free(enum zc_mem_kind kind, void *ptr)
{
	return kind == ZC_MEM_HOST ? CALL(hipHostFree, ptr) : CALL(hipFree, ptr);
}

static CUresult
hip_host_register(int ordinal, void *ptr, size_t bytes)
{
	CUresult r = use_device(ordinal);

	return r != CUDA_SUCCESS ? r : CALL(hipHostRegister, ptr, bytes, hipHostRegisterPortable | hipHostRegisterMapped);
}

static CUresult
hip_host_unregister(void *ptr)
{
	return CALL(hipHostUnregister, ptr);
}

static CUresult
hip_stream_create(int ordinal, enum zc_stream_kind kind, unsigned flags, int priority,
                  struct zc_drv_stream **out)
{
	struct zc_drv_stream *s = stub_alloc(sizeof *s);
	CUresult r = CUDA_SUCCESS;

	if (!s)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream");
	s->device = ordinal;
	/* HIP's NULL and per-thread streams have CUDA's semantics already. */
	if (kind == ZC_STREAM_PER_THREAD)
		s->hip = hipStreamPerThread;
	else if (kind == ZC_STREAM_CREATED && (r = use_device(ordinal)) == CUDA_SUCCESS)
		r = CALL(hipStreamCreateWithPriority, &s->hip, flags, priority);
	if (r != CUDA_SUCCESS) {
		stub_free(s);
		return r;
	}
	*out = s;
	return CUDA_SUCCESS;
}

static CUresult
hip_stream_destroy(struct zc_drv_stream *s)
{
	CUresult r = CUDA_SUCCESS;

	if (s->hip && s->hip != hipStreamPerThread)
		r = CALL(hipStreamDestroy, s->hip);
	stub_free(s);
	return r;
}

static CUresult
hip_stream_query(struct zc_drv_stream *s)
{
	CUresult r = use_device(s->device);

	return r == CUDA_SUCCESS ? CALL(hipStreamQuery, s->hip) : r;
}

static CUresult
hip_stream_native(struct zc_drv_stream *s, void **native)
{
	CUresult r = use_device(s->device);

	*native = s->hip;
	return r;
}

static CUresult
hip_stream_sync(struct zc_drv_stream *s)
{
	CUresult r = use_device(s->device);

	return r == CUDA_SUCCESS ? CALL(hipStreamSynchronize, s->hip) : r;
}

static CUresult
hip_stream_wait_event(struct zc_drv_stream *s, struct zc_drv_event *e)
{
	CUresult r = use_device(s->device);

	return r == CUDA_SUCCESS ? CALL(hipStreamWaitEvent, s->hip, e->hip, 0) : r;
}

static CUresult
hip_copy(struct zc_drv_stream *s, const struct zc_copy *c)
{
	CUresult r = use_device(s->device);

	for (size_t z = 0; r == CUDA_SUCCESS && z < c->depth; z++)
		r = CALL(hipMemcpy2DAsync, (char *)c->dst + z * c->dst_height * c->dst_pitch,
		         c->dst_pitch, (const char *)c->src + z * c->src_height * c->src_pitch,
		         c->src_pitch, c->width, c->height, hipMemcpyDefault, s->hip);
	return r;
}

static CUresult
hip_fill(struct zc_drv_stream *s, const struct zc_fill *f)
{
	CUresult r = use_device(s->device);
	/* Contiguous rows are one fill; otherwise one per row. */
	size_t rows = f->pitch == f->width * f->elem_size ? 1 : f->height;
	size_t count = rows == 1 ? f->width * f->height : f->width;

	for (size_t y = 0; r == CUDA_SUCCESS && y < rows; y++) {
		void *row = (char *)f->dst + y * f->pitch;
		if (f->elem_size == 1)
			r = CALL(hipMemsetD8Async, row, (unsigned char)f->value, count, s->hip);
		else if (f->elem_size == 2)
			r = CALL(hipMemsetD16Async, row, (unsigned short)f->value, count, s->hip);
		else
			r = CALL(hipMemsetD32Async, row, (int)f->value, count, s->hip);
	}
	return r;
}

struct host_call {
	void (*fn)(void *);
	void *arg;
};

static void
run_host_call(hipStream_t stream, hipError_t status, void *arg)
{
	struct host_call call = *(struct host_call *)arg;

	stub_free(arg);
	call.fn(call.arg);
}

static CUresult
hip_host_func(struct zc_drv_stream *s, void (*fn)(void *), void *arg)
{
	struct host_call *call = stub_alloc(sizeof *call);
	CUresult r = use_device(s->device);

	if (!call)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "host function");
	*call = (struct host_call){ fn, arg };
	if (r == CUDA_SUCCESS)
		r = CALL(hipStreamAddCallback, s->hip, run_host_call, call, 0);
	if (r != CUDA_SUCCESS)
		stub_free(call);
	return r;
}

static CUresult
hip_event_create(unsigned flags, struct zc_drv_event **out)
{
	struct zc_drv_event *e = stub_alloc(sizeof *e);
	CUresult r;

	if (!e)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "event");
	/* CUDA's event flags have HIP's values. */
	if ((r = CALL(hipEventCreateWithFlags, &e->hip, flags)) != CUDA_SUCCESS) {
		stub_free(e);
		return r;
	}
	*out = e;
	return CUDA_SUCCESS;
}

static CUresult
hip_event_destroy(struct zc_drv_event *e)
{
	CUresult r = CALL(hipEventDestroy, e->hip);

	stub_free(e);
	return r;
}

static CUresult
hip_event_record(struct zc_drv_event *e, struct zc_drv_stream *s)
{
	CUresult r = use_device(s->device);

	return r == CUDA_SUCCESS ? CALL(hipEventRecord, e->hip, s->hip) : r;
}

static CUresult
hip_event_query(struct zc_drv_event *e)
{
	return CALL(hipEventQuery, e->hip);
}

static CUresult
hip_event_sync(struct zc_drv_event *e)
{
	return CALL(hipEventSynchronize, e->hip);
}

static CUresult
hip_event_elapsed(float *ms, struct zc_drv_event *start, struct zc_drv_event *end)
{
	return CALL(hipEventElapsedTime, ms, start->hip, end->hip);
}

/* The device's gcnArchName without its feature suffix ("gfx90a:sramecc+:xnack-" is
 * gfx90a): the AOT image names its code objects by processor only. HIP 6 and later fill
 * their own layout through hipGetDevicePropertiesR0600; HIP 5 has only
 * hipGetDeviceProperties, with its layout. */
static CUresult
hip_code_target(int ordinal, char *name, size_t size)
{
	_Alignas(max_align_t) char properties[ZC_HIP_PROPS_BUFFER_SIZE] = { 0 };
	size_t arch_offset;
	CUresult r;

	if (hip.hipGetDevicePropertiesR0600) {
		r = CALL(hipGetDevicePropertiesR0600, (hipDeviceProp_tR0600 *)(void *)properties, ordinal);
		arch_offset = ZC_HIP_PROPS_R0600_GCN_ARCH_NAME;
	} else if (hip.hipGetDeviceProperties) {
		r = CALL(hipGetDeviceProperties, (hipDeviceProp_t *)(void *)properties, ordinal);
		arch_offset = ZC_HIP_PROPS_GCN_ARCH_NAME;
	} else {
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED,
		                 "the HIP runtime has neither hipGetDevicePropertiesR0600 nor "
		                 "hipGetDeviceProperties");
	}
	if (r != CUDA_SUCCESS)
		return r;

	const char *arch = properties + arch_offset;
	size_t length = strnlen(arch, ZC_HIP_PROPS_GCN_ARCH_NAME_SIZE);
	const char *features = memchr(arch, ':', length);

	if (features)
		length = (size_t)(features - arch);
	if (length == 0 || length == ZC_HIP_PROPS_GCN_ARCH_NAME_SIZE)
		return stub_fail(CUDA_ERROR_INVALID_DEVICE, "HIP device %d reports no usable gcnArchName",
		                 ordinal);
	if (length >= size)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "HIP device %d: gcnArchName %.*s is too long",
		                 ordinal, (int)length, arch);
	memcpy(name, arch, length);
	name[length] = '\0';
	return CUDA_SUCCESS;
}

static CUresult
copy_to_device(void *dst, const void *src, size_t bytes)
{
	CUresult r = CALL(hipMemcpy2DAsync, dst, bytes, src, bytes, bytes, 1, hipMemcpyDefault, NULL);

	return r == CUDA_SUCCESS ? CALL(hipStreamSynchronize, NULL) : r;
}

/* The device malloc heap of each device, made when a code object first needs it, with the
 * context's cudaLimitMallocHeapSize, and kept for the process. */
static void *
device_heap(int ordinal, size_t bytes)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static void *heaps[64];
	struct zc_device_heap header = {.size = bytes};
	void *p = NULL;

	if (ordinal < 0 || ordinal >= 64 || bytes > (64ull << 30))
		return NULL;
	pthread_mutex_lock(&lock);
	if (!heaps[ordinal] &&
	    hip_alloc(ordinal, ZC_MEM_DEVICE, sizeof header + bytes, &p) == CUDA_SUCCESS) {
		if (copy_to_device(p, &header, sizeof header) == CUDA_SUCCESS)
			heaps[ordinal] = p;
		else
			hip_free(ZC_MEM_DEVICE, p);
	}
	p = heaps[ordinal];
	pthread_mutex_unlock(&lock);
	return p;
}

/* The grid workspace of each device (abi/grid_workspace.h), made when a code object
 * first needs it, and kept for the process. */
static void *
grid_workspace(int ordinal, size_t bytes)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static void *workspaces[64];
	struct zc_grid_workspace initial = {.size = (uint32_t)bytes};
	void *p = NULL;

	if (ordinal < 0 || ordinal >= 64)
		return NULL;
	pthread_mutex_lock(&lock);
	if (!workspaces[ordinal] && hip_alloc(ordinal, ZC_MEM_DEVICE, bytes, &p) == CUDA_SUCCESS) {
		if (copy_to_device(p, &initial, sizeof initial) == CUDA_SUCCESS)
			workspaces[ordinal] = p;
		else
			hip_free(ZC_MEM_DEVICE, p);
	}
	p = workspaces[ordinal];
	pthread_mutex_unlock(&lock);
	return p;
}

/* Sets a code object's 64-bit variable, when it has it, to what make() gives; *set is that
 * (NULL without the variable). */
static CUresult
set_module_pointer(struct zc_drv_module *m, const char *name, void *(*make)(int, size_t),
                   size_t bytes, void **set)
{
	hipDeviceptr_t global;
	size_t size;

	*set = NULL;
	if (hip.hipModuleGetGlobal(&global, &size, m->hip, name) != 0 || size != 8)
		return CUDA_SUCCESS;
	if (!(*set = make(m->device, bytes)))
		return CUDA_SUCCESS; /* then printf returns -1, malloc NULL and launches fail, as when full */
	return copy_to_device(global, set, 8);
}

/* Points the code object's ZC_DEVICE_OUTPUT_SYMBOL at the device output buffer, its
 * ZC_DEVICE_HEAP_SYMBOL at the heap and its ZC_DEVICE_LAUNCHES_SYMBOL at the launch queue,
 * sized as the API says when first made. Code objects without them (not the converter's,
 * or a module that never prints, allocates or launches) get none. */
static CUresult
attach_output(struct zc_drv_module *m, const struct zc_module_services *services)
{
	void *set;
	CUresult r = set_module_pointer(m, ZC_DEVICE_OUTPUT_SYMBOL, services->output_buffer,
	                                services->output_bytes, &set);

	if (r == CUDA_SUCCESS)
		r = set_module_pointer(m, ZC_DEVICE_HEAP_SYMBOL, device_heap, services->heap_bytes,
		                       &set);
	if (r == CUDA_SUCCESS)
		r = set_module_pointer(m, ZC_DEVICE_LAUNCHES_SYMBOL, services->launch_queue,
		                       services->launch_records, &m->launches);
	if (r == CUDA_SUCCESS)
		r = set_module_pointer(m, ZC_GRID_WORKSPACE_SYMBOL, grid_workspace,
		                       sizeof(struct zc_grid_workspace), &set);
	return r;
}

static struct zc_launch_queue *
hip_module_launch_queue(struct zc_drv_module *m)
{
	return m->launches;
}

static CUresult
hip_module_load(int ordinal, const uint8_t *bytes, size_t size,
                const struct zc_module_services *services, struct zc_drv_module **out)
{
	struct zc_drv_module *m = stub_alloc(sizeof *m);
	CUresult r;

	if (!m)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "module");
	m->device = ordinal;
	/* HIP loads the code object onto the current device, and copies it: the caller frees
	 * the bytes. The size is not passed: HIP reads it from the ELF headers. */
	r = use_device(ordinal);
	if (r == CUDA_SUCCESS)
		r = CALL(hipModuleLoadData, &m->hip, bytes);
	if (r == CUDA_SUCCESS)
		r = attach_output(m, services);
	if (r != CUDA_SUCCESS) {
		stub_free(m);
		return r;
	}
	*out = m;
	return CUDA_SUCCESS;
}

static CUresult
hip_module_unload(struct zc_drv_module *m)
{
	CUresult r = use_device(m->device);

	if (r == CUDA_SUCCESS)
		r = CALL(hipModuleUnload, m->hip);
	stub_free(m);
	return r;
}

static CUresult
hip_module_function(struct zc_drv_module *m, const char *name, struct zc_drv_function **out)
{
	hipFunction_t function;
	CUresult r = use_device(m->device);

	if (r == CUDA_SUCCESS)
		r = CALL(hipModuleGetFunction, &function, m->hip, name);
	if (r == CUDA_SUCCESS)
		*out = (struct zc_drv_function *)(void *)function;
	return r;
}

static CUresult
hip_module_global(struct zc_drv_module *m, const char *name, void **address)
{
	hipDeviceptr_t global;
	size_t bytes;  /* some HIP releases refuse a NULL size */
	CUresult r = use_device(m->device);

	if (r == CUDA_SUCCESS)
		r = CALL(hipModuleGetGlobal, &global, &bytes, m->hip, name);
	if (r == CUDA_SUCCESS)
		*address = global;
	return r;
}

/* HIP sizes the scratch of a kernel whose stack is not fixed (recursion, alloca) by this
 * limit; a runtime without hipDeviceSetLimit keeps its default. */
static CUresult
hip_set_stack_size(int ordinal, size_t bytes)
{
	CUresult r = use_device(ordinal);

	if (r == CUDA_SUCCESS && hip.hipDeviceSetLimit)
		r = CALL(hipDeviceSetLimit, ZC_HIP_LIMIT_STACK_SIZE, bytes);
	return r;
}

/* The .param buffer is already in the AMDGPU kernarg layout, so it goes through extra as
 * one block; HIP copies it before returning. Static shared memory is not passed: the code
 * object's kernel descriptor reserves it. A cooperative launch goes through HIP 6's
 * hipModuleLaunchCooperativeKernel, which takes the arguments one by one; HIP 5 has none,
 * and there a grid the API layer found to fit the device runs whole at once anyway. */
static CUresult
hip_launch(struct zc_drv_stream *s, const struct zc_launch *l)
{
	size_t params_size = l->params_size;
	void *extra[] = {
		HIP_LAUNCH_PARAM_BUFFER_POINTER, (void *)(uintptr_t)l->params,
		HIP_LAUNCH_PARAM_BUFFER_SIZE, &params_size,
		HIP_LAUNCH_PARAM_END,
	};
	CUresult r = use_device(s->device);

	if (r == CUDA_SUCCESS && l->cooperative && hip.hipModuleLaunchCooperativeKernel)
		return CALL(hipModuleLaunchCooperativeKernel, hip_function(l->function), l->grid[0],
		            l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
		            l->dynamic_shared, s->hip, (void **)l->args);
	if (r == CUDA_SUCCESS)
		r = CALL(hipModuleLaunchKernel, hip_function(l->function), l->grid[0], l->grid[1],
		         l->grid[2], l->block[0], l->block[1], l->block[2], l->dynamic_shared,
		         s->hip, NULL, extra);
	return r;
}

/* ---- virtual memory: HIP's own, with the allocation properties in the layout of the
 * runtime's major version (HIP 6 has hipGetDevicePropertiesR0600, HIP 5 not) ---- */

static CUresult
hip_vmm_available(void)
{
	return hip_has_vmm() ? CUDA_SUCCESS
	                     : stub_fail(CUDA_ERROR_NOT_SUPPORTED, "this HIP runtime has no virtual memory API");
}

union allocation_prop {
	struct zc_hip_allocation_prop_5 v5;
	struct zc_hip_allocation_prop_6 v6;
};

/* A device's pinned memory, in the layout this runtime reads; shareable, as a POSIX file
 * descriptor. */
static const hipMemAllocationProp *
allocation_prop(int ordinal, bool shareable, union allocation_prop *p)
{
	memset(p, 0, sizeof *p);
	if (hip.hipGetDevicePropertiesR0600)
		p->v6 = (struct zc_hip_allocation_prop_6){ .type = 1, .requested_handle_types = shareable,
		                                           .location_type = 1, .location_id = ordinal };
	else
		p->v5 = (struct zc_hip_allocation_prop_5){ .location_type = 1, .location_id = ordinal,
		                                           .requested_handle_type = shareable, .type = 1 };
	return (const hipMemAllocationProp *)(const void *)p;
}

static size_t
hip_va_granularity(int ordinal)
{
	union allocation_prop prop;
	size_t g = 0;

	if (hip_vmm_available() != CUDA_SUCCESS ||
	    hip.hipMemGetAllocationGranularity(&g, allocation_prop(ordinal, false, &prop), 0) != 0 || !g)
		g = 2 << 20;
	return g;
}

static CUresult
hip_va_reserve(size_t bytes, size_t alignment, void *hint, void **ptr)
{
	CUresult r = hip_vmm_available();

	return r == CUDA_SUCCESS ? CALL(hipMemAddressReserve, ptr, bytes, alignment, hint, 0) : r;
}

static CUresult
hip_va_free(void *ptr, size_t bytes)
{
	return CALL(hipMemAddressFree, ptr, bytes);
}

static CUresult
hip_physical_create(int ordinal, size_t bytes, bool shareable, struct zc_drv_physical **out)
{
	union allocation_prop prop;
	CUresult r = hip_vmm_available();

	if (r == CUDA_SUCCESS)
		r = CALL(hipMemCreate, (hipMemGenericAllocationHandle_t *)out, bytes,
		         allocation_prop(ordinal, shareable, &prop), 0);
	return r;
}

static CUresult
hip_physical_export(struct zc_drv_physical *physical, int *fd)
{
	if (!hip.hipMemExportToShareableHandle)
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "this HIP runtime exports no memory");
	return CALL(hipMemExportToShareableHandle, fd, (hipMemGenericAllocationHandle_t)(void *)physical,
	            1, 0);
}

/* HIP learns the size itself; what the API layer keeps is the file's. */
static CUresult
hip_physical_import(int ordinal, int fd, size_t *bytes, struct zc_drv_physical **out)
{
	struct stat st;

	(void)ordinal;
	if (!hip.hipMemImportFromShareableHandle)
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "this HIP runtime imports no memory");
	if (fstat(fd, &st) != 0 || st.st_size <= 0)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "file descriptor %d is no exported memory", fd);
	*bytes = (size_t)st.st_size;
	return CALL(hipMemImportFromShareableHandle, (hipMemGenericAllocationHandle_t *)out,
	            (void *)(intptr_t)fd, 1);
}

static CUresult
hip_physical_release(struct zc_drv_physical *physical)
{
	return CALL(hipMemRelease, (hipMemGenericAllocationHandle_t)(void *)physical);
}

static CUresult
hip_va_map(void *ptr, size_t bytes, size_t offset, struct zc_drv_physical *physical)
{
	return CALL(hipMemMap, ptr, bytes, offset, (hipMemGenericAllocationHandle_t)(void *)physical, 0);
}

static CUresult
hip_va_unmap(void *ptr, size_t bytes)
{
	return CALL(hipMemUnmap, ptr, bytes);
}

static CUresult
hip_va_set_access(void *ptr, size_t bytes, int ordinal, bool read, bool write)
{
	struct zc_hip_access_desc desc = { 1, ordinal, write ? 3 : read ? 1 : 0 };

	return CALL(hipMemSetAccess, ptr, bytes, (const hipMemAccessDesc *)(const void *)&desc, 1);
}

static CUresult
hip_peer_can_access(int ordinal, int peer, int *can)
{
	return CALL(hipDeviceCanAccessPeer, can, ordinal, peer);
}

static CUresult
hip_peer_enable(int ordinal, int peer)
{
	CUresult r = use_device(ordinal);

	return r == CUDA_SUCCESS ? CALL(hipDeviceEnablePeerAccess, peer, 0) : r;
}

static CUresult
hip_peer_disable(int ordinal, int peer)
{
	CUresult r = use_device(ordinal);

	return r == CUDA_SUCCESS ? CALL(hipDeviceDisablePeerAccess, peer) : r;
}

const struct zc_driver zc_hip_driver = {
	.name = "hip",
	.init = hip_init,
	.device_info = hip_device_info,
	.peer_can_access = hip_peer_can_access,
	.peer_enable = hip_peer_enable,
	.peer_disable = hip_peer_disable,
	.va_granularity = hip_va_granularity,
	.va_reserve = hip_va_reserve,
	.va_free = hip_va_free,
	.physical_create = hip_physical_create,
	.physical_release = hip_physical_release,
	.physical_export = hip_physical_export,
	.physical_import = hip_physical_import,
	.va_map = hip_va_map,
	.va_unmap = hip_va_unmap,
	.va_set_access = hip_va_set_access,
	.mem_info = hip_mem_info,
	.alloc = hip_alloc,
	.free = hip_free,
	.host_register = hip_host_register,
	.host_unregister = hip_host_unregister,
	.stream_create = hip_stream_create,
	.stream_destroy = hip_stream_destroy,
	.stream_query = hip_stream_query,
	.stream_sync = hip_stream_sync,
	.stream_native = hip_stream_native,
	.stream_wait_stream = NULL,
	.stream_wait_event = hip_stream_wait_event,
	.copy = hip_copy,
	.fill = hip_fill,
	.host_func = hip_host_func,
	.event_create = hip_event_create,
	.event_destroy = hip_event_destroy,
	.event_record = hip_event_record,
	.event_query = hip_event_query,
	.event_sync = hip_event_sync,
	.event_elapsed = hip_event_elapsed,
	.code_target = hip_code_target,
	.module_load = hip_module_load,
	.module_unload = hip_module_unload,
	.module_function = hip_module_function,
	.module_global = hip_module_global,
	.module_launch_queue = hip_module_launch_queue,
	.set_stack_size = hip_set_stack_size,
	.launch = hip_launch,
};
