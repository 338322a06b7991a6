// Device functions called from another translation unit (needs -rdc=true).
#include "shared.h"

__device__ int mix(int v, int k) { return (v * 31) ^ (k << 3); }
__device__ int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
