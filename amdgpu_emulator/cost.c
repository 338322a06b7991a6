/* The cycle estimate (ZC_EMU_STATS, zc_emu_cycles_estimated): what issuing one wave32
 * instruction occupies its SIMD for, by instruction class, on RDNA2 (gfx10.3), RDNA3 (gfx11)
 * and RDNA4 (gfx12). It is an ISSUE-cost estimate: every instruction is charged the cycles
 * its unit is busy with it at the documented rate, and the estimate of a wave is the sum over
 * the instructions it executes. Latency is not modelled: neither the time a load takes nor
 * what an s_waitcnt, s_delay_alu or s_barrier waits for, nor the overlap of the RDNA3/4
 * transcendental unit or of another wave's work with this one; nor bank conflicts,
 * coalescing or cache misses. So it compares two compilations of one kernel by the work they
 * put through the SIMD, which instruction counts alone miss (an f64 add is not a mov).
 *
 * Each instruction's cost is looked up once, when the code object is decoded (emu_decode
 * stores it in the decoded instruction), never while it runs. */
#include <stdlib.h>
#include <string.h>

#include "emu.h"

enum cost_class {
	COST_SALU,
	COST_SMEM,
	COST_BRANCH,
	COST_WAIT,
	COST_VALU,
	COST_VOPD,
	COST_VALU64,
	COST_TRANS,
	COST_INTMUL,
	COST_F64,
	COST_WMMA16,
	COST_WMMA8,
	COST_WMMA4,
	COST_LDS,      /* per 128 bytes the wave moves */
	COST_VMEM,     /* per 128 bytes the wave moves */
	COST_CLASSES
};

/* Issue cycles of one wave32 instruction of each class: gfx10.3 (RDNA2), gfx11 (RDNA3),
 * gfx12 (RDNA4). Sources:
 * [ROCPROF] AMD, ROCm Compute Profiler, "Workgroup processor (WGP)" (RDNA3.5 metrics),
 *   rocm.docs.amd.com/projects/rocprofiler-compute/.../conceptual/rdna/wgp.html: FP32 FMA
 *   single issue 128 FLOPs/CU/cycle (two SIMD32 a CU: one wave32 FMA a SIMD a cycle); VOPD
 *   "a pair of independent VALU operations ... issued together in the same cycle"; FP64
 *   "4 FLOPs/CU/cycle (FP32 FMA rate / 32) ... FP64 is 1/32 rate of FP32 on RDNA".
 * [LLVM] llvm/lib/Target/AMDGPU/SISchedule.td (LLVM 22; llvm-mca-22 --instruction-info
 *   shows the same): which instructions fall in each class (WriteTrans32 "F16 or F32
 *   transcendental instructions (these are quarter rate)", WriteIntMul, WriteDouble for
 *   every VALU instruction on f64 including compares and conversions, Write64Bit "Half rate
 *   64-bit instructions"), and latencies GFX10SpeedModel Write32Bit 5 / WriteDouble 22,
 *   GFX11SpeedModel and GFX12SpeedModel Write32Bit 5 / WriteDouble 38: f64 occupies the VALU
 *   about 16 cycles longer on gfx11/12 than on gfx10.
 * [MATRIX] AMD Matrix Instruction Calculator (github.com/ROCm/amd_matrix_instruction_calculator,
 *   matrix_calculator.py, 2025-05-20), 'cycles' of each RDNA3/RDNA4 WMMA and SWMMAC.
 * [ISA] AMD "RDNA3" and "RDNA4" Instruction Set Architecture reference guides, S_NOP: the
 *   next instruction issues SIMM16[3:0]+1 wait states later.
 * [ASSUMED] no AMD figure found; the number is this table's assumption. */
static const struct {
	const char *what;
	uint8_t cycles[3];
} COSTS[COST_CLASSES] = {
	/* SALU: one a cycle [LLVM: WriteSALU on HWSALU, latency 2 on GFX10+; ASSUMED rate 1] */
	[COST_SALU] = {"scalar ALU", {1, 1, 1}},
	/* s_load, s_buffer_load, s_store, s_dcache_inv: the request's issue [ASSUMED] */
	[COST_SMEM] = {"scalar memory (issue)", {1, 1, 1}},
	/* s_branch, s_cbranch_*, s_setpc, s_swappc, s_call: the issue; the refetch of a taken
	 * branch (LLVM's WriteBranch latency 32) is latency [ASSUMED] */
	[COST_BRANCH] = {"branch (issue)", {1, 1, 1}},
	/* s_waitcnt*, s_wait_* (gfx12), s_delay_alu, s_barrier, s_sleep, s_endpgm and the
	 * cache invalidations (buffer_gl0_inv, global_inv, ...): one issue cycle; what they wait
	 * for is not modelled [ASSUMED]. Other scalar control (s_clause, s_setprio) is SALU */
	[COST_WAIT] = {"wait, barrier, control (issue only)", {1, 1, 1}},
	/* f32, f16, packed 16-bit, 32-bit and 16-bit integer, 24-bit multiply, DPP, lane
	 * operations, dot products, conversions not involving f64 [ROCPROF; LLVM Write32Bit,
	 * WriteFloatFMA, WriteFloatCvt] */
	[COST_VALU] = {"vector ALU, full rate", {1, 1, 1}},
	/* v_dual_*: both operations in one cycle [ROCPROF] (gfx11, gfx12) */
	[COST_VOPD] = {"VOPD pair", {1, 1, 1}},
	/* v_lshlrev_b64, v_lshrrev_b64, v_ashrrev_i64 [LLVM: Write64Bit, half rate] */
	[COST_VALU64] = {"64-bit shift, half rate", {2, 2, 2}},
	/* v_exp, v_log, v_rcp, v_rcp_iflag, v_rsq, v_sqrt, v_sin, v_cos in f32 and f16: quarter
	 * rate [LLVM: WriteTrans32]. gfx11 and gfx12 run them in a separate unit beside the VALU,
	 * which can hide up to 3 of the 4 cycles behind independent VALU work: not modelled, so
	 * 4 there is an upper bound */
	[COST_TRANS] = {"transcendental, quarter rate", {4, 4, 4}},
	/* v_mul_lo_u32, v_mul_hi_u32, v_mul_hi_i32, v_mad_u64_u32, v_mad_i64_i32, v_mqsad:
	 * quarter rate (v_mul_u32_u24 and v_mul_lo_u16 are full rate) [LLVM: WriteIntMul,
	 * latency 8 against 5] */
	[COST_INTMUL] = {"32-bit integer multiply, quarter rate", {4, 4, 4}},
	/* every VALU instruction on f64 (add, mul, fma, min/max, compares, class, ldexp, frexp,
	 * conversions to and from f64, div_scale/fmas/fixup, rcp/rsq/sqrt): 1/32 of f32's rate on
	 * gfx11 and gfx12 [ROCPROF]; gfx10 16, derived from LLVM's latencies (22 - 5 on GFX10
	 * against 38 - 5 on GFX11: half the cycles) [LLVM] */
	[COST_F64] = {"f64", {16, 32, 32}},
	/* v_wmma_*_16x16x16_{f16,bf16} and v_swmmac_* on 16-bit data [MATRIX]; gfx10 has none */
	[COST_WMMA16] = {"WMMA/SWMMAC, 16-bit inputs", {32, 32, 16}},
	/* v_wmma_i32_16x16x16_iu8, the fp8/bf8 forms (gfx12) [MATRIX] */
	[COST_WMMA8] = {"WMMA/SWMMAC, 8-bit inputs", {32, 32, 8}},
	/* v_wmma_i32_16x16x16_iu4 (16 on gfx11), 16x16x32_iu4 (gfx12) [MATRIX] */
	[COST_WMMA4] = {"WMMA/SWMMAC, 4-bit inputs", {16, 16, 8}},
	/* ds_*: a cycle for each 128 bytes the wave reads or writes (32 banks of 4 bytes, no
	 * bank conflicts): b32 1, b64 and 2addr_b32 2, b96 3, b128 and 2addr_b64 4 [ASSUMED] */
	[COST_LDS] = {"LDS, per 128 bytes", {1, 1, 1}},
	/* global_*, flat_*, buffer_*, scratch_*: a cycle for each 128 bytes (one dword a lane)
	 * the wave moves through the address and data path; latency not modelled [ASSUMED] */
	[COST_VMEM] = {"vector memory, per 128 bytes", {1, 1, 1}},
};

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Bytes a lane moves: the widest width the mnemonic names (a sub-dword access counts as a
 * dword); 2addr forms move two. */
static unsigned access_bytes(const char *name)
{
	static const struct {
		const char *token;
		unsigned bytes;
	} widths[] = {
		{"b128", 16}, {"dwordx4", 16}, {"b96", 12}, {"dwordx3", 12}, {"b64", 8},
		{"dwordx2", 8}, {"_x2", 8}, {"u64", 8}, {"i64", 8}, {"f64", 8},
	};
	unsigned bytes = 4;
	for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
		if (strstr(name, widths[i].token)) {
			bytes = widths[i].bytes;
			break;
		}
	if (strstr(name, "2addr") || strstr(name, "read2") || strstr(name, "write2"))
		bytes *= 2;
	return bytes;
}

static enum cost_class vector_class(const char *name)
{
	static const char *const trans[] = {
		"v_exp_f32", "v_exp_f16", "v_log_f32", "v_log_f16", "v_rcp_f32", "v_rcp_f16",
		"v_rcp_iflag_f32", "v_rsq_f32", "v_rsq_f16", "v_sqrt_f32", "v_sqrt_f16", "v_sin_f32",
		"v_sin_f16", "v_cos_f32", "v_cos_f16", "v_exp_legacy_f32", "v_log_legacy_f32",
	};
	static const char *const intmul[] = {
		"v_mul_lo_u32", "v_mul_hi_u32", "v_mul_hi_i32", "v_mad_u64_u32", "v_mad_i64_i32",
		"v_mad_co_u64_u32", "v_mad_co_i64_i32", "v_mqsad_pk_u16_u8", "v_mqsad_u32_u8",
		"v_qsad_pk_u16_u8",
	};
	static const char *const shift64[] = {"v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"};

	if (starts(name, "v_wmma_") || starts(name, "v_swmmac_")) {
		if (strstr(name, "iu4"))
			return COST_WMMA4;
		if (strstr(name, "iu8") || strstr(name, "fp8") || strstr(name, "bf8"))
			return COST_WMMA8;
		return COST_WMMA16;
	}
	if (strstr(name, "f64"))
		return COST_F64;
	for (size_t i = 0; i < sizeof trans / sizeof trans[0]; i++)
		if (strcmp(name, trans[i]) == 0)
			return COST_TRANS;
	for (size_t i = 0; i < sizeof intmul / sizeof intmul[0]; i++)
		if (strcmp(name, intmul[i]) == 0)
			return COST_INTMUL;
	for (size_t i = 0; i < sizeof shift64 / sizeof shift64[0]; i++)
		if (strcmp(name, shift64[i]) == 0)
			return COST_VALU64;
	return COST_VALU;
}

uint16_t emu_issue_cost(const char *text, int generation)
{
	char name[64];
	size_t n = strcspn(text, " ");
	int g = generation < 10 ? 0 : generation > 12 ? 2 : generation - 10;

	if (n == 0 || n >= sizeof name)
		return 1;
	memcpy(name, text, n);
	name[n] = 0;
	emu_strip_encoding_suffix(name);

	enum cost_class c;
	unsigned units = 1;
	if (strcmp(name, "s_nop") == 0) {
		/* [ISA] SIMM16[3:0] + 1 wait states */
		unsigned long count = strtoul(text + n, NULL, 0);
		return (uint16_t)((count & 15) + 1);
	} else if (starts(name, "v_dual_")) {
		c = COST_VOPD;
	} else if (starts(name, "s_waitcnt") || starts(name, "s_wait_") ||
	           starts(name, "s_delay_alu") || starts(name, "s_barrier") ||
	           strcmp(name, "s_sleep") == 0 || strcmp(name, "s_endpgm") == 0) {
		c = COST_WAIT;
	} else if (strcmp(name, "s_branch") == 0 || starts(name, "s_cbranch_") ||
	           strcmp(name, "s_setpc_b64") == 0 || strcmp(name, "s_swappc_b64") == 0 ||
	           starts(name, "s_call_")) {
		c = COST_BRANCH;
	} else if (starts(name, "s_load_") || starts(name, "s_buffer_load_") ||
	           starts(name, "s_store_") || starts(name, "s_buffer_store_") ||
	           starts(name, "s_atomic_") || starts(name, "s_dcache_") ||
	           starts(name, "s_prefetch_") || starts(name, "s_scratch_")) {
		c = COST_SMEM;
	} else if (starts(name, "s_")) {
		c = COST_SALU;
	} else if (starts(name, "ds_")) {
		c = COST_LDS;
		units = (LANES * access_bytes(name) + 127) / 128;
	} else if (strcmp(name, "buffer_gl0_inv") == 0 || strcmp(name, "buffer_gl1_inv") == 0 ||
	           strcmp(name, "buffer_wbinvl1") == 0 || starts(name, "global_inv") ||
	           starts(name, "global_wb")) {
		c = COST_WAIT;
	} else if (starts(name, "global_") || starts(name, "flat_") || starts(name, "buffer_") ||
	           starts(name, "scratch_") || starts(name, "tbuffer_")) {
		c = COST_VMEM;
		units = (LANES * access_bytes(name) + 127) / 128;
	} else if (starts(name, "v_")) {
		c = vector_class(name);
	} else {
		return 1;  /* data words, never executed */
	}
	return (uint16_t)(COSTS[c].cycles[g] * units);
}
