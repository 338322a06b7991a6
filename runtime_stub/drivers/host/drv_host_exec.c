/* The host driver's kernel execution (abi/host_abi.h). A grid's blocks are shared out
 * among the thread that runs the stream and a pool of worker threads; each OS thread runs
 * one block at a time, its CUDA threads as fibers on that one thread (a kernel with a block
 * entry, which needs no other fiber, runs the whole block on one). A fiber runs until it
 * reaches a block operation that needs others (a barrier, a warp shuffle, ...); the
 * operation records it and switches back to the block's scheduler, which resumes fibers
 * whose operation completed. The last participant to arrive completes the operation for
 * all and goes on without a switch. A block whose live fibers all wait with none to release
 * them fails the launch instead of hanging.
 *
 * activemask is a convergence point, so that a divergent branch sees only its own lanes
 * (CUDA's coalesced groups rely on it): a lane waits there until no lane of its warp runs
 * or is runnable; the lanes waiting at the same instruction then go on with their mask.
 * When the warp waits at several, the one with the lowest address goes first: the
 * "minimum PC" rule of SIMT emulators, which runs a branch's body before its join point,
 * where the lanes that skipped it wait for the others. */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "drv_host.h"

#if defined(__SANITIZE_ADDRESS__)
#define ZC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZC_ASAN 1
#endif
#endif

#ifdef ZC_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old);
#endif

enum {
	STACK_SIZE = 256 << 10,  /* a fiber's stack: its CUDA thread's local memory too */
	/* Where a fiber's stack starts within its mapping, STACK_SIZE + COLOUR_SPAN bytes:
	 * fibers stopped at the same point of a kernel would otherwise keep their frames at
	 * the same address modulo the cache's set stride, and a block's 256 threads taking
	 * turns would evict each other's from L1 and L2 at every switch. Each next fiber
	 * starts one page and one cache line lower. */
	COLOUR_SPAN = 64 << 10,
	COLOUR_STEP = 4096 + 64,
	STACK_MAPPED = STACK_SIZE + COLOUR_SPAN,
	GUARD_SIZE = 64 << 10,   /* below each stack, so an overflow faults there */
	BARRIERS = 16,           /* bar.sync ids 0..15 */
	WARP = 32,
	MAX_POOL = 64,
};

enum fiber_state { FIBER_READY, FIBER_RUNNING, FIBER_WAITING, FIBER_DONE };
enum wait_kind { WAIT_BARRIER = 1, WAIT_WARP, WAIT_ACTIVEMASK };
/* A warp operation as one lane calls it; lanes meet when kind, mode and mask agree. */
struct warp_op {
	enum ZcWarpKind kind;
	int mode;
	uint32_t mask;
	uint64_t value;
	uint32_t b, c;
};

struct fiber {
	void *sp;  /* where it stopped: zc_fiber_switch's saved registers */
	ZcHostThread thread;
	char *stack;  /* STACK_MAPPED bytes above a guard page; kept for the next block */
	enum fiber_state state;
	enum wait_kind waits;
	uint32_t barrier;
	struct warp_op op;
	const void *site;  /* the activemask it waits at */
	/* In nanosleep, spinning on a condition. `idle`: it checked the condition again with
	 * no fiber of the block stopped (runner.stops) since the check before; as long as none
	 * stops, it counts as waiting. */
	bool sleeping, idle;
	uint64_t stops_seen;
	uint32_t spin_points; /* strong loads and atomics since it last yielded */
	uint64_t result;
	void *asan_fake_stack;
};

/* One barrier id's arrivals so far: a barrier completes when `expected` threads arrived
 * (the block's live threads for count 0), reducing the predicates of bar.red. */
struct barrier {
	uint32_t arrived, count;
	uint32_t popc;
};

/* Per warp of a block. */
struct warp {
	uint32_t gone;     /* lanes that ended or do not exist */
	uint32_t in_ops;   /* lanes waiting in warp operations */
};

/* An OS thread's block runner: fibers, stacks and shared memory, reused block after block. */
struct runner {
	void *scheduler_sp;
	const void *scheduler_stack;
	size_t scheduler_stack_size;
	struct fiber *fibers;
	uint32_t capacity, nthreads, live;
	uint32_t *ready;  /* a ring of fiber indices */
	uint32_t ready_head, ready_count;
	struct barrier barriers[BARRIERS];
	struct warp *warps;
	uint32_t at_activemask;  /* fibers waiting at an activemask */
	uint64_t stops;       /* times a fiber stopped to wait or ended */
	struct fiber *current;
	CUresult error;
	struct fiber *overflowed;  /* the fiber that ran past its stack, set by zc_host_fault */
	struct fiber *faulted;     /* the fiber that accessed memory nothing maps, set so */
	const void *fault_address;
	ZcHostBlock block;
	char *shared;
	size_t shared_capacity;
	const struct zc_launch *launch;
	zc_host_entry *entry;      /* what the block's fibers run */
	void *fault_state;         /* zc_host_thread_faults' */
};

static const ZcHostOps ops;
static _Thread_local struct runner *this_runner;
static pthread_key_t runner_key;
static pthread_once_t runner_once = PTHREAD_ONCE_INIT;

/* fiber_switch.S (System V) and fiber_switch_win64.S: zc_fiber_switch pushes the
 * callee-saved state, stores the stack pointer in *save and pops the state resume points
 * to; zc_fiber_stack_init makes a stack whose first switch to it enters `entry`. */
void zc_fiber_switch(void **save, void *resume);
void *zc_fiber_stack_init(char *stack, size_t size, void (*entry)(void));

static void
free_runner(void *arg)
{
	struct runner *r = arg;

	zc_host_thread_faults_end(r->fault_state);
	for (uint32_t i = 0; i < r->capacity; i++)
		if (r->fibers[i].stack)
			zc_host_stack_unmap(r->fibers[i].stack, STACK_MAPPED, GUARD_SIZE);
	stub_free(r->fibers);
	stub_free(r->ready);
	stub_free(r->warps);
	stub_free(r->shared);
	stub_free(r);
}

/* ---- stack overflow ---------------------------------------------------- */

/* A CUDA thread that runs past its fiber's stack faults in the guard below it; one that
 * reads or writes memory nothing maps faults there. The handler ends that thread and fails
 * the launch, as CUDA_ERROR_LAUNCH_FAILED and CUDA_ERROR_ILLEGAL_ADDRESS do on a GPU; a
 * fault outside a CUDA thread goes back to whoever handled it before. */
void *
zc_host_fault(const void *address)
{
	struct runner *r = this_runner;
	struct fiber *f = r ? r->current : NULL;

	if (!f || f->state != FIBER_RUNNING)
		return NULL;
	bool overflow = (const char *)address >= f->stack - GUARD_SIZE && (const char *)address < f->stack;

	if (overflow)
		r->overflowed = f;
	else if (!r->faulted) {
		r->faulted = f;
		r->fault_address = address;
	}
	if (r->error == CUDA_SUCCESS)
		r->error = overflow ? CUDA_ERROR_LAUNCH_FAILED : CUDA_ERROR_ILLEGAL_ADDRESS;
	f->state = FIBER_DONE;
	return f->stack + STACK_MAPPED;
}

static void
make_runner_key(void)
{
	pthread_key_create(&runner_key, free_runner);
	zc_host_catch_faults();
}

/* Room for a block of n threads and shared bytes. */
static CUresult
prepare_runner(struct runner **out, uint32_t n, size_t shared)
{
	struct runner *r = this_runner;

	if (!r) {
		if (!(r = stub_alloc(sizeof *r)))
			return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "block runner");
		pthread_once(&runner_once, make_runner_key);
		pthread_setspecific(runner_key, r);
		r->fault_state = zc_host_thread_faults();
		this_runner = r;
	}
	if (n > r->capacity) {
		struct fiber *fibers = stub_alloc(n * sizeof *fibers);
		uint32_t *ready = stub_alloc(n * sizeof *ready);
		struct warp *warps = stub_alloc((n + WARP - 1) / WARP * sizeof *warps);
		if (!fibers || !ready || !warps) {
			stub_free(fibers);
			stub_free(ready);
			stub_free(warps);
			return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "%u fibers", n);
		}
		for (uint32_t i = 0; i < r->capacity; i++)
			fibers[i].stack = r->fibers[i].stack;
		stub_free(r->fibers);
		stub_free(r->ready);
		stub_free(r->warps);
		r->fibers = fibers;
		r->ready = ready;
		r->warps = warps;
		for (uint32_t i = r->capacity; i < n; i++) {
			if (!(fibers[i].stack = zc_host_stack_map(STACK_MAPPED, GUARD_SIZE)))
				return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "fiber stack");
			r->capacity = i + 1;
		}
	}
	if (shared > r->shared_capacity) {
		stub_free(r->shared);
		if (!(r->shared = stub_alloc(shared))) {
			r->shared_capacity = 0;
			return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "%zu bytes of shared memory", shared);
		}
		r->shared_capacity = shared;
	}
	*out = r;
	return CUDA_SUCCESS;
}

/* ---- switching ---------------------------------------------------------- */

static void
to_fiber(struct runner *r, struct fiber *f)
{
	void *fake = NULL;

	r->current = f;
	f->state = FIBER_RUNNING;
#ifdef ZC_ASAN
	__sanitizer_start_switch_fiber(&fake, f->stack, STACK_MAPPED);
#endif
	zc_fiber_switch(&r->scheduler_sp, f->sp);
#ifdef ZC_ASAN
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
	(void)fake;
}

/* Back to the scheduler; returns when the scheduler resumes this fiber. A fiber that has
 * ended never is, and gives its fake stack back. */
static void
to_scheduler(struct runner *r, struct fiber *f)
{
#ifdef ZC_ASAN
	__sanitizer_start_switch_fiber(f->state == FIBER_DONE ? NULL : &f->asan_fake_stack,
	                               r->scheduler_stack, r->scheduler_stack_size);
#endif
	zc_fiber_switch(&f->sp, r->scheduler_sp);
#ifdef ZC_ASAN
	__sanitizer_finish_switch_fiber(f->asan_fake_stack, NULL, NULL);
#endif
}

/* The fiber that faulted (zc_host_fault marked it done) leaves for good: from the signal
 * handler, through to_scheduler, which tells ASan that its stack is left behind. */
void
zc_host_abandon_fiber(void)
{
	struct runner *r = this_runner;

	to_scheduler(r, r->current);
	abort();
}

static void
make_ready(struct runner *r, struct fiber *f)
{
	if (f == r->current) {
		f->state = FIBER_RUNNING;
		return;
	}
	f->state = FIBER_READY;
	r->ready[(r->ready_head + r->ready_count++) % r->nthreads] = (uint32_t)(f - r->fibers);
}

/* Releases the lanes of warp w waiting at the lowest activemask site once none of the
 * warp's live lanes runs or is runnable: a lane that could still reach a site has then
 * done so. Those waiting elsewhere stay; their operation completes or fails on its own. */
static void
settle_activemask(struct runner *r, uint32_t w)
{
	struct fiber *base = &r->fibers[w * WARP];
	const void *site = NULL;
	uint32_t mask = 0;

	if (!r->at_activemask)
		return;
	for (uint32_t lane = 0; lane < WARP; lane++) {
		struct fiber *f = &base[lane];
		if (r->warps[w].gone >> lane & 1)
			continue;
		bool spins = f->sleeping && f->idle && f->stops_seen == r->stops;
		if (f->state != FIBER_WAITING && !spins)
			return;
		if (f->state == FIBER_WAITING && f->waits == WAIT_ACTIVEMASK &&
		    (!site || (uintptr_t)f->site < (uintptr_t)site))
			site = f->site;
	}
	if (!site)
		return;
	for (uint32_t lane = 0; lane < WARP; lane++)
		if (!(r->warps[w].gone >> lane & 1) && base[lane].state == FIBER_WAITING &&
		    base[lane].waits == WAIT_ACTIVEMASK && base[lane].site == site)
			mask |= 1u << lane;
	for (uint32_t lane = 0; lane < WARP; lane++) {
		if (mask >> lane & 1) {
			base[lane].result = mask;
			r->at_activemask--;
			make_ready(r, &base[lane]);
		}
	}
}

/* The running fiber f stops (it waits or has ended); returns when the scheduler resumes
 * it, or at once when that made its own activemask complete. */
static void
park(struct runner *r, struct fiber *f)
{
	r->stops++;
	settle_activemask(r, (uint32_t)(f - r->fibers) / WARP);
	if (f->state != FIBER_RUNNING)
		to_scheduler(r, f);
}

static struct fiber *
fiber_of(ZcHostThread *t)
{
	return t->driver;
}

static struct runner *
runner_of(ZcHostThread *t)
{
	return t->block->driver;
}

/* ---- barriers ------------------------------------------------------------ */

static void
complete_barrier(struct runner *r, uint32_t id)
{
	struct barrier *b = &r->barriers[id];

	for (uint32_t i = 0; i < r->nthreads; i++) {
		struct fiber *f = &r->fibers[i];
		if (f->state == FIBER_WAITING && f->waits == WAIT_BARRIER && f->barrier == id) {
			f->result = b->popc | (uint64_t)b->arrived << 32;
			make_ready(r, f);
		}
	}
	*b = (struct barrier){ 0 };
}

static bool
barrier_full(struct runner *r, uint32_t id)
{
	struct barrier *b = &r->barriers[id];

	return b->arrived && b->arrived >= (b->count ? b->count : r->live);
}

/* Counts one arrival; the caller waits (or not) afterwards. */
static void
arrive(struct runner *r, uint32_t id, uint32_t count, uint32_t pred)
{
	struct barrier *b = &r->barriers[id % BARRIERS];

	if (b->arrived == 0)
		b->count = count;
	b->arrived++;
	b->popc += pred != 0;
}

/* Returns the barrier's count of true predicates | its arrivals << 32. */
static uint64_t
barrier_wait(ZcHostThread *t, uint32_t id, uint32_t count, uint32_t pred)
{
	struct runner *r = runner_of(t);
	struct fiber *f = fiber_of(t);

	id %= BARRIERS;
	arrive(r, id, count, pred);
	f->state = FIBER_WAITING;
	f->waits = WAIT_BARRIER;
	f->barrier = id;
	if (barrier_full(r, id))
		complete_barrier(r, id);
	if (f->state == FIBER_WAITING)
		park(r, f);
	return f->result;
}

static void
op_barrier(ZcHostThread *t, uint32_t id, uint32_t count)
{
	barrier_wait(t, id, count, 0);
}

static uint32_t
op_barrier_reduce(ZcHostThread *t, enum ZcBarRedOp op, uint32_t id, uint32_t count, uint32_t pred)
{
	uint64_t result = barrier_wait(t, id, count, pred);
	uint32_t popc = (uint32_t)result, arrived = (uint32_t)(result >> 32);

	if (op == ZC_BAR_RED_POPC)
		return popc;
	return op == ZC_BAR_RED_AND ? popc == arrived : popc != 0;
}

static void
op_barrier_arrive(ZcHostThread *t, uint32_t id, uint32_t count)
{
	struct runner *r = runner_of(t);

	id %= BARRIERS;
	arrive(r, id, count, 0);
	if (barrier_full(r, id))
		complete_barrier(r, id);
}

/* ---- warp operations ----------------------------------------------------- */

static bool
same_op(const struct warp_op *a, const struct warp_op *b)
{
	return a->kind == b->kind && a->mode == b->mode && a->mask == b->mask;
}

/* PTX's shfl.sync: the source lane and whether it was in range. */
static inline __attribute__((always_inline)) uint64_t
shuffle(const struct warp_op *op, uint32_t lane, const uint64_t values[WARP], uint32_t present)
{
	int32_t b = (int32_t)(op->b & 31), clamp = (int32_t)(op->c & 31);
	int32_t segmask = (int32_t)((op->c >> 8) & 31);
	int32_t min_lane = (int32_t)lane & segmask;
	int32_t max_lane = min_lane | (clamp & ~segmask);
	int32_t j;
	bool in_range;

	switch (op->mode) {
	case ZC_SHFL_UP:
		j = (int32_t)lane - b;
		in_range = j >= max_lane;
		break;
	case ZC_SHFL_DOWN:
		j = (int32_t)lane + b;
		in_range = j <= max_lane;
		break;
	case ZC_SHFL_BFLY:
		j = (int32_t)lane ^ b;
		in_range = j <= max_lane;
		break;
	default:
		j = min_lane | (b & ~segmask);
		in_range = j <= max_lane;
		break;
	}
	if (!in_range)
		j = (int32_t)lane;
	/* PTX leaves a source lane that does not take part undefined; NVIDIA's GPUs read 0 from
	 * it, as AMD's ds_bpermute does from a disabled lane, and reductions whose last step
	 * uses a mask of fewer lanes (cuda-samples' reduce7) count on that. */
	uint32_t value = (present >> j & 1) ? (uint32_t)values[j] : 0;
	return value | (uint64_t)in_range << 32;
}

static uint32_t
reduce(enum ZcReduxOp op, const uint64_t values[WARP], uint32_t present)
{
	uint32_t acc = op == ZC_REDUX_AND ? ~0u
	               : op == ZC_REDUX_MIN_U32 ? ~0u
	               : op == ZC_REDUX_MIN_S32 ? 0x7fffffffu
	               : op == ZC_REDUX_MAX_S32 ? 0x80000000u : 0;

	for (uint32_t lane = 0; lane < WARP; lane++) {
		if (!(present >> lane & 1))
			continue;
		uint32_t v = (uint32_t)values[lane];
		switch (op) {
		case ZC_REDUX_ADD: acc += v; break;
		case ZC_REDUX_MIN_U32: acc = v < acc ? v : acc; break;
		case ZC_REDUX_MAX_U32: acc = v > acc ? v : acc; break;
		case ZC_REDUX_MIN_S32: acc = (int32_t)v < (int32_t)acc ? v : acc; break;
		case ZC_REDUX_MAX_S32: acc = (int32_t)v > (int32_t)acc ? v : acc; break;
		case ZC_REDUX_AND: acc &= v; break;
		case ZC_REDUX_OR: acc |= v; break;
		case ZC_REDUX_XOR: acc ^= v; break;
		}
	}
	return acc;
}

static uint64_t
warp_result(const struct warp_op *op, uint32_t lane, const uint64_t values[WARP], uint32_t present)
{
	uint32_t ballot = 0, equal = 0;

	switch (op->kind) {
	case ZC_WARP_SHUFFLE:
		return shuffle(op, lane, values, present);
	case ZC_WARP_VOTE:
		for (uint32_t l = 0; l < WARP; l++)
			ballot |= (uint32_t)((present >> l & 1) && values[l]) << l;
		switch (op->mode) {
		case ZC_VOTE_ALL: return ballot == present;
		case ZC_VOTE_ANY: return ballot != 0;
		case ZC_VOTE_UNI: return ballot == 0 || ballot == present;
		default: return ballot;
		}
	case ZC_WARP_MATCH_ANY:
	case ZC_WARP_MATCH_ALL:
		for (uint32_t l = 0; l < WARP; l++)
			equal |= (uint32_t)((present >> l & 1) && values[l] == values[lane]) << l;
		if (op->kind == ZC_WARP_MATCH_ANY)
			return equal;
		return equal == present ? present | (uint64_t)1 << 32 : 0;
	case ZC_WARP_REDUX:
		return reduce((enum ZcReduxOp)op->mode, values, present);
	default:
		return 0;
	}
}

/* Whether a warp operation gives every lane that meets at it one result: a vote, a reduction
 * or match.all (all equal, or none), which is then computed once rather than once a lane. */
static bool
one_result_for_all(enum ZcWarpKind kind)
{
	return kind == ZC_WARP_VOTE || kind == ZC_WARP_REDUX || kind == ZC_WARP_MATCH_ALL;
}

/* Completes op in warp w when every lane of its mask that has not ended is waiting in it. */
static void
try_complete_warp(struct runner *r, uint32_t w, const struct warp_op *op)
{
	uint64_t values[WARP] = { 0 };
	uint32_t present = 0;
	struct fiber *base = &r->fibers[w * WARP];

	if (r->warps[w].in_ops < (uint32_t)__builtin_popcount(op->mask & ~r->warps[w].gone))
		return;
	for (uint32_t lane = 0; lane < WARP; lane++) {
		if (!(op->mask >> lane & 1) || (r->warps[w].gone >> lane & 1))
			continue;
		struct fiber *f = &base[lane];
		if (f->state != FIBER_WAITING || f->waits != WAIT_WARP || !same_op(&f->op, op))
			return;
		values[lane] = f->op.value;
		present |= 1u << lane;
	}
	/* Each lane's own operands: a shuffle's source lane (b) differs from lane to lane. */
	bool shared = one_result_for_all(op->kind);
	uint64_t result = shared ? warp_result(op, (uint32_t)__builtin_ctz(present), values, present) : 0;
	for (uint32_t lane = 0; lane < WARP; lane++) {
		if (present >> lane & 1) {
			base[lane].result = shared ? result : warp_result(&base[lane].op, lane, values, present);
			r->warps[w].in_ops--;
			make_ready(r, &base[lane]);
		}
	}
}

static uint64_t
warp_op(ZcHostThread *t, struct warp_op op)
{
	struct runner *r = runner_of(t);
	struct fiber *f = fiber_of(t);
	uint32_t index = (uint32_t)(f - r->fibers);

	/* The calling lane takes part even when its mask leaves it out. */
	op.mask |= 1u << (index % WARP);
	f->op = op;
	f->state = FIBER_WAITING;
	f->waits = WAIT_WARP;
	r->warps[index / WARP].in_ops++;
	try_complete_warp(r, index / WARP, &op);
	if (f->state == FIBER_WAITING)
		park(r, f);
	return f->result;
}

static void
op_warp_sync(ZcHostThread *t, uint32_t mask)
{
	warp_op(t, (struct warp_op){ .kind = ZC_WARP_SYNC, .mask = mask });
}

static uint64_t
op_shuffle(ZcHostThread *t, enum ZcShflMode mode, uint32_t mask, uint32_t value, uint32_t b,
           uint32_t c)
{
	return warp_op(t, (struct warp_op){ .kind = ZC_WARP_SHUFFLE, .mode = (int)mode, .mask = mask, .value = value, .b = b, .c = c });
}

static uint32_t
op_vote(ZcHostThread *t, enum ZcVoteMode mode, uint32_t mask, uint32_t pred)
{
	return (uint32_t)warp_op(t, (struct warp_op){ .kind = ZC_WARP_VOTE, .mode = (int)mode, .mask = mask, .value = pred != 0 });
}

static uint32_t
op_match_any(ZcHostThread *t, uint32_t mask, uint64_t value)
{
	return (uint32_t)warp_op(t, (struct warp_op){ .kind = ZC_WARP_MATCH_ANY, .mask = mask, .value = value });
}

static uint64_t
op_match_all(ZcHostThread *t, uint32_t mask, uint64_t value)
{
	return warp_op(t, (struct warp_op){ .kind = ZC_WARP_MATCH_ALL, .mask = mask, .value = value });
}

static uint32_t
op_redux(ZcHostThread *t, enum ZcReduxOp op, uint32_t mask, uint32_t value)
{
	return (uint32_t)warp_op(t, (struct warp_op){ .kind = ZC_WARP_REDUX, .mode = (int)op, .mask = mask, .value = value });
}

/* The launch fails: `waiting` threads of the block wait with none to release them. */
static CUresult
fail_stalled(const struct zc_launch *l, const uint32_t ctaid[3], uint32_t waiting)
{
	return stub_fail(CUDA_ERROR_LAUNCH_FAILED, "%s: block (%u,%u,%u): %u threads wait in block "
	                 "operations that the others will never reach", l->name, ctaid[0], ctaid[1],
	                 ctaid[2], waiting);
}

/* A whole warp's shuffle, its mode a constant where this is inlined: a loop the compiler
 * can vectorise. */
static inline __attribute__((always_inline)) void
shuffle_lanes(enum ZcShflMode mode, const struct warp_op *op, const uint64_t values[WARP], ZcRoundLane *lanes)
{
	struct warp_op constant = *op;
	constant.mode = (int)mode;
	for (uint32_t lane = 0; lane < WARP; lane++)
		lanes[lane].result = shuffle(&constant, lane, values, ~0u);
}

/* The common case of op_round_warps: all of a warp's lanes at one operation with the same
 * operands and full mask. Its results without the general path's decoding per lane; a
 * vote's or reduction's once for all. */
static bool
complete_uniform_warp(ZcRoundLane *lanes, uint32_t *states, uint64_t *ready)
{
	const ZcRoundLane *first = &lanes[0];
	enum ZcWarpKind kind = (enum ZcWarpKind)(first->code & 0xff);

	if (first->mask != ~0u || kind == ZC_WARP_MATCH_ANY || kind == ZC_WARP_MATCH_ALL)
		return false;
	for (uint32_t lane = 1; lane < WARP; lane++)
		if (lanes[lane].code != first->code || lanes[lane].mask != ~0u || lanes[lane].b != first->b ||
		    lanes[lane].c != first->c)
			return false;
	uint64_t values[WARP];
	for (uint32_t lane = 0; lane < WARP; lane++)
		values[lane] = lanes[lane].value;
	struct warp_op op = { .kind = kind, .mode = (int)(first->code >> 8), .mask = ~0u, .b = first->b, .c = first->c };
	if (kind == ZC_WARP_SHUFFLE) {
		switch (op.mode) {
		case ZC_SHFL_UP: shuffle_lanes(ZC_SHFL_UP, &op, values, lanes); break;
		case ZC_SHFL_DOWN: shuffle_lanes(ZC_SHFL_DOWN, &op, values, lanes); break;
		case ZC_SHFL_BFLY: shuffle_lanes(ZC_SHFL_BFLY, &op, values, lanes); break;
		default: shuffle_lanes(ZC_SHFL_IDX, &op, values, lanes); break;
		}
	} else {
		uint64_t result = warp_result(&op, 0, values, ~0u);
		for (uint32_t lane = 0; lane < WARP; lane++)
			lanes[lane].result = result;
	}
	for (uint32_t lane = 0; lane < WARP; lane++) {
		*ready |= 1ull << states[lane];
		states[lane] |= ZC_ROUND_READY;
	}
	return true;
}

/* Warp operations of a block entry's rounds: the same meeting rule and results as
 * try_complete_warp's, with the lanes' states and operations in the rounds' arrays. */
static uint64_t
op_round_warps(ZcHostThread *t, ZcRoundLane *lanes, uint32_t *states, uint64_t warp_stops,
               uint32_t exit_state, uint32_t others_run, uint64_t *blocked)
{
	uint32_t n = t->ntid[0] * t->ntid[1] * t->ntid[2], live = 0;
	uint64_t ready = 0;

	*blocked = 0;
	for (uint32_t base = 0; base < n; base += WARP) {
		uint32_t count = n - base < WARP ? n - base : WARP;
		uint32_t gone = count == WARP ? 0 : ~0u << count, waiting = 0;
		for (uint32_t lane = 0; lane < count; lane++) {
			uint32_t state = states[base + lane];
			if (state == exit_state)
				gone |= 1u << lane;
			else if (live++, state < 64 && (warp_stops >> state & 1))
				waiting |= 1u << lane;
		}
		if (waiting == ~0u && complete_uniform_warp(&lanes[base], &states[base], &ready))
			continue;
		for (uint32_t tried = waiting; tried; tried &= tried - 1) {
			uint32_t first = (uint32_t)__builtin_ctz(tried);
			const ZcRoundLane *op = &lanes[base + first];
			uint32_t members = op->mask & ~gone;
			bool meet = (waiting >> first & 1) && (members & waiting) == members;
			for (uint32_t m = members; m && meet; m &= m - 1) {
				const ZcRoundLane *other = &lanes[base + __builtin_ctz(m)];
				meet = other->code == op->code && other->mask == op->mask;
			}
			if (!meet)
				continue;
			uint64_t values[WARP] = { 0 }, result = 0;
			for (uint32_t m = members; m; m &= m - 1)
				values[__builtin_ctz(m)] = lanes[base + __builtin_ctz(m)].value;
			bool shared = one_result_for_all((enum ZcWarpKind)(op->code & 0xff));
			for (uint32_t m = members; m; m &= m - 1) {
				uint32_t lane = (uint32_t)__builtin_ctz(m);
				ZcRoundLane *own = &lanes[base + lane];
				struct warp_op wop = { .kind = (enum ZcWarpKind)(own->code & 0xff), .mode = (int)(own->code >> 8),
				                       .mask = own->mask, .value = own->value, .b = own->b, .c = own->c };
				if (!shared || m == members)  /* each lane's own, or the first lane's for all */
					result = warp_result(&wop, lane, values, members);
				own->result = result;
				ready |= 1ull << states[base + lane];
				states[base + lane] |= ZC_ROUND_READY;
			}
			waiting &= ~members;
		}
		for (uint32_t m = waiting; m; m &= m - 1)
			*blocked |= 1ull << states[base + __builtin_ctz(m)];
	}
	if (!ready && !others_run && *blocked) {
		struct runner *r = runner_of(t);
		zc_host_fail_launch(t, fail_stalled(r->launch, t->ctaid, live));
	}
	return ready;
}

static uint32_t
op_activemask(ZcHostThread *t, const void *site)
{
	struct runner *r = runner_of(t);
	struct fiber *f = fiber_of(t);

	f->state = FIBER_WAITING;
	f->waits = WAIT_ACTIVEMASK;
	f->site = site;
	r->at_activemask++;
	park(r, f);
	return (uint32_t)f->result;
}

/* ---- time, ends ------------------------------------------------------------ */

/* The fiber goes on after the block's other runnable fibers have had a turn. */
static void
run_others(struct runner *r, struct fiber *f)
{
	r->current = NULL; /* so that it is queued behind the others */
	make_ready(r, f);
	to_scheduler(r, f);
}

static void
op_nanosleep(ZcHostThread *t, uint32_t ns)
{
	struct runner *r = runner_of(t);
	struct fiber *f = fiber_of(t);

	/* Others of the block may be what this thread waits for, lanes of its warp at an
	 * activemask too (released once all its spinning lanes are idle); with none runnable,
	 * it may be another block, so give the OS thread up for a while. */
	f->sleeping = true;
	f->idle = f->stops_seen == r->stops;
	f->stops_seen = r->stops;
	if (f->idle)
		settle_activemask(r, (uint32_t)(f - r->fibers) / WARP);
	if (r->ready_count == 0) {
		struct timespec pause = { 0, ns };
		nanosleep(&pause, NULL);
	} else {
		run_others(r, f);
	}
	f->sleeping = false;
}

/* Unlike nanosleep, a yield does not mark the fiber idle: it may be doing work. A spin loop
 * makes many such accesses, so switching at every YIELD_EVERY-th is enough for it to
 * progress, and code that is not waiting seldom pays for a switch (a switch costs a
 * signal-mask system call). */
enum { YIELD_EVERY = 64 };

static void
op_yield(ZcHostThread *t)
{
	struct runner *r = runner_of(t);
	struct fiber *f = fiber_of(t);

	if (++f->spin_points < YIELD_EVERY)
		return;
	f->spin_points = 0;
	/* Alone in its block, a spinning fiber waits for another block: let its thread run. */
	if (r->ready_count == 0)
		sched_yield();
	else
		run_others(r, f);
}

static void
op_lockstep(ZcHostThread *t)
{
	struct runner *r = runner_of(t);
	struct fiber *f = fiber_of(t);

	if (r->ready_count > 0)
		run_others(r, f);
}

static uint64_t
op_globaltimer(ZcHostThread *t)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* The fiber's thread has ended: barriers counting the block's live threads and warp
 * operations waiting for its lane may now be complete. */
static void
thread_ended(struct runner *r, struct fiber *f)
{
	uint32_t index = (uint32_t)(f - r->fibers), w = index / WARP;

	f->state = FIBER_DONE;
	r->live--;
	r->warps[w].gone |= 1u << (index % WARP);
	for (uint32_t id = 0; id < BARRIERS; id++)
		if (r->barriers[id].count == 0 && barrier_full(r, id))
			complete_barrier(r, id);
	for (uint32_t lane = 0; lane < WARP && w * WARP + lane < r->nthreads; lane++) {
		struct fiber *other = &r->fibers[w * WARP + lane];
		if (other->state == FIBER_WAITING && other->waits == WAIT_WARP)
			try_complete_warp(r, w, &other->op);
	}
}

static _Noreturn void
op_exit(ZcHostThread *t)
{
	struct runner *r = runner_of(t);
	struct fiber *f = fiber_of(t);

	thread_ended(r, f);
	park(r, f);
	abort();  /* an ended fiber is never resumed */
}

_Noreturn void
zc_host_fail_launch(ZcHostThread *t, CUresult error)
{
	struct runner *r = runner_of(t);
	struct fiber *f = fiber_of(t);

	if (r->error == CUDA_SUCCESS)
		r->error = error;
	f->state = FIBER_DONE;
	to_scheduler(r, f);
	abort();
}

static void
op_trap(ZcHostThread *t)
{
	stub_fail(CUDA_ERROR_LAUNCH_FAILED, "%s: trap in block (%u,%u,%u), thread (%u,%u,%u)",
	          runner_of(t)->launch->name, t->ctaid[0], t->ctaid[1], t->ctaid[2], t->tid[0],
	          t->tid[1], t->tid[2]);
	zc_host_fail_launch(t, CUDA_ERROR_LAUNCH_FAILED);
}

/* Device malloc: the C library's, 16-byte aligned as CUDA's, each block with a 16-byte
 * header holding its size, so that the blocks held stay within the heap limit (counted for
 * the process: the CPU driver has one device). */
static _Atomic uint64_t heap_held;

static void *
op_malloc(ZcHostThread *t, uint64_t bytes)
{
	uint64_t need = (bytes + 15) / 16 * 16 + 16, limit = runner_of(t)->launch->malloc_heap;
	uint64_t held = atomic_fetch_add(&heap_held, need);
	uint64_t *block = bytes < limit && held + need <= limit ? zc_host_aligned_alloc(16, need) : NULL;

	if (!block) {
		atomic_fetch_sub(&heap_held, need);
		return NULL;
	}
	block[0] = need;
	return block + 2;
}

static void
op_free(ZcHostThread *t, void *pointer)
{
	uint64_t *block = (uint64_t *)pointer - 2;

	(void)t;
	if (!pointer)
		return;
	atomic_fetch_sub(&heap_held, block[0]);
	zc_host_aligned_free(block);
}

int
zc_device_vprintf(ZcHostThread *t, const char *format, const void *packed)
{
	(void)t;
	return zc_print_device_printf(format, packed);
}

_Noreturn void
zc_device_assertfail(ZcHostThread *t, const char *expression, const char *file, uint32_t line,
                     const char *function)
{
	zc_print_device_assert(expression, file, line, function, t->ctaid, t->tid);
	zc_host_fail_launch(t, CUDA_ERROR_ASSERT);
}

static const ZcHostOps ops = {
	.barrier = op_barrier,
	.barrier_reduce = op_barrier_reduce,
	.warp_sync = op_warp_sync,
	.shuffle = op_shuffle,
	.vote = op_vote,
	.match_any = op_match_any,
	.match_all = op_match_all,
	.redux = op_redux,
	.activemask = op_activemask,
	.nanosleep = op_nanosleep,
	.globaltimer = op_globaltimer,
	.trap = op_trap,
	.barrier_arrive = op_barrier_arrive,
	.exit = op_exit,
	.vprintf = zc_device_vprintf,
	.assertfail = zc_device_assertfail,
	.yield = op_yield,
	.lockstep = op_lockstep,
	.malloc = op_malloc,
	.free = op_free,
	.round_warps = op_round_warps,
};

/* ---- a block ------------------------------------------------------------ */

static void
fiber_main(void)
{
	struct runner *r = this_runner;
	struct fiber *f = r->current;

#ifdef ZC_ASAN
	__sanitizer_finish_switch_fiber(NULL, &r->scheduler_stack, &r->scheduler_stack_size);
#endif
	r->entry(r->launch->params, &f->thread);
	thread_ended(r, f);
	park(r, f);
}

static void
block_coordinates(const struct zc_launch *l, uint64_t index, uint32_t ctaid[3])
{
	ctaid[0] = (uint32_t)(index % l->grid[0]);
	ctaid[1] = (uint32_t)(index / l->grid[0] % l->grid[1]);
	ctaid[2] = (uint32_t)(index / l->grid[0] / l->grid[1]);
}

/* A fault whose thread is not known yet: its block ran through an entry that did not write
 * the tid (host_abi.h). */
struct unnamed_fault {
	CUresult error;  /* CUDA_SUCCESS: none */
	const void *address;
};

/* A block entry runs the whole block on one fiber. A fault in an entry that keeps no tid is
 * left in *unnamed, where the caller gives one, rather than reported. */
static CUresult
run_block_through(const struct zc_launch *l, uint64_t index, zc_host_entry *entry,
                  struct unnamed_fault *unnamed)
{
	uint32_t n = l->function->whole_block ? 1 : l->block[0] * l->block[1] * l->block[2];
	uint32_t layout = l->function->shared_layout > l->static_shared ? l->function->shared_layout
	                                                                : l->static_shared;
	uint32_t static_size = (layout + 15) & ~15u;
	struct runner *r = NULL;
	CUresult err = prepare_runner(&r, n, (size_t)static_size + l->dynamic_shared);

	if (err != CUDA_SUCCESS)
		return err;
	r->launch = l;
	r->entry = entry;
	r->nthreads = r->live = n;
	r->stops = 0;
	r->at_activemask = 0;
	r->ready_head = r->ready_count = 0;
	r->current = NULL;
	r->error = CUDA_SUCCESS;
	memset(r->barriers, 0, sizeof r->barriers);
	for (uint32_t w = 0; w < (n + WARP - 1) / WARP; w++)
		r->warps[w] = (struct warp){ n - w * WARP >= WARP ? 0 : ~0u << (n - w * WARP), 0 };
	r->block = (ZcHostBlock){
		.ops = &ops,
		.shared = r->shared,
		.dynamic_smem = r->shared + static_size,
		.dynamic_smem_size = l->dynamic_shared,
		.shared_size = static_size + l->dynamic_shared,
		.params = l->params,
		.params_size = l->params_size,
		.driver = r,
	};
	uint32_t ctaid[3];
	block_coordinates(l, index, ctaid);
	for (uint32_t i = 0; i < n; i++) {
		struct fiber *f = &r->fibers[i];
		f->thread = (ZcHostThread){
			.tid = { i % l->block[0], i / l->block[0] % l->block[1], i / l->block[0] / l->block[1] },
			.ntid = { l->block[0], l->block[1], l->block[2] },
			.ctaid = { ctaid[0], ctaid[1], ctaid[2] },
			.nctaid = { l->grid[0], l->grid[1], l->grid[2] },
			.block = &r->block,
			.stack = f->stack,
			.stack_size = STACK_MAPPED,
			.driver = f,
		};
		f->sp = zc_fiber_stack_init(f->stack, STACK_MAPPED - (size_t)i * COLOUR_STEP % COLOUR_SPAN,
		                            fiber_main);
		f->asan_fake_stack = NULL;
		f->sleeping = false;
		f->stops_seen = UINT64_MAX;
		f->state = FIBER_READY;
		r->ready[i] = i;
	}
	if (l->function->whole_block)
		for (int k = 0; k < 3; k++)
			r->fibers[0].thread.tid[k] = ZC_HOST_TID_UNKNOWN;
	r->ready_count = n;
	while (r->error == CUDA_SUCCESS && r->ready_count) {
		struct fiber *f = &r->fibers[r->ready[r->ready_head]];
		r->ready_head = (r->ready_head + 1) % n;
		r->ready_count--;
		to_fiber(r, f);
	}
	r->current = NULL;
	struct fiber *stopped = r->overflowed ? r->overflowed : r->faulted;
	if (stopped && unnamed && stopped->thread.tid[0] == ZC_HOST_TID_UNKNOWN) {
		*unnamed = (struct unnamed_fault){ r->error, r->faulted ? r->fault_address : NULL };
		r->overflowed = r->faulted = NULL;
	}
	if (r->overflowed) {
		const ZcHostThread *t = &r->overflowed->thread;
		r->overflowed = NULL;
		stub_fail(CUDA_ERROR_LAUNCH_FAILED, "%s: block (%u,%u,%u), thread (%u,%u,%u): stack overflow "
		          "(a thread has %d KiB for its local memory and calls)", l->name, t->ctaid[0],
		          t->ctaid[1], t->ctaid[2], t->tid[0], t->tid[1], t->tid[2], STACK_SIZE >> 10);
	}
	if (r->faulted) {
		const ZcHostThread *t = &r->faulted->thread;
		r->faulted = NULL;
		stub_fail(CUDA_ERROR_ILLEGAL_ADDRESS, "%s: block (%u,%u,%u), thread (%u,%u,%u): an "
		          "access to %p, which no allocation holds", l->name, t->ctaid[0], t->ctaid[1],
		          t->ctaid[2], t->tid[0], t->tid[1], t->tid[2], r->fault_address);
	}
	if (r->error == CUDA_SUCCESS && r->live)
		r->error = fail_stalled(l, ctaid, r->live);
	return r->error;
}

/* A block entry that writes no tid and faulted runs its block again through the one that
 * does (the threads before the faulting one repeat their work: the launch fails either
 * way), to name the thread; if that run does not fault, the message names the block. */
static CUresult
run_block(const struct zc_launch *l, uint64_t index)
{
	struct zc_drv_function *f = l->function;
	struct unnamed_fault unnamed = { CUDA_SUCCESS, NULL };
	CUresult r = run_block_through(l, index, f->entry, f->naming ? &unnamed : NULL);

	if (unnamed.error == CUDA_SUCCESS)
		return r;
	r = run_block_through(l, index, f->naming, NULL);
	if (r != CUDA_SUCCESS)
		return r;
	uint32_t c[3];
	block_coordinates(l, index, c);
	if (unnamed.error == CUDA_ERROR_LAUNCH_FAILED)
		return stub_fail(unnamed.error, "%s: block (%u,%u,%u): stack overflow (a thread has %d KiB "
		                 "for its local memory and calls; the driver could not name the thread: "
		                 "the block did not overflow when run again)", l->name, c[0], c[1], c[2],
		                 STACK_SIZE >> 10);
	return stub_fail(unnamed.error, "%s: block (%u,%u,%u): an access to %p, which no allocation "
	                 "holds (by a thread the driver could not name: the block did not fault when "
	                 "run again)", l->name, c[0], c[1], c[2], unnamed.address);
}

/* ---- the grid and the pool ------------------------------------------------ */

struct grid {
	struct grid *next;
	const struct zc_launch *launch;
	uint64_t nblocks;
	atomic_uint_fast64_t next_block;
	_Atomic CUresult error;
	int helpers;  /* pool workers in it; under pool.lock */
};

static struct {
	pthread_once_t once;
	pthread_mutex_t lock;
	pthread_cond_t posted;  /* a grid with blocks left was posted */
	pthread_cond_t left;    /* a worker left a grid */
	struct grid *grids;
	int workers;
} pool = { PTHREAD_ONCE_INIT, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
           PTHREAD_COND_INITIALIZER, NULL, 0 };

static void
run_blocks(struct grid *g)
{
	uint64_t b;

	while (atomic_load(&g->error) == CUDA_SUCCESS &&
	       (b = atomic_fetch_add(&g->next_block, 1)) < g->nblocks) {
		CUresult r = run_block(g->launch, b);
		CUresult none = CUDA_SUCCESS;
		if (r != CUDA_SUCCESS)
			atomic_compare_exchange_strong(&g->error, &none, r);
	}
}

/* Caller holds pool.lock. */
static void
unlink_grid(struct grid *g)
{
	for (struct grid **link = &pool.grids; *link; link = &(*link)->next) {
		if (*link == g) {
			*link = g->next;
			return;
		}
	}
}

static void *
pool_worker(void *unused)
{
	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (!pool.grids)
			pthread_cond_wait(&pool.posted, &pool.lock);
		struct grid *g = pool.grids;
		g->helpers++;
		pthread_mutex_unlock(&pool.lock);
		run_blocks(g);
		pthread_mutex_lock(&pool.lock);
		unlink_grid(g);  /* no blocks left in it */
		if (--g->helpers == 0)
			pthread_cond_broadcast(&pool.left);
	}
	return NULL;
}

static void
start_pool(void)
{
	struct zc_host_system system;

	zc_host_system(&system);
	int want = system.processors > MAX_POOL ? MAX_POOL : (int)system.processors;

	/* Workers the launching threads cannot start are not needed for correctness: the
	 * thread that runs the stream runs every block no worker took. */
	for (int i = 0; i < want; i++) {
		pthread_t thread;
		if (zc_host_spawn(&thread, pool_worker, NULL, true))
			pool.workers++;
	}
}

/* A cooperative grid: every block on a thread of its own, all started before any runs, so
 * that blocks spinning in grid.sync() wait for blocks that run too. */
struct cooperative {
	const struct zc_launch *launch;
	pthread_mutex_t lock;
	pthread_cond_t go;
	int state;  /* 0 while threads are made, 1 run, -1 give up */
};

struct cooperative_block {
	struct cooperative *grid;
	uint64_t index;
	CUresult result;
	pthread_t thread;
};

static int
wait_for_start(struct cooperative *c)
{
	pthread_mutex_lock(&c->lock);
	while (c->state == 0)
		pthread_cond_wait(&c->go, &c->lock);
	int state = c->state;
	pthread_mutex_unlock(&c->lock);
	return state;
}

static void *
cooperative_block(void *arg)
{
	struct cooperative_block *b = arg;

	b->result = wait_for_start(b->grid) > 0 ? run_block(b->grid->launch, b->index) : CUDA_SUCCESS;
	return NULL;
}

static CUresult
run_cooperative(const struct zc_launch *l, uint64_t nblocks)
{
	struct cooperative c = { l, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	struct cooperative_block *blocks = calloc(nblocks, sizeof *blocks);
	uint64_t started = 1;
	CUresult r = CUDA_SUCCESS;

	if (!blocks)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (uint64_t i = 0; i < nblocks; i++)
		blocks[i] = (struct cooperative_block){ &c, i, CUDA_SUCCESS, 0 };
	while (started < nblocks && zc_host_spawn(&blocks[started].thread, cooperative_block, &blocks[started], false))
		started++;
	pthread_mutex_lock(&c.lock);
	c.state = started == nblocks ? 1 : -1;
	pthread_cond_broadcast(&c.go);
	pthread_mutex_unlock(&c.lock);
	if (c.state > 0)
		blocks[0].result = run_block(l, 0);
	else
		r = CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
	for (uint64_t i = 1; i < started; i++)
		pthread_join(blocks[i].thread, NULL);
	for (uint64_t i = 0; i < nblocks && r == CUDA_SUCCESS; i++)
		r = blocks[i].result;
	free(blocks);
	return r;
}

CUresult
zc_host_run_grid(const struct zc_launch *l)
{
	struct grid g = {
		.launch = l,
		.nblocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2],
		.error = CUDA_SUCCESS,
	};
	bool shared = g.nblocks > 1;

	if (l->cooperative && shared)
		return run_cooperative(l, g.nblocks);
	if (shared) {
		pthread_once(&pool.once, start_pool);
		pthread_mutex_lock(&pool.lock);
		g.next = pool.grids;
		pool.grids = &g;
		pthread_cond_broadcast(&pool.posted);
		pthread_mutex_unlock(&pool.lock);
	}
	run_blocks(&g);
	if (shared) {
		pthread_mutex_lock(&pool.lock);
		unlink_grid(&g);
		while (g.helpers)
			pthread_cond_wait(&pool.left, &pool.lock);
		pthread_mutex_unlock(&pool.lock);
	}
	return atomic_load(&g.error);
}
