/* cuGetExportTable: the private tables cudart asks for by GUID. What each slot must do is
 * in the reference notes integrity-check.md §7 and fatbin.md §4.2; slot 0 of most tables is
 * the table's size in bytes. Each table is one static object: the integrity check hashes
 * the addresses cudart was handed. */
#include <string.h>

#include "driver_identity.h"
#include "forward.h"
#include "integrity.h"
#include "platform.h"

typedef void (*slot)(void);
#define FN(f) ((void *)(slot)(f))
#define SIZE(slots) ((void *)(uintptr_t)((slots) * sizeof(void *)))

/* CUDART_INTERFACE */

/* [2]: the device's primary context, neither retained nor made active. */
static CUresult
primary_context(CUcontext *pctx, CUdevice dev)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	if (r == CUDA_SUCCESS && !pctx)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pctx");
	if (r == CUDA_SUCCESS)
		*pctx = d->primary;
	return TRACE(r, "CUDART_INTERFACE[2] %d", dev);
}

/* [1], [6], [8]: how static cudart before the cuLibrary API registers each fatbin: with its
 * wrapper, or (ext2) the fatbin itself. Loading is lazy, as for cuLibraryLoadData. The
 * meaning of the extra arguments of ext1 and ext2 is unknown; cudart passes zeros. */
static CUresult
module_from_cubin(CUmodule *module, const void *wrapper)
{
	return zc_module_from_cubin("CUDART_INTERFACE get_module_from_cubin", module, wrapper);
}

static CUresult
module_with_options(const char *name, const char *with_options, CUmodule *module,
                    const void *code, const void *a3, const void *a4, unsigned a5)
{
	if (a3 || a4 || a5)
		return zc_unsupported(with_options);
	return zc_module_from_cubin(name, module, code);
}

static CUresult
module_from_cubin_ext1(CUmodule *module, const void *wrapper, const void *a3, const void *a4,
                       unsigned a5)
{
	return module_with_options("CUDART_INTERFACE get_module_from_cubin_ext1",
	                           "CUDART_INTERFACE get_module_from_cubin_ext1 with non-zero options",
	                           module, wrapper, a3, a4, a5);
}

static CUresult
module_from_cubin_ext2(const void *fatbin, CUmodule *module, const void *a3, const void *a4,
                       unsigned a5)
{
	return module_with_options("CUDART_INTERFACE get_module_from_cubin_ext2",
	                           "CUDART_INTERFACE get_module_from_cubin_ext2 with non-zero options",
	                           module, fatbin, a3, a4, a5);
}

static void
ignore_size(size_t unused)
{
}

/* [12]: the real driver loads its compilers here; there is nothing to load. */
static CUresult
load_compilers(void)
{
	return CUDA_SUCCESS;
}

static void *const cudart_interface[13] = {
	SIZE(13), FN(module_from_cubin), FN(primary_context), NULL, NULL, NULL,
	FN(module_from_cubin_ext1), FN(ignore_size), FN(module_from_cubin_ext2), NULL, NULL, NULL,
	FN(load_compilers),
};

/* TOOLS_RUNTIME_CALLBACK_HOOKS: [2] and [6] hand out zeroed process-lifetime buffers. */
static uint32_t hooks_buffer1[1024], hooks_buffer2[14];

static void
hooks_get_buffer1(void **ptr, size_t *size)
{
	*ptr = hooks_buffer1;
	*size = sizeof hooks_buffer1 / sizeof hooks_buffer1[0];
}

static void
hooks_get_buffer2(void **ptr, size_t *size)
{
	*ptr = hooks_buffer2;
	*size = sizeof hooks_buffer2 / sizeof hooks_buffer2[0];
}

static void *const tools_runtime_callback_hooks[7] = {
	SIZE(7), NULL, FN(hooks_get_buffer1), NULL, NULL, NULL, FN(hooks_get_buffer2),
};

/* TOOLS_TLS: [2] hands out the tools' per-thread data, which is NULL unless a tool set it
 * (an H200 answers NULL and CUDA_SUCCESS, with a context current or none); cuBLAS asks. */
static CUresult
tools_tls_data(void **data)
{
	*data = NULL;
	return CUDA_SUCCESS;
}

static void *const tools_tls[3] = { SIZE(3), NULL, FN(tools_tls_data) };

/* CONTEXT_LOCAL_STORAGE: no size slot; put, delete, get, then a NULL end. */
static CUresult
cls_put(CUcontext ctx, void *key, void *value, void (*dtor)(CUcontext, void *, void *))
{
	return zc_cls_put(ctx, key, value, dtor);
}

static CUresult
cls_delete(CUcontext ctx, void *key)
{
	return zc_cls_delete(ctx, key);
}

static CUresult
cls_get(void **value, CUcontext ctx, void *key)
{
	return zc_cls_get(ctx, key, value);
}

static void *const context_local_storage[4] = { FN(cls_put), FN(cls_delete), FN(cls_get), NULL };

/* 21318c60-9714-3248-8ca6-41ff7324c8f2, which cuBLAS asks for its reductions: 93 slots, of
 * which it calls [4], [39] and [51]. Asked from outside NVIDIA's own libraries, an H200
 * answers each with 0 or NULL and CUDA_SUCCESS (CUDA_ERROR_INVALID_VALUE for a NULL place
 * to put the answer), and so does the stub. */
static CUresult
answer_zero(void *ignored, void *also_ignored, uint64_t *answer)
{
	(void)ignored, (void)also_ignored;
	if (!answer)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL answer");
	*answer = 0;
	return CUDA_SUCCESS;
}

static CUresult
context_key(CUcontext ctx, uint64_t *key)
{
	return answer_zero(ctx, NULL, key);
}

static CUresult
stream_of_handle(CUcontext ctx, CUstream handle, void **stream, int per_thread)
{
	(void)ctx, (void)handle, (void)per_thread;
	if (!stream)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL stream");
	*stream = NULL;
	return CUDA_SUCCESS;
}

static CUresult
stream_identity(CUcontext ctx, const void *stream, uint64_t *identity)
{
	return answer_zero(ctx, (void *)stream, identity);
}

static void *const cublas_streams[93] = {
	SIZE(93), [4] = FN(context_key), [39] = FN(stream_identity), [51] = FN(stream_of_handle),
};

/* CONTEXT_CHECKS */
static CUresult
context_check(CUcontext ctx, uint32_t *result1, const void **result2)
{
	*result1 = 0;
	return CUDA_SUCCESS;
}

static uint32_t
context_check_flags(void)
{
	return 0;
}

static void *const context_checks[4] = {
	SIZE(4), NULL, FN(context_check), FN(context_check_flags),
};

/* INTEGRITY_CHECK */
static CUresult integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t out[2]);

static void *const integrity_table[3] = { SIZE(3), FN(integrity_check), NULL };

static CUresult
integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t out[2])
{
	int count = zc_initialized() == CUDA_SUCCESS ? zc_device_count() : 0;
	struct zc_integrity_device devices[count > 0 ? count : 1];

	for (int i = 0; i < count; i++) {
		struct zc_device *d;
		zc_device_get(i, &d);
		memcpy(devices[i].uuid, d->info.uuid, sizeof devices[i].uuid);
		devices[i].pci_domain = d->info.pci_domain;
		devices[i].pci_bus = d->info.pci_bus;
		devices[i].pci_device = d->info.pci_device;
	}
	struct zc_integrity_inputs in = {
		.driver_version = ZC_DRIVER_VERSION,
		.version = version,
		.pid = zc_process_id(),
		.thread = zc_thread_id(),
		.cudart_table = (uint64_t)(uintptr_t)cudart_interface,
		.integrity_table = (uint64_t)(uintptr_t)integrity_table,
		.check_function = (uint64_t)(uintptr_t)integrity_table[1],
		.unix_seconds = unix_seconds,
		.devices = devices,
		.device_count = (size_t)count,
	};
	zc_integrity_answer(&in, out);
	return TRACE(CUDA_SUCCESS, "INTEGRITY_CHECK[1] %u", version);
}

/* {F8CFF951-...}, new in cudart 13 and of unknown purpose: cudart accepts a table whose
 * slots do nothing, and has not been seen calling one. */
static uint64_t
unknown_slot(void)
{
	if (zc_tracing)
		zc_trace_line("zluda-convert: a slot of export table F8CFF951 was called");
	return 0;
}

#define U FN(unknown_slot)
#define U8 U, U, U, U, U, U, U, U
static void *const cudart13_table[64] = {
	SIZE(64), U, U, U, U, U, U, U, U8, U8, U8, U8, U8, U8, U8,
};
#undef U8
#undef U

/* TOOLS_MODULE {6E163FBE-...}: cuFFT asks [7] for the functions of each module it loads.
 * [7] hands each function, in the module's order, with its name, to a callback, and answers
 * their count (measured on an H200: three functions, three calls, 3; the callback's
 * return value changes nothing). The other slots are of unknown use and answer
 * CUDA_ERROR_NOT_SUPPORTED, naming themselves when traced. */
static CUresult
module_functions(CUcontext ctx, CUmodule module,
                 void (*each)(void *user, struct zc_function *f, const char *name), void *user)
{
	uint32_t count = 0;
	CUresult r = each ? zc_library_each_function(module, each, user, &count)
	                  : stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL callback");

	(void)ctx;
	r = TRACE(r, "TOOLS_MODULE[7] %p -> %u functions", (void *)module, count);
	return r == CUDA_SUCCESS ? (CUresult)count : r;
}

static CUresult
tools_module_unknown(void)
{
	return zc_unsupported("a slot of export table TOOLS_MODULE other than [7]");
}

#define U FN(tools_module_unknown)
#define U8 U, U, U, U, U, U, U, U
static void *const tools_module[99] = {
	SIZE(99), U, U, U, U, U, U, FN(module_functions), U8, U8, U8, U8, U8, U8, U8, U8, U8, U8, U8,
	U, U, U,
};
#undef U8
#undef U

#ifdef _WIN32
/* HYBRID_CUDART {DD9E98A4-...}, which only Windows cudart asks for: [1] loads the hybrid
 * runtime library it names (nvcudart_hybrid64.dll or nvcudart_hybrid64a.dll, which NVIDIA's
 * driver installs) and hands out its __cudaGetProcAddress with a token, [2] takes the token
 * back (the token's value is the one NVIDIA's driver gives). */
enum { HYBRID_TOKEN = 302100128 };

static CUresult
hybrid_runtime_load(const char *name, void **get_proc_address, size_t *token)
{
	char why[256];
	void *library = NULL;
	CUresult r = CUDA_SUCCESS;

	if (!name || !get_proc_address || !token)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL name, function or token");
	else if (strcmp(name, "nvcudart_hybrid64.dll") != 0 && strcmp(name, "nvcudart_hybrid64a.dll") != 0)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%s is not a hybrid runtime", name);
	else if (!(library = zc_library_open(name, false, why, sizeof why)))
		r = stub_fail(CUDA_ERROR_FILE_NOT_FOUND, "cannot load %s", why);
	else if (!(*get_proc_address = zc_library_symbol(library, "__cudaGetProcAddress")))
		r = stub_fail(CUDA_ERROR_OPERATING_SYSTEM, "%s has no __cudaGetProcAddress", name);
	else
		*token = HYBRID_TOKEN;
	return TRACE(r, "HYBRID_CUDART[1] \"%s\"", name ? name : "(null)");
}

static CUresult
hybrid_runtime_free(size_t token)
{
	CUresult r = token == HYBRID_TOKEN
		? CUDA_SUCCESS
		: stub_fail(CUDA_ERROR_INVALID_HANDLE, "%zu is not a hybrid runtime's token", token);

	return TRACE(r, "HYBRID_CUDART[2] %zu", token);
}

static void *const hybrid_cudart[3] = {
	SIZE(3), FN(hybrid_runtime_load), FN(hybrid_runtime_free),
};
#endif

/* The project's own table (abi/driver_identity.h): NVIDIA's driver has none, so a library
 * replacement that gets it knows the stub runs one of its drivers. */
static const char *
driver_name(void)
{
	return zc_drv ? zc_drv->name : "none";
}

/* [2]: the driver's own stream behind HANDLE (NULL: the legacy stream), for a library that
 * queues its work there itself (AMD's rocBLAS under the HIP driver). The stream's implicit
 * synchronisation is done as for the stub's own work submitted now; a capturing stream is
 * refused, since the work would bypass the capture. */
static CUresult
native_stream(CUstream handle, void **native)
{
	struct zc_stream *s;
	CUresult r = native ? zc_stream_resolve(handle, false, &s)
	                    : stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL native");

	if (r == CUDA_SUCCESS && !zc_drv->stream_native)
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "the %s driver has no streams to share",
		              zc_drv->name);
	if (r == CUDA_SUCCESS && s->capture)
		r = stub_fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "stream %p is capturing: work "
		              "queued on the driver's own stream would not be captured",
		              (void *)handle);
	if (r == CUDA_SUCCESS)
		r = zc_stream_begin(s);
	if (r == CUDA_SUCCESS)
		r = zc_drv->stream_native(s->drv, native);
	return TRACE(r, "ZLUDA_CONVERT_DRIVER_IDENTITY[2] %p", (void *)handle);
}

static void *const driver_identity[ZC_DRIVER_IDENTITY_SLOTS] = {
	SIZE(ZC_DRIVER_IDENTITY_SLOTS), FN(driver_name), FN(native_stream),
};

static const struct {
	uint8_t guid[16];
	const char *name;
	void *const *table;
} tables[] = {
	{ { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 },
	  "CUDART_INTERFACE", cudart_interface },
	{ { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 },
	  "TOOLS_RUNTIME_CALLBACK_HOOKS", tools_runtime_callback_hooks },
	{ { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc },
	  "TOOLS_TLS", tools_tls },
	{ { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 },
	  "CONTEXT_LOCAL_STORAGE", context_local_storage },
	{ { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e },
	  "CONTEXT_CHECKS", context_checks },
	{ { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 },
	  "INTEGRITY_CHECK", integrity_table },
	{ { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 },
	  "F8CFF951", cudart13_table },
	{ { 0x21, 0x31, 0x8c, 0x60, 0x97, 0x14, 0x32, 0x48, 0x8c, 0xa6, 0x41, 0xff, 0x73, 0x24, 0xc8, 0xf2 },
	  "21318C60", cublas_streams },
	{ ZC_DRIVER_IDENTITY_ID, "ZLUDA_CONVERT_DRIVER_IDENTITY", driver_identity },
	{ { 0x6e, 0x16, 0x3f, 0xbe, 0xb9, 0x58, 0x44, 0x4d, 0x83, 0x5c, 0xe1, 0x82, 0xaf, 0xf1, 0x99, 0x1e },
	  "TOOLS_MODULE", tools_module },
#ifdef _WIN32
	{ { 0xdd, 0x9e, 0x98, 0xa4, 0xf4, 0x10, 0x48, 0x44, 0x99, 0xb0, 0xe2, 0xae, 0xb7, 0xb4, 0x32, 0xb5 },
	  "HYBRID_CUDART", hybrid_cudart },
#endif
};

ZC_EXPORT CUresult
cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
	const char *name = "unknown";
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	if (zc_select_driver())
		return ZC_FORWARDED(cuGetExportTable)(ppExportTable, pExportTableId);
	if (ppExportTable && pExportTableId) {
		for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
			if (memcmp(tables[i].guid, pExportTableId->bytes, 16) == 0) {
				*ppExportTable = tables[i].table;
				name = tables[i].name;
				r = CUDA_SUCCESS;
			}
		}
	}
	if (r != CUDA_SUCCESS && pExportTableId) {
		const unsigned char *g = (const unsigned char *)pExportTableId->bytes;

		r = stub_fail(r, "no export table %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		              "%02x%02x%02x%02x%02x%02x", g[0], g[1], g[2], g[3], g[4], g[5], g[6],
		              g[7], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
	} else if (r != CUDA_SUCCESS) {
		r = stub_fail(r, "NULL table or GUID");
	}
	return TRACE(r, "%s", name);
}
