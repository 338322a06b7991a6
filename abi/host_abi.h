/* The host ABI: how a CPU driver (runtime_stub/drivers/host/drv_host.c) runs the kernels of a
 * host code object: x86-64 ELF shared objects (the "host" target, for libcuda.so.1) or
 * DLLs (the "x86_64-windows" target, for nvcuda.dll).
 *
 * A host code object is an ordinary ELF shared object; dlopen it (RTLD_NOW|RTLD_LOCAL).
 * It depends only on libm.so.6. The DLL has no entry point and no C runtime; it imports
 * only ucrtbase.dll's math, and its thread-local variables use the system's TLS
 * directory (Windows loads images only from files: write it to one, LoadLibrary it).
 * Either exports:
 *
 *   const uint32_t __zc_host_abi_version;      equal to ZC_HOST_ABI_VERSION below
 *
 * and one entry per kernel, either of these two (the same type, zc_host_entry):
 *
 *   void KERNEL(const void *params, ZcHostThread *thread);            a thread entry
 *   void KERNEL.zc_block(const void *params, ZcHostThread *thread);   a block entry
 *
 * and for each kernel the same compiled for x86-64-v3 (AVX2, FMA, BMI1, BMI2, F16C, LZCNT,
 * MOVBE), KERNEL.zc_x86_64_v3 or KERNEL.zc_x86_64_v3.zc_block (either kind, as that code's
 * optimisation allows), which the driver calls instead where the processor has those (both
 * compute the same, bit for bit: the code has no operation that the processor may fuse or
 * contract unasked),
 *
 * plus the module's non-static globals (for cuModuleGetGlobal) under their own names, and
 *
 *   const uint32_t zluda_convert_shared_layout_size;  bytes of the module's shared layout
 *
 * when the module has shared variables: the lowering places them at module-wide offsets
 * from __zc_shared_base(), so every block of every kernel needs that many bytes (the kernel
 * table's static size says what the kernel itself reaches, as CUDA reports it).
 *
 * Calling a kernel. `params` is the packed PTX .param buffer: every parameter at the
 * offset the PTX layout gives it (each aligned to its .align or natural alignment), the
 * same bytes a CUDA `extra` buffer holds and the same layout as the AMDGPU kernarg
 * segment. `thread` describes the one CUDA thread this call runs: the entry runs that
 * thread from the kernel's start to its end (or to a trap), then returns.
 *
 * Block entries. A kernel that reaches none of the driver's operations below (so nothing
 * it does depends on the order in which its threads run, or on their running together),
 * or whose only ones are barriers of the whole block, lockstep points and warp operations
 * other than activemask, has a block entry instead: one call runs every thread of the
 * block, one after the other in the order of their linear ids, each from start to end,
 * or, with those operations, from one to the next, in rounds that keep their order (the
 * backend's host_rounds.c; warp operations complete through round_warps). It ignores the
 * tid it finds in `*thread`; the other fields are as for a thread entry. A baseline block
 * entry writes each thread's tid there before running it, so that a fault names the thread
 * that made it; an x86-64-v3 one may leave it alone, so that its loops over threads
 * vectorise (it then calls nothing that reads the thread). The driver puts
 * ZC_HOST_TID_UNKNOWN there first and, finding it still there after a fault, runs the
 * block again through the baseline block entry to name the thread. The driver calls it on one fiber (the rules
 * below for one thread, local memory on that fiber's stack, which also holds the
 * rounds' values of every thread: at most 168 bytes a thread).
 *
 * Threads of a block. The driver calls a thread entry once per thread of the block, each call
 * on its own fiber (its own stack; 64 KiB or more is advisable). The entry and the
 * builtins it calls never switch fibers themselves: the block operations below do, so
 * the driver sees every barrier, shuffle and vote and can run the block's other fibers
 * until all of the participants have arrived. The rules:
 *   1. All fibers of a block run on one OS thread, from the block's start to its end,
 *      and that OS thread runs no other block meanwhile. (Static .shared variables are
 *      thread-local variables of the code object: one instance per OS thread is one
 *      instance per running block. Their contents are undefined at a block's start, as
 *      in CUDA. The compiler may also cache the address of a thread-local variable
 *      across a call, so a fiber must not move to another OS thread.)
 *   2. The entry points its own thread-local "current thread" at `thread` and restores it
 *      after every block operation returns, so the driver needs no hook at fiber switches.
 *   3. A `ZcHostThread` stays valid and unmoved until its entry returns; the block it
 *      points to likewise until the block's last entry returns.
 *   4. A kernel that calls a block operation with a member mask expects every lane of the
 *      mask to call the same operation: the CUDA rule. The driver should report a launch
 *      failure (not hang) when all live fibers of a block wait and can never be released,
 *      e.g. a lane of the mask has already returned.
 *   5. A block operation that does not return (trap) must not return to the kernel: the
 *      driver abandons the fiber (e.g. switches away and never resumes it).
 *
 * Warps: lane = linear thread id % 32 and warp = linear thread id / 32, the linear id
 * being tid.x + ntid.x * (tid.y + ntid.y * tid.z). The last warp of a block may be
 * partial; its missing lanes are inactive (absent from activemask).
 */
#ifndef ZC_HOST_ABI_H
#define ZC_HOST_ABI_H

#include <stdint.h>

#define ZC_HOST_ABI_VERSION 10u
/* The tid a driver gives a block entry's thread (each of x, y and z), to tell whether the
 * entry wrote the tid of the thread it ran. */
#define ZC_HOST_TID_UNKNOWN UINT32_MAX
/* What a block entry's name adds to its kernel's. */
#define ZC_HOST_BLOCK_ENTRY_SUFFIX ".zc_block"
/* What an x86-64-v3 entry's name adds to its kernel's (before ZC_HOST_BLOCK_ENTRY_SUFFIX). */
#define ZC_HOST_V3_SUFFIX ".zc_x86_64_v3"

typedef struct ZcHostThread ZcHostThread;
typedef struct ZcHostBlock ZcHostBlock;

enum ZcShflMode { ZC_SHFL_IDX, ZC_SHFL_UP, ZC_SHFL_DOWN, ZC_SHFL_BFLY };
enum ZcVoteMode { ZC_VOTE_ALL, ZC_VOTE_ANY, ZC_VOTE_UNI, ZC_VOTE_BALLOT };
enum ZcBarRedOp { ZC_BAR_RED_POPC, ZC_BAR_RED_AND, ZC_BAR_RED_OR };
enum ZcReduxOp {
	ZC_REDUX_ADD,
	ZC_REDUX_MIN_U32,
	ZC_REDUX_MAX_U32,
	ZC_REDUX_MIN_S32,
	ZC_REDUX_MAX_S32,
	ZC_REDUX_AND,
	ZC_REDUX_OR,
	ZC_REDUX_XOR,
};
/* A warp operation's kind; with its mode (ZcShflMode, ZcVoteMode or ZcReduxOp), the code
 * of a ZcRoundLane is kind | mode << 8. */
enum ZcWarpKind {
	ZC_WARP_SYNC = 1,
	ZC_WARP_SHUFFLE,
	ZC_WARP_VOTE,
	ZC_WARP_MATCH_ANY,
	ZC_WARP_MATCH_ALL,
	ZC_WARP_REDUX,
};

/* A lane of a block entry's rounds waiting in a warp operation (host_rounds.c), as the
 * same-named builtin's arguments give it: `mask` includes the lane's own bit, `value` is a
 * vote's predicate as 0 or 1. The driver writes `result` as the builtin returns it. */
typedef struct ZcRoundLane {
	uint32_t code;
	uint32_t mask;
	uint32_t b, c;
	uint64_t value;
	uint64_t result;
} ZcRoundLane;

/* Bit 31 of a round's state: the lane's warp operation is complete (ZcHostOps.round_warps). */
#define ZC_ROUND_READY 0x80000000u

/* The driver's operations. Each takes the calling thread first; arguments and results
 * are those of the same-named builtin in backend/builtins.h (values as uint32_t bit
 * patterns, 64-bit match values as uint64_t, packed value|pred<<32 results as uint64_t),
 * with the operation selected by the enum argument. */
typedef struct ZcHostOps {
	/* bar.sync: returns once `count` threads (0: all of the block) reached barrier `id`. */
	void (*barrier)(ZcHostThread *t, uint32_t id, uint32_t count);
	/* bar.red: a barrier that returns the reduction of `pred` (0 or 1 in, result as
	 * __zc_bar_red_*: a count for POPC, 0 or 1 for AND/OR). */
	uint32_t (*barrier_reduce)(ZcHostThread *t, enum ZcBarRedOp op, uint32_t id, uint32_t count,
	                           uint32_t pred);
	/* bar.warp.sync: returns once every lane of `mask` called it. */
	void (*warp_sync)(ZcHostThread *t, uint32_t mask);
	/* shfl.sync with PTX's semantics for b and c (see builtins.h). */
	uint64_t (*shuffle)(ZcHostThread *t, enum ZcShflMode mode, uint32_t mask, uint32_t value,
	                    uint32_t b, uint32_t c);
	uint32_t (*vote)(ZcHostThread *t, enum ZcVoteMode mode, uint32_t mask, uint32_t pred);
	/* match.any: the mask of lanes with an equal value. match.all: value | pred << 32. */
	uint32_t (*match_any)(ZcHostThread *t, uint32_t mask, uint64_t value);
	uint64_t (*match_all)(ZcHostThread *t, uint32_t mask, uint64_t value);
	uint32_t (*redux)(ZcHostThread *t, enum ZcReduxOp op, uint32_t mask, uint32_t value);
	/* activemask: the lanes of this thread's warp executing this same activemask
	 * instruction with it. `site` names the instruction (the builtin's return address):
	 * the driver makes the call a convergence point, returning once the warp's lanes
	 * that can reach the site have, so that divergent branches see only their lanes. */
	uint32_t (*activemask)(ZcHostThread *t, const void *site);
	/* nanosleep: may run other fibers meanwhile (spin loops with nanosleep rely on it). */
	void (*nanosleep)(ZcHostThread *t, uint32_t ns);
	/* %globaltimer: nanoseconds of a clock that never goes back (e.g. CLOCK_REALTIME). */
	uint64_t (*globaltimer)(ZcHostThread *t);
	/* trap: the launch fails; never returns (rule 5). */
	void (*trap)(ZcHostThread *t);
	/* bar.arrive: counts this thread at barrier `id` without waiting for the others. */
	void (*barrier_arrive)(ZcHostThread *t, uint32_t id, uint32_t count);
	/* exit: this thread ends here, as if its entry had returned; never returns. */
	void (*exit)(ZcHostThread *t);
	/* vprintf(format, args): CUDA's device printf, the arguments packed as nvcc packs
	 * them; returns the number of arguments printed, or a negative value on error. */
	int32_t (*vprintf)(ZcHostThread *t, const char *format, const void *args);
	/* __assertfail: prints CUDA's assertion message and fails the launch with
	 * CUDA_ERROR_ASSERT; never returns. */
	void (*assertfail)(ZcHostThread *t, const char *expression, const char *file,
	                   uint32_t line, const char *function);
	/* A strong load or an atomic, maybe a spin loop's: the block's other runnable fibers
	 * run before this one goes on. */
	void (*yield)(ZcHostThread *t);
	/* A volatile or shared load or store: every other runnable fiber of the block runs up
	 * to its next one first (builtins.h, __zc_lockstep_point). */
	void (*lockstep)(ZcHostThread *t);
	/* Device malloc and free: NULL once the blocks held would pass the context's
	 * cudaLimitMallocHeapSize. */
	void *(*malloc)(ZcHostThread *t, uint64_t bytes);
	void (*free)(ZcHostThread *t, void *pointer);
	/* A block entry's rounds (the thread is the block's): `states` holds each thread's
	 * state by linear id, the stop it waits at or `exit_state` once it has ended; a thread
	 * whose stop has its bit in `warp_stops` waits in the warp operation that `lanes`
	 * holds for it. Completes every warp operation whose lanes (those of its mask that have
	 * not ended) all wait in it with the same code and mask, as for fibers: writes each
	 * lane's result and sets ZC_ROUND_READY in its state. Returns the bits of the stops
	 * with lanes now ready, and sets *blocked to those of the stops with lanes that still
	 * wait. When none is ready, some still wait and `others_run` is 0 (no thread can go
	 * on: the block's others wait at its barrier), the launch fails as for fibers that can
	 * never be released; it does not return. */
	uint64_t (*round_warps)(ZcHostThread *t, ZcRoundLane *lanes, uint32_t *states, uint64_t warp_stops,
	                        uint32_t exit_state, uint32_t others_run, uint64_t *blocked);
} ZcHostOps;

/* One running block, shared by its threads. */
struct ZcHostBlock {
	const ZcHostOps *ops;
	/* The block's shared memory, 16-byte aligned: the module's shared variables at the
	 * offsets the PTX lowering gave them (zluda_convert_shared_layout_size bytes), then the
	 * dynamic shared memory at that size rounded up to 16. __zc_shared_base() returns it;
	 * contents are undefined at the block's start, as in CUDA. */
	void *shared;
	void *dynamic_smem;          /* the launch's dynamic shared memory, within `shared` */
	uint32_t dynamic_smem_size;  /* its size in bytes (the launch's sharedMemBytes) */
	uint32_t shared_size;        /* static rounded up to 16, plus dynamic */
	/* The launch's parameter buffer, the one the entries receive: isspacep.param's window. */
	const void *params;
	uint64_t params_size;
	void *driver;                /* the driver's own block state; the kernel never reads it */
};

/* One CUDA thread. tid < ntid and ctaid < nctaid component-wise. */
struct ZcHostThread {
	uint32_t tid[3];
	uint32_t ntid[3];
	uint32_t ctaid[3];
	uint32_t nctaid[3];
	ZcHostBlock *block;
	/* The fiber's stack, where the thread's .local memory lives: isspacep.local's window. */
	const void *stack;
	uint64_t stack_size;
	void *driver;                /* the driver's own thread state; the kernel never reads it */
};

#endif
