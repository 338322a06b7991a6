// cuBLAS's legacy API (cublas.h: no handle, scalars by value, characters for operations) as
// old programs use it, against host references in double precision: a call before
// cublasInit runs (the library initialises itself, as NVIDIA's does), cublasAlloc and
// cublasFree, Set/GetVector and Set/GetMatrix, level 1 (axpy, scal, dot, nrm2, asum,
// isamax, copy, swap, rot), level 2 (gemv, ger, trsv) and level 3 (gemm in S, D, C and Z,
// trsm, syrk, symm, herk) on the stream cublasSetKernelStream chose, a bad operation
// character reported as INVALID_VALUE, and cublasShutdown. Inputs are small integers, so
// results are exact but for the solve and the norm. The rest of the legacy API (band,
// packed, rank-2 and Hermitian forms, trmm, syr2k, her2k, rotg, rotm, rotmg) against the
// same call of its v2 form.
// Prints "FAIL <routine>: <detail>" per failing check, then "PASS" or "FAIL: N checks failed".
#include "test_util.h"
#include <cublas.h>
#include <complex>
#include <cstring>
#include <vector>

typedef std::complex<double> cd;
static int failures = 0;
static uint32_t seed = 12345;
static int small() {
    seed = seed * 1664525u + 1013904223u;
    return (int)(seed >> 28) % 7 - 3;
}

static void fail(const char *routine, const char *fmt, double a, double b) {
    printf("FAIL %s: ", routine);
    printf(fmt, a, b);
    printf("\n");
    failures++;
}
static void expect_status(const char *what, cublasStatus got, cublasStatus want) {
    if (got != want) fail(what, "status %g, want %g", got, want);
}
// Nothing failed since the last look: cublasGetError must say so.
static void no_error(const char *routine) { expect_status(routine, cublasGetError(), CUBLAS_STATUS_SUCCESS); }
static void close_to(const char *routine, double got, double want, double tol) {
    if (fabs(got - want) > tol * (fabs(want) > 1 ? fabs(want) : 1)) fail(routine, "%.12g, want %.12g", got, want);
}

template <typename T> static T *device(const std::vector<T> &h) {
    T *d = nullptr;
    expect_status("cublasAlloc", cublasAlloc((int)h.size(), sizeof(T), (void **)&d), CUBLAS_STATUS_SUCCESS);
    expect_status("cublasSetVector", cublasSetVector((int)h.size(), sizeof(T), h.data(), 1, d, 1), CUBLAS_STATUS_SUCCESS);
    return d;
}
template <typename T> static std::vector<T> host(const T *d, size_t n) {
    std::vector<T> h(n);
    expect_status("cublasGetVector", cublasGetVector((int)n, sizeof(T), d, 1, h.data(), 1), CUBLAS_STATUS_SUCCESS);
    return h;
}
template <typename T> static std::vector<T> values(size_t n) {
    std::vector<T> v(n);
    for (auto &x : v) x = (T)small();
    return v;
}

static void level1() {
    const int n = 37;
    std::vector<float> x = values<float>(n), y = values<float>(n);
    float *dx = device(x), *dy = device(y);
    double dot = 0, nrm = 0, asum = 0;
    int imax = 1;
    for (int i = 0; i < n; i++) {
        dot += x[i] * y[i], nrm += x[i] * x[i], asum += fabs(x[i]);
        if (fabs(x[i]) > fabs(x[imax - 1])) imax = i + 1;
    }
    close_to("cublasSdot", cublasSdot(n, dx, 1, dy, 1), dot, 0);
    close_to("cublasSnrm2", cublasSnrm2(n, dx, 1), sqrt(nrm), 1e-6);
    close_to("cublasSasum", cublasSasum(n, dx, 1), asum, 0);
    close_to("cublasIsamax", cublasIsamax(n, dx, 1), imax, 0);
    no_error("level 1 reductions");
    cublasSaxpy(n, 2.0f, dx, 1, dy, 1);   // y = 2x + y
    cublasSscal(n, -1.0f, dx, 1);         // x = -x
    cublasSrot(n, dx, 1, dy, 1, 0.0f, 1.0f);  // (x, y) = (y, -x)
    no_error("level 1");
    std::vector<float> gx = host(dx, n), gy = host(dy, n);
    for (int i = 0; i < n; i++) {
        close_to("cublasSaxpy/Sscal/Srot x", gx[i], 2 * x[i] + y[i], 0);
        close_to("cublasSaxpy/Sscal/Srot y", gy[i], x[i], 0);
    }
    cublasScopy(n, dx, 1, dy, 1);
    cublasSswap(n, dx, 1, dy, 1);
    no_error("cublasScopy/Sswap");
    gy = host(dy, n);
    for (int i = 0; i < n; i++) close_to("cublasScopy/Sswap", gy[i], 2 * x[i] + y[i], 0);
    cublasFree(dx);
    cublasFree(dy);
}

// C = alpha op(A) op(B) + beta C in each type, op T for A and N for B (C for complex A).
template <typename T, typename F>
static void gemm(const char *routine, F fn, T alpha, T beta, char ta) {
    const int m = 19, n = 13, k = 11, lda = k + 1, ldb = k + 2, ldc = m + 3;
    std::vector<T> A(lda * m), B(ldb * n), C(ldc * n);
    for (auto &v : A) v = T(small(), small());
    for (auto &v : B) v = T(small(), small());
    for (auto &v : C) v = T(small(), small());
    T *dA = device(A), *dB = device(B), *dC = device(C);
    fn(ta, 'n', m, n, k, alpha, dA, lda, dB, ldb, beta, dC, ldc);
    no_error(routine);
    std::vector<T> got = host(dC, C.size());
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            cd s = 0;
            for (int l = 0; l < k; l++) {
                cd a(A[l + i * lda].real(), A[l + i * lda].imag());
                if (ta == 'c' || ta == 'C') a = std::conj(a);
                s += a * cd(B[l + j * ldb].real(), B[l + j * ldb].imag());
            }
            cd want = cd(alpha.real(), alpha.imag()) * s + cd(beta.real(), beta.imag()) * cd(C[i + j * ldc].real(), C[i + j * ldc].imag());
            T g = got[i + j * ldc];
            if (g.real() != want.real() || g.imag() != want.imag()) {
                fail(routine, "element got %g, want %g (real parts)", g.real(), want.real());
                break;
            }
        }
    cublasFree(dA), cublasFree(dB), cublasFree(dC);
}

// Complex numbers the way the test builds them, through cuComplex's layout.
template <typename T, typename R> struct Cplx {
    T v;
    Cplx(R re = 0, R im = 0) { v.x = re, v.y = im; }
    R real() const { return v.x; }
    R imag() const { return v.y; }
};
template <typename R> struct Real {
    R v;
    Real(R re = 0, R = 0) : v(re) {}
    R real() const { return v; }
    R imag() const { return 0; }
};

static void level2_3(cudaStream_t st) {
    expect_status("cublasSetKernelStream", cublasSetKernelStream(st), CUBLAS_STATUS_SUCCESS);
    gemm<Real<float>>("cublasSgemm", [](char a, char b, int m, int n, int k, Real<float> al, Real<float> *A, int lda, Real<float> *B, int ldb, Real<float> be, Real<float> *C, int ldc) {
        cublasSgemm(a, b, m, n, k, al.v, &A->v, lda, &B->v, ldb, be.v, &C->v, ldc);
    }, Real<float>(2), Real<float>(-1), 't');
    gemm<Real<double>>("cublasDgemm", [](char a, char b, int m, int n, int k, Real<double> al, Real<double> *A, int lda, Real<double> *B, int ldb, Real<double> be, Real<double> *C, int ldc) {
        cublasDgemm(a, b, m, n, k, al.v, &A->v, lda, &B->v, ldb, be.v, &C->v, ldc);
    }, Real<double>(3), Real<double>(0.5), 'T');
    typedef Cplx<cuComplex, float> C32;
    typedef Cplx<cuDoubleComplex, double> C64;
    gemm<C32>("cublasCgemm", [](char a, char b, int m, int n, int k, C32 al, C32 *A, int lda, C32 *B, int ldb, C32 be, C32 *C, int ldc) {
        cublasCgemm(a, b, m, n, k, al.v, &A->v, lda, &B->v, ldb, be.v, &C->v, ldc);
    }, C32(1, -2), C32(2, 1), 'c');
    gemm<C64>("cublasZgemm", [](char a, char b, int m, int n, int k, C64 al, C64 *A, int lda, C64 *B, int ldb, C64 be, C64 *C, int ldc) {
        cublasZgemm(a, b, m, n, k, al.v, &A->v, lda, &B->v, ldb, be.v, &C->v, ldc);
    }, C64(-1, 1), C64(0, 0), 'C');

    // gemv, ger, then the solve of a well-conditioned lower triangle, and syrk, symm, herk
    const int n = 17, lda = 19;
    std::vector<double> A(lda * n), x = values<double>(n), y = values<double>(n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < lda; i++) A[i + j * lda] = i == j ? 8 + j : i > j && i < n ? small() / 4.0 : -777;
    double *dA = device(A), *dx = device(x), *dy = device(y);
    cublasDgemv('n', n, n, 2.0, dA, lda, dx, 1, 0.0, dy, 1);
    std::vector<double> gy = host(dy, n);
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j <= i; j++) s += (i == j ? 8 + j : A[i + j * lda]) * x[j];
        for (int j = i + 1; j < n; j++) s += -777 * x[j];
        close_to("cublasDgemv", gy[i], 2 * s, 1e-12);
    }
    std::vector<double> b = x;
    cublasDtrsv('L', 'N', 'N', n, dA, lda, dx, 1);  // lower triangle x = b
    std::vector<double> gx = host(dx, n);
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j <= i; j++) s += A[i + j * lda] * gx[j];
        close_to("cublasDtrsv", s, b[i], 1e-10);
    }
    no_error("cublasDgemv/Dtrsv");
    std::vector<float> fx = values<float>(n), fy = values<float>(n), F(lda * n, 0.0f);
    float *dfx = device(fx), *dfy = device(fy), *dF = device(F);
    cublasSger(n, n, 3.0f, dfx, 1, dfy, 1, dF, lda);
    std::vector<float> gF = host(dF, F.size());
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) close_to("cublasSger", gF[i + j * lda], 3.0 * fx[i] * fy[j], 0);
    no_error("cublasSger");

    // herk: C = A A^H on the upper triangle, its diagonal real
    const int k = 5;
    std::vector<cuComplex> Z(n * k), H(n * n);
    for (auto &v : Z) v = make_cuComplex(small(), small());
    for (auto &v : H) v = make_cuComplex(small(), small());
    cuComplex *dZ = device(Z), *dH = device(H);
    cublasCherk('U', 'N', n, k, 1.0f, dZ, n, 0.0f, dH, n);
    std::vector<cuComplex> gH = host(dH, H.size());
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++) {
            cd s = 0;
            for (int l = 0; l < k; l++)
                s += cd(Z[i + l * n].x, Z[i + l * n].y) * std::conj(cd(Z[j + l * n].x, Z[j + l * n].y));
            close_to("cublasCherk re", gH[i + j * n].x, s.real(), 0);
            close_to("cublasCherk im", gH[i + j * n].y, i == j ? 0 : s.imag(), 0);
        }
    no_error("cublasCherk");
    cublasFree(dA), cublasFree(dx), cublasFree(dy), cublasFree(dfx), cublasFree(dfy), cublasFree(dF), cublasFree(dZ), cublasFree(dH);

    // a bad operation character: INVALID_VALUE, once
    cublasSgemm('x', 'n', 1, 1, 1, 1.0f, nullptr, 1, nullptr, 1, 0.0f, nullptr, 1);
    expect_status("cublasSgemm('x')", cublasGetError(), CUBLAS_STATUS_INVALID_VALUE);
    no_error("cublasGetError resets");
    expect_status("cublasSetKernelStream", cublasSetKernelStream(0), CUBLAS_STATUS_SUCCESS);
}

// ---- the rest of the legacy API against its v2 form ------------------------------------------
// Each legacy call and its v2 call (cublas_api.h's _v2 name, on a handle of the test's own) on
// copies of the same operands: the outputs must agree bit for bit (the v2 routines are checked
// against host references by cublas_routines). The operation, fill and diagonal characters
// vary in case and value, so that a wrong reading of any of them shows.
static cublasHandle_t v2;
template <typename T> static T random_value() { return (T)small(); }
template <> cuComplex random_value<cuComplex>() { return make_cuComplex(small(), small()); }
template <> cuDoubleComplex random_value<cuDoubleComplex>() { return make_cuDoubleComplex(small(), small()); }

template <typename T> struct Twin {
    std::vector<T> init;
    T *a, *b;
    explicit Twin(size_t n) : init(n) {
        for (auto &v : init) v = random_value<T>();
        a = device(init), b = device(init);
    }
    ~Twin() { cublasFree(a), cublasFree(b); }
    void same(const char *routine) {
        CHECK(cudaDeviceSynchronize());
        no_error(routine);
        std::vector<T> ga = host(a, init.size()), gb = host(b, init.size());
        if (memcmp(ga.data(), gb.data(), ga.size() * sizeof(T)))
            fail(routine, "differs from the v2 form's result (%g elements, %g bytes each)", (double)ga.size(), (double)sizeof(T));
    }
};
template <typename T> static void same_scalars(const char *routine, const T *a, const T *b, int count) {
    no_error(routine);
    if (memcmp(a, b, count * sizeof(T))) fail(routine, "scalars differ from the v2 form's (%g of %g bytes)", count, sizeof(T));
}

#define EVERY_TYPE(P, T)                                                                                          \
    static void twins_##P() {                                                                                     \
        const int n = 9, kl = 1, ku = 2;                                                                          \
        Twin<T> A(n * n), x(n);                                                                                   \
        T alpha = random_value<T>(), beta = random_value<T>();                                                    \
        { Twin<T> y(2 * n);                                                                                       \
          cublas##P##gbmv('t', n, n, kl, ku, alpha, A.a, n, x.a, 1, beta, y.a, 2);                                \
          cublas##P##gbmv_v2(v2, CUBLAS_OP_T, n, n, kl, ku, &alpha, A.b, n, x.b, 1, &beta, y.b, 2);               \
          y.same("cublas" #P "gbmv"); }                                                                           \
        { Twin<T> y(n);                                                                                           \
          cublas##P##tbmv('u', 'N', 'n', n, ku, A.a, n, y.a, 1);                                                  \
          cublas##P##tbmv_v2(v2, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, ku, A.b, n, y.b, 1); \
          y.same("cublas" #P "tbmv"); }                                                                           \
        { Twin<T> y(n);                                                                                           \
          cublas##P##tbsv('L', 't', 'U', n, kl, A.a, n, y.a, 1);                                                  \
          cublas##P##tbsv_v2(v2, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT, n, kl, A.b, n, y.b, 1);   \
          y.same("cublas" #P "tbsv"); }                                                                           \
        { Twin<T> y(n);                                                                                           \
          cublas##P##tpmv('l', 'T', 'N', n, A.a, y.a, 1);                                                         \
          cublas##P##tpmv_v2(v2, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, n, A.b, y.b, 1);      \
          y.same("cublas" #P "tpmv"); }                                                                           \
        { Twin<T> y(n);                                                                                           \
          cublas##P##tpsv('U', 'n', 'u', n, A.a, y.a, 1);                                                         \
          cublas##P##tpsv_v2(v2, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, A.b, y.b, 1);          \
          y.same("cublas" #P "tpsv"); }                                                                           \
        { Twin<T> B(n * n);                                                                                       \
          cublas##P##trmm('r', 'U', 'T', 'N', n, n - 2, alpha, A.a, n, B.a, n);                                   \
          cublas##P##trmm_v2(v2, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, n,  \
                             n - 2, &alpha, A.b, n, B.b, n, B.b, n);                                              \
          B.same("cublas" #P "trmm"); }                                                                           \
        { Twin<T> B(n * n), C(n * n);                                                                             \
          cublas##P##syr2k('l', 't', n, n - 3, alpha, A.a, n, B.a, n, beta, C.a, n);                              \
          cublas##P##syr2k_v2(v2, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, n, n - 3, &alpha, A.b, n, B.b, n, &beta,   \
                              C.b, n);                                                                            \
          C.same("cublas" #P "syr2k"); }                                                                          \
    }
EVERY_TYPE(S, float)
EVERY_TYPE(D, double)
EVERY_TYPE(C, cuComplex)
EVERY_TYPE(Z, cuDoubleComplex)

#define REAL_TYPE(P, T)                                                                                           \
    static void twins_real_##P() {                                                                                \
        const int n = 9, k = 2;                                                                                   \
        Twin<T> A(n * n), x(n), y(n);                                                                             \
        T alpha = 2, beta = -1;                                                                                   \
        { Twin<T> z(n);                                                                                           \
          cublas##P##sbmv('u', n, k, alpha, A.a, n, x.a, 1, beta, z.a, 1);                                        \
          cublas##P##sbmv_v2(v2, CUBLAS_FILL_MODE_UPPER, n, k, &alpha, A.b, n, x.b, 1, &beta, z.b, 1);            \
          z.same("cublas" #P "sbmv"); }                                                                           \
        { Twin<T> z(n);                                                                                           \
          cublas##P##spmv('L', n, alpha, A.a, x.a, 1, beta, z.a, 1);                                              \
          cublas##P##spmv_v2(v2, CUBLAS_FILL_MODE_LOWER, n, &alpha, A.b, x.b, 1, &beta, z.b, 1);                  \
          z.same("cublas" #P "spmv"); }                                                                           \
        { Twin<T> P_(n * (n + 1) / 2);                                                                            \
          cublas##P##spr('U', n, alpha, x.a, 1, P_.a);                                                            \
          cublas##P##spr_v2(v2, CUBLAS_FILL_MODE_UPPER, n, &alpha, x.b, 1, P_.b);                                 \
          P_.same("cublas" #P "spr"); }                                                                           \
        { Twin<T> P_(n * (n + 1) / 2);                                                                            \
          cublas##P##spr2('l', n, alpha, x.a, 1, y.a, 1, P_.a);                                                   \
          cublas##P##spr2_v2(v2, CUBLAS_FILL_MODE_LOWER, n, &alpha, x.b, 1, y.b, 1, P_.b);                        \
          P_.same("cublas" #P "spr2"); }                                                                          \
        { Twin<T> M(n * n);                                                                                       \
          cublas##P##syr('L', n, alpha, x.a, 1, M.a, n);                                                          \
          cublas##P##syr_v2(v2, CUBLAS_FILL_MODE_LOWER, n, &alpha, x.b, 1, M.b, n);                               \
          M.same("cublas" #P "syr"); }                                                                            \
        { Twin<T> M(n * n);                                                                                       \
          cublas##P##syr2('u', n, alpha, x.a, 1, y.a, 1, M.a, n);                                                 \
          cublas##P##syr2_v2(v2, CUBLAS_FILL_MODE_UPPER, n, &alpha, x.b, 1, y.b, 1, M.b, n);                      \
          M.same("cublas" #P "syr2"); }                                                                           \
        { Twin<T> u(n), w(n);                                                                                     \
          T param[5] = {-1, 2, -3, 5, -1};                                                                        \
          cublas##P##rotm(n, u.a, 1, w.a, 1, param);                                                              \
          cublas##P##rotm_v2(v2, n, u.b, 1, w.b, 1, param);                                                       \
          u.same("cublas" #P "rotm x"), w.same("cublas" #P "rotm y"); }                                           \
        { T a[4] = {3, 4, 0, 0}, b[4] = {3, 4, 0, 0};                                                             \
          cublas##P##rotg(&a[0], &a[1], &a[2], &a[3]);                                                            \
          cublas##P##rotg_v2(v2, &b[0], &b[1], &b[2], &b[3]);                                                     \
          same_scalars("cublas" #P "rotg", a, b, 4); }                                                            \
        { T a[9] = {2, 3, 5, 1, -7, 0, 0, 0, 0}, b[9] = {2, 3, 5, 1, -7, 0, 0, 0, 0};                             \
          cublas##P##rotmg(&a[0], &a[1], &a[2], &a[3], &a[4]);                                                    \
          cublas##P##rotmg_v2(v2, &b[0], &b[1], &b[2], &b[3], &b[4]);                                             \
          same_scalars("cublas" #P "rotmg", a, b, 9); }                                                           \
    }
REAL_TYPE(S, float)
REAL_TYPE(D, double)

#define COMPLEX_TYPE(P, T, R, make)                                                                              \
    static void twins_complex_##P() {                                                                             \
        const int n = 9, k = 2;                                                                                   \
        Twin<T> A(n * n), x(n), y(n);                                                                             \
        T alpha = make(1, -2), beta = make(2, 1);                                                                 \
        R ralpha = 3, rbeta = -1;                                                                                 \
        { Twin<T> z(n);                                                                                           \
          cublas##P##hemv('U', n, alpha, A.a, n, x.a, 1, beta, z.a, 1);                                           \
          cublas##P##hemv_v2(v2, CUBLAS_FILL_MODE_UPPER, n, &alpha, A.b, n, x.b, 1, &beta, z.b, 1);               \
          z.same("cublas" #P "hemv"); }                                                                           \
        { Twin<T> z(n);                                                                                           \
          cublas##P##hbmv('l', n, k, alpha, A.a, n, x.a, 1, beta, z.a, 1);                                        \
          cublas##P##hbmv_v2(v2, CUBLAS_FILL_MODE_LOWER, n, k, &alpha, A.b, n, x.b, 1, &beta, z.b, 1);            \
          z.same("cublas" #P "hbmv"); }                                                                           \
        { Twin<T> z(n);                                                                                           \
          cublas##P##hpmv('u', n, alpha, A.a, x.a, 1, beta, z.a, 1);                                              \
          cublas##P##hpmv_v2(v2, CUBLAS_FILL_MODE_UPPER, n, &alpha, A.b, x.b, 1, &beta, z.b, 1);                  \
          z.same("cublas" #P "hpmv"); }                                                                           \
        { Twin<T> M(n * n);                                                                                       \
          cublas##P##her('L', n, ralpha, x.a, 1, M.a, n);                                                         \
          cublas##P##her_v2(v2, CUBLAS_FILL_MODE_LOWER, n, &ralpha, x.b, 1, M.b, n);                              \
          M.same("cublas" #P "her"); }                                                                            \
        { Twin<T> M(n * n);                                                                                       \
          cublas##P##her2('u', n, alpha, x.a, 1, y.a, 1, M.a, n);                                                 \
          cublas##P##her2_v2(v2, CUBLAS_FILL_MODE_UPPER, n, &alpha, x.b, 1, y.b, 1, M.b, n);                      \
          M.same("cublas" #P "her2"); }                                                                           \
        { Twin<T> P_(n * (n + 1) / 2);                                                                            \
          cublas##P##hpr('U', n, ralpha, x.a, 1, P_.a);                                                           \
          cublas##P##hpr_v2(v2, CUBLAS_FILL_MODE_UPPER, n, &ralpha, x.b, 1, P_.b);                                \
          P_.same("cublas" #P "hpr"); }                                                                           \
        { Twin<T> P_(n * (n + 1) / 2);                                                                            \
          cublas##P##hpr2('l', n, alpha, x.a, 1, y.a, 1, P_.a);                                                   \
          cublas##P##hpr2_v2(v2, CUBLAS_FILL_MODE_LOWER, n, &alpha, x.b, 1, y.b, 1, P_.b);                        \
          P_.same("cublas" #P "hpr2"); }                                                                          \
        { Twin<T> M(n * n);                                                                                       \
          cublas##P##gerc(n, n - 1, alpha, x.a, 1, y.a, 1, M.a, n);                                               \
          cublas##P##gerc_v2(v2, n, n - 1, &alpha, x.b, 1, y.b, 1, M.b, n);                                       \
          M.same("cublas" #P "gerc"); }                                                                           \
        { Twin<T> M(n * n);                                                                                       \
          cublas##P##geru(n - 1, n, alpha, x.a, 1, y.a, 1, M.a, n);                                               \
          cublas##P##geru_v2(v2, n - 1, n, &alpha, x.b, 1, y.b, 1, M.b, n);                                       \
          M.same("cublas" #P "geru"); }                                                                           \
        { Twin<T> B(n * n), C(n * n);                                                                             \
          cublas##P##her2k('U', 'c', n, n - 3, alpha, A.a, n, B.a, n, rbeta, C.a, n);                             \
          cublas##P##her2k_v2(v2, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, n, n - 3, &alpha, A.b, n, B.b, n, &rbeta,  \
                              C.b, n);                                                                            \
          C.same("cublas" #P "her2k"); }                                                                          \
        { T a = make(3, 4), b = make(1, -2), s1, s2, a2 = a, b2 = b;                                              \
          R c1, c2;                                                                                               \
          cublas##P##rotg(&a, b, &c1, &s1);                                                                       \
          cublas##P##rotg_v2(v2, &a2, &b2, &c2, &s2);                                                             \
          same_scalars("cublas" #P "rotg a", &a, &a2, 1), same_scalars("cublas" #P "rotg c", &c1, &c2, 1);        \
          same_scalars("cublas" #P "rotg s", &s1, &s2, 1); }                                                      \
    }
COMPLEX_TYPE(C, cuComplex, float, make_cuComplex)
COMPLEX_TYPE(Z, cuDoubleComplex, double, make_cuDoubleComplex)

static void legacy_against_v2() {
    expect_status("cublasCreate_v2", cublasCreate_v2(&v2), CUBLAS_STATUS_SUCCESS);
    twins_S(), twins_D(), twins_C(), twins_Z();
    twins_real_S(), twins_real_D();
    twins_complex_C(), twins_complex_Z();
    expect_status("cublasDestroy_v2", cublasDestroy_v2(v2), CUBLAS_STATUS_SUCCESS);
}

int main() {
    // before cublasInit: the call runs, as on NVIDIA's library (an H200 with cuBLAS 13)
    float early[4] = {1, -2, 3, -4}, *d_early;
    CHECK(cudaMalloc(&d_early, sizeof early));
    CHECK(cudaMemcpy(d_early, early, sizeof early, cudaMemcpyHostToDevice));
    cublasSscal(4, 3.0f, d_early, 1);
    expect_status("cublasSscal before cublasInit", cublasGetError(), CUBLAS_STATUS_SUCCESS);
    CHECK(cudaMemcpy(early, d_early, sizeof early, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++)
        close_to("cublasSscal before cublasInit", early[i], 3.0 * (i % 2 ? -(i + 1) : i + 1), 0);
    CHECK(cudaFree(d_early));
    expect_status("cublasInit", cublasInit(), CUBLAS_STATUS_SUCCESS);
    no_error("cublasInit");
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    level1();
    level2_3(st);
    legacy_against_v2();
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaStreamDestroy(st));
    expect_status("cublasShutdown", cublasShutdown(), CUBLAS_STATUS_SUCCESS);
    if (failures == 0) {
        printf("PASS\n");
        return 0;
    }
    printf("FAIL: %d checks failed\n", failures);
    return 1;
}
