// The kernel driver_probe loads from the fatbin it embeds.
extern "C" __global__ void scale(float *data, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}
