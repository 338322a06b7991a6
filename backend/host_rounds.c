/* Kernels whose threads meet only at barriers of the whole block, at lockstep points and
 * in warp operations, run as rounds.
 *
 * After the first optimisation, a thread entry (host_entry.c) that reaches the driver only
 * through bar.sync of one barrier for the whole block, through lockstep points (builtins.h,
 * __zc_lockstep_point) and through warp operations other than activemask (the host
 * builtins' __zc_warp), and keeps no local memory, is cut at those stops: its code becomes
 *
 *   i32 NAME.zc_round(params, thread, frame, nthreads, linear_id, state, lanes)
 *
 * which runs one thread from after stop `state` (0: the kernel's start) to its next stop
 * and returns that stop's number, or the exit's. A value live across a stop lives in
 * `frame`, an array a value indexed by the thread's linear id; at a warp operation the
 * thread leaves its operands in `lanes` (ZcRoundLane, host_abi.h), where the result waits
 * when it goes on. The block entry NAME.zc_block runs rounds. A round runs the threads
 * that can go on, as the CPU driver runs every runnable thread to its next operation: those
 * at lockstep points and those whose warp operation the driver's round_warps completed;
 * when there are none, every thread not yet exited waits at a barrier, which releases them
 * all (CUDA's bar.sync), and the round runs each on to its next stop. A round is a loop over
 * the block's threads per stop it runs from, calling NAME.zc_round with that stop's number;
 * inlined there, the call keeps only the code that follows the stop. The threads of a block
 * no longer switch fibers: each round is a loop. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "host_abi.h"

enum {
	/* The states (0 and one per stop) and the exit are bits of a 64-bit mask. */
	ZC_ROUNDS_MAX_STOPS = 62,
	/* Liveness is a walk per value: functions larger than this keep their fibers. */
	ZC_ROUNDS_MAX_INSTRUCTIONS = 50000,
	/* Bytes of live values a thread may keep across stops: a block's frames (1,024
	 * threads at most) lie on the stack of the block's one fiber, 256 KiB
	 * (runtime_stub/drivers/host/drv_host_exec.c). */
	ZC_ROUNDS_MAX_FRAME = 128,
	/* Values kept in the frame, which share its slots where they can: a search over pairs. */
	ZC_ROUNDS_MAX_KEPT = 512,
};

/* The builtins whose calls are stops. */
typedef struct {
	LLVMValueRef bar_sync, lockstep, warp;
} ZcStops;

typedef struct {
	LLVMBasicBlockRef block;
	uint32_t index;
} ZcBlockIndex;

/* The entry's control-flow graph, for the liveness walks. */
typedef struct {
	const ZcStops *stops;
	ZcBlockIndex *sorted;      /* by address, for zc_index_of */
	uint32_t nblocks;
	uint32_t *pred_start;      /* predecessors of block i: preds[pred_start[i] .. pred_start[i + 1]) */
	LLVMBasicBlockRef *preds;
	bool *has_stop;
	uint32_t *visited;         /* the walk's stamp, per block */
	uint32_t stamp;
	LLVMBasicBlockRef *work;
	size_t nwork;
} ZcCfg;

static bool zc_is_stop(const ZcStops *stops, LLVMValueRef instruction)
{
	if (!LLVMIsACallInst(instruction))
		return false;
	LLVMValueRef callee = LLVMGetCalledValue(instruction);
	return callee == stops->bar_sync || callee == stops->lockstep || callee == stops->warp;
}

/* Whether the entry can run in rounds: its only calls that reach the driver are lockstep
 * points, warp operations and calls of __zc_bar_sync with the same constant barrier and a
 * count of 0 (the whole block), at most ZC_ROUNDS_MAX_STOPS in all; no alloca (a thread's
 * local memory would be every thread's); no invoke. Counts the stops. */
static bool zc_rounds_fit(LLVMValueRef entry, const ZcStops *stops, uint32_t *nstops)
{
	uint32_t count_stops = 0, barriers = 0;
	size_t instructions = 0;
	unsigned long long id = 0;
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(entry); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
			if (++instructions > ZC_ROUNDS_MAX_INSTRUCTIONS || LLVMIsAAllocaInst(i) ||
			    LLVMIsAInvokeInst(i) || LLVMIsACallBrInst(i))
				return false;
			if (!LLVMIsACallInst(i))
				continue;
			LLVMValueRef callee = LLVMGetCalledValue(i);
			if (callee == stops->bar_sync) {
				LLVMValueRef barrier = LLVMGetOperand(i, 0), count = LLVMGetOperand(i, 1);
				if (!LLVMIsAConstantInt(barrier) || !LLVMIsAConstantInt(count) ||
				    LLVMConstIntGetZExtValue(count) != 0 ||
				    (barriers++ && LLVMConstIntGetZExtValue(barrier) != id))
					return false;
				id = LLVMConstIntGetZExtValue(barrier);
			}
			if (zc_is_stop(stops, i)) {
				if (++count_stops > ZC_ROUNDS_MAX_STOPS)
					return false;
				continue;
			}
			if (!LLVMIsAFunction(callee))
				return false;
			size_t length;
			const char *name = LLVMGetValueName2(callee, &length);
			if (LLVMIsDeclaration(callee) ? strncmp(name, "__zc_", 5) == 0 : zc_reaches_driver(callee))
				return false;
		}
	*nstops = count_stops;
	return count_stops > 0;
}

static int zc_compare_blocks(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const ZcBlockIndex *)a)->block, y = (uintptr_t)((const ZcBlockIndex *)b)->block;
	return x < y ? -1 : x > y;
}

static uint32_t zc_index_of(const ZcCfg *g, LLVMBasicBlockRef block)
{
	ZcBlockIndex key = {block, 0};
	const ZcBlockIndex *found = bsearch(&key, g->sorted, g->nblocks, sizeof key, zc_compare_blocks);
	return found->index;
}

static void zc_free_cfg(ZcCfg *g)
{
	free(g->sorted);
	free(g->pred_start);
	free(g->preds);
	free(g->has_stop);
	free(g->visited);
	free(g->work);
}

static int zc_build_cfg(ZcCfg *g, LLVMValueRef entry, const ZcStops *stops)
{
	*g = (ZcCfg){.stops = stops, .nblocks = LLVMCountBasicBlocks(entry)};
	uint32_t n = g->nblocks;
	g->sorted = calloc(n, sizeof *g->sorted);
	g->pred_start = calloc(n + 1, sizeof *g->pred_start);
	g->has_stop = calloc(n, sizeof *g->has_stop);
	g->visited = calloc(n, sizeof *g->visited);
	g->work = calloc(n, sizeof *g->work);
	if (!g->sorted || !g->pred_start || !g->has_stop || !g->visited || !g->work)
		return -1;
	uint32_t i = 0;
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(entry); bb; bb = LLVMGetNextBasicBlock(bb), i++)
		g->sorted[i] = (ZcBlockIndex){bb, i};
	qsort(g->sorted, n, sizeof *g->sorted, zc_compare_blocks);

	size_t edges = 0;
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(entry); bb; bb = LLVMGetNextBasicBlock(bb)) {
		LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
		for (unsigned s = 0; s < LLVMGetNumSuccessors(term); s++, edges++)
			g->pred_start[zc_index_of(g, LLVMGetSuccessor(term, s)) + 1]++;
		for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
			if (zc_is_stop(stops, in))
				g->has_stop[zc_index_of(g, bb)] = true;
	}
	for (i = 0; i < n; i++)
		g->pred_start[i + 1] += g->pred_start[i];
	g->preds = calloc(edges ? edges : 1, sizeof *g->preds);
	uint32_t *fill = calloc(n, sizeof *fill);
	if (!g->preds || !fill) {
		free(fill);
		return -1;
	}
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(entry); bb; bb = LLVMGetNextBasicBlock(bb)) {
		LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
		for (unsigned s = 0; s < LLVMGetNumSuccessors(term); s++) {
			uint32_t to = zc_index_of(g, LLVMGetSuccessor(term, s));
			g->preds[g->pred_start[to] + fill[to]++] = bb;
		}
	}
	free(fill);
	return 0;
}

/* What the code after a stop needs of a value: the value kept in the frame (an array a
 * value, starting `offset` * nthreads bytes into it), or computed again where it is used
 * from values that are kept, constants and the parameters. */
enum ZcKeep { ZC_IN_FRAME = 1, ZC_RECOMPUTED };

typedef struct {
	LLVMValueRef value;
	enum ZcKeep keep;
	uint32_t size, offset;
	LLVMValueRef base;
	/* A recomputed value's operands as they were before any use was rewritten. */
	LLVMValueRef *operands;
} ZcLive;

/* The values the code after a stop needs, with a table from value to index (open
 * addressing: index + 1, 0 for none). */
typedef struct {
	ZcLive *items;
	size_t count, capacity;
	size_t *table, table_size;
	LLVMValueRef params, thread;
} ZcLiveSet;

/* A computation done again after a stop is at most this many instructions deep. */
enum { ZC_ROUNDS_MAX_RECOMPUTE_DEPTH = 8 };

static size_t zc_hash(const ZcLiveSet *set, LLVMValueRef value)
{
	return (size_t)(((uintptr_t)value >> 4) * 0x9E3779B97F4A7C15ull) & (set->table_size - 1);
}

static ZcLive *zc_find(const ZcLiveSet *set, LLVMValueRef value)
{
	if (!set->table_size)
		return NULL;
	for (size_t h = zc_hash(set, value);; h = (h + 1) & (set->table_size - 1)) {
		if (!set->table[h])
			return NULL;
		if (set->items[set->table[h] - 1].value == value)
			return &set->items[set->table[h] - 1];
	}
}

static int zc_grow_table(ZcLiveSet *set)
{
	size_t size = set->table_size ? 2 * set->table_size : 64;
	while (size < 2 * (set->count + 1))
		size *= 2;
	size_t *table = calloc(size, sizeof *table);
	if (!table)
		return -1;
	free(set->table);
	set->table = table;
	set->table_size = size;
	for (size_t i = 0; i < set->count; i++) {
		size_t h = zc_hash(set, set->items[i].value);
		while (table[h])
			h = (h + 1) & (size - 1);
		table[h] = i + 1;
	}
	return 0;
}

static int zc_add_live(ZcLiveSet *set, LLVMValueRef value, enum ZcKeep keep)
{
	if (set->count == set->capacity) {
		size_t capacity = set->capacity ? 2 * set->capacity : 16;
		ZcLive *items = realloc(set->items, capacity * sizeof *items);
		if (!items)
			return -1;
		set->items = items;
		set->capacity = capacity;
	}
	if (2 * (set->count + 1) > set->table_size && zc_grow_table(set) < 0)
		return -1;
	set->items[set->count] = (ZcLive){.value = value, .keep = keep};
	size_t h = zc_hash(set, value);
	while (set->table[h])
		h = (h + 1) & (set->table_size - 1);
	set->table[h] = ++set->count;
	return 0;
}

/* One step of a walk back from the uses of `value`: scans `block` backwards from before
 * `from` (from its end when NULL). True at `target`, or with no target at a stop: the value
 * is live there. The scan stops at the value's definition; past the block's start it goes
 * on in the predecessors not yet walked. Only the blocks of the definition and of the
 * target (or those with a stop) need their instructions looked at. */
static bool zc_walk_back(ZcCfg *g, LLVMValueRef value, LLVMValueRef target, LLVMBasicBlockRef block,
                         LLVMValueRef from)
{
	uint32_t index = zc_index_of(g, block);
	bool look = target ? block == LLVMGetInstructionParent(target) : g->has_stop[index];
	if (look || block == LLVMGetInstructionParent(value))
		for (LLVMValueRef i = from ? LLVMGetPreviousInstruction(from) : LLVMGetLastInstruction(block); i;
		     i = LLVMGetPreviousInstruction(i)) {
			if (i == value)
				return false;
			if (target ? i == target : zc_is_stop(g->stops, i))
				return true;
		}
	for (uint32_t p = g->pred_start[index]; p < g->pred_start[index + 1]; p++) {
		uint32_t pred = zc_index_of(g, g->preds[p]);
		if (g->visited[pred] != g->stamp) {
			g->visited[pred] = g->stamp;
			g->work[g->nwork++] = g->preds[p];
		}
	}
	return false;
}

/* Starts the walks back from the uses of `used` (`value` or, through values computed
 * again, a value made of it: its copies go where that one is used). */
static bool zc_walk_from_uses(ZcCfg *g, const ZcLiveSet *set, LLVMValueRef value, LLVMValueRef target,
                              LLVMValueRef used)
{
	for (LLVMUseRef u = LLVMGetFirstUse(used); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		const ZcLive *item = set ? zc_find(set, user) : NULL;
		if (item && item->keep == ZC_RECOMPUTED) {
			if (zc_walk_from_uses(g, set, value, target, user))
				return true;
		} else if (!LLVMIsAPHINode(user)) {
			if (zc_walk_back(g, value, target, LLVMGetInstructionParent(user), user))
				return true;
		} else {
			for (unsigned k = 0; k < LLVMCountIncoming(user); k++)
				if (LLVMGetIncomingValue(user, k) == used &&
				    zc_walk_back(g, value, target, LLVMGetIncomingBlock(user, k), NULL))
					return true;
		}
	}
	return false;
}

/* Whether `value` is live at `target` (at a stop when NULL): a path from there to a use
 * misses its definition. With `set`, the uses of the values computed again count. */
static bool zc_live_at(ZcCfg *g, const ZcLiveSet *set, LLVMValueRef value, LLVMValueRef target)
{
	g->stamp++;
	g->nwork = 0;
	if (zc_walk_from_uses(g, set, value, target, value))
		return true;
	while (g->nwork)
		if (zc_walk_back(g, value, target, g->work[--g->nwork], NULL))
			return true;
	return false;
}

/* The address `pointer` points into, before any GEP. */
static LLVMValueRef zc_pointer_base(LLVMValueRef pointer)
{
	while (LLVMIsAGetElementPtrInst(pointer))
		pointer = LLVMGetOperand(pointer, 0);
	return pointer;
}

/* A load of the thread's ZcHostThread.block. */
static bool zc_loads_block(const ZcLiveSet *set, LLVMValueRef value)
{
	if (!LLVMIsALoadInst(value) || LLVMGetVolatile(value))
		return false;
	LLVMValueRef pointer = LLVMGetOperand(value, 0);
	if (pointer == set->thread)
		return offsetof(ZcHostThread, block) == 0;
	return LLVMIsAGetElementPtrInst(pointer) && LLVMGetOperand(pointer, 0) == set->thread &&
	       LLVMGetNumOperands(pointer) == 2 && LLVMIsAConstantInt(LLVMGetOperand(pointer, 1)) &&
	       LLVMConstIntGetZExtValue(LLVMGetOperand(pointer, 1)) == offsetof(ZcHostThread, block);
}

/* A load of the .param buffer, which no thread writes, of the ZcHostThread, which the block
 * entry sets to each thread before running it (its tid; the rest is the block's), or of the
 * block's ZcHostBlock: the same wherever the thread makes it. */
static bool zc_reads_unchanging(const ZcLiveSet *set, LLVMValueRef value)
{
	if (!LLVMIsALoadInst(value) || LLVMGetVolatile(value))
		return false;
	LLVMValueRef base = zc_pointer_base(LLVMGetOperand(value, 0));
	return base == set->params || base == set->thread || zc_loads_block(set, base);
}

/* The address of a thread-local variable: the same on the block's one OS thread. */
static bool zc_is_thread_local_address(LLVMValueRef value)
{
	if (!LLVMIsAIntrinsicInst(value))
		return false;
	size_t length;
	const char *name = LLVMGetValueName2(LLVMGetCalledValue(value), &length);
	return strncmp(name, "llvm.threadlocal.address.", 25) == 0;
}

/* How deep the computation of `value` is, computed again from constants, parameters and
 * values kept in the frame; above ZC_ROUNDS_MAX_RECOMPUTE_DEPTH when it cannot be. */
static unsigned zc_recompute_depth(const ZcLiveSet *set, LLVMValueRef value)
{
	if (!LLVMIsABinaryOperator(value) && !LLVMIsACastInst(value) && !LLVMIsAGetElementPtrInst(value) &&
	    !LLVMIsACmpInst(value) && !LLVMIsASelectInst(value) && !zc_reads_unchanging(set, value) &&
	    !zc_is_thread_local_address(value))
		return ZC_ROUNDS_MAX_RECOMPUTE_DEPTH + 1;
	unsigned depth = 1;
	for (int k = 0; k < LLVMGetNumOperands(value) && depth <= ZC_ROUNDS_MAX_RECOMPUTE_DEPTH; k++) {
		LLVMValueRef operand = LLVMGetOperand(value, k);
		if (!LLVMIsAInstruction(operand)) {
			if (!LLVMIsAConstant(operand) && !LLVMIsAArgument(operand))
				return ZC_ROUNDS_MAX_RECOMPUTE_DEPTH + 1;
			continue;
		}
		unsigned below = zc_recompute_depth(set, operand);
		if (below <= ZC_ROUNDS_MAX_RECOMPUTE_DEPTH && below + 1 > depth)
			depth = below + 1;
	}
	return depth;
}

/* Adds `value` and, when it is computed again, the values its computation needs. */
static int zc_need(ZcLiveSet *set, LLVMValueRef value)
{
	if (zc_find(set, value))
		return 0;
	if (zc_recompute_depth(set, value) > ZC_ROUNDS_MAX_RECOMPUTE_DEPTH)
		return zc_add_live(set, value, ZC_IN_FRAME);
	if (zc_add_live(set, value, ZC_RECOMPUTED) < 0)
		return -1;
	for (int k = 0; k < LLVMGetNumOperands(value); k++)
		if (LLVMIsAInstruction(LLVMGetOperand(value, k)) && zc_need(set, LLVMGetOperand(value, k)) < 0)
			return -1;
	return 0;
}

/* Notes the operands of the values computed again, before any use is rewritten. */
static int zc_note_operands(ZcLiveSet *set)
{
	for (size_t i = 0; i < set->count; i++) {
		ZcLive *item = &set->items[i];
		if (item->keep != ZC_RECOMPUTED)
			continue;
		int n = LLVMGetNumOperands(item->value);
		if (!(item->operands = calloc(n > 0 ? n : 1, sizeof *item->operands)))
			return -1;
		for (int k = 0; k < n; k++)
			item->operands[k] = LLVMGetOperand(item->value, k);
	}
	return 0;
}

static void zc_free_live(ZcLiveSet *set)
{
	for (size_t i = 0; i < set->count; i++)
		free(set->items[i].operands);
	free(set->items);
	free(set->table);
}

static int zc_compare_live(const void *a, const void *b)
{
	const ZcLive *x = a, *y = b;
	if (x->keep != y->keep)
		return x->keep < y->keep ? -1 : 1;
	return x->size > y->size ? -1 : x->size < y->size;
}

/* Two values kept in the frame may share a slot where neither is live where the other is
 * defined (its store would overwrite the other while it is still to be loaded). */
static bool zc_interfere(ZcCfg *g, const ZcLiveSet *set, LLVMValueRef a, LLVMValueRef b)
{
	return zc_live_at(g, set, a, b) || zc_live_at(g, set, b, a);
}

/* The values live across stops and what they need; those kept in the frame each with a
 * power-of-two size, largest first, each in the first slot of its size that holds no value
 * it interferes with or in a new one, so that every array in the frame is aligned to its
 * element. -1 when they do not fit. */
static int zc_plan_frame(LLVMValueRef entry, const ZcStops *stops, LLVMTargetDataRef layout, ZcLiveSet *set,
                         uint32_t *frame_size)
{
	ZcCfg g;
	*set = (ZcLiveSet){.params = LLVMGetParam(entry, 0), .thread = LLVMGetParam(entry, 1)};
	int status = zc_build_cfg(&g, entry, stops);
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(entry); bb && status == 0; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && status == 0; i = LLVMGetNextInstruction(i))
			if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind && LLVMGetFirstUse(i) && zc_live_at(&g, NULL, i, NULL))
				status = zc_need(set, i);
	size_t kept = 0;
	for (size_t i = 0; i < set->count && status == 0; i++) {
		ZcLive *item = &set->items[i];
		if (item->keep != ZC_IN_FRAME)
			continue;
		if (LLVMGetTypeKind(LLVMTypeOf(item->value)) == LLVMTokenTypeKind || ++kept > ZC_ROUNDS_MAX_KEPT) {
			status = -1;
			break;
		}
		item->size = 1;
		while (item->size < LLVMABISizeOfType(layout, LLVMTypeOf(item->value)))
			item->size <<= 1;
	}
	if (status == 0) {
		if (set->count)
			qsort(set->items, set->count, sizeof *set->items, zc_compare_live);
		set->table_size = 0;
		free(set->table);
		set->table = NULL;
		status = zc_grow_table(set);
	}
	uint32_t total = 0;
	for (size_t i = 0; i < set->count && status == 0 && set->items[i].keep == ZC_IN_FRAME; i++) {
		ZcLive *item = &set->items[i];
		bool placed = false;
		for (size_t j = 0; j < i && !placed; j++) {
			if (set->items[j].size != item->size)
				continue;
			bool free_slot = true;
			for (size_t k = 0; k < i && free_slot; k++)
				if (set->items[k].offset == set->items[j].offset && set->items[k].size == item->size)
					free_slot = !zc_interfere(&g, set, set->items[k].value, item->value);
			if (free_slot) {
				item->offset = set->items[j].offset;
				placed = true;
			}
		}
		if (!placed) {
			item->offset = total;
			total += item->size;
		}
		if (total > ZC_ROUNDS_MAX_FRAME)
			status = -1;
	}
	zc_free_cfg(&g);
	if (status < 0) {
		zc_free_live(set);
		return -1;
	}
	*frame_size = total;
	return 0;
}

static LLVMValueRef zc_slot_address(LLVMBuilderRef b, const ZcLive *item, LLVMValueRef linear_id)
{
	return LLVMBuildInBoundsGEP2(b, LLVMTypeOf(item->value), item->base, &linear_id, 1, "");
}

/* The value at the builder's position: loaded from its slot, computed again, or itself. */
static LLVMValueRef zc_materialize(LLVMBuilderRef b, const ZcLiveSet *set, LLVMValueRef value, LLVMValueRef linear_id)
{
	const ZcLive *item = zc_find(set, value);
	if (!item)
		return value;
	if (item->keep == ZC_IN_FRAME) {
		LLVMValueRef load = LLVMBuildLoad2(b, LLVMTypeOf(value), zc_slot_address(b, item, linear_id), "");
		LLVMSetAlignment(load, item->size < 16 ? item->size : 16);
		return load;
	}
	int n = LLVMGetNumOperands(value);
	LLVMValueRef operands[n > 0 ? n : 1];
	for (int k = 0; k < n; k++)
		operands[k] = zc_materialize(b, set, item->operands[k], linear_id);
	LLVMValueRef copy = LLVMInstructionClone(value);
	LLVMInsertIntoBuilder(b, copy);
	for (int k = 0; k < n; k++)
		LLVMSetOperand(copy, k, operands[k]);
	return copy;
}

/* Each use of the value takes it from zc_materialize: in front of the user, or for a phi
 * at the end of the incoming block (once a block). A value kept in the frame is stored to
 * its slot where it is defined. */
static int zc_rewrite_uses(LLVMBuilderRef b, const ZcLiveSet *set, const ZcLive *item, LLVMValueRef linear_id)
{
	LLVMValueRef value = item->value;
	size_t nusers = 0;
	for (LLVMUseRef u = LLVMGetFirstUse(value); u; u = LLVMGetNextUse(u))
		nusers++;
	LLVMValueRef *users = calloc(nusers ? nusers : 1, sizeof *users);
	if (!users)
		return -1;
	nusers = 0;
	for (LLVMUseRef u = LLVMGetFirstUse(value); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		if (!nusers || users[nusers - 1] != user)
			users[nusers++] = user;
	}
	for (size_t n = 0; n < nusers; n++) {
		LLVMValueRef user = users[n];
		if (LLVMIsAPHINode(user)) {
			unsigned incoming = LLVMCountIncoming(user);
			for (unsigned k = 0; k < incoming; k++) {
				if (LLVMGetIncomingValue(user, k) != value)
					continue;
				LLVMBasicBlockRef from = LLVMGetIncomingBlock(user, k);
				LLVMValueRef there = NULL;
				for (unsigned j = 0; j < k && !there; j++)
					if (LLVMGetIncomingBlock(user, j) == from && LLVMGetIncomingValue(user, j) != value)
						there = LLVMGetIncomingValue(user, j);
				if (!there) {
					LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(from));
					there = zc_materialize(b, set, value, linear_id);
				}
				LLVMSetOperand(user, k, there);
			}
			continue;
		}
		LLVMPositionBuilderBefore(b, user);
		LLVMValueRef here = zc_materialize(b, set, value, linear_id);
		for (int k = 0; k < LLVMGetNumOperands(user); k++)
			if (LLVMGetOperand(user, k) == value)
				LLVMSetOperand(user, k, here);
	}
	free(users);
	if (item->keep != ZC_IN_FRAME)
		return 0;
	LLVMValueRef after = LLVMIsAPHINode(value) ? LLVMGetFirstInstruction(LLVMGetInstructionParent(value))
	                                           : LLVMGetNextInstruction(value);
	while (LLVMIsAPHINode(after))
		after = LLVMGetNextInstruction(after);
	LLVMPositionBuilderBefore(b, after);
	LLVMValueRef store = LLVMBuildStore(b, value, zc_slot_address(b, item, linear_id));
	LLVMSetAlignment(store, item->size < 16 ? item->size : 16);
	return 0;
}

/* Moves the instructions of `block` before `at` into a new block in front of it, which its
 * predecessors now branch to; returns the new block. */
static LLVMBasicBlockRef zc_split_before(LLVMBuilderRef b, LLVMBasicBlockRef block, LLVMValueRef at)
{
	LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(at));
	LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(context, block, "");
	LLVMValueRef block_value = LLVMBasicBlockAsValue(block);
	LLVMUseRef u = LLVMGetFirstUse(block_value);
	while (u) {
		LLVMValueRef term = LLVMGetUser(u);
		u = LLVMGetNextUse(u);
		for (unsigned s = 0; s < LLVMGetNumSuccessors(term); s++)
			if (LLVMGetSuccessor(term, s) == block)
				LLVMSetSuccessor(term, s, head);
	}
	LLVMPositionBuilderAtEnd(b, head);
	for (LLVMValueRef i; (i = LLVMGetFirstInstruction(block)) != at;) {
		LLVMInstructionRemoveFromParent(i);
		LLVMInsertIntoBuilder(b, i);
	}
	return head;
}

/* The entry's string attributes (denormal modes, the DLL's no-stack-arg-probe, ...) for a
 * function made of it. */
static int zc_copy_string_attributes(LLVMValueRef from, LLVMValueRef to)
{
	unsigned count = LLVMGetAttributeCountAtIndex(from, LLVMAttributeFunctionIndex);
	LLVMAttributeRef *attributes = calloc(count ? count : 1, sizeof *attributes);
	if (!attributes)
		return -1;
	LLVMGetAttributesAtIndex(from, LLVMAttributeFunctionIndex, attributes);
	for (unsigned i = 0; i < count; i++)
		if (LLVMIsStringAttribute(attributes[i]))
			LLVMAddAttributeAtIndex(to, LLVMAttributeFunctionIndex, attributes[i]);
	free(attributes);
	return 0;
}

static char *zc_suffixed(LLVMValueRef function, const char *suffix)
{
	size_t length;
	const char *name = LLVMGetValueName2(function, &length);
	char *out = malloc(length + strlen(suffix) + 1);
	if (out) {
		memcpy(out, name, length);
		strcpy(out + length, suffix);
	}
	return out;
}

/* A field of the thread's ZcRoundLane. */
static LLVMValueRef zc_lane_field(LLVMBuilderRef b, LLVMValueRef lanes, LLVMValueRef linear_id, size_t offset)
{
	LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(lanes));
	LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
	LLVMValueRef at = LLVMBuildAdd(b, LLVMBuildMul(b, LLVMBuildZExt(b, linear_id, i64, ""),
	                                               LLVMConstInt(i64, sizeof(ZcRoundLane), 0), ""),
	                               LLVMConstInt(i64, offset, 0), "");
	return LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context), lanes, &at, 1, "");
}

/* At the end of the code before warp operation `call`: its operands into the thread's lane,
 * the mask with the thread's own lane (the driver's rule for fibers too). */
static void zc_leave_warp_operands(LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef lanes, LLVMValueRef linear_id)
{
	LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(lanes));
	LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
	LLVMValueRef own = LLVMBuildShl(b, LLVMConstInt(i32, 1, 0),
	                                LLVMBuildAnd(b, linear_id, LLVMConstInt(i32, 31, 0), ""), "");
	LLVMValueRef operands[] = {
		LLVMGetOperand(call, 0), LLVMBuildOr(b, LLVMGetOperand(call, 1), own, ""),
		LLVMGetOperand(call, 2), LLVMGetOperand(call, 3), LLVMGetOperand(call, 4),
	};
	static const size_t offsets[] = {
		offsetof(ZcRoundLane, code), offsetof(ZcRoundLane, mask), offsetof(ZcRoundLane, value),
		offsetof(ZcRoundLane, b), offsetof(ZcRoundLane, c),
	};
	for (int k = 0; k < 5; k++)
		LLVMBuildStore(b, operands[k], zc_lane_field(b, lanes, linear_id, offsets[k]));
}

/* NAME.zc_round: the entry's code, cut at its stops, its values across them in the frame.
 * Takes the entry's blocks; the entry is left empty. Bit k of *points is set where stop k
 * is a lockstep point, of *warps where it is a warp operation. */
static LLVMValueRef zc_make_round_function(LLVMModuleRef module, LLVMValueRef entry, const ZcStops *stops,
                                          ZcLiveSet *live, uint32_t nstops, uint64_t *points, uint64_t *warps)
{
	LLVMContextRef context = LLVMGetModuleContext(module);
	LLVMTypeRef i8 = LLVMInt8TypeInContext(context), i32 = LLVMInt32TypeInContext(context);
	LLVMTypeRef i64 = LLVMInt64TypeInContext(context), ptr = LLVMPointerTypeInContext(context, 0);
	LLVMTypeRef params[] = {ptr, ptr, ptr, i32, i32, i32, ptr};
	char *name = zc_suffixed(entry, ".zc_round");
	if (!name)
		return NULL;
	LLVMValueRef round = LLVMAddFunction(module, name, LLVMFunctionType(i32, params, 7, 0));
	free(name);
	LLVMSetLinkage(round, LLVMInternalLinkage);
	LLVMAddAttributeAtIndex(
		round, LLVMAttributeFunctionIndex,
		LLVMCreateEnumAttribute(context, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));
	LLVMValueRef frame = LLVMGetParam(round, 2), nthreads = LLVMGetParam(round, 3);
	LLVMValueRef linear_id = LLVMGetParam(round, 4), state = LLVMGetParam(round, 5);
	LLVMValueRef lanes = LLVMGetParam(round, 6);

	LLVMBasicBlockRef dispatch = LLVMAppendBasicBlockInContext(context, round, "dispatch");
	LLVMBasicBlockRef start = LLVMGetFirstBasicBlock(entry);
	for (LLVMBasicBlockRef bb; (bb = LLVMGetFirstBasicBlock(entry));) {
		LLVMRemoveBasicBlockFromParent(bb);
		LLVMAppendExistingBasicBlock(round, bb);
	}
	for (unsigned p = 0; p < 2; p++)
		LLVMReplaceAllUsesWith(LLVMGetParam(entry, p), LLVMGetParam(round, p));

	LLVMBuilderRef b = LLVMCreateBuilderInContext(context);
	LLVMPositionBuilderAtEnd(b, dispatch);
	LLVMValueRef wide_threads = LLVMBuildZExt(b, nthreads, i64, "");
	for (size_t s = 0; s < live->count; s++)
		if (live->items[s].keep == ZC_IN_FRAME) {
			LLVMValueRef at = LLVMBuildMul(b, wide_threads, LLVMConstInt(i64, live->items[s].offset, 0), "");
			live->items[s].base = LLVMBuildInBoundsGEP2(b, i8, frame, &at, 1, "");
		}
	if (zc_note_operands(live) < 0) {
		LLVMDisposeBuilder(b);
		return NULL;
	}
	for (size_t s = 0; s < live->count; s++)
		if (zc_rewrite_uses(b, live, &live->items[s], linear_id) < 0) {
			LLVMDisposeBuilder(b);
			return NULL;
		}

	/* The code after stop k starts block resume[k]; a block that a later stop cuts leaves
	 * its start in the new head, which takes its place in resume[]. */
	LLVMBasicBlockRef resume[ZC_ROUNDS_MAX_STOPS + 1] = {start};
	LLVMValueRef exit_state = LLVMConstInt(i32, nstops + 1, 0);
	uint32_t k = 0;
	*points = *warps = 0;
	for (LLVMBasicBlockRef bb = start; bb; bb = LLVMGetNextBasicBlock(bb)) {
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
			LLVMValueRef next = LLVMGetNextInstruction(i);
			if (zc_is_stop(stops, i)) {
				LLVMBasicBlockRef head = zc_split_before(b, bb, i);
				for (uint32_t j = 0; j <= k; j++)
					if (resume[j] == bb)
						resume[j] = head;
				bool warp = LLVMGetCalledValue(i) == stops->warp;
				if (LLVMGetCalledValue(i) == stops->lockstep)
					*points |= 1ull << (k + 1);
				LLVMPositionBuilderAtEnd(b, head);
				if (warp) {
					*warps |= 1ull << (k + 1);
					zc_leave_warp_operands(b, i, lanes, linear_id);
				}
				LLVMBuildRet(b, LLVMConstInt(i32, ++k, 0));
				if (warp) {
					LLVMPositionBuilderBefore(b, i);
					LLVMValueRef result = LLVMBuildLoad2(
						b, i64, zc_lane_field(b, lanes, linear_id, offsetof(ZcRoundLane, result)), "");
					LLVMReplaceAllUsesWith(i, result);
				}
				LLVMInstructionEraseFromParent(i);
				resume[k] = bb;
			} else if (LLVMIsAReturnInst(i)) {
				LLVMInstructionEraseFromParent(i);
				LLVMPositionBuilderAtEnd(b, bb);
				LLVMBuildRet(b, exit_state);
			}
			i = next;
		}
	}
	LLVMBasicBlockRef nowhere = LLVMAppendBasicBlockInContext(context, round, "nowhere");
	LLVMPositionBuilderAtEnd(b, nowhere);
	LLVMBuildUnreachable(b);
	LLVMPositionBuilderAtEnd(b, dispatch);
	LLVMValueRef to = LLVMBuildSwitch(b, state, nowhere, nstops + 1);
	for (uint32_t j = 0; j <= nstops; j++)
		LLVMAddCase(to, LLVMConstInt(i32, j, 0), resume[j]);
	LLVMDisposeBuilder(b);
	return round;
}

/* The block entry's loops over the block's threads, z outermost; the builder is left in
 * the innermost body, where *linear_id is the thread's linear id. */
static void zc_open_thread_loops(LLVMBuilderRef b, LLVMValueRef block_entry, LLVMValueRef thread,
                                 LLVMValueRef ntid[3], ZcLoop nest[3], LLVMValueRef *linear_id)
{
	LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(block_entry));
	for (int dim = 2; dim >= 0; dim--)
		nest[dim] = zc_open_loop(b, context, block_entry, thread, ntid[dim], dim);
	LLVMValueRef row = LLVMBuildAdd(b, nest[1].index, LLVMBuildMul(b, ntid[1], nest[2].index, ""), "");
	*linear_id = LLVMBuildAdd(b, nest[0].index, LLVMBuildMul(b, ntid[0], row, ""), "");
}

static void zc_close_thread_loops(LLVMBuilderRef b, LLVMValueRef block_entry, ZcLoop nest[3])
{
	LLVMContextRef context = LLVMGetModuleContext(LLVMGetGlobalParent(block_entry));
	for (int dim = 0; dim < 3; dim++)
		zc_close_loop(b, context, block_entry, &nest[dim]);
}

/* The driver's round_warps for the thread's block: the stops with lanes now ready; those
 * with lanes still waiting in *blocked. */
static LLVMValueRef zc_call_round_warps(LLVMBuilderRef b, LLVMValueRef thread, LLVMValueRef lanes,
                                        LLVMValueRef states, uint64_t warps, uint32_t exit_state,
                                        LLVMValueRef others_run, LLVMValueRef blocked)
{
	LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(thread));
	LLVMTypeRef i32 = LLVMInt32TypeInContext(context), i64 = LLVMInt64TypeInContext(context);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
	LLVMValueRef block = LLVMBuildLoad2(b, ptr, zc_thread_field(b, context, thread, offsetof(ZcHostThread, block)), "");
	LLVMValueRef ops = LLVMBuildLoad2(b, ptr, zc_thread_field(b, context, block, offsetof(ZcHostBlock, ops)), "");
	LLVMValueRef round_warps =
		LLVMBuildLoad2(b, ptr, zc_thread_field(b, context, ops, offsetof(ZcHostOps, round_warps)), "");
	LLVMTypeRef params[] = {ptr, ptr, ptr, i64, i32, i32, ptr};
	LLVMValueRef args[] = {
		thread, lanes, states, LLVMConstInt(i64, warps, 0), LLVMConstInt(i32, exit_state, 0),
		LLVMBuildZExt(b, others_run, i32, ""), blocked,
	};
	return LLVMBuildCall2(b, LLVMFunctionType(i64, params, 7, 0), round_warps, args, 7, "");
}

/* NAME.zc_block: the rounds. `waiting` has a bit for each stop some thread may wait at; a
 * round runs the threads at lockstep points and those whose warp operation is complete
 * (ZC_ROUND_READY in their state) if there are any, else every thread waiting at the
 * barrier. Each thread's stop is in `states`; a round reads them there and writes where
 * each thread goes next into a copy, which the next round reads, so that a thread that
 * reaches stop k in a round does not run on in the same round's loop for k. */
static LLVMValueRef zc_make_round_entry(LLVMModuleRef module, LLVMValueRef entry, LLVMValueRef round,
                                       uint32_t frame_size, uint32_t nstops, uint64_t points, uint64_t warps)
{
	LLVMContextRef context = LLVMGetModuleContext(module);
	LLVMTypeRef i8 = LLVMInt8TypeInContext(context), i32 = LLVMInt32TypeInContext(context);
	LLVMTypeRef i64 = LLVMInt64TypeInContext(context), ptr = LLVMPointerTypeInContext(context, 0);
	char *name = zc_suffixed(entry, ZC_HOST_BLOCK_ENTRY_SUFFIX);
	if (!name)
		return NULL;
	LLVMValueRef block_entry = LLVMAddFunction(module, name, LLVMGlobalGetValueType(entry));
	free(name);
	zc_copy_param_buffer_facts(entry, block_entry);
	LLVMValueRef params = LLVMGetParam(block_entry, 0), thread = LLVMGetParam(block_entry, 1);

	LLVMBuilderRef b = LLVMCreateBuilderInContext(context);
	LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(context, block_entry, "entry");
	LLVMPositionBuilderAtEnd(b, start);
	LLVMValueRef ntid[3];
	for (int dim = 0; dim < 3; dim++)
		ntid[dim] = LLVMBuildLoad2(b, i32,
		                           zc_thread_field(b, context, thread, offsetof(ZcHostThread, ntid) + 4 * dim), "");
	LLVMValueRef nthreads = LLVMBuildMul(b, LLVMBuildMul(b, ntid[0], ntid[1], ""), ntid[2], "");
	LLVMValueRef wide_threads = LLVMBuildZExt(b, nthreads, i64, "");
	LLVMValueRef frame = LLVMConstPointerNull(ptr);
	if (frame_size) {
		frame = LLVMBuildArrayAlloca(b, i8, LLVMBuildMul(b, wide_threads, LLVMConstInt(i64, frame_size, 0), ""), "");
		LLVMSetAlignment(frame, 16);
	}
	LLVMValueRef lanes = LLVMConstPointerNull(ptr);
	if (warps) {
		lanes = LLVMBuildArrayAlloca(
			b, i8, LLVMBuildMul(b, wide_threads, LLVMConstInt(i64, sizeof(ZcRoundLane), 0), ""), "");
		LLVMSetAlignment(lanes, 8);
	}
	LLVMValueRef blocked = LLVMBuildAlloca(b, i64, "");
	LLVMValueRef state_bytes = LLVMBuildMul(b, wide_threads, LLVMConstInt(i64, 4, 0), "");
	LLVMValueRef first_states = LLVMBuildArrayAlloca(b, i32, nthreads, "");
	LLVMValueRef second_states = LLVMBuildArrayAlloca(b, i32, nthreads, "");
	LLVMBuildMemSet(b, first_states, LLVMConstInt(i8, 0, 0), state_bytes, 4);
	LLVMValueRef reached_mask = LLVMBuildAlloca(b, i64, "");
	LLVMBasicBlockRef round_head = LLVMAppendBasicBlockInContext(context, block_entry, "round");
	LLVMBuildBr(b, round_head);

	LLVMPositionBuilderAtEnd(b, round_head);
	LLVMValueRef waiting = LLVMBuildPhi(b, i64, "");
	LLVMValueRef states = LLVMBuildPhi(b, ptr, ""), next_states = LLVMBuildPhi(b, ptr, "");
	LLVMValueRef one64 = LLVMConstInt(i64, 1, 0), zero64 = LLVMConstInt(i64, 0, 0);
	LLVMAddIncoming(waiting, &one64, &start, 1);
	LLVMAddIncoming(states, &first_states, &start, 1);
	LLVMAddIncoming(next_states, &second_states, &start, 1);
	LLVMValueRef at_points = LLVMBuildAnd(b, waiting, LLVMConstInt(i64, points, 0), "");
	LLVMValueRef warp_bits = LLVMConstInt(i64, warps, 0);
	LLVMBuildStore(b, zero64, blocked);
	LLVMValueRef ready = zero64;
	if (warps) {
		LLVMBasicBlockRef asks = LLVMAppendBasicBlockInContext(context, block_entry, "");
		LLVMBasicBlockRef asked = LLVMAppendBasicBlockInContext(context, block_entry, "");
		LLVMBasicBlockRef from = LLVMGetInsertBlock(b);
		LLVMValueRef in_warps = LLVMBuildAnd(b, waiting, warp_bits, "");
		LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, in_warps, zero64, ""), asks, asked);
		LLVMPositionBuilderAtEnd(b, asks);
		LLVMValueRef others_run = LLVMBuildICmp(b, LLVMIntNE, at_points, zero64, "");
		LLVMValueRef completed = zc_call_round_warps(b, thread, lanes, states, warps, nstops + 1, others_run, blocked);
		LLVMBuildBr(b, asked);
		LLVMPositionBuilderAtEnd(b, asked);
		ready = LLVMBuildPhi(b, i64, "");
		LLVMAddIncoming(ready, &zero64, &from, 1);
		LLVMAddIncoming(ready, &completed, &asks, 1);
	}
	LLVMBuildMemCpy(b, next_states, 4, states, 4, state_bytes);
	LLVMValueRef runnable = LLVMBuildOr(b, at_points, ready, "");
	LLVMValueRef at_barrier = LLVMBuildAnd(b, waiting, LLVMBuildNot(b, warp_bits, ""), "");
	LLVMValueRef runs = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, runnable, zero64, ""), runnable, at_barrier, "");
	LLVMBuildStore(b, zero64, reached_mask);
	LLVMTypeRef round_type = LLVMGlobalGetValueType(round);
	for (uint32_t k = 0; k <= nstops; k++) {
		LLVMBasicBlockRef loops = LLVMAppendBasicBlockInContext(context, block_entry, "");
		LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(context, block_entry, "");
		LLVMValueRef bit = LLVMBuildAnd(b, LLVMBuildLShr(b, runs, LLVMConstInt(i64, k, 0), ""), one64, "");
		LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, bit, zero64, ""), loops, after);
		LLVMPositionBuilderAtEnd(b, loops);
		ZcLoop nest[3];
		LLVMValueRef linear_id;
		zc_open_thread_loops(b, block_entry, thread, ntid, nest, &linear_id);
		LLVMValueRef state = LLVMBuildLoad2(b, i32, LLVMBuildInBoundsGEP2(b, i32, states, &linear_id, 1, ""), "");
		uint32_t runs_from = k | (warps >> k & 1 ? ZC_ROUND_READY : 0);
		LLVMValueRef waits = LLVMBuildICmp(b, LLVMIntEQ, state, LLVMConstInt(i32, runs_from, 0), "");
		LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(context, block_entry, "");
		LLVMBasicBlockRef skip = LLVMAppendBasicBlockInContext(context, block_entry, "");
		LLVMBuildCondBr(b, waits, run, skip);
		LLVMPositionBuilderAtEnd(b, run);
		LLVMValueRef args[] = {params, thread, frame, nthreads, linear_id, LLVMConstInt(i32, k, 0), lanes};
		LLVMValueRef reached = LLVMBuildCall2(b, round_type, round, args, 7, "");
		LLVMBuildStore(b, reached, LLVMBuildInBoundsGEP2(b, i32, next_states, &linear_id, 1, ""));
		LLVMValueRef bit_reached = LLVMBuildShl(b, one64, LLVMBuildZExt(b, reached, i64, ""), "");
		LLVMBuildStore(b, LLVMBuildOr(b, LLVMBuildLoad2(b, i64, reached_mask, ""), bit_reached, ""), reached_mask);
		LLVMBuildBr(b, skip);
		LLVMPositionBuilderAtEnd(b, skip);
		zc_close_thread_loops(b, block_entry, nest);
		LLVMBuildBr(b, after);
		LLVMPositionBuilderAtEnd(b, after);
	}
	LLVMValueRef exit_bit = LLVMConstInt(i64, 1ull << (nstops + 1), 0);
	LLVMValueRef reached_stops = LLVMBuildAnd(b, LLVMBuildLoad2(b, i64, reached_mask, ""), LLVMBuildNot(b, exit_bit, ""), "");
	LLVMValueRef left = LLVMBuildOr(b, LLVMBuildAnd(b, at_barrier, LLVMBuildNot(b, runs, ""), ""),
	                                LLVMBuildLoad2(b, i64, blocked, ""), "");
	LLVMValueRef next_waiting = LLVMBuildOr(b, reached_stops, left, "");
	LLVMBasicBlockRef last = LLVMGetInsertBlock(b);
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(context, block_entry, "done");
	LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, next_waiting, zero64, ""), round_head, done);
	LLVMAddIncoming(waiting, &next_waiting, &last, 1);
	LLVMAddIncoming(states, &next_states, &last, 1);
	LLVMAddIncoming(next_states, &states, &last, 1);
	LLVMPositionBuilderAtEnd(b, done);
	LLVMBuildRetVoid(b);
	LLVMDisposeBuilder(b);
	return block_entry;
}

/* The stops' builtins in llvm.compiler.used: interprocedural optimisation cannot see all
 * of their calls, so their arguments stay as the lowering wrote them (without it, the
 * constant barrier and count of a module's every bar.sync 0 become the body's, and so would
 * a warp operation's code). */
void zc_keep_stop_arguments(LLVMModuleRef module)
{
	static const char *const names[] = {"__zc_bar_sync", "__zc_warp"};
	enum { NAMES = sizeof names / sizeof names[0] };
	LLVMContextRef context = LLVMGetModuleContext(module);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
	LLVMValueRef used = LLVMGetNamedGlobal(module, "llvm.compiler.used");
	unsigned count = used ? LLVMGetArrayLength2(LLVMGlobalGetValueType(used)) : 0, total = count;
	LLVMValueRef *elements = calloc(count + NAMES, sizeof *elements);
	if (!elements)
		return;
	for (unsigned i = 0; i < count; i++)
		elements[i] = LLVMGetOperand(LLVMGetInitializer(used), i);
	for (unsigned n = 0; n < NAMES; n++) {
		LLVMValueRef builtin = LLVMGetNamedFunction(module, names[n]);
		if (builtin && !LLVMIsDeclaration(builtin))
			elements[total++] = builtin;
	}
	if (total == count) {
		free(elements);
		return;
	}
	if (used)
		LLVMDeleteGlobal(used);
	LLVMValueRef array = LLVMConstArray2(ptr, elements, total);
	free(elements);
	used = LLVMAddGlobal(module, LLVMTypeOf(array), "llvm.compiler.used");
	LLVMSetInitializer(used, array);
	LLVMSetLinkage(used, LLVMAppendingLinkage);
	LLVMSetSection(used, "llvm.metadata");
}

int zc_host_rounds(LLVMModuleRef module, bool *changed, char **error)
{
	*changed = false;
	ZcStops stops = {LLVMGetNamedFunction(module, "__zc_bar_sync"), LLVMGetNamedFunction(module, "__zc_lockstep_point"),
	                 LLVMGetNamedFunction(module, "__zc_warp")};
	if (!stops.bar_sync && !stops.lockstep && !stops.warp)
		return 0;
	LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
	LLVMValueRef next;
	for (LLVMValueRef entry = LLVMGetFirstFunction(module); entry; entry = next) {
		next = LLVMGetNextFunction(entry);
		if (!LLVMGetStringAttributeAtIndex(entry, LLVMAttributeFunctionIndex, ZC_THREAD_ENTRY_ATTRIBUTE,
		                                   strlen(ZC_THREAD_ENTRY_ATTRIBUTE)))
			continue;
		LLVMRemoveStringAttributeAtIndex(entry, LLVMAttributeFunctionIndex, ZC_THREAD_ENTRY_ATTRIBUTE,
		                                 strlen(ZC_THREAD_ENTRY_ATTRIBUTE));
		uint32_t nstops, frame_size;
		uint64_t points, warps;
		ZcLiveSet live;
		if (!zc_rounds_fit(entry, &stops, &nstops) || zc_plan_frame(entry, &stops, layout, &live, &frame_size) < 0)
			continue;
		LLVMValueRef round = zc_make_round_function(module, entry, &stops, &live, nstops, &points, &warps);
		zc_free_live(&live);
		LLVMValueRef block_entry =
			round ? zc_make_round_entry(module, entry, round, frame_size, nstops, points, warps) : NULL;
		if (!block_entry || zc_copy_string_attributes(entry, round) < 0 ||
		    zc_copy_string_attributes(entry, block_entry) < 0)
			return backend_fail(error, "out of memory");
		LLVMDeleteFunction(entry);
		*changed = true;
	}
	return 0;
}
