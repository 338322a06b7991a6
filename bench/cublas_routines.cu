// cuBLAS routines through NVIDIA's libcublas, each checked against a host computation (bench/
// cublas_converted.sh): which run converted. It reports every routine and goes on.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>

static int failures;
static void report(const char *name, cublasStatus_t s, double err, double tol)
{
	bool ok = s == CUBLAS_STATUS_SUCCESS && err <= tol;
	printf("%-8s %s", name, ok ? "ok" : "FAIL");
	if (s != CUBLAS_STATUS_SUCCESS) printf(" (status %d)", (int)s);
	else if (!ok) printf(" (error %g)", err);
	printf("\n");
	failures += !ok;
}

int main()
{
	const int n = 256;
	cublasHandle_t h;
	if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) { printf("FAIL cublasCreate\n"); return 1; }
	std::vector<float> x(n), y(n), A(n * n), B(n * n), C(n * n);
	for (int i = 0; i < n; i++) { x[i] = (i % 7) * 0.25f - 0.5f; y[i] = (i % 5) * 0.5f; }
	for (int i = 0; i < n * n; i++) { A[i] = ((i * 37) % 11) * 0.125f - 0.5f; B[i] = ((i * 13) % 9) * 0.25f - 1.0f; }
	float *dx, *dy, *dA, *dB, *dC;
	cudaMalloc(&dx, n * 4); cudaMalloc(&dy, n * 4); cudaMalloc(&dA, n * n * 4); cudaMalloc(&dB, n * n * 4); cudaMalloc(&dC, n * n * 4);
	auto reset = [&] { cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice); cudaMemcpy(dy, y.data(), n * 4, cudaMemcpyHostToDevice);
		cudaMemcpy(dA, A.data(), n * n * 4, cudaMemcpyHostToDevice); cudaMemcpy(dB, B.data(), n * n * 4, cudaMemcpyHostToDevice); };
	std::vector<float> out(n * n);
	float alpha = 1.5f, beta = 0.5f, r = 0;
	reset();
	cublasStatus_t s = cublasSaxpy(h, n, &alpha, dx, 1, dy, 1);
	cudaMemcpy(out.data(), dy, n * 4, cudaMemcpyDeviceToHost);
	double e = 0; for (int i = 0; i < n; i++) e = fmax(e, fabs(out[i] - fmaf(alpha, x[i], y[i])));
	report("saxpy", s, e, 1e-6);
	reset(); s = cublasSscal(h, n, &alpha, dx, 1); cudaMemcpy(out.data(), dx, n * 4, cudaMemcpyDeviceToHost);
	e = 0; for (int i = 0; i < n; i++) e = fmax(e, fabs(out[i] - alpha * x[i])); report("sscal", s, e, 0);
	reset(); s = cublasSdot(h, n, dx, 1, dy, 1, &r); double want = 0; for (int i = 0; i < n; i++) want += (double)x[i] * y[i];
	report("sdot", s, fabs(r - want), 1e-3);
	reset(); s = cublasSnrm2(h, n, dx, 1, &r); want = 0; for (int i = 0; i < n; i++) want += (double)x[i] * x[i];
	report("snrm2", s, fabs(r - sqrt(want)), 1e-4);
	reset(); s = cublasSasum(h, n, dx, 1, &r); want = 0; for (int i = 0; i < n; i++) want += fabs(x[i]);
	report("sasum", s, fabs(r - want), 1e-3);
	int im = 0; reset(); s = cublasIsamax(h, n, dx, 1, &im); int wi = 0; for (int i = 1; i < n; i++) if (fabs(x[i]) > fabs(x[wi])) wi = i;
	report("isamax", s, im == wi + 1 ? 0 : 1, 0);
	reset(); s = cublasSgemv(h, CUBLAS_OP_N, n, n, &alpha, dA, n, dx, 1, &beta, dy, 1); cudaMemcpy(out.data(), dy, n * 4, cudaMemcpyDeviceToHost);
	e = 0; for (int i = 0; i < n; i++) { double acc = 0; for (int k = 0; k < n; k++) acc += (double)A[k * n + i] * x[k]; e = fmax(e, fabs(out[i] - (alpha * acc + beta * y[i]))); }
	report("sgemv", s, e, 1e-3);
	cudaMemset(dC, 0, n * n * 4);
	for (int m : {16, 256}) {
		reset(); s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &alpha, dA, m, dB, m, &beta, dC, m);
		cudaMemcpy(out.data(), dC, m * m * 4, cudaMemcpyDeviceToHost);
		e = 0; for (int i = 0; i < m; i++) for (int j = 0; j < m; j++) { double acc = 0; for (int k = 0; k < m; k++) acc += (double)A[k * m + i] * B[j * m + k]; e = fmax(e, fabs(out[j * m + i] - alpha * acc)); }
		report(m == 16 ? "sgemm16" : "sgemm256", s, e, 1e-2);
		cudaMemset(dC, 0, n * n * 4);
	}
	printf("%s\n", failures ? "FAILED" : "PASSED");
	cublasDestroy(h);
	return failures ? 1 : 0;
}
