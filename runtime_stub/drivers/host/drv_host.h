/* What the files of the host driver share: its code objects (drv_host_module.c), the grid
 * runner (drv_host_exec.c, with the kernels' printf and assert), and what differs by
 * operating system (drv_host_posix.c, drv_host_windows.c). */
#ifndef ZC_DRV_HOST_H
#define ZC_DRV_HOST_H

#include <pthread.h>
#include <string.h>

#include "base.h"
#include "driver.h"
#include "host_abi.h"

typedef void zc_host_entry(const void *params, ZcHostThread *thread);

/* A host driver function: the kernel's entry point, whether that is a block entry (one
 * call runs the whole block), the baseline block entry where `entry` is an x86-64-v3 one
 * (it writes each thread's tid, host_abi.h: what names a faulting thread), and the size of
 * its module's shared memory layout (the lowering places shared variables at module-wide
 * offsets, so a block needs the whole layout whatever the kernel itself reaches). Owned
 * by its module. */
struct zc_drv_function {
	zc_host_entry *entry;
	bool whole_block;
	zc_host_entry *naming;
	uint32_t shared_layout;
	struct zc_drv_function *next;
};

CUresult zc_host_code_target(int ordinal, char *name, size_t size);
CUresult zc_host_module_load(int ordinal, const uint8_t *bytes, size_t size,
                             const struct zc_module_services *services,
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

/* ---- what differs by operating system (drv_host_posix.c, drv_host_windows.c) ---- */

/* A code object loaded from memory (dlopen of a memfd; LoadLibrary of a private temporary
 * file), its symbols, and its unloading. */
CUresult zc_host_object_open(const uint8_t *bytes, size_t size, void **object);
void *zc_host_object_symbol(void *object, const char *name);
void zc_host_object_close(void *object);

struct zc_host_system {
	size_t page, total_memory, free_memory;
	unsigned processors;
};
void zc_host_system(struct zc_host_system *system);

/* Device memory and device malloc's blocks: alignment a power of two, at most 4096. */
void *zc_host_aligned_alloc(size_t alignment, size_t bytes);
void zc_host_aligned_free(void *pointer);

/* A fiber's stack: size bytes above guard bytes nothing may access; returns the lowest
 * usable byte, NULL on failure. */
char *zc_host_stack_map(size_t size, size_t guard);
void zc_host_stack_unmap(char *stack, size_t size, size_t guard);

/* A thread for the driver's own work, with the signals the fault handling needs. */
bool zc_host_spawn(pthread_t *thread, void *(*fn)(void *), void *arg, bool detached);

/* Faults in CUDA threads. zc_host_catch_faults, once per process, sends the faults of
 * memory accesses to zc_host_fault; zc_host_thread_faults gives the calling thread what
 * the handler needs on it (a signal stack), released with zc_host_thread_faults_end. */
void zc_host_catch_faults(void);
void *zc_host_thread_faults(void);
void zc_host_thread_faults_end(void *state);
/* For the fault handler: NULL when the fault at address is not a running CUDA thread's,
 * else that thread has ended, its launch fails, and the handler must go on, never
 * returning to the faulting code, to zc_host_abandon_fiber on the stack returned (the top
 * of the thread's own, which it no longer needs). */
void *zc_host_fault(const void *address);
_Noreturn void zc_host_abandon_fiber(void);

/* Virtual memory management: where shared mappings at reserved addresses are to hand
 * (Linux: memfd and mmap; on Windows they would need VirtualAlloc2's placeholders). */
#ifndef _WIN32
#define ZC_HOST_VIRTUAL_MEMORY 1
struct zc_drv_physical;
size_t zc_host_va_granularity(int ordinal);
CUresult zc_host_va_reserve(size_t bytes, size_t alignment, void *hint, void **ptr);
CUresult zc_host_va_free(void *ptr, size_t bytes);
CUresult zc_host_physical_create(int ordinal, size_t bytes, bool shareable,
                                 struct zc_drv_physical **out);
CUresult zc_host_physical_export(struct zc_drv_physical *p, int *fd);
CUresult zc_host_physical_import(int ordinal, int fd, size_t *bytes, struct zc_drv_physical **out);
CUresult zc_host_physical_release(struct zc_drv_physical *p);
CUresult zc_host_va_map(void *ptr, size_t bytes, size_t offset, struct zc_drv_physical *p);
CUresult zc_host_va_unmap(void *ptr, size_t bytes);
CUresult zc_host_va_set_access(void *ptr, size_t bytes, int ordinal, bool read, bool write);
#else
#define ZC_HOST_VIRTUAL_MEMORY 0
#endif

#endif
