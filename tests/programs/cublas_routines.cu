// cuBLAS v2 routines against host references computed here in double precision.
// Helpers: handle, version, status names, pointer and math modes, CUDA 13's emulation and SM
// count settings, streams, Set/Get Vector and
// Matrix (strided, padded, async) and an invalid argument. Level 1, level 2 and level 3 in the
// S, D, C, Z (and H) variants (level 2's band and packed forms too), level 1's Ex forms in every
// type combination NVIDIA's cuBLAS takes (16-bit ones too), GemmEx in the usual type
// combinations, batched and strided-batched GEMM and gemv, grouped GEMM (cuBLAS 12 and later), the
// complex Ex and 3m forms, batched TRSM; with cuBLAS 12 and later, a sample
// of the _64 forms (64-bit sizes) through the same checks. Inputs are small integers from a fixed-seed LCG, so most results are exact,
// but every comparison allows a relative tolerance so that a library with another summation
// order also passes. Triangular and symmetric inputs hold garbage in the triangle the routine must
// not read; routines that write one triangle must leave the other one as it was. Level 1 and 2 run
// on the default stream, level 3 on a created stream; axpy, scal, the reductions and one gemm
// also run with scalars and results in device memory (CUBLAS_POINTER_MODE_DEVICE).
// Prints "FAIL <routine>: <detail>" per failing check, then "PASS" or "FAIL: N checks failed".
#include "test_util.h"
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <unistd.h>

#include <algorithm>
#include <complex>
#include <memory>
#include <string>
#include <vector>

typedef std::complex<double> cd;

// A cuBLAS call that should succeed and does not is a failed check; the run goes on.
#define CB(call)                                                                         \
    do {                                                                                 \
        cublasStatus_t s_ = (call);                                                      \
        if (s_ != CUBLAS_STATUS_SUCCESS)                                                 \
            fail(#call, strf("line %d: returned cublasStatus_t %d", __LINE__, (int)s_)); \
    } while (0)

static cublasHandle_t H;
static int g_failures = 0;
static Lcg rng(20240611);

static std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static std::string strf(const char *fmt, ...) {
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    return b;
}
static void fail(const char *routine, const std::string &detail) {
    printf("FAIL %s: %s\n", routine, detail.c_str());
    g_failures++;
}

// ---- element types ----------------------------------------------------------------------------
template <typename T> struct Ty;  // Real: the scalar type of norms and real factors; stol: solves' tolerance
#define TYPE_TRAITS(T, R, CPLX, AMP, TOL, STOL)                \
    template <> struct Ty<T> {                                 \
        typedef R Real;                                        \
        enum { cplx = CPLX, amp = AMP };                       \
        static double tol() { return TOL; }                    \
        static double stol() { return STOL; }                  \
    };
TYPE_TRAITS(float, float, 0, 4, 1e-5, 1e-4)
TYPE_TRAITS(double, double, 0, 4, 1e-12, 1e-10)
TYPE_TRAITS(cuComplex, float, 1, 4, 1e-5, 1e-4)
TYPE_TRAITS(cuDoubleComplex, double, 1, 4, 1e-12, 1e-10)
TYPE_TRAITS(__half, __half, 0, 2, 1e-2, 1e-2)  // amp 2: sums stay small integers, exact in half
TYPE_TRAITS(__nv_bfloat16, __nv_bfloat16, 0, 2, 1e-2, 1e-2)

static inline cd toc(float v) { return cd(v, 0); }
static inline cd toc(double v) { return cd(v, 0); }
static inline cd toc(cuComplex v) { return cd(v.x, v.y); }
static inline cd toc(cuDoubleComplex v) { return cd(v.x, v.y); }
static inline cd toc(__half v) { return cd(__half2float(v), 0); }
static inline cd toc(__nv_bfloat16 v) { return cd(__bfloat162float(v), 0); }
static inline cd toc(cd v) { return v; }
template <typename T> T fromc(cd v);
template <> float fromc<float>(cd v) { return (float)v.real(); }
template <> double fromc<double>(cd v) { return v.real(); }
template <> cuComplex fromc<cuComplex>(cd v) { return make_cuComplex((float)v.real(), (float)v.imag()); }
template <> cuDoubleComplex fromc<cuDoubleComplex>(cd v) { return make_cuDoubleComplex(v.real(), v.imag()); }
template <> __half fromc<__half>(cd v) { return __float2half((float)v.real()); }
template <> __nv_bfloat16 fromc<__nv_bfloat16>(cd v) { return __float2bfloat16((float)v.real()); }

template <typename T> static std::vector<T> fromcv(const std::vector<cd> &v) {
    std::vector<T> r;
    for (const cd &x : v) r.push_back(fromc<T>(x));
    return r;
}
template <typename T> static std::vector<cd> tocv(const std::vector<T> &v) {
    std::vector<cd> r(v.size());
    for (size_t i = 0; i < v.size(); i++) r[i] = toc(v[i]);
    return r;
}
template <typename T> static T rnd(int amp = Ty<T>::amp) {
    int re = rng.range(-amp, amp + 1);
    return fromc<T>(cd(re, Ty<T>::cplx ? rng.range(-amp, amp + 1) : 0));
}
template <typename T> static std::vector<T> rvec(size_t n, int amp = Ty<T>::amp) {
    std::vector<T> v(n);
    for (auto &x : v) x = rnd<T>(amp);
    return v;
}
template <typename T> static T alpha_of() { return fromc<T>(Ty<T>::cplx ? cd(1, -2) : cd(2, 0)); }
template <typename T> static T beta_of() { return fromc<T>(Ty<T>::cplx ? cd(2, 1) : cd(-1, 0)); }
template <typename T> static T nan_of() { return fromc<T>(cd(NAN, NAN)); }
// What a routine must not read: the unreferenced triangle, a unit diagonal.
template <typename T> static T garbage() { return fromc<T>(cd(-777, 555)); }
template <typename T> static int nops() { return Ty<T>::cplx ? 3 : 2; }

static const cublasOperation_t OPS[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
static const cublasFillMode_t FILLS[2] = {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER};
static const cublasDiagType_t DIAGS[2] = {CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT};
static const cublasSideMode_t SIDES[2] = {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT};
static char opc(cublasOperation_t o) { return o == CUBLAS_OP_N ? 'N' : o == CUBLAS_OP_T ? 'T' : 'C'; }
static char fillc(cublasFillMode_t f) { return f == CUBLAS_FILL_MODE_LOWER ? 'L' : 'U'; }
static char diagc(cublasDiagType_t d) { return d == CUBLAS_DIAG_UNIT ? 'U' : 'N'; }
static char sidec(cublasSideMode_t s) { return s == CUBLAS_SIDE_LEFT ? 'L' : 'R'; }

// ---- device buffers ---------------------------------------------------------------------------
template <typename T> struct Dev {
    T *p = nullptr;
    size_t n;
    explicit Dev(size_t count) : n(count) { CHECK(cudaMalloc((void **)&p, (n ? n : 1) * sizeof(T))); }
    explicit Dev(const std::vector<T> &h) : Dev(h.size()) { put(h); }
    Dev(const Dev &) = delete;
    Dev &operator=(const Dev &) = delete;
    ~Dev() { cudaFree((void *)p); }
    void put(const std::vector<T> &h) { CHECK(cudaMemcpy((void *)p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice)); }
    std::vector<T> get() const {
        CHECK(cudaDeviceSynchronize());
        std::vector<T> h(n);
        CHECK(cudaMemcpy(h.data(), (const void *)p, n * sizeof(T), cudaMemcpyDeviceToHost));
        return h;
    }
};

static void set_mode(bool dev) {
    CB(cublasSetPointerMode(H, dev ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST));
}
static const char *mode_name(bool dev) { return dev ? "device pointers" : "host pointers"; }

// ---- comparisons ------------------------------------------------------------------------------
// |got - want| <= tol * max(1, |want|, scale); a NaN wanted needs a NaN, a NaN got never passes.
static bool close_to(cd got, cd want, double tol, double scale) {
    if (std::isnan(want.real()) || std::isnan(want.imag())) return std::isnan(got.real()) || std::isnan(got.imag());
    return std::abs(got - want) <= tol * std::max(std::max(1.0, std::abs(want)), scale);
}
// Compares the rows x cols matrix at got[off + i + j ld] with want[off + i + j ld].
template <typename T>
static void check_mat(const char *routine, const std::string &what, const std::vector<T> &got, const std::vector<cd> &want,
                      int rows, int cols, int ld, double tol, double scale = 0, size_t off = 0) {
    int bad = 0;
    std::string first;
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++) {
            size_t idx = off + i + (size_t)j * ld;
            cd g = toc(got[idx]), w = want[idx];
            if (!close_to(g, w, tol, scale) && bad++ == 0)
                first = (cols == 1 ? strf("[%d]", i) : strf("[%d,%d]", i, j)) +
                        strf(" = %.9g%+.9gi, want %.9g%+.9gi", g.real(), g.imag(), w.real(), w.imag());
        }
    if (bad) fail(routine, strf("%s: %d of %d wrong, first %s", what.c_str(), bad, rows * cols, first.c_str()));
}
template <typename T>
static void check_vec(const char *routine, const std::string &what, const std::vector<T> &got, const std::vector<cd> &want,
                      double tol, double scale = 0) {
    check_mat(routine, what, got, want, (int)got.size(), 1, (int)got.size(), tol, scale);
}
static void check_scalar(const char *routine, const std::string &what, cd got, cd want, double tol) {
    if (!close_to(got, want, tol, 0))
        fail(routine, strf("%s: %.12g%+.12gi, want %.12g%+.12gi", what.c_str(), got.real(), got.imag(), want.real(),
                           want.imag()));
}
static double max_abs(const std::vector<cd> &v) {
    double m = 0;
    for (const cd &x : v) m = std::max(m, std::abs(x));
    return m;
}

// ---- host references --------------------------------------------------------------------------
// Element (i, j) of op(A) for column-major A.
static cd opel(const cd *A, int lda, cublasOperation_t op, int i, int j) {
    if (op == CUBLAS_OP_N) return A[i + (size_t)j * lda];
    cd v = A[j + (size_t)i * lda];
    return op == CUBLAS_OP_C ? std::conj(v) : v;
}
// C = alpha op(A) op(B) + beta C; with beta 0, C is not read.
static void ref_gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, cd alpha, const cd *A, int lda,
                     const cd *B, int ldb, cd beta, cd *C, int ldc) {
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            cd s = 0;
            for (int l = 0; l < k; l++) s += opel(A, lda, ta, i, l) * opel(B, ldb, tb, l, j);
            cd &c = C[i + (size_t)j * ldc];
            c = alpha * s + (beta == cd(0) ? cd(0) : beta * c);
        }
}
static bool in_tri(cublasFillMode_t uplo, int i, int j) { return uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j; }
// op(T) as a dense n x n matrix (ld n) for the triangle uplo of A: zeros outside, ones on a unit diagonal.
static std::vector<cd> tri_dense(const std::vector<cd> &A, int n, int lda, cublasFillMode_t uplo, cublasOperation_t op,
                                 cublasDiagType_t diag) {
    std::vector<cd> T(n * n), M(n * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            T[i + j * n] = i == j ? (diag == CUBLAS_DIAG_UNIT ? cd(1) : A[i + (size_t)j * lda])
                                  : in_tri(uplo, i, j) ? A[i + (size_t)j * lda] : cd(0);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) M[i + j * n] = opel(T.data(), n, op, i, j);
    return M;
}
// The full symmetric (or Hermitian) matrix whose uplo triangle A holds (ld n).
static std::vector<cd> sym_dense(const std::vector<cd> &A, int n, int lda, cublasFillMode_t uplo, bool herm) {
    std::vector<cd> M(n * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            cd v = in_tri(uplo, i, j) ? A[i + (size_t)j * lda] : A[j + (size_t)i * lda];
            if (herm && !in_tri(uplo, i, j)) v = std::conj(v);
            if (herm && i == j) v = v.real();
            M[i + j * n] = v;
        }
    return M;
}
// Solves M z = b for a dense triangular M (ld n).
static std::vector<cd> solve_tri(const std::vector<cd> &M, int n, bool lower, std::vector<cd> b) {
    for (int s = 0; s < n; s++) {
        int i = lower ? s : n - 1 - s;
        for (int j = 0; j < n; j++)
            if (lower ? j < i : j > i) b[i] -= M[i + j * n] * b[j];
        b[i] /= M[i + i * n];
    }
    return b;
}
// The triangle op(M) is after op: lower stays lower under N, turns upper under T or C.
static bool eff_lower(cublasFillMode_t uplo, cublasOperation_t op) {
    return (uplo == CUBLAS_FILL_MODE_LOWER) == (op == CUBLAS_OP_N);
}
// An n x n matrix (ld lda) with data in the uplo triangle, garbage in the other one and the padding.
// solve: small off-diagonal entries and a diagonal of magnitude 4..8, well conditioned.
// unit: the diagonal is garbage too. real_diag: zero imaginary parts on the diagonal.
template <typename T>
static std::vector<T> tri_input(int n, int lda, cublasFillMode_t uplo, bool unit, bool solve, bool real_diag) {
    std::vector<T> A((size_t)lda * n, garbage<T>());
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (i == j) {
                if (unit) continue;
                cd d = solve ? cd((rng.range(0, 2) ? 1 : -1) * rng.range(4, 9), Ty<T>::cplx ? rng.range(-2, 3) : 0)
                             : toc(rnd<T>());
                A[i + (size_t)j * lda] = fromc<T>(real_diag ? cd(d.real()) : d);
            } else if (in_tri(uplo, i, j)) {
                A[i + (size_t)j * lda] = solve ? fromc<T>(toc(rnd<T>(2)) / 16.0) : rnd<T>();
            }
        }
    return A;
}

// ---- helpers ----------------------------------------------------------------------------------
// The logger: a callback set turns logging on and hears of each call (the function's name in
// the message); cleared, it hears no more; cublasLoggerConfigure logs to a file until turned off.
static std::vector<std::string> g_log;
static void on_log(const char *msg) { g_log.push_back(msg); }
static bool logged(const std::vector<std::string> &lines, const char *name) {
    for (const std::string &l : lines)
        if (l.find(name) != std::string::npos) return true;
    return false;
}
static void test_logger() {
    cublasLogCallback cb = on_log;
    float alpha = 2;
    double dalpha = 2;
    Dev<float> dx(rvec<float>(8));
    Dev<double> dy(rvec<double>(8));
    CB(cublasGetLoggerCallback(&cb));
    if (cb) fail("cublasGetLoggerCallback", "a callback before any was set");
    CB(cublasSetLoggerCallback(on_log));
    CB(cublasGetLoggerCallback(&cb));
    if (cb != on_log) fail("cublasGetLoggerCallback", "not the callback set");
    CB(cublasSscal(H, 8, &alpha, dx.p, 1));
    CB(cublasSetLoggerCallback(nullptr));
    size_t heard = g_log.size();
    CB(cublasDscal(H, 8, &dalpha, dy.p, 1));
    if (!logged(g_log, "cublasSscal")) fail("cublasSetLoggerCallback", strf("no message names cublasSscal (%zu messages)", g_log.size()));
    if (g_log.size() != heard || logged(g_log, "cublasDscal")) fail("cublasSetLoggerCallback", "messages after the callback was cleared");
    char path[] = "/tmp/cublas_logXXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        fail("cublasLoggerConfigure", "no temporary file");
        return;
    }
    close(fd);
    CB(cublasLoggerConfigure(1, 0, 0, path));
    CB(cublasSscal(H, 8, &alpha, dx.p, 1));
    CB(cublasLoggerConfigure(0, 0, 0, nullptr));
    CB(cublasDscal(H, 8, &dalpha, dy.p, 1));
    std::vector<std::string> lines;
    if (FILE *f = fopen(path, "r")) {
        char buf[512];
        while (fgets(buf, sizeof buf, f)) lines.push_back(buf);
        fclose(f);
    }
    unlink(path);
    if (!logged(lines, "cublasSscal")) fail("cublasLoggerConfigure", strf("the log file names no cublasSscal (%zu lines)", lines.size()));
    if (logged(lines, "cublasDscal")) fail("cublasLoggerConfigure", "logged after being turned off");
}

#if CUBLAS_VER_MAJOR >= 13
// CUDA 13's settings on a new handle: their defaults, the values each takes and refuses (as
// NVIDIA's cuBLAS 13 does, measured on an H100), each read back.
struct Settings {
    cublasEmulationStrategy_t strategy = (cublasEmulationStrategy_t)-7;
    cudaEmulationSpecialValuesSupport special = (cudaEmulationSpecialValuesSupport)-7;
    cudaEmulationMantissaControl control = (cudaEmulationMantissaControl)-7;
    int bits = -7, offset = -7, sm = -7, *pointer = &bits;
    explicit Settings(cublasHandle_t h) {
        CB(cublasGetEmulationStrategy(h, &strategy));
        CB(cublasGetEmulationSpecialValuesSupport(h, &special));
        CB(cublasGetFixedPointEmulationMantissaControl(h, &control));
        CB(cublasGetFixedPointEmulationMaxMantissaBitCount(h, &bits));
        CB(cublasGetFixedPointEmulationMantissaBitOffset(h, &offset));
        CB(cublasGetFixedPointEmulationMantissaBitCountPointer(h, &pointer));
        CB(cublasGetSmCountTarget(h, &sm));
    }
    void expect(const char *what, cublasEmulationStrategy_t st, cudaEmulationSpecialValuesSupport sv,
                cudaEmulationMantissaControl mc, int b, int o, const int *p, int s) const {
        if (strategy != st || special != sv || control != mc || bits != b || offset != o || pointer != p || sm != s)
            fail("settings", strf("%s: strategy %d, special values %d, control %d, bits %d, offset %d, pointer %p, SMs %d",
                                  what, (int)strategy, (int)special, (int)control, bits, offset, (void *)pointer, sm));
    }
};

static void test_settings() {
    cublasHandle_t h;
    CB(cublasCreate(&h));
    Settings(h).expect("defaults", CUBLAS_EMULATION_STRATEGY_DEFAULT, CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT,
                       CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC, 0, 0, nullptr, 0);
    auto refused = [](const char *what, cublasStatus_t s) {
        if (s != CUBLAS_STATUS_INVALID_VALUE)
            fail("settings", strf("%s: %d, want CUBLAS_STATUS_INVALID_VALUE", what, (int)s));
    };
    int target = 0, sm = 0;
    CB(cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER));
    refused("strategy 3", cublasSetEmulationStrategy(h, (cublasEmulationStrategy_t)3));
    CB(cublasSetEmulationSpecialValuesSupport(h, CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NAN));
    refused("special values 0x10000", cublasSetEmulationSpecialValuesSupport(h, (cudaEmulationSpecialValuesSupport)0x10000));
    CB(cublasSetFixedPointEmulationMantissaControl(h, CUDA_EMULATION_MANTISSA_CONTROL_FIXED));
    refused("mantissa control 2", cublasSetFixedPointEmulationMantissaControl(h, (cudaEmulationMantissaControl)2));
    CB(cublasSetFixedPointEmulationMaxMantissaBitCount(h, 40));
    refused("max mantissa bits -1", cublasSetFixedPointEmulationMaxMantissaBitCount(h, -1));
    CB(cublasSetFixedPointEmulationMantissaBitOffset(h, -1));
    CB(cublasSetFixedPointEmulationMantissaBitCountPointer(h, &target));
    CHECK(cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, 0));
    CB(cublasSetSmCountTarget(h, sm));
    refused("SM count target beyond the device's", cublasSetSmCountTarget(h, sm + 1));
    refused("SM count target -1", cublasSetSmCountTarget(h, -1));
    refused("a NULL result", cublasGetSmCountTarget(h, nullptr));
    Settings(h).expect("read back", CUBLAS_EMULATION_STRATEGY_EAGER, CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NAN,
                       CUDA_EMULATION_MANTISSA_CONTROL_FIXED, 40, -1, &target, sm);
    CB(cublasDestroy(h));
}
#endif

static void test_helpers(cudaStream_t st) {
    test_logger();
    int ver = 0;
    CB(cublasGetVersion(H, &ver));
    if (ver <= 0) fail("cublasGetVersion", strf("version %d", ver));

    const struct { cublasStatus_t s; const char *name; } names[] = {
        {CUBLAS_STATUS_SUCCESS, "CUBLAS_STATUS_SUCCESS"}, {CUBLAS_STATUS_INVALID_VALUE, "CUBLAS_STATUS_INVALID_VALUE"}};
    for (const auto &n : names) {
        const char *got = cublasGetStatusName(n.s);
        if (!got || strcmp(got, n.name) != 0)
            fail("cublasGetStatusName", strf("%d gave \"%s\", want \"%s\"", (int)n.s, got ? got : "(null)", n.name));
        const char *str = cublasGetStatusString(n.s);
        if (!str || !*str) fail("cublasGetStatusString", strf("%d gave a null or empty string", (int)n.s));
    }

    for (cublasPointerMode_t pm : {CUBLAS_POINTER_MODE_DEVICE, CUBLAS_POINTER_MODE_HOST}) {
        cublasPointerMode_t got;
        CB(cublasSetPointerMode(H, pm));
        CB(cublasGetPointerMode(H, &got));
        if (got != pm) fail("cublasGetPointerMode", strf("got %d after setting %d", (int)got, (int)pm));
    }
    for (cublasMath_t mm : {CUBLAS_TF32_TENSOR_OP_MATH, CUBLAS_DEFAULT_MATH}) {
        cublasMath_t got;
        CB(cublasSetMathMode(H, mm));
        CB(cublasGetMathMode(H, &got));
        if (got != mm) fail("cublasGetMathMode", strf("got %d after setting %d", (int)got, (int)mm));
    }
    for (cudaStream_t s : {st, (cudaStream_t)0}) {
        cudaStream_t got = s == st ? (cudaStream_t)0 : st;  // not what is expected
        CB(cublasSetStream(H, s));
        CB(cublasGetStream(H, &got));
        if (got != s) fail("cublasGetStream", strf("got %p after setting %p", (void *)got, (void *)s));
    }

    // Strided vectors: host stride 2 -> device stride 3 -> host stride 1; the gaps stay.
    const int n = 37;
    std::vector<float> hx = rvec<float>(2 * n, 100), hz(n, -1.f);
    Dev<float> dy(std::vector<float>(3 * n, 555.f));
    CB(cublasSetVector(n, sizeof(float), hx.data(), 2, dy.p, 3));
    std::vector<cd> want(3 * n, cd(555)), wz(n);
    for (int i = 0; i < n; i++) want[3 * i] = wz[i] = hx[2 * i];
    check_vec("cublasSetVector", "incx=2 incy=3", dy.get(), want, 0);
    CB(cublasGetVector(n, sizeof(float), dy.p, 3, hz.data(), 1));
    check_vec("cublasGetVector", "incx=3 incy=1", hz, wz, 0);

    // Padded matrices of 16-byte elements: host lda 8 -> device ldb 9 -> host ld 6; padding stays.
    typedef cuDoubleComplex Z;
    const int rows = 5, cols = 7;
    const Z sent = fromc<Z>(cd(555, -555));
    std::vector<Z> hA = rvec<Z>(8 * cols), hC(6 * cols, sent);
    Dev<Z> dB(std::vector<Z>(9 * cols, sent));
    CB(cublasSetMatrix(rows, cols, sizeof(Z), hA.data(), 8, dB.p, 9));
    std::vector<cd> wB(9 * cols, toc(sent)), wC(6 * cols, toc(sent));
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++) wB[i + 9 * j] = wC[i + 6 * j] = toc(hA[i + 8 * j]);
    check_vec("cublasSetMatrix", "5x7 lda=8 ldb=9", dB.get(), wB, 0);
    CB(cublasGetMatrix(rows, cols, sizeof(Z), dB.p, 9, hC.data(), 6));
    check_vec("cublasGetMatrix", "5x7 lda=9 ldb=6", hC, wC, 0);

    // The async forms on the created stream, with pinned host memory.
    float *px, *py, *pa, *pc;
    CHECK(cudaMallocHost((void **)&px, n * sizeof(float)));
    CHECK(cudaMallocHost((void **)&py, 3 * n * sizeof(float)));
    CHECK(cudaMallocHost((void **)&pa, 7 * cols * sizeof(float)));
    CHECK(cudaMallocHost((void **)&pc, 6 * cols * sizeof(float)));
    for (int i = 0; i < n; i++) px[i] = (float)rng.range(-100, 100);
    for (int i = 0; i < 3 * n; i++) py[i] = -1.f;
    for (int i = 0; i < 7 * cols; i++) pa[i] = (float)rng.range(-100, 100);
    for (int i = 0; i < 6 * cols; i++) pc[i] = -1.f;
    Dev<float> dv(std::vector<float>(2 * n, 555.f)), dm(std::vector<float>(8 * cols, 555.f));
    CB(cublasSetVectorAsync(n, sizeof(float), px, 1, dv.p, 2, st));
    CB(cublasGetVectorAsync(n, sizeof(float), dv.p, 2, py, 3, st));
    CB(cublasSetMatrixAsync(rows, cols, sizeof(float), pa, 7, dm.p, 8, st));
    CB(cublasGetMatrixAsync(rows, cols, sizeof(float), dm.p, 8, pc, 6, st));
    CHECK(cudaStreamSynchronize(st));
    std::vector<cd> wy(3 * n, cd(-1)), wc(6 * cols, cd(-1));
    for (int i = 0; i < n; i++) wy[3 * i] = px[i];
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++) wc[i + 6 * j] = pa[i + 7 * j];
    check_vec("cublasSet/GetVectorAsync", "incx=1 -> 2 -> 3", std::vector<float>(py, py + 3 * n), wy, 0);
    check_vec("cublasSet/GetMatrixAsync", "5x7 ld 7 -> 8 -> 6", std::vector<float>(pc, pc + 6 * cols), wc, 0);
    CHECK(cudaFreeHost(px));
    CHECK(cudaFreeHost(py));
    CHECK(cudaFreeHost(pa));
    CHECK(cudaFreeHost(pc));

    // Invalid arguments.
    Dev<float> d(64);
    float one = 1, zero = 0;
    cublasStatus_t s = cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, -1, 4, 4, &one, d.p, 4, d.p, 4, &zero, d.p, 4);
    if (s != CUBLAS_STATUS_INVALID_VALUE) fail("cublasSgemm", strf("m=-1 returned %d, want CUBLAS_STATUS_INVALID_VALUE", (int)s));
    s = cublasSgemv(H, CUBLAS_OP_N, 8, 4, &one, d.p, 4, d.p, 1, &zero, d.p + 32, 1);
    if (s != CUBLAS_STATUS_INVALID_VALUE) fail("cublasSgemv", strf("lda<m returned %d, want CUBLAS_STATUS_INVALID_VALUE", (int)s));
}

// ---- level 1 ----------------------------------------------------------------------------------
struct VCase { int n, incx, incy; bool dev; };
static const VCase VCASES[] = {{1000, 1, 1, false}, {37, 2, 3, true}};
static std::string vdesc(const VCase &c) { return strf("n=%d incx=%d incy=%d %s", c.n, c.incx, c.incy, mode_name(c.dev)); }

// A: alpha's type (float for the 16-bit Ex forms).
template <typename T, typename A = T>
static void test_axpy(const char *name, cublasStatus_t (*fn)(cublasHandle_t, int, const A *, const T *, int, T *, int)) {
    for (const VCase &c : VCASES) {
        std::vector<T> x = rvec<T>(c.n * c.incx), y = rvec<T>(c.n * c.incy);
        A alpha = alpha_of<A>();
        std::vector<cd> want = tocv(y);
        for (int i = 0; i < c.n; i++) want[i * c.incy] += toc(alpha) * toc(x[i * c.incx]);
        Dev<T> dx(x), dy(y);
        Dev<A> da(std::vector<A>(1, alpha));
        set_mode(c.dev);
        CB(fn(H, c.n, c.dev ? da.p : &alpha, dx.p, c.incx, dy.p, c.incy));
        set_mode(false);
        check_vec(name, vdesc(c), dy.get(), want, Ty<T>::tol());
    }
}

template <typename T, typename A>
static void test_scal(const char *name, cublasStatus_t (*fn)(cublasHandle_t, int, const A *, T *, int)) {
    for (const VCase &c : VCASES) {
        std::vector<T> x = rvec<T>(c.n * c.incx);
        A alpha = alpha_of<A>();
        std::vector<cd> want = tocv(x);
        for (int i = 0; i < c.n; i++) want[i * c.incx] *= toc(alpha);
        Dev<T> dx(x);
        Dev<A> da(std::vector<A>(1, alpha));
        set_mode(c.dev);
        CB(fn(H, c.n, c.dev ? da.p : &alpha, dx.p, c.incx));
        set_mode(false);
        check_vec(name, vdesc(c), dx.get(), want, Ty<T>::tol());
    }
}

// copy (swap false) or swap; both vectors are checked, gaps included.
template <typename T, typename X>
static void test_copy_swap(const char *name, cublasStatus_t (*fn)(cublasHandle_t, int, X *, int, T *, int), bool swap) {
    for (const VCase &c : VCASES) {
        std::vector<T> x = rvec<T>(c.n * c.incx), y = rvec<T>(c.n * c.incy);
        std::vector<cd> wx = tocv(x), wy = tocv(y);
        for (int i = 0; i < c.n; i++) {
            wy[i * c.incy] = toc(x[i * c.incx]);
            if (swap) wx[i * c.incx] = toc(y[i * c.incy]);
        }
        Dev<T> dx(x), dy(y);
        CB(fn(H, c.n, dx.p, c.incx, dy.p, c.incy));
        std::string what = strf("n=%d incx=%d incy=%d", c.n, c.incx, c.incy);
        check_vec(name, what + " x", dx.get(), wx, 0);
        check_vec(name, what + " y", dy.get(), wy, 0);
    }
}

template <typename T>
static void test_dot(const char *name, cublasStatus_t (*fn)(cublasHandle_t, int, const T *, int, const T *, int, T *),
                     bool conj) {
    for (const VCase &c : VCASES) {
        std::vector<T> x = rvec<T>(c.n * c.incx), y = rvec<T>(c.n * c.incy);
        cd want = 0;
        for (int i = 0; i < c.n; i++) {
            cd a = toc(x[i * c.incx]);
            want += (conj ? std::conj(a) : a) * toc(y[i * c.incy]);
        }
        Dev<T> dx(x), dy(y), dr(1);
        T res = garbage<T>();
        set_mode(c.dev);
        CB(fn(H, c.n, dx.p, c.incx, dy.p, c.incy, c.dev ? dr.p : &res));
        set_mode(false);
        if (c.dev) res = dr.get()[0];
        check_scalar(name, vdesc(c), toc(res), want, Ty<T>::tol());
    }
}

// nrm2 (asum false) or asum, plus n = 0 (result 0).
template <typename T, typename R>
static void test_reduce(const char *name, cublasStatus_t (*fn)(cublasHandle_t, int, const T *, int, R *), bool asum) {
    const VCase cases[] = {VCASES[0], VCASES[1], {0, 1, 1, false}};
    for (const VCase &c : cases) {
        std::vector<T> x = rvec<T>(std::max(1, c.n * c.incx));
        double want = 0;
        for (int i = 0; i < c.n; i++) {
            cd v = toc(x[i * c.incx]);
            want += asum ? std::abs(v.real()) + std::abs(v.imag()) : std::norm(v);
        }
        if (!asum) want = sqrt(want);
        Dev<T> dx(x);
        R res = fromc<R>(cd(123));
        Dev<R> dr(std::vector<R>(1, res));
        set_mode(c.dev);
        CB(fn(H, c.n, dx.p, c.incx, c.dev ? dr.p : &res));
        set_mode(false);
        if (c.dev) res = dr.get()[0];
        check_scalar(name, vdesc(c), toc(res), want, Ty<T>::tol());
    }
}

// i(amax|amin): 1-based index of the first element with the largest (smallest) |re| + |im|. The extreme
// value appears twice; for complex x an earlier decoy would win if the modulus were used instead;
// the gaps of a strided x hold values that would win if they were read.
// I: the index's type (int64_t for the _64 forms, whose result in device memory starts as all
// ones, so that a half-written index shows).
template <typename T, typename I = int>
static void test_iamax(const char *name, cublasStatus_t (*fn)(cublasHandle_t, int, const T *, int, I *), bool max) {
    for (const VCase &c : VCASES) {
        std::vector<T> x(c.n * c.incx);
        for (size_t e = 0; e < x.size(); e++) {
            if (e % c.incx) { x[e] = fromc<T>(max ? cd(100, 100) : cd(0)); continue; }
            int re = max ? rng.range(-3, 4) : (rng.range(0, 2) ? 1 : -1) * rng.range(2, 4);
            int im = max ? rng.range(-3, 4) : (rng.range(0, 2) ? 1 : -1) * rng.range(2, 4);
            x[e] = fromc<T>(cd(re, Ty<T>::cplx ? im : 0));
        }
        int p1 = c.n / 7, p2 = c.n * 3 / 5;
        if (Ty<T>::cplx) {
            x[1 * c.incx] = fromc<T>(max ? cd(8.5, 0) : cd(0.75, 0.75));
            x[p1 * c.incx] = fromc<T>(max ? cd(-5, 5) : cd(1.25, 0));
            x[p2 * c.incx] = fromc<T>(max ? cd(4, -6) : cd(0, -1.25));
        } else {
            x[p1 * c.incx] = fromc<T>(max ? -9 : 0.5);
            x[p2 * c.incx] = fromc<T>(max ? 9 : -0.5);
        }
        int want = 0;
        double best = 0;
        for (int i = 0; i < c.n; i++) {
            cd v = toc(x[i * c.incx]);
            double a = std::abs(v.real()) + std::abs(v.imag());
            if (i == 0 || (max ? a > best : a < best)) best = a, want = i + 1;
        }
        Dev<T> dx(x);
        Dev<I> dr(std::vector<I>(1, (I)-1));
        I res = -1;
        set_mode(c.dev);
        CB(fn(H, c.n, dx.p, c.incx, c.dev ? dr.p : &res));
        set_mode(false);
        if (c.dev) res = dr.get()[0];
        if (res != want) fail(name, strf("%s: %lld, want %d", vdesc(c).c_str(), (long long)res, want));
    }
}

// x' = c x + s y, y' = c y - conj(s) x; s real or complex.
template <typename T, typename S>
static void test_rot(const char *name,
                     cublasStatus_t (*fn)(cublasHandle_t, int, T *, int, T *, int, const typename Ty<T>::Real *, const S *)) {
    typedef typename Ty<T>::Real R;
    for (const VCase &c : VCASES) {
        std::vector<T> x = rvec<T>(c.n * c.incx), y = rvec<T>(c.n * c.incy);
        R cc = 0.5;
        S s = fromc<S>(Ty<S>::cplx ? cd(0.5, -0.25) : cd(0.75));
        std::vector<cd> wx = tocv(x), wy = tocv(y);
        for (int i = 0; i < c.n; i++) {
            cd a = toc(x[i * c.incx]), b = toc(y[i * c.incy]);
            wx[i * c.incx] = toc(cc) * a + toc(s) * b;
            wy[i * c.incy] = toc(cc) * b - std::conj(toc(s)) * a;
        }
        Dev<T> dx(x), dy(y);
        CB(fn(H, c.n, dx.p, c.incx, dy.p, c.incy, &cc, &s));
        std::string what = strf("n=%d incx=%d incy=%d", c.n, c.incx, c.incy);
        check_vec(name, what + " x", dx.get(), wx, Ty<T>::tol());
        check_vec(name, what + " y", dy.get(), wy, Ty<T>::tol());
    }
}

// Givens rotation of real (a, b), as the reference BLAS: a <- r, b <- z.
template <typename R> static void test_rotg_real(const char *name, cublasStatus_t (*fn)(cublasHandle_t, R *, R *, R *, R *)) {
    const double in[4][2] = {{3, 4}, {-4, 3}, {0, 2}, {0, 0}};
    for (const auto &ab : in) {
        double a = ab[0], b = ab[1], roe = fabs(a) > fabs(b) ? a : b, scale = fabs(a) + fabs(b), c = 1, s = 0, r = 0, z = 0;
        if (scale != 0) {
            r = copysign(1.0, roe) * scale * sqrt((a / scale) * (a / scale) + (b / scale) * (b / scale));
            c = a / r;
            s = b / r;
            z = fabs(a) > fabs(b) ? s : c != 0 ? 1 / c : 1;
        }
        R ga = fromc<R>(a), gb = fromc<R>(b), gc = fromc<R>(-9), gs = fromc<R>(-9);
        CB(fn(H, &ga, &gb, &gc, &gs));
        CHECK(cudaDeviceSynchronize());
        std::string what = strf("a=%g b=%g", a, b);
        double tol = Ty<R>::tol();
        check_scalar(name, what + " r", toc(ga), r, tol);
        check_scalar(name, what + " z", toc(gb), z, tol);
        check_scalar(name, what + " c", toc(gc), c, tol);
        check_scalar(name, what + " s", toc(gs), s, tol);
    }
}
// rotm: (x, y) <- H (x, y) for each flag's H (param [flag, h11, h21, h12, h22]; -2 is the
// identity), increments 1 and 1, then 2 and -3 with param in device memory.
template <typename R>
static void test_rotm(const char *name, cublasStatus_t (*fn)(cublasHandle_t, int, R *, int, R *, int, const R *)) {
    const int n = 37;
    for (double flag : {-1.0, 0.0, 1.0, -2.0})
        for (int var = 0; var < 2; var++) {
            int incx = var ? 2 : 1, incy = var ? -3 : 1;
            R param[5] = {fromc<R>(flag), fromc<R>(2), fromc<R>(-3), fromc<R>(5), fromc<R>(-1)};
            double h11 = flag == 0 ? 1 : 2, h21 = flag == 1 ? -1 : -3;
            double h12 = flag == 1 ? 1 : 5, h22 = flag == 0 ? 1 : -1;
            if (flag == -2) h11 = h22 = 1, h12 = h21 = 0;
            std::vector<R> x = rvec<R>(n * incx), y = rvec<R>(n * -incy > 0 ? n * -incy : n * incy);
            std::vector<cd> wx = tocv(x), wy = tocv(y);
            int ay = abs(incy);
            for (int i = 0; i < n; i++) {
                int yi = incy > 0 ? i * ay : (n - 1 - i) * ay;
                cd xv = toc(x[i * incx]), yv = toc(y[yi]);
                wx[i * incx] = h11 * xv + h12 * yv;
                wy[yi] = h21 * xv + h22 * yv;
            }
            Dev<R> dx(x), dy(y), dp(std::vector<R>(param, param + 5));
            set_mode(var);
            CB(fn(H, n, dx.p, incx, dy.p, incy, var ? dp.p : param));
            set_mode(false);
            std::string what = strf("flag=%g incx=%d incy=%d %s", flag, incx, incy, mode_name(var));
            check_vec(name, what + " x", dx.get(), wx, Ty<R>::tol());
            check_vec(name, what + " y", dy.get(), wy, Ty<R>::tol());
        }
}
// rotmg, checked by what it promises rather than by its steps: H (from the flag) maps
// (x1, y1) to (x1', 0), and d1 x1^2 + d2 y1^2 = d1' x1'^2; y1 = 0 gives flag -2, a negative
// d1 flag -1 with everything zeroed; a tiny d1 is rescaled back into range (flag -1).
// CASES: how many of the inputs (the last needs a type wider than 16 bits).
template <typename R>
static void test_rotmg(const char *name, cublasStatus_t (*fn)(cublasHandle_t, R *, R *, R *, const R *, R *), int cases = 6) {
    const double in[][4] = {{2, 3, 5, 1}, {1, 4, 1, 3}, {3, 1, -2, 4}, {2, 3, 5, 0}, {-1, 2, 3, 4}, {1e-9, 1, 1, 1e-6}};
    for (int c = 0; c < cases; c++) {
        const double *v = in[c];
        R d1 = fromc<R>(v[0]), d2 = fromc<R>(v[1]), x1 = fromc<R>(v[2]), y1 = fromc<R>(v[3]);
        R p[5] = {fromc<R>(-7), fromc<R>(0), fromc<R>(0), fromc<R>(0), fromc<R>(0)};
        CB(fn(H, &d1, &d2, &x1, &y1, p));
        CHECK(cudaDeviceSynchronize());
        std::string what = strf("d1=%g d2=%g x1=%g y1=%g", v[0], v[1], v[2], v[3]);
        double flag = toc(p[0]).real(), tol = Ty<R>::tol();
        if (v[3] == 0) {
            check_scalar(name, what + " flag", flag, -2, 0);
            continue;
        }
        if (v[0] < 0) {
            check_scalar(name, what + " flag", flag, -1, 0);
            for (R z : {p[1], p[2], p[3], p[4], d1, d2, x1})
                check_scalar(name, what + " zeroed", toc(z), 0, 0);
            continue;
        }
        if (flag != -1 && flag != 0 && flag != 1) {
            fail(name, strf("%s: flag %g", what.c_str(), flag));
            continue;
        }
        if (c == 5) check_scalar(name, what + " flag (rescaled)", flag, -1, 0);
        double h11 = flag == 0 ? 1 : toc(p[1]).real(), h21 = flag == 1 ? -1 : toc(p[2]).real();
        double h12 = flag == 1 ? 1 : toc(p[3]).real(), h22 = flag == 0 ? 1 : toc(p[4]).real();
        double x = h11 * v[2] + h12 * v[3], y = h21 * v[2] + h22 * v[3];
        check_scalar(name, what + " x1'", toc(x1), x, tol);
        check_scalar(name, what + " zeroed y", y / (fabs(v[2]) + fabs(v[3])), 0, tol);
        double before = v[0] * v[2] * v[2] + v[1] * v[3] * v[3], after = toc(d1).real() * toc(x1).real() * toc(x1).real();
        check_scalar(name, what + " norm", after / before, 1, tol);
    }
}
// Complex: c = |a| / norm, s = (a / |a|) conj(b) / norm, a <- (a / |a|) norm.
template <typename T>
static void test_rotg_cplx(const char *name, cublasStatus_t (*fn)(cublasHandle_t, T *, T *, typename Ty<T>::Real *, T *)) {
    const cd in[2][2] = {{cd(3, 4), cd(1, -2)}, {cd(-1, 0.5), cd(6, 2)}};
    for (const auto &ab : in) {
        cd a = ab[0], b = ab[1];
        double scale = std::abs(a) + std::abs(b);
        double norm = scale * sqrt(std::norm(a / scale) + std::norm(b / scale));
        cd alpha = a / std::abs(a);
        double c = std::abs(a) / norm;
        cd s = alpha * std::conj(b) / norm, r = alpha * norm;
        T ga = fromc<T>(a), gb = fromc<T>(b), gs = garbage<T>();
        typename Ty<T>::Real gc = -9;
        CB(fn(H, &ga, &gb, &gc, &gs));
        CHECK(cudaDeviceSynchronize());
        std::string what = strf("a=%g%+gi b=%g%+gi", a.real(), a.imag(), b.real(), b.imag());
        check_scalar(name, what + " r", toc(ga), r, Ty<T>::tol());
        check_scalar(name, what + " c", toc(gc), c, Ty<T>::tol());
        check_scalar(name, what + " s", toc(gs), s, Ty<T>::tol());
    }
}

static void level1() {
    test_axpy("Saxpy", cublasSaxpy); test_axpy("Daxpy", cublasDaxpy); test_axpy("Caxpy", cublasCaxpy);
    test_axpy("Zaxpy", cublasZaxpy);
    test_scal("Sscal", cublasSscal); test_scal("Dscal", cublasDscal); test_scal("Cscal", cublasCscal);
    test_scal("Zscal", cublasZscal); test_scal("Csscal", cublasCsscal); test_scal("Zdscal", cublasZdscal);
    test_copy_swap("Scopy", cublasScopy, false); test_copy_swap("Dcopy", cublasDcopy, false);
    test_copy_swap("Ccopy", cublasCcopy, false); test_copy_swap("Zcopy", cublasZcopy, false);
    test_copy_swap("Sswap", cublasSswap, true); test_copy_swap("Dswap", cublasDswap, true);
    test_copy_swap("Cswap", cublasCswap, true); test_copy_swap("Zswap", cublasZswap, true);
    test_dot("Sdot", cublasSdot, false); test_dot("Ddot", cublasDdot, false); test_dot("Cdotu", cublasCdotu, false);
    test_dot("Cdotc", cublasCdotc, true); test_dot("Zdotu", cublasZdotu, false); test_dot("Zdotc", cublasZdotc, true);
    test_reduce("Snrm2", cublasSnrm2, false); test_reduce("Dnrm2", cublasDnrm2, false); test_reduce("Scnrm2", cublasScnrm2, false);
    test_reduce("Dznrm2", cublasDznrm2, false); test_reduce("Sasum", cublasSasum, true); test_reduce("Dasum", cublasDasum, true);
    test_reduce("Scasum", cublasScasum, true); test_reduce("Dzasum", cublasDzasum, true);
    test_iamax("Isamax", cublasIsamax, true); test_iamax("Idamax", cublasIdamax, true); test_iamax("Icamax", cublasIcamax, true);
    test_iamax("Izamax", cublasIzamax, true); test_iamax("Isamin", cublasIsamin, false); test_iamax("Idamin", cublasIdamin, false);
    test_iamax("Icamin", cublasIcamin, false); test_iamax("Izamin", cublasIzamin, false);
    test_rot("Srot", cublasSrot); test_rot("Drot", cublasDrot); test_rot("Crot", cublasCrot); test_rot("Csrot", cublasCsrot);
    test_rot("Zrot", cublasZrot); test_rot("Zdrot", cublasZdrot);
    test_rotg_real("Srotg", cublasSrotg); test_rotg_real("Drotg", cublasDrotg);
    test_rotg_cplx("Crotg", cublasCrotg); test_rotg_cplx("Zrotg", cublasZrotg);
    test_rotm("Srotm", cublasSrotm); test_rotm("Drotm", cublasDrotm);
    test_rotmg("Srotmg", cublasSrotmg); test_rotmg("Drotmg", cublasDrotmg);
}

// ---- level 1's Ex forms ----------------------------------------------------------------------
// Each Ex routine with the types of a typed routine, through that routine's check; 16-bit
// vectors (executed in float, alpha a float, asum's result a float) likewise; and combinations
// NVIDIA's cuBLAS refuses (an H100, cuBLAS 13) refused.
template <typename T> struct DT;
template <> struct DT<float> { static constexpr cudaDataType type = CUDA_R_32F, exec = CUDA_R_32F; };
template <> struct DT<double> { static constexpr cudaDataType type = CUDA_R_64F, exec = CUDA_R_64F; };
template <> struct DT<cuComplex> { static constexpr cudaDataType type = CUDA_C_32F, exec = CUDA_C_32F; };
template <> struct DT<cuDoubleComplex> { static constexpr cudaDataType type = CUDA_C_64F, exec = CUDA_C_64F; };
template <> struct DT<__half> { static constexpr cudaDataType type = CUDA_R_16F, exec = CUDA_R_32F; };
template <> struct DT<__nv_bfloat16> { static constexpr cudaDataType type = CUDA_R_16BF, exec = CUDA_R_32F; };

// The routines every type has. A: alpha's type; S: asum's result.
template <typename T, typename A, typename S> static void ex_common(const std::string &tag) {
    typedef typename Ty<T>::Real R;
    const cudaDataType t = DT<T>::type;
    (void)t;
    test_axpy<T, A>(("AxpyEx " + tag).c_str(), +[](cublasHandle_t h, int n, const A *a, const T *x, int ix, T *y, int iy) {
        return cublasAxpyEx(h, n, a, DT<A>::type, x, DT<T>::type, ix, y, DT<T>::type, iy, DT<T>::exec);
    });
    test_scal<T, A>(("ScalEx " + tag).c_str(), +[](cublasHandle_t h, int n, const A *a, T *x, int ix) {
        return cublasScalEx(h, n, a, DT<A>::type, x, DT<T>::type, ix, DT<T>::exec);
    });
    test_copy_swap<T, const T>(("CopyEx " + tag).c_str(), +[](cublasHandle_t h, int n, const T *x, int ix, T *y, int iy) {
        return cublasCopyEx(h, n, x, DT<T>::type, ix, y, DT<T>::type, iy);
    }, false);
    test_copy_swap<T, T>(("SwapEx " + tag).c_str(), +[](cublasHandle_t h, int n, T *x, int ix, T *y, int iy) {
        return cublasSwapEx(h, n, x, DT<T>::type, ix, y, DT<T>::type, iy);
    }, true);
    test_dot<T>(("DotEx " + tag).c_str(), +[](cublasHandle_t h, int n, const T *x, int ix, const T *y, int iy, T *r) {
        return cublasDotEx(h, n, x, DT<T>::type, ix, y, DT<T>::type, iy, r, DT<T>::type, DT<T>::exec);
    }, false);
    test_dot<T>(("DotcEx " + tag).c_str(), +[](cublasHandle_t h, int n, const T *x, int ix, const T *y, int iy, T *r) {
        return cublasDotcEx(h, n, x, DT<T>::type, ix, y, DT<T>::type, iy, r, DT<T>::type, DT<T>::exec);
    }, Ty<T>::cplx);
    test_reduce<T, R>(("Nrm2Ex " + tag).c_str(), +[](cublasHandle_t h, int n, const T *x, int ix, R *r) {
        return cublasNrm2Ex(h, n, x, DT<T>::type, ix, r, DT<R>::type, DT<R>::exec);
    }, false);
    test_reduce<T, S>(("AsumEx " + tag).c_str(), +[](cublasHandle_t h, int n, const T *x, int ix, S *r) {
        return cublasAsumEx(h, n, x, DT<T>::type, ix, r, DT<S>::type, DT<T>::exec);
    }, true);
    test_iamax<T>(("IamaxEx " + tag).c_str(), +[](cublasHandle_t h, int n, const T *x, int ix, int *r) {
        return cublasIamaxEx(h, n, x, DT<T>::type, ix, r);
    }, true);
    test_iamax<T>(("IaminEx " + tag).c_str(), +[](cublasHandle_t h, int n, const T *x, int ix, int *r) {
        return cublasIaminEx(h, n, x, DT<T>::type, ix, r);
    }, false);
    // c and s of the cs type; a complex c's imaginary part is not read.
    test_rot<T, T>(("RotEx " + tag).c_str(), +[](cublasHandle_t h, int n, T *x, int ix, T *y, int iy, const R *c, const T *s) {
        T cc = fromc<T>(cd(toc(*c).real(), 99));
        return cublasRotEx(h, n, x, DT<T>::type, ix, y, DT<T>::type, iy, &cc, s, DT<T>::type, DT<T>::exec);
    });
}

// The real types' rotg, rotm and rotmg (16-bit ones: rotmg without the input that needs range).
template <typename R> static void ex_real(const std::string &tag, int rotmg_cases) {
    test_rotg_real<R>(("RotgEx " + tag).c_str(), +[](cublasHandle_t h, R *a, R *b, R *c, R *s) {
        return cublasRotgEx(h, a, b, DT<R>::type, c, s, DT<R>::type, DT<R>::exec);
    });
    test_rotm<R>(("RotmEx " + tag).c_str(), +[](cublasHandle_t h, int n, R *x, int ix, R *y, int iy, const R *p) {
        return cublasRotmEx(h, n, x, DT<R>::type, ix, y, DT<R>::type, iy, p, DT<R>::type, DT<R>::exec);
    });
    test_rotmg<R>(("RotmgEx " + tag).c_str(), +[](cublasHandle_t h, R *d1, R *d2, R *x1, const R *y1, R *p) {
        return cublasRotmgEx(h, d1, DT<R>::type, d2, DT<R>::type, x1, DT<R>::type, y1, DT<R>::type, p, DT<R>::type,
                             DT<R>::exec);
    }, rotmg_cases);
}

static void expect_refused(const char *what, cublasStatus_t s) {
    if (s != CUBLAS_STATUS_NOT_SUPPORTED) fail(what, strf("returned %d, want CUBLAS_STATUS_NOT_SUPPORTED", (int)s));
}

static void level1_ex() {
    ex_common<float, float, float>("S"); ex_common<double, double, double>("D");
    ex_common<cuComplex, cuComplex, float>("C"); ex_common<cuDoubleComplex, cuDoubleComplex, double>("Z");
    ex_common<__half, float, float>("16F"); ex_common<__nv_bfloat16, float, float>("16BF");
    test_rot<cuComplex, float>("RotEx C, real s", +[](cublasHandle_t h, int n, cuComplex *x, int ix, cuComplex *y, int iy,
                                                      const float *c, const float *s) {
        return cublasRotEx(h, n, x, CUDA_C_32F, ix, y, CUDA_C_32F, iy, c, s, CUDA_R_32F, CUDA_C_32F);
    });
    test_rot<cuDoubleComplex, double>("RotEx Z, real s", +[](cublasHandle_t h, int n, cuDoubleComplex *x, int ix,
                                                            cuDoubleComplex *y, int iy, const double *c, const double *s) {
        return cublasRotEx(h, n, x, CUDA_C_64F, ix, y, CUDA_C_64F, iy, c, s, CUDA_R_64F, CUDA_C_64F);
    });
    ex_real<float>("S", 6); ex_real<double>("D", 6); ex_real<__half>("16F", 5); ex_real<__nv_bfloat16>("16BF", 5);
    Dev<float> dx(8), dy(8);
    float f = 1, result = 0;
    double d = 0;
    cuComplex cc = {1, 0};
    expect_refused("AxpyEx x 16F, y 32F", cublasAxpyEx(H, 4, &f, CUDA_R_32F, dx.p, CUDA_R_16F, 1, dy.p, CUDA_R_32F, 1, CUDA_R_32F));
    expect_refused("AxpyEx alpha 16F on 16F", cublasAxpyEx(H, 4, &f, CUDA_R_16F, dx.p, CUDA_R_16F, 1, dy.p, CUDA_R_16F, 1, CUDA_R_32F));
    expect_refused("DotEx 32F into 64F", cublasDotEx(H, 4, dx.p, CUDA_R_32F, 1, dy.p, CUDA_R_32F, 1, &d, CUDA_R_64F, CUDA_R_64F));
    expect_refused("Nrm2Ex 16F into 32F", cublasNrm2Ex(H, 4, dx.p, CUDA_R_16F, 1, &result, CUDA_R_32F, CUDA_R_32F));
    expect_refused("AsumEx 16F into 16F", cublasAsumEx(H, 4, dx.p, CUDA_R_16F, 1, &result, CUDA_R_16F, CUDA_R_32F));
    expect_refused("ScalEx real alpha on C32F", cublasScalEx(H, 4, &f, CUDA_R_32F, dx.p, CUDA_C_32F, 1, CUDA_C_32F));
    expect_refused("RotgEx C32F", cublasRotgEx(H, &cc, &cc, CUDA_C_32F, &f, &cc, CUDA_R_32F, CUDA_C_32F));
    expect_refused("CopyEx 8I", cublasCopyEx(H, 4, dx.p, CUDA_R_8I, 1, dy.p, CUDA_R_8I, 1));
    int index = 0;
    expect_refused("IamaxEx 32I", cublasIamaxEx(H, 4, dx.p, CUDA_R_32I, 1, &index));
}

// ---- level 2 ----------------------------------------------------------------------------------
// y = alpha op(A) x + beta y; the strided variant has beta 0 and y (gaps included) all NaN.
template <typename T>
static void test_gemv(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasOperation_t, int, int, const T *,
                                                             const T *, int, const T *, int, const T *, T *, int)) {
    const int m = 67, n = 45, lda = 70;
    std::vector<T> A = rvec<T>(lda * n);
    std::vector<cd> Ac = tocv(A);
    Dev<T> dA(A);
    for (int o = 0; o < nops<T>(); o++)
        for (int var = 0; var < 2; var++) {
            cublasOperation_t op = OPS[o];
            int incx = var ? 2 : 1, incy = var ? 3 : 1, xl = op == CUBLAS_OP_N ? n : m, yl = op == CUBLAS_OP_N ? m : n;
            T alpha = alpha_of<T>(), beta = var ? fromc<T>(0) : beta_of<T>();
            std::vector<T> x = rvec<T>(xl * incx), y = var ? std::vector<T>(yl * incy, nan_of<T>()) : rvec<T>(yl * incy);
            std::vector<cd> want = tocv(y);
            for (int i = 0; i < yl; i++) {
                cd s = 0;
                for (int j = 0; j < xl; j++) s += opel(Ac.data(), lda, op, i, j) * toc(x[j * incx]);
                want[i * incy] = toc(alpha) * s + (var ? cd(0) : toc(beta) * want[i * incy]);
            }
            Dev<T> dx(x), dy(y);
            CB(fn(H, op, m, n, &alpha, dA.p, lda, dx.p, incx, &beta, dy.p, incy));
            check_vec(name, strf("op=%c incx=%d incy=%d %s", opc(op), incx, incy, var ? "beta=0 y=NaN" : "beta!=0"),
                      dy.get(), want, Ty<T>::tol());
        }
}

// A += alpha x y^T (or y^H with conj).
template <typename T>
static void test_ger(const char *name,
                     cublasStatus_t (*fn)(cublasHandle_t, int, int, const T *, const T *, int, const T *, int, T *, int),
                     bool conj) {
    const int m = 67, n = 45, lda = 70;
    for (int var = 0; var < 2; var++) {
        int incx = var ? 2 : 1, incy = var ? 3 : 1;
        std::vector<T> A = rvec<T>(lda * n), x = rvec<T>(m * incx), y = rvec<T>(n * incy);
        T alpha = alpha_of<T>();
        std::vector<cd> want = tocv(A);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                cd yj = toc(y[j * incy]);
                want[i + j * lda] += toc(alpha) * toc(x[i * incx]) * (conj ? std::conj(yj) : yj);
            }
        Dev<T> dA(A), dx(x), dy(y);
        CB(fn(H, m, n, &alpha, dx.p, incx, dy.p, incy, dA.p, lda));
        check_mat(name, strf("incx=%d incy=%d", incx, incy), dA.get(), want, m, n, lda, Ty<T>::tol());
    }
}

// y = alpha A x + beta y, A symmetric (Hermitian) given by one triangle; the other holds garbage.
template <typename T>
static void test_symv(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, int, const T *, const T *,
                                                             int, const T *, int, const T *, T *, int),
                      bool herm) {
    const int n = 45, lda = 48;
    for (cublasFillMode_t uplo : FILLS)
        for (int var = 0; var < 2; var++) {
            int incx = var ? 2 : 1, incy = var ? 3 : 1;
            std::vector<T> A = tri_input<T>(n, lda, uplo, false, false, herm), x = rvec<T>(n * incx), y = rvec<T>(n * incy);
            std::vector<cd> S = sym_dense(tocv(A), n, lda, uplo, herm), want = tocv(y);
            T alpha = alpha_of<T>(), beta = beta_of<T>();
            for (int i = 0; i < n; i++) {
                cd s = 0;
                for (int j = 0; j < n; j++) s += S[i + j * n] * toc(x[j * incx]);
                want[i * incy] = toc(alpha) * s + toc(beta) * want[i * incy];
            }
            Dev<T> dA(A), dx(x), dy(y);
            CB(fn(H, uplo, n, &alpha, dA.p, lda, dx.p, incx, &beta, dy.p, incy));
            check_vec(name, strf("uplo=%c incx=%d incy=%d", fillc(uplo), incx, incy), dy.get(), want, Ty<T>::tol());
        }
}

// x = op(A) x (trmv) or solve op(A) x = b (trsv), all uplo / trans / diag combinations.
template <typename T>
static void test_trxv(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, cublasOperation_t,
                                                             cublasDiagType_t, int, const T *, int, T *, int),
                      bool solve) {
    const int n = 45, lda = 48;
    int count = 0;
    for (cublasFillMode_t uplo : FILLS)
        for (int o = 0; o < nops<T>(); o++)
            for (cublasDiagType_t diag : DIAGS) {
                cublasOperation_t op = OPS[o];
                int incx = count++ % 2 ? 2 : 1;
                std::vector<T> A = tri_input<T>(n, lda, uplo, diag == CUBLAS_DIAG_UNIT, solve, false), x = rvec<T>(n * incx);
                std::vector<cd> M = tri_dense(tocv(A), n, lda, uplo, op, diag), b(n), want = tocv(x);
                for (int i = 0; i < n; i++) b[i] = toc(x[i * incx]);
                std::vector<cd> r(n);
                if (solve) r = solve_tri(M, n, eff_lower(uplo, op), b);
                else
                    for (int i = 0; i < n; i++)
                        for (int j = 0; j < n; j++) r[i] += M[i + j * n] * b[j];
                for (int i = 0; i < n; i++) want[i * incx] = r[i];
                Dev<T> dA(A), dx(x);
                CB(fn(H, uplo, op, diag, n, dA.p, lda, dx.p, incx));
                check_vec(name, strf("uplo=%c trans=%c diag=%c incx=%d", fillc(uplo), opc(op), diagc(diag), incx), dx.get(),
                          want, solve ? Ty<T>::stol() : Ty<T>::tol(), solve ? max_abs(r) : 0);
            }
}

// A += alpha x x^T on the uplo triangle only; the other triangle must not change.
template <typename T>
static void test_syr(const char *name,
                     cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, int, const T *, const T *, int, T *, int)) {
    const int n = 45, lda = 48;
    for (cublasFillMode_t uplo : FILLS)
        for (int incx = 1; incx <= 2; incx++) {
            std::vector<T> A = rvec<T>(lda * n), x = rvec<T>(n * incx);
            T alpha = alpha_of<T>();
            std::vector<cd> want = tocv(A);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++)
                    if (in_tri(uplo, i, j)) want[i + j * lda] += toc(alpha) * toc(x[i * incx]) * toc(x[j * incx]);
            Dev<T> dA(A), dx(x);
            CB(fn(H, uplo, n, &alpha, dx.p, incx, dA.p, lda));
            check_mat(name, strf("uplo=%c incx=%d", fillc(uplo), incx), dA.get(), want, n, n, lda, Ty<T>::tol());
        }
}

// A += alpha x y^T + alpha y x^T (syr2) on the uplo triangle; the other must not change.
template <typename T>
static void test_syr2(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, int, const T *,
                                                             const T *, int, const T *, int, T *, int)) {
    const int n = 37, lda = 40;
    for (cublasFillMode_t uplo : FILLS) {
        int incx = uplo == CUBLAS_FILL_MODE_LOWER ? 1 : 2, incy = 3;
        std::vector<T> A = rvec<T>(lda * n), x = rvec<T>(n * incx), y = rvec<T>(n * incy);
        T alpha = alpha_of<T>();
        std::vector<cd> want = tocv(A);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (in_tri(uplo, i, j))
                    want[i + j * lda] += toc(alpha) * (toc(x[i * incx]) * toc(y[j * incy]) +
                                                       toc(y[i * incy]) * toc(x[j * incx]));
        Dev<T> dA(A), dx(x), dy(y);
        CB(fn(H, uplo, n, &alpha, dx.p, incx, dy.p, incy, dA.p, lda));
        check_mat(name, strf("uplo=%c incx=%d incy=%d", fillc(uplo), incx, incy), dA.get(), want, n, n, lda,
                  Ty<T>::tol());
    }
}

// Hermitian rank updates on the uplo triangle, the diagonal's imaginary parts 0 on output:
// her A += alpha x x^H (alpha real, in device pointer mode for the upper triangle), her2
// A += alpha x y^H + conj(alpha) y x^H.
template <typename T>
static void test_her(const char *name, const char *name2,
                     cublasStatus_t (*her)(cublasHandle_t, cublasFillMode_t, int, const typename Ty<T>::Real *,
                                           const T *, int, T *, int),
                     cublasStatus_t (*her2)(cublasHandle_t, cublasFillMode_t, int, const T *, const T *, int,
                                            const T *, int, T *, int)) {
    typedef typename Ty<T>::Real R;
    const int n = 33, lda = 35;
    for (cublasFillMode_t uplo : FILLS)
        for (int two = 0; two < 2; two++) {
            bool dev = uplo == CUBLAS_FILL_MODE_UPPER;
            std::vector<T> A = rvec<T>(lda * n), x = rvec<T>(n * 2), y = rvec<T>(n);
            T alpha = alpha_of<T>();
            R real_alpha = 3;
            std::vector<cd> want = tocv(A);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    if (!in_tri(uplo, i, j)) continue;
                    cd xi = toc(x[i * 2]), xj = toc(x[j * 2]), yi = toc(y[i]), yj = toc(y[j]);
                    cd add = two ? toc(alpha) * xi * std::conj(yj) + std::conj(toc(alpha)) * yi * std::conj(xj)
                                 : (double)real_alpha * xi * std::conj(xj);
                    want[i + j * lda] += add;
                    if (i == j) want[i + j * lda] = cd(want[i + j * lda].real(), 0);
                }
            Dev<T> dA(A), dx(x), dy(y);
            Dev<T> dalpha(std::vector<T>{alpha});
            Dev<R> dreal(std::vector<R>{real_alpha});
            set_mode(dev);
            if (two)
                CB(her2(H, uplo, n, dev ? dalpha.p : &alpha, dx.p, 2, dy.p, 1, dA.p, lda));
            else
                CB(her(H, uplo, n, dev ? dreal.p : &real_alpha, dx.p, 2, dA.p, lda));
            set_mode(false);
            check_mat(two ? name2 : name, strf("uplo=%c, %s", fillc(uplo), mode_name(dev)), dA.get(), want, n, n,
                      lda, Ty<T>::tol());
        }
}

// ---- level 2: band and packed storage ---------------------------------------------------------
// Zeroes what lies outside the band of kl sub- and ku superdiagonals (garbage of a triangle not
// stored included), so that the dense references see the band matrix.
template <typename T> static void limit_band(std::vector<T> &A, int m, int n, int lda, int kl, int ku) {
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            if (i - j > kl || j - i > ku) A[i + (size_t)j * lda] = fromc<T>(0);
}
// BLAS's band storage of A (element (i, j) at row ku + i - j), ld ldab, the unused corners garbage.
template <typename T>
static std::vector<T> to_band(const std::vector<T> &A, int m, int n, int lda, int kl, int ku, int ldab) {
    std::vector<T> B((size_t)ldab * n, garbage<T>());
    for (int j = 0; j < n; j++)
        for (int i = std::max(0, j - ku); i < std::min(m, j + kl + 1); i++) B[ku + i - j + (size_t)j * ldab] = A[i + (size_t)j * lda];
    return B;
}
// BLAS's packed storage of A's uplo triangle: its columns one after another.
template <typename T> static std::vector<T> to_packed(const std::vector<T> &A, int n, int lda, cublasFillMode_t uplo) {
    std::vector<T> P;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (in_tri(uplo, i, j)) P.push_back(A[i + (size_t)j * lda]);
    return P;
}
enum Storage { BANDED, PACKED };

// gbmv: y = alpha op(A) x + beta y for a band A (kl 3, ku 5) of 37 x 29.
template <typename T>
static void test_gbmv(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasOperation_t, int, int, int, int, const T *,
                                                             const T *, int, const T *, int, const T *, T *, int)) {
    const int m = 37, n = 29, kl = 3, ku = 5, ldab = kl + ku + 3;
    for (int o = 0; o < nops<T>(); o++) {
        cublasOperation_t op = OPS[o];
        int incx = 1 + o % 2, incy = 1 + o, xl = op == CUBLAS_OP_N ? n : m, yl = op == CUBLAS_OP_N ? m : n;
        std::vector<T> A = rvec<T>((size_t)m * n), x = rvec<T>(xl * incx), y = rvec<T>(yl * incy);
        limit_band(A, m, n, m, kl, ku);
        std::vector<cd> Ac = tocv(A), want = tocv(y);
        T alpha = alpha_of<T>(), beta = beta_of<T>();
        for (int i = 0; i < yl; i++) {
            cd s = 0;
            for (int j = 0; j < xl; j++) s += opel(Ac.data(), m, op, i, j) * toc(x[j * incx]);
            want[i * incy] = toc(alpha) * s + toc(beta) * want[i * incy];
        }
        Dev<T> dA(to_band(A, m, n, m, kl, ku, ldab)), dx(x), dy(y);
        CB(fn(H, op, m, n, kl, ku, &alpha, dA.p, ldab, dx.p, incx, &beta, dy.p, incy));
        check_vec(name, strf("op=%c incx=%d incy=%d", opc(op), incx, incy), dy.get(), want, Ty<T>::tol());
    }
}

// sbmv, hbmv (band, k 4) and spmv, hpmv (packed): y = alpha A x + beta y, A symmetric (Hermitian).
// call(uplo, n, k, alpha, A, lda, x, incx, beta, y, incy).
template <typename T, typename Call> static void test_symv_stored(const char *name, Storage st, bool herm, Call call) {
    const int n = 45, lda = 48, k = 4, ldab = k + 3;
    for (cublasFillMode_t uplo : FILLS)
        for (int var = 0; var < 2; var++) {
            bool lower = uplo == CUBLAS_FILL_MODE_LOWER;
            int incx = var ? 2 : 1, incy = var ? 3 : 1;
            std::vector<T> A = tri_input<T>(n, lda, uplo, false, false, herm), x = rvec<T>(n * incx), y = rvec<T>(n * incy);
            if (st == BANDED) limit_band(A, n, n, lda, lower ? k : 0, lower ? 0 : k);
            std::vector<cd> S = sym_dense(tocv(A), n, lda, uplo, herm), want = tocv(y);
            T alpha = alpha_of<T>(), beta = beta_of<T>();
            for (int i = 0; i < n; i++) {
                cd s = 0;
                for (int j = 0; j < n; j++) s += S[i + j * n] * toc(x[j * incx]);
                want[i * incy] = toc(alpha) * s + toc(beta) * want[i * incy];
            }
            Dev<T> dA(st == BANDED ? to_band(A, n, n, lda, lower ? k : 0, lower ? 0 : k, ldab) : to_packed(A, n, lda, uplo));
            Dev<T> dx(x), dy(y);
            CB(call(uplo, n, k, &alpha, dA.p, ldab, dx.p, incx, &beta, dy.p, incy));
            check_vec(name, strf("uplo=%c incx=%d incy=%d", fillc(uplo), incx, incy), dy.get(), want, Ty<T>::tol());
        }
}
template <typename T>
static void test_sbmv(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, int, int, const T *, const T *,
                                                             int, const T *, int, const T *, T *, int),
                      bool herm) {
    test_symv_stored<T>(name, BANDED, herm, [&](auto u, int n, int k, auto al, auto A, int lda, auto x, int ix, auto be,
                                                auto y, int iy) { return fn(H, u, n, k, al, A, lda, x, ix, be, y, iy); });
}
template <typename T>
static void test_spmv(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, int, const T *, const T *,
                                                             const T *, int, const T *, T *, int),
                      bool herm) {
    test_symv_stored<T>(name, PACKED, herm, [&](auto u, int n, int, auto al, auto A, int, auto x, int ix, auto be, auto y,
                                                int iy) { return fn(H, u, n, al, A, x, ix, be, y, iy); });
}

// tbmv, tbsv (band, k 4) and tpmv, tpsv (packed): x = op(A) x or the solve of op(A) x = b, every
// uplo / trans / diag. call(uplo, op, diag, n, k, A, lda, x, incx).
template <typename T, typename Call> static void test_trxv_stored(const char *name, Storage st, bool solve, Call call) {
    const int n = 45, lda = 48, k = 4, ldab = k + 2;
    int count = 0;
    for (cublasFillMode_t uplo : FILLS)
        for (int o = 0; o < nops<T>(); o++)
            for (cublasDiagType_t diag : DIAGS) {
                cublasOperation_t op = OPS[o];
                bool lower = uplo == CUBLAS_FILL_MODE_LOWER;
                int incx = count++ % 2 ? 2 : 1;
                std::vector<T> A = tri_input<T>(n, lda, uplo, diag == CUBLAS_DIAG_UNIT, solve, false), x = rvec<T>(n * incx);
                if (st == BANDED) limit_band(A, n, n, lda, lower ? k : 0, lower ? 0 : k);
                std::vector<cd> M = tri_dense(tocv(A), n, lda, uplo, op, diag), b(n), want = tocv(x), r(n);
                for (int i = 0; i < n; i++) b[i] = toc(x[i * incx]);
                if (solve) r = solve_tri(M, n, eff_lower(uplo, op), b);
                else
                    for (int i = 0; i < n; i++)
                        for (int j = 0; j < n; j++) r[i] += M[i + j * n] * b[j];
                for (int i = 0; i < n; i++) want[i * incx] = r[i];
                Dev<T> dA(st == BANDED ? to_band(A, n, n, lda, lower ? k : 0, lower ? 0 : k, ldab) : to_packed(A, n, lda, uplo));
                Dev<T> dx(x);
                CB(call(uplo, op, diag, n, k, dA.p, ldab, dx.p, incx));
                check_vec(name, strf("uplo=%c trans=%c diag=%c incx=%d", fillc(uplo), opc(op), diagc(diag), incx), dx.get(),
                          want, solve ? Ty<T>::stol() : Ty<T>::tol(), solve ? max_abs(r) : 0);
            }
}
template <typename T>
static void test_tbxv(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, cublasOperation_t,
                                                             cublasDiagType_t, int, int, const T *, int, T *, int),
                      bool solve) {
    test_trxv_stored<T>(name, BANDED, solve, [&](auto u, auto o, auto d, int n, int k, auto A, int lda, auto x, int ix) {
        return fn(H, u, o, d, n, k, A, lda, x, ix);
    });
}
template <typename T>
static void test_tpxv(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, cublasOperation_t,
                                                             cublasDiagType_t, int, const T *, T *, int),
                      bool solve) {
    test_trxv_stored<T>(name, PACKED, solve, [&](auto u, auto o, auto d, int n, int, auto A, int, auto x, int ix) {
        return fn(H, u, o, d, n, A, x, ix);
    });
}

// spr, spr2 (kind 0, 1) and hpr, hpr2 (kind 2, 3) on a packed triangle, checked as the packed
// triangle of the dense update; hpr's alpha is real and the diagonal comes out real. The
// upper triangle runs in device pointer mode.
template <typename T, typename Call> static void test_packed_rank(const char *name, int kind, Call call) {
    typedef typename Ty<T>::Real R;
    const int n = 33, incx = 2, incy = 3;
    for (cublasFillMode_t uplo : FILLS) {
        bool dev = uplo == CUBLAS_FILL_MODE_UPPER, herm = kind >= 2;
        std::vector<T> A = rvec<T>(n * n), x = rvec<T>(n * incx), y = rvec<T>(n * incy);
        if (herm)
            for (int i = 0; i < n; i++) A[i + i * n] = fromc<T>(cd(toc(A[i + i * n]).real(), 0));
        T alpha = alpha_of<T>();
        R real_alpha = 3;
        std::vector<cd> want = tocv(A);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                cd xi = toc(x[i * incx]), xj = toc(x[j * incx]), yi = toc(y[i * incy]), yj = toc(y[j * incy]);
                cd a = toc(alpha), &w = want[i + j * n];
                if (kind == 0) w += a * xi * xj;
                else if (kind == 1) w += a * (xi * yj + yi * xj);
                else if (kind == 2) w += (double)real_alpha * xi * std::conj(xj);
                else w += a * xi * std::conj(yj) + std::conj(a) * yi * std::conj(xj);
                if (herm && i == j) w = w.real();
            }
        Dev<T> dA(to_packed(A, n, n, uplo)), dx(x), dy(y), dalpha(std::vector<T>{alpha});
        Dev<R> dreal(std::vector<R>{real_alpha});
        set_mode(dev);
        CB(call(uplo, n, kind == 2 ? (const void *)(dev ? dreal.p : &real_alpha) : (const void *)(dev ? dalpha.p : &alpha),
                dx.p, incx, dy.p, incy, dA.p));
        set_mode(false);
        check_vec(name, strf("uplo=%c, %s", fillc(uplo), mode_name(dev)), dA.get(), to_packed(want, n, n, uplo),
                  Ty<T>::tol());
    }
}
template <typename T>
static void test_spr(const char *name, const char *name2,
                     cublasStatus_t (*spr)(cublasHandle_t, cublasFillMode_t, int, const T *, const T *, int, T *),
                     cublasStatus_t (*spr2)(cublasHandle_t, cublasFillMode_t, int, const T *, const T *, int, const T *, int,
                                            T *)) {
    test_packed_rank<T>(name, 0, [&](auto u, int n, const void *al, auto x, int ix, auto, int, auto ap) {
        return spr(H, u, n, (const T *)al, x, ix, ap);
    });
    test_packed_rank<T>(name2, 1, [&](auto u, int n, const void *al, auto x, int ix, auto y, int iy, auto ap) {
        return spr2(H, u, n, (const T *)al, x, ix, y, iy, ap);
    });
}
template <typename T>
static void test_hpr(const char *name, const char *name2,
                     cublasStatus_t (*hpr)(cublasHandle_t, cublasFillMode_t, int, const typename Ty<T>::Real *, const T *,
                                           int, T *),
                     cublasStatus_t (*hpr2)(cublasHandle_t, cublasFillMode_t, int, const T *, const T *, int, const T *, int,
                                            T *)) {
    typedef typename Ty<T>::Real R;
    test_packed_rank<T>(name, 2, [&](auto u, int n, const void *al, auto x, int ix, auto, int, auto ap) {
        return hpr(H, u, n, (const R *)al, x, ix, ap);
    });
    test_packed_rank<T>(name2, 3, [&](auto u, int n, const void *al, auto x, int ix, auto y, int iy, auto ap) {
        return hpr2(H, u, n, (const T *)al, x, ix, y, iy, ap);
    });
}

// tpttr unpacks a triangle into a full matrix whose other triangle (and padding) stays as it
// was; trttp packs the triangle of a full matrix whose other triangle holds garbage.
template <typename T>
static void test_packing(const char *name, cublasStatus_t (*tpttr)(cublasHandle_t, cublasFillMode_t, int, const T *, T *, int),
                         cublasStatus_t (*trttp)(cublasHandle_t, cublasFillMode_t, int, const T *, int, T *)) {
    const int n = 13, lda = 15;
    for (cublasFillMode_t uplo : FILLS) {
        std::vector<T> A = rvec<T>(lda * n), before(lda * n, garbage<T>());
        std::vector<T> AP = to_packed(A, n, lda, uplo);
        std::vector<cd> want = tocv(before);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (in_tri(uplo, i, j)) want[i + j * lda] = toc(A[i + j * lda]);
        Dev<T> dAP(AP), dA(before);
        CB(tpttr(H, uplo, n, dAP.p, dA.p, lda));
        check_mat(name, strf("tpttr uplo=%c", fillc(uplo)), dA.get(), want, lda, n, lda, 0);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < lda; i++)
                if (!in_tri(uplo, i, j) || i >= n) A[i + j * lda] = garbage<T>();
        Dev<T> dFull(A), dPacked(std::vector<T>(AP.size(), nan_of<T>()));
        CB(trttp(H, uplo, n, dFull.p, lda, dPacked.p));
        check_vec(name, strf("trttp uplo=%c", fillc(uplo)), dPacked.get(), tocv(AP), 0);
    }
}

static void level2_stored() {
    test_packing("Stpttr/Strttp", cublasStpttr, cublasStrttp); test_packing("Dtpttr/Dtrttp", cublasDtpttr, cublasDtrttp);
    test_packing("Ctpttr/Ctrttp", cublasCtpttr, cublasCtrttp); test_packing("Ztpttr/Ztrttp", cublasZtpttr, cublasZtrttp);
    test_gbmv("Sgbmv", cublasSgbmv); test_gbmv("Dgbmv", cublasDgbmv); test_gbmv("Cgbmv", cublasCgbmv);
    test_gbmv("Zgbmv", cublasZgbmv);
    test_sbmv("Ssbmv", cublasSsbmv, false); test_sbmv("Dsbmv", cublasDsbmv, false); test_sbmv("Chbmv", cublasChbmv, true);
    test_sbmv("Zhbmv", cublasZhbmv, true);
    test_spmv("Sspmv", cublasSspmv, false); test_spmv("Dspmv", cublasDspmv, false); test_spmv("Chpmv", cublasChpmv, true);
    test_spmv("Zhpmv", cublasZhpmv, true);
    test_tbxv("Stbmv", cublasStbmv, false); test_tbxv("Dtbmv", cublasDtbmv, false); test_tbxv("Ctbmv", cublasCtbmv, false);
    test_tbxv("Ztbmv", cublasZtbmv, false);
    test_tbxv("Stbsv", cublasStbsv, true); test_tbxv("Dtbsv", cublasDtbsv, true); test_tbxv("Ctbsv", cublasCtbsv, true);
    test_tbxv("Ztbsv", cublasZtbsv, true);
    test_tpxv("Stpmv", cublasStpmv, false); test_tpxv("Dtpmv", cublasDtpmv, false); test_tpxv("Ctpmv", cublasCtpmv, false);
    test_tpxv("Ztpmv", cublasZtpmv, false);
    test_tpxv("Stpsv", cublasStpsv, true); test_tpxv("Dtpsv", cublasDtpsv, true); test_tpxv("Ctpsv", cublasCtpsv, true);
    test_tpxv("Ztpsv", cublasZtpsv, true);
    test_spr("Sspr", "Sspr2", cublasSspr, cublasSspr2); test_spr("Dspr", "Dspr2", cublasDspr, cublasDspr2);
    test_hpr<cuComplex>("Chpr", "Chpr2", cublasChpr, cublasChpr2);
    test_hpr<cuDoubleComplex>("Zhpr", "Zhpr2", cublasZhpr, cublasZhpr2);
}

static void level2() {
    test_gemv("Sgemv", cublasSgemv); test_gemv("Dgemv", cublasDgemv); test_gemv("Cgemv", cublasCgemv);
    test_gemv("Zgemv", cublasZgemv);
    test_ger("Sger", cublasSger, false); test_ger("Dger", cublasDger, false); test_ger("Cgeru", cublasCgeru, false);
    test_ger("Cgerc", cublasCgerc, true); test_ger("Zgeru", cublasZgeru, false); test_ger("Zgerc", cublasZgerc, true);
    test_symv("Ssymv", cublasSsymv, false); test_symv("Dsymv", cublasDsymv, false); test_symv("Chemv", cublasChemv, true);
    test_symv("Zhemv", cublasZhemv, true);
    test_trxv("Strmv", cublasStrmv, false); test_trxv("Dtrmv", cublasDtrmv, false); test_trxv("Strsv", cublasStrsv, true);
    test_trxv("Dtrsv", cublasDtrsv, true);
    test_syr("Ssyr", cublasSsyr); test_syr("Dsyr", cublasDsyr);
    test_syr2("Ssyr2", cublasSsyr2); test_syr2("Dsyr2", cublasDsyr2); test_syr2("Csyr2", cublasCsyr2);
    test_syr2("Zsyr2", cublasZsyr2);
    test_her<cuComplex>("Cher", "Cher2", cublasCher, cublasCher2);
    test_her<cuDoubleComplex>("Zher", "Zher2", cublasZher, cublasZher2);
    level2_stored();
}

// ---- level 3: gemm ----------------------------------------------------------------------------
template <typename T>
using GemmFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const T *, const T *,
                                  int, const T *, int, const T *, T *, int);

// All op combinations on odd sizes with padded leading dimensions; the first has beta 0 and C all NaN.
// dev: only op (T, N), with alpha and beta in device memory.
template <typename T> static void test_gemm(const char *name, GemmFn<T> fn, bool dev = false) {
    const int m = 67, n = 45, k = 33, ldc = m + 1;
    bool first = true;
    for (int ia = 0; ia < nops<T>(); ia++)
        for (int ib = 0; ib < nops<T>(); ib++) {
            if (dev && (ia != 1 || ib != 0)) continue;
            cublasOperation_t ta = OPS[ia], tb = OPS[ib];
            int arows = ta == CUBLAS_OP_N ? m : k, acols = ta == CUBLAS_OP_N ? k : m, lda = arows + 3;
            int brows = tb == CUBLAS_OP_N ? k : n, bcols = tb == CUBLAS_OP_N ? n : k, ldb = brows + 2;
            bool nanc = first && !dev;
            first = false;
            std::vector<T> A = rvec<T>(lda * acols), B = rvec<T>(ldb * bcols);
            std::vector<T> C = nanc ? std::vector<T>(ldc * n, nan_of<T>()) : rvec<T>(ldc * n);
            T alpha = alpha_of<T>(), beta = nanc ? fromc<T>(0) : beta_of<T>();
            std::vector<cd> Ac = tocv(A), Bc = tocv(B), want = tocv(C);
            ref_gemm(ta, tb, m, n, k, toc(alpha), Ac.data(), lda, Bc.data(), ldb, toc(beta), want.data(), ldc);
            Dev<T> dA(A), dB(B), dC(C), dal(std::vector<T>(1, alpha)), dbe(std::vector<T>(1, beta));
            set_mode(dev);
            CB(fn(H, ta, tb, m, n, k, dev ? dal.p : &alpha, dA.p, lda, dB.p, ldb, dev ? dbe.p : &beta, dC.p, ldc));
            set_mode(false);
            check_mat(name, strf("op=%c%c %s %s", opc(ta), opc(tb), nanc ? "beta=0 C=NaN" : "beta!=0", mode_name(dev)),
                      dC.get(), want, m, n, ldc, Ty<T>::tol());
        }
}

template <typename T>
static void test_gemm_strided(const char *name,
                              cublasStatus_t (*fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                                   const T *, const T *, int, long long, const T *, int, long long, const T *,
                                                   T *, int, long long, int)) {
    const int m = 37, n = 29, k = 19, batch = 3, ldc = m + 1;
    for (int combo = 0; combo < 2; combo++) {
        cublasOperation_t ta = combo ? CUBLAS_OP_T : CUBLAS_OP_N, tb = combo ? CUBLAS_OP_N : CUBLAS_OP_T;
        int arows = ta == CUBLAS_OP_N ? m : k, acols = ta == CUBLAS_OP_N ? k : m, lda = arows + 3;
        int brows = tb == CUBLAS_OP_N ? k : n, bcols = tb == CUBLAS_OP_N ? n : k, ldb = brows + 2;
        long long sA = lda * acols + 5, sB = ldb * bcols + 7, sC = ldc * n + 3;
        std::vector<T> A = rvec<T>(sA * batch), B = rvec<T>(sB * batch), C = rvec<T>(sC * batch);
        T alpha = alpha_of<T>(), beta = beta_of<T>();
        std::vector<cd> Ac = tocv(A), Bc = tocv(B), want = tocv(C);
        for (int b = 0; b < batch; b++)
            ref_gemm(ta, tb, m, n, k, toc(alpha), &Ac[b * sA], lda, &Bc[b * sB], ldb, toc(beta), &want[b * sC], ldc);
        Dev<T> dA(A), dB(B), dC(C);
        CB(fn(H, ta, tb, m, n, k, &alpha, dA.p, lda, sA, dB.p, ldb, sB, &beta, dC.p, ldc, sC, batch));
        std::vector<T> got = dC.get();
        for (int b = 0; b < batch; b++)
            check_mat(name, strf("op=%c%c batch %d", opc(ta), opc(tb), b), got, want, m, n, ldc, Ty<T>::tol(), 0, b * sC);
    }
}

// Batched with device arrays of device pointers; C's pointers in reverse order, so that they are used.
static void test_sgemm_batched() {
    const int m = 37, n = 29, k = 19, batch = 3, lda = k + 3, ldb = k + 2, ldc = m + 1;
    const int sA = lda * m, sB = ldb * n, sC = ldc * n;
    std::vector<float> A = rvec<float>(sA * batch), B = rvec<float>(sB * batch), C = rvec<float>(sC * batch);
    float alpha = 2, beta = -1;
    std::vector<cd> Ac = tocv(A), Bc = tocv(B), want = tocv(C);
    Dev<float> dA(A), dB(B), dC(C);
    std::vector<const float *> pa, pb;
    std::vector<float *> pc;
    for (int b = 0; b < batch; b++) {
        pa.push_back(dA.p + b * sA);
        pb.push_back(dB.p + b * sB);
        pc.push_back(dC.p + (batch - 1 - b) * sC);
        ref_gemm(CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, alpha, &Ac[b * sA], lda, &Bc[b * sB], ldb, beta,
                 &want[(batch - 1 - b) * sC], ldc);
    }
    Dev<const float *> dpa(pa), dpb(pb);
    Dev<float *> dpc(pc);
    CB(cublasSgemmBatched(H, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dpa.p, lda, dpb.p, ldb, &beta, dpc.p, ldc, batch));
    std::vector<float> got = dC.get();
    for (int b = 0; b < batch; b++)
        check_mat("SgemmBatched", strf("op=TN batch %d", b), got, want, m, n, ldc, 1e-5, 0, (batch - 1 - b) * sC);
}

// ---- level 3: GemmEx and its batched forms ----------------------------------------------------
static size_t dt_size(cudaDataType t) {
    switch (t) {
    case CUDA_R_8I: return 1;
    case CUDA_R_16F: case CUDA_R_16BF: return 2;
    default: return 4;  // CUDA_R_32F, CUDA_R_32I
    }
}
static void dt_put(cudaDataType t, std::vector<unsigned char> &buf, size_t i, double v) {
    unsigned char *p = &buf[i * dt_size(t)];
    if (t == CUDA_R_16F) { __half h = __float2half((float)v); memcpy(p, &h, 2); }
    else if (t == CUDA_R_16BF) { __nv_bfloat16 h = __float2bfloat16((float)v); memcpy(p, &h, 2); }
    else if (t == CUDA_R_32F) { float f = (float)v; memcpy(p, &f, 4); }
    else if (t == CUDA_R_32I) { int32_t n = (int32_t)v; memcpy(p, &n, 4); }
    else { int8_t n = (int8_t)v; memcpy(p, &n, 1); }
}
static double dt_get(cudaDataType t, const std::vector<unsigned char> &buf, size_t i) {
    const unsigned char *p = &buf[i * dt_size(t)];
    if (t == CUDA_R_16F) { __half h; memcpy(&h, p, 2); return __half2float(h); }
    if (t == CUDA_R_16BF) { __nv_bfloat16 h; memcpy(&h, p, 2); return __bfloat162float(h); }
    if (t == CUDA_R_32F) { float f; memcpy(&f, p, 4); return f; }
    if (t == CUDA_R_32I) { int32_t n; memcpy(&n, p, 4); return n; }
    int8_t n;
    memcpy(&n, p, 1);
    return n;
}
struct ExCase {
    const char *what;
    cudaDataType ab, c;
    cublasComputeType_t comp;
    cublasGemmAlgo_t algo;
    cublasOperation_t ta, tb;
    int m, n, k, amp;
    double alpha, beta, tol;
};
// The scalar type follows the compute type: half for 16F, int for 32I, float otherwise.
struct ExScalar {
    __half h;
    float f;
    int i;
    ExScalar(double v) : h(__float2half((float)v)), f((float)v), i((int)v) {}
    const void *ptr(cublasComputeType_t c) const {
        return c == CUBLAS_COMPUTE_16F ? (const void *)&h : c == CUBLAS_COMPUTE_32I ? (const void *)&i : (const void *)&f;
    }
};
// mode 0: cublasGemmEx, 1: cublasGemmBatchedEx, 2: cublasGemmStridedBatchedEx.
static void run_ex(const ExCase &c, int mode, int batch) {
    static const char *const names[3] = {"GemmEx", "GemmBatchedEx", "GemmStridedBatchedEx"};
    bool i8 = c.ab == CUDA_R_8I;  // int8 wants leading dimensions that are multiples of 4
    int arows = c.ta == CUBLAS_OP_N ? c.m : c.k, acols = c.ta == CUBLAS_OP_N ? c.k : c.m, lda = arows + (i8 ? 4 : 3);
    int brows = c.tb == CUBLAS_OP_N ? c.k : c.n, bcols = c.tb == CUBLAS_OP_N ? c.n : c.k, ldb = brows + (i8 ? 4 : 2);
    int ldc = c.m + (i8 ? 4 : 1);
    auto round8 = [](size_t v) { return (v + 7) / 8 * 8; };
    size_t sA = round8(lda * acols) + 8, sB = round8(ldb * bcols) + 8, sC = round8(ldc * c.n) + 8;
    std::vector<unsigned char> A(sA * batch * dt_size(c.ab)), B(sB * batch * dt_size(c.ab)), C(sC * batch * dt_size(c.c));
    std::vector<cd> Ac(sA * batch), Bc(sB * batch), want(sC * batch);
    for (size_t i = 0; i < Ac.size(); i++) dt_put(c.ab, A, i, (Ac[i] = rng.range(-c.amp, c.amp + 1)).real());
    for (size_t i = 0; i < Bc.size(); i++) dt_put(c.ab, B, i, (Bc[i] = rng.range(-c.amp, c.amp + 1)).real());
    for (size_t i = 0; i < want.size(); i++) dt_put(c.c, C, i, (want[i] = rng.range(-c.amp, c.amp + 1)).real());
    for (int b = 0; b < batch; b++)
        ref_gemm(c.ta, c.tb, c.m, c.n, c.k, c.alpha, &Ac[b * sA], lda, &Bc[b * sB], ldb, c.beta, &want[b * sC], ldc);
    Dev<unsigned char> dA(A), dB(B), dC(C);
    std::vector<const void *> pa, pb;
    std::vector<void *> pc;
    for (int b = 0; b < batch; b++) {
        pa.push_back(dA.p + b * sA * dt_size(c.ab));
        pb.push_back(dB.p + b * sB * dt_size(c.ab));
        pc.push_back(dC.p + b * sC * dt_size(c.c));
    }
    Dev<const void *> dpa(pa), dpb(pb);
    Dev<void *> dpc(pc);
    ExScalar alpha(c.alpha), beta(c.beta);
    const void *al = alpha.ptr(c.comp), *be = beta.ptr(c.comp);
    if (mode == 0)
        CB(cublasGemmEx(H, c.ta, c.tb, c.m, c.n, c.k, al, dA.p, c.ab, lda, dB.p, c.ab, ldb, be, dC.p, c.c, ldc, c.comp, c.algo));
    else if (mode == 1)
        CB(cublasGemmBatchedEx(H, c.ta, c.tb, c.m, c.n, c.k, al, dpa.p, c.ab, lda, dpb.p, c.ab, ldb, be, dpc.p, c.c, ldc, batch,
                               c.comp, c.algo));
    else
        CB(cublasGemmStridedBatchedEx(H, c.ta, c.tb, c.m, c.n, c.k, al, dA.p, c.ab, lda, sA, dB.p, c.ab, ldb, sB, be, dC.p,
                                      c.c, ldc, sC, batch, c.comp, c.algo));
    std::vector<unsigned char> gotb = dC.get();
    std::vector<cd> got(want.size());
    for (size_t i = 0; i < got.size(); i++) got[i] = dt_get(c.c, gotb, i);
    for (int b = 0; b < batch; b++)
        check_mat(names[mode], strf("%s op=%c%c batch %d", c.what, opc(c.ta), opc(c.tb), b), got, want, c.m, c.n, ldc, c.tol,
                  0, b * sC);
}
static void test_gemm_ex() {
    const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;
    const cublasGemmAlgo_t DEF = CUBLAS_GEMM_DEFAULT;
    const ExCase cases[] = {
        {"16F x 16F -> 16F compute 16F", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, DEF, N, N, 67, 45, 33, 2, 1, -1, 1e-2},
        {"16F x 16F -> 32F compute 32F", CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, DEF, T, N, 67, 45, 33, 2, 2, -1, 1e-2},
        {"16F x 16F -> 16F compute 32F", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, DEF, N, T, 67, 45, 33, 2, 1, -1, 1e-2},
        {"16BF x 16BF -> 16BF compute 32F", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, DEF, N, N, 67, 45, 33, 2, 1, -1, 1e-2},
        {"16BF x 16BF -> 32F compute 32F", CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, DEF, T, T, 67, 45, 33, 2, 2, -1, 1e-2},
        {"32F compute 32F_FAST_TF32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, DEF, N, N, 67, 45, 33, 4, 2, -1, 1e-2},
        {"8I x 8I -> 32I compute 32I", CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, DEF, T, N, 64, 44, 32, 4, 1, 1, 0},
        {"8I x 8I -> 32F compute 32F", CUDA_R_8I, CUDA_R_32F, CUBLAS_COMPUTE_32F, DEF, T, N, 64, 44, 32, 4, 1, 1, 0},
        {"32F compute 32F algo DEFAULT_TENSOR_OP", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP, T,
         N, 67, 45, 33, 4, 2, -1, 1e-5},
    };
    for (const ExCase &c : cases) run_ex(c, 0, 1);
    const ExCase batched = {"16F x 16F -> 32F compute 32F", CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, DEF, N, T, 37, 29, 19,
                            2, 2, -1, 1e-5};
    run_ex(batched, 1, 3);
    run_ex(batched, 2, 3);
}

// ---- level 3: rank-k updates ------------------------------------------------------------------
// The uplo triangle of C = alpha (op(A) op(B)^T [+ op(B) op(A)^T]) + beta C, op(X) n x k;
// kind 0 syrk (B = A), 1 herk (^H, real diagonal), 2 syr2k, 3 syrkx (B given), 4 herkx (^H,
// real diagonal), 5 her2k (alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H, real diagonal).
static void ref_rank_k(cublasFillMode_t uplo, cublasOperation_t op, int n, int k, cd alpha, const cd *A, int lda,
                       const cd *B, int ldb, cd beta, cd *C, int ldc, int kind) {
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (!in_tri(uplo, i, j)) continue;
            cd s = 0, s2 = 0;
            for (int l = 0; l < k; l++) {
                cd ai = opel(A, lda, op, i, l), aj = opel(A, lda, op, j, l);
                cd bi = opel(B, ldb, op, i, l), bj = opel(B, ldb, op, j, l);
                if (kind == 0) s += ai * aj;
                else if (kind == 1) s += ai * std::conj(aj);
                else if (kind == 2) s += ai * bj + bi * aj;
                else if (kind == 3) s += ai * bj;
                else if (kind == 4) s += ai * std::conj(bj);
                else s += ai * std::conj(bj), s2 += bi * std::conj(aj);
            }
            cd &c = C[i + (size_t)j * ldc];
            c = alpha * s + std::conj(alpha) * s2 + beta * c;
            if ((kind == 1 || kind >= 4) && i == j) c = c.real();
        }
}
// syrk, herk or syr2k over both fill modes and both ops (N and T, or N and C for herk); all of C is
// compared, so the other triangle must be unchanged. For herk C's diagonal starts with nonzero
// imaginary parts, which the result must not have.
template <typename T, typename SA, typename SB, typename Call>
static void rank_k_case(const char *name, int kind, cublasFillMode_t uplo, cublasOperation_t op, SA alpha, SB beta,
                        Call call) {
    const int n = 45, k = 33, ldc = n + 1;
    int lda = op == CUBLAS_OP_N ? n + 3 : k + 2, acols = op == CUBLAS_OP_N ? k : n;
    std::vector<T> A = rvec<T>(lda * acols), B = rvec<T>(lda * acols), C = rvec<T>(ldc * n);
    if (kind == 1 || kind >= 4)
        for (int i = 0; i < n; i++) C[i + i * ldc] = fromc<T>(cd(toc(C[i + i * ldc]).real(), 3));
    std::vector<cd> Ac = tocv(A), Bc = tocv(B), want = tocv(C);
    ref_rank_k(uplo, op, n, k, toc(alpha), Ac.data(), lda, Bc.data(), lda, toc(beta), want.data(), ldc, kind);
    Dev<T> dA(A), dB(B), dC(C);
    CB(call(uplo, op, n, k, &alpha, dA.p, lda, dB.p, lda, &beta, dC.p, ldc));
    check_mat(name, strf("uplo=%c trans=%c", fillc(uplo), opc(op)), dC.get(), want, n, n, ldc, Ty<T>::tol());
}
template <typename T>
static void test_syrk(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int, int,
                                                             const T *, const T *, int, const T *, T *, int)) {
    for (cublasFillMode_t uplo : FILLS)
        for (cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_T})
            rank_k_case<T>(name, 0, uplo, op, alpha_of<T>(), beta_of<T>(),
                           [&](auto u, auto o, int n, int k, auto al, auto A, int lda, auto, int, auto be, auto C, int ldc) {
                               return fn(H, u, o, n, k, al, A, lda, be, C, ldc);
                           });
}
template <typename T>
static void test_herk(const char *name,
                      cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int, int,
                                           const typename Ty<T>::Real *, const T *, int, const typename Ty<T>::Real *, T *, int)) {
    typedef typename Ty<T>::Real R;
    for (cublasFillMode_t uplo : FILLS)
        for (cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_C})
            rank_k_case<T>(name, 1, uplo, op, (R)2, (R)0.5,
                           [&](auto u, auto o, int n, int k, auto al, auto A, int lda, auto, int, auto be, auto C, int ldc) {
                               return fn(H, u, o, n, k, al, A, lda, be, C, ldc);
                           });
}
template <typename T>
static void test_syr2k(const char *name,
                       cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int, int, const T *,
                                            const T *, int, const T *, int, const T *, T *, int)) {
    for (cublasFillMode_t uplo : FILLS)
        for (cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_T})
            rank_k_case<T>(name, 2, uplo, op, alpha_of<T>(), beta_of<T>(),
                           [&](auto u, auto o, int n, int k, auto al, auto A, int lda, auto B, int ldb, auto be, auto C,
                               int ldc) { return fn(H, u, o, n, k, al, A, lda, B, ldb, be, C, ldc); });
}

// syrkx: C = alpha op(A) op(B)^T + beta C on the uplo triangle.
template <typename T>
static void test_syrkx(const char *name,
                       cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int, int, const T *,
                                            const T *, int, const T *, int, const T *, T *, int)) {
    for (cublasFillMode_t uplo : FILLS)
        for (cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_T})
            rank_k_case<T>(name, 3, uplo, op, alpha_of<T>(), beta_of<T>(),
                           [&](auto u, auto o, int n, int k, auto al, auto A, int lda, auto B, int ldb, auto be, auto C,
                               int ldc) { return fn(H, u, o, n, k, al, A, lda, B, ldb, be, C, ldc); });
}
// herkx (kind 4) and her2k (kind 5): a complex alpha, a real beta, the diagonal real.
template <typename T>
static void test_herkx(const char *name, int kind,
                       cublasStatus_t (*fn)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int, int, const T *,
                                            const T *, int, const T *, int, const typename Ty<T>::Real *, T *, int)) {
    typedef typename Ty<T>::Real R;
    for (cublasFillMode_t uplo : FILLS)
        for (cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_C})
            rank_k_case<T>(name, kind, uplo, op, alpha_of<T>(), (R)0.5,
                           [&](auto u, auto o, int n, int k, auto al, auto A, int lda, auto B, int ldb, auto be, auto C,
                               int ldc) { return fn(H, u, o, n, k, al, A, lda, B, ldb, be, C, ldc); });
}

// ---- level 3: triangular and symmetric --------------------------------------------------------
// alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right) of a dense triangular M = op(A), into want.
static void ref_trsm(cublasSideMode_t side, const std::vector<cd> &M, bool lower, int m, int n, cd alpha, const cd *B,
                     int ldb, cd *X) {
    if (side == CUBLAS_SIDE_LEFT) {
        for (int j = 0; j < n; j++) {
            std::vector<cd> b(m);
            for (int i = 0; i < m; i++) b[i] = alpha * B[i + j * ldb];
            b = solve_tri(M, m, lower, b);
            for (int i = 0; i < m; i++) X[i + j * ldb] = b[i];
        }
    } else {  // X M = alpha B  <=>  M^T X^T = alpha B^T
        std::vector<cd> Mt(n * n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) Mt[i + j * n] = M[j + i * n];
        for (int i = 0; i < m; i++) {
            std::vector<cd> b(n);
            for (int j = 0; j < n; j++) b[j] = alpha * B[i + j * ldb];
            b = solve_tri(Mt, n, !lower, b);
            for (int j = 0; j < n; j++) X[i + j * ldb] = b[j];
        }
    }
}

template <typename T>
static void test_trsm(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasSideMode_t, cublasFillMode_t,
                                                             cublasOperation_t, cublasDiagType_t, int, int, const T *,
                                                             const T *, int, T *, int)) {
    const int m = 37, n = 29, ldb = m + 2;
    for (cublasSideMode_t side : SIDES)
        for (cublasFillMode_t uplo : FILLS)
            for (int o = 0; o < nops<T>(); o++)
                for (cublasDiagType_t diag : DIAGS) {
                    cublasOperation_t op = OPS[o];
                    int dim = side == CUBLAS_SIDE_LEFT ? m : n, lda = dim + 3;
                    std::vector<T> A = tri_input<T>(dim, lda, uplo, diag == CUBLAS_DIAG_UNIT, true, false), B = rvec<T>(ldb * n);
                    T alpha = alpha_of<T>();
                    std::vector<cd> M = tri_dense(tocv(A), dim, lda, uplo, op, diag), Bc = tocv(B), want = Bc;
                    ref_trsm(side, M, eff_lower(uplo, op), m, n, toc(alpha), Bc.data(), ldb, want.data());
                    Dev<T> dA(A), dB(B);
                    CB(fn(H, side, uplo, op, diag, m, n, &alpha, dA.p, lda, dB.p, ldb));
                    check_mat(name, strf("side=%c uplo=%c trans=%c diag=%c", sidec(side), fillc(uplo), opc(op), diagc(diag)),
                              dB.get(), want, m, n, ldb, Ty<T>::stol(), max_abs(want));
                }
}

// Batch of 3 with device arrays of device pointers.
static void test_strsm_batched() {
    const int m = 37, n = 29, batch = 3, ldb = m + 2;
    const struct { cublasSideMode_t side; cublasFillMode_t uplo; cublasOperation_t op; cublasDiagType_t diag; } combos[] = {
        {CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT},
        {CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT}};
    for (const auto &c : combos) {
        int dim = c.side == CUBLAS_SIDE_LEFT ? m : n, lda = dim + 3, sA = lda * dim, sB = ldb * n;
        std::vector<float> A, B = rvec<float>(sB * batch);
        for (int b = 0; b < batch; b++) {
            std::vector<float> a = tri_input<float>(dim, lda, c.uplo, c.diag == CUBLAS_DIAG_UNIT, true, false);
            A.insert(A.end(), a.begin(), a.end());
        }
        float alpha = 2;
        std::vector<cd> Ac = tocv(A), Bc = tocv(B), want = Bc;
        for (int b = 0; b < batch; b++) {
            std::vector<cd> Ab(Ac.begin() + b * sA, Ac.begin() + (b + 1) * sA);
            ref_trsm(c.side, tri_dense(Ab, dim, lda, c.uplo, c.op, c.diag), eff_lower(c.uplo, c.op), m, n, alpha, &Bc[b * sB],
                     ldb, &want[b * sB]);
        }
        Dev<float> dA(A), dB(B);
        std::vector<const float *> pa;
        std::vector<float *> pb;
        for (int b = 0; b < batch; b++) pa.push_back(dA.p + b * sA), pb.push_back(dB.p + b * sB);
        Dev<const float *> dpa(pa);
        Dev<float *> dpb(pb);
        CB(cublasStrsmBatched(H, c.side, c.uplo, c.op, c.diag, m, n, &alpha, dpa.p, lda, dpb.p, ldb, batch));
        std::vector<float> got = dB.get();
        for (int b = 0; b < batch; b++)
            check_mat("StrsmBatched", strf("side=%c uplo=%c trans=%c diag=%c batch %d", sidec(c.side), fillc(c.uplo), opc(c.op),
                                           diagc(c.diag), b),
                      got, want, m, n, ldb, 1e-4, max_abs(want), b * sB);
    }
}

// C = alpha op(A) B (left) or alpha B op(A) (right), out of place.
template <typename T>
static void test_trmm(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasSideMode_t, cublasFillMode_t,
                                                             cublasOperation_t, cublasDiagType_t, int, int, const T *,
                                                             const T *, int, const T *, int, T *, int)) {
    const int m = 37, n = 29, ldb = m + 2, ldc = m + 4;
    for (cublasSideMode_t side : SIDES)
        for (cublasFillMode_t uplo : FILLS)
            for (int o = 0; o < nops<T>(); o++)
                for (cublasDiagType_t diag : DIAGS) {
                    cublasOperation_t op = OPS[o];
                    int dim = side == CUBLAS_SIDE_LEFT ? m : n, lda = dim + 3;
                    std::vector<T> A = tri_input<T>(dim, lda, uplo, diag == CUBLAS_DIAG_UNIT, false, false);
                    std::vector<T> B = rvec<T>(ldb * n), C = rvec<T>(ldc * n);
                    T alpha = alpha_of<T>();
                    std::vector<cd> M = tri_dense(tocv(A), dim, lda, uplo, op, diag), Bc = tocv(B), want = tocv(C);
                    if (side == CUBLAS_SIDE_LEFT)
                        ref_gemm(CUBLAS_OP_N, CUBLAS_OP_N, m, n, m, toc(alpha), M.data(), m, Bc.data(), ldb, 0, want.data(), ldc);
                    else
                        ref_gemm(CUBLAS_OP_N, CUBLAS_OP_N, m, n, n, toc(alpha), Bc.data(), ldb, M.data(), n, 0, want.data(), ldc);
                    Dev<T> dA(A), dB(B), dC(C);
                    CB(fn(H, side, uplo, op, diag, m, n, &alpha, dA.p, lda, dB.p, ldb, dC.p, ldc));
                    check_mat(name, strf("side=%c uplo=%c trans=%c diag=%c", sidec(side), fillc(uplo), opc(op), diagc(diag)),
                              dC.get(), want, m, n, ldc, Ty<T>::tol());
                }
}

// C = alpha A B + beta C (left) or alpha B A + beta C (right), A symmetric (or Hermitian: hemm,
// whose diagonal's imaginary parts are not read) given by one triangle.
template <typename T>
static void test_symm(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasSideMode_t, cublasFillMode_t, int, int,
                                                             const T *, const T *, int, const T *, int, const T *, T *, int),
                      bool herm = false) {
    const int m = 37, n = 29, ldb = m + 2, ldc = m + 1;
    for (cublasSideMode_t side : SIDES)
        for (cublasFillMode_t uplo : FILLS) {
            int dim = side == CUBLAS_SIDE_LEFT ? m : n, lda = dim + 3;
            std::vector<T> A = tri_input<T>(dim, lda, uplo, false, false, false), B = rvec<T>(ldb * n), C = rvec<T>(ldc * n);
            T alpha = alpha_of<T>(), beta = beta_of<T>();
            std::vector<cd> S = sym_dense(tocv(A), dim, lda, uplo, herm), Bc = tocv(B), want = tocv(C);
            if (side == CUBLAS_SIDE_LEFT)
                ref_gemm(CUBLAS_OP_N, CUBLAS_OP_N, m, n, m, toc(alpha), S.data(), m, Bc.data(), ldb, toc(beta), want.data(), ldc);
            else
                ref_gemm(CUBLAS_OP_N, CUBLAS_OP_N, m, n, n, toc(alpha), Bc.data(), ldb, S.data(), n, toc(beta), want.data(), ldc);
            Dev<T> dA(A), dB(B), dC(C);
            CB(fn(H, side, uplo, m, n, &alpha, dA.p, lda, dB.p, ldb, &beta, dC.p, ldc));
            check_mat(name, strf("side=%c uplo=%c", sidec(side), fillc(uplo)), dC.get(), want, m, n, ldc, Ty<T>::tol());
        }
}

// C = alpha op(A) + beta op(B): op combinations, a pure transpose (alpha 1, beta 0; B holds garbage
// that must not show) and in place with C = A.
template <typename T>
static void test_geam(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                                             const T *, const T *, int, const T *, const T *, int, T *, int)) {
    const int m = 37, n = 29;
    enum { NORMAL, TRANSPOSE, IN_PLACE };
    struct Case { cublasOperation_t ta, tb; int kind; };
    std::vector<Case> cases = {{CUBLAS_OP_N, CUBLAS_OP_N, NORMAL}, {CUBLAS_OP_N, CUBLAS_OP_T, NORMAL},
                               {CUBLAS_OP_T, CUBLAS_OP_N, NORMAL}, {CUBLAS_OP_T, CUBLAS_OP_T, NORMAL},
                               {CUBLAS_OP_T, CUBLAS_OP_N, TRANSPOSE}, {CUBLAS_OP_N, CUBLAS_OP_T, IN_PLACE}};
    if (Ty<T>::cplx) {
        cases.push_back({CUBLAS_OP_C, CUBLAS_OP_N, NORMAL});
        cases.push_back({CUBLAS_OP_N, CUBLAS_OP_C, NORMAL});
    }
    for (const Case &c : cases) {
        int lda = (c.ta == CUBLAS_OP_N ? m : n) + 2, ldb = (c.tb == CUBLAS_OP_N ? m : n) + 3;
        int ldc = c.kind == IN_PLACE ? lda : m + 1;
        std::vector<T> A = rvec<T>(lda * (c.ta == CUBLAS_OP_N ? n : m)), B = rvec<T>(ldb * (c.tb == CUBLAS_OP_N ? n : m));
        if (c.kind == TRANSPOSE) B.assign(B.size(), garbage<T>());
        std::vector<T> C = c.kind == IN_PLACE ? A : rvec<T>(ldc * n);
        T alpha = c.kind == TRANSPOSE ? fromc<T>(1) : alpha_of<T>(), beta = c.kind == TRANSPOSE ? fromc<T>(0) : beta_of<T>();
        std::vector<cd> Ac = tocv(A), Bc = tocv(B), want = tocv(C);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                want[i + j * ldc] = toc(alpha) * opel(Ac.data(), lda, c.ta, i, j) +
                                    (c.kind == TRANSPOSE ? cd(0) : toc(beta) * opel(Bc.data(), ldb, c.tb, i, j));
        Dev<T> dA(A), dB(B), dC(C);
        T *out = c.kind == IN_PLACE ? dA.p : dC.p;
        CB(fn(H, c.ta, c.tb, m, n, &alpha, dA.p, lda, &beta, dB.p, ldb, out, ldc));
        static const char *const kinds[] = {"", " transpose only (beta=0)", " in place C=A"};
        check_mat(name, strf("op=%c%c%s", opc(c.ta), opc(c.tb), kinds[c.kind]), c.kind == IN_PLACE ? dA.get() : dC.get(), want,
                  m, n, ldc, Ty<T>::tol());
    }
}

// C = diag(x) A (left, incx 1) or A diag(x) (right, incx 2).
template <typename T>
static void test_dgmm(const char *name, cublasStatus_t (*fn)(cublasHandle_t, cublasSideMode_t, int, int, const T *, int,
                                                             const T *, int, T *, int)) {
    const int m = 37, n = 29, lda = m + 3, ldc = m + 2;
    for (cublasSideMode_t side : SIDES) {
        int incx = side == CUBLAS_SIDE_LEFT ? 1 : 2, xl = side == CUBLAS_SIDE_LEFT ? m : n;
        std::vector<T> A = rvec<T>(lda * n), x = rvec<T>(xl * incx), C = rvec<T>(ldc * n);
        std::vector<cd> want = tocv(C);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                want[i + j * ldc] = toc(A[i + j * lda]) * toc(x[(side == CUBLAS_SIDE_LEFT ? i : j) * incx]);
        Dev<T> dA(A), dx(x), dC(C);
        CB(fn(H, side, m, n, dA.p, lda, dx.p, incx, dC.p, ldc));
        check_mat(name, strf("side=%c incx=%d", sidec(side), incx), dC.get(), want, m, n, ldc, Ty<T>::tol());
    }
}

// ---- batched LU: getrf, getrs, getri, matinv ---------------------------------------------------
// Checked by what they promise, not by their steps: getrf's P A = L U (the swaps its pivots
// name applied to A), info 0, and for a matrix with a zero column a positive info; getrs's
// op(A) X = B for N, T (and C); getri's and matinv's A C = I, matinv leaving A as it was;
// getrf without pivoting on a diagonally dominant A. Three matrices of 7 x 7, padded, each with a
// large entry a column, which with pivoting lies off the diagonal.
// op(A) B for n x n A (ld lda) and n x cols B (ld ldb), into an n x cols matrix (ld n).
static std::vector<cd> product(const std::vector<cd> &A, int lda, const std::vector<cd> &B, int ldb, int n, int cols,
                               cublasOperation_t op = CUBLAS_OP_N) {
    std::vector<cd> C((size_t)n * cols);
    ref_gemm(op, CUBLAS_OP_N, n, cols, n, 1, A.data(), lda, B.data(), ldb, 0, C.data(), n);
    return C;
}
template <typename T>
static void test_batched_lu(const char *name,
                            cublasStatus_t (*getrf)(cublasHandle_t, int, T *const[], int, int *, int *, int),
                            cublasStatus_t (*getrs)(cublasHandle_t, cublasOperation_t, int, int, const T *const[], int,
                                                    const int *, T *const[], int, int *, int),
                            cublasStatus_t (*getri)(cublasHandle_t, int, const T *const[], int, const int *, T *const[], int,
                                                    int *, int),
                            cublasStatus_t (*matinv)(cublasHandle_t, int, const T *const[], int, T *const[], int, int *,
                                                     int)) {
    const int n = 7, lda = 9, nrhs = 3, ldb = 8, batch = 3;
    std::string rs = std::string(name) + "getrsBatched", ri = std::string(name) + "getriBatched";
    std::string rf = std::string(name) + "getrfBatched", mi = std::string(name) + "matinvBatched";
    for (int pivoting = 1; pivoting >= 0; pivoting--) {
        std::vector<std::vector<T>> A(batch);
        for (int b = 0; b < batch; b++) {
            // well conditioned: a large entry a column, on the diagonal without pivoting, else
            // on a permuted one, which the pivots must find (column j's at row 3j + 1 mod 7)
            A[b] = rvec<T>((size_t)lda * n);
            for (int j = 0; j < n; j++) A[b][(pivoting ? (3 * j + 1) % n : j) + j * lda] = fromc<T>(cd(40 + j, b));
        }
        std::vector<std::unique_ptr<Dev<T>>> dA;
        std::vector<T *> pa;
        for (int b = 0; b < batch; b++) dA.emplace_back(new Dev<T>(A[b])), pa.push_back(dA[b]->p);
        Dev<T *> dpa(pa);
        Dev<int> dpiv((size_t)n * batch), dinfo(batch);
        CB(getrf(H, n, dpa.p, lda, pivoting ? dpiv.p : nullptr, dinfo.p, batch));
        std::vector<int> piv = dpiv.get(), info = dinfo.get();
        std::vector<std::vector<cd>> LU(batch);
        for (int b = 0; b < batch; b++) {
            LU[b] = tocv(dA[b]->get());
            std::vector<cd> L(n * n), U(n * n), PA = tocv(A[b]);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    L[i + j * n] = i == j ? cd(1) : i > j ? LU[b][i + j * lda] : cd(0);
                    U[i + j * n] = i <= j ? LU[b][i + j * lda] : cd(0);
                }
            for (int k = 0; pivoting && k < n; k++)
                for (int j = 0; j < n; j++) std::swap(PA[k + j * lda], PA[piv[b * n + k] - 1 + j * lda]);
            std::vector<cd> want(n * n);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) want[i + j * n] = PA[i + j * lda];
            check_mat(rf.c_str(), strf("%s batch %d: P A = L U", pivoting ? "pivoting" : "no pivoting", b),
                      product(L, n, U, n, n, n), want, n, n, n, Ty<T>::stol(), 10);
            if (info[b] != 0) fail(rf.c_str(), strf("batch %d: info %d for a regular matrix", b, info[b]));
        }
        // solves with the factors, every op
        for (int o = 0; o < nops<T>(); o++) {
            cublasOperation_t op = OPS[o];
            std::vector<std::vector<T>> B(batch);
            std::vector<std::unique_ptr<Dev<T>>> dB;
            std::vector<T *> pb;
            for (int b = 0; b < batch; b++) B[b] = rvec<T>((size_t)ldb * nrhs), dB.emplace_back(new Dev<T>(B[b])), pb.push_back(dB[b]->p);
            Dev<T *> dpb(pb);
            int host_info = -99;
            CB(getrs(H, op, n, nrhs, (const T *const *)dpa.p, lda, pivoting ? dpiv.p : nullptr, dpb.p, ldb, &host_info,
                     batch));
            if (host_info != 0) fail(rs.c_str(), strf("info %d", host_info));
            for (int b = 0; b < batch; b++) {
                std::vector<cd> X = tocv(dB[b]->get()), want(n * nrhs);
                for (int j = 0; j < nrhs; j++)
                    for (int i = 0; i < n; i++) want[i + j * n] = toc(B[b][i + j * ldb]);
                check_mat(rs.c_str(), strf("%s op=%c batch %d: op(A) X = B", pivoting ? "pivoting" : "no pivoting", opc(op), b),
                          product(tocv(A[b]), lda, X, ldb, n, nrhs, op), want, n, nrhs, n, Ty<T>::stol(), 10);
            }
        }
        // the inverse from the factors, and of A itself
        std::vector<std::unique_ptr<Dev<T>>> dC;
        std::vector<T *> pc;
        for (int b = 0; b < batch; b++) dC.emplace_back(new Dev<T>(rvec<T>((size_t)ldb * n))), pc.push_back(dC[b]->p);
        Dev<T *> dpc(pc);
        std::vector<cd> I(n * n);
        for (int i = 0; i < n; i++) I[i + i * n] = 1;
        for (int m = 0; m < 2; m++) {
            if (m == 0) {
                CB(getri(H, n, (const T *const *)dpa.p, lda, pivoting ? dpiv.p : nullptr, dpc.p, ldb, dinfo.p, batch));
            } else {
                for (int b = 0; b < batch; b++) dA[b]->put(A[b]);
                CB(matinv(H, n, (const T *const *)dpa.p, lda, dpc.p, ldb, dinfo.p, batch));
            }
            info = dinfo.get();
            for (int b = 0; b < batch; b++) {
                const char *r = m ? mi.c_str() : ri.c_str();
                check_mat(r, strf("%s batch %d: A inv(A) = I", pivoting ? "pivoting" : "no pivoting", b),
                          product(tocv(A[b]), lda, tocv(dC[b]->get()), ldb, n, n), I, n, n, n, Ty<T>::stol(), 10);
                if (info[b] != 0) fail(r, strf("batch %d: info %d", b, info[b]));
                if (m) check_mat(r, strf("batch %d: A unchanged", b), dA[b]->get(), tocv(A[b]), n, n, lda, 0);
            }
        }
    }
    // a singular matrix among regular ones: its info names a zero pivot, the others' stay 0
    std::vector<std::unique_ptr<Dev<T>>> dS;
    std::vector<T *> ps;
    for (int b = 0; b < batch; b++) {
        std::vector<T> S = rvec<T>((size_t)lda * n);
        if (b == 1)
            for (int i = 0; i < n; i++) S[i + 2 * lda] = fromc<T>(0);
        dS.emplace_back(new Dev<T>(S)), ps.push_back(dS[b]->p);
    }
    Dev<T *> dps(ps);
    Dev<int> dpiv((size_t)n * batch), dinfo(batch);
    CB(getrf(H, n, dps.p, lda, dpiv.p, dinfo.p, batch));
    std::vector<int> info = dinfo.get();
    if (info[0] != 0 || info[1] < 1 || info[1] > n || info[2] != 0)
        fail(rf.c_str(), strf("a zero third column in batch 1: info %d %d %d", info[0], info[1], info[2]));
}

// Pointer arrays over a strided batch, so that a batched form runs through its strided
// form's check; the arrays live until the call's work is done.
template <typename T> struct Batch {
    std::unique_ptr<Dev<const T *>> in1, in2;
    std::unique_ptr<Dev<T *>> out;
    Batch(const T *a, long long sa, const T *b, long long sb, T *c, long long sc, int count) {
        std::vector<const T *> pa, pb;
        std::vector<T *> pc;
        for (int i = 0; i < count; i++) pa.push_back(a + i * sa), pb.push_back(b + i * sb), pc.push_back(c + i * sc);
        in1.reset(new Dev<const T *>(pa));
        in2.reset(new Dev<const T *>(pb));
        out.reset(new Dev<T *>(pc));
    }
    ~Batch() { CHECK(cudaDeviceSynchronize()); }
};

// ---- level 2 and 3: batched gemv, grouped gemm -------------------------------------------------
// y_b = alpha op(A_b) x_b + beta y_b for 3 matrices, every op; A and x of TA, y of TY, scalars
// of TS; strided, then through arrays of pointers with x's increment negative.
template <typename TA, typename TY, typename TS>
static void test_gemv_batched(const char *name,
                              cublasStatus_t (*strided)(cublasHandle_t, cublasOperation_t, int, int, const TS *,
                                                        const TA *, int, long long, const TA *, int, long long,
                                                        const TS *, TY *, int, long long, int),
                              cublasStatus_t (*batched)(cublasHandle_t, cublasOperation_t, int, int, const TS *,
                                                        const TA *const[], int, const TA *const[], int, const TS *,
                                                        TY *const[], int, int)) {
    const int m = 23, n = 17, lda = 25, batch = 3;
    for (int o = 0; o < nops<TA>(); o++)
        for (int arrays = 0; arrays < 2; arrays++) {
            cublasOperation_t op = OPS[o];
            int xl = op == CUBLAS_OP_N ? n : m, yl = op == CUBLAS_OP_N ? m : n;
            int incx = arrays ? -2 : 1, incy = arrays ? 3 : 1, ax = abs(incx);
            long long sA = lda * n + 3, sx = xl * ax + 1, sy = yl * incy + 2;
            std::vector<TA> A = rvec<TA>(sA * batch), x = rvec<TA>(sx * batch);
            std::vector<TY> y = rvec<TY>(sy * batch);
            TS alpha = alpha_of<TS>(), beta = beta_of<TS>();
            std::vector<cd> Ac = tocv(A), want = tocv(y);
            for (int b = 0; b < batch; b++)
                for (int i = 0; i < yl; i++) {
                    cd sum = 0;
                    for (int j = 0; j < xl; j++)
                        sum += opel(&Ac[b * sA], lda, op, i, j) * toc(x[b * sx + (incx > 0 ? j : xl - 1 - j) * ax]);
                    cd &w = want[b * sy + i * incy];
                    w = toc(alpha) * sum + toc(beta) * w;
                }
            Dev<TA> dA(A), dx(x);
            Dev<TY> dy(y);
            if (arrays) {
                Batch<TA> ax_arrays(dA.p, sA, dx.p, sx, nullptr, 0, batch);
                Batch<TY> y_arrays(dy.p, sy, dy.p, sy, dy.p, sy, batch);
                CB(batched(H, op, m, n, &alpha, ax_arrays.in1->p, lda, ax_arrays.in2->p, incx, &beta, y_arrays.out->p,
                           incy, batch));
            } else {
                CB(strided(H, op, m, n, &alpha, dA.p, lda, sA, dx.p, incx, sx, &beta, dy.p, incy, sy, batch));
            }
            check_vec(name, strf("op=%c incx=%d incy=%d %s", opc(op), incx, incy, arrays ? "pointer arrays" : "strided"),
                      dy.get(), want, Ty<TY>::tol());
        }
}

// Two groups: 2 problems of op (N, T) and 1 of (T, N), of other shapes and scalars; the
// pointers of the second group follow the first's. The _64 forms take int64_t arrays (I).
template <typename T, typename I>
static void test_gemm_grouped(const char *name,
                              cublasStatus_t (*fn)(cublasHandle_t, const cublasOperation_t[], const cublasOperation_t[],
                                                   const I[], const I[], const I[], const T[], const T *const[],
                                                   const I[], const T *const[], const I[], const T[], T *const[],
                                                   const I[], I, const I[])) {
    const cublasOperation_t ta[2] = {CUBLAS_OP_N, CUBLAS_OP_T}, tb[2] = {CUBLAS_OP_T, CUBLAS_OP_N};
    const I m[2] = {21, 13}, n[2] = {9, 18}, k[2] = {11, 7}, size[2] = {2, 1};
    I lda[2], ldb[2], ldc[2];
    const T alpha[2] = {alpha_of<T>(), fromc<T>(-1)}, beta[2] = {beta_of<T>(), fromc<T>(0)};
    std::vector<std::vector<T>> A, B, C;
    std::vector<std::vector<cd>> want;
    std::vector<std::unique_ptr<Dev<T>>> dA, dB, dC;
    std::vector<const T *> pa, pb;
    std::vector<T *> pc;
    std::vector<int> group_of;
    for (int g = 0; g < 2; g++) {
        int arows = ta[g] == CUBLAS_OP_N ? m[g] : k[g], acols = ta[g] == CUBLAS_OP_N ? k[g] : m[g];
        int brows = tb[g] == CUBLAS_OP_N ? k[g] : n[g], bcols = tb[g] == CUBLAS_OP_N ? n[g] : k[g];
        lda[g] = arows + 1, ldb[g] = brows + 2, ldc[g] = m[g] + 3;
        for (int p = 0; p < size[g]; p++) {
            A.push_back(rvec<T>(lda[g] * acols));
            B.push_back(rvec<T>(ldb[g] * bcols));
            C.push_back(rvec<T>(ldc[g] * n[g]));
            std::vector<cd> Ac = tocv(A.back()), Bc = tocv(B.back()), w = tocv(C.back());
            ref_gemm(ta[g], tb[g], m[g], n[g], k[g], toc(alpha[g]), Ac.data(), lda[g], Bc.data(), ldb[g], toc(beta[g]),
                     w.data(), ldc[g]);
            want.push_back(w);
            dA.emplace_back(new Dev<T>(A.back()));
            dB.emplace_back(new Dev<T>(B.back()));
            dC.emplace_back(new Dev<T>(C.back()));
            pa.push_back(dA.back()->p), pb.push_back(dB.back()->p), pc.push_back(dC.back()->p);
            group_of.push_back(g);
        }
    }
    Dev<const T *> dpa(pa), dpb(pb);
    Dev<T *> dpc(pc);
    CB(fn(H, ta, tb, m, n, k, alpha, dpa.p, lda, dpb.p, ldb, beta, dpc.p, ldc, 2, size));
    for (size_t p = 0; p < pc.size(); p++) {
        int g = group_of[p];
        check_mat(name, strf("group %d problem %zu", g, p), dC[p]->get(), want[p], m[g], n[g], ldc[g], Ty<T>::tol());
    }
    set_mode(true);
    if (fn(H, ta, tb, m, n, k, alpha, dpa.p, lda, dpb.p, ldb, beta, dpc.p, ldc, 2, size) != CUBLAS_STATUS_NOT_SUPPORTED)
        fail(name, "device pointer mode: want CUBLAS_STATUS_NOT_SUPPORTED, as NVIDIA's cuBLAS");
    set_mode(false);
}

static void level_batched_grouped() {
    test_gemv_batched<float, float, float>("SgemvBatched", cublasSgemvStridedBatched, cublasSgemvBatched);
    test_gemv_batched<double, double, double>("DgemvBatched", cublasDgemvStridedBatched, cublasDgemvBatched);
    test_gemv_batched<cuComplex, cuComplex, cuComplex>("CgemvBatched", cublasCgemvStridedBatched, cublasCgemvBatched);
    test_gemv_batched<cuDoubleComplex, cuDoubleComplex, cuDoubleComplex>("ZgemvBatched", cublasZgemvStridedBatched,
                                                                         cublasZgemvBatched);
    test_gemv_batched<__half, __half, float>("HSHgemvBatched", cublasHSHgemvStridedBatched, cublasHSHgemvBatched);
    test_gemv_batched<__half, float, float>("HSSgemvBatched", cublasHSSgemvStridedBatched, cublasHSSgemvBatched);
    test_gemv_batched<__nv_bfloat16, __nv_bfloat16, float>("TSTgemvBatched", cublasTSTgemvStridedBatched,
                                                           cublasTSTgemvBatched);
    test_gemv_batched<__nv_bfloat16, float, float>("TSSgemvBatched", cublasTSSgemvStridedBatched, cublasTSSgemvBatched);
#if CUBLAS_VER_MAJOR >= 12
    test_gemm_grouped<float, int>("SgemmGroupedBatched", cublasSgemmGroupedBatched);
    test_gemm_grouped<double, int>("DgemmGroupedBatched", cublasDgemmGroupedBatched);
    test_gemm_grouped<float, int64_t>("SgemmGroupedBatched_64", cublasSgemmGroupedBatched_64);
    test_gemm_grouped<__half, int>("GemmGroupedBatchedEx 16F", +[](cublasHandle_t h, const cublasOperation_t ta[],
        const cublasOperation_t tb[], const int m[], const int n[], const int k[], const __half alpha[],
        const __half *const a[], const int lda[], const __half *const b[], const int ldb[], const __half beta[],
        __half *const c[], const int ldc[], int count, const int size[]) {
        // The compute type's scalars: floats.
        float fa[2] = {__half2float(alpha[0]), __half2float(alpha[1])}, fb[2] = {__half2float(beta[0]), __half2float(beta[1])};
        return cublasGemmGroupedBatchedEx(h, ta, tb, m, n, k, fa, (const void *const *)a, CUDA_R_16F, lda,
                                          (const void *const *)b, CUDA_R_16F, ldb, fb, (void *const *)c, CUDA_R_16F, ldc,
                                          count, size, CUBLAS_COMPUTE_32F);
    });
    test_gemm_grouped<double, int64_t>("GemmGroupedBatchedEx_64 64F", +[](cublasHandle_t h, const cublasOperation_t ta[],
        const cublasOperation_t tb[], const int64_t m[], const int64_t n[], const int64_t k[], const double alpha[],
        const double *const a[], const int64_t lda[], const double *const b[], const int64_t ldb[], const double beta[],
        double *const c[], const int64_t ldc[], int64_t count, const int64_t size[]) {
        return cublasGemmGroupedBatchedEx_64(h, ta, tb, m, n, k, alpha, (const void *const *)a, CUDA_R_64F, lda,
                                             (const void *const *)b, CUDA_R_64F, ldb, beta, (void *const *)c, CUDA_R_64F,
                                             ldc, count, size, CUBLAS_COMPUTE_64F);
    });
#endif
}

// A complex float matrix in device memory as 8-bit complex (its elements small integers).
static std::vector<char2> narrowed(const cuComplex *device, size_t count) {
    std::vector<cuComplex> wide(count);
    CHECK(cudaMemcpy(wide.data(), device, count * sizeof(cuComplex), cudaMemcpyDeviceToHost));
    std::vector<char2> out(count);
    for (size_t i = 0; i < count; i++) out[i] = make_char2((signed char)wide[i].x, (signed char)wide[i].y);
    return out;
}

// The complex Ex forms and the 3m batched forms through their typed routines' checks.
static void level3_complex_ex() {
    test_gemm<cuComplex>("CgemmEx", +[](cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                        const cuComplex *a, const cuComplex *A, int lda, const cuComplex *B, int ldb,
                                        const cuComplex *b, cuComplex *C, int ldc) {
        return cublasCgemmEx(h, ta, tb, m, n, k, a, A, CUDA_C_32F, lda, B, CUDA_C_32F, ldb, b, C, CUDA_C_32F, ldc);
    });
    test_gemm<cuComplex>("Cgemm3mEx", +[](cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                          const cuComplex *a, const cuComplex *A, int lda, const cuComplex *B, int ldb,
                                          const cuComplex *b, cuComplex *C, int ldc) {
        return cublasCgemm3mEx(h, ta, tb, m, n, k, a, A, CUDA_C_32F, lda, B, CUDA_C_32F, ldb, b, C, CUDA_C_32F, ldc);
    });
    test_syrk<cuComplex>("CsyrkEx", +[](cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, int n, int k,
                                        const cuComplex *a, const cuComplex *A, int lda, const cuComplex *b, cuComplex *C,
                                        int ldc) {
        return cublasCsyrkEx(h, uplo, op, n, k, a, A, CUDA_C_32F, lda, b, C, CUDA_C_32F, ldc);
    });
    test_syrk<cuComplex>("Csyrk3mEx", +[](cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, int n, int k,
                                          const cuComplex *a, const cuComplex *A, int lda, const cuComplex *b,
                                          cuComplex *C, int ldc) {
        return cublasCsyrk3mEx(h, uplo, op, n, k, a, A, CUDA_C_32F, lda, b, C, CUDA_C_32F, ldc);
    });
    test_herk<cuComplex>("CherkEx", +[](cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, int n, int k,
                                        const float *a, const cuComplex *A, int lda, const float *b, cuComplex *C, int ldc) {
        return cublasCherkEx(h, uplo, op, n, k, a, A, CUDA_C_32F, lda, b, C, CUDA_C_32F, ldc);
    });
    test_herk<cuComplex>("Cherk3mEx", +[](cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, int n, int k,
                                          const float *a, const cuComplex *A, int lda, const float *b, cuComplex *C,
                                          int ldc) {
        return cublasCherk3mEx(h, uplo, op, n, k, a, A, CUDA_C_32F, lda, b, C, CUDA_C_32F, ldc);
    });
    test_gemm_strided("Cgemm3mStridedBatched", cublasCgemm3mStridedBatched);
    test_gemm_strided<cuComplex>("Cgemm3mBatched", +[](cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                                                      int n, int k, const cuComplex *a, const cuComplex *A, int lda,
                                                      long long sa, const cuComplex *B, int ldb, long long sb,
                                                      const cuComplex *b, cuComplex *C, int ldc, long long sc, int count) {
        Batch<cuComplex> arrays(A, sa, B, sb, C, sc, count);
        return cublasCgemm3mBatched(h, ta, tb, m, n, k, a, arrays.in1->p, lda, arrays.in2->p, ldb, b, arrays.out->p, ldc,
                                    count);
    });
    // 8-bit complex A and B (the inputs are small integers), C in complex float.
    test_gemm<cuComplex>("CgemmEx 8-bit A and B", +[](cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                                                     int n, int k, const cuComplex *a, const cuComplex *A, int lda,
                                                     const cuComplex *B, int ldb, const cuComplex *b, cuComplex *C,
                                                     int ldc) {
        Dev<char2> A8(narrowed(A, (size_t)lda * (ta == CUBLAS_OP_N ? k : m)));
        Dev<char2> B8(narrowed(B, (size_t)ldb * (tb == CUBLAS_OP_N ? n : k)));
        cublasStatus_t s = cublasCgemmEx(h, ta, tb, m, n, k, a, A8.p, CUDA_C_8I, lda, B8.p, CUDA_C_8I, ldb, b, C, CUDA_C_32F,
                                         ldc);
        CHECK(cudaDeviceSynchronize());
        return s;
    });
    Dev<cuComplex> d(16);
    cuComplex one = {1, 0};
    expect_refused("CsyrkEx 8-bit A", cublasCsyrkEx(H, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 4, 4, &one, d.p, CUDA_C_8I, 4,
                                                    &one, d.p, CUDA_C_32F, 4));
}

// ---- batched QR and least squares -------------------------------------------------------------
// geqrf: Q (rebuilt on the host from the reflectors and tau, LAPACK's way) times R (on and above
// the diagonal) gives A back, and Q is unitary; for m > n and m < n. gels: the solution meets
// the normal equations A^H (A X - C) = 0; a zero column makes R singular (devInfo is its
// 1-based place); refusals as NVIDIA's.
template <typename T>
static void test_qr(const char *name, cublasStatus_t (*geqrf)(cublasHandle_t, int, int, T *const[], int, T *const[], int *, int),
                    cublasStatus_t (*gels)(cublasHandle_t, cublasOperation_t, int, int, int, T *const[], int, T *const[],
                                           int, int *, int *, int)) {
    const int batch = 3;
    for (int shape = 0; shape < 2; shape++) {
        int m = shape ? 5 : 9, n = shape ? 7 : 6, lda = m + 2, k = std::min(m, n);
        std::vector<std::vector<T>> A(batch);
        std::vector<std::unique_ptr<Dev<T>>> dA, dTau;
        std::vector<T *> pa, pt;
        for (int b = 0; b < batch; b++) {
            A[b] = rvec<T>(lda * n);
            dA.emplace_back(new Dev<T>(A[b]));
            dTau.emplace_back(new Dev<T>(std::vector<T>(k, nan_of<T>())));
            pa.push_back(dA[b]->p), pt.push_back(dTau[b]->p);
        }
        Dev<T *> dpa(pa), dpt(pt);
        int info = -99;
        CB(geqrf(H, m, n, dpa.p, lda, dpt.p, &info, batch));
        if (info != 0) fail(name, strf("geqrf info %d", info));
        for (int b = 0; b < batch; b++) {
            std::vector<cd> F = tocv(dA[b]->get()), tau = tocv(dTau[b]->get()), Q(m * m, 0.0);
            for (int i = 0; i < m; i++) Q[i + i * m] = 1;
            for (int j = k - 1; j >= 0; j--) {  // Q = H(0) ... H(k-1), built from the right
                std::vector<cd> v(m, 0.0);
                v[j] = 1;
                for (int i = j + 1; i < m; i++) v[i] = F[i + j * lda];
                for (int c = 0; c < m; c++) {
                    cd w = 0;
                    for (int i = j; i < m; i++) w += std::conj(v[i]) * Q[i + c * m];
                    for (int i = j; i < m; i++) Q[i + c * m] -= tau[j] * v[i] * w;
                }
            }
            std::vector<cd> QR(lda * n, 0.0), QQ(m * m, 0.0), want = tocv(A[b]), eye(m * m, 0.0);
            for (int c = 0; c < n; c++)
                for (int i = 0; i < m; i++)
                    for (int l = 0; l <= std::min(c, k - 1); l++) QR[i + c * lda] += Q[i + l * m] * F[l + c * lda];
            for (int c = 0; c < m; c++)
                for (int i = 0; i < m; i++) {
                    eye[i + c * m] = i == c;
                    for (int l = 0; l < m; l++) QQ[i + c * m] += std::conj(Q[l + i * m]) * Q[l + c * m];
                }
            for (int c = 0; c < n; c++)
                for (int i = m; i < lda; i++) QR[i + c * lda] = want[i + c * lda];  // the padding
            check_mat(name, strf("geqrf %dx%d batch %d: Q R", m, n, b), fromcv<T>(QR), want, lda, n, lda, Ty<T>::stol(), 8);
            check_mat(name, strf("geqrf %dx%d batch %d: Q^H Q", m, n, b), fromcv<T>(QQ), eye, m, m, m, Ty<T>::stol());
        }
    }
    const int m = 9, n = 6, nrhs = 2, lda = m + 1, ldc = m + 3;
    std::vector<std::vector<T>> A(batch), C(batch);
    std::vector<std::unique_ptr<Dev<T>>> dA, dC;
    std::vector<T *> pa, pc;
    for (int b = 0; b < batch; b++) {
        A[b] = rvec<T>(lda * n), C[b] = rvec<T>(ldc * nrhs);
        if (b == 2)
            for (int i = 0; i < m; i++) A[b][i + 2 * lda] = fromc<T>(0);  // rank deficient
        dA.emplace_back(new Dev<T>(A[b]));
        dC.emplace_back(new Dev<T>(C[b]));
        pa.push_back(dA[b]->p), pc.push_back(dC[b]->p);
    }
    Dev<T *> dpa(pa), dpc(pc);
    Dev<int> dinfo(std::vector<int>(batch, -99));
    int info = -99;
    CB(gels(H, CUBLAS_OP_N, m, n, nrhs, dpa.p, lda, dpc.p, ldc, &info, dinfo.p, batch));
    std::vector<int> devinfo = dinfo.get();
    if (info != 0 || devinfo[0] != 0 || devinfo[1] != 0 || devinfo[2] != 3)
        fail(name, strf("gels info %d, devInfo %d %d %d, want 0, 0 0 3", info, devinfo[0], devinfo[1], devinfo[2]));
    for (int b = 0; b < 2; b++) {
        std::vector<cd> X = tocv(dC[b]->get()), a = tocv(A[b]), c = tocv(C[b]), residual(m), got, zero;
        for (int r = 0; r < nrhs; r++) {
            for (int i = 0; i < m; i++) {
                residual[i] = -c[i + r * ldc];
                for (int l = 0; l < n; l++) residual[i] += a[i + l * lda] * X[l + r * ldc];
            }
            for (int l = 0; l < n; l++) {
                cd s = 0;
                for (int i = 0; i < m; i++) s += std::conj(a[i + l * lda]) * residual[i];
                got.push_back(s), zero.push_back(0);
            }
        }
        check_vec(name, strf("gels batch %d: A^H (A X - C)", b), fromcv<T>(got), zero, Ty<T>::stol(), max_abs(c) * 64);
    }
    // As NVIDIA's (an H100): op T and m < n are NOT_SUPPORTED with info 0; a short lda is
    // gels's 5th argument and geqrf's 4th, the handle and gels's op not counted.
    info = -99;
    cublasStatus_t s = gels(H, CUBLAS_OP_T, m, n, nrhs, dpa.p, lda, dpc.p, ldc, &info, dinfo.p, batch);
    if (s != CUBLAS_STATUS_NOT_SUPPORTED || info != 0) fail(name, strf("gels op T: %d, info %d", (int)s, info));
    info = -99;
    s = gels(H, CUBLAS_OP_N, n, m, nrhs, dpa.p, lda, dpc.p, ldc, &info, dinfo.p, batch);
    if (s != CUBLAS_STATUS_NOT_SUPPORTED || info != 0) fail(name, strf("gels m < n: %d, info %d", (int)s, info));
    s = gels(H, CUBLAS_OP_N, m, n, nrhs, dpa.p, m - 1, dpc.p, ldc, &info, dinfo.p, batch);
    if (s != CUBLAS_STATUS_INVALID_VALUE || info != -5) fail(name, strf("gels lda m - 1: %d, info %d", (int)s, info));
    s = geqrf(H, m, n, dpa.p, m - 1, dpa.p, &info, batch);
    if (s != CUBLAS_STATUS_INVALID_VALUE || info != -4) fail(name, strf("geqrf lda m - 1: %d, info %d", (int)s, info));
}

static void level3() {
    test_gemm("Sgemm", cublasSgemm); test_gemm("Dgemm", cublasDgemm); test_gemm("Cgemm", cublasCgemm);
    test_gemm("Zgemm", cublasZgemm); test_gemm("Hgemm", cublasHgemm); test_gemm("Sgemm", cublasSgemm, true);
    test_gemm("Zgemm", cublasZgemm, true); test_gemm("Cgemm3m", cublasCgemm3m); test_gemm("Zgemm3m", cublasZgemm3m);
    test_gemm_ex();
    test_sgemm_batched();
    test_gemm_strided("SgemmStridedBatched", cublasSgemmStridedBatched);
    test_gemm_strided("DgemmStridedBatched", cublasDgemmStridedBatched);
    test_gemm_strided("HgemmStridedBatched", cublasHgemmStridedBatched);
    test_gemm_strided("CgemmStridedBatched", cublasCgemmStridedBatched);
    test_gemm_strided("ZgemmStridedBatched", cublasZgemmStridedBatched);
    test_syrk("Ssyrk", cublasSsyrk); test_syrk("Dsyrk", cublasDsyrk); test_syrk("Csyrk", cublasCsyrk);
    test_syrk("Zsyrk", cublasZsyrk);
    test_herk("Cherk", cublasCherk); test_herk("Zherk", cublasZherk);
    test_syr2k("Ssyr2k", cublasSsyr2k); test_syr2k("Dsyr2k", cublasDsyr2k); test_syr2k("Csyr2k", cublasCsyr2k);
    test_syr2k("Zsyr2k", cublasZsyr2k);
    test_syrkx("Ssyrkx", cublasSsyrkx); test_syrkx("Dsyrkx", cublasDsyrkx); test_syrkx("Csyrkx", cublasCsyrkx);
    test_syrkx("Zsyrkx", cublasZsyrkx);
    test_herkx("Cherkx", 4, cublasCherkx); test_herkx("Zherkx", 4, cublasZherkx);
    test_herkx("Cher2k", 5, cublasCher2k); test_herkx("Zher2k", 5, cublasZher2k);
    test_trsm("Strsm", cublasStrsm); test_trsm("Dtrsm", cublasDtrsm); test_trsm("Ctrsm", cublasCtrsm);
    test_trsm("Ztrsm", cublasZtrsm);
    test_strsm_batched();
    test_trmm("Strmm", cublasStrmm); test_trmm("Dtrmm", cublasDtrmm); test_trmm("Ctrmm", cublasCtrmm);
    test_trmm("Ztrmm", cublasZtrmm);
    test_symm("Ssymm", cublasSsymm); test_symm("Dsymm", cublasDsymm); test_symm("Csymm", cublasCsymm);
    test_symm("Zsymm", cublasZsymm); test_symm("Chemm", cublasChemm, true); test_symm("Zhemm", cublasZhemm, true);
    test_geam("Sgeam", cublasSgeam); test_geam("Dgeam", cublasDgeam); test_geam("Cgeam", cublasCgeam);
    test_geam("Zgeam", cublasZgeam);
    test_dgmm("Sdgmm", cublasSdgmm); test_dgmm("Ddgmm", cublasDdgmm); test_dgmm("Cdgmm", cublasCdgmm);
    test_dgmm("Zdgmm", cublasZdgmm);
    test_batched_lu<float>("S", cublasSgetrfBatched, cublasSgetrsBatched, cublasSgetriBatched, cublasSmatinvBatched);
    test_batched_lu<double>("D", cublasDgetrfBatched, cublasDgetrsBatched, cublasDgetriBatched, cublasDmatinvBatched);
    test_batched_lu<cuComplex>("C", cublasCgetrfBatched, cublasCgetrsBatched, cublasCgetriBatched,
                               cublasCmatinvBatched);
    test_batched_lu<cuDoubleComplex>("Z", cublasZgetrfBatched, cublasZgetrsBatched, cublasZgetriBatched,
                                     cublasZmatinvBatched);
    level_batched_grouped();
    level3_complex_ex();
    test_qr<float>("SgeqrfBatched/SgelsBatched", cublasSgeqrfBatched, cublasSgelsBatched);
    test_qr<double>("DgeqrfBatched/DgelsBatched", cublasDgeqrfBatched, cublasDgelsBatched);
    test_qr<cuComplex>("CgeqrfBatched/CgelsBatched", cublasCgeqrfBatched, cublasCgelsBatched);
    test_qr<cuDoubleComplex>("ZgeqrfBatched/ZgelsBatched", cublasZgeqrfBatched, cublasZgelsBatched);
}

#if CUBLAS_VER_MAJOR >= 12
// ---- the _64 forms (cuBLAS 12): 64-bit sizes, leading dimensions, increments and counts ---------
// Each through the check of its 32-bit routine, the sizes widened on the way.
static void wide_forms() {
    test_axpy<float>("Saxpy_v2_64", +[](cublasHandle_t h, int n, const float *a, const float *x, int ix, float *y, int iy) {
        return cublasSaxpy_v2_64(h, n, a, x, ix, y, iy);
    });
    test_dot<double>("Ddot_v2_64", +[](cublasHandle_t h, int n, const double *x, int ix, const double *y, int iy, double *r) {
        return cublasDdot_v2_64(h, n, x, ix, y, iy, r);
    }, false);
    test_reduce<cuComplex, float>("Scnrm2_v2_64", +[](cublasHandle_t h, int n, const cuComplex *x, int ix, float *r) {
        return cublasScnrm2_v2_64(h, n, x, ix, r);
    }, false);
    test_iamax<float, int64_t>("Isamax_v2_64", +[](cublasHandle_t h, int n, const float *x, int ix, int64_t *r) {
        return cublasIsamax_v2_64(h, n, x, ix, r);
    }, true);
    test_iamax<cuDoubleComplex, int64_t>("Izamin_v2_64", +[](cublasHandle_t h, int n, const cuDoubleComplex *x, int ix,
                                                              int64_t *r) { return cublasIzamin_v2_64(h, n, x, ix, r); },
                                         false);
    test_gemv<double>("Dgemv_v2_64", +[](cublasHandle_t h, cublasOperation_t op, int m, int n, const double *a,
                                          const double *A, int lda, const double *x, int ix, const double *b, double *y,
                                          int iy) { return cublasDgemv_v2_64(h, op, m, n, a, A, lda, x, ix, b, y, iy); });
    test_gemm<float>("Sgemm_v2_64", +[](cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                         const float *a, const float *A, int lda, const float *B, int ldb, const float *b,
                                         float *C, int ldc) {
        return cublasSgemm_v2_64(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
    });
    test_gemm<cuDoubleComplex>("Zgemm_v2_64", +[](cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                                   int k, const cuDoubleComplex *a, const cuDoubleComplex *A, int lda,
                                                   const cuDoubleComplex *B, int ldb, const cuDoubleComplex *b,
                                                   cuDoubleComplex *C, int ldc) {
        return cublasZgemm_v2_64(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
    }, true);
    test_gemm<__half>("Hgemm_64", +[](cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                      const __half *a, const __half *A, int lda, const __half *B, int ldb, const __half *b,
                                      __half *C, int ldc) {
        return cublasHgemm_64(h, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
    });
    test_gemm_strided<float>("SgemmStridedBatched_64",
        +[](cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const float *a,
            const float *A, int lda, long long sa, const float *B, int ldb, long long sb, const float *b, float *C, int ldc,
            long long sc, int batch) {
            return cublasSgemmStridedBatched_64(h, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, C, ldc, sc, batch);
        });
}
#endif

int main() {
    if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS) {
        printf("FAIL: cublasCreate\n");
        return 1;
    }
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    test_helpers(st);
#if CUBLAS_VER_MAJOR >= 13
    test_settings();
#endif
    CB(cublasSetStream(H, 0));  // level 1 and 2 on the default stream
    level1();
    level1_ex();
    level2();
    CB(cublasSetStream(H, st));  // level 3 on the created stream
    level3();
#if CUBLAS_VER_MAJOR >= 12
    wide_forms();
#endif
    CHECK(cudaStreamSynchronize(st));
    CB(cublasSetStream(H, 0));
    CB(cublasDestroy(H));
    CHECK(cudaStreamDestroy(st));
    if (g_failures == 0) {
        printf("PASS\n");
        return 0;
    }
    printf("FAIL: %d checks failed\n", g_failures);
    return 1;
}
