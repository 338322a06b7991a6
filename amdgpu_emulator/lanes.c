/* Lane loops that exec_float.c calls rather than contains: built without -frounding-math,
 * since GCC vectorises no fmaf and no sqrtf under it. They run in the rounding mode the
 * caller set (the vector instructions read it as the scalar ones do), and as calls into
 * another file they cannot be moved across the caller's fesetround. */
#include <math.h>

#include "emu.h"
#include "fp.h"

LANE_LOOPS void emu_fma32_lanes(float *restrict v, const float *restrict x, const float *restrict y,
                                const float *restrict z)
{
	for (int l = 0; l < LANES; l++)
		v[l] = fmaf(x[l], y[l], z[l]);
}

/* v_sqrt_f32 and v_rsq_f32, as unary32 (exec_float.c) computes them. */
LANE_LOOPS void emu_sqrt32_lanes(float *restrict v, const float *restrict x)
{
	for (int l = 0; l < LANES; l++)
		v[l] = sqrtf(x[l]);
}

LANE_LOOPS void emu_rsq32_lanes(float *restrict v, const float *restrict x)
{
	for (int l = 0; l < LANES; l++)
		v[l] = 1.0f / sqrtf(x[l]);
}
