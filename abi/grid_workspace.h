/* Grid-wide synchronisation (cooperative_groups' grid.sync() after a cooperative launch) on
 * every target. CUDA's headers find the driver's grid workspace through %envreg1 (high
 * half) and %envreg2 (low half) and count arrivals in its barrier word. A module that reads
 * them defines the 64-bit variable ZC_GRID_WORKSPACE_SYMBOL (ptx_frontend/lower.c), and the
 * stub points it at a workspace of the device when it loads the code object (0: grid.sync()
 * traps, as cooperative_groups does for a grid that is not valid). One workspace per device
 * serves every cooperative grid: its barrier counts back to where it started at each
 * completed sync, so grids that follow each other share it, and the stub makes the grids of
 * a device follow each other (runtime_stub/api/launch.c). Plain C, shared by the lowering and
 * the stub's drivers. */
#ifndef ZC_GRID_WORKSPACE_H
#define ZC_GRID_WORKSPACE_H

#include <stdint.h>

#define ZC_GRID_WORKSPACE_SYMBOL "zluda_convert_grid_workspace"

/* cooperative_groups' details::grid_workspace */
struct zc_grid_workspace {
	uint32_t size;  /* of this struct */
	uint32_t barrier;
};

#endif
