/* Prototypes of the driver API functions the API layer implements (the list is
 * exports.inc). The definitions take the name zc_impl_NAME: the exported NAME is
 * exports/forward.S's entry point, which goes to them or, once the process uses NVIDIA's
 * driver, to NVIDIA's NAME. */
#ifndef ZC_EXPORTS_H
#define ZC_EXPORTS_H

#include "cuda_types.h"

#define ZC_FUNCTION(name, params) CUresult name params __asm__("zc_impl_" #name);
#include "exports.inc"
#undef ZC_FUNCTION

#endif
