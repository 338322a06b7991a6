/* A stand-in for AMD's hipBLASLt, written from its documented API (hipblaslt.h of ROCm 6),
 * for the test of cuBLASLt's AMD engine where there is neither an AMD GPU nor ROCm: matmuls
 * of f32, f64, f16 and bf16 matrices in column order with strided batches, computed on the
 * host in double between copies through the process's HIP runtime (ZLUDA_CONVERT_HIP_PATH:
 * the emulator's), with the forward epilogues (bias, ReLU, GELU, GELU's aux). For the
 * gradient epilogues the heuristic query finds no algorithm (count 0, as hipBLASLt answers
 * where it has no kernel), so that the test sees cuBLASLt fall back to the project's
 * kernels. As hipBLASLt documents: operations are 111, 112 and 113, compute types its own
 * numbers, C and D of one type, C never NULL, alpha and beta on the host in the scale type.
 * Every matmul run is appended to the file ZC_HIPBLASLT_STANDIN_LOG names. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standin_hip.h"

enum { SUCCESS = 0, NOT_INITIALIZED = 1, ALLOC_FAILED = 2, INVALID_VALUE = 3, INVALID_ENUM = 10 };
enum { OP_N = 111, OP_T = 112, OP_C = 113 };
enum { R_32F = 0, R_64F = 1, R_16F = 2, R_32I = 10, R_16BF = 14 };
enum { COMPUTE_32F = 2, COMPUTE_32F_FAST_16F = 4, COMPUTE_32F_FAST_16BF = 5,
       COMPUTE_32F_FAST_TF32 = 6, COMPUTE_64F = 7, COMPUTE_32I = 9 };
enum { DEFAULT = 1, RELU = 2, BIAS = 4, RELU_BIAS = 6, GELU = 32, GELU_BIAS = 36,
       GELU_AUX = 160, GELU_AUX_BIAS = 164 };

struct desc {
	int compute, scale, transa, transb, pointer_mode, bias_type;
	uint32_t epilogue;
	void *bias, *aux;
	int64_t aux_ld, aux_stride;
};
struct layout {
	int type, order, batch;
	uint64_t rows, cols;
	int64_t ld, stride;
};
struct preference {
	uint64_t max_workspace;
};
typedef struct {
	uint8_t data[24];
} algo;
typedef struct {
	algo algo;
	size_t workspace_size;
	int state;
	float waves;
	int reserved[4];
} heuristic;

#define EXPORT __attribute__((visibility("default")))

static void log_matmul(int type, uint32_t epilogue, int batch)
{
	const char *path = getenv("ZC_HIPBLASLT_STANDIN_LOG");
	FILE *f;

	if (path && (f = fopen(path, "a"))) {
		fprintf(f, "matmul type %d epilogue %u%s\n", type, epilogue, batch > 1 ? " batched" : "");
		fclose(f);
	}
}

static size_t type_size(int t)
{
	return t == R_64F ? 8 : t == R_16F || t == R_16BF ? 2 : 4;
}

static double get(const uint8_t *p, int t)
{
	switch (t) {
	case R_32F: { float v; memcpy(&v, p, 4); return v; }
	case R_64F: { double v; memcpy(&v, p, 8); return v; }
	case R_16F: { _Float16 v; memcpy(&v, p, 2); return v; }
	case R_16BF: { uint32_t bits = (uint32_t)(p[0] | p[1] << 8) << 16; float v; memcpy(&v, &bits, 4); return v; }
	}
	return 0;
}

static void put(uint8_t *p, int t, double x)
{
	switch (t) {
	case R_32F: { float v = (float)x; memcpy(p, &v, 4); break; }
	case R_64F: memcpy(p, &x, 8); break;
	case R_16F: { _Float16 v = (_Float16)x; memcpy(p, &v, 2); break; }
	case R_16BF: {
		float v = (float)x;
		uint32_t bits;
		memcpy(&bits, &v, 4);
		bits += 0x7fff + (bits >> 16 & 1); /* to the nearest, ties to even */
		p[0] = bits >> 16 & 0xff, p[1] = bits >> 24;
		break;
	}
	}
}

EXPORT int hipblasLtCreate(void **handle)
{
	static int one;

	if (!handle)
		return INVALID_VALUE;
	*handle = &one;
	return hip_loaded() ? SUCCESS : NOT_INITIALIZED;
}

EXPORT int hipblasLtDestroy(void *handle)
{
	return handle ? SUCCESS : NOT_INITIALIZED;
}

EXPORT int hipblasLtMatmulDescCreate(struct desc **out, int compute, int scale)
{
	if (!out || (compute != COMPUTE_32F && compute != COMPUTE_32F_FAST_16F &&
	             compute != COMPUTE_32F_FAST_16BF && compute != COMPUTE_32F_FAST_TF32 &&
	             compute != COMPUTE_64F && compute != COMPUTE_32I) ||
	    (scale != R_32F && scale != R_64F && scale != R_32I))
		return INVALID_VALUE;
	if (!(*out = calloc(1, sizeof(struct desc))))
		return ALLOC_FAILED;
	**out = (struct desc){compute, scale, OP_N, OP_N, 0, -1, DEFAULT, NULL, NULL, 0, 0};
	return SUCCESS;
}

EXPORT int hipblasLtMatmulDescDestroy(struct desc *d)
{
	free(d);
	return d ? SUCCESS : INVALID_VALUE;
}

/* An attribute's value: at least as many bytes as its field, as hipBLASLt checks. */
#define SET(field)                                              \
	do {                                                        \
		if (size < sizeof(field))                               \
			return INVALID_VALUE;                               \
		memcpy(&(field), buf, sizeof(field));                   \
		return SUCCESS;                                         \
	} while (0)

EXPORT int hipblasLtMatmulDescSetAttribute(struct desc *d, int attribute, const void *buf,
                                           size_t size)
{
	if (!d || !buf)
		return INVALID_VALUE;
	switch (attribute) {
	case 0: SET(d->transa);
	case 1: SET(d->transb);
	case 2: SET(d->epilogue);
	case 3: SET(d->bias);
	case 4: SET(d->bias_type);
	case 10: SET(d->aux);
	case 11: SET(d->aux_ld);
	case 12: SET(d->aux_stride);
	case 13: SET(d->pointer_mode);
	}
	return INVALID_VALUE;
}

EXPORT int hipblasLtMatrixLayoutCreate(struct layout **out, int type, uint64_t rows,
                                       uint64_t cols, int64_t ld)
{
	if (!out)
		return INVALID_VALUE;
	if (!(*out = calloc(1, sizeof(struct layout))))
		return ALLOC_FAILED;
	**out = (struct layout){type, 0, 1, rows, cols, ld, 0};
	return SUCCESS;
}

EXPORT int hipblasLtMatrixLayoutDestroy(struct layout *l)
{
	free(l);
	return l ? SUCCESS : INVALID_VALUE;
}

EXPORT int hipblasLtMatrixLayoutSetAttribute(struct layout *l, int attribute, const void *buf,
                                             size_t size)
{
	if (!l || !buf)
		return INVALID_VALUE;
	switch (attribute) {
	case 0: SET(l->batch);
	case 1: SET(l->stride);
	case 2: SET(l->type);
	case 3: SET(l->order); /* stored; the matmul reads every matrix in column order */
	case 4: SET(l->rows);
	case 5: SET(l->cols);
	case 6: SET(l->ld);
	}
	return INVALID_VALUE;
}

EXPORT int hipblasLtMatmulPreferenceCreate(struct preference **out)
{
	if (!out)
		return INVALID_VALUE;
	*out = calloc(1, sizeof(struct preference));
	return *out ? SUCCESS : ALLOC_FAILED;
}

EXPORT int hipblasLtMatmulPreferenceDestroy(struct preference *p)
{
	free(p);
	return p ? SUCCESS : INVALID_VALUE;
}

EXPORT int hipblasLtMatmulPreferenceSetAttribute(struct preference *p, int attribute,
                                                 const void *buf, size_t size)
{
	uint32_t search_mode;

	if (!p || !buf)
		return INVALID_VALUE;
	switch (attribute) {
	case 0: SET(search_mode);
	case 1: SET(p->max_workspace);
	}
	return INVALID_VALUE;
}

/* Whether this stand-in computes the matmul: its types and a forward epilogue. */
static int computed(const struct desc *d, const struct layout *a, const struct layout *b,
                    const struct layout *c, const struct layout *dl)
{
	int in = a->type, out = dl->type;
	int types = a->type == b->type && c->type == dl->type &&
	            ((in == R_32F && out == R_32F) || (in == R_64F && out == R_64F) ||
	             ((in == R_16F || in == R_16BF) && (out == in || out == R_32F)));

	switch (d->epilogue) {
	case DEFAULT: case RELU: case BIAS: case RELU_BIAS: case GELU: case GELU_BIAS:
	case GELU_AUX: case GELU_AUX_BIAS:
		return types && (d->compute == COMPUTE_64F) == (in == R_64F);
	}
	return 0;
}

EXPORT int hipblasLtMatmulAlgoGetHeuristic(void *handle, struct desc *d, struct layout *a,
                                           struct layout *b, struct layout *c,
                                           struct layout *dl, struct preference *p,
                                           int requested, heuristic *results, int *found)
{
	if (!handle || !d || !a || !b || !c || !dl || !p || !results || !found || requested < 1)
		return INVALID_VALUE;
	memset(results, 0, (size_t)requested * sizeof(heuristic));
	*found = computed(d, a, b, c, dl);
	return SUCCESS;
}

/* The elements a matrix of layout L spans in device memory, its batches included. */
static size_t span(const struct layout *l)
{
	return (size_t)(l->batch - 1) * (size_t)l->stride + (size_t)l->ld * (l->cols - 1) + l->rows;
}

static uint8_t *fetch(const void *device, const struct layout *l, void *stream)
{
	size_t bytes = span(l) * type_size(l->type);
	uint8_t *host = malloc(bytes);

	if (host && copy(host, device, bytes, TO_HOST, stream)) {
		free(host);
		return NULL;
	}
	return host;
}

static double scalar(const void *p, int scale)
{
	return scale == R_64F ? *(const double *)p : scale == R_32I ? *(const int32_t *)p
	                                                           : *(const float *)p;
}

static double gelu(double x)
{
	return 0.5 * x * (1 + tanh(sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}

EXPORT int hipblasLtMatmul(void *handle, struct desc *d, const void *alpha_p, const void *A,
                           struct layout *a, const void *B, struct layout *b, const void *beta_p,
                           const void *C, struct layout *c, void *D, struct layout *dl,
                           const algo *al, void *workspace, size_t workspace_size, void *stream)
{
	uint32_t e;
	double alpha, beta;
	int64_t m, n, k;
	int status = SUCCESS;

	if (!handle || !d || !a || !b || !c || !dl || !alpha_p || !beta_p || !A || !B || !C || !D)
		return INVALID_VALUE;
	if (c->type != dl->type)
		return INVALID_ENUM;
	if (!computed(d, a, b, c, dl) || d->pointer_mode != 0)
		return 6; /* INTERNAL_ERROR: no implementation, as hipBLASLt answers */
	e = d->epilogue;
	if ((e & BIAS) && !d->bias)
		return INVALID_VALUE;
	alpha = scalar(alpha_p, d->scale), beta = scalar(beta_p, d->scale);
	m = (int64_t)dl->rows, n = (int64_t)dl->cols;
	k = (int64_t)(d->transa == OP_N ? a->cols : a->rows);
	uint8_t *ha = fetch(A, a, stream), *hb = fetch(B, b, stream), *hc = fetch(C, c, stream),
	        *hd = fetch(D, dl, stream), *bias = NULL, *aux = NULL;
	struct layout aux_layout = {dl->type, 0, dl->batch, (uint64_t)m, (uint64_t)n, d->aux_ld,
	                            d->aux_stride};
	struct layout bias_layout = {d->bias_type >= 0 ? d->bias_type : dl->type, 0, 1,
	                             (uint64_t)m, 1, m, 0};
	size_t esize = type_size(dl->type);

	if ((e & BIAS) && !(bias = fetch(d->bias, &bias_layout, stream)))
		status = ALLOC_FAILED;
	if ((e & 128) && !(aux = fetch(d->aux, &aux_layout, stream)))
		status = ALLOC_FAILED;
	if (!ha || !hb || !hc || !hd)
		status = ALLOC_FAILED;
	for (int bt = 0; status == SUCCESS && bt < dl->batch; bt++)
		for (int64_t j = 0; j < n; j++)
			for (int64_t i = 0; i < m; i++) {
				double s = 0, x;
				for (int64_t l = 0; l < k; l++) {
					int64_t ai = d->transa == OP_N ? i + l * a->ld : l + i * a->ld;
					int64_t bi = d->transb == OP_N ? l + j * b->ld : j + l * b->ld;
					s += get(ha + (bt * a->stride + ai) * type_size(a->type), a->type) *
					     get(hb + (bt * b->stride + bi) * type_size(b->type), b->type);
				}
				x = alpha * s;
				if (beta != 0)
					x += beta * get(hc + (bt * c->stride + i + j * c->ld) * esize, c->type);
				if (e & BIAS)
					x += get(bias + i * type_size(bias_layout.type), bias_layout.type);
				if (e & 128)
					put(aux + (bt * d->aux_stride + i + j * d->aux_ld) * esize, dl->type, x);
				if (e & RELU)
					x = x > 0 ? x : 0;
				if (e & GELU)
					x = gelu(x);
				put(hd + (bt * dl->stride + i + j * dl->ld) * esize, dl->type, x);
			}
	if (status == SUCCESS && (copy(D, hd, span(dl) * esize, TO_DEVICE, stream) ||
	                          ((e & 128) && copy(d->aux, aux, span(&aux_layout) * esize,
	                                             TO_DEVICE, stream))))
		status = INVALID_VALUE;
	if (status == SUCCESS)
		log_matmul(a->type, e, dl->batch);
	free(ha), free(hb), free(hc), free(hd), free(bias), free(aux);
	return status;
}
