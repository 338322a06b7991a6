// Host interface of vectors.cu; both return 0 on success.
#pragma once
int vectors_axpy(int n, float a, const float *x, const float *y, float *out);
int vectors_state(int out[4]);
