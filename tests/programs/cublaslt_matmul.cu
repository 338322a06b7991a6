// cuBLASLt as frameworks use it: layouts (column and row order, padded leading dimensions,
// strided batches, pointer-array batches with cuBLAS 13), matmul descriptors with their attributes, the heuristic query,
// cublasLtMatmul with C apart from D and with the epilogues (bias, ReLU, GELU, GELU's aux
// input and gradient, ReLU's bit mask and gradient, bias gradients), 16-bit types,
// cublasLtMatrixTransform and the algorithm API (ids, init, capabilities, configuration, check). Every
// result is checked against a host reference in double.
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <memory>
#include <vector>

#include "test_util.h"

static int failures = 0;

#define LT(call)                                                                       \
    do {                                                                               \
        cublasStatus_t s_ = (call);                                                    \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                             \
            printf("FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)s_); \
            failures++;                                                                \
        }                                                                              \
    } while (0)

static void expect(bool ok, const char *what)
{
    if (!ok) {
        printf("FAIL %s\n", what);
        failures++;
    }
}

static bool relu_mask_epilogue(int e)
{
    return e == CUBLASLT_EPILOGUE_RELU_AUX || e == CUBLASLT_EPILOGUE_RELU_AUX_BIAS ||
           e == CUBLASLT_EPILOGUE_DRELU || e == CUBLASLT_EPILOGUE_DRELU_BGRAD;
}

static double gelu(double x)
{
    return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

static double gelu_derivative(double x)
{
    double t = tanh(0.7978845608028654 * (x + 0.044715 * x * x * x));
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.7978845608028654 * (1 + 3 * 0.044715 * x * x);
}

// Compares got with want (both as doubles), relative to the larger of 1 and |want|.
static void compare(const char *what, const std::vector<double> &got,
                    const std::vector<double> &want, double tolerance)
{
    size_t first = 0, wrong = relative_mismatches(got, want, tolerance, &first);
    if (wrong) {
        printf("FAIL %s: %zu of %zu wrong, first [%zu] = %g, want %g\n", what, wrong,
               want.size(), first, got[first], want[first]);
        failures++;
    }
}

template <class T> static double to_double(T v) { return (double)v; }
template <> double to_double(__half v) { return __half2float(v); }
template <> double to_double(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T> static T from_double(double v) { return (T)v; }
template <> __half from_double(double v) { return __float2half((float)v); }
template <> __nv_bfloat16 from_double(double v) { return __float2bfloat16((float)v); }

// A matrix on the host and the device: rows x cols, leading dimension ld, in an order.
template <class T> struct Matrix {
    int rows, cols, ld, batch;
    long long stride;
    bool row_major;
    std::vector<T> host;
    T *device = nullptr;
    Matrix(int r, int c, int l, bool rm, int b, Lcg &rng, int span)
        : rows(r), cols(c), ld(l), batch(b), row_major(rm)
    {
        stride = (long long)ld * (row_major ? rows : cols) + 3;
        host.resize(stride * batch);
        for (auto &v : host)
            v = from_double<T>((double)((int)(rng.next() % (2 * span + 1)) - span));
        CHECK(cudaMalloc(&device, host.size() * sizeof(T)));
        CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    }
    ~Matrix() { cudaFree(device); }
    size_t at(int b, int i, int j) const
    {
        return b * stride + (row_major ? (size_t)i * ld + j : (size_t)j * ld + i);
    }
    double get(int b, int i, int j) const { return to_double(host[at(b, i, j)]); }
    void fetch()
    {
        CHECK(cudaMemcpy(host.data(), device, host.size() * sizeof(T), cudaMemcpyDeviceToHost));
    }
    cublasLtMatrixLayout_t layout(cudaDataType type) const
    {
        cublasLtMatrixLayout_t l;
        LT(cublasLtMatrixLayoutCreate(&l, type, rows, cols, ld));
        int32_t order = row_major ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
        LT(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order)));
        int32_t count = batch;
        LT(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                                            sizeof(count)));
        int64_t offset = stride;
        LT(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                            &offset, sizeof(offset)));
        return l;
    }
};

// A device array of COUNT pointers, the first at BASE and each STRIDE bytes on.
struct PointerArray {
    void **device = nullptr;
    PointerArray(void *base, size_t stride, int count)
    {
        std::vector<void *> host;
        for (int i = 0; i < count; i++)
            host.push_back((char *)base + i * stride);
        CHECK(cudaMalloc(&device, count * sizeof(void *)));
        CHECK(cudaMemcpy(device, host.data(), count * sizeof(void *), cudaMemcpyHostToDevice));
    }
    ~PointerArray() { cudaFree(device); }
};

struct Case {
    const char *name;
    int m, n, k, batch;
    cublasOperation_t ta, tb;
    bool a_rows, d_rows;
    cublasLtEpilogue_t epilogue;
    bool pointer_arrays;  // each batch's matrices through arrays of pointers (CUDA 13)
};

// D = epilogue(alpha op(A) op(B) + beta C), with C apart from D; TI the inputs' type, TO
// C's and D's, computed in f32.
template <class TI, class TO>
static void matmul(cublasLtHandle_t lt, cudaStream_t stream, const Case &c, cudaDataType ti,
                   cudaDataType to, double tolerance, Lcg &rng)
{
    char what[160];
    // NVIDIA's GELU derivative is computed in float: up to 1e-5 apart from the double
    // reference, relative (an H200, cuBLAS 13)
    if (c.epilogue == CUBLASLT_EPILOGUE_DGELU || c.epilogue == CUBLASLT_EPILOGUE_DGELU_BGRAD)
        tolerance = fmax(tolerance, 1e-4);
    int ar = c.ta == CUBLAS_OP_N ? c.m : c.k, ac = c.ta == CUBLAS_OP_N ? c.k : c.m;
    int br = c.tb == CUBLAS_OP_N ? c.k : c.n, bc = c.tb == CUBLAS_OP_N ? c.n : c.k;
    Matrix<TI> a(ar, ac, (c.a_rows ? ac : ar) + 2, c.a_rows, c.batch, rng, 3);
    Matrix<TI> b(br, bc, br + 1, false, c.batch, rng, 3);
    Matrix<TO> cm(c.m, c.n, (c.d_rows ? c.n : c.m) + 3, c.d_rows, c.batch, rng, 3);
    Matrix<TO> d(c.m, c.n, (c.d_rows ? c.n : c.m) + 1, c.d_rows, c.batch, rng, 3);
    // ReLU's mask is bits: its leading dimension and stride count them, multiples of 128.
    bool mask = relu_mask_epilogue(c.epilogue);
    int aux_ld = mask ? (c.m + 127) / 128 * 128 : (c.m + 7) / 8 * 8;
    long long aux_stride = (long long)aux_ld * c.n;
    Matrix<TO> aux(aux_ld, c.n * c.batch, aux_ld, false, 1, rng, 2);
    std::vector<unsigned char> mask_before(aux_stride / 8 * c.batch), mask_after;
    unsigned char *mask_device = nullptr;
    for (auto &byte : mask_before)
        byte = (unsigned char)rng.next();
    CHECK(cudaMalloc(&mask_device, mask_before.size()));
    CHECK(cudaMemcpy(mask_device, mask_before.data(), mask_before.size(), cudaMemcpyHostToDevice));
    Matrix<TO> bias(c.m > c.n ? c.m : c.n, c.batch, c.m > c.n ? c.m : c.n, false, 1, rng, 3);
    bool gradient_b = c.epilogue == CUBLASLT_EPILOGUE_BGRADB;
    bool gradient_d = c.epilogue == CUBLASLT_EPILOGUE_DGELU_BGRAD ||
                      c.epilogue == CUBLASLT_EPILOGUE_DRELU_BGRAD;
    long long bias_stride = c.m > c.n ? c.m : c.n;

    cublasLtMatmulDesc_t desc;
    LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &c.ta, sizeof(c.ta)));
    LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &c.tb, sizeof(c.tb)));
    LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &c.epilogue,
                                      sizeof(c.epilogue)));
    if (c.epilogue & (CUBLASLT_EPILOGUE_BIAS | CUBLASLT_EPILOGUE_BGRADA |
                      CUBLASLT_EPILOGUE_BGRADB | 16)) {
        LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias.device,
                                          sizeof(void *)));
        LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE,
                                          &bias_stride, sizeof(bias_stride)));
    }
    if (c.epilogue & 128) {
        int64_t ld = aux_ld;
        void *where = mask ? (void *)mask_device : (void *)aux.device;
        LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER,
                                          &where, sizeof(void *)));
        LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &ld,
                                          sizeof(ld)));
        LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE,
                                          &aux_stride, sizeof(aux_stride)));
    }
    cublasLtMatrixLayout_t la = a.layout(ti), lb = b.layout(ti), lc = cm.layout(to),
                           ld = d.layout(to);
    void *pa = a.device, *pb = b.device, *pc = cm.device, *pd = d.device;
#if CUBLAS_VER_MAJOR >= 13
    std::vector<std::unique_ptr<PointerArray>> arrays;
    if (c.pointer_arrays) {
        int32_t mode = CUBLASLT_BATCH_MODE_POINTER_ARRAY;
        for (cublasLtMatrixLayout_t l : {la, lb, lc, ld})
            LT(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &mode, sizeof(mode)));
        arrays.emplace_back(new PointerArray(a.device, a.stride * sizeof(TI), c.batch));
        arrays.emplace_back(new PointerArray(b.device, b.stride * sizeof(TI), c.batch));
        arrays.emplace_back(new PointerArray(cm.device, cm.stride * sizeof(TO), c.batch));
        arrays.emplace_back(new PointerArray(d.device, d.stride * sizeof(TO), c.batch));
        pa = arrays[0]->device, pb = arrays[1]->device, pc = arrays[2]->device, pd = arrays[3]->device;
    }
#endif
    cublasLtMatmulPreference_t pref;
    LT(cublasLtMatmulPreferenceCreate(&pref));
    uint64_t workspace_size = 1 << 22;
    void *workspace;
    CHECK(cudaMalloc(&workspace, workspace_size));
    LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                            &workspace_size, sizeof(workspace_size)));
    cublasLtMatmulHeuristicResult_t result = {};
    int found = 0;
    LT(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, ld, pref, 1, &result, &found));
    snprintf(what, sizeof(what), "%s: heuristic found %d algorithms", c.name, found);
    expect(found >= 1 && result.workspaceSize <= workspace_size, what);
    float alpha = 2, beta = c.epilogue == CUBLASLT_EPILOGUE_DEFAULT ? -1.0f : 0.5f;
    LT(cublasLtMatmul(lt, desc, &alpha, pa, la, pb, lb, &beta, pc, lc, pd, ld,
                      found ? &result.algo : nullptr, workspace, workspace_size, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::vector<TO> aux_before = aux.host;
    std::vector<TO> bias_before = bias.host;
    d.fetch();
    aux.fetch();
    bias.fetch();
    mask_after.resize(mask_before.size());
    CHECK(cudaMemcpy(mask_after.data(), mask_device, mask_after.size(), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(mask_device));
    size_t mask_wrong = 0;

    std::vector<double> got, want, got_aux, want_aux, got_bias, want_bias;
    for (int bt = 0; bt < c.batch; bt++) {
        for (int j = 0; j < c.n; j++)
            for (int i = 0; i < c.m; i++) {
                double s = 0;
                for (int l = 0; l < c.k; l++)
                    s += (c.ta == CUBLAS_OP_N ? a.get(bt, i, l) : a.get(bt, l, i)) *
                         (c.tb == CUBLAS_OP_N ? b.get(bt, l, j) : b.get(bt, j, l));
                // The output type's rounding of each step NVIDIA's kernels take.
                double x = to_double(from_double<TO>(alpha * s + beta * cm.get(bt, i, j)));
                size_t ai = bt * aux_stride + (size_t)j * aux_ld + i;
                if (c.epilogue & CUBLASLT_EPILOGUE_BIAS)
                    x += to_double(bias_before[bt * bias_stride + i]);
                bool bit_before = mask_before[ai / 8] >> (ai % 8) & 1;
                if (c.epilogue == CUBLASLT_EPILOGUE_DGELU ||
                    c.epilogue == CUBLASLT_EPILOGUE_DGELU_BGRAD)
                    x *= gelu_derivative(to_double(aux_before[ai]));
                else if (c.epilogue == CUBLASLT_EPILOGUE_DRELU ||
                         c.epilogue == CUBLASLT_EPILOGUE_DRELU_BGRAD)
                    x = bit_before ? x : 0;
                else if (mask)
                    mask_wrong += (mask_after[ai / 8] >> (ai % 8) & 1) != (x >= 0);
                else if (c.epilogue & 128) {
                    got_aux.push_back(to_double(aux.host[ai]));
                    want_aux.push_back(x);
                }
                if (c.epilogue & CUBLASLT_EPILOGUE_RELU)
                    x = x > 0 ? x : 0;
                if (c.epilogue & CUBLASLT_EPILOGUE_GELU)
                    x = gelu(x);
                got.push_back(d.get(bt, i, j));
                want.push_back(x);
            }
        // The mask's bits past the rows are the caller's, whatever the byte.
        if (mask)
            for (int j = 0; j < c.n; j++)
                for (int i = c.m; i < aux_ld; i++) {
                    size_t ai = bt * aux_stride + (size_t)j * aux_ld + i;
                    mask_wrong += (mask_after[ai / 8] ^ mask_before[ai / 8]) >> (ai % 8) & 1;
                }
        // Bias gradients: row sums of D (DGELU_BGRAD, DRELU_BGRAD) or of op(A), column sums
        // of op(B).
        if (gradient_d || c.epilogue == CUBLASLT_EPILOGUE_BGRADA || gradient_b) {
            int count = gradient_b ? c.n : c.m;
            for (int i = 0; i < count; i++) {
                double s = 0;
                if (gradient_d)
                    for (int j = 0; j < c.n; j++)
                        s += want[want.size() - (size_t)c.m * c.n + (size_t)j * c.m + i];
                else
                    for (int l = 0; l < c.k; l++)
                        s += gradient_b ? (c.tb == CUBLAS_OP_N ? b.get(bt, l, i) : b.get(bt, i, l))
                                        : (c.ta == CUBLAS_OP_N ? a.get(bt, i, l) : a.get(bt, l, i));
                got_bias.push_back(to_double(bias.host[bt * bias_stride + i]));
                want_bias.push_back(s);
            }
        }
    }
    snprintf(what, sizeof(what), "%s: D", c.name);
    compare(what, got, want, tolerance);
    snprintf(what, sizeof(what), "%s: aux (GELU's input)", c.name);
    compare(what, got_aux, want_aux, tolerance);
    snprintf(what, sizeof(what), "%s: %zu bits of ReLU's mask wrong", c.name, mask_wrong);
    expect(mask_wrong == 0, what);
    snprintf(what, sizeof(what), "%s: bias gradient", c.name);
    compare(what, got_bias, want_bias, tolerance * 4);

    cudaFree(workspace);
    LT(cublasLtMatmulPreferenceDestroy(pref));
    LT(cublasLtMatrixLayoutDestroy(la));
    LT(cublasLtMatrixLayoutDestroy(lb));
    LT(cublasLtMatrixLayoutDestroy(lc));
    LT(cublasLtMatrixLayoutDestroy(ld));
    LT(cublasLtMatmulDescDestroy(desc));
}

// The algorithm API as autotuners use it: the ids for f32, each initialised, its id read back,
// checked against a problem as initialised, else with a tile and stages from its lists (on an
// H100, 3 of NVIDIA's first 12 f32 algorithms check so); those that check run with
// the workspace they ask for and must get D right (a few suffice: NVIDIA's lists dozens).
// GetIds with no room is INVALID_VALUE.
static void algorithms(cublasLtHandle_t lt, cudaStream_t stream, Lcg &rng)
{
    const cudaDataType f = CUDA_R_32F;
    int ids[64], count = 0;
    LT(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, f, f, f, f, f, 64, ids, &count));
    expect(count >= 1, "algorithm ids for f32");
    int none = -1;
    expect(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, f, f, f, f, f, 0, ids, &none) ==
               CUBLAS_STATUS_INVALID_VALUE,
           "algorithm ids with no room: INVALID_VALUE");
    const int m = 40, n = 24, k = 16;
    Matrix<float> a(m, k, m, false, 1, rng, 3), b(k, n, k, false, 1, rng, 3);
    Matrix<float> d(m, n, m, false, 1, rng, 3);
    cublasLtMatmulDesc_t desc;
    LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, f));
    // Plain layouts, as autotuners make them.
    cublasLtMatrixLayout_t la, lb, ld;
    LT(cublasLtMatrixLayoutCreate(&la, f, m, k, m));
    LT(cublasLtMatrixLayoutCreate(&lb, f, k, n, k));
    LT(cublasLtMatrixLayoutCreate(&ld, f, m, n, m));
    std::vector<double> want;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double sum = 0;
            for (int l = 0; l < k; l++) sum += a.get(0, i, l) * b.get(0, l, j);
            want.push_back(sum);
        }
    int ran = 0;
    for (int i = 0; i < count && ran < 3; i++) {
        char what[96];
        cublasLtMatmulAlgo_t algo;
        LT(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, f, f, f, f, f, ids[i], &algo));
        int32_t id = -1;
        size_t written = 0;
        LT(cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &written));
        snprintf(what, sizeof what, "algorithm %d: its id read back (%d)", ids[i], id);
        expect(id == ids[i] && written == sizeof id, what);
        // A tile and a stages choice from the algorithm's lists that checks for this problem.
        std::vector<uint32_t> lists[2];
        const cublasLtMatmulAlgoCapAttributes_t caps[2] = {CUBLASLT_ALGO_CAP_TILE_IDS, CUBLASLT_ALGO_CAP_STAGES_IDS};
        for (int c = 0; c < 2; c++) {
            size_t bytes = 0;
            LT(cublasLtMatmulAlgoCapGetAttribute(&algo, caps[c], nullptr, 0, &bytes));
            snprintf(what, sizeof what, "algorithm %d: capability %d's size %zu", ids[i], (int)caps[c], bytes);
            expect(bytes % sizeof(uint32_t) == 0, what); // NVIDIA's lists may be empty
            lists[c].resize(bytes / sizeof(uint32_t));
            LT(cublasLtMatmulAlgoCapGetAttribute(&algo, caps[c], lists[c].data(), bytes, &written));
        }
        cublasLtMatmulHeuristicResult_t result;
        bool checked = cublasLtMatmulAlgoCheck(lt, desc, la, lb, ld, ld, &algo, &result) == CUBLAS_STATUS_SUCCESS;
        for (uint32_t tile : lists[0])
            for (uint32_t stages : lists[1]) {
                if (checked) break;
                LT(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile));
                LT(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages));
                checked = cublasLtMatmulAlgoCheck(lt, desc, la, lb, ld, ld, &algo, &result) == CUBLAS_STATUS_SUCCESS;
            }
        if (!checked)
            continue;
        void *workspace = nullptr;
        if (result.workspaceSize)
            CHECK(cudaMalloc(&workspace, result.workspaceSize));
        float alpha = 1, beta = 0;
        LT(cublasLtMatmul(lt, desc, &alpha, a.device, la, b.device, lb, &beta, d.device, ld, d.device, ld,
                          &result.algo, workspace, result.workspaceSize, stream));
        CHECK(cudaStreamSynchronize(stream));
        cudaFree(workspace);
        d.fetch();
        std::vector<double> got;
        for (int j = 0; j < n; j++)
            for (int r = 0; r < m; r++) got.push_back(d.get(0, r, j));
        snprintf(what, sizeof what, "algorithm %d: D", ids[i]);
        compare(what, got, want, 1e-5);
        ran++;
    }
    expect(ran >= 1, "an algorithm of the list runs the matmul");
    LT(cublasLtMatrixLayoutDestroy(la));
    LT(cublasLtMatrixLayoutDestroy(lb));
    LT(cublasLtMatrixLayoutDestroy(ld));
    LT(cublasLtMatmulDescDestroy(desc));
}

// A leading dimension under a row-major C's columns: INVALID_VALUE from the heuristic query
// and from the matmul, as on NVIDIA's library (an H200, cuBLAS 13).
static void short_leading_dimension(cublasLtHandle_t lt)
{
    cublasLtMatmulDesc_t desc;
    LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasLtMatrixLayout_t a, b, c, d;
    LT(cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, 20, 18, 20));
    LT(cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, 18, 26, 18));
    LT(cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, 20, 26, 23));
    LT(cublasLtMatrixLayoutCreate(&d, CUDA_R_32F, 20, 26, 27));
    int32_t order = CUBLASLT_ORDER_ROW;
    LT(cublasLtMatrixLayoutSetAttribute(c, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order)));
    LT(cublasLtMatrixLayoutSetAttribute(d, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order)));
    cublasLtMatmulPreference_t pref;
    LT(cublasLtMatmulPreferenceCreate(&pref));
    cublasLtMatmulHeuristicResult_t result = {};
    int found = 0;
    expect(cublasLtMatmulAlgoGetHeuristic(lt, desc, a, b, c, d, pref, 1, &result, &found) ==
               CUBLAS_STATUS_INVALID_VALUE && found == 0,
           "short leading dimension: the heuristic query refuses a row-major C of 26 columns with ld 23");
    float alpha = 1, beta = 1;
    expect(cublasLtMatmul(lt, desc, &alpha, nullptr, a, nullptr, b, &beta, nullptr, c, nullptr, d,
                          nullptr, nullptr, 0, 0) == CUBLAS_STATUS_INVALID_VALUE,
           "short leading dimension: the matmul refuses it");
    LT(cublasLtMatmulPreferenceDestroy(pref));
    for (cublasLtMatrixLayout_t l : {a, b, c, d})
        LT(cublasLtMatrixLayoutDestroy(l));
    LT(cublasLtMatmulDescDestroy(desc));
}

// Descriptors on the program's own storage, and attributes read back.
static void descriptors()
{
    cublasLtMatmulDescOpaque_t storage;
    cublasLtMatmulDesc_t desc = &storage;
    LT(cublasLtMatmulDescInit(desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t t = CUBLAS_OP_T, back = CUBLAS_OP_N;
    LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &t, sizeof(t)));
    size_t written = 0;
    LT(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &back, sizeof(back),
                                      &written));
    expect(back == CUBLAS_OP_T && written == sizeof(back), "descriptor: TRANSB read back");
    written = 0;
    LT(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, nullptr, 0, &written));
    expect(written == sizeof(uint32_t), "descriptor: the size of EPILOGUE asked with no room");
    cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_RELU;
    expect(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, 2) ==
               CUBLAS_STATUS_INVALID_VALUE,
           "descriptor: an attribute of the wrong size is refused");
    int32_t compute = 0;
    LT(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &compute,
                                      sizeof(compute), &written));
    expect(compute == CUBLAS_COMPUTE_32F, "descriptor: COMPUTE_TYPE read back");

    cublasLtMatrixLayoutOpaque_t layout_storage;
    cublasLtMatrixLayout_t layout = &layout_storage;
    LT(cublasLtMatrixLayoutInit(layout, CUDA_R_16F, 12, 7, 16));
    uint64_t rows = 0;
    int64_t ld = 0;
    LT(cublasLtMatrixLayoutGetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows, sizeof(rows),
                                        &written));
    LT(cublasLtMatrixLayoutGetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_LD, &ld, sizeof(ld),
                                        &written));
    expect(rows == 12 && ld == 16, "layout: ROWS and LD read back");
    expect(cublasLtGetVersion() > 0, "cublasLtGetVersion");
    expect(strcmp(cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED),
                  "CUBLAS_STATUS_NOT_SUPPORTED") == 0, "cublasLtGetStatusName");
}

// C = alpha op(A) + beta op(B): a row-major matrix transposed into column order.
static void transform(cublasLtHandle_t lt, cudaStream_t stream, Lcg &rng)
{
    Matrix<float> a(9, 13, 15, true, 1, rng, 4), b(13, 9, 14, false, 1, rng, 4),
        c(13, 9, 16, false, 1, rng, 4);
    cublasLtMatrixTransformDesc_t desc;
    LT(cublasLtMatrixTransformDescCreate(&desc, CUDA_R_32F));
    cublasOperation_t t = CUBLAS_OP_T;
    LT(cublasLtMatrixTransformDescSetAttribute(desc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &t,
                                               sizeof(t)));
    cublasLtMatrixLayout_t la = a.layout(CUDA_R_32F), lb = b.layout(CUDA_R_32F),
                           lc = c.layout(CUDA_R_32F);
    float alpha = 3, beta = -1;
    LT(cublasLtMatrixTransform(lt, desc, &alpha, a.device, la, &beta, b.device, lb, c.device, lc,
                               stream));
    CHECK(cudaStreamSynchronize(stream));
    c.fetch();
    std::vector<double> got, want;
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 13; i++) {
            got.push_back(c.get(0, i, j));
            want.push_back(alpha * a.get(0, j, i) + beta * b.get(0, i, j));
        }
    compare("cublasLtMatrixTransform: transposed row-major A plus B", got, want, 0);
    LT(cublasLtMatrixLayoutDestroy(la));
    LT(cublasLtMatrixLayoutDestroy(lb));
    LT(cublasLtMatrixLayoutDestroy(lc));
    LT(cublasLtMatrixTransformDescDestroy(desc));
}

int main()
{
    cublasLtHandle_t lt;
    cudaStream_t stream;
    Lcg rng(2026);

    if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS) {
        printf("FAIL: cublasLtCreate\n");
        return 1;
    }
    CHECK(cudaStreamCreate(&stream));
    descriptors();
    short_leading_dimension(lt);
    const Case cases[] = {
        {"f32 NN", 37, 29, 21, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false, CUBLASLT_EPILOGUE_DEFAULT},
        {"f32 TN, A row-major", 33, 17, 40, 1, CUBLAS_OP_T, CUBLAS_OP_N, true, false,
         CUBLASLT_EPILOGUE_DEFAULT},
        {"f32 NT, D row-major, batch 3", 20, 26, 18, 3, CUBLAS_OP_N, CUBLAS_OP_T, false, true,
         CUBLASLT_EPILOGUE_DEFAULT},
        {"f32 bias", 31, 22, 16, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false, CUBLASLT_EPILOGUE_BIAS},
        {"f32 ReLU", 25, 19, 12, 1, CUBLAS_OP_T, CUBLAS_OP_N, false, false, CUBLASLT_EPILOGUE_RELU},
        {"f32 ReLU + bias, batch 2", 24, 18, 12, 2, CUBLAS_OP_N, CUBLAS_OP_T, false, false,
         CUBLASLT_EPILOGUE_RELU_BIAS},
        {"f32 GELU", 16, 16, 8, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false, CUBLASLT_EPILOGUE_GELU},
        {"f32 GELU + bias", 40, 24, 8, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false,
         CUBLASLT_EPILOGUE_GELU_BIAS},
        {"f32 GELU aux + bias", 40, 24, 8, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false,
         CUBLASLT_EPILOGUE_GELU_AUX_BIAS},
        {"f32 GELU aux", 24, 16, 8, 2, CUBLAS_OP_T, CUBLAS_OP_N, false, false,
         CUBLASLT_EPILOGUE_GELU_AUX},
        {"f32 GELU gradient", 32, 20, 8, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false,
         CUBLASLT_EPILOGUE_DGELU},
        {"f32 GELU gradient + bias gradient", 32, 20, 8, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false,
         CUBLASLT_EPILOGUE_DGELU_BGRAD},
        {"f32 bias gradient of A", 24, 16, 32, 1, CUBLAS_OP_N, CUBLAS_OP_T, false, false,
         CUBLASLT_EPILOGUE_BGRADA},
        // NVIDIA's cuBLASLt 13 takes BGRADB only with B transposed, BGRADA only with A not
        // (NOT_SUPPORTED otherwise, on an H100); the project's computes every op.
        {"f32 bias gradient of B", 24, 16, 32, 1, CUBLAS_OP_N, CUBLAS_OP_T, false, false,
         CUBLASLT_EPILOGUE_BGRADB},
        {"f32 ReLU mask", 37, 21, 12, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false,
         CUBLASLT_EPILOGUE_RELU_AUX},
        {"f32 ReLU mask + bias, batch 2", 40, 16, 8, 2, CUBLAS_OP_T, CUBLAS_OP_N, false, false,
         CUBLASLT_EPILOGUE_RELU_AUX_BIAS},
        {"f32 ReLU gradient", 33, 20, 8, 1, CUBLAS_OP_N, CUBLAS_OP_T, false, false,
         CUBLASLT_EPILOGUE_DRELU},
#if CUBLAS_VER_MAJOR >= 13
        // NVIDIA's cuBLASLt 13 refuses arrays of pointers with a bias epilogue
        // (NOT_SUPPORTED from the heuristic query and the matmul, on an H100); the
        // project's computes it too.
        {"f32 TN, pointer arrays, batch 3", 21, 18, 12, 3, CUBLAS_OP_T, CUBLAS_OP_N, false,
         false, CUBLASLT_EPILOGUE_DEFAULT, true},
#endif
    };
    for (const Case &c : cases)
        matmul<float, float>(lt, stream, c, CUDA_R_32F, CUDA_R_32F, 1e-5, rng);
    const Case half_cases[] = {
        {"f16 NN", 40, 24, 32, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false, CUBLASLT_EPILOGUE_DEFAULT},
        {"f16 TN, batch 2", 32, 16, 24, 2, CUBLAS_OP_T, CUBLAS_OP_N, false, false,
         CUBLASLT_EPILOGUE_DEFAULT},
        {"f16 ReLU + bias", 32, 24, 16, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false,
         CUBLASLT_EPILOGUE_RELU_BIAS},
        {"f16 GELU + bias", 32, 24, 16, 1, CUBLAS_OP_N, CUBLAS_OP_T, false, false,
         CUBLASLT_EPILOGUE_GELU_BIAS},
        {"f16 ReLU mask + bias", 40, 16, 16, 1, CUBLAS_OP_N, CUBLAS_OP_T, false, false,
         CUBLASLT_EPILOGUE_RELU_AUX_BIAS},
        {"f16 ReLU gradient + bias gradient", 32, 24, 16, 1, CUBLAS_OP_N, CUBLAS_OP_N, false,
         false, CUBLASLT_EPILOGUE_DRELU_BGRAD},
    };
    for (const Case &c : half_cases)
        matmul<__half, __half>(lt, stream, c, CUDA_R_16F, CUDA_R_16F, 2e-3, rng);
    const Case bf16_cases[] = {
        {"bf16 NN into f32", 24, 16, 32, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false,
         CUBLASLT_EPILOGUE_DEFAULT},
        {"bf16 NT into f32 with bias", 24, 16, 32, 1, CUBLAS_OP_N, CUBLAS_OP_T, false, false,
         CUBLASLT_EPILOGUE_BIAS},
    };
    for (const Case &c : bf16_cases)
        matmul<__nv_bfloat16, float>(lt, stream, c, CUDA_R_16BF, CUDA_R_32F, 1e-5, rng);
    transform(lt, stream, rng);
    algorithms(lt, stream, rng);
    CHECK(cudaStreamDestroy(stream));
    LT(cublasLtDestroy(lt));
    if (failures) {
        printf("FAIL: %d checks failed\n", failures);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
