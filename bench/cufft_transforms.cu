// cuFFT transforms through NVIDIA's libcufft, each checked against a direct DFT computed on
// the host in double precision (bench/cufft_converted.sh): which run converted. It reports
// every transform and goes on.
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cufft.h>

typedef std::complex<double> cd;
static int failures;

static void report(const char *name, cufftResult s, double err, double tol)
{
	bool ok = s == CUFFT_SUCCESS && err <= tol;
	printf("%-24s %s", name, ok ? "ok" : "FAIL");
	if (s != CUFFT_SUCCESS) printf(" (cufft status %d)", (int)s);
	else if (!ok) printf(" (relative error %g)", err);
	printf("\n");
	failures += !ok;
}

// The DFT of `in` over the dims (row-major, last fastest), sign -1 forward, +1 inverse.
static std::vector<cd> dft(const std::vector<cd> &in, const std::vector<int> &dims, int sign)
{
	std::vector<cd> data = in;
	size_t total = data.size();
	size_t stride = 1;
	for (int d = (int)dims.size() - 1; d >= 0; d--) {
		int n = dims[d];
		std::vector<cd> out(total);
		for (size_t base = 0; base < total; base++) {
			if ((base / stride) % n) continue;
			for (int k = 0; k < n; k++) {
				cd acc = 0;
				for (int j = 0; j < n; j++)
					acc += data[base + j * stride] * std::polar(1.0, sign * 2 * M_PI * (double)j * k / n);
				out[base + k * stride] = acc;
			}
		}
		data = out;
		stride *= n;
	}
	return data;
}

static double relative_error(const std::vector<cd> &got, const std::vector<cd> &want)
{
	double err = 0, scale = 1e-30;
	for (size_t i = 0; i < want.size(); i++) {
		err = fmax(err, std::abs(got[i] - want[i]));
		scale = fmax(scale, std::abs(want[i]));
	}
	return err / scale;
}

static std::vector<cd> input(size_t n, unsigned seed)
{
	std::vector<cd> v(n);
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		double re = (seed >> 8) / 16777216.0 - 0.5;
		seed = seed * 1664525u + 1013904223u;
		v[i] = cd(re, (seed >> 8) / 16777216.0 - 0.5);
	}
	return v;
}

// A complex-to-complex single-precision transform of `batch` arrays of dims.
static void c2c(const char *name, std::vector<int> dims, int batch, int direction)
{
	size_t n = 1;
	for (int d : dims) n *= d;
	std::vector<cd> in = input(n * batch, 7);
	std::vector<cufftComplex> h(n * batch);
	for (size_t i = 0; i < h.size(); i++) h[i] = make_cuComplex((float)in[i].real(), (float)in[i].imag());
	cufftComplex *d;
	cudaMalloc(&d, h.size() * sizeof *d);
	cudaMemcpy(d, h.data(), h.size() * sizeof *d, cudaMemcpyHostToDevice);
	cufftHandle plan;
	cufftResult s = cufftPlanMany(&plan, (int)dims.size(), dims.data(), nullptr, 1, (int)n, nullptr, 1,
	                              (int)n, CUFFT_C2C, batch);
	if (s == CUFFT_SUCCESS) s = cufftExecC2C(plan, d, d, direction);
	if (s == CUFFT_SUCCESS && cudaDeviceSynchronize() != cudaSuccess) s = CUFFT_EXEC_FAILED;
	cudaMemcpy(h.data(), d, h.size() * sizeof *d, cudaMemcpyDeviceToHost);
	double err = 0;
	for (int b = 0; b < batch && s == CUFFT_SUCCESS; b++) {
		std::vector<cd> one(in.begin() + b * n, in.begin() + (b + 1) * n), got(n);
		std::vector<cd> want = dft(one, dims, direction == CUFFT_FORWARD ? -1 : 1);
		for (size_t i = 0; i < n; i++) got[i] = cd(h[b * n + i].x, h[b * n + i].y);
		err = fmax(err, relative_error(got, want));
	}
	report(name, s, err, 2e-5);
	cufftDestroy(plan);
	cudaFree(d);
}

static void z2z(const char *name, int n)
{
	std::vector<cd> in = input(n, 11);
	cufftDoubleComplex *d;
	cudaMalloc(&d, n * sizeof *d);
	cudaMemcpy(d, in.data(), n * sizeof *d, cudaMemcpyHostToDevice);
	cufftHandle plan;
	cufftResult s = cufftPlan1d(&plan, n, CUFFT_Z2Z, 1);
	if (s == CUFFT_SUCCESS) s = cufftExecZ2Z(plan, d, d, CUFFT_FORWARD);
	if (s == CUFFT_SUCCESS && cudaDeviceSynchronize() != cudaSuccess) s = CUFFT_EXEC_FAILED;
	std::vector<cd> got(n);
	cudaMemcpy(got.data(), d, n * sizeof *d, cudaMemcpyDeviceToHost);
	report(name, s, s == CUFFT_SUCCESS ? relative_error(got, dft(in, {n}, -1)) : 0, 1e-12);
	cufftDestroy(plan);
	cudaFree(d);
}

// Real to complex and back: the forward half-spectrum against the DFT, the round trip
// against n times the input.
static void r2c_c2r(const char *name, int n)
{
	std::vector<float> real(n);
	std::vector<cd> in(n);
	for (int i = 0; i < n; i++) { real[i] = (float)((i * 37 % 101) / 101.0 - 0.5); in[i] = real[i]; }
	float *dr;
	cufftComplex *dc;
	cudaMalloc(&dr, n * sizeof *dr);
	cudaMalloc(&dc, (n / 2 + 1) * sizeof *dc);
	cudaMemcpy(dr, real.data(), n * sizeof *dr, cudaMemcpyHostToDevice);
	cufftHandle fwd, inv;
	cufftResult s = cufftPlan1d(&fwd, n, CUFFT_R2C, 1);
	if (s == CUFFT_SUCCESS) s = cufftPlan1d(&inv, n, CUFFT_C2R, 1);
	if (s == CUFFT_SUCCESS) s = cufftExecR2C(fwd, dr, dc);
	std::vector<cufftComplex> half(n / 2 + 1);
	if (s == CUFFT_SUCCESS) cudaMemcpy(half.data(), dc, half.size() * sizeof half[0], cudaMemcpyDeviceToHost);
	if (s == CUFFT_SUCCESS) s = cufftExecC2R(inv, dc, dr);
	if (s == CUFFT_SUCCESS && cudaDeviceSynchronize() != cudaSuccess) s = CUFFT_EXEC_FAILED;
	std::vector<float> back(n);
	cudaMemcpy(back.data(), dr, n * sizeof *dr, cudaMemcpyDeviceToHost);
	double err = 0;
	if (s == CUFFT_SUCCESS) {
		std::vector<cd> want = dft(in, {n}, -1), got(n / 2 + 1), trip(n), scaled(n);
		want.resize(n / 2 + 1);
		for (int i = 0; i <= n / 2; i++) got[i] = cd(half[i].x, half[i].y);
		for (int i = 0; i < n; i++) { trip[i] = back[i]; scaled[i] = (double)n * real[i]; }
		err = fmax(relative_error(got, want), relative_error(trip, scaled));
	}
	report(name, s, err, 2e-5);
	cufftDestroy(fwd);
	cufftDestroy(inv);
	cudaFree(dr);
	cudaFree(dc);
}

int main()
{
	c2c("c2c 1d 256 forward", {256}, 1, CUFFT_FORWARD);
	c2c("c2c 1d 4096 forward", {4096}, 1, CUFFT_FORWARD);
	c2c("c2c 1d 1000 inverse", {1000}, 1, CUFFT_INVERSE);
	c2c("c2c 1d 17 (prime)", {17}, 1, CUFFT_FORWARD);
	c2c("c2c 1d 4099 (prime)", {4099}, 1, CUFFT_FORWARD);
	c2c("c2c 1d 512 batch 8", {512}, 8, CUFFT_FORWARD);
	c2c("c2c 2d 64x64", {64, 64}, 1, CUFFT_FORWARD);
	c2c("c2c 3d 16x16x16", {16, 16, 16}, 1, CUFFT_INVERSE);
	z2z("z2z 1d 512", 512);
	r2c_c2r("r2c+c2r 1d 1024", 1024);
	r2c_c2r("r2c+c2r 1d 300", 300);
	printf("%d of 11 transforms failed\n", failures);
	return failures != 0;
}
