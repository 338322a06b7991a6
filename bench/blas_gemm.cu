// Benchmark: one GEMM through cuBLAS, timed, checked on 256 sampled elements against the
// host in double, and (for sgemm and dgemm) the same GEMM by the host's reference BLAS
// (libblas.so.3, loaded when present) for a ratio. bench/blas_gemm.sh runs it converted.
//   blas_gemm FORM M N K [REPEAT]
//   FORM: sgemm, dgemm, hgemm (f16 in and out, f32 compute), bf16 (bf16 in, f32 out),
//         i8 (s8 in, s32 out)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <dlfcn.h>
#include <vector>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

static double seconds_since(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

template <class T> static T from_int(int v) { return (T)v; }
template <> __half from_int(int v) { return __float2half((float)v); }
template <> __nv_bfloat16 from_int(int v) { return __float2bfloat16((float)v); }
template <class T> static double to_double(T v) { return (double)v; }
template <> double to_double(__half v) { return __half2float(v); }
template <> double to_double(__nv_bfloat16 v) { return __bfloat162float(v); }

// The host's reference BLAS, for sgemm and dgemm.
typedef void sgemm_fn(const char *, const char *, const int *, const int *, const int *,
                      const float *, const float *, const int *, const float *, const int *,
                      const float *, float *, const int *);
typedef void dgemm_fn(const char *, const char *, const int *, const int *, const int *,
                      const double *, const double *, const int *, const double *, const int *,
                      const double *, double *, const int *);

template <class TI, class TO>
static int run(const char *form, int m, int n, int k, int repeat, cudaDataType ti, cudaDataType to,
               cublasComputeType_t compute)
{
    std::vector<TI> a((size_t)m * k), b((size_t)k * n);
    std::vector<TO> c((size_t)m * n);
    unsigned state = 1;
    auto next = [&] { state = state * 1664525u + 1013904223u; return (int)(state >> 28) - 8; };
    for (auto &v : a) v = from_int<TI>(next() / 2);
    for (auto &v : b) v = from_int<TI>(next() / 2);
    TI *da, *db;
    TO *dc;
    cudaMalloc(&da, a.size() * sizeof(TI));
    cudaMalloc(&db, b.size() * sizeof(TI));
    cudaMalloc(&dc, c.size() * sizeof(TO));
    cudaMemcpy(da, a.data(), a.size() * sizeof(TI), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * sizeof(TI), cudaMemcpyHostToDevice);
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        printf("FAIL: cublasCreate\n");
        return 1;
    }
    float alpha_f = 1, beta_f = 0;
    double alpha_d = 1, beta_d = 0;
    int alpha_i = 1, beta_i = 0;
    const void *alpha = compute == CUBLAS_COMPUTE_64F ? (const void *)&alpha_d
                        : compute == CUBLAS_COMPUTE_32I ? (const void *)&alpha_i : &alpha_f;
    const void *beta = compute == CUBLAS_COMPUTE_64F ? (const void *)&beta_d
                       : compute == CUBLAS_COMPUTE_32I ? (const void *)&beta_i : &beta_f;
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    double best = 1e30;
    for (int r = 0; r < repeat && s == CUBLAS_STATUS_SUCCESS; r++) {
        auto t = std::chrono::steady_clock::now();
        s = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, da, ti, m, db, ti, k, beta,
                         dc, to, m, compute, CUBLAS_GEMM_DEFAULT);
        cudaDeviceSynchronize();
        best = fmin(best, seconds_since(t));
    }
    if (s != CUBLAS_STATUS_SUCCESS) {
        printf("FAIL: cublasGemmEx returned %d\n", (int)s);
        return 1;
    }
    cudaMemcpy(c.data(), dc, c.size() * sizeof(TO), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int t = 0; t < 256; t++) {
        int i = (int)(((unsigned)t * 2654435761u) % (unsigned)m), j = (t * 40503) % n;
        double want = 0;
        for (int l = 0; l < k; l++)
            want += to_double(a[i + (size_t)l * m]) * to_double(b[l + (size_t)j * k]);
        double got = to_double(c[i + (size_t)j * m]);
        wrong += fabs(got - want) > 1e-2 * fmax(1.0, fabs(want));
    }
    double flops = 2.0 * m * n * k;
    printf("%s %dx%dx%d: %.4f s, %.2f GFLOP/s\n", form, m, n, k, best, flops / best * 1e-9);
    void *blas = (!strcmp(form, "sgemm") || !strcmp(form, "dgemm")) ? dlopen("libblas.so.3", RTLD_NOW)
                                                                    : nullptr;
    if (blas) {
        std::vector<TO> host(c.size());
        auto t = std::chrono::steady_clock::now();
        if (!strcmp(form, "sgemm"))
            ((sgemm_fn *)dlsym(blas, "sgemm_"))("N", "N", &m, &n, &k, &alpha_f, (float *)a.data(), &m,
                                                (float *)b.data(), &k, &beta_f, (float *)host.data(), &m);
        else
            ((dgemm_fn *)dlsym(blas, "dgemm_"))("N", "N", &m, &n, &k, &alpha_d, (double *)a.data(), &m,
                                                (double *)b.data(), &k, &beta_d, (double *)host.data(), &m);
        double cpu = seconds_since(t);
        printf("%s %dx%dx%d on the host's reference BLAS: %.4f s, %.2f GFLOP/s; ratio %.3f\n", form,
               m, n, k, cpu, flops / cpu * 1e-9, cpu / best);
    }
    cublasDestroy(h);
    if (wrong) {
        printf("FAIL: %d of 256 sampled elements wrong\n", wrong);
        return 1;
    }
    printf("PASS\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: blas_gemm sgemm|dgemm|hgemm|bf16|i8 M N K [REPEAT]\n");
        return 2;
    }
    const char *form = argv[1];
    int m = atoi(argv[2]), n = atoi(argv[3]), k = atoi(argv[4]);
    int repeat = argc > 5 ? atoi(argv[5]) : 1;
    if (!strcmp(form, "sgemm"))
        return run<float, float>(form, m, n, k, repeat, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F);
    if (!strcmp(form, "dgemm"))
        return run<double, double>(form, m, n, k, repeat, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F);
    if (!strcmp(form, "hgemm"))
        return run<__half, __half>(form, m, n, k, repeat, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F);
    if (!strcmp(form, "bf16"))
        return run<__nv_bfloat16, float>(form, m, n, k, repeat, CUDA_R_16BF, CUDA_R_32F,
                                          CUBLAS_COMPUTE_32F);
    if (!strcmp(form, "i8"))
        return run<signed char, int>(form, m, n, k, repeat, CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I);
    fprintf(stderr, "blas_gemm: unknown form %s\n", form);
    return 2;
}
