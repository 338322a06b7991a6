/* Several devices: whether one reaches another's memory, peer access turned on and off per
 * context, and copies between contexts. Addresses are unified, so a peer copy is a copy;
 * the API layer keeps which peers each context reaches and gives CUDA's errors. */
#include "api.h"

static CUresult
two_devices(CUdevice dev, CUdevice peer)
{
	struct zc_device *d;
	CUresult r = zc_device_get(dev, &d);

	return r == CUDA_SUCCESS ? zc_device_get(peer, &d) : r;
}

static CUresult
can_access(int *can, CUdevice dev, CUdevice peer)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !can)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL canAccessPeer");
	if (r == CUDA_SUCCESS)
		r = two_devices(dev, peer);
	if (r != CUDA_SUCCESS)
		return r;
	*can = 0;  /* a device is not its own peer */
	return dev == peer ? CUDA_SUCCESS : zc_drv->peer_can_access(dev, peer, can);
}

ZC_EXPORT CUresult
cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
	CUresult r = can_access(canAccessPeer, dev, peerDev);

	return TRACE(r, "%d, %d -> %d", dev, peerDev, r == CUDA_SUCCESS ? *canAccessPeer : 0);
}

enum {
	CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK = 1,
	CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED = 2,
	CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED = 3,
	CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED = 4,
};

ZC_EXPORT CUresult
cuDeviceGetP2PAttribute(int *value, int attrib, CUdevice srcDevice, CUdevice dstDevice)
{
	int can = 0;
	CUresult r = can_access(&can, srcDevice, dstDevice);

	if (r == CUDA_SUCCESS && !value)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL value");
	if (r == CUDA_SUCCESS && srcDevice == dstDevice)
		r = stub_fail(CUDA_ERROR_INVALID_DEVICE, "device %d and itself", srcDevice);
	if (r == CUDA_SUCCESS) {
		switch (attrib) {
		case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK: *value = 0; break;
		/* Atomics reach peer memory as they reach the device's own. */
		case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
		case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED: *value = can; break;
		case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED: *value = 0; break;
		default: r = stub_fail(CUDA_ERROR_INVALID_VALUE, "P2P attribute %d", attrib);
		}
	}
	return TRACE(r, "%d, %d, %d -> %d", attrib, srcDevice, dstDevice,
	             r == CUDA_SUCCESS ? *value : 0);
}

/* The current context and the peer's; for turning access on, their devices must reach each
 * other (a device is not its own peer: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, as on an H200). */
static CUresult
peer_pair(CUcontext peer, struct zc_context **ctx, unsigned flags, bool reach)
{
	CUresult r = zc_context_current(ctx);
	int can = 0;

	if (r == CUDA_SUCCESS && flags)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags);
	if (r == CUDA_SUCCESS && !peer)
		r = stub_fail(CUDA_ERROR_INVALID_CONTEXT, "NULL peer context");
	if (r == CUDA_SUCCESS && !zc_handle_is(peer, ZC_HANDLE_CONTEXT))
		r = stub_fail(CUDA_ERROR_INVALID_CONTEXT, "%p is not a live context", (void *)peer);
	if (r == CUDA_SUCCESS && peer->device >= 64)
		r = stub_fail(CUDA_ERROR_INVALID_DEVICE, "peer device %d", peer->device);
	if (r != CUDA_SUCCESS || !reach)
		return r;
	r = can_access(&can, (*ctx)->device, peer->device);
	if (r == CUDA_SUCCESS && !can)
		r = stub_fail(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "device %d cannot reach device %d",
		              (*ctx)->device, peer->device);
	return r;
}

static CUresult
enable(CUcontext peer, unsigned flags)
{
	struct zc_context *ctx;
	CUresult r = peer_pair(peer, &ctx, flags, true);
	uint64_t bit = r == CUDA_SUCCESS ? (uint64_t)1 << peer->device : 0;

	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&ctx->lock);
	if (ctx->peers & bit)
		r = stub_fail(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "device %d already reaches device %d",
		              ctx->device, peer->device);
	else if ((r = zc_drv->peer_enable(ctx->device, peer->device)) == CUDA_SUCCESS)
		ctx->peers |= bit;
	pthread_mutex_unlock(&ctx->lock);
	return r;
}

static CUresult
disable(CUcontext peer)
{
	struct zc_context *ctx;
	CUresult r = peer_pair(peer, &ctx, 0, false);
	uint64_t bit = r == CUDA_SUCCESS ? (uint64_t)1 << peer->device : 0;

	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&ctx->lock);
	if (!(ctx->peers & bit))
		r = stub_fail(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "device %d does not reach device %d",
		              ctx->device, peer->device);
	else if ((r = zc_drv->peer_disable(ctx->device, peer->device)) == CUDA_SUCCESS)
		ctx->peers &= ~bit;
	pthread_mutex_unlock(&ctx->lock);
	return r;
}

ZC_EXPORT CUresult
cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
	return TRACE(enable(peerContext, Flags), "%p, 0x%x", (void *)peerContext, Flags);
}

ZC_EXPORT CUresult
cuCtxDisablePeerAccess(CUcontext peerContext)
{
	return TRACE(disable(peerContext), "%p", (void *)peerContext);
}

static CUresult
peer_copy(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t n,
          CUstream stream, bool per_thread, bool sync)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && (!zc_handle_is(dst_ctx, ZC_HANDLE_CONTEXT) ||
	                          !zc_handle_is(src_ctx, ZC_HANDLE_CONTEXT)))
		r = stub_fail(CUDA_ERROR_INVALID_CONTEXT, "%p or %p is not a live context",
		              (void *)dst_ctx, (void *)src_ctx);
	return r == CUDA_SUCCESS ? zc_copy_device(dst, src, n, stream, per_thread, sync) : r;
}

ZC_EXPORT CUresult
cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
             CUcontext srcContext, size_t ByteCount)
{
	return TRACE(peer_copy(dstDevice, dstContext, srcDevice, srcContext, ByteCount, NULL, false,
	                       true),
	             "0x%llx, %p, 0x%llx, %p, %zu", (unsigned long long)dstDevice, (void *)dstContext,
	             (unsigned long long)srcDevice, (void *)srcContext, ByteCount);
}

ZC_EXPORT CUresult
cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                  CUcontext srcContext, size_t ByteCount)
{
	return TRACE(peer_copy(dstDevice, dstContext, srcDevice, srcContext, ByteCount, NULL, true,
	                       true),
	             "0x%llx, %p, 0x%llx, %p, %zu", (unsigned long long)dstDevice, (void *)dstContext,
	             (unsigned long long)srcDevice, (void *)srcContext, ByteCount);
}

ZC_EXPORT CUresult
cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                  CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
	return TRACE(peer_copy(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream,
	                       false, false),
	             "0x%llx, %p, 0x%llx, %p, %zu, %p", (unsigned long long)dstDevice,
	             (void *)dstContext, (unsigned long long)srcDevice, (void *)srcContext, ByteCount,
	             (void *)hStream);
}

ZC_EXPORT CUresult
cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                       CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
	return TRACE(peer_copy(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream,
	                       true, false),
	             "0x%llx, %p, 0x%llx, %p, %zu, %p", (unsigned long long)dstDevice,
	             (void *)dstContext, (unsigned long long)srcDevice, (void *)srcContext, ByteCount,
	             (void *)hStream);
}
