/* The wmma forms a processor may multiply with matrix instructions of its own (RDNA3's and
 * RDNA4's WMMA), and the fragment layout it then uses: what the PTX lowering
 * (ptx_frontend/lower_matrix.c) and the builtins (backend/builtins_matrix.c) agree on. The
 * PTX ISA leaves wmma's fragment layout to the implementation, so a processor with WMMA
 * holds fragments as its instructions take them (docs/amd-wmma-layout.md) and the other
 * targets as the lowering's shuffles suit. */
#ifndef ZC_MATRIX_H
#define ZC_MATRIX_H

/* m16n16k16 with these A and B types; C and D f32 (f16 ones are converted around the
 * multiplication, which rounds D once, as the portable lowering does) or s32. */
enum zc_wmma_form {
	ZC_WMMA_F16 = 1,
	ZC_WMMA_BF16,
	ZC_WMMA_S8,
	ZC_WMMA_U8,
};
/* Or'ed into an integer form: .satfinite (a saturating sum). */
enum { ZC_WMMA_SATFINITE = 0x100 };

/* The fragments of a form, as __zc_wmma_element names them. */
enum zc_wmma_matrix { ZC_WMMA_A, ZC_WMMA_B, ZC_WMMA_C };

#endif
