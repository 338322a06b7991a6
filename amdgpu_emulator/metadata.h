/* The metadata note's per-kernel facts (metadata.c). */
#ifndef ZC_EMU_METADATA_H
#define ZC_EMU_METADATA_H

#include <stddef.h>
#include <stdint.h>

#include "emu.h"

struct kernel_meta {
	char *symbol;                  /* "name.kd" */
	uint32_t kernarg_size, max_flat_workgroup_size;
	bool dynamic_stack;
	struct kernel_arg *args;
	uint32_t nargs;
};

bool emu_read_metadata(const uint8_t *data, size_t size, struct kernel_meta **kernels,
                       uint32_t *count);
void emu_free_metadata(struct kernel_meta *kernels, uint32_t count);

#endif
