/* Host special registers, clocks, sleep, trap: read from the current ZcHostThread. */
#include "host.h"

_Thread_local ZcHostThread *__zc_host_current;

/* Called by each kernel entry (the backend generates the call) before the kernel body. */
void __zc_host_enter(ZcHostThread *t) { zc_resume(t); }

uint32_t __zc_tid_x(void) { return zc_self()->tid[0]; }
uint32_t __zc_tid_y(void) { return zc_self()->tid[1]; }
uint32_t __zc_tid_z(void) { return zc_self()->tid[2]; }
uint32_t __zc_ntid_x(void) { return zc_self()->ntid[0]; }
uint32_t __zc_ntid_y(void) { return zc_self()->ntid[1]; }
uint32_t __zc_ntid_z(void) { return zc_self()->ntid[2]; }
uint32_t __zc_ctaid_x(void) { return zc_self()->ctaid[0]; }
uint32_t __zc_ctaid_y(void) { return zc_self()->ctaid[1]; }
uint32_t __zc_ctaid_z(void) { return zc_self()->ctaid[2]; }
uint32_t __zc_nctaid_x(void) { return zc_self()->nctaid[0]; }
uint32_t __zc_nctaid_y(void) { return zc_self()->nctaid[1]; }
uint32_t __zc_nctaid_z(void) { return zc_self()->nctaid[2]; }

static uint32_t zc_linear_tid(void)
{
	const ZcHostThread *t = zc_self();
	return t->tid[0] + t->ntid[0] * (t->tid[1] + t->ntid[1] * t->tid[2]);
}

uint32_t __zc_laneid(void) { return zc_linear_tid() % 32; }
uint32_t __zc_warpid(void) { return zc_linear_tid() / 32; }

uint32_t __zc_nwarpid(void)
{
	const ZcHostThread *t = zc_self();
	return (t->ntid[0] * t->ntid[1] * t->ntid[2] + 31) / 32;
}

uint32_t __zc_lanemask_eq(void) { return 1u << __zc_laneid(); }
uint32_t __zc_lanemask_lt(void) { return (1u << __zc_laneid()) - 1; }
uint32_t __zc_lanemask_le(void) { return ~0u >> (31 - __zc_laneid()); }
uint32_t __zc_lanemask_gt(void) { return ~__zc_lanemask_le(); }
uint32_t __zc_lanemask_ge(void) { return ~__zc_lanemask_lt(); }

uint32_t __zc_dynamic_smem_size(void) { return zc_self()->block->dynamic_smem_size; }
uint32_t __zc_total_smem_size(void) { return zc_self()->block->shared_size; }
void *__zc_shared_base(void) { return zc_self()->block->shared; }
uint32_t __zc_is_shared(uint64_t address)
{
	const ZcHostBlock *b = zc_self()->block;
	return address - (uint64_t)b->shared < b->shared_size;
}

uint32_t __zc_is_local(uint64_t address)
{
	const ZcHostThread *t = zc_self();
	return address - (uint64_t)t->stack < t->stack_size;
}

uint32_t __zc_is_param(uint64_t address)
{
	const ZcHostBlock *b = zc_self()->block;
	return address - (uint64_t)b->params < b->params_size;
}

uint32_t __zc_smid(void) { return 0; }
uint32_t __zc_nsmid(void) { return 1; }
uint64_t __zc_gridid(void) { return 0; }
void *__zc_dynamic_smem(void) { return zc_self()->block->dynamic_smem; }

/* rdtsc: a cycle counter per core; fibers of a block share one OS thread. */
uint64_t __zc_clock64(void) { return __builtin_readcyclecounter(); }
uint32_t __zc_clock(void) { return (uint32_t)__builtin_readcyclecounter(); }

uint64_t __zc_globaltimer(void)
{
	ZcHostThread *t = zc_self();
	return t->block->ops->globaltimer(t);
}

void __zc_nanosleep(uint32_t ns)
{
	ZcHostThread *t = zc_self();
	t->block->ops->nanosleep(t, ns > 1000000 ? 1000000 : ns);
	zc_resume(t);
}

uint64_t __zc_malloc(uint64_t bytes)
{
	ZcHostThread *t = zc_self();
	return (uint64_t)t->block->ops->malloc(t, bytes);
}

void __zc_free(uint64_t pointer)
{
	ZcHostThread *t = zc_self();
	t->block->ops->free(t, (void *)pointer);
}

void __zc_spin_point(void)
{
	ZcHostThread *t = zc_self();
	t->block->ops->yield(t);
	zc_resume(t);
}

/* Kept a call through optimisation, where backend/host_rounds.c finds it. */
__attribute__((noinline)) void __zc_lockstep_point(void)
{
	ZcHostThread *t = zc_self();
	t->block->ops->lockstep(t);
	zc_resume(t);
}

int32_t __zc_vprintf(uint64_t format, uint64_t args)
{
	ZcHostThread *t = zc_self();
	int32_t n = t->block->ops->vprintf(t, (const char *)format, (const void *)args);
	zc_resume(t);
	return n;
}

_Noreturn void __zc_assertfail(uint64_t expression, uint64_t file, uint32_t line,
                               uint64_t function, uint64_t char_size)
{
	ZcHostThread *t = zc_self();
	(void)char_size;
	t->block->ops->assertfail(t, (const char *)expression, (const char *)file, line,
	                          (const char *)function);
	__builtin_unreachable();
}

_Noreturn void __zc_exit(void)
{
	ZcHostThread *t = zc_self();
	t->block->ops->exit(t);
	__builtin_unreachable();
}

_Noreturn void __zc_trap(void)
{
	ZcHostThread *t = zc_self();
	t->block->ops->trap(t);
	__builtin_unreachable();
}
