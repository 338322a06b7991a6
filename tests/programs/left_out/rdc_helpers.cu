// The device functions of left_out_rdc: one translates, one needs multimem.red, so the
// kernel in the other translation unit that calls it is left out of the linked code.
#include "left_out.h"

__device__ unsigned plain_mix(unsigned v) { return (v << 3) ^ (v >> 2); }

__device__ unsigned multicast_mix(unsigned *p, unsigned v) {
    multicast_add(p, v);
    return v + 12345u;
}
