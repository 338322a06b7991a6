// The second TU: its own `table` and its own printf strings.
#include <cstdio>

static __device__ int table[4] = {10, 20, 30, 40};

__device__ int other_tu_value(int i) {
    if (i == 0) printf("other TU: table[0] = %d\n", table[0]);
    return table[i];
}
