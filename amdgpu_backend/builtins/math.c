/* AMDGPU approximate and correctly rounded f32 math. The approximations are the
 * hardware's transcendental instructions, which meet PTX's .approx error bounds. */
#include "amdgpu.h"

/* v_sin/v_cos take revolutions. x / 2pi rounded to f32 is off by up to half an ulp of the
 * revolutions, which past |x| = 8 exceeds PTX's 2^-20.5 bound over |x| <= 100 pi (the
 * sweeps on the emulator showed 2^-20.4 at x = 10.7): the product is kept in two parts and
 * only its fraction, exact, goes to the instruction with the low part added. */
static float zc_revolutions(float x)
{
	const float hi = 0.15915493667125702f, lo = 6.4206382432985265e-09f;  /* 1/2pi = hi + lo */
	float r = x * hi;
	float err = __builtin_fmaf(x, hi, -r) + x * lo;
	float revolutions = (r - __builtin_rintf(r)) + err;
	return x == 0.0f ? x : revolutions;  /* sin(-0) is -0 */
}

float __zc_sin_approx_f32(float x) { return __builtin_amdgcn_sinf(zc_revolutions(x)); }
float __zc_cos_approx_f32(float x) { return __builtin_amdgcn_cosf(zc_revolutions(x)); }
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

/* Directed rounding: s_round_mode sets the MODE register's f32 rounding (bits 1:0) and its
 * f64/f16 one (bits 3:2) to 1 (toward +inf), 2 (toward -inf) or 3 (toward zero) for the one
 * instruction, and back to round to nearest, in one asm statement so that nothing the
 * compiler schedules runs in between. Division and square root are sequences here and keep
 * the lowering's construction. */
#define ZC_ROUNDED(mode, insn) "s_round_mode " mode "\n\t" insn "\n\ts_round_mode 0x0"
#define ZC_ROUNDED_ARITHMETIC(type, suffix, name, mode) \
	type __zc_add_##name##_##suffix(type a, type b) \
	{ type r; __asm__(ZC_ROUNDED(mode, "v_add_" #suffix " %0, %1, %2") : "=v"(r) : "v"(a), "v"(b)); return r; } \
	type __zc_mul_##name##_##suffix(type a, type b) \
	{ type r; __asm__(ZC_ROUNDED(mode, "v_mul_" #suffix " %0, %1, %2") : "=v"(r) : "v"(a), "v"(b)); return r; } \
	type __zc_fma_##name##_##suffix(type a, type b, type c) \
	{ type r; __asm__(ZC_ROUNDED(mode, "v_fma_" #suffix " %0, %1, %2, %3") : "=v"(r) : "v"(a), "v"(b), "v"(c)); return r; }
#define ZC_ROUNDED_CONVERSION(name, mode, from, source, insn) \
	float __zc_cvt_##name##_f32_##from(source v) \
	{ float r; __asm__(ZC_ROUNDED(mode, insn " %0, %1") : "=v"(r) : "v"(v)); return r; }
#define ZC_DIRECTED(name, mode) \
	ZC_ROUNDED_ARITHMETIC(float, f32, name, mode) \
	ZC_ROUNDED_ARITHMETIC(double, f64, name, mode) \
	ZC_ROUNDED_CONVERSION(name, mode, s32, int32_t, "v_cvt_f32_i32") \
	ZC_ROUNDED_CONVERSION(name, mode, u32, uint32_t, "v_cvt_f32_u32") \
	ZC_ROUNDED_CONVERSION(name, mode, f64, double, "v_cvt_f32_f64")
ZC_DIRECTED(rz, "0xf")
ZC_DIRECTED(rm, "0xa")
ZC_DIRECTED(rp, "0x5")

/* LLVM lowers plain fdiv and llvm.sqrt.f32 (no !fpmath) to correctly rounded sequences. */
float __zc_div_rn_f32(float a, float b) { return a / b; }
float __zc_sqrt_rn_f32(float x) { return __builtin_sqrtf(x); }
float __zc_rcp_rn_f32(float x) { return 1.0f / x; }
