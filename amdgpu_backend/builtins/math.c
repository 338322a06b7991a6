/* AMDGPU approximate and correctly rounded f32 math. The approximations are the
 * hardware's transcendental instructions, which meet PTX's .approx error bounds. */
#include "amdgpu.h"

/* v_sin/v_cos take revolutions. */
float __zc_sin_approx_f32(float x) { return __builtin_amdgcn_sinf(x * 0.15915494309189535f); }
float __zc_cos_approx_f32(float x) { return __builtin_amdgcn_cosf(x * 0.15915494309189535f); }
float __zc_lg2_approx_f32(float x) { return __builtin_amdgcn_logf(x); }
float __zc_ex2_approx_f32(float x) { return __builtin_amdgcn_exp2f(x); }
float __zc_rcp_approx_f32(float x) { return __builtin_amdgcn_rcpf(x); }
float __zc_rsqrt_approx_f32(float x) { return __builtin_amdgcn_rsqf(x); }
float __zc_sqrt_approx_f32(float x) { return __builtin_amdgcn_sqrtf(x); }

/* No tanh instruction: tanh|x| = 1 - 2 / (2^(2|x| log2 e) + 1), sign restored.
 * Below |x| = 2^-5, tanh x = x within PTX's 2^-11 relative bound. */
float __zc_tanh_approx_f32(float x)
{
	float a = __builtin_fabsf(x);
	if (a < 0.03125f)
		return x;
	float e = __builtin_amdgcn_exp2f(a * 2.8853900817779268f);
	float t = 1.0f - 2.0f * __builtin_amdgcn_rcpf(e + 1.0f);
	return __builtin_copysignf(t, x);
}

double __zc_rcp_approx_f64(double x) { return __builtin_amdgcn_rcp(x); }
double __zc_rsqrt_approx_f64(double x) { return __builtin_amdgcn_rsq(x); }

/* LLVM lowers plain fdiv and llvm.sqrt.f32 (no !fpmath) to correctly rounded sequences. */
float __zc_div_rn_f32(float a, float b) { return a / b; }
float __zc_sqrt_rn_f32(float x) { return __builtin_sqrtf(x); }
float __zc_rcp_rn_f32(float x) { return 1.0f / x; }
