/* wmma on processors with matrix instructions (matrix.h): the same C for every target, the
 * generation chosen by the processor's macros, which are those the target table marks
 * (ZcTarget.matrix_instructions). Elsewhere the lowering never calls them.
 *
 * Layouts (docs/amd-wmma-layout.md), lane l, i = l % 16, h = l / 16: RDNA3 gives each of
 * lanes i and i + 16 the whole row i of A (column i of B) and D[2s + h][i] to slot s of C;
 * RDNA4 splits the row between them, k = 8h + s, and gives slot s of C D[8h + s][i]. The bf16
 * and 8-bit forms are split as on RDNA4 everywhere (PTX's fragments of them hold 8 elements a
 * lane); RDNA3's instruction takes the whole row, so the halves are exchanged before it. */
#include <stdbool.h>

#include "builtins.h"
#include "matrix.h"

#if defined(__GFX11__) || defined(__GFX12__)
#define WMMA 1

typedef _Float16 half16 __attribute__((ext_vector_type(16)));
typedef _Float16 half8 __attribute__((ext_vector_type(8)));
typedef short short16 __attribute__((ext_vector_type(16)));
typedef short short8 __attribute__((ext_vector_type(8)));
typedef float float8 __attribute__((ext_vector_type(8)));
typedef int int8 __attribute__((ext_vector_type(8)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef int int2 __attribute__((ext_vector_type(2)));
typedef uint32_t word8 __attribute__((ext_vector_type(8)));
#endif

/* c plus the products of a's and b's fields of `bits` (8 or 4) bits, each signed where
 * `signs` says (1: a's, 2: b's), wrapping: by the processor's dot instruction where it has
 * one for the signs (RDNA3 and RDNA4 for any, RDNA2 for equal ones). */
int32_t __zc_dot(uint32_t a, uint32_t b, int32_t c, uint32_t signs, uint32_t bits)
{
#if defined(__GFX11__) || defined(__GFX12__)
	bool sa = signs & 1, sb = signs & 2;
	if (bits == 8)
		return sa ? (sb ? __builtin_amdgcn_sudot4(true, (int)a, true, (int)b, c, false)
		               : __builtin_amdgcn_sudot4(true, (int)a, false, (int)b, c, false))
		          : (sb ? __builtin_amdgcn_sudot4(false, (int)a, true, (int)b, c, false)
		               : __builtin_amdgcn_sudot4(false, (int)a, false, (int)b, c, false));
	return sa ? (sb ? __builtin_amdgcn_sudot8(true, (int)a, true, (int)b, c, false)
	               : __builtin_amdgcn_sudot8(true, (int)a, false, (int)b, c, false))
	          : (sb ? __builtin_amdgcn_sudot8(false, (int)a, true, (int)b, c, false)
	               : __builtin_amdgcn_sudot8(false, (int)a, false, (int)b, c, false));
#else
#if defined(__GFX10__)
	if (signs == 3)
		return bits == 8 ? __builtin_amdgcn_sdot4((int)a, (int)b, c, false) : __builtin_amdgcn_sdot8((int)a, (int)b, c, false);
	if (signs == 0)
		return (int32_t)(bits == 8 ? __builtin_amdgcn_udot4(a, b, (uint32_t)c, false)
		                           : __builtin_amdgcn_udot8(a, b, (uint32_t)c, false));
#endif
	uint32_t sum = (uint32_t)c, mask = (1u << bits) - 1, top = 1u << (bits - 1);

	for (unsigned i = 0; i < 32 / bits; i++) {
		uint32_t x = a >> (bits * i) & mask, y = b >> (bits * i) & mask;
		int32_t vx = (signs & 1) && (x & top) ? (int32_t)x - (int32_t)(mask + 1) : (int32_t)x;
		int32_t vy = (signs & 2) && (y & top) ? (int32_t)y - (int32_t)(mask + 1) : (int32_t)y;
		sum += (uint32_t)(vx * vy);
	}
	return (int32_t)sum;
#endif
}

uint32_t __zc_wmma_element(uint32_t form, uint32_t matrix, uint32_t lane, uint32_t slot)
{
	uint32_t i = lane % 16, h = lane / 16;

	/* A by rows, B by columns: line i, element k */
#if defined(__GFX11__)
	if (matrix == ZC_WMMA_C)
		return (2 * slot + h) * 16 + i;
	return i * 16 + ((form & 0xff) == ZC_WMMA_F16 ? slot : 8 * h + slot);
#elif defined(__GFX12__)
	(void)form;
	if (matrix == ZC_WMMA_C)
		return (slot + 8 * h) * 16 + i;
	return i * 16 + 8 * h + slot % 8;
#else
	(void)form, (void)matrix, (void)i, (void)h, (void)slot;
	__builtin_trap();
#endif
}

#ifdef WMMA
static word8 words8(const uint32_t *w)
{
	return (word8){ w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7] };
}

/* A's or B's words as the instruction takes them, from the n words of this lane's fragment:
 * RDNA3 takes the whole line, so a split one (n < 8) is completed with the other half's
 * words, from lane l ^ 16; RDNA4 takes them as they are. */
static word8 operand(const uint32_t *w, unsigned n)
{
	word8 line = words8(w);
#if defined(__GFX11__)
	uint32_t lane = __zc_laneid();

	for (unsigned j = 0; n < 8 && j < n; j++) {
		uint32_t other = (uint32_t)__builtin_amdgcn_ds_bpermute((int)((lane ^ 16) << 2), (int)w[j]);

		line[j] = lane < 16 ? w[j] : other;
		line[n + j] = lane < 16 ? other : w[j];
	}
#else
	(void)n;
#endif
	return line;
}

#if defined(__GFX11__)
#define F16(a, b, c) __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(__builtin_bit_cast(half16, a), __builtin_bit_cast(half16, b), c)
#define BF16(a, b, c) __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(__builtin_bit_cast(short16, a), __builtin_bit_cast(short16, b), c)
#define IU8(sa, a, sb, b, c, clamp) \
	__builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(sa, __builtin_bit_cast(int4, (a).lo), sb, __builtin_bit_cast(int4, (b).lo), c, clamp)
#else
#define F16(a, b, c) __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(__builtin_bit_cast(half8, (a).lo), __builtin_bit_cast(half8, (b).lo), c)
#define BF16(a, b, c) __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32_gfx12(__builtin_bit_cast(short8, (a).lo), __builtin_bit_cast(short8, (b).lo), c)
#define IU8(sa, a, sb, b, c, clamp) \
	__builtin_amdgcn_wmma_i32_16x16x16_iu8_w32_gfx12(sa, __builtin_bit_cast(int2, (a).lo.lo), sb, __builtin_bit_cast(int2, (b).lo.lo), c, clamp)
#endif

static word8 multiply(uint32_t form, const uint32_t *words)
{
	word8 c = words8(words + 16);
	/* the fragment's words: f16 16 elements a lane, bf16 8, s8 and u8 8 */
	unsigned n = form == ZC_WMMA_F16 ? 8 : (form & 0xff) == ZC_WMMA_BF16 ? 4 : 2;
	word8 a = operand(words, n), b = operand(words + 8, n);
	float8 cf = __builtin_bit_cast(float8, c);
	int8 ci = __builtin_bit_cast(int8, c);

	/* signedness and clamp are immediates of the instruction */
	switch (form) {
	case ZC_WMMA_F16: return __builtin_bit_cast(word8, F16(a, b, cf));
	case ZC_WMMA_BF16: return __builtin_bit_cast(word8, BF16(a, b, cf));
	case ZC_WMMA_S8: return __builtin_bit_cast(word8, IU8(true, a, true, b, ci, false));
	case ZC_WMMA_S8 | ZC_WMMA_SATFINITE: return __builtin_bit_cast(word8, IU8(true, a, true, b, ci, true));
	case ZC_WMMA_U8: return __builtin_bit_cast(word8, IU8(false, a, false, b, ci, false));
	default: return __builtin_bit_cast(word8, IU8(false, a, false, b, ci, true));
	}
}

/* ---- mma.sync by WMMA --------------------------------------------------------------
 * PTX fixes mma's fragments: a register of m16n8k16's 16-bit or m16n8k32's 8-bit elements
 * is word q of a row of A (k = 2q or 4q), held by lane 4(m % 8) + q % 4 in a[(m >= 8) +
 * 2(q >= 4)], or of a column n of B, held by lane 4n + q % 4 in b[q >= 4]; C and D hold
 * D[g + 8r][2t + j] in register 2r + j of lane 4g + t. The instruction computes the
 * transpose, E = B^T A^T (16x16, its rows 8..15 zero), so that each lane's D comes from one
 * lane's E at a slot that varies with t only: gathering takes fewer shuffles that way. */
static uint32_t lane_value(uint32_t value, uint32_t from)
{
	return (uint32_t)__builtin_amdgcn_ds_bpermute((int)(from << 2), (int)value);
}

/* A register of another lane chosen by this lane: one shuffle per candidate register (the
 * compiler drops those `reg` cannot be). */
static uint32_t gather(const uint32_t *regs, unsigned n, uint32_t from, uint32_t reg)
{
	uint32_t v = 0;

	for (unsigned r = 0; r < n; r++) {
		uint32_t x = lane_value(regs[r], from);
		v = r == reg ? x : v;
	}
	return v;
}

/* The instruction's operands from words base.. of this lane's line (row n of B^T, column m
 * of A^T, both lane % 16): RDNA3 takes a whole line of `per_line` words, RDNA4 half of it,
 * the other half in lane + 16. */
static void mma_operands(const uint32_t *a, const uint32_t *b, unsigned per_line, unsigned base,
                         word8 *bt, word8 *at)
{
	uint32_t lane = __zc_laneid(), line = lane % 16;
#if defined(__GFX11__)
	unsigned count = per_line, first = base;
#else
	unsigned count = per_line / 2, first = base + lane / 16 * per_line / 2;
#endif

	*bt = *at = (word8){ 0 };
	for (unsigned j = 0; j < count; j++) {
		uint32_t q = first + j, b_word = gather(b, 2, 4 * (line % 8) + q % 4, q >= 4);

		(*bt)[j] = line < 8 ? b_word : 0;
		(*at)[j] = gather(a, 4, 4 * (line % 8) + q % 4, (line >= 8) + 2 * (q >= 4));
	}
}

/* This lane's D words of columns 8 half to 8 half + 7 from E: D[m][n] = E[n][m], m = g + 8r,
 * n = 8 half + 2t + j. */
static void mma_result(word8 e, unsigned half, uint32_t *d)
{
	uint32_t lane = __zc_laneid(), g = lane / 4, t = lane % 4;

	for (unsigned r = 0; r < 2; r++)
		for (unsigned j = 0; j < 2; j++) {
#if defined(__GFX11__)  /* E[n][m] in lane m + 16(n % 2), slot n / 2 = 4 half + t */
			uint32_t from = g + 8 * r + 16 * j, v = 0;
			for (unsigned slot = 0; slot < 4; slot++) {
				uint32_t x = lane_value(e[4 * half + slot], from);
				v = slot == t ? x : v;
			}
#else  /* E[n][m] in lane m + 16(n / 8), slot n % 8 = 2t + j */
			uint32_t from = g + 8 * r + 16 * half, v = 0;
			for (unsigned s2 = 0; s2 < 4; s2++) {
				uint32_t x = lane_value(e[2 * s2 + j], from);
				v = s2 == t ? x : v;
			}
#endif
			d[2 * r + j] = v;
		}
}
#endif

void __zc_mma_m16n8(uint32_t form, uint32_t *words)
{
#ifdef WMMA
	word8 bt, at;
	word8 zero = { 0 };

	if (form == ZC_WMMA_F16 || form == ZC_WMMA_BF16) {  /* m16n8k16 */
		mma_operands(words, words + 4, 8, 0, &bt, &at);
		float8 e = form == ZC_WMMA_F16 ? F16(bt, at, __builtin_bit_cast(float8, zero))
		                               : BF16(bt, at, __builtin_bit_cast(float8, zero));
		mma_result(__builtin_bit_cast(word8, e), 0, words + 10);
		return;
	}
	/* m16n8k32 of 8-bit integers: two halves of K; at most 32 products of 8 bits, so the sum
	 * is exact in 32 bits without clamping */
	bool is_signed = form == ZC_WMMA_S8;
	int8 e = __builtin_bit_cast(int8, zero);
	for (unsigned half = 0; half < 2; half++) {
		mma_operands(words, words + 4, 4, 4 * half, &bt, &at);
		e = is_signed ? IU8(true, bt, true, at, e, false) : IU8(false, bt, false, at, e, false);
	}
	mma_result(__builtin_bit_cast(word8, e), 0, words + 10);
#else
	(void)form;
	(void)words;
	__builtin_trap();
#endif
}

#ifdef WMMA
/* ---- mma.sync by WMMA, staged through shared memory ---------------------------------
 * In kernels of at most 256 threads (.maxntid or .reqntid says so), each warp has 512 bytes
 * of a workgroup array: the lanes write their fragments there in PTX's layout and read them
 * back in the instruction's, a few wide accesses instead of a shuffle for each word. C goes
 * through the instruction too, so D is rounded once. A warp's shared-memory accesses happen
 * in program order, so one slice serves A, then B, then C and D; the fences keep the
 * compiler from moving one lane's access across another lane's. The slice holds A as 16
 * lines of 8 words (word q of row m: A[m][2q..2q+1], or [4q..4q+3] for 8-bit elements), B
 * as 8 such lines (B^T), and C and D at the slot the instruction wants them in. */
#define STAGED_WARPS 8
typedef __attribute__((address_space(3))) uint32_t shared_word;
static __attribute__((address_space(3), loader_uninitialized, aligned(16))) uint32_t staged_slices[STAGED_WARPS][128];

static void stage_fence(void)
{
	__builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "wavefront");
	__builtin_amdgcn_wave_barrier();
}

/* count (at most 8) words from word first: a loop of constant length, which is unrolled into
 * wide accesses once the form has made count a constant. */
static word8 staged_words(const shared_word *s, unsigned first, unsigned count)
{
	word8 v = { 0 };

	for (unsigned j = 0; j < 8; j++)
		if (j < count)
			v[j] = s[first + j];
	return v;
}

/* Where C[m][n] and D[m][n] (n < 8) are staged: the 16 words of column n, the 8 that lane n
 * holds (RDNA3: the even rows; RDNA4: rows 0-7) then the 8 of lane n + 16, each in its
 * slot's order. */
static unsigned accumulator_slot(unsigned m, unsigned n)
{
#if defined(__GFX11__)
	return n * 16 + m % 2 * 8 + m / 2;
#else
	return n * 16 + m;
#endif
}

void __zc_mma_m16n8_staged(uint32_t form, uint32_t *words)
{
	uint32_t lane = __zc_laneid(), g = lane / 4, t = lane % 4, line = lane % 16, h = lane / 16;
	shared_word *s = staged_slices[__zc_warpid() % STAGED_WARPS];
	bool integer = form == ZC_WMMA_S8 || form == ZC_WMMA_U8;
	unsigned calls = integer ? 2 : 1;  /* m16n8k32 of 8 bits: two halves of K */
#if defined(__GFX11__)
	unsigned count = integer ? 4 : 8, part = 0;
#else
	unsigned count = integer ? 2 : 4, part = h * count;  /* RDNA4: half a line a lane */
#endif
	word8 a[2], b[2], c;

	stage_fence();
	s[g * 8 + t] = words[0];
	s[(g + 8) * 8 + t] = words[1];
	s[g * 8 + t + 4] = words[2];
	s[(g + 8) * 8 + t + 4] = words[3];
	stage_fence();
	for (unsigned k = 0; k < calls; k++)
		a[k] = staged_words(s, line * 8 + 4 * k + part, count);
	stage_fence();
	s[g * 8 + t] = words[4];
	s[g * 8 + t + 4] = words[5];
	stage_fence();
	/* lanes 8-15 read B's columns again: D's columns 8-15 are computed and not read */
	for (unsigned k = 0; k < calls; k++)
		b[k] = staged_words(s, line % 8 * 8 + 4 * k + part, count);
	stage_fence();
	for (unsigned r = 0; r < 2; r++)
		for (unsigned j = 0; j < 2; j++)
			s[accumulator_slot(g + 8 * r, 2 * t + j)] = words[6 + 2 * r + j];
	stage_fence();
	c = staged_words(s, line % 8 * 16 + 8 * h, 8);
	if (integer) {
		bool is_signed = form == ZC_WMMA_S8;
		int8 e = __builtin_bit_cast(int8, c);
		for (unsigned k = 0; k < calls; k++)
			e = is_signed ? IU8(true, a[k], true, b[k], e, false) : IU8(false, a[k], false, b[k], e, false);
		c = __builtin_bit_cast(word8, e);
	} else {
		float8 cf = __builtin_bit_cast(float8, c);
		c = __builtin_bit_cast(word8, form == ZC_WMMA_F16 ? F16(a[0], b[0], cf) : BF16(a[0], b[0], cf));
	}
	stage_fence();
	for (unsigned v = 0; v < 8; v++)
		s[line % 8 * 16 + 8 * h + v] = c[v];
	stage_fence();
	for (unsigned r = 0; r < 2; r++)
		for (unsigned j = 0; j < 2; j++)
			words[10 + 2 * r + j] = s[accumulator_slot(g + 8 * r, 2 * t + j)];
}

/* ---- wgmma by WMMA ----------------------------------------------------------------------
 * One 16x16 tile of a warp's part of a wgmma D (its 16 rows, 16 of the N columns), as mma's
 * m16n8 accumulators lay out each 8 columns, from this lane's line of A (row l % 16) and of
 * B (column l % 16), each 16 elements of 16 bits that the lowering read from shared memory.
 * The instruction computes the transpose, E = B^T A^T (wgmma_transposed_tile), so that a
 * lane's D comes from one lane's E at a slot that varies with t only, as mma_result takes
 * it. */
static word8 wgmma_transposed_tile(uint32_t form, const uint32_t *words)
{
	word8 a = words8(words), b = words8(words + 8), zero = { 0 };
#if defined(__GFX12__)  /* half a line a lane: k 8h to 8h + 7 */
	if (__zc_laneid() >= 16) {
		a = (word8){ a[4], a[5], a[6], a[7], 0, 0, 0, 0 };
		b = (word8){ b[4], b[5], b[6], b[7], 0, 0, 0, 0 };
	}
#endif
	float8 e = form == ZC_WMMA_F16 ? F16(b, a, __builtin_bit_cast(float8, zero))
	                               : BF16(b, a, __builtin_bit_cast(float8, zero));
	return __builtin_bit_cast(word8, e);
}

void __zc_wgmma_tile(uint32_t form, uint32_t *words)
{
	word8 e = wgmma_transposed_tile(form, words);

	for (unsigned half = 0; half < 2; half++)
		mma_result(e, half, words + 16 + 4 * half);
}

/* The same through the warp's slice of the staging array (kernels of at most 256 threads):
 * each half of E (8 of D's columns, 128 words) is written there by rows of 16 and read back
 * by the lanes that hold its D. */
void __zc_wgmma_tile_staged(uint32_t form, uint32_t *words)
{
	uint32_t lane = __zc_laneid(), g = lane / 4, t = lane % 4, m = lane % 16;
	shared_word *s = staged_slices[__zc_warpid() % STAGED_WARPS];
	word8 ew = wgmma_transposed_tile(form, words);

	for (unsigned half = 0; half < 2; half++) {
		stage_fence();
#if defined(__GFX11__)  /* E[n][m] in lane m + 16(n % 2), slot n / 2 */
		for (unsigned slot = 4 * half; slot < 4 * half + 4; slot++)
			s[(2 * slot + lane / 16 - 8 * half) * 16 + m] = ew[slot];
#else  /* E[n][m] in lane m + 16(n / 8), slot n % 8 */
		if (lane / 16 == half)
			for (unsigned slot = 0; slot < 8; slot++)
				s[slot * 16 + m] = ew[slot];
#endif
		stage_fence();
		for (unsigned r = 0; r < 2; r++)  /* D[g + 8r][8 half + 2t + j] = E[8 half + 2t + j][g + 8r] */
			for (unsigned j = 0; j < 2; j++)
				words[16 + 4 * half + 2 * r + j] = s[(2 * t + j) * 16 + g + 8 * r];
	}
}
#else
void __zc_wgmma_tile_staged(uint32_t form, uint32_t *words)
{
	(void)form;
	(void)words;
	__builtin_trap();
}

void __zc_mma_m16n8_staged(uint32_t form, uint32_t *words)
{
	(void)form;
	(void)words;
	__builtin_trap();
}

void __zc_wgmma_tile(uint32_t form, uint32_t *words)
{
	(void)form;
	(void)words;
	__builtin_trap();
}
#endif

void __zc_wmma_mma(uint32_t form, uint32_t *words)
{
#ifdef WMMA
	word8 d = multiply(form, words);

	for (int j = 0; j < 8; j++)
		words[16 + j] = d[j];
#else
	(void)form;
	(void)words;
	__builtin_trap();
#endif
}
