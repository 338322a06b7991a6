/* The project's cuBLAS: what its host files share. It talks to the CUDA driver as any
 * program does (cuda.h), and takes its types from NVIDIA's headers so that each function is
 * compiled against the prototype programs call. */
#ifndef ZC_BLAS_H
#define ZC_BLAS_H

/* Before NVIDIA's headers: the exported names become the implementations'. */
#include "replacement_rename.h"

#include <cuda.h>
#include <cublas_v2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blas_args.h"
#include "engine.h"

struct cublasContext {
	uint32_t magic; /* BLAS_HANDLE_MAGIC: made here, not by NVIDIA's cuBLAS */
	CUcontext context;
	CUmodule module;
	CUstream stream;
	cublasPointerMode_t pointer_mode;
	cublasMath_t math_mode;
	cublasAtomicsMode_t atomics_mode;
	CUdeviceptr scratch; /* reductions' results in host pointer mode, trmv's copy */
	size_t scratch_size;
	void *amd; /* rocBLAS's handle when AMD's rocBLAS takes routines (rocblas.c), else NULL */
	/* CUDA 13's settings, kept for their getters */
	int emulation_strategy, special_values, mantissa_control, max_mantissa_bits;
	int mantissa_bit_offset, sm_count_target;
	int *mantissa_bit_count;
};

#define BLAS_HANDLE_MAGIC 0x5a43424cu

/* NVIDIA declares the half forms for C++ only; a half is its 16 bits here. */
cublasStatus_t cublasHgemm(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                           const uint16_t *, const uint16_t *, int, const uint16_t *, int,
                           const uint16_t *, uint16_t *, int);
cublasStatus_t cublasHgemmBatched(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                  int, const uint16_t *, const uint16_t *const[], int,
                                  const uint16_t *const[], int, const uint16_t *,
                                  uint16_t *const[], int, int);
cublasStatus_t cublasHgemmStridedBatched(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                         int, int, int, const uint16_t *, const uint16_t *, int,
                                         long long, const uint16_t *, int, long long,
                                         const uint16_t *, uint16_t *, int, long long, int);
#define ZC_HALF_GEMV_BATCHED(P, TY)                                                              \
	cublasStatus_t cublas##P##gemvBatched(cublasHandle_t, cublasOperation_t, int, int,          \
	                                      const float *, const uint16_t *const[], int,          \
	                                      const uint16_t *const[], int, const float *,          \
	                                      TY *const[], int, int);                               \
	cublasStatus_t cublas##P##gemvStridedBatched(cublasHandle_t, cublasOperation_t, int, int,   \
	                                             const float *, const uint16_t *, int, long long, \
	                                             const uint16_t *, int, long long, const float *, \
	                                             TY *, int, long long, int);
ZC_HALF_GEMV_BATCHED(HSH, uint16_t)
ZC_HALF_GEMV_BATCHED(HSS, float)
ZC_HALF_GEMV_BATCHED(TST, uint16_t)
ZC_HALF_GEMV_BATCHED(TSS, float)

/* The funnel of failures: the status, with the routine and why traced when
 * ZLUDA_CONVERT_TRACE is set. */
cublasStatus_t blas_fail(cublasStatus_t status, const char *routine, const char *fmt, ...)
	__attribute__((format(ZC_PRINTF_FORMAT, 3, 4)));

/* A context for the kernels (the current CUDA context, or the first device's primary one,
 * the kernels loaded), and its end. */
cublasStatus_t blas_context_init(struct cublasContext *h, const char *routine);
void blas_context_fini(struct cublasContext *h);

const char *blas_status_name(cublasStatus_t status);
const char *blas_status_string(cublasStatus_t status);

/* Checks a handle and makes its context current; the routine's name for the trace. */
cublasStatus_t blas_begin(cublasHandle_t h, const char *routine);

/* A scalar argument the library must read itself (her2 and her2k need conj(alpha), herkx
 * a real beta made complex): from the device, once the stream's work is done, in device
 * pointer mode. */
cublasStatus_t blas_host_scalar(cublasHandle_t h, const char *routine, const void *p,
                                void *value, size_t size);

/* A scalar argument of SIZE bytes as the handle's pointer mode passes it. */
struct zc_scalar blas_scalar(cublasHandle_t h, const void *p, size_t size);

/* Launches KERNEL of the handle's module on its stream with one argument structure. */
cublasStatus_t blas_launch(cublasHandle_t h, const char *kernel, unsigned grid_x, unsigned grid_y,
                           unsigned grid_z, unsigned block_x, const void *args);

/* At least SIZE bytes of device memory owned by the handle, after the stream's work that may
 * still use the old one. */
cublasStatus_t blas_scratch(cublasHandle_t h, size_t size, CUdeviceptr *out);

/* A reduction's result: where its kernel writes it, and then where the caller wants it
 * (copied there after the kernel when the pointer mode is host). */
cublasStatus_t blas_result_begin(cublasHandle_t h, void *result, void **target);
cublasStatus_t blas_result_end(cublasHandle_t h, void *result, const void *target, size_t size);

/* The release whose API the library follows, by the major version it is built as. */
#if ZC_CUBLAS_MAJOR == 11
#define BLAS_VERSION_MINOR 11
#define BLAS_VERSION_PATCH 3
#elif ZC_CUBLAS_MAJOR == 12
#define BLAS_VERSION_MINOR 9
#define BLAS_VERSION_PATCH 1
#else
#define BLAS_VERSION_MINOR CUBLAS_VER_MINOR
#define BLAS_VERSION_PATCH CUBLAS_VER_PATCH
#endif
#define BLAS_VERSION (ZC_CUBLAS_MAJOR * 10000 + BLAS_VERSION_MINOR * 100 + BLAS_VERSION_PATCH)

/* cublasGetProperty and cublasLtGetProperty. */
cublasStatus_t blas_property(const char *routine, libraryPropertyType type, int *value);

/* The size of one element of a cudaDataType (the complex ones a pair of their reals). */
size_t blas_data_size(cudaDataType t);

/* The element and scale types, each with its size and kernel suffix. */
enum blas_type { BLAS_S, BLAS_D, BLAS_C, BLAS_Z };
size_t blas_size(enum blas_type t);
const char *blas_suffix(enum blas_type t);

/* A scalar the library passes itself (0 or 1 of a type), whatever the pointer mode. */
struct zc_scalar blas_value(int value, enum blas_type t);

/* A matrix operand; a vector is an n x 1 one with inc its increment (negative ones count
 * from the end, as BLAS's do), ld unused. */
struct zc_matrix blas_matrix(const void *data, int64_t ld, cublasOperation_t op);
struct zc_matrix blas_vector(const void *data, int64_t n, int64_t inc, size_t size);

int32_t blas_op(cublasOperation_t op);

/* The blocks covering N items, BLOCK a block, capped at what a grid dimension holds. */
unsigned blas_blocks(int64_t n, unsigned block);

/* The gemm kernel for A and B of type AB and C of type C computed in COMPUTE (as
 * cublasGemmEx names them), and the size of its scalars; NULL for a combination not
 * provided. */
const char *blas_ex_kernel(cudaDataType ab, cudaDataType c, int compute, size_t *scale_size);

/* C = alpha op(A) op(B) + beta C over a fill triangle by the gemm kernel NAME. */
cublasStatus_t blas_gemm(cublasHandle_t h, const char *name, struct zc_gemm_args *g);

#endif
