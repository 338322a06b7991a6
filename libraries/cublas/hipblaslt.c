/* cuBLASLt's AMD engine: under the HIP driver, where AMD's hipBLASLt loads (at run time,
 * never a build dependency), cublasLtMatmul offers each matmul to hipBLASLt first, on the
 * program's own stream; what hipBLASLt declines (no algorithm for the arguments, a feature
 * it lacks) runs on the project's kernels. The program's descriptors and layouts stay the
 * project's; each call makes hipBLASLt's from them. Enumerations, structures and
 * prototypes follow hipBLASLt's documented API (hipblaslt.h of ROCm 6 and 7:
 * libhipblaslt.so.0 and .1), written out here since its header is C++ only. What is taken
 * is what hipBLASLt 0.6 (ROCm 6.0) already does: column-order matrices with strided
 * batches, host scalars, the epilogues up to DGELU_BGRAD, BGRADA and BGRADB with a bias
 * shared by the batch, and aux of D's type. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "lt.h"

enum { HIP_SUCCESS = 0, HIP_INTERNAL_ERROR = 6, HIP_NOT_SUPPORTED = 7 };
enum { HIP_OP_N = 111, HIP_OP_T = 112, HIP_OP_C = 113 };
enum { HIP_COMPUTE_32F = 2, HIP_COMPUTE_32F_FAST_16F = 4, HIP_COMPUTE_32F_FAST_16BF = 5,
       HIP_COMPUTE_32F_FAST_TF32 = 6, HIP_COMPUTE_64F = 7, HIP_COMPUTE_32I = 9 };
enum { DESC_TRANSA = 0, DESC_TRANSB = 1, DESC_EPILOGUE = 2, DESC_BIAS_POINTER = 3,
       DESC_BIAS_DATA_TYPE = 4, DESC_AUX_POINTER = 10, DESC_AUX_LD = 11,
       DESC_AUX_BATCH_STRIDE = 12 };
enum { LAYOUT_BATCH_COUNT = 0, LAYOUT_STRIDED_BATCH_OFFSET = 1 };
enum { PREFERENCE_MAX_WORKSPACE_BYTES = 1 };

typedef void *hip_handle;
typedef void *hip_object; /* a matmul descriptor, matrix layout or preference */
typedef struct {
	uint8_t data[24];
} hip_algo;
typedef struct {
	hip_algo algo;
	size_t workspace_size;
	int state;
	float waves;
	int reserved[4];
} hip_heuristic;

static struct {
	int (*create)(hip_handle *);
	int (*destroy)(hip_handle);
	int (*desc_create)(hip_object *, int compute, int scale);
	int (*desc_destroy)(hip_object);
	int (*desc_set)(hip_object, int, const void *, size_t);
	int (*layout_create)(hip_object *, int type, uint64_t rows, uint64_t cols, int64_t ld);
	int (*layout_destroy)(hip_object);
	int (*layout_set)(hip_object, int, const void *, size_t);
	int (*preference_create)(hip_object *);
	int (*preference_destroy)(hip_object);
	int (*preference_set)(hip_object, int, const void *, size_t);
	int (*heuristic)(hip_handle, hip_object, hip_object, hip_object, hip_object, hip_object,
	                 hip_object, int, hip_heuristic *, int *);
	int (*matmul)(hip_handle, hip_object, const void *, const void *, hip_object, const void *,
	              hip_object, const void *, const void *, hip_object, void *, hip_object,
	              const hip_algo *, void *, size_t, void *);
} hip;

static const struct zc_engine_function functions[] = {
	{ "hipblasLtCreate", (void **)&hip.create },
	{ "hipblasLtDestroy", (void **)&hip.destroy },
	{ "hipblasLtMatmulDescCreate", (void **)&hip.desc_create },
	{ "hipblasLtMatmulDescDestroy", (void **)&hip.desc_destroy },
	{ "hipblasLtMatmulDescSetAttribute", (void **)&hip.desc_set },
	{ "hipblasLtMatrixLayoutCreate", (void **)&hip.layout_create },
	{ "hipblasLtMatrixLayoutDestroy", (void **)&hip.layout_destroy },
	{ "hipblasLtMatrixLayoutSetAttribute", (void **)&hip.layout_set },
	{ "hipblasLtMatmulPreferenceCreate", (void **)&hip.preference_create },
	{ "hipblasLtMatmulPreferenceDestroy", (void **)&hip.preference_destroy },
	{ "hipblasLtMatmulPreferenceSetAttribute", (void **)&hip.preference_set },
	{ "hipblasLtMatmulAlgoGetHeuristic", (void **)&hip.heuristic },
	{ "hipblasLtMatmul", (void **)&hip.matmul },
};

static bool loaded;

/* ROCm 7's and 6's on Linux; on Windows, where the HIP SDK's has not been tried, only what
 * ZLUDA_CONVERT_HIPBLASLT_PATH names. */
static void load(void)
{
	static const char *const names[] = {
#ifndef _WIN32
		"libhipblaslt.so.1", "libhipblaslt.so.0",
#endif
		NULL
	};

	loaded = zc_engine_load_amd_functions("hipBLASLt", "ZLUDA_CONVERT_HIPBLASLT_PATH", names,
	                                      "the project's kernels run every matmul",
	                                      "runs the matmuls it can", functions,
	                                      sizeof functions / sizeof functions[0]);
}

static int hip_operation(int32_t op)
{
	return op == CUBLAS_OP_T ? HIP_OP_T : op == CUBLAS_OP_C ? HIP_OP_C : HIP_OP_N;
}

/* hipBLASLt's compute type for cuBLAS's, or -1; the pedantic forms as the plain ones, since
 * hipBLASLt has no reduced-precision shortcut to forbid. 16-bit compute is refused before
 * ROCm 6.4 and left to the project's kernels. */
static int hip_compute(int32_t compute)
{
	switch (compute) {
	case CUBLAS_COMPUTE_32F: case CUBLAS_COMPUTE_32F_PEDANTIC: return HIP_COMPUTE_32F;
	case CUBLAS_COMPUTE_32F_FAST_16F: return HIP_COMPUTE_32F_FAST_16F;
	case CUBLAS_COMPUTE_32F_FAST_16BF: return HIP_COMPUTE_32F_FAST_16BF;
	case CUBLAS_COMPUTE_32F_FAST_TF32: return HIP_COMPUTE_32F_FAST_TF32;
	case CUBLAS_COMPUTE_64F: case CUBLAS_COMPUTE_64F_PEDANTIC: return HIP_COMPUTE_64F;
	case CUBLAS_COMPUTE_32I: case CUBLAS_COMPUTE_32I_PEDANTIC: return HIP_COMPUTE_32I;
	}
	return -1;
}

/* Why hipBLASLt cannot take this matmul as this engine maps it, or NULL. */
static const char *declined(const struct matmul_desc *d, const struct layout *const l[4])
{
	static char why[96];

	if (d->pointer_mode != CUBLASLT_POINTER_MODE_HOST)
		return "scalars in device memory";
	if (hip_compute(d->compute) < 0) {
		snprintf(why, sizeof why, "compute type %d", d->compute);
		return why;
	}
	if (d->scale != CUDA_R_32F && d->scale != CUDA_R_64F && d->scale != CUDA_R_32I) {
		snprintf(why, sizeof why, "scale type %d", d->scale);
		return why;
	}
	for (int i = 0; i < 4; i++) {
		if (l[i]->order != CUBLASLT_ORDER_COL)
			return "a matrix in row order";
		if (l[i]->batch_mode != CUBLASLT_BATCH_MODE_STRIDED)
			return "arrays of pointers";
	}
	switch (d->epilogue) {
	case CUBLASLT_EPILOGUE_DEFAULT: case CUBLASLT_EPILOGUE_RELU: case CUBLASLT_EPILOGUE_BIAS:
	case CUBLASLT_EPILOGUE_RELU_BIAS: case CUBLASLT_EPILOGUE_GELU:
	case CUBLASLT_EPILOGUE_GELU_BIAS: case CUBLASLT_EPILOGUE_GELU_AUX:
	case CUBLASLT_EPILOGUE_GELU_AUX_BIAS: case CUBLASLT_EPILOGUE_DGELU:
	case CUBLASLT_EPILOGUE_DGELU_BGRAD: case CUBLASLT_EPILOGUE_BGRADA:
	case CUBLASLT_EPILOGUE_BGRADB:
		break;
	default:
		snprintf(why, sizeof why, "epilogue %u", d->epilogue);
		return why;
	}
	if (d->bias_stride && l[3]->batch > 1)
		return "a bias of each batch";
	if (d->aux_type >= 0 && d->aux_type != l[3]->type)
		return "an aux vector of another type than D";
	return NULL;
}

/* hipBLASLt's layout of L; its status. */
static int hip_layout(const struct layout *l, hip_object *out)
{
	int32_t batch = l->batch;
	int64_t stride = l->stride;
	int r = hip.layout_create(out, l->type, l->rows, l->cols, l->ld);

	if (r == HIP_SUCCESS && batch > 1 &&
	    ((r = hip.layout_set(*out, LAYOUT_BATCH_COUNT, &batch, sizeof batch)) != HIP_SUCCESS ||
	     (r = hip.layout_set(*out, LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride)) !=
	         HIP_SUCCESS))
		hip.layout_destroy(*out), *out = NULL;
	return r;
}

/* hipBLASLt's matmul descriptor of D; its status. */
static int hip_desc(const struct matmul_desc *d, hip_object *out)
{
	int32_t transa = hip_operation(d->transa), transb = hip_operation(d->transb);
	uint32_t epilogue = d->epilogue;
	int r = hip.desc_create(out, hip_compute(d->compute), d->scale);

	if (r == HIP_SUCCESS &&
	    ((r = hip.desc_set(*out, DESC_TRANSA, &transa, sizeof transa)) != HIP_SUCCESS ||
	     (r = hip.desc_set(*out, DESC_TRANSB, &transb, sizeof transb)) != HIP_SUCCESS ||
	     (r = hip.desc_set(*out, DESC_EPILOGUE, &epilogue, sizeof epilogue)) != HIP_SUCCESS ||
	     (d->bias && (r = hip.desc_set(*out, DESC_BIAS_POINTER, &d->bias, sizeof d->bias)) !=
	                     HIP_SUCCESS) ||
	     (d->bias_type >= 0 && (r = hip.desc_set(*out, DESC_BIAS_DATA_TYPE, &d->bias_type,
	                                             sizeof d->bias_type)) != HIP_SUCCESS) ||
	     (d->aux && ((r = hip.desc_set(*out, DESC_AUX_POINTER, &d->aux, sizeof d->aux)) !=
	                     HIP_SUCCESS ||
	                 (r = hip.desc_set(*out, DESC_AUX_LD, &d->aux_ld, sizeof d->aux_ld)) !=
	                     HIP_SUCCESS ||
	                 (r = hip.desc_set(*out, DESC_AUX_BATCH_STRIDE, &d->aux_stride,
	                                   sizeof d->aux_stride)) != HIP_SUCCESS))))
		hip.desc_destroy(*out), *out = NULL;
	return r;
}

/* cuBLAS's status for hipBLASLt's. */
static cublasStatus_t cublas_status(int status)
{
	static const cublasStatus_t statuses[] = {
		CUBLAS_STATUS_SUCCESS, CUBLAS_STATUS_NOT_INITIALIZED, CUBLAS_STATUS_ALLOC_FAILED,
		CUBLAS_STATUS_INVALID_VALUE, CUBLAS_STATUS_MAPPING_ERROR, CUBLAS_STATUS_EXECUTION_FAILED,
		CUBLAS_STATUS_INTERNAL_ERROR, CUBLAS_STATUS_NOT_SUPPORTED, CUBLAS_STATUS_ARCH_MISMATCH,
	};

	return status >= 0 && status < (int)(sizeof statuses / sizeof statuses[0])
	           ? statuses[status] : CUBLAS_STATUS_INTERNAL_ERROR;
}

bool lt_amd_matmul(cublasLtHandle_t lt, const struct matmul_desc *d, const void *alpha,
                   const void *A, const struct layout *a, const void *B, const struct layout *b,
                   const void *beta, const void *C, const struct layout *c, void *D,
                   const struct layout *dl, void *workspace, size_t workspace_size,
                   cudaStream_t stream, cublasStatus_t *status)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const struct layout *const layouts[4] = {a, b, c, dl};
	hip_object desc = NULL, hl[4] = {NULL}, preference = NULL;
	hip_heuristic result;
	uint64_t max_workspace = workspace ? workspace_size : 0;
	const char *why;
	void *native;
	int found = 0, r = HIP_SUCCESS;
	bool ran = false;

	pthread_once(&once, load);
	if (!loaded)
		return false;
	if ((why = declined(d, layouts))) {
		zc_engine_trace("cublasLtMatmul", "hipBLASLt does not take %s: the project's kernels "
		                "run it", why);
		return false;
	}
	/* A capturing stream has no HIP stream to give: hipBLASLt's work would escape the
	 * graph the stub records. */
	if (zc_engine_native_stream((CUstream)stream, &native) != CUDA_SUCCESS) {
		zc_engine_trace("cublasLtMatmul", "the stream has no HIP stream to give hipBLASLt: the "
		                "project's kernels run it");
		return false;
	}
	if (!lt->amd && (r = hip.create(&lt->amd)) != HIP_SUCCESS) {
		lt->amd = NULL;
		zc_engine_trace("cublasLtMatmul", "hipBLASLt made no handle (status %d): the project's "
		                "kernels run it", r);
		return false;
	}
	for (int i = 0; r == HIP_SUCCESS && i < 4; i++)
		r = hip_layout(layouts[i], &hl[i]);
	if (r == HIP_SUCCESS)
		r = hip_desc(d, &desc);
	if (r == HIP_SUCCESS && (r = hip.preference_create(&preference)) == HIP_SUCCESS)
		r = hip.preference_set(preference, PREFERENCE_MAX_WORKSPACE_BYTES, &max_workspace,
		                       sizeof max_workspace);
	memset(&result, 0, sizeof result);
	if (r == HIP_SUCCESS)
		r = hip.heuristic(lt->amd, desc, hl[0], hl[1], hl[2], hl[3], preference, 1, &result,
		                  &found);
	if (r != HIP_SUCCESS || found < 1 || result.state != HIP_SUCCESS) {
		zc_engine_trace("cublasLtMatmul", "hipBLASLt has no algorithm for these arguments "
		                "(status %d): the project's kernels run it", r);
	} else {
		/* C is read only as beta says, but hipBLASLt wants a pointer: D, of the same layout
		 * as C, when the program gives none. */
		r = hip.matmul(lt->amd, desc, alpha, A, hl[0], B, hl[1], beta, C ? C : D,
		               hl[C ? 2 : 3], D, hl[3], &result.algo, workspace, workspace_size, native);
		/* hipBLASLt answers INTERNAL_ERROR where it has no implementation */
		if (r == HIP_NOT_SUPPORTED || r == HIP_INTERNAL_ERROR) {
			zc_engine_trace("cublasLtMatmul", "hipBLASLt cannot run it (status %d): the "
			                "project's kernels run it", r);
		} else {
			ran = true;
			*status = cublas_status(r);
			if (r != HIP_SUCCESS)
				zc_engine_trace("cublasLtMatmul", "hipBLASLt failed (status %d)", r);
		}
	}
	for (int i = 0; i < 4; i++)
		if (hl[i])
			hip.layout_destroy(hl[i]);
	if (desc)
		hip.desc_destroy(desc);
	if (preference)
		hip.preference_destroy(preference);
	return ran;
}

void lt_amd_release(cublasLtHandle_t lt)
{
	if (lt->amd)
		hip.destroy(lt->amd);
	lt->amd = NULL;
}
