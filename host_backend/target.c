/* The host row of the target table: x86-64 shared objects that the runtime stub's CPU
 * driver dlopens and runs (backend/host_abi.h). The test target: CI has no AMD GPU. */
#include "target.h"

extern const ZcBitcode zc_builtins_host;

/* libm: the builtins' .approx math and LLVM's lowering of math intrinsics call it.
 * ZC_HOST_LIBM is the library the build found (a path, so lld needs no search path). */
static const char *const zc_host_link_flags[] = {"-shared", "--as-needed", ZC_HOST_LIBM, NULL};

/* Baseline x86-64: the code objects run wherever the converted program runs. */
const ZcTarget zc_host_target = {
	"host", "x86_64-unknown-linux-gnu", "x86-64", "", ZC_CODE_OBJECT_HOST, 0,
	false, &zc_builtins_host, zc_host_link_flags,
};
