// Pitched and 3D memory: cudaMallocPitch + cudaMemcpy2D (host->device with a
// host pitch wider than the row, device->device between different pitches,
// device->host of a sub-rectangle), cudaMemset2D, cudaMalloc3D +
// cudaMemcpy3D (host->device and back, with an offset box), cudaMemset3D,
// and a kernel that addresses rows through the pitch.
#include "test_util.h"

__global__ void add_row_index(char *base, size_t pitch, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) ((int *)(base + y * pitch))[x] += y * 1000;
}

int main() {
    Checker c;
    const int w = 37, h = 19, hpitch_elems = 40;  // host rows are 40 ints, 37 used
    int *host = new int[hpitch_elems * h], *back = new int[w * h];
    for (int i = 0; i < hpitch_elems * h; i++) host[i] = i;
    int *dp, *dq; size_t pitch, qpitch;
    CHECK(cudaMallocPitch((void **)&dp, &pitch, w * sizeof(int), h));
    CHECK(cudaMallocPitch((void **)&dq, &qpitch, (w + 100) * sizeof(int), h));
    if (pitch < w * sizeof(int)) c.fail("pitch %zu too small", pitch);
    CHECK(cudaMemset2D(dp, pitch, 0xff, pitch, h));
    CHECK(cudaMemcpy2D(dp, pitch, host, hpitch_elems * sizeof(int), w * sizeof(int), h, cudaMemcpyHostToDevice));
    add_row_index<<<dim3((w + 31) / 32, h), 32>>>((char *)dp, pitch, w, h);
    CHECK_LAUNCH();
    CHECK(cudaMemset2D(dq, qpitch, 0, qpitch, h));
    CHECK(cudaMemcpy2D(dq, qpitch, dp, pitch, w * sizeof(int), h, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy2D(back, w * sizeof(int), dq, qpitch, w * sizeof(int), h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (back[y * w + x] != host[y * hpitch_elems + x] + y * 1000) c.fail("2D (%d,%d) = %d", x, y, back[y * w + x]);
    // Sub-rectangle 5x4 starting at (3, 2), and memset of a sub-rectangle.
    int sub[4][5];
    CHECK(cudaMemcpy2D(sub, 5 * sizeof(int), (char *)dq + 2 * qpitch + 3 * sizeof(int), qpitch, 5 * sizeof(int), 4, cudaMemcpyDeviceToHost));
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 5; x++)
            if (sub[y][x] != host[(y + 2) * hpitch_elems + x + 3] + (y + 2) * 1000) c.fail("sub-rect (%d,%d)", x, y);
    CHECK(cudaMemset2D((char *)dq + qpitch, qpitch, 0x01, 3 * sizeof(int), 2));  // rows 1-2, first 3 ints
    int row1[w];
    CHECK(cudaMemcpy(row1, (char *)dq + qpitch, sizeof row1, cudaMemcpyDeviceToHost));
    for (int x = 0; x < w; x++) {
        int want = x < 3 ? 0x01010101 : host[hpitch_elems + x] + 1000;
        if (row1[x] != want) c.fail("memset2D row 1 x %d = %#x", x, row1[x]);
    }

    // 3D: 9 x 7 x 5 volume of shorts.
    const int X = 9, Y = 7, Z = 5;
    short vol[Z][Y][X], vback[Z][Y][X];
    for (int z = 0; z < Z; z++) for (int y = 0; y < Y; y++) for (int x = 0; x < X; x++) vol[z][y][x] = (short)(z * 100 + y * 10 + x);
    cudaExtent ext = make_cudaExtent(X * sizeof(short), Y, Z);
    cudaPitchedPtr dv;
    CHECK(cudaMalloc3D(&dv, ext));
    CHECK(cudaMemset3D(dv, 0, ext));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(vol, X * sizeof(short), X, Y);
    p.dstPtr = dv;
    p.extent = ext;
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    // Fill an inner box (x 2..5, y 1..3, z 1..2) with 0x7f7f.
    cudaPitchedPtr inner = dv;
    inner.ptr = (char *)dv.ptr + 1 * dv.pitch * Y + 1 * dv.pitch + 2 * sizeof(short);
    CHECK(cudaMemset3D(inner, 0x7f, make_cudaExtent(4 * sizeof(short), 3, 2)));
    cudaMemcpy3DParms q = {};
    q.srcPtr = dv;
    q.dstPtr = make_cudaPitchedPtr(vback, X * sizeof(short), X, Y);
    q.extent = ext;
    q.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&q));
    for (int z = 0; z < Z; z++) for (int y = 0; y < Y; y++) for (int x = 0; x < X; x++) {
        bool in_box = x >= 2 && x <= 5 && y >= 1 && y <= 3 && z >= 1 && z <= 2;
        short want = in_box ? (short)0x7f7f : vol[z][y][x];
        if (vback[z][y][x] != want) c.fail("3D (%d,%d,%d) = %d want %d", x, y, z, vback[z][y][x], want);
    }
    // 3D copy of a box with offsets on both sides: device volume -> host box.
    short box[2][3][4];
    cudaMemcpy3DParms r = {};
    r.srcPtr = dv; r.srcPos = make_cudaPos(1 * sizeof(short), 2, 3);
    r.dstPtr = make_cudaPitchedPtr(box, 4 * sizeof(short), 4, 3);
    r.extent = make_cudaExtent(4 * sizeof(short), 3, 2);
    r.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&r));
    for (int z = 0; z < 2; z++) for (int y = 0; y < 3; y++) for (int x = 0; x < 4; x++)
        if (box[z][y][x] != vback[z + 3][y + 2][x + 1]) c.fail("3D box (%d,%d,%d)", x, y, z);
    return c.finish();
}
