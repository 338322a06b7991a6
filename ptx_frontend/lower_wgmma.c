/* The warpgroup's matrix multiply-accumulate of sm_90a: wgmma.mma_async and the
 * wgmma.fence, wgmma.commit_group and wgmma.wait_group around it. The 128 threads of a
 * warpgroup (four consecutive warps) compute a 64xN D = A B + D: warp w of the group holds
 * rows 16w to 16w+15 as mma's m16n8 accumulators do, once for every 8 columns (lane l, g =
 * l/4, t = l%4: rows 16w+g and 16w+g+8, columns 8j+2t and 8j+2t+1 in d(4j) to d(4j+3); an
 * f16 accumulator pairs a row's two columns in one register), and A in registers is laid
 * out as mma's m16n8 A fragment, for the warp's 16 rows.
 *
 * The multiplication is done at the instruction, not asynchronously, which the PTX ISA
 * allows (the results are defined only after wgmma.wait_group): each thread reads the
 * elements of B, and of A where a matrix descriptor gives it, from shared memory where the
 * descriptor's canonical layout and swizzle put them, or gathers its rows of A from the
 * lanes of its own warp that hold them (shuffles), and adds the products to its
 * accumulators in k order, one fused multiply-add each in f32, as lower_mma does (integers
 * exactly; b1 32 products at once, the population count of an and). A sparse A (.sp) gives
 * each product's row of B through its metadata, read as lower_mma_sparse reads mma.sp's.
 * On RDNA3 and RDNA4, a dense f16 or bf16 multiply with A from shared memory uses the
 * processor's WMMA instead, 16 columns at a time (wgmma_by_instruction). wgmma.fence,
 * commit_group and wait_group then have nothing to order or wait for. */
#include <stdio.h>
#include <string.h>

#include "lower.h"
#include "matrix.h"

enum wgmma_kind { WG_F16, WG_BF16, WG_TF32, WG_E4M3, WG_E5M2, WG_S8, WG_U8, WG_B1, WG_F32, WG_S32 };

static const struct { const char *name; enum wgmma_kind kind; } wgmma_kinds[] = {
	{"f16", WG_F16}, {"bf16", WG_BF16}, {"tf32", WG_TF32}, {"e4m3", WG_E4M3}, {"e5m2", WG_E5M2},
	{"s8", WG_S8}, {"u8", WG_U8}, {"b1", WG_B1}, {"f32", WG_F32}, {"s32", WG_S32},
};

struct wgmma_form {
	unsigned n, k;              /* the shape m64nNkK */
	enum wgmma_kind d, a, b;    /* the accumulator's and the multiplicands' types */
	unsigned bits;              /* an element of A and of B */
	bool integer;               /* s8, u8 or b1: exact sums in an s32 */
	bool binary;                /* b1: the population count of A's and B's bits' and */
	bool sparse;                /* .sp: A holds K/2 of a row's K elements, the metadata says where */
};

static bool is_narrow(enum wgmma_kind t) { return t == WG_E4M3 || t == WG_E5M2; }
static bool is_byte(enum wgmma_kind t) { return t == WG_S8 || t == WG_U8; }

/* The shape and types of wgmma.mma_async{.sp}.sync.aligned.m64nNkK.dtype.atype.btype{.satfinite}
 * or of its b1 form (.s32.b1.b1.and.popc); a form the PTX ISA does not define fails with its
 * name. A sparse A doubles K for the same bytes of A. */
static struct wgmma_form wgmma_form(struct lower *L)
{
	struct wgmma_form f = { .sparse = has_mod(L, "sp") };
	enum wgmma_kind types[3];
	unsigned ntypes = 0;
	char extra;

	for (uint32_t i = 0; i < L->insn->nmods; i++) {
		const char *m = L->insn->mods[i];
		if (sscanf(m, "m64n%uk%u%c", &f.n, &f.k, &extra) == 2)
			continue;
		for (size_t j = 0; j < sizeof wgmma_kinds / sizeof wgmma_kinds[0]; j++)
			if (!strcmp(m, wgmma_kinds[j].name)) {
				if (ntypes == 3)
					lower_unsupported(L);
				types[ntypes++] = wgmma_kinds[j].kind;
			}
	}
	if (ntypes != 3 || !f.k)
		lower_fail(L, "wgmma.mma_async needs a shape m64nNkK and three types (D, A, B) of f16, bf16, tf32, "
		           "e4m3, e5m2, s8, u8 or b1");
	f.d = types[0], f.a = types[1], f.b = types[2];
	bool halves = (f.a == WG_F16 || f.a == WG_BF16) && f.b == f.a;
	f.binary = f.a == WG_B1 && f.b == WG_B1;
	f.integer = (is_byte(f.a) && is_byte(f.b)) || f.binary;
	f.bits = halves ? 16 : f.a == WG_TF32 ? 32 : f.binary ? 1 : 8;
	bool types_ok = f.integer ? f.d == WG_S32
	              : halves || (is_narrow(f.a) && is_narrow(f.b)) ? f.d == WG_F32 || (f.d == WG_F16 && f.a != WG_BF16)
	              : f.a == WG_TF32 && f.b == WG_TF32 && f.d == WG_F32;
	/* b1 has one form: .and.popc, dense, wrapping */
	if (!types_ok || f.binary != (has_mod(L, "and") && has_mod(L, "popc")) || (f.binary && f.sparse) ||
	    (has_mod(L, "satfinite") && (!f.integer || f.binary)))
		lower_unsupported(L);
	unsigned a_row_bits = f.sparse ? 512 : 256;  /* a row of A of K elements, as A B reads it */
	if (f.k * f.bits != a_row_bits || f.n % 8 || f.n < 8 || f.n > 256)
		lower_fail(L, "wgmma.mma_async%s: m64n%uk%u is not a shape of %u-bit multiplicands (K is %u, N a multiple "
		           "of 8 up to 256)", f.sparse ? ".sp" : "", f.n, f.k, f.bits, a_row_bits / f.bits);
	return f;
}

/* Element e of a word of elements of type t, as the products take it: a float (a tf32's
 * 13 low mantissa bits not read), or an i32. */
static LLVMValueRef multiplicand(struct lower *L, LLVMValueRef word, unsigned e, enum wgmma_kind t)
{
	switch (t) {
	case WG_TF32: return element_of(L, word, e, PTX_TYPE_TF32);
	case WG_E4M3: case WG_E5M2:
		return narrow_as_float(L, word, e, t == WG_E5M2);
	case WG_S8: return element_of(L, word, e, PTX_TYPE_S8);
	case WG_U8: return element_of(L, word, e, PTX_TYPE_U8);
	case WG_BF16: return element_of(L, word, e, PTX_TYPE_BF16);
	default: return element_of(L, word, e, PTX_TYPE_F16);
	}
}

/* A shared-memory matrix descriptor's fields (the PTX ISA's "matrix descriptor format"):
 * the start address and the leading and stride dimension byte offsets (bits 0-13, 16-29,
 * 32-45, each in 16-byte units), the base offset (bits 49-51) and the swizzle (bits 62-63:
 * none, 128, 64 or 32 bytes), which gives a row's width: 16 bytes (a core matrix's) without. */
struct descriptor {
	LLVMValueRef start, leading, stride, base_offset;
	LLVMValueRef width_log2, width_mask, swizzled;
	LLVMValueRef chunk_mask;                          /* the row's 16-byte chunks less one */
	bool mn_major;                                    /* imm-trans: M- or N-major */
};

static LLVMValueRef descriptor_field(struct lower *L, LLVMValueRef d, unsigned shift, unsigned bits)
{
	LLVMValueRef v = LLVMBuildLShr(L->b, d, LLVMConstInt(ll_int(L, 64), shift, 0), "");

	return LLVMBuildAnd(L->b, LLVMBuildTrunc(L->b, v, ll_int(L, 32), ""), const32(L, (1u << bits) - 1), "");
}

static struct descriptor descriptor_of(struct lower *L, const struct ptx_operand *o, bool mn_major)
{
	LLVMValueRef d = operand_value(L, o, PTX_TYPE_B64), four = const32(L, 4);
	LLVMValueRef mode = descriptor_field(L, d, 62, 2);
	struct descriptor s = { .mn_major = mn_major };

	s.start = LLVMBuildShl(L->b, descriptor_field(L, d, 0, 14), four, "");
	s.leading = LLVMBuildShl(L->b, descriptor_field(L, d, 16, 14), four, "");
	s.stride = LLVMBuildShl(L->b, descriptor_field(L, d, 32, 14), four, "");
	s.base_offset = descriptor_field(L, d, 49, 3);
	s.swizzled = LLVMBuildICmp(L->b, LLVMIntNE, mode, const32(L, 0), "");
	/* 128, 64 and 32 bytes are modes 1, 2 and 3: 2^(8 - mode) */
	s.width_log2 = LLVMBuildSelect(L->b, s.swizzled, LLVMBuildSub(L->b, const32(L, 8), mode, ""), four, "");
	s.width_mask = LLVMBuildSub(L->b, LLVMBuildShl(L->b, const32(L, 1), s.width_log2, ""), const32(L, 1), "");
	s.chunk_mask = LLVMBuildLShr(L->b, s.width_mask, four, "");
	return s;
}

/* Where element (mn, k) of a descriptor's matrix lies (mn: A's row or B's column). K-major,
 * rows of 8 (core matrices of 16 bytes, or rows of the swizzle's width) follow each other,
 * the next 8 rows the stride byte offset on, the next 16 bytes of K without swizzle the
 * leading byte offset on; swizzled, K's 32 bytes lie within a row, and where K is wider (the
 * 64 bytes of a sparse A's B with the 32-byte swizzle) the next row's width of K is the
 * leading offset on, as an H200 reads it. MN-major, the same with
 * MN and K exchanged: 16 bytes (or the swizzle's width) of MN in a row, 8 rows of K, the
 * next 8 of K the leading offset on without swizzle and the stride offset on with it, the
 * next row's width of MN the other. The swizzle then exchanges the 16-byte chunks of the
 * address's row: bits 4 and up are xored with bits 7 and up, less the base offset (where
 * the pattern starts, in 128-byte rows from its 8-row boundary). */
static LLVMValueRef element_pointer(struct lower *L, const struct descriptor *d, LLVMValueRef mn, LLVMValueRef k,
                                    unsigned bytes)
{
	LLVMValueRef mn_line, mn_group, k_part;

	if (!d->mn_major) {
		LLVMValueRef k_bytes = LLVMBuildMul(L->b, k, const32(L, bytes), "");
		mn_line = LLVMBuildShl(L->b, LLVMBuildAnd(L->b, mn, const32(L, 7), ""), d->width_log2, "");
		mn_group = LLVMBuildMul(L->b, LLVMBuildLShr(L->b, mn, const32(L, 3), ""), d->stride, "");
		k_part = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, LLVMBuildLShr(L->b, k_bytes, d->width_log2, ""), d->leading, ""),
		                      LLVMBuildAnd(L->b, k_bytes, d->width_mask, ""), "");
	} else {
		LLVMValueRef mn_bytes = LLVMBuildMul(L->b, mn, const32(L, bytes), "");
		LLVMValueRef mn_step = LLVMBuildSelect(L->b, d->swizzled, d->leading, d->stride, "");
		LLVMValueRef k_step = LLVMBuildSelect(L->b, d->swizzled, d->stride, d->leading, "");
		mn_line = LLVMBuildAnd(L->b, mn_bytes, d->width_mask, "");
		mn_group = LLVMBuildMul(L->b, LLVMBuildLShr(L->b, mn_bytes, d->width_log2, ""), mn_step, "");
		k_part = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, LLVMBuildAnd(L->b, k, const32(L, 7), ""), d->width_log2, ""),
		                      LLVMBuildMul(L->b, LLVMBuildLShr(L->b, k, const32(L, 3), ""), k_step, ""), "");
	}
	LLVMValueRef address = LLVMBuildAdd(L->b, d->start, LLVMBuildAdd(L->b, LLVMBuildAdd(L->b, mn_line, mn_group, ""),
	                                                                  k_part, ""), "");
	LLVMValueRef row = LLVMBuildSub(L->b, LLVMBuildLShr(L->b, address, const32(L, 7), ""), d->base_offset, "");
	LLVMValueRef chunk = LLVMBuildShl(L->b, LLVMBuildAnd(L->b, row, d->chunk_mask, ""), const32(L, 4), "");

	return pointer_from_number(L, LLVMBuildXor(L->b, address, chunk, ""), PTX_SPACE_SHARED);
}

/* The `bytes` bytes (1, 2 or 4) of element (mn, k) of a descriptor's matrix of such elements,
 * zero-extended to an i32. */
static LLVMValueRef shared_bits(struct lower *L, const struct descriptor *d, LLVMValueRef mn, LLVMValueRef k,
                                unsigned bytes)
{
	LLVMValueRef v = LLVMBuildLoad2(L->b, ll_int(L, 8 * bytes), element_pointer(L, d, mn, k, bytes), "");

	LLVMSetAlignment(v, bytes);
	return LLVMBuildZExt(L->b, v, ll_int(L, 32), "");
}

/* Element (mn, k) of a descriptor's matrix, as the products take it. */
static LLVMValueRef shared_element(struct lower *L, const struct descriptor *d, LLVMValueRef mn, LLVMValueRef k,
                                   const struct wgmma_form *f, enum wgmma_kind t)
{
	return multiplicand(L, shared_bits(L, d, mn, k, f->bits / 8), 0, t);
}

/* Line mn of a descriptor's matrix of 16-bit elements (A's row or B's column) for K 16: its
 * elements in k order, two a word. K-major they are two 16-byte chunks (the swizzle moves
 * chunks whole); MN-major, one element a row of K. */
static void line_words(struct lower *L, const struct descriptor *d, LLVMValueRef mn, LLVMValueRef *words)
{
	if (!d->mn_major) {
		LLVMTypeRef v4 = LLVMVectorType(ll_int(L, 32), 4);
		for (unsigned c = 0; c < 2; c++) {
			LLVMValueRef v = LLVMBuildLoad2(L->b, v4, element_pointer(L, d, mn, const32(L, 8 * c), 2), "");
			LLVMSetAlignment(v, 16);
			for (unsigned w = 0; w < 4; w++)
				words[4 * c + w] = LLVMBuildExtractElement(L->b, v, const32(L, w), "");
		}
		return;
	}
	for (unsigned w = 0; w < 8; w++) {
		LLVMValueRef low = shared_bits(L, d, mn, const32(L, 2 * w), 2);
		LLVMValueRef high = shared_bits(L, d, mn, const32(L, 2 * w + 1), 2);
		words[w] = LLVMBuildOr(L->b, low, LLVMBuildShl(L->b, high, const32(L, 16), ""), "");
	}
}

static LLVMValueRef buffer_word(struct lower *L, LLVMValueRef buffer, unsigned i)
{
	LLVMValueRef index = LLVMConstInt(ll_int(L, 64), 4 * i, 0);

	return LLVMBuildGEP2(L->b, ll_int(L, 8), buffer, &index, 1, "");
}

/* D += A B by the processor's WMMA (RDNA3, RDNA4) for a dense m64nNk16 of f16 or bf16 with A
 * from a descriptor: 16 columns at a time (__zc_wgmma_tile, its result moved into D's layout
 * by shuffles, or through shared memory in a kernel of at most 256 threads), each lane
 * reading its row of A once and its column of B for each; the last 8 columns of an N that is
 * not a multiple of 16 are read by lanes 8-15 too, whose results nobody reads. The product is
 * added to D in f32. */
static void wgmma_by_instruction(struct lower *L, const struct wgmma_form *f, const struct descriptor *desc_a,
                                 const struct descriptor *desc_b, LLVMValueRef warp, LLVMValueRef lane, int scale_a,
                                 int scale_b, LLVMValueRef acc[2][256 / 4])
{
	LLVMTypeRef i32 = ll_int(L, 32), f32 = LLVMFloatTypeInContext(L->ctx);
	LLVMValueRef buffer = entry_alloca(L, LLVMArrayType2(i32, 24), 16, "wgmma"), generic, a[8], b[8];
	LLVMValueRef line = LLVMBuildAnd(L->b, lane, const32(L, 15), ""), sign = const32(L, 0x80008000u);
	unsigned form = f->a == WG_F16 ? ZC_WMMA_F16 : ZC_WMMA_BF16, columns = f->n / 4;

	generic = L->target->as_local == L->target->as_generic ? buffer
	          : LLVMBuildAddrSpaceCast(L->b, buffer, ll_ptr(L, L->target->as_generic), "");
	line_words(L, desc_a, LLVMBuildAdd(L->b, LLVMBuildShl(L->b, warp, const32(L, 4), ""), line, ""), a);
	for (unsigned w = 0; w < 8; w++)  /* imm-scale -1: the elements' signs flipped */
		LLVMSetAlignment(LLVMBuildStore(L->b, scale_a < 0 ? LLVMBuildXor(L->b, a[w], sign, "") : a[w],
		                                buffer_word(L, buffer, w)), 4);
	for (unsigned tile = 0; 16 * tile < f->n; tile++) {
		LLVMValueRef column = LLVMBuildAdd(L->b, const32(L, 16 * tile),
		                                   16 * tile + 16 > f->n ? LLVMBuildAnd(L->b, lane, const32(L, 7), "") : line, "");
		line_words(L, desc_b, column, b);
		for (unsigned w = 0; w < 8; w++)
			LLVMSetAlignment(LLVMBuildStore(L->b, scale_b < 0 ? LLVMBuildXor(L->b, b[w], sign, "") : b[w],
			                                buffer_word(L, buffer, 8 + w)), 4);
		LLVMValueRef args[2] = { const32(L, form), generic };
		call_builtin(L, matrix_staged(L) ? "__zc_wgmma_tile_staged" : "__zc_wgmma_tile",
		             LLVMVoidTypeInContext(L->ctx), args, 2);
		for (unsigned half = 0; half < 2; half++)
			for (unsigned r = 0; r < 2; r++)
				for (unsigned j = 0; j < 2; j++) {
					unsigned c = 2 * (2 * tile + half) + j;
					if (c >= columns)
						continue;
					LLVMValueRef p = LLVMBuildLoad2(L->b, f32, buffer_word(L, buffer, 16 + 4 * half + 2 * r + j), "");
					LLVMSetAlignment(p, 4);
					acc[r][c] = LLVMBuildFAdd(L->b, acc[r][c], p, "");
				}
	}
}

/* An immediate operand (imm-scale-a/b: 1 or -1, imm-trans-a/b: 0 or 1). */
static int immediate_operand(struct lower *L, unsigned i, const char *what, int first, int second)
{
	const struct ptx_operand *o = op(L, i);

	if (o->kind != PTX_OP_INT || ((int64_t)o->bits != first && (int64_t)o->bits != second))
		lower_fail(L, "wgmma.mma_async: %s (operand %u) must be the immediate %d or %d", what, i + 1, first, second);
	return (int)(int64_t)o->bits;
}

/* The row of B (of K) that given element kc of a sparse A's row g (r 0) or g + 8 (r 1)
 * multiplies, where the metadata puts it. The metadata is laid out as mma.sp's of the warp's
 * 16 rows (lower_matrix.c: sparse_position): for 2:4 (16- and 8-bit elements), elements 2i
 * and 2i + 1 are four i's given two; for tf32's 1:2, element i is pair i's one, its 4-bit
 * index that of a four of 16-bit halves (0b0100: the first, 0b1110: the second). */
static LLVMValueRef sparse_b_row(struct lower *L, const struct wgmma_form *f, const LLVMValueRef *metadata,
                                 unsigned r, unsigned kc)
{
	if (f->a == WG_TF32) {
		LLVMValueRef half = sparse_position(L, metadata, true, r, kc, 0);
		return LLVMBuildAdd(L->b, const32(L, 2 * kc), LLVMBuildLShr(L->b, half, const32(L, 1), ""), "");
	}
	return LLVMBuildAdd(L->b, const32(L, 4 * (kc / 2)),
	                    sparse_position(L, metadata, f->bits == 16, r, kc / 2, kc % 2), "");
}

/* wgmma.mma_async{.sp}.sync.aligned.m64nNkK.dtype.atype.btype{.satfinite} d, a, b-desc
 * {, sp-meta, sp-sel}, scale-d {, imm-scale-a, imm-scale-b{, imm-trans-a}{, imm-trans-b}}: a is a
 * descriptor (a 64-bit value) or four registers; imm-trans only with 16-bit multiplicands
 * (imm-trans-a only with A from shared memory), imm-scale with floats. D = A B + (scale-d ? D :
 * 0), A and B negated where imm-scale is -1. A sparse A (.sp) is given as the 64 x K/2 matrix of
 * its rows' given elements, laid out (in registers or shared memory) as a dense A of K/2 is;
 * sp-meta says where each lies in its row and sp-sel (a constant) which lanes of a group of
 * four hold that. The b1 form (.s32.b1.b1.and.popc, K 256) adds the population count of the
 * and of A's row and B's column, 32 bits a word. */
static void lower_mma_async(struct lower *L)
{
	struct wgmma_form f = wgmma_form(L);
	bool a_in_registers = op(L, 1)->kind == PTX_OP_BRACES, halves = f.bits == 16;
	unsigned after_b = f.sparse ? 5 : 3;  /* scale-d's operand */
	unsigned want = after_b + 1 + (f.integer ? 0 : 2) + (halves ? (a_in_registers ? 1 : 2) : 0);
	/* A's elements a row (K, or K/2 of a sparse A); K in A's registers 0 and 1; the elements
	 * each product takes (b1: a word's 32) */
	unsigned given = f.sparse ? f.k / 2 : f.k, per_word = 32 / f.bits, chunk = 4 * per_word;
	unsigned step = f.binary ? 32 : 1;
	/* D's registers, and the columns a thread holds in each of its two rows */
	unsigned nd = f.d == WG_F16 ? f.n / 4 : f.n / 2, columns = f.n / 4;
	LLVMTypeRef f32 = LLVMFloatTypeInContext(L->ctx), i32 = ll_int(L, 32);

	if (L->insn->nops != want)
		lower_fail(L, "wgmma.mma_async of this form with A %s takes %u operands, not %u",
		           a_in_registers ? "in registers" : "from a descriptor", want, L->insn->nops);
	int scale_a = f.integer ? 1 : immediate_operand(L, after_b + 1, "imm-scale-a", 1, -1);
	int scale_b = f.integer ? 1 : immediate_operand(L, after_b + 2, "imm-scale-b", 1, -1);
	bool trans_a = halves && !a_in_registers && immediate_operand(L, after_b + 3, "imm-trans-a", 0, 1);
	bool trans_b = halves && immediate_operand(L, want - 1, "imm-trans-b", 0, 1);
	const struct ptx_operand *d = op(L, 0);
	if (d->kind != PTX_OP_BRACES || d->count != nd)
		lower_fail(L, "wgmma.mma_async.m64n%uk%u with %s D needs %u registers in braces", f.n, f.k,
		           f.d == WG_F16 ? "an f16" : "a 32-bit", nd);
	if (a_in_registers && op(L, 1)->count != 4)
		lower_fail(L, "wgmma.mma_async: A in registers needs 4 of them");

	LLVMValueRef lane = call_builtin(L, "__zc_laneid", i32, NULL, 0);
	LLVMValueRef g = LLVMBuildLShr(L->b, lane, const32(L, 2), ""), t = LLVMBuildAnd(L->b, lane, const32(L, 3), "");
	LLVMValueRef warp = LLVMBuildAnd(L->b, call_builtin(L, "__zc_warpid", i32, NULL, 0), const32(L, 3), "");
	LLVMValueRef keep_d = operand_value(L, op(L, after_b), PTX_TYPE_PRED);
	LLVMValueRef row[2], column[256 / 4], acc[2][256 / 4], a_words[4][4], metadata[4];
	struct descriptor desc_a = {0}, desc_b = descriptor_of(L, op(L, 2), trans_b);

	if (f.sparse) {
		/* a row's 8 fours of 16-bit elements (or pairs of tf32) take 32 bits: two lanes hold
		 * the group's two rows, the selector says which two; its 16 fours of 8-bit ones, all
		 * four lanes */
		unsigned lanes = f.bits == 8 ? 4 : 2;
		const struct ptx_operand *selector = op(L, 4);
		if (selector->kind != PTX_OP_INT || selector->bits >= 4 / lanes)
			lower_fail(L, "wgmma.mma_async.sp: the sparsity selector of this form is a constant from 0 to %u",
			           4 / lanes - 1);
		sparse_metadata(L, operand_value(L, op(L, 3), PTX_TYPE_B32), g, (unsigned)selector->bits, lanes, metadata);
	}
	row[0] = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, warp, const32(L, 4), ""), g, "");
	row[1] = LLVMBuildAdd(L->b, row[0], const32(L, 8), "");
	if (a_in_registers)  /* row g's words from lanes 4g to 4g+3, as lower_mma gathers them */
		for (unsigned j = 0; j < 4; j++) {
			LLVMValueRef from = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, g, const32(L, 2), ""), const32(L, j), "");
			for (unsigned i = 0; i < 4; i++)
				a_words[j][i] = shuffle_idx(L, operand_value(L, &op(L, 1)->items[i], PTX_TYPE_B32), from);
		}
	else
		desc_a = descriptor_of(L, op(L, 1), trans_a);
	for (unsigned c = 0; c < columns; c++)  /* 8(c/2) + 2t + c%2 */
		column[c] = LLVMBuildAdd(L->b, LLVMBuildShl(L->b, t, const32(L, 1), ""), const32(L, 8 * (c / 2) + c % 2), "");
	for (unsigned r = 0; r < 2; r++)
		for (unsigned c = 0; c < columns; c++) {
			unsigned i = 4 * (c / 2) + 2 * r + c % 2;  /* the accumulator's index in D's fragment */
			LLVMValueRef before = f.integer ? const32(L, 0)  /* the products' sum; D is added at the end */
			                    : f.d == WG_F16 ? half_as_float(L, operand_value(L, &d->items[i / 2], PTX_TYPE_B32), c % 2, false)
			                    : operand_value(L, &d->items[i], PTX_TYPE_F32);
			acc[r][c] = f.integer ? before : LLVMBuildSelect(L->b, keep_d, before, LLVMConstReal(f32, 0), "");
		}
	bool by_instruction = L->matrix_instructions && halves && !f.sparse && !a_in_registers;

	L->chose_matrix_form = true;
	if (by_instruction)
		wgmma_by_instruction(L, &f, &desc_a, &desc_b, warp, lane, scale_a, scale_b, acc);
	for (unsigned k = 0; k < given && !by_instruction; k += step) {
		LLVMValueRef x[2], b_row[2];
		for (unsigned r = 0; r < 2; r++) {
			LLVMValueRef word = a_in_registers ? a_words[(k % chunk) / per_word][2 * (k / chunk) + r] : NULL;
			x[r] = f.binary ? (word ? word : shared_bits(L, &desc_a, row[r], const32(L, k / 32), 4))
			     : word ? multiplicand(L, word, k % per_word, f.a)
			     : shared_element(L, &desc_a, row[r], const32(L, k), &f, f.a);
			if (scale_a < 0)
				x[r] = LLVMBuildFNeg(L->b, x[r], "");
			/* b1's K in 32-bit words */
			b_row[r] = f.sparse ? sparse_b_row(L, &f, metadata, r, k) : const32(L, f.binary ? k / 32 : k);
		}
		for (unsigned c = 0; c < columns; c++) {
			LLVMValueRef y = NULL;
			for (unsigned r = 0; r < 2; r++) {
				if (!y || f.sparse) {  /* the rows of a sparse A take B's rows of their own */
					y = f.binary ? shared_bits(L, &desc_b, column[c], b_row[r], 4)
					             : shared_element(L, &desc_b, column[c], b_row[r], &f, f.b);
					if (scale_b < 0)
						y = LLVMBuildFNeg(L->b, y, "");
				}
				LLVMValueRef args[3] = { x[r], y, acc[r][c] };
				if (f.binary) {
					LLVMValueRef bits = LLVMBuildAnd(L->b, x[r], y, "");
					acc[r][c] = LLVMBuildAdd(L->b, acc[r][c], call_intrinsic(L, "llvm.ctpop", &i32, 1, &bits, 1), "");
				} else {
					acc[r][c] = f.integer ? LLVMBuildAdd(L->b, acc[r][c], LLVMBuildMul(L->b, x[r], y, ""), "")
					                      : call_intrinsic(L, "llvm.fma", &f32, 1, args, 3);
				}
			}
		}
	}
	for (unsigned r = 0; r < 2; r++)
		for (unsigned c = 0; c < columns; c++) {
			unsigned i = 4 * (c / 2) + 2 * r + c % 2;
			if (f.integer) {
				/* 32 products of 8 bits (or 256 of 1): the sum is exact in 32 bits; D + sum
				 * wraps or, with .satfinite, saturates in one addition */
				LLVMValueRef args[2] = { operand_value(L, &d->items[i], PTX_TYPE_S32), acc[r][c] };
				LLVMValueRef added = has_mod(L, "satfinite") ? call_intrinsic(L, "llvm.sadd.sat", &i32, 1, args, 2)
				                                             : LLVMBuildAdd(L->b, args[0], args[1], "");
				operand_store(L, &d->items[i], LLVMBuildSelect(L->b, keep_d, added, acc[r][c], ""), PTX_TYPE_S32);
			} else if (f.d == WG_F32) {
				operand_store(L, &d->items[i], acc[r][c], PTX_TYPE_F32);
			} else if (c % 2) {  /* an f16 pair, rounded once from the f32 sums */
				LLVMValueRef pair = LLVMBuildOr(L->b, float_as_half(L, acc[r][c - 1]),
				                                LLVMBuildShl(L->b, float_as_half(L, acc[r][c]), const32(L, 16), ""), "");
				operand_store(L, &d->items[i / 2], pair, PTX_TYPE_B32);
			}
		}
}

bool lower_wgmma(struct lower *L)
{
	if (strcmp(L->insn->opcode, "wgmma"))
		return false;
	if (has_mod(L, "mma_async"))
		lower_mma_async(L);
	else if (has_mod(L, "fence") || has_mod(L, "commit_group"))
		expect_operands(L, 0);  /* every multiplication is complete at its instruction */
	else if (has_mod(L, "wait_group"))
		expect_operands(L, 1);
	else
		lower_unsupported(L);
	return true;
}
