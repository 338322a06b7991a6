/* A Windows program of the project's own that uses cuBLAS, cuBLASLt, cuFFT and NVML as a
 * program built against NVIDIA's headers does: it imports cublas64_13.dll,
 * cublasLt64_13.dll, cufft64_12.dll, nvml.dll and nvcuda.dll, and has no GPU code of its
 * own. Built with mingw, converted by zluda-convert (which places the project's DLLs of the
 * four beside it, those with kernels converted), run under wine. Every result is checked
 * against the same computed here (exactly where the data are small integers, else within
 * the rounding of the type), NVML's answers against the driver API's. Prints
 * "ok libraries" when all pass. */
#include <complex.h>
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda.h>
#include <cufft.h>
#include <math.h>
#include <nvml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("FAIL %s\n", what);
		failures++;
	}
}

#define CU(call) check((call) == CUDA_SUCCESS, #call)
#define BLAS(call) check((call) == CUBLAS_STATUS_SUCCESS, #call)

static CUdeviceptr device_copy(const void *host, size_t bytes)
{
	CUdeviceptr d = 0;

	CU(cuMemAlloc(&d, bytes));
	CU(cuMemcpyHtoD(d, host, bytes));
	return d;
}

/* Small integers, so that every product and sum below is exact in float. */
static void fill(float *x, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)((int)((i * 7 + (size_t)seed * 13) % 9) - 4);
}

/* C = alpha op(A) op(B) + beta C, column order, op(A) transposed. */
static void sgemm_t_n(int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                      int ldb, float beta, float *c, int ldc)
{
	for (int j = 0; j < n; j++)
		for (int i = 0; i < m; i++) {
			float sum = 0;
			for (int p = 0; p < k; p++)
				sum += a[p + i * lda] * b[p + j * ldb];
			c[i + j * ldc] = alpha * sum + beta * c[i + j * ldc];
		}
}

static void level3(cublasHandle_t h)
{
	enum { M = 37, N = 29, K = 23, LDA = 31, LDB = 25, LDC = 40 };
	static float a[LDA * M], b[LDB * N], c[LDC * N], want[LDC * N], got[LDC * N];
	const float alpha = 2, beta = -1;

	fill(a, LDA * M, 1);
	fill(b, LDB * N, 2);
	fill(c, LDC * N, 3);
	memcpy(want, c, sizeof c);
	sgemm_t_n(M, N, K, alpha, a, LDA, b, LDB, beta, want, LDC);
	CUdeviceptr da = device_copy(a, sizeof a), db = device_copy(b, sizeof b),
	            dc = device_copy(c, sizeof c);
	BLAS(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &alpha, (const float *)da, LDA,
	                 (const float *)db, LDB, &beta, (float *)dc, LDC));
	CU(cuMemcpyDtoH(got, dc, sizeof got));
	check(memcmp(got, want, sizeof got) == 0, "cublasSgemm (T, N, padded) exact");

	/* The same in double, batched and strided: two products at once. */
	enum { S = 12 };
	static double da_h[2 * S * S], db_h[2 * S * S], dc_h[2 * S * S], dwant[2 * S * S];
	for (int i = 0; i < 2 * S * S; i++) {
		da_h[i] = (i * 5 % 7) - 3;
		db_h[i] = (i * 3 % 5) - 2;
		dc_h[i] = 0;
	}
	for (int batch = 0; batch < 2; batch++)
		for (int j = 0; j < S; j++)
			for (int i = 0; i < S; i++) {
				double sum = 0;
				for (int p = 0; p < S; p++)
					sum += da_h[batch * S * S + i + p * S] * db_h[batch * S * S + p + j * S];
				dwant[batch * S * S + i + j * S] = sum;
			}
	const double one = 1, zero = 0;
	CUdeviceptr dda = device_copy(da_h, sizeof da_h), ddb = device_copy(db_h, sizeof db_h),
	            ddc = device_copy(dc_h, sizeof dc_h);
	BLAS(cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, S, S, S, &one,
	                               (const double *)dda, S, S * S, (const double *)ddb, S, S * S,
	                               &zero, (double *)ddc, S, S * S, 2));
	CU(cuMemcpyDtoH(dc_h, ddc, sizeof dc_h));
	check(memcmp(dc_h, dwant, sizeof dc_h) == 0, "cublasDgemmStridedBatched exact");
	CU(cuMemFree(da));
	CU(cuMemFree(db));
	CU(cuMemFree(dc));
	CU(cuMemFree(dda));
	CU(cuMemFree(ddb));
	CU(cuMemFree(ddc));
}

static void level1_and_2(cublasHandle_t h)
{
	enum { N = 1000, ROWS = 45, COLS = 33 };
	static float x[N], y[N], a[ROWS * COLS], v[COLS], w[ROWS];
	float dot = 0, want_dot = 0, alpha = 3, beta = 0;

	fill(x, N, 4);
	fill(y, N, 5);
	for (int i = 0; i < N; i++)
		want_dot += x[i] * y[i];
	CUdeviceptr dx = device_copy(x, sizeof x), dy = device_copy(y, sizeof y);
	BLAS(cublasSdot(h, N, (const float *)dx, 1, (const float *)dy, 1, &dot));
	check(dot == want_dot, "cublasSdot, host pointer mode, exact");

	/* The result in device memory (the device pointer mode). */
	CUdeviceptr dnorm;
	float norm = 0, want_norm = 0;
	for (int i = 0; i < N; i++)
		want_norm += x[i] * x[i];
	want_norm = sqrtf(want_norm);
	CU(cuMemAlloc(&dnorm, sizeof(float)));
	BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
	BLAS(cublasSnrm2(h, N, (const float *)dx, 1, (float *)dnorm));
	BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
	CU(cuCtxSynchronize());
	CU(cuMemcpyDtoH(&norm, dnorm, sizeof norm));
	check(fabsf(norm - want_norm) <= 1e-5f * want_norm, "cublasSnrm2, device pointer mode");

	int at = 0;
	x[617] = 50;
	CU(cuMemcpyHtoD(dx, x, sizeof x));
	BLAS(cublasIsamax(h, N, (const float *)dx, 1, &at));
	check(at == 618, "cublasIsamax (1-based)");

	BLAS(cublasSaxpy(h, N, &alpha, (const float *)dx, 1, (float *)dy, 1));
	static float got[N];
	CU(cuMemcpyDtoH(got, dy, sizeof got));
	int same = 1;
	for (int i = 0; i < N; i++)
		same &= got[i] == y[i] + alpha * x[i];
	check(same, "cublasSaxpy exact");

	fill(a, ROWS * COLS, 6);
	fill(v, COLS, 7);
	CUdeviceptr dA = device_copy(a, sizeof a), dv = device_copy(v, sizeof v), dw;
	CU(cuMemAlloc(&dw, sizeof w));
	BLAS(cublasSgemv(h, CUBLAS_OP_N, ROWS, COLS, &alpha, (const float *)dA, ROWS,
	                 (const float *)dv, 1, &beta, (float *)dw, 1));
	CU(cuMemcpyDtoH(w, dw, sizeof w));
	same = 1;
	for (int i = 0; i < ROWS; i++) {
		float sum = 0;
		for (int j = 0; j < COLS; j++)
			sum += a[i + j * ROWS] * v[j];
		same &= w[i] == alpha * sum;
	}
	check(same, "cublasSgemv exact");
	CU(cuMemFree(dx));
	CU(cuMemFree(dy));
	CU(cuMemFree(dnorm));
	CU(cuMemFree(dA));
	CU(cuMemFree(dv));
	CU(cuMemFree(dw));
}

/* cuBLASLt: D = relu(A B + bias), row bias broadcast over the columns. */
static void lt_matmul(void)
{
	enum { M = 20, N = 18, K = 11 };
	static float a[M * K], b[K * N], bias[M], d[M * N], want[M * N];
	const float alpha = 1, beta = 0;
	cublasLtHandle_t lt;
	cublasLtMatmulDesc_t op;
	cublasLtMatrixLayout_t la, lb, ld;
	cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;

	fill(a, M * K, 8);
	fill(b, K * N, 9);
	fill(bias, M, 10);
	for (int j = 0; j < N; j++)
		for (int i = 0; i < M; i++) {
			float sum = bias[i];
			for (int p = 0; p < K; p++)
				sum += a[i + p * M] * b[p + j * K];
			want[i + j * M] = sum > 0 ? sum : 0;
		}
	CUdeviceptr da = device_copy(a, sizeof a), db = device_copy(b, sizeof b),
	            dbias = device_copy(bias, sizeof bias), dd;
	CU(cuMemAlloc(&dd, sizeof d));
	BLAS(cublasLtCreate(&lt));
	BLAS(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
	BLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
	                                    sizeof epilogue));
	void *bias_pointer = (void *)(uintptr_t)dbias;
	BLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias_pointer,
	                                    sizeof bias_pointer));
	BLAS(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, M, K, M));
	BLAS(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, K, N, K));
	BLAS(cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, M, N, M));
	BLAS(cublasLtMatmul(lt, op, &alpha, (const void *)(uintptr_t)da, la,
	                    (const void *)(uintptr_t)db, lb, &beta, (const void *)(uintptr_t)dd, ld,
	                    (void *)(uintptr_t)dd, ld, NULL, NULL, 0, NULL));
	CU(cuCtxSynchronize());
	CU(cuMemcpyDtoH(d, dd, sizeof d));
	check(memcmp(d, want, sizeof d) == 0, "cublasLtMatmul with RELU_BIAS exact");
	BLAS(cublasLtMatrixLayoutDestroy(la));
	BLAS(cublasLtMatrixLayoutDestroy(lb));
	BLAS(cublasLtMatrixLayoutDestroy(ld));
	BLAS(cublasLtMatmulDescDestroy(op));
	BLAS(cublasLtDestroy(lt));
	CU(cuMemFree(da));
	CU(cuMemFree(db));
	CU(cuMemFree(dbias));
	CU(cuMemFree(dd));
}

/* The DFT of X (N points, sign -1 forward), in double on the host. */
static void dft(const double complex *x, double complex *out, int n, int sign)
{
	for (int k = 0; k < n; k++) {
		double complex sum = 0;
		for (int j = 0; j < n; j++)
			sum += x[j] * cexp(sign * 2 * M_PI * I * (double)((long long)j * k % n) / n);
		out[k] = sum;
	}
}

/* The largest error against the largest magnitude of WANT. */
static double relative_error(const double complex *got, const double complex *want, int n)
{
	double scale = 1e-30, worst = 0;

	for (int i = 0; i < n; i++)
		scale = fmax(scale, cabs(want[i]));
	for (int i = 0; i < n; i++)
		worst = fmax(worst, cabs(got[i] - want[i]) / scale);
	return worst;
}

/* cuFFT: a complex transform of a prime size in single precision (Bluestein's algorithm) and
 * two batched ones of a mixed-radix size in double, in place, forward and inverse. */
static void fft(void)
{
	enum { PRIME = 4099, MIXED = 360, BATCH = 2 };
	static cufftComplex x[PRIME], y[PRIME];
	static double complex in[PRIME], want[PRIME], got[PRIME];
	static cufftDoubleComplex z[MIXED * BATCH];
	static double complex zin[MIXED * BATCH], zwant[MIXED * BATCH], zgot[MIXED * BATCH];
	cufftHandle plan;
	CUdeviceptr dx, dz;
	char what[96];

	for (int i = 0; i < PRIME; i++) {
		x[i].x = (float)((i * 37 % 101) - 50) / 50;
		x[i].y = (float)((i * 53 % 89) - 44) / 44;
		in[i] = x[i].x + I * x[i].y;
	}
	dft(in, want, PRIME, -1);
	dx = device_copy(x, sizeof x);
	check(cufftPlan1d(&plan, PRIME, CUFFT_C2C, 1) == CUFFT_SUCCESS, "cufftPlan1d(4099, C2C)");
	check(cufftExecC2C(plan, (cufftComplex *)dx, (cufftComplex *)dx, CUFFT_FORWARD) ==
	      CUFFT_SUCCESS, "cufftExecC2C");
	CU(cuCtxSynchronize());
	CU(cuMemcpyDtoH(y, dx, sizeof y));
	for (int i = 0; i < PRIME; i++)
		got[i] = y[i].x + I * y[i].y;
	snprintf(what, sizeof what, "C2C of 4099 points: error %.2e", relative_error(got, want, PRIME));
	check(relative_error(got, want, PRIME) < 1e-5, what);
	check(cufftDestroy(plan) == CUFFT_SUCCESS, "cufftDestroy");

	for (int i = 0; i < MIXED * BATCH; i++) {
		z[i].x = (double)((i * 41 % 97) - 48) / 48;
		z[i].y = (double)((i * 29 % 83) - 41) / 41;
		zin[i] = z[i].x + I * z[i].y;
	}
	for (int b = 0; b < BATCH; b++)
		dft(zin + b * MIXED, zwant + b * MIXED, MIXED, 1);
	dz = device_copy(z, sizeof z);
	check(cufftPlan1d(&plan, MIXED, CUFFT_Z2Z, BATCH) == CUFFT_SUCCESS, "cufftPlan1d(360, Z2Z, 2)");
	check(cufftExecZ2Z(plan, (cufftDoubleComplex *)dz, (cufftDoubleComplex *)dz, CUFFT_INVERSE) ==
	      CUFFT_SUCCESS, "cufftExecZ2Z");
	CU(cuCtxSynchronize());
	CU(cuMemcpyDtoH(z, dz, sizeof z));
	for (int i = 0; i < MIXED * BATCH; i++)
		zgot[i] = z[i].x + I * z[i].y;
	snprintf(what, sizeof what, "Z2Z of 2 x 360 points, inverse: error %.2e",
	         relative_error(zgot, zwant, MIXED * BATCH));
	check(relative_error(zgot, zwant, MIXED * BATCH) < 1e-12, what);
	check(cufftDestroy(plan) == CUFFT_SUCCESS, "cufftDestroy");
	CU(cuMemFree(dx));
	CU(cuMemFree(dz));
}

/* NVML's view of device 0 against the driver API's; no sensors on Windows. */
static void nvml(CUdevice device)
{
	char name[96], cu_name[96], bus_id[32];
	unsigned count = 0, degrees = 0;
	nvmlDevice_t d, by_bus;
	nvmlMemory_t memory;
	size_t total = 0;
	int cu_count = 0;

	check(nvmlInit() == NVML_SUCCESS, "nvmlInit");
	check(nvmlDeviceGetCount(&count) == NVML_SUCCESS, "nvmlDeviceGetCount");
	CU(cuDeviceGetCount(&cu_count));
	check(count == (unsigned)cu_count, "NVML's device count is the driver's");
	check(nvmlDeviceGetHandleByIndex(0, &d) == NVML_SUCCESS, "nvmlDeviceGetHandleByIndex");
	check(nvmlDeviceGetName(d, name, sizeof name) == NVML_SUCCESS, "nvmlDeviceGetName");
	CU(cuDeviceGetName(cu_name, sizeof cu_name, device));
	check(strcmp(name, cu_name) == 0, "NVML's device name is the driver's");
	check(nvmlDeviceGetMemoryInfo(d, &memory) == NVML_SUCCESS, "nvmlDeviceGetMemoryInfo");
	CU(cuDeviceTotalMem(&total, device));
	check(memory.total == total, "NVML's memory total is the driver's");
	CU(cuDeviceGetPCIBusId(bus_id, sizeof bus_id, device));
	check(nvmlDeviceGetHandleByPciBusId(bus_id, &by_bus) == NVML_SUCCESS && by_bus == d,
	      "nvmlDeviceGetHandleByPciBusId finds device 0 at the driver's bus id");
	check(nvmlDeviceGetTemperature(d, NVML_TEMPERATURE_GPU, &degrees) == NVML_ERROR_NOT_SUPPORTED,
	      "nvmlDeviceGetTemperature: not supported (no sensor is invented)");
	check(nvmlShutdown() == NVML_SUCCESS, "nvmlShutdown");
}

int main(void)
{
	CUdevice device;
	CUcontext context;
	cublasHandle_t h;
	int version = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	CU(cuInit(0));
	CU(cuDeviceGet(&device, 0));
	CU(cuDevicePrimaryCtxRetain(&context, device));
	CU(cuCtxSetCurrent(context));
	BLAS(cublasCreate(&h));
	BLAS(cublasGetVersion(h, &version));
	printf("cuBLAS version %d\n", version);
	check(version / 10000 == 13, "the version of cuBLAS 13");
	check(strcmp(cublasGetStatusString(CUBLAS_STATUS_NOT_SUPPORTED),
	             "the functionality requested is not supported") == 0,
	      "cublasGetStatusString");
	level1_and_2(h);
	level3(h);
	lt_matmul();
	BLAS(cublasDestroy(h));
	fft();
	nvml(device);
	CU(cuDevicePrimaryCtxRelease(device));
	if (failures)
		return 1;
	printf("ok libraries\n");
	return 0;
}
