/* The project's NVRTC. NVIDIA's own compiler does the compiling, on any machine: it runs on
 * the CPU. But what a program asks it to make for an NVIDIA GPU's machine code (a CUBIN:
 * --gpu-architecture=sm_XY, as NVIDIA's samples ask for the architecture the device
 * reports) no AMD GPU runs and nothing translates. So NVIDIA's compiler is asked for PTX of
 * the same architecture (compute_XY) instead, and nvrtcGetCUBIN hands that PTX over: the
 * program gives it to the driver as it would the CUBIN, and the stub translates the PTX
 * when it is loaded (runtime_stub/api/translate.c). Under NVIDIA's driver, NVIDIA's NVRTC
 * takes every call (engine.c): the original's CUBINs. */
#include "replacement_rename.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <nvrtc.h>

#include "engine.h"

static struct {
	nvrtcResult (*compile)(nvrtcProgram, int, const char *const *);
	nvrtcResult (*destroy)(nvrtcProgram *);
	nvrtcResult (*ptx_size)(nvrtcProgram, size_t *);
	nvrtcResult (*ptx)(nvrtcProgram, char *);
	nvrtcResult (*cubin_size)(nvrtcProgram, size_t *);
	nvrtcResult (*cubin)(nvrtcProgram, char *);
} nvidia;

/* The exports nvrtc.c implements; NVIDIA's takes the calls of every other. */
#define ZC_EXPORT(name) #name,
static const char *const implemented[] = {
#include ZC_EXPORTS_INC
};
#undef ZC_EXPORT

void zc_engine_forward(void *library, const char *const *names, void **functions, size_t count)
{
	if (!library)
		return;
	for (size_t i = 0; i < count; i++) {
		bool ours = false;

		for (size_t k = 0; k < sizeof implemented / sizeof implemented[0]; k++)
			ours |= strcmp(names[i], implemented[k]) == 0;
		if (!ours)
			functions[i] = dlsym(library, names[i]);
	}
	*(void **)&nvidia.compile = dlsym(library, "nvrtcCompileProgram");
	*(void **)&nvidia.destroy = dlsym(library, "nvrtcDestroyProgram");
	*(void **)&nvidia.ptx_size = dlsym(library, "nvrtcGetPTXSize");
	*(void **)&nvidia.ptx = dlsym(library, "nvrtcGetPTX");
	*(void **)&nvidia.cubin_size = dlsym(library, "nvrtcGetCUBINSize");
	*(void **)&nvidia.cubin = dlsym(library, "nvrtcGetCUBIN");
}

/* The programs compiled to PTX where their CUBIN was asked for. */
static struct {
	pthread_mutex_t lock;
	nvrtcProgram *programs;
	size_t count, capacity;
} as_ptx = { .lock = PTHREAD_MUTEX_INITIALIZER };

static bool compiled_as_ptx(nvrtcProgram prog)
{
	bool found = false;

	pthread_mutex_lock(&as_ptx.lock);
	for (size_t i = 0; i < as_ptx.count && !found; i++)
		found = as_ptx.programs[i] == prog;
	pthread_mutex_unlock(&as_ptx.lock);
	return found;
}

/* Marks PROG compiled as PTX (or not); false when there is no memory for it. */
static bool mark(nvrtcProgram prog, bool ptx)
{
	bool ok = true;

	pthread_mutex_lock(&as_ptx.lock);
	for (size_t i = 0; i < as_ptx.count; i++)
		if (as_ptx.programs[i] == prog)
			as_ptx.programs[i--] = as_ptx.programs[--as_ptx.count];
	if (ptx && as_ptx.count == as_ptx.capacity) {
		size_t capacity = as_ptx.capacity ? 2 * as_ptx.capacity : 16;
		nvrtcProgram *grown = realloc(as_ptx.programs, capacity * sizeof *grown);

		if (grown) {
			as_ptx.programs = grown;
			as_ptx.capacity = capacity;
		}
	}
	if (ptx && as_ptx.count < as_ptx.capacity)
		as_ptx.programs[as_ptx.count++] = prog;
	else if (ptx)
		ok = false;
	pthread_mutex_unlock(&as_ptx.lock);
	return ok;
}

static nvrtcResult missing(const char *routine)
{
	zc_engine_trace(routine, "NVIDIA's NVRTC, which compiles, is not found");
	return NVRTC_ERROR_INTERNAL_ERROR;
}

/* The architecture an option names, where it names one: --gpu-architecture=X, -arch=X,
 * or the option alone with X the next. */
static const char *architecture_value(const char *option, bool *next_is_value)
{
	static const char *const names[] = { "--gpu-architecture", "-arch" };

	*next_is_value = false;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t n = strlen(names[i]);

		if (strncmp(option, names[i], n) != 0)
			continue;
		if (option[n] == '=')
			return option + n + 1;
		*next_is_value = option[n] == 0;
	}
	return NULL;
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options)
{
	if (!nvidia.compile)
		return missing("nvrtcCompileProgram");
	if (numOptions < 0 || (numOptions > 0 && !options))
		return nvidia.compile(prog, numOptions, options);
	const char **changed = calloc((size_t)numOptions + 1, sizeof *changed);
	char **made = calloc((size_t)numOptions + 1, sizeof *made);
	bool machine_code = false, value_next = false;
	nvrtcResult r = NVRTC_ERROR_OUT_OF_MEMORY;

	for (int i = 0; changed && made && i < numOptions; i++) {
		bool is_value = value_next;
		const char *value = is_value ? options[i] : architecture_value(options[i], &value_next);

		if (is_value)
			value_next = false;

		changed[i] = options[i];
		if (!value || strncmp(value, "sm_", 3) != 0)
			continue;
		/* the option with sm_ made compute_ */
		size_t prefix = (size_t)(value - options[i]);
		if (!(made[i] = malloc(prefix + strlen(value) + 6)))
			break;
		memcpy(made[i], options[i], prefix);
		strcpy(made[i] + prefix, "compute_");
		strcat(made[i], value + 3);
		changed[i] = made[i];
		machine_code = true;
	}
	if (changed && made) {
		if (machine_code)
			zc_engine_trace("nvrtcCompileProgram", "machine code for an NVIDIA GPU asked for: "
			                "compiled to PTX, which nvrtcGetCUBIN hands over for the driver "
			                "to translate");
		r = nvidia.compile(prog, numOptions, changed);
		if (!mark(prog, machine_code && r == NVRTC_SUCCESS))
			r = NVRTC_ERROR_OUT_OF_MEMORY;
	}
	for (int i = 0; made && i < numOptions; i++)
		free(made[i]);
	free(made);
	free(changed);
	return r;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog)
{
	if (!nvidia.destroy)
		return missing("nvrtcDestroyProgram");
	if (prog)
		mark(*prog, false);
	return nvidia.destroy(prog);
}

nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *cubinSizeRet)
{
	bool ptx = compiled_as_ptx(prog);

	if (!(ptx ? nvidia.ptx_size : nvidia.cubin_size))
		return missing("nvrtcGetCUBINSize");
	return ptx ? nvidia.ptx_size(prog, cubinSizeRet) : nvidia.cubin_size(prog, cubinSizeRet);
}

nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin)
{
	bool ptx = compiled_as_ptx(prog);

	if (!(ptx ? nvidia.ptx : nvidia.cubin))
		return missing("nvrtcGetCUBIN");
	return ptx ? nvidia.ptx(prog, cubin) : nvidia.cubin(prog, cubin);
}

/* NVIDIA's strings, which are the codes' names; answered here so that a program printing
 * one never depends on NVIDIA's library being found. */
const char *nvrtcGetErrorString(nvrtcResult result)
{
	static const char *const names[] = {
		"NVRTC_SUCCESS",
		"NVRTC_ERROR_OUT_OF_MEMORY",
		"NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
		"NVRTC_ERROR_INVALID_INPUT",
		"NVRTC_ERROR_INVALID_PROGRAM",
		"NVRTC_ERROR_INVALID_OPTION",
		"NVRTC_ERROR_COMPILATION",
		"NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
		"NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
		"NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
		"NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
		"NVRTC_ERROR_INTERNAL_ERROR",
		"NVRTC_ERROR_TIME_FILE_WRITE_FAILED",
		"NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED",
		"NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED",
		"NVRTC_ERROR_PCH_CREATE",
		"NVRTC_ERROR_CANCELLED",
		"NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED",
	};

	if ((unsigned)result < sizeof names / sizeof names[0])
		return names[result];
	return "NVRTC_ERROR unknown";
}
