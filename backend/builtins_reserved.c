/* The reserved shared memory's start of block (ptx_frontend/lower_reserved.c), the same C
 * on every target. */
#include "builtins.h"

void __zc_reserved_smem_zero(uint32_t *region, uint32_t words)
{
	uint32_t nx = __zc_ntid_x(), ny = __zc_ntid_y();
	uint32_t thread = __zc_tid_x() + nx * (__zc_tid_y() + ny * __zc_tid_z());
	uint32_t threads = nx * ny * __zc_ntid_z();

	for (uint32_t i = thread; i < words; i += threads)
		region[i] = 0;
	__zc_bar_sync(0, 0);
}
