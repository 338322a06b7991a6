/* What cuBLASLt's parts share (lt.c; its AMD engine, hipblaslt.c): the handle, matrix
 * layouts and matmul descriptors, which live in the semi-opaque storage NVIDIA's header
 * gives them. */
#ifndef ZC_LT_H
#define ZC_LT_H

#include "blas.h"

#include <cublasLt.h>

enum { LT_MAGIC = 0x5a434c54u, LAYOUT_MAGIC = 0x5a434c59u, DESC_MAGIC = 0x5a434d44u,
       PREFERENCE_MAGIC = 0x5a435052u, TRANSFORM_MAGIC = 0x5a435446u, ALGO_MAGIC = 0x5a43414cu };

struct cublasLtContext {
	uint32_t magic;
	struct cublasContext blas;
	void *amd; /* hipBLASLt's handle once hipBLASLt ran a matmul of it (hipblaslt.c) */
};

struct layout {
	uint32_t magic;
	int32_t type, order, batch, batch_mode;
	uint64_t rows, cols;
	int64_t ld, stride, plane;
};

struct matmul_desc {
	uint32_t magic;
	int32_t compute, scale, pointer_mode, transa, transb, transc, fill;
	uint32_t epilogue;
	int32_t sm_count, aux_type, bias_type;
	void *bias, *aux;
	int64_t bias_stride, aux_ld, aux_stride, alpha_stride;
	/* the scaling of 8-bit types, which nothing here provides: any set pointer refuses */
	void *scales[7];
	void *emulation;
	/* int32 attributes kept in a byte each, so that the descriptor fits CUDA 11's storage
	 * (cublasLtMatmulDescOpaque_t of 184 bytes; CUDA 12's and 13's are larger) */
	int8_t scale_modes[6];
	int8_t fast_accum;
};

/* cublasLtMatmul through AMD's hipBLASLt (hipblaslt.c), under the HIP driver where it loads:
 * a matmul lt.c checked. false when hipBLASLt is not there or declines these arguments
 * (traced), for the project's kernels to run it; true once hipBLASLt ran it or failed, with
 * its status in *STATUS. */
bool lt_amd_matmul(cublasLtHandle_t lt, const struct matmul_desc *d, const void *alpha,
                   const void *A, const struct layout *a, const void *B, const struct layout *b,
                   const void *beta, const void *C, const struct layout *c, void *D,
                   const struct layout *dl, void *workspace, size_t workspace_size,
                   cudaStream_t stream, cublasStatus_t *status);
/* The handle's hipBLASLt handle, if it has one, destroyed. */
void lt_amd_release(cublasLtHandle_t lt);

#endif
