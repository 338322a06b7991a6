/* CUDA 11.8's runtime (libcudart.so.11.0, which predates the cuLibrary API) over the driver:
 * it registers this program's fatbin through its wrapper, loads it with the private
 * CUDART_INTERFACE get_module_from_cubin_ext1, and launches exec_kernels.c's block sum from
 * the image zc-exec-image embedded. Built by gcc against the runtime's ABI: nvcc 13 cannot
 * target cudart 11. Prints PASS when every sum is right. */
#include <stdint.h>
#include <stdio.h>

#include "exec_module.h"

typedef struct {
	unsigned x, y, z;
} dim3;
typedef int cudaError_t;
enum { HOST_TO_DEVICE = 1, DEVICE_TO_HOST = 2 };

/* What nvcc's generated registration code calls. */
void **__cudaRegisterFatBinary(void *wrapper);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *host_function, char *device_function,
                            const char *device_name, int thread_limit, void *tid, void *bid,
                            void *block_dim, void *grid_dim, int *warp_size);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaLaunchKernel(const void *function, dim3 grid, dim3 block, void **args,
                             size_t shared, void *stream);
cudaError_t cudaDeviceSynchronize(void);
const char *cudaGetErrorName(cudaError_t e);

static struct {
	int magic, version;
	const void *data;
	void *filename_or_fatbins;
} wrapper = { 0x466243B1, 1, exec_fatbin, NULL };

static const char block_sum = 0; /* the host-side handle of the kernel */

#define CALL(call)                                                                      \
	do {                                                                                \
		cudaError_t e_ = (call);                                                        \
		if (e_) {                                                                       \
			printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_));                      \
			return 1;                                                                   \
		}                                                                               \
	} while (0)

int
main(void)
{
	enum { BLOCKS = 8, THREADS = 256 };
	static uint32_t in[BLOCKS * THREADS], out[BLOCKS];
	void **handle = __cudaRegisterFatBinary(&wrapper);
	void *din, *dout;
	int version = 0, wrong = 0;

	__cudaRegisterFunction(handle, &block_sum, "zk_block_sum", "zk_block_sum", -1, NULL, NULL,
	                       NULL, NULL, NULL);
	__cudaRegisterFatBinaryEnd(handle);
	CALL(cudaRuntimeGetVersion(&version));
	if (version != 11080) {
		printf("FAIL: runtime version %d, not 11080\n", version);
		return 1;
	}
	for (int i = 0; i < BLOCKS * THREADS; i++)
		in[i] = (uint32_t)i * 3 + 1;
	CALL(cudaMalloc(&din, sizeof in));
	CALL(cudaMalloc(&dout, sizeof out));
	CALL(cudaMemcpy(din, in, sizeof in, HOST_TO_DEVICE));
	CALL(cudaLaunchKernel(&block_sum, (dim3){ BLOCKS, 1, 1 }, (dim3){ THREADS, 1, 1 },
	                      (void *[]){ &din, &dout }, 0, NULL));
	CALL(cudaDeviceSynchronize());
	CALL(cudaMemcpy(out, dout, sizeof out, DEVICE_TO_HOST));
	for (int b = 0; b < BLOCKS; b++) {
		uint32_t want = 0;
		for (int i = 0; i < THREADS; i++)
			want += in[b * THREADS + i];
		wrong += out[b] != want;
	}
	if (wrong) {
		printf("FAIL: %d of %d block sums wrong\n", wrong, BLOCKS);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
