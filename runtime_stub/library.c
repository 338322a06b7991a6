/* Modules and libraries, as far as cudart needs them before kernels exist: it loads every
 * registered fatbin at start-up. A library records the code it was given; looking
 * anything up in it finds nothing yet. */
#include "api.h"

struct zc_library {
	const void *code;
};

ZC_EXPORT CUresult
cuModuleGetLoadingMode(int *mode)
{
	if (!mode)
		return TRACE(stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL mode"), "-");
	/* Code objects are loaded when first needed. */
	*mode = CU_MODULE_LAZY_LOADING;
	return TRACE(CUDA_SUCCESS, "-> lazy");
}

ZC_EXPORT CUresult
cuLibraryLoadData(CUlibrary *library, const void *code, void *jitOptions, void **jitOptionsValues,
                  unsigned int numJitOptions, void *libraryOptions, void **libraryOptionValues,
                  unsigned int numLibraryOptions)
{
	struct zc_library *lib = NULL;
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && (!library || !code))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL library or code");
	if (r == CUDA_SUCCESS && !(lib = stub_alloc(sizeof *lib)))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "library");
	if (r == CUDA_SUCCESS && !zc_handle_add(lib, ZC_HANDLE_LIBRARY)) {
		stub_free(lib);
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "library handle");
	}
	if (r == CUDA_SUCCESS) {
		lib->code = code;
		*library = lib;
	}
	return TRACE(r, "%p -> %p", code, r == CUDA_SUCCESS ? (void *)lib : NULL);
}

ZC_EXPORT CUresult
cuLibraryUnload(CUlibrary library)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(library, ZC_HANDLE_LIBRARY))
		r = stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a loaded library", (void *)library);
	if (r == CUDA_SUCCESS) {
		zc_handle_remove(library);
		stub_free(library);
	}
	return TRACE(r, "%p", (void *)library);
}
