/* The AMDGPU rows of the target table: every RDNA 2/3/4 processor LLVM 22 knows, wave32.
 * Specific processors get code object v5, which every ROCm from 5.x loads (LLVM 22
 * defaults to v6, which needs ROCm 6.3); the generic targets exist only from v6 on. RDNA3
 * and RDNA4 (gfx11, gfx12) have WMMA; builtins_matrix.c picks its form by the same
 * generations. */
#include "target.h"

/* Builtins bitcode, one per processor, embedded by the build (CMakeLists.txt lists the
 * same processors). */
extern const ZcBitcode zc_builtins_gfx1030, zc_builtins_gfx1031, zc_builtins_gfx1032,
	zc_builtins_gfx1033, zc_builtins_gfx1034, zc_builtins_gfx1035, zc_builtins_gfx1036,
	zc_builtins_gfx1100, zc_builtins_gfx1101, zc_builtins_gfx1102, zc_builtins_gfx1103,
	zc_builtins_gfx1150, zc_builtins_gfx1151, zc_builtins_gfx1152, zc_builtins_gfx1153,
	zc_builtins_gfx1200, zc_builtins_gfx1201, zc_builtins_gfx10_3_generic,
	zc_builtins_gfx11_generic, zc_builtins_gfx12_generic;

/* Undefined symbols would only fail later, when the GPU loader sees the code object. */
static const char *const zc_amdgpu_link_flags[] = {"-shared", "--no-undefined", NULL};

#define ZC_AMDGPU(cpu, ident, version, by_default, wmma)                            \
	{cpu, "amdgcn-amd-amdhsa", cpu, "+wavefrontsize32", ZC_CODE_OBJECT_AMDHSA, version, \
	 by_default, &zc_builtins_##ident, zc_amdgpu_link_flags, wmma, ZC_OBJECT_ELF, NULL}

const ZcTarget zc_amdgpu_targets[] = {
	ZC_AMDGPU("gfx1030", gfx1030, 500, true, false),
	ZC_AMDGPU("gfx1100", gfx1100, 500, true, true),
	ZC_AMDGPU("gfx1200", gfx1200, 500, true, true),
	ZC_AMDGPU("gfx1031", gfx1031, 500, false, false),
	ZC_AMDGPU("gfx1032", gfx1032, 500, false, false),
	ZC_AMDGPU("gfx1033", gfx1033, 500, false, false),
	ZC_AMDGPU("gfx1034", gfx1034, 500, false, false),
	ZC_AMDGPU("gfx1035", gfx1035, 500, false, false),
	ZC_AMDGPU("gfx1036", gfx1036, 500, false, false),
	ZC_AMDGPU("gfx1101", gfx1101, 500, false, true),
	ZC_AMDGPU("gfx1102", gfx1102, 500, false, true),
	ZC_AMDGPU("gfx1103", gfx1103, 500, false, true),
	ZC_AMDGPU("gfx1150", gfx1150, 500, false, true),
	ZC_AMDGPU("gfx1151", gfx1151, 500, false, true),
	ZC_AMDGPU("gfx1152", gfx1152, 500, false, true),
	ZC_AMDGPU("gfx1153", gfx1153, 500, false, true),
	ZC_AMDGPU("gfx1201", gfx1201, 500, false, true),
	ZC_AMDGPU("gfx10-3-generic", gfx10_3_generic, 600, false, false),
	ZC_AMDGPU("gfx11-generic", gfx11_generic, 600, false, true),
	ZC_AMDGPU("gfx12-generic", gfx12_generic, 600, false, true),
};

const size_t zc_amdgpu_target_count = sizeof zc_amdgpu_targets / sizeof zc_amdgpu_targets[0];
