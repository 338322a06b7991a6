/* The host driver's code objects: x86-64 shared objects or DLLs (abi/host_abi.h),
 * loaded from memory (zc_host_object_open). */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_launch.h"
#include "grid_workspace.h"
#include "drv_host.h"

struct zc_drv_module {
	void *object;
	bool x86_64_v3;  /* whose entries to call */
	uint32_t shared_layout;
	struct zc_launch_queue *launches; /* the launch queue it was pointed at */
	struct zc_drv_function *functions;
};

CUresult
zc_host_code_target(int ordinal, char *name, size_t size)
{
	snprintf(name, size, "%s", zc_host_code_target_name);
	return CUDA_SUCCESS;
}

/* A code object whose kernels launch kernels has ZC_DEVICE_LAUNCHES_SYMBOL: it gets the
 * queue, sized as the API says when first made. */
static void
attach_launch_queue(struct zc_drv_module *m, int ordinal, const struct zc_module_services *services)
{
	uint64_t *slot = zc_host_object_symbol(m->object, ZC_DEVICE_LAUNCHES_SYMBOL);

	if (!slot)
		return;
	m->launches = services->launch_queue(ordinal, services->launch_records);
	*slot = (uint64_t)(uintptr_t)m->launches;
}

/* A code object whose kernels sync their grid has ZC_GRID_WORKSPACE_SYMBOL: it gets the
 * device's workspace. */
static void
attach_grid_workspace(struct zc_drv_module *m, int ordinal)
{
	static struct zc_grid_workspace workspaces[64];
	uint64_t *slot = zc_host_object_symbol(m->object, ZC_GRID_WORKSPACE_SYMBOL);

	if (!slot || ordinal < 0 || ordinal >= 64)
		return;
	workspaces[ordinal].size = sizeof workspaces[ordinal];
	*slot = (uint64_t)(uintptr_t)&workspaces[ordinal];
}

/* Whether the processor runs x86-64-v3 code (AVX2, FMA, BMI1, BMI2, F16C, LZCNT, MOVBE,
 * with the system saving the AVX registers), and ZLUDA_CONVERT_CPU_CODE does not ask for
 * baseline x86-64 (for comparing the two: they compute the same). */
static bool
runs_x86_64_v3(void)
{
	const char *asked = getenv("ZLUDA_CONVERT_CPU_CODE");
	unsigned a, b, c, d, ecx1, ebx7, ecx_ext;

	if (asked && strcmp(asked, "x86-64") == 0)
		return false;
	if (!__get_cpuid(1, &a, &b, &ecx1, &d) || !__get_cpuid_count(7, 0, &a, &ebx7, &c, &d) ||
	    !__get_cpuid(0x80000001, &a, &b, &ecx_ext, &d))
		return false;
	const unsigned fma = 1u << 12, movbe = 1u << 22, osxsave = 1u << 27, avx = 1u << 28, f16c = 1u << 29;
	const unsigned bmi1 = 1u << 3, avx2 = 1u << 5, bmi2 = 1u << 8, lzcnt = 1u << 5;
	if ((ecx1 & (fma | movbe | osxsave | avx | f16c)) != (fma | movbe | osxsave | avx | f16c) ||
	    (ebx7 & (bmi1 | avx2 | bmi2)) != (bmi1 | avx2 | bmi2) || !(ecx_ext & lzcnt))
		return false;
	uint32_t xcr0_low, xcr0_high;
	__asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
	return (xcr0_low & 6) == 6; /* the SSE and AVX state */
}

CUresult
zc_host_module_load(int ordinal, const uint8_t *bytes, size_t size,
                    const struct zc_module_services *services, struct zc_drv_module **out)
{
	struct zc_drv_module *m = stub_alloc(sizeof *m);
	CUresult r;

	if (!m)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "module");
	if ((r = zc_host_object_open(bytes, size, &m->object)) != CUDA_SUCCESS) {
		stub_free(m);
		return r;
	}
	const uint32_t *version = zc_host_object_symbol(m->object, "__zc_host_abi_version");
	const uint32_t *layout = zc_host_object_symbol(m->object, "zluda_convert_shared_layout_size");

	m->shared_layout = layout ? *layout : 0;
	if (!version || *version != ZC_HOST_ABI_VERSION) {
		r = stub_fail(CUDA_ERROR_INVALID_IMAGE,
		              "the host code object follows ABI version %u, not %u: convert "
		              "the binary again", version ? *version : 0, ZC_HOST_ABI_VERSION);
		zc_host_object_close(m->object);
		stub_free(m);
		return r;
	}
	m->x86_64_v3 = runs_x86_64_v3();
	zc_trace_line("zluda-convert: the CPU driver runs the module's code for %s",
	              m->x86_64_v3 ? "x86-64-v3" : "x86-64");
	attach_launch_queue(m, ordinal, services);
	attach_grid_workspace(m, ordinal);
	*out = m;
	return CUDA_SUCCESS;
}

struct zc_launch_queue *
zc_host_module_launch_queue(struct zc_drv_module *m)
{
	return m->launches;
}

CUresult
zc_host_module_unload(struct zc_drv_module *m)
{
	for (struct zc_drv_function *f = m->functions, *next; f; f = next) {
		next = f->next;
		stub_free(f);
	}
	zc_host_object_close(m->object);
	stub_free(m);
	return CUDA_SUCCESS;
}

/* The kernel's entry: for x86-64-v3 where the processor runs it and the code object has
 * one, else for baseline x86-64; a block entry where there is one (host_abi.h), and then
 * in *naming the baseline block entry if the entry is not that one. NULL with
 * *out_of_memory when the names do not fit in memory. */
static void *
entry_symbol(struct zc_drv_module *m, const char *name, bool *whole_block, void **naming,
             bool *out_of_memory)
{
	const char *const levels[] = { ZC_HOST_V3_SUFFIX, "" };
	size_t size = strlen(name) + sizeof ZC_HOST_V3_SUFFIX + sizeof ZC_HOST_BLOCK_ENTRY_SUFFIX;
	char *symbol_name = stub_alloc(size);
	void *symbol = NULL;
	bool v3 = false;

	*out_of_memory = !symbol_name;
	*naming = NULL;
	for (int level = m->x86_64_v3 ? 0 : 1; symbol_name && level < 2 && !symbol; level++)
		for (int block = 1; block >= 0 && !symbol; block--) {
			snprintf(symbol_name, size, "%s%s%s", name, levels[level], block ? ZC_HOST_BLOCK_ENTRY_SUFFIX : "");
			symbol = zc_host_object_symbol(m->object, symbol_name);
			*whole_block = block;
			v3 = level == 0;
		}
	if (symbol && *whole_block && v3) {
		snprintf(symbol_name, size, "%s%s", name, ZC_HOST_BLOCK_ENTRY_SUFFIX);
		*naming = zc_host_object_symbol(m->object, symbol_name);
	}
	stub_free(symbol_name);
	return symbol;
}

CUresult
zc_host_module_function(struct zc_drv_module *m, const char *name,
                        struct zc_drv_function **function)
{
	zc_host_entry *entry, *naming_entry;
	struct zc_drv_function *f;
	bool whole_block, out_of_memory;
	void *naming;
	void *symbol = entry_symbol(m, name, &whole_block, &naming, &out_of_memory);

	if (out_of_memory)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "function");
	if (!symbol)
		return stub_fail(CUDA_ERROR_NOT_FOUND, "the code object has no kernel %s", name);
	memcpy(&entry, &symbol, sizeof entry);
	memcpy(&naming_entry, &naming, sizeof naming_entry);
	for (f = m->functions; f && f->entry != entry; f = f->next)
		;
	if (!f) {
		if (!(f = stub_alloc(sizeof *f)))
			return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "function");
		*f = (struct zc_drv_function){entry, whole_block, naming_entry, m->shared_layout, m->functions};
		m->functions = f;
	}
	*function = f;
	return CUDA_SUCCESS;
}

CUresult
zc_host_module_global(struct zc_drv_module *m, const char *name, void **address)
{
	if (!(*address = zc_host_object_symbol(m->object, name)))
		return stub_fail(CUDA_ERROR_NOT_FOUND, "the code object has no variable %s", name);
	return CUDA_SUCCESS;
}
