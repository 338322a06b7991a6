/* The host driver's code objects: x86-64 shared objects or DLLs (abi/host_abi.h),
 * loaded from memory (zc_host_object_open). */
#include <stdio.h>
#include <string.h>

#include "device_launch.h"
#include "grid_workspace.h"
#include "drv_host.h"

struct zc_drv_module {
	void *object;
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

CUresult
zc_host_module_function(struct zc_drv_module *m, const char *name,
                        struct zc_drv_function **function)
{
	char *block_name = stub_alloc(strlen(name) + sizeof ZC_HOST_BLOCK_ENTRY_SUFFIX);
	zc_host_entry *entry;
	struct zc_drv_function *f;

	if (!block_name)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "function");
	strcat(strcpy(block_name, name), ZC_HOST_BLOCK_ENTRY_SUFFIX);
	void *symbol = zc_host_object_symbol(m->object, block_name);
	bool whole_block = symbol != NULL;
	stub_free(block_name);
	if (!symbol && !(symbol = zc_host_object_symbol(m->object, name)))
		return stub_fail(CUDA_ERROR_NOT_FOUND, "the code object has no kernel %s", name);
	memcpy(&entry, &symbol, sizeof entry);
	for (f = m->functions; f && f->entry != entry; f = f->next)
		;
	if (!f) {
		if (!(f = stub_alloc(sizeof *f)))
			return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "function");
		*f = (struct zc_drv_function){entry, whole_block, m->shared_layout, m->functions};
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
