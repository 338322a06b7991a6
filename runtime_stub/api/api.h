/* The API layer's internal interface: the objects behind CUDA's handles and what the files
 * of the layer ask of each other. Beneath it: the drivers (driver.h), the platform
 * (platform.h) and the funnels every layer goes through (base.h). */
#ifndef ZC_API_H
#define ZC_API_H

#include <pthread.h>
#include <stdbool.h>

#include "aot_image.h"
#include "base.h"
#include "driver.h"
#include "exports.h"
#include "texture.h"

/* A driver API function: the exported entry point of its name is forward.S's. */
#define ZC_EXPORT

/* handles.c: which pointers are live handles of which kind, so a stale or foreign handle
 * is an error and not a crash. */
enum zc_handle_kind {
	ZC_HANDLE_CONTEXT = 1,
	ZC_HANDLE_STREAM,
	ZC_HANDLE_EVENT,
	ZC_HANDLE_LIBRARY,   /* also a CUmodule */
	ZC_HANDLE_FUNCTION,  /* a CUfunction, also a CUkernel */
	ZC_HANDLE_GRAPH,
	ZC_HANDLE_GRAPH_NODE,
	ZC_HANDLE_GRAPH_EXEC,
	ZC_HANDLE_MEMPOOL,
	ZC_HANDLE_USER_OBJECT,
	ZC_HANDLE_ARRAY,
	ZC_HANDLE_MIPMAPPED_ARRAY,
	ZC_HANDLE_LINK,
};
bool zc_handle_add(const void *handle, enum zc_handle_kind kind);
void zc_handle_remove(const void *handle);
bool zc_handle_is(const void *handle, enum zc_handle_kind kind);
/* A live graph handle (and an initialised stub), else CUDA_ERROR_INVALID_VALUE. */
CUresult zc_graph_check(CUgraph g);

/* state.c: the driver the API runs on, set once by cuInit's choice of driver
 * (exports/init.c), and what cuInit answered; until then CUDA_ERROR_NOT_INITIALIZED. */
enum { ZC_DRIVER_VERSION = 13000 };
extern const struct zc_driver *zc_drv;
CUresult zc_initialized(void);
/* What cuInit answers from now on. */
void zc_api_set_initialized(CUresult result);
/* start.c: starts the API on driver: its devices found (CUDA_ERROR_NO_DEVICE when it has
 * none), each with its primary context. */
CUresult zc_api_start(const struct zc_driver *driver);

/* device.c */
/* L2 persistence is a hint no driver here acts on; these are the sizes programs size their
 * hints by, in the proportions an H200 gives (5/8 of the L2, set in 1/16ths; 128 MiB). */
#define ZC_MAX_ACCESS_POLICY_WINDOW ((size_t)128 << 20)
size_t zc_max_persisting_l2(int device);
size_t zc_persisting_l2_granularity(int device);
struct zc_device {
	struct zc_device_info info;
	struct zc_context *primary;  /* exists from cuInit on; active while retained */
	/* Cooperative grids of the device run one after another (launch.c): the event the
	 * last one recorded, made at the first, and the lock that orders them. */
	pthread_mutex_t cooperative_lock;
	struct zc_drv_event *cooperative_done;
};
/* The devices' table, as the driver describes them (their primary contexts are start.c's). */
CUresult zc_devices_init(int count);
/* A device by ordinal below zc_device_count(), also before cuInit has answered. */
struct zc_device *zc_device_at(int ordinal);
int zc_device_count(void);
CUresult zc_device_get(CUdevice ordinal, struct zc_device **device);

/* context.c */
struct zc_cls_entry {
	struct zc_cls_entry *next;
	void *key, *value;
	void (*dtor)(CUcontext, void *key, void *value);
};

struct zc_context {
	CUdevice device;
	unsigned flags;
	bool primary;
	int primary_refs;        /* a primary context is active while this is above 0 */
	pthread_mutex_t lock;    /* guards the lists below */
	struct zc_stream *streams;
	struct zc_stream *legacy;
	struct zc_cls_entry *cls;
	size_t limits[CU_LIMIT_COUNT];
	uint64_t peers;          /* the devices peer access reaches (peer.c), a bit each */
};

CUresult zc_context_new(CUdevice device, unsigned flags, bool primary, struct zc_context **out);

/* current.c */
/* The calling thread's current context; CUDA_ERROR_INVALID_CONTEXT when there is none. */
CUresult zc_context_current(struct zc_context **ctx);
/* A handle argument where NULL means the current context. */
CUresult zc_context_resolve(CUcontext handle, struct zc_context **ctx);
/* Pushing a context on the calling thread's stack; a context going away leaves it. */
CUresult zc_context_push(struct zc_context *ctx);
void zc_context_forget(struct zc_context *ctx);
/* CUDA's default limits, and a limit the context keeps (below CU_LIMIT_COUNT): the current
 * context's, else CUDA's default. */
extern const size_t zc_default_limits[CU_LIMIT_COUNT];
size_t zc_current_limit(CUlimit limit);
CUresult zc_cls_put(CUcontext handle, void *key, void *value,
                    void (*dtor)(CUcontext, void *, void *));
CUresult zc_cls_get(CUcontext handle, void *key, void **value);
CUresult zc_cls_delete(CUcontext handle, void *key);

/* stream.c */
struct zc_stream {
	struct zc_context *ctx;
	struct zc_drv_stream *drv;
	enum zc_stream_kind kind;
	unsigned flags;
	int priority;
	/* the hints cuStreamSetAttribute stored, handed back by cuStreamGetAttribute */
	CUaccessPolicyWindow access_policy;
	int sync_policy;
	unsigned long long id;   /* cuStreamGetId: unique in the process */
	struct zc_stream *next;  /* in ctx->streams */
	/* capture.c: the capture sequence the stream's work goes into, and the nodes its next
	 * work depends on (with an edge of default data for each, as cuStreamGetCaptureInfo_v3
	 * hands them out) */
	struct zc_capture *capture;
	struct zc_graph_node **frontier;
	CUgraphEdgeData *frontier_edges;
	size_t nfrontier, frontier_capacity;
};

enum { ZC_LEAST_PRIORITY = 0, ZC_GREATEST_PRIORITY = -5 };

CUresult zc_stream_new(struct zc_context *ctx, enum zc_stream_kind kind, unsigned flags,
                       int priority, struct zc_stream **out);
/* Ends every stream of a context being torn down. */
void zc_streams_release(struct zc_context *ctx);
/* The stream a handle names: NULL is the legacy stream, or the thread's own default stream
 * for the per-thread (_ptsz/_ptds) entry points. */
CUresult zc_stream_resolve(CUstream handle, bool per_thread, struct zc_stream **stream);
/* Call before queueing work: gives the legacy stream its implicit ordering. */
CUresult zc_stream_begin(struct zc_stream *stream);

/* A unit of stream work as data: what every function that queues work hands to
 * zc_stream_submit, which gives it to the driver or, on a capturing stream, makes it a
 * node of the capture's graph. */
enum zc_op_kind { ZC_OP_LAUNCH, ZC_OP_COPY, ZC_OP_FILL, ZC_OP_HOST, ZC_OP_EVENT_RECORD, ZC_OP_EVENT_WAIT };
struct zc_op {
	enum zc_op_kind kind;
	union {
		struct {
			struct zc_function *function;
			struct zc_launch launch;
		} kernel;
		struct zc_copy copy;
		struct zc_fill fill;
		struct {
			void (*fn)(void *);
			void *arg;
		} host;
		struct {
			struct zc_event *event;
			unsigned flags;  /* CU_EVENT_RECORD_EXTERNAL / CU_EVENT_WAIT_EXTERNAL */
		} event;
	};
};
CUresult zc_stream_submit(struct zc_stream *s, const struct zc_op *op);

/* capture.c */
/* Whether the thread may make a call CUDA deems unsafe during capture (allocation, freeing,
 * context synchronisation): CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, invalidating the
 * captures that forbid it, when its mode and the captures under way say no. */
CUresult zc_capture_allows(const char *call);
/* Work for the legacy stream of ctx: CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, invalidating the
 * capture, while a blocking stream of ctx captures. */
CUresult zc_capture_legacy_use(struct zc_context *ctx);
/* Synchronising ctx: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, invalidating the capture, while
 * any stream of ctx captures, whatever the mode. */
CUresult zc_capture_context_wait(struct zc_context *ctx);
/* What CUDA refuses on a capturing stream (waiting for it, asking about its work, launching
 * a graph into it): CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, invalidating its capture. */
CUresult zc_capture_refuse(struct zc_stream *s, const char *call);
/* Waiting for or asking about an event last recorded in a capture under way:
 * CUDA_ERROR_CAPTURED_EVENT, invalidating that capture. */
CUresult zc_capture_event_refuse(struct zc_event *e, const char *call);
/* The node (or the join) a unit of work makes in the capture it goes into. */
CUresult zc_capture_op(struct zc_stream *s, const struct zc_op *op);
/* cuMemAllocAsync and cuMemFreeAsync on a capturing stream: graph memory nodes. */
CUresult zc_capture_alloc(struct zc_stream *s, size_t bytes, CUdeviceptr *dptr);
CUresult zc_capture_free(struct zc_stream *s, CUdeviceptr ptr);
/* A stream going away leaves its capture; an event recorded again outside a capture, or
 * destroyed, forgets the capture it was recorded in. */
void zc_capture_stream_gone(struct zc_stream *s);
void zc_capture_event_clear(struct zc_event *e);

/* event.c */
struct zc_event {
	struct zc_drv_event *drv;
	unsigned flags;
	bool recorded;  /* cuEventElapsedTime needs both ends recorded at least once */
	/* Recorded in a capturing stream: the capture's id and the nodes a wait joins after. */
	unsigned long long capture_id;
	struct zc_graph_node **capture_nodes;
	size_t ncapture_nodes;
};

/* event.c: a live event handle, else CUDA_ERROR_INVALID_HANDLE. */
CUresult zc_event_check(CUevent handle);

/* mempool.c: at a stream, event or context synchronisation, pools above their release
 * threshold give idle memory back; a pool pointer freed by cuMemFree leaves its pool. */
void zc_mempool_sync_point(void);
void zc_mempool_forget(void *ptr);
/* graph.c: ptr, the memory of a graph's allocation node, freed by a free node or the program,
 * in s's order (s NULL: now); false when ptr is no such memory, else *r says how it went. */
bool zc_graph_memory_free(CUdeviceptr ptr, struct zc_stream *s, CUresult *r);

/* copy_params.c: a copy or fill checked and laid out as the driver takes it; *empty when
 * it moves nothing. */
CUresult zc_copy_from_3d(const CUDA_MEMCPY3D *p, struct zc_copy *c, bool *empty);
CUresult zc_fill_from_params(const CUDA_MEMSET_NODE_PARAMS *p, struct zc_fill *f, bool *empty);
/* height rows of width elements of elem_size bytes at dst, pitch bytes apart, set to value. */
CUresult zc_fill_make(CUdeviceptr dst, size_t pitch, uint32_t value, unsigned elem_size,
                      size_t width, size_t height, struct zc_fill *f, bool *empty);

/* memcpy.c */
/* A copy between two device allocations, queued on a stream as cuMemcpyDtoDAsync does. */
CUresult zc_copy_device(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream,
                        bool per_thread, bool sync);

/* A synchronous copy of host memory into device memory the stub allocated. */
CUresult zc_copy_to_device(void *dst, const void *src, size_t bytes);
/* array.c: CUDA arrays, plain and mipmapped. */
struct zc_array {
	CUDA_ARRAY3D_DESCRIPTOR desc;
	void *memory;
	size_t pitch;   /* bytes from a row to the next: Width texels */
	size_t rows;    /* to a slice: Height, or 1 */
	size_t slices;  /* Depth (slices, layers or cube faces), or 1 */
	bool level;     /* a level of a mipmapped array, which destroys it */
};

/* Each level an array of its own, max(1, extent >> l) texels each way (layers stay). */
struct zc_mipmapped_array {
	CUDA_ARRAY3D_DESCRIPTOR desc;
	unsigned levels;
	struct zc_array *level[ZC_TEXTURE_MAX_LEVELS];
};
/* The bytes a texel channel of the format takes; 0 for a format not supported. */
unsigned zc_channel_bytes(int format);
/* A format and channel count arrays and objects take. */
CUresult zc_check_format(int format, unsigned channels);
/* A live array or mipmapped array handle, else CUDA_ERROR_INVALID_HANDLE. */
CUresult zc_array_get(CUarray handle, struct zc_array **a);
CUresult zc_mipmapped_get(CUmipmappedArray handle, struct zc_mipmapped_array **m);
/* Where a CUDA array's texels lie: rows pitch bytes apart, rows to a slice, slices (or
 * layers). INVALID_HANDLE when it is not an array. */
CUresult zc_array_layout(const void *array, void **memory, size_t *pitch, size_t *rows, size_t *slices);
/* memory.c */
void zc_memory_release(struct zc_context *ctx);
/* Device memory of the current context as cuMemAlloc and cuMemFree give and take it, for
 * the pools. */
CUresult zc_memory_alloc_device(void **ptr, size_t bytes);
CUresult zc_memory_free_device(void *ptr);
/* The steps of those, for allocate.c, which adds CUDA's capture rules and the pools: memory
 * of a kind for the current context (NULL dest or 0 bytes refused), and a free as an
 * allocation taken out of the table, then dropped (its context synchronised first). */
CUresult zc_memory_place(enum zc_mem_kind kind, size_t bytes, unsigned flags, const void *dest,
                         void **ptr);
struct zc_taken {
	uintptr_t base;
	size_t slack;
	enum zc_mem_kind kind;
	struct zc_context *ctx;
};
CUresult zc_memory_take(uintptr_t base, enum zc_mem_kind kind, struct zc_taken *out);
CUresult zc_memory_drop(const struct zc_taken *t);
/* Whether ptr lies in managed memory (cuMemAllocManaged's). */
bool zc_memory_managed(CUdeviceptr ptr);
/* Whether [ptr, ptr + bytes) lies inside one allocation the stub made, or across mappings of
 * one reservation with no hole between them. */
CUresult zc_memory_check(CUdeviceptr ptr, size_t bytes);
/* Whether p is the program's own memory: no allocation, registration or variable of the
 * stub's holds it. */
bool zc_memory_pageable(const void *p);
/* A module's variables and the mappings of reserved address space are device memory the
 * stub did not allocate: known, so copies to and from them pass the checks, but never
 * freed by cuMemFree. Idempotent. `range`: the reservation of a mapping, whose mappings
 * that touch are one address range to copies and memsets, as on NVIDIA's driver; NULL
 * for a variable. */
CUresult zc_memory_add_global(const void *owner, const void *range, void *base, size_t bytes);
void zc_memory_remove_globals(const void *owner);

/* device_output.c: the buffer GPU code prints into (abi/device_output.h), allocated
 * on first use with `bytes` for records; NULL when it cannot be. drain prints what is
 * complete; given a synchronisation's result, it returns CUDA_ERROR_ASSERT instead of a
 * failure once an assert's message was printed. */
void *zc_device_output_buffer(int ordinal, size_t bytes);
CUresult zc_device_output_drain(CUresult sync);
/* The driver's synchronisations as the API makes them: then what GPU code printed is
 * printed, as CUDA prints it at every synchronisation. */
CUresult zc_synchronize_stream(struct zc_drv_stream *stream);
CUresult zc_synchronize_event(struct zc_drv_event *event);
/* Every stream of ctx so; the first failure. */
CUresult zc_context_sync(struct zc_context *ctx);

/* launch_queue.c: the queue kernels launch kernels into (abi/device_launch.h), made on
 * first use with room for `records` pending launches; NULL when it cannot be. */
void *zc_device_launch_queue(int ordinal, size_t records);
/* device_launch.c */
/* A grid of a kernel whose module launches kernels from the device, and how launch.c
 * launches one: queued on `stream`, and waited for. */
struct zc_device_launcher {
	struct zc_function *function;
	uint32_t grid[3], block[3];
	uint32_t shared;
	CUstream stream;
	bool per_thread;
	void **params, **extra;  /* the program's, for the first grid */
	const void *buffer;      /* or a launch's parameters from the device */
	size_t buffer_size;
	CUresult (*launch)(const struct zc_device_launcher *grid);
};
/* Launches the grid, waits for it, and runs the launches it made, and theirs. */
CUresult zc_device_launches_run(const struct zc_device_launcher *grid);

/* image.c: one file's AOT image, parsed once. */
struct zc_image {
	struct zc_image *next;
	bool found;  /* the file has a valid image */
	AotImage aot;
	char path[];
};
/* What a load that may translate code no image holds knows (cuModuleLoadData*,
 * cuLibraryLoad*, cuModuleLoad): the device it translates for, and the log buffers of its JIT
 * options (NULL: none), how much of each it filled and how long translating took. */
struct zc_jit {
	int ordinal;
	char *info, *error;
	size_t info_size, error_size;
	size_t info_used, error_used;
	float wall_ms;
	/* the code is a fatbin cudart registers from this file, which was not converted */
	const char *unconverted_file;
};
/* The image and module holding the code for a wrapper, fatbin or PTX pointer; where no image
 * holds a PTX text or fatbin and jit is not NULL, the converted module file translate.c
 * makes of it. CUDA_ERROR_NO_BINARY_FOR_GPU, and the reason in the trace, when there is none. */
CUresult zc_image_find(const void *code, struct zc_jit *jit, struct zc_image **image,
                       uint32_t *module);
/* The same for the contents of a module file read from `path`: NUL-terminated, size bytes
 * before the NUL added. */
CUresult zc_image_find_file(const char *path, const uint8_t *bytes, size_t size, struct zc_jit *jit,
                            struct zc_image **image, uint32_t *module);
/* translate.c: a converted module file for `size` bytes of code (a PTX text without its NUL,
 * or a fatbin) whose aot_hash is `hash` (what the image keys it by) and `target`, in the
 * cache (*path names it): the one there, unless `again` (it was damaged), else translated now
 * by the zluda-convert tool. */
CUresult zc_translate(const uint8_t *code, size_t size, uint64_t hash, bool fatbin,
                      const char *target, bool again, struct zc_jit *jit, char *path,
                      size_t path_size);
/* The converted module file of the code of that hash shipped beside the program
 * (abi/runtime_code.h); false when there is none. */
bool zc_shipped_code(uint64_t hash, bool fatbin, char *path, size_t path_size);
/* The code kept in the folder ZLUDA_CONVERT_RECORD names, when it names one. */
void zc_record_code(const uint8_t *code, size_t size, uint64_t hash, bool fatbin);
/* The JIT options a load (or a link) honours: where the translator's messages go; and, once
 * it is done, how much of each log it filled and how long translating took, written back
 * into the option values. The other options shape NVIDIA's code and do not apply. */
void zc_jit_options_read(struct zc_jit *jit, unsigned n, const CUjit_option *options,
                         void *const *values);
void zc_jit_options_write(const struct zc_jit *jit, unsigned n, const CUjit_option *options,
                          void **values);
/* A line of jit's info or error log (cut where the buffer ends), and of the trace. */
void zc_jit_note(struct zc_jit *jit, bool error, const char *fmt, ...)
	__attribute__((format(ZC_PRINTF_FORMAT, 3, 4)));
/* library.c: a module file's original bytes (a converted one's without what conversion
 * appended), NUL-terminated; *size excludes the NUL. */
CUresult zc_module_file_read(const char *path, uint8_t **bytes, size_t *size);
/* library.c: a lazily loaded module for a wrapper or fatbin, as the dark API hands them;
 * `slot` names the caller in the trace. */
CUresult zc_module_from_cubin(const char *slot, CUmodule *module, const void *code);
/* True if a file of the process was converted for the CPU, whose driver's code objects are
 * for `target` ("host", "x86_64-windows"): it carries code objects for it, says why a module
 * has none, or its image is flagged so. */
bool zc_images_have_cpu_code(const char *target);

/* module.c: a loaded library or module. Its code object is loaded when first needed. */
struct zc_library {
	pthread_mutex_t lock;
	const struct zc_image *image;
	uint32_t module;
	CUdevice device;
	CUresult error;               /* what every use answers when there is no code */
	struct zc_drv_module *drv;    /* NULL until loaded */
	const char *target;           /* of the loaded code object, in the image */
	struct zc_launch_queue *launches; /* where its kernels' launches go; NULL: they make none */
	uint32_t nkernels;
	struct zc_function **kernels; /* by index in the module's kernel table, made on lookup */
};

struct zc_param {
	uint32_t offset, size;
};

struct zc_function {
	struct zc_library *library;
	const char *name;             /* in the image */
	struct zc_drv_function *drv;  /* NULL for a kernel left out of the code object */
	const char *left_out;         /* why, from the image */
	uint32_t static_shared;
	uint32_t max_threads;         /* from .reqntid / .maxntid, else the device's */
	uint32_t reqntid[3];          /* all 0 without .reqntid */
	uint32_t max_dynamic_shared;  /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
	int carveout;
	uint32_t param_size, nparams;
	struct zc_param params[];
};
/* occupancy.c: how many blocks of f fit on the device at once (what a cooperative launch
 * may have). */
int zc_coresident_blocks(const struct zc_function *f, int threads, size_t dynamic);
/* launch.c: a launch attribute as cuLaunchKernelEx and kernel nodes take it: hints are
 * accepted; what cannot be given here is refused with CUDA's error. */
CUresult zc_launch_attribute_check(CUlaunchAttributeID id, const CUlaunchAttributeValue *v);
/* The .param buffer of a launch of f (kernelParams or extra), which the caller frees with
 * stub_free; and a launch of such a buffer, as a graph's kernel node makes it. */
CUresult zc_launch_pack(struct zc_function *f, void **params, void **extra, uint8_t **buffer);
CUresult zc_launch_packed(struct zc_function *f, const uint32_t grid[3], const uint32_t block[3],
                          uint32_t shared, const void *params, bool cooperative,
                          struct zc_stream *s);
/* library.c: the kernel of the library whose name has that zc_kernel_handle. */
CUresult zc_library_kernel(struct zc_library *lib, uint64_t handle, struct zc_function **out);
/* Each function of the library, in the module's order, with its name; and their count. */
CUresult zc_library_each_function(struct zc_library *lib,
                                  void (*each)(void *user, struct zc_function *f, const char *name),
                                  void *user, uint32_t *count);
/* A live function handle, else CUDA_ERROR_INVALID_HANDLE. */
CUresult zc_function_check(CUfunction f);
/* The registers a kernel reports (CU_FUNC_ATTRIBUTE_NUM_REGS) and occupancy counts with:
 * registers are the target's business; 32 is what a simple kernel takes on NVIDIA. */
enum { ZC_REGS_PER_THREAD = 32 };


#endif
