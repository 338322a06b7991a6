/* cuGetProcAddress, which is how cudart finds every other entry point. */
#include <stdlib.h>
#include <string.h>

#include "forward.h"
#include "procaddress.h"

/* Symbol name -> function, for the functions the stub implements and, from
 * procaddress.tsv, for every other symbol the real driver can hand out. Both lists are in
 * strcmp order (the unit tests check exports.inc's). */
struct named_function {
	const char *name;
	void (*function)(void);
};

#define ZC_FUNCTION(symbol, params) { #symbol, (void (*)(void))symbol },
static const struct named_function implemented[] = {
#include "exports.inc"
};
#undef ZC_FUNCTION

/* x86-64 SysV lets a function that ignores its arguments stand for any signature that
 * returns an int-sized value, so one body per name serves every unimplemented function. */
/* Each is the stub's side of forward.S's exported entry point of its name. */
#define UNSUPPORTED(symbol) \
	CUresult unsupported_##symbol(void) __asm__("zc_impl_" #symbol); \
	CUresult unsupported_##symbol(void) { return zc_unsupported(#symbol); }
#include "unsupported_table.inc"
#undef UNSUPPORTED

#define UNSUPPORTED(symbol) { #symbol, (void (*)(void))unsupported_##symbol },
static const struct named_function unsupported[] = {
#include "unsupported_table.inc"
};
#undef UNSUPPORTED

enum {
	IMPLEMENTED_COUNT = sizeof implemented / sizeof implemented[0],
	UNSUPPORTED_COUNT = sizeof unsupported / sizeof unsupported[0],
};

static int
compare_names(const void *a, const void *b)
{
	return strcmp(((const struct named_function *)a)->name,
	              ((const struct named_function *)b)->name);
}

static void (*function_named(const char *name))(void)
{
	struct named_function key = { name, NULL };
	const struct named_function *found;

	found = bsearch(&key, implemented, IMPLEMENTED_COUNT, sizeof key, compare_names);
	if (!found)
		found = bsearch(&key, unsupported, UNSUPPORTED_COUNT, sizeof key, compare_names);
	return found ? found->function : NULL;
}

static CUresult
get_proc_address(const char *symbol, void **pfn, int version, uint64_t flags, int *status)
{
	struct zc_proc_resolution found;
	void (*function)(void) = NULL;

	if (!symbol || !pfn)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL symbol or pfn");
	found = zc_proc_resolve(symbol, version, flags);
	if (found.status == ZC_PROC_FOUND)
		function = function_named(found.symbol);
	*pfn = (void *)function;
	if (status)
		*status = function ? CU_GET_PROC_ADDRESS_SUCCESS
		          : found.status == ZC_PROC_VERSION_NOT_SUFFICIENT
		              ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
		              : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	return function ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

ZC_EXPORT CUresult
cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, uint64_t flags)
{
	if (zc_select_driver())
		return ZC_FORWARDED(cuGetProcAddress)(symbol, pfn, cudaVersion, flags);
	CUresult r = get_proc_address(symbol, pfn, cudaVersion, flags, NULL);

	return TRACE(r, "\"%s\", %d, %llu", symbol ? symbol : "(null)", cudaVersion,
	             (unsigned long long)flags);
}

ZC_EXPORT CUresult
cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, uint64_t flags,
                    int *symbolStatus)
{
	if (zc_select_driver())
		return ZC_FORWARDED(cuGetProcAddress_v2)(symbol, pfn, cudaVersion, flags, symbolStatus);
	CUresult r = get_proc_address(symbol, pfn, cudaVersion, flags, symbolStatus);

	return TRACE(r, "\"%s\", %d, %llu", symbol ? symbol : "(null)", cudaVersion,
	             (unsigned long long)flags);
}
