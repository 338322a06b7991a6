// cuSPARSE's generic API through NVIDIA's libcusparse, each routine checked against the same
// computation on the host (bench/library_converted.sh): which run converted. It reports
// every routine and goes on.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

static int failures;

static void report(const char *name, cusparseStatus_t s, double err, double tol)
{
	bool ok = s == CUSPARSE_STATUS_SUCCESS && err <= tol;
	printf("%-22s %s", name, ok ? "ok" : "FAIL");
	if (s != CUSPARSE_STATUS_SUCCESS) printf(" (cusparse status %d)", (int)s);
	else if (!ok) printf(" (error %g)", err);
	printf("\n");
	failures += !ok;
}

// A lower-triangular n x n matrix with a heavy diagonal and a few entries below it, in CSR.
struct Csr {
	int n, nnz;
	std::vector<int> rows, cols;
	std::vector<float> vals;
};

static Csr make_matrix(int n)
{
	Csr m{n, 0, {0}, {}, {}};
	for (int i = 0; i < n; i++) {
		for (int j = 0; j <= i; j++) {
			if (j == i || (i * 7 + j * 3) % 11 == 0) {
				m.cols.push_back(j);
				m.vals.push_back(j == i ? 4.0f + (i % 3) : 0.25f * ((i + j) % 5) - 0.5f);
			}
		}
		m.rows.push_back((int)m.cols.size());
	}
	m.nnz = (int)m.cols.size();
	return m;
}

template <typename T> static T *to_device(const std::vector<T> &v)
{
	T *d;
	cudaMalloc(&d, v.size() * sizeof(T) + 1);
	cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
	return d;
}

template <typename T> static std::vector<T> to_host(const T *d, size_t n)
{
	std::vector<T> v(n);
	cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
	return v;
}

static double max_error(const std::vector<float> &got, const std::vector<double> &want)
{
	double e = 0;
	for (size_t i = 0; i < want.size(); i++) e = fmax(e, fabs(got[i] - want[i]));
	return e;
}

int main()
{
	cusparseHandle_t h;
	if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS) { printf("FAIL cusparseCreate\n"); return 1; }
	const int n = 200, k = 3;
	Csr a = make_matrix(n);
	std::vector<float> x(n), b(n * k);
	for (int i = 0; i < n; i++) x[i] = (i % 9) * 0.125f - 0.5f;
	for (int i = 0; i < n * k; i++) b[i] = (i % 7) * 0.25f - 0.75f;
	int *rows = to_device(a.rows), *cols = to_device(a.cols);
	float *vals = to_device(a.vals), *dx = to_device(x), *db = to_device(b);
	float *dy, *dc, *dense;
	cudaMalloc(&dy, n * sizeof(float));
	cudaMalloc(&dc, n * k * sizeof(float));
	cudaMalloc(&dense, n * n * sizeof(float));
	cusparseSpMatDescr_t A;
	cusparseDnVecDescr_t X, Y;
	cusparseDnMatDescr_t B, C, D;
	cusparseCreateCsr(&A, n, n, a.nnz, rows, cols, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
	                  CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
	cusparseCreateDnVec(&X, n, dx, CUDA_R_32F);
	cusparseCreateDnVec(&Y, n, dy, CUDA_R_32F);
	cusparseCreateDnMat(&B, n, k, n, db, CUDA_R_32F, CUSPARSE_ORDER_COL);
	cusparseCreateDnMat(&C, n, k, n, dc, CUDA_R_32F, CUSPARSE_ORDER_COL);
	cusparseCreateDnMat(&D, n, n, n, dense, CUDA_R_32F, CUSPARSE_ORDER_ROW);
	float alpha = 1.5f, beta = 0.0f;
	size_t size = 0;
	void *work = nullptr;

	// y = alpha A x
	std::vector<double> want(n, 0.0);
	for (int i = 0; i < n; i++)
		for (int p = a.rows[i]; p < a.rows[i + 1]; p++) want[i] += alpha * (double)a.vals[p] * x[a.cols[p]];
	cusparseStatus_t s = cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y,
	                                             CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &size);
	cudaMalloc(&work, size + 1);
	if (s == CUSPARSE_STATUS_SUCCESS)
		s = cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y, CUDA_R_32F,
		                 CUSPARSE_SPMV_ALG_DEFAULT, work);
	cudaDeviceSynchronize();
	report("SpMV csr", s, max_error(to_host(dy, n), want), 1e-4);

	// y = alpha A^T x
	std::fill(want.begin(), want.end(), 0.0);
	for (int i = 0; i < n; i++)
		for (int p = a.rows[i]; p < a.rows[i + 1]; p++) want[a.cols[p]] += alpha * (double)a.vals[p] * x[i];
	s = cusparseSpMV(h, CUSPARSE_OPERATION_TRANSPOSE, &alpha, A, X, &beta, Y, CUDA_R_32F,
	                 CUSPARSE_SPMV_ALG_DEFAULT, work);
	cudaDeviceSynchronize();
	report("SpMV csr transposed", s, max_error(to_host(dy, n), want), 1e-4);

	// C = alpha A B
	std::vector<double> wantc(n * k, 0.0);
	for (int j = 0; j < k; j++)
		for (int i = 0; i < n; i++)
			for (int p = a.rows[i]; p < a.rows[i + 1]; p++)
				wantc[j * n + i] += alpha * (double)a.vals[p] * b[j * n + a.cols[p]];
	cudaFree(work);
	s = cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A,
	                            B, &beta, C, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &size);
	cudaMalloc(&work, size + 1);
	if (s == CUSPARSE_STATUS_SUCCESS)
		s = cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B,
		                 &beta, C, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, work);
	cudaDeviceSynchronize();
	report("SpMM csr x dense", s, max_error(to_host(dc, n * k), wantc), 1e-4);

	// the dense matrix of A
	std::vector<double> wantd(n * n, 0.0);
	for (int i = 0; i < n; i++)
		for (int p = a.rows[i]; p < a.rows[i + 1]; p++) wantd[i * n + a.cols[p]] = a.vals[p];
	cudaFree(work);
	s = cusparseSparseToDense_bufferSize(h, A, D, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &size);
	cudaMalloc(&work, size + 1);
	if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseSparseToDense(h, A, D, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, work);
	cudaDeviceSynchronize();
	report("SparseToDense", s, max_error(to_host(dense, n * n), wantd), 0);

	// solve A y = x (lower triangular)
	std::vector<double> sol(n);
	for (int i = 0; i < n; i++) {
		double acc = alpha * x[i], diag = 1;
		for (int p = a.rows[i]; p < a.rows[i + 1]; p++) {
			if (a.cols[p] == i) diag = a.vals[p];
			else acc -= a.vals[p] * sol[a.cols[p]];
		}
		sol[i] = acc / diag;
	}
	cusparseFillMode_t lower = CUSPARSE_FILL_MODE_LOWER;
	cusparseDiagType_t nonunit = CUSPARSE_DIAG_TYPE_NON_UNIT;
	cusparseSpMatSetAttribute(A, CUSPARSE_SPMAT_FILL_MODE, &lower, sizeof lower);
	cusparseSpMatSetAttribute(A, CUSPARSE_SPMAT_DIAG_TYPE, &nonunit, sizeof nonunit);
	cusparseSpSVDescr_t sv;
	cusparseSpSV_createDescr(&sv);
	cudaFree(work);
	s = cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, Y, CUDA_R_32F,
	                            CUSPARSE_SPSV_ALG_DEFAULT, sv, &size);
	cudaMalloc(&work, size + 1);
	if (s == CUSPARSE_STATUS_SUCCESS)
		s = cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, Y, CUDA_R_32F,
		                          CUSPARSE_SPSV_ALG_DEFAULT, sv, work);
	if (s == CUSPARSE_STATUS_SUCCESS)
		s = cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, Y, CUDA_R_32F,
		                       CUSPARSE_SPSV_ALG_DEFAULT, sv);
	cudaDeviceSynchronize();
	report("SpSV lower triangular", s, max_error(to_host(dy, n), sol), 1e-4);

	printf("%d of 5 routines failed\n", failures);
	return failures != 0;
}
