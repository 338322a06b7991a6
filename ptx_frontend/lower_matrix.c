/* The warp's matrix fragments: ldmatrix and stmatrix (to and from shared memory) and
 * movmatrix (a transpose among the lanes) of 8x8 matrices of 16-bit elements, in the
 * fragment layout of the PTX ISA. For matrix i of ldmatrix and stmatrix, lanes 8i to 8i+7
 * give the addresses of its rows (16 bytes each); lane l holds the 32 bits of row l/4,
 * columns 2(l%4) and 2(l%4)+1, or with .trans those of column l/4, rows 2(l%4) and
 * 2(l%4)+1. Every target shares one lowering: each lane takes the row address it needs
 * from the lane that gave it (a warp shuffle) and reads or writes its own elements there. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "lower.h"
#include "matrix.h"

LLVMValueRef shuffle_idx(struct lower *L, LLVMValueRef value, LLVMValueRef lane)
{
	LLVMValueRef args[4] = { const32(L, 0xffffffffu), value, lane, const32(L, 0x1f) };

	return LLVMBuildTrunc(L->b, call_builtin(L, "__zc_shfl_sync_idx", ll_int(L, 64), args, 4),
	                      ll_int(L, 32), "");
}

/* A 64-bit integer of lane `from`, in two halves. */
static LLVMValueRef shuffle_idx_i64(struct lower *L, LLVMValueRef n, LLVMValueRef from)
{
	LLVMTypeRef i64 = ll_int(L, 64);
	LLVMValueRef lo = shuffle_idx(L, LLVMBuildTrunc(L->b, n, ll_int(L, 32), ""), from);
	LLVMValueRef hi = shuffle_idx(L, LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, n,
	                              LLVMConstInt(i64, 32, 0), ""), ll_int(L, 32), ""), from);

	return LLVMBuildOr(L->b, LLVMBuildZExt(L->b, lo, i64, ""),
	                   LLVMBuildShl(L->b, LLVMBuildZExt(L->b, hi, i64, ""), LLVMConstInt(i64, 32, 0), ""), "");
}

/* The address lane `from` gave, as a pointer of the type `mine` has: one shuffle where
 * pointers of its address space have 32 bits (AMD GPUs' shared memory), else two. */
static LLVMValueRef address_from(struct lower *L, LLVMValueRef mine, LLVMValueRef from)
{
	LLVMTargetDataRef layout = LLVMGetModuleDataLayout(L->mod);  /* the module's; not parsed again */
	unsigned bits = LLVMPointerSizeForAS(layout, LLVMGetPointerAddressSpace(LLVMTypeOf(mine))) * 8;
	LLVMValueRef n;

	if (bits == 32) {
		n = shuffle_idx(L, LLVMBuildPtrToInt(L->b, mine, ll_int(L, 32), ""), from);
		return LLVMBuildIntToPtr(L->b, n, LLVMTypeOf(mine), "");
	}
	n = shuffle_idx_i64(L, LLVMBuildPtrToInt(L->b, mine, ll_int(L, 64), ""), from);
	return LLVMBuildIntToPtr(L->b, n, LLVMTypeOf(mine), "");
}

static LLVMValueRef at_byte(struct lower *L, LLVMValueRef p, LLVMValueRef offset)
{
	LLVMValueRef o = LLVMBuildZExt(L->b, offset, ll_int(L, 64), "");

	return LLVMBuildGEP2(L->b, ll_int(L, 8), p, &o, 1, "");
}

static unsigned matrix_count(struct lower *L)
{
	if (has_mod(L, "m16n16") || has_mod(L, "m8n16") || has_mod(L, "m16n8"))
		lower_fail(L, "%s: the 8-bit, 6-bit and 4-bit shapes (sm_100a) are not supported: their fragment "
		           "layouts, which the PTX ISA gives only as figures, could not be checked on a GPU",
		           L->insn->opcode);
	if (!has_mod(L, "m8n8") || !has_mod(L, "b16"))
		lower_unsupported(L);
	return has_mod(L, "x4") ? 4 : has_mod(L, "x2") ? 2 : has_mod(L, "x1") ? 1 : 0;
}

static const struct ptx_operand *fragment(struct lower *L, const struct ptx_operand *regs,
                                          unsigned n, unsigned i)
{
	if (regs->kind == PTX_OP_BRACES) {
		if (regs->count != n)
			lower_fail(L, "%s of %u matrices needs %u registers", L->insn->opcode, n, n);
		return &regs->items[i];
	}
	if (n != 1)
		lower_fail(L, "%s of %u matrices needs %u registers", L->insn->opcode, n, n);
	return regs;
}

/* ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared{::cta}}.b16 d, [a] and
 * stmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared{::cta}}.b16 [a], d */
static bool lower_ldst_matrix(struct lower *L, bool store)
{
	unsigned n = matrix_count(L);
	bool trans = has_mod(L, "trans");
	const struct ptx_operand *regs = op(L, store ? 1 : 0);
	LLVMValueRef mine, lane, quad, pair;

	if (!n)
		lower_unsupported(L);
	expect_operands(L, 2);
	mine = memory_address(L, op(L, store ? 0 : 1), insn_space(L));
	lane = call_builtin(L, "__zc_laneid", ll_int(L, 32), NULL, 0);
	quad = LLVMBuildLShr(L->b, lane, const32(L, 2), "");  /* l/4 */
	pair = LLVMBuildAnd(L->b, lane, const32(L, 3), "");   /* l%4 */
	for (unsigned i = 0; i < n; i++) {
		const struct ptx_operand *reg = fragment(L, regs, n, i);

		if (!trans) {
			LLVMValueRef row = address_from(L, mine, LLVMBuildAdd(L->b, const32(L, 8 * i), quad, ""));
			LLVMValueRef p = at_byte(L, row, LLVMBuildShl(L->b, pair, const32(L, 2), ""));

			if (store)
				LLVMSetAlignment(LLVMBuildStore(L->b, operand_value(L, reg, PTX_TYPE_B32), p), 4);
			else {
				LLVMValueRef v = LLVMBuildLoad2(L->b, ll_int(L, 32), p, "");
				LLVMSetAlignment(v, 4);
				operand_store(L, reg, v, PTX_TYPE_B32);
			}
			continue;
		}
		/* Rows 2(l%4) and 2(l%4)+1, column l/4: the low and the high half. */
		LLVMValueRef first = LLVMBuildAdd(L->b, const32(L, 8 * i),
		                                  LLVMBuildShl(L->b, pair, const32(L, 1), ""), "");
		LLVMValueRef column = LLVMBuildShl(L->b, quad, const32(L, 1), "");
		LLVMValueRef halves[2], value = store ? operand_value(L, reg, PTX_TYPE_B32) : NULL;

		for (unsigned h = 0; h < 2; h++) {
			LLVMValueRef row = address_from(L, mine, LLVMBuildAdd(L->b, first, const32(L, h), ""));
			LLVMValueRef p = at_byte(L, row, column);

			if (store) {
				LLVMValueRef half = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, value,
				                                   const32(L, 16 * h), ""), ll_int(L, 16), "");
				LLVMSetAlignment(LLVMBuildStore(L->b, half, p), 2);
			} else {
				halves[h] = LLVMBuildLoad2(L->b, ll_int(L, 16), p, "");
				LLVMSetAlignment(halves[h], 2);
				halves[h] = LLVMBuildZExt(L->b, halves[h], ll_int(L, 32), "");
			}
		}
		if (!store)
			operand_store(L, reg, LLVMBuildOr(L->b, halves[0], LLVMBuildShl(L->b, halves[1],
			              const32(L, 16), ""), ""), PTX_TYPE_B32);
	}
	return true;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: the fragment of the transposed matrix. Lane
 * l's halves are A[2(l%4)][l/4] and A[2(l%4)+1][l/4], and A[r][c] is half c%2 of lane
 * 4r + c/2's register. */
static bool lower_movmatrix(struct lower *L)
{
	LLVMValueRef a, lane, quad, pair, half, result = NULL;

	if (!has_mod(L, "m8n8") || !has_mod(L, "trans") || !has_mod(L, "b16"))
		lower_unsupported(L);
	expect_operands(L, 2);
	a = operand_value(L, op(L, 1), PTX_TYPE_B32);
	lane = call_builtin(L, "__zc_laneid", ll_int(L, 32), NULL, 0);
	quad = LLVMBuildLShr(L->b, lane, const32(L, 2), "");
	pair = LLVMBuildAnd(L->b, lane, const32(L, 3), "");
	/* the half of the source register: column l/4's parity, as a shift of 0 or 16 */
	half = LLVMBuildShl(L->b, LLVMBuildAnd(L->b, quad, const32(L, 1), ""), const32(L, 4), "");
	for (unsigned h = 0; h < 2; h++) {
		LLVMValueRef row = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, pair, const32(L, 1), ""),
		                                const32(L, h), "");
		LLVMValueRef from = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, row, const32(L, 2), ""),
		                                 LLVMBuildLShr(L->b, quad, const32(L, 1), ""), "");
		LLVMValueRef word = shuffle_idx(L, a, from);
		LLVMValueRef element = LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, word, half, ""),
		                                    const32(L, 0xffff), "");

		result = h ? LLVMBuildOr(L->b, result, LLVMBuildShl(L->b, element, const32(L, 16), ""), "")
		           : element;
	}
	operand_store(L, op(L, 0), result, PTX_TYPE_B32);
	return true;
}

/* Element e (0 or 1) of a register of two 16-bit floats, as a float. */
LLVMValueRef half_as_float(struct lower *L, LLVMValueRef word, unsigned e, bool bf16)
{
	LLVMValueRef bits = LLVMBuildLShr(L->b, word, const32(L, 16 * e), "");

	if (bf16)
		return LLVMBuildBitCast(L->b, LLVMBuildShl(L->b, bits, const32(L, 16), ""),
		                        LLVMFloatTypeInContext(L->ctx), "");
	bits = LLVMBuildTrunc(L->b, bits, ll_int(L, 16), "");
	return LLVMBuildFPExt(L->b, LLVMBuildBitCast(L->b, bits, LLVMHalfTypeInContext(L->ctx), ""),
	                      LLVMFloatTypeInContext(L->ctx), "");
}

LLVMValueRef float_as_half(struct lower *L, LLVMValueRef f)
{
	LLVMValueRef h = LLVMBuildFPTrunc(L->b, f, LLVMHalfTypeInContext(L->ctx), "");

	return LLVMBuildZExt(L->b, LLVMBuildBitCast(L->b, h, ll_int(L, 16), ""), ll_int(L, 32), "");
}

static const struct ptx_operand *registers(struct lower *L, unsigned i, unsigned n)
{
	const struct ptx_operand *o = op(L, i);

	if (o->kind != PTX_OP_BRACES || o->count != n)
		lower_fail(L, "%s: operand %u needs %u registers", L->insn->opcode, i + 1, n);
	return o;
}

/* Element e of a register of 16- or 8-bit elements of type t, as a float or (8-bit
 * integers) an i32; or the tf32 a register holds, as the float of its 19 high bits (the 13
 * low mantissa bits are not read). */
LLVMValueRef element_of(struct lower *L, LLVMValueRef word, unsigned e, enum ptx_type t)
{
	if (t == PTX_TYPE_TF32)
		return LLVMBuildBitCast(L->b, LLVMBuildAnd(L->b, word, const32(L, 0xffffe000u), ""),
		                        LLVMFloatTypeInContext(L->ctx), "");
	if (t == PTX_TYPE_S8 || t == PTX_TYPE_U8) {
		LLVMValueRef byte = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, word, const32(L, 8 * e), ""),
		                                   ll_int(L, 8), "");
		return t == PTX_TYPE_S8 ? LLVMBuildSExt(L->b, byte, ll_int(L, 32), "")
		                        : LLVMBuildZExt(L->b, byte, ll_int(L, 32), "");
	}
	return half_as_float(L, word, e, t == PTX_TYPE_BF16);
}

/* The 8-bit float types of an mma (e4m3, e5m2; builtins_convert.c's format numbers), in the
 * order written: A's, then B's; -1 where there is none. */
static void narrow_types(struct lower *L, int *a, int *b)
{
	*a = *b = -1;
	for (uint32_t i = 0; i < L->insn->nmods; i++) {
		const char *m = L->insn->mods[i];
		int format = !strcmp(m, "e4m3") ? 0 : !strcmp(m, "e5m2") ? 1 : -1;
		if (format >= 0)
			*(*a < 0 ? a : b) = format;
	}
}

/* Element e of a register of four 8-bit floats of the format: exact as a float. */
LLVMValueRef narrow_as_float(struct lower *L, LLVMValueRef word, unsigned e, int format)
{
	LLVMValueRef args[2] = {
		LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, word, const32(L, 8 * e), ""), const32(L, 0xff), ""),
		const32(L, (uint32_t)format),
	};

	return half_as_float(L, call_builtin(L, "__zc_cvt_f16_from_narrow", ll_int(L, 32), args, 2), 0, false);
}

/* The width in bits of the which-th sub-byte integer type an instruction names (s4, u4: 4;
 * b1: 1), 0 when there is none; *is_signed for s4. */
static unsigned sub_byte_type(struct lower *L, unsigned which, bool *is_signed)
{
	for (uint32_t i = 0; i < L->insn->nmods; i++) {
		const char *m = L->insn->mods[i];
		if ((!strcmp(m, "s4") || !strcmp(m, "u4") || !strcmp(m, "b1")) && which-- == 0) {
			*is_signed = m[0] == 's';
			return m[1] == '4' ? 4 : 1;
		}
	}
	*is_signed = false;
	return 0;
}

/* Element e of a register of `bits`-bit integers, sign- or zero-extended to an i32. */
static LLVMValueRef small_integer(struct lower *L, LLVMValueRef word, unsigned e, unsigned bits, bool is_signed)
{
	LLVMValueRef v = LLVMBuildShl(L->b, word, const32(L, 32 - bits * (e + 1)), "");

	return is_signed ? LLVMBuildAShr(L->b, v, const32(L, 32 - bits), "")
	                 : LLVMBuildLShr(L->b, v, const32(L, 32 - bits), "");
}

/* What an mma of lower_mma's or lower_mma_sparse's forms multiplies: the element types (A's
 * and B's: f16 standing for the 8-bit floats, s8 for the sub-byte integers), how A's and B's
 * elements lie in a register (p of them; a chunk of K is 4p), K and the rows of A over 8. */
struct mma_form {
	enum ptx_type dt, at, bt, ct;
	int narrow_a, narrow_b;      /* the 8-bit float formats, -1 for none */
	unsigned sub_bits[2];        /* A's and B's: s4, u4: 4; b1: 1; else 0 */
	bool sub_signed[2];
	bool narrow, sub, binary, integer, halves, tf32, popc_and;
	unsigned p, chunk, k, rows;
};

/* The mma shapes of an element type packed p to a register: with 16 rows, K of one or two
 * chunks of 4p, twice that for a sparse A; with 8 rows (dense integers only), one chunk. */
static unsigned mma_k(struct lower *L, unsigned p, bool integer, bool sparse, unsigned *rows)
{
	char name[32];
	unsigned chunk = 4 * p * (sparse ? 2 : 1);

	*rows = 2;
	snprintf(name, sizeof name, "m16n8k%u", 2 * chunk);
	if (has_mod(L, name))
		return 2 * chunk;
	snprintf(name, sizeof name, "m16n8k%u", chunk);
	if (has_mod(L, name))
		return chunk;
	*rows = 1;
	snprintf(name, sizeof name, "m8n8k%u", chunk);
	return integer && !sparse && has_mod(L, name) ? chunk : 0;
}

/* The form the modifiers name; false for one not lowered. */
static bool mma_form_of(struct lower *L, struct mma_form *f, bool sparse)
{
	narrow_types(L, &f->narrow_a, &f->narrow_b);
	f->sub_bits[0] = sub_byte_type(L, 0, &f->sub_signed[0]);
	f->sub_bits[1] = sub_byte_type(L, 1, &f->sub_signed[1]);
	f->narrow = f->narrow_a >= 0 && f->narrow_b >= 0;
	f->sub = f->sub_bits[0] && f->sub_bits[1];
	f->binary = f->sub && f->sub_bits[0] == 1;
	f->dt = mod_type(L, 0);
	f->at = f->narrow ? PTX_TYPE_F16 : f->sub ? PTX_TYPE_S8 : mod_type(L, 1);
	f->bt = f->narrow ? PTX_TYPE_F16 : f->sub ? PTX_TYPE_S8 : mod_type(L, 2);
	f->ct = mod_type(L, f->narrow || f->sub ? 1 : 3);
	f->integer = (f->at == PTX_TYPE_S8 || f->at == PTX_TYPE_U8) && (f->bt == PTX_TYPE_S8 || f->bt == PTX_TYPE_U8);
	f->halves = (f->at == PTX_TYPE_F16 || f->at == PTX_TYPE_BF16) && f->bt == f->at;
	f->tf32 = f->at == PTX_TYPE_TF32 && f->bt == f->at;
	f->popc_and = has_mod(L, "and");
	f->p = f->sub ? 32 / f->sub_bits[0] : f->integer || f->narrow ? 4 : f->tf32 ? 1 : 2;
	f->chunk = 4 * f->p;
	f->k = mma_k(L, f->p, f->integer, sparse, &f->rows);
	bool float_c = f->ct == PTX_TYPE_F32 || f->ct == PTX_TYPE_F16, float_d = f->dt == PTX_TYPE_F32 || f->dt == PTX_TYPE_F16;
	bool f32_only = f->at == PTX_TYPE_BF16 || f->tf32;
	return f->k && has_mod(L, "row") && has_mod(L, "col") && (f->integer || f->halves || f->tf32) &&
	       (!f->narrow || !sparse || (f->k == 64 && f->dt == PTX_TYPE_F32)) && (!f->sub || f->sub_bits[0] == f->sub_bits[1]) &&
	       (!sparse || !f->binary) &&
	       f->binary == (has_mod(L, "popc") && (f->popc_and || has_mod(L, "xor"))) &&
	       !(f->binary && has_mod(L, "satfinite")) && !(f->tf32 && has_mod(L, "satfinite")) &&
	       rounding_mode_of(L) == ROUND_NEAREST &&  /* a directed .rnd is f64's alone */
	       (!f->integer || (f->dt == PTX_TYPE_S32 && f->ct == PTX_TYPE_S32)) &&
	       (!f->halves || (float_c && float_d)) &&
	       (!f32_only || (f->dt == PTX_TYPE_F32 && f->ct == PTX_TYPE_F32));
}

/* Element e of a word of A (which 0) or B (1), as the float or i32 its products take. */
static LLVMValueRef mma_element(struct lower *L, const struct mma_form *f, LLVMValueRef word, unsigned e,
                                unsigned which)
{
	if (f->narrow)
		return narrow_as_float(L, word, e, which ? f->narrow_b : f->narrow_a);
	if (f->sub)
		return small_integer(L, word, e, f->sub_bits[which], f->sub_signed[which]);
	return element_of(L, word, e, which ? f->bt : f->at);
}

/* acc + x y: exactly in integers, else in f32 with one rounding. */
static LLVMValueRef mma_add_product(struct lower *L, const struct mma_form *f, LLVMValueRef acc, LLVMValueRef x,
                                    LLVMValueRef y)
{
	LLVMTypeRef f32 = LLVMFloatTypeInContext(L->ctx);
	LLVMValueRef args[3] = { x, y, acc };

	if (f->integer)
		return LLVMBuildAdd(L->b, acc, LLVMBuildMul(L->b, x, y, ""), "");
	return call_intrinsic(L, "llvm.fma", &f32, 1, args, 3);
}

/* The lane's row group g = l/4 and thread in the group t = l%4. */
static void group_and_thread(struct lower *L, LLVMValueRef *g, LLVMValueRef *t)
{
	LLVMValueRef lane = call_builtin(L, "__zc_laneid", ll_int(L, 32), NULL, 0);

	*g = LLVMBuildLShr(L->b, lane, const32(L, 2), "");
	*t = LLVMBuildAnd(L->b, lane, const32(L, 3), "");
}

/* The rows of A (g, and g+8) and the columns of B (2t, 2t+1) this lane's C and D hold, from
 * the four lanes of its group that hold A's rows and the four of each column's group:
 * words_a[j][i] is register ai of lane 4g+j, words_b[n][j][i] register bi of lane 4(2t+n)+j. */
static void mma_gather(struct lower *L, LLVMValueRef g, LLVMValueRef t, const LLVMValueRef *a, unsigned na,
                       const LLVMValueRef *b, unsigned nb, LLVMValueRef words_a[4][4], LLVMValueRef words_b[2][4][4])
{
	for (unsigned j = 0; j < 4; j++) {
		LLVMValueRef from = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, g, const32(L, 2), ""), const32(L, j), "");
		for (unsigned i = 0; i < na; i++)
			words_a[j][i] = shuffle_idx(L, a[i], from);
		for (unsigned n = 0; n < 2; n++) {
			LLVMValueRef column = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, t, const32(L, 1), ""), const32(L, n), "");
			LLVMValueRef holder = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, column, const32(L, 2), ""),
			                                   const32(L, j), "");
			for (unsigned i = 0; i < nb; i++)
				words_b[n][j][i] = shuffle_idx(L, b[i], holder);
		}
	}
}

/* C's elements at rows g (and g+8), columns 2t and 2t+1, as the sum starts from them: 0 for
 * integers (C is added to the products' sum at the end), else as floats. */
static void mma_accumulators(struct lower *L, const struct mma_form *f, const struct ptx_operand *co,
                             LLVMValueRef acc[2][2])
{
	for (unsigned r = 0; r < f->rows; r++)
		for (unsigned n = 0; n < 2; n++) {
			if (f->integer)
				acc[r][n] = const32(L, 0);
			else if (f->ct == PTX_TYPE_F32)
				acc[r][n] = operand_value(L, &co->items[2 * r + n], PTX_TYPE_F32);
			else
				acc[r][n] = half_as_float(L, operand_value(L, &co->items[r], PTX_TYPE_B32), n, false);
		}
}

static void mma_store(struct lower *L, const struct mma_form *f, const struct ptx_operand *d,
                      const struct ptx_operand *co, LLVMValueRef acc[2][2])
{
	LLVMTypeRef i32 = ll_int(L, 32);

	for (unsigned r = 0; r < f->rows; r++) {
		if (f->integer) {
			/* At most 64 products of 4 or 8 bits, or 256 of one: the sum is exact in 32
			 * bits, and C + sum saturates (.satfinite) or wraps in one addition. */
			for (unsigned n = 0; n < 2; n++) {
				LLVMValueRef args[2] = { operand_value(L, &co->items[2 * r + n], PTX_TYPE_S32), acc[r][n] };
				LLVMValueRef v = has_mod(L, "satfinite")
				                 ? call_intrinsic(L, "llvm.sadd.sat", &i32, 1, args, 2)
				                 : LLVMBuildAdd(L->b, args[0], args[1], "");
				operand_store(L, &d->items[2 * r + n], v, PTX_TYPE_S32);
			}
		} else if (f->dt == PTX_TYPE_F32) {
			operand_store(L, &d->items[2 * r], acc[r][0], PTX_TYPE_F32);
			operand_store(L, &d->items[2 * r + 1], acc[r][1], PTX_TYPE_F32);
		} else {
			LLVMValueRef pair = LLVMBuildOr(L->b, float_as_half(L, acc[r][0]),
			                                LLVMBuildShl(L->b, float_as_half(L, acc[r][1]),
			                                             const32(L, 16), ""), "");
			operand_store(L, &d->items[r], pair, PTX_TYPE_B32);
		}
	}
}

/* The operands d, a, b, c of a form's registers; an f16 C or D packs two elements a register. */
static void mma_operands(struct lower *L, const struct mma_form *f, unsigned na, unsigned nb,
                         const struct ptx_operand **d, const struct ptx_operand **ao,
                         const struct ptx_operand **bo, const struct ptx_operand **co)
{
	*d = registers(L, 0, f->dt == PTX_TYPE_F16 ? f->rows : 2 * f->rows);
	*ao = registers(L, 1, na);
	*bo = registers(L, 2, nb);
	*co = registers(L, 3, f->ct == PTX_TYPE_F16 ? f->rows : 2 * f->rows);
}

/* A 16x8 product A B of mma's fragments (a[0..3], b[0..1], PTX's layouts) by the
 * processor's matrix instructions: its four words in this lane, as D holds them (f32 or
 * s32). */
/* Whether mma and wgmma may exchange fragments through shared memory (the builtins'
 * staged forms): in a kernel whose blocks have at most 256 threads, which a slice of the
 * builtins' array for each of its 8 warps serves. Device functions may run in any kernel:
 * they shuffle. */
bool matrix_staged(struct lower *L)
{
	const struct ptx_func_attrs *a = &L->func->attrs;
	const uint32_t *n = a->reqntid[0] ? a->reqntid : a->maxntid;

	return L->func->is_entry && n[0] && (uint64_t)n[0] * n[1] * n[2] <= 256;
}

/* The product of A and B by the processor's WMMA, plus C where it is staged (*with_c). */
static void mma_by_instruction(struct lower *L, unsigned form, const LLVMValueRef *a, const LLVMValueRef *b,
                               LLVMValueRef acc[2][2], LLVMValueRef *product, bool *with_c)
{
	LLVMTypeRef i32 = ll_int(L, 32);
	LLVMValueRef words = entry_alloca(L, LLVMArrayType2(i32, 14), 16, "mma"), generic;

	generic = L->target->as_local == L->target->as_generic ? words
	          : LLVMBuildAddrSpaceCast(L->b, words, ll_ptr(L, L->target->as_generic), "");
	*with_c = matrix_staged(L);
	for (unsigned w = 0; w < (*with_c ? 10u : 6u); w++) {  /* A, B and, staged, C */
		LLVMValueRef index = LLVMConstInt(ll_int(L, 64), 4 * w, 0);
		LLVMValueRef v = w < 4 ? a[w] : w < 6 ? b[w - 4] : acc[(w - 6) / 2][(w - 6) % 2];
		LLVMSetAlignment(LLVMBuildStore(L->b, LLVMBuildBitCast(L->b, v, i32, ""),
		                                LLVMBuildGEP2(L->b, ll_int(L, 8), words, &index, 1, "")), 4);
	}
	LLVMValueRef args[2] = { const32(L, form), generic };
	call_builtin(L, *with_c ? "__zc_mma_m16n8_staged" : "__zc_mma_m16n8", LLVMVoidTypeInContext(L->ctx), args, 2);
	for (unsigned w = 0; w < 4; w++) {
		LLVMValueRef index = LLVMConstInt(ll_int(L, 64), 4 * (10 + w), 0);
		product[w] = LLVMBuildLoad2(L->b, i32, LLVMBuildGEP2(L->b, ll_int(L, 8), words, &index, 1, ""), "");
		LLVMSetAlignment(product[w], 4);
	}
}

/* mma.sync.aligned.m16n8k{8,16}.row.col.{f32,f16}.{f16,bf16}.{f16,bf16}.{f32,f16};
 * m16n8k{4,8}.row.col.f32.tf32.tf32.f32; m16n8k{16,32} and m8n8k16 .row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32;
 * the same of 4-bit integers (s4, u4) with twice the K; m16n8k{128,256} and m8n8k128
 * .s32.b1.b1.s32.{xor,and}.popc; and (sm_89) m16n8k{16,32}.row.col.{f32,f16}.{e4m3,e5m2}.{e4m3,e5m2}.{f32,f16}
 * d, a, b, c: D = A B + C for the warp's 16xK (or 8xK) A, Kx8 B and 16x8 (8x8) C. A register holds p
 * elements (1 tf32, 2 of 16 bits, 4 of 8, 8 of 4, 32 of 1); with g = l/4 and t = l%4, lane l holds
 * A[g][pt..pt+p-1] in a0 and A[g+8][...] in a1 (the next 4p columns in a2, a3, and so on; with 8 rows, a0
 * and a1 alone), B[pt..pt+p-1][g] in b0 (the next 4p rows in b1, ...), and C and D at rows g and g+8,
 * columns 2t and 2t+1. Each lane gathers the rows of A and the columns of B
 * it needs from the four lanes that hold them, then adds the products to C one after
 * another: in f32, each with one rounding (a fused multiply-add), which is exact where every
 * partial sum is and otherwise within what the PTX ISA allows, as it leaves the order and
 * precision of the sum open (an f16 D is rounded once from that f32); in integers, exactly
 * (the bits' products: the population count of their xor or and), then added to C
 * wrapping to 32 bits or, with .satfinite, saturating. With matrix instructions (RDNA3,
 * RDNA4), m16n8k16 of f16 or bf16 and m16n8k32 of s8 or u8 (both the same) multiply by the
 * processor's WMMA instead, which takes C too where the fragments are staged through shared
 * memory (kernels of at most 256 threads: __zc_mma_m16n8_staged); elsewhere
 * (__zc_mma_m16n8, by shuffles) C is added to the product after it. */
static bool lower_mma(struct lower *L)
{
	struct mma_form f;
	LLVMTypeRef f32 = LLVMFloatTypeInContext(L->ctx), i32 = ll_int(L, 32);
	LLVMValueRef g, t, a[4] = { 0 }, b[2] = { 0 }, words_a[4][4], words_b[2][4][4], acc[2][2];
	const struct ptx_operand *d, *ao, *bo, *co;

	if (!mma_form_of(L, &f, false))
		lower_unsupported(L);
	expect_operands(L, 4);
	unsigned na = f.rows * (f.k / f.chunk), nb = f.k / f.chunk;
	mma_operands(L, &f, na, nb, &d, &ao, &bo, &co);
	L->chose_matrix_form = true;
	unsigned form = !L->matrix_instructions || f.rows != 2 ? 0
	                : f.halves && !f.narrow && f.k == 16 ? (f.at == PTX_TYPE_F16 ? ZC_WMMA_F16 : ZC_WMMA_BF16)
	                : f.integer && !f.sub && f.k == 32 && f.at == f.bt ? (f.at == PTX_TYPE_S8 ? ZC_WMMA_S8 : ZC_WMMA_U8)
	                : 0;

	for (unsigned i = 0; i < na; i++)
		a[i] = operand_value(L, &ao->items[i], PTX_TYPE_B32);
	for (unsigned i = 0; i < nb; i++)
		b[i] = operand_value(L, &bo->items[i], PTX_TYPE_B32);
	if (!form) {
		group_and_thread(L, &g, &t);
		mma_gather(L, g, t, a, na, b, nb, words_a, words_b);
	}
	mma_accumulators(L, &f, co, acc);
	if (form) {
		LLVMValueRef product[4];
		bool with_c;
		mma_by_instruction(L, form, a, b, acc, product, &with_c);
		for (unsigned r = 0; r < 2; r++)
			for (unsigned n = 0; n < 2; n++) {
				LLVMValueRef p = product[2 * r + n];
				acc[r][n] = f.integer ? p : with_c ? LLVMBuildBitCast(L->b, p, f32, "")
				            : LLVMBuildFAdd(L->b, acc[r][n], LLVMBuildBitCast(L->b, p, f32, ""), "");
			}
	}
	/* 8- and 4-bit integers a register (4 or 8 products) at a time, by dot instructions where
	 * the processor has them */
	bool by_words = f.integer && !f.binary;
	uint32_t signs = f.sub ? f.sub_signed[0] | f.sub_signed[1] << 1
	                       : (f.at == PTX_TYPE_S8) | (f.bt == PTX_TYPE_S8) << 1;
	for (unsigned kk = 0; !form && kk < f.k; kk += f.binary || by_words ? f.p : 1) {
		unsigned j = (kk % f.chunk) / f.p, e = kk % f.p, reg = kk / f.chunk;
		for (unsigned r = 0; r < f.rows; r++)
			for (unsigned n = 0; n < 2; n++) {
				LLVMValueRef wa = words_a[j][f.rows * reg + r], wb = words_b[n][j][reg];
				if (f.binary) {  /* 32 products at once */
					LLVMValueRef bits = f.popc_and ? LLVMBuildAnd(L->b, wa, wb, "") : LLVMBuildXor(L->b, wa, wb, "");
					acc[r][n] = LLVMBuildAdd(L->b, acc[r][n], call_intrinsic(L, "llvm.ctpop", &i32, 1, &bits, 1), "");
					continue;
				}
				if (by_words) {
					LLVMValueRef args[5] = { wa, wb, acc[r][n], const32(L, signs), const32(L, 32 / f.p) };
					acc[r][n] = call_builtin(L, "__zc_dot", i32, args, 5);
					continue;
				}
				acc[r][n] = mma_add_product(L, &f, acc[r][n], mma_element(L, &f, wa, e, 0), mma_element(L, &f, wb, e, 1));
			}
	}
	mma_store(L, &f, d, co, acc);
	return true;
}

void sparse_metadata(struct lower *L, LLVMValueRef metadata, LLVMValueRef g, unsigned selector, unsigned lanes,
                     LLVMValueRef *words)
{
	for (unsigned i = 0; i < lanes; i++)
		words[i] = shuffle_idx(L, metadata, LLVMBuildAdd(L->b, LLVMBuildShl(L->b, g, const32(L, 2), ""),
		                                                 const32(L, selector * lanes + i), ""));
}

LLVMValueRef sparse_position(struct lower *L, const LLVMValueRef *words, bool rows_share_words, unsigned r,
                             unsigned four, unsigned unit)
{
	LLVMValueRef word = rows_share_words ? words[four / 4] : words[r + 2 * (four / 8)];
	unsigned shift = (rows_share_words ? 16 * r + 4 * (four % 4) : 4 * (four % 8)) + 2 * unit;

	return LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, word, const32(L, shift), ""), const32(L, 3), "");
}

/* mma.sp{::ordered_metadata}.sync.aligned.m16n8k{16,32}.row.col.{f32,f16}.{f16,bf16}.{f16,bf16}.{f32,f16},
 * m16n8k{8,16}.row.col.f32.tf32.tf32.f32, m16n8k{32,64}.row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32,
 * m16n8k{64,128} of s4 and u4 likewise and (sm_89) m16n8k64.row.col.{f32,f16}.{e4m3,e5m2}.{e4m3,e5m2}.{f32,f16}
 * d, a, b, c, e, f: D = A B + C for a 16xK A with two zero units in each aligned four of a row, given as the
 * 16xK/2 matrix of the other units, held as mma's dense A of that K/2 is. B, C and D are a dense mma's of K.
 * The metadata counts units of 16 bits where elements have 16 or 32 and of 8 bits where they have 8 or 4: a
 * unit is an element, two of s4 or u4, or half a tf32 (whose A so has one zero in each aligned pair, 1:2:
 * a given tf32 takes positions 0 and 1 of its four, or 2 and 3, and the first's position says which).
 * Metadata e gives each four's two units' positions (2 bits each, the first unit's lowest), 4 bits a four;
 * for group g, the sparsity selector f (a constant) picks which of its lanes give them, as measured on an
 * H200 (tests/programs/NVIDIA_H200_RESULTS.txt): with 16-bit units lane 4g + f n + c/4 holds four c of row
 * g at bit 4(c%4) and of row g+8 at 16 + 4(c%4); with 8-bit ones lane 4g + f n + 2(c/8) holds row g's four
 * c at bit 4(c%8) and the next lane row g+8's, n being the lanes the metadata of two rows needs (K's units
 * over 16). The products of A's given elements with the rows of B their positions pick are added to C in
 * the order A gives them (k order, where the metadata is ordered) as lower_mma adds them; B's rows at A's
 * zeros are not read (NVIDIA does not read them either: a NaN there leaves D alone). */
static bool lower_mma_sparse(struct lower *L)
{
	struct mma_form f;
	LLVMValueRef g, t, a[4], b[4], words_a[4][4], words_b[2][4][4], acc[2][2], meta[4];
	const struct ptx_operand *d, *ao, *bo, *co;

	if (!mma_form_of(L, &f, true))
		lower_fail(L, "mma.sp: the forms lowered are m16n8k16 and m16n8k32 of f16 and bf16, m16n8k8 and "
		           "m16n8k16 of tf32, m16n8k32 and m16n8k64 of s8 and u8, m16n8k64 and m16n8k128 of s4 and "
		           "u4, m16n8k64 of e4m3 and e5m2 into f32 (.row.col; NVIDIA's ptxas takes no other sparse "
		           "8-bit float form, so none could be checked)");
	expect_operands(L, 6);
	unsigned bits = 32 / f.p, unit_bits = bits > 16 ? 16 : bits < 8 ? 8 : bits;
	unsigned n = f.k / f.chunk, lanes = f.k * bits / unit_bits / 16;
	unsigned step = bits > unit_bits ? bits / unit_bits : 1;  /* the positions an element may start at */
	const struct ptx_operand *selector = op(L, 5);
	if (selector->kind != PTX_OP_INT || selector->bits >= 4 / lanes)
		lower_fail(L, "mma.sp: the sparsity selector of this shape is a constant from 0 to %u", 4 / lanes - 1);
	mma_operands(L, &f, n, n, &d, &ao, &bo, &co);
	for (unsigned i = 0; i < n; i++) {
		a[i] = operand_value(L, &ao->items[i], PTX_TYPE_B32);
		b[i] = operand_value(L, &bo->items[i], PTX_TYPE_B32);
	}
	group_and_thread(L, &g, &t);
	mma_gather(L, g, t, a, n, b, n, words_a, words_b);
	sparse_metadata(L, operand_value(L, op(L, 4), PTX_TYPE_B32), g, (unsigned)selector->bits, lanes, meta);
	mma_accumulators(L, &f, co, acc);
	for (unsigned r = 0; r < 2; r++)
		for (unsigned kc = 0; kc < f.k / 2; kc++) {  /* A's given elements */
			unsigned j = (kc % f.chunk) / f.p, reg = kc / f.chunk;
			/* the given unit the element starts in, and its first bit's offset there */
			unsigned unit = kc * bits / unit_bits, within = kc * bits % unit_bits, four = unit / 2;
			LLVMValueRef x = mma_element(L, &f, words_a[j][2 * reg + r], kc % f.p, 0);
			LLVMValueRef position = sparse_position(L, meta, unit_bits == 16, r, four, unit % 2);
			for (unsigned col = 0; col < 2; col++) {
				LLVMValueRef y = NULL;
				for (unsigned u = 0; u < 4; u += step) {  /* B's element at each position the unit may take */
					unsigned kb = ((4 * four + u) * unit_bits + within) / bits;
					LLVMValueRef candidate = mma_element(L, &f, words_b[col][(kb % f.chunk) / f.p][kb / f.chunk],
					                                     kb % f.p, 1);
					y = u ? LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, position, const32(L, u), ""),
					                        candidate, y, "")
					      : candidate;
				}
				acc[r][col] = mma_add_product(L, &f, acc[r][col], x, y);
			}
		}
	mma_store(L, &f, d, co, acc);
	return true;
}

/* Whether the which-th layout modifier (.row or .col) is .row; -1 when there is none. */
static int layout_is_row(struct lower *L, unsigned which)
{
	for (uint32_t i = 0; i < L->insn->nmods; i++) {
		const char *m = L->insn->mods[i];
		if ((!strcmp(m, "row") || !strcmp(m, "col")) && which-- == 0)
			return m[0] == 'r';
	}
	return -1;
}

/* Register `second` of lane `from` where `pick` is not 0, else `first`. */
static LLVMValueRef word_of_two(struct lower *L, LLVMValueRef first, LLVMValueRef second, LLVMValueRef from,
                                LLVMValueRef pick)
{
	LLVMValueRef w0 = shuffle_idx(L, first, from), w1 = shuffle_idx(L, second, from);

	return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntNE, pick, const32(L, 0), ""), w1, w0, "");
}

/* Line `line` (0-7: a row of A, a column of B) of an m8n8k4 f16 fragment (regs[0..1]) of the
 * product whose first lane is `first`, its four elements as floats. Where the fragment runs
 * along lines (A .row, B .col), lane first + 16(line/4) + line%4 holds all four; across them,
 * lane first + 16(line/4) + k holds element k as its (line%4)-th half. */
static void quad_pair_line(struct lower *L, const LLVMValueRef *regs, bool along, LLVMValueRef first,
                           LLVMValueRef line, LLVMValueRef *out)
{
	LLVMValueRef half = LLVMBuildAdd(L->b, first, LLVMBuildShl(L->b, LLVMBuildLShr(L->b, line, const32(L, 2), ""),
	                                                           const32(L, 4), ""), "");
	LLVMValueRef within = LLVMBuildAnd(L->b, line, const32(L, 3), "");

	if (along) {
		LLVMValueRef holder = LLVMBuildAdd(L->b, half, within, "");
		LLVMValueRef words[2] = { shuffle_idx(L, regs[0], holder), shuffle_idx(L, regs[1], holder) };
		for (unsigned k = 0; k < 4; k++)
			out[k] = half_as_float(L, words[k / 2], k % 2, false);
		return;
	}
	LLVMValueRef shift = LLVMBuildShl(L->b, LLVMBuildAnd(L->b, line, const32(L, 1), ""), const32(L, 4), "");
	for (unsigned k = 0; k < 4; k++) {
		LLVMValueRef word = word_of_two(L, regs[0], regs[1], LLVMBuildAdd(L->b, half, const32(L, k), ""),
		                                LLVMBuildAnd(L->b, line, const32(L, 2), ""));
		out[k] = half_as_float(L, LLVMBuildLShr(L->b, word, shift, ""), 0, false);
	}
}

/* mma.sync.aligned.m8n8k4.{row,col}.{row,col}.{f16,f32}.f16.f16.{f16,f32} d, a, b, c (sm_70's form; an f32
 * C needs an f32 D): four products D = A B + C of 8x4 A, 4x8 B and 8x8 C at once, the q-th held by lanes
 * 4q to 4q+3 (rows 0-3 of A, C and D; columns 0-3 of B) and 4q+16 to 4q+19 (rows or columns 4-7), in the
 * PTX ISA's layouts: lane l (m = l%4, h = l/16) holds A[m+4h][0..3] (.row) or A[4h..4h+3][m] (.col),
 * B[m][4h..4h+3] (.row) or B[0..3][m+4h] (.col), an f16 C or D's row m+4h, and an f32 one's element i at row
 * l%2 + (i&2) + 4h, column (i&4) + (l&2) + (i&1) (checked on an H200, tests/programs/mma_sparse_sm80.cu).
 * Each lane fetches its rows of A, its columns of B and, where C's layout is not D's, C's elements, and sums
 * as lower_mma does: from C, in k order, fused multiply-adds in f32, an f16 D rounded once. */
static bool lower_mma_quad_pairs(struct lower *L)
{
	enum ptx_type dt = mod_type(L, 0), bt = mod_type(L, 2), ct = mod_type(L, 3);
	int a_row = layout_is_row(L, 0), b_row = layout_is_row(L, 1);
	LLVMTypeRef f32 = LLVMFloatTypeInContext(L->ctx);
	LLVMValueRef a[2], b[2], c[8], rows[2], cols[8], xa[2][4], xb[8][4], acc[8];

	if (bt != PTX_TYPE_F16 || (dt != PTX_TYPE_F16 && dt != PTX_TYPE_F32) || (ct != PTX_TYPE_F16 && ct != PTX_TYPE_F32) ||
	    (ct == PTX_TYPE_F32 && dt != PTX_TYPE_F32) || a_row < 0 || b_row < 0 || has_mod(L, "satfinite"))
		lower_fail(L, "mma.m8n8k4 of f16: the forms lowered are .{row,col}.{row,col}.{f16,f32}.f16.f16.{f16,f32}, "
		           "an f32 C with an f32 D");
	expect_operands(L, 4);
	bool d_half = dt == PTX_TYPE_F16, c_half = ct == PTX_TYPE_F16;
	const struct ptx_operand *d = registers(L, 0, d_half ? 4 : 8), *ao = registers(L, 1, 2);
	const struct ptx_operand *bo = registers(L, 2, 2), *co = registers(L, 3, c_half ? 4 : 8);
	for (unsigned i = 0; i < 2; i++) {
		a[i] = operand_value(L, &ao->items[i], PTX_TYPE_B32);
		b[i] = operand_value(L, &bo->items[i], PTX_TYPE_B32);
	}
	for (unsigned i = 0; i < (c_half ? 4u : 8u); i++)
		c[i] = operand_value(L, &co->items[i], c_half ? PTX_TYPE_B32 : PTX_TYPE_F32);
	LLVMValueRef lane = call_builtin(L, "__zc_laneid", ll_int(L, 32), NULL, 0);
	LLVMValueRef first = LLVMBuildAnd(L->b, lane, const32(L, 12), "");
	LLVMValueRef upper = LLVMBuildShl(L->b, LLVMBuildLShr(L->b, lane, const32(L, 4), ""), const32(L, 2), "");  /* 4h */
	LLVMValueRef pair_bit = LLVMBuildAnd(L->b, lane, const32(L, 2), "");  /* l&2 */
	/* D's rows and columns in this lane; element i is at rows[i/2%2], cols[2(i/4) + i%2] (f32) */
	unsigned nrows = d_half ? 1 : 2, ncols = d_half ? 8 : 4;
	for (unsigned j = 0; j < nrows; j++)
		rows[j] = d_half ? LLVMBuildAdd(L->b, LLVMBuildAnd(L->b, lane, const32(L, 3), ""), upper, "")
		                 : LLVMBuildAdd(L->b, LLVMBuildAnd(L->b, lane, const32(L, 1), ""),
		                                LLVMBuildAdd(L->b, upper, const32(L, 2 * j), ""), "");
	for (unsigned j = 0; j < ncols; j++)
		cols[j] = d_half ? const32(L, j) : LLVMBuildAdd(L->b, pair_bit, const32(L, (j & 1) + 4 * (j >> 1)), "");
	for (unsigned j = 0; j < nrows; j++)
		quad_pair_line(L, a, a_row, first, rows[j], xa[j]);
	for (unsigned j = 0; j < ncols; j++)
		quad_pair_line(L, b, !b_row, first, cols[j], xb[j]);
	for (unsigned i = 0; i < 8; i++) {
		unsigned ri = d_half ? 0 : i / 2 % 2, ci = d_half ? i : 2 * (i / 4) + i % 2;
		if (c_half == d_half) {
			acc[i] = c_half ? half_as_float(L, c[i / 2], i % 2, false) : c[i];
		} else if (c_half) {
			/* an f16 C's row r is lane first + 4h + r%4's; column (l&2) + ... is in register
			 * c/2, one of two by l&2 */
			LLVMValueRef holder = LLVMBuildAdd(L->b, LLVMBuildAdd(L->b, first, LLVMBuildShl(L->b, upper, const32(L, 2), ""), ""),
			                                   LLVMBuildAnd(L->b, rows[ri], const32(L, 3), ""), "");
			unsigned reg = 2 * (ci / 2);
			acc[i] = half_as_float(L, word_of_two(L, c[reg], c[reg + 1], holder, pair_bit), ci % 2, false);
		} else {
			/* an f32 C's (m+4h, i) is lane first + 16h + (m&1) + (i&2)'s element (m&2) + (i&4) + (i&1) */
			LLVMValueRef holder = LLVMBuildAdd(L->b, LLVMBuildAdd(L->b, first, LLVMBuildShl(L->b, upper, const32(L, 2), ""), ""),
			                                   LLVMBuildAdd(L->b, LLVMBuildAnd(L->b, lane, const32(L, 1), ""),
			                                                const32(L, i & 2), ""), "");
			unsigned element = (i & 4) + (i & 1);
			acc[i] = LLVMBuildBitCast(L->b, word_of_two(L, LLVMBuildBitCast(L->b, c[element], ll_int(L, 32), ""),
			                                            LLVMBuildBitCast(L->b, c[element + 2], ll_int(L, 32), ""),
			                                            holder, pair_bit), f32, "");
		}
		for (unsigned k = 0; k < 4; k++) {
			LLVMValueRef args[3] = { xa[ri][k], xb[ci][k], acc[i] };
			acc[i] = call_intrinsic(L, "llvm.fma", &f32, 1, args, 3);
		}
	}
	for (unsigned i = 0; i < 8; i++) {
		if (!d_half)
			operand_store(L, &d->items[i], acc[i], PTX_TYPE_F32);
		else if (i % 2)
			operand_store(L, &d->items[i / 2], LLVMBuildOr(L->b, float_as_half(L, acc[i - 1]),
			              LLVMBuildShl(L->b, float_as_half(L, acc[i]), const32(L, 16), ""), ""), PTX_TYPE_B32);
	}
	return true;
}

/* A double of lane `from`. */
static LLVMValueRef shuffle_idx_f64(struct lower *L, LLVMValueRef value, LLVMValueRef from)
{
	LLVMValueRef n = LLVMBuildBitCast(L->b, value, ll_int(L, 64), "");

	return LLVMBuildBitCast(L->b, shuffle_idx_i64(L, n, from), LLVMDoubleTypeInContext(L->ctx), "");
}

/* One step of a floating-point sum of products: a fused multiply-add, rounded as the f64
 * forms' .rnd asks (.rn, .rz, .rm, .rp; the others only ever round to nearest). */
static LLVMValueRef product_step(struct lower *L, enum rounding_mode mode, LLVMValueRef x, LLVMValueRef y,
                                 LLVMValueRef acc)
{
	LLVMTypeRef type = LLVMTypeOf(acc);
	LLVMValueRef args[3] = { x, y, acc };

	return mode == ROUND_NEAREST ? call_intrinsic(L, "llvm.fma", &type, 1, args, 3)
	                             : round_fma(L, mode, x, y, acc);
}

/* mma.sync.aligned.{m8n8k4,m16n8k4,m16n8k8,m16n8k16}.row.col{.rnd}.f64.f64.f64.f64 (the m16n8 shapes
 * of sm_90): one element a register. Lane l (g = l/4, t = l%4) holds A[g + 8r][t + 4j] in
 * a(2j + r) (r only 0 for the 8 rows of m8n8k4: A[g][t] in a0), B[t + 4j][g] in bj, and C and
 * D at rows g (and g + 8), columns 2t and 2t+1. The sum is made as in lower_mma, in k order
 * from C, each step a fused multiply-add rounded as .rnd says (to nearest without), which is
 * what the PTX ISA defines. */
static bool lower_mma_f64(struct lower *L)
{
	static const struct { const char *shape; unsigned rows, k; } shapes[] = {
		{ "m8n8k4", 1, 4 }, { "m16n8k4", 2, 4 }, { "m16n8k8", 2, 8 }, { "m16n8k16", 2, 16 },
	};
	unsigned rows = 0, k = 0;
	for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		if (has_mod(L, shapes[i].shape))
			rows = shapes[i].rows, k = shapes[i].k;
	if (!k || !has_mod(L, "row") || !has_mod(L, "col") || mod_type(L, 0) != PTX_TYPE_F64 ||
	    mod_type(L, 2) != PTX_TYPE_F64 || mod_type(L, 3) != PTX_TYPE_F64)
		lower_fail(L, "mma of f64: the forms lowered are m8n8k4, m16n8k4, m16n8k8 and m16n8k16 "
		           ".row.col{.rnd}.f64.f64.f64.f64");
	unsigned na = rows * (k / 4), nb = k / 4, nc = 2 * rows;
	LLVMValueRef g, t, a[8], b[4], acc[2][2];
	enum rounding_mode mode = rounding_mode_of(L);

	expect_operands(L, 4);
	const struct ptx_operand *d = registers(L, 0, nc), *ao = registers(L, 1, na);
	const struct ptx_operand *bo = registers(L, 2, nb), *co = registers(L, 3, nc);

	for (unsigned i = 0; i < na; i++)
		a[i] = operand_value(L, &ao->items[i], PTX_TYPE_F64);
	for (unsigned i = 0; i < nb; i++)
		b[i] = operand_value(L, &bo->items[i], PTX_TYPE_F64);
	for (unsigned r = 0; r < rows; r++)
		for (unsigned n = 0; n < 2; n++)
			acc[r][n] = operand_value(L, &co->items[2 * r + n], PTX_TYPE_F64);
	group_and_thread(L, &g, &t);
	for (unsigned kk = 0; kk < k; kk++) {
		LLVMValueRef a_from = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, g, const32(L, 2), ""),
		                                   const32(L, kk % 4), "");
		LLVMValueRef av[2], bv[2];

		for (unsigned r = 0; r < rows; r++)
			av[r] = shuffle_idx_f64(L, a[rows * (kk / 4) + r], a_from);
		for (unsigned n = 0; n < 2; n++) {
			LLVMValueRef column = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, t, const32(L, 1), ""),
			                                   const32(L, n), "");
			LLVMValueRef b_from = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, column, const32(L, 2), ""),
			                                   const32(L, kk % 4), "");
			bv[n] = shuffle_idx_f64(L, b[kk / 4], b_from);
		}
		for (unsigned r = 0; r < rows; r++)
			for (unsigned n = 0; n < 2; n++)
				acc[r][n] = product_step(L, mode, av[r], bv[n], acc[r][n]);
	}
	for (unsigned r = 0; r < rows; r++)
		for (unsigned n = 0; n < 2; n++)
			operand_store(L, &d->items[2 * r + n], acc[r][n], PTX_TYPE_F64);
	return true;
}

/* wmma: the PTX ISA leaves the fragment layout to the implementation, so this one suits a
 * lowering by warp shuffles. A fragment holds n elements (the register count times the
 * elements a register packs, the first in the low bits): lane l holds elements ln to ln+n-1,
 * modulo the matrix's size, of A and of C and D in row-major order and of B in column-major
 * order. An f16 A or B fragment (16 elements) so holds each element twice or four times; the
 * other fragments, each once. A lane's elements of D then lie in one row, consecutive
 * columns, and each row of A and column of B lies whole in the registers of consecutive
 * lanes, at the same register indices in every lane. A processor with matrix instructions
 * (ptx_lower_options.matrix_instructions) holds the fragments of an m16n16k16 form they
 * take (matrix.h) as they take them instead: __zc_wmma_element says where, and
 * __zc_wmma_mma multiplies. */
struct wmma_shape {
	unsigned m, n, k;
};

struct wmma_fragment {
	unsigned rows, cols;      /* of the matrix */
	bool column_order;        /* B: lanes run down the columns */
	enum ptx_type type;       /* of an element; PTX_TYPE_NONE for s4, u4 and b1 */
	bool is_signed;           /* s4 */
	unsigned bits, per_reg;   /* of an element; elements a register */
	unsigned count;           /* elements a lane holds */
};

static struct wmma_shape wmma_shape(struct lower *L)
{
	static const struct { const char *mod; struct wmma_shape shape; } shapes[] = {
		{"m16n16k16", {16, 16, 16}}, {"m32n8k16", {32, 8, 16}}, {"m8n32k16", {8, 32, 16}},
		{"m16n16k8", {16, 16, 8}}, {"m8n8k4", {8, 8, 4}}, {"m8n8k32", {8, 8, 32}}, {"m8n8k128", {8, 8, 128}},
	};

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		if (has_mod(L, shapes[i].mod))
			return shapes[i].shape;
	lower_unsupported(L);
}

/* Fragment 'a', 'b' or 'c' (C and D) of the shape with elements of type t, or (t
 * PTX_TYPE_NONE) of sub_bits-bit integers. */
static struct wmma_fragment wmma_fragment(struct lower *L, char matrix, struct wmma_shape s, enum ptx_type t,
                                          unsigned sub_bits, bool sub_signed)
{
	struct wmma_fragment f = {
		.rows = matrix == 'b' ? s.k : s.m, .cols = matrix == 'a' ? s.k : s.n,
		.column_order = matrix == 'b', .type = t, .is_signed = sub_signed,
	};
	bool multiplicand = matrix != 'c';

	switch (t) {
	case PTX_TYPE_NONE:
		if (!multiplicand || !sub_bits)
			lower_unsupported(L);
		f.bits = sub_bits;
		break;
	case PTX_TYPE_F16: f.bits = 16; break;
	case PTX_TYPE_BF16: case PTX_TYPE_S8: case PTX_TYPE_U8: case PTX_TYPE_TF32:
		if (!multiplicand)
			lower_unsupported(L);
		f.bits = t == PTX_TYPE_BF16 ? 16 : t == PTX_TYPE_TF32 ? 32 : 8;
		break;
	case PTX_TYPE_F32: case PTX_TYPE_S32:
		if (multiplicand)
			lower_unsupported(L);
		f.bits = 32;
		break;
	case PTX_TYPE_F64: f.bits = 64; break;
	default: lower_unsupported(L);
	}
	f.per_reg = f.bits < 32 ? 32 / f.bits : 1;
	f.count = multiplicand && t == PTX_TYPE_F16 ? 16 : f.rows * f.cols / 32;
	/* what the mma's shuffles rely on: a row of A or column of B in whole lanes, a lane's D
	 * in one row */
	if ((multiplicand ? s.k : s.n) % f.count || f.count % f.per_reg)
		lower_fail(L, "%s: no fragment layout for this shape", L->insn->opcode);
	return f;
}

/* The form of the processor's matrix instructions (enum zc_wmma_form) that fragments of
 * type t (A's or B's for 'a' and 'b'; C's or D's for 'c') of shape s belong to; 0 for none,
 * or when it has none. */
static unsigned wmma_form(struct lower *L, struct wmma_shape s, char matrix, enum ptx_type t)
{
	L->chose_matrix_form = true;
	if (!L->matrix_instructions || s.m != 16 || s.n != 16 || s.k != 16)
		return 0;
	switch (t) {
	case PTX_TYPE_F16: return ZC_WMMA_F16;  /* a C of f16 too */
	case PTX_TYPE_BF16: return matrix == 'c' ? 0 : ZC_WMMA_BF16;
	case PTX_TYPE_S8: return ZC_WMMA_S8;
	case PTX_TYPE_U8: return ZC_WMMA_U8;
	case PTX_TYPE_F32: return matrix == 'c' ? ZC_WMMA_F16 : 0;
	case PTX_TYPE_S32: return matrix == 'c' ? ZC_WMMA_S8 : 0;
	default: return 0;
	}
}

static unsigned log2u(unsigned n)
{
	unsigned l = 0;

	while (n >>= 1)
		l++;
	return l;
}

static LLVMValueRef mul32(struct lower *L, LLVMValueRef v, unsigned n)
{
	return LLVMBuildMul(L->b, v, const32(L, n), "");
}

/* wmma.load.{a,b,c}.sync.aligned.{row,col}.shape{.ss}.type r, [p]{, stride} and
 * wmma.store.d.sync.aligned.{row,col}.shape{.ss}.type [p], r{, stride}: each lane reads or
 * writes its own elements; the stride (in elements) separates rows (.row) or columns (.col),
 * by default the matrix's width or height. Sub-byte elements (A .row, B .col, as the ISA
 * requires) lie consecutive in memory, a register's worth at once, the first element in the
 * low bits. */
static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The alignment of register j of a lane's fragment f (nregs registers of `bytes` each),
 * loaded whole from a line (of `line` elements) in the portable layout: a lane's elements run
 * along the line from lane x count (modulo the line), so register j starts at a multiple of
 * the fragment's size (where PTX puts each line), of count elements when they are fewer than
 * the line's, and of j registers. */
static unsigned portable_alignment(const struct wmma_fragment *f, unsigned nregs, unsigned line, unsigned j,
                                   unsigned bytes)
{
	unsigned align = nregs * bytes;

	if (f->count < line)
		align = gcd(align, f->count * f->bits / 8);
	return j ? gcd(align, j * bytes) : align;
}

static bool lower_wmma_ldst(struct lower *L, bool store)
{
	char matrix = store ? (has_mod(L, "d") ? 'c' : 0)
	            : has_mod(L, "a") ? 'a' : has_mod(L, "b") ? 'b' : has_mod(L, "c") ? 'c' : 0;
	bool row = has_mod(L, "row");
	struct wmma_fragment f;
	const struct ptx_operand *regs;
	LLVMValueRef base, stride, first = NULL;
	LLVMTypeRef reg_type, element_type;
	unsigned bytes, nregs;

	if (!matrix || (!row && !has_mod(L, "col")))
		lower_unsupported(L);
	bool sub_signed;
	unsigned sub_bits = sub_byte_type(L, 0, &sub_signed);
	f = wmma_fragment(L, matrix, wmma_shape(L), mod_type(L, 0), sub_bits, sub_signed);
	if (sub_bits && row != (matrix == 'a'))
		lower_unsupported(L);
	if (L->insn->nops != 2 && L->insn->nops != 3)
		lower_fail(L, "%s takes 2 or 3 operands, not %u", L->insn->opcode, L->insn->nops);
	nregs = f.count / f.per_reg;
	regs = registers(L, store ? 1 : 0, nregs);
	base = memory_address(L, op(L, store ? 0 : 1), insn_space(L));
	stride = L->insn->nops == 3 ? operand_value(L, op(L, 2), PTX_TYPE_U32)
	                            : const32(L, row ? f.cols : f.rows);
	LLVMValueRef lane = call_builtin(L, "__zc_laneid", ll_int(L, 32), NULL, 0);
	unsigned form = wmma_form(L, wmma_shape(L), matrix, f.type);
	if (!form)  /* the portable layout: lane l's elements start at l times their count */
		first = mul32(L, lane, f.count);
	/* A by rows and B by columns lie along their lines in memory, where a register's
	 * elements are consecutive in every layout (the portable one and those of
	 * __zc_wmma_element): one access of the register, 4-byte aligned as each line starts at
	 * a multiple of the fragment's size (PTX's rule) and a register at a multiple of 4 bytes
	 * into it. Sub-byte elements come only so. */
	bool whole_registers = sub_bits || (matrix != 'c' && row == (matrix == 'a'));
	unsigned access_bits = whole_registers ? f.per_reg * f.bits : f.bits;
	unsigned accesses = whole_registers ? 1 : f.per_reg;
	reg_type = ll_int(L, f.bits == 64 ? 64 : 32);
	element_type = ll_int(L, access_bits);
	bytes = access_bits / 8;
	for (unsigned j = 0; j < nregs; j++) {
		const struct ptx_operand *reg = &regs->items[j];
		enum ptx_type bits_type = f.bits == 64 ? PTX_TYPE_B64 : PTX_TYPE_B32;
		LLVMValueRef value = store ? operand_value(L, reg, bits_type) : LLVMConstInt(reg_type, 0, 0);

		for (unsigned e = 0; e < accesses; e++) {
			LLVMValueRef args[4] = {
				const32(L, form), const32(L, matrix == 'a' ? ZC_WMMA_A : matrix == 'b' ? ZC_WMMA_B : ZC_WMMA_C),
				lane, const32(L, j * f.per_reg + e),
			};
			LLVMValueRef index = form ? call_builtin(L, "__zc_wmma_element", ll_int(L, 32), args, 4)
			                          : LLVMBuildAnd(L->b, LLVMBuildAdd(L->b, first, args[3], ""),
			                                         const32(L, f.rows * f.cols - 1), "");
			unsigned line = f.column_order ? f.rows : f.cols;  /* elements before the next line */
			LLVMValueRef major = LLVMBuildLShr(L->b, index, const32(L, log2u(line)), "");
			LLVMValueRef minor = LLVMBuildAnd(L->b, index, const32(L, line - 1), "");
			LLVMValueRef r = f.column_order ? minor : major, c = f.column_order ? major : minor;
			LLVMValueRef offset = row ? LLVMBuildAdd(L->b, LLVMBuildMul(L->b, r, stride, ""), c, "")
			                          : LLVMBuildAdd(L->b, LLVMBuildMul(L->b, c, stride, ""), r, "");
			LLVMValueRef p = at_byte(L, base, LLVMBuildLShr(L->b, mul32(L, offset, f.bits), const32(L, 3), ""));
			LLVMValueRef shift = LLVMConstInt(reg_type, e * access_bits, 0);

			if (store) {
				LLVMValueRef v = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, value, shift, ""), element_type, "");
				LLVMSetAlignment(LLVMBuildStore(L->b, v, p), bytes);
			} else {
				LLVMValueRef v = LLVMBuildLoad2(L->b, element_type, p, "");
				LLVMSetAlignment(v, whole_registers && !form
				                    ? portable_alignment(&f, nregs, f.column_order ? f.rows : f.cols, j, bytes)
				                    : bytes);
				value = LLVMBuildOr(L->b, value, LLVMBuildShl(L->b, LLVMBuildZExt(L->b, v, reg_type, ""),
				                                               shift, ""), "");
			}
		}
		if (!store)
			operand_store(L, reg, value, bits_type);
	}
	return true;
}

/* A word of lane `from`: 32 bits, or 64 in two shuffles. */
static LLVMValueRef shuffle_word(struct lower *L, LLVMValueRef word, LLVMValueRef from, unsigned bits)
{
	return bits == 64 ? shuffle_idx_i64(L, word, from) : shuffle_idx(L, word, from);
}

/* Element e of a word of a fragment f, as the float, double or i32 its products take. */
static LLVMValueRef wmma_element(struct lower *L, LLVMValueRef word, unsigned e, const struct wmma_fragment *f)
{
	if (f->type == PTX_TYPE_F64)
		return LLVMBuildBitCast(L->b, word, LLVMDoubleTypeInContext(L->ctx), "");
	if (f->type == PTX_TYPE_NONE)
		return small_integer(L, word, e, f->bits, f->is_signed);
	return element_of(L, word, e, f->type);
}

/* The words of a lane's fragment f (A or B) that hold line `line` (a row of A, a column of
 * B), fetched from the lanes that hold it: K / per_reg shuffles. */
static void wmma_line(struct lower *L, const struct wmma_fragment *f, const LLVMValueRef *regs, unsigned k,
                      LLVMValueRef line, LLVMValueRef *words)
{
	for (unsigned w = 0; w < k / f->per_reg; w++) {
		unsigned slot = (w * f->per_reg) % f->count;
		LLVMValueRef holder = LLVMBuildAdd(L->b, mul32(L, line, k / f->count),
		                                   const32(L, w * f->per_reg / f->count), "");
		words[w] = shuffle_word(L, regs[slot / f->per_reg], holder, f->bits == 64 ? 64 : 32);
	}
}

/* The multiplication by the processor's own instructions: the fragments' words through a
 * buffer to __zc_wmma_mma, C and D as f32 (or s32). */
static void wmma_by_instruction(struct lower *L, unsigned form, const struct wmma_fragment *fa,
                                const struct ptx_operand *d, const struct ptx_operand *ao,
                                const struct ptx_operand *bo, const struct ptx_operand *co,
                                enum ptx_type ct, enum ptx_type dt)
{
	LLVMTypeRef i32 = ll_int(L, 32), f32 = LLVMFloatTypeInContext(L->ctx);
	LLVMValueRef words = entry_alloca(L, LLVMArrayType2(i32, 24), 16, "wmma"), generic;
	unsigned nregs = fa->count / fa->per_reg;

	generic = L->target->as_local == L->target->as_generic ? words
	          : LLVMBuildAddrSpaceCast(L->b, words, ll_ptr(L, L->target->as_generic), "");
	for (unsigned w = 0; w < 24; w++) {
		LLVMValueRef value;

		if (w < 16 && w % 8 >= nregs)
			continue;
		if (w < 16)
			value = operand_value(L, &(w < 8 ? ao : bo)->items[w % 8], PTX_TYPE_B32);
		else if (ct == PTX_TYPE_F16)
			value = LLVMBuildBitCast(L->b, half_as_float(L, operand_value(L, &co->items[(w - 16) / 2], PTX_TYPE_B32),
			                                              w % 2, false), i32, "");
		else
			value = operand_value(L, &co->items[w - 16], PTX_TYPE_B32);
		LLVMValueRef index = LLVMConstInt(ll_int(L, 64), 4 * w, 0);
		LLVMSetAlignment(LLVMBuildStore(L->b, value, LLVMBuildGEP2(L->b, ll_int(L, 8), words, &index, 1, "")), 4);
	}
	LLVMValueRef args[2] = { const32(L, form), generic };
	call_builtin(L, "__zc_wmma_mma", LLVMVoidTypeInContext(L->ctx), args, 2);
	LLVMValueRef result[8];
	for (unsigned e = 0; e < 8; e++) {
		LLVMValueRef index = LLVMConstInt(ll_int(L, 64), 4 * (16 + e), 0);
		result[e] = LLVMBuildLoad2(L->b, i32, LLVMBuildGEP2(L->b, ll_int(L, 8), words, &index, 1, ""), "");
		LLVMSetAlignment(result[e], 4);
		if (dt != PTX_TYPE_F16)
			operand_store(L, &d->items[e], result[e], PTX_TYPE_B32);
		else if (e % 2)
			operand_store(L, &d->items[e / 2],
			              LLVMBuildOr(L->b, float_as_half(L, LLVMBuildBitCast(L->b, result[e - 1], f32, "")),
			                          LLVMBuildShl(L->b, float_as_half(L, LLVMBuildBitCast(L->b, result[e], f32, "")),
			                                       const32(L, 16), ""), ""),
			              PTX_TYPE_B32);
	}
}

/* What a wmma.mma computes, for the product by lanes. */
struct wmma_product {
	struct wmma_shape s;
	struct wmma_fragment a, b, d;
	enum ptx_type ct, dt;
	bool integer, binary, popc_and, satfinite;
	LLVMTypeRef word;          /* of a register of A, B, C and D: i32, or i64 for f64 */
};

/* D's registers from A's, B's and C's by shuffles and products in this lane, as the
 * comment of lower_wmma_mma says. */
static void wmma_by_lanes(struct lower *L, const struct wmma_product *p, const LLVMValueRef *a,
                          const LLVMValueRef *b, const LLVMValueRef *c, LLVMValueRef *d)
{
	const struct wmma_fragment *fa = &p->a, *fb = &p->b, *fd = &p->d;
	LLVMTypeRef i32 = ll_int(L, 32);
	LLVMValueRef words_a[16], words_b[8][16], acc[8], lane, first, row;

	lane = call_builtin(L, "__zc_laneid", i32, NULL, 0);
	first = mul32(L, lane, fd->count);
	row = LLVMBuildLShr(L->b, first, const32(L, log2u(p->s.n)), "");
	wmma_line(L, fa, a, p->s.k, row, words_a);
	for (unsigned e = 0; e < fd->count; e++) {
		LLVMValueRef column = LLVMBuildAdd(L->b, LLVMBuildAnd(L->b, first, const32(L, p->s.n - 1), ""),
		                                   const32(L, e), "");
		wmma_line(L, fb, b, p->s.k, column, words_b[e]);
		if (p->integer)  /* the products' sum, C added at the end */
			acc[e] = const32(L, 0);
		else if (p->ct == PTX_TYPE_F16)
			acc[e] = half_as_float(L, c[e / 2], e % 2, false);
		else
			acc[e] = LLVMBuildBitCast(L->b, c[e], ll_type(L, p->ct), "");
	}
	for (unsigned kk = 0; kk < p->s.k; kk += p->binary ? fa->per_reg : 1) {
		LLVMValueRef x = p->binary ? NULL : wmma_element(L, words_a[kk / fa->per_reg], kk % fa->per_reg, fa);

		for (unsigned e = 0; e < fd->count; e++) {
			if (p->binary) {  /* 32 products at once: the bits' xor or and, counted */
				LLVMValueRef wa = words_a[kk / fa->per_reg], wb = words_b[e][kk / fb->per_reg];
				LLVMValueRef bits = p->popc_and ? LLVMBuildAnd(L->b, wa, wb, "") : LLVMBuildXor(L->b, wa, wb, "");
				acc[e] = LLVMBuildAdd(L->b, acc[e], call_intrinsic(L, "llvm.ctpop", &i32, 1, &bits, 1), "");
				continue;
			}
			LLVMValueRef y = wmma_element(L, words_b[e][kk / fb->per_reg], kk % fb->per_reg, fb);

			if (p->integer)
				acc[e] = LLVMBuildAdd(L->b, acc[e], LLVMBuildMul(L->b, x, y, ""), "");
			else
				acc[e] = product_step(L, rounding_mode_of(L), x, y, acc[e]);
		}
	}
	for (unsigned e = 0; e < fd->count; e++) {
		if (p->integer) {
			/* at most 32 products of 4 or 8 bits, or 128 of one: exact in 32 bits */
			LLVMValueRef args[2] = { c[e], acc[e] };
			d[e] = p->satfinite ? call_intrinsic(L, "llvm.sadd.sat", &i32, 1, args, 2)
			                    : LLVMBuildAdd(L->b, args[0], args[1], "");
		} else if (p->dt == PTX_TYPE_F16) {
			if (e % 2)
				d[e / 2] = LLVMBuildOr(L->b, float_as_half(L, acc[e - 1]),
				                       LLVMBuildShl(L->b, float_as_half(L, acc[e]), const32(L, 16), ""), "");
		} else {
			d[e] = LLVMBuildBitCast(L->b, acc[e], p->word, "");
		}
	}
}

/* The product by lanes as a function of the module, one for each form (named by the
 * instruction's shape and types: its layouts do not change the fragments), called where the
 * instruction is, in functions of more than WMMA_INLINE_PRODUCTS products. Inline, a kernel
 * of a few thousand unrolled products (tensor-core GEMMs unroll their K loop) is one basic
 * block of millions of instructions, for which LLVM's passes take minutes and gigabytes;
 * the call costs 5 to 8 % more instructions executed (bench/wmma_instructions.sh, gfx1030),
 * which a function of few products is spared. */
enum { WMMA_INLINE_PRODUCTS = 32 };

static unsigned products_in(const struct ptx_stmt *s)
{
	unsigned n = 0;

	for (; s; s = s->next)
		if (s->kind == PTX_STMT_BLOCK)
			n += products_in(s->u.block);
		else if (s->kind == PTX_STMT_INSN && strcmp(s->u.insn.opcode, "wmma") == 0)
			for (uint32_t i = 0; i < s->u.insn.nmods; i++)
				n += strcmp(s->u.insn.mods[i], "mma") == 0;
	return n;
}

static bool products_inline(struct lower *L)
{
	if (L->products_of != L->func) {
		L->products_of = L->func;
		L->products = products_in(L->func->body);
	}
	return L->products <= WMMA_INLINE_PRODUCTS;
}

static LLVMValueRef wmma_product_function(struct lower *L, const struct wmma_product *p, unsigned na,
                                          unsigned nb, unsigned nc, unsigned nd)
{
	char name[256] = "zc.wmma";
	size_t used = strlen(name);

	static const char *const unnamed[] = { "mma", "sync", "aligned", "row", "col" };
	for (uint32_t i = 0; i < L->insn->nmods; i++) {
		size_t u = 0;
		while (u < sizeof unnamed / sizeof unnamed[0] && strcmp(L->insn->mods[i], unnamed[u]))
			u++;
		if (u == sizeof unnamed / sizeof unnamed[0])
			used += (size_t)snprintf(name + used, used < sizeof name ? sizeof name - used : 0, ".%s",
			                         L->insn->mods[i]);
	}
	if (used >= sizeof name)
		lower_fail(L, "internal: wmma form name too long");

	LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
	if (fn)
		return fn;

	LLVMTypeRef params[40], results[8];
	for (unsigned i = 0; i < na + nb + nc; i++)
		params[i] = p->word;
	for (unsigned i = 0; i < nd; i++)
		results[i] = p->word;
	fn = LLVMAddFunction(L->mod, name, LLVMFunctionType(LLVMStructTypeInContext(L->ctx, results, nd, 0),
	                                                    params, na + nb + nc, 0));
	LLVMSetLinkage(fn, LLVMInternalLinkage);
	static const char *const attributes[] = { "noinline", "convergent" };
	for (size_t i = 0; i < sizeof attributes / sizeof attributes[0]; i++)
		LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(L->ctx,
		                        LLVMGetEnumAttributeKindForName(attributes[i], strlen(attributes[i])), 0));

	LLVMBuilderRef saved = L->b;
	LLVMBasicBlockRef saved_entry = L->entry;
	LLVMValueRef args[40], d[8];
	L->b = LLVMCreateBuilderInContext(L->ctx);
	L->entry = LLVMAppendBasicBlockInContext(L->ctx, fn, "");
	LLVMPositionBuilderAtEnd(L->b, L->entry);
	for (unsigned i = 0; i < na + nb + nc; i++)
		args[i] = LLVMGetParam(fn, i);
	wmma_by_lanes(L, p, args, args + na, args + na + nb, d);
	LLVMBuildAggregateRet(L->b, d, nd);
	LLVMDisposeBuilder(L->b);
	L->b = saved;
	L->entry = saved_entry;
	return fn;
}

/* wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype d, a, b, c (f16 A and B) and
 * .shape.dtype.atype.btype.ctype{.satfinite} (bf16, tf32, s8, u8; f64 with .rn): D = A B +
 * C. The layouts name how A and B were stored; the fragments do not depend on them. Each
 * lane fetches its row of A and its columns of B and sums the products as lower_mma
 * does: in k order, by fused multiply-adds in f32 (f64 for f64, which is what the PTX ISA
 * defines there), an f16 D rounded once; integers exactly, then C added wrapping or, with
 * .satfinite, saturating. */
static bool lower_wmma_mma(struct lower *L)
{
	struct wmma_shape s = wmma_shape(L);
	bool sub_signed[2];
	unsigned sub_bits[2] = { sub_byte_type(L, 0, &sub_signed[0]), sub_byte_type(L, 1, &sub_signed[1]) };
	bool sub = sub_bits[0] && sub_bits[1], binary = sub && sub_bits[0] == 1;
	bool four = mod_type(L, 3) != PTX_TYPE_NONE;
	enum ptx_type dt = mod_type(L, 0), at = sub ? PTX_TYPE_NONE : four ? mod_type(L, 1) : PTX_TYPE_F16;
	enum ptx_type bt = sub ? PTX_TYPE_NONE : four ? mod_type(L, 2) : at, ct = mod_type(L, four ? 3 : 1);
	bool integer = sub || at == PTX_TYPE_S8 || at == PTX_TYPE_U8, f64 = at == PTX_TYPE_F64;
	bool popc_and = has_mod(L, "and");

	if (!has_mod(L, "mma") || (at == PTX_TYPE_F16 && four) || (sub && sub_bits[0] != sub_bits[1]) ||
	    (binary != (has_mod(L, "popc") && (popc_and || has_mod(L, "xor")))) ||
	    (sub ? dt != PTX_TYPE_S32 || ct != PTX_TYPE_S32 || !has_mod(L, "row") || !has_mod(L, "col") :
	     integer ? (bt != PTX_TYPE_S8 && bt != PTX_TYPE_U8) || dt != PTX_TYPE_S32 || ct != PTX_TYPE_S32
	     : at == PTX_TYPE_F16 ? (dt != PTX_TYPE_F16 && dt != PTX_TYPE_F32) || (ct != PTX_TYPE_F16 && ct != PTX_TYPE_F32)
	     : f64 ? bt != at || dt != at || ct != at
	     : (at != PTX_TYPE_BF16 && at != PTX_TYPE_TF32) || bt != at || dt != PTX_TYPE_F32 || ct != PTX_TYPE_F32) ||
	    (has_mod(L, "satfinite") && binary) || (!f64 && rounding_mode_of(L) != ROUND_NEAREST))
		lower_unsupported(L);
	if (has_mod(L, "satfinite") && !integer)
		lower_fail(L, "wmma.mma with a floating-point type and .satfinite was removed in PTX ISA 6.5 "
		           "(ptxas refuses it; before, it warns of unexpected results on sm_70 and later)");
	struct wmma_product p = {
		.s = s, .ct = ct, .dt = dt, .integer = integer, .binary = binary, .popc_and = popc_and,
		.satfinite = has_mod(L, "satfinite"), .word = ll_int(L, f64 ? 64 : 32),
		.a = wmma_fragment(L, 'a', s, at, sub_bits[0], sub_signed[0]),
		.b = wmma_fragment(L, 'b', s, bt, sub_bits[1], sub_signed[1]),
		.d = wmma_fragment(L, 'c', s, dt, 0, false),
	};
	struct wmma_fragment fc = wmma_fragment(L, 'c', s, ct, 0, false);
	unsigned na = p.a.count / p.a.per_reg, nb = p.b.count / p.b.per_reg;
	unsigned nc = fc.count / fc.per_reg, nd = p.d.count / p.d.per_reg;
	expect_operands(L, 4);
	const struct ptx_operand *d = registers(L, 0, nd), *ao = registers(L, 1, na);
	const struct ptx_operand *bo = registers(L, 2, nb), *co = registers(L, 3, nc);
	enum ptx_type word_type = f64 ? PTX_TYPE_B64 : PTX_TYPE_B32;
	unsigned form = wmma_form(L, s, 'a', at);

	if (form) {
		wmma_by_instruction(L, form | (p.satfinite ? ZC_WMMA_SATFINITE : 0), &p.a, d, ao, bo, co, ct, dt);
		return true;
	}

	LLVMValueRef args[40], words[8];
	for (unsigned i = 0; i < na + nb + nc; i++)
		args[i] = operand_value(L, i < na ? &ao->items[i] : i < na + nb ? &bo->items[i - na]
		                        : &co->items[i - na - nb], word_type);
	if (products_inline(L)) {
		wmma_by_lanes(L, &p, args, args + na, args + na + nb, words);
	} else {
		LLVMValueRef fn = wmma_product_function(L, &p, na, nb, nc, nd);
		LLVMValueRef result = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, args, na + nb + nc, "");
		for (unsigned i = 0; i < nd; i++)
			words[i] = LLVMBuildExtractValue(L->b, result, i, "");
	}
	for (unsigned i = 0; i < nd; i++)
		operand_store(L, &d->items[i], words[i], word_type);
	return true;
}

/* Whether the instruction names a kind (mma.kind::f8f6f4, ::mxf4, ...) or block scaling: the
 * forms of sm_100 and sm_120. */
static bool kind_form(struct lower *L)
{
	for (uint32_t i = 0; i < L->insn->nmods; i++)
		if (!strncmp(L->insn->mods[i], "kind::", 6) || !strncmp(L->insn->mods[i], "block_scale", 11))
			return true;
	return false;
}

bool lower_matrix(struct lower *L)
{
	const char *o = L->insn->opcode;

	if (!strcmp(o, "mma") && kind_form(L))
		lower_fail(L, "mma: the .kind and block-scaled forms (sm_100, sm_120) are not supported: no GPU that runs "
		           "them was at hand to check their fragments and scale factors against");
	if (!strcmp(o, "mma") && (has_mod(L, "sp") || has_mod(L, "sp::ordered_metadata")))
		return lower_mma_sparse(L);
	if (!strcmp(o, "mma") && has_mod(L, "m8n8k4") && mod_type(L, 1) == PTX_TYPE_F16)
		return lower_mma_quad_pairs(L);
	if (!strcmp(o, "mma") && mod_type(L, 1) == PTX_TYPE_F64)
		return lower_mma_f64(L);
	if (!strcmp(o, "mma"))
		return lower_mma(L);

	if (!strcmp(o, "wmma"))
		return has_mod(L, "mma") ? lower_wmma_mma(L) : lower_wmma_ldst(L, has_mod(L, "store"));

	if (!strcmp(o, "movmatrix"))
		return lower_movmatrix(L);

	if (!strcmp(o, "ldmatrix"))
		return lower_ldst_matrix(L, false);
	if (!strcmp(o, "stmatrix"))
		return lower_ldst_matrix(L, true);
	return false;
}
