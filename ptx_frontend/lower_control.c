/* Control flow: bra, call, ret, exit, trap. */
#include <string.h>

#include "lower.h"

static void end_thread(struct lower *L, const char *builtin)
{
	call_builtin(L, builtin, LLVMVoidTypeInContext(L->ctx), NULL, 0);
	LLVMBuildUnreachable(L->b);
}

static bool lower_branch(struct lower *L)
{
	const struct ptx_operand *target = op(L, 0);
	struct sym *s = target->kind == PTX_OP_NAME ? sym_lookup(L, target->name) : NULL;

	if (!s || s->kind != SYM_LABEL)
		lower_fail(L, "branch target is not a label");
	LLVMBuildBr(L->b, s->block);
	return true;
}

/* brx.idx index, targets: an index past the list is undefined in PTX; here it ends the
 * thread through a trap rather than jumping anywhere. */
static bool lower_indirect_branch(struct lower *L)
{
	const struct ptx_operand *list = op(L, 1);
	struct sym *t = list->kind == PTX_OP_NAME ? sym_lookup(L, list->name) : NULL;
	LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "brx.out_of_range");
	LLVMValueRef sw;

	if (!t || t->kind != SYM_BRANCHTARGETS)
		lower_fail(L, "brx.idx needs a .branchtargets list");
	sw = LLVMBuildSwitch(L->b, operand_value(L, op(L, 0), PTX_TYPE_U32), bad, t->ntargets);
	for (uint32_t i = 0; i < t->ntargets; i++) {
		struct sym *label = sym_lookup(L, t->targets[i]);

		if (!label || label->kind != SYM_LABEL)
			lower_fail(L, "branch target '%s' is not a label", t->targets[i]);
		LLVMAddCase(sw, LLVMConstInt(ll_int(L, 32), i, 0), label->block);
	}
	LLVMPositionBuilderAtEnd(L->b, bad);
	end_thread(L, "__zc_trap");
	return true;
}

/* A call argument: a .param variable of the caller (its value, with the callee's
 * parameter type), a register, or a constant. */
static LLVMValueRef argument(struct lower *L, const struct ptx_operand *o, const struct ptx_var *p,
                             LLVMTypeRef want)
{
	struct sym *s = o->kind == PTX_OP_NAME ? sym_lookup(L, o->name) : NULL;

	if (s && s->kind == SYM_VAR && s->space == PTX_SPACE_PARAM)
		return LLVMBuildLoad2(L->b, want, s->value, "");
	if (LLVMGetTypeKind(want) == LLVMArrayTypeKind)
		lower_fail(L, "argument for '%s' must be a .param variable", p->name);
	return operand_value(L, o, p->type);
}

static void store_result(struct lower *L, const struct ptx_operand *o, const struct ptx_var *r,
                         LLVMValueRef v)
{
	struct sym *s = o->kind == PTX_OP_NAME ? sym_lookup(L, o->name) : NULL;

	if (s && s->kind == SYM_VAR && s->space == PTX_SPACE_PARAM)
		LLVMBuildStore(L->b, v, s->value);
	else
		operand_store(L, o, v, r->type);
}

/* call[.uni] [(rets),] func[, (args)][, proto]; an indirect call names a register holding
 * the function's address and a .callprototype (or a function) giving its signature. */
static bool lower_call(struct lower *L)
{
	const struct ptx_operand *rets = NULL, *args = NULL, *callee, *proto = NULL;
	const struct ptx_signature *sig;
	unsigned i = 0;
	struct sym *f, *p;
	LLVMValueRef argv[64], r, target;
	LLVMTypeRef fty;

	if (op(L, 0)->kind == PTX_OP_LIST)
		rets = op(L, i++);
	callee = op(L, i++);
	if (i < L->insn->nops && L->insn->ops[i].kind == PTX_OP_LIST)
		args = op(L, i++);
	if (i < L->insn->nops)
		proto = op(L, i++);
	f = callee->kind == PTX_OP_NAME ? sym_lookup(L, callee->name) : NULL;
	if (f && f->kind == SYM_FUNC) {
		note_reach(L, f);
		sig = &f->func->sig;
		fty = f->llvm_type;
		target = f->value;
	} else {
		p = proto && proto->kind == PTX_OP_NAME ? sym_lookup(L, proto->name) : NULL;
		if (!p || (p->kind != SYM_PROTOTYPE && p->kind != SYM_FUNC))
			lower_fail(L, "indirect call without a .callprototype");
		sig = p->kind == SYM_PROTOTYPE ? p->sig : &p->func->sig;
		L->func_sym->calls_indirectly = true;
		fty = signature_type(L, sig);
		target = LLVMBuildIntToPtr(L->b, operand_value(L, callee, PTX_TYPE_U64),
		                           ll_ptr(L, L->target->as_generic), "");
	}
	if ((args ? args->count : 0) != sig->nparams || (rets ? rets->count : 0) != sig->nrets)
		lower_fail(L, "call: %u arguments and %u results, the callee's signature has %u and %u",
		           args ? args->count : 0, rets ? rets->count : 0, sig->nparams, sig->nrets);
	if (sig->nparams > 64)
		lower_fail(L, "more than 64 arguments");
	{
		LLVMTypeRef params[64];

		LLVMGetParamTypes(fty, params);
		for (unsigned k = 0; k < sig->nparams; k++)
			argv[k] = argument(L, &args->items[k], &sig->params[k], params[k]);
	}
	r = LLVMBuildCall2(L->b, fty, target, argv, sig->nparams, "");
	if (sig->nrets == 1)
		store_result(L, &rets->items[0], &sig->rets[0], r);
	for (unsigned k = 0; sig->nrets > 1 && k < sig->nrets; k++)
		store_result(L, &rets->items[k], &sig->rets[k], LLVMBuildExtractValue(L->b, r, k, ""));
	return true;
}

bool lower_control(struct lower *L)
{
	const char *o = L->insn->opcode;

	if (!strcmp(o, "bra"))
		return lower_branch(L);
	if (!strcmp(o, "brx"))
		return lower_indirect_branch(L);
	if (!strcmp(o, "call"))
		return lower_call(L);
	if (!strcmp(o, "ret")) {
		build_return(L);
		return true;
	}
	if (!strcmp(o, "exit")) {
		if (L->func->is_entry)
			LLVMBuildRetVoid(L->b);
		else
			end_thread(L, "__zc_exit");
		return true;
	}
	if (!strcmp(o, "trap")) {
		end_thread(L, "__zc_trap");
		return true;
	}
	if (!strcmp(o, "brkpt") || !strcmp(o, "pmevent"))
		return true; /* for an attached debugger or profiler: none is */
	/* Programmatic dependent launch: a grid starts only after the previous one in its
	 * stream has ended, so what wait waits for has already happened. */
	if (!strcmp(o, "griddepcontrol"))
		return true;
	return false;
}
