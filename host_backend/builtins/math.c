/* Host f32 math. The .approx forms are computed with libm (the code object links
 * libm.so.6): more accurate than PTX requires, which its error bounds allow. x86-64's
 * SSE division and square root are correctly rounded, so the .rn forms are plain C. */
#include "host.h"

float sinf(float);
float cosf(float);
float log2f(float);
float exp2f(float);
float tanhf(float);

float __zc_sin_approx_f32(float x) { return sinf(x); }
float __zc_cos_approx_f32(float x) { return cosf(x); }
float __zc_lg2_approx_f32(float x) { return log2f(x); }
float __zc_ex2_approx_f32(float x) { return exp2f(x); }
float __zc_rcp_approx_f32(float x) { return 1.0f / x; }
float __zc_rsqrt_approx_f32(float x) { return 1.0f / __builtin_sqrtf(x); }
float __zc_sqrt_approx_f32(float x) { return __builtin_sqrtf(x); }
float __zc_tanh_approx_f32(float x) { return tanhf(x); }

double __zc_rcp_approx_f64(double x) { return 1.0 / x; }
double __zc_rsqrt_approx_f64(double x) { return 1.0 / __builtin_sqrt(x); }

float __zc_div_rn_f32(float a, float b) { return a / b; }
float __zc_sqrt_rn_f32(float x) { return __builtin_sqrtf(x); }
float __zc_rcp_rn_f32(float x) { return 1.0f / x; }
