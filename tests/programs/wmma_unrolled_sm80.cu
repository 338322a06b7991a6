// Tensor-core products unrolled past 32 in one kernel, as NVIDIA's tensor-core GEMM samples
// unroll their K loop: one warp computes D = A B over K = 40 steps of the shape's k with every
// step unrolled, for f16 into f32 (m16n16k16) and f64 (m8n8k4). Where the processor has no
// matrix instruction for the form (f64 everywhere, f16 on gfx1030 and the CPU), the lowering
// calls one function per form for each product instead of expanding it inline. The values
// are small integers, so every sum is exact and D must equal the host's product bit for bit.
#include <mma.h>
#include <cuda_fp16.h>
#include <vector>
#include "test_util.h"

using namespace nvcuda;

static const int STEPS = 40;

// A by rows (S x K), B by columns (K x S), D by rows (S x S), K = STEPS x the shape's k.
template <typename In, typename Out, int S, int KS>
__global__ void unrolled(const In *A, const In *B, Out *D) {
    const int K = KS * STEPS;
    wmma::fragment<wmma::accumulator, S, S, KS, Out> c;
    wmma::fill_fragment(c, (Out)0);
#pragma unroll
    for (int k = 0; k < K; k += KS) {
        wmma::fragment<wmma::matrix_a, S, S, KS, In, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, S, S, KS, In, wmma::col_major> b;
        wmma::load_matrix_sync(a, A + k, K);
        wmma::load_matrix_sync(b, B + k, K);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(D, c, S, wmma::mem_row_major);
}

template <typename In, typename Out>
static int check(const char *what, int rows, int k, void (*kernel)(const In *, const In *, Out *),
                 In (*from)(float)) {
    std::vector<In> a(rows * k), b(rows * k);
    std::vector<float> af(rows * k), bf(rows * k);
    for (int i = 0; i < rows * k; i++) {
        af[i] = (float)(i * 7 % 5 - 2);
        bf[i] = (float)(i * 3 % 7 - 3);
        a[i] = from(af[i]);
        b[i] = from(bf[i]);
    }
    In *da, *db;
    Out *dd;
    CHECK(cudaMalloc(&da, a.size() * sizeof(In)));
    CHECK(cudaMalloc(&db, b.size() * sizeof(In)));
    CHECK(cudaMalloc(&dd, rows * rows * sizeof(Out)));
    CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(In), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(In), cudaMemcpyHostToDevice));
    kernel<<<1, 32>>>(da, db, dd);
    CHECK(cudaGetLastError());
    std::vector<Out> d(rows * rows);
    CHECK(cudaMemcpy(d.data(), dd, d.size() * sizeof(Out), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < rows; j++) {
            double want = 0;
            for (int kk = 0; kk < k; kk++) want += (double)af[i * k + kk] * bf[j * k + kk];
            if (d[i * rows + j] != (Out)want && bad++ < 5)
                printf("FAIL %s: D[%d][%d] = %g, want %g\n", what, i, j, (double)d[i * rows + j], want);
        }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dd));
    return bad;
}

static half to_half(float v) { return __float2half(v); }
static double to_double(float v) { return v; }

int main() {
    int bad = check<half, float>("f16 m16n16k16", 16, 16 * STEPS, unrolled<half, float, 16, 16>, to_half) +
              check<double, double>("f64 m8n8k4", 8, 4 * STEPS, unrolled<double, double, 8, 4>, to_double);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
