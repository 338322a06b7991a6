// Managed (unified) memory: cudaMallocManaged buffers written by the host,
// updated by kernels and read back by the host after synchronisation without
// explicit copies; a __managed__ global variable; a linked list built on the
// host in managed memory and walked by a kernel through its pointers.
#include "test_util.h"

__managed__ int managed_total = 0;
struct Node { int value; Node *next; };

__global__ void square_all(int n, long long *v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { v[i] = v[i] * v[i]; atomicAdd(&managed_total, 1); }
}
__global__ void walk(const Node *head, int *sum, int *count) {
    int s = 0, k = 0;
    for (const Node *p = head; p; p = p->next) { s += p->value; k++; }
    *sum = s; *count = k;
}

int main() {
    Checker c;
    const int n = 1000;
    long long *v;
    CHECK(cudaMallocManaged(&v, n * sizeof(long long)));
    for (int i = 0; i < n; i++) v[i] = i - 500;
    managed_total = 5;
    square_all<<<(n + 127) / 128, 128>>>(n, v);
    CHECK_LAUNCH();
    for (int i = 0; i < n; i++) if (v[i] != (long long)(i - 500) * (i - 500)) { c.fail("v[%d] = %lld", i, v[i]); break; }
    if (managed_total != n + 5) c.fail("__managed__ total %d want %d", managed_total, n + 5);
    const int nodes = 50;
    Node *list;
    int *res;
    CHECK(cudaMallocManaged(&list, nodes * sizeof(Node)));
    CHECK(cudaMallocManaged(&res, 2 * sizeof(int)));
    int want = 0;
    for (int i = 0; i < nodes; i++) {
        int j = (i * 17) % nodes;  // a scrambled order through the array
        list[j].value = i * 3 + 1;
        list[j].next = i + 1 < nodes ? &list[((i + 1) * 17) % nodes] : nullptr;
        want += i * 3 + 1;
    }
    walk<<<1, 1>>>(&list[0], res, res + 1);
    CHECK_LAUNCH();
    if (res[0] != want || res[1] != nodes) c.fail("list walk sum %d count %d", res[0], res[1]);
    CHECK(cudaFree(v)); CHECK(cudaFree(list)); CHECK(cudaFree(res));
    return c.finish();
}
