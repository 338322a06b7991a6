// cuFFT's plans as programs make them, each checked against a direct DFT computed on the
// host in double: every transform type, ranks 1 to 3, sizes with small factors, primes up to
// 64 and beyond (4099, 97), batches, cuFFT's advanced layout (strides, distances, embedded
// dimensions), in place and out of place, the forward and the inverse direction (which
// cuFFT leaves unscaled), a plan made in two steps on a stream, a work area the program sizes
// and gives, and the errors of bad plans.
#include <cufft.h>
#include <complex>
#include <vector>

#include "test_util.h"

typedef std::complex<double> cd;
static int failures = 0;

#define FFT(call)                                                                      \
    do {                                                                               \
        cufftResult r_ = (call);                                                       \
        if (r_ != CUFFT_SUCCESS) {                                                     \
            printf("FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)r_); \
            failures++;                                                                \
            return;                                                                    \
        }                                                                              \
    } while (0)

// The DFT of a rank-d array (row-major, dims n), sign -1 forward, +1 inverse, unscaled.
static std::vector<cd> dft(const std::vector<cd> &x, const std::vector<int> &n, int sign)
{
    std::vector<cd> a = x;
    int total = (int)x.size();
    for (size_t d = 0; d < n.size(); d++) {
        int len = n[d], stride = 1;
        for (size_t e = d + 1; e < n.size(); e++)
            stride *= n[e];
        std::vector<cd> b(a.size());
        for (int i = 0; i < total; i++) {
            int k = i / stride % len, base = i - k * stride;
            cd s = 0;
            for (int j = 0; j < len; j++)
                s += a[base + j * stride] * std::polar(1.0, sign * 2 * M_PI * (double)((long long)j * k % len) / len);
            b[i] = s;
        }
        a = b;
    }
    return a;
}

static void compare(const char *what, const std::vector<cd> &got, const std::vector<cd> &want,
                    double tolerance)
{
    double scale = 1e-30, worst = 0;
    size_t at = 0;
    for (const cd &w : want)
        scale = fmax(scale, std::abs(w));
    for (size_t i = 0; i < want.size(); i++) {
        double e = std::abs(got[i] - want[i]) / scale;
        if (!(e <= worst) && !std::isnan(worst)) { // a NaN is the worst, and stays
            worst = e;
            at = i;
        }
    }
    if (!(worst <= tolerance)) {
        printf("FAIL %s: error %.3g of the largest magnitude at [%zu] (got %g%+gi, want %g%+gi)\n",
               what, worst, at, got[at].real(), got[at].imag(), want[at].real(), want[at].imag());
        failures++;
    }
}

static std::vector<cd> random_complex(size_t n, Lcg &rng)
{
    std::vector<cd> v(n);
    for (cd &c : v)
        c = cd(rng.uniformd(-1, 1), rng.uniformd(-1, 1));
    return v;
}

template <class C> static C to_c(cd v) { return C{(decltype(C{}.x))v.real(), (decltype(C{}.x))v.imag()}; }
template <class C> static cd from_c(C v) { return cd(v.x, v.y); }

// A complex-to-complex plan of dims n over `batch` transforms, in the advanced layout given
// by stride and distance (the same for input and output; embed = n).
template <class C>
static void c2c(const char *what, std::vector<int> n, int batch, int stride, int sign, bool in_place,
                cufftType type, double tolerance, Lcg &rng)
{
    int total = 1;
    for (int v : n)
        total *= v;
    int dist = total * stride + 5;
    std::vector<cd> x = random_complex((size_t)dist * batch, rng);
    std::vector<C> hx(x.size());
    for (size_t i = 0; i < x.size(); i++)
        hx[i] = to_c<C>(x[i]);
    C *din, *dout;
    CHECK(cudaMalloc(&din, hx.size() * sizeof(C)));
    dout = din;
    if (!in_place)
        CHECK(cudaMalloc(&dout, hx.size() * sizeof(C)));
    CHECK(cudaMemcpy(din, hx.data(), hx.size() * sizeof(C), cudaMemcpyHostToDevice));
    cufftHandle plan;
    FFT(cufftPlanMany(&plan, (int)n.size(), n.data(), n.data(), stride, dist, n.data(), stride, dist,
                      type, batch));
    int direction = sign < 0 ? CUFFT_FORWARD : CUFFT_INVERSE;
    if (type == CUFFT_C2C)
        FFT(cufftExecC2C(plan, (cufftComplex *)din, (cufftComplex *)dout, direction));
    else
        FFT(cufftExecZ2Z(plan, (cufftDoubleComplex *)din, (cufftDoubleComplex *)dout, direction));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hx.data(), dout, hx.size() * sizeof(C), cudaMemcpyDeviceToHost));
    std::vector<cd> got, want;
    for (int b = 0; b < batch; b++) {
        std::vector<cd> line(total);
        for (int i = 0; i < total; i++)
            line[i] = x[(size_t)b * dist + (size_t)i * stride];
        std::vector<cd> w = dft(line, n, sign);
        for (int i = 0; i < total; i++) {
            got.push_back(from_c(hx[(size_t)b * dist + (size_t)i * stride]));
            want.push_back(w[i]);
        }
    }
    compare(what, got, want, tolerance);
    cufftDestroy(plan);
    cudaFree(din);
    if (!in_place)
        cudaFree(dout);
}

// Real to complex then back (R2C and C2R, or D2Z and Z2D), basic layout: the spectrum's
// last dimension holds n/2+1, and the round trip scales by the number of elements.
template <class R, class C>
static void real_round_trip(const char *what, std::vector<int> n, int batch, cufftType forward,
                            cufftType inverse, double tolerance, Lcg &rng)
{
    int total = 1, last = n.back();
    for (int v : n)
        total *= v;
    int half = total / last * (last / 2 + 1);
    std::vector<R> x((size_t)total * batch);
    for (R &v : x)
        v = (R)rng.uniformd(-1, 1);
    R *dr;
    C *dc;
    CHECK(cudaMalloc(&dr, x.size() * sizeof(R)));
    CHECK(cudaMalloc(&dc, (size_t)half * batch * sizeof(C)));
    CHECK(cudaMemcpy(dr, x.data(), x.size() * sizeof(R), cudaMemcpyHostToDevice));
    cufftHandle f, i;
    FFT(cufftPlanMany(&f, (int)n.size(), n.data(), nullptr, 1, 0, nullptr, 1, 0, forward, batch));
    FFT(cufftPlanMany(&i, (int)n.size(), n.data(), nullptr, 1, 0, nullptr, 1, 0, inverse, batch));
    if (forward == CUFFT_R2C)
        FFT(cufftExecR2C(f, (cufftReal *)dr, (cufftComplex *)dc));
    else
        FFT(cufftExecD2Z(f, (cufftDoubleReal *)dr, (cufftDoubleComplex *)dc));
    std::vector<C> spectrum((size_t)half * batch);
    CHECK(cudaMemcpy(spectrum.data(), dc, spectrum.size() * sizeof(C), cudaMemcpyDeviceToHost));
    if (inverse == CUFFT_C2R)
        FFT(cufftExecC2R(i, (cufftComplex *)dc, (cufftReal *)dr));
    else
        FFT(cufftExecZ2D(i, (cufftDoubleComplex *)dc, (cufftDoubleReal *)dr));
    std::vector<R> back(x.size());
    CHECK(cudaMemcpy(back.data(), dr, back.size() * sizeof(R), cudaMemcpyDeviceToHost));
    std::vector<cd> got, want, got_back, want_back;
    for (int b = 0; b < batch; b++) {
        std::vector<cd> line(total);
        for (int k = 0; k < total; k++)
            line[k] = x[(size_t)b * total + k];
        std::vector<cd> w = dft(line, n, -1);
        for (int k = 0; k < total; k++) {
            int j = k % last, row = k / last;
            if (j <= last / 2) {
                got.push_back(from_c(spectrum[(size_t)b * half + (size_t)row * (last / 2 + 1) + j]));
                want.push_back(w[k]);
            }
            got_back.push_back(cd(back[(size_t)b * total + k], 0));
            want_back.push_back(line[k] * (double)total);
        }
    }
    char label[160];
    snprintf(label, sizeof label, "%s: spectrum", what);
    compare(label, got, want, tolerance);
    snprintf(label, sizeof label, "%s: round trip", what);
    compare(label, got_back, want_back, tolerance);
    cufftDestroy(f);
    cufftDestroy(i);
    cudaFree(dr);
    cudaFree(dc);
}

// cufftCreate + cufftMakePlan2d on a stream, an embedded input (a 2D window of a larger
// array) and errors of bad plans.
static void two_step_plan_and_errors(Lcg &rng)
{
    cufftHandle plan;
    cudaStream_t stream;
    size_t work = 1;
    CHECK(cudaStreamCreate(&stream));
    FFT(cufftCreate(&plan));
    FFT(cufftSetStream(plan, stream));
    FFT(cufftMakePlan2d(plan, 12, 20, CUFFT_C2C, &work));
    std::vector<cd> x = random_complex(12 * 20, rng);
    std::vector<cufftComplex> hx(x.size());
    for (size_t i = 0; i < x.size(); i++)
        hx[i] = to_c<cufftComplex>(x[i]);
    cufftComplex *d;
    CHECK(cudaMalloc(&d, hx.size() * sizeof(cufftComplex)));
    CHECK(cudaMemcpyAsync(d, hx.data(), hx.size() * sizeof(cufftComplex), cudaMemcpyHostToDevice, stream));
    FFT(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
    CHECK(cudaMemcpyAsync(hx.data(), d, hx.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::vector<cd> got(x.size());
    for (size_t i = 0; i < x.size(); i++)
        got[i] = from_c(hx[i]);
    compare("c2c 2d 12x20 made in two steps, on a stream", got, dft(x, {12, 20}, -1), 1e-5);
    cufftDestroy(plan);
    cudaFree(d);
    CHECK(cudaStreamDestroy(stream));

    // A 2D window: the 9 x 10 transform of an array 11 x 13 (inembed), written to 9 x 10.
    int n[2] = {9, 10}, inembed[2] = {11, 13}, onembed[2] = {9, 10};
    std::vector<cd> big = random_complex(11 * 13, rng), window(90);
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 10; j++)
            window[i * 10 + j] = big[i * 13 + j];
    std::vector<cufftComplex> hb(big.size()), ho(90);
    for (size_t i = 0; i < big.size(); i++)
        hb[i] = to_c<cufftComplex>(big[i]);
    cufftComplex *din, *dout;
    CHECK(cudaMalloc(&din, hb.size() * sizeof(cufftComplex)));
    CHECK(cudaMalloc(&dout, ho.size() * sizeof(cufftComplex)));
    CHECK(cudaMemcpy(din, hb.data(), hb.size() * sizeof(cufftComplex), cudaMemcpyHostToDevice));
    FFT(cufftPlanMany(&plan, 2, n, inembed, 1, 11 * 13, onembed, 1, 90, CUFFT_C2C, 1));
    FFT(cufftExecC2C(plan, din, dout, CUFFT_FORWARD));
    CHECK(cudaMemcpy(ho.data(), dout, ho.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    std::vector<cd> got2(90);
    for (int i = 0; i < 90; i++)
        got2[i] = from_c(ho[i]);
    compare("c2c 2d 9x10 window of an 11x13 array (inembed)", got2, dft(window, {9, 10}, -1), 1e-5);
    cufftDestroy(plan);
    cudaFree(din);
    cudaFree(dout);

    cufftHandle bad;
    if (cufftPlan1d(&bad, 0, CUFFT_C2C, 1) != CUFFT_INVALID_SIZE) {
        printf("FAIL cufftPlan1d of 0 points is not CUFFT_INVALID_SIZE\n");
        failures++;
    }
    if (cufftExecC2C(12345, nullptr, nullptr, CUFFT_FORWARD) != CUFFT_INVALID_PLAN) {
        printf("FAIL cufftExecC2C of no plan is not CUFFT_INVALID_PLAN\n");
        failures++;
    }
    int version = 0;
    FFT(cufftGetVersion(&version));
    if (version < 10000) {
        printf("FAIL cufftGetVersion: %d\n", version);
        failures++;
    }
}

// A work area the program gives (auto-allocation off), sized before the plan exists by
// cufftEstimate1d and cufftGetSize1d: the plan's own size may be no larger.
static void program_work_area(Lcg &rng)
{
    const int n = 512, batch = 2;
    size_t estimate = 0, sized = 0, work = 0;
    cufftHandle plan;
    FFT(cufftEstimate1d(n, CUFFT_C2C, batch, &estimate));
    FFT(cufftCreate(&plan));
    FFT(cufftSetAutoAllocation(plan, 0));
    FFT(cufftGetSize1d(plan, n, CUFFT_C2C, batch, &sized));
    FFT(cufftMakePlan1d(plan, n, CUFFT_C2C, batch, &work));
    if (work > sized || work > estimate) {
        printf("FAIL c2c 1d %d, batch %d: the plan wants %zu bytes of work area; asked before, "
               "cufftGetSize1d said %zu and cufftEstimate1d %zu\n", n, batch, work, sized, estimate);
        failures++;
    }
    void *area = nullptr;
    if (sized)
        CHECK(cudaMalloc(&area, sized));
    FFT(cufftSetWorkArea(plan, area));
    std::vector<cd> x = random_complex(n * batch, rng), want(n * batch);
    std::vector<cufftComplex> h(x.size());
    for (size_t i = 0; i < x.size(); i++)
        h[i] = to_c<cufftComplex>(x[i]);
    cufftComplex *din, *dout;
    CHECK(cudaMalloc(&din, h.size() * sizeof(cufftComplex)));
    CHECK(cudaMalloc(&dout, h.size() * sizeof(cufftComplex)));
    CHECK(cudaMemcpy(din, h.data(), h.size() * sizeof(cufftComplex), cudaMemcpyHostToDevice));
    FFT(cufftExecC2C(plan, din, dout, CUFFT_FORWARD));
    CHECK(cudaMemcpy(h.data(), dout, h.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    std::vector<cd> got(x.size());
    for (int b = 0; b < batch; b++) {
        std::vector<cd> one(x.begin() + b * n, x.begin() + (b + 1) * n), t = dft(one, {n}, -1);
        std::copy(t.begin(), t.end(), want.begin() + b * n);
    }
    for (size_t i = 0; i < x.size(); i++)
        got[i] = from_c(h[i]);
    compare("c2c 1d 512, batch 2, in a work area the program sized and gave", got, want, 1e-5);
    cufftDestroy(plan);
    cudaFree(area);
    cudaFree(din);
    cudaFree(dout);
}

int main()
{
    Lcg rng(4242);
    c2c<cufftComplex>("c2c 1d 256", {256}, 1, 1, -1, false, CUFFT_C2C, 1e-5, rng);
    c2c<cufftComplex>("c2c 1d 1 point", {1}, 3, 1, -1, false, CUFFT_C2C, 1e-6, rng);
    c2c<cufftComplex>("c2c 1d 1155 = 3*5*7*11, inverse", {1155}, 1, 1, 1, false, CUFFT_C2C, 1e-5, rng);
    c2c<cufftComplex>("c2c 1d 61 (prime radix), in place", {61}, 2, 1, -1, true, CUFFT_C2C, 1e-5, rng);
    c2c<cufftComplex>("c2c 1d 97 (prime, Bluestein)", {97}, 3, 1, -1, false, CUFFT_C2C, 1e-5, rng);
    c2c<cufftComplex>("c2c 1d 4099 (prime, Bluestein), inverse", {4099}, 1, 1, 1, false, CUFFT_C2C, 1e-4, rng);
    c2c<cufftComplex>("c2c 1d 360, batch 5, stride 3", {360}, 5, 3, -1, false, CUFFT_C2C, 1e-5, rng);
    c2c<cufftComplex>("c2c 2d 67x12 (a Bluestein axis)", {67, 12}, 2, 1, -1, false, CUFFT_C2C, 1e-5, rng);
    c2c<cufftComplex>("c2c 3d 6x10x14, in place", {6, 10, 14}, 1, 1, 1, true, CUFFT_C2C, 1e-5, rng);
    c2c<cufftDoubleComplex>("z2z 1d 1000", {1000}, 2, 1, -1, false, CUFFT_Z2Z, 1e-12, rng);
    c2c<cufftDoubleComplex>("z2z 1d 131 (prime, Bluestein), stride 2", {131}, 2, 2, 1, false, CUFFT_Z2Z, 1e-12, rng);
    c2c<cufftDoubleComplex>("z2z 3d 8x9x10", {8, 9, 10}, 1, 1, -1, false, CUFFT_Z2Z, 1e-12, rng);
    real_round_trip<cufftReal, cufftComplex>("r2c/c2r 1d 1024, batch 3", {1024}, 3, CUFFT_R2C, CUFFT_C2R, 1e-5, rng);
    real_round_trip<cufftReal, cufftComplex>("r2c/c2r 1d 300", {300}, 1, CUFFT_R2C, CUFFT_C2R, 1e-5, rng);
    real_round_trip<cufftReal, cufftComplex>("r2c/c2r 1d 97", {97}, 2, CUFFT_R2C, CUFFT_C2R, 1e-5, rng);
    real_round_trip<cufftReal, cufftComplex>("r2c/c2r 2d 16x18", {16, 18}, 1, CUFFT_R2C, CUFFT_C2R, 1e-5, rng);
    real_round_trip<cufftDoubleReal, cufftDoubleComplex>("d2z/z2d 2d 12x15", {12, 15}, 2, CUFFT_D2Z, CUFFT_Z2D, 1e-12, rng);
    real_round_trip<cufftDoubleReal, cufftDoubleComplex>("d2z/z2d 3d 4x6x9", {4, 6, 9}, 1, CUFFT_D2Z, CUFFT_Z2D, 1e-12, rng);
    two_step_plan_and_errors(rng);
    program_work_area(rng);
    if (failures) {
        printf("FAIL: %d checks failed\n", failures);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
