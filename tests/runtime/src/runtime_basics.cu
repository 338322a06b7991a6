// The CUDA runtime over the stub, without kernels: devices, memory both ways, memset,
// streams, events, host functions, pinned memory. Prints PASS and exits 0 when every
// check holds; with no device it reports cudaGetDeviceCount's error and exits 2.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static int failures;

#define CHECK(call)                                                                       \
	do {                                                                                  \
		cudaError_t e_ = (call);                                                          \
		if (e_ != cudaSuccess) {                                                          \
			printf("FAIL %s:%d: %s = %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); \
			failures++;                                                                   \
		}                                                                                 \
	} while (0)

#define EXPECT(cond)                                                                      \
	do {                                                                                  \
		if (!(cond)) {                                                                    \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                        \
			failures++;                                                                   \
		}                                                                                 \
	} while (0)

static void CUDART_CB
append(void *arg)
{
	int *log = (int *)arg;
	log[1 + log[0]] = log[0];
	log[0]++;
}

int
main()
{
	int count = -1;
	cudaError_t e = cudaGetDeviceCount(&count);
	if (e != cudaSuccess) {
		printf("cudaGetDeviceCount: %s\n", cudaGetErrorName(e));
		return 2;
	}
	EXPECT(count >= 1);

	cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	EXPECT(strstr(prop.name, "zluda-convert") != NULL);
	EXPECT(prop.warpSize == 32);
	EXPECT(prop.maxThreadsPerBlock == 1024);
	EXPECT(prop.major >= 7);
	printf("device 0: %s, compute capability %d.%d\n", prop.name, prop.major, prop.minor);

	int driver = 0;
	CHECK(cudaDriverGetVersion(&driver));
	EXPECT(driver >= 13000);

	const size_t n = 1 << 20;
	unsigned char *host = new unsigned char[n], *back = new unsigned char[n];
	for (size_t i = 0; i < n; i++)
		host[i] = (unsigned char)(i * 7 + 3);

	unsigned char *dev = nullptr, *dev2 = nullptr;
	CHECK(cudaMalloc(&dev, n));
	CHECK(cudaMalloc(&dev2, n));
	CHECK(cudaMemcpy(dev, host, n, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dev2, dev, n, cudaMemcpyDeviceToDevice));
	CHECK(cudaMemcpy(back, dev2, n, cudaMemcpyDeviceToHost));
	EXPECT(memcmp(host, back, n) == 0);

	CHECK(cudaMemset(dev, 0x5a, n / 2));
	CHECK(cudaMemcpy(back, dev, n, cudaMemcpyDeviceToHost));
	bool memset_ok = true;
	for (size_t i = 0; i < n; i++)
		memset_ok &= back[i] == (i < n / 2 ? 0x5a : host[i]);
	EXPECT(memset_ok);

	// A pitched 2D round trip.
	size_t pitch = 0;
	float *grid = nullptr;
	float rows[16][33];
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 33; x++)
			rows[y][x] = (float)(y * 100 + x);
	CHECK(cudaMallocPitch((void **)&grid, &pitch, 33 * sizeof(float), 16));
	EXPECT(pitch >= 33 * sizeof(float));
	CHECK(cudaMemcpy2D(grid, pitch, rows, sizeof rows[0], sizeof rows[0], 16, cudaMemcpyHostToDevice));
	float rows_back[16][33] = {};
	CHECK(cudaMemcpy2D(rows_back, sizeof rows_back[0], grid, pitch, sizeof rows[0], 16,
	                   cudaMemcpyDeviceToHost));
	EXPECT(memcmp(rows, rows_back, sizeof rows) == 0);

	// Pinned memory, streams, events and host functions, asynchronously.
	unsigned char *pinned = nullptr;
	CHECK(cudaMallocHost(&pinned, n));
	cudaStream_t stream;
	cudaEvent_t start, stop;
	CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	static int order[1 + 8];
	CHECK(cudaEventRecord(start, stream));
	for (int k = 0; k < 4; k++) {
		CHECK(cudaMemsetAsync(dev, k, n, stream));
		CHECK(cudaLaunchHostFunc(stream, append, order));
	}
	CHECK(cudaMemcpyAsync(pinned, dev, n, cudaMemcpyDeviceToHost, stream));
	CHECK(cudaLaunchHostFunc(stream, append, order));
	CHECK(cudaEventRecord(stop, stream));
	CHECK(cudaEventSynchronize(stop));
	CHECK(cudaStreamSynchronize(stream));
	EXPECT(cudaStreamQuery(stream) == cudaSuccess);
	EXPECT(order[0] == 5);
	for (int k = 0; k < 5; k++)
		EXPECT(order[1 + k] == k);
	bool pinned_ok = true;
	for (size_t i = 0; i < n; i++)
		pinned_ok &= pinned[i] == 3;
	EXPECT(pinned_ok);
	float ms = -1;
	CHECK(cudaEventElapsedTime(&ms, start, stop));
	EXPECT(ms >= 0);

	cudaPointerAttributes attributes;
	CHECK(cudaPointerGetAttributes(&attributes, dev));
	EXPECT(attributes.type == cudaMemoryTypeDevice);
	CHECK(cudaPointerGetAttributes(&attributes, pinned));
	EXPECT(attributes.type == cudaMemoryTypeHost);

	size_t free_bytes = 0, total_bytes = 0;
	CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
	EXPECT(total_bytes > 0 && free_bytes <= total_bytes);

	// An error the runtime must pass on: freeing what was never allocated.
	EXPECT(cudaFree((void *)0x1000) != cudaSuccess);
	cudaGetLastError();

	CHECK(cudaDeviceSynchronize());
	CHECK(cudaEventDestroy(start));
	CHECK(cudaEventDestroy(stop));
	CHECK(cudaStreamDestroy(stream));
	CHECK(cudaFreeHost(pinned));
	CHECK(cudaFree(grid));
	CHECK(cudaFree(dev2));
	CHECK(cudaFree(dev));
	delete[] host;
	delete[] back;

	if (failures) {
		printf("%d checks failed\n", failures);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
