/* The lockstep points a kernel does not need (targets where a block's threads take turns,
 * the host: builtins.h, __zc_lockstep_point), and the spin points of atomics whose result
 * nothing reads (no spin loop can wait on such an atomic: no other thread needs a turn
 * there). A point before a shared access lets the block's other threads make their next
 * shared access first, so that lanes of a warp see each other's accesses in the order they
 * would in lockstep. A load needs that only where
 * a store to shared memory may have come before it since the last whole-block barrier
 * (bar.sync/bar.red with no thread count): otherwise every thread makes such loads before
 * any thread's next store, which waits at its own point for the others to reach theirs, as
 * lanes in lockstep would. A store needs it only where a shared access of any kind may have
 * come before it since that barrier: the first shared access after a barrier is every
 * thread's first, and the next one waits at its point. "May store to shared memory": a
 * store or atomic that is neither into a thread's own registers or local memory nor one of
 * an st/atom/red into another space (mark_not_shared), a memory intrinsic, a call to
 * anything but a builtin whose arguments hold no address; "may load from it": a load that is
 * neither from a thread's own memory nor an ld from another space. Threads on different
 * paths at once are not ordered on a GPU either. Volatile accesses keep their points. */
#include <stdlib.h>
#include <string.h>

#include "lower.h"

static const char not_shared_kind[] = "zc.not_shared";

void mark_not_shared(struct lower *L, LLVMValueRef from)
{
	unsigned kind = LLVMGetMDKindIDInContext(L->ctx, not_shared_kind, sizeof not_shared_kind - 1);
	LLVMValueRef none = LLVMMetadataAsValue(L->ctx, LLVMMDNodeInContext2(L->ctx, NULL, 0));

	for (LLVMValueRef i = from; i; i = LLVMGetNextInstruction(i))
		if (LLVMIsAStoreInst(i) || LLVMIsALoadInst(i) || LLVMIsAAtomicRMWInst(i) ||
		    LLVMIsAAtomicCmpXchgInst(i))
			LLVMSetMetadata(i, kind, none);
}

struct pruning {
	unsigned not_shared;
	LLVMValueRef lockstep;
	LLVMBasicBlockRef *blocks;  /* sorted by address */
	unsigned nblocks;
	unsigned char *state_in;    /* per block: what may have come before its start (MAY_*) */
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

/* What may have come before a point since the last whole-block barrier. */
enum { MAY_STORE = 1, MAY_ACCESS = 2 };

static bool may_load_shared(const struct pruning *p, LLVMValueRef i)
{
	return LLVMIsALoadInst(i) && !LLVMGetMetadata(i, p->not_shared) && !is_private(LLVMGetOperand(i, 0));
}

/* For a lockstep point before a plain (not volatile) load or store, the first load or
 * store after it that does not reach a thread's own memory: what must not have come before
 * the point for it to go (MAY_STORE before a load, MAY_ACCESS before a store); 0 for any
 * other instruction. */
static unsigned point_needs(const struct pruning *p, LLVMValueRef point)
{
	if (!LLVMIsACallInst(point) || LLVMGetCalledValue(point) != p->lockstep)
		return 0;
	for (LLVMValueRef i = LLVMGetNextInstruction(point); i; i = LLVMGetNextInstruction(i)) {
		if (LLVMIsALoadInst(i) && !is_private(LLVMGetOperand(i, 0)))
			return LLVMGetVolatile(i) ? 0 : MAY_STORE;
		if (LLVMIsAStoreInst(i) && !is_private(LLVMGetOperand(i, 1)))
			return LLVMGetVolatile(i) ? 0 : MAY_ACCESS;
		const char *name = LLVMIsACallInst(i) ? callee_name(i) : "__zc_";
		if (!name || strncmp(name, "__zc_", 5))
			return 0;
	}
	return 0;
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

/* Scans block b from its start: what may have come before its end (MAY_*). With
 * `prune`, removes the points whose access nothing that matters may have come before. */
static unsigned scan_block(struct pruning *p, unsigned b, bool prune)
{
	unsigned state = p->state_in[b];
	LLVMValueRef next;

	for (LLVMValueRef i = LLVMGetFirstInstruction(p->blocks[b]); i; i = next) {
		next = LLVMGetNextInstruction(i);
		unsigned needs = point_needs(p, i);
		if (is_block_barrier(i))
			state = 0;
		else if (needs) {
			if (prune && !(state & needs))
				LLVMInstructionEraseFromParent(i);
		} else if (state != (MAY_STORE | MAY_ACCESS)) {
			if (may_store_shared(p, i))
				state = MAY_STORE | MAY_ACCESS;
			else if (may_load_shared(p, i))
				state |= MAY_ACCESS;
		}
	}
	return state;
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
	p.state_in = lower_alloc(p.nblocks * sizeof *p.state_in);
	p.queued = lower_alloc(p.nblocks * sizeof *p.queued);
	p.work = lower_alloc(p.nblocks * sizeof *p.work);
	LLVMGetBasicBlocks(L->fn, p.blocks);
	qsort(p.blocks, p.nblocks, sizeof *p.blocks, by_address);
	memset(p.state_in, 0, p.nblocks * sizeof *p.state_in);
	/* Every block once; then a block again each time its start gains a MAY_* bit, which
	 * happens at most twice: a forward analysis that ends. */
	for (unsigned b = 0; b < p.nblocks; b++) {
		p.work[p.nwork++] = b;
		p.queued[b] = true;
	}
	while (p.nwork) {
		unsigned b = p.work[--p.nwork];
		p.queued[b] = false;
		unsigned state = scan_block(&p, b, false);
		if (!state)
			continue;
		LLVMValueRef end = LLVMGetBasicBlockTerminator(p.blocks[b]);
		unsigned n = end ? LLVMGetNumSuccessors(end) : 0;
		for (unsigned s = 0; s < n; s++) {
			unsigned next = block_index(&p, LLVMGetSuccessor(end, s));
			if ((p.state_in[next] | state) != p.state_in[next]) {
				p.state_in[next] |= (unsigned char)state;
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
	free(p.state_in);
	free(p.blocks);
}

/* Whether the alloca (a register) is ever read: any use but a store into it. */
static bool register_read(LLVMValueRef alloca)
{
	for (LLVMUseRef u = LLVMGetFirstUse(alloca); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 0) == alloca)
			return true;
	}
	return false;
}

void note_spin_point(struct lower *L, LLVMValueRef point, const struct ptx_operand *destination)
{
	if (destination->kind == PTX_OP_SINK) {
		LLVMInstructionEraseFromParent(point);
		return;
	}
	struct sym *s = destination->kind == PTX_OP_NAME ? sym_lookup(L, destination->name) : NULL;
	if (!s || s->kind != SYM_REG || !LLVMIsAAllocaInst(s->value))
		return;
	if (L->nspin_points == L->spin_points_capacity) {
		size_t capacity = L->spin_points_capacity ? 2 * L->spin_points_capacity : 16;
		struct spin_point *grown = realloc(L->spin_points, capacity * sizeof *grown);
		if (!grown)
			lower_fail(L, "out of memory");
		L->spin_points = grown;
		L->spin_points_capacity = capacity;
	}
	L->spin_points[L->nspin_points++] = (struct spin_point){point, s->value};
}

void prune_spin_points(struct lower *L)
{
	for (size_t i = 0; i < L->nspin_points; i++)
		if (!register_read(L->spin_points[i].destination))
			LLVMInstructionEraseFromParent(L->spin_points[i].call);
	L->nspin_points = 0;
}
