/* cuBLASLt: matrix layouts, matmul descriptors with their epilogues, preferences, the
 * heuristic query, cublasLtMatmul and cublasLtMatrixTransform, over cuBLAS's kernels. The
 * descriptors live in the semi-opaque storage NVIDIA's header gives them, so that a
 * program's cublasLt*Init on its own storage works as Create does. */
#include "lt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INVALID(routine, ...) blas_fail(CUBLAS_STATUS_INVALID_VALUE, routine, __VA_ARGS__)
#define REFUSED(routine, ...) blas_fail(CUBLAS_STATUS_NOT_SUPPORTED, routine, __VA_ARGS__)

struct preference {
	uint32_t magic;
	uint32_t search_mode, reduction_mask, alignment[4];
	uint64_t max_workspace, impl_mask;
	float max_waves;
};

struct transform_desc {
	uint32_t magic;
	int32_t scale, pointer_mode, transa, transb;
};

/* The one algorithm (id 0), in a cublasLtMatmulAlgo_t: the types it was made for and its
 * configuration, which only the defaults (one K split, no reduction scheme, no swizzling,
 * undefined tile and stages) run. */
struct algo {
	uint32_t magic;
	int32_t id, compute, a_type, c_type;
	uint32_t tile, reduction, swizzle, custom, stages;
	int32_t splitk;
	uint16_t inner_shape, cluster_shape;
};

_Static_assert(sizeof(struct algo) <= sizeof(cublasLtMatmulAlgo_t), "algo size");
_Static_assert(sizeof(struct layout) <= sizeof(cublasLtMatrixLayoutOpaque_t), "layout size");
_Static_assert(sizeof(struct matmul_desc) <= sizeof(cublasLtMatmulDescOpaque_t), "desc size");
/* CUDA 11's cublasLt.h gives a matmul descriptor 23 words (its other descriptors are as large
 * as CUDA 13's or larger); a program built with it passes that size to the Init functions */
_Static_assert(sizeof(struct matmul_desc) <= 23 * sizeof(uint64_t), "CUDA 11 desc size");
_Static_assert(sizeof(struct preference) <= sizeof(cublasLtMatmulPreferenceOpaque_t), "pref size");
_Static_assert(sizeof(struct transform_desc) <= sizeof(cublasLtMatrixTransformDescOpaque_t),
               "transform size");

/* An attribute: where it lives in its descriptor and its size, which a set must match;
 * a byte-sized field holds an int32 attribute whose values fit a byte. */
struct attribute {
	int id;
	size_t offset, size;
	bool int32_in_byte;
};

#define FIELD(id, type, field) {id, offsetof(type, field), sizeof(((type *)0)->field), false}
#define INT32_IN_BYTE(id, type, field) {id, offsetof(type, field), sizeof(int32_t), true}

static const struct attribute layout_attributes[] = {
	FIELD(CUBLASLT_MATRIX_LAYOUT_TYPE, struct layout, type),
	FIELD(CUBLASLT_MATRIX_LAYOUT_ORDER, struct layout, order),
	FIELD(CUBLASLT_MATRIX_LAYOUT_ROWS, struct layout, rows),
	FIELD(CUBLASLT_MATRIX_LAYOUT_COLS, struct layout, cols),
	FIELD(CUBLASLT_MATRIX_LAYOUT_LD, struct layout, ld),
	FIELD(CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, struct layout, batch),
	FIELD(CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, struct layout, stride),
	FIELD(CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, struct layout, plane),
	FIELD(CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, struct layout, batch_mode),
};

static const struct attribute desc_attributes[] = {
	FIELD(CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, struct matmul_desc, compute),
	FIELD(CUBLASLT_MATMUL_DESC_SCALE_TYPE, struct matmul_desc, scale),
	FIELD(CUBLASLT_MATMUL_DESC_POINTER_MODE, struct matmul_desc, pointer_mode),
	FIELD(CUBLASLT_MATMUL_DESC_TRANSA, struct matmul_desc, transa),
	FIELD(CUBLASLT_MATMUL_DESC_TRANSB, struct matmul_desc, transb),
	FIELD(CUBLASLT_MATMUL_DESC_TRANSC, struct matmul_desc, transc),
	FIELD(CUBLASLT_MATMUL_DESC_FILL_MODE, struct matmul_desc, fill),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE, struct matmul_desc, epilogue),
	FIELD(CUBLASLT_MATMUL_DESC_BIAS_POINTER, struct matmul_desc, bias),
	FIELD(CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, struct matmul_desc, bias_stride),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, struct matmul_desc, aux),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, struct matmul_desc, aux_ld),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, struct matmul_desc, aux_stride),
	FIELD(CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE, struct matmul_desc, alpha_stride),
	FIELD(CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, struct matmul_desc, sm_count),
	FIELD(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, struct matmul_desc, scales[0]),
	FIELD(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, struct matmul_desc, scales[1]),
	FIELD(CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, struct matmul_desc, scales[2]),
	FIELD(CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, struct matmul_desc, scales[3]),
	FIELD(CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, struct matmul_desc, scales[4]),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, struct matmul_desc, aux_type),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER, struct matmul_desc, scales[5]),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER, struct matmul_desc, scales[6]),
	FIELD(CUBLASLT_MATMUL_DESC_FAST_ACCUM, struct matmul_desc, fast_accum),
	FIELD(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, struct matmul_desc, bias_type),
	INT32_IN_BYTE(CUBLASLT_MATMUL_DESC_A_SCALE_MODE, struct matmul_desc, scale_modes[0]),
	INT32_IN_BYTE(CUBLASLT_MATMUL_DESC_B_SCALE_MODE, struct matmul_desc, scale_modes[1]),
	INT32_IN_BYTE(CUBLASLT_MATMUL_DESC_C_SCALE_MODE, struct matmul_desc, scale_modes[2]),
	INT32_IN_BYTE(CUBLASLT_MATMUL_DESC_D_SCALE_MODE, struct matmul_desc, scale_modes[3]),
	INT32_IN_BYTE(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE, struct matmul_desc, scale_modes[4]),
	INT32_IN_BYTE(CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE, struct matmul_desc, scale_modes[5]),
	FIELD(CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR, struct matmul_desc, emulation),
};

static const struct attribute preference_attributes[] = {
	FIELD(CUBLASLT_MATMUL_PREF_SEARCH_MODE, struct preference, search_mode),
	FIELD(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, struct preference, max_workspace),
	FIELD(CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, struct preference, reduction_mask),
	FIELD(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, struct preference, alignment[0]),
	FIELD(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, struct preference, alignment[1]),
	FIELD(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, struct preference, alignment[2]),
	FIELD(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, struct preference, alignment[3]),
	FIELD(CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT, struct preference, max_waves),
	FIELD(CUBLASLT_MATMUL_PREF_IMPL_MASK, struct preference, impl_mask),
};

static const struct attribute transform_attributes[] = {
	FIELD(CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, struct transform_desc, scale),
	FIELD(CUBLASLT_MATRIX_TRANSFORM_DESC_POINTER_MODE, struct transform_desc, pointer_mode),
	FIELD(CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, struct transform_desc, transa),
	FIELD(CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB, struct transform_desc, transb),
};

static const struct attribute algo_attributes[] = {
	FIELD(CUBLASLT_ALGO_CONFIG_ID, struct algo, id),
	FIELD(CUBLASLT_ALGO_CONFIG_TILE_ID, struct algo, tile),
	FIELD(CUBLASLT_ALGO_CONFIG_SPLITK_NUM, struct algo, splitk),
	FIELD(CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, struct algo, reduction),
	FIELD(CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, struct algo, swizzle),
	FIELD(CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, struct algo, custom),
	FIELD(CUBLASLT_ALGO_CONFIG_STAGES_ID, struct algo, stages),
	FIELD(CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, struct algo, inner_shape),
	FIELD(CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, struct algo, cluster_shape),
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct attribute *find_attribute(const struct attribute *table, size_t n, int id)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].id == id)
			return &table[i];
	return NULL;
}

static cublasStatus_t set_attribute(const char *routine, void *object, uint32_t magic,
                                    const struct attribute *table, size_t n, int id,
                                    const void *buf, size_t size)
{
	const struct attribute *a = find_attribute(table, n, id);

	if (!object || *(uint32_t *)object != magic)
		return INVALID(routine, "not a descriptor of this library");
	if (!a)
		return INVALID(routine, "attribute %d", id);
	if (!buf || size != a->size)
		return INVALID(routine, "attribute %d takes %zu bytes, not %zu", id, a->size, size);
	if (a->int32_in_byte) {
		int32_t value;
		memcpy(&value, buf, sizeof(value));
		if (value < INT8_MIN || value > INT8_MAX)
			return INVALID(routine, "attribute %d: value %d", id, value);
		*((int8_t *)object + a->offset) = (int8_t)value;
		return CUBLAS_STATUS_SUCCESS;
	}
	memcpy((char *)object + a->offset, buf, size);
	return CUBLAS_STATUS_SUCCESS;
}

/* cuBLASLt's get: with no room (size 0), only the size it needs in *written. */
static cublasStatus_t get_attribute(const char *routine, const void *object, uint32_t magic,
                                    const struct attribute *table, size_t n, int id, void *buf,
                                    size_t size, size_t *written)
{
	const struct attribute *a = find_attribute(table, n, id);

	if (!object || *(const uint32_t *)object != magic)
		return INVALID(routine, "not a descriptor of this library");
	if (!a)
		return INVALID(routine, "attribute %d", id);
	if (size == 0 && written) {
		*written = a->size;
		return CUBLAS_STATUS_SUCCESS;
	}
	if (!buf || size < a->size)
		return INVALID(routine, "attribute %d needs %zu bytes, not %zu", id, a->size, size);
	if (a->int32_in_byte) {
		int32_t value = *((const int8_t *)object + a->offset);
		memcpy(buf, &value, sizeof(value));
	} else {
		memcpy(buf, (const char *)object + a->offset, a->size);
	}
	if (written)
		*written = a->size;
	return CUBLAS_STATUS_SUCCESS;
}

/* Each descriptor: Init on the caller's storage, Create on the heap, Destroy, and the
 * attributes, from one template. */
#define DESCRIPTOR(Name, handle_t, opaque_t, type, tag, table, init_params, init_args, setup) \
	static cublasStatus_t init_##type(handle_t d, size_t size init_params)                   \
	{                                                                                        \
		struct type *t = (struct type *)d;                                                   \
		if (!d || size < sizeof(struct type))                                                \
			return INVALID("cublasLt" #Name "Init", "storage of %zu bytes", size);           \
		memset(t, 0, sizeof(*t));                                                            \
		t->magic = tag;                                                                    \
		setup;                                                                               \
		return CUBLAS_STATUS_SUCCESS;                                                        \
	}                                                                                        \
	cublasStatus_t cublasLt##Name##Init_internal(handle_t d, size_t size init_params)        \
	{                                                                                        \
		return init_##type(d, size init_args);                                               \
	}                                                                                        \
	cublasStatus_t cublasLt##Name##Create(handle_t *d init_params)                            \
	{                                                                                        \
		cublasStatus_t s;                                                                    \
		if (!d)                                                                              \
			return INVALID("cublasLt" #Name "Create", "NULL pointer");                       \
		if (!(*d = calloc(1, sizeof(opaque_t))))                                             \
			return blas_fail(CUBLAS_STATUS_ALLOC_FAILED, "cublasLt" #Name "Create",          \
			                 "out of memory");                                               \
		if ((s = init_##type(*d, sizeof(opaque_t) init_args)) != CUBLAS_STATUS_SUCCESS) {    \
			free(*d);                                                                        \
			*d = NULL;                                                                       \
		}                                                                                    \
		return s;                                                                            \
	}                                                                                        \
	cublasStatus_t cublasLt##Name##Destroy(handle_t d)                                        \
	{                                                                                        \
		if (d && *(uint32_t *)d != tag)                                                    \
			return INVALID("cublasLt" #Name "Destroy", "not a descriptor of this library");  \
		if (d)                                                                               \
			*(uint32_t *)d = 0;                                                              \
		free(d);                                                                             \
		return CUBLAS_STATUS_SUCCESS;                                                        \
	}

#define ARGS(...) __VA_ARGS__
DESCRIPTOR(MatrixLayout, cublasLtMatrixLayout_t, cublasLtMatrixLayoutOpaque_t, layout,
           LAYOUT_MAGIC, layout_attributes,
           ARGS(, cudaDataType type, uint64_t rows, uint64_t cols, int64_t ld),
           ARGS(, type, rows, cols, ld),
           ARGS(t->type = type, t->rows = rows, t->cols = cols, t->ld = ld, t->batch = 1))
DESCRIPTOR(MatmulDesc, cublasLtMatmulDesc_t, cublasLtMatmulDescOpaque_t, matmul_desc, DESC_MAGIC,
           desc_attributes, ARGS(, cublasComputeType_t compute, cudaDataType_t scale),
           ARGS(, compute, scale),
           ARGS(t->compute = compute, t->scale = scale, t->epilogue = CUBLASLT_EPILOGUE_DEFAULT,
                t->aux_type = -1, t->bias_type = -1))
DESCRIPTOR(MatmulPreference, cublasLtMatmulPreference_t, cublasLtMatmulPreferenceOpaque_t,
           preference, PREFERENCE_MAGIC, preference_attributes, , , (void)t)
DESCRIPTOR(MatrixTransformDesc, cublasLtMatrixTransformDesc_t,
           cublasLtMatrixTransformDescOpaque_t, transform_desc, TRANSFORM_MAGIC,
           transform_attributes, ARGS(, cudaDataType scale), ARGS(, scale), t->scale = scale)

#define ATTRIBUTES(Name, handle_t, attr_t, magic, table)                                     \
	cublasStatus_t cublasLt##Name##SetAttribute(handle_t d, attr_t attr, const void *buf,     \
	                                            size_t size)                                  \
	{                                                                                         \
		return set_attribute("cublasLt" #Name "SetAttribute", d, magic, table, COUNT(table),  \
		                     attr, buf, size);                                                \
	}                                                                                         \
	cublasStatus_t cublasLt##Name##GetAttribute(handle_t d, attr_t attr, void *buf,           \
	                                            size_t size, size_t *written)                 \
	{                                                                                         \
		return get_attribute("cublasLt" #Name "GetAttribute", d, magic, table, COUNT(table),  \
		                     attr, buf, size, written);                                       \
	}
ATTRIBUTES(MatrixLayout, cublasLtMatrixLayout_t, cublasLtMatrixLayoutAttribute_t, LAYOUT_MAGIC,
           layout_attributes)
ATTRIBUTES(MatmulDesc, cublasLtMatmulDesc_t, cublasLtMatmulDescAttributes_t, DESC_MAGIC,
           desc_attributes)
ATTRIBUTES(MatmulPreference, cublasLtMatmulPreference_t, cublasLtMatmulPreferenceAttributes_t,
           PREFERENCE_MAGIC, preference_attributes)
ATTRIBUTES(MatrixTransformDesc, cublasLtMatrixTransformDesc_t,
           cublasLtMatrixTransformDescAttributes_t, TRANSFORM_MAGIC, transform_attributes)

cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle)
{
	struct cublasLtContext *lt;
	cublasStatus_t s;

	if (!handle)
		return INVALID("cublasLtCreate", "NULL handle pointer");
	if (cuInit(0) != CUDA_SUCCESS)
		return blas_fail(CUBLAS_STATUS_NOT_INITIALIZED, "cublasLtCreate", "cuInit failed");
	if (!(lt = malloc(sizeof(*lt))))
		return blas_fail(CUBLAS_STATUS_ALLOC_FAILED, "cublasLtCreate", "out of memory");
	if ((s = blas_context_init(&lt->blas, "cublasLtCreate")) != CUBLAS_STATUS_SUCCESS) {
		free(lt);
		return s;
	}
	lt->magic = LT_MAGIC;
	lt->amd = NULL;
	*handle = lt;
	return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t lt_begin(cublasLtHandle_t lt, const char *routine)
{
	if (!lt)
		return blas_fail(CUBLAS_STATUS_NOT_INITIALIZED, routine, "no handle");
	if (lt->magic != LT_MAGIC)
		return REFUSED(routine, "a handle of NVIDIA's cuBLASLt, which lacks the routine");
	return blas_begin(&lt->blas, routine);
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t lt)
{
	cublasStatus_t s = lt_begin(lt, "cublasLtDestroy");

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	lt_amd_release(lt);
	blas_context_fini(&lt->blas);
	lt->magic = 0;
	free(lt);
	return CUBLAS_STATUS_SUCCESS;
}

const char *cublasLtGetStatusName(cublasStatus_t status)
{
	return blas_status_name(status);
}

const char *cublasLtGetStatusString(cublasStatus_t status)
{
	return blas_status_string(status);
}

size_t cublasLtGetVersion(void)
{
	return BLAS_VERSION;
}

size_t cublasLtGetCudartVersion(void)
{
	return ZC_CUBLAS_MAJOR * 1000;
}

cublasStatus_t cublasLtGetProperty(libraryPropertyType type, int *value)
{
	return blas_property("cublasLtGetProperty", type, value);
}

/* There is no heuristics cache and no logging to configure; both are accepted. */
cublasStatus_t cublasLtHeuristicsCacheGetCapacity(size_t *capacity)
{
	if (!capacity)
		return INVALID("cublasLtHeuristicsCacheGetCapacity", "NULL pointer");
	*capacity = 0;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtHeuristicsCacheSetCapacity(size_t capacity)
{
	return CUBLAS_STATUS_SUCCESS;
}

unsigned cublasLtDisableCpuInstructionsSetMask(unsigned mask)
{
	return 0;
}

cublasStatus_t cublasLtLoggerSetCallback(cublasLtLoggerCallback_t callback)
{
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtLoggerSetFile(FILE *file)
{
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtLoggerOpenFile(const char *path)
{
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtLoggerSetLevel(int level)
{
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtLoggerSetMask(int mask)
{
	return CUBLAS_STATUS_SUCCESS;
}

/* NVIDIA's header declares it without a prototype. */
cublasStatus_t cublasLtLoggerForceDisable(void);
cublasStatus_t cublasLtLoggerForceDisable(void)
{
	return CUBLAS_STATUS_SUCCESS;
}

static const struct layout *as_layout(cublasLtMatrixLayout_t l)
{
	const struct layout *t = (const struct layout *)l;
	return t && t->magic == LAYOUT_MAGIC ? t : NULL;
}

/* An operand as the gemm kernel reads it: column order as it is, row order as its
 * transpose (element (r, c) at r * ld + c). */
/* A matmul operand; DATA is an array of pointers, a matrix each, in a pointer-array batch. */
static struct zc_matrix operand(const void *data, const struct layout *l, cublasOperation_t op)
{
	struct zc_matrix m = blas_matrix(data, l->ld, op);

	if (l->order == CUBLASLT_ORDER_ROW) {
		m.inc = l->ld;
		m.ld = 1;
	}
	if (l->batch_mode == CUBLASLT_BATCH_MODE_POINTER_ARRAY) {
		m.array = (const void *const *)data;
		m.data = NULL;
	} else {
		m.stride = l->stride;
	}
	return m;
}

/* The element types an epilogue's bias and aux vectors may have. */
static int32_t element_type(int32_t cuda_type)
{
	switch (cuda_type) {
	case CUDA_R_32F: return ZC_ELEMENT_F32;
	case CUDA_R_64F: return ZC_ELEMENT_F64;
	case CUDA_R_16F: return ZC_ELEMENT_F16;
	case CUDA_R_16BF: return ZC_ELEMENT_BF16;
	}
	return -1;
}

/* Why the library cannot run this matmul, or NULL; the kernel's name and the scalars' size
 * otherwise. */
static const char *matmul_refusal(const struct matmul_desc *d, const struct layout *a,
                                  const struct layout *b, const struct layout *c,
                                  const struct layout *dl, const char **kernel,
                                  size_t *scale_size)
{
	static char why[160];
	uint32_t e = d->epilogue;

	for (size_t i = 0; i < COUNT(d->scales); i++)
		if (d->scales[i])
			return "scale and amax pointers (8-bit types' scaling)";
	if (d->pointer_mode != CUBLASLT_POINTER_MODE_HOST &&
	    d->pointer_mode != CUBLASLT_POINTER_MODE_DEVICE)
		return "alpha as a device vector";
	if (d->transc != CUBLAS_OP_N)
		return "a transposed C";
	for (const struct layout *const *l = (const struct layout *const[]){a, b, c, dl, NULL}; *l; l++) {
		if ((*l)->order != CUBLASLT_ORDER_COL && (*l)->order != CUBLASLT_ORDER_ROW) {
			snprintf(why, sizeof(why), "matrix order %d (only column and row orders)",
			         (*l)->order);
			return why;
		}
		if ((*l)->plane)
			return "planar complex layouts (a plane offset)";
		if ((*l)->batch_mode != CUBLASLT_BATCH_MODE_STRIDED &&
		    (*l)->batch_mode != CUBLASLT_BATCH_MODE_POINTER_ARRAY) {
			snprintf(why, sizeof(why), "batch mode %d", (*l)->batch_mode);
			return why;
		}
	}
	switch (e) {
	case CUBLASLT_EPILOGUE_DEFAULT: case CUBLASLT_EPILOGUE_RELU: case CUBLASLT_EPILOGUE_BIAS:
	case CUBLASLT_EPILOGUE_RELU_BIAS: case CUBLASLT_EPILOGUE_GELU:
	case CUBLASLT_EPILOGUE_GELU_AUX: case CUBLASLT_EPILOGUE_GELU_BIAS:
	case CUBLASLT_EPILOGUE_GELU_AUX_BIAS: case CUBLASLT_EPILOGUE_DGELU:
	case CUBLASLT_EPILOGUE_DGELU_BGRAD: case CUBLASLT_EPILOGUE_BGRADA:
	case CUBLASLT_EPILOGUE_BGRADB: case CUBLASLT_EPILOGUE_RELU_AUX:
	case CUBLASLT_EPILOGUE_RELU_AUX_BIAS: case CUBLASLT_EPILOGUE_DRELU:
	case CUBLASLT_EPILOGUE_DRELU_BGRAD:
		break;
	default:
		snprintf(why, sizeof(why), "epilogue %u", e);
		return why;
	}
	if (a->type != b->type || c->type != dl->type) {
		snprintf(why, sizeof(why), "types A %d, B %d, C %d, D %d", a->type, b->type, c->type,
		         dl->type);
		return why;
	}
	if (!(*kernel = blas_ex_kernel(a->type, dl->type, d->compute, scale_size))) {
		snprintf(why, sizeof(why), "types A/B %d, C/D %d with compute type %d", a->type,
		         dl->type, d->compute);
		return why;
	}
	if (e != CUBLASLT_EPILOGUE_DEFAULT && element_type(dl->type) < 0)
		return "an epilogue on a complex or integer D";
	if ((e == CUBLASLT_EPILOGUE_BGRADA || e == CUBLASLT_EPILOGUE_BGRADB) &&
	    element_type(a->type) < 0)
		return "a bias gradient of integer A and B";
	return NULL;
}

/* ReLU's mask: its leading dimension and batch stride count bits, multiples of 128
 * (NVIDIA's cuBLASLt answers INVALID_VALUE for 64, heuristic query and matmul alike), and
 * it is written a 32-bit word at a time. */
static const char *bad_relu_mask(const struct matmul_desc *d)
{
	static char why[128];
	bool mask = (d->epilogue & (128 | 2)) == (128 | 2) || (d->epilogue & (128 | 8)) == (128 | 8);

	if (!mask || (d->aux_ld % 128 == 0 && d->aux_stride % 128 == 0 && (uintptr_t)d->aux % 4 == 0))
		return NULL;
	snprintf(why, sizeof(why), "ReLU mask at %p, ld %lld, batch stride %lld (bits, multiples "
	         "of 128)", d->aux, (long long)d->aux_ld, (long long)d->aux_stride);
	return why;
}

/* A leading dimension shorter than the matrix's rows (column order) or columns (row order):
 * cuBLASLt's heuristic query and matmul answer INVALID_VALUE (measured on an H200). */
static const char *short_leading_dimension(const struct layout *const layouts[4])
{
	static const char *const names[] = {"A", "B", "C", "D"};
	static char why[96];

	for (int i = 0; i < 4; i++) {
		const struct layout *l = layouts[i];
		uint64_t line = l->order == CUBLASLT_ORDER_ROW ? l->cols : l->rows;
		if (l->ld < 1 || (uint64_t)l->ld < line) {
			snprintf(why, sizeof(why), "%s's leading dimension %lld under its %s %llu", names[i],
			         (long long)l->ld, l->order == CUBLASLT_ORDER_ROW ? "columns" : "rows",
			         (unsigned long long)line);
			return why;
		}
	}
	return NULL;
}

static void algo_init(cublasLtMatmulAlgo_t *algo, int32_t compute, int32_t a_type, int32_t c_type)
{
	struct algo *al = (struct algo *)algo;

	memset(algo, 0, sizeof(*algo));
	al->magic = ALGO_MAGIC;
	al->compute = compute, al->a_type = a_type, al->c_type = c_type;
	al->splitk = 1;
}

/* Why an algorithm of this library cannot run a matmul, or NULL. */
static const char *algo_refusal(const struct algo *al, const struct matmul_desc *d,
                                const struct layout *a, const struct layout *dl)
{
	if (al->compute != d->compute || al->a_type != a->type || al->c_type != dl->type)
		return "an algorithm made for other types";
	if (al->splitk != 1 || al->reduction || al->swizzle || al->custom || al->tile || al->stages ||
	    al->inner_shape || al->cluster_shape)
		return "an algorithm configuration other than the default";
	return NULL;
}

/* cuBLASLt's bias gradients: row sums of D (DGELU_BGRAD, DRELU_BGRAD), of op(A) (BGRADA)
 * or of op(B)'s transpose (BGRADB), into the bias vector. */
static cublasStatus_t bias_gradient(struct cublasContext *h, const struct matmul_desc *d,
                                    struct zc_gemm_args *g, int32_t d_element, int32_t ab_element)
{
	bool of_a_or_b = d->epilogue == CUBLASLT_EPILOGUE_BGRADA || d->epilogue == CUBLASLT_EPILOGUE_BGRADB;
	int32_t element = of_a_or_b ? ab_element : d_element;
	static const char *const suffixes[] = {"s", "d", "h", "bf"};
	struct zc_row_sums_args r;
	char kernel[32];

	memset(&r, 0, sizeof(r));
	r.batch = g->batch;
	r.out = d->bias;
	r.out_stride = d->bias_stride;
	r.out_type = d->bias_type >= 0 ? element_type(d->bias_type) : d_element;
	if (d->epilogue == CUBLASLT_EPILOGUE_BGRADA) {
		r.rows = g->m, r.len = g->k, r.m = g->a;
	} else if (d->epilogue == CUBLASLT_EPILOGUE_BGRADB) {
		r.rows = g->n, r.len = g->k, r.m = g->b;
		r.m.op = r.m.op == ZC_OP_N ? ZC_OP_T : ZC_OP_N;
	} else {
		r.rows = g->m, r.len = g->n, r.m = g->d;
	}
	snprintf(kernel, sizeof(kernel), "zc_row_sums_%s", suffixes[element]);
	return blas_launch(h, kernel, blas_blocks(r.rows, 64), r.batch > 65535 ? 65535 : (unsigned)r.batch,
	                   1, 64, &r);
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t lt, cublasLtMatmulDesc_t desc, const void *alpha,
                              const void *A, cublasLtMatrixLayout_t a_layout, const void *B,
                              cublasLtMatrixLayout_t b_layout, const void *beta, const void *C,
                              cublasLtMatrixLayout_t c_layout, void *D,
                              cublasLtMatrixLayout_t d_layout, const cublasLtMatmulAlgo_t *algo,
                              void *workspace, size_t workspace_size, cudaStream_t stream)
{
	const char *routine = "cublasLtMatmul";
	cublasStatus_t s = lt_begin(lt, routine);
	const struct matmul_desc *d = (const struct matmul_desc *)desc;
	const struct layout *a = as_layout(a_layout), *b = as_layout(b_layout),
	                    *c = as_layout(c_layout), *dl = as_layout(d_layout);
	const char *kernel, *why;
	size_t scale_size;
	struct zc_gemm_args g;
	int64_t m, n, k;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (!d || d->magic != DESC_MAGIC || !a || !b || !c || !dl)
		return INVALID(routine, "a descriptor or layout not made by this library");
	if (!alpha || !beta)
		return INVALID(routine, "NULL scalar");
	if ((why = short_leading_dimension((const struct layout *const[]){a, b, c, dl})))
		return INVALID(routine, "%s", why);
	if ((why = matmul_refusal(d, a, b, c, dl, &kernel, &scale_size)) ||
	    (algo && ((const struct algo *)algo)->magic == ALGO_MAGIC &&
	     (why = algo_refusal((const struct algo *)algo, d, a, dl))))
		return REFUSED(routine, "%s", why);
	m = (int64_t)dl->rows, n = (int64_t)dl->cols;
	k = (int64_t)(d->transa == CUBLAS_OP_N ? a->cols : a->rows);
	if ((int64_t)(d->transa == CUBLAS_OP_N ? a->rows : a->cols) != m ||
	    (int64_t)(d->transb == CUBLAS_OP_N ? b->rows : b->cols) != k ||
	    (int64_t)(d->transb == CUBLAS_OP_N ? b->cols : b->rows) != n || c->rows != dl->rows ||
	    c->cols != dl->cols || a->batch != dl->batch || b->batch != dl->batch ||
	    c->batch != dl->batch || dl->batch < 1)
		return INVALID(routine, "shapes A %llux%llu, B %llux%llu, C %llux%llu, D %llux%llu, "
		               "batches %d %d %d %d", (unsigned long long)a->rows,
		               (unsigned long long)a->cols, (unsigned long long)b->rows,
		               (unsigned long long)b->cols, (unsigned long long)c->rows,
		               (unsigned long long)c->cols, (unsigned long long)dl->rows,
		               (unsigned long long)dl->cols, a->batch, b->batch, c->batch, dl->batch);
	if ((d->epilogue & (CUBLASLT_EPILOGUE_BIAS | 16 | 256 | 512)) && !d->bias)
		return INVALID(routine, "epilogue %u without a bias pointer", d->epilogue);
	if ((d->epilogue & 128) && (!d->aux || d->aux_ld < m))
		return INVALID(routine, "epilogue %u with aux %p, aux ld %lld", d->epilogue, d->aux,
		               (long long)d->aux_ld);
	if ((why = bad_relu_mask(d)))
		return INVALID(routine, "%s", why);
	if (lt_amd_matmul(lt, d, alpha, A, a, B, b, beta, C, c, D, dl, workspace, workspace_size,
	                  stream, &s))
		return s;
	lt->blas.stream = (CUstream)stream;
	lt->blas.pointer_mode = d->pointer_mode == CUBLASLT_POINTER_MODE_DEVICE
	                            ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
	memset(&g, 0, sizeof(g));
	g.m = m, g.n = n, g.k = k, g.batch = dl->batch;
	g.alpha = blas_scalar(&lt->blas, alpha, scale_size);
	g.beta = blas_scalar(&lt->blas, beta, scale_size);
	g.a = operand(A, a, d->transa);
	g.b = operand(B, b, d->transb);
	g.c = operand(C, c, CUBLAS_OP_N);
	g.d = operand(D, dl, CUBLAS_OP_N);
	g.fill = ZC_FILL_ALL;
	int32_t element = element_type(dl->type);
	/* The gradient epilogues' bias output is written by a pass of its own, after D for
	 * DGELU_BGRAD and DRELU_BGRAD; BGRADA and BGRADB leave D alone. */
	if (!(d->epilogue & (256 | 512)))
		g.epilogue = d->epilogue & ~(uint32_t)(1 | 16);
	g.bias = d->bias;
	g.bias_type = d->bias_type >= 0 ? element_type(d->bias_type) : element;
	g.bias_stride = d->bias_stride;
	g.aux = d->aux;
	g.aux_type = d->aux_type >= 0 ? element_type(d->aux_type) : element;
	g.aux_ld = d->aux_ld;
	g.aux_stride = d->aux_stride;
	if (g.bias_type < 0 || g.aux_type < 0)
		return REFUSED(routine, "bias type %d, aux type %d", d->bias_type, d->aux_type);
	if ((s = blas_gemm(&lt->blas, kernel, &g)) != CUBLAS_STATUS_SUCCESS)
		return s;
	if (d->epilogue & (16 | 256 | 512))
		return bias_gradient(&lt->blas, d, &g, element, element_type(a->type));
	return CUBLAS_STATUS_SUCCESS;
}

/* One algorithm, which needs no workspace. */
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lt, cublasLtMatmulDesc_t desc,
                                              cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                                              cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,
                                              cublasLtMatmulPreference_t preference,
                                              int requested,
                                              cublasLtMatmulHeuristicResult_t results[],
                                              int *returned)
{
	const char *routine = "cublasLtMatmulAlgoGetHeuristic";
	cublasStatus_t s = lt_begin(lt, routine);
	const struct matmul_desc *md = (const struct matmul_desc *)desc;
	const char *kernel, *why;
	size_t scale_size;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (requested < 1 || !results || !returned)
		return INVALID(routine, "requested %d", requested);
	if (!md || md->magic != DESC_MAGIC || !as_layout(a) || !as_layout(b) || !as_layout(c) ||
	    !as_layout(d))
		return INVALID(routine, "a descriptor or layout not made by this library");
	*returned = 0;
	if ((why = short_leading_dimension((const struct layout *const[]){as_layout(a), as_layout(b),
	                                                                  as_layout(c), as_layout(d)})) ||
	    (why = bad_relu_mask(md)))
		return INVALID(routine, "%s", why);
	if ((why = matmul_refusal(md, as_layout(a), as_layout(b), as_layout(c), as_layout(d),
	                          &kernel, &scale_size)))
		return REFUSED(routine, "%s", why);
	memset(&results[0], 0, sizeof(results[0]));
	algo_init(&results[0].algo, md->compute, as_layout(a)->type, as_layout(d)->type);
	results[0].state = CUBLAS_STATUS_SUCCESS;
	results[0].wavesCount = 1.0f;
	*returned = 1;
	return CUBLAS_STATUS_SUCCESS;
}

/* The algorithm API: one algorithm, id 0, for every type combination the library computes
 * (blas_ex_kernel's, A and B of one type, C and D of one); it needs no workspace and runs
 * only its default configuration. */
static bool algo_types(int32_t compute, cudaDataType a, cudaDataType b, cudaDataType c,
                       cudaDataType d)
{
	size_t scale_size;
	return a == b && c == d && blas_ex_kernel(a, c, compute, &scale_size);
}

cublasStatus_t cublasLtMatmulAlgoGetIds(cublasLtHandle_t lt, cublasComputeType_t compute,
                                        cudaDataType_t scale, cudaDataType_t a, cudaDataType_t b,
                                        cudaDataType_t c, cudaDataType_t d, int requested,
                                        int ids[], int *returned)
{
	const char *routine = "cublasLtMatmulAlgoGetIds";
	cublasStatus_t s = lt_begin(lt, routine);

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (requested < 1 || !ids || !returned)
		return INVALID(routine, "requested %d", requested);
	*returned = algo_types(compute, a, b, c, d);
	if (*returned)
		ids[0] = 0;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulAlgoInit(cublasLtHandle_t lt, cublasComputeType_t compute,
                                      cudaDataType_t scale, cudaDataType_t a, cudaDataType_t b,
                                      cudaDataType_t c, cudaDataType_t d, int id,
                                      cublasLtMatmulAlgo_t *algo)
{
	const char *routine = "cublasLtMatmulAlgoInit";
	cublasStatus_t s = lt_begin(lt, routine);

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (!algo || id != 0)
		return INVALID(routine, "algorithm %d (only 0)", id);
	if (!algo_types(compute, a, b, c, d))
		return REFUSED(routine, "types A %d, B %d, C %d, D %d with compute type %d", a, b, c, d,
		               compute);
	algo_init(algo, compute, a, d);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulAlgoConfigSetAttribute(cublasLtMatmulAlgo_t *algo,
                                                    cublasLtMatmulAlgoConfigAttributes_t attr,
                                                    const void *buf, size_t size)
{
	if (attr == CUBLASLT_ALGO_CONFIG_ID)
		return INVALID("cublasLtMatmulAlgoConfigSetAttribute", "the algorithm's id is read-only");
	return set_attribute("cublasLtMatmulAlgoConfigSetAttribute", algo, ALGO_MAGIC,
	                     algo_attributes, COUNT(algo_attributes), attr, buf, size);
}

cublasStatus_t cublasLtMatmulAlgoConfigGetAttribute(const cublasLtMatmulAlgo_t *algo,
                                                    cublasLtMatmulAlgoConfigAttributes_t attr,
                                                    void *buf, size_t size, size_t *written)
{
	return get_attribute("cublasLtMatmulAlgoConfigGetAttribute", algo, ALGO_MAGIC,
	                     algo_attributes, COUNT(algo_attributes), attr, buf, size, written);
}

static uint64_t numerical_flags(const struct algo *al)
{
	uint64_t accumulator = al->compute == CUBLAS_COMPUTE_64F || al->compute == CUBLAS_COMPUTE_64F_PEDANTIC
	                           ? CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_64F
	                       : al->compute == CUBLAS_COMPUTE_32I || al->compute == CUBLAS_COMPUTE_32I_PEDANTIC
	                           ? CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32I
	                       : al->compute == CUBLAS_COMPUTE_16F || al->compute == CUBLAS_COMPUTE_16F_PEDANTIC
	                           ? CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_16F
	                           : CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32F;
	uint64_t input = 0;

	switch (al->a_type) {
	case CUDA_R_16F: input = CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_16F; break;
	case CUDA_R_16BF: input = CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_16BF; break;
	case CUDA_R_32F: case CUDA_C_32F: input = CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_32F; break;
	case CUDA_R_64F: case CUDA_C_64F: input = CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_64F; break;
	case CUDA_R_8I: input = CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_8I; break;
	}
	return CUBLASLT_NUMERICAL_IMPL_FLAGS_FMA | accumulator | input;
}

/* What the algorithm can do: strided and pointer-array batches and C apart from D; host and
 * device scalars; every epilogue on real floating-point D; no split K, swizzling, custom
 * options, tiles or stages to choose (one undefined entry each, as cuBLASLt lists for none);
 * no negative leading dimension; each matrix aligned to its element. */
cublasStatus_t cublasLtMatmulAlgoCapGetAttribute(const cublasLtMatmulAlgo_t *algo,
                                                 cublasLtMatmulAlgoCapAttributes_t attr,
                                                 void *buf, size_t size, size_t *written)
{
	const char *routine = "cublasLtMatmulAlgoCapGetAttribute";
	const struct algo *al = (const struct algo *)algo;
	union {
		int32_t i32;
		uint32_t u32;
		uint64_t u64;
	} v;
	size_t need = 4;

	if (!al || al->magic != ALGO_MAGIC)
		return INVALID(routine, "not an algorithm of this library");
	switch (attr) {
	case CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT: case CUBLASLT_ALGO_CAP_OUT_OF_PLACE_RESULT_SUPPORT:
		v.i32 = 1;
		break;
	case CUBLASLT_ALGO_CAP_POINTER_ARRAY_BATCH_SUPPORT:
		v.i32 = 1;
		break;
	case CUBLASLT_ALGO_CAP_SPLITK_SUPPORT: case CUBLASLT_ALGO_CAP_UPLO_SUPPORT:
	case CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX: case CUBLASLT_ALGO_CAP_CUSTOM_MEMORY_ORDER:
	case CUBLASLT_ALGO_CAP_LD_NEGATIVE: case CUBLASLT_ALGO_CAP_FLOATING_POINT_EMULATION_SUPPORT:
		v.i32 = 0;
		break;
	case CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK: case CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT:
	case CUBLASLT_ALGO_CAP_TILE_IDS: case CUBLASLT_ALGO_CAP_STAGES_IDS:
		v.u32 = 0; /* none, and the undefined tile and stages */
		break;
	case CUBLASLT_ALGO_CAP_POINTER_MODE_MASK:
		v.u32 = CUBLASLT_POINTER_MODE_MASK_HOST | CUBLASLT_POINTER_MODE_MASK_DEVICE;
		break;
	case CUBLASLT_ALGO_CAP_EPILOGUE_MASK:
		v.u32 = element_type(al->c_type) < 0 ? CUBLASLT_EPILOGUE_DEFAULT : 1023;
		break;
	case CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS:
		v.u64 = numerical_flags(al), need = 8;
		break;
	case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES: case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_B_BYTES:
		v.u32 = (uint32_t)blas_data_size(al->a_type);
		break;
	case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_C_BYTES: case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_D_BYTES:
		v.u32 = (uint32_t)blas_data_size(al->c_type);
		break;
	default:
		return INVALID(routine, "capability %d", attr);
	}
	if (size == 0 && written) {
		*written = need;
		return CUBLAS_STATUS_SUCCESS;
	}
	if (!buf || size < need)
		return INVALID(routine, "capability %d needs %zu bytes, not %zu", attr, need, size);
	memcpy(buf, &v, need);
	if (written)
		*written = need;
	return CUBLAS_STATUS_SUCCESS;
}

/* Whether the algorithm runs this matmul: the heuristic query's checks, the types it was made
 * for, and its default configuration. */
cublasStatus_t cublasLtMatmulAlgoCheck(cublasLtHandle_t lt, cublasLtMatmulDesc_t desc,
                                       cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                                       cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,
                                       const cublasLtMatmulAlgo_t *algo,
                                       cublasLtMatmulHeuristicResult_t *result)
{
	const char *routine = "cublasLtMatmulAlgoCheck";
	cublasStatus_t s = lt_begin(lt, routine);
	const struct matmul_desc *md = (const struct matmul_desc *)desc;
	const struct algo *al = (const struct algo *)algo;
	const char *kernel, *why;
	size_t scale_size;

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (!result || !al || al->magic != ALGO_MAGIC || !md || md->magic != DESC_MAGIC ||
	    !as_layout(a) || !as_layout(b) || !as_layout(c) || !as_layout(d))
		return INVALID(routine, "a descriptor, layout or algorithm not made by this library");
	if ((why = short_leading_dimension((const struct layout *const[]){as_layout(a), as_layout(b),
	                                                                  as_layout(c), as_layout(d)})) ||
	    (why = bad_relu_mask(md)))
		return INVALID(routine, "%s", why);
	if ((why = matmul_refusal(md, as_layout(a), as_layout(b), as_layout(c), as_layout(d),
	                          &kernel, &scale_size)) || (why = algo_refusal(al, md, as_layout(a), as_layout(d))))
		return REFUSED(routine, "%s", why);
	memset(result, 0, sizeof(*result));
	memmove(&result->algo, algo, sizeof(result->algo));
	result->state = CUBLAS_STATUS_SUCCESS;
	result->wavesCount = 1.0f;
	return CUBLAS_STATUS_SUCCESS;
}

/* C = alpha op(A) + beta op(B) with each matrix in its own layout. */
cublasStatus_t cublasLtMatrixTransform(cublasLtHandle_t lt, cublasLtMatrixTransformDesc_t desc,
                                       const void *alpha, const void *A,
                                       cublasLtMatrixLayout_t a_layout, const void *beta,
                                       const void *B, cublasLtMatrixLayout_t b_layout, void *C,
                                       cublasLtMatrixLayout_t c_layout, cudaStream_t stream)
{
	const char *routine = "cublasLtMatrixTransform";
	cublasStatus_t s = lt_begin(lt, routine);
	const struct transform_desc *t = (const struct transform_desc *)desc;
	const struct layout *a = as_layout(a_layout), *b = as_layout(b_layout),
	                    *c = as_layout(c_layout);
	enum blas_type type;
	struct zc_elementwise_args e;
	char kernel[32];

	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (!t || t->magic != TRANSFORM_MAGIC || !c || (A && !a) || (B && !b))
		return INVALID(routine, "a descriptor or layout not made by this library");
	switch (c->type) {
	case CUDA_R_32F: type = BLAS_S; break;
	case CUDA_R_64F: type = BLAS_D; break;
	case CUDA_C_32F: type = BLAS_C; break;
	case CUDA_C_64F: type = BLAS_Z; break;
	default: return REFUSED(routine, "type %d", c->type);
	}
	if ((a && a->type != c->type) || (b && b->type != c->type) || t->scale != c->type)
		return REFUSED(routine, "types differ from C's %d", c->type);
	if (c->batch_mode || (a && a->batch_mode) || (b && b->batch_mode) || c->plane ||
	    (a && a->plane) || (b && b->plane))
		return REFUSED(routine, "pointer-array batches or planar complex layouts");
	if (c->batch != 1 || (a && a->batch != 1) || (b && b->batch != 1) ||
	    c->order != CUBLASLT_ORDER_COL ||
	    (a && a->order != CUBLASLT_ORDER_COL && a->order != CUBLASLT_ORDER_ROW) ||
	    (b && b->order != CUBLASLT_ORDER_COL && b->order != CUBLASLT_ORDER_ROW))
		return REFUSED(routine, "batches, or orders other than column and row into column");
	if (!alpha || !beta)
		return INVALID(routine, "NULL scalar");
	lt->blas.stream = (CUstream)stream;
	lt->blas.pointer_mode = t->pointer_mode == CUBLASLT_POINTER_MODE_DEVICE
	                            ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
	memset(&e, 0, sizeof(e));
	e.m = (int64_t)c->rows, e.n = (int64_t)c->cols;
	e.alpha = A ? blas_scalar(&lt->blas, alpha, blas_size(type)) : blas_value(0, type);
	e.beta = B ? blas_scalar(&lt->blas, beta, blas_size(type)) : blas_value(0, type);
	if (A)
		e.a = operand(A, a, t->transa);
	if (B)
		e.b = operand(B, b, t->transb);
	e.c = operand(C, c, CUBLAS_OP_N);
	if (e.m == 0 || e.n == 0)
		return CUBLAS_STATUS_SUCCESS;
	snprintf(kernel, sizeof(kernel), "zc_geam_%s", blas_suffix(type));
	return blas_launch(&lt->blas, kernel, blas_blocks(e.m, 256),
	                   e.n > 65535 ? 65535 : (unsigned)e.n, 1, 256, &e);
}
