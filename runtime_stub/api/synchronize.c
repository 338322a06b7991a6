/* Waiting for work: a context, a stream, an event. Each then prints what GPU code printed
 * (the driver synchronisations of device_output.c) and gives pools' idle memory back
 * (mempool.c), which is why these wait here, above both, rather than with their objects. */
#include "api.h"

ZC_EXPORT CUresult
cuCtxSynchronize_v2(CUcontext ctx)
{
	struct zc_context *c;
	CUresult r = zc_context_resolve(ctx, &c);

	if (r == CUDA_SUCCESS)
		r = zc_capture_allows("synchronizing the context");
	if (r == CUDA_SUCCESS)
		r = zc_capture_context_wait(c);
	if (r == CUDA_SUCCESS)
		r = zc_context_sync(c);
	if (r == CUDA_SUCCESS)
		zc_mempool_sync_point();
	return TRACE(r, "%p", (void *)ctx);
}

ZC_EXPORT CUresult
cuCtxSynchronize(void)
{
	return cuCtxSynchronize_v2(NULL);
}

static CUresult
synchronize(CUstream handle, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS)
		r = zc_capture_refuse(s, "cuStreamSynchronize");
	if (r == CUDA_SUCCESS)
		r = zc_synchronize_stream(s->drv);
	if (r == CUDA_SUCCESS)
		zc_mempool_sync_point();
	return r;
}

ZC_EXPORT CUresult
cuStreamSynchronize(CUstream h)
{
	return TRACE(synchronize(h, false), "%p", (void *)h);
}

ZC_EXPORT CUresult
cuStreamSynchronize_ptsz(CUstream h)
{
	return TRACE(synchronize(h, true), "%p", (void *)h);
}

ZC_EXPORT CUresult
cuEventSynchronize(CUevent hEvent)
{
	CUresult r = zc_event_check(hEvent);

	if (r == CUDA_SUCCESS)
		r = zc_capture_event_refuse(hEvent, "cuEventSynchronize");
	if (r == CUDA_SUCCESS)
		r = zc_synchronize_event(hEvent->drv);
	if (r == CUDA_SUCCESS)
		zc_mempool_sync_point();
	return TRACE(r, "%p", (void *)hEvent);
}
