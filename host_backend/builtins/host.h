/* What the host builtins share. Compiled only by clang-22 for x86-64 into bitcode that
 * the backend links into host code objects (shared objects the CPU driver dlopens). */
#ifndef ZC_HOST_BUILTINS_H
#define ZC_HOST_BUILTINS_H

#include "builtins.h"
#include "host_abi.h"

/* The CUDA thread the calling fiber runs (host_abi.h, rule 2). */
extern _Thread_local ZcHostThread *__zc_host_current;

/* Builtins that call the driver may come back on the fiber after other fibers ran and
 * repointed __zc_host_current; they keep their thread in a local and restore it. */
static inline ZcHostThread *zc_self(void)
{
	return __zc_host_current;
}

static inline void zc_resume(ZcHostThread *t)
{
	__zc_host_current = t;
}

void __zc_host_enter(ZcHostThread *t);

#endif
