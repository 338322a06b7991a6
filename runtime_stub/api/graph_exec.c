/* Executable graphs: instantiated from a graph as a deep copy with a run order, launched by
 * submitting that order to one stream, updated in place from a graph of the same shape or
 * node by node. A launch that reaches a conditional node waits for the stream's work before
 * it and reads the condition, then submits the body it names: a launch of a graph with
 * conditional nodes returns once the work before the last of them has run. */
#include <stdio.h>
#include <string.h>

#include "graph.h"

static unsigned long last_visit;

/* Kahn's order, ties broken by creation order; children ordered too. A cycle is named.
 * The nodes that depend on each node are listed first (dependents[first[i]..first[i+1]),
 * in creation order), so that taking a node costs its edges alone. */
static CUresult
order(struct zc_graph *g)
{
	size_t n = g->count, edges = 0;
	size_t *waiting = stub_alloc((n + 1) * sizeof *waiting);
	size_t *first = stub_alloc((n + 2) * sizeof *first);
	struct zc_graph_node **run = stub_alloc((n + 1) * sizeof *run);
	struct zc_graph_node **dependents = NULL;
	size_t done = 0;
	CUresult r = CUDA_SUCCESS;

	for (size_t i = 0; i < n; i++)
		edges += g->nodes[i]->ndeps;
	if (waiting && first && run)
		dependents = stub_alloc((edges + 1) * sizeof *dependents);
	if (!dependents) {
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph order");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < g->nodes[i]->ndeps; j++)
			first[g->nodes[i]->deps[j]->index + 2]++;
	for (size_t i = 2; i <= n + 1; i++)
		first[i] += first[i - 1];
	/* first[d + 1] is where the next dependent of d goes; once all are placed, first[d] is
	 * where d's begin. */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < g->nodes[i]->ndeps; j++)
			dependents[first[g->nodes[i]->deps[j]->index + 1]++] = g->nodes[i];
	for (size_t i = 0; i < n; i++)
		if (!(waiting[i] = g->nodes[i]->ndeps))
			run[done++] = g->nodes[i];
	for (size_t taken = 0; taken < done; taken++) {
		size_t t = run[taken]->index;
		for (size_t k = first[t]; k < first[t + 1]; k++)
			if (--waiting[dependents[k]->index] == 0)
				run[done++] = dependents[k];
	}
	if (done < n)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "the graph has a cycle through %zu of its nodes",
		              n - done);
	for (size_t i = 0; r == CUDA_SUCCESS && i < n; i++) {
		const struct zc_graph_node *node = g->nodes[i];

		if (node->type == CU_GRAPH_NODE_TYPE_GRAPH)
			r = order(node->child);
		for (unsigned b = 0; node->type == CU_GRAPH_NODE_TYPE_CONDITIONAL &&
		                     r == CUDA_SUCCESS && b < node->conditional.size; b++)
			r = order(node->conditional.bodies[b]);
	}
out:
	stub_free(waiting);
	stub_free(first);
	stub_free(dependents);
	if (r != CUDA_SUCCESS) {
		stub_free(run);
		return r;
	}
	stub_free(g->order);
	g->order = run;
	return CUDA_SUCCESS;
}

/* The condition's value, once the stream's work before it has run. */
static CUresult
read_condition(const struct zc_graph_condition *c, struct zc_stream *s, unsigned *value)
{
	struct zc_op op = {
		.kind = ZC_OP_COPY,
		.copy = { .dst = value, .src = (const void *)(uintptr_t)c->slot,
		          .width = sizeof *value, .height = 1, .depth = 1,
		          .dst_pitch = sizeof *value, .dst_height = 1,
		          .src_pitch = sizeof *value, .src_height = 1 },
	};
	CUresult r = zc_stream_submit(s, &op);

	return r == CUDA_SUCCESS ? zc_synchronize_stream(s->drv) : r;
}

static CUresult
run_conditional(const struct zc_graph_node *n, struct zc_stream *s)
{
	unsigned value = 0;
	CUresult r = read_condition(n->conditional.condition, s, &value);

	switch (n->conditional.type) {
	case CU_GRAPH_COND_TYPE_IF:
		if (r == CUDA_SUCCESS && (value || n->conditional.size == 2))
			r = zc_graph_run(n->conditional.bodies[value ? 0 : 1], s);
		break;
	case CU_GRAPH_COND_TYPE_WHILE:
		while (r == CUDA_SUCCESS && value &&
		       (r = zc_graph_run(n->conditional.bodies[0], s)) == CUDA_SUCCESS)
			r = read_condition(n->conditional.condition, s, &value);
		break;
	default:
		if (r == CUDA_SUCCESS && value < n->conditional.size)
			r = zc_graph_run(n->conditional.bodies[value], s);
		break;
	}
	return r;
}

/* The conditions of g's conditional nodes (in bodies too) that take a value at this launch:
 * their default at each with CU_GRAPH_COND_ASSIGN_DEFAULT, else 0 at the first (as NVIDIA's
 * driver starts them, on an H100). */
static CUresult
give_defaults(const struct zc_graph *g, struct zc_stream *s)
{
	CUresult r = CUDA_SUCCESS;

	for (size_t i = 0; r == CUDA_SUCCESS && i < g->count; i++) {
		const struct zc_graph_node *n = g->nodes[i];

		if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
			struct zc_graph_condition *c = n->conditional.condition;
			struct zc_op op = { .kind = ZC_OP_FILL };
			bool empty;

			if (((c->flags & CU_GRAPH_COND_ASSIGN_DEFAULT) || !c->set) &&
			    (r = zc_fill_make(c->slot, sizeof(unsigned),
			                      c->flags & CU_GRAPH_COND_ASSIGN_DEFAULT ? c->default_value : 0,
			                      sizeof(unsigned), 1, 1, &op.fill, &empty)) == CUDA_SUCCESS &&
			    (r = zc_stream_submit(s, &op)) == CUDA_SUCCESS)
				c->set = true;
			for (unsigned b = 0; r == CUDA_SUCCESS && b < n->conditional.size; b++)
				r = give_defaults(n->conditional.bodies[b], s);
		}
	}
	return r;
}

CUresult
zc_graph_run(const struct zc_graph *g, struct zc_stream *s)
{
	CUresult r = CUDA_SUCCESS;

	for (size_t i = 0; r == CUDA_SUCCESS && i < g->count; i++) {
		const struct zc_graph_node *n = g->order[i];
		struct zc_op op;

		if (n->disabled)
			continue;
		switch (n->type) {
		case CU_GRAPH_NODE_TYPE_KERNEL:
			r = zc_launch_packed(n->kernel.function, n->kernel.grid, n->kernel.block,
			                     n->kernel.shared, n->kernel.params, n->kernel.cooperative, s);
			continue;
		case CU_GRAPH_NODE_TYPE_GRAPH:
			r = zc_graph_run(n->child, s);
			continue;
		case CU_GRAPH_NODE_TYPE_CONDITIONAL:
			r = run_conditional(n, s);
			continue;
		case CU_GRAPH_NODE_TYPE_EMPTY:
			continue;
		/* the memory is there from the node's making, at its address, until the graph goes */
		case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
			zc_graph_allocation_launched(n->alloc.allocation);
			continue;
		case CU_GRAPH_NODE_TYPE_MEM_FREE:
			if (!zc_graph_memory_free(n->free_ptr, s, &r))
				r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx: its allocation is gone",
				              (unsigned long long)n->free_ptr);
			continue;
		case CU_GRAPH_NODE_TYPE_MEMCPY:
			op = (struct zc_op){ .kind = ZC_OP_COPY, .copy = n->memcpy.copy };
			break;
		case CU_GRAPH_NODE_TYPE_MEMSET:
			op = (struct zc_op){ .kind = ZC_OP_FILL, .fill = n->memset.fill };
			break;
		case CU_GRAPH_NODE_TYPE_HOST:
			op = (struct zc_op){ .kind = ZC_OP_HOST, .host = { n->host.fn, n->host.userData } };
			break;
		case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
			op = (struct zc_op){ .kind = ZC_OP_EVENT_RECORD, .event = { n->event, 0 } };
			break;
		case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
			op = (struct zc_op){ .kind = ZC_OP_EVENT_WAIT, .event = { n->event, 0 } };
			break;
		default:
			return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "graph nodes of type %d", (int)n->type);
		}
		r = zc_stream_submit(s, &op);
	}
	return r;
}

static CUresult
live_exec(CUgraphExec e)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(e, ZC_HANDLE_GRAPH_EXEC))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%p is not a live executable graph", (void *)e);
	return r;
}

static CUresult
instantiate(CUgraphExec *out, CUgraph g, uint64_t flags)
{
	struct zc_graph_exec *e;
	CUresult r = zc_graph_check(g);

	if (r == CUDA_SUCCESS && !out)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phGraphExec");
	if (r == CUDA_SUCCESS && (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH))
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "graphs launched from the device");
	if (r != CUDA_SUCCESS)
		return r;
	if (!(e = stub_alloc(sizeof *e)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "executable graph");
	*e = (struct zc_graph_exec){ .flags = flags };
	r = zc_graph_copy(g, &e->graph);
	if (r == CUDA_SUCCESS)
		r = order(e->graph);
	bool out_of_memory = false;
	if (r == CUDA_SUCCESS && !zc_graph_conditions_take(e->graph, &e->holds, &out_of_memory))
		r = out_of_memory ? stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "executable graph")
		                  : stub_fail(CUDA_ERROR_NOT_SUPPORTED, "the graph is instantiated already: "
		                              "a graph with conditional nodes has one executable graph at "
		                              "a time (as NVIDIA's driver answers, on an H100)");
	else if (r == CUDA_SUCCESS && !zc_handle_add(e, ZC_HANDLE_GRAPH_EXEC)) {
		zc_graph_conditions_give_back(&e->holds);
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "executable graph handle");
	}
	if (r != CUDA_SUCCESS) {
		zc_graph_free(e->graph);
		stub_free(e);
		return r;
	}
	*out = e;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
{
	CUresult r = instantiate(phGraphExec, hGraph, flags);

	return TRACE(r, "%p, 0x%llx -> %p", (void *)hGraph, flags,
	             r == CUDA_SUCCESS ? (void *)*phGraphExec : NULL);
}

/* CUDA 10's and 11's forms: an error node and a log, where the log gets the error's name. */
static CUresult
instantiate_logged(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                   char *logBuffer, size_t bufferSize)
{
	CUresult r = instantiate(phGraphExec, hGraph, 0);

	if (phErrorNode)
		*phErrorNode = NULL;
	if (logBuffer && bufferSize)
		snprintf(logBuffer, bufferSize, "%s", r == CUDA_SUCCESS ? "" : zc_error_name(r));
	return r;
}

ZC_EXPORT CUresult
cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                   char *logBuffer, size_t bufferSize)
{
	CUresult r = instantiate_logged(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);

	return TRACE(r, "%p -> %p", (void *)hGraph, r == CUDA_SUCCESS ? (void *)*phGraphExec : NULL);
}

ZC_EXPORT CUresult
cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                      char *logBuffer, size_t bufferSize)
{
	CUresult r = instantiate_logged(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);

	return TRACE(r, "%p -> %p", (void *)hGraph, r == CUDA_SUCCESS ? (void *)*phGraphExec : NULL);
}

static CUresult
instantiate_with_params(CUgraphExec *phGraphExec, CUgraph hGraph,
                        CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
	if (!p)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL instantiate parameters");
	CUresult r = instantiate(phGraphExec, hGraph, p->flags);

	p->hErrNode_out = NULL;
	p->result_out = r == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS
	                : r == CUDA_ERROR_NOT_SUPPORTED ? CUDA_GRAPH_INSTANTIATE_NODE_OPERATION_NOT_SUPPORTED
	                : r == CUDA_ERROR_INVALID_VALUE ? CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE
	                                                : CUDA_GRAPH_INSTANTIATE_ERROR;
	return r;
}

ZC_EXPORT CUresult
cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph,
                             CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
	return TRACE(instantiate_with_params(phGraphExec, hGraph, instantiateParams), "%p",
	             (void *)hGraph);
}

ZC_EXPORT CUresult
cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec, CUgraph hGraph,
                                  CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
	return TRACE(instantiate_with_params(phGraphExec, hGraph, instantiateParams), "%p",
	             (void *)hGraph);
}

ZC_EXPORT CUresult
cuGraphExecGetFlags(CUgraphExec hGraphExec, uint64_t *flags)
{
	CUresult r = live_exec(hGraphExec);

	if (r == CUDA_SUCCESS && !flags)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL flags");
	if (r == CUDA_SUCCESS)
		*flags = hGraphExec->flags;
	return TRACE(r, "%p", (void *)hGraphExec);
}

ZC_EXPORT CUresult
cuGraphExecDestroy(CUgraphExec hGraphExec)
{
	CUresult r = live_exec(hGraphExec);

	if (r == CUDA_SUCCESS) {
		zc_handle_remove(hGraphExec);
		zc_graph_conditions_give_back(&hGraphExec->holds);
		zc_graph_free(hGraphExec->graph);
		stub_free(hGraphExec);
	}
	return TRACE(r, "%p", (void *)hGraphExec);
}

/* CUDA 13 refuses a graph launched into a capturing stream (measured on an H200). */
static CUresult
launch(CUgraphExec e, CUstream handle, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = live_exec(e);

	if (r == CUDA_SUCCESS)
		r = zc_stream_resolve(handle, per_thread, &s);
	if (r != CUDA_SUCCESS)
		return r;
	if ((r = zc_capture_refuse(s, "launching a graph into a capturing stream")) != CUDA_SUCCESS)
		return r;
	if ((r = give_defaults(e->graph, s)) == CUDA_SUCCESS)
		r = zc_graph_run(e->graph, s);
	return r == CUDA_SUCCESS ? zc_graph_hold_references(e->graph, s) : r;
}

ZC_EXPORT CUresult
cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
	return TRACE(launch(hGraphExec, hStream, false), "%p, %p", (void *)hGraphExec, (void *)hStream);
}

ZC_EXPORT CUresult
cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
	return TRACE(launch(hGraphExec, hStream, true), "%p, %p", (void *)hGraphExec, (void *)hStream);
}

/* Nothing to upload: a launch reads the nodes where they are. */
static CUresult
upload(CUgraphExec e, CUstream handle, bool per_thread)
{
	struct zc_stream *s;
	CUresult r = live_exec(e);

	return r == CUDA_SUCCESS ? zc_stream_resolve(handle, per_thread, &s) : r;
}

ZC_EXPORT CUresult
cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
	return TRACE(upload(hGraphExec, hStream, false), "%p, %p", (void *)hGraphExec, (void *)hStream);
}

ZC_EXPORT CUresult
cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
	return TRACE(upload(hGraphExec, hStream, true), "%p, %p", (void *)hGraphExec, (void *)hStream);
}

/* ---- updates ------------------------------------------------------------------ */

/* The executable graph's node made from `node` of the graph it was instantiated from. */
static CUresult
exec_node(CUgraphExec e, CUgraphNode node, CUgraphNodeType type, struct zc_graph_node **out)
{
	CUresult r = live_exec(e);

	if (r == CUDA_SUCCESS && !zc_handle_is(node, ZC_HANDLE_GRAPH_NODE))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%p is not a live graph node", (void *)node);
	for (size_t i = 0; r == CUDA_SUCCESS && i < e->graph->count; i++) {
		struct zc_graph_node *n = e->graph->nodes[i];
		if (n->origin == node) {
			if (type != (CUgraphNodeType)-1 && n->type != type)
				return stub_fail(CUDA_ERROR_INVALID_VALUE, "node %p is of type %d, not %d",
				                 (void *)node, (int)n->type, (int)type);
			*out = n;
			return CUDA_SUCCESS;
		}
	}
	return r == CUDA_SUCCESS ? stub_fail(CUDA_ERROR_INVALID_VALUE,
	                                     "node %p is not in the executable graph %p",
	                                     (void *)node, (void *)e)
	                         : r;
}

/* The new parameters are set on a scratch node of the node's graph, checked there as
 * cuGraph*NodeSetParams checks them, and copied over. */
#define EXEC_SET(type, setter, ...)                                                          \
	do {                                                                                     \
		struct zc_graph_node *n_;                                                            \
		CUresult r_ = exec_node(hGraphExec, hNode, type, &n_);                               \
		if (r_ == CUDA_SUCCESS)                                                              \
			r_ = setter(__VA_ARGS__);                                                        \
		return TRACE(r_, "%p, %p", (void *)hGraphExec, (void *)hNode);                       \
	} while (0)

static CUresult
set_via_scratch(struct zc_graph_node *target, CUresult (*set)(CUgraphNode, const void *),
                const void *params)
{
	struct zc_graph *scratch;
	struct zc_graph_node *n;
	CUresult r = zc_graph_new(&scratch);

	if (r == CUDA_SUCCESS)
		r = zc_graph_add(scratch, target->type, NULL, 0, &n);
	if (r == CUDA_SUCCESS)
		r = set(n, params);
	if (r == CUDA_SUCCESS)
		r = zc_graph_node_set(target, n);
	zc_graph_free(scratch);
	return r;
}

#define SETTER(name, call, type)                                                             \
	static CUresult name(CUgraphNode n, const void *p) { return call(n, (const type *)p); }
SETTER(set_kernel_v1, cuGraphKernelNodeSetParams, CUDA_KERNEL_NODE_PARAMS)
SETTER(set_kernel_v2, cuGraphKernelNodeSetParams_v2, CUDA_KERNEL_NODE_PARAMS)
SETTER(set_memcpy, cuGraphMemcpyNodeSetParams, CUDA_MEMCPY3D)
SETTER(set_memset, cuGraphMemsetNodeSetParams, CUDA_MEMSET_NODE_PARAMS)
SETTER(set_host, cuGraphHostNodeSetParams, CUDA_HOST_NODE_PARAMS)
#undef SETTER

ZC_EXPORT CUresult
cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                               const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	EXEC_SET(CU_GRAPH_NODE_TYPE_KERNEL, set_via_scratch, n_, set_kernel_v1, nodeParams);
}

ZC_EXPORT CUresult
cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec, CUgraphNode hNode,
                                  const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	EXEC_SET(CU_GRAPH_NODE_TYPE_KERNEL, set_via_scratch, n_, set_kernel_v2, nodeParams);
}

ZC_EXPORT CUresult
cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                               const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
	(void)ctx;
	EXEC_SET(CU_GRAPH_NODE_TYPE_MEMCPY, set_via_scratch, n_, set_memcpy, copyParams);
}

ZC_EXPORT CUresult
cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                               const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
	(void)ctx;
	EXEC_SET(CU_GRAPH_NODE_TYPE_MEMSET, set_via_scratch, n_, set_memset, memsetParams);
}

ZC_EXPORT CUresult
cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                             const CUDA_HOST_NODE_PARAMS *nodeParams)
{
	EXEC_SET(CU_GRAPH_NODE_TYPE_HOST, set_via_scratch, n_, set_host, nodeParams);
}

ZC_EXPORT CUresult
cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
	EXEC_SET(CU_GRAPH_NODE_TYPE_EVENT_RECORD, zc_graph_set_event, n_, event);
}

ZC_EXPORT CUresult
cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
	EXEC_SET(CU_GRAPH_NODE_TYPE_WAIT_EVENT, zc_graph_set_event, n_, event);
}

/* A child graph takes the new graph whole, if it has the shape of the old. */
static CUresult
set_exec_child(struct zc_graph_node *n, CUgraph child)
{
	struct zc_graph *copy;
	CUresult r = zc_graph_check(child);

	if (r == CUDA_SUCCESS && child->count != n->child->count)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a child graph of %zu nodes for one of %zu",
		              child->count, n->child->count);
	if (r == CUDA_SUCCESS)
		r = zc_graph_copy(child, &copy);
	if (r == CUDA_SUCCESS && (r = order(copy)) != CUDA_SUCCESS)
		zc_graph_free(copy);
	if (r == CUDA_SUCCESS) {
		zc_graph_free(n->child);
		n->child = copy;
		copy->owner = n;
	}
	return r;
}

ZC_EXPORT CUresult
cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph)
{
	EXEC_SET(CU_GRAPH_NODE_TYPE_GRAPH, set_exec_child, n_, childGraph);
}

static CUresult
set_generic(CUgraphNode n, const void *p)
{
	return zc_graph_node_set_params(n, p);
}

/* The generic form: a child graph and events as their own calls set them; the rest checked
 * on a scratch node. */
static CUresult
set_exec_params(struct zc_graph_node *n, const CUgraphNodeParams *p)
{
	if (!p || p->type != n->type)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL parameters, or not of type %d",
		                 (int)n->type);
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_GRAPH: return set_exec_child(n, p->graph.graph);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return zc_graph_set_event(n, p->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return zc_graph_set_event(n, p->eventRecord.event);
	default: return set_via_scratch(n, set_generic, p);
	}
}

ZC_EXPORT CUresult
cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
	EXEC_SET((CUgraphNodeType)-1, set_exec_params, n_, nodeParams);
}

static CUresult
set_enabled(struct zc_graph_node *n, unsigned enabled)
{
	if (n->type != CU_GRAPH_NODE_TYPE_KERNEL && n->type != CU_GRAPH_NODE_TYPE_MEMCPY &&
	    n->type != CU_GRAPH_NODE_TYPE_MEMSET)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "only kernel, memcpy and memset nodes can be disabled");
	n->disabled = !enabled;
	return CUDA_SUCCESS;
}

static CUresult
get_enabled(const struct zc_graph_node *n, unsigned *enabled)
{
	if (!enabled)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL isEnabled");
	*enabled = !n->disabled;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled)
{
	EXEC_SET((CUgraphNodeType)-1, set_enabled, n_, isEnabled);
}

ZC_EXPORT CUresult
cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled)
{
	EXEC_SET((CUgraphNodeType)-1, get_enabled, n_, isEnabled);
}

/* The nodes pair by creation order; the update is refused, changing nothing, unless every
 * pair has the same type and the same dependencies. */
static CUresult
update(CUgraphExec e, CUgraph g, CUgraphExecUpdateResultInfo *info)
{
	CUresult r = live_exec(e);
	CUgraphExecUpdateResultInfo result = { CU_GRAPH_EXEC_UPDATE_SUCCESS, NULL, NULL };

	if (r == CUDA_SUCCESS)
		r = zc_graph_check(g);
	if (r == CUDA_SUCCESS && !info)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL resultInfo");
	if (r != CUDA_SUCCESS)
		return r;
	struct zc_graph *old = e->graph;
	if (old->count != g->count)
		result.result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
	for (size_t i = 0; !result.result && i < g->count; i++) {
		const struct zc_graph_node *a = old->nodes[i], *b = g->nodes[i];
		result.errorNode = g->nodes[i];
		if (a->type != b->type)
			result.result = CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
		else if (a->ndeps != b->ndeps)
			result.result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
		last_visit++;
		for (size_t j = 0; !result.result && j < a->ndeps; j++)
			a->deps[j]->visit = last_visit;
		for (size_t j = 0; !result.result && j < b->ndeps; j++)
			if (old->nodes[b->deps[j]->index]->visit != last_visit)
				result.result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
	}
	/* A child graph is taken whole from the new graph; so are conditional nodes' conditions
	 * (NVIDIA's driver updates from another graph's, on an H100), while the executable
	 * graph goes on holding its own graph's, and takes none of the new one's. */
	for (size_t i = 0; !result.result && i < g->count && r == CUDA_SUCCESS; i++)
		r = zc_graph_node_set(old->nodes[i], g->nodes[i]);
	if (r == CUDA_SUCCESS && !result.result)
		r = order(old);
	if (r == CUDA_SUCCESS && !result.result) {
		zc_graph_drop_references(old);
		r = zc_graph_copy_references(old, g);
	}
	if (result.result) {
		*info = result;
		return stub_fail(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "graph update refused: result %d",
		                 (int)result.result);
	}
	*info = (CUgraphExecUpdateResultInfo){ CU_GRAPH_EXEC_UPDATE_SUCCESS, NULL, NULL };
	return r;
}

ZC_EXPORT CUresult
cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo)
{
	return TRACE(update(hGraphExec, hGraph, resultInfo), "%p, %p", (void *)hGraphExec,
	             (void *)hGraph);
}
