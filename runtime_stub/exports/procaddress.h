/* cuGetProcAddress's resolution: which exported function answers a request for
 * (name, CUDA version, flags). The rule and its data are in procaddress.tsv. */
#ifndef ZC_PROCADDRESS_H
#define ZC_PROCADDRESS_H

#include <stdint.h>

/* The values of CUdriverProcAddressQueryResult, so the stub can hand them on. */
enum zc_proc_status {
	ZC_PROC_FOUND = 0,
	ZC_PROC_NOT_FOUND = 1,
	ZC_PROC_VERSION_NOT_SUFFICIENT = 2,
};

struct zc_proc_resolution {
	enum zc_proc_status status;
	const char *symbol;  /* the exported variant (cuMemAlloc_v2, cuMemcpy_ptds ...); NULL unless found */
};

/* name is the unversioned base name cudart asks for; a NULL name is not found. */
struct zc_proc_resolution zc_proc_resolve(const char *name, int version, uint64_t flags);

#endif
