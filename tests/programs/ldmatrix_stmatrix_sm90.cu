// ldmatrix and stmatrix (inline PTX, m8n8 .b16): x1, x2 and x4, plain and .trans, each
// lane giving the address of one row, the rows scattered over shared memory so that every
// lane's address matters; movmatrix.trans of each fragment ldmatrix gave. Each register a lane ends with (ldmatrix) and each element it
// leaves in memory (stmatrix) is checked against the fragment layout of the PTX ISA: lane l
// holds row l/4, columns 2(l%4) and 2(l%4)+1 of its matrix (with .trans, column l/4, rows
// 2(l%4) and 2(l%4)+1), the lower column (row) in the low half.
#include "test_util.h"

// Row r of matrix m lives in slot (5 * (8m + r) + 3) % 32 of the tile, 16 bytes a slot.
__device__ __host__ inline int slot_of(int m, int r) { return (5 * (8 * m + r) + 3) % 32; }
__device__ __host__ inline uint16_t element(int m, int r, int c) { return (uint16_t)(1000 * m + 10 * r + c + 7); }

// The 32 bits lane l holds of matrix m.
__host__ inline uint32_t expected(int m, int l, bool trans) {
    int a = l / 4, b = 2 * (l % 4);
    uint16_t lo = trans ? element(m, b, a) : element(m, a, b);
    uint16_t hi = trans ? element(m, b + 1, a) : element(m, a, b + 1);
    return lo | (uint32_t)hi << 16;
}

__device__ inline uint32_t row_address(const uint16_t *tile, int matrices) {
    int l = threadIdx.x % 32, m = l / 8;
    if (m >= matrices) m = 0;  // lanes past the matrices give an address the ISA ignores
    return (uint32_t)__cvta_generic_to_shared(tile + 8 * slot_of(m, l % 8));
}

__global__ void load(uint32_t *out) {
    __shared__ alignas(16) uint16_t tile[32 * 8];
    for (int i = threadIdx.x; i < 32 * 8; i += blockDim.x) tile[i] = 0xdead;
    __syncthreads();
    for (int m = 0; m < 4; m++)
        for (int r = threadIdx.x; r < 8; r += blockDim.x)
            for (int c = 0; c < 8; c++) tile[8 * slot_of(m, r) + c] = element(m, r, c);
    __syncthreads();
    uint32_t *o = out + threadIdx.x * 14;
    uint32_t a4 = row_address(tile, 4), a2 = row_address(tile, 2), a1 = row_address(tile, 1);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3]) : "r"(a4));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(o[4]), "=r"(o[5]), "=r"(o[6]), "=r"(o[7]) : "r"(a4));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(o[8]), "=r"(o[9]) : "r"(a2));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(o[10]), "=r"(o[11]) : "r"(a2));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(o[12]) : "r"(a1));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(o[13]) : "r"(a1));
    // movmatrix of the plain x4 fragments: the .trans ones.
    uint32_t *t = out + 32 * 14 + threadIdx.x * 4;
    for (int i = 0; i < 4; i++)
        asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(t[i]) : "r"(o[i]));
}

// Each lane stores the registers expected() says it holds; the tile must then hold every
// element where its matrix's rows are. Two tiles: plain and .trans.
__global__ void store(uint16_t *out, const uint32_t *regs) {
    __shared__ alignas(16) uint16_t tiles[2][32 * 8];
    for (int i = threadIdx.x; i < 2 * 32 * 8; i += blockDim.x) (&tiles[0][0])[i] = 0xdead;
    __syncthreads();
    const uint32_t *r = regs + threadIdx.x * 8;
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(row_address(tiles[0], 4)), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(row_address(tiles[1], 4)), "r"(r[4]), "r"(r[5]), "r"(r[6]), "r"(r[7]) : "memory");
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * 32 * 8; i += blockDim.x) out[i] = (&tiles[0][0])[i];
}

int main() {
    Checker c;
    uint32_t *loaded, *regs;
    uint16_t *stored;
    CHECK(cudaMalloc(&loaded, 32 * 18 * sizeof(uint32_t)));
    CHECK(cudaMalloc(&regs, 32 * 8 * sizeof(uint32_t)));
    CHECK(cudaMalloc(&stored, 2 * 32 * 8 * sizeof(uint16_t)));
    load<<<1, 32>>>(loaded);
    CHECK_LAUNCH();
    static uint32_t got[32 * 18];
    CHECK(cudaMemcpy(got, loaded, sizeof got, cudaMemcpyDeviceToHost));
    // {first register, matrices, trans} of each ldmatrix above
    const struct { int first, n; bool trans; const char *name; } forms[] = {
        {0, 4, false, "x4"}, {4, 4, true, "x4.trans"}, {8, 2, false, "x2"},
        {10, 2, true, "x2.trans"}, {12, 1, false, "x1"}, {13, 1, true, "x1.trans"},
    };
    for (const auto &f : forms)
        for (int l = 0; l < 32; l++)
            for (int m = 0; m < f.n; m++) {
                uint32_t want = expected(m, l, f.trans), have = got[l * 14 + f.first + m];
                if (have != want)
                    c.fail("ldmatrix.%s: lane %d matrix %d holds 0x%08x, want 0x%08x", f.name, l, m, have, want);
            }
    for (int l = 0; l < 32; l++)
        for (int m = 0; m < 4; m++) {
            uint32_t want = expected(m, l, true), have = got[32 * 14 + l * 4 + m];
            if (have != want)
                c.fail("movmatrix.trans: lane %d matrix %d holds 0x%08x, want 0x%08x", l, m, have, want);
        }

    static uint32_t host_regs[32 * 8];
    for (int l = 0; l < 32; l++)
        for (int m = 0; m < 4; m++) {
            host_regs[l * 8 + m] = expected(m, l, false);
            host_regs[l * 8 + 4 + m] = expected(m, l, true);
        }
    CHECK(cudaMemcpy(regs, host_regs, sizeof host_regs, cudaMemcpyHostToDevice));
    store<<<1, 32>>>(stored, regs);
    CHECK_LAUNCH();
    static uint16_t tiles[2 * 32 * 8];
    CHECK(cudaMemcpy(tiles, stored, sizeof tiles, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 2; t++)
        for (int m = 0; m < 4; m++)
            for (int r = 0; r < 8; r++)
                for (int col = 0; col < 8; col++) {
                    uint16_t have = tiles[t * 256 + 8 * slot_of(m, r) + col], want = element(m, r, col);
                    if (have != want)
                        c.fail("stmatrix%s: matrix %d row %d column %d is %u, want %u",
                               t ? ".trans" : "", m, r, col, have, want);
                }
    CHECK(cudaFree(loaded));
    CHECK(cudaFree(regs));
    CHECK(cudaFree(stored));
    return c.finish();
}
