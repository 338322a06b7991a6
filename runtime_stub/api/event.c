/* Events: completion markers in a stream, with timestamps unless timing is disabled. */
#include "api.h"

CUresult
zc_event_check(CUevent handle)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(handle, ZC_HANDLE_EVENT))
		r = stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a live event", (void *)handle);
	return r;
}

ZC_EXPORT CUresult
cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
	struct zc_context *ctx;
	struct zc_event *e = NULL;
	CUresult r = zc_context_current(&ctx);

	if (r == CUDA_SUCCESS && !phEvent)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phEvent");
	if (r == CUDA_SUCCESS && (Flags & ~(unsigned)CU_EVENT_FLAGS_MASK))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", Flags);
	/* Interprocess events must disable timing, as in CUDA. */
	if (r == CUDA_SUCCESS && (Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "an interprocess event must disable timing");
	if (r == CUDA_SUCCESS && !(e = stub_alloc(sizeof *e)))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "event");
	if (r == CUDA_SUCCESS) {
		e->flags = Flags;
		r = zc_drv->event_create(Flags, &e->drv);
		if (r == CUDA_SUCCESS && !zc_handle_add(e, ZC_HANDLE_EVENT)) {
			zc_drv->event_destroy(e->drv);
			r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "event handle");
		}
		if (r != CUDA_SUCCESS)
			stub_free(e);
	}
	if (r == CUDA_SUCCESS)
		*phEvent = e;
	return TRACE(r, "0x%x -> %p", Flags, r == CUDA_SUCCESS ? (void *)e : NULL);
}

ZC_EXPORT CUresult
cuEventDestroy_v2(CUevent hEvent)
{
	CUresult r = zc_event_check(hEvent);

	if (r == CUDA_SUCCESS) {
		zc_handle_remove(hEvent);
		zc_capture_event_clear(hEvent);
		/* The driver keeps what pending work still needs. */
		r = zc_drv->event_destroy(hEvent->drv);
		stub_free(hEvent);
	}
	return TRACE(r, "%p", (void *)hEvent);
}

static CUresult
record(CUevent event, CUstream handle, unsigned flags, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_event_check(event);

	if (r == CUDA_SUCCESS)
		r = zc_stream_resolve(handle, per_thread, &s);
	if (r == CUDA_SUCCESS && (flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags);
	struct zc_op op = { .kind = ZC_OP_EVENT_RECORD, .event = { event, flags } };
	return r == CUDA_SUCCESS ? zc_stream_submit(s, &op) : r;
}

ZC_EXPORT CUresult
cuEventRecord(CUevent e, CUstream h)
{
	return TRACE(record(e, h, 0, false), "%p, %p", (void *)e, (void *)h);
}

ZC_EXPORT CUresult
cuEventRecord_ptsz(CUevent e, CUstream h)
{
	return TRACE(record(e, h, 0, true), "%p, %p", (void *)e, (void *)h);
}

ZC_EXPORT CUresult
cuEventRecordWithFlags(CUevent e, CUstream h, unsigned int flags)
{
	return TRACE(record(e, h, flags, false), "%p, %p, 0x%x", (void *)e, (void *)h, flags);
}

ZC_EXPORT CUresult
cuEventRecordWithFlags_ptsz(CUevent e, CUstream h, unsigned int flags)
{
	return TRACE(record(e, h, flags, true), "%p, %p, 0x%x", (void *)e, (void *)h, flags);
}

ZC_EXPORT CUresult
cuEventQuery(CUevent hEvent)
{
	CUresult r = zc_event_check(hEvent);

	if (r == CUDA_SUCCESS)
		r = zc_capture_event_refuse(hEvent, "cuEventQuery");
	if (r == CUDA_SUCCESS)
		r = zc_drv->event_query(hEvent->drv);
	return TRACE(r, "%p", (void *)hEvent);
}

ZC_EXPORT CUresult
cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
	CUresult r = zc_event_check(hStart);

	if (r == CUDA_SUCCESS)
		r = zc_event_check(hEnd);
	if (r == CUDA_SUCCESS && !pMilliseconds)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pMilliseconds");
	if (r == CUDA_SUCCESS && ((hStart->flags | hEnd->flags) & CU_EVENT_DISABLE_TIMING))
		r = stub_fail(CUDA_ERROR_INVALID_HANDLE, "an event was created without timing");
	if (r == CUDA_SUCCESS && (!hStart->recorded || !hEnd->recorded))
		r = stub_fail(CUDA_ERROR_INVALID_HANDLE, "an event was never recorded");
	if (r == CUDA_SUCCESS)
		r = zc_drv->event_elapsed(pMilliseconds, hStart->drv, hEnd->drv);
	return TRACE(r, "%p, %p -> %f", (void *)hStart, (void *)hEnd,
	             r == CUDA_SUCCESS ? (double)*pMilliseconds : 0.0);
}

ZC_EXPORT CUresult
cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
	return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}
