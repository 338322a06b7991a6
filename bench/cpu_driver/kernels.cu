// The CPU driver benchmark's programs (bench/cpu_driver.sh): a dozen algorithms with sizes a
// GPU finishes in milliseconds. reference.c computes the same with OpenMP; both print, per
// algorithm, its best wall time of three runs and a checksum of its result. With a name as
// its argument it runs that algorithm alone (bench/emulator_speed.sh measures each apart).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#define CHECK(call)                                                                          \
	do {                                                                                 \
		cudaError_t e_ = (call);                                                     \
		if (e_ != cudaSuccess) {                                                     \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
			exit(1);                                                             \
		}                                                                            \
	} while (0)

#include "common.h"

static double now()
{
	timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

template <class T> static T *device(size_t n, const T *from = nullptr)
{
	T *p;
	CHECK(cudaMalloc(&p, n * sizeof(T)));
	if (from)
		CHECK(cudaMemcpy(p, from, n * sizeof(T), cudaMemcpyHostToDevice));
	else
		CHECK(cudaMemset(p, 0, n * sizeof(T)));
	return p;
}

template <class T> static double checksum(const T *d, size_t n)
{
	std::vector<T> h(n);
	CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += (double)h[i];
	return s;
}

static const char *only;  // the one algorithm to run, or null for all
static int measured;

// Runs `body` (launches) three times after a warm-up; prints the best time and `sum()`.
template <class Body, class Sum> static void measure(const char *name, Body body, Sum sum)
{
	if (only && strcmp(only, name) != 0)
		return;
	measured++;
	body();
	CHECK(cudaDeviceSynchronize());
	double best = 1e30;
	for (int i = 0; i < 3; i++) {
		double t = now();
		body();
		CHECK(cudaDeviceSynchronize());
		t = now() - t;
		best = t < best ? t : best;
	}
	printf("%-12s %10.6f %.9e\n", name, best, sum());
}

__global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

__global__ void jacobi(int n, const float *in, float *out)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x <= 0 || y <= 0 || x >= n - 1 || y >= n - 1)
		return;
	out[y * n + x] = 0.25f * (in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] +
	                          in[(y + 1) * n + x]);
}

__global__ void gemm(int n, const float *a, const float *b, float *c)
{
	__shared__ float ta[16][16], tb[16][16];
	int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
	float acc = 0;
	for (int k = 0; k < n; k += 16) {
		ta[threadIdx.y][threadIdx.x] = a[row * n + k + threadIdx.x];
		tb[threadIdx.y][threadIdx.x] = b[(k + threadIdx.y) * n + col];
		__syncthreads();
		for (int i = 0; i < 16; i++)
			acc += ta[threadIdx.y][i] * tb[i][threadIdx.x];
		__syncthreads();
	}
	c[row * n + col] = acc;
}

__global__ void reduce(int n, const float *x, float *partial)
{
	__shared__ float s[256];
	int i = blockIdx.x * 512 + threadIdx.x;
	float v = i < n ? x[i] : 0;
	if (i + 256 < n)
		v += x[i + 256];
	s[threadIdx.x] = v;
	__syncthreads();
	for (int half = 128; half > 0; half >>= 1) {
		if (threadIdx.x < half)
			s[threadIdx.x] += s[threadIdx.x + half];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		partial[blockIdx.x] = s[0];
}

__global__ void block_scan(const int *in, int *out)
{
	__shared__ int s[2][256];
	int i = blockIdx.x * 256 + threadIdx.x, from = 0;
	s[0][threadIdx.x] = in[i];
	__syncthreads();
	for (int d = 1; d < 256; d <<= 1) {
		int v = s[from][threadIdx.x];
		if (threadIdx.x >= d)
			v += s[from][threadIdx.x - d];
		s[1 - from][threadIdx.x] = v;
		from = 1 - from;
		__syncthreads();
	}
	out[i] = s[from][threadIdx.x];
}

__global__ void histogram(int n, const unsigned char *x, unsigned *bins)
{
	__shared__ unsigned local[256];
	local[threadIdx.x] = 0;
	__syncthreads();
	for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
		atomicAdd(&local[x[i]], 1u);
	__syncthreads();
	atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void nbody(int n, const float4 *p, float3 *acc)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float4 me = p[i];
	float ax = 0, ay = 0, az = 0;
	for (int j = 0; j < n; j++) {
		float dx = p[j].x - me.x, dy = p[j].y - me.y, dz = p[j].z - me.z;
		float r2 = dx * dx + dy * dy + dz * dz + 1e-3f;
		float inv = rsqrtf(r2);
		float s = p[j].w * inv * inv * inv;
		ax += dx * s;
		ay += dy * s;
		az += dz * s;
	}
	acc[i] = make_float3(ax, ay, az);
}

__global__ void bitonic_step(unsigned *keys, int j, int k)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x, partner = i ^ j;
	if (partner <= i)
		return;
	unsigned a = keys[i], b = keys[partner];
	bool up = (i & k) == 0;
	if ((a > b) == up) {
		keys[i] = b;
		keys[partner] = a;
	}
}

__global__ void warp_sums(const float *x, float *sums)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = x[i];
	for (int offset = 16; offset > 0; offset >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, offset);
	if ((threadIdx.x & 31) == 0)
		sums[i / 32] = v;
}

__global__ void transpose(int n, const float *in, float *out)
{
	__shared__ float tile[32][33];
	int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (int r = 0; r < 32; r += 8)
		tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * n + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x;
	y = blockIdx.x * 32 + threadIdx.y;
	for (int r = 0; r < 32; r += 8)
		out[(y + r) * n + x] = tile[threadIdx.x][threadIdx.y + r];
}

__global__ void mandelbrot(int n, int limit, int *iterations)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	iterations[y * n + x] = mandelbrot_point(x, y, n, limit);
}

__global__ void black_scholes(int n, const float *s, const float *k, const float *t, float *call)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		call[i] = black_scholes_call(s[i], k[i], t[i]);
}

int main(int argc, char **argv)
{
	only = argc > 1 ? argv[1] : nullptr;
	Inputs in;
	make_inputs(&in);

	{
		float *x = device(SAXPY_N, in.x), *y = device(SAXPY_N, in.y);
		measure("saxpy", [&] { saxpy<<<SAXPY_N / 256, 256>>>(SAXPY_N, 2.0f, x, y); },
		        [&] { return checksum(y, SAXPY_N); });
	}
	{
		float *a = device(STENCIL_N * STENCIL_N, in.grid), *b = device(STENCIL_N * STENCIL_N, in.grid);
		dim3 block(32, 8), grid(STENCIL_N / 32, STENCIL_N / 8);
		measure("stencil", [&] {
			for (int s = 0; s < STENCIL_STEPS; s++) {
				jacobi<<<grid, block>>>(STENCIL_N, a, b);
				std::swap(a, b);
			}
		}, [&] { return checksum(a, STENCIL_N * STENCIL_N); });
	}
	{
		float *a = device(GEMM_N * GEMM_N, in.x), *b = device(GEMM_N * GEMM_N, in.y);
		float *c = device<float>(GEMM_N * GEMM_N);
		measure("gemm", [&] { gemm<<<dim3(GEMM_N / 16, GEMM_N / 16), dim3(16, 16)>>>(GEMM_N, a, b, c); },
		        [&] { return checksum(c, GEMM_N * GEMM_N); });
	}
	{
		float *x = device(REDUCE_N, in.x), *partial = device<float>(REDUCE_N / 512);
		measure("reduction", [&] { reduce<<<REDUCE_N / 512, 256>>>(REDUCE_N, x, partial); },
		        [&] { return checksum(partial, REDUCE_N / 512); });
	}
	{
		int *x = device(SCAN_N, in.ints), *y = device<int>(SCAN_N);
		measure("scan", [&] { block_scan<<<SCAN_N / 256, 256>>>(x, y); },
		        [&] { return checksum(y, SCAN_N); });
	}
	{
		unsigned char *x = device(HISTOGRAM_N, in.bytes);
		unsigned *bins = device<unsigned>(256);
		measure("histogram", [&] {
			CHECK(cudaMemset(bins, 0, 256 * sizeof *bins));
			histogram<<<HISTOGRAM_BLOCKS, 256>>>(HISTOGRAM_N, x, bins);
		}, [&] { return checksum(bins, 256); });
	}
	{
		float4 *p = device(NBODY_N, (const float4 *)in.bodies);
		float3 *acc = device<float3>(NBODY_N);
		measure("nbody", [&] { nbody<<<NBODY_N / 128, 128>>>(NBODY_N, p, acc); },
		        [&] { return checksum((float *)acc, 3 * NBODY_N); });
	}
	{
		unsigned *keys = device<unsigned>(SORT_N);
		measure("sort", [&] {
			CHECK(cudaMemcpy(keys, in.keys, SORT_N * sizeof *keys, cudaMemcpyHostToDevice));
			for (int k = 2; k <= SORT_N; k <<= 1)
				for (int j = k >> 1; j > 0; j >>= 1)
					bitonic_step<<<SORT_N / 256, 256>>>(keys, j, k);
		}, [&] {
			std::vector<unsigned> h(SORT_N);
			CHECK(cudaMemcpy(h.data(), keys, SORT_N * sizeof *keys, cudaMemcpyDeviceToHost));
			double s = 0;
			for (int i = 0; i < SORT_N; i++)
				s += (double)h[i] * (i % 7);
			return s;
		});
	}
	{
		float *x = device(SHUFFLE_N, in.x), *sums = device<float>(SHUFFLE_N / 32);
		measure("shuffle", [&] { warp_sums<<<SHUFFLE_N / 256, 256>>>(x, sums); },
		        [&] { return checksum(sums, SHUFFLE_N / 32); });
	}
	{
		float *a = device(TRANSPOSE_N * TRANSPOSE_N, in.x), *b = device<float>(TRANSPOSE_N * TRANSPOSE_N);
		measure("transpose", [&] {
			transpose<<<dim3(TRANSPOSE_N / 32, TRANSPOSE_N / 32), dim3(32, 8)>>>(TRANSPOSE_N, a, b);
		}, [&] {
			std::vector<float> h(TRANSPOSE_N * TRANSPOSE_N);
			CHECK(cudaMemcpy(h.data(), b, h.size() * sizeof(float), cudaMemcpyDeviceToHost));
			double s = 0;
			for (size_t i = 0; i < h.size(); i++)
				s += (double)h[i] * (i % 5);
			return s;
		});
	}
	{
		int *it = device<int>(MANDELBROT_N * MANDELBROT_N);
		measure("mandelbrot", [&] {
			mandelbrot<<<dim3(MANDELBROT_N / 32, MANDELBROT_N / 8), dim3(32, 8)>>>(
				MANDELBROT_N, MANDELBROT_LIMIT, it);
		}, [&] { return checksum(it, MANDELBROT_N * MANDELBROT_N); });
	}
	{
		float *s = device(OPTIONS_N, in.spot), *k = device(OPTIONS_N, in.strike);
		float *t = device(OPTIONS_N, in.years), *call = device<float>(OPTIONS_N);
		measure("blackscholes", [&] { black_scholes<<<OPTIONS_N / 256, 256>>>(OPTIONS_N, s, k, t, call); },
		        [&] { return checksum(call, OPTIONS_N); });
	}
	if (only && !measured) {
		fprintf(stderr, "no algorithm named %s\n", only);
		return 2;
	}
	return 0;
}
