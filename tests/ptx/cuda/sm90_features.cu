// Features that newer architectures add: cooperative groups reductions, async copies,
// warp matrix multiply and thread block clusters (guarded per architecture).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <mma.h>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

__global__ void cg_reduce(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int v = cg::reduce(warp, in[block.thread_rank()], cg::plus<int>());
    if (warp.thread_rank() == 0)
        atomicAdd(out, v);
}

__global__ void async_copy(const float4 *src, float4 *dst)
{
    __shared__ float4 stage[128];
#if __CUDA_ARCH__ >= 800
    __pipeline_memcpy_async(&stage[threadIdx.x], &src[threadIdx.x], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
#else
    stage[threadIdx.x] = src[threadIdx.x];
#endif
    __syncthreads();
    dst[threadIdx.x] = stage[127 - threadIdx.x];
}

__global__ void tensor_core(const half *a, const half *b, float *c)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
__global__ void __cluster_dims__(2, 1, 1) cluster_kernel(int *out)
{
#if defined(__CUDA_ARCH__)
    cg::cluster_group cluster = cg::this_cluster();
    out[blockIdx.x] = (int)cluster.block_rank();
    cluster.sync();
#endif
}
#endif

__global__ void __launch_bounds__(256, 2) bounded(float *p)
{
    p[threadIdx.x] = __fdividef(p[threadIdx.x], 3.0f);
}
