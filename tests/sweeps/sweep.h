/* The instruction sweeps: what gen_sweeps.py's table (sweep_cases.inc) says about each
 * generated kernel, and the references of sweep_ref.c that check it. */
#ifndef SWEEP_H
#define SWEEP_H

#include <stdbool.h>
#include <stdint.h>

enum sweep_type {
	T_NONE, T_PRED,
	T_U8, T_S8, T_U16, T_S16, T_B16, T_U32, T_S32, T_B32, T_U64, T_S64, T_B64,
	T_F16, T_BF16, T_F32, T_F64,
};

enum sweep_op {
	/* integer arithmetic */
	OP_ADD, OP_SUB, OP_MUL_LO, OP_MUL_HI, OP_MUL_WIDE, OP_MAD_LO, OP_MAD_HI, OP_MAD_WIDE,
	OP_DIV, OP_REM, OP_MIN, OP_MAX, OP_ABS, OP_NEG, OP_SAD, OP_DP4A, OP_DP2A,
	OP_CHAIN, /* carry chains; imm says which (sweep_ref.c) */
	OP_VIDEO, /* vop2/vop4: imm the operation (enum video), imm2 the lane count */
	/* bits */
	OP_POPC, OP_CLZ, OP_BREV, OP_BFIND, OP_BFE, OP_BFI, OP_BMSK, OP_SZEXT, OP_SHF, OP_PRMT,
	OP_LOP3, OP_SHL, OP_SHR, OP_AND, OP_OR, OP_XOR, OP_NOT, OP_CNOT,
	/* comparisons */
	OP_SETP, OP_SET, OP_SELP, OP_SLCT,
	/* conversions */
	OP_CVT, OP_CVT_PACK, /* OP_CVT_PACK: two f32 to an f16x2/bf16x2 (dtype: the half type) */
	/* floating point */
	OP_FADD, OP_FSUB, OP_FMUL, OP_FFMA, OP_FDIV, OP_FSQRT, OP_FRCP, OP_FMIN, OP_FMAX,
	OP_FABS, OP_FNEG, OP_COPYSIGN, OP_TESTP,
	OP_APPROX_RCP, OP_APPROX_SQRT, OP_APPROX_RSQRT, OP_APPROX_EX2, OP_APPROX_LG2,
	OP_APPROX_SIN, OP_APPROX_COS, OP_APPROX_TANH, OP_APPROX_DIV,
};

/* Modifiers, as flags. */
enum {
	M_SAT = 1 << 0, M_FTZ = 1 << 1, M_NAN = 1 << 2, M_SHIFTAMT = 1 << 3, M_CLAMP = 1 << 4,
	M_WRAP = 1 << 5, M_LEFT = 1 << 6, M_HI = 1 << 7, M_24 = 1 << 8, M_PAIR = 1 << 9,
	M_RELU = 1 << 10, M_ADD = 1 << 11,
	M_X2 = 1 << 12, /* f16x2/bf16x2 comparisons: stype is the half type, operands b32 */
};

/* imm of comparisons, cvt rounding and testp classes; imm2 of setp's combining. */
enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_LO, CMP_LS, CMP_HI, CMP_HS,
       CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN };
enum { RND_NONE, RND_RN, RND_RNI, RND_RZI, RND_RMI, RND_RPI, RND_RZ, RND_RM, RND_RP };
enum { CLASS_FINITE, CLASS_INFINITE, CLASS_NUMBER, CLASS_NOTANUMBER, CLASS_NORMAL,
       CLASS_SUBNORMAL };
enum { BOOL_NONE, BOOL_AND, BOOL_OR, BOOL_XOR };
enum video { VIDEO_ADD, VIDEO_SUB, VIDEO_AVRG, VIDEO_ABSDIFF, VIDEO_MIN, VIDEO_MAX };

/* Where an operand's values come from (sweep_inputs.c). The exhaustive ones enumerate
 * every value; a case runs over the product of its exhaustive operands, or over
 * SWEEP_RANDOM_COUNT elements when that is more. */
enum sweep_input {
	IN_NONE,
	IN_ALL8, IN_ALL16,            /* every 8- or 16-bit pattern */
	IN_F32_ALL,                   /* 2^24 patterns spread over all of f32, then the edges */
	IN_RAND16, IN_RAND32, IN_RAND64, /* random bits mixed with edge values */
	IN_PRED,                      /* 0 or 1 */
	IN_BITPOS,                    /* shift counts and bit positions: mostly 0..69 */
	IN_BITPOS_PAIR,               /* two of those, one per 32-bit word (bfi's pos, len) */
	IN_NEAR_A,                    /* an integer equal or close to operand a, or random */
	IN_F32, IN_F64,               /* random and special floats */
	IN_F32_NEAR, IN_F64_NEAR,     /* a float near operand a (same exponent or so) */
	IN_FMA_ADDEND,                /* c for fma: random, or cancelling a * b */
	IN_H2_ALL,                    /* a pair of halves: every 16-bit pattern in each half */
	IN_H2_NEAR,                   /* a pair of halves, each near operand a's or an edge */
};

enum sweep_check {
	CHECK_BITS,                   /* bit for bit */
	CHECK_F16, CHECK_BF16, CHECK_F32, CHECK_F64, /* bit for bit, but any NaN matches any NaN */
	CHECK_F16X2, CHECK_BF16X2,   /* the same, for each half of a pair */
	CHECK_APPROX,                 /* within the PTX ISA's bound for the .approx instruction */
};

struct sweep_case {
	const char *family, *kernel;
	enum sweep_op op;
	enum sweep_type dtype, stype;
	unsigned mods;
	int imm, imm2;
	enum sweep_check check;
	enum sweep_input inputs[3];
	enum sweep_type srcs[3];
	unsigned out_bytes;
};

/* The reference: the PTX ISA's definition of the case's instruction applied to the operand
 * bits in[0..2]. Returns false when PTX leaves the result unspecified (e.g. division by
 * zero); otherwise *expect holds the destination's bits (out_bytes wide). */
bool sweep_reference(const struct sweep_case *c, const uint64_t in[3], uint64_t *expect);

/* CHECK_APPROX: whether `got` is within the bound PTX gives for the instruction; *expect
 * gets the exact result rounded to f32, for messages. */
bool sweep_approx_ok(const struct sweep_case *c, const uint64_t in[3], uint32_t got,
                     uint64_t *expect);

/* Generates operand `which` of element `index` (the other operands of the element may be
 * read from `in`, which holds those generated before it). */
uint64_t sweep_input(const struct sweep_case *c, unsigned which, uint64_t index,
                     const uint64_t in[3]);
/* How many elements the case runs over. */
uint64_t sweep_count(const struct sweep_case *c);

unsigned sweep_type_bits(enum sweep_type t);
bool sweep_type_signed(enum sweep_type t);

#endif
