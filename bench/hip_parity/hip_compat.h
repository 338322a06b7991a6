/* What HIP's headers would give bench/hip_parity/kernels.cu, written for the HIP parity
 * benchmark so that clang-22 compiles the same CUDA source as HIP device code without ROCm:
 *
 *   clang-22 -x hip --offload-arch=gfx1100 --cuda-device-only --no-gpu-bundle-output \
 *       -nogpuinc -nogpulib -mcode-object-version=5 -O3 -include hip_compat.h kernels.cu
 *
 * It is the reference side of the comparison, so it is meant to be neither better nor worse
 * than a HIP port: each definition is the builtin or the short sequence HIP's own headers
 * reach (through the device libraries where HIP calls them), not a form tuned to win. Where
 * the device libraries would call a long routine this header cannot link (tanhf), it has a
 * short formula of similar accuracy, said so where it is defined.
 *
 * clang links the device code into a loadable code object itself (no -fgpu-rdc, no separate
 * lld step). -mcode-object-version=5 because clang-22 defaults to v6 and the converter writes
 * v5; the implicit arguments read below are laid out the same in both.
 *
 * Wave32 throughout: the converter runs every processor in wave32, and the kernels never
 * assume 64 lanes. */
#ifndef ZC_HIP_COMPAT_H
#define ZC_HIP_COMPAT_H

#if !defined(__HIP__) || !defined(__HIP_DEVICE_COMPILE__)
#error "hip_compat.h is for clang -x hip --cuda-device-only"
#endif

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(n) __attribute__((amdgpu_flat_work_group_size(1, n)))
#define __restrict__ __restrict

#define warpSize 32

typedef __SIZE_TYPE__ size_t;

struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };
struct __attribute__((aligned(8))) float2 { float x, y; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };

static __device__ __forceinline__ float2 make_float2(float x, float y) { return float2{x, y}; }
static __device__ __forceinline__ float4 make_float4(float x, float y, float z, float w)
{
	return float4{x, y, z, w};
}

/* The built-in variables. HIP's headers read them through properties that call these same
 * builtins; a function returning all three components compiles to the same code, since the
 * components a kernel does not read are dead loads. The sizes come from code object v5's
 * implicit arguments (hidden_block_count_* at 0, 4, 8; hidden_group_size_* at 12, 14, 16),
 * which is where HIP reads them too. */
static __device__ __forceinline__ uint3 __zc_thread_idx(void)
{
	return uint3{__builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(),
	             __builtin_amdgcn_workitem_id_z()};
}
static __device__ __forceinline__ uint3 __zc_block_idx(void)
{
	return uint3{__builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(),
	             __builtin_amdgcn_workgroup_id_z()};
}
static __device__ __forceinline__ dim3 __zc_block_dim(void)
{
	return dim3{__builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(),
	            __builtin_amdgcn_workgroup_size_z()};
}
static __device__ __forceinline__ dim3 __zc_grid_dim(void)
{
	const unsigned *implicit = (const unsigned *)__builtin_amdgcn_implicitarg_ptr();
	return dim3{implicit[0], implicit[1], implicit[2]};
}
#define threadIdx (__zc_thread_idx())
#define blockIdx (__zc_block_idx())
#define blockDim (__zc_block_dim())
#define gridDim (__zc_grid_dim())

/* HIP's __syncthreads: the workgroup barrier between a release and an acquire fence, so that
 * LDS and global writes before it are seen after it. */
static __device__ __forceinline__ void __syncthreads(void)
{
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
static __device__ __forceinline__ void __threadfence(void)
{
	__builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
}

/* Warp shuffles: ds_bpermute with the lane computed as HIP's headers compute it (width a
 * power of two up to 32; a source outside the lane's segment gives the lane its own value).
 * The _sync forms ignore the mask, as HIP's do: a wave's lanes run in lockstep. */
static __device__ __forceinline__ int __zc_lane_id(void)
{
	return __builtin_amdgcn_mbcnt_lo(~0u, 0u);
}
static __device__ __forceinline__ int __shfl_sync(unsigned mask, int var, int src, int width = 32)
{
	(void)mask;
	int self = __zc_lane_id();
	int index = src + (self & ~(width - 1));
	return __builtin_amdgcn_ds_bpermute(index << 2, var);
}
static __device__ __forceinline__ int __shfl_down_sync(unsigned mask, int var, unsigned delta,
                                                       int width = 32)
{
	(void)mask;
	int self = __zc_lane_id();
	int index = self + (int)delta;
	index = (int)((self & (width - 1)) + delta) >= width ? self : index;
	return __builtin_amdgcn_ds_bpermute(index << 2, var);
}
static __device__ __forceinline__ int __shfl_up_sync(unsigned mask, int var, unsigned delta,
                                                     int width = 32)
{
	(void)mask;
	int self = __zc_lane_id();
	int index = self - (int)delta;
	index = index < (self & ~(width - 1)) ? self : index;
	return __builtin_amdgcn_ds_bpermute(index << 2, var);
}
static __device__ __forceinline__ int __shfl_xor_sync(unsigned mask, int var, int lane_mask,
                                                      int width = 32)
{
	(void)mask;
	int self = __zc_lane_id();
	int index = self ^ lane_mask;
	index = index >= ((self + width) & ~(width - 1)) ? self : index;
	return __builtin_amdgcn_ds_bpermute(index << 2, var);
}
/* A float moves as its bits. */
#define __ZC_SHFL_FLOAT(name, lane_type) \
	static __device__ __forceinline__ float name(unsigned mask, float var, lane_type lane, int width = 32) \
	{ \
		return __builtin_bit_cast(float, name(mask, __builtin_bit_cast(int, var), lane, width)); \
	}
__ZC_SHFL_FLOAT(__shfl_sync, int)
__ZC_SHFL_FLOAT(__shfl_down_sync, unsigned)
__ZC_SHFL_FLOAT(__shfl_up_sync, unsigned)
__ZC_SHFL_FLOAT(__shfl_xor_sync, int)
#undef __ZC_SHFL_FLOAT
/* A double moves as its two halves, as in HIP. */
static __device__ __forceinline__ double __shfl_down_sync(unsigned mask, double var, unsigned delta,
                                                          int width = 32)
{
	unsigned long long bits = __builtin_bit_cast(unsigned long long, var);
	int lo = __shfl_down_sync(mask, (int)bits, delta, width);
	int hi = __shfl_down_sync(mask, (int)(bits >> 32), delta, width);
	return __builtin_bit_cast(double, (unsigned long long)(unsigned)lo |
	                                  (unsigned long long)(unsigned)hi << 32);
}

/* Atomics: HIP's are relaxed, at agent scope for global memory (a pointer into LDS is
 * recognised by the backend from its address space after inlining). */
#define __ZC_ATOMIC(name, op, type)                                                          \
	static __device__ __forceinline__ type name(type *address, type value)               \
	{                                                                                     \
		return __hip_atomic_##op(address, value, __ATOMIC_RELAXED,                     \
		                         __HIP_MEMORY_SCOPE_AGENT);                            \
	}
__ZC_ATOMIC(atomicAdd, fetch_add, int)
__ZC_ATOMIC(atomicAdd, fetch_add, unsigned)
__ZC_ATOMIC(atomicAdd, fetch_add, unsigned long long)
__ZC_ATOMIC(atomicAdd, fetch_add, float)
__ZC_ATOMIC(atomicAdd, fetch_add, double)
__ZC_ATOMIC(atomicMin, fetch_min, int)
__ZC_ATOMIC(atomicMax, fetch_max, int)
__ZC_ATOMIC(atomicOr, fetch_or, unsigned)
__ZC_ATOMIC(atomicExch, exchange, int)
#undef __ZC_ATOMIC
static __device__ __forceinline__ int atomicCAS(int *address, int compare, int value)
{
	__hip_atomic_compare_exchange_strong(address, &compare, value, __ATOMIC_RELAXED,
	                                     __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
	return compare;
}

/* Math. Without -ffast-math these are LLVM's intrinsics, which the AMDGPU backend expands to
 * the same sequences the device libraries use (the libraries call the same intrinsics for
 * exp, log and sqrt in single precision); with it, clang marks them afn and the backend takes
 * the fast forms, as HIP's fast-math build does. */
static __device__ __forceinline__ float expf(float x) { return __builtin_expf(x); }
static __device__ __forceinline__ float exp2f(float x) { return __builtin_exp2f(x); }
static __device__ __forceinline__ float logf(float x) { return __builtin_logf(x); }
static __device__ __forceinline__ float sqrtf(float x) { return __builtin_sqrtf(x); }
static __device__ __forceinline__ float fabsf(float x) { return __builtin_fabsf(x); }
static __device__ __forceinline__ float fmaxf(float x, float y) { return __builtin_fmaxf(x, y); }
static __device__ __forceinline__ float fminf(float x, float y) { return __builtin_fminf(x, y); }
static __device__ __forceinline__ float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
static __device__ __forceinline__ int min(int x, int y) { return x < y ? x : y; }
static __device__ __forceinline__ int max(int x, int y) { return x > y ? x : y; }
static __device__ __forceinline__ double sqrt(double x) { return __builtin_sqrt(x); }
static __device__ __forceinline__ double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
static __device__ __forceinline__ double fabs(double x) { return __builtin_fabs(x); }
/* The device libraries' rsqrt in single precision is the hardware's (1 ulp), as is CUDA's
 * rsqrtf (2 ulp). */
static __device__ __forceinline__ float rsqrtf(float x) { return __builtin_amdgcn_rsqf(x); }
/* CUDA's intrinsics: HIP maps __expf to the native exponential (v_exp_f32 of x log2 e) and
 * __fdividef to a multiply by the reciprocal. */
static __device__ __forceinline__ float __expf(float x)
{
	return __builtin_amdgcn_exp2f(x * 1.44269504f);
}
static __device__ __forceinline__ float __fdividef(float x, float y)
{
	return x * __builtin_amdgcn_rcpf(y);
}
/* tanhf: the device libraries have a longer routine (a polynomial near 0, exp further out);
 * this is the same split in short: the Taylor series to x^13 below |x| = 0.4 (its first term
 * left out is under 1e-8 relative there), sign(x) (1 - 2 / (e^{2|x|} + 1)) above. */
static __device__ __forceinline__ float tanhf(float x)
{
	float a = __builtin_fabsf(x);
	if (a < 0.4f) {
		float s = x * x;
		float p = __builtin_fmaf(s, 0.00359212803f, -0.00886323552f);
		p = __builtin_fmaf(s, p, 0.0218694885f);
		p = __builtin_fmaf(s, p, -0.0539682540f);
		p = __builtin_fmaf(s, p, 0.133333333f);
		p = __builtin_fmaf(s, p, -0.333333333f);
		return __builtin_fmaf(x * s, p, x);
	}
	float t = 1.f - 2.f / (__builtin_expf(2.f * a) + 1.f);
	return __builtin_copysignf(t, x);
}

/* Half precision, as much of cuda_fp16.h as the kernels use: __half is _Float16 and __half2 a
 * vector of two, so that the backend uses the packed instructions as it does for HIP's
 * types. */
typedef _Float16 __half;
typedef _Float16 __half2 __attribute__((ext_vector_type(2)));
static __device__ __forceinline__ __half __float2half(float x) { return (__half)x; }
static __device__ __forceinline__ float __half2float(__half x) { return (float)x; }
static __device__ __forceinline__ __half2 __float2half2_rn(float x) { return __half2{(__half)x, (__half)x}; }
static __device__ __forceinline__ __half2 __floats2half2_rn(float x, float y)
{
	return __half2{(__half)x, (__half)y};
}
static __device__ __forceinline__ float __low2float(__half2 x) { return (float)x.x; }
static __device__ __forceinline__ float __high2float(__half2 x) { return (float)x.y; }
static __device__ __forceinline__ __half2 __hfma2(__half2 a, __half2 b, __half2 c)
{
	return __builtin_elementwise_fma(a, b, c);
}
static __device__ __forceinline__ __half2 __hmul2(__half2 a, __half2 b) { return a * b; }
static __device__ __forceinline__ __half2 __hadd2(__half2 a, __half2 b) { return a + b; }

/* __dp4a: the signed 4 x 8-bit dot product instruction where the processor has one:
 * v_dot4_i32_i8 on gfx1030, v_dot4_i32_iu8 with both operands signed on gfx11 and gfx12
 * (which lack the former); else four products. */
static __device__ __forceinline__ int __dp4a(int a, int b, int c)
{
#if defined(__gfx1030__)
	return __builtin_amdgcn_sdot4(a, b, c, false);
#elif defined(__gfx1100__) || defined(__gfx1200__)
	return __builtin_amdgcn_sudot4(true, a, true, b, c, false);
#else
	for (int i = 0; i < 32; i += 8)
		c += (int)(signed char)(a >> i) * (int)(signed char)(b >> i);
	return c;
#endif
}

/* nvcuda::wmma for m16n16k16 with f16 inputs and f32 accumulators, what rocWMMA would give a
 * HIP port: the WMMA instruction on RDNA3 and RDNA4, each with its own register layout, and
 * on RDNA2 (no WMMA) the same RDNA3 layout multiplied with shuffles and multiply-adds, one
 * lane per element of C as the portable lowering does.
 *
 * Layouts (lane l, r = l & 15, h = l >> 4):
 *   gfx11: A holds row r, k = 0..15; B holds column r, k = 0..15 (both halves of the wave
 *          the same); C holds column r, rows 2 i + h, i = 0..7.
 *   gfx12: A holds row r, k = 8 h + 0..7; B holds column r, k = 8 h + 0..7; C holds
 *          column r, rows 8 h + i. */
namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

#if defined(__gfx1200__)
enum { __zc_ab_elements = 8 };
#else
enum { __zc_ab_elements = 16 };
#endif
typedef _Float16 __zc_ab_t __attribute__((ext_vector_type(__zc_ab_elements)));
typedef float __zc_c_t __attribute__((ext_vector_type(8)));

template <typename Use, int M, int N, int K, typename T, typename Layout = void> struct fragment;
template <typename Layout> struct fragment<matrix_a, 16, 16, 16, __half, Layout> {
	__zc_ab_t x;
};
template <typename Layout> struct fragment<matrix_b, 16, 16, 16, __half, Layout> {
	__zc_ab_t x;
};
template <> struct fragment<accumulator, 16, 16, 16, float, void> {
	__zc_c_t x;
};

static __device__ __forceinline__ int __zc_k_first(void)
{
#if defined(__gfx1200__)
	return (__zc_lane_id() >> 4) * 8;
#else
	return 0;
#endif
}
static __device__ __forceinline__ int __zc_c_row(int i)
{
#if defined(__gfx1200__)
	return (__zc_lane_id() >> 4) * 8 + i;
#else
	return 2 * i + (__zc_lane_id() >> 4);
#endif
}

/* A by rows: lane r reads along row r. */
static __device__ __forceinline__ void
load_matrix_sync(fragment<matrix_a, 16, 16, 16, __half, row_major> &f, const __half *p, unsigned ld)
{
	int r = __zc_lane_id() & 15, k0 = __zc_k_first();
	for (int k = 0; k < __zc_ab_elements; k++)
		f.x[k] = p[r * ld + k0 + k];
}
/* B by columns in a row-major matrix: lane r reads down column r. */
static __device__ __forceinline__ void
load_matrix_sync(fragment<matrix_b, 16, 16, 16, __half, row_major> &f, const __half *p, unsigned ld)
{
	int c = __zc_lane_id() & 15, k0 = __zc_k_first();
	for (int k = 0; k < __zc_ab_elements; k++)
		f.x[k] = p[(k0 + k) * ld + c];
}
static __device__ __forceinline__ void
fill_fragment(fragment<accumulator, 16, 16, 16, float, void> &f, float v)
{
	for (int i = 0; i < 8; i++)
		f.x[i] = v;
}
static __device__ __forceinline__ void
store_matrix_sync(float *p, const fragment<accumulator, 16, 16, 16, float, void> &f, unsigned ld,
                  layout_t layout)
{
	int c = __zc_lane_id() & 15;
	for (int i = 0; i < 8; i++) {
		int r = __zc_c_row(i);
		if (layout == mem_row_major)
			p[r * ld + c] = f.x[i];
		else
			p[c * ld + r] = f.x[i];
	}
}
template <typename LA, typename LB>
static __device__ __forceinline__ void
mma_sync(fragment<accumulator, 16, 16, 16, float, void> &d,
         const fragment<matrix_a, 16, 16, 16, __half, LA> &a,
         const fragment<matrix_b, 16, 16, 16, __half, LB> &b,
         const fragment<accumulator, 16, 16, 16, float, void> &c)
{
#if defined(__gfx1100__)
	d.x = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a.x, b.x, c.x);
#elif defined(__gfx1200__)
	d.x = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(a.x, b.x, c.x);
#else
	/* Row 2 i + h of A lives in lanes 2 i + h and 2 i + h + 16: fetch its k-th element
	 * (two at a time, as one 32-bit shuffle) from there. */
	int h = __zc_lane_id() >> 4;
	__zc_c_t acc = c.x;
	for (int k = 0; k < 16; k += 2) {
		int pair = __builtin_bit_cast(int, __half2{a.x[k], a.x[k + 1]});
		for (int i = 0; i < 8; i++) {
			int got = __builtin_amdgcn_ds_bpermute((2 * i + h) << 2, pair);
			__half2 av = __builtin_bit_cast(__half2, got);
			acc[i] = __builtin_fmaf((float)av.x, (float)b.x[k], acc[i]);
			acc[i] = __builtin_fmaf((float)av.y, (float)b.x[k + 1], acc[i]);
		}
	}
	d.x = acc;
#endif
}
}  /* namespace wmma */
}  /* namespace nvcuda */

#endif
