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
	enum ptx_type dt = insn_type(insn, 0), st = insn_type(insn, 1);
	bool to_integer = !type_is_float(dt) && !type_is_packed(dt);
	bool from_integer = !type_is_float(st) && !type_is_packed(st);

	if (!in_f32_mode(dt) && !in_f32_mode(st))
		return PTX_SUBNORMALS_UNUSED;
	if (insn_has_mod(insn, "ftz") && dt != PTX_TYPE_BF16 && dt != PTX_TYPE_BF16X2 && st != PTX_TYPE_BF16)
		return PTX_SUBNORMALS_FLUSHED;
	if (from_integer || st == PTX_TYPE_F16) /* never subnormal in f32 */
		return PTX_SUBNORMALS_UNUSED;
	/* a subnormal rounds to a zero of its sign either way, and to an integer zero */
	if (st == PTX_TYPE_F32 && (to_integer || dt == PTX_TYPE_F32) &&
	    (insn_has_mod(insn, "rni") || insn_has_mod(insn, "rzi")))
		return PTX_SUBNORMALS_UNUSED;
	if (st == PTX_TYPE_F32 && dt == PTX_TYPE_F16 && !insn_has_mod(insn, "rz") &&
	    !insn_has_mod(insn, "rm") && !insn_has_mod(insn, "rp"))
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
	if (!strcmp(o, "tanh") && insn_type(insn, 0) == PTX_TYPE_F32)
		return PTX_SUBNORMALS_UNUSED;
	if (!names_f32_mode_type(insn))
		return PTX_SUBNORMALS_UNUSED;
	bool bf16 = insn_type(insn, 0) == PTX_TYPE_BF16 || insn_type(insn, 0) == PTX_TYPE_BF16X2;
	bool computed = bf16 && (!strcmp(o, "atom") || !strcmp(o, "red"));

	for (size_t i = 0; i < sizeof(neutral) / sizeof(neutral[0]); i++)
		if (!strcmp(o, neutral[i]) && !insn_has_mod(insn, "ftz") && !computed)
			return PTX_SUBNORMALS_UNUSED;
	return insn_has_mod(insn, "ftz") && !bf16 ? PTX_SUBNORMALS_FLUSHED : PTX_SUBNORMALS_KEPT;
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

			if (r->ncallees)
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

/* ---- registers LLVM may come to know as constants ------------------------------------ */

/* In the flushing mode the result of an f32 add, sub, mul, fma, min or max is flushed by
 * the hardware already; llvm.canonicalize after it is needed only where LLVM may fold the
 * operation away (x * 1.0 is x, x + -0.0 is x, a select of constants splits it), which
 * takes an operand it knows as a constant. So each function's registers that may hold one
 * are found first, flow-insensitively: written from an immediate or such a register, from a
 * call (inlined, its result may be constant), a .func's parameters, and a load that may
 * read what a store of such a value wrote before it (LLVM forwards stored values: a store
 * earlier in the text, or later in a loop around both, to the same state space or a
 * generic one) or a module variable LLVM may know the value of (an initialized one, which
 * it makes constant when nothing writes it, or a scalar stored by name, which it replaces
 * by what was stored once). The rest need no canonicalize, which keeps the IR, and LLVM's
 * unrolling costs, as without .ftz. */

static bool set_has(const struct name_set *set, const char *name)
{
	if (!set->cap)
		return false;
	for (uint32_t i = name_hash(name) & (set->cap - 1); set->names[i]; i = (i + 1) & (set->cap - 1))
		if (!strcmp(set->names[i], name))
			return true;
	return false;
}

/* Adds a name (kept by pointer: the module's); whether it was new. */
static bool set_add(struct name_set *set, const char *name)
{
	if (set_has(set, name))
		return false;
	if (2 * (set->count + 1) > set->cap) {
		struct name_set grown = {.cap = set->cap ? 2 * set->cap : 64};

		grown.names = lower_alloc(grown.cap * sizeof(*grown.names));
		for (uint32_t i = 0; i < set->cap; i++)
			if (set->names[i])
				set_add(&grown, set->names[i]);
		free(set->names);
		*set = grown;
	}
	uint32_t i = name_hash(name) & (set->cap - 1);

	while (set->names[i])
		i = (i + 1) & (set->cap - 1);
	set->names[i] = name;
	set->count++;
	return true;
}

void name_set_free(struct name_set *set)
{
	free(set->names);
	memset(set, 0, sizeof(*set));
}

static bool is_plain_arithmetic(const char *o)
{
	static const char *const plain[] = {"add", "sub", "mul", "fma", "mad", "div", "min", "max"};

	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (!strcmp(o, plain[i]))
			return true;
	return false;
}

enum { SPACE_GLOBAL = 1, SPACE_SHARED = 2, SPACE_LOCAL = 4, SPACE_OTHER = 8, SPACE_ANY = 15 };

static unsigned access_space(const struct ptx_insn *insn)
{
	static const struct { const char *prefix; unsigned bits; } spaces[] = {
		{"global", SPACE_GLOBAL}, {"shared", SPACE_SHARED}, {"local", SPACE_LOCAL},
		{"param", SPACE_OTHER}, {"const", SPACE_OTHER},
	};

	for (uint32_t m = 0; m < insn->nmods; m++)
		for (size_t i = 0; i < sizeof(spaces) / sizeof(spaces[0]); i++)
			if (!strncmp(insn->mods[m], spaces[i].prefix, strlen(spaces[i].prefix)))
				return spaces[i].bits;
	return SPACE_ANY; /* generic */
}

/* The module's variables in memory (not registers), and those LLVM may know the value of:
 * initialized, or stored by name at offset 0 (what LLVM's "stored once" replaces). */
static void scan_variables(struct lower *L, const struct ptx_stmt *s, struct name_set *variables,
                           struct name_set *stored)
{
	for (; s; s = s->next) {
		const struct ptx_insn *insn = &s->u.insn;

		if (s->kind == PTX_STMT_BLOCK)
			scan_variables(L, s->u.block, variables, stored);
		if (s->kind == PTX_STMT_VAR && s->u.var.space != PTX_SPACE_REG) {
			set_add(variables, s->u.var.name);
			if (s->u.var.init)
				set_add(&L->foldable_variables, s->u.var.name);
		}
		if (s->kind == PTX_STMT_INSN && !strcmp(insn->opcode, "st") && insn->nops &&
		    insn->ops[0].kind == PTX_OP_MEMORY && insn->ops[0].count == 1 &&
		    insn->ops[0].items[0].kind == PTX_OP_NAME && insn->ops[0].items[0].offset == 0)
			set_add(stored, insn->ops[0].items[0].name);
	}
}

/* Whether an operand outside [...] names one of the variables: a register then holds its
 * address. */
static bool addresses_any(const struct ptx_stmt *s, const struct name_set *variables)
{
	for (; s; s = s->next) {
		if (s->kind == PTX_STMT_BLOCK && addresses_any(s->u.block, variables))
			return true;
		for (uint32_t i = 0; s->kind == PTX_STMT_INSN && i < s->u.insn.nops; i++)
			if (s->u.insn.ops[i].kind == PTX_OP_NAME && set_has(variables, s->u.insn.ops[i].name))
				return true;
	}
	return false;
}

static void find_foldable_variables(struct lower *L)
{
	struct name_set variables = {0}, stored = {0};
	const struct ptx_item *it;

	for (it = L->module->items; it; it = it->next) {
		if (it->kind == PTX_ITEM_VAR) {
			set_add(&variables, it->u.var.name);
			if (it->u.var.init)
				set_add(&L->foldable_variables, it->u.var.name);
		} else if (it->kind == PTX_ITEM_FUNC && it->u.func.has_body) {
			scan_variables(L, it->u.func.body, &variables, &stored);
		}
	}
	for (uint32_t i = 0; i < stored.cap; i++)
		if (stored.names[i] && set_has(&variables, stored.names[i]))
			set_add(&L->foldable_variables, stored.names[i]);
	for (it = L->module->items; it && !L->foldable_spaces; it = it->next)
		if (it->kind == PTX_ITEM_FUNC && it->u.func.has_body &&
		    addresses_any(it->u.func.body, &L->foldable_variables))
			L->foldable_spaces = SPACE_ANY;
	name_set_free(&variables);
	name_set_free(&stored);
}

/* A load of a variable LLVM may know the value of, by name or through a register that may
 * hold its address. */
static bool loads_foldable_variable(struct lower *L, const struct ptx_insn *insn)
{
	for (uint32_t i = 1; i < insn->nops; i++) {
		const struct ptx_operand *o = &insn->ops[i];

		if (o->kind == PTX_OP_MEMORY && o->count == 1 && o->items[0].kind == PTX_OP_NAME)
			return set_has(&L->foldable_variables, o->items[0].name) ||
			       (L->foldable_spaces & access_space(insn));
	}
	return false;
}

bool may_be_constant(struct lower *L, const struct ptx_operand *o)
{
	switch (o->kind) {
	case PTX_OP_INT: case PTX_OP_F32: case PTX_OP_F64:
		return true;
	case PTX_OP_NAME:
		return set_has(&L->maybe_constant, o->name) || !strcmp(o->name, "WARP_SZ") ||
		       symtab_find(&L->globals, o->name); /* an address */
	case PTX_OP_BRACES:
		for (uint32_t i = 0; i < o->count; i++)
			if (may_be_constant(L, &o->items[i]))
				return true;
		return false;
	default:
		return false;
	}
}

static bool mark_destination(struct name_set *set, const struct ptx_operand *o)
{
	bool grew = false;

	if (o->kind == PTX_OP_NAME)
		return set_add(set, o->name);
	for (uint32_t i = 0; (o->kind == PTX_OP_BRACES || o->kind == PTX_OP_LIST || o->kind == PTX_OP_PAIR) &&
	                     i < o->count; i++)
		grew |= mark_destination(set, &o->items[i]);
	return grew;
}

/* A function's instructions in text order, its loops as the ranges between a label and a
 * branch back to it, and where it stores values that may be constants. */
struct text {
	const struct ptx_insn **insns;
	uint32_t n;
	const char **labels;   /* each label, and the instruction it comes before */
	uint32_t *label_at, nlabels;
	uint32_t (*loops)[2];
	uint32_t nloops;
	unsigned *stored;      /* per instruction: spaces (bits) a may-be-constant store writes */
	unsigned *covered;     /* per instruction: cover_loops */
};

/* Counts (T->insns NULL) or records the instructions and labels. */
static void flatten(struct text *T, const struct ptx_stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind == PTX_STMT_BLOCK) {
			flatten(T, s->u.block);
		} else if (s->kind == PTX_STMT_LABEL) {
			if (T->insns) {
				T->labels[T->nlabels] = s->u.label;
				T->label_at[T->nlabels] = T->n;
			}
			T->nlabels++;
		} else if (s->kind == PTX_STMT_INSN) {
			if (T->insns)
				T->insns[T->n] = &s->u.insn;
			T->n++;
		}
	}
}

/* A branch to a label before it closes a loop; one whose target is not a label found
 * before it (brx.idx, through a register) counts as one back to the start. */
static void find_loops(struct text *T)
{
	T->loops = lower_alloc((T->n + 1) * sizeof(*T->loops));
	for (uint32_t b = 0; b < T->n; b++) {
		const struct ptx_insn *insn = T->insns[b];
		const char *target = insn->nops && insn->ops[0].kind == PTX_OP_NAME ? insn->ops[0].name : NULL;
		uint32_t from = 0;
		bool forward = false;

		if (strcmp(insn->opcode, "bra") && strcmp(insn->opcode, "brx"))
			continue;
		for (uint32_t l = 0; target && !strcmp(insn->opcode, "bra") && l < T->nlabels; l++)
			if (!strcmp(T->labels[l], target)) {
				from = T->label_at[l];
				forward = from > b;
				break;
			}
		if (!forward) {
			T->loops[T->nloops][0] = from;
			T->loops[T->nloops++][1] = b;
		}
	}
}

/* covered[p]: the spaces that may-be-constant stores write in the loops around instruction
 * p, which a load at p may read on a later iteration. Counted per space over the ranges
 * (prefix sums), so that a pass costs time linear in the text, not in loads times stores. */
static void cover_loops(struct text *T)
{
	enum { NSPACES = 4 };
	uint32_t (*stores)[NSPACES] = lower_alloc((T->n + 1) * sizeof(*stores));
	int32_t (*depth)[NSPACES] = lower_alloc((T->n + 1) * sizeof(*depth));

	for (uint32_t q = 0; q < T->n; q++)
		for (unsigned b = 0; b < NSPACES; b++)
			stores[q + 1][b] = stores[q][b] + (T->stored[q] >> b & 1);
	for (uint32_t i = 0; i < T->nloops; i++) {
		uint32_t l = T->loops[i][0], e = T->loops[i][1];

		for (unsigned b = 0; b < NSPACES; b++)
			if (stores[e + 1][b] > stores[l][b]) {
				depth[l][b]++;
				depth[e + 1][b]--;
			}
	}
	for (uint32_t p = 0, open[NSPACES] = {0}; p < T->n; p++) {
		T->covered[p] = 0;
		for (unsigned b = 0; b < NSPACES; b++) {
			open[b] += (uint32_t)depth[p][b];
			T->covered[p] |= (open[b] != 0) << b;
		}
	}
	free(stores);
	free(depth);
}

/* One pass over the text; whether a register was added or a store found. */
static bool spread_constants(struct lower *L, struct text *T)
{
	bool grew = false;
	unsigned stored_before = 0; /* spaces written so far in the text */

	cover_loops(T);
	for (uint32_t p = 0; p < T->n; p++) {
		const struct ptx_insn *insn = T->insns[p];
		const char *o = insn->opcode;
		bool any = false, all = true;

		stored_before |= p ? T->stored[p - 1] : 0;
		if (insn->nops == 0)
			continue;
		if (!strcmp(o, "st")) {
			if (!T->stored[p] && insn->nops > 1 && may_be_constant(L, &insn->ops[1])) {
				T->stored[p] = access_space(insn);
				grew = true;
			}
			continue;
		}
		if (!strcmp(o, "call")) {
			if (insn->ops[0].kind == PTX_OP_LIST)
				grew |= mark_destination(&L->maybe_constant, &insn->ops[0]);
			continue;
		}
		for (uint32_t i = 1; i < insn->nops; i++) {
			bool c = may_be_constant(L, &insn->ops[i]);

			any |= c;
			all &= c || insn->ops[i].kind == PTX_OP_MEMORY;
		}
		/* a kernel's parameters are never known */
		if ((!strcmp(o, "ld") || !strcmp(o, "ldu")) && !(L->func->is_entry && insn_has_mod(insn, "param")))
			any = all = ((stored_before | T->covered[p]) & access_space(insn)) ||
			            loads_foldable_variable(L, insn);
		else if (!strcmp(o, "ld"))
			any = all = false;
		if (is_plain_arithmetic(o) ? all : any)
			grew |= mark_destination(&L->maybe_constant, &insn->ops[0]);
	}
	return grew;
}

void find_maybe_constant_registers(struct lower *L, const struct ptx_func *f)
{
	struct text T = {0};

	name_set_free(&L->maybe_constant);
	if (!L->f32_flush_by_mode)
		return;
	for (uint32_t i = 0; !f->is_entry && i < f->sig.nparams; i++)
		set_add(&L->maybe_constant, f->sig.params[i].name);
	flatten(&T, f->body);
	T.insns = lower_alloc((T.n + 1) * sizeof(*T.insns));
	T.stored = lower_alloc((T.n + 1) * sizeof(*T.stored));
	T.covered = lower_alloc((T.n + 1) * sizeof(*T.covered));
	T.labels = lower_alloc((T.nlabels + 1) * sizeof(*T.labels));
	T.label_at = lower_alloc((T.nlabels + 1) * sizeof(*T.label_at));
	T.n = T.nlabels = 0;
	flatten(&T, f->body);
	find_loops(&T);
	while (spread_constants(L, &T))
		;
	free(T.insns);
	free(T.stored);
	free(T.covered);
	free(T.labels);
	free(T.label_at);
	free(T.loops);
}

/* ---- the module ------------------------------------------------------------------------ */

void plan_f32_modes(struct lower *L, bool unit_flushes)
{
	struct plan P = {.L = L};
	uint32_t n = 0, *stack;

	if (!L->target->flushes_f32_by_mode)
		return;
	find_foldable_variables(L);
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
