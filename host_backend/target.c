/* The host row of the target table: x86-64 shared objects that the runtime stub's CPU
 * driver dlopens and runs (backend/host_abi.h). The test target: CI has no AMD GPU. */
#include "target.h"

extern const ZcBitcode zc_builtins_host;

/* libm: the builtins' .approx math and LLVM's lowering of math intrinsics call it.
 * compiler-rt's builtins: the f16 and bf16 conversions LLVM lowers to library calls
 * (__truncsfbf2, __extendhfsf2, ...), linked in so that a code object needs nothing the
 * process may lack. Both are paths the build found, so lld needs no search path. */
static const char *const zc_host_link_flags[] = {
	"-shared", "--as-needed", ZC_HOST_LIBM, ZC_HOST_COMPILER_RT, NULL,
};

/* Baseline x86-64: the code objects run wherever the converted program runs. */
const ZcTarget zc_host_target = {
	"host", "x86_64-unknown-linux-gnu", "x86-64", "", ZC_CODE_OBJECT_HOST, 0,
	false, &zc_builtins_host, zc_host_link_flags, false,
};
