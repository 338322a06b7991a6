/* The project's nvJitLink. nvJitLink links code made at run time into a CUBIN for an NVIDIA
 * GPU's architecture (-arch=sm_XY), which no AMD GPU runs. Under the stub's drivers the link
 * is the driver's own cuLink (runtime_stub/api/link.c), and the "CUBIN" handed over is the
 * image it makes of PTX texts, which the driver translates when the program loads it. LTO-IR
 * inputs (-lto) are first linked by NVIDIA's nvJitLink, which runs on any machine, into PTX
 * (its -ptx), which joins the link. Under NVIDIA's driver, NVIDIA's nvJitLink takes every call
 * (engine.c): the original's CUBINs. */
#include "replacement_rename.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvJitLink.h>

#include "engine.h"

/* NVIDIA's nvJitLink, for LTO-IR; its functions by their versioned names. */
static struct {
	nvJitLinkResult (*create)(nvJitLinkHandle *, uint32_t, const char *const *);
	nvJitLinkResult (*add)(nvJitLinkHandle, nvJitLinkInputType, const void *, size_t, const char *);
	nvJitLinkResult (*complete)(nvJitLinkHandle);
	nvJitLinkResult (*ptx_size)(nvJitLinkHandle, size_t *);
	nvJitLinkResult (*ptx)(nvJitLinkHandle, char *);
	nvJitLinkResult (*log_size)(nvJitLinkHandle, size_t *);
	nvJitLinkResult (*log)(nvJitLinkHandle, char *);
	nvJitLinkResult (*destroy)(nvJitLinkHandle *);
} nvidia;

void zc_engine_forward(void *library, const char *const *names, void **functions, size_t count)
{
	(void)names, (void)functions, (void)count;
	if (!library)
		return;
	*(void **)&nvidia.create = dlsym(library, "__nvJitLinkCreate_13_0");
	*(void **)&nvidia.add = dlsym(library, "__nvJitLinkAddData_13_0");
	*(void **)&nvidia.complete = dlsym(library, "__nvJitLinkComplete_13_0");
	*(void **)&nvidia.ptx_size = dlsym(library, "__nvJitLinkGetLinkedPtxSize_13_0");
	*(void **)&nvidia.ptx = dlsym(library, "__nvJitLinkGetLinkedPtx_13_0");
	*(void **)&nvidia.log_size = dlsym(library, "__nvJitLinkGetErrorLogSize_13_0");
	*(void **)&nvidia.log = dlsym(library, "__nvJitLinkGetErrorLog_13_0");
	*(void **)&nvidia.destroy = dlsym(library, "__nvJitLinkDestroy_13_0");
}

enum { LOG_SIZE = 8192 };

struct nvJitLink {
	CUlinkState link;        /* the driver's, with the logs below as its log buffers */
	char info[LOG_SIZE], error[LOG_SIZE];
	bool lto, ptx_asked;
	char **options;          /* the program's, handed to NVIDIA's for LTO-IR */
	uint32_t noptions;
	struct lto_input {
		void *data;
		size_t size;
		char *name;
	} *ltoir;
	size_t nltoir;
	char *lto_ptx;           /* NVIDIA's link of the LTO-IR */
	void *image;             /* cuLinkComplete's, the link's own */
	size_t image_size;
};

static void append(char *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void append(char *log, const char *fmt, ...)
{
	size_t used = strlen(log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(log + used, LOG_SIZE - used, fmt, ap);
	va_end(ap);
}

nvJitLinkResult __nvJitLinkCreate_13_0(nvJitLinkHandle *handle, uint32_t numOptions,
                                       const char *const *options)
{
	struct nvJitLink *h;
	bool arch = false;

	if (!handle || (numOptions && !options))
		return NVJITLINK_ERROR_NULL_INPUT;
	for (uint32_t i = 0; i < numOptions; i++) {
		if (!options[i])
			return NVJITLINK_ERROR_NULL_INPUT;
		arch |= strncmp(options[i], "-arch=", 6) == 0;
	}
	if (!arch)
		return NVJITLINK_ERROR_MISSING_ARCH;
	if (!(h = calloc(1, sizeof *h)) || !(h->options = calloc(numOptions + 1, sizeof *h->options))) {
		free(h);
		return NVJITLINK_ERROR_INTERNAL;
	}
	for (uint32_t i = 0; i < numOptions; i++) {
		h->lto |= strcmp(options[i], "-lto") == 0;
		h->ptx_asked |= strcmp(options[i], "-ptx") == 0;
		h->options[h->noptions++] = strdup(options[i]);
	}
	CUjit_option jit[] = { CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
	                       CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *values[] = { h->info, (void *)(uintptr_t)LOG_SIZE, h->error, (void *)(uintptr_t)LOG_SIZE };
	if (cuLinkCreate(4, jit, values, &h->link) != CUDA_SUCCESS) {
		nvJitLinkHandle made = h;
		__nvJitLinkDestroy_13_0(&made);
		return NVJITLINK_ERROR_INTERNAL;
	}
	*handle = h;
	return NVJITLINK_SUCCESS;
}

nvJitLinkResult __nvJitLinkDestroy_13_0(nvJitLinkHandle *handle)
{
	struct nvJitLink *h = handle ? *handle : NULL;

	if (!h)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (h->link)
		cuLinkDestroy(h->link);
	for (uint32_t i = 0; i < h->noptions; i++)
		free(h->options[i]);
	for (size_t i = 0; i < h->nltoir; i++) {
		free(h->ltoir[i].data);
		free(h->ltoir[i].name);
	}
	free(h->options);
	free(h->ltoir);
	free(h->lto_ptx);
	free(h);
	*handle = NULL;
	return NVJITLINK_SUCCESS;
}

/* What an input of type ANY is, by its first bytes: LLVM bitcode is LTO-IR. */
static nvJitLinkInputType input_type(nvJitLinkInputType type, const uint8_t *data, size_t size)
{
	static const uint8_t elf[] = { 0x7f, 'E', 'L', 'F' }, fatbin[] = { 0x50, 0xed, 0x55, 0xba },
	                     bitcode[] = { 'B', 'C', 0xc0, 0xde };

	if (type != NVJITLINK_INPUT_ANY || size < 4)
		return type;
	if (!memcmp(data, elf, 4))
		return NVJITLINK_INPUT_CUBIN;
	if (!memcmp(data, fatbin, 4))
		return NVJITLINK_INPUT_FATBIN;
	return !memcmp(data, bitcode, 4) ? NVJITLINK_INPUT_LTOIR : NVJITLINK_INPUT_PTX;
}

nvJitLinkResult __nvJitLinkAddData_13_0(nvJitLinkHandle h, nvJitLinkInputType inputType,
                                        const void *data, size_t size, const char *name)
{
	static const CUjitInputType driver_type[] = {
		[NVJITLINK_INPUT_CUBIN] = CU_JIT_INPUT_CUBIN, [NVJITLINK_INPUT_PTX] = CU_JIT_INPUT_PTX,
		[NVJITLINK_INPUT_FATBIN] = CU_JIT_INPUT_FATBINARY, [NVJITLINK_INPUT_OBJECT] = CU_JIT_INPUT_OBJECT,
		[NVJITLINK_INPUT_LIBRARY] = CU_JIT_INPUT_LIBRARY,
	};

	if (!h || !data)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (!name)
		name = "(unnamed)";
	inputType = input_type(inputType, data, size);
	if (inputType == NVJITLINK_INPUT_LTOIR && !h->lto) {
		append(h->error, "zluda-convert: %s: LTO-IR needs -lto\n", name);
		return NVJITLINK_ERROR_LTO_NOT_ENABLED;
	}
	if (inputType == NVJITLINK_INPUT_LTOIR) {
		struct lto_input *grown = realloc(h->ltoir, (h->nltoir + 1) * sizeof *grown);
		void *copy = malloc(size ? size : 1);

		if (!grown || !copy) {
			free(copy);
			if (grown)
				h->ltoir = grown;
			return NVJITLINK_ERROR_INTERNAL;
		}
		h->ltoir = grown;
		memcpy(copy, data, size);
		h->ltoir[h->nltoir++] = (struct lto_input){ copy, size, strdup(name) };
		return NVJITLINK_SUCCESS;
	}
	if (inputType <= NVJITLINK_INPUT_NONE || inputType > NVJITLINK_INPUT_LIBRARY) {
		append(h->error, "zluda-convert: %s: input type %d cannot be linked here\n", name,
		       (int)inputType);
		return NVJITLINK_ERROR_INCORRECT_INPUT_TYPE;
	}
	return cuLinkAddData(h->link, driver_type[inputType], (void *)data, size, name, 0, NULL, NULL) ==
	               CUDA_SUCCESS
	           ? NVJITLINK_SUCCESS
	           : NVJITLINK_ERROR_INVALID_INPUT;
}

nvJitLinkResult __nvJitLinkAddFile_13_0(nvJitLinkHandle h, nvJitLinkInputType inputType,
                                        const char *fileName)
{
	FILE *f;
	long size;
	char *bytes = NULL;
	nvJitLinkResult r = NVJITLINK_ERROR_INVALID_INPUT;

	if (!h || !fileName)
		return NVJITLINK_ERROR_NULL_INPUT;
	/* CUDA's device runtime is left out unread, as cuLink leaves it */
	if (inputType == NVJITLINK_INPUT_LIBRARY)
		return cuLinkAddFile(h->link, CU_JIT_INPUT_LIBRARY, fileName, 0, NULL, NULL) == CUDA_SUCCESS
		           ? NVJITLINK_SUCCESS : NVJITLINK_ERROR_INVALID_INPUT;
	if (!(f = fopen(fileName, "rb"))) {
		append(h->error, "zluda-convert: %s: cannot open it\n", fileName);
		return NVJITLINK_ERROR_INVALID_INPUT;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (bytes = malloc((size_t)size + 1)) && fread(bytes, 1, (size_t)size, f) == (size_t)size) {
		bytes[size] = 0;
		r = __nvJitLinkAddData_13_0(h, inputType, bytes, (size_t)size, fileName);
	}
	fclose(f);
	free(bytes);
	return r;
}

/* The LTO-IR linked by NVIDIA's nvJitLink into PTX, which joins the driver's link. */
static nvJitLinkResult link_ltoir(struct nvJitLink *h)
{
	nvJitLinkHandle lto = NULL;
	const char **options = calloc(h->noptions + 2, sizeof *options);
	nvJitLinkResult r = NVJITLINK_ERROR_INTERNAL;
	size_t size = 0;

	if (!nvidia.create) {
		append(h->error, "zluda-convert: linking LTO-IR needs NVIDIA's nvJitLink, which is not "
		       "found\n");
		free(options);
		return r;
	}
	if (!options)
		return r;
	memcpy(options, h->options, h->noptions * sizeof *options);
	options[h->noptions] = "-ptx";
	if ((r = nvidia.create(&lto, h->noptions + !h->ptx_asked, options)) == NVJITLINK_SUCCESS) {
		for (size_t i = 0; i < h->nltoir && r == NVJITLINK_SUCCESS; i++)
			r = nvidia.add(lto, NVJITLINK_INPUT_LTOIR, h->ltoir[i].data, h->ltoir[i].size,
			               h->ltoir[i].name);
		if (r == NVJITLINK_SUCCESS)
			r = nvidia.complete(lto);
		if (r == NVJITLINK_SUCCESS && (r = nvidia.ptx_size(lto, &size)) == NVJITLINK_SUCCESS)
			r = (h->lto_ptx = malloc(size + 1)) ? nvidia.ptx(lto, h->lto_ptx) : NVJITLINK_ERROR_INTERNAL;
		if (r != NVJITLINK_SUCCESS && nvidia.log_size(lto, &size) == NVJITLINK_SUCCESS && size) {
			char *log = malloc(size);

			if (log && nvidia.log(lto, log) == NVJITLINK_SUCCESS)
				append(h->error, "%s", log);
			free(log);
		}
		nvidia.destroy(&lto);
	}
	free(options);
	if (r == NVJITLINK_SUCCESS &&
	    cuLinkAddData(h->link, CU_JIT_INPUT_PTX, h->lto_ptx, strlen(h->lto_ptx), "the LTO-IR, linked",
	                  0, NULL, NULL) != CUDA_SUCCESS)
		r = NVJITLINK_ERROR_INVALID_INPUT;
	return r;
}

nvJitLinkResult __nvJitLinkComplete_13_0(nvJitLinkHandle h)
{
	nvJitLinkResult r = NVJITLINK_SUCCESS;

	if (!h)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (h->nltoir && !h->lto_ptx)
		r = link_ltoir(h);
	if (r == NVJITLINK_SUCCESS && cuLinkComplete(h->link, &h->image, &h->image_size) != CUDA_SUCCESS)
		r = NVJITLINK_ERROR_INVALID_INPUT;
	return r;
}

nvJitLinkResult __nvJitLinkGetLinkedCubinSize_13_0(nvJitLinkHandle h, size_t *size)
{
	if (!h || !size)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (!h->image)
		return NVJITLINK_ERROR_INVALID_INPUT;
	*size = h->image_size;
	return NVJITLINK_SUCCESS;
}

nvJitLinkResult __nvJitLinkGetLinkedCubin_13_0(nvJitLinkHandle h, void *cubin)
{
	if (!h || !cubin)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (!h->image)
		return NVJITLINK_ERROR_INVALID_INPUT;
	memcpy(cubin, h->image, h->image_size);
	return NVJITLINK_SUCCESS;
}

/* The linked PTX exists where NVIDIA's has it: LTO-IR linked with -ptx. */
nvJitLinkResult __nvJitLinkGetLinkedPtxSize_13_0(nvJitLinkHandle h, size_t *size)
{
	if (!h || !size)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (!h->ptx_asked || !h->lto_ptx)
		return NVJITLINK_ERROR_INVALID_INPUT;
	*size = strlen(h->lto_ptx) + 1;
	return NVJITLINK_SUCCESS;
}

nvJitLinkResult __nvJitLinkGetLinkedPtx_13_0(nvJitLinkHandle h, char *ptx)
{
	if (!h || !ptx)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (!h->ptx_asked || !h->lto_ptx)
		return NVJITLINK_ERROR_INVALID_INPUT;
	strcpy(ptx, h->lto_ptx);
	return NVJITLINK_SUCCESS;
}

/* The size (with its NUL) or the text of the error log, or of the info log. */
static nvJitLinkResult log_size(nvJitLinkHandle h, bool error, size_t *size)
{
	if (!h || !size)
		return NVJITLINK_ERROR_NULL_INPUT;
	*size = strlen(error ? h->error : h->info) + 1;
	return NVJITLINK_SUCCESS;
}

static nvJitLinkResult log_text(nvJitLinkHandle h, bool error, char *log)
{
	if (!h || !log)
		return NVJITLINK_ERROR_NULL_INPUT;
	strcpy(log, error ? h->error : h->info);
	return NVJITLINK_SUCCESS;
}

nvJitLinkResult __nvJitLinkGetErrorLogSize_13_0(nvJitLinkHandle h, size_t *size)
{
	return log_size(h, true, size);
}

nvJitLinkResult __nvJitLinkGetErrorLog_13_0(nvJitLinkHandle h, char *log)
{
	return log_text(h, true, log);
}

nvJitLinkResult __nvJitLinkGetInfoLogSize_13_0(nvJitLinkHandle h, size_t *size)
{
	return log_size(h, false, size);
}

nvJitLinkResult __nvJitLinkGetInfoLog_13_0(nvJitLinkHandle h, char *log)
{
	return log_text(h, false, log);
}

/* The unversioned names, for programs that look them up: the same functions (each name here
 * is renamed by replacement_rename.h, so the aliases name the implementations). */
#define SAME_AS_VERSIONED(name) \
	extern __typeof__(__##name##_13_0) name __attribute__((alias("zc_impl___" #name "_13_0")));
SAME_AS_VERSIONED(nvJitLinkCreate)
SAME_AS_VERSIONED(nvJitLinkDestroy)
SAME_AS_VERSIONED(nvJitLinkAddData)
SAME_AS_VERSIONED(nvJitLinkAddFile)
SAME_AS_VERSIONED(nvJitLinkComplete)
SAME_AS_VERSIONED(nvJitLinkGetLinkedCubinSize)
SAME_AS_VERSIONED(nvJitLinkGetLinkedCubin)
SAME_AS_VERSIONED(nvJitLinkGetLinkedPtxSize)
SAME_AS_VERSIONED(nvJitLinkGetLinkedPtx)
SAME_AS_VERSIONED(nvJitLinkGetErrorLogSize)
SAME_AS_VERSIONED(nvJitLinkGetErrorLog)
SAME_AS_VERSIONED(nvJitLinkGetInfoLogSize)
SAME_AS_VERSIONED(nvJitLinkGetInfoLog)

nvJitLinkResult nvJitLinkVersion(unsigned int *major, unsigned int *minor)
{
	if (!major || !minor)
		return NVJITLINK_ERROR_NULL_INPUT;
	*major = 13;
	*minor = 0;
	return NVJITLINK_SUCCESS;
}
