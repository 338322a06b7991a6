/* Which functions of a module run in the processor's f32 flushing mode, so that a target
 * with a denormal mode register flushes subnormals by mode (the kernel descriptor's
 * FLOAT_DENORM_MODE_32) instead of with a compare and a select around every operation.
 *
 * Code nvcc builds with -use_fast_math (or -ftz=true) writes .ftz on every f32 operation
 * that has the form. One operation that must keep a subnormal (an f32 add without .ftz, a
 * bf16 operation, which LLVM computes in f32 on processors without bf16 arithmetic, a
 * conversion that can produce or keep one, an f32 matrix product) keeps its kernel out of
 * the mode: the mode is the kernel's, so each kernel is planned with every function it can
 * call, and the lowering flushes each .ftz operation itself elsewhere. */
#include <stdlib.h>
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

/* ---- the plan of one module's functions ---------------------------------------------- */

struct row {
	struct sym *sym;
	enum ptx_subnormals own;
	bool unknown;        /* calls through a pointer, or a function defined elsewhere */
	bool address_taken;  /* so any indirect call, here or in another module, may reach it */
	bool by_flushing, by_other; /* reached from kernels planned each way */
	uint32_t *callees, ncallees, cap;
	uint32_t stamp;
};

struct plan {
	struct lower *L;
	struct row *rows;
	uint32_t nrows;
};

static struct sym *function_named(struct plan *P, const struct ptx_operand *o)
{
	struct sym *s = o->kind == PTX_OP_NAME && o->name ? symtab_find(&P->L->globals, o->name) : NULL;

	return s && s->kind == SYM_FUNC ? s : NULL;
}

/* Every function an operand names, anywhere but as a call's target, has its address taken. */
static void note_addresses(struct plan *P, const struct ptx_operand *o)
{
	struct sym *f = function_named(P, o);

	if (f && f->plan_index)
		P->rows[f->plan_index - 1].address_taken = true;
	for (uint32_t i = 0; o->items && i < o->count; i++)
		note_addresses(P, &o->items[i]);
}

static void note_call(struct plan *P, struct row *r, const struct ptx_insn *insn)
{
	uint32_t i = insn->nops && insn->ops[0].kind == PTX_OP_LIST; /* after the results */
	struct sym *f = i < insn->nops ? function_named(P, &insn->ops[i]) : NULL;

	for (uint32_t k = 0; k < insn->nops; k++)
		if (k != i)
			note_addresses(P, &insn->ops[k]);
	if (f && f->plan_index) {
		if (r->ncallees == r->cap) {
			uint32_t *grown = lower_alloc(2 * (r->cap + 4) * sizeof(*grown));

			memcpy(grown, r->callees, r->ncallees * sizeof(*grown));
			free(r->callees);
			r->callees = grown;
			r->cap = 2 * (r->cap + 4);
		}
		r->callees[r->ncallees++] = f->plan_index - 1;
	} else if (!f || !(is_runtime_function(f->name) || is_device_runtime_call(f->name))) {
		r->unknown = true;
	}
}

static void read_statements(struct plan *P, struct row *r, const struct ptx_stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind == PTX_STMT_BLOCK) {
			read_statements(P, r, s->u.block);
		} else if (s->kind == PTX_STMT_INSN) {
			enum ptx_subnormals u = instruction_use(&s->u.insn);

			r->own = u > r->own ? u : r->own;
			if (!strcmp(s->u.insn.opcode, "call"))
				note_call(P, r, &s->u.insn);
			else
				for (uint32_t k = 0; k < s->u.insn.nops; k++)
					note_addresses(P, &s->u.insn.ops[k]);
		} else if (s->kind == PTX_STMT_VAR && s->u.var.init) {
			note_addresses(P, s->u.var.init);
		}
	}
}

/* What the kernel and everything it can call do with subnormals; marks what it reaches. */
static enum ptx_subnormals closure(struct plan *P, uint32_t kernel, uint32_t stamp, uint32_t *stack)
{
	enum ptx_subnormals u = PTX_SUBNORMALS_UNUSED;
	uint32_t depth = 0;

	P->rows[kernel].stamp = stamp;
	stack[depth++] = kernel;
	while (depth) {
		struct row *r = &P->rows[stack[--depth]];

		u = r->own > u ? r->own : u;
		if (r->unknown)
			u = PTX_SUBNORMALS_KEPT;
		for (uint32_t i = 0; i < r->ncallees; i++)
			if (P->rows[r->callees[i]].stamp != stamp) {
				P->rows[r->callees[i]].stamp = stamp;
				stack[depth++] = r->callees[i];
			}
	}
	return u;
}

static void mark_reached(struct plan *P, uint32_t stamp, bool flushing)
{
	for (uint32_t i = 0; i < P->nrows; i++)
		if (P->rows[i].stamp == stamp) {
			P->rows[i].by_flushing |= flushing;
			P->rows[i].by_other |= !flushing;
		}
}

void plan_f32_modes(struct lower *L, bool unit_flushes)
{
	struct plan P = {.L = L};
	uint32_t n = 0, *stack;

	if (!L->target->flushes_f32_by_mode)
		return;
	for (const struct ptx_item *it = L->module->items; it; it = it->next)
		n += it->kind == PTX_ITEM_FUNC && it->u.func.has_body;
	P.rows = lower_alloc((n + 1) * sizeof(*P.rows));
	stack = lower_alloc((n + 1) * sizeof(*stack));
	for (const struct ptx_item *it = L->module->items; it; it = it->next) {
		struct sym *f = it->kind == PTX_ITEM_FUNC && it->u.func.has_body
		              ? symtab_find(&L->globals, it->u.func.name) : NULL;

		if (f && !f->plan_index) {
			P.rows[P.nrows].sym = f;
			f->plan_index = ++P.nrows;
		}
	}
	for (const struct ptx_item *it = L->module->items; it && !unit_flushes; it = it->next) {
		if (it->kind == PTX_ITEM_VAR && it->u.var.init)
			note_addresses(&P, it->u.var.init);
		else if (it->kind == PTX_ITEM_ALIAS)
			note_addresses(&P, &(struct ptx_operand){.kind = PTX_OP_NAME, .name = it->u.alias.target});
	}
	for (uint32_t i = 0; i < P.nrows && !unit_flushes; i++)
		read_statements(&P, &P.rows[i], P.rows[i].sym->func->body);
	for (uint32_t i = 0; i < P.nrows && !unit_flushes; i++)
		if (P.rows[i].sym->func->is_entry)
			mark_reached(&P, i + 1, closure(&P, i, i + 1, stack) == PTX_SUBNORMALS_FLUSHED);
	for (uint32_t i = 0; i < P.nrows; i++) {
		struct row *r = &P.rows[i];
		const struct ptx_func *f = r->sym->func;
		bool private = !(f->linkage & (PTX_LINK_VISIBLE | PTX_LINK_WEAK | PTX_LINK_EXTERN)) &&
		               !r->address_taken;

		/* every f32 operation of the unit flushes: so does every function, wherever called */
		if (unit_flushes || (r->by_flushing && !r->by_other && (f->is_entry || private)))
			r->sym->f32_mode = F32_MODE_FLUSHING;
		else if (r->by_flushing)
			r->sym->f32_mode = F32_MODE_EITHER;
		free(r->callees);
		r->sym->plan_index = 0;
	}
	free(P.rows);
	free(stack);
}
