/* Decoding a code object's text once, with LLVM's own disassembler, into a table of
 * instructions whose operands and modifiers are resolved: executing never reads text. An
 * instruction without a handler decodes to one that ends the launch naming it. */
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu.h"

/* The longest instruction of the three generations and more: gfx10's MIMG with its NSA
 * address words is 20 bytes. */
#define MAX_INSTRUCTION_BYTES 32

/* The spellings of gfx10 and gfx12 that name what gfx11 spells otherwise: decoding maps
 * them to gfx11's, the one set of names the handlers know. */
static const char *const renames[][2] = {
	{"s_andn2_b32", "s_and_not1_b32"}, {"s_orn2_b32", "s_or_not1_b32"},
	{"s_andn2_b64", "s_and_not1_b64"}, {"s_orn2_b64", "s_or_not1_b64"},
	{"s_andn2_saveexec_b32", "s_and_not1_saveexec_b32"},
	{"s_orn2_saveexec_b32", "s_or_not1_saveexec_b32"},
	{"s_andn1_saveexec_b32", "s_and_not0_saveexec_b32"},
	{"s_orn1_saveexec_b32", "s_or_not0_saveexec_b32"},
	{"s_andn1_wrexec_b32", "s_and_not0_wrexec_b32"}, {"s_andn2_wrexec_b32", "s_and_not1_wrexec_b32"},
	{"s_andn2_saveexec_b64", "s_and_not1_saveexec_b64"},
	{"s_orn2_saveexec_b64", "s_or_not1_saveexec_b64"},
	{"s_andn1_saveexec_b64", "s_and_not0_saveexec_b64"},
	{"s_orn1_saveexec_b64", "s_or_not0_saveexec_b64"},
	{"s_andn1_wrexec_b64", "s_and_not0_wrexec_b64"}, {"s_andn2_wrexec_b64", "s_and_not1_wrexec_b64"},
	{"s_ff1_i32_b32", "s_ctz_i32_b32"}, {"s_ff1_i32_b64", "s_ctz_i32_b64"},
	{"s_flbit_i32_b32", "s_clz_i32_u32"}, {"s_flbit_i32_b64", "s_clz_i32_u64"},
	{"s_flbit_i32", "s_cls_i32"}, {"s_flbit_i32_i64", "s_cls_i32_i64"},
	{"s_add_co_u32", "s_add_u32"}, {"s_add_co_ci_u32", "s_addc_u32"},
	{"s_sub_co_u32", "s_sub_u32"}, {"s_sub_co_ci_u32", "s_subb_u32"},
	{"s_add_co_i32", "s_add_i32"}, {"s_sub_co_i32", "s_sub_i32"},
	{"v_mad_co_u64_u32", "v_mad_u64_u32"}, {"v_mad_co_i64_i32", "v_mad_i64_i32"},
	{"v_ffbh_u32", "v_clz_i32_u32"}, {"v_ffbl_b32", "v_ctz_i32_b32"}, {"v_ffbh_i32", "v_cls_i32"},
	{"v_max_num_f32", "v_max_f32"}, {"v_min_num_f32", "v_min_f32"},
	{"v_max_num_f64", "v_max_f64"}, {"v_min_num_f64", "v_min_f64"},
	{"v_max_num_f16", "v_max_f16"}, {"v_min_num_f16", "v_min_f16"},
	{"v_max3_num_f32", "v_max3_f32"}, {"v_min3_num_f32", "v_min3_f32"},
	{"v_max3_num_f16", "v_max3_f16"}, {"v_min3_num_f16", "v_min3_f16"},
	{"v_med3_num_f32", "v_med3_f32"}, {"v_med3_num_f16", "v_med3_f16"},
	{"v_fma_legacy_f32", "v_fma_dx9_zero_f32"}, {"v_fmac_legacy_f32", "v_fmac_dx9_zero_f32"},
	{"v_maxmin_num_f32", "v_maxmin_f32"}, {"v_minmax_num_f32", "v_minmax_f32"},
	{"v_maxmin_num_f16", "v_maxmin_f16"}, {"v_minmax_num_f16", "v_minmax_f16"},
	{"v_pk_max_num_f16", "v_pk_max_f16"}, {"v_pk_min_num_f16", "v_pk_min_f16"},
	{"v_dual_max_num_f32", "v_dual_max_f32"}, {"v_dual_min_num_f32", "v_dual_min_f32"},
	{"ds_write_b32", "ds_store_b32"}, {"ds_write_b64", "ds_store_b64"},
	{"ds_write_b96", "ds_store_b96"}, {"ds_write_b128", "ds_store_b128"},
	{"ds_write_b8", "ds_store_b8"}, {"ds_write_b16", "ds_store_b16"},
	{"ds_write_b8_d16_hi", "ds_store_b8_d16_hi"}, {"ds_write_b16_d16_hi", "ds_store_b16_d16_hi"},
	{"ds_write2_b32", "ds_store_2addr_b32"}, {"ds_write2_b64", "ds_store_2addr_b64"},
	{"ds_write2st64_b32", "ds_store_2addr_stride64_b32"},
	{"ds_write2st64_b64", "ds_store_2addr_stride64_b64"},
	{"ds_read_b32", "ds_load_b32"}, {"ds_read_b64", "ds_load_b64"},
	{"ds_read_b96", "ds_load_b96"}, {"ds_read_b128", "ds_load_b128"},
	{"ds_read_u8", "ds_load_u8"}, {"ds_read_i8", "ds_load_i8"}, {"ds_read_u16", "ds_load_u16"},
	{"ds_read_i16", "ds_load_i16"}, {"ds_read_u8_d16", "ds_load_u8_d16"},
	{"ds_read_u8_d16_hi", "ds_load_u8_d16_hi"}, {"ds_read_i8_d16", "ds_load_i8_d16"},
	{"ds_read_i8_d16_hi", "ds_load_i8_d16_hi"}, {"ds_read_u16_d16", "ds_load_u16_d16"},
	{"ds_read_u16_d16_hi", "ds_load_u16_d16_hi"},
	{"ds_read2_b32", "ds_load_2addr_b32"}, {"ds_read2_b64", "ds_load_2addr_b64"},
	{"ds_read2st64_b32", "ds_load_2addr_stride64_b32"},
	{"ds_read2st64_b64", "ds_load_2addr_stride64_b64"},
	{"ds_wrxchg_rtn_b32", "ds_storexchg_rtn_b32"}, {"ds_wrxchg_rtn_b64", "ds_storexchg_rtn_b64"},
	{"ds_wrxchg2_rtn_b32", "ds_storexchg_2addr_rtn_b32"},
	{"ds_wrxchg2_rtn_b64", "ds_storexchg_2addr_rtn_b64"},
	{"ds_wrxchg2st64_rtn_b32", "ds_storexchg_2addr_stride64_rtn_b32"},
	{"ds_wrxchg2st64_rtn_b64", "ds_storexchg_2addr_stride64_rtn_b64"},
	{"ds_read_addtid_b32", "ds_load_addtid_b32"},
	{"global_load_dword_addtid", "global_load_addtid_b32"},
	{"global_store_dword_addtid", "global_store_addtid_b32"}, {"ds_write_addtid_b32", "ds_store_addtid_b32"},
};

/* gfx10's memory spellings (dword, ubyte, atomic_add_x2 ...) as gfx11's (b32, u8, add_u64). */
static void rename_memory(char *name, size_t size)
{
	static const char *const sizes[][2] = {
		{"_dwordx16", "_b512"}, {"_dwordx8", "_b256"}, {"_dwordx4", "_b128"}, {"_dwordx3", "_b96"},
		{"_dwordx2", "_b64"}, {"_dword", "_b32"}, {"_ubyte_d16_hi", "_d16_hi_u8"},
		{"_sbyte_d16_hi", "_d16_hi_i8"}, {"_ubyte_d16", "_d16_u8"}, {"_sbyte_d16", "_d16_i8"},
		{"_short_d16_hi", "_d16_hi_b16"}, {"_short_d16", "_d16_b16"},
		{"_byte_d16_hi", "_d16_hi_b8"}, {"_ubyte", "_u8"}, {"_sbyte", "_i8"},
		{"_ushort", "_u16"}, {"_sshort", "_i16"}, {"_byte", "_b8"}, {"_short", "_b16"},
	};
	static const char *const atomics[][2] = {
		{"_atomic_cmpswap_x2", "_atomic_cmpswap_b64"}, {"_atomic_cmpswap", "_atomic_cmpswap_b32"},
		{"_atomic_swap_x2", "_atomic_swap_b64"}, {"_atomic_swap", "_atomic_swap_b32"},
		{"_atomic_add_x2", "_atomic_add_u64"}, {"_atomic_add", "_atomic_add_u32"},
		{"_atomic_sub_x2", "_atomic_sub_u64"}, {"_atomic_sub", "_atomic_sub_u32"},
		{"_atomic_smin_x2", "_atomic_min_i64"}, {"_atomic_smin", "_atomic_min_i32"},
		{"_atomic_umin_x2", "_atomic_min_u64"}, {"_atomic_umin", "_atomic_min_u32"},
		{"_atomic_smax_x2", "_atomic_max_i64"}, {"_atomic_smax", "_atomic_max_i32"},
		{"_atomic_umax_x2", "_atomic_max_u64"}, {"_atomic_umax", "_atomic_max_u32"},
		{"_atomic_and_x2", "_atomic_and_b64"}, {"_atomic_and", "_atomic_and_b32"},
		{"_atomic_or_x2", "_atomic_or_b64"}, {"_atomic_or", "_atomic_or_b32"},
		{"_atomic_xor_x2", "_atomic_xor_b64"}, {"_atomic_xor", "_atomic_xor_b32"},
		{"_atomic_inc_x2", "_atomic_inc_u64"}, {"_atomic_inc", "_atomic_inc_u32"},
		{"_atomic_dec_x2", "_atomic_dec_u64"}, {"_atomic_dec", "_atomic_dec_u32"},
		{"_atomic_fcmpswap_x2", "_atomic_cmpswap_f64"}, {"_atomic_fcmpswap", "_atomic_cmpswap_f32"},
		{"_atomic_csub", "_atomic_csub_u32"},
		{"_atomic_fmin_x2", "_atomic_min_f64"}, {"_atomic_fmin", "_atomic_min_f32"},
		{"_atomic_fmax_x2", "_atomic_max_f64"}, {"_atomic_fmax", "_atomic_max_f32"},
	};
	bool memory = strncmp(name, "global_", 7) == 0 || strncmp(name, "flat_", 5) == 0 ||
	              strncmp(name, "scratch_", 8) == 0 || strncmp(name, "buffer_", 7) == 0 ||
	              strncmp(name, "s_load_", 7) == 0 || strncmp(name, "s_buffer_load_", 14) == 0;
	if (!memory)
		return;
	char out[64];
	for (size_t i = 0; i < sizeof atomics / sizeof atomics[0]; i++) {
		char *at = strstr(name, atomics[i][0]);
		if (at && strcmp(at, atomics[i][0]) == 0) {
			snprintf(out, sizeof out, "%.*s%s", (int)(at - name), name, atomics[i][1]);
			snprintf(name, size, "%s", out);
			return;
		}
	}
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		char *at = strstr(name, sizes[i][0]);
		if (at && strcmp(at, sizes[i][0]) == 0) {
			snprintf(out, sizeof out, "%.*s%s", (int)(at - name), name, sizes[i][1]);
			snprintf(name, size, "%s", out);
			return;
		}
	}
}

/* Splits at top-level commas, outside () and []. */
static int split_operands(char *s, char **parts, int max)
{
	int n = 0, depth = 0;
	char *start = s;
	for (char *p = s;; p++) {
		if (*p == '(' || *p == '[')
			depth++;
		else if (*p == ')' || *p == ']')
			depth--;
		if ((*p == ',' && depth == 0) || *p == 0) {
			bool last = *p == 0;
			*p = 0;
			while (*start == ' ')
				start++;
			if (n < max)
				parts[n++] = start;
			if (last)
				break;
			start = p + 1;
		}
	}
	return n;
}

static int parse_bits(const char *list)
{
	int v = 0, i = 0;
	for (const char *p = list; *p && *p != ']'; p++)
		if (*p == '0' || *p == '1')
			v |= (*p - '0') << i++;
	return v;
}

static const struct {
	const char *name;
	uint16_t id;
} hwregs[] = {
	{"HW_REG_MODE", 1}, {"HW_REG_STATUS", 2}, {"HW_REG_TRAPSTS", 3}, {"HW_REG_HW_ID", 4},
	{"HW_REG_GPR_ALLOC", 5}, {"HW_REG_LDS_ALLOC", 6}, {"HW_REG_IB_STS", 7},
	{"HW_REG_SH_MEM_BASES", 15}, {"HW_REG_FLAT_SCR_LO", 20}, {"HW_REG_FLAT_SCR_HI", 21},
	{"HW_REG_XNACK_MASK", 22}, {"HW_REG_HW_ID1", 23}, {"HW_REG_HW_ID2", 24},
	{"HW_REG_SHADER_CYCLES", 29}, {"HW_REG_SHADER_CYCLES_LO", 29},
	{"HW_REG_SHADER_CYCLES_HI", 30},
	{"HW_REG_WAVE_MODE", 1}, {"HW_REG_WAVE_STATUS", 2}, {"HW_REG_WAVE_STATE_PRIV", 4},
	{"HW_REG_WAVE_GPR_ALLOC", 5}, {"HW_REG_WAVE_LDS_ALLOC", 6}, {"HW_REG_WAVE_IB_STATUS", 7},
	{"HW_REG_WAVE_HW_ID1", 23}, {"HW_REG_WAVE_HW_ID2", 24}, {"HW_REG_WAVE_EXCP_FLAG_PRIV", 17},
	{"HW_REG_WAVE_EXCP_FLAG_USER", 18}, {"HW_REG_WAVE_TRAP_CTRL", 19},
	{"HW_REG_WAVE_SCRATCH_BASE_LO", 20}, {"HW_REG_WAVE_SCRATCH_BASE_HI", 21},
};

/* hwreg(NAME[, offset, size]) */
static bool parse_hwreg(const char *text, struct insn *in)
{
	char name[48];
	unsigned offset = 0, size = 32;
	int n = sscanf(text, "hwreg(%47[^,)], %u, %u)", name, &offset, &size);
	if (n < 1)
		return false;
	in->hw_id = 0xffff;
	for (size_t i = 0; i < sizeof hwregs / sizeof hwregs[0]; i++)
		if (strcmp(name, hwregs[i].name) == 0)
			in->hw_id = hwregs[i].id;
	if (in->hw_id == 0xffff) {
		char *e;
		unsigned long id = strtoul(name, &e, 0);
		if (*e)
			return false;
		in->hw_id = (uint16_t)id;
	}
	in->hw_offset = (uint16_t)offset;
	in->hw_size = (uint16_t)size;
	return offset < 32 && size >= 1 && size <= 32;
}

static const struct {
	const char *name;
	uint16_t id;
} messages[] = {
	{"MSG_INTERRUPT", 1}, {"MSG_HS_TESSFACTOR", 2}, {"MSG_DEALLOC_VGPRS", 3},
	{"MSG_SAVEWAVE", 4}, {"MSG_STALL_WAVE_GEN", 5}, {"MSG_HALT_WAVES", 6},
	{"MSG_ORDERED_PS_DONE", 7}, {"MSG_EARLY_PRIM_DEALLOC", 8}, {"MSG_GS_ALLOC_REQ", 9},
	{"MSG_GET_DOORBELL", 10}, {"MSG_GET_DDID", 11}, {"MSG_SYSMSG", 15},
	{"MSG_RTN_GET_DOORBELL", 128}, {"MSG_RTN_GET_DDID", 129}, {"MSG_RTN_GET_TMA", 130},
	{"MSG_RTN_GET_REALTIME", 131}, {"MSG_RTN_SAVE_WAVE", 132}, {"MSG_RTN_GET_TBA", 133},
};

/* sendmsg(NAME[, ...]) or sendmsg(number) */
static bool parse_sendmsg(const char *text, struct insn *in)
{
	char name[48];
	if (sscanf(text, "sendmsg(%47[^,)]", name) != 1)
		return false;
	for (size_t i = 0; i < sizeof messages / sizeof messages[0]; i++)
		if (strcmp(name, messages[i].name) == 0) {
			in->hw_id = messages[i].id;
			return true;
		}
	char *e;
	unsigned long id = strtoul(name, &e, 0);
	in->hw_id = (uint16_t)id;
	return *e == 0;
}

/* ds_swizzle's offset as LLVM prints it, back to the encoding's 16 bits: QUAD_PERM (bit 15
 * and four 2-bit lane selects), FFT (0xe000 | mask), or the bit-mask mode's and, or and xor
 * masks (bits 4:0, 9:5, 14:10), which SWAP, REVERSE, BROADCAST and BITMASK_PERM spell. */
static bool parse_swizzle(const char *t, struct insn *in)
{
	unsigned a, b, c, d;
	char mask[8];
	if (sscanf(t, "QUAD_PERM,%u,%u,%u,%u)", &a, &b, &c, &d) == 4) {
		in->offset = (int32_t)(0x8000u | (a & 3) | (b & 3) << 2 | (c & 3) << 4 | (d & 3) << 6);
	} else if (sscanf(t, "FFT,%u)", &a) == 1) {
		in->offset = (int32_t)(0xe000u | (a & 31));
	} else if (sscanf(t, "SWAP,%u)", &a) == 1) {
		in->offset = (int32_t)(0x1fu | (a & 31) << 10);
	} else if (sscanf(t, "REVERSE,%u)", &a) == 1 && a >= 1) {
		in->offset = (int32_t)(0x1fu | ((a - 1) & 31) << 10);
	} else if (sscanf(t, "BROADCAST,%u,%u)", &a, &b) == 2 && a >= 1) {
		in->offset = (int32_t)((0x1fu & ~(a - 1)) | (b & 31) << 5);
	} else if (sscanf(t, "BITMASK_PERM,\"%5[01pi]\")", mask) == 1 && strlen(mask) == 5) {
		unsigned and_mask = 0, or_mask = 0, xor_mask = 0;
		for (int i = 0; i < 5; i++) {
			unsigned bit = 1u << (4 - i);
			if (mask[i] == '1')
				or_mask |= bit;
			else if (mask[i] == 'p')
				and_mask |= bit;
			else if (mask[i] == 'i')
				and_mask |= bit, xor_mask |= bit;
		}
		in->offset = (int32_t)(and_mask | or_mask << 5 | xor_mask << 10);
	} else {
		return false;
	}
	return true;
}

static bool parse_modifier(const char *m, struct insn *in)
{
	const char *v = strchr(m, ':');
	if (v)
		v++;
	if (strncmp(m, "offset:swizzle(", 15) == 0) {
		return parse_swizzle(v + 8, in);
	} else if (strncmp(m, "offset:", 7) == 0) {
		in->offset = (int32_t)strtol(v, NULL, 0);
	} else if (strncmp(m, "offset0:", 8) == 0) {
		in->offset0 = (uint8_t)strtoul(v, NULL, 0);
	} else if (strncmp(m, "offset1:", 8) == 0) {
		in->offset1 = (uint8_t)strtoul(v, NULL, 0);
	} else if (strcmp(m, "glc") == 0 || strcmp(m, "sc0") == 0 ||
	           (strncmp(m, "th:TH_ATOMIC_", 13) == 0 && strstr(m, "RETURN"))) {
		/* gfx12 says that an atomic returns in its temporal hint (TH_ATOMIC_RETURN,
		 * TH_ATOMIC_NT_RETURN, ...), gfx10 and gfx11 with glc */
		in->glc = 1;
	} else if (strcmp(m, "offen") == 0) {
		in->offen = 1;
	} else if (strcmp(m, "idxen") == 0) {
		in->idxen = 1;
	} else if (strcmp(m, "gds") == 0) {
		in->gds = 1;
	} else if (strcmp(m, "clamp") == 0) {
		in->clamp = 1;
	} else if (strcmp(m, "mul:2") == 0) {
		in->omod = 1;
	} else if (strcmp(m, "mul:4") == 0) {
		in->omod = 2;
	} else if (strcmp(m, "div:2") == 0) {
		in->omod = 3;
	} else if (strncmp(m, "byte_sel:", 9) == 0) {
		/* gfx12's fp8 conversions: the byte, which the encoding's op_sel bits give reversed */
		static const uint8_t op_sel_of_byte[4] = {0, 2, 1, 3};
		in->op_sel = op_sel_of_byte[atoi(m + 9) & 3];
	} else if (strncmp(m, "index_key:", 10) == 0) {
		/* gfx12's sparse WMMA: which half of the index register, encoded as op_sel[0] */
		in->op_sel = (uint8_t)(strtoul(v, NULL, 0) & 1);
	} else if (strncmp(m, "op_sel:", 7) == 0) {
		in->op_sel = (uint8_t)parse_bits(v);
	} else if (strncmp(m, "op_sel_hi:", 10) == 0) {
		in->op_sel_hi = (uint8_t)(parse_bits(v) | OP_SEL_HI_GIVEN);
	} else if (strncmp(m, "neg_lo:", 7) == 0) {
		in->neg_lo = (uint8_t)parse_bits(v);
	} else if (strncmp(m, "neg_hi:", 7) == 0) {
		in->neg_hi = (uint8_t)parse_bits(v);
	} else if (strncmp(m, "quad_perm:", 10) == 0) {
		unsigned a, b, c, d;
		if (sscanf(v, "[%u,%u,%u,%u]", &a, &b, &c, &d) != 4)
			return false;
		in->dpp = 1;
		in->dpp_ctrl = (uint16_t)((a & 3) | (b & 3) << 2 | (c & 3) << 4 | (d & 3) << 6);
	} else if (strncmp(m, "row_", 4) == 0) {
		static const struct { const char *name; uint16_t base; } rows[] = {
			{"row_shl:", 0x100}, {"row_shr:", 0x110}, {"row_ror:", 0x120},
			{"row_share:", 0x150}, {"row_xmask:", 0x160},
		};
		in->dpp = 1;
		if (strcmp(m, "row_mirror") == 0) {
			in->dpp_ctrl = 0x140;
		} else if (strcmp(m, "row_half_mirror") == 0) {
			in->dpp_ctrl = 0x141;
		} else if (strncmp(m, "row_mask:", 9) == 0) {
			in->row_mask = (uint8_t)strtoul(v, NULL, 0);
		} else {
			size_t i;
			for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
				if (strncmp(m, rows[i].name, strlen(rows[i].name)) == 0)
					break;
			if (i == sizeof rows / sizeof rows[0])
				return false;
			in->dpp_ctrl = (uint16_t)(rows[i].base + (strtoul(v, NULL, 0) & 15));
		}
	} else if (strncmp(m, "bank_mask:", 10) == 0) {
		in->bank_mask = (uint8_t)strtoul(v, NULL, 0);
	} else if (strncmp(m, "bound_ctrl:", 11) == 0) {
		in->bound_ctrl = 1;
	} else if (strncmp(m, "fi:", 3) == 0) {
		in->fi = (uint8_t)strtoul(v, NULL, 0);
	} else if (strncmp(m, "dpp8:", 5) == 0) {
		unsigned s[8];
		if (sscanf(v, "[%u,%u,%u,%u,%u,%u,%u,%u]", &s[0], &s[1], &s[2], &s[3], &s[4], &s[5],
		           &s[6], &s[7]) != 8)
			return false;
		in->dpp = 2;
		for (int i = 0; i < 8; i++)
			in->dpp8 |= (s[i] & 7) << (3 * i);
	} else if (strncmp(m, "hwreg(", 6) == 0) {
		return parse_hwreg(m, in);
	} else if (strncmp(m, "sendmsg(", 8) == 0) {
		return parse_sendmsg(m, in);
	} else if (strncmp(m, "src0_sel:", 9) == 0 || strncmp(m, "src1_sel:", 9) == 0 ||
	           strncmp(m, "dst_sel:", 8) == 0) {
		static const char *const sels[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0",
		                                   "WORD_1", "DWORD"};
		uint8_t sel = 0xff;
		for (uint8_t i = 0; i < 7; i++)
			if (strcmp(v, sels[i]) == 0)
				sel = i;
		if (sel == 0xff)
			return false;
		if (m[0] == 'd')
			in->dst_sel = sel;
		else
			in->src_sel[m[3] - '0'] = sel;
	} else if (strncmp(m, "dst_unused:", 11) == 0) {
		if (strcmp(v, "UNUSED_PAD") == 0)
			in->dst_unused = 0;
		else if (strcmp(v, "UNUSED_SEXT") == 0)
			in->dst_unused = 1;
		else if (strcmp(v, "UNUSED_PRESERVE") == 0)
			in->dst_unused = 2;
		else
			return false;
	} else if (strcmp(m, "slc") == 0 || strcmp(m, "dlc") == 0 || strcmp(m, "nv") == 0 ||
	           strcmp(m, "sc1") == 0 || strncmp(m, "th:", 3) == 0 || strncmp(m, "scope:", 6) == 0 ||
	           0) {
		/* cache and scope hints: no effect on a single-level memory */
	} else {
		return false;
	}
	return true;
}

static const char *const ignored[] = {
	"s_waitcnt", "s_waitcnt_vscnt", "s_waitcnt_vmcnt", "s_waitcnt_lgkmcnt", "s_waitcnt_expcnt",
	"s_waitcnt_depctr", "s_delay_alu", "s_nop", "s_clause", "s_set_inst_prefetch_distance",
	"s_inst_prefetch", "s_code_end", "s_icache_inv", "s_dcache_inv", "s_setprio", "s_ttracedata",
	"buffer_gl0_inv", "buffer_gl1_inv", "buffer_wbinvl1", "global_inv", "global_wb",
	"global_wbinv", "s_wait_loadcnt", "s_wait_storecnt", "s_wait_kmcnt", "s_wait_dscnt",
	"s_wait_samplecnt", "s_wait_bvhcnt", "s_wait_expcnt", "s_wait_alu", "s_wait_loadcnt_dscnt",
	"s_wait_storecnt_dscnt", "s_wait_idle", "s_prefetch_data", "s_prefetch_inst",
	"s_version", "v_nop", "v_pipeflush", "ds_nop", "v_clrexcp",
	/* hints to the caches, the clocks and other waves, with nothing to do here */
	"s_atc_probe", "s_atc_probe_buffer", "s_gl1_inv", "s_decperflevel", "s_incperflevel",
	"s_wakeup", "s_wait_event", "s_prefetch_data_pc_rel", "s_prefetch_inst_pc_rel",
	"s_buffer_prefetch_data",
};

static void do_nothing(struct wave *w, const struct insn *in)
{
	(void)w;
	(void)in;
}

static const struct opcode nothing = {"", do_nothing, 0};

/* Every name decoding knows (handlers, ignored instructions, other generations'
 * spellings), hashed once: each instruction of every code object looks its name up, and a
 * walk of the tables costs a thousand comparisons an instruction. */
struct known_name {
	const char *name;
	const struct opcode *op; /* its handler (the first table's, as a walk would find) */
	const char *rename;      /* gfx11's spelling of it */
	bool ignored;
};

#define KNOWN_NAME_SLOTS 4096 /* a power of two, over twice the names */
static struct known_name known_names[KNOWN_NAME_SLOTS];
static pthread_once_t known_names_once = PTHREAD_ONCE_INIT;

static struct known_name *known_name_slot(const char *name)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (const char *c = name; *c; c++)
		h = (h ^ (uint8_t)*c) * 16777619u;
	for (uint32_t i = h;; i++) {
		struct known_name *slot = &known_names[i & (KNOWN_NAME_SLOTS - 1)];
		if (!slot->name || strcmp(slot->name, name) == 0)
			return slot;
	}
}

static struct known_name *add_known_name(const char *name)
{
	struct known_name *slot = known_name_slot(name);
	slot->name = name;
	return slot;
}

static void index_known_names(void)
{
	const struct opcode *tables[] = {emu_scalar_opcodes, emu_vector_opcodes, emu_float_opcodes,
	                                 emu_memory_opcodes, emu_matrix_opcodes};
	size_t count = 0;
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
		for (const struct opcode *op = tables[t]; op->name; op++, count++) {
			struct known_name *slot = add_known_name(op->name);
			if (!slot->op)
				slot->op = op;
		}
	for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++, count++)
		add_known_name(ignored[i])->ignored = true;
	for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++, count++)
		add_known_name(renames[i][0])->rename = renames[i][1];
	if (count * 2 > KNOWN_NAME_SLOTS)
		abort(); /* the tables outgrew the index: raise KNOWN_NAME_SLOTS */
}

static const struct known_name *known_name(const char *name)
{
	pthread_once(&known_names_once, index_known_names);
	const struct known_name *slot = known_name_slot(name);
	return slot->name ? slot : NULL;
}

static bool is_ignored(const char *name)
{
	const struct known_name *known = known_name(name);
	return known && known->ignored;
}

static void canonical_name(char *name, size_t size)
{
	const struct known_name *known = known_name(name);
	if (known && known->rename)
		snprintf(name, size, "%s", known->rename);
	else
		rename_memory(name, size);
}

/* The handler of the mnemonic NAME as the disassembler prints it (NAME becomes gfx11's
 * spelling without the encoding suffix); whether it is an SDWA form. */
bool emu_strip_encoding_suffix(char *name)
{
	/* The encoding suffix says how it was encoded, not what it does. */
	static const char *const suffixes[] = {"_e64_dpp", "_e32_dpp", "_dpp8", "_dpp", "_sdwa",
	                                       "_e32", "_e64"};
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		size_t k = strlen(suffixes[i]), len = strlen(name);
		if (len > k && strcmp(name + len - k, suffixes[i]) == 0) {
			name[len - k] = 0;
			return strcmp(suffixes[i], "_sdwa") == 0;
		}
	}
	return false;
}

static bool find_handler(char *name, size_t size, struct opcode *op, bool *sdwa)
{
	*sdwa = false;
	if (is_ignored(name)) {
		*op = nothing;
		return true;
	}
	*sdwa = emu_strip_encoding_suffix(name);
	canonical_name(name, size);
	return emu_find_opcode(name, op);
}

bool emu_mnemonic_emulated(const char *mnemonic)
{
	char name[64];
	struct opcode op;
	bool sdwa;

	if (strncmp(mnemonic, "v_dual_", 7) == 0)
		snprintf(name, sizeof name, "v_%s", mnemonic + 7);
	else
		snprintf(name, sizeof name, "%s", mnemonic);
	return find_handler(name, sizeof name, &op, &sdwa);
}

/* Decodes one instruction's text (without a VOPD partner) into IN; false when some part of
 * it has no meaning here, which leaves IN to report it. */
static bool decode_text(const char *text, struct insn *in, int generation)
{
	char name[64], rest[256];
	size_t n = strcspn(text, " ");
	if (n == 0 || n >= sizeof name)
		return false;
	memcpy(name, text, n);
	name[n] = 0;
	snprintf(rest, sizeof rest, "%s", text[n] ? text + n + 1 : "");
	struct opcode op;
	bool sdwa;
	if (!find_handler(name, sizeof name, &op, &sdwa))
		return false;
	in->sdwa = sdwa;
	in->exec = op.exec;
	if (op.exec == nothing.exec)
		return true;
	in->op = op.op;
	in->row_mask = in->bank_mask = 0xf;
	in->src_sel[0] = in->src_sel[1] = in->dst_sel = SDWA_DWORD;
	char *parts[MAX_OPERANDS + 2];
	int count = rest[0] ? split_operands(rest, parts, MAX_OPERANDS + 2) : 0;
	if (count > MAX_OPERANDS)
		return false;
	for (int i = 0; i < count; i++) {
		/* The last operand carries the modifiers, separated by spaces. */
		char *p = parts[i], *mods = NULL;
		if (i == count - 1) {
			int depth = 0;
			for (char *q = p; *q; q++) {
				if (*q == '(' || *q == '[')
					depth++;
				else if (*q == ')' || *q == ']')
					depth--;
				else if (*q == ' ' && depth == 0) {
					*q = 0;
					mods = q + 1;
					break;
				}
			}
		}
		if (*p) {
			if (emu_parse_operand(p, &in->o[in->nopnd], generation) == 0)
				in->nopnd++;
			else if (!parse_modifier(p, in))
				return false;
		}
		while (mods && *mods) {
			char *m = mods;
			int depth = 0;
			for (; *mods; mods++) {
				if (*mods == '(' || *mods == '[')
					depth++;
				else if (*mods == ')' || *mods == ']')
					depth--;
				else if (*mods == ' ' && depth == 0)
					break;
			}
			if (*mods)
				*mods++ = 0;
			if (*m && !parse_modifier(m, in))
				return false;
		}
	}
	/* a WMMA this generation lacks, or with the other generation's widths, is not emulated */
	return emu_matrix_form_known(in, generation);
}

static void not_decoded(struct wave *w, const struct insn *in)
{
	emu_not_emulated(w, in);
}

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;

static void init_llvm(void)
{
	LLVMInitializeAMDGPUTargetInfo();
	LLVMInitializeAMDGPUTargetMC();
	LLVMInitializeAMDGPUDisassembler();
}

/* LLVM 22 prints the K constant of v_fmaak and v_fmamk (VOP2, and on RDNA3 and RDNA4 either
 * half of a VOPD) as an inline constant's value when its bits are 0x80 to 0xff (0xf0 as 0.5's
 * bits), and crashes on 0xff in the f16 forms. Such a constant is decoded from STAND_IN_K and
 * its bits written back into the text. The offset of the constant in the instruction at
 * BYTES when it is such a one, else 0. */
enum { STAND_IN_K = 0x5a5a5a5a };

static unsigned misread_k_constant(const uint8_t *bytes, int generation)
{
	uint32_t word, k;
	unsigned at = 0;

	memcpy(&word, bytes, 4);
	if (!(word >> 31)) {
		unsigned op = word >> 25 & 0x3f; /* v_fmamk_f32, v_fmaak_f32, v_fmamk_f16, v_fmaak_f16 */
		at = op == 0x2c || op == 0x2d || op == 0x37 || op == 0x38 ? 4 : 0;
	} else if (generation >= 11 && word >> 26 == 0x32) {
		unsigned x = word >> 22 & 0xf, y = word >> 17 & 0x1f; /* 1: fmaak, 2: fmamk */
		at = x == 1 || x == 2 || y == 1 || y == 2 ? 8 : 0;
	}
	if (!at)
		return 0;
	memcpy(&k, bytes + at, 4);
	return k >= 0x80 && k <= 0xff ? at : 0;
}

/* The stand-in's text in LINE replaced by the constant's bits K. */
static void restore_k_constant(char *line, size_t size, uint32_t k)
{
	char stand_in[16], *at;
	size_t n;

	snprintf(stand_in, sizeof stand_in, "0x%x", STAND_IN_K);
	if (!(at = strstr(line, stand_in)))
		return;
	n = strlen(stand_in);
	char rest[512];
	snprintf(rest, sizeof rest, "%s", at + n);
	snprintf(at, size - (size_t)(at - line), "0x%x%s", k, rest);
}

/* LLVM 22 crashes printing gfx12's barrier SOP1 instructions (s_barrier_signal,
 * s_barrier_signal_isfirst, s_get_barrier_state and the two after them, opcodes 0x4e to
 * 0x52) with a literal operand, and writes below its stack (address -125, which kills the
 * process and its sanitizer's handler) printing gfx10's SDWA forms (src0 0xf9 of a VOP1,
 * VOP2 or VOPC word) whose dst_sel, src0_sel or src1_sel is 7, which names no selector:
 * such a word is no instruction here. */
static bool crashes_printer(const uint8_t *bytes, int generation)
{
	uint32_t word, sdwa;

	memcpy(&word, bytes, 4);
	memcpy(&sdwa, bytes + 4, 4);
	unsigned op = word >> 8 & 0xff;
	if (generation == 10 && !(word >> 31) && (word & 0x1ff) == 0xf9) {
		bool vopc = word >> 25 == 0x3e;  /* its bits 15:8 are SDST, not dst_sel */
		return (sdwa >> 16 & 7) == 7 || (sdwa >> 24 & 7) == 7 || (!vopc && (sdwa >> 8 & 7) == 7);
	}
	return generation >= 12 && (word & 0xff800000u) == 0xbe800000u && op >= 0x4e && op <= 0x52 &&
	       (word & 0xff) == 0xff;
}

size_t emu_disassemble(void *disassembler, const uint8_t *bytes, size_t left, uint64_t pc,
                       int generation, char *line, size_t size)
{
	uint8_t window[2 * MAX_INSTRUCTION_BYTES] = {0};
	/* LLVM 22 reads past the bytes it is given where an instruction's literal would lie
	 * beyond them (and crashes): it is given zeros there, and an instruction that needs
	 * them is no instruction of this code. */
	memcpy(window, bytes, left < MAX_INSTRUCTION_BYTES ? left : MAX_INSTRUCTION_BYTES);
	if (crashes_printer(window, generation))
		return 0;
	unsigned k_at = misread_k_constant(window, generation);
	uint32_t k = 0, stand_in = STAND_IN_K;
	if (k_at) {
		memcpy(&k, window + k_at, 4);
		memcpy(window + k_at, &stand_in, 4);
	}
	size_t len = LLVMDisasmInstruction(disassembler, window, sizeof window, pc, line, size);
	if (len && k_at)
		restore_k_constant(line, size, k);
	return len > left ? 0 : len;
}

static bool is_branch(const char *text)
{
	return strncmp(text, "s_branch ", 9) == 0 || strncmp(text, "s_cbranch_", 10) == 0;
}

/* LLVM's disassembler for a processor takes longer to make (its tables) than most code
 * objects take to decode: each one made is kept in a list and lent to one decoder at a time. */
struct disassembler {
	char processor[16];
	LLVMDisasmContextRef context;
	bool lent;
	struct disassembler *next;
};
static struct disassembler *disassemblers;
static pthread_mutex_t disassemblers_lock = PTHREAD_MUTEX_INITIALIZER;

static struct disassembler *borrow_disassembler(const char *processor)
{
	struct disassembler *d;

	pthread_once(&llvm_once, init_llvm);
	pthread_mutex_lock(&disassemblers_lock);
	for (d = disassemblers; d && (d->lent || strcmp(d->processor, processor)); d = d->next)
		;
	if (d)
		d->lent = true;
	pthread_mutex_unlock(&disassemblers_lock);
	if (d || strlen(processor) >= sizeof d->processor)
		return d;
	LLVMDisasmContextRef context = LLVMCreateDisasmCPUFeatures("amdgcn-amd-amdhsa", processor,
	                                                           "+wavefrontsize32", NULL, 0, NULL, NULL);
	if (!context || !(d = calloc(1, sizeof *d))) {
		if (context)
			LLVMDisasmDispose(context);
		return NULL;
	}
	snprintf(d->processor, sizeof d->processor, "%s", processor);
	d->context = context;
	d->lent = true;
	pthread_mutex_lock(&disassemblers_lock);
	d->next = disassemblers;
	disassemblers = d;
	pthread_mutex_unlock(&disassemblers_lock);
	return d;
}

static void give_back_disassembler(struct disassembler *d)
{
	pthread_mutex_lock(&disassemblers_lock);
	d->lent = false;
	pthread_mutex_unlock(&disassemblers_lock);
}

enum zc_emu_status emu_decode(struct zc_emu_object *o, uint64_t text_start, uint64_t text_size,
                              char *error)
{
	struct disassembler *disassembler = borrow_disassembler(o->processor);
	LLVMDisasmContextRef dc = disassembler ? disassembler->context : NULL;
	if (!dc) {
		snprintf(error, ZC_EMU_ERROR_SIZE, "LLVM has no disassembler for %s", o->processor);
		return ZC_EMU_INVALID_VALUE;
	}
	o->text_start = text_start;
	o->index_size = text_size / 4 + 1;
	o->index_of = malloc(o->index_size * sizeof *o->index_of);
	uint64_t cap = text_size / 4 + 1;
	o->code = calloc(cap, sizeof *o->code);
	size_t texts_cap = text_size * 16 + 64, texts_used = 0;
	o->texts = malloc(texts_cap);
	size_t *text_at = malloc(cap * sizeof *text_at);
	if (!o->index_of || !o->code || !o->texts || !text_at) {
		give_back_disassembler(disassembler);
		free(text_at);
		snprintf(error, ZC_EMU_ERROR_SIZE, "out of memory decoding %llu bytes of code",
		         (unsigned long long)text_size);
		return ZC_EMU_INVALID_VALUE;
	}
	for (uint64_t i = 0; i < o->index_size; i++)
		o->index_of[i] = UINT32_MAX;
	for (uint64_t pc = text_start; pc < text_start + text_size;) {
		char line[512];
		size_t len = emu_disassemble(dc, o->memory + pc, text_start + text_size - pc, pc,
		                             o->generation, line, sizeof line);
		struct insn *in = &o->code[o->ncode];
		if (len == 0) {
			/* Data or padding inside the text: a word that is never executed. */
			uint32_t word;
			memcpy(&word, o->memory + pc, 4);
			len = 4;
			snprintf(line, sizeof line, ".long 0x%08x", word);
		}
		const char *t = line;
		while (*t == '\t' || *t == ' ')
			t++;
		size_t tl = strlen(t);
		while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\n'))
			tl--;
		if (texts_used + tl + 1 > texts_cap) {
			texts_cap = (texts_cap + tl + 1) * 2;
			char *grown = realloc(o->texts, texts_cap);
			if (!grown)
				break;
			o->texts = grown;
		}
		memcpy(o->texts + texts_used, t, tl);
		o->texts[texts_used + tl] = 0;
		text_at[o->ncode] = texts_used;
		texts_used += tl + 1;
		in->address = (uint32_t)pc;
		in->length = (uint8_t)len;
		o->index_of[(pc - text_start) / 4] = o->ncode;
		o->ncode++;
		pc += len;
	}
	give_back_disassembler(disassembler);
	/* Second pass, once texts no longer move: parse each instruction, resolve branches. */
	for (uint32_t i = 0; i < o->ncode; i++) {
		struct insn *in = &o->code[i];
		in->text = o->texts + text_at[i];
		in->cost = emu_issue_cost(in->text, o->generation);
		const char *sep = strstr(in->text, " :: ");
		bool ok;
		if (sep) {
			char x[256], y[256];
			struct insn *second = calloc(1, sizeof *second);
			snprintf(x, sizeof x, "v_%.*s", (int)(sep - in->text - 7), in->text + 7);
			snprintf(y, sizeof y, "v_%s", sep + 4 + 7);
			ok = second && strncmp(in->text, "v_dual_", 7) == 0 &&
			     strncmp(sep + 4, "v_dual_", 7) == 0 && decode_text(x, in, o->generation) &&
			     decode_text(y, second, o->generation);
			if (second) {
				second->text = in->text;
				second->address = in->address;
				in->pair = second;
				in->first = in->exec;
				in->exec = emu_vopd;
			}
		} else {
			ok = decode_text(in->text, in, o->generation);
		}
		if (ok && is_branch(in->text)) {
			int64_t target = (int64_t)in->address + 4 + (int64_t)(int16_t)in->o[0].c32 * 4;
			in->target = target < 0 ? UINT32_MAX : emu_instruction_at(o, (uint64_t)target);
			ok = in->target != UINT32_MAX;
		}
		if (ok && in->sdwa) {
			in->first = in->exec;
			in->exec = emu_sdwa;
		}
		if (!ok) {
			in->exec = not_decoded;
			free((void *)in->pair);
			in->pair = NULL;
		}
	}
	free(text_at);
	return ZC_EMU_OK;
}

size_t zc_emu_unemulated(const struct zc_emu_object *o,
                         void (*each)(const char *text, uint64_t address, void *arg), void *arg)
{
	size_t n = 0;
	for (uint32_t i = 0; i < o->ncode; i++) {
		const struct insn *in = &o->code[i];
		/* words the disassembler could not read are data, never executed */
		if (in->exec != not_decoded || strncmp(in->text, ".long ", 6) == 0)
			continue;
		n++;
		if (each)
			each(in->text, in->address, arg);
	}
	return n;
}

bool emu_find_opcode(const char *name, struct opcode *out)
{
	const struct known_name *known = known_name(name);
	if (known && known->op) {
		*out = *known->op;
		return true;
	}
	return emu_compare_opcode(name, out);
}
