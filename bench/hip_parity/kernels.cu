/* The kernels of the HIP parity benchmark (bench/hip_parity.sh): typical CUDA kernels written
 * once, built two ways: by nvcc to PTX and converted by zluda-convert, and by clang-22 as HIP
 * device code with bench/hip_parity/hip_compat.h standing in for HIP's headers. Both code
 * objects then run the same launches on the emulator (runner.c, whose table gives each
 * kernel's arguments and geometry), and the wave instructions each executes are compared.
 *
 * So the source uses only what both sides compile: extern "C" kernels (the same symbol names
 * in both code objects), parameters that are pointers, int, float or double (the same
 * kernarg layout on both sides), 32-lane warps (the converter runs wave32), and no texture,
 * cooperative-group or library calls. */
#ifndef __HIP__
#include <cuda_fp16.h>
#include <mma.h>
#endif

/* c = a + b */
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

/* y = a x + y, a grid-stride loop */
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		y[i] = a * x[i] + y[i];
}

/* One partial sum per block: each thread adds a grid-stride run, each warp reduces with
 * shuffles, the warps' sums meet in shared memory. Blocks of 256. */
extern "C" __global__ void reduce_sum(const float *in, float *partial, int n)
{
	__shared__ float warp_sums[8];
	float s = 0.f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		s += in[i];
	for (int d = 16; d > 0; d >>= 1)
		s += __shfl_down_sync(0xffffffffu, s, d);
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	if (lane == 0)
		warp_sums[warp] = s;
	__syncthreads();
	if (warp == 0) {
		s = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0.f;
		for (int d = 4; d > 0; d >>= 1)
			s += __shfl_down_sync(0xffffffffu, s, d);
		if (lane == 0)
			partial[blockIdx.x] = s;
	}
}

/* The same in double, a tree in shared memory (blocks of 256) with the last warp by shuffles */
extern "C" __global__ void reduce_double(const double *in, double *partial, int n)
{
	__shared__ double t[256];
	double s = 0.0;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		s += in[i] * in[i];
	t[threadIdx.x] = s;
	__syncthreads();
	for (int stride = blockDim.x / 2; stride >= 32; stride >>= 1) {
		if ((int)threadIdx.x < stride)
			t[threadIdx.x] += t[threadIdx.x + stride];
		__syncthreads();
	}
	if (threadIdx.x < 32) {
		s = t[threadIdx.x];
		for (int d = 16; d > 0; d >>= 1)
			s += __shfl_down_sync(0xffffffffu, s, d);
		if (threadIdx.x == 0)
			partial[blockIdx.x] = s;
	}
}

/* C = A B, row-major, M, N multiples of 64 and K of 16: 64 x 64 tiles of C a block of 256
 * threads, each thread 4 x 4 outputs in registers; A and B staged in shared memory with
 * float4 loads (A transposed on the way so that the inner loop reads both tiles by float4). */
extern "C" __global__ void sgemm_64(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[16][64];
	__shared__ float Bs[16][64];
	int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
	int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
	float acc[4][4] = {};
	for (int k0 = 0; k0 < K; k0 += 16) {
		/* A's tile: 64 rows of 16, one float4 a thread */
		int ar = threadIdx.x >> 2, ac = (threadIdx.x & 3) * 4;
		float4 a = *(const float4 *)&A[(row0 + ar) * K + k0 + ac];
		As[ac + 0][ar] = a.x;
		As[ac + 1][ar] = a.y;
		As[ac + 2][ar] = a.z;
		As[ac + 3][ar] = a.w;
		/* B's tile: 16 rows of 64 */
		int br = threadIdx.x >> 4, bc = (threadIdx.x & 15) * 4;
		*(float4 *)&Bs[br][bc] = *(const float4 *)&B[(k0 + br) * N + col0 + bc];
		__syncthreads();
		for (int k = 0; k < 16; k++) {
			float4 av = *(const float4 *)&As[k][ty * 4];
			float4 bv = *(const float4 *)&Bs[k][tx * 4];
			float ar4[4] = {av.x, av.y, av.z, av.w}, br4[4] = {bv.x, bv.y, bv.z, bv.w};
			for (int i = 0; i < 4; i++)
				for (int j = 0; j < 4; j++)
					acc[i][j] += ar4[i] * br4[j];
		}
		__syncthreads();
	}
	for (int i = 0; i < 4; i++)
		*(float4 *)&C[(row0 + ty * 4 + i) * N + col0 + tx * 4] =
			make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
}

/* out = in^T through a 32 x 33 shared tile (the column of padding keeps the reads by column
 * off one bank); blocks of 32 x 8, each thread four rows */
extern "C" __global__ void transpose(const float *in, float *out, int width, int height)
{
	__shared__ float tile[32][33];
	int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
		if (x < width && y + j < height)
			tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x;
	y = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
		if (x < height && y + j < width)
			out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* 256-bin histogram of bytes: each block counts in shared memory with atomics, then adds its
 * bins to the global ones */
extern "C" __global__ void histogram(const unsigned *words, unsigned *bins, int nwords)
{
	__shared__ unsigned local[256];
	local[threadIdx.x] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += blockDim.x * gridDim.x) {
		unsigned w = words[i];
		for (int b = 0; b < 32; b += 8)
			atomicAdd(&local[(w >> b) & 255], 1u);
	}
	__syncthreads();
	if (local[threadIdx.x])
		atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

/* Jacobi step of the 5-point Laplacian; the border is copied */
extern "C" __global__ void stencil5(const float *in, float *out, int width, int height)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= width || y >= height)
		return;
	int i = y * width + x;
	if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
		out[i] = in[i];
		return;
	}
	out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]) - 0.1f * in[i];
}

/* 3 x 3 gaussian (1 2 1 / 2 4 2 / 1 2 1, / 16) on a float image, the edges clamped; the
 * block's tile and a one-pixel apron in shared memory. Blocks of 16 x 16. */
extern "C" __global__ void gaussian3x3(const float *in, float *out, int width, int height)
{
	__shared__ float tile[18][18];
	int x0 = blockIdx.x * 16 - 1, y0 = blockIdx.y * 16 - 1;
	for (int i = threadIdx.y * 16 + threadIdx.x; i < 18 * 18; i += 256) {
		int tx = i % 18, ty = i / 18;
		int x = min(max(x0 + tx, 0), width - 1), y = min(max(y0 + ty, 0), height - 1);
		tile[ty][tx] = in[y * width + x];
	}
	__syncthreads();
	int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
	if (x >= width || y >= height)
		return;
	int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
	float s = tile[ty - 1][tx - 1] + 2.f * tile[ty - 1][tx] + tile[ty - 1][tx + 1] +
	          2.f * tile[ty][tx - 1] + 4.f * tile[ty][tx] + 2.f * tile[ty][tx + 1] +
	          tile[ty + 1][tx - 1] + 2.f * tile[ty + 1][tx] + tile[ty + 1][tx + 1];
	out[y * width + x] = s * (1.f / 16.f);
}

/* Softmax of each row, one block of 128 a row: the maximum and then the sum of exponentials
 * reduced by shuffles within warps and shared memory across them */
extern "C" __global__ void softmax_rows(const float *in, float *out, int cols)
{
	__shared__ float red[4];
	const float *row = in + (size_t)blockIdx.x * cols;
	float *orow = out + (size_t)blockIdx.x * cols;
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	float m = -3.0e38f;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		m = fmaxf(m, row[c]);
	for (int d = 16; d > 0; d >>= 1)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, d));
	if (lane == 0)
		red[warp] = m;
	__syncthreads();
	m = fmaxf(fmaxf(red[0], red[1]), fmaxf(red[2], red[3]));
	__syncthreads();
	float s = 0.f;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		s += expf(row[c] - m);
	for (int d = 16; d > 0; d >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, d);
	if (lane == 0)
		red[warp] = s;
	__syncthreads();
	float inv = 1.f / (red[0] + red[1] + red[2] + red[3]);
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		orow[c] = expf(row[c] - m) * inv;
}

/* Inclusive scan of ints within blocks of 256, the work-efficient up- and down-sweep in
 * shared memory; each block's total also to sums[blockIdx.x] */
extern "C" __global__ void block_scan(const int *in, int *out, int *sums, int n)
{
	__shared__ int t[256];
	int i = blockIdx.x * 256 + threadIdx.x;
	int v = i < n ? in[i] : 0;
	t[threadIdx.x] = v;
	__syncthreads();
	for (int stride = 1; stride < 256; stride <<= 1) {
		int k = (threadIdx.x + 1) * stride * 2 - 1;
		if (k < 256)
			t[k] += t[k - stride];
		__syncthreads();
	}
	for (int stride = 64; stride > 0; stride >>= 1) {
		int k = (threadIdx.x + 1) * stride * 2 - 1;
		if (k + stride < 256)
			t[k + stride] += t[k];
		__syncthreads();
	}
	if (i < n)
		out[i] = t[threadIdx.x];
	if (threadIdx.x == 255)
		sums[blockIdx.x] = t[255];
}

/* Inclusive scan within each warp by shuffles up (Kogge-Stone), then across the block's warps */
extern "C" __global__ void warp_scan(const int *in, int *out, int n)
{
	__shared__ int warp_totals[8];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	int v = i < n ? in[i] : 0;
	for (int d = 1; d < 32; d <<= 1) {
		int u = __shfl_up_sync(0xffffffffu, v, d);
		if (lane >= d)
			v += u;
	}
	if (lane == 31)
		warp_totals[warp] = v;
	__syncthreads();
	if (warp == 0) {
		int t = lane < (int)(blockDim.x >> 5) ? warp_totals[lane] : 0;
		for (int d = 1; d < 8; d <<= 1) {
			int u = __shfl_up_sync(0xffffffffu, t, d);
			if (lane >= d)
				t += u;
		}
		if (lane < 8)
			warp_totals[lane] = t;
	}
	__syncthreads();
	if (warp > 0)
		v += warp_totals[warp - 1];
	if (i < n)
		out[i] = v;
}

/* The acceleration on each body from all the others, softened; the positions staged through
 * shared memory a block at a time. pos: x, y, z, mass. Blocks of 128. */
extern "C" __global__ void nbody(const float4 *pos, float4 *accel, int n, float eps2)
{
	__shared__ float4 tile[128];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 p = pos[i < n ? i : 0];
	float ax = 0.f, ay = 0.f, az = 0.f;
	for (int base = 0; base < n; base += 128) {
		int j = base + threadIdx.x;
		tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
		__syncthreads();
		for (int k = 0; k < 128; k++) {
			float4 q = tile[k];
			float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
			float r2 = dx * dx + dy * dy + dz * dz + eps2;
			float inv = rsqrtf(r2);
			float s = q.w * inv * inv * inv;
			ax += dx * s;
			ay += dy * s;
			az += dz * s;
		}
		__syncthreads();
	}
	if (i < n)
		accel[i] = make_float4(ax, ay, az, 0.f);
}

/* y = a x + y on pairs of halves */
extern "C" __global__ void haxpy(float a, const __half2 *x, __half2 *y, int n2)
{
	__half2 a2 = __float2half2_rn(a);
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n2)
		y[i] = __hfma2(a2, x[i], y[i]);
}

/* 64-bit hashing: splitmix64 of each key, mixed with murmur3's 64-bit finaliser, eight rounds */
extern "C" __global__ void hash64(const unsigned long long *keys, unsigned long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned long long h = keys[i];
	for (int r = 0; r < 8; r++) {
		unsigned long long z = h + 0x9e3779b97f4a7c15ull * (r + 1);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		z ^= z >> 33;
		z *= 0xff51afd7ed558ccdull;
		z ^= z >> 33;
		z *= 0xc4ceb9fe1a85ec53ull;
		z ^= z >> 33;
		h ^= z + (h << 6) + (h >> 2);
	}
	out[i] = h;
}

/* C = A B in f16 with f32 accumulation through wmma m16n16k16, one 16 x 16 tile of C a warp;
 * row-major, M, N, K multiples of 16; blocks of 4 warps along N */
extern "C" __global__ void wmma_gemm(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	using namespace nvcuda;
	int tile_n = (blockIdx.x * blockDim.x + threadIdx.x) / 32, tile_m = blockIdx.y;
	if (tile_n * 16 >= N || tile_m * 16 >= M)
		return;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
	wmma::fill_fragment(c, 0.f);
	for (int k = 0; k < K; k += 16) {
		wmma::load_matrix_sync(a, A + tile_m * 16 * K + k, K);
		wmma::load_matrix_sync(b, B + k * N + tile_n * 16, N);
		wmma::mma_sync(c, a, b, c);
	}
	wmma::store_matrix_sync(C + tile_m * 16 * N + tile_n * 16, c, N, wmma::mem_row_major);
}

/* Breadth-first search, one level: every vertex of the frontier visits its neighbours
 * (CSR), claims the unvisited ones with a compare-and-swap and appends them to the next
 * frontier through an atomic counter */
extern "C" __global__ void bfs_expand(const int *row_ptr, const int *cols, const int *frontier,
                                      int frontier_size, int *dist, int *next, int *next_size,
                                      int level)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= frontier_size)
		return;
	int v = frontier[i];
	for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++) {
		int u = cols[e];
		if (dist[u] < 0 && atomicCAS(&dist[u], -1, level + 1) == -1)
			next[atomicAdd(next_size, 1)] = u;
	}
}

/* Degrees of a graph given as an edge list: two global atomics an edge */
extern "C" __global__ void degree_count(const int *src, const int *dst, int *degree, int nedges)
{
	for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < nedges; e += blockDim.x * gridDim.x) {
		atomicAdd(&degree[src[e]], 1);
		atomicAdd(&degree[dst[e]], 1);
	}
}

/* y = a x + y in double, and the dot product x . y of the result reduced per block (blocks of
 * 256) into partial[] */
extern "C" __global__ void daxpy_dot(double a, const double *x, double *y, double *partial, int n)
{
	__shared__ double t[8];
	double s = 0.0;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
		double v = a * x[i] + y[i];
		y[i] = v;
		s += x[i] * v;
	}
	for (int d = 16; d > 0; d >>= 1)
		s += __shfl_down_sync(0xffffffffu, s, d);
	if ((threadIdx.x & 31) == 0)
		t[threadIdx.x >> 5] = s;
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int w = 1; w < (int)(blockDim.x >> 5); w++)
			s += t[w];
		partial[blockIdx.x] = s;
	}
}

/* A degree-16 polynomial in double (Horner), and its square root, for each element */
extern "C" __global__ void poly_f64(const double *x, double *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double v = x[i], p = 1.0 / 17.0;
	for (int k = 16; k > 0; k--)
		p = fma(p, v, 1.0 / k);
	y[i] = sqrt(fabs(p)) + p;
}

/* Dot products of int8 vectors packed four to an int through __dp4a: one output per row of
 * a 4 x cols matrix of packed words, a warp a row */
extern "C" __global__ void dot_dp4a(const int *a, const int *b, int *out, int rows, int words)
{
	int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
	if (row >= rows)
		return;
	int s = 0;
	for (int w = lane; w < words; w += 32)
		s = __dp4a(a[row * words + w], b[w], s);
	for (int d = 16; d > 0; d >>= 1)
		s += __shfl_down_sync(0xffffffffu, s, d);
	if (lane == 0)
		out[row] = s;
}

/* Activations: x sigmoid(x) + tanh(x) */
extern "C" __global__ void activation(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = in[i];
	out[i] = x / (1.f + expf(-x)) + tanhf(x);
}

/* Fast-intrinsic variant of the same: __expf and __fdividef, what -use_fast_math makes of
 * every expf and division */
extern "C" __global__ void activation_fast(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = in[i];
	out[i] = __fdividef(x, 1.f + __expf(-x));
}

/* Bitonic sort of each block's 512 floats in shared memory, two elements a thread, ascending */
extern "C" __global__ void bitonic_sort(float *data)
{
	__shared__ float s[512];
	float *d = data + blockIdx.x * 512;
	int t = threadIdx.x;
	s[t] = d[t];
	s[t + 256] = d[t + 256];
	__syncthreads();
	for (int k = 2; k <= 512; k <<= 1)
		for (int j = k >> 1; j > 0; j >>= 1) {
			for (int i = t; i < 512; i += 256) {
				int partner = i ^ j;
				if (partner > i) {
					bool up = (i & k) == 0;
					float a = s[i], b = s[partner];
					if ((a > b) == up) {
						s[i] = b;
						s[partner] = a;
					}
				}
			}
			__syncthreads();
		}
	d[t] = s[t];
	d[t + 256] = s[t + 256];
}

/* y = A x, a warp a row, the row read by float4 and reduced by shuffles; cols a multiple of 4 */
extern "C" __global__ void matvec(const float *A, const float *x, float *y, int rows, int cols)
{
	int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
	if (row >= rows)
		return;
	const float4 *r = (const float4 *)(A + (size_t)row * cols);
	const float4 *x4 = (const float4 *)x;
	float s = 0.f;
	for (int c = lane; c < cols / 4; c += 32) {
		float4 a = r[c], b = x4[c];
		s += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
	}
	for (int d = 16; d > 0; d >>= 1)
		s += __shfl_down_sync(0xffffffffu, s, d);
	if (lane == 0)
		y[row] = s;
}
