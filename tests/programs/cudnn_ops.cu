// cuDNN 9 as frameworks call it, through the legacy API, against host references computed
// here in double precision: activation (five modes, forward with blending, backward), softmax
// (accurate, fast and log; per channel and per instance; forward and backward), pooling (max
// and both averages, padded and strided; forward and backward), batch normalisation (spatial
// training with running statistics, inference spatial and per activation, backward), LRN
// across channels, the tensor operations (OpTensor, AddTensor with a broadcast bias,
// ScaleTensor, SetTensor, TransformTensor between NCHW and NHWC, ReduceTensor with
// indices), and convolution forward, backward data and backward filter (NCHW and NHWC, f32
// and f16, strides, padding, dilation, groups; the algorithm the v7 heuristics rank first
// that runs) and the fused convolution + bias + ReLU; through the graph API (each graph run
// as frameworks run one: heuristics mode A's configurations, then the fallback list), fused
// matmul + bias + ReLU, fused convolution + bias + ReLU, and layer normalisation forward and
// backward. Convolution inputs are small integers, so every algorithm (TF32 and f16 tensor
// cores included) gives exact sums.
// Prints "FAIL <operation>: <detail>" per failing check, then "PASS" or "FAIL: N checks
// failed".
#include "test_util.h"
#include <cudnn.h>
#include <cuda_fp16.h>

#include <initializer_list>
#include <string>
#include <vector>

static int failures;

static void fail(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s: ", what);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    failures++;
}

// A cuDNN call that fails ends the operation under test (a failed check); the run goes on.
#define DNN(call)                                                                      \
    do {                                                                               \
        cudnnStatus_t s_ = (call);                                                     \
        if (s_ != CUDNN_STATUS_SUCCESS) {                                              \
            fail(what, "%s returned %s (line %d)", #call, cudnnGetErrorString(s_), __LINE__); \
            return;                                                                    \
        }                                                                              \
    } while (0)

// Compares got with want, relative to the larger of 1 and |want|.
static void compare(const char *what, const std::vector<double> &got,
                    const std::vector<double> &want, double tolerance)
{
    size_t first = 0, wrong = relative_mismatches(got, want, tolerance, &first);
    if (wrong)
        fail(what, "%zu of %zu wrong, first [%zu] = %.9g, want %.9g", wrong, want.size(), first,
             got[first], want[first]);
}

// A 4-d tensor of floats (or halves on the device) on the host and the device.
struct Tensor {
    int n, c, h, w;
    cudnnTensorFormat_t format;
    cudnnDataType_t type;
    std::vector<double> host;
    void *device = nullptr;
    cudnnTensorDescriptor_t desc = nullptr;

    Tensor(int n_, int c_, int h_, int w_, cudnnTensorFormat_t f = CUDNN_TENSOR_NCHW,
           cudnnDataType_t t = CUDNN_DATA_FLOAT)
        : n(n_), c(c_), h(h_), w(w_), format(f), type(t), host((size_t)n_ * c_ * h_ * w_)
    {
        CHECK(cudaMalloc(&device, host.size() * element()));
        cudnnCreateTensorDescriptor(&desc);
        cudnnSetTensor4dDescriptor(desc, format, type, n, c, h, w);
    }
    ~Tensor()
    {
        cudaFree(device);
        cudnnDestroyTensorDescriptor(desc);
    }
    Tensor(const Tensor &) = delete;
    size_t element() const { return type == CUDNN_DATA_HALF ? 2 : type == CUDNN_DATA_DOUBLE ? 8 : 4; }
    size_t size() const { return host.size(); }
    size_t at(int in, int ic, int ih, int iw) const
    {
        if (format == CUDNN_TENSOR_NHWC)
            return (((size_t)in * h + ih) * w + iw) * c + ic;
        return (((size_t)in * c + ic) * h + ih) * w + iw;
    }
    double &operator()(int in, int ic, int ih, int iw) { return host[at(in, ic, ih, iw)]; }
    void upload()
    {
        if (type == CUDNN_DATA_HALF) {
            std::vector<__half> v(size());
            for (size_t i = 0; i < size(); i++)
                v[i] = __float2half((float)host[i]);
            CHECK(cudaMemcpy(device, v.data(), v.size() * 2, cudaMemcpyHostToDevice));
        } else {
            std::vector<float> v(host.begin(), host.end());
            CHECK(cudaMemcpy(device, v.data(), v.size() * 4, cudaMemcpyHostToDevice));
        }
    }
    std::vector<double> download() const
    {
        std::vector<double> out(size());
        if (type == CUDNN_DATA_HALF) {
            std::vector<__half> v(size());
            CHECK(cudaMemcpy(v.data(), device, v.size() * 2, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < size(); i++)
                out[i] = __half2float(v[i]);
        } else {
            std::vector<float> v(size());
            CHECK(cudaMemcpy(v.data(), device, v.size() * 4, cudaMemcpyDeviceToHost));
            out.assign(v.begin(), v.end());
        }
        return out;
    }
    // Values as the device holds them (rounded to float), so that references start from them.
    void fill(Lcg &rng, double lo, double hi)
    {
        for (auto &x : host)
            x = (float)rng.uniform((float)lo, (float)hi);
        upload();
    }
    void fill_integers(Lcg &rng, int lo, int hi)
    {
        for (auto &x : host)
            x = rng.range(lo, hi + 1);
        upload();
    }
};

static cudnnHandle_t dnn;

static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

static double activation(cudnnActivationMode_t mode, double x, double coef)
{
    switch (mode) {
    case CUDNN_ACTIVATION_SIGMOID: return sigmoid(x);
    case CUDNN_ACTIVATION_RELU: return x > 0 ? x : 0;
    case CUDNN_ACTIVATION_TANH: return tanh(x);
    case CUDNN_ACTIVATION_CLIPPED_RELU: return fmin(x > 0 ? x : 0, coef);
    case CUDNN_ACTIVATION_ELU: return x > 0 ? x : coef * (exp(x) - 1);
    default: return NAN;
    }
}

// The derivative in terms of x and y = f(x), as cuDNN's backward takes both.
static double activation_derivative(cudnnActivationMode_t mode, double x, double y, double coef)
{
    switch (mode) {
    case CUDNN_ACTIVATION_SIGMOID: return y * (1 - y);
    case CUDNN_ACTIVATION_RELU: return x > 0;
    case CUDNN_ACTIVATION_TANH: return 1 - y * y;
    case CUDNN_ACTIVATION_CLIPPED_RELU: return x > 0 && x < coef;
    case CUDNN_ACTIVATION_ELU: return x > 0 ? 1 : y + coef;
    default: return NAN;
    }
}

static void check_activation(cudnnActivationMode_t mode, const char *what, double coef)
{
    Lcg rng(11 + mode);
    Tensor x(2, 3, 4, 5), y(2, 3, 4, 5), dy(2, 3, 4, 5), dx(2, 3, 4, 5);
    x.fill(rng, -3, 3);
    y.fill(rng, -1, 1);
    cudnnActivationDescriptor_t act;
    DNN(cudnnCreateActivationDescriptor(&act));
    DNN(cudnnSetActivationDescriptor(act, mode, CUDNN_NOT_PROPAGATE_NAN, coef));
    float alpha = 2, beta = 0.5f;
    DNN(cudnnActivationForward(dnn, act, &alpha, x.desc, x.device, &beta, y.desc, y.device));
    std::vector<double> want(x.size());
    for (size_t i = 0; i < x.size(); i++)
        want[i] = alpha * activation(mode, x.host[i], coef) + beta * y.host[i];
    compare((std::string(what) + " forward").c_str(), y.download(), want, 2e-6);

    // Backward from y = f(x) exactly as the forward pass of alpha 1, beta 0 gives it.
    float one = 1, zero = 0;
    DNN(cudnnActivationForward(dnn, act, &one, x.desc, x.device, &zero, y.desc, y.device));
    y.host = y.download();
    dy.fill(rng, -2, 2);
    dx.fill(rng, -1, 1);
    alpha = 1.5f;
    beta = -0.5f;
    DNN(cudnnActivationBackward(dnn, act, &alpha, y.desc, y.device, dy.desc, dy.device, x.desc,
                                x.device, &beta, dx.desc, dx.device));
    for (size_t i = 0; i < x.size(); i++)
        want[i] = alpha * activation_derivative(mode, x.host[i], y.host[i], coef) * dy.host[i] +
                  beta * dx.host[i];
    compare((std::string(what) + " backward").c_str(), dx.download(), want, 2e-6);
    cudnnDestroyActivationDescriptor(act);
}

static void check_softmax(cudnnSoftmaxAlgorithm_t algo, cudnnSoftmaxMode_t mode, const char *what)
{
    Lcg rng(23 + algo * 2 + mode);
    const int N = 3, C = 7, H = 2, W = 5;
    Tensor x(N, C, H, W), y(N, C, H, W), dy(N, C, H, W), dx(N, C, H, W);
    x.fill(rng, -4, 4);
    y.fill(rng, -1, 1);
    float alpha = 1, beta = 0.25f;
    DNN(cudnnSoftmaxForward(dnn, algo, mode, &alpha, x.desc, x.device, &beta, y.desc, y.device));
    // Softmax over C for each (n, h, w), or over C, H and W together for each n.
    std::vector<double> want(x.size()), soft(x.size());
    for (int n = 0; n < N; n++)
        for (int s = 0; s < (mode == CUDNN_SOFTMAX_MODE_CHANNEL ? H * W : 1); s++) {
            std::vector<size_t> group;
            for (int c = 0; c < C; c++)
                for (int hw = 0; hw < H * W; hw++)
                    if (mode == CUDNN_SOFTMAX_MODE_INSTANCE || hw == s)
                        group.push_back(x.at(n, c, hw / W, hw % W));
            double top = -INFINITY, sum = 0;
            for (size_t i : group)
                top = fmax(top, x.host[i]);
            for (size_t i : group)
                sum += exp(x.host[i] - top);
            for (size_t i : group) {
                soft[i] = algo == CUDNN_SOFTMAX_LOG ? x.host[i] - top - log(sum)
                                                    : exp(x.host[i] - top) / sum;
                want[i] = alpha * soft[i] + beta * y.host[i];
            }
        }
    compare((std::string(what) + " forward").c_str(), y.download(), want, 2e-6);

    y.host = soft;
    y.upload();
    dy.fill(rng, -2, 2);
    dx.fill(rng, -1, 1);
    alpha = 2;
    beta = 0.5f;
    DNN(cudnnSoftmaxBackward(dnn, algo, mode, &alpha, y.desc, y.device, dy.desc, dy.device, &beta,
                             dx.desc, dx.device));
    for (int n = 0; n < N; n++)
        for (int s = 0; s < (mode == CUDNN_SOFTMAX_MODE_CHANNEL ? H * W : 1); s++) {
            std::vector<size_t> group;
            for (int c = 0; c < C; c++)
                for (int hw = 0; hw < H * W; hw++)
                    if (mode == CUDNN_SOFTMAX_MODE_INSTANCE || hw == s)
                        group.push_back(x.at(n, c, hw / W, hw % W));
            double dot = 0, sum = 0;
            for (size_t i : group) {
                dot += dy.host[i] * soft[i];
                sum += dy.host[i];
            }
            for (size_t i : group) {
                double g = algo == CUDNN_SOFTMAX_LOG ? dy.host[i] - exp(soft[i]) * sum
                                                     : soft[i] * (dy.host[i] - dot);
                want[i] = alpha * g + beta * dx.host[i];
            }
        }
    compare((std::string(what) + " backward").c_str(), dx.download(), want, 1e-5);
}

static void check_pooling(cudnnPoolingMode_t mode, const char *what)
{
    Lcg rng(37 + mode);
    const int N = 2, C = 3, H = 9, W = 8, window = 3, pad = 1, stride = 2;
    Tensor x(N, C, H, W);
    x.fill(rng, -5, 5);
    cudnnPoolingDescriptor_t pool;
    DNN(cudnnCreatePoolingDescriptor(&pool));
    DNN(cudnnSetPooling2dDescriptor(pool, mode, CUDNN_NOT_PROPAGATE_NAN, window, window, pad, pad,
                                    stride, stride));
    int on, oc, oh, ow;
    DNN(cudnnGetPooling2dForwardOutputDim(pool, x.desc, &on, &oc, &oh, &ow));
    if (on != N || oc != C || oh != 1 + (H + 2 * pad - window) / stride ||
        ow != 1 + (W + 2 * pad - window) / stride) {
        fail(what, "output %dx%dx%dx%d", on, oc, oh, ow);
        return;
    }
    Tensor y(N, C, oh, ow), dy(N, C, oh, ow), dx(N, C, H, W);
    y.fill(rng, -1, 1);
    float alpha = 1.5f, beta = 0.5f;
    DNN(cudnnPoolingForward(dnn, pool, &alpha, x.desc, x.device, &beta, y.desc, y.device));
    std::vector<double> want(y.size()), result(y.size());
    std::vector<size_t> argmax(y.size());
    for (int n = 0; n < N; n++)
        for (int c = 0; c < C; c++)
            for (int i = 0; i < oh; i++)
                for (int j = 0; j < ow; j++) {
                    double best = -INFINITY, sum = 0;
                    int inside = 0;
                    for (int r = 0; r < window; r++)
                        for (int s = 0; s < window; s++) {
                            int hh = i * stride - pad + r, ww = j * stride - pad + s;
                            if (hh < 0 || hh >= H || ww < 0 || ww >= W)
                                continue;
                            double v = x(n, c, hh, ww);
                            if (v > best) {
                                best = v;
                                argmax[y.at(n, c, i, j)] = x.at(n, c, hh, ww);
                            }
                            sum += v;
                            inside++;
                        }
                    double r = mode == CUDNN_POOLING_MAX ? best
                               : mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                   ? sum / (window * window)
                                   : sum / inside;
                    result[y.at(n, c, i, j)] = r;
                    want[y.at(n, c, i, j)] = alpha * r + beta * y(n, c, i, j);
                }
    compare((std::string(what) + " forward").c_str(), y.download(), want, 2e-6);

    y.host = result;
    y.upload();
    dy.fill(rng, -2, 2);
    dx.fill(rng, -1, 1);
    alpha = 1;
    beta = 2;
    DNN(cudnnPoolingBackward(dnn, pool, &alpha, y.desc, y.device, dy.desc, dy.device, x.desc,
                             x.device, &beta, dx.desc, dx.device));
    std::vector<double> grad(x.size(), 0.0);
    for (int n = 0; n < N; n++)
        for (int c = 0; c < C; c++)
            for (int i = 0; i < oh; i++)
                for (int j = 0; j < ow; j++) {
                    double g = dy(n, c, i, j);
                    if (mode == CUDNN_POOLING_MAX) {
                        grad[argmax[y.at(n, c, i, j)]] += g;
                        continue;
                    }
                    int inside = 0;
                    for (int pass = 0; pass < 2; pass++)
                        for (int r = 0; r < window; r++)
                            for (int s = 0; s < window; s++) {
                                int hh = i * stride - pad + r, ww = j * stride - pad + s;
                                if (hh < 0 || hh >= H || ww < 0 || ww >= W)
                                    continue;
                                if (pass == 0)
                                    inside++;
                                else
                                    grad[x.at(n, c, hh, ww)] +=
                                        g / (mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                                 ? window * window
                                                 : inside);
                            }
                }
    for (size_t i = 0; i < x.size(); i++)
        grad[i] = alpha * grad[i] + beta * dx.host[i];
    compare((std::string(what) + " backward").c_str(), dx.download(), grad, 1e-5);
    cudnnDestroyPoolingDescriptor(pool);
}

// A per-channel (1xCx1x1) or per-activation (1xCxHxW) parameter tensor.
static Tensor *parameters(const Tensor &x, cudnnBatchNormMode_t mode)
{
    return mode == CUDNN_BATCHNORM_SPATIAL ? new Tensor(1, x.c, 1, 1)
                                           : new Tensor(1, x.c, x.h, x.w);
}

static void check_batchnorm_training()
{
    const char *what = "batchnorm training";
    Lcg rng(51);
    const int N = 4, C = 3, H = 5, W = 6, M = N * H * W;
    const double eps = 1e-4, factor = 0.25;
    Tensor x(N, C, H, W), y(N, C, H, W), dy(N, C, H, W), dx(N, C, H, W);
    Tensor scale(1, C, 1, 1), bias(1, C, 1, 1), running_mean(1, C, 1, 1), running_var(1, C, 1, 1),
        saved_mean(1, C, 1, 1), saved_inv(1, C, 1, 1), dscale(1, C, 1, 1), dbias(1, C, 1, 1);
    x.fill(rng, -2, 3);
    scale.fill(rng, 0.5, 2);
    bias.fill(rng, -1, 1);
    running_mean.fill(rng, -1, 1);
    running_var.fill(rng, 0.5, 2);
    cudnnTensorDescriptor_t bn;
    DNN(cudnnCreateTensorDescriptor(&bn));
    DNN(cudnnDeriveBNTensorDescriptor(bn, x.desc, CUDNN_BATCHNORM_SPATIAL));
    float one = 1, zero = 0;
    DNN(cudnnBatchNormalizationForwardTraining(
        dnn, CUDNN_BATCHNORM_SPATIAL, &one, &zero, x.desc, x.device, y.desc, y.device, bn,
        scale.device, bias.device, factor, running_mean.device, running_var.device, eps,
        saved_mean.device, saved_inv.device));
    std::vector<double> mean(C, 0), var(C, 0), want(x.size()), want_rm(C), want_rv(C), inv(C);
    for (int c = 0; c < C; c++) {
        for (int n = 0; n < N; n++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++)
                    mean[c] += x(n, c, h, w) / M;
        for (int n = 0; n < N; n++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++)
                    var[c] += (x(n, c, h, w) - mean[c]) * (x(n, c, h, w) - mean[c]) / M;
        inv[c] = 1 / sqrt(var[c] + eps);
        want_rm[c] = (1 - factor) * running_mean.host[c] + factor * mean[c];
        want_rv[c] = (1 - factor) * running_var.host[c] + factor * var[c] * M / (M - 1);
        for (int n = 0; n < N; n++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++)
                    want[x.at(n, c, h, w)] =
                        scale.host[c] * (x(n, c, h, w) - mean[c]) * inv[c] + bias.host[c];
    }
    compare("batchnorm training y", y.download(), want, 1e-5);
    compare("batchnorm training running mean", running_mean.download(), want_rm, 1e-5);
    compare("batchnorm training running variance", running_var.download(), want_rv, 1e-5);
    compare("batchnorm training saved mean", saved_mean.download(), mean, 1e-5);
    compare("batchnorm training saved inverse deviation", saved_inv.download(), inv, 1e-5);

    what = "batchnorm backward";
    dy.fill(rng, -2, 2);
    dx.fill(rng, -1, 1);
    float beta_data = 0.5f;
    DNN(cudnnBatchNormalizationBackward(dnn, CUDNN_BATCHNORM_SPATIAL, &one, &beta_data, &one,
                                        &zero, x.desc, x.device, dy.desc, dy.device, dx.desc,
                                        dx.device, bn, scale.device, dscale.device, dbias.device,
                                        eps, saved_mean.device, saved_inv.device));
    std::vector<double> want_ds(C, 0), want_db(C, 0), want_dx(x.size());
    for (int c = 0; c < C; c++) {
        for (int n = 0; n < N; n++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++) {
                    want_db[c] += dy(n, c, h, w);
                    want_ds[c] += dy(n, c, h, w) * (x(n, c, h, w) - mean[c]) * inv[c];
                }
        for (int n = 0; n < N; n++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++) {
                    double xhat = (x(n, c, h, w) - mean[c]) * inv[c];
                    want_dx[x.at(n, c, h, w)] =
                        scale.host[c] * inv[c] / M *
                            (M * dy(n, c, h, w) - want_db[c] - xhat * want_ds[c]) +
                        beta_data * dx(n, c, h, w);
                }
    }
    compare("batchnorm backward dx", dx.download(), want_dx, 1e-4);
    compare("batchnorm backward dscale", dscale.download(), want_ds, 1e-4);
    compare("batchnorm backward dbias", dbias.download(), want_db, 1e-4);
    cudnnDestroyTensorDescriptor(bn);
}

static void check_batchnorm_inference(cudnnBatchNormMode_t mode, const char *what)
{
    Lcg rng(61 + mode);
    const double eps = 1e-3;
    Tensor x(3, 4, 3, 5), y(3, 4, 3, 5);
    Tensor *scale = parameters(x, mode), *bias = parameters(x, mode), *mean = parameters(x, mode),
           *var = parameters(x, mode);
    x.fill(rng, -2, 2);
    y.fill(rng, -1, 1);
    scale->fill(rng, 0.5, 2);
    bias->fill(rng, -1, 1);
    mean->fill(rng, -1, 1);
    var->fill(rng, 0.25, 2);
    cudnnTensorDescriptor_t bn;
    DNN(cudnnCreateTensorDescriptor(&bn));
    DNN(cudnnDeriveBNTensorDescriptor(bn, x.desc, mode));
    float alpha = 1, beta = 0.5f;
    DNN(cudnnBatchNormalizationForwardInference(dnn, mode, &alpha, &beta, x.desc, x.device,
                                                y.desc, y.device, bn, scale->device, bias->device,
                                                mean->device, var->device, eps));
    std::vector<double> want(x.size());
    for (int n = 0; n < x.n; n++)
        for (int c = 0; c < x.c; c++)
            for (int h = 0; h < x.h; h++)
                for (int w = 0; w < x.w; w++) {
                    size_t p = mode == CUDNN_BATCHNORM_SPATIAL ? c : scale->at(0, c, h, w);
                    want[x.at(n, c, h, w)] =
                        alpha * (scale->host[p] * (x(n, c, h, w) - mean->host[p]) /
                                     sqrt(var->host[p] + eps) +
                                 bias->host[p]) +
                        beta * y(n, c, h, w);
                }
    compare(what, y.download(), want, 1e-5);
    cudnnDestroyTensorDescriptor(bn);
    delete scale;
    delete bias;
    delete mean;
    delete var;
}

static void check_lrn()
{
    const char *what = "lrn cross channel";
    Lcg rng(71);
    const unsigned window = 5;
    const double lrn_alpha = 0.5, lrn_beta = 0.75, k = 2;
    Tensor x(2, 7, 3, 3), y(2, 7, 3, 3);
    x.fill(rng, -2, 2);
    cudnnLRNDescriptor_t lrn;
    DNN(cudnnCreateLRNDescriptor(&lrn));
    DNN(cudnnSetLRNDescriptor(lrn, window, lrn_alpha, lrn_beta, k));
    float one = 1, zero = 0;
    DNN(cudnnLRNCrossChannelForward(dnn, lrn, CUDNN_LRN_CROSS_CHANNEL_DIM1, &one, x.desc,
                                    x.device, &zero, y.desc, y.device));
    std::vector<double> want(x.size());
    for (int n = 0; n < x.n; n++)
        for (int c = 0; c < x.c; c++)
            for (int h = 0; h < x.h; h++)
                for (int w = 0; w < x.w; w++) {
                    double sum = 0;
                    for (int d = c - (int)(window - 1) / 2; d <= c + (int)window / 2; d++)
                        if (d >= 0 && d < x.c)
                            sum += x(n, d, h, w) * x(n, d, h, w);
                    want[x.at(n, c, h, w)] =
                        x(n, c, h, w) / pow(k + lrn_alpha / window * sum, lrn_beta);
                }
    compare(what, y.download(), want, 1e-5);
    cudnnDestroyLRNDescriptor(lrn);
}

static void check_op_tensor(cudnnOpTensorOp_t op, const char *what)
{
    Lcg rng(81 + op);
    Tensor a(2, 4, 3, 5), b(1, 4, 1, 1), c(2, 4, 3, 5);
    a.fill(rng, op == CUDNN_OP_TENSOR_SQRT ? 0.0 : -3.0, 3.0);
    b.fill(rng, -2, 2);
    c.fill(rng, -1, 1);
    cudnnOpTensorDescriptor_t desc;
    DNN(cudnnCreateOpTensorDescriptor(&desc));
    DNN(cudnnSetOpTensorDescriptor(desc, op, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN));
    float alpha1 = 1.5f, alpha2 = -2, beta = 0.5f;
    DNN(cudnnOpTensor(dnn, desc, &alpha1, a.desc, a.device, &alpha2, b.desc, b.device, &beta,
                      c.desc, c.device));
    std::vector<double> want(c.size());
    for (int n = 0; n < a.n; n++)
        for (int ch = 0; ch < a.c; ch++)
            for (int h = 0; h < a.h; h++)
                for (int w = 0; w < a.w; w++) {
                    double u = alpha1 * a(n, ch, h, w), v = alpha2 * b.host[ch], r = 0;
                    switch (op) {
                    case CUDNN_OP_TENSOR_ADD: r = u + v; break;
                    case CUDNN_OP_TENSOR_MUL: r = u * v; break;
                    case CUDNN_OP_TENSOR_MIN: r = fmin(u, v); break;
                    case CUDNN_OP_TENSOR_MAX: r = fmax(u, v); break;
                    case CUDNN_OP_TENSOR_SQRT: r = sqrt(u); break;
                    default: break;
                    }
                    want[c.at(n, ch, h, w)] = r + beta * c(n, ch, h, w);
                }
    compare(what, c.download(), want, 2e-6);
    cudnnDestroyOpTensorDescriptor(desc);
}

static void check_tensor_helpers()
{
    const char *what = "add tensor";
    Lcg rng(91);
    Tensor bias(1, 5, 1, 1), c(3, 5, 2, 4);
    bias.fill(rng, -2, 2);
    c.fill(rng, -1, 1);
    float alpha = 2, beta = 1;
    DNN(cudnnAddTensor(dnn, &alpha, bias.desc, bias.device, &beta, c.desc, c.device));
    std::vector<double> want(c.size());
    for (int n = 0; n < c.n; n++)
        for (int ch = 0; ch < c.c; ch++)
            for (int h = 0; h < c.h; h++)
                for (int w = 0; w < c.w; w++)
                    want[c.at(n, ch, h, w)] = alpha * bias.host[ch] + beta * c(n, ch, h, w);
    compare(what, c.download(), want, 2e-6);

    what = "scale tensor";
    c.host = c.download();
    float factor = -0.75f;
    DNN(cudnnScaleTensor(dnn, c.desc, c.device, &factor));
    for (size_t i = 0; i < c.size(); i++)
        want[i] = (float)c.host[i] * factor;
    compare(what, c.download(), want, 0);

    what = "set tensor";
    float value = 3.25f;
    DNN(cudnnSetTensor(dnn, c.desc, c.device, &value));
    compare(what, c.download(), std::vector<double>(c.size(), value), 0);

    what = "transform tensor NCHW to NHWC";
    Tensor x(2, 3, 4, 5), y(2, 3, 4, 5, CUDNN_TENSOR_NHWC);
    x.fill(rng, -4, 4);
    float one = 1, zero = 0;
    DNN(cudnnTransformTensor(dnn, &one, x.desc, x.device, &zero, y.desc, y.device));
    want.assign(y.size(), 0);
    for (int n = 0; n < x.n; n++)
        for (int ch = 0; ch < x.c; ch++)
            for (int h = 0; h < x.h; h++)
                for (int w = 0; w < x.w; w++)
                    want[y.at(n, ch, h, w)] = x(n, ch, h, w);
    compare(what, y.download(), want, 0);
}

static void check_reduce(cudnnReduceTensorOp_t op, const char *what)
{
    Lcg rng(101 + op);
    Tensor a(2, 3, 4, 6), c(2, 3, 1, 1);
    a.fill(rng, -3, 3);
    bool indices = op == CUDNN_REDUCE_TENSOR_MAX;
    cudnnReduceTensorDescriptor_t desc;
    DNN(cudnnCreateReduceTensorDescriptor(&desc));
    DNN(cudnnSetReduceTensorDescriptor(desc, op, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN,
                                       indices ? CUDNN_REDUCE_TENSOR_FLATTENED_INDICES
                                               : CUDNN_REDUCE_TENSOR_NO_INDICES,
                                       CUDNN_32BIT_INDICES));
    size_t workspace_size = 0, indices_size = 0;
    DNN(cudnnGetReductionWorkspaceSize(dnn, desc, a.desc, c.desc, &workspace_size));
    DNN(cudnnGetReductionIndicesSize(dnn, desc, a.desc, c.desc, &indices_size));
    void *workspace = nullptr, *index = nullptr;
    CHECK(cudaMalloc(&workspace, workspace_size + 16));
    CHECK(cudaMalloc(&index, indices_size + 16));
    float one = 1, zero = 0;
    DNN(cudnnReduceTensor(dnn, desc, index, indices_size, workspace, workspace_size, &one,
                          a.desc, a.device, &zero, c.desc, c.device));
    std::vector<double> want(c.size());
    std::vector<int> want_index(c.size());
    const int count = a.h * a.w;
    for (int n = 0; n < a.n; n++)
        for (int ch = 0; ch < a.c; ch++) {
            double r = op == CUDNN_REDUCE_TENSOR_MAX ? -INFINITY : 0;
            for (int i = 0; i < count; i++) {
                double v = a(n, ch, i / a.w, i % a.w);
                switch (op) {
                case CUDNN_REDUCE_TENSOR_ADD: r += v; break;
                case CUDNN_REDUCE_TENSOR_AVG: r += v / count; break;
                case CUDNN_REDUCE_TENSOR_NORM2: r += v * v; break;
                case CUDNN_REDUCE_TENSOR_MAX:
                    if (v > r) {
                        r = v;
                        want_index[c.at(n, ch, 0, 0)] = i;
                    }
                    break;
                default: break;
                }
            }
            want[c.at(n, ch, 0, 0)] = op == CUDNN_REDUCE_TENSOR_NORM2 ? sqrt(r) : r;
        }
    compare(what, c.download(), want, 1e-5);
    if (indices) {
        std::vector<int> got(c.size());
        CHECK(cudaMemcpy(got.data(), index, got.size() * 4, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < got.size(); i++)
            if (got[i] != want_index[i]) {
                fail(what, "index [%zu] = %d, want %d", i, got[i], want_index[i]);
                break;
            }
    }
    cudaFree(workspace);
    cudaFree(index);
    cudnnDestroyReduceTensorDescriptor(desc);
}

// One convolution's shapes: NxCxHxW input, K filters of C/groups x R x S.
struct ConvShape {
    const char *name;
    int n, c, h, w, k, r, s, pad, stride, dilation, groups;
    cudnnTensorFormat_t format;
    cudnnDataType_t type;
};

static void *workspace(size_t bytes)
{
    static void *buffer;
    static size_t have;
    if (bytes > have) {
        cudaFree(buffer);
        CHECK(cudaMalloc(&buffer, bytes));
        have = bytes;
    }
    return buffer;
}

// The first algorithm, in the v7 heuristics' order, that is available, has a workspace size
// and runs, as frameworks pick one: its number, or -1 with *last the last failure.
template <class Perf, class Size, class Run>
static int first_that_runs(const Perf *perf, int returned, Size size, Run run, cudnnStatus_t *last)
{
    *last = CUDNN_STATUS_NOT_SUPPORTED;
    for (int i = 0; i < returned; i++) {
        size_t bytes = 0;
        if (perf[i].status != CUDNN_STATUS_SUCCESS || size(perf[i].algo, &bytes) != CUDNN_STATUS_SUCCESS)
            continue;
        *last = run(perf[i].algo, workspace(bytes), bytes);
        if (*last == CUDNN_STATUS_SUCCESS)
            return (int)perf[i].algo;
    }
    return -1;
}

static void check_convolution(const ConvShape &shape)
{
    std::string label = std::string("convolution ") + shape.name;
    const char *what = label.c_str();
    Lcg rng(131 + shape.k * 7 + shape.stride);
    const int G = shape.groups, CG = shape.c / G, KG = shape.k / G;
    const int P = shape.pad, U = shape.stride, D = shape.dilation;
    const int OH = (shape.h + 2 * P - D * (shape.r - 1) - 1) / U + 1;
    const int OW = (shape.w + 2 * P - D * (shape.s - 1) - 1) / U + 1;
    Tensor x(shape.n, shape.c, shape.h, shape.w, shape.format, shape.type);
    Tensor y(shape.n, shape.k, OH, OW, shape.format, shape.type);
    Tensor dx(shape.n, shape.c, shape.h, shape.w, shape.format, shape.type);
    // The filter as a KxCGxRxS tensor in the same format, for its data and indexing.
    Tensor wt(shape.k, CG, shape.r, shape.s, shape.format, shape.type);
    Tensor dw(shape.k, CG, shape.r, shape.s, shape.format, shape.type);
    x.fill_integers(rng, -3, 3);
    wt.fill_integers(rng, -2, 2);
    y.fill_integers(rng, -2, 2);
    cudnnFilterDescriptor_t filter;
    cudnnConvolutionDescriptor_t conv;
    DNN(cudnnCreateFilterDescriptor(&filter));
    DNN(cudnnSetFilter4dDescriptor(filter, shape.type, shape.format, shape.k, CG, shape.r,
                                   shape.s));
    DNN(cudnnCreateConvolutionDescriptor(&conv));
    DNN(cudnnSetConvolution2dDescriptor(conv, P, P, U, U, D, D, CUDNN_CROSS_CORRELATION,
                                        CUDNN_DATA_FLOAT));
    DNN(cudnnSetConvolutionGroupCount(conv, G));
    if (shape.type == CUDNN_DATA_HALF)
        DNN(cudnnSetConvolutionMathType(conv, CUDNN_TENSOR_OP_MATH));
    int on, oc, oh, ow;
    DNN(cudnnGetConvolution2dForwardOutputDim(conv, x.desc, filter, &on, &oc, &oh, &ow));
    if (on != shape.n || oc != shape.k || oh != OH || ow != OW) {
        fail(what, "output %dx%dx%dx%d, want %dx%dx%dx%d", on, oc, oh, ow, shape.n, shape.k, OH, OW);
        return;
    }
    // The input element under output (oy, ox) and filter tap (r, s), or -1 in the padding.
    auto input_at = [&](int n, int c, int oy, int ox, int r, int s) -> long {
        int ih = oy * U - P + r * D, iw = ox * U - P + s * D;
        if (ih < 0 || ih >= shape.h || iw < 0 || iw >= shape.w)
            return -1;
        return (long)x.at(n, c, ih, iw);
    };
    std::vector<double> conv_ref(y.size(), 0.0), dx_ref(x.size(), 0.0), dw_ref(wt.size(), 0.0);
    Tensor dy(shape.n, shape.k, OH, OW, shape.format, shape.type);
    dy.fill_integers(rng, -2, 2);
    for (int n = 0; n < shape.n; n++)
        for (int k = 0; k < shape.k; k++)
            for (int oy = 0; oy < OH; oy++)
                for (int ox = 0; ox < OW; ox++)
                    for (int cg = 0; cg < CG; cg++)
                        for (int r = 0; r < shape.r; r++)
                            for (int s = 0; s < shape.s; s++) {
                                long i = input_at(n, (k / KG) * CG + cg, oy, ox, r, s);
                                if (i < 0)
                                    continue;
                                size_t f = wt.at(k, cg, r, s), o = y.at(n, k, oy, ox);
                                conv_ref[o] += x.host[i] * wt.host[f];
                                dx_ref[i] += dy.host[o] * wt.host[f];
                                dw_ref[f] += dy.host[o] * x.host[i];
                            }

    // Forward: y = conv(x, w) + y (beta 1).
    {
        cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
        int returned = 0;
        DNN(cudnnGetConvolutionForwardAlgorithm_v7(dnn, x.desc, filter, conv, y.desc,
                                                   CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned,
                                                   perf));
        float alpha = 1, beta = 1;
        cudnnStatus_t last;
        auto size = [&](cudnnConvolutionFwdAlgo_t algo, size_t *bytes) {
            return cudnnGetConvolutionForwardWorkspaceSize(dnn, x.desc, filter, conv, y.desc, algo,
                                                           bytes);
        };
        auto run = [&](cudnnConvolutionFwdAlgo_t algo, void *space, size_t bytes) {
            return cudnnConvolutionForward(dnn, &alpha, x.desc, x.device, filter, wt.device, conv,
                                           algo, space, bytes, &beta, y.desc, y.device);
        };
        if (first_that_runs(perf, returned, size, run, &last) < 0) {
            fail(what, "forward: no algorithm ran (%s)", cudnnGetErrorString(last));
        } else {
            std::vector<double> want(y.size());
            for (size_t i = 0; i < y.size(); i++)
                want[i] = conv_ref[i] + y.host[i];
            compare((label + " forward").c_str(), y.download(), want, 1e-3);
        }
    }
    // Backward data: dx = conv_transpose(dy, w).
    {
        cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        int returned = 0;
        DNN(cudnnGetConvolutionBackwardDataAlgorithm_v7(dnn, filter, dy.desc, conv, dx.desc,
                                                        CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT,
                                                        &returned, perf));
        float alpha = 1, beta = 0;
        cudnnStatus_t last;
        auto size = [&](cudnnConvolutionBwdDataAlgo_t algo, size_t *bytes) {
            return cudnnGetConvolutionBackwardDataWorkspaceSize(dnn, filter, dy.desc, conv,
                                                                dx.desc, algo, bytes);
        };
        auto run = [&](cudnnConvolutionBwdDataAlgo_t algo, void *space, size_t bytes) {
            return cudnnConvolutionBackwardData(dnn, &alpha, filter, wt.device, dy.desc, dy.device,
                                                conv, algo, space, bytes, &beta, dx.desc,
                                                dx.device);
        };
        if (first_that_runs(perf, returned, size, run, &last) < 0)
            fail(what, "backward data: no algorithm ran (%s)", cudnnGetErrorString(last));
        else
            compare((label + " backward data").c_str(), dx.download(), dx_ref, 1e-3);
    }
    // Backward filter: dw = correlation of x with dy.
    {
        cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
        int returned = 0;
        DNN(cudnnGetConvolutionBackwardFilterAlgorithm_v7(dnn, x.desc, dy.desc, conv, filter,
                                                          CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT,
                                                          &returned, perf));
        float alpha = 1, beta = 0;
        cudnnStatus_t last;
        auto size = [&](cudnnConvolutionBwdFilterAlgo_t algo, size_t *bytes) {
            return cudnnGetConvolutionBackwardFilterWorkspaceSize(dnn, x.desc, dy.desc, conv,
                                                                  filter, algo, bytes);
        };
        auto run = [&](cudnnConvolutionBwdFilterAlgo_t algo, void *space, size_t bytes) {
            return cudnnConvolutionBackwardFilter(dnn, &alpha, x.desc, x.device, dy.desc,
                                                  dy.device, conv, algo, space, bytes, &beta,
                                                  filter, dw.device);
        };
        if (first_that_runs(perf, returned, size, run, &last) < 0)
            fail(what, "backward filter: no algorithm ran (%s)", cudnnGetErrorString(last));
        else
            compare((label + " backward filter").c_str(), dw.download(), dw_ref, 1e-3);
    }
    cudnnDestroyFilterDescriptor(filter);
    cudnnDestroyConvolutionDescriptor(conv);
}

// y = relu(conv(x, w) + 0.5 z + bias), the legacy fused forward.
static void check_convolution_bias_relu()
{
    const char *what = "convolution bias relu";
    Lcg rng(151);
    const int N = 2, C = 4, H = 7, W = 6, K = 8, R = 3;
    Tensor x(N, C, H, W), wt(K, C, R, R), z(N, K, H, W), y(N, K, H, W), bias(1, K, 1, 1);
    x.fill_integers(rng, -3, 3);
    wt.fill_integers(rng, -2, 2);
    z.fill_integers(rng, -4, 4);
    bias.fill_integers(rng, -5, 5);
    cudnnFilterDescriptor_t filter;
    cudnnConvolutionDescriptor_t conv;
    cudnnActivationDescriptor_t act;
    DNN(cudnnCreateFilterDescriptor(&filter));
    DNN(cudnnSetFilter4dDescriptor(filter, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, R, R));
    DNN(cudnnCreateConvolutionDescriptor(&conv));
    DNN(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                        CUDNN_DATA_FLOAT));
    DNN(cudnnCreateActivationDescriptor(&act));
    DNN(cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0));
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int returned = 0;
    DNN(cudnnGetConvolutionForwardAlgorithm_v7(dnn, x.desc, filter, conv, y.desc,
                                               CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf));
    float alpha1 = 1, alpha2 = 0.5f;
    cudnnStatus_t last;
    auto size = [&](cudnnConvolutionFwdAlgo_t algo, size_t *bytes) {
        return cudnnGetConvolutionForwardWorkspaceSize(dnn, x.desc, filter, conv, y.desc, algo,
                                                       bytes);
    };
    auto run = [&](cudnnConvolutionFwdAlgo_t algo, void *space, size_t bytes) {
        return cudnnConvolutionBiasActivationForward(dnn, &alpha1, x.desc, x.device, filter,
                                                     wt.device, conv, algo, space, bytes, &alpha2,
                                                     z.desc, z.device, bias.desc, bias.device, act,
                                                     y.desc, y.device);
    };
    if (first_that_runs(perf, returned, size, run, &last) < 0) {
        fail(what, "no algorithm ran (%s)", cudnnGetErrorString(last));
        return;
    }
    std::vector<double> want(y.size());
    for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k++)
            for (int oy = 0; oy < H; oy++)
                for (int ox = 0; ox < W; ox++) {
                    double sum = 0;
                    for (int c = 0; c < C; c++)
                        for (int r = 0; r < R; r++)
                            for (int s = 0; s < R; s++) {
                                int ih = oy - 1 + r, iw = ox - 1 + s;
                                if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                                    sum += x(n, c, ih, iw) * wt(k, c, r, s);
                            }
                    double v = alpha1 * sum + alpha2 * z(n, k, oy, ox) + bias.host[k];
                    want[y.at(n, k, oy, ox)] = v > 0 ? v : 0;
                }
    compare(what, y.download(), want, 1e-3);
    cudnnDestroyFilterDescriptor(filter);
    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyActivationDescriptor(act);
}

// The graph (backend) API: a descriptor is made, given its attributes and finalized.
struct Attribute {
    cudnnBackendAttributeName_t name;
    cudnnBackendAttributeType_t type;
    int64_t count;
    const void *value;
};

// A finalized descriptor of `type` with the attributes; nullptr (after a FAIL line) when
// cuDNN refuses one.
static cudnnBackendDescriptor_t backend(const char *what, cudnnBackendDescriptorType_t type,
                                        std::initializer_list<Attribute> attributes)
{
    cudnnBackendDescriptor_t d = nullptr;
    cudnnStatus_t s = cudnnBackendCreateDescriptor(type, &d);
    for (const Attribute &a : attributes)
        if (s == CUDNN_STATUS_SUCCESS)
            s = cudnnBackendSetAttribute(d, a.name, a.type, a.count, a.value);
    if (s == CUDNN_STATUS_SUCCESS)
        s = cudnnBackendFinalize(d);
    if (s == CUDNN_STATUS_SUCCESS)
        return d;
    fail(what, "backend descriptor of type %d: %s", (int)type, cudnnGetErrorString(s));
    if (d)
        cudnnBackendDestroyDescriptor(d);
    return nullptr;
}

static void destroy(std::initializer_list<cudnnBackendDescriptor_t> descriptors)
{
    for (auto d : descriptors)
        if (d)
            cudnnBackendDestroyDescriptor(d);
}

static cudnnBackendDescriptor_t graph_tensor(const char *what, int64_t uid, cudnnDataType_t type,
                                             int rank, const int64_t *dims,
                                             const int64_t *strides, bool is_virtual)
{
    static const int64_t alignment = 16;
    return backend(what, CUDNN_BACKEND_TENSOR_DESCRIPTOR,
                   {{CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type},
                    {CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, rank, dims},
                    {CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, rank, strides},
                    {CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid},
                    {CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment},
                    {CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &is_virtual}});
}

// A scalar f32 passed by value (the variant pack points at it on the host).
static cudnnBackendDescriptor_t graph_scalar(const char *what, int64_t uid)
{
    static const int64_t one[] = {1, 1, 1, 1}, alignment = 16;
    static const cudnnDataType_t type = CUDNN_DATA_FLOAT;
    static const bool is_virtual = false, by_value = true;
    return backend(what, CUDNN_BACKEND_TENSOR_DESCRIPTOR,
                   {{CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type},
                    {CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, one},
                    {CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, one},
                    {CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid},
                    {CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment},
                    {CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &is_virtual},
                    {CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &by_value}});
}

// A pointwise operation y = op(x[, b]) in f32.
static cudnnBackendDescriptor_t graph_pointwise(const char *what, cudnnPointwiseMode_t mode,
                                                cudnnBackendDescriptor_t x,
                                                cudnnBackendDescriptor_t b,
                                                cudnnBackendDescriptor_t y)
{
    cudnnDataType_t precision = CUDNN_DATA_FLOAT;
    cudnnBackendDescriptor_t pw = backend(
        what, CUDNN_BACKEND_POINTWISE_DESCRIPTOR,
        {{CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode},
         {CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &precision}});
    cudnnBackendDescriptor_t op = nullptr;
    if (pw && b)
        op = backend(what, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
                     {{CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &pw},
                      {CUDNN_ATTR_OPERATION_POINTWISE_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x},
                      {CUDNN_ATTR_OPERATION_POINTWISE_BDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &b},
                      {CUDNN_ATTR_OPERATION_POINTWISE_YDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y}});
    else if (pw)
        op = backend(what, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
                     {{CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &pw},
                      {CUDNN_ATTR_OPERATION_POINTWISE_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x},
                      {CUDNN_ATTR_OPERATION_POINTWISE_YDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y}});
    destroy({pw});
    return op;
}

// Runs a finalized operation graph by the first configuration of the heuristics' mode that
// finalizes and executes; counts those tried and keeps the last status.
static bool run_configurations(const char *what, cudnnBackendDescriptor_t graph,
                               cudnnBackendHeurMode_t mode, const int64_t *uids,
                               void *const *pointers, int tensors, int64_t *tried,
                               cudnnStatus_t *last)
{
    cudnnBackendDescriptor_t configs[16] = {};
    int64_t found = 0;
    bool ran = false;
    cudnnBackendDescriptor_t heuristics = backend(
        what, CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR,
        {{CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph},
         {CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode}});
    for (auto &c : configs)
        cudnnBackendCreateDescriptor(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, &c);
    if (heuristics)
        cudnnBackendGetAttribute(heuristics, CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                 CUDNN_TYPE_BACKEND_DESCRIPTOR, 16, &found, configs);
    for (int64_t i = 0; i < found && !ran; i++) {
        cudnnBackendDescriptor_t plan = nullptr, pack = nullptr;
        int64_t bytes = 0;
        ++*tried;
        cudnnBackendCreateDescriptor(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan);
        cudnnBackendSetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &dnn);
        cudnnBackendSetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &configs[i]);
        *last = cudnnBackendFinalize(plan);
        if (*last == CUDNN_STATUS_SUCCESS)
            *last = cudnnBackendGetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, nullptr, &bytes);
        if (*last == CUDNN_STATUS_SUCCESS) {
            void *space = workspace((size_t)bytes + 16);
            cudnnBackendCreateDescriptor(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack);
            cudnnBackendSetAttribute(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, tensors, uids);
            cudnnBackendSetAttribute(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, tensors, pointers);
            cudnnBackendSetAttribute(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &space);
            *last = cudnnBackendFinalize(pack);
            if (*last == CUDNN_STATUS_SUCCESS)
                *last = cudnnBackendExecute(dnn, plan, pack);
            ran = *last == CUDNN_STATUS_SUCCESS;
        }
        destroy({pack, plan});
    }
    for (auto c : configs)
        destroy({c});
    destroy({heuristics});
    return ran;
}

// Runs the graph of the operations as frameworks run a graph: by the first engine
// configuration that finalizes and executes among those heuristics mode A ranks, then the
// fallback list; false (after a FAIL line) when none does.
static bool run_graph(const char *what, cudnnBackendDescriptor_t *ops, int count,
                      const int64_t *uids, void *const *pointers, int tensors)
{
    cudnnBackendDescriptor_t graph = backend(
        what, CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR,
        {{CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, count, ops},
         {CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &dnn}});
    int64_t tried = 0;
    cudnnStatus_t last = CUDNN_STATUS_NOT_SUPPORTED;
    bool ran = false;
    for (cudnnBackendHeurMode_t mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK})
        ran = ran || (graph && run_configurations(what, graph, mode, uids, pointers, tensors,
                                                  &tried, &last));
    if (graph && !ran)
        fail(what, "none of %lld engine configurations ran (last: %s)", (long long)tried,
             cudnnGetErrorString(last));
    destroy({graph});
    return ran;
}

// The graph of `op` (whose output is the virtual f32 tensor `product`, uid 4) followed by
// adding a bias (uid 3) and a ReLU into y (uid 6), run with the pointers of uids 1, 2, 3, 6.
static bool run_with_bias_relu(const char *what, cudnnBackendDescriptor_t op,
                               cudnnBackendDescriptor_t product, cudnnBackendDescriptor_t bias,
                               int rank, const int64_t *dims, const int64_t *strides,
                               cudnnBackendDescriptor_t y, void *const pointers[4])
{
    cudnnBackendDescriptor_t sum = graph_tensor(what, 5, CUDNN_DATA_FLOAT, rank, dims, strides, true);
    cudnnBackendDescriptor_t add = sum ? graph_pointwise(what, CUDNN_POINTWISE_ADD, product, bias, sum) : nullptr;
    cudnnBackendDescriptor_t relu = add ? graph_pointwise(what, CUDNN_POINTWISE_RELU_FWD, sum, nullptr, y) : nullptr;
    cudnnBackendDescriptor_t ops[] = {op, add, relu};
    const int64_t uids[] = {1, 2, 3, 6};
    bool ran = relu && run_graph(what, ops, 3, uids, pointers, 4);
    destroy({relu, add, sum});
    return ran;
}

// relu(A B + bias) in one graph: f16 matrices (batch 2, 40x24 by 24x32), f32 arithmetic.
static void check_graph_matmul_bias_relu()
{
    const char *what = "graph matmul bias relu";
    Lcg rng(171);
    const int64_t B = 2, M = 40, K = 24, N = 32;
    // Row-major matrices as 1xBxRxC tensors' data: the Tensor helper's NCHW order.
    Tensor a(1, B, M, K, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF);
    Tensor b(1, B, K, N, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF);
    Tensor bias(1, 1, 1, N, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF);
    Tensor y(1, B, M, N, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF);
    a.fill_integers(rng, -3, 3);
    b.fill_integers(rng, -3, 3);
    bias.fill_integers(rng, -20, 20);
    const int64_t a_dims[] = {B, M, K}, a_strides[] = {M * K, K, 1};
    const int64_t b_dims[] = {B, K, N}, b_strides[] = {K * N, N, 1};
    const int64_t c_dims[] = {B, M, N}, c_strides[] = {M * N, N, 1};
    const int64_t bias_dims[] = {1, 1, N}, bias_strides[] = {N, N, 1};
    cudnnDataType_t compute = CUDNN_DATA_FLOAT;
    cudnnBackendDescriptor_t ta = graph_tensor(what, 1, CUDNN_DATA_HALF, 3, a_dims, a_strides, false);
    cudnnBackendDescriptor_t tb = graph_tensor(what, 2, CUDNN_DATA_HALF, 3, b_dims, b_strides, false);
    cudnnBackendDescriptor_t tbias = graph_tensor(what, 3, CUDNN_DATA_HALF, 3, bias_dims, bias_strides, false);
    cudnnBackendDescriptor_t tproduct = graph_tensor(what, 4, CUDNN_DATA_FLOAT, 3, c_dims, c_strides, true);
    cudnnBackendDescriptor_t ty = graph_tensor(what, 6, CUDNN_DATA_HALF, 3, c_dims, c_strides, false);
    cudnnBackendDescriptor_t matmul = backend(
        what, CUDNN_BACKEND_MATMUL_DESCRIPTOR,
        {{CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute}});
    cudnnBackendDescriptor_t mm = ta && tb && tproduct && matmul ? backend(
        what, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
        {{CUDNN_ATTR_OPERATION_MATMUL_ADESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &ta},
         {CUDNN_ATTR_OPERATION_MATMUL_BDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tb},
         {CUDNN_ATTR_OPERATION_MATMUL_CDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tproduct},
         {CUDNN_ATTR_OPERATION_MATMUL_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &matmul}}) : nullptr;
    void *const pointers[] = {a.device, b.device, bias.device, y.device};
    if (mm && tbias && ty &&
        run_with_bias_relu(what, mm, tproduct, tbias, 3, c_dims, c_strides, ty, pointers)) {
        std::vector<double> want(y.size());
        for (int64_t p = 0; p < B; p++)
            for (int64_t i = 0; i < M; i++)
                for (int64_t j = 0; j < N; j++) {
                    double sum = bias.host[j];
                    for (int64_t k = 0; k < K; k++)
                        sum += a.host[(p * M + i) * K + k] * b.host[(p * K + k) * N + j];
                    want[(p * M + i) * N + j] = sum > 0 ? sum : 0;
                }
        compare(what, y.download(), want, 1e-3);
    }
    destroy({ta, tb, tbias, tproduct, ty, matmul, mm});
}

// relu(conv(x, w) + bias) in one graph, f16 NHWC (N 2, C 16, 10x10, K 32, 3x3, padding 1).
static void check_graph_convolution_bias_relu()
{
    const char *what = "graph convolution bias relu";
    Lcg rng(181);
    const int64_t N = 2, C = 16, H = 10, W = 10, K = 32, R = 3;
    Tensor x(N, C, H, W, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF);
    Tensor wt(K, C, R, R, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF);
    Tensor bias(1, K, 1, 1, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF);
    Tensor y(N, K, H, W, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF);
    x.fill_integers(rng, -2, 2);
    wt.fill_integers(rng, -2, 2);
    bias.fill_integers(rng, -30, 30);
    // Dimensions in NCHW order, strides of NHWC data.
    const int64_t x_dims[] = {N, C, H, W}, x_strides[] = {H * W * C, 1, W * C, C};
    const int64_t w_dims[] = {K, C, R, R}, w_strides[] = {R * R * C, 1, R * C, C};
    const int64_t y_dims[] = {N, K, H, W}, y_strides[] = {H * W * K, 1, W * K, K};
    const int64_t b_dims[] = {1, K, 1, 1}, b_strides[] = {K, 1, K, K};
    cudnnDataType_t compute = CUDNN_DATA_FLOAT;
    cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
    const int64_t spatial = 2, one[] = {1, 1}, pad[] = {1, 1};
    float alpha = 1, beta = 0;
    cudnnBackendDescriptor_t tx = graph_tensor(what, 1, CUDNN_DATA_HALF, 4, x_dims, x_strides, false);
    cudnnBackendDescriptor_t tw = graph_tensor(what, 2, CUDNN_DATA_HALF, 4, w_dims, w_strides, false);
    cudnnBackendDescriptor_t tbias = graph_tensor(what, 3, CUDNN_DATA_HALF, 4, b_dims, b_strides, false);
    cudnnBackendDescriptor_t tconv = graph_tensor(what, 4, CUDNN_DATA_FLOAT, 4, y_dims, y_strides, true);
    cudnnBackendDescriptor_t ty = graph_tensor(what, 6, CUDNN_DATA_HALF, 4, y_dims, y_strides, false);
    cudnnBackendDescriptor_t conv = backend(
        what, CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR,
        {{CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute},
         {CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode},
         {CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &spatial},
         {CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, one},
         {CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, one},
         {CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, pad},
         {CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, pad}});
    cudnnBackendDescriptor_t op = tx && tw && tconv && conv ? backend(
        what, CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
        {{CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tx},
         {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tw},
         {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tconv},
         {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &conv},
         {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, 1, &alpha},
         {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, 1, &beta}}) : nullptr;
    void *const pointers[] = {x.device, wt.device, bias.device, y.device};
    if (op && tbias && ty &&
        run_with_bias_relu(what, op, tconv, tbias, 4, y_dims, y_strides, ty, pointers)) {
        std::vector<double> want(y.size());
        for (int n = 0; n < N; n++)
            for (int k = 0; k < K; k++)
                for (int oy = 0; oy < H; oy++)
                    for (int ox = 0; ox < W; ox++) {
                        double sum = bias.host[k];
                        for (int c = 0; c < C; c++)
                            for (int r = 0; r < R; r++)
                                for (int s = 0; s < R; s++) {
                                    int ih = oy - 1 + r, iw = ox - 1 + s;
                                    if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                                        sum += x(n, c, ih, iw) * wt(k, c, r, s);
                                }
                        want[y.at(n, k, oy, ox)] = sum > 0 ? sum : 0;
                    }
        compare(what, y.download(), want, 1e-3);
    }
    destroy({tx, tw, tbias, tconv, ty, conv, op});
}

// Layer normalisation in the graph API, forward (training: the statistics too) and backward:
// each of N rows of C f32 values normalised over the row, scaled and shifted per column.
static void check_graph_layer_norm()
{
    const char *what = "graph layer norm forward";
    Lcg rng(191);
    const int64_t N = 6, C = 40;
    const float epsilon = 1e-5f;
    Tensor x(N, C, 1, 1), y(N, C, 1, 1), scale(1, C, 1, 1), bias(1, C, 1, 1), mean(N, 1, 1, 1),
        inv(N, 1, 1, 1), dy(N, C, 1, 1), dx(N, C, 1, 1), dscale(1, C, 1, 1), dbias(1, C, 1, 1);
    x.fill(rng, -2, 3);
    scale.fill(rng, 0.5, 2);
    bias.fill(rng, -1, 1);
    dy.fill(rng, -2, 2);
    std::vector<double> want_mean(N, 0), want_inv(N, 0), want_y(x.size());
    for (int n = 0; n < N; n++) {
        double var = 0;
        for (int c = 0; c < C; c++)
            want_mean[n] += x(n, c, 0, 0) / C;
        for (int c = 0; c < C; c++)
            var += (x(n, c, 0, 0) - want_mean[n]) * (x(n, c, 0, 0) - want_mean[n]) / C;
        want_inv[n] = 1 / sqrt(var + epsilon);
        for (int c = 0; c < C; c++)
            want_y[x.at(n, c, 0, 0)] =
                scale.host[c] * (x(n, c, 0, 0) - want_mean[n]) * want_inv[n] + bias.host[c];
    }
    const int64_t x_dims[] = {N, C, 1, 1}, x_strides[] = {C, 1, C, C};
    const int64_t p_dims[] = {1, C, 1, 1}, p_strides[] = {C, 1, C, C};
    const int64_t s_dims[] = {N, 1, 1, 1}, s_strides[] = {1, 1, 1, 1};
    cudnnBackendNormMode_t mode = CUDNN_LAYER_NORM;
    cudnnBackendNormFwdPhase_t phase = CUDNN_NORM_FWD_TRAINING;
    cudnnBackendDescriptor_t tx = graph_tensor(what, 1, CUDNN_DATA_FLOAT, 4, x_dims, x_strides, false);
    cudnnBackendDescriptor_t tscale = graph_tensor(what, 2, CUDNN_DATA_FLOAT, 4, p_dims, p_strides, false);
    cudnnBackendDescriptor_t tbias = graph_tensor(what, 3, CUDNN_DATA_FLOAT, 4, p_dims, p_strides, false);
    cudnnBackendDescriptor_t tepsilon = graph_scalar(what, 4);
    cudnnBackendDescriptor_t tmean = graph_tensor(what, 5, CUDNN_DATA_FLOAT, 4, s_dims, s_strides, false);
    cudnnBackendDescriptor_t tinv = graph_tensor(what, 6, CUDNN_DATA_FLOAT, 4, s_dims, s_strides, false);
    cudnnBackendDescriptor_t ty = graph_tensor(what, 7, CUDNN_DATA_FLOAT, 4, x_dims, x_strides, false);
    cudnnBackendDescriptor_t tdy = graph_tensor(what, 8, CUDNN_DATA_FLOAT, 4, x_dims, x_strides, false);
    cudnnBackendDescriptor_t tdx = graph_tensor(what, 9, CUDNN_DATA_FLOAT, 4, x_dims, x_strides, false);
    cudnnBackendDescriptor_t tdscale = graph_tensor(what, 10, CUDNN_DATA_FLOAT, 4, p_dims, p_strides, false);
    cudnnBackendDescriptor_t tdbias = graph_tensor(what, 11, CUDNN_DATA_FLOAT, 4, p_dims, p_strides, false);
    bool made = tx && tscale && tbias && tepsilon && tmean && tinv && ty && tdy && tdx && tdscale && tdbias;
    cudnnBackendDescriptor_t forward = made ? backend(
        what, CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR,
        {{CUDNN_ATTR_OPERATION_NORM_FWD_MODE, CUDNN_TYPE_NORM_MODE, 1, &mode},
         {CUDNN_ATTR_OPERATION_NORM_FWD_PHASE, CUDNN_TYPE_NORM_FWD_PHASE, 1, &phase},
         {CUDNN_ATTR_OPERATION_NORM_FWD_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tx},
         {CUDNN_ATTR_OPERATION_NORM_FWD_MEAN_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tmean},
         {CUDNN_ATTR_OPERATION_NORM_FWD_INV_VARIANCE_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tinv},
         {CUDNN_ATTR_OPERATION_NORM_FWD_SCALE_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tscale},
         {CUDNN_ATTR_OPERATION_NORM_FWD_BIAS_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tbias},
         {CUDNN_ATTR_OPERATION_NORM_FWD_EPSILON_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tepsilon},
         {CUDNN_ATTR_OPERATION_NORM_FWD_YDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &ty}}) : nullptr;
    const int64_t forward_uids[] = {1, 2, 3, 4, 5, 6, 7};
    void *const forward_pointers[] = {x.device, scale.device, bias.device, (void *)&epsilon,
                                      mean.device, inv.device, y.device};
    if (forward && run_graph(what, &forward, 1, forward_uids, forward_pointers, 7)) {
        compare("graph layer norm forward y", y.download(), want_y, 1e-5);
        compare("graph layer norm forward mean", mean.download(), want_mean, 1e-5);
        compare("graph layer norm forward inverse deviation", inv.download(), want_inv, 1e-5);
    }

    // Backward from the statistics as the host computes them.
    what = "graph layer norm backward";
    mean.host = want_mean;
    mean.upload();
    inv.host = want_inv;
    inv.upload();
    std::vector<double> want_dx(x.size()), want_dscale(C, 0), want_dbias(C, 0);
    for (int n = 0; n < N; n++) {
        double sum = 0, dot = 0;
        for (int c = 0; c < C; c++) {
            double xhat = (x(n, c, 0, 0) - want_mean[n]) * want_inv[n], g = dy(n, c, 0, 0) * scale.host[c];
            want_dbias[c] += dy(n, c, 0, 0);
            want_dscale[c] += dy(n, c, 0, 0) * xhat;
            sum += g;
            dot += g * xhat;
        }
        for (int c = 0; c < C; c++) {
            double xhat = (x(n, c, 0, 0) - want_mean[n]) * want_inv[n], g = dy(n, c, 0, 0) * scale.host[c];
            want_dx[x.at(n, c, 0, 0)] = want_inv[n] / C * (C * g - sum - xhat * dot);
        }
    }
    cudnnBackendDescriptor_t backward = made ? backend(
        what, CUDNN_BACKEND_OPERATION_NORM_BACKWARD_DESCRIPTOR,
        {{CUDNN_ATTR_OPERATION_NORM_BWD_MODE, CUDNN_TYPE_NORM_MODE, 1, &mode},
         {CUDNN_ATTR_OPERATION_NORM_BWD_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tx},
         {CUDNN_ATTR_OPERATION_NORM_BWD_MEAN_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tmean},
         {CUDNN_ATTR_OPERATION_NORM_BWD_INV_VARIANCE_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tinv},
         {CUDNN_ATTR_OPERATION_NORM_BWD_DYDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tdy},
         {CUDNN_ATTR_OPERATION_NORM_BWD_SCALE_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tscale},
         {CUDNN_ATTR_OPERATION_NORM_BWD_EPSILON_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tepsilon},
         {CUDNN_ATTR_OPERATION_NORM_BWD_DSCALE_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tdscale},
         {CUDNN_ATTR_OPERATION_NORM_BWD_DBIAS_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tdbias},
         {CUDNN_ATTR_OPERATION_NORM_BWD_DXDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tdx}}) : nullptr;
    const int64_t backward_uids[] = {1, 2, 4, 5, 6, 8, 9, 10, 11};
    void *const backward_pointers[] = {x.device, scale.device, (void *)&epsilon, mean.device,
                                       inv.device, dy.device, dx.device, dscale.device,
                                       dbias.device};
    if (backward && run_graph(what, &backward, 1, backward_uids, backward_pointers, 9)) {
        compare("graph layer norm backward dx", dx.download(), want_dx, 1e-4);
        compare("graph layer norm backward dscale", dscale.download(), want_dscale, 1e-4);
        compare("graph layer norm backward dbias", dbias.download(), want_dbias, 1e-4);
    }
    destroy({tx, tscale, tbias, tepsilon, tmean, tinv, ty, tdy, tdx, tdscale, tdbias, forward,
             backward});
}

int main()
{
    const char *what = "handle";
    int version = (int)cudnnGetVersion();
    if (version / 10000 != CUDNN_MAJOR) {
        printf("FAIL: cudnnGetVersion() = %d, built with %d\n", version, CUDNN_VERSION);
        return 1;
    }
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    [&] {
        DNN(cudnnCreate(&dnn));
        DNN(cudnnSetStream(dnn, stream));
    }();
    if (failures) {
        printf("FAIL: %d checks failed\n", failures);
        return 1;
    }

    check_activation(CUDNN_ACTIVATION_SIGMOID, "activation sigmoid", 0);
    check_activation(CUDNN_ACTIVATION_RELU, "activation relu", 0);
    check_activation(CUDNN_ACTIVATION_TANH, "activation tanh", 0);
    check_activation(CUDNN_ACTIVATION_CLIPPED_RELU, "activation clipped relu", 1.5);
    check_activation(CUDNN_ACTIVATION_ELU, "activation elu", 0.7);
    check_softmax(CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, "softmax accurate channel");
    check_softmax(CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, "softmax accurate instance");
    check_softmax(CUDNN_SOFTMAX_FAST, CUDNN_SOFTMAX_MODE_CHANNEL, "softmax fast channel");
    check_softmax(CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_CHANNEL, "softmax log channel");
    check_softmax(CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_INSTANCE, "softmax log instance");
    check_pooling(CUDNN_POOLING_MAX, "pooling max");
    check_pooling(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, "pooling average with padding");
    check_pooling(CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, "pooling average without padding");
    check_batchnorm_training();
    check_batchnorm_inference(CUDNN_BATCHNORM_SPATIAL, "batchnorm inference spatial");
    check_batchnorm_inference(CUDNN_BATCHNORM_PER_ACTIVATION, "batchnorm inference per activation");
    check_lrn();
    check_op_tensor(CUDNN_OP_TENSOR_ADD, "op tensor add");
    check_op_tensor(CUDNN_OP_TENSOR_MUL, "op tensor mul");
    check_op_tensor(CUDNN_OP_TENSOR_MIN, "op tensor min");
    check_op_tensor(CUDNN_OP_TENSOR_MAX, "op tensor max");
    check_op_tensor(CUDNN_OP_TENSOR_SQRT, "op tensor sqrt");
    check_tensor_helpers();
    check_reduce(CUDNN_REDUCE_TENSOR_ADD, "reduce add");
    check_reduce(CUDNN_REDUCE_TENSOR_MAX, "reduce max with indices");
    check_reduce(CUDNN_REDUCE_TENSOR_AVG, "reduce average");
    check_reduce(CUDNN_REDUCE_TENSOR_NORM2, "reduce norm2");
    static const ConvShape shapes[] = {
        {"f32 NCHW 3x3", 2, 3, 9, 8, 4, 3, 3, 1, 1, 1, 1, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT},
        {"f32 NCHW strided dilated", 2, 4, 11, 10, 4, 3, 3, 2, 2, 2, 1, CUDNN_TENSOR_NCHW,
         CUDNN_DATA_FLOAT},
        {"f32 NCHW grouped", 2, 4, 6, 7, 6, 3, 3, 1, 1, 1, 2, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT},
        {"f32 NHWC 5x5", 2, 4, 8, 8, 8, 5, 5, 2, 1, 1, 1, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT},
        {"f16 NHWC 3x3", 2, 8, 8, 8, 8, 3, 3, 1, 1, 1, 1, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF},
        {"f16 NCHW 3x3", 2, 8, 7, 9, 8, 3, 3, 1, 1, 1, 1, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF},
        {"f16 NHWC strided", 1, 16, 9, 9, 16, 3, 3, 1, 2, 1, 1, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF},
    };
    for (const ConvShape &shape : shapes)
        check_convolution(shape);
    check_convolution_bias_relu();
    check_graph_matmul_bias_relu();
    check_graph_convolution_bias_relu();
    check_graph_layer_norm();
    CHECK(cudaStreamSynchronize(stream));
    cudnnDestroy(dnn);
    if (failures) {
        printf("FAIL: %d checks failed\n", failures);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
