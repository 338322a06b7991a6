/* AMDGPU special registers, clocks, sleep, trap. */
#include "amdgpu.h"

uint32_t __zc_tid_x(void) { return __builtin_amdgcn_workitem_id_x(); }
uint32_t __zc_tid_y(void) { return __builtin_amdgcn_workitem_id_y(); }
uint32_t __zc_tid_z(void) { return __builtin_amdgcn_workitem_id_z(); }
uint32_t __zc_ctaid_x(void) { return __builtin_amdgcn_workgroup_id_x(); }
uint32_t __zc_ctaid_y(void) { return __builtin_amdgcn_workgroup_id_y(); }
uint32_t __zc_ctaid_z(void) { return __builtin_amdgcn_workgroup_id_z(); }
uint32_t __zc_ntid_x(void) { return zc_packet()->workgroup_size[0]; }
uint32_t __zc_ntid_y(void) { return zc_packet()->workgroup_size[1]; }
uint32_t __zc_ntid_z(void) { return zc_packet()->workgroup_size[2]; }

/* The block counts are code object v5's first implicit arguments (hidden_block_count_x, y,
 * z), which the HIP runtime fills as HIP's own kernels read gridDim: one scalar load, where
 * the dispatch packet's grid size over the block size is a division of some twenty
 * instructions. Only a kernel that reads them gets the implicit arguments. */
static inline const __attribute__((address_space(4))) uint32_t *zc_block_counts(void)
{
	return (const __attribute__((address_space(4))) uint32_t *)__builtin_amdgcn_implicitarg_ptr();
}

uint32_t __zc_nctaid_x(void) { return zc_block_counts()[0]; }
uint32_t __zc_nctaid_y(void) { return zc_block_counts()[1]; }
uint32_t __zc_nctaid_z(void) { return zc_block_counts()[2]; }

/* Waves are formed from consecutive linear work-item ids, so the wave lane is the CUDA
 * lane and the wave number within the workgroup the CUDA warp. */
uint32_t __zc_laneid(void) { return zc_lane(); }

uint32_t __zc_warpid(void)
{
	uint32_t linear = __zc_tid_x() + __zc_ntid_x() * (__zc_tid_y() + __zc_ntid_y() * __zc_tid_z());
	return linear / 32;
}

uint32_t __zc_nwarpid(void)
{
	uint32_t threads = __zc_ntid_x() * __zc_ntid_y() * __zc_ntid_z();
	return (threads + 31) / 32;
}

uint32_t __zc_lanemask_eq(void) { return 1u << zc_lane(); }
uint32_t __zc_lanemask_lt(void) { return (1u << zc_lane()) - 1; }
uint32_t __zc_lanemask_le(void) { return ~0u >> (31 - zc_lane()); }
uint32_t __zc_lanemask_gt(void) { return ~__zc_lanemask_le(); }
uint32_t __zc_lanemask_ge(void) { return ~__zc_lanemask_lt(); }

/* LLVM places external zero-sized LDS arrays after all static LDS, at their alignment:
 * 16, the alignment CUDA gives dynamic shared memory. The packet's group segment size
 * is static + dynamic. */
extern __attribute__((address_space(3), aligned(16))) char __zc_dynamic_lds[];

uint32_t __zc_dynamic_smem_size(void)
{
	return zc_packet()->group_segment_size - __builtin_amdgcn_groupstaticsize();
}

void *__zc_dynamic_smem(void) { return (void *)__zc_dynamic_lds; }

/* gfx10 and gfx12 have a 64-bit shader cycle counter. gfx11 exposes only 20 bits of it
 * (HW_REG_SHADER_CYCLES), which wraps within a millisecond, so %clock64 there counts the
 * 100 MHz constant clock instead: monotonic and 64-bit, at a coarser tick. */
uint64_t __zc_clock64(void)
{
#if defined(__GFX11__)
	return __builtin_readsteadycounter();
#else
	return __builtin_readcyclecounter();
#endif
}

uint32_t __zc_clock(void) { return (uint32_t)__zc_clock64(); }

/* The steady counter (s_memrealtime, or the REALTIME message on gfx11+) runs at the
 * 100 MHz the ROCm runtime reports as the wall-clock rate on RDNA parts. */
uint64_t __zc_globaltimer(void) { return __builtin_readsteadycounter() * 10; }

void __zc_spin_point(void) {}
void __zc_lockstep_point(void) {}

void __zc_nanosleep(uint32_t ns)
{
	if (ns > 1000000)
		ns = 1000000;
	uint64_t end = __zc_globaltimer() + ns;
	while (__zc_globaltimer() < end)
		__builtin_amdgcn_s_sleep(1);
}

_Noreturn void __zc_trap(void) { __builtin_trap(); }

typedef const __attribute__((address_space(0))) void *zc_flat_ptr;

uint32_t __zc_is_shared(uint64_t address) { return __builtin_amdgcn_is_shared((zc_flat_ptr)address); }
uint32_t __zc_is_local(uint64_t address) { return __builtin_amdgcn_is_private((zc_flat_ptr)address); }

/* A device function cannot know its kernel's parameter size, so the window is the largest
 * CUDA allows (32,764 bytes) from the kernarg segment's start: only the hidden arguments,
 * which no PTX names, lie there besides the parameters. The segment's address comes from
 * the dispatch packet: llvm.amdgcn.kernarg.segment.ptr is null outside a kernel, and the
 * end of the explicit arguments (llvm.amdgcn.implicitarg.ptr) would make every kernel ask
 * for every hidden argument. */
uint32_t __zc_is_param(uint64_t address)
{
	return address - zc_packet()->kernarg_address < 32764;
}

uint32_t __zc_total_smem_size(void) { return zc_packet()->group_segment_size; }
uint32_t __zc_smid(void) { return 0; }
uint32_t __zc_nsmid(void) { return 1; }
uint64_t __zc_gridid(void) { return 0; }

_Noreturn void __zc_exit(void)
{
	__builtin_amdgcn_endpgm();
}
