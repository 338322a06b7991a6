/* Stream capture: while a stream captures, the work given to it becomes nodes of a graph
 * instead of running. Each stream in a capture keeps the nodes its next work depends on;
 * an event recorded in a capturing stream carries that set to the streams that wait for it,
 * which join the capture (fork and join). The calls CUDA deems unsafe during capture, and
 * waiting for a capturing stream, fail as CUDA's do and invalidate the capture; what an
 * H200 answers to each is what tests/programs/graph_capture.cu asserts. */
#include <string.h>

#include "graph.h"

struct zc_capture {
	struct zc_capture *next;  /* in captures */
	unsigned long long id;
	CUstreamCaptureMode mode;
	pthread_t thread;         /* the one that began it */
	struct zc_stream *origin;
	struct zc_graph *graph;
	bool graph_given;         /* cuStreamBeginCaptureToGraph's: kept if the capture cannot begin */
	bool invalidated;
	struct zc_stream **streams;  /* every stream in it */
	size_t nstreams, capacity;
};

/* Guards the captures, their graphs and the capture state of streams and events. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct zc_capture *captures;
static unsigned long long last_id;
static unsigned long last_visit;
static _Thread_local CUstreamCaptureMode thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

static struct zc_capture *
find(unsigned long long id)
{
	for (struct zc_capture *c = captures; c; c = c->next)
		if (c->id == id)
			return c;
	return NULL;
}

static bool
ensure_frontier(struct zc_stream *s, size_t n)
{
	if (n <= s->frontier_capacity)
		return true;
	size_t capacity = n < 8 ? 8 : n * 2;
	struct zc_graph_node **nodes = stub_alloc(capacity * sizeof *nodes);
	CUgraphEdgeData *edges = stub_alloc(capacity * sizeof *edges);

	if (!nodes || !edges) {
		stub_free(nodes);
		stub_free(edges);
		return false;
	}
	if (s->nfrontier)
		memcpy(nodes, s->frontier, s->nfrontier * sizeof *nodes);
	stub_free(s->frontier);
	stub_free(s->frontier_edges);
	s->frontier = nodes;
	s->frontier_edges = edges;
	s->frontier_capacity = capacity;
	return true;
}

/* The stream's next work depends on `nodes` (replace) or on them too (add). */
static CUresult
depend_on(struct zc_stream *s, struct zc_graph_node *const *nodes, size_t n, bool replace)
{
	if (replace)
		s->nfrontier = 0;
	if (!ensure_frontier(s, s->nfrontier + n))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "capture dependencies");
	for (size_t i = 0; i < n; i++) {
		bool known = false;
		for (size_t j = 0; j < s->nfrontier && !known; j++)
			known = s->frontier[j] == nodes[i];
		if (!known)
			s->frontier[s->nfrontier++] = nodes[i];
	}
	return CUDA_SUCCESS;
}

static CUresult
join(struct zc_capture *c, struct zc_stream *s)
{
	if (c->nstreams == c->capacity) {
		size_t capacity = c->capacity ? c->capacity * 2 : 4;
		struct zc_stream **streams = stub_alloc(capacity * sizeof *streams);
		if (!streams)
			return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "capture");
		if (c->nstreams)
			memcpy(streams, c->streams, c->nstreams * sizeof *streams);
		stub_free(c->streams);
		c->streams = streams;
		c->capacity = capacity;
	}
	c->streams[c->nstreams++] = s;
	s->capture = c;
	s->nfrontier = 0;
	return CUDA_SUCCESS;
}

static void
leave(struct zc_stream *s)
{
	s->capture = NULL;
	s->nfrontier = 0;
	s->frontier_capacity = 0;
	stub_free(s->frontier);
	stub_free(s->frontier_edges);
	s->frontier = NULL;
	s->frontier_edges = NULL;
}

/* Ends the capture: its streams leave it; the graph is the caller's or freed. */
static void
end(struct zc_capture *c, bool keep_graph)
{
	for (struct zc_capture **link = &captures; *link; link = &(*link)->next) {
		if (*link == c) {
			*link = c->next;
			break;
		}
	}
	for (size_t i = 0; i < c->nstreams; i++)
		leave(c->streams[i]);
	if (!keep_graph)  /* a graph given too: an H200 destroys it with the capture */
		zc_graph_free(c->graph);
	stub_free(c->streams);
	stub_free(c);
}

static CUresult
invalidate(struct zc_capture *c, CUresult code, const char *why)
{
	c->invalidated = true;
	return stub_fail(code, "%s: capture %llu is invalidated", why, c->id);
}

CUresult
zc_capture_allows(const char *call)
{
	CUresult r = CUDA_SUCCESS;

	if (thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&lock);
	for (struct zc_capture *c = captures; c; c = c->next) {
		bool own = pthread_equal(c->thread, pthread_self());
		if ((own && c->mode != CU_STREAM_CAPTURE_MODE_RELAXED) ||
		    (!own && c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL &&
		     thread_mode == CU_STREAM_CAPTURE_MODE_GLOBAL))
			r = invalidate(c, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, call);
	}
	pthread_mutex_unlock(&lock);
	return r;
}

/* Invalidates every capture with a stream of ctx (a blocking one, if blocking_only). */
static CUresult
refuse_in_context(struct zc_context *ctx, bool blocking_only, CUresult code, const char *why)
{
	CUresult r = CUDA_SUCCESS;

	if (!captures)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&lock);
	for (struct zc_capture *c = captures; c; c = c->next)
		for (size_t i = 0; i < c->nstreams; i++)
			if (c->streams[i]->ctx == ctx &&
			    !(blocking_only && (c->streams[i]->flags & CU_STREAM_NON_BLOCKING)))
				r = invalidate(c, code, why);
	pthread_mutex_unlock(&lock);
	return r;
}

CUresult
zc_capture_legacy_use(struct zc_context *ctx)
{
	return refuse_in_context(ctx, true, CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
	                         "work for the legacy stream beside a capturing blocking stream");
}

CUresult
zc_capture_context_wait(struct zc_context *ctx)
{
	return refuse_in_context(ctx, false, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
	                         "synchronizing a context with a capturing stream");
}

CUresult
zc_capture_event_refuse(struct zc_event *e, const char *call)
{
	CUresult r = CUDA_SUCCESS;
	struct zc_capture *c;

	if (!e->capture_id)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&lock);
	if ((c = find(e->capture_id)))
		r = invalidate(c, CUDA_ERROR_CAPTURED_EVENT, call);
	pthread_mutex_unlock(&lock);
	return r;
}

CUresult
zc_capture_refuse(struct zc_stream *s, const char *call)
{
	CUresult r = CUDA_SUCCESS;

	pthread_mutex_lock(&lock);
	if (s->capture)
		r = invalidate(s->capture, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, call);
	pthread_mutex_unlock(&lock);
	return r;
}

/* A wait for an event recorded in a capture: the stream joins that capture, after the
 * event's nodes. */
static CUresult
wait_captured(struct zc_stream *s, struct zc_event *e)
{
	struct zc_capture *c = find(e->capture_id);
	CUresult r = CUDA_SUCCESS;

	if (!c)  /* its capture has ended: the record never happened on any stream */
		return CUDA_SUCCESS;
	if (s->capture && s->capture != c) {
		invalidate(c, CUDA_ERROR_STREAM_CAPTURE_MERGE, "merging two captures");
		return invalidate(s->capture, CUDA_ERROR_STREAM_CAPTURE_MERGE, "merging two captures");
	}
	if (c->invalidated)
		return stub_fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "capture %llu", c->id);
	if (!s->capture)
		r = join(c, s);
	return r == CUDA_SUCCESS ? depend_on(s, e->capture_nodes, e->ncapture_nodes, false) : r;
}

static CUresult
record_captured(struct zc_stream *s, struct zc_event *e)
{
	struct zc_graph_node **nodes = NULL;

	if (s->nfrontier && !(nodes = stub_alloc(s->nfrontier * sizeof *nodes)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "captured event");
	if (s->nfrontier)
		memcpy(nodes, s->frontier, s->nfrontier * sizeof *nodes);
	stub_free(e->capture_nodes);
	e->capture_nodes = nodes;
	e->ncapture_nodes = s->nfrontier;
	e->capture_id = s->capture->id;
	return CUDA_SUCCESS;
}

static CUresult
add_node(struct zc_stream *s, const struct zc_op *op)
{
	struct zc_graph_node *n;
	CUresult r = zc_graph_add_op(s->capture->graph, op, s->frontier, s->nfrontier, &n);

	return r == CUDA_SUCCESS ? depend_on(s, &n, 1, true) : r;
}

CUresult
zc_capture_op(struct zc_stream *s, const struct zc_op *op)
{
	CUresult r;

	pthread_mutex_lock(&lock);
	if (op->kind == ZC_OP_EVENT_WAIT && op->event.event->capture_id)
		r = wait_captured(s, op->event.event);
	else if (s->capture->invalidated)
		r = stub_fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "capture %llu", s->capture->id);
	else if (op->kind == ZC_OP_EVENT_RECORD && !(op->event.flags & CU_EVENT_RECORD_EXTERNAL))
		r = record_captured(s, op->event.event);
	else if (op->kind == ZC_OP_EVENT_WAIT && !(op->event.flags & CU_EVENT_WAIT_EXTERNAL))
		r = invalidate(s->capture, CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
		               "a capturing stream waits for an event recorded outside the capture");
	else
		r = add_node(s, op);
	pthread_mutex_unlock(&lock);
	return r;
}

CUresult
zc_capture_alloc(struct zc_stream *s, size_t bytes, CUdeviceptr *dptr)
{
	CUDA_MEM_ALLOC_NODE_PARAMS params = {
		.poolProps = { .allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
		               .location = { CU_MEM_LOCATION_TYPE_DEVICE, s->ctx->device } },
		.bytesize = bytes,
	};
	struct zc_graph_node *n;
	CUresult r;

	pthread_mutex_lock(&lock);
	r = s->capture->invalidated
	        ? stub_fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "capture %llu", s->capture->id)
	        : zc_graph_add_alloc(s->capture->graph, s->frontier, s->nfrontier, &params, &n);
	if (r == CUDA_SUCCESS && (r = depend_on(s, &n, 1, true)) == CUDA_SUCCESS)
		*dptr = params.dptr;
	pthread_mutex_unlock(&lock);
	return r;
}

CUresult
zc_capture_free(struct zc_stream *s, CUdeviceptr ptr)
{
	struct zc_graph_node *n;
	CUresult r;

	pthread_mutex_lock(&lock);
	r = s->capture->invalidated
	        ? stub_fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "capture %llu", s->capture->id)
	        : zc_graph_add_free(s->capture->graph, s->frontier, s->nfrontier, ptr, &n);
	if (r == CUDA_SUCCESS)
		r = depend_on(s, &n, 1, true);
	pthread_mutex_unlock(&lock);
	return r;
}

void
zc_capture_stream_gone(struct zc_stream *s)
{
	pthread_mutex_lock(&lock);
	struct zc_capture *c = s->capture;
	if (c) {
		for (size_t i = 0; i < c->nstreams; i++)
			if (c->streams[i] == s)
				c->streams[i] = c->streams[--c->nstreams];
		if (c->origin == s)
			end(c, false);
		leave(s);
	}
	pthread_mutex_unlock(&lock);
}

void
zc_capture_event_clear(struct zc_event *e)
{
	if (!e->capture_id)
		return;
	pthread_mutex_lock(&lock);
	stub_free(e->capture_nodes);
	e->capture_nodes = NULL;
	e->ncapture_nodes = 0;
	e->capture_id = 0;
	pthread_mutex_unlock(&lock);
}

/* ---- the API ------------------------------------------------------------------ */

/* A capture into a new graph, or (cuStreamBeginCaptureToGraph) into `graph`, its first
 * work depending on `deps`, nodes of that graph. */
static CUresult
begin(CUstream handle, CUstreamCaptureMode mode, bool per_thread, struct zc_graph *graph,
      struct zc_graph_node *const *deps, const CUgraphEdgeData *edges, size_t ndeps)
{
	struct zc_stream *s;
	struct zc_capture *c;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r != CUDA_SUCCESS)
		return r;
	if ((unsigned)mode > CU_STREAM_CAPTURE_MODE_RELAXED)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "capture mode %d", (int)mode);
	if (s->kind == ZC_STREAM_LEGACY)
		return stub_fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "the legacy stream cannot capture");
	if (graph && (r = zc_graph_check(graph)) != CUDA_SUCCESS)
		return r;
	if (ndeps && !deps)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL dependencies");
	for (size_t i = 0; i < ndeps; i++)
		if (!graph || !zc_graph_has(graph, deps[i]))
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "dependency %p is not a node of graph %p",
			                 (void *)deps[i], (void *)graph);
	if ((r = zc_graph_default_edges(edges, ndeps)) != CUDA_SUCCESS)
		return r;
	if (!(c = stub_alloc(sizeof *c)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "capture");
	c->graph = graph;
	c->graph_given = graph != NULL;
	if (!graph && (r = zc_graph_new(&c->graph)) != CUDA_SUCCESS) {
		stub_free(c);
		return r;
	}
	pthread_mutex_lock(&lock);
	if (s->capture) {
		r = stub_fail(CUDA_ERROR_ILLEGAL_STATE, "stream %p already captures", (void *)s);
	} else {
		c->id = ++last_id;
		c->mode = mode;
		c->thread = pthread_self();
		c->origin = s;
		r = join(c, s);
		if (r == CUDA_SUCCESS)
			r = depend_on(s, deps, ndeps, true);
	}
	if (r == CUDA_SUCCESS) {
		c->next = captures;
		captures = c;
	} else {
		if (s->capture == c)
			leave(s);
		if (!c->graph_given)
			zc_graph_free(c->graph);
		stub_free(c->streams);
		stub_free(c);
	}
	pthread_mutex_unlock(&lock);
	return r;
}

/* CUDA 10.0's form, before capture had modes: global. */
ZC_EXPORT CUresult
cuStreamBeginCapture(CUstream hStream)
{
	return TRACE(begin(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL, false, NULL, NULL, NULL, 0), "%p",
	             (void *)hStream);
}

ZC_EXPORT CUresult
cuStreamBeginCapture_ptsz(CUstream hStream)
{
	return TRACE(begin(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL, true, NULL, NULL, NULL, 0), "%p",
	             (void *)hStream);
}

ZC_EXPORT CUresult
cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
	return TRACE(begin(hStream, mode, false, NULL, NULL, NULL, 0), "%p, %d", (void *)hStream,
	             (int)mode);
}

ZC_EXPORT CUresult
cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode)
{
	return TRACE(begin(hStream, mode, true, NULL, NULL, NULL, 0), "%p, %d", (void *)hStream,
	             (int)mode);
}

#define BEGIN_TO_GRAPH_ARGS                                                                  \
	CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies,                       \
	    const CUgraphEdgeData *dependencyData, size_t numDependencies, CUstreamCaptureMode mode

ZC_EXPORT CUresult
cuStreamBeginCaptureToGraph(BEGIN_TO_GRAPH_ARGS)
{
	return TRACE(begin(hStream, mode, false, hGraph, dependencies, dependencyData,
	                   numDependencies),
	             "%p, %p, %zu, %d", (void *)hStream, (void *)hGraph, numDependencies, (int)mode);
}

ZC_EXPORT CUresult
cuStreamBeginCaptureToGraph_ptsz(BEGIN_TO_GRAPH_ARGS)
{
	return TRACE(begin(hStream, mode, true, hGraph, dependencies, dependencyData,
	                   numDependencies),
	             "%p, %p, %zu, %d", (void *)hStream, (void *)hGraph, numDependencies, (int)mode);
}

/* Whether every node the other streams of c would run next is one the origin's next work
 * waits for: a stream that forked and never joined back leaves work nobody waits for. */
static bool
joined(const struct zc_capture *c)
{
	struct zc_graph_node **stack;
	size_t depth = 0;
	const struct zc_stream *o = c->origin;

	if (!(stack = stub_alloc((c->graph->count + 1) * sizeof *stack)))
		return false;
	last_visit++;
	for (size_t i = 0; i < o->nfrontier; i++) {
		o->frontier[i]->visit = last_visit;
		stack[depth++] = o->frontier[i];
	}
	while (depth) {
		struct zc_graph_node *n = stack[--depth];
		for (size_t i = 0; i < n->ndeps; i++) {
			if (n->deps[i]->visit != last_visit) {
				n->deps[i]->visit = last_visit;
				stack[depth++] = n->deps[i];
			}
		}
	}
	stub_free(stack);
	for (size_t i = 0; i < c->nstreams; i++)
		for (size_t j = 0; j < c->streams[i]->nfrontier; j++)
			if (c->streams[i]->frontier[j]->visit != last_visit)
				return false;
	return true;
}

static CUresult
end_capture(CUstream handle, CUgraph *graph, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && !graph)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phGraph");
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&lock);
	struct zc_capture *c = s->capture;
	if (!c)
		r = stub_fail(CUDA_ERROR_ILLEGAL_STATE, "stream %p is not capturing", (void *)s);
	else if (c->origin != s)
		r = invalidate(c, CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
		               "the capture is ended in a stream other than the one it began in");
	else if (c->mode != CU_STREAM_CAPTURE_MODE_RELAXED && !pthread_equal(c->thread, pthread_self()))
		r = stub_fail(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
		              "capture %llu is ended by a thread other than the one that began it", c->id);
	else if (c->invalidated)
		r = stub_fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "capture %llu", c->id);
	else if (!joined(c))
		r = stub_fail(CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
		              "a stream forked from capture %llu did not join back", c->id);
	if (c && (r == CUDA_SUCCESS || r == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED ||
	          r == CUDA_ERROR_STREAM_CAPTURE_UNJOINED)) {
		*graph = r == CUDA_SUCCESS ? c->graph : NULL;
		end(c, r == CUDA_SUCCESS);
	}
	pthread_mutex_unlock(&lock);
	return r;
}

ZC_EXPORT CUresult
cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
	return TRACE(end_capture(hStream, phGraph, false), "%p", (void *)hStream);
}

ZC_EXPORT CUresult
cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph)
{
	return TRACE(end_capture(hStream, phGraph, true), "%p", (void *)hStream);
}

/* Only the status is meaningful when the stream is not capturing; the rest is cleared. */
static CUresult
capture_info(CUstream handle, bool per_thread, int *status, unsigned long long *id, void **graph,
             const void **deps, const void **edges, size_t *ndeps)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && !status)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL capture status");
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&lock);
	struct zc_capture *c = s->capture;
	*status = !c ? CU_STREAM_CAPTURE_STATUS_NONE
	          : c->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
	                           : CU_STREAM_CAPTURE_STATUS_ACTIVE;
	if (id)
		*id = c ? c->id : 0;
	if (graph)
		*graph = c ? c->graph : NULL;
	if (deps)
		*deps = c ? s->frontier : NULL;
	if (edges)
		*edges = c ? s->frontier_edges : NULL;
	if (ndeps)
		*ndeps = c ? s->nfrontier : 0;
	pthread_mutex_unlock(&lock);
	return CUDA_SUCCESS;
}

#define CAPTURE_INFO(name, per_thread, params, ...)                                          \
	ZC_EXPORT CUresult name params                                                           \
	{                                                                                        \
		return TRACE(capture_info(h, per_thread, status, __VA_ARGS__), "%p", (void *)h);     \
	}
CAPTURE_INFO(cuStreamIsCapturing, false, (CUstream h, int *status), NULL, NULL, NULL, NULL, NULL)
CAPTURE_INFO(cuStreamIsCapturing_ptsz, true, (CUstream h, int *status), NULL, NULL, NULL, NULL, NULL)
CAPTURE_INFO(cuStreamGetCaptureInfo, false, (CUstream h, int *status, unsigned long long *id), id,
             NULL, NULL, NULL, NULL)
CAPTURE_INFO(cuStreamGetCaptureInfo_ptsz, true, (CUstream h, int *status, unsigned long long *id),
             id, NULL, NULL, NULL, NULL)
CAPTURE_INFO(cuStreamGetCaptureInfo_v2, false, (CUstream h, int *status, unsigned long long *id,
             void **graph, const void **deps, size_t *ndeps), id, graph, deps, NULL, ndeps)
CAPTURE_INFO(cuStreamGetCaptureInfo_v2_ptsz, true, (CUstream h, int *status,
             unsigned long long *id, void **graph, const void **deps, size_t *ndeps), id, graph,
             deps, NULL, ndeps)
CAPTURE_INFO(cuStreamGetCaptureInfo_v3, false, (CUstream h, int *status, unsigned long long *id,
             void **graph, const void **deps, const void **edges, size_t *ndeps), id, graph, deps,
             edges, ndeps)
CAPTURE_INFO(cuStreamGetCaptureInfo_v3_ptsz, true, (CUstream h, int *status,
             unsigned long long *id, void **graph, const void **deps, const void **edges,
             size_t *ndeps), id, graph, deps, edges, ndeps)
#undef CAPTURE_INFO

static CUresult
update_dependencies(CUstream handle, CUgraphNode *nodes, const CUgraphEdgeData *edges, size_t n,
                    unsigned flags, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = zc_stream_resolve(handle, per_thread, &s);

	if (r == CUDA_SUCCESS && flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags);
	if (r == CUDA_SUCCESS && n && !nodes)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL dependencies");
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&lock);
	if (!s->capture)
		r = stub_fail(CUDA_ERROR_ILLEGAL_STATE, "stream %p is not capturing", (void *)s);
	for (size_t i = 0; r == CUDA_SUCCESS && i < n; i++)
		if (!zc_graph_has(s->capture->graph, nodes[i]))
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%p is not a node of the capture",
			              (void *)nodes[i]);
	if (r == CUDA_SUCCESS)
		r = zc_graph_default_edges(edges, n);
	if (r == CUDA_SUCCESS)
		r = depend_on(s, nodes, n, flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES);
	pthread_mutex_unlock(&lock);
	return r;
}

ZC_EXPORT CUresult
cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode *dependencies,
                                  size_t numDependencies, unsigned int flags)
{
	return TRACE(update_dependencies(hStream, dependencies, NULL, numDependencies, flags, false),
	             "%p, %zu, 0x%x", (void *)hStream, numDependencies, flags);
}

ZC_EXPORT CUresult
cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                       size_t numDependencies, unsigned int flags)
{
	return TRACE(update_dependencies(hStream, dependencies, NULL, numDependencies, flags, true),
	             "%p, %zu, 0x%x", (void *)hStream, numDependencies, flags);
}

ZC_EXPORT CUresult
cuStreamUpdateCaptureDependencies_v2(CUstream hStream, CUgraphNode *dependencies,
                                     const CUgraphEdgeData *dependencyData,
                                     size_t numDependencies, unsigned int flags)
{
	return TRACE(update_dependencies(hStream, dependencies, dependencyData, numDependencies,
	                                 flags, false),
	             "%p, %zu, 0x%x", (void *)hStream, numDependencies, flags);
}

ZC_EXPORT CUresult
cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hStream, CUgraphNode *dependencies,
                                          const CUgraphEdgeData *dependencyData,
                                          size_t numDependencies, unsigned int flags)
{
	return TRACE(update_dependencies(hStream, dependencies, dependencyData, numDependencies,
	                                 flags, true),
	             "%p, %zu, 0x%x", (void *)hStream, numDependencies, flags);
}

ZC_EXPORT CUresult
cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
	CUresult r = CUDA_SUCCESS;

	if (!mode || (unsigned)*mode > CU_STREAM_CAPTURE_MODE_RELAXED)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL or unknown capture mode");
	if (r == CUDA_SUCCESS) {
		CUstreamCaptureMode previous = thread_mode;
		thread_mode = *mode;
		*mode = previous;
	}
	return TRACE(r, "-> %d", mode ? (int)*mode : -1);
}
