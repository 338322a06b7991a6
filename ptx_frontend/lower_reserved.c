/* The reserved shared memory of sm_80 and later: %reserved_smem_offset_begin/_end/_cap and
 * %reserved_smem_offset_0/_1 name a per-block region that NVIDIA's driver keeps apart from
 * the kernel's own shared memory and hands over zeroed. Cooperative groups keeps the
 * barriers of its multi-warp tiles there (at %reserved_smem_offset_1) and, on sm_80 and
 * later, relies on finding them zero instead of initialising them. Here the region is
 * PTX_RESERVED_SMEM_SIZE bytes that every kernel of the unit zeroes before its first
 * statement: the lower half is %reserved_smem_offset_0's, the upper half _1's. */
#include <string.h>

#include "lower.h"

#define RESERVED_PREFIX "%reserved_smem_offset_"

static bool operand_names_reserved(const struct ptx_operand *o)
{
	if (o->kind == PTX_OP_NAME && o->name && !strncmp(o->name, RESERVED_PREFIX, strlen(RESERVED_PREFIX)))
		return true;
	for (uint32_t i = 0; i < o->count; i++)
		if (o->items && operand_names_reserved(&o->items[i]))
			return true;
	return false;
}

static bool statements_name_reserved(const struct ptx_stmt *s)
{
	for (; s; s = s->next) {
		if (s->kind == PTX_STMT_BLOCK && statements_name_reserved(s->u.block))
			return true;
		if (s->kind != PTX_STMT_INSN)
			continue;
		for (uint32_t i = 0; i < s->u.insn.nops; i++)
			if (operand_names_reserved(&s->u.insn.ops[i]))
				return true;
	}
	return false;
}

bool ptx_uses_reserved_smem(const struct ptx_module *module)
{
	for (const struct ptx_item *it = module->items; it; it = it->next)
		if (it->kind == PTX_ITEM_FUNC && it->u.func.has_body && statements_name_reserved(it->u.func.body))
			return true;
	return false;
}

/* One definition per member, merged into one by the link (linkonce), so that every member
 * of an -rdc link names the same region. */
void reserved_smem_declare(struct lower *L)
{
	LLVMTypeRef bytes = LLVMArrayType2(ll_int(L, 8), PTX_RESERVED_SMEM_SIZE);

	L->has_reserved_smem = true;
	if (L->target->shared_as_offsets)
		return; /* offset 0 of the layout (target.h) */
	L->reserved_smem = LLVMAddGlobalInAddressSpace(L->mod, bytes, "__zc_reserved_smem",
	                                               L->target->as_shared);
	LLVMSetInitializer(L->reserved_smem, LLVMGetUndef(bytes));
	LLVMSetLinkage(L->reserved_smem, LLVMLinkOnceODRLinkage);
	LLVMSetAlignment(L->reserved_smem, 16);
}

/* The region's shared address plus `offset`, as a 32-bit shared address. */
static LLVMValueRef reserved_address(struct lower *L, uint32_t offset)
{
	LLVMValueRef base = L->reserved_smem
	                  ? LLVMBuildPtrToInt(L->b, L->reserved_smem, ll_int(L, 32), "")
	                  : LLVMConstInt(ll_int(L, 32), 0, 0);

	return LLVMBuildAdd(L->b, base, LLVMConstInt(ll_int(L, 32), offset, 0), "");
}

LLVMValueRef reserved_smem_register(struct lower *L, const char *name)
{
	static const struct {
		const char *suffix;
		uint32_t offset;
	} registers[] = {
		{"begin", 0}, {"end", PTX_RESERVED_SMEM_SIZE}, {"0", 0}, {"1", PTX_RESERVED_SMEM_SIZE / 2},
	};

	if (strncmp(name, RESERVED_PREFIX, strlen(RESERVED_PREFIX)) != 0)
		return NULL;
	name += strlen(RESERVED_PREFIX);
	if (!L->has_reserved_smem)
		lower_fail(L, "%%reserved_smem_offset_%s is read, but the module was lowered without "
		           "its reserved shared memory", name);
	if (strcmp(name, "cap") == 0)
		return LLVMConstInt(ll_int(L, 32), PTX_RESERVED_SMEM_SIZE, 0);
	for (size_t i = 0; i < sizeof(registers) / sizeof(registers[0]); i++)
		if (strcmp(name, registers[i].suffix) == 0)
			return reserved_address(L, registers[i].offset);
	lower_fail(L, "'%s%s' is not a special register", RESERVED_PREFIX, name);
}

void reserved_smem_zero(struct lower *L)
{
	LLVMValueRef args[2];

	if (!L->has_reserved_smem)
		return;
	args[0] = L->reserved_smem
	        ? LLVMBuildAddrSpaceCast(L->b, L->reserved_smem, ll_ptr(L, L->target->as_generic), "")
	        : shared_base(L);
	args[1] = LLVMConstInt(ll_int(L, 32), PTX_RESERVED_SMEM_SIZE / 4, 0);
	call_builtin(L, "__zc_reserved_smem_zero", LLVMVoidTypeInContext(L->ctx), args, 2);
}
