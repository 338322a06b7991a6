/* What the AMDGPU builtins share. Compiled only by clang-22 for amdgcn-amd-amdhsa
 * (wave32), never by the host compiler. */
#ifndef ZC_AMDGPU_BUILTINS_H
#define ZC_AMDGPU_BUILTINS_H

#include "builtins.h"

/* The HSA kernel dispatch packet (hsa_kernel_dispatch_packet_t). Sizes come from here,
 * not from the COV5 implicit-argument block, so kernels need no hidden arguments and
 * do not depend on the code object version. */
typedef struct {
	uint16_t header;
	uint16_t setup;
	uint16_t workgroup_size[3];  /* threads per block, per dimension */
	uint16_t reserved0;
	uint32_t grid_size[3];       /* threads (not blocks) per grid, per dimension */
	uint32_t private_segment_size;
	uint32_t group_segment_size; /* static + dynamic LDS of this launch */
	uint64_t kernel_object;
	uint64_t kernarg_address;
	uint64_t reserved2;
	uint64_t completion_signal;
} ZcDispatchPacket;

static inline const __attribute__((address_space(4))) ZcDispatchPacket *zc_packet(void)
{
	return (const __attribute__((address_space(4))) ZcDispatchPacket *)
		__builtin_amdgcn_dispatch_ptr();
}

static inline uint32_t zc_lane(void)
{
	return __builtin_amdgcn_mbcnt_lo(~0u, 0u);
}

/* Lanes of this wave that are executing (wave32: exec is 32 bits). */
static inline uint32_t zc_exec(void)
{
	return __builtin_amdgcn_ballot_w32(1);
}

#endif
