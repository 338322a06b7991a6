/* The exports layer's own interface: which driver the process runs on (entry.c), and the
 * hand-over of every entry point to NVIDIA's driver (nvidia_driver.c fills the table that
 * forward.S's entry points jump through). That hand-over is not a driver behind driver.h:
 * it replaces the stub as a whole, so it lives with the entry points. */
#ifndef ZC_FORWARD_H
#define ZC_FORWARD_H

#include <stdbool.h>
#include <stddef.h>

#include "api.h"

/* nvidia_driver.c: hands the process to NVIDIA's driver (forward.S's entry points jump to
 * it from then on); FOUND receives its path. NO_DEVICE when it is absent or finds no GPU. */
CUresult zc_cuda_forward(char *found, size_t found_size);
/* entry.c: chooses the process's driver once; true when it is NVIDIA's. */
bool zc_select_driver(void);

/* Indexed as exports.inc lists the functions. */
extern void *zc_forward_table[];
#define ZC_FUNCTION(name, params) ZC_EXPORT_INDEX_##name,
enum zc_export_index {
#include "exports.inc"
};
#undef ZC_FUNCTION
/* NVIDIA's function NAME, once the process is handed to NVIDIA's driver. */
#define ZC_FORWARDED(name) ((__typeof__(&name))zc_forward_table[ZC_EXPORT_INDEX_##name])

#endif
