/* The small interface beneath the driver API: what a backend (HIP, the CPU) must do.
 * The API layer owns handles, contexts, validation and CUDA's semantics; a driver only
 * moves bytes and orders work. Every function returns a CUresult; a driver maps its own
 * errors before returning. */
#ifndef ZC_DRIVER_H
#define ZC_DRIVER_H

#include <stdbool.h>

#include "cuda_types.h"

struct zc_drv_stream;
struct zc_drv_event;
struct zc_drv_module;
struct zc_drv_function;
struct zc_drv_physical;

enum zc_mem_kind {
	ZC_MEM_DEVICE,
	ZC_MEM_HOST,     /* page-locked host memory, mapped for the device */
	ZC_MEM_MANAGED,
};

enum zc_stream_kind {
	ZC_STREAM_LEGACY,      /* the context's NULL stream, with its implicit synchronisation */
	ZC_STREAM_PER_THREAD,  /* a thread's default stream */
	ZC_STREAM_CREATED,
};

/* What the stub reports about a device; the host driver invents coherent values, the HIP
 * driver reads the real device. */
struct zc_device_info {
	char name[256];
	uint8_t uuid[16];
	size_t total_mem;
	int cc_major, cc_minor; /* device.c sets them, the same on every driver */
	int sm_count;
	int clock_khz, mem_clock_khz, mem_bus_width;
	int l2_bytes;
	int max_threads_per_block, max_block[3], max_grid[3];
	int max_threads_per_sm, max_blocks_per_sm;
	int shared_per_block, shared_per_block_optin, shared_per_sm;
	int const_mem, regs_per_block, regs_per_sm;
	int pci_domain, pci_bus, pci_device;
	int integrated;  /* device memory is host memory */
	int virtual_memory;  /* the va_* and physical_* operations work */
};

/* A copy of a box: depth slices of height rows of width bytes. A 1D copy has height and
 * depth 1; pitches are the distance between rows, heights the rows between slices. */
struct zc_copy {
	void *dst;
	const void *src;
	size_t width, height, depth;
	size_t dst_pitch, dst_height;
	size_t src_pitch, src_height;
};

/* height rows of width elements of elem_size (1, 2 or 4) bytes, all set to value. */
struct zc_fill {
	void *dst;
	uint32_t value;
	unsigned elem_size;
	size_t width, height, pitch;
};

/* A kernel launch: grid and block already validated, the .param buffer packed in the PTX
 * layout (design decision 3), the shared memory one block needs. */
struct zc_launch {
	struct zc_drv_function *function;
	const char *name;  /* the kernel's, for messages; lives as long as the process */
	uint32_t grid[3], block[3];
	uint32_t static_shared, dynamic_shared;
	const void *params;
	size_t params_size;
	void *const *args;  /* a pointer into params for each argument, for drivers that pass them so */
	size_t malloc_heap; /* the context's cudaLimitMallocHeapSize: what device malloc may hold */
	/* cuLaunchCooperativeKernel: every block runs at once, for grid.sync() (the API layer
	 * has checked that they fit the device together) */
	bool cooperative;
};

/* What the API layer hands module_load: the buffers GPU code reaches through the variables
 * of abi/device_output.h and abi/device_launch.h, which the API makes on first use with the
 * sizes given (the context's limits as the code object loads) and which are NULL when they
 * cannot be made; and the size of the device malloc heap (abi/device_heap.h) that a driver
 * with one makes on first use. A driver points each variable a code object has at them. */
struct zc_module_services {
	void *(*output_buffer)(int ordinal, size_t bytes);
	size_t output_bytes;
	void *(*launch_queue)(int ordinal, size_t records);
	size_t launch_records;
	size_t heap_bytes;
};

struct zc_driver {
	const char *name;
	/* Finds the devices; a driver with none answers CUDA_ERROR_NO_DEVICE. */
	CUresult (*init)(int *device_count);
	CUresult (*device_info)(int ordinal, struct zc_device_info *info);
	CUresult (*mem_info)(int ordinal, size_t *free_bytes, size_t *total_bytes);
	CUresult (*alloc)(int ordinal, enum zc_mem_kind kind, size_t bytes, void **ptr);
	CUresult (*free)(enum zc_mem_kind kind, void *ptr);
	/* Host memory the program allocated, page-locked and mapped for the device at its own
	 * address (cuMemHostRegister), and back. */
	CUresult (*host_register)(int ordinal, void *ptr, size_t bytes);
	CUresult (*host_unregister)(void *ptr);

	/* Whether work of device `ordinal` can reach memory of device `peer`, and giving it
	 * that reach and taking it back (the API layer keeps which are on). */
	CUresult (*peer_can_access)(int ordinal, int peer, int *can);
	CUresult (*peer_enable)(int ordinal, int peer);
	CUresult (*peer_disable)(int ordinal, int peer);

	/* Virtual memory (cuMemAddressReserve, cuMemCreate, cuMemMap): address space reserved
	 * with no memory behind it; physical memory of a device made on its own; a range of it
	 * mapped into reserved space (one physical allocation may be mapped at several
	 * addresses, which then see the same bytes); access given to the device. The API layer
	 * checks alignment to `va_granularity` and keeps what is mapped where. NULL when the
	 * driver has none. */
	size_t (*va_granularity)(int ordinal);
	CUresult (*va_reserve)(size_t bytes, size_t alignment, void *hint, void **ptr);
	CUresult (*va_free)(void *ptr, size_t bytes);
	/* shareable: it may be exported as a POSIX file descriptor, which another process (or
	 * this one) imports as the same memory. */
	CUresult (*physical_create)(int ordinal, size_t bytes, bool shareable,
	                            struct zc_drv_physical **out);
	CUresult (*physical_export)(struct zc_drv_physical *physical, int *fd);
	CUresult (*physical_import)(int ordinal, int fd, size_t *bytes, struct zc_drv_physical **out);
	CUresult (*physical_release)(struct zc_drv_physical *physical);
	CUresult (*va_map)(void *ptr, size_t bytes, size_t offset, struct zc_drv_physical *physical);
	CUresult (*va_unmap)(void *ptr, size_t bytes);
	CUresult (*va_set_access)(void *ptr, size_t bytes, int ordinal, bool read, bool write);

	CUresult (*stream_create)(int ordinal, enum zc_stream_kind kind, unsigned flags,
	                          int priority, struct zc_drv_stream **stream);
	/* Returns at once; work already queued still runs. */
	CUresult (*stream_destroy)(struct zc_drv_stream *stream);
	CUresult (*stream_query)(struct zc_drv_stream *stream);
	CUresult (*stream_sync)(struct zc_drv_stream *stream);
	/* Later work on waiter waits for the work queued on target so far. NULL when the
	 * driver gives the legacy stream its implicit synchronisation itself. */
	CUresult (*stream_wait_stream)(struct zc_drv_stream *waiter, struct zc_drv_stream *target);
	CUresult (*stream_wait_event)(struct zc_drv_stream *stream, struct zc_drv_event *event);
	/* The driver's own stream behind this one (a hipStream_t, NULL being HIP's legacy
	 * stream), its device made current: for a library that queues work on it itself.
	 * NULL where the driver has no streams to share. */
	CUresult (*stream_native)(struct zc_drv_stream *stream, void **native);

	CUresult (*copy)(struct zc_drv_stream *stream, const struct zc_copy *copy);
	CUresult (*fill)(struct zc_drv_stream *stream, const struct zc_fill *fill);
	CUresult (*host_func)(struct zc_drv_stream *stream, void (*fn)(void *), void *arg);

	CUresult (*event_create)(unsigned flags, struct zc_drv_event **event);
	CUresult (*event_destroy)(struct zc_drv_event *event);
	CUresult (*event_record)(struct zc_drv_event *event, struct zc_drv_stream *stream);
	CUresult (*event_query)(struct zc_drv_event *event);
	CUresult (*event_sync)(struct zc_drv_event *event);
	CUresult (*event_elapsed)(float *ms, struct zc_drv_event *start, struct zc_drv_event *end);

	/* The code object target the AOT image is searched for ("host", "gfx1100"). */
	CUresult (*code_target)(int ordinal, char *name, size_t size);
	/* Loads a code object; the bytes may be freed when it returns. */
	CUresult (*module_load)(int ordinal, const uint8_t *bytes, size_t size,
	                        const struct zc_module_services *services,
	                        struct zc_drv_module **module);
	CUresult (*module_unload)(struct zc_drv_module *module);
	CUresult (*module_function)(struct zc_drv_module *module, const char *name,
	                            struct zc_drv_function **function);
	/* The address of a module-scope variable. */
	CUresult (*module_global)(struct zc_drv_module *module, const char *name, void **address);
	/* The queue the code object's launches from the device go into (what module_load
	 * pointed it at), or NULL when its kernels launch none. */
	struct zc_launch_queue *(*module_launch_queue)(struct zc_drv_module *module);
	/* The stack each thread of later launches gets (cuCtxSetLimit's CU_LIMIT_STACK_SIZE):
	 * what recursion and alloca need beyond the code object's fixed frame. NULL when the
	 * driver's stacks are always large enough (the CPU driver's 256 KiB fibers). */
	CUresult (*set_stack_size)(int ordinal, size_t bytes);
	/* Queues a launch; the driver copies what it keeps of it. A launch that fails while
	 * it runs makes the driver's later synchronisations fail: CUDA's sticky errors. */
	CUresult (*launch)(struct zc_drv_stream *stream, const struct zc_launch *launch);
};

extern const struct zc_driver zc_host_driver;
/* The target name of the CPU driver's code objects in AOT images: "host" (ELF shared
 * objects, Linux), "x86_64-windows" (DLLs, Windows). */
extern const char zc_host_code_target_name[];
extern const struct zc_driver zc_hip_driver;

#endif
