/* Addresses as a base and an offset, for the host target. PTX computes an address as a
 * 64-bit integer (add.s64 of a pointer and an offset) that the lowering turns into a
 * pointer with inttoptr, and LLVM's scalar evolution does not look through inttoptr: to the
 * vectoriser, a loop over a block's threads that accesses inttoptr(x + 4 * tid) has
 * accesses whose bounds it cannot tell ("cannot identify array bounds"), so it stays
 * scalar. getelementptr(inttoptr(x), 4 * tid) is the same address by the same wrapping
 * arithmetic (no inbounds claimed), with a base the loop does not change and an offset
 * that steps with it. InstCombine keeps that form where the address is only loaded from
 * or stored to. */
#include <stdbool.h>

#include "backend.h"

/* Whether v looks like an offset rather than a pointer: a constant, or the scaling or
 * widening of an index. */
static bool zc_is_offset(LLVMValueRef v)
{
	if (LLVMIsAConstantInt(v))
		return true;
	if (!LLVMIsAInstruction(v))
		return false;
	switch (LLVMGetInstructionOpcode(v)) {
	case LLVMSExt:
	case LLVMZExt:
	case LLVMShl:
	case LLVMMul:
		return true;
	default:
		return false;
	}
}

/* inttoptr(a + b), a and b as wide as a pointer, becomes getelementptr(inttoptr(base),
 * offset); returns the new inttoptr of the base (which may be a sum in turn), or NULL. */
static LLVMValueRef zc_split_address(LLVMBuilderRef b, LLVMTargetDataRef layout, LLVMValueRef cast)
{
	LLVMValueRef sum = LLVMGetOperand(cast, 0);
	LLVMTypeRef type = LLVMTypeOf(cast);
	if (!LLVMIsAInstruction(sum) || LLVMGetInstructionOpcode(sum) != LLVMAdd ||
	    LLVMGetTypeKind(type) != LLVMPointerTypeKind ||  /* not a vector of them */
	    LLVMGetIntTypeWidth(LLVMTypeOf(sum)) != 8 * LLVMPointerSizeForAS(layout, LLVMGetPointerAddressSpace(type)))
		return NULL;
	LLVMValueRef base = LLVMGetOperand(sum, 0), offset = LLVMGetOperand(sum, 1);
	if (zc_is_offset(base) && !zc_is_offset(offset)) {
		LLVMValueRef t = base;
		base = offset;
		offset = t;
	}
	if (LLVMIsAConstantInt(base))
		return NULL;
	LLVMPositionBuilderBefore(b, cast);
	LLVMValueRef pointer = LLVMBuildIntToPtr(b, base, type, "");
	LLVMValueRef address = LLVMBuildGEP2(b, LLVMInt8TypeInContext(LLVMGetTypeContext(type)), pointer, &offset, 1, "");
	LLVMReplaceAllUsesWith(cast, address);
	LLVMInstructionEraseFromParent(cast);
	return pointer;
}

void zc_host_addresses_as_offsets(LLVMModuleRef module)
{
	LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));

	for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f))
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
				next = LLVMGetNextInstruction(i);
				for (LLVMValueRef cast = i; cast && LLVMIsAIntToPtrInst(cast);)
					cast = zc_split_address(b, layout, cast);
			}
	LLVMDisposeBuilder(b);
}
