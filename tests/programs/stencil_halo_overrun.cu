// A stencil that fetches its halo before testing for the border, as Rodinia's srad does:
// the blocks of the first and last rows read a row before the start and after the end of
// their image (its own allocation, the program's first and largest) and throw those values
// away. On a GPU such reads land in mapped memory and the results are right; they must be
// on every target. Then a read through a pointer no allocation holds fails the launch with
// cudaErrorIllegalAddress, not the process.
#include "test_util.h"

__global__ void blur_rows(const float *image, float *out, int width, int height) {
    __shared__ float north[256], south[256];
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
    int i = row * width + col;
    north[threadIdx.x] = image[i - width];  // before the start on the first row
    south[threadIdx.x] = image[i + width];  // after the end on the last row
    if (row == 0) north[threadIdx.x] = image[i];
    if (row == height - 1) south[threadIdx.x] = image[i];
    __syncthreads();
    out[i] = (north[threadIdx.x] + image[i] + south[threadIdx.x]) / 3.0f;
}

__global__ void read_wild(const float *p, float *out) { out[threadIdx.x] = p[threadIdx.x]; }

int main() {
    Checker c;
    const int width = 1024, height = 1024;
    const size_t n = (size_t)width * height;
    float *image, *out;
    CHECK(cudaMalloc(&image, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    float *host = new float[n], *got = new float[n];
    Lcg rng(7);
    for (size_t i = 0; i < n; i++) host[i] = (float)rng.range(0, 1000);
    CHECK(cudaMemcpy(image, host, n * sizeof(float), cudaMemcpyHostToDevice));
    blur_rows<<<dim3(width / 256, height), 256>>>(image, out, width, height);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, out, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < height; r++)
        for (int col = 0; col < width; col++) {
            size_t i = (size_t)r * width + col;
            float north = r ? host[i - width] : host[i], south = r < height - 1 ? host[i + width] : host[i];
            float want = (north + host[i] + south) / 3.0f;
            if (got[i] != want) c.fail("out[%d][%d] = %g, expected %g", r, col, got[i], want);
        }

    // the context is lost after this: nothing runs on the device afterwards
    read_wild<<<1, 32>>>((const float *)(uintptr_t)0x10, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaErrorIllegalAddress)
        c.fail("a read through 0x10 gave %s, expected cudaErrorIllegalAddress", cudaGetErrorName(e));
    delete[] host;
    delete[] got;
    return c.finish();
}
