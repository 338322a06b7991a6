// cuRAND's host API run on the device, checked against the same generators run on the host
// by cuRAND itself (curandCreateGeneratorHost), and a kernel of the program's own that uses
// the numbers. Every kernel cuRAND launches here comes from libcurand.so.10, so the program
// runs converted where that library is converted with it (--with-libraries), or translated
// as it loads.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <curand.h>

#define CHECK_CUDA(call)                                                                   \
	do {                                                                                   \
		cudaError_t e_ = (call);                                                           \
		if (e_ != cudaSuccess) {                                                           \
			printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
			exit(1);                                                                       \
		}                                                                                  \
	} while (0)
#define CHECK_CURAND(call)                                                                 \
	do {                                                                                   \
		curandStatus_t s_ = (call);                                                        \
		if (s_ != CURAND_STATUS_SUCCESS) {                                                 \
			printf("FAIL %s:%d %s: curand status %d\n", __FILE__, __LINE__, #call, (int)s_); \
			exit(1);                                                                       \
		}                                                                                  \
	} while (0)

static size_t N = 1 << 16; // argv[1] sets it: fewer numbers where each costs more (emulators)
static int failures;

enum Distribution { BITS, UNIFORM, NORMAL, UNIFORM_DOUBLE, LOG_NORMAL, POISSON };
static const char *const distribution_names[] = {"bits", "uniform", "normal", "uniform-double",
                                                 "log-normal", "poisson"};

// Fills `out` (N elements of 4 or 8 bytes) from generator g.
static void generate(curandGenerator_t g, Distribution d, void *out)
{
	switch (d) {
	case BITS: CHECK_CURAND(curandGenerate(g, (unsigned *)out, N)); break;
	case UNIFORM: CHECK_CURAND(curandGenerateUniform(g, (float *)out, N)); break;
	case NORMAL: CHECK_CURAND(curandGenerateNormal(g, (float *)out, N, 1.5f, 2.0f)); break;
	case UNIFORM_DOUBLE: CHECK_CURAND(curandGenerateUniformDouble(g, (double *)out, N)); break;
	case LOG_NORMAL: CHECK_CURAND(curandGenerateLogNormal(g, (float *)out, N, 0.0f, 0.5f)); break;
	case POISSON: CHECK_CURAND(curandGeneratePoisson(g, (unsigned *)out, N, 4.0)); break;
	}
}

static void setup(curandGenerator_t g, curandRngType_t type)
{
	if (type == CURAND_RNG_QUASI_SOBOL32)
		CHECK_CURAND(curandSetQuasiRandomGeneratorDimensions(g, 4));
	else
		CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(g, 1234ULL));
	if (type != CURAND_RNG_PSEUDO_MTGP32) // which takes no offset
		CHECK_CURAND(curandSetGeneratorOffset(g, 17));
}

// How far apart the device's and the host's values may be: integers and uniform floats
// exactly, the transcendental ones within a few float ulps (cuRAND's host generators do not
// promise bitwise equal results there).
static bool close_enough(Distribution d, const void *a, const void *b, size_t i)
{
	if (d == BITS || d == POISSON)
		return ((const unsigned *)a)[i] == ((const unsigned *)b)[i];
	if (d == UNIFORM_DOUBLE)
		return ((const double *)a)[i] == ((const double *)b)[i];
	float x = ((const float *)a)[i], y = ((const float *)b)[i];
	if (d == UNIFORM)
		return x == y;
	return std::fabs(x - y) <= 1e-5f * std::fmax(1.0f, std::fabs(y));
}

static void compare_with_host(const char *name, curandRngType_t type, Distribution d)
{
	size_t bytes = N * (d == UNIFORM_DOUBLE ? 8 : 4);
	std::vector<unsigned char> device_values(bytes), host_values(bytes);
	curandGenerator_t dg, hg;
	void *buf;

	CHECK_CUDA(cudaMalloc(&buf, bytes));
	CHECK_CURAND(curandCreateGenerator(&dg, type));
	setup(dg, type);
	generate(dg, d, buf);
	CHECK_CUDA(cudaMemcpy(device_values.data(), buf, bytes, cudaMemcpyDeviceToHost));
	CHECK_CURAND(curandDestroyGenerator(dg));
	CHECK_CUDA(cudaFree(buf));

	CHECK_CURAND(curandCreateGeneratorHost(&hg, type));
	setup(hg, type);
	generate(hg, d, host_values.data());
	CHECK_CURAND(curandDestroyGenerator(hg));

	size_t bad = 0, first = 0;
	for (size_t i = 0; i < N; i++)
		if (!close_enough(d, device_values.data(), host_values.data(), i) && !bad++)
			first = i;
	printf("%-8s %-14s %s", name, distribution_names[d], bad ? "FAIL" : "ok");
	if (bad)
		printf(" (%zu of %zu differ, first at %zu)", bad, N, first);
	printf("\n");
	failures += bad != 0;
}

// The program's own kernel over cuRAND's numbers: the share of points inside the unit circle.
__global__ void count_inside(const float *xy, size_t n, unsigned long long *inside)
{
	unsigned long long mine = 0;
	for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		mine += xy[2 * i] * xy[2 * i] + xy[2 * i + 1] * xy[2 * i + 1] <= 1.0f;
	atomicAdd(inside, mine);
}

static void estimate_pi(void)
{
	std::vector<float> host_xy(2 * N);
	curandGenerator_t g;
	float *xy;
	unsigned long long *inside, got, want = 0;

	CHECK_CUDA(cudaMalloc(&xy, 2 * N * sizeof(float)));
	CHECK_CUDA(cudaMalloc(&inside, sizeof(*inside)));
	CHECK_CUDA(cudaMemset(inside, 0, sizeof(*inside)));
	CHECK_CURAND(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10));
	CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(g, 42ULL));
	CHECK_CURAND(curandGenerateUniform(g, xy, 2 * N));
	count_inside<<<64, 256>>>(xy, N, inside);
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaMemcpy(&got, inside, sizeof(got), cudaMemcpyDeviceToHost));
	CHECK_CUDA(cudaMemcpy(host_xy.data(), xy, 2 * N * sizeof(float), cudaMemcpyDeviceToHost));
	for (size_t i = 0; i < N; i++)
		want += host_xy[2 * i] * host_xy[2 * i] + host_xy[2 * i + 1] * host_xy[2 * i + 1] <= 1.0f;
	double pi = 4.0 * (double)got / (double)N;
	bool ok = got == want && std::fabs(pi - M_PI) < 0.05;
	printf("pi estimate %.4f from %llu of %zu points %s\n", pi, got, N, ok ? "ok" : "FAIL");
	failures += !ok;
	CHECK_CURAND(curandDestroyGenerator(g));
	CHECK_CUDA(cudaFree(xy));
	CHECK_CUDA(cudaFree(inside));
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1)
		N = strtoul(argv[1], NULL, 0) & ~(size_t)3; // a multiple of the Sobol dimensions
	static const struct {
		const char *name;
		curandRngType_t type;
	} generators[] = {
		{"xorwow", CURAND_RNG_PSEUDO_XORWOW},
		{"philox", CURAND_RNG_PSEUDO_PHILOX4_32_10},
		{"mrg32k3a", CURAND_RNG_PSEUDO_MRG32K3A},
		{"mtgp32", CURAND_RNG_PSEUDO_MTGP32},
		{"sobol32", CURAND_RNG_QUASI_SOBOL32},
	};
	for (const auto &g : generators)
		for (int d = BITS; d <= POISSON; d++)
			compare_with_host(g.name, g.type, (Distribution)d);
	estimate_pi();
	printf("%s\n", failures ? "FAILED" : "PASSED");
	return failures ? 1 : 0;
}
