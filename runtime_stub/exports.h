/* Prototypes of the driver API functions the stub exports (the list is exports.inc). The
 * definitions take the name zc_impl_NAME: the exported NAME is forward.S's entry point,
 * which goes to them or, once the process uses NVIDIA's driver, to NVIDIA's NAME. */
#ifndef ZC_EXPORTS_H
#define ZC_EXPORTS_H

#include "cuda_types.h"

#define ZC_FUNCTION(name, params) CUresult name params __asm__("zc_impl_" #name);
#include "exports.inc"
#undef ZC_FUNCTION

/* Indexed as exports.inc lists the functions (drv_cuda.c). */
extern void *zc_forward_table[];
#define ZC_FUNCTION(name, params) ZC_EXPORT_INDEX_##name,
enum zc_export_index {
#include "exports.inc"
};
#undef ZC_FUNCTION
/* NVIDIA's function NAME, once the process is handed to NVIDIA's driver. */
#define ZC_FORWARDED(name) ((__typeof__(&name))zc_forward_table[ZC_EXPORT_INDEX_##name])

#endif
