/* The host rows of the target table: x86-64 code objects that the runtime stub's CPU
 * driver loads and runs (abi/host_abi.h), ELF shared objects for libcuda.so.1 and
 * DLLs for nvcuda.dll. The test target: CI has no AMD GPU. */
#include "target.h"

extern const ZcBitcode zc_builtins_host, zc_builtins_host_windows, zc_ucrtbase_import_library;

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
	false, &zc_builtins_host, zc_host_link_flags, false, ZC_OBJECT_ELF, NULL,
};

/* A DLL with no entry point and no C runtime: it imports only ucrtbase.dll's math (the
 * embedded import library; builtins/windows.c has the rest). /Brepro: no time stamp, so a
 * conversion gives the same bytes every time. */
static const char *const zc_host_windows_link_flags[] = {
	"/dll", "/noentry", "/noimplib", "/nodefaultlib", "/machine:x64", "/Brepro", "/opt:ref", NULL,
};

const ZcTarget zc_host_windows_target = {
	"x86_64-windows", "x86_64-w64-windows-gnu", "x86-64", "", ZC_CODE_OBJECT_HOST, 0,
	false, &zc_builtins_host_windows, zc_host_windows_link_flags, false, ZC_OBJECT_COFF,
	&zc_ucrtbase_import_library,
};
