/* The lockstep points a kernel does not need (targets where a block's threads take turns,
 * the host: builtins.h, __zc_lockstep_point). A point before a shared load lets the block's
 * other threads make their next shared access first, so that lanes of a warp see each
 * other's stores as they would in lockstep. A load needs that only where a store to shared
 * memory may have come before it since the last whole-block barrier (bar.sync/bar.red
 * with no thread count): otherwise every thread makes such loads before any thread's next
 * store, which waits at its own point for the others to reach theirs, as lanes in lockstep
 * would. "May store to shared memory": a store or atomic that is neither into a thread's
 * own registers or local memory nor one of an st/atom/red into another space
 * (mark_not_shared), a memory intrinsic, a call to anything but a builtin whose arguments
 * hold no address. Threads on different paths at once are not ordered on a GPU either. */
#include <stdlib.h>
#include <string.h>

#include "lower.h"

static const char not_shared_kind[] = "zc.not_shared";

void mark_not_shared(struct lower *L, LLVMValueRef from)
{
	unsigned kind = LLVMGetMDKindIDInContext(L->ctx, not_shared_kind, sizeof not_shared_kind - 1);
	LLVMValueRef none = LLVMMetadataAsValue(L->ctx, LLVMMDNodeInContext2(L->ctx, NULL, 0));

	for (LLVMValueRef i = from; i; i = LLVMGetNextInstruction(i))
		if (LLVMIsAStoreInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))
			LLVMSetMetadata(i, kind, none);
}

struct pruning {
	unsigned not_shared;
	LLVMValueRef lockstep;
	LLVMBasicBlockRef *blocks;  /* sorted by address */
	unsigned nblocks;
	bool *stored_in;            /* per block: a store may have come before its start */
	unsigned *work;             /* blocks whose start changed, to scan again */
	unsigned nwork;
	bool *queued;
};

static const char *callee_name(LLVMValueRef call)
{
	LLVMValueRef callee = LLVMGetCalledValue(call);
	size_t len;

	return LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : NULL;
}

/* bar.sync, barrier.sync and bar.red of every thread of the block. */
static bool is_block_barrier(LLVMValueRef i)
{
	const char *name = LLVMIsACallInst(i) ? callee_name(i) : NULL;

	if (!name || (strcmp(name, "__zc_bar_sync") && strncmp(name, "__zc_bar_red_", 13)))
		return false;
	LLVMValueRef count = LLVMGetOperand(i, 1);
	return LLVMIsAConstantInt(count) && LLVMConstIntGetZExtValue(count) == 0;
}

/* A thread's own memory: its registers and local arrays are allocas. */
static bool is_private(LLVMValueRef pointer)
{
	while (LLVMIsAGetElementPtrInst(pointer) || LLVMIsABitCastInst(pointer) ||
	       LLVMIsAAddrSpaceCastInst(pointer))
		pointer = LLVMGetOperand(pointer, 0);
	return LLVMIsAAllocaInst(pointer) != NULL;
}

static bool may_store_shared(const struct pruning *p, LLVMValueRef i)
{
	if (LLVMIsAStoreInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i)) {
		LLVMValueRef pointer = LLVMGetOperand(i, LLVMIsAStoreInst(i) ? 1 : 0);
		return !LLVMGetMetadata(i, p->not_shared) && !is_private(pointer);
	}
	if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
		return false;
	const char *name = callee_name(i);
	if (!name)
		return true;
	if (!strncmp(name, "llvm.", 5))
		return !strncmp(name, "llvm.mem", 8) || !strncmp(name, "llvm.masked.store", 17) ||
		       !strncmp(name, "llvm.masked.scatter", 19);
	if (strncmp(name, "__zc_", 5))
		return true;
	unsigned n = (unsigned)LLVMGetNumArgOperands(i);
	for (unsigned a = 0; a < n; a++) {
		LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(i, a));
		if (LLVMGetTypeKind(t) == LLVMPointerTypeKind ||
		    (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 64))
			return true;
	}
	return false;
}

/* A lockstep point before a plain (not volatile) load: the first load or store after it
 * that does not reach a thread's own memory is a load. */
static bool is_point_before_load(const struct pruning *p, LLVMValueRef point)
{
	if (!LLVMIsACallInst(point) || LLVMGetCalledValue(point) != p->lockstep)
		return false;
	for (LLVMValueRef i = LLVMGetNextInstruction(point); i; i = LLVMGetNextInstruction(i)) {
		if (LLVMIsALoadInst(i) && !is_private(LLVMGetOperand(i, 0)))
			return !LLVMGetVolatile(i);
		if (LLVMIsAStoreInst(i) && !is_private(LLVMGetOperand(i, 1)))
			return false;
		const char *name = LLVMIsACallInst(i) ? callee_name(i) : "__zc_";
		if (!name || strncmp(name, "__zc_", 5))
			return false;
	}
	return false;
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const LLVMBasicBlockRef *)a, y = (uintptr_t)*(const LLVMBasicBlockRef *)b;

	return x < y ? -1 : x > y;
}

static unsigned block_index(const struct pruning *p, LLVMBasicBlockRef b)
{
	LLVMBasicBlockRef *at = bsearch(&b, p->blocks, p->nblocks, sizeof *p->blocks, by_address);

	return (unsigned)(at - p->blocks);
}

/* Scans block b from its start: whether a store may have come before its end. With
 * `prune`, removes the points before loads that no store may have come before. */
static bool scan_block(struct pruning *p, unsigned b, bool prune)
{
	bool stored = p->stored_in[b];
	LLVMValueRef next;

	for (LLVMValueRef i = LLVMGetFirstInstruction(p->blocks[b]); i; i = next) {
		next = LLVMGetNextInstruction(i);
		if (is_block_barrier(i))
			stored = false;
		else if (is_point_before_load(p, i)) {
			if (prune && !stored)
				LLVMInstructionEraseFromParent(i);
		} else if (!stored)
			stored = may_store_shared(p, i);
	}
	return stored;
}

void prune_lockstep_points(struct lower *L)
{
	struct pruning p = {
		.not_shared = LLVMGetMDKindIDInContext(L->ctx, not_shared_kind, sizeof not_shared_kind - 1),
		.lockstep = LLVMGetNamedFunction(L->mod, "__zc_lockstep_point"),
	};
	if (!p.lockstep)
		return;
	p.nblocks = LLVMCountBasicBlocks(L->fn);
	p.blocks = lower_alloc(p.nblocks * sizeof *p.blocks);
	p.stored_in = lower_alloc(p.nblocks * sizeof *p.stored_in);
	p.queued = lower_alloc(p.nblocks * sizeof *p.queued);
	p.work = lower_alloc(p.nblocks * sizeof *p.work);
	LLVMGetBasicBlocks(L->fn, p.blocks);
	qsort(p.blocks, p.nblocks, sizeof *p.blocks, by_address);
	memset(p.stored_in, 0, p.nblocks * sizeof *p.stored_in);
	/* Every block once; then a block again each time its start turns to "stored", which
	 * happens once: a forward analysis that ends. */
	for (unsigned b = 0; b < p.nblocks; b++) {
		p.work[p.nwork++] = b;
		p.queued[b] = true;
	}
	while (p.nwork) {
		unsigned b = p.work[--p.nwork];
		p.queued[b] = false;
		if (!scan_block(&p, b, false))
			continue;
		LLVMValueRef end = LLVMGetBasicBlockTerminator(p.blocks[b]);
		unsigned n = end ? LLVMGetNumSuccessors(end) : 0;
		for (unsigned s = 0; s < n; s++) {
			unsigned next = block_index(&p, LLVMGetSuccessor(end, s));
			if (!p.stored_in[next]) {
				p.stored_in[next] = true;
				if (!p.queued[next]) {
					p.queued[next] = true;
					p.work[p.nwork++] = next;
				}
			}
		}
	}
	for (unsigned b = 0; b < p.nblocks; b++)
		scan_block(&p, b, true);
	free(p.work);
	free(p.queued);
	free(p.stored_in);
	free(p.blocks);
}
