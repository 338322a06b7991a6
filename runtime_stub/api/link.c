/* cuLink*: linking code made at run time into one image for cuModuleLoadData, as programs
 * do with NVRTC's PTX (NVIDIA's ptxjit sample, Numba, NVRTC's -rdc output). The stub links
 * no machine code: the image it completes is the one PTX text or fatbin it was given, or
 * several PTX texts in the form abi/runtime_code.h gives, which the tool links; the load
 * then translates it (translate.c). A LIBRARY input (CUDA's device runtime, libcudadevrt.a)
 * is left out: translated code brings its own. Machine code (a real CUBIN, an OBJECT), NVVM
 * IR, and a fatbin with other inputs fail, naming what cannot be done. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "fatbin.h"
#include "runtime_code.h"

struct link_input {
	uint8_t *code;   /* NUL-terminated */
	size_t size;     /* without the NUL */
	bool fatbin;
	char name[128];  /* what the program called it */
};

struct zc_link {
	struct link_input *inputs;
	size_t ninputs;
	uint8_t *image;  /* what cuLinkComplete made */
	/* cuLinkCreate's log buffers, reported at cuLinkComplete */
	struct zc_jit jit;
	unsigned noptions;
	CUjit_option *options;
	void **values;
};

static CUresult
check_state(CUlinkState state)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(state, ZC_HANDLE_LINK))
		r = stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a link", (void *)state);
	return r;
}

/* A failure of the link, in its error log as well. */
static CUresult
refuse(CUlinkState state, CUresult code, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	zc_jit_note(&state->jit, true, "zluda-convert: %s", why);
	return stub_fail(code, "%s", why);
}

/* An input the link keeps: PTX text or a fatbin, whatever type the program named (the
 * project's NVRTC hands over PTX where a CUBIN was asked for). */
static CUresult
add(CUlinkState state, CUjitInputType type, const uint8_t *data, size_t size, const char *name)
{
	uint32_t magic = 0;

	if (type == CU_JIT_INPUT_LIBRARY) {
		zc_jit_note(&state->jit, false, "zluda-convert: %s: left out: translated code brings "
		            "CUDA's device runtime itself", name);
		return CUDA_SUCCESS;
	}
	if (type == CU_JIT_INPUT_NVVM || type == CU_JIT_INPUT_OBJECT)
		return refuse(state, CUDA_ERROR_NOT_SUPPORTED, "%s: %s inputs cannot be translated",
		              name, type == CU_JIT_INPUT_NVVM ? "NVVM IR (LTO)" : "object");
	if ((unsigned)type > CU_JIT_INPUT_FATBINARY)
		return refuse(state, CUDA_ERROR_INVALID_VALUE, "%s: input type %d", name, (int)type);
	if (size >= 4)
		memcpy(&magic, data, 4);
	if (magic == 0x464c457f)
		return refuse(state, CUDA_ERROR_NOT_SUPPORTED, "%s: a CUBIN (machine code for an NVIDIA "
		              "GPU) cannot be translated: only PTX can", name);
	bool fatbin = magic == FATBIN_MAGIC;
	uint64_t fat_size = 0;

	if (fatbin && size >= FATBIN_HEADER_SIZE)
		memcpy(&fat_size, data + 8, 8);
	if (fatbin && (size < FATBIN_HEADER_SIZE || fat_size > size - FATBIN_HEADER_SIZE))
		return refuse(state, CUDA_ERROR_INVALID_IMAGE, "%s: a fatbin of %llu bytes in %zu bytes",
		              name, (unsigned long long)fat_size, size);
	struct link_input *grown = stub_alloc((state->ninputs + 1) * sizeof *grown);
	uint8_t *code = stub_alloc(size + 1);

	if (!fatbin)
		size = strnlen((const char *)data, size);
	if (!grown || !code) {
		stub_free(grown);
		stub_free(code);
		return refuse(state, CUDA_ERROR_OUT_OF_MEMORY, "%s: %zu bytes", name, size);
	}
	memcpy(code, data, size);
	if (state->ninputs)
		memcpy(grown, state->inputs, state->ninputs * sizeof *grown);
	stub_free(state->inputs);
	state->inputs = grown;
	state->inputs[state->ninputs] = (struct link_input){ .code = code, .size = size, .fatbin = fatbin };
	snprintf(state->inputs[state->ninputs++].name, sizeof grown->name, "%s", name);
	return CUDA_SUCCESS;
}

/* The image of the inputs: the one there is, or the PTX texts in one text to link. */
static CUresult
make_image(CUlinkState state, size_t *size)
{
	size_t total = strlen(ZC_LINK_HEADER) + 1;

	if (state->ninputs == 0)
		return refuse(state, CUDA_ERROR_INVALID_VALUE, "nothing to link: no PTX or fatbin was added");
	for (size_t i = 0; i < state->ninputs; i++) {
		if (state->inputs[i].fatbin && state->ninputs > 1)
			return refuse(state, CUDA_ERROR_NOT_SUPPORTED, "%s: a fatbin is linked with nothing "
			              "else yet", state->inputs[i].name);
		total += strlen(ZC_LINK_INPUT) + state->inputs[i].size + 1;
	}
	stub_free(state->image);
	if (state->ninputs == 1) {
		const struct link_input *in = &state->inputs[0];

		*size = in->fatbin ? in->size : in->size + 1;
		if (!(state->image = stub_alloc(*size)))
			return refuse(state, CUDA_ERROR_OUT_OF_MEMORY, "%zu bytes", *size);
		memcpy(state->image, in->code, *size);
		return CUDA_SUCCESS;
	}
	char *text = stub_alloc(total);

	if (!(state->image = (uint8_t *)text))
		return refuse(state, CUDA_ERROR_OUT_OF_MEMORY, "%zu bytes of PTX", total);
	size_t used = strlen(ZC_LINK_HEADER);

	memcpy(text, ZC_LINK_HEADER, used);
	for (size_t i = 0; i < state->ninputs; i++) {
		const struct link_input *in = &state->inputs[i];

		memcpy(text + used, ZC_LINK_INPUT, strlen(ZC_LINK_INPUT));
		used += strlen(ZC_LINK_INPUT);
		memcpy(text + used, in->code, in->size);
		used += in->size;
		if (in->size && in->code[in->size - 1] != '\n')
			text[used++] = '\n';
	}
	text[used] = 0;
	*size = used + 1;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
                CUlinkState *stateOut)
{
	CUresult r = zc_initialized();
	struct zc_link *state = NULL;

	if (r == CUDA_SUCCESS && !stateOut)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL state");
	if (r == CUDA_SUCCESS && !(state = stub_alloc(sizeof *state)))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "link state");
	if (r == CUDA_SUCCESS) {
		zc_jit_options_read(&state->jit, numOptions, options, optionValues);
		state->noptions = numOptions;
		state->options = options;
		state->values = optionValues;
		if (!zc_handle_add(state, ZC_HANDLE_LINK))
			r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "link handle");
	}
	if (r == CUDA_SUCCESS)
		*stateOut = state;
	else
		stub_free(state);
	return TRACE(r, "%u options -> %p", numOptions, r == CUDA_SUCCESS ? (void *)state : NULL);
}

ZC_EXPORT CUresult
cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size,
                 const char *name, unsigned int numOptions, CUjit_option *options,
                 void **optionValues)
{
	CUresult r = check_state(state);

	if (r == CUDA_SUCCESS && (!data || !size))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "no data");
	if (r == CUDA_SUCCESS)
		r = add(state, type, data, size, name ? name : "(unnamed)");
	return TRACE(r, "%p, type %d, %p, %zu bytes, %s", (void *)state, (int)type, data, size,
	             name ? name : "(null)");
}

ZC_EXPORT CUresult
cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                 CUjit_option *options, void **optionValues)
{
	CUresult r = check_state(state);
	uint8_t *bytes = NULL;
	size_t size = 0;

	if (r == CUDA_SUCCESS && !path)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL path");
	/* the device runtime's archive is left out unread: a machine without CUDA has none */
	if (r == CUDA_SUCCESS && type == CU_JIT_INPUT_LIBRARY)
		r = add(state, type, NULL, 0, path);
	else if (r == CUDA_SUCCESS && (r = zc_module_file_read(path, &bytes, &size)) == CUDA_SUCCESS)
		r = add(state, type, bytes, size, path);
	stub_free(bytes);
	return TRACE(r, "%p, type %d, %s", (void *)state, (int)type, path ? path : "(null)");
}

ZC_EXPORT CUresult
cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
	CUresult r = check_state(state);
	size_t size = 0;

	if (r != CUDA_SUCCESS)
		return TRACE(r, "%p", (void *)state);
	if (!cubinOut || !sizeOut)
		r = refuse(state, CUDA_ERROR_INVALID_VALUE, "cuLinkComplete: NULL output");
	else if ((r = make_image(state, &size)) == CUDA_SUCCESS) {
		*cubinOut = state->image;
		*sizeOut = size;
		zc_jit_note(&state->jit, false, "zluda-convert: the image is made, translated when it is "
		            "loaded");
	}
	zc_jit_options_write(&state->jit, state->noptions, state->options, state->values);
	return TRACE(r, "%p -> %zu bytes", (void *)state, size);
}

ZC_EXPORT CUresult
cuLinkDestroy(CUlinkState state)
{
	CUresult r = check_state(state);

	if (r == CUDA_SUCCESS) {
		zc_handle_remove(state);
		for (size_t i = 0; i < state->ninputs; i++)
			stub_free(state->inputs[i].code);
		stub_free(state->inputs);
		stub_free(state->image);
		stub_free(state);
	}
	return TRACE(r, "%p", (void *)state);
}
