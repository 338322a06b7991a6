/* The targets' rows of the lowering's hook table. */
#include "target.h"

const struct ptx_target ptx_target_amdgpu = {
	.name = "amdgpu",
	.triple = "amdgcn-amd-amdhsa",
	.datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-"
	              "p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-"
	              "v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-"
	              "v2048:2048-n32:64-S32-A5-G1-ni:7:8:9",
	.as_generic = 0, .as_global = 1, .as_shared = 3, .as_const = 4, .as_local = 5,
	.as_kernel_param = 4,
	.flushes_f32_by_mode = true, .rounds_by_mode = true,
	.scope_cta = "workgroup", .scope_gpu = "agent", .scope_sys = "",
};

const struct ptx_target ptx_target_host = {
	.name = "host",
	.triple = "x86_64-pc-linux-gnu",
	.datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-"
	              "n8:16:32:64-S128",
	.shared_as_offsets = true,
	.scope_cta = "", .scope_gpu = "", .scope_sys = "",
};
