/* Libraries and modules: code handed over as a fatbin wrapper, a fatbin or a PTX text is
 * found in the AOT image of its file (image.c); the code object for the device's target is
 * loaded when first needed, as CUDA's lazy loading does. A CUmodule is a CUlibrary and a
 * CUkernel is a CUfunction (cuda_types.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "api.h"
#include "device_launch.h"
#include "embed.h"

ZC_EXPORT CUresult
cuModuleGetLoadingMode(int *mode)
{
	if (!mode)
		return TRACE(stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL mode"), "-");
	/* Code objects are loaded when first needed. */
	*mode = CU_MODULE_LAZY_LOADING;
	return TRACE(CUDA_SUCCESS, "-> lazy");
}

/* gfx1030 -> gfx10-3-generic and so on: what LLVM's generic targets cover. */
static const char *
generic_target(const char *arch)
{
	static const struct {
		const char *prefix, *generic;
	} families[] = {
		{ "gfx103", "gfx10-3-generic" }, { "gfx101", "gfx10-1-generic" },
		{ "gfx11", "gfx11-generic" },    { "gfx12", "gfx12-generic" },
		{ "gfx90", "gfx9-generic" },     { "gfx94", "gfx9-4-generic" },
	};

	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (strncmp(arch, families[i].prefix, strlen(families[i].prefix)) == 0)
			return families[i].generic;
	return NULL;
}

/* Why the image has no code for target: its untranslated entry, or the usual reason. */
static CUresult
no_code(const struct zc_library *lib, const char *target)
{
	AotModule m = aot_module(&lib->image->aot, lib->module);

	for (uint32_t i = 0; i < m.nuntranslated; i++) {
		AotUntranslated u = aot_untranslated(&lib->image->aot, m.first_untranslated + i);
		if ((!u.target[0] || strcmp(u.target, target) == 0) && !u.what[0])
			return stub_fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "%s: module %s was not translated: %s",
			                 lib->image->path, m.name, u.reason);
	}
	return stub_fail(CUDA_ERROR_NO_BINARY_FOR_GPU,
	                 "%s: module %s has no code for %s; convert with --offload-arch=%s",
	                 lib->image->path, m.name, target, target);
}

static CUresult
load_code_object(struct zc_library *lib)
{
	char target[64];
	const char *generic;
	AotCodeObject co;
	uint8_t *bytes;
	ZcError err;
	CUresult r;
	const struct zc_module_services services = {
		.output_buffer = zc_device_output_buffer,
		.output_bytes = zc_current_limit(CU_LIMIT_PRINTF_FIFO_SIZE),
		.launch_queue = zc_device_launch_queue,
		.launch_records = zc_current_limit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT),
		.heap_bytes = zc_current_limit(CU_LIMIT_MALLOC_HEAP_SIZE),
	};

	if (!zc_drv->module_load)
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "the %s driver loads no code", zc_drv->name);
	if ((r = zc_drv->code_target(lib->device, target, sizeof target)) != CUDA_SUCCESS)
		return r;
	if (!aot_find_code_object(&lib->image->aot, lib->module, target, &co) &&
	    !((generic = generic_target(target)) &&
	      aot_find_code_object(&lib->image->aot, lib->module, generic, &co)))
		return no_code(lib, target);
	if (!(bytes = stub_alloc(co.size)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "%llu bytes of code", (unsigned long long)co.size);
	if (!aot_code_object_read(&co, bytes, &err))
		r = stub_fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s", lib->image->path, err.msg);
	else
		r = zc_drv->module_load(lib->device, bytes, co.size, &services, &lib->drv);
	if (r == CUDA_SUCCESS && zc_drv->module_launch_queue)
		lib->launches = zc_drv->module_launch_queue(lib->drv);
	lib->target = co.target;
	stub_free(bytes);
	return r;
}

/* The library's code object, loaded on first use; a failure is remembered. */
static CUresult
loaded(struct zc_library *lib)
{
	pthread_mutex_lock(&lib->lock);
	if (lib->error == CUDA_SUCCESS && !lib->drv)
		lib->error = load_code_object(lib);
	CUresult r = lib->error;
	pthread_mutex_unlock(&lib->lock);
	return r;
}

/* A library for the module `found` says: eager loads the code object now, and a missing one
 * is this call's error (cuModuleLoad*); otherwise the error waits for the library's first use
 * (cudart loads every registered fatbin at start-up, used or not). */
/* The current context's device, where code is loaded and translated for; 0 without one. */
static CUdevice
current_device(void)
{
	struct zc_context *ctx;

	return zc_context_current(&ctx) == CUDA_SUCCESS ? ctx->device : 0;
}

static CUresult
make_library(struct zc_library **out, CUresult found, struct zc_image *image, uint32_t module,
             bool eager)
{
	struct zc_library *lib;
	CUresult r = CUDA_SUCCESS;

	if (!(lib = stub_alloc(sizeof *lib)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "library");
	pthread_mutex_init(&lib->lock, NULL);
	lib->device = current_device();
	lib->error = found;
	lib->image = image;
	lib->module = module;
	if (image) {
		lib->nkernels = aot_module(&image->aot, module).nkernels;
		if (!(lib->kernels = stub_alloc(lib->nkernels * sizeof *lib->kernels)))
			lib->error = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "kernel table");
	}
	if (eager)
		r = loaded(lib);
	if (r == CUDA_SUCCESS && !zc_handle_add(lib, ZC_HANDLE_LIBRARY))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "library handle");
	if (r != CUDA_SUCCESS) {
		if (lib->drv)
			zc_drv->module_unload(lib->drv);
		pthread_mutex_destroy(&lib->lock);
		stub_free(lib->kernels);
		stub_free(lib);
		return r;
	}
	*out = lib;
	return CUDA_SUCCESS;
}

static CUresult
load(struct zc_library **out, const void *code, bool eager, struct zc_jit *jit)
{
	struct zc_image *image = NULL;
	uint32_t module = 0;
	CUresult r = zc_initialized();

	if (r != CUDA_SUCCESS)
		return r;
	if (!out || !code)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL module or code");
	if (jit)
		jit->ordinal = current_device();
	r = zc_image_find(code, jit, &image, &module);
	return make_library(out, r, image, module, eager);
}

/* load for a call that may translate, with its JIT options (none: n is 0), which it fills in. */
static CUresult
load_with_options(struct zc_library **out, const void *code, bool eager, unsigned n,
                  CUjit_option *options, void **values)
{
	struct zc_jit jit = { 0 };

	zc_jit_options_read(&jit, n, options, values);
	CUresult r = load(out, code, eager, &jit);
	zc_jit_options_write(&jit, n, options, values);
	return r;
}

/* Module files are fatbins or PTX texts, megabytes at most; this bounds a wrong path. */
enum { MODULE_FILE_LIMIT = 1 << 30 };

/* The bytes the file had before conversion: a converted module file's trailer says how many
 * (the image after them is mapped once per file by image.c, not read here). */
static size_t
original_size(FILE *file, size_t file_size)
{
	uint8_t trailer[MODULE_TRAILER_SIZE];
	uint64_t image_offset, image_size, original;

	if (file_size < sizeof trailer ||
	    fseeko(file, (off_t)(file_size - sizeof trailer), SEEK_SET) != 0 ||
	    fread(trailer, 1, sizeof trailer, file) != sizeof trailer ||
	    !module_trailer(trailer, file_size, &image_offset, &image_size, &original))
		return file_size;
	return (size_t)original;
}

CUresult
zc_module_file_read(const char *path, uint8_t **bytes, size_t *size)
{
	struct stat st;
	FILE *file = fopen(path, ZC_FOPEN_READ);
	CUresult r = CUDA_SUCCESS;
	size_t want = 0;

	*bytes = NULL;
	if (!file)
		return stub_fail(CUDA_ERROR_FILE_NOT_FOUND, "%s: %s", path, strerror(errno));
	if (fstat(fileno(file), &st) != 0 || !S_ISREG(st.st_mode))
		r = stub_fail(CUDA_ERROR_FILE_NOT_FOUND, "%s: not a regular file", path);
	else if ((want = original_size(file, (size_t)st.st_size)) > MODULE_FILE_LIMIT)
		r = stub_fail(CUDA_ERROR_INVALID_IMAGE, "%s: %zu bytes: not a module file", path, want);
	else if (!(*bytes = stub_alloc(want + 1)))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: %zu bytes", path, want);
	else if (fseeko(file, 0, SEEK_SET) != 0 || fread(*bytes, 1, want, file) != want)
		r = stub_fail(CUDA_ERROR_FILE_NOT_FOUND, "%s: cannot read: %s", path,
		              ferror(file) ? strerror(errno) : "the file shrank");
	fclose(file);
	if (r != CUDA_SUCCESS) {
		stub_free(*bytes);
		return r;
	}
	(*bytes)[want] = 0;
	*size = want;
	return CUDA_SUCCESS;
}

static CUresult
load_file(struct zc_library **out, const char *path, bool eager)
{
	struct zc_jit jit = { .ordinal = current_device() };
	struct zc_image *image = NULL;
	uint32_t module = 0;
	uint8_t *bytes;
	size_t size = 0;
	CUresult r = zc_initialized();

	if (r != CUDA_SUCCESS)
		return r;
	if (!out || !path)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL module or file name");
	if ((r = zc_module_file_read(path, &bytes, &size)) != CUDA_SUCCESS)
		return r;
	r = zc_image_find_file(path, bytes, size, &jit, &image, &module);
	stub_free(bytes);
	/* A file that is not there, or not converted, fails now even when lazy. */
	if (r != CUDA_SUCCESS)
		return r;
	return make_library(out, r, image, module, eager);
}

static CUresult
unload(struct zc_library *lib)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(lib, ZC_HANDLE_LIBRARY))
		r = stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a loaded library", (void *)lib);
	if (r != CUDA_SUCCESS)
		return r;
	zc_handle_remove(lib);
	for (uint32_t i = 0; i < lib->nkernels; i++) {
		if (lib->kernels[i]) {
			zc_handle_remove(lib->kernels[i]);
			stub_free(lib->kernels[i]);
		}
	}
	zc_memory_remove_globals(lib);
	if (lib->drv) {
		/* Kernels of the module may still be queued or running (cudart unloads its modules
		 * at exit without waiting): the code stays until they are done. */
		struct zc_context *ctx;
		struct zc_device *dev;
		if (zc_context_current(&ctx) == CUDA_SUCCESS)
			zc_context_sync(ctx);
		if (zc_device_get(lib->device, &dev) == CUDA_SUCCESS && dev->primary)
			zc_context_sync(dev->primary);
		r = zc_drv->module_unload(lib->drv);
	}
	pthread_mutex_destroy(&lib->lock);
	stub_free(lib->kernels);
	stub_free(lib);
	return r;
}

/* Why the converter left the kernel out of the loaded code object, or NULL. */
static const char *
left_out(const struct zc_library *lib, const char *kernel)
{
	AotModule m = aot_module(&lib->image->aot, lib->module);

	for (uint32_t i = 0; i < m.nuntranslated; i++) {
		AotUntranslated u = aot_untranslated(&lib->image->aot, m.first_untranslated + i);
		if ((!u.target[0] || strcmp(u.target, lib->target) == 0) && strcmp(u.what, kernel) == 0)
			return u.reason;
	}
	return NULL;
}

/* A left-out kernel still gets a handle, as cudart takes one for every kernel it registers;
 * launching it fails. */
static CUresult
make_function(struct zc_library *lib, const AotKernel *k, struct zc_function **out)
{
	struct zc_device *dev;
	struct zc_drv_function *drv = NULL;
	struct zc_function *f;
	const char *why = left_out(lib, k->name);
	CUresult r = zc_device_get(lib->device, &dev);

	if (r == CUDA_SUCCESS && !why)
		r = zc_drv->module_function(lib->drv, k->name, &drv);
	if (r != CUDA_SUCCESS)
		return r;
	if (!(f = stub_alloc(sizeof *f + k->nparams * sizeof f->params[0])))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "function");
	*f = (struct zc_function){
		.library = lib,
		.name = k->name,
		.drv = drv,
		.left_out = why,
		.static_shared = k->static_shared,
		.max_threads = (uint32_t)dev->info.max_threads_per_block,
		.carveout = -1,
		.param_size = k->param_size,
		.nparams = k->nparams,
	};
	if (k->flags & AOT_KERNEL_REQNTID) {
		memcpy(f->reqntid, k->reqntid, sizeof f->reqntid);
		f->max_threads = k->reqntid[0] * k->reqntid[1] * k->reqntid[2];
	} else if (k->flags & AOT_KERNEL_MAXNTID) {
		uint32_t most = k->maxntid[0] * k->maxntid[1] * k->maxntid[2];
		f->max_threads = most < f->max_threads ? most : f->max_threads;
	}
	uint32_t per_block = (uint32_t)dev->info.shared_per_block;
	f->max_dynamic_shared = per_block > k->static_shared ? per_block - k->static_shared : 0;
	for (uint32_t i = 0; i < k->nparams; i++) {
		AotParam p = aot_param(&lib->image->aot, k->first_param + i);
		f->params[i] = (struct zc_param){ p.offset, p.size };
	}
	if (!zc_handle_add(f, ZC_HANDLE_FUNCTION)) {
		stub_free(f);
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "function handle");
	}
	*out = f;
	return CUDA_SUCCESS;
}

/* A library the program may ask about: live, with its code loaded. */
static CUresult
live_library(struct zc_library *lib)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(lib, ZC_HANDLE_LIBRARY))
		r = stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a loaded library", (void *)lib);
	return r == CUDA_SUCCESS ? loaded(lib) : r;
}

/* The function of the library's index-th kernel, made on first use. */
static CUresult
function_at(struct zc_library *lib, uint32_t index, struct zc_function **out)
{
	AotKernel k = aot_kernel(&lib->image->aot,
	                         aot_module(&lib->image->aot, lib->module).first_kernel + index);
	CUresult r = CUDA_SUCCESS;

	pthread_mutex_lock(&lib->lock);
	if (!lib->kernels[index])
		r = make_function(lib, &k, &lib->kernels[index]);
	*out = lib->kernels[index];
	pthread_mutex_unlock(&lib->lock);
	return r;
}

static CUresult
get_function(struct zc_library *lib, const char *name, struct zc_function **out)
{
	AotKernel k;
	uint32_t index;
	CUresult r = live_library(lib);

	if (r == CUDA_SUCCESS && (!out || !name))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL function or name");
	if (r != CUDA_SUCCESS)
		return r;
	if (!aot_find_kernel(&lib->image->aot, lib->module, name, &k, &index))
		return stub_fail(CUDA_ERROR_NOT_FOUND, "module %s has no kernel %s",
		                 aot_module(&lib->image->aot, lib->module).name, name);
	return function_at(lib, index - aot_module(&lib->image->aot, lib->module).first_kernel, out);
}

CUresult
zc_library_each_function(struct zc_library *lib,
                         void (*each)(void *user, struct zc_function *f, const char *name),
                         void *user, uint32_t *count)
{
	struct zc_function *f;
	CUresult r = live_library(lib);

	for (uint32_t i = 0; r == CUDA_SUCCESS && i < lib->nkernels; i++)
		if ((r = function_at(lib, i, &f)) == CUDA_SUCCESS)
			each(user, f, f->name);
	if (r == CUDA_SUCCESS)
		*count = lib->nkernels;
	return r;
}

static CUresult
function_count(unsigned *count, struct zc_library *lib)
{
	CUresult r = live_library(lib);

	if (r == CUDA_SUCCESS && !count)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL count");
	if (r == CUDA_SUCCESS)
		*count = lib->nkernels;
	return r;
}

/* The first n functions, in the module's order. */
static CUresult
enumerate_functions(struct zc_function **functions, unsigned n, struct zc_library *lib)
{
	CUresult r = live_library(lib);

	if (r == CUDA_SUCCESS && n && !functions)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL functions");
	for (uint32_t i = 0; r == CUDA_SUCCESS && i < n && i < lib->nkernels; i++)
		r = function_at(lib, i, &functions[i]);
	return r;
}

CUresult
zc_library_kernel(struct zc_library *lib, uint64_t handle, struct zc_function **out)
{
	AotModule m = aot_module(&lib->image->aot, lib->module);

	for (uint32_t i = 0; i < m.nkernels; i++) {
		AotKernel k = aot_kernel(&lib->image->aot, m.first_kernel + i);

		if (zc_kernel_handle(k.name) == handle)
			return get_function(lib, k.name, out);
	}
	return stub_fail(CUDA_ERROR_LAUNCH_FAILED, "a kernel of module %s launched a kernel it "
	                 "does not have (handle %#llx)", m.name, (unsigned long long)handle);
}

static CUresult
get_global(struct zc_library *lib, const char *name, CUdeviceptr *dptr, size_t *bytes)
{
	AotGlobal g;
	void *address;
	CUresult r = live_library(lib);

	if (r == CUDA_SUCCESS && !name)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL name");
	if (r != CUDA_SUCCESS)
		return r;
	if (!aot_find_global(&lib->image->aot, lib->module, name, &g))
		return stub_fail(CUDA_ERROR_NOT_FOUND, "module %s has no variable %s",
		                 aot_module(&lib->image->aot, lib->module).name, name);
	if ((r = zc_drv->module_global(lib->drv, name, &address)) != CUDA_SUCCESS ||
	    (r = zc_memory_add_global(lib, NULL, address, g.size)) != CUDA_SUCCESS)
		return r;
	if (dptr)
		*dptr = (CUdeviceptr)(uintptr_t)address;
	if (bytes)
		*bytes = g.size;
	return CUDA_SUCCESS;
}

CUresult
zc_function_check(CUfunction f)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(f, ZC_HANDLE_FUNCTION))
		r = stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a function", (void *)f);
	return r;
}

ZC_EXPORT CUresult
cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                  void **jitOptionsValues, unsigned int numJitOptions,
                  CUlibraryOption *libraryOptions, void **libraryOptionValues,
                  unsigned int numLibraryOptions)
{
	CUresult r = load_with_options(library, code, false, numJitOptions, jitOptions, jitOptionsValues);

	return TRACE(r, "%p, %u options -> %p", code, numJitOptions,
	             r == CUDA_SUCCESS ? (void *)*library : NULL);
}

ZC_EXPORT CUresult
cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                      void **jitOptionsValues, unsigned int numJitOptions,
                      CUlibraryOption *libraryOptions, void **libraryOptionValues,
                      unsigned int numLibraryOptions)
{
	CUresult r = load_file(library, fileName, false);

	return TRACE(r, "%s -> %p", fileName ? fileName : "(null)",
	             r == CUDA_SUCCESS ? (void *)*library : NULL);
}

ZC_EXPORT CUresult
cuModuleLoad(CUmodule *module, const char *fname)
{
	CUresult r = load_file(module, fname, true);

	return TRACE(r, "%s -> %p", fname ? fname : "(null)",
	             r == CUDA_SUCCESS ? (void *)*module : NULL);
}

CUresult
zc_module_from_cubin(const char *slot, CUmodule *module, const void *code)
{
	CUresult r = load(module, code, false, NULL);

	return zc_tracing ? zc_trace_call(slot, r, "%p -> %p", code,
	                                  r == CUDA_SUCCESS ? (void *)*module : NULL)
	                  : r;
}

ZC_EXPORT CUresult
cuModuleLoadData(CUmodule *module, const void *image)
{
	CUresult r = load_with_options(module, image, true, 0, NULL, NULL);

	return TRACE(r, "%p -> %p", image, r == CUDA_SUCCESS ? (void *)*module : NULL);
}

ZC_EXPORT CUresult
cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                   CUjit_option *options, void **optionValues)
{
	CUresult r = load_with_options(module, image, true, numOptions, options, optionValues);

	return TRACE(r, "%p, %u options -> %p", image, numOptions,
	             r == CUDA_SUCCESS ? (void *)*module : NULL);
}

ZC_EXPORT CUresult
cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
	CUresult r = load_with_options(module, fatCubin, true, 0, NULL, NULL);

	return TRACE(r, "%p -> %p", fatCubin, r == CUDA_SUCCESS ? (void *)*module : NULL);
}

ZC_EXPORT CUresult
cuLibraryUnload(CUlibrary library)
{
	return TRACE(unload(library), "%p", (void *)library);
}

ZC_EXPORT CUresult
cuModuleUnload(CUmodule module)
{
	return TRACE(unload(module), "%p", (void *)module);
}

ZC_EXPORT CUresult
cuLibraryGetModule(CUmodule *module, CUlibrary library)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(library, ZC_HANDLE_LIBRARY))
		r = stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a loaded library", (void *)library);
	if (r == CUDA_SUCCESS && !module)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL module");
	if (r == CUDA_SUCCESS && (r = loaded(library)) == CUDA_SUCCESS)
		*module = library;
	return TRACE(r, "%p", (void *)library);
}

ZC_EXPORT CUresult
cuLibraryGetKernel(CUkernel *kernel, CUlibrary library, const char *name)
{
	CUresult r = get_function(library, name, kernel);

	return TRACE(r, "%p, \"%s\" -> %p", (void *)library, name ? name : "(null)",
	             r == CUDA_SUCCESS ? (void *)*kernel : NULL);
}

ZC_EXPORT CUresult
cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name)
{
	CUresult r = get_function(module, name, function);

	return TRACE(r, "%p, \"%s\" -> %p", (void *)module, name ? name : "(null)",
	             r == CUDA_SUCCESS ? (void *)*function : NULL);
}

ZC_EXPORT CUresult
cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
	CUresult r = function_count(count, mod);

	return TRACE(r, "%p -> %u", (void *)mod, r == CUDA_SUCCESS ? *count : 0);
}

ZC_EXPORT CUresult
cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
	CUresult r = function_count(count, lib);

	return TRACE(r, "%p -> %u", (void *)lib, r == CUDA_SUCCESS ? *count : 0);
}

ZC_EXPORT CUresult
cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod)
{
	return TRACE(enumerate_functions(functions, numFunctions, mod), "%u, %p", numFunctions,
	             (void *)mod);
}

ZC_EXPORT CUresult
cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib)
{
	return TRACE(enumerate_functions(kernels, numKernels, lib), "%u, %p", numKernels, (void *)lib);
}

ZC_EXPORT CUresult
cuKernelGetFunction(CUfunction *function, CUkernel kernel)
{
	CUresult r = zc_function_check(kernel);

	if (r == CUDA_SUCCESS && !function)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL function");
	if (r == CUDA_SUCCESS)
		*function = kernel;
	return TRACE(r, "%p", (void *)kernel);
}

ZC_EXPORT CUresult
cuKernelGetLibrary(CUlibrary *library, CUkernel kernel)
{
	CUresult r = zc_function_check(kernel);

	if (r == CUDA_SUCCESS && !library)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL library");
	if (r == CUDA_SUCCESS)
		*library = kernel->library;
	return TRACE(r, "%p", (void *)kernel);
}

ZC_EXPORT CUresult
cuFuncGetModule(CUmodule *module, CUfunction function)
{
	return cuKernelGetLibrary(module, function);
}

ZC_EXPORT CUresult
cuKernelGetName(const char **name, CUkernel kernel)
{
	CUresult r = zc_function_check(kernel);

	if (r == CUDA_SUCCESS && !name)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL name");
	if (r == CUDA_SUCCESS)
		*name = kernel->name;
	return TRACE(r, "%p", (void *)kernel);
}

ZC_EXPORT CUresult
cuFuncGetName(const char **name, CUfunction function)
{
	return cuKernelGetName(name, function);
}

ZC_EXPORT CUresult
cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
	CUresult r = get_global(library, name, dptr, bytes);

	return TRACE(r, "%p, \"%s\"", (void *)library, name ? name : "(null)");
}

/* Managed variables are module variables the host reads directly: on every driver here
 * they are plain global memory. */
ZC_EXPORT CUresult
cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
	CUresult r = get_global(library, name, dptr, bytes);

	return TRACE(r, "%p, \"%s\"", (void *)library, name ? name : "(null)");
}

ZC_EXPORT CUresult
cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule module, const char *name)
{
	CUresult r = get_global(module, name, dptr, bytes);

	return TRACE(r, "%p, \"%s\"", (void *)module, name ? name : "(null)");
}
