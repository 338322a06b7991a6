/* User objects: a pointer and the destructor that frees it, reference-counted by the
 * program and by the graphs that hold them, so that resources a graph's work uses live
 * as long as any graph, executable graph or launch of one still needs them. The
 * destructor runs where the last reference goes: in the releasing call, or on the stream
 * at the end of the launch that held it last (CUDA runs it on a thread of its own; it may
 * call no CUDA function in either case). */
#include <stdatomic.h>
#include <string.h>

#include "graph.h"

struct zc_user_object {
	void *ptr;
	CUhostFn destroy;
	atomic_uint refs;
};

static CUresult
live_object(CUuserObject o)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(o, ZC_HANDLE_USER_OBJECT))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%p is not a live user object", (void *)o);
	return r;
}

static void
retain(struct zc_user_object *o, unsigned count)
{
	atomic_fetch_add(&o->refs, count);
}

static void
release(struct zc_user_object *o, unsigned count)
{
	if (atomic_fetch_sub(&o->refs, count) != count)
		return;
	zc_handle_remove(o);
	o->destroy(o->ptr);
	stub_free(o);
}

ZC_EXPORT CUresult
cuUserObjectCreate(CUuserObject *object_out, void *ptr, CUhostFn destroy,
                   unsigned int initialRefcount, unsigned int flags)
{
	struct zc_user_object *o = NULL;
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && (!object_out || !destroy || !initialRefcount ||
	                          flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE,
		              "NULL object_out or destroy, a count of 0, or flags 0x%x", flags);
	if (r == CUDA_SUCCESS && !(o = stub_alloc(sizeof *o)))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "user object");
	if (r == CUDA_SUCCESS && !zc_handle_add(o, ZC_HANDLE_USER_OBJECT)) {
		stub_free(o);
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "user object handle");
	}
	if (r == CUDA_SUCCESS) {
		o->ptr = ptr;
		o->destroy = destroy;
		atomic_init(&o->refs, initialRefcount);
		*object_out = o;
	}
	return TRACE(r, "%p, %u -> %p", ptr, initialRefcount, r == CUDA_SUCCESS ? (void *)o : NULL);
}

ZC_EXPORT CUresult
cuUserObjectRetain(CUuserObject object, unsigned int count)
{
	CUresult r = live_object(object);

	if (r == CUDA_SUCCESS && !count)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a count of 0");
	if (r == CUDA_SUCCESS)
		retain(object, count);
	return TRACE(r, "%p, %u", (void *)object, count);
}

ZC_EXPORT CUresult
cuUserObjectRelease(CUuserObject object, unsigned int count)
{
	CUresult r = live_object(object);

	if (r == CUDA_SUCCESS && !count)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a count of 0");
	if (r == CUDA_SUCCESS)
		release(object, count);
	return TRACE(r, "%p, %u", (void *)object, count);
}

/* ---- what graphs hold ---------------------------------------------------------- */

static struct zc_user_reference *
reference_of(struct zc_graph *g, const struct zc_user_object *o)
{
	for (size_t i = 0; i < g->nreferences; i++)
		if (g->references[i].object == o)
			return &g->references[i];
	return NULL;
}

static CUresult
add_reference(struct zc_graph *g, struct zc_user_object *o, unsigned count)
{
	struct zc_user_reference *ref = reference_of(g, o), *more;

	if (!ref) {
		if (!(more = stub_alloc((g->nreferences + 1) * sizeof *more)))
			return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "user object reference");
		if (g->nreferences)
			memcpy(more, g->references, g->nreferences * sizeof *more);
		stub_free(g->references);
		g->references = more;
		ref = &more[g->nreferences++];
		*ref = (struct zc_user_reference){ o, 0 };
	}
	ref->count += count;
	return CUDA_SUCCESS;
}

CUresult
zc_graph_copy_references(struct zc_graph *to, const struct zc_graph *from)
{
	CUresult r = CUDA_SUCCESS;

	for (size_t i = 0; r == CUDA_SUCCESS && i < from->nreferences; i++) {
		const struct zc_user_reference *ref = &from->references[i];
		if ((r = add_reference(to, ref->object, ref->count)) == CUDA_SUCCESS)
			retain(ref->object, ref->count);
	}
	return r;
}

void
zc_graph_drop_references(struct zc_graph *g)
{
	for (size_t i = 0; i < g->nreferences; i++)
		release(g->references[i].object, g->references[i].count);
	stub_free(g->references);
	g->references = NULL;
	g->nreferences = 0;
}

static CUresult
hold_all(struct zc_graph *hold, const struct zc_graph *g)
{
	CUresult r = zc_graph_copy_references(hold, g);

	for (size_t i = 0; r == CUDA_SUCCESS && i < g->count; i++)
		if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_GRAPH)
			r = hold_all(hold, g->nodes[i]->child);
	return r;
}

static void
let_go(void *hold)
{
	zc_graph_drop_references(hold);
	stub_free(hold);
}

CUresult
zc_graph_hold_references(const struct zc_graph *g, struct zc_stream *s)
{
	struct zc_graph *hold = stub_alloc(sizeof *hold);
	CUresult r = hold ? hold_all(hold, g) : stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph launch");

	if (r == CUDA_SUCCESS && !hold->nreferences) {
		stub_free(hold);
		return CUDA_SUCCESS;
	}
	if (r == CUDA_SUCCESS)
		r = zc_stream_submit(s, &(struct zc_op){ .kind = ZC_OP_HOST, .host = { let_go, hold } });
	if (r != CUDA_SUCCESS && hold)
		let_go(hold);
	return r;
}

ZC_EXPORT CUresult
cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count,
                        unsigned int flags)
{
	CUresult r = zc_graph_check(graph);

	if (r == CUDA_SUCCESS)
		r = live_object(object);
	if (r == CUDA_SUCCESS && (!count || (flags & ~(unsigned)CU_GRAPH_USER_OBJECT_MOVE)))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a count of 0 or flags 0x%x", flags);
	if (r == CUDA_SUCCESS)
		r = add_reference(graph, object, count);
	if (r == CUDA_SUCCESS && !(flags & CU_GRAPH_USER_OBJECT_MOVE))
		retain(object, count);
	return TRACE(r, "%p, %p, %u, 0x%x", (void *)graph, (void *)object, count, flags);
}

ZC_EXPORT CUresult
cuGraphReleaseUserObject(CUgraph graph, CUuserObject object, unsigned int count)
{
	CUresult r = zc_graph_check(graph);
	struct zc_user_reference *ref = NULL;

	if (r == CUDA_SUCCESS)
		r = live_object(object);
	if (r == CUDA_SUCCESS && !count)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a count of 0");
	if (r == CUDA_SUCCESS && (!(ref = reference_of(graph, object)) || ref->count < count))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "graph %p holds %u references to %p, not %u",
		              (void *)graph, ref ? ref->count : 0, (void *)object, count);
	if (r == CUDA_SUCCESS) {
		ref->count -= count;
		if (!ref->count)
			*ref = graph->references[--graph->nreferences];
		release(object, count);
	}
	return TRACE(r, "%p, %p, %u", (void *)graph, (void *)object, count);
}
