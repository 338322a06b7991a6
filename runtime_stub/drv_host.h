/* What the files of the host driver share: its code objects (drv_host_module.c), the grid
 * runner (drv_host_exec.c, with the kernels' printf and assert). */
#ifndef ZC_DRV_HOST_H
#define ZC_DRV_HOST_H

#include <string.h>

#include "api.h"
#include "host_abi.h"

typedef void zc_host_entry(const void *params, ZcHostThread *thread);

/* A host driver function: the kernel's entry point, and the size of its module's shared
 * memory layout (the lowering places shared variables at module-wide offsets, so a block
 * needs the whole layout whatever the kernel itself reaches). Owned by its module. */
struct zc_drv_function {
	zc_host_entry *entry;
	uint32_t shared_layout;
	struct zc_drv_function *next;
};

static inline zc_host_entry *
zc_host_entry_of(struct zc_drv_function *function)
{
	return function->entry;
}

CUresult zc_host_code_target(int ordinal, char *name, size_t size);
CUresult zc_host_module_load(int ordinal, const uint8_t *bytes, size_t size,
                             struct zc_drv_module **module);
CUresult zc_host_module_unload(struct zc_drv_module *module);
CUresult zc_host_module_function(struct zc_drv_module *module, const char *name,
                                 struct zc_drv_function **function);
CUresult zc_host_module_global(struct zc_drv_module *module, const char *name, void **address);
struct zc_launch_queue *zc_host_module_launch_queue(struct zc_drv_module *module);

/* Runs every block of the grid, on the calling thread and the pool, and returns when all
 * have ended: CUDA_SUCCESS or the error that ended the launch. */
CUresult zc_host_run_grid(const struct zc_launch *launch);
/* Ends the calling CUDA thread and fails its launch with error (trap, assert). */
_Noreturn void zc_host_fail_launch(ZcHostThread *t, CUresult error);

/* CUDA's vprintf: format and an argument buffer packed the way the device compiler packs
 * them (each argument at its own alignment). Returns the number of arguments, or -1. */
int zc_device_vprintf(ZcHostThread *t, const char *format, const void *args);
/* CUDA's __assertfail: prints CUDA's message and fails the launch with CUDA_ERROR_ASSERT. */
_Noreturn void zc_device_assertfail(ZcHostThread *t, const char *expression, const char *file,
                                    uint32_t line, const char *function);

#endif
