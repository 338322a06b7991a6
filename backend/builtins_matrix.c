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
