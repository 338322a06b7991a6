// Benchmark: a batch of single-precision C2C FFTs through cuFFT, timed, checked on 8
// sampled bins of each of 4 transforms against a direct DFT in double, and the same
// transforms by FFTW on the host (libfftw3f.so.3, loaded when installed) for a ratio.
// bench/fft_bench.sh runs it converted.
//   fft_bench N BATCH [REPEAT]
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <vector>

#include <cuda_runtime.h>
#include <cufft.h>

static double seconds_since(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// FFTW's single-precision interface, as its header declares it.
typedef void *fftw_plan_fn(int, void *, void *, int, unsigned);
typedef void fftw_execute_fn(void *);
typedef void fftw_destroy_fn(void *);

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fft_bench N BATCH [REPEAT]\n");
        return 2;
    }
    int n = atoi(argv[1]), batch = atoi(argv[2]), repeat = argc > 3 ? atoi(argv[3]) : 1;
    size_t count = (size_t)n * batch;
    std::vector<cufftComplex> x(count), y(count);
    unsigned state = 7;
    for (auto &v : x) {
        state = state * 1664525u + 1013904223u;
        v.x = (float)((state >> 8) & 0xffff) / 65536.0f - 0.5f;
        state = state * 1664525u + 1013904223u;
        v.y = (float)((state >> 8) & 0xffff) / 65536.0f - 0.5f;
    }
    cufftComplex *d;
    cudaMalloc(&d, count * sizeof(cufftComplex));
    cufftHandle plan;
    if (cufftPlan1d(&plan, n, CUFFT_C2C, batch) != CUFFT_SUCCESS) {
        printf("FAIL: cufftPlan1d\n");
        return 1;
    }
    double best = 1e30;
    for (int r = 0; r < repeat; r++) {
        cudaMemcpy(d, x.data(), count * sizeof(cufftComplex), cudaMemcpyHostToDevice);
        auto t = std::chrono::steady_clock::now();
        if (cufftExecC2C(plan, d, d, CUFFT_FORWARD) != CUFFT_SUCCESS) {
            printf("FAIL: cufftExecC2C\n");
            return 1;
        }
        cudaDeviceSynchronize();
        best = fmin(best, seconds_since(t));
    }
    cudaMemcpy(y.data(), d, count * sizeof(cufftComplex), cudaMemcpyDeviceToHost);
    // 5 N log2 N operations a transform, the usual measure for any N
    double flops = 5.0 * n * log2((double)n) * batch;
    printf("fft %d x %d: %.4f s, %.3f GFLOP/s\n", n, batch, best, flops / best * 1e-9);
    int wrong = 0;
    for (int t = 0; t < 4 && t < batch; t++)
        for (int s = 0; s < 8; s++) {
            int b = t * (batch / 4 > 0 ? batch / 4 : 1) % batch, k = (s * 7919 + t) % n;
            std::complex<double> want = 0;
            for (int j = 0; j < n; j++)
                want += std::complex<double>(x[(size_t)b * n + j].x, x[(size_t)b * n + j].y) *
                        std::polar(1.0, -2 * M_PI * (double)((long long)j * k % n) / n);
            std::complex<double> got(y[(size_t)b * n + k].x, y[(size_t)b * n + k].y);
            wrong += std::abs(got - want) > 1e-4 * sqrt((double)n) * fmax(1.0, std::abs(want));
        }
    void *fftw = dlopen("libfftw3f.so.3", RTLD_NOW);
    if (fftw) {
        auto plan_dft = (fftw_plan_fn *)dlsym(fftw, "fftwf_plan_dft_1d");
        auto execute = (fftw_execute_fn *)dlsym(fftw, "fftwf_execute");
        auto destroy = (fftw_destroy_fn *)dlsym(fftw, "fftwf_destroy_plan");
        std::vector<cufftComplex> in(x), out(count);
        double cpu = 0;
        for (int b = 0; b < batch; b++) {
            // FFTW_ESTIMATE (64): no planning time; FFTW_FORWARD is -1
            void *p = plan_dft(n, &in[(size_t)b * n], &out[(size_t)b * n], -1, 64);
            auto t = std::chrono::steady_clock::now();
            execute(p);
            cpu += seconds_since(t);
            destroy(p);
        }
        printf("fft %d x %d by FFTW on the host: %.4f s, %.3f GFLOP/s; ratio %.3f\n", n, batch, cpu,
               flops / cpu * 1e-9, cpu / best);
    }
    cufftDestroy(plan);
    if (wrong) {
        printf("FAIL: %d of the sampled bins wrong\n", wrong);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
