/* What every routine of cuBLAS and cuBLASLt shares: the context their kernels run in,
 * errors and tracing, scalars, results, scratch memory, launches, status names. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"


cublasStatus_t blas_fail(cublasStatus_t status, const char *routine, const char *fmt, ...)
{
	if (zc_engine_tracing()) {
		va_list ap;
		va_start(ap, fmt);
		zc_engine_vtrace(routine, fmt, ap, blas_status_name(status));
		va_end(ap);
	}
	return status;
}

cublasStatus_t blas_begin(cublasHandle_t h, const char *routine)
{
	CUcontext current = NULL;

	if (!h)
		return blas_fail(CUBLAS_STATUS_NOT_INITIALIZED, routine, "no handle");
	if (h->magic != BLAS_HANDLE_MAGIC)
		return blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, routine,
		                 "a handle of NVIDIA's cuBLAS, which lacks the routine");
	/* A thread that has not used the runtime yet has no current context. */
	if (cuCtxGetCurrent(&current) == CUDA_SUCCESS && !current)
		cuCtxSetCurrent(h->context);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t blas_host_scalar(cublasHandle_t h, const char *routine, const void *p,
                                void *value, size_t size)
{
	if (!p)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, "NULL scalar");
	if (h->pointer_mode == CUBLAS_POINTER_MODE_HOST) {
		memcpy(value, p, size);
		return CUBLAS_STATUS_SUCCESS;
	}
	if (cuStreamSynchronize(h->stream) != CUDA_SUCCESS ||
	    cuMemcpyDtoH(value, (CUdeviceptr)(uintptr_t)p, size) != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_EXECUTION_FAILED, routine, "cannot read a scalar");
	return CUBLAS_STATUS_SUCCESS;
}

struct zc_scalar blas_scalar(cublasHandle_t h, const void *p, size_t size)
{
	struct zc_scalar s = {{0}, NULL};

	if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE)
		s.device = p;
	else
		memcpy(s.value, p, size);
	return s;
}

cublasStatus_t blas_launch(cublasHandle_t h, const char *kernel, unsigned grid_x, unsigned grid_y,
                           unsigned grid_z, unsigned block_x, const void *args)
{
	CUresult r = zc_kernels_launch(h->module, kernel, grid_x, grid_y, grid_z, block_x, h->stream,
	                               args);

	if (r != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_EXECUTION_FAILED, kernel, "launch failed (error %d)", r);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t blas_scratch(cublasHandle_t h, size_t size, CUdeviceptr *out)
{
	if (size > h->scratch_size) {
		CUdeviceptr p;
		if (cuStreamSynchronize(h->stream) != CUDA_SUCCESS)
			return blas_fail(CUBLAS_STATUS_EXECUTION_FAILED, "scratch", "stream failed");
		if (cuMemAlloc(&p, size) != CUDA_SUCCESS)
			return blas_fail(CUBLAS_STATUS_ALLOC_FAILED, "scratch", "%zu bytes", size);
		if (h->scratch)
			cuMemFree(h->scratch);
		h->scratch = p;
		h->scratch_size = size;
	}
	*out = h->scratch;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t blas_result_begin(cublasHandle_t h, void *result, void **target)
{
	CUdeviceptr p = 0;
	cublasStatus_t s;

	if (!result)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, "result", "NULL result pointer");
	if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE) {
		*target = result;
		return CUBLAS_STATUS_SUCCESS;
	}
	if ((s = blas_scratch(h, 64, &p)) != CUBLAS_STATUS_SUCCESS)
		return s;
	*target = (void *)(uintptr_t)p;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t blas_result_end(cublasHandle_t h, void *result, const void *target, size_t size)
{
	if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE)
		return CUBLAS_STATUS_SUCCESS;
	if (cuMemcpyDtoHAsync(result, (CUdeviceptr)(uintptr_t)target, size, h->stream) != CUDA_SUCCESS ||
	    cuStreamSynchronize(h->stream) != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_EXECUTION_FAILED, "result", "copy to the host failed");
	return CUBLAS_STATUS_SUCCESS;
}

int32_t blas_op(cublasOperation_t op)
{
	return op == CUBLAS_OP_N ? ZC_OP_N : op == CUBLAS_OP_T ? ZC_OP_T : ZC_OP_C;
}

struct zc_matrix blas_matrix(const void *data, int64_t ld, cublasOperation_t op)
{
	struct zc_matrix m = {.data = data, .inc = 1, .ld = ld, .op = blas_op(op)};
	return m;
}

struct zc_matrix blas_vector(const void *data, int64_t n, int64_t inc, size_t size)
{
	const char *first = (const char *)data + (data && inc < 0 && n > 0 ? (n - 1) * -inc * (int64_t)size : 0);
	struct zc_matrix m = {.data = first, .inc = inc, .ld = 1, .op = ZC_OP_N};
	return m;
}

size_t blas_data_size(cudaDataType t)
{
	switch (t) {
	case CUDA_R_8I: case CUDA_R_8U: return 1;
	case CUDA_R_16F: case CUDA_R_16BF: case CUDA_C_8I: case CUDA_C_8U: return 2;
	case CUDA_R_32F: case CUDA_R_32I: case CUDA_R_32U: case CUDA_C_16F: case CUDA_C_16BF: return 4;
	case CUDA_R_64F: case CUDA_C_32F: case CUDA_C_32I: case CUDA_C_32U: return 8;
	default: return 16;
	}
}

size_t blas_size(enum blas_type t)
{
	static const size_t sizes[] = {4, 8, 8, 16};
	return sizes[t];
}

const char *blas_suffix(enum blas_type t)
{
	static const char *const suffixes[] = {"s", "d", "c", "z"};
	return suffixes[t];
}

struct zc_scalar blas_value(int value, enum blas_type t)
{
	struct zc_scalar s = {{0}, NULL};
	float f = (float)value;
	double d = value;

	if (t == BLAS_S || t == BLAS_C)
		memcpy(s.value, &f, sizeof(f));
	else
		memcpy(s.value, &d, sizeof(d));
	return s;
}

unsigned blas_blocks(int64_t n, unsigned block)
{
	int64_t blocks = (n + block - 1) / block;
	return blocks < 1 ? 1 : blocks > 65535 ? 65535 : (unsigned)blocks;
}

cublasStatus_t blas_gemm(cublasHandle_t h, const char *name, struct zc_gemm_args *g)
{
	char kernel[64];

	if (g->m == 0 || g->n == 0 || g->batch == 0)
		return CUBLAS_STATUS_SUCCESS;
	if (!g->d.data && !g->d.array)
		g->d = g->c;
	snprintf(kernel, sizeof(kernel), "zc_gemm_%s", name);
	/* 64 x 64 elements of D a block of 256 threads (blas_kernels.cu) */
	return blas_launch(h, kernel, blas_blocks(g->m, 64), blas_blocks(g->n, 64),
	                   g->batch > 65535 ? 65535 : (unsigned)g->batch, 256, g);
}

/* The kernel for gemmEx's types, and its scalars' size; NULL for a combination not
 * provided. Compute types as CUDA 10 named them (a cudaDataType) are taken as CUDA 11's. */
const char *blas_ex_kernel(cudaDataType ab, cudaDataType c, int compute, size_t *scale_size)
{
	switch (compute) {
	case CUDA_R_16F: compute = CUBLAS_COMPUTE_16F; break;
	case CUDA_R_32F: case CUDA_C_32F: compute = CUBLAS_COMPUTE_32F; break;
	case CUDA_R_64F: case CUDA_C_64F: compute = CUBLAS_COMPUTE_64F; break;
	case CUDA_R_32I: compute = CUBLAS_COMPUTE_32I; break;
	}
	bool f16 = compute == CUBLAS_COMPUTE_16F || compute == CUBLAS_COMPUTE_16F_PEDANTIC;
	bool f32 = compute == CUBLAS_COMPUTE_32F || compute == CUBLAS_COMPUTE_32F_PEDANTIC ||
	           compute == CUBLAS_COMPUTE_32F_FAST_16F || compute == CUBLAS_COMPUTE_32F_FAST_16BF ||
	           compute == CUBLAS_COMPUTE_32F_FAST_TF32;
	bool f64 = compute == CUBLAS_COMPUTE_64F || compute == CUBLAS_COMPUTE_64F_PEDANTIC;
	bool i32 = compute == CUBLAS_COMPUTE_32I || compute == CUBLAS_COMPUTE_32I_PEDANTIC;

	*scale_size = f16 ? 2 : f64 ? 8 : 4;
	if (ab == CUDA_R_16F && c == CUDA_R_16F)
		return f16 ? "h_h_hscale" : f32 ? "h_h" : NULL;
	if (ab == CUDA_R_16F && c == CUDA_R_32F)
		return f32 ? "h_s" : NULL;
	if (ab == CUDA_R_16BF && c == CUDA_R_16BF)
		return f32 ? "bf_bf" : NULL;
	if (ab == CUDA_R_16BF && c == CUDA_R_32F)
		return f32 ? "bf_s" : NULL;
	if (ab == CUDA_R_32F && c == CUDA_R_32F)
		return f32 ? "s" : NULL;
	if (ab == CUDA_R_64F && c == CUDA_R_64F)
		return f64 ? "d" : NULL;
	if (ab == CUDA_R_8I && c == CUDA_R_32I)
		return i32 ? "i8_i32" : NULL;
	if (ab == CUDA_R_8I && c == CUDA_R_32F)
		return f32 ? "i8_s" : NULL;
	*scale_size *= 2;
	if (ab == CUDA_C_32F && c == CUDA_C_32F)
		return f32 ? "c" : NULL;
	if (ab == CUDA_C_64F && c == CUDA_C_64F)
		return f64 ? "z" : NULL;
	return NULL;
}

cublasStatus_t blas_context_init(struct cublasContext *h, const char *routine)
{
	CUresult r;

	memset(h, 0, sizeof(*h));
	h->magic = BLAS_HANDLE_MAGIC;
	h->pointer_mode = CUBLAS_POINTER_MODE_HOST;
	h->math_mode = CUBLAS_DEFAULT_MATH;
	h->special_values = 0xffff; /* CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT */
	h->atomics_mode = CUBLAS_ATOMICS_NOT_ALLOWED;
	if ((r = zc_kernels_load(&h->context, &h->module)) != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_NOT_INITIALIZED, routine,
		                 "no context, or its kernels did not load (error %d): was it converted?",
		                 r);
	return CUBLAS_STATUS_SUCCESS;
}

void blas_context_fini(struct cublasContext *h)
{
	cuStreamSynchronize(h->stream);
	if (h->scratch)
		cuMemFree(h->scratch);
	cuModuleUnload(h->module);
	h->magic = 0;
}

cublasStatus_t blas_property(const char *routine, libraryPropertyType type, int *value)
{
	if (!value)
		return blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, "NULL pointer");
	switch (type) {
	case MAJOR_VERSION: *value = ZC_CUBLAS_MAJOR; break;
	case MINOR_VERSION: *value = BLAS_VERSION_MINOR; break;
	case PATCH_LEVEL: *value = BLAS_VERSION_PATCH; break;
	default: return blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, "type %d", type);
	}
	return CUBLAS_STATUS_SUCCESS;
}

const char *blas_status_name(cublasStatus_t status)
{
	switch (status) {
#define NAME(s) case s: return #s;
	NAME(CUBLAS_STATUS_SUCCESS)
	NAME(CUBLAS_STATUS_NOT_INITIALIZED)
	NAME(CUBLAS_STATUS_ALLOC_FAILED)
	NAME(CUBLAS_STATUS_INVALID_VALUE)
	NAME(CUBLAS_STATUS_ARCH_MISMATCH)
	NAME(CUBLAS_STATUS_MAPPING_ERROR)
	NAME(CUBLAS_STATUS_EXECUTION_FAILED)
	NAME(CUBLAS_STATUS_INTERNAL_ERROR)
	NAME(CUBLAS_STATUS_NOT_SUPPORTED)
	NAME(CUBLAS_STATUS_LICENSE_ERROR)
#undef NAME
	}
	return "CUBLAS_STATUS_UNKNOWN";
}

const char *blas_status_string(cublasStatus_t status)
{
	switch (status) {
	case CUBLAS_STATUS_SUCCESS: return "success";
	case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
	case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
	case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
	case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
	case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
	case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
	case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
	case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
	case CUBLAS_STATUS_LICENSE_ERROR: return "an error was detected when checking the current licensing";
	}
	return "unknown error";
}
