/* Occupancy: how many blocks of a kernel fit on one multiprocessor at once, from the
 * device's limits (the CPU driver's own, or the real device's through HIP) and what each
 * block of the kernel takes: threads, whole warps of registers, shared memory. The same
 * arithmetic as CUDA's occupancy calculator, with every kernel at ZC_REGS_PER_THREAD. */
#include "api.h"

enum { WARP = 32 };

static size_t
round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/* Blocks of `threads` threads, each with `dynamic` bytes of dynamic shared memory; 0 when
 * one such block cannot run at all. */
static int
blocks_per_sm(const struct zc_device_info *i, const struct zc_function *f, int threads,
              size_t dynamic)
{
	size_t warps = round_up((size_t)threads, WARP);
	size_t shared = f->static_shared + dynamic;
	size_t blocks = (size_t)i->max_blocks_per_sm, by;

	if (threads < 1 || (uint32_t)threads > f->max_threads || dynamic > f->max_dynamic_shared ||
	    shared > (size_t)i->shared_per_block_optin)
		return 0;
	by = (size_t)i->max_threads_per_sm / warps;
	blocks = by < blocks ? by : blocks;
	by = (size_t)i->regs_per_sm / (warps * ZC_REGS_PER_THREAD);
	blocks = by < blocks ? by : blocks;
	if (shared) {
		by = (size_t)i->shared_per_sm / shared;
		blocks = by < blocks ? by : blocks;
	}
	return (int)blocks;
}

static CUresult
device_of(CUfunction f, const struct zc_device_info **info)
{
	struct zc_device *dev;
	CUresult r = zc_function_check(f);

	if (r == CUDA_SUCCESS)
		r = zc_device_get(f->library->device, &dev);
	if (r == CUDA_SUCCESS)
		*info = &dev->info;
	return r;
}

static CUresult
check_flags(unsigned flags)
{
	if (flags & ~(unsigned)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "occupancy flags 0x%x", flags);
	return CUDA_SUCCESS;
}

int
zc_coresident_blocks(const struct zc_function *f, int threads, size_t dynamic)
{
	const struct zc_device_info *info;

	if (device_of((CUfunction)f, &info) != CUDA_SUCCESS)
		return 0;
	return blocks_per_sm(info, f, threads, dynamic) * info->sm_count;
}

static CUresult
max_active_blocks(int *blocks, CUfunction f, int threads, size_t dynamic, unsigned flags)
{
	const struct zc_device_info *info;
	CUresult r = device_of(f, &info);

	if (r == CUDA_SUCCESS)
		r = check_flags(flags);
	if (r == CUDA_SUCCESS && !blocks)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL numBlocks");
	if (r == CUDA_SUCCESS && threads < 1)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "block size %d", threads);
	if (r == CUDA_SUCCESS)
		*blocks = blocks_per_sm(info, f, threads, dynamic);
	return r;
}

ZC_EXPORT CUresult
cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                     int blockSize, size_t dynamicSMemSize,
                                                     unsigned int flags)
{
	CUresult r = max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags);

	return TRACE(r, "%p, %d, %zu, %u -> %d", (void *)func, blockSize, dynamicSMemSize, flags,
	             r == CUDA_SUCCESS ? *numBlocks : 0);
}

ZC_EXPORT CUresult
cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                            size_t dynamicSMemSize)
{
	CUresult r = max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, 0);

	return TRACE(r, "%p, %d, %zu -> %d", (void *)func, blockSize, dynamicSMemSize,
	             r == CUDA_SUCCESS ? *numBlocks : 0);
}

/* The block size, in whole warps up to the kernel's and the caller's limits, that keeps the
 * most threads of a multiprocessor busy; the larger one on a tie, as CUDA's calculator.
 * The grid that fills the device with it is the smallest that reaches that occupancy. */
static CUresult
potential_block_size(int *min_grid, int *block, CUfunction f, CUoccupancyB2DSize dynamic_of,
                     size_t dynamic, int limit, unsigned flags)
{
	const struct zc_device_info *info;
	CUresult r = device_of(f, &info);
	int best = 0, best_blocks = 0;

	if (r == CUDA_SUCCESS)
		r = check_flags(flags);
	if (r == CUDA_SUCCESS && (!min_grid || !block))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL minGridSize or blockSize");
	if (r != CUDA_SUCCESS)
		return r;
	int most = (int)f->max_threads;
	if (limit > 0 && limit < most)
		most = limit;
	for (int threads = (int)round_up((size_t)most, WARP); threads > 0; threads -= WARP) {
		int size = threads < most ? threads : most;
		int blocks = blocks_per_sm(info, f, size, dynamic_of ? dynamic_of(size) : dynamic);
		if ((long)blocks * size > (long)best_blocks * best) {
			best = size;
			best_blocks = blocks;
		}
	}
	if (!best)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "%s: no block size fits the device",
		                 f->name);
	*block = best;
	*min_grid = best_blocks * info->sm_count;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                          CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                          size_t dynamicSMemSize, int blockSizeLimit,
                                          unsigned int flags)
{
	CUresult r = potential_block_size(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
	                                  dynamicSMemSize, blockSizeLimit, flags);

	return TRACE(r, "%p, %zu, %d, %u -> %d, %d", (void *)func, dynamicSMemSize, blockSizeLimit,
	             flags, r == CUDA_SUCCESS ? *minGridSize : 0, r == CUDA_SUCCESS ? *blockSize : 0);
}

ZC_EXPORT CUresult
cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                 CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                 size_t dynamicSMemSize, int blockSizeLimit)
{
	CUresult r = potential_block_size(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
	                                  dynamicSMemSize, blockSizeLimit, 0);

	return TRACE(r, "%p, %zu, %d -> %d, %d", (void *)func, dynamicSMemSize, blockSizeLimit,
	             r == CUDA_SUCCESS ? *minGridSize : 0, r == CUDA_SUCCESS ? *blockSize : 0);
}

/* The most dynamic shared memory each of numBlocks blocks can have and still all fit on a
 * multiprocessor together: 0 when their threads or registers alone do not. */
static CUresult
available_dynamic(size_t *bytes, CUfunction f, int nblocks, int threads)
{
	const struct zc_device_info *info;
	CUresult r = device_of(f, &info);

	if (r == CUDA_SUCCESS && !bytes)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL dynamicSmemSize");
	if (r == CUDA_SUCCESS && (nblocks < 1 || threads < 1))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%d blocks of %d threads", nblocks, threads);
	if (r != CUDA_SUCCESS)
		return r;
	*bytes = 0;
	if (blocks_per_sm(info, f, threads, 0) < nblocks)
		return CUDA_SUCCESS;
	size_t per_block = (size_t)info->shared_per_sm / (size_t)nblocks;
	if (per_block > (size_t)info->shared_per_block_optin)
		per_block = (size_t)info->shared_per_block_optin;
	if (per_block > f->static_shared)
		*bytes = per_block - f->static_shared;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func, int numBlocks,
                                        int blockSize)
{
	CUresult r = available_dynamic(dynamicSmemSize, func, numBlocks, blockSize);

	return TRACE(r, "%p, %d, %d -> %zu", (void *)func, numBlocks, blockSize,
	             r == CUDA_SUCCESS ? *dynamicSmemSize : 0);
}
