// Indirect calls: a __device__ table of function pointers indexed by data, a
// function pointer fetched to the host with cudaMemcpyFromSymbol and passed
// back as a kernel argument, and virtual functions on objects constructed in
// device code (placement new into local storage).
#include "test_util.h"
#include <new>

typedef int (*op_fn)(int, int);
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_sub(int a, int b) { return a - b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_xor(int a, int b) { return a ^ b; }
__device__ op_fn table[4] = {op_add, op_sub, op_mul, op_xor};
__device__ op_fn exported = op_mul;

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
    __device__ virtual ~Shape() {}
};
struct Rect : Shape {
    float w, h;
    __device__ Rect(float w_, float h_) : w(w_), h(h_) {}
    __device__ float area() const override { return w * h; }
    __device__ int sides() const override { return 4; }
};
struct Tri : Shape {
    float b, h;
    __device__ Tri(float b_, float h_) : b(b_), h(h_) {}
    __device__ float area() const override { return 0.5f * b * h; }
    __device__ int sides() const override { return 3; }
};
struct Circle : Shape {  // keeps the base sides()
    float r;
    __device__ Circle(float r_) : r(r_) {}
    __device__ float area() const override { return 3.0f * r * r; }
};

__global__ void indirect(int n, const int *a, const int *b, int *out, op_fn host_supplied, float *areas, int *sides) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i * 2] = table[(a[i] ^ b[i]) & 3](a[i], b[i]);
    out[i * 2 + 1] = host_supplied(a[i], b[i]);
    alignas(16) char storage[64];  // room for any of the three shapes
    Shape *s;
    switch (i % 3) {
    case 0: s = new (storage) Rect(a[i] & 15, b[i] & 15); break;
    case 1: s = new (storage) Tri(a[i] & 15, b[i] & 15); break;
    default: s = new (storage) Circle(a[i] & 15); break;
    }
    areas[i] = s->area();
    sides[i] = s->sides();
    s->~Shape();
}

int main() {
    Checker c;
    const int n = 300;
    Lcg rng(0xf9);
    int a[n], b[n];
    for (int i = 0; i < n; i++) { a[i] = rng.range(-1000, 1000); b[i] = rng.range(-1000, 1000); }
    op_fn f;
    CHECK(cudaMemcpyFromSymbol(&f, exported, sizeof f));
    int *da, *db, *dout, *dsides; float *dareas;
    CHECK(cudaMalloc(&da, sizeof a)); CHECK(cudaMalloc(&db, sizeof b)); CHECK(cudaMalloc(&dout, n * 8));
    CHECK(cudaMalloc(&dareas, n * 4)); CHECK(cudaMalloc(&dsides, n * 4));
    CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    indirect<<<(n + 63) / 64, 64>>>(n, da, db, dout, f, dareas, dsides);
    CHECK_LAUNCH();
    int out[n * 2], sides[n]; float areas[n];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(areas, dareas, sizeof areas, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sides, dsides, sizeof sides, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int x = a[i], y = b[i], w;
        switch ((x ^ y) & 3) { case 0: w = x + y; break; case 1: w = x - y; break; case 2: w = x * y; break; default: w = x ^ y; }
        if (out[i * 2] != w) c.fail("table call %d: %d want %d", i, out[i * 2], w);
        if (out[i * 2 + 1] != x * y) c.fail("host-supplied pointer call %d", i);
        float p = x & 15, q = y & 15;
        float wa = i % 3 == 0 ? p * q : i % 3 == 1 ? 0.5f * p * q : 3.0f * p * p;
        int ws = i % 3 == 0 ? 4 : i % 3 == 1 ? 3 : 0;
        if (areas[i] != wa || sides[i] != ws) c.fail("virtual call %d: area %g sides %d", i, areas[i], sides[i]);
    }
    return c.finish();
}
