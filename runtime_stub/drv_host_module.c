/* The host driver's code objects: x86-64 shared objects (backend/host_abi.h), loaded from
 * memory without writing a file anywhere: an anonymous memfd that dlopen reads through
 * /proc/self/fd. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "device_launch.h"
#include "grid_workspace.h"
#include "drv_host.h"

struct zc_drv_module {
	void *handle;
	uint32_t shared_layout;
	struct zc_launch_queue *launches; /* the launch queue it was pointed at */
	struct zc_drv_function *functions;
	/* Open while the module is loaded: glibc recognises an object already loaded by its
	 * path, so a second module must never be opened through a reused /proc/self/fd/N. */
	int fd;
};

CUresult
zc_host_code_target(int ordinal, char *name, size_t size)
{
	snprintf(name, size, "host");
	return CUDA_SUCCESS;
}

static bool
write_all(int fd, const uint8_t *bytes, size_t size)
{
	while (size) {
		ssize_t n = write(fd, bytes, size);
		if (n <= 0)
			return false;
		bytes += n;
		size -= (size_t)n;
	}
	return true;
}

/* A code object whose kernels launch kernels has ZC_DEVICE_LAUNCHES_SYMBOL: it gets the
 * queue, sized by the context's pending-launch limit when first made. */
static void
attach_launch_queue(struct zc_drv_module *m, int ordinal)
{
	uint64_t *slot = dlsym(m->handle, ZC_DEVICE_LAUNCHES_SYMBOL);

	if (!slot)
		return;
	m->launches = zc_device_launch_queue(ordinal,
	                                     zc_current_limit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
	*slot = (uint64_t)(uintptr_t)m->launches;
}

/* A code object whose kernels sync their grid has ZC_GRID_WORKSPACE_SYMBOL: it gets the
 * device's workspace. */
static void
attach_grid_workspace(struct zc_drv_module *m, int ordinal)
{
	static struct zc_grid_workspace workspaces[64];
	uint64_t *slot = dlsym(m->handle, ZC_GRID_WORKSPACE_SYMBOL);

	if (!slot || ordinal < 0 || ordinal >= 64)
		return;
	workspaces[ordinal].size = sizeof workspaces[ordinal];
	*slot = (uint64_t)(uintptr_t)&workspaces[ordinal];
}

CUresult
zc_host_module_load(int ordinal, const uint8_t *bytes, size_t size, struct zc_drv_module **out)
{
	struct zc_drv_module *m = stub_alloc(sizeof *m);
	int fd = memfd_create("zluda-convert-code-object", MFD_CLOEXEC);
	char path[64];
	CUresult r = CUDA_SUCCESS;

	if (!m)
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "module");
	else if (fd < 0 || !write_all(fd, bytes, size))
		r = stub_fail(CUDA_ERROR_OPERATING_SYSTEM, "cannot put the code object in a memfd");
	if (r == CUDA_SUCCESS) {
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		if (!(m->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
			r = stub_fail(CUDA_ERROR_INVALID_IMAGE, "dlopen of the host code object: %s",
			              dlerror());
	}
	if (r == CUDA_SUCCESS) {
		const uint32_t *version = dlsym(m->handle, "__zc_host_abi_version");
		const uint32_t *layout = dlsym(m->handle, "zluda_convert_shared_layout_size");

		m->shared_layout = layout ? *layout : 0;
		if (!version || *version != ZC_HOST_ABI_VERSION)
			r = stub_fail(CUDA_ERROR_INVALID_IMAGE,
			              "the host code object follows ABI version %u, not %u: convert "
			              "the binary again", version ? *version : 0, ZC_HOST_ABI_VERSION);
		if (r != CUDA_SUCCESS)
			dlclose(m->handle);
	}
	if (r != CUDA_SUCCESS) {
		if (fd >= 0)
			close(fd);
		stub_free(m);
		return r;
	}
	m->fd = fd;
	attach_launch_queue(m, ordinal);
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
	dlclose(m->handle);
	close(m->fd);
	stub_free(m);
	return CUDA_SUCCESS;
}

CUresult
zc_host_module_function(struct zc_drv_module *m, const char *name,
                        struct zc_drv_function **function)
{
	void *symbol = dlsym(m->handle, name);
	zc_host_entry *entry;
	struct zc_drv_function *f;

	if (!symbol)
		return stub_fail(CUDA_ERROR_NOT_FOUND, "the code object has no kernel %s", name);
	memcpy(&entry, &symbol, sizeof entry);
	for (f = m->functions; f && f->entry != entry; f = f->next)
		;
	if (!f) {
		if (!(f = stub_alloc(sizeof *f)))
			return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "function");
		*f = (struct zc_drv_function){entry, m->shared_layout, m->functions};
		m->functions = f;
	}
	*function = f;
	return CUDA_SUCCESS;
}

CUresult
zc_host_module_global(struct zc_drv_module *m, const char *name, void **address)
{
	if (!(*address = dlsym(m->handle, name)))
		return stub_fail(CUDA_ERROR_NOT_FOUND, "the code object has no variable %s", name);
	return CUDA_SUCCESS;
}
