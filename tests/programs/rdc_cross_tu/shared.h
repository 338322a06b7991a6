// Declarations shared by the three translation units of rdc_cross_tu.
#pragma once
#define TABLE_SIZE 16
extern __device__ int processed;             // defined in globals.cu
extern __constant__ int table[TABLE_SIZE];   // defined in globals.cu
__device__ int mix(int v, int k);            // defined in math_dev.cu
__device__ int gcd(int a, int b);            // defined in math_dev.cu (recursive)
void reset_processed();                      // host, globals.cu
// Host references for the device functions.
inline int host_mix(int v, int k) { return (v * 31) ^ (k << 3); }
inline int host_gcd(int a, int b) { return b == 0 ? a : host_gcd(b, a % b); }
