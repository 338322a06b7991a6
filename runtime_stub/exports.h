/* Prototypes of the driver API functions the stub exports (the list is exports.inc). */
#ifndef ZC_EXPORTS_H
#define ZC_EXPORTS_H

#include "cuda_types.h"

#define ZC_FUNCTION(name, params) CUresult name params;
#include "exports.inc"
#undef ZC_FUNCTION

#endif
