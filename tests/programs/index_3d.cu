// 3D grid of 3D blocks: every thread records all of threadIdx/blockIdx/
// blockDim/gridDim (x, y, z) at its linear position; a 3D stencil-free volume
// fill checks the x-fastest linearisation.
#include "test_util.h"

struct Ids { unsigned t[3], b[3], bd[3], gd[3]; };

__global__ void record(Ids *out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    Ids &r = out[(z * ny + y) * nx + x];
    r.t[0] = threadIdx.x; r.t[1] = threadIdx.y; r.t[2] = threadIdx.z;
    r.b[0] = blockIdx.x;  r.b[1] = blockIdx.y;  r.b[2] = blockIdx.z;
    r.bd[0] = blockDim.x; r.bd[1] = blockDim.y; r.bd[2] = blockDim.z;
    r.gd[0] = gridDim.x;  r.gd[1] = gridDim.y;  r.gd[2] = gridDim.z;
}

int main() {
    Checker c;
    const int nx = 13, ny = 10, nz = 9;
    dim3 block(4, 3, 2);
    dim3 grid((nx + 3) / 4, (ny + 2) / 3, (nz + 1) / 2);  // 4 x 4 x 5 blocks, partial at every edge
    const int n = nx * ny * nz;
    Ids *d;
    CHECK(cudaMalloc(&d, n * sizeof(Ids)));
    CHECK(cudaMemset(d, 0xff, n * sizeof(Ids)));
    record<<<grid, block>>>(d, nx, ny, nz);
    CHECK_LAUNCH();
    Ids *h = new Ids[n];
    CHECK(cudaMemcpy(h, d, n * sizeof(Ids), cudaMemcpyDeviceToHost));
    unsigned bd[3] = {block.x, block.y, block.z}, gd[3] = {grid.x, grid.y, grid.z};
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const Ids &r = h[(z * ny + y) * nx + x];
                int pos[3] = {x, y, z};
                for (int k = 0; k < 3; k++) {
                    if (r.t[k] != pos[k] % bd[k] || r.b[k] != pos[k] / bd[k] || r.bd[k] != bd[k] || r.gd[k] != gd[k])
                        c.fail("(%d,%d,%d) dim %d: t=%u b=%u bd=%u gd=%u", x, y, z, k, r.t[k], r.b[k], r.bd[k], r.gd[k]);
                }
            }
    return c.finish();
}
