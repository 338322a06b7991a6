/* The AMDGPU emulator: runs RDNA2/3/4 wave32 code objects (gfx10.3, gfx11, gfx12) on the
 * CPU, each instruction as AMD's ISA guides define it. Device memory is host memory: a
 * global address in emulated code is a host pointer, and the runtime above the emulator
 * (the HIP runtime of amdgpu_emulator/hip) registers every range it hands out, so that an
 * access anywhere else ends the launch with a memory fault instead of touching the host.
 *
 * Every function that can fail writes one line saying why into the caller's error buffer
 * (at most ZC_EMU_ERROR_SIZE bytes, terminated) and returns its status. */
#ifndef ZC_EMULATOR_H
#define ZC_EMULATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ZC_EMU_ERROR_SIZE 512

enum zc_emu_status {
	ZC_EMU_OK = 0,
	ZC_EMU_INVALID_IMAGE,      /* not an AMDGPU code object, or a malformed one */
	ZC_EMU_WRONG_PROCESSOR,    /* a code object for another processor */
	ZC_EMU_NOT_FOUND,          /* no kernel or global of that name */
	ZC_EMU_INVALID_VALUE,      /* a launch the processor cannot run (geometry, LDS) */
	ZC_EMU_LAUNCH_FAILED,      /* the kernel trapped, deadlocked or ran an instruction
	                              the emulator does not implement */
	ZC_EMU_MEMORY_FAULT,       /* the kernel accessed memory no registered range holds */
};

struct zc_emu_object;
struct zc_emu_kernel;

/* The ISA generation of a processor name ("gfx1030", "gfx1100:xnack-"): 10 for
 * gfx1030-1036, 11 for gfx1100-1103 and gfx1150-1153, 12 for gfx1200-1201; 0 for a
 * processor the emulator does not run. */
int zc_emu_generation(const char *processor);

/* Loads a code object (an AMDGPU ELF, code object v5 or v6) for PROCESSOR: copies its
 * segments, applies its dynamic relocations, reads its kernels and decodes its code.
 * The image may be freed afterwards. */
enum zc_emu_status zc_emu_load(const void *image, size_t size, const char *processor,
                               struct zc_emu_object **object, char *error);
void zc_emu_unload(struct zc_emu_object *object);

enum zc_emu_status zc_emu_find_kernel(const struct zc_emu_object *object, const char *name,
                                      const struct zc_emu_kernel **kernel, char *error);
/* A global variable of the code object: its address in device memory and its size. */
enum zc_emu_status zc_emu_find_global(const struct zc_emu_object *object, const char *name,
                                      void **address, size_t *size, char *error);

struct zc_emu_kernel_info {
	const char *name;
	uint32_t kernarg_size;          /* explicit and implicit arguments, from the metadata */
	uint32_t group_segment_size;    /* static LDS */
	uint32_t private_segment_size;  /* scratch per work-item */
	uint32_t max_flat_workgroup_size;
};
void zc_emu_kernel_info(const struct zc_emu_kernel *kernel, struct zc_emu_kernel_info *info);

struct zc_emu_dispatch {
	uint32_t grid[3];          /* workgroups in each dimension */
	uint32_t block[3];         /* work-items per workgroup in each dimension */
	uint32_t dynamic_lds;      /* bytes of LDS beyond the kernel's static size */
	uint32_t stack_size;       /* scratch bytes per work-item the caller asks for beyond the
	                              kernel's fixed size (dynamic stacks: recursion, alloca) */
	const void *kernarg;       /* the explicit arguments, exactly as the kernel lays them out */
	size_t kernarg_size;
	bool cooperative;          /* every workgroup at once, each on a thread of its own, as a
	                              grid that syncs across workgroups needs */
};

/* The explicit arguments given one pointer each (params[i] to argument i), laid out in a
 * new buffer as the kernel's metadata places them; false when one is missing. */
bool zc_emu_pack_arguments(const struct zc_emu_kernel *kernel, void *const *params,
                           unsigned char **buffer, size_t *size);

/* Runs a grid to its end. Workgroups run in parallel on host threads. */
enum zc_emu_status zc_emu_launch(const struct zc_emu_kernel *kernel,
                                 const struct zc_emu_dispatch *dispatch, char *error);

/* The ranges of host memory that emulated code may address as global memory: the runtime
 * registers each allocation it makes (a code object's segments are registered by
 * zc_emu_load). Thread-safe. */
void zc_emu_map(const void *base, size_t size);
void zc_emu_unmap(const void *base);

/* Calls EACH with the text (as LLVM prints it) and address of every instruction of the code
 * object that the emulator cannot run, and returns how many there are: what a launch that
 * reaches one of them would fail on. */
size_t zc_emu_unemulated(const struct zc_emu_object *object,
                         void (*each)(const char *text, uint64_t address, void *arg), void *arg);

/* Instructions executed so far by all launches of this process, summed over waves: what the
 * speed benchmark divides by time. */
uint64_t zc_emu_instructions_executed(void);
/* The same instructions' estimated cycles, summed over waves: each wave32 instruction
 * charged the cycles issuing it occupies its unit at AMD's documented rates for the
 * processor's generation (amdgpu_emulator/cost.c has the table and its sources). An
 * issue-cost estimate: memory latency and what waits wait for are not modelled. */
uint64_t zc_emu_cycles_estimated(void);

#endif
