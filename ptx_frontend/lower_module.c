/* Lowering the structure of a module: variables and their initializers, function
 * signatures and parameters, bodies, blocks, labels, guards, and the kernel table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_launch.h"
#include "lower.h"

/* ---- variables ------------------------------------------------------------------ */

static uint64_t var_elements(struct lower *L, const struct ptx_var *v)
{
	uint64_t n = v->vector ? v->vector : 1;

	for (uint32_t i = 0; i < v->ndims; i++) {
		if (v->dims[i] == 0)
			return 0;
		if (n > UINT64_MAX / v->dims[i])
			lower_fail(L, "'%s' is too large", v->name);
		n *= v->dims[i];
	}
	return n;
}

static uint64_t var_size(struct lower *L, const struct ptx_var *v)
{
	return var_elements(L, v) * (type_bits(v->type) == 1 ? 1 : type_bits(v->type) / 8);
}

uint64_t ptx_var_size(const struct ptx_var *v)
{
	uint64_t n = (v->vector ? v->vector : 1) * (type_bits(v->type) == 1 ? 1 : type_bits(v->type) / 8);

	for (uint32_t i = 0; i < v->ndims; i++) {
		if (v->dims[i] == 0 || n > UINT64_MAX / v->dims[i])
			return 0;
		n *= v->dims[i];
	}
	return n;
}

static uint32_t var_align(const struct ptx_var *v)
{
	uint32_t natural = type_bits(v->type) / 8 * (v->vector ? v->vector : 1);

	return v->align ? v->align : natural ? natural : 1;
}

/* Memory variables are byte arrays: PTX code addresses them at any offset with any type. */
static LLVMTypeRef var_storage_type(struct lower *L, const struct ptx_var *v)
{
	uint64_t elements = var_elements(L, v);

	if (v->ndims == 0 && !v->vector)
		return ll_type(L, v->type);
	return LLVMArrayType2(ll_type(L, v->type), elements);
}

static void flatten_init(struct lower *L, const struct ptx_operand *o, enum ptx_type t,
                         LLVMValueRef *out, uint64_t *n, uint64_t cap)
{
	if (o->kind == PTX_OP_BRACES) {
		for (uint32_t i = 0; i < o->count; i++)
			flatten_init(L, &o->items[i], t, out, n, cap);
		return;
	}
	if (*n == cap)
		lower_fail(L, "initializer has more than %llu elements", (unsigned long long)cap);
	if (o->kind == PTX_OP_NAME) {
		struct sym *s = sym_lookup(L, o->name);
		LLVMValueRef addr;

		if (!s || (s->kind != SYM_VAR && s->kind != SYM_FUNC) || !s->value)
			lower_fail(L, "initializer names '%s', which is not a variable or function",
			           o->name);
		if (s->kind == SYM_FUNC && s->func && s->func->is_entry) { /* a launch's kernel */
			out[(*n)++] = LLVMConstInt(ll_type(L, t), zc_kernel_handle(s->name), 0);
			return;
		}
		addr = s->value;
		if (o->generic && LLVMGetPointerAddressSpace(LLVMTypeOf(addr)) != L->target->as_generic)
			addr = LLVMConstAddrSpaceCast(addr, ll_ptr(L, L->target->as_generic));
		if (o->offset) {
			LLVMValueRef off = LLVMConstInt(ll_int(L, 64), (uint64_t)o->offset, 0);
			addr = LLVMConstGEP2(ll_int(L, 8), addr, &off, 1);
		}
		out[(*n)++] = LLVMConstPtrToInt(addr, ll_type(L, t));
		return;
	}
	if (o->kind != PTX_OP_INT && o->kind != PTX_OP_F32 && o->kind != PTX_OP_F64)
		lower_fail(L, "unsupported initializer");
	{
		struct ptx_operand tmp = *o;
		LLVMBuilderRef saved = L->b;
		LLVMValueRef v;

		(void)saved;
		switch (o->kind) {
		case PTX_OP_F32:
			if (type_is_float(t) && t != PTX_TYPE_F32) {
				float f;
				uint32_t b = (uint32_t)o->bits;
				memcpy(&f, &b, 4);
				v = LLVMConstReal(ll_type(L, t), f);
				break;
			}
			/* fall through */
		default:
			v = type_is_float(t) && o->kind != PTX_OP_INT
			    ? LLVMConstBitCast(LLVMConstInt(ll_int(L, type_bits(t)), tmp.bits, 0), ll_type(L, t))
			    : type_is_float(t) ? LLVMConstReal(ll_type(L, t), (double)(int64_t)tmp.bits)
			    : LLVMConstInt(ll_type(L, t), tmp.bits, 0);
		}
		out[(*n)++] = v;
	}
}

static LLVMValueRef var_initializer(struct lower *L, const struct ptx_var *v, LLVMTypeRef storage)
{
	uint64_t count = var_elements(L, v), n = 0;
	LLVMValueRef *elems, init;
	LLVMTypeRef elem = ll_type(L, v->type);

	if (!v->init)
		return LLVMConstNull(storage);
	if (count > (1u << 24))
		lower_fail(L, "initializer of '%s' is too large", v->name);
	free(L->initializer_elements); /* one a left-out function's failure left behind */
	elems = L->initializer_elements = lower_alloc((size_t)count * sizeof(LLVMValueRef));
	flatten_init(L, v->init, v->type, elems, &n, count);
	for (; n < count; n++)
		elems[n] = LLVMConstNull(elem);
	init = LLVMGetTypeKind(storage) == LLVMArrayTypeKind
	     ? LLVMConstArray2(elem, elems, count) : elems[0];
	free(elems);
	L->initializer_elements = NULL;
	return init;
}

/* A variable of the module or a function's static one. A .global or .const variable
 * declared .extern and defined in the module (the checker allows no other name twice) is
 * one LLVM global: its definition takes the declaration's place, uses and all. */
static void declare_global_var(struct lower *L, const struct ptx_var *v, const char *name)
{
	struct sym *s = symtab_find(&L->globals, name);
	LLVMValueRef declaration = NULL;
	LLVMTypeRef storage;

	if (s && s->kind == SYM_VAR && (v->linkage & PTX_LINK_EXTERN))
		return;
	if (s && s->kind == SYM_VAR && (s->var->linkage & PTX_LINK_EXTERN) && s->value) {
		declaration = s->value;
		LLVMSetValueName2(declaration, "", 0);
	} else {
		s = sym_add(L, &L->globals, name, SYM_VAR);
	}

	s->type = v->type;
	s->space = v->space;
	s->var = v;
	if (v->space == PTX_SPACE_SHARED && var_elements(L, v) == 0) {
		/* extern .shared x[]: the dynamic shared memory, after the static variables */
		L->uses_dynamic_shared = true;
		if (!L->target->shared_as_offsets) {
			s->value = LLVMAddGlobalInAddressSpace(L->mod, LLVMArrayType2(ll_int(L, 8), 0),
			                                       name, L->target->as_shared);
			LLVMSetAlignment(s->value, 16);
		}
		s->dynamic_shared = true;
		return;
	}
	storage = var_storage_type(L, v);
	if (v->space == PTX_SPACE_SHARED) {
		/* Every target gets the same layout, in declaration order, so that the kernel
		 * table's static size is one number whatever the target. */
		uint32_t align = var_align(v);

		L->shared_layout_size = (L->shared_layout_size + align - 1) / align * align;
		s->shared_offset = L->shared_layout_size;
		L->shared_layout_size += var_size(L, v);
		if (L->target->shared_as_offsets)
			return;
	}
	s->value = LLVMAddGlobalInAddressSpace(L->mod, storage, name, space_addrspace(L, v->space));
	s->llvm_type = storage;
	LLVMSetAlignment(s->value, var_align(v));
	if (declaration) {
		LLVMReplaceAllUsesWith(declaration, s->value);
		LLVMDeleteGlobal(declaration);
	}
	if (v->linkage & PTX_LINK_EXTERN) {
		LLVMSetLinkage(s->value, LLVMExternalLinkage);
		return;
	}
	if (v->space == PTX_SPACE_SHARED)
		LLVMSetInitializer(s->value, LLVMGetUndef(storage));
	else
		LLVMSetInitializer(s->value, var_initializer(L, v, storage));
	/* Every .global and .const variable stays visible: cudart looks up even static
	 * __device__ variables by name (cuModuleGetGlobal), and the loader needs the symbol. */
	LLVMSetLinkage(s->value, v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST ||
	               (v->linkage & (PTX_LINK_VISIBLE | PTX_LINK_WEAK | PTX_LINK_COMMON))
	               ? LLVMExternalLinkage : LLVMInternalLinkage);
	/* .const variables are not LLVM constants: the host writes them (cudaMemcpyToSymbol)
	 * between launches, so their initial value must never be folded into the code. */
}

/* ---- functions -------------------------------------------------------------------- */

static LLVMTypeRef param_value_type(struct lower *L, const struct ptx_var *v)
{
	if (v->ndims || v->vector)
		return LLVMArrayType2(ll_int(L, 8), var_size(L, v));
	return ll_type(L, v->type);
}

static LLVMTypeRef return_type(struct lower *L, const struct ptx_signature *sig)
{
	LLVMTypeRef types[16];

	if (sig->nrets == 0)
		return LLVMVoidTypeInContext(L->ctx);
	if (sig->nrets == 1)
		return param_value_type(L, &sig->rets[0]);
	if (sig->nrets > 16)
		lower_fail(L, "more than 16 return values");
	for (uint32_t i = 0; i < sig->nrets; i++)
		types[i] = param_value_type(L, &sig->rets[i]);
	return LLVMStructTypeInContext(L->ctx, types, sig->nrets, 0);
}

LLVMTypeRef signature_type(struct lower *L, const struct ptx_signature *sig)
{
	LLVMTypeRef *params = lower_alloc((sig->nparams + 1) * sizeof(LLVMTypeRef)), fty;

	for (uint32_t i = 0; i < sig->nparams; i++)
		params[i] = param_value_type(L, &sig->params[i]);
	fty = LLVMFunctionType(return_type(L, sig), params, sig->nparams, 0);
	free(params);
	return fty;
}

static LLVMTypeRef kernel_type(struct lower *L, const struct ptx_func *f)
{
	unsigned n = f->sig.nparams;
	LLVMTypeRef *params = lower_alloc((n + 1) * sizeof(LLVMTypeRef)), fty;

	for (unsigned i = 0; i < n; i++)
		params[i] = ll_ptr(L, L->target->as_kernel_param);
	fty = LLVMFunctionType(LLVMVoidTypeInContext(L->ctx), params, n, 0);
	free(params);
	return fty;
}

/* The functions nvcc's PTX calls in the CUDA runtime: the builtins provide them under names
 * of ours, so that the C library's vprintf is never bound instead. On GPUs they need a
 * buffer or a heap of the stub's, which it finds through a variable the module defines
 * only when it calls them (abi/device_output.h, device_heap.h): a program that never
 * prints or allocates gets neither. Each: its name, the builtin, and that variable. */
static const char *const runtime_functions[][3] = {
	{"vprintf", "__zc_vprintf", "zluda_convert_device_output"},
	{"__assertfail", "__zc_assertfail", "zluda_convert_device_output"},
	{"malloc", "__zc_malloc", "zluda_convert_device_heap"},
	{"free", "__zc_free", "zluda_convert_device_heap"},
};

bool is_runtime_function(const char *name)
{
	for (size_t i = 0; i < sizeof(runtime_functions) / sizeof(runtime_functions[0]); i++)
		if (strcmp(name, runtime_functions[i][0]) == 0)
			return true;
	return false;
}

static const char *runtime_name(struct lower *L, const struct ptx_func *f)
{
	for (size_t i = 0; !f->has_body && i < sizeof(runtime_functions) / sizeof(runtime_functions[0]); i++)
		if (strcmp(f->name, runtime_functions[i][0]) == 0) {
			const char *global = runtime_functions[i][2];

			if (!LLVMGetNamedGlobal(L->mod, global)) {
				/* weak: the members of a link that name it share one */
				LLVMValueRef v = LLVMAddGlobalInAddressSpace(L->mod, ll_int(L, 64), global,
				                                             L->target->as_global);
				LLVMSetInitializer(v, LLVMConstInt(ll_int(L, 64), 0, 0));
				LLVMSetLinkage(v, LLVMWeakODRLinkage);
				LLVMSetAlignment(v, 8);
			}
			return runtime_functions[i][1];
		}
	return f->name;
}

static void set_block_limit(LLVMValueRef fn, const char *attr, const uint32_t dims[3])
{
	char value[48];

	if (!dims[0])
		return;
	snprintf(value, sizeof(value), "%u,%u,%u", dims[0], dims[1] ? dims[1] : 1, dims[2] ? dims[2] : 1);
	LLVMAddTargetDependentFunctionAttr(fn, attr, value);
}

static void declare_function(struct lower *L, const struct ptx_func *f)
{
	struct sym *s = symtab_find(&L->globals, f->name);
	LLVMTypeRef fty;

	if (s) {
		if (s->kind != SYM_FUNC)
			lower_fail(L, "'%s' is both a variable and a function", f->name);
		if (f->has_body)
			s->func = f; /* a prototype came first */
		return;
	}
	s = sym_add(L, &L->globals, f->name, SYM_FUNC);
	s->func = f;
	fty = f->is_entry ? kernel_type(L, f) : signature_type(L, &f->sig);
	s->llvm_type = fty;
	s->value = LLVMAddFunction(L->mod, runtime_name(L, f), fty);
	if (f->is_entry) {
		LLVMAddTargetDependentFunctionAttr(s->value, "zc-kernel", "");
		set_block_limit(s->value, "zc-reqntid", f->attrs.reqntid);
		set_block_limit(s->value, "zc-maxntid", f->attrs.maxntid);
	}
	LLVMSetLinkage(s->value, f->is_entry || (f->linkage & (PTX_LINK_VISIBLE | PTX_LINK_WEAK |
	                                                       PTX_LINK_EXTERN)) || !f->has_body
	               ? LLVMExternalLinkage : LLVMInternalLinkage);
	if (!f->has_body && !f->is_entry && is_device_runtime_call(f->name))
		define_device_runtime_call(L, f->name, s->value);
}

LLVMValueRef entry_alloca(struct lower *L, LLVMTypeRef ty, uint32_t align, const char *name)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(L->ctx);
	LLVMValueRef first = LLVMGetFirstInstruction(L->entry), a;

	if (first)
		LLVMPositionBuilderBefore(b, first);
	else
		LLVMPositionBuilderAtEnd(b, L->entry);
	a = LLVMBuildAlloca(b, ty, name);
	if (align)
		LLVMSetAlignment(a, align);
	LLVMDisposeBuilder(b);
	return a;
}

/* A register holds some value before its first write: zero, never LLVM's undef. PTX code
 * reads registers no path wrote (cooperative groups' shfl of a value only its source lane
 * set), and undef passed where a builtin's argument must be defined is undefined behaviour:
 * LLVM then took the lanes that never wrote it as impossible (a lane_id == 0 test became an
 * assumption, and every lane ran its body). */
static LLVMValueRef register_alloca(struct lower *L, LLVMTypeRef ty)
{
	LLVMValueRef a = entry_alloca(L, ty, 0, "");
	LLVMBuilderRef b = LLVMCreateBuilderInContext(L->ctx);
	LLVMValueRef next = LLVMGetNextInstruction(a);

	if (next)
		LLVMPositionBuilderBefore(b, next);
	else
		LLVMPositionBuilderAtEnd(b, L->entry);
	LLVMBuildStore(b, LLVMConstNull(ty), a);
	LLVMDisposeBuilder(b);
	return a;
}

static void declare_local(struct lower *L, const struct ptx_var *v)
{
	if (v->space == PTX_SPACE_REG) {
		uint32_t count = v->reg_count ? v->reg_count : 1;
		LLVMTypeRef ty = v->vector ? LLVMArrayType2(ll_type(L, v->type), v->vector)
		                           : ll_type(L, v->type);

		if (v->vector)
			lower_fail(L, "vector registers are not supported yet ('%s')", v->name);
		for (uint32_t i = 0; i < count; i++) {
			const char *name = v->reg_count ? lower_name(L, "%s%u", v->name, i) : v->name;
			struct sym *s = sym_add(L, &L->locals, name, SYM_REG);

			s->type = v->type;
			s->llvm_type = ty;
			s->value = register_alloca(L, ty);
		}
		return;
	}
	if (v->space == PTX_SPACE_LOCAL || v->space == PTX_SPACE_PARAM) {
		struct sym *s = sym_add(L, &L->locals, v->name, SYM_VAR);

		s->type = v->type;
		s->space = v->space;
		s->var = v;
		s->llvm_type = v->space == PTX_SPACE_PARAM ? param_value_type(L, v) : var_storage_type(L, v);
		s->value = entry_alloca(L, s->llvm_type, var_align(v), "");
		return;
	}
	if (v->space == PTX_SPACE_SHARED || v->space == PTX_SPACE_GLOBAL ||
	    v->space == PTX_SPACE_CONST) {
		/* A function-scope .shared (or .global) variable is a module variable under a
		 * name no other function can write. */
		const char *name = lower_name(L, "%s.%s", L->func->name, v->name);

		declare_global_var(L, v, name);
		{
			struct sym *g = symtab_find(&L->globals, name), *s;

			s = sym_add(L, &L->locals, v->name, SYM_VAR);
			*s = (struct sym){.name = s->name, .kind = SYM_VAR, .type = g->type,
			                  .space = g->space, .value = g->value, .llvm_type = g->llvm_type,
			                  .shared_offset = g->shared_offset, .var = v,
			                  .dynamic_shared = g->dynamic_shared,
			                  .shadowed = s->shadowed, .next_in_bucket = s->next_in_bucket,
			                  .next_in_scope = s->next_in_scope};
		}
		return;
	}
	lower_fail(L, "%s variables are not supported yet ('%s')", ptx_space_name(v->space), v->name);
}

static void pop_scope(struct lower *L, struct sym *mark)
{
	while (L->scope_syms != mark) {
		struct sym *s = L->scope_syms;

		L->scope_syms = s->next_in_scope;
		sym_remove(&L->locals, s);
	}
}

/* Labels and call prototypes are function-wide: every block is created before the first
 * branch is lowered. */
static void declare_labels(struct lower *L, const struct ptx_stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind == PTX_STMT_BLOCK) {
			declare_labels(L, s->u.block);
		} else if (s->kind == PTX_STMT_CALLPROTOTYPE) {
			struct sym *sym = sym_add(L, &L->locals, s->u.callprototype.label, SYM_PROTOTYPE);

			sym->sig = &s->u.callprototype.sig;
		} else if (s->kind == PTX_STMT_BRANCHTARGETS) {
			struct sym *sym = sym_add(L, &L->locals, s->u.branchtargets.label, SYM_BRANCHTARGETS);

			sym->targets = s->u.branchtargets.targets;
			sym->ntargets = s->u.branchtargets.count;
		} else if (s->kind == PTX_STMT_LABEL) {
			struct sym *sym;

			if (symtab_find(&L->locals, s->u.label)) {
				L->loc = s->loc;
				lower_fail(L, "label '%s' is defined twice", s->u.label);
			}
			sym = sym_add(L, &L->locals, s->u.label, SYM_LABEL);
			sym->block = LLVMAppendBasicBlockInContext(L->ctx, L->fn, s->u.label);
		}
	}
}

static bool block_terminated(struct lower *L)
{
	return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(L->b)) != NULL;
}

/* Code after a terminator (a label-less fall-through after bra or ret) goes to a fresh
 * block that nothing branches to. */
static void ensure_open_block(struct lower *L)
{
	if (block_terminated(L))
		LLVMPositionBuilderAtEnd(L->b, LLVMAppendBasicBlockInContext(L->ctx, L->fn, ""));
}

static void lower_instruction(struct lower *L)
{
	bool (*const families[])(struct lower *) = {
		lower_bits, lower_int, lower_video, lower_float, lower_compare, lower_convert, lower_memory,
		lower_control, lower_parallel, lower_async, lower_matrix, lower_wgmma, lower_texture,
	};

	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i](L))
			return;
	lower_unsupported(L);
}

static void lower_guarded(struct lower *L, const struct ptx_insn *insn)
{
	struct sym *g;
	LLVMValueRef cond;
	LLVMBasicBlockRef then, cont;

	L->insn = insn;
	debug_instruction(L, insn);
	if (!insn->guard) {
		lower_instruction(L);
		return;
	}
	g = sym_lookup(L, insn->guard);
	if (!g || g->kind != SYM_REG || g->type != PTX_TYPE_PRED)
		lower_fail(L, "guard '%s' is not a predicate register", insn->guard);
	cond = LLVMBuildLoad2(L->b, g->llvm_type, g->value, "");
	if (insn->guard_negated)
		cond = LLVMBuildNot(L->b, cond, "");
	then = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "");
	cont = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "");
	LLVMBuildCondBr(L->b, cond, then, cont);
	LLVMPositionBuilderAtEnd(L->b, then);
	lower_instruction(L);
	if (!block_terminated(L))
		LLVMBuildBr(L->b, cont);
	LLVMPositionBuilderAtEnd(L->b, cont);
}

static void lower_statements(struct lower *L, const struct ptx_stmt *s)
{
	for (; s; s = s->next) {
		L->loc = s->loc;
		switch (s->kind) {
		case PTX_STMT_INSN:
			ensure_open_block(L);
			lower_guarded(L, &s->u.insn);
			break;
		case PTX_STMT_LABEL: {
			struct sym *label = sym_lookup(L, s->u.label);

			if (!block_terminated(L))
				LLVMBuildBr(L->b, label->block);
			/* Blocks in source order make the IR read like the PTX. */
			LLVMMoveBasicBlockAfter(label->block, LLVMGetLastBasicBlock(L->fn));
			LLVMPositionBuilderAtEnd(L->b, label->block);
			break;
		}
		case PTX_STMT_VAR:
			declare_local(L, &s->u.var);
			break;
		case PTX_STMT_BLOCK: {
			struct sym *mark = L->scope_syms;

			lower_statements(L, s->u.block);
			pop_scope(L, mark);
			break;
		}
		case PTX_STMT_PRAGMA:
		case PTX_STMT_BRANCHTARGETS:
		case PTX_STMT_CALLPROTOTYPE:
			break; /* used by the instructions that name them */
		}
	}
}

/* Kernel parameters are byref arguments that reproduce PTX's .param layout. */
static void bind_kernel_params(struct lower *L, const struct ptx_func *f, struct ptx_kernel_info *k)
{
	uint32_t offset = 0, max_align = 1;

	k->params = lower_alloc((f->sig.nparams + 1) * sizeof(struct ptx_kernel_param));
	k->nparams = f->sig.nparams;
	for (uint32_t i = 0; i < f->sig.nparams; i++) {
		const struct ptx_var *v = &f->sig.params[i];
		uint32_t align = var_align(v), size = (uint32_t)var_size(L, v);
		struct sym *s = sym_add(L, &L->locals, v->name, SYM_VAR);

		offset = (offset + align - 1) / align * align;
		k->params[i] = (struct ptx_kernel_param){offset, size, align};
		max_align = align > max_align ? align : max_align;
		s->type = v->type;
		s->space = PTX_SPACE_PARAM;
		s->var = v;
		s->llvm_type = param_value_type(L, v);
		{
			LLVMTypeRef bytes = LLVMArrayType2(ll_int(L, 8), size);
			unsigned kind = LLVMGetEnumAttributeKindForName("byref", 5);

			LLVMAddAttributeAtIndex(L->fn, i + 1, LLVMCreateTypeAttribute(L->ctx, kind, bytes));
			LLVMAddAttributeAtIndex(L->fn, i + 1, LLVMCreateEnumAttribute(
				L->ctx, LLVMGetEnumAttributeKindForName("align", 5), align));
			s->value = LLVMGetParam(L->fn, i);
		}
		offset += size;
	}
	k->param_size = (offset + max_align - 1) / max_align * max_align;
}

/* Device-function parameters arrive as values: each gets a home in memory for ld.param. */
static void bind_function_params(struct lower *L, const struct ptx_func *f)
{
	for (uint32_t i = 0; i < f->sig.nparams; i++) {
		const struct ptx_var *v = &f->sig.params[i];
		struct sym *s;

		declare_local(L, v);
		s = symtab_find(&L->locals, v->name);
		LLVMBuildStore(L->b, LLVMGetParam(L->fn, i), s->value);
	}
	for (uint32_t i = 0; i < f->sig.nrets; i++)
		declare_local(L, &f->sig.rets[i]);
}

void build_return(struct lower *L)
{
	const struct ptx_signature *sig = &L->func->sig;
	LLVMValueRef vals[16];

	if (L->func->is_entry || sig->nrets == 0) {
		LLVMBuildRetVoid(L->b);
		return;
	}
	for (uint32_t i = 0; i < sig->nrets; i++) {
		struct sym *s = sym_lookup(L, sig->rets[i].name);

		vals[i] = LLVMBuildLoad2(L->b, s->llvm_type, s->value, "");
	}
	if (sig->nrets == 1)
		LLVMBuildRet(L->b, vals[0]);
	else
		LLVMBuildAggregateRet(L->b, vals, sig->nrets);
}

/* The backend gives a kernel's descriptor the denormal mode of its attribute. */
static void set_f32_mode(struct lower *L, struct sym *s)
{
	static const char kind[] = "denormal-fp-math-f32";
	const char *mode = s->f32_mode == F32_MODE_FLUSHING ? "preserve-sign,preserve-sign"
	                 : s->f32_mode == F32_MODE_EITHER ? "dynamic,dynamic" : NULL;

	if (mode)
		LLVMAddAttributeAtIndex(s->value, LLVMAttributeFunctionIndex,
		                        LLVMCreateStringAttribute(L->ctx, kind, sizeof(kind) - 1, mode,
		                                                  (unsigned)strlen(mode)));
}

static void lower_function(struct lower *L, const struct ptx_func *f, struct ptx_kernel_info *k)
{
	struct sym *s = symtab_find(&L->globals, f->name);
	LLVMBasicBlockRef body;

	L->func = f;
	L->func_sym = s;
	L->fn = s->value;
	L->carry = NULL;
	L->nspin_points = 0; /* what a function left out noted is gone with it */
	L->f32_flush_by_mode = s->f32_mode == F32_MODE_FLUSHING;
	set_f32_mode(L, s);
	find_maybe_constant_registers(L, f);
	L->loc = f->loc;
	L->entry = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "entry");
	body = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "body");
	LLVMPositionBuilderAtEnd(L->b, L->entry);
	debug_function(L, f);
	if (f->is_entry)
		bind_kernel_params(L, f, k);
	else
		bind_function_params(L, f);
	LLVMBuildBr(L->b, body);
	LLVMPositionBuilderAtEnd(L->b, body);
	if (f->is_entry)
		reserved_smem_zero(L);
	declare_labels(L, f->body);
	lower_statements(L, f->body);
	if (!block_terminated(L))
		build_return(L);
	if (f->is_entry && L->target->shared_as_offsets)
		prune_lockstep_points(L);
	prune_spin_points(L);
	pop_scope(L, NULL);
	debug_end_function(L);
	L->func = NULL;
	L->func_sym = NULL;
}

static void fill_kernel_limits(struct ptx_kernel_info *k, const struct ptx_func *f)
{
	k->name = f->name;
	memcpy(k->maxntid, f->attrs.maxntid, sizeof(k->maxntid));
	memcpy(k->reqntid, f->attrs.reqntid, sizeof(k->reqntid));
}

/* Collects every shared variable a function reaches, through the functions it calls;
 * false when it calls through a pointer, which may reach anything. */
static bool reach(struct sym *f, struct reach *seen, uint32_t *nseen, uint32_t cap,
                  struct sym **visited, uint32_t *nvisited, uint32_t visited_cap)
{
	for (uint32_t i = 0; i < *nvisited; i++)
		if (visited[i] == f)
			return true;
	if (f->calls_indirectly || *nvisited == visited_cap)
		return false;
	visited[(*nvisited)++] = f;
	for (uint32_t i = 0; i < f->nreaches; i++) {
		const struct reach *r = &f->reaches[i];
		bool known = false;

		if (r->func) {
			if (!reach(r->func, seen, nseen, cap, visited, nvisited, visited_cap))
				return false;
			continue;
		}
		for (uint32_t k = 0; k < *nseen; k++)
			known |= seen[k].var == r->var;
		if (!known && *nseen == cap)
			return false;
		if (!known)
			seen[(*nseen)++] = *r;
	}
	return true;
}

static int by_offset(const void *a, const void *b)
{
	const struct reach *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* A kernel's static shared memory, as CUDA reports it: the variables it can reach, in the
 * module's layout order with their alignment (all of the layout when it calls through a
 * pointer). */
static uint32_t kernel_shared(struct lower *L, struct sym *kernel, uint32_t nfuncs)
{
	uint32_t cap = 4096, nseen = 0, nvisited = 0;
	struct reach *seen = lower_alloc(cap * sizeof(*seen));
	struct sym **visited = lower_alloc((nfuncs + 1) * sizeof(*visited));
	uint64_t total = 0;
	bool bounded = reach(kernel, seen, &nseen, cap, visited, &nvisited, nfuncs + 1);

	qsort(seen, nseen, sizeof(*seen), by_offset);
	for (uint32_t i = 0; bounded && i < nseen; i++) {
		uint32_t align = var_align(seen[i].var);

		if (var_elements(L, seen[i].var) != 0)
			total = (total + align - 1) / align * align + var_size(L, seen[i].var);
	}
	free(seen);
	free(visited);
	return (uint32_t)(bounded ? total : L->shared_layout_size - L->shared_start);
}

static void fill_shared_sizes(struct lower *L, struct ptx_lowered *out)
{
	uint32_t nfuncs = 0;

	for (const struct ptx_item *it = L->module->items; it; it = it->next)
		nfuncs += it->kind == PTX_ITEM_FUNC;
	for (uint32_t i = 0; i < out->nkernels; i++) {
		out->kernels[i].static_shared =
			kernel_shared(L, symtab_find(&L->globals, out->kernels[i].name), nfuncs);
		out->kernels[i].dynamic_shared = L->uses_dynamic_shared;
	}
	out->shared_layout_end = L->shared_layout_size;
	out->matrix_dependent = L->chose_matrix_form;
}

/* A function whose body failed to lower becomes a function of the same name and type whose
 * body is `unreachable`, marked with why, so that calls to it (from this module or from other
 * members of a link) still resolve until ptx_leave_out removes the kernels that need it. */
static void leave_out_function(struct lower *L, struct ptx_lowered *out)
{
	LLVMValueRef old = L->fn, fn;
	size_t len;
	char *name = strdup(LLVMGetValueName2(old, &len));
	const char *reason = L->label ? lower_name(L, "%s, line %u:%u: %s", L->label, L->diag->loc.line,
	                                           L->diag->loc.col, L->diag->message)
	                              : lower_name(L, "line %u:%u: %s", L->diag->loc.line,
	                                           L->diag->loc.col, L->diag->message);
	struct ptx_left_out_function *f;

	pop_scope(L, NULL);
	debug_end_function(L);
	LLVMSetValueName2(old, "", 0);
	fn = LLVMAddFunction(L->mod, name, LLVMGlobalGetValueType(old));
	LLVMSetLinkage(fn, LLVMGetLinkage(old));
	LLVMSetVisibility(fn, LLVMGetVisibility(old));
	LLVMSetFunctionCallConv(fn, LLVMGetFunctionCallConv(old));
	if (LLVMGetSubprogram(old))
		LLVMSetSubprogram(fn, LLVMGetSubprogram(old));
	LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
	                        LLVMCreateStringAttribute(L->ctx, PTX_LEFT_OUT_ATTRIBUTE,
	                                                  (unsigned)strlen(PTX_LEFT_OUT_ATTRIBUTE),
	                                                  reason, (unsigned)strlen(reason)));
	LLVMReplaceAllUsesWith(old, fn);
	LLVMDeleteFunction(old);
	L->func_sym->value = fn;
	LLVMPositionBuilderAtEnd(L->b, LLVMAppendBasicBlockInContext(L->ctx, fn, "left_out"));
	LLVMBuildUnreachable(L->b);
	out->left_out = realloc(out->left_out, (out->nleft_out + 1) * sizeof(*out->left_out));
	if (!out->left_out || !name) {
		fputs("zluda-convert: out of memory\n", stderr);
		abort();
	}
	f = &out->left_out[out->nleft_out++];
	f->name = name;
	f->loc = L->diag->loc;
	f->message = strdup(L->diag->message);
	ptx_diag_free(L->diag); /* the next failure starts a message of its own */
	L->func = NULL;
	L->func_sym = NULL;
	L->fn = NULL;
}

/* One function's body; a failure leaves the function out rather than the module. The module's
 * own failures (declarations, variables) still unwind to ptx_lower. */
static void lower_function_or_leave_out(struct lower *L, const struct ptx_func *f,
                                        struct ptx_kernel_info *k, struct ptx_lowered *out)
{
	jmp_buf module_fail;

	memcpy(module_fail, L->fail, sizeof(jmp_buf));
	if (setjmp(L->fail) == 0)
		lower_function(L, f, k);
	else
		leave_out_function(L, out);
	memcpy(L->fail, module_fail, sizeof(jmp_buf));
}

/* The module variables a body declares (function-scope .shared, .global and .const), in
 * the order lowering it would. */
static void declare_scoped_variables(struct lower *L, const struct ptx_func *f, const struct ptx_stmt *s)
{
	for (; s; s = s->next) {
		const struct ptx_var *v = &s->u.var;

		if (s->kind == PTX_STMT_BLOCK)
			declare_scoped_variables(L, f, s->u.block);
		else if (s->kind == PTX_STMT_VAR && (v->space == PTX_SPACE_SHARED || v->space == PTX_SPACE_GLOBAL ||
		                                     v->space == PTX_SPACE_CONST))
			declare_global_var(L, v, lower_name(L, "%s.%s", f->name, v->name));
	}
}

/* For a kernel whose body is not lowered here (ptx_lower_options.kernel_bodies): its
 * variables all the same, so that the module's variables and its shared layout are the
 * whole module's. Where lowering the body would fail, it stops where the lowering would. */
static void declare_kernel_variables(struct lower *L, const struct ptx_func *f)
{
	jmp_buf module_fail;

	memcpy(module_fail, L->fail, sizeof(jmp_buf));
	if (setjmp(L->fail) == 0)
		declare_scoped_variables(L, f, f->body);
	memcpy(L->fail, module_fail, sizeof(jmp_buf));
}

static void lower_module(struct lower *L, struct ptx_lowered *out, bool reserved_smem,
                         const bool *kernel_bodies)
{
	uint32_t nkernels = 0;

	if (reserved_smem)
		reserved_smem_declare(L);
	for (const struct ptx_item *it = L->module->items; it; it = it->next) {
		L->loc = it->loc;
		if (it->kind == PTX_ITEM_FUNC)
			declare_function(L, &it->u.func);
		else if (it->kind == PTX_ITEM_VAR)
			declare_global_var(L, &it->u.var, it->u.var.name);
		nkernels += it->kind == PTX_ITEM_FUNC && it->u.func.is_entry && it->u.func.has_body;
	}
	plan_f32_modes(L, L->unit_flushes_f32);
	out->kernels = lower_alloc((nkernels + 1) * sizeof(struct ptx_kernel_info));
	for (const struct ptx_item *it = L->module->items; it; it = it->next) {
		const struct ptx_func *f = &it->u.func;

		if (it->kind != PTX_ITEM_FUNC || !f->has_body)
			continue;
		if (f->is_entry) {
			fill_kernel_limits(&out->kernels[out->nkernels], f);
			if (!kernel_bodies || kernel_bodies[out->nkernels])
				lower_function_or_leave_out(L, f, &out->kernels[out->nkernels], out);
			else
				declare_kernel_variables(L, f);
			out->nkernels++;
		} else {
			lower_function_or_leave_out(L, f, NULL, out);
		}
	}
	fill_shared_sizes(L, out);
}

bool ptx_lower(const struct ptx_module *module, const struct ptx_target *target,
               LLVMContextRef ctx, const struct ptx_lower_options *options,
               struct ptx_lowered *out, struct ptx_diag *diag)
{
	struct lower L = {.module = module, .target = target, .diag = diag, .ctx = ctx,
	                  .shared_layout_size = options->shared_start,
	                  .shared_start = options->shared_start, .label = options->label,
	                  .matrix_instructions = options->matrix_instructions,
	                  .unit_flushes_f32 = options->f32_subnormals_flushed};
	bool ok;

	memset(out, 0, sizeof(*out));
	L.mod = LLVMModuleCreateWithNameInContext(module->file ? module->file : "ptx", ctx);
	LLVMSetTarget(L.mod, target->triple);
	LLVMSetDataLayout(L.mod, target->datalayout);
	L.b = LLVMCreateBuilderInContext(ctx);
	symtab_init(&L.globals, 4096);
	symtab_init(&L.locals, 4096);
	ok = setjmp(L.fail) == 0;
	if (ok) {
		debug_begin(&L, options->line_info);
		lower_module(&L, out, options->reserved_smem, options->kernel_bodies);
	}
	debug_end(&L, ok);
	LLVMDisposeBuilder(L.b);
	L.scope_syms = NULL;
	symtab_free(&L.globals);
	symtab_free(&L.locals);
	name_set_free(&L.maybe_constant);
	name_set_free(&L.foldable_variables);
	free(L.name_buffer);
	free(L.spin_points);
	free(L.initializer_elements);
	if (!ok) {
		LLVMDisposeModule(L.mod);
		ptx_lowered_free(out);
		return false;
	}
	out->module = L.mod;
	return true;
}

void ptx_lowered_free(struct ptx_lowered *out)
{
	for (uint32_t i = 0; i < out->nkernels; i++)
		free(out->kernels[i].params);
	free(out->kernels);
	for (uint32_t i = 0; i < out->nleft_out; i++) {
		free((char *)out->left_out[i].name);
		free(out->left_out[i].message);
	}
	free(out->left_out);
	if (out->module)
		LLVMDisposeModule(out->module);
	memset(out, 0, sizeof(*out));
}
