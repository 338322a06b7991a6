/* Whether a module's single-precision code flushes subnormals everywhere, so that a target
 * with a denormal mode register can flush them by mode (the kernel descriptor's
 * FLOAT_DENORM_MODE_32) instead of with a compare and a select around every operation.
 *
 * Code nvcc builds with -use_fast_math (or -ftz=true) writes .ftz on every f32 operation
 * that has the form, so the usual answer is all or nothing. One operation that must keep a
 * subnormal (an f32 add without .ftz, a bf16 operation, which LLVM computes in f32 on
 * processors without bf16 arithmetic, a conversion that can produce or keep one) makes the
 * module keep them, and the lowering then flushes each .ftz operation itself. */
#include <string.h>

#include "lower.h"

static bool has(const struct ptx_insn *insn, const char *mod)
{
	for (uint32_t i = 0; i < insn->nmods; i++)
		if (!strcmp(insn->mods[i], mod))
			return true;
	return false;
}

static enum ptx_type type_at(const struct ptx_insn *insn, int which)
{
	for (uint32_t i = 0; i < insn->nmods; i++) {
		enum ptx_type t = ptx_type_of_modifier(insn->mods[i]);

		if (t != PTX_TYPE_NONE && which-- == 0)
			return t;
	}
	return PTX_TYPE_NONE;
}

/* A type whose arithmetic runs in the f32 denormal mode on AMDGPU. */
static bool in_f32_mode(enum ptx_type t)
{
	return t == PTX_TYPE_F32 || t == PTX_TYPE_TF32 || t == PTX_TYPE_BF16 || t == PTX_TYPE_BF16X2;
}

static bool names_f32_mode_type(const struct ptx_insn *insn)
{
	for (uint32_t i = 0; i < insn->nmods; i++)
		if (in_f32_mode(ptx_type_of_modifier(insn->mods[i])) || !strcmp(insn->mods[i], "f32x2"))
			return true;
	return false;
}

/* cvt d.dtype, a.atype: what flushing an f32 subnormal would change. */
static enum ptx_subnormals conversion_use(const struct ptx_insn *insn)
{
	enum ptx_type dt = type_at(insn, 0), st = type_at(insn, 1);
	bool to_integer = !type_is_float(dt) && !type_is_packed(dt);
	bool from_integer = !type_is_float(st) && !type_is_packed(st);

	if (!in_f32_mode(dt) && !in_f32_mode(st))
		return PTX_SUBNORMALS_UNUSED;
	if (has(insn, "ftz") && dt != PTX_TYPE_BF16 && dt != PTX_TYPE_BF16X2 && st != PTX_TYPE_BF16)
		return PTX_SUBNORMALS_FLUSHED;
	if (from_integer || st == PTX_TYPE_F16) /* never subnormal in f32 */
		return PTX_SUBNORMALS_UNUSED;
	/* a subnormal rounds to a zero of its sign either way, and to an integer zero */
	if (st == PTX_TYPE_F32 && (to_integer || dt == PTX_TYPE_F32) && (has(insn, "rni") || has(insn, "rzi")))
		return PTX_SUBNORMALS_UNUSED;
	if (st == PTX_TYPE_F32 && dt == PTX_TYPE_F16 && !has(insn, "rz") && !has(insn, "rm") && !has(insn, "rp"))
		return PTX_SUBNORMALS_UNUSED;
	return PTX_SUBNORMALS_KEPT;
}

static enum ptx_subnormals instruction_use(const struct ptx_insn *insn)
{
	/* moves, selections and bit operations keep every bit in any mode; PTX's f32 atomic
	 * add flushes subnormals itself (a bf16 one is computed in f32) */
	static const char *const neutral[] = {
		"mov", "ld", "ldu", "st", "selp", "shfl", "prmt", "testp", "copysign", "abs", "neg",
		"atom", "red", "cvta", "isspacep", "mapa",
	};
	const char *o = insn->opcode;

	if (!strcmp(o, "cvt"))
		return conversion_use(insn);
	/* no .ftz form (nvcc's fast tanhf): the builtin returns an operand below 2^-5 as it is,
	 * so a subnormal stays one in either mode */
	if (!strcmp(o, "tanh") && type_at(insn, 0) == PTX_TYPE_F32)
		return PTX_SUBNORMALS_UNUSED;
	if (!names_f32_mode_type(insn))
		return PTX_SUBNORMALS_UNUSED;
	bool bf16 = type_at(insn, 0) == PTX_TYPE_BF16 || type_at(insn, 0) == PTX_TYPE_BF16X2;
	bool computed = bf16 && (!strcmp(o, "atom") || !strcmp(o, "red"));

	for (size_t i = 0; i < sizeof(neutral) / sizeof(neutral[0]); i++)
		if (!strcmp(o, neutral[i]) && !has(insn, "ftz") && !computed)
			return PTX_SUBNORMALS_UNUSED;
	return has(insn, "ftz") && !bf16 ? PTX_SUBNORMALS_FLUSHED : PTX_SUBNORMALS_KEPT;
}

static enum ptx_subnormals statements_use(const struct ptx_stmt *s)
{
	enum ptx_subnormals u = PTX_SUBNORMALS_UNUSED;

	for (; s && u != PTX_SUBNORMALS_KEPT; s = s->next) {
		enum ptx_subnormals v = s->kind == PTX_STMT_BLOCK ? statements_use(s->u.block)
		           : s->kind == PTX_STMT_INSN ? instruction_use(&s->u.insn) : PTX_SUBNORMALS_UNUSED;

		u = v > u ? v : u;
	}
	return u;
}

enum ptx_subnormals ptx_f32_subnormals(const struct ptx_module *module)
{
	enum ptx_subnormals u = PTX_SUBNORMALS_UNUSED;

	for (const struct ptx_item *it = module->items; it && u != PTX_SUBNORMALS_KEPT; it = it->next) {
		if (it->kind == PTX_ITEM_FUNC && it->u.func.has_body) {
			enum ptx_subnormals v = statements_use(it->u.func.body);

			u = v > u ? v : u;
		}
	}
	return u;
}
