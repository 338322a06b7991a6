/* CUDA graphs built node by node, and what programs ask of them: nodes, edges, parameters,
 * clones, the DOT description. Node parameters are copied when given, as CUDA does: a
 * kernel node keeps its packed arguments, a child-graph node a copy of its graph. */
#include <stdio.h>
#include <string.h>

#include "graph.h"

CUresult
zc_graph_new(struct zc_graph **out)
{
	struct zc_graph *g = stub_alloc(sizeof *g);

	if (!g || !zc_handle_add(g, ZC_HANDLE_GRAPH)) {
		stub_free(g);
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	}
	*out = g;
	return CUDA_SUCCESS;
}

static void
clear_params(struct zc_graph_node *n)
{
	if (n->type == CU_GRAPH_NODE_TYPE_KERNEL) {
		stub_free(n->kernel.params);
		stub_free(n->kernel.args);
		stub_free(n->kernel.attributes);
		n->kernel = (struct zc_kernel_node){ 0 };
	} else if (n->type == CU_GRAPH_NODE_TYPE_GRAPH) {
		zc_graph_free(n->child);
		n->child = NULL;
	} else if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && n->alloc.allocation) {
		zc_graph_allocation_release(n->alloc.allocation);
		n->alloc.allocation = NULL;
	} else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
		zc_graph_conditional_clear(n);
	}
}

static void
free_node(struct zc_graph_node *n)
{
	zc_handle_remove(n);
	clear_params(n);
	stub_free(n->deps);
	stub_free(n);
}

void
zc_graph_free(struct zc_graph *g)
{
	if (!g)
		return;
	zc_handle_remove(g);
	zc_graph_drop_references(g);
	for (size_t i = 0; i < g->count; i++)
		free_node(g->nodes[i]);
	zc_graph_conditions_release(g);
	stub_free(g->nodes);
	stub_free(g->order);
	stub_free(g);
}

bool
zc_graph_has(const struct zc_graph *g, const struct zc_graph_node *node)
{
	return zc_handle_is(node, ZC_HANDLE_GRAPH_NODE) && node->graph == g;
}

static bool
depends_on(const struct zc_graph_node *n, const struct zc_graph_node *dep)
{
	for (size_t i = 0; i < n->ndeps; i++)
		if (n->deps[i] == dep)
			return true;
	return false;
}

/* Makes room for one more of `size` bytes in *array of *capacity. */
static bool
grow(void **array, size_t *capacity, size_t count, size_t size)
{
	if (count < *capacity)
		return true;
	size_t more = *capacity ? *capacity * 2 : 8;
	void *bigger = stub_alloc(more * size);

	if (!bigger)
		return false;
	if (count)
		memcpy(bigger, *array, count * size);
	stub_free(*array);
	*array = bigger;
	*capacity = more;
	return true;
}

CUresult
zc_graph_add(struct zc_graph *g, CUgraphNodeType type, struct zc_graph_node *const *deps,
             size_t ndeps, struct zc_graph_node **out)
{
	struct zc_graph_node *n;

	if (ndeps && !deps)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL dependencies");
	for (size_t i = 0; i < ndeps; i++) {
		if (!zc_graph_has(g, deps[i]))
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "dependency %p is not a node of graph %p",
			                 (void *)deps[i], (void *)g);
		for (size_t j = 0; j < i; j++)
			if (deps[j] == deps[i])
				return stub_fail(CUDA_ERROR_INVALID_VALUE, "dependency %p given twice",
				                 (void *)deps[i]);
	}
	if (!grow((void **)&g->nodes, &g->capacity, g->count, sizeof *g->nodes) ||
	    !(n = stub_alloc(sizeof *n)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph node");
	if (ndeps && !(n->deps = stub_alloc(ndeps * sizeof *n->deps))) {
		stub_free(n);
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph node");
	}
	if (!zc_handle_add(n, ZC_HANDLE_GRAPH_NODE)) {
		stub_free(n->deps);
		stub_free(n);
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph node handle");
	}
	if (ndeps)
		memcpy(n->deps, deps, ndeps * sizeof *deps);
	n->ndeps = ndeps;
	n->graph = g;
	n->type = type;
	n->index = g->count;
	g->nodes[g->count++] = n;
	*out = n;
	return CUDA_SUCCESS;
}

static void
remove_node(struct zc_graph_node *n)
{
	struct zc_graph *g = n->graph;

	for (size_t i = n->index + 1; i < g->count; i++) {
		g->nodes[i - 1] = g->nodes[i];
		g->nodes[i - 1]->index = i - 1;
	}
	g->count--;
	for (size_t i = 0; i < g->count; i++) {
		struct zc_graph_node *m = g->nodes[i];
		size_t kept = 0;
		for (size_t j = 0; j < m->ndeps; j++)
			if (m->deps[j] != n)
				m->deps[kept++] = m->deps[j];
		m->ndeps = kept;
	}
	free_node(n);
}

/* ---- parameters ------------------------------------------------------------ */

static CUresult
set_kernel(struct zc_graph_node *n, struct zc_function *f, const uint32_t grid[3],
           const uint32_t block[3], uint32_t shared, const uint8_t *packed, void **params,
           void **extra)
{
	uint8_t *buffer = NULL;
	void **args = NULL;
	CUresult r = zc_function_check(f);

	if (r == CUDA_SUCCESS && packed) {
		if (!(buffer = stub_alloc(f->param_size)))
			r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "kernel node parameters");
		else
			memcpy(buffer, packed, f->param_size);
	} else if (r == CUDA_SUCCESS) {
		r = zc_launch_pack(f, params, extra, &buffer);
	}
	if (r == CUDA_SUCCESS && !(args = stub_alloc((f->nparams + 1) * sizeof *args)))
		r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "kernel node parameters");
	if (r != CUDA_SUCCESS) {
		stub_free(buffer);
		return r;
	}
	for (uint32_t i = 0; i < f->nparams; i++)
		args[i] = buffer + f->params[i].offset;
	/* New parameters leave the node's attributes as they were. */
	stub_free(n->kernel.params);
	stub_free(n->kernel.args);
	n->kernel.function = f;
	memcpy(n->kernel.grid, grid, sizeof n->kernel.grid);
	memcpy(n->kernel.block, block, sizeof n->kernel.block);
	n->kernel.shared = shared;
	n->kernel.params = buffer;
	n->kernel.args = args;
	return CUDA_SUCCESS;
}

static CUresult
copy_attributes(struct zc_kernel_node *to, const struct zc_kernel_node *from)
{
	CUlaunchAttribute *copy = NULL;

	if (from->nattributes && !(copy = stub_alloc(from->nattributes * sizeof *copy)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "kernel node attributes");
	if (from->nattributes)
		memcpy(copy, from->attributes, from->nattributes * sizeof *copy);
	stub_free(to->attributes);
	to->attributes = copy;
	to->nattributes = from->nattributes;
	to->cooperative = from->cooperative;
	return CUDA_SUCCESS;
}

static CUresult
set_kernel_params(struct zc_graph_node *n, const CUDA_KERNEL_NODE_PARAMS *p, bool v2)
{
	if (!p)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL kernel node parameters");
	struct zc_function *f = p->func ? p->func : v2 ? p->kern : NULL;
	uint32_t grid[3] = {p->gridDimX, p->gridDimY, p->gridDimZ};
	uint32_t block[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};

	for (int i = 0; i < 3; i++)
		if (!grid[i] || !block[i])
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "kernel node grid or block of 0");
	return set_kernel(n, f, grid, block, p->sharedMemBytes, NULL, p->kernelParams, p->extra);
}

static CUresult
set_memcpy_params(struct zc_graph_node *n, const CUDA_MEMCPY3D *p)
{
	struct zc_copy c;
	bool empty;
	CUresult r = zc_copy_from_3d(p, &c, &empty);

	if (r == CUDA_SUCCESS && empty)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a memcpy node of 0 bytes");
	if (r == CUDA_SUCCESS) {
		n->memcpy.copy = c;
		n->memcpy.params = *p;
	}
	return r;
}

static CUresult
set_memset_params(struct zc_graph_node *n, const CUDA_MEMSET_NODE_PARAMS *p)
{
	struct zc_fill f;
	bool empty;
	CUresult r = zc_fill_from_params(p, &f, &empty);

	if (r == CUDA_SUCCESS && empty)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a memset node of 0 elements");
	if (r == CUDA_SUCCESS) {
		n->memset.fill = f;
		n->memset.params = *p;
	}
	return r;
}

static CUresult
set_host_params(struct zc_graph_node *n, const CUDA_HOST_NODE_PARAMS *p)
{
	if (!p || !p->fn)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL host node function");
	n->host = *p;
	return CUDA_SUCCESS;
}

/* NVIDIA's driver refuses a child graph with conditional nodes (CUDA_ERROR_NOT_SUPPORTED,
 * on an H100). */
static CUresult
conditional_refused(void)
{
	return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "a child graph with conditional nodes");
}

static CUresult
set_child(struct zc_graph_node *n, const struct zc_graph *child)
{
	struct zc_graph *copy;
	CUresult r = zc_graph_has_conditional(child) ? conditional_refused() : zc_graph_copy(child, &copy);

	if (r == CUDA_SUCCESS) {
		clear_params(n);
		n->child = copy;
		copy->owner = n;
	}
	return r;
}

CUresult
zc_graph_set_event(struct zc_graph_node *n, CUevent e)
{
	if (!zc_handle_is(e, ZC_HANDLE_EVENT))
		return stub_fail(CUDA_ERROR_INVALID_HANDLE, "%p is not a live event", (void *)e);
	n->event = e;
	return CUDA_SUCCESS;
}

CUresult
zc_graph_node_set(struct zc_graph_node *to, const struct zc_graph_node *from)
{
	switch (from->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL: {
		const struct zc_kernel_node *k = &from->kernel;
		CUresult r = set_kernel(to, k->function, k->grid, k->block, k->shared, k->params, NULL, NULL);
		return r == CUDA_SUCCESS ? copy_attributes(&to->kernel, k) : r;
	}
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return set_child(to, from->child);
	case CU_GRAPH_NODE_TYPE_MEMCPY: to->memcpy = from->memcpy; break;
	case CU_GRAPH_NODE_TYPE_MEMSET: to->memset = from->memset; break;
	case CU_GRAPH_NODE_TYPE_HOST: to->host = from->host; break;
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD: to->event = from->event; break;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		clear_params(to);
		to->alloc = from->alloc;
		zc_graph_allocation_retain(to->alloc.allocation);
		break;
	case CU_GRAPH_NODE_TYPE_MEM_FREE: to->free_ptr = from->free_ptr; break;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL: return zc_graph_conditional_copy(to, from);
	default: break;
	}
	return CUDA_SUCCESS;
}

/* A captured copy reads back as a copy between unified addresses. */
static CUDA_MEMCPY3D
copy_params(const struct zc_copy *c)
{
	return (CUDA_MEMCPY3D){
		.srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = (CUdeviceptr)(uintptr_t)c->src,
		.srcPitch = c->src_pitch, .srcHeight = c->src_height,
		.dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = (CUdeviceptr)(uintptr_t)c->dst,
		.dstPitch = c->dst_pitch, .dstHeight = c->dst_height,
		.WidthInBytes = c->width, .Height = c->height, .Depth = c->depth,
	};
}

static const CUgraphNodeType op_node_type[] = {
	[ZC_OP_LAUNCH] = CU_GRAPH_NODE_TYPE_KERNEL,
	[ZC_OP_COPY] = CU_GRAPH_NODE_TYPE_MEMCPY,
	[ZC_OP_FILL] = CU_GRAPH_NODE_TYPE_MEMSET,
	[ZC_OP_HOST] = CU_GRAPH_NODE_TYPE_HOST,
	[ZC_OP_EVENT_RECORD] = CU_GRAPH_NODE_TYPE_EVENT_RECORD,
	[ZC_OP_EVENT_WAIT] = CU_GRAPH_NODE_TYPE_WAIT_EVENT,
};

CUresult
zc_graph_add_op(struct zc_graph *g, const struct zc_op *op, struct zc_graph_node *const *deps,
                size_t ndeps, struct zc_graph_node **out)
{
	struct zc_graph_node *n;
	CUresult r = zc_graph_add(g, op_node_type[op->kind], deps, ndeps, &n);

	if (r != CUDA_SUCCESS)
		return r;
	switch (op->kind) {
	case ZC_OP_LAUNCH: {
		const struct zc_launch *l = &op->kernel.launch;
		r = set_kernel(n, op->kernel.function, l->grid, l->block, l->dynamic_shared, l->params,
		               NULL, NULL);
		n->kernel.cooperative = l->cooperative;
		break;
	}
	case ZC_OP_COPY:
		n->memcpy.copy = op->copy;
		n->memcpy.params = copy_params(&op->copy);
		break;
	case ZC_OP_FILL:
		n->memset.fill = op->fill;
		n->memset.params = (CUDA_MEMSET_NODE_PARAMS){
			(CUdeviceptr)(uintptr_t)op->fill.dst, op->fill.pitch, op->fill.value,
			op->fill.elem_size, op->fill.width, op->fill.height,
		};
		break;
	case ZC_OP_HOST:
		n->host = (CUDA_HOST_NODE_PARAMS){ op->host.fn, op->host.arg };
		break;
	case ZC_OP_EVENT_RECORD:
	case ZC_OP_EVENT_WAIT:
		n->event = op->event.event;
		break;
	}
	if (r != CUDA_SUCCESS)
		remove_node(n);
	else
		*out = n;
	return r;
}

/* Nodes first, then their dependencies: cuGraphAddDependencies may have made a node depend
 * on one made after it (even in a cycle, which instantiation then refuses). */
CUresult
zc_graph_copy(const struct zc_graph *g, struct zc_graph **out)
{
	struct zc_graph *copy;
	CUresult r = zc_graph_new(&copy);

	for (size_t i = 0; r == CUDA_SUCCESS && i < g->count; i++) {
		const struct zc_graph_node *from = g->nodes[i];
		struct zc_graph_node *n;

		r = zc_graph_add(copy, from->type, NULL, 0, &n);
		if (r == CUDA_SUCCESS) {
			n->origin = from;
			n->disabled = from->disabled;
			r = zc_graph_node_set(n, from);
		}
	}
	for (size_t i = 0; r == CUDA_SUCCESS && i < g->count; i++) {
		const struct zc_graph_node *from = g->nodes[i];
		struct zc_graph_node *n = copy->nodes[i];

		if (!from->ndeps)
			continue;
		if (!(n->deps = stub_alloc(from->ndeps * sizeof *n->deps))) {
			r = stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph copy");
			break;
		}
		for (size_t j = 0; j < from->ndeps; j++)
			n->deps[j] = copy->nodes[from->deps[j]->index];
		n->ndeps = from->ndeps;
	}
	if (r == CUDA_SUCCESS)
		r = zc_graph_copy_references(copy, g);
	if (r != CUDA_SUCCESS) {
		zc_graph_free(copy);
		return r;
	}
	*out = copy;
	return CUDA_SUCCESS;
}

/* ---- the API ----------------------------------------------------------------- */

static CUresult
live_node(CUgraphNode n, CUgraphNodeType type)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && !zc_handle_is(n, ZC_HANDLE_GRAPH_NODE))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%p is not a live graph node", (void *)n);
	if (r == CUDA_SUCCESS && type != (CUgraphNodeType)-1 && n->type != type)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "node %p is of type %d, not %d", (void *)n,
		              (int)n->type, (int)type);
	return r;
}
#define ANY_TYPE ((CUgraphNodeType)-1)

ZC_EXPORT CUresult
cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && (!phGraph || flags))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phGraph or flags 0x%x", flags);
	if (r == CUDA_SUCCESS)
		r = zc_graph_new(phGraph);
	return TRACE(r, "0x%x -> %p", flags, r == CUDA_SUCCESS ? (void *)*phGraph : NULL);
}

ZC_EXPORT CUresult
cuGraphDestroy(CUgraph hGraph)
{
	CUresult r = zc_graph_check(hGraph);

	if (r == CUDA_SUCCESS && hGraph->owner)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "graph %p belongs to child-graph node %p",
		              (void *)hGraph, (void *)hGraph->owner);
	if (r == CUDA_SUCCESS)
		zc_graph_free(hGraph);
	return TRACE(r, "%p", (void *)hGraph);
}

ZC_EXPORT CUresult
cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
	CUresult r = zc_graph_check(originalGraph);

	if (r == CUDA_SUCCESS && !phGraphClone)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phGraphClone");
	/* its conditions' values are the graph's own */
	if (r == CUDA_SUCCESS && zc_graph_has_conditional(originalGraph))
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "a graph with conditional nodes is not cloned");
	if (r == CUDA_SUCCESS)
		r = zc_graph_copy(originalGraph, phGraphClone);
	return TRACE(r, "%p", (void *)originalGraph);
}

ZC_EXPORT CUresult
cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph)
{
	CUresult r = zc_graph_check(hClonedGraph);

	if (r == CUDA_SUCCESS && !phNode)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phNode");
	for (size_t i = 0; r == CUDA_SUCCESS && i < hClonedGraph->count; i++) {
		if (hClonedGraph->nodes[i]->origin == hOriginalNode) {
			*phNode = hClonedGraph->nodes[i];
			return TRACE(r, "%p, %p", (void *)hOriginalNode, (void *)hClonedGraph);
		}
	}
	if (r == CUDA_SUCCESS)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "node %p has no clone in %p", (void *)hOriginalNode,
		              (void *)hClonedGraph);
	return TRACE(r, "%p, %p", (void *)hOriginalNode, (void *)hClonedGraph);
}

/* A new node of `type` whose parameters `set` fills; removed again when they are refused. */
#define ADD_NODE(type, set)                                                                  \
	do {                                                                                     \
		CUresult r_ = zc_graph_check(hGraph);                                                    \
		struct zc_graph_node *n_ = NULL;                                                     \
		if (r_ == CUDA_SUCCESS && !phGraphNode)                                              \
			r_ = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phGraphNode");                    \
		if (r_ == CUDA_SUCCESS)                                                              \
			r_ = zc_graph_add(hGraph, type, dependencies, numDependencies, &n_);             \
		if (r_ == CUDA_SUCCESS) {                                                            \
			struct zc_graph_node *n = n_;                                                    \
			r_ = (set);                                                                      \
			if (r_ != CUDA_SUCCESS)                                                          \
				remove_node(n_);                                                             \
			else                                                                             \
				*phGraphNode = n_;                                                           \
		}                                                                                    \
		return TRACE(r_, "%p, %zu dependencies -> %p", (void *)hGraph, numDependencies,      \
		             (void *)n_);                                                            \
	} while (0)

#define NODE_ARGS CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, \
                  size_t numDependencies

ZC_EXPORT CUresult
cuGraphAddKernelNode(NODE_ARGS, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	ADD_NODE(CU_GRAPH_NODE_TYPE_KERNEL, set_kernel_params(n, nodeParams, false));
}

ZC_EXPORT CUresult
cuGraphAddKernelNode_v2(NODE_ARGS, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	ADD_NODE(CU_GRAPH_NODE_TYPE_KERNEL, set_kernel_params(n, nodeParams, true));
}

ZC_EXPORT CUresult
cuGraphAddMemcpyNode(NODE_ARGS, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
	(void)ctx;
	ADD_NODE(CU_GRAPH_NODE_TYPE_MEMCPY, set_memcpy_params(n, copyParams));
}

ZC_EXPORT CUresult
cuGraphAddMemsetNode(NODE_ARGS, const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
	(void)ctx;
	ADD_NODE(CU_GRAPH_NODE_TYPE_MEMSET, set_memset_params(n, memsetParams));
}

ZC_EXPORT CUresult
cuGraphAddHostNode(NODE_ARGS, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
	ADD_NODE(CU_GRAPH_NODE_TYPE_HOST, set_host_params(n, nodeParams));
}

ZC_EXPORT CUresult
cuGraphAddChildGraphNode(NODE_ARGS, CUgraph childGraph)
{
	ADD_NODE(CU_GRAPH_NODE_TYPE_GRAPH,
	         zc_graph_check(childGraph) == CUDA_SUCCESS ? set_child(n, childGraph)
	                                                : CUDA_ERROR_INVALID_VALUE);
}

ZC_EXPORT CUresult
cuGraphAddEmptyNode(NODE_ARGS)
{
	ADD_NODE(CU_GRAPH_NODE_TYPE_EMPTY, ((void)n, CUDA_SUCCESS));
}

ZC_EXPORT CUresult
cuGraphAddEventRecordNode(NODE_ARGS, CUevent event)
{
	ADD_NODE(CU_GRAPH_NODE_TYPE_EVENT_RECORD, zc_graph_set_event(n, event));
}

ZC_EXPORT CUresult
cuGraphAddEventWaitNode(NODE_ARGS, CUevent event)
{
	ADD_NODE(CU_GRAPH_NODE_TYPE_WAIT_EVENT, zc_graph_set_event(n, event));
}

#define NODE_CALL(node, type, what)                                                          \
	do {                                                                                     \
		CUresult r_ = live_node(node, type);                                                 \
		if (r_ == CUDA_SUCCESS)                                                              \
			r_ = (what);                                                                     \
		return TRACE(r_, "%p", (void *)(node));                                              \
	} while (0)

static CUresult
out_ok(const void *out)
{
	return out ? CUDA_SUCCESS : stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL output");
}

static CUresult
get_kernel(const struct zc_graph_node *n, CUDA_KERNEL_NODE_PARAMS *p, bool v2)
{
	const struct zc_kernel_node *k = &n->kernel;

	if (!p)
		return out_ok(p);
	CUDA_KERNEL_NODE_PARAMS got = {
		k->function, k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
		k->shared, k->args, NULL, k->function, NULL,
	};
	memcpy(p, &got, v2 ? sizeof got : offsetof(CUDA_KERNEL_NODE_PARAMS, kern));
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_KERNEL, get_kernel(hNode, nodeParams, false));
}

ZC_EXPORT CUresult
cuGraphKernelNodeGetParams_v2(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_KERNEL, get_kernel(hNode, nodeParams, true));
}

ZC_EXPORT CUresult
cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_KERNEL, set_kernel_params(hNode, nodeParams, false));
}

ZC_EXPORT CUresult
cuGraphKernelNodeSetParams_v2(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_KERNEL, set_kernel_params(hNode, nodeParams, true));
}

ZC_EXPORT CUresult
cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_MEMCPY,
	          out_ok(nodeParams) ?: (*nodeParams = hNode->memcpy.params, CUDA_SUCCESS));
}

ZC_EXPORT CUresult
cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_MEMCPY, set_memcpy_params(hNode, nodeParams));
}

ZC_EXPORT CUresult
cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_MEMSET,
	          out_ok(nodeParams) ?: (*nodeParams = hNode->memset.params, CUDA_SUCCESS));
}

ZC_EXPORT CUresult
cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_MEMSET, set_memset_params(hNode, nodeParams));
}

ZC_EXPORT CUresult
cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_HOST,
	          out_ok(nodeParams) ?: (*nodeParams = hNode->host, CUDA_SUCCESS));
}

ZC_EXPORT CUresult
cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_HOST, set_host_params(hNode, nodeParams));
}

ZC_EXPORT CUresult
cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_GRAPH,
	          out_ok(phGraph) ?: (*phGraph = hNode->child, CUDA_SUCCESS));
}

ZC_EXPORT CUresult
cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD,
	          out_ok(event_out) ?: (*event_out = hNode->event, CUDA_SUCCESS));
}

ZC_EXPORT CUresult
cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, zc_graph_set_event(hNode, event));
}

ZC_EXPORT CUresult
cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT,
	          out_ok(event_out) ?: (*event_out = hNode->event, CUDA_SUCCESS));
}

ZC_EXPORT CUresult
cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, zc_graph_set_event(hNode, event));
}

ZC_EXPORT CUresult
cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
	NODE_CALL(hNode, ANY_TYPE, out_ok(type) ?: (*type = hNode->type, CUDA_SUCCESS));
}

ZC_EXPORT CUresult
cuGraphDestroyNode(CUgraphNode hNode)
{
	NODE_CALL(hNode, ANY_TYPE, (remove_node(hNode), CUDA_SUCCESS));
}

/* ---- kernel node attributes --------------------------------------------------- */

/* The attributes a kernel node takes, as an H200 answers: the launch-only ones (stream
 * order, programmatic events, completion events) and the preferred cluster shape are
 * refused; NVLink-centric scheduling can be set but not read back. */
static bool
node_attribute(CUlaunchAttributeID id, bool set)
{
	switch (id) {
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
	case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
	case CU_LAUNCH_ATTRIBUTE_PRIORITY:
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
	case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		return true;
	case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
		return set;
	default:
		return false;
	}
}

static CUresult
set_kernel_attribute(struct zc_graph_node *n, CUlaunchAttributeID id,
                     const CUlaunchAttributeValue *v)
{
	struct zc_kernel_node *k = &n->kernel;
	CUlaunchAttributeValue kept;
	CUresult r = out_ok(v);

	if (r == CUDA_SUCCESS && !node_attribute(id, true))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "launch attribute %d is not one of kernel nodes",
		              (int)id);
	if (r == CUDA_SUCCESS)
		r = zc_launch_attribute_check(id, v);
	if (r != CUDA_SUCCESS)
		return r;
	if (id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) {
		k->cooperative = v->cooperative != 0;
		return CUDA_SUCCESS;
	}
	kept = *v;
	if (id == CU_LAUNCH_ATTRIBUTE_PRIORITY)  /* into the device's range, as streams' are */
		kept.priority = kept.priority > ZC_LEAST_PRIORITY      ? ZC_LEAST_PRIORITY
		                : kept.priority < ZC_GREATEST_PRIORITY ? ZC_GREATEST_PRIORITY
		                                                       : kept.priority;
	for (size_t i = 0; i < k->nattributes; i++) {
		if (k->attributes[i].id == (int)id) {
			k->attributes[i].value = kept;
			return CUDA_SUCCESS;
		}
	}
	size_t capacity = k->nattributes;
	if (!grow((void **)&k->attributes, &capacity, k->nattributes, sizeof *k->attributes))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "kernel node attributes");
	k->attributes[k->nattributes++] = (CUlaunchAttribute){ .id = (int)id, .value = kept };
	return CUDA_SUCCESS;
}

/* An attribute never set reads as an H200's do: zeros, but for the memory-synchronisation
 * domain map, whose remote domain is 1. */
static CUresult
get_kernel_attribute(const struct zc_graph_node *n, CUlaunchAttributeID id,
                     CUlaunchAttributeValue *v)
{
	const struct zc_kernel_node *k = &n->kernel;
	CUresult r = out_ok(v);

	if (r == CUDA_SUCCESS && !node_attribute(id, false))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "launch attribute %d is not one of kernel nodes",
		              (int)id);
	if (r != CUDA_SUCCESS)
		return r;
	*v = (CUlaunchAttributeValue){ 0 };
	if (id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
		v->cooperative = k->cooperative;
	if (id == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP)
		v->bytes[1] = 1;
	for (size_t i = 0; i < k->nattributes; i++)
		if (k->attributes[i].id == (int)id)
			*v = k->attributes[i].value;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                              const CUkernelNodeAttrValue *value)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_KERNEL, set_kernel_attribute(hNode, attr, value));
}

ZC_EXPORT CUresult
cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                              CUkernelNodeAttrValue *value_out)
{
	NODE_CALL(hNode, CU_GRAPH_NODE_TYPE_KERNEL, get_kernel_attribute(hNode, attr, value_out));
}

ZC_EXPORT CUresult
cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
	NODE_CALL(dst, CU_GRAPH_NODE_TYPE_KERNEL,
	          live_node(src, CU_GRAPH_NODE_TYPE_KERNEL) ?: copy_attributes(&dst->kernel,
	                                                                       &src->kernel));
}

/* ---- the generic form: cuGraphAddNode, cuGraphNodeSetParams ------------------------ */

static CUresult
generic_params_check(const CUgraphNodeParams *p)
{
	if (!p)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL nodeParams");
	if (p->reserved0[0] || p->reserved0[1] || p->reserved0[2] || p->reserved2)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "reserved fields of nodeParams not zero");
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "external semaphore nodes");
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "batched memory operation nodes");
	default:
		return CUDA_SUCCESS;
	}
}

CUresult
zc_graph_node_set_params(struct zc_graph_node *n, const CUgraphNodeParams *p)
{
	CUresult r = generic_params_check(p);

	if (r == CUDA_SUCCESS && p->type != n->type)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "parameters of type %d for a node of type %d",
		              (int)p->type, (int)n->type);
	if (r != CUDA_SUCCESS)
		return r;
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return set_kernel_params(n, &p->kernel, true);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		if (p->memcpy.flags || p->memcpy.reserved)
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "memcpy node flags 0x%x", p->memcpy.flags);
		return set_memcpy_params(n, &p->memcpy.copyParams);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return set_memset_params(n, &p->memset.params);
	case CU_GRAPH_NODE_TYPE_HOST:
		return set_host_params(n, &p->host);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		if (p->graph.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE)
			return stub_fail(CUDA_ERROR_INVALID_VALUE,
			                 "a child graph's parameters other than a graph to clone");
		return zc_graph_check(p->graph.graph) ?: set_child(n, p->graph.graph);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return zc_graph_set_event(n, p->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return zc_graph_set_event(n, p->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return CUDA_SUCCESS;
	default:
		return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "the parameters of a node of type %d cannot change",
		                 (int)p->type);
	}
}

/* The child graph moves into its node: the node owns it from then on, as CUDA's does. */
static CUresult
adopt_child(struct zc_graph_node *n, struct zc_graph *child)
{
	CUresult r = zc_graph_check(child);

	if (r == CUDA_SUCCESS && child->owner)
		r = stub_fail(CUDA_ERROR_NOT_SUPPORTED, "graph %p is the child of a node already",
		              (void *)child);
	if (r == CUDA_SUCCESS && child == n->graph)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a graph cannot be its own child");
	if (r == CUDA_SUCCESS && zc_graph_has_conditional(child))
		r = conditional_refused();
	if (r == CUDA_SUCCESS) {
		n->child = child;
		child->owner = n;
	}
	return r;
}

static CUresult
add_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges,
         size_t ndeps, CUgraphNodeParams *p)
{
	struct zc_graph_node *n;
	CUresult r = zc_graph_check(g);

	if (r == CUDA_SUCCESS && !out)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phGraphNode");
	if (r == CUDA_SUCCESS)
		r = generic_params_check(p);
	if (r == CUDA_SUCCESS)
		r = zc_graph_default_edges(edges, ndeps);
	if (r != CUDA_SUCCESS)
		return r;
	if (p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
		return zc_graph_add_alloc(g, deps, ndeps, &p->alloc, out);
	if (p->type == CU_GRAPH_NODE_TYPE_MEM_FREE)
		return zc_graph_add_free(g, deps, ndeps, p->free.dptr, out);
	if ((unsigned)p->type > CU_GRAPH_NODE_TYPE_CONDITIONAL)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "node type %d", (int)p->type);
	if ((r = zc_graph_add(g, p->type, deps, ndeps, &n)) != CUDA_SUCCESS)
		return r;
	if (p->type == CU_GRAPH_NODE_TYPE_GRAPH &&
	    p->graph.ownership == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE)
		r = adopt_child(n, p->graph.graph);
	else if (p->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
		r = zc_graph_conditional_set(n, &p->conditional);
	else
		r = zc_graph_node_set_params(n, p);
	if (r != CUDA_SUCCESS) {
		remove_node(n);
		return r;
	}
	*out = n;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
               size_t numDependencies, CUgraphNodeParams *nodeParams)
{
	CUresult r = add_node(phGraphNode, hGraph, dependencies, NULL, numDependencies, nodeParams);
	return TRACE(r, "%p, %zu dependencies, type %d", (void *)hGraph, numDependencies,
	             nodeParams ? (int)nodeParams->type : -1);
}

ZC_EXPORT CUresult
cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                  const CUgraphEdgeData *dependencyData, size_t numDependencies,
                  CUgraphNodeParams *nodeParams)
{
	CUresult r = add_node(phGraphNode, hGraph, dependencies, dependencyData, numDependencies,
	                      nodeParams);
	return TRACE(r, "%p, %zu dependencies, type %d", (void *)hGraph, numDependencies,
	             nodeParams ? (int)nodeParams->type : -1);
}

ZC_EXPORT CUresult
cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
	NODE_CALL(hNode, ANY_TYPE, zc_graph_node_set_params(hNode, nodeParams));
}

/* ---- structure --------------------------------------------------------------- */

/* The answer of a call that lists: with a NULL array only the count; else at most *count
 * entries (CUDA's convention). */
struct listing {
	CUgraphNode *array;
	CUgraphNode *second;     /* the "to" side of an edge list */
	CUgraphEdgeData *edges;  /* all default: every edge here is a full dependency */
	size_t room, found;
};

static void
list_one(struct listing *l, CUgraphNode node, CUgraphNode to)
{
	if (l->array && l->found < l->room) {
		l->array[l->found] = node;
		if (l->second)
			l->second[l->found] = to;
		if (l->edges)
			memset(&l->edges[l->found], 0, sizeof *l->edges);
	}
	l->found++;
}

/* Fewer than asked for: the rest of the arrays is cleared, and *count is how many came. */
static CUresult
list_done(const struct listing *l, size_t *count)
{
	if (!l->array) {
		*count = l->found;
		return CUDA_SUCCESS;
	}
	for (size_t i = l->found; i < l->room; i++) {
		l->array[i] = NULL;
		if (l->second)
			l->second[i] = NULL;
	}
	*count = l->found < l->room ? l->found : l->room;
	return CUDA_SUCCESS;
}

static CUresult
get_nodes(CUgraph g, CUgraphNode *nodes, size_t *count, bool roots_only)
{
	CUresult r = zc_graph_check(g);

	if (r == CUDA_SUCCESS && !count)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL count");
	if (r != CUDA_SUCCESS)
		return r;
	struct listing l = { nodes, NULL, NULL, *count, 0 };
	for (size_t i = 0; i < g->count; i++)
		if (!roots_only || g->nodes[i]->ndeps == 0)
			list_one(&l, g->nodes[i], NULL);
	return list_done(&l, count);
}

ZC_EXPORT CUresult
cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
	return TRACE(get_nodes(hGraph, nodes, numNodes, false), "%p", (void *)hGraph);
}

ZC_EXPORT CUresult
cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes)
{
	return TRACE(get_nodes(hGraph, rootNodes, numRootNodes, true), "%p", (void *)hGraph);
}

static CUresult
get_edges(CUgraph g, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edges, size_t *count)
{
	CUresult r = zc_graph_check(g);

	if (r == CUDA_SUCCESS && (!count || (!from) != (!to)))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL count, or one of from and to");
	if (r != CUDA_SUCCESS)
		return r;
	struct listing l = { from, to, from ? edges : NULL, *count, 0 };
	for (size_t i = 0; i < g->count; i++)
		for (size_t j = 0; j < g->nodes[i]->ndeps; j++)
			list_one(&l, g->nodes[i]->deps[j], g->nodes[i]);
	return list_done(&l, count);
}

ZC_EXPORT CUresult
cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges)
{
	return TRACE(get_edges(hGraph, from, to, NULL, numEdges), "%p", (void *)hGraph);
}

ZC_EXPORT CUresult
cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edgeData,
                   size_t *numEdges)
{
	return TRACE(get_edges(hGraph, from, to, edgeData, numEdges), "%p", (void *)hGraph);
}

static CUresult
node_neighbours(CUgraphNode n, CUgraphNode *out, CUgraphEdgeData *edges, size_t *count,
                bool dependents)
{
	CUresult r = live_node(n, ANY_TYPE);

	if (r == CUDA_SUCCESS && !count)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL count");
	if (r != CUDA_SUCCESS)
		return r;
	struct listing l = { out, NULL, out ? edges : NULL, *count, 0 };
	if (!dependents) {
		for (size_t i = 0; i < n->ndeps; i++)
			list_one(&l, n->deps[i], NULL);
	} else {
		for (size_t i = 0; i < n->graph->count; i++)
			if (depends_on(n->graph->nodes[i], n))
				list_one(&l, n->graph->nodes[i], NULL);
	}
	return list_done(&l, count);
}

ZC_EXPORT CUresult
cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies, size_t *numDependencies)
{
	return TRACE(node_neighbours(hNode, dependencies, NULL, numDependencies, false), "%p",
	             (void *)hNode);
}

ZC_EXPORT CUresult
cuGraphNodeGetDependencies_v2(CUgraphNode hNode, CUgraphNode *dependencies,
                              CUgraphEdgeData *edgeData, size_t *numDependencies)
{
	return TRACE(node_neighbours(hNode, dependencies, edgeData, numDependencies, false), "%p",
	             (void *)hNode);
}

ZC_EXPORT CUresult
cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes,
                             size_t *numDependentNodes)
{
	return TRACE(node_neighbours(hNode, dependentNodes, NULL, numDependentNodes, true), "%p",
	             (void *)hNode);
}

ZC_EXPORT CUresult
cuGraphNodeGetDependentNodes_v2(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                CUgraphEdgeData *edgeData, size_t *numDependentNodes)
{
	return TRACE(node_neighbours(hNode, dependentNodes, edgeData, numDependentNodes, true), "%p",
	             (void *)hNode);
}

/* Only default edges exist here: programmatic ports need programmatic launches. */
CUresult
zc_graph_default_edges(const CUgraphEdgeData *edges, size_t n)
{
	static const CUgraphEdgeData none;

	for (size_t i = 0; edges && i < n; i++)
		if (memcmp(&edges[i], &none, sizeof none) != 0)
			return stub_fail(CUDA_ERROR_NOT_SUPPORTED, "edge data other than the default");
	return CUDA_SUCCESS;
}

static CUresult
check_edges(const CUgraphNode *from, const CUgraphNode *to, const CUgraphEdgeData *edges,
            size_t n, CUgraph g)
{
	if (n && (!from || !to))
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL from or to");
	for (size_t i = 0; i < n; i++)
		if (!zc_graph_has(g, from[i]) || !zc_graph_has(g, to[i]) || from[i] == to[i])
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "edge %p -> %p is not within graph %p",
			                 (void *)from[i], (void *)to[i], (void *)g);
	return zc_graph_default_edges(edges, n);
}

static CUresult
add_dependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                 const CUgraphEdgeData *edges, size_t n)
{
	CUresult r = zc_graph_check(g);

	if (r == CUDA_SUCCESS)
		r = check_edges(from, to, edges, n, g);
	for (size_t i = 0; r == CUDA_SUCCESS && i < n; i++) {
		struct zc_graph_node *t = to[i];
		size_t capacity = t->ndeps;
		if (depends_on(t, from[i]))
			return stub_fail(CUDA_ERROR_INVALID_VALUE, "edge %p -> %p exists", (void *)from[i],
			                 (void *)t);
		if (!grow((void **)&t->deps, &capacity, t->ndeps, sizeof *t->deps))
			return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "dependencies");
		t->deps[t->ndeps++] = from[i];
	}
	return r;
}

static CUresult
remove_dependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                    const CUgraphEdgeData *edges, size_t n)
{
	CUresult r = zc_graph_check(g);

	if (r == CUDA_SUCCESS)
		r = check_edges(from, to, edges, n, g);
	for (size_t i = 0; r == CUDA_SUCCESS && i < n; i++)
		if (!depends_on(to[i], from[i]))
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "no edge %p -> %p", (void *)from[i],
			              (void *)to[i]);
	for (size_t i = 0; r == CUDA_SUCCESS && i < n; i++) {
		struct zc_graph_node *t = to[i];
		size_t kept = 0;
		for (size_t j = 0; j < t->ndeps; j++)
			if (t->deps[j] != from[i])
				t->deps[kept++] = t->deps[j];
		t->ndeps = kept;
	}
	return r;
}

ZC_EXPORT CUresult
cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                       size_t numDependencies)
{
	return TRACE(add_dependencies(hGraph, from, to, NULL, numDependencies), "%p, %zu",
	             (void *)hGraph, numDependencies);
}

ZC_EXPORT CUresult
cuGraphAddDependencies_v2(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                          const CUgraphEdgeData *edgeData, size_t numDependencies)
{
	return TRACE(add_dependencies(hGraph, from, to, edgeData, numDependencies), "%p, %zu",
	             (void *)hGraph, numDependencies);
}

ZC_EXPORT CUresult
cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                          size_t numDependencies)
{
	return TRACE(remove_dependencies(hGraph, from, to, NULL, numDependencies), "%p, %zu",
	             (void *)hGraph, numDependencies);
}

ZC_EXPORT CUresult
cuGraphRemoveDependencies_v2(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                             const CUgraphEdgeData *edgeData, size_t numDependencies)
{
	return TRACE(remove_dependencies(hGraph, from, to, edgeData, numDependencies), "%p, %zu",
	             (void *)hGraph, numDependencies);
}

/* ---- DOT --------------------------------------------------------------------- */

static const char *const type_names[] = {
	[CU_GRAPH_NODE_TYPE_KERNEL] = "KERNEL", [CU_GRAPH_NODE_TYPE_MEMCPY] = "MEMCPY",
	[CU_GRAPH_NODE_TYPE_MEMSET] = "MEMSET", [CU_GRAPH_NODE_TYPE_HOST] = "HOST",
	[CU_GRAPH_NODE_TYPE_GRAPH] = "GRAPH", [CU_GRAPH_NODE_TYPE_EMPTY] = "EMPTY",
	[CU_GRAPH_NODE_TYPE_WAIT_EVENT] = "WAIT_EVENT",
	[CU_GRAPH_NODE_TYPE_EVENT_RECORD] = "EVENT_RECORD",
	[CU_GRAPH_NODE_TYPE_MEM_ALLOC] = "MEM_ALLOC", [CU_GRAPH_NODE_TYPE_MEM_FREE] = "MEM_FREE",
	[CU_GRAPH_NODE_TYPE_CONDITIONAL] = "CONDITIONAL",
};
static const char *const conditional_names[] = {
	[CU_GRAPH_COND_TYPE_IF] = "if", [CU_GRAPH_COND_TYPE_WHILE] = "while",
	[CU_GRAPH_COND_TYPE_SWITCH] = "switch",
};

static void dot_graph(FILE *f, const struct zc_graph *g, const char *prefix);

/* A child graph (BODY -1) or a conditional node's body, drawn inside the node, an edge to
 * its first node. */
static void
dot_inner(FILE *f, const struct zc_graph *inner, const char *prefix, size_t i, int body)
{
	char name[256];

	if (body < 0)
		snprintf(name, sizeof name, "%s%zu.", prefix, i);
	else
		snprintf(name, sizeof name, "%s%zu.%d.", prefix, i, body);
	dot_graph(f, inner, name);
	if (inner->count)
		fprintf(f, "\t\"%s%zu\" -> \"%s0\" [style=dashed];\n", prefix, i, name);
}

static void
dot_graph(FILE *f, const struct zc_graph *g, const char *prefix)
{
	for (size_t i = 0; i < g->count; i++) {
		const struct zc_graph_node *n = g->nodes[i];
		fprintf(f, "\t\"%s%zu\" [shape=%s, label=\"%zu %s", prefix, i,
		        n->type == CU_GRAPH_NODE_TYPE_KERNEL ? "box" : "ellipse", i,
		        type_names[n->type]);
		if (n->type == CU_GRAPH_NODE_TYPE_KERNEL) {
			const struct zc_kernel_node *k = &n->kernel;
			fprintf(f, "\\n%s\\ngrid (%u,%u,%u) block (%u,%u,%u) shared %u", k->function->name,
			        k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
			        k->shared);
		} else if (n->type == CU_GRAPH_NODE_TYPE_MEMCPY) {
			fprintf(f, "\\n%zu x %zu x %zu bytes", n->memcpy.copy.width, n->memcpy.copy.height,
			        n->memcpy.copy.depth);
		} else if (n->type == CU_GRAPH_NODE_TYPE_MEMSET) {
			fprintf(f, "\\n%zu x %zu of %u bytes, value 0x%x", n->memset.fill.width,
			        n->memset.fill.height, n->memset.fill.elem_size, n->memset.fill.value);
		} else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
			fprintf(f, "\\n%s, %u bod%s", conditional_names[n->conditional.type],
			        n->conditional.size, n->conditional.size == 1 ? "y" : "ies");
		}
		fprintf(f, "\"];\n");
		for (size_t j = 0; j < n->ndeps; j++)
			fprintf(f, "\t\"%s%zu\" -> \"%s%zu\";\n", prefix, n->deps[j]->index, prefix, i);
		if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
			dot_inner(f, n->child, prefix, i, -1);
		for (unsigned b = 0; n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL && b < n->conditional.size; b++)
			dot_inner(f, n->conditional.bodies[b], prefix, i, (int)b);
	}
}

static CUresult
dot_print(CUgraph g, const char *path)
{
	CUresult r = zc_graph_check(g);
	FILE *f;

	if (r == CUDA_SUCCESS && !path)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL path");
	if (r != CUDA_SUCCESS)
		return r;
	if (!(f = fopen(path, "w")))
		return stub_fail(CUDA_ERROR_OPERATING_SYSTEM, "open %s", path);
	fprintf(f, "digraph zluda_convert_graph {\n");
	dot_graph(f, g, "");
	fprintf(f, "}\n");
	return fclose(f) == 0 ? CUDA_SUCCESS : stub_fail(CUDA_ERROR_OPERATING_SYSTEM, "write %s", path);
}

ZC_EXPORT CUresult
cuGraphDebugDotPrint(CUgraph hGraph, const char *path, unsigned int flags)
{
	return TRACE(dot_print(hGraph, path), "%p, %s, 0x%x", (void *)hGraph, path ? path : "(null)",
	             flags);
}

/* Graph memory nodes: an allocation node's memory is reserved when the node is made, at
 * the address every launch of the graph uses, as CUDA fixes it. A launch of the node makes
 * it live (allocated, for the program); a free of any kind (a free node of any graph,
 * cuMemFree, cuMemFreeAsync) ends that, the memory staying the graph's for its next
 * launch. It is given back when the last graph that holds the node goes while it is not
 * live; live, it outlives the graphs until the program frees it, as CUDA asks. */
static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t used, used_high;  /* bytes graph allocations hold, and the most they held */
static struct zc_graph_allocation *allocations;

void
zc_graph_memory_used(size_t *now, size_t *high, bool reset_high)
{
	pthread_mutex_lock(&memory_lock);
	if (reset_high)
		used_high = used;
	*now = used;
	*high = used_high;
	pthread_mutex_unlock(&memory_lock);
}

void
zc_graph_allocation_retain(struct zc_graph_allocation *a)
{
	pthread_mutex_lock(&memory_lock);
	a->refs++;
	pthread_mutex_unlock(&memory_lock);
}

/* The allocation whose memory starts at ptr, or NULL; memory_lock held. */
static struct zc_graph_allocation *
allocation_at(CUdeviceptr ptr)
{
	struct zc_graph_allocation *a = allocations;

	while (a && a->ptr != ptr)
		a = a->next;
	return a;
}

/* Takes a out of the held ones; memory_lock held. */
static void
forget(struct zc_graph_allocation *a)
{
	struct zc_graph_allocation **link = &allocations;

	while (*link != a)
		link = &(*link)->next;
	*link = a->next;
	used -= a->bytes;
}

void
zc_graph_allocation_release(struct zc_graph_allocation *a)
{
	pthread_mutex_lock(&memory_lock);
	bool give_back = --a->refs == 0 && !a->live;
	if (give_back)
		forget(a);
	pthread_mutex_unlock(&memory_lock);
	if (!give_back)
		return;
	zc_memory_free_device((void *)(uintptr_t)a->ptr);
	stub_free(a);
}

void
zc_graph_allocation_launched(struct zc_graph_allocation *a)
{
	pthread_mutex_lock(&memory_lock);
	a->live = true;
	pthread_mutex_unlock(&memory_lock);
}

bool
zc_graph_memory_free(CUdeviceptr ptr, struct zc_stream *s, CUresult *r)
{
	struct zc_graph_allocation *a;

	pthread_mutex_lock(&memory_lock);
	if (!(a = allocation_at(ptr))) {
		pthread_mutex_unlock(&memory_lock);
		return false;
	}
	if (!a->live) {
		pthread_mutex_unlock(&memory_lock);
		*r = stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx, the memory of a graph's allocation "
		               "node, is not allocated: freed already, or its graph not launched since",
		               (unsigned long long)ptr);
		return true;
	}
	a->live = false;
	*r = CUDA_SUCCESS;
	if (a->refs) { /* its graph keeps it for the next launch */
		pthread_mutex_unlock(&memory_lock);
		return true;
	}
	forget(a);
	pthread_mutex_unlock(&memory_lock);
	if (s)
		*r = zc_synchronize_stream(s->drv);
	if (*r == CUDA_SUCCESS)
		*r = zc_memory_free_device((void *)(uintptr_t)a->ptr);
	stub_free(a);
	return true;
}

CUresult
zc_graph_add_alloc(struct zc_graph *g, struct zc_graph_node *const *deps, size_t ndeps,
                   CUDA_MEM_ALLOC_NODE_PARAMS *params, struct zc_graph_node **out)
{
	struct zc_graph_allocation *a;
	struct zc_graph_node *n;
	void *p = NULL;
	CUresult r;

	if (!params || !params->bytesize)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL parameters or 0 bytes");
	if (params->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    params->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "graph memory of allocation type %d, location type %d",
		                 params->poolProps.allocType, params->poolProps.location.type);
	if (!(a = stub_alloc(sizeof *a)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph allocation");
	r = zc_memory_alloc_device(&p, params->bytesize);
	if (r == CUDA_SUCCESS && (r = zc_graph_add(g, CU_GRAPH_NODE_TYPE_MEM_ALLOC, deps, ndeps, &n)))
		zc_memory_free_device(p);
	if (r != CUDA_SUCCESS) {
		stub_free(a);
		return r;
	}
	*a = (struct zc_graph_allocation){ .ptr = (CUdeviceptr)(uintptr_t)p, .bytes = params->bytesize,
	                                   .refs = 1 };
	params->dptr = a->ptr;
	n->alloc.params = *params;
	n->alloc.params.accessDescs = NULL;  /* the caller's array; not kept */
	n->alloc.params.accessDescCount = 0;
	n->alloc.allocation = a;
	pthread_mutex_lock(&memory_lock);
	a->next = allocations;
	allocations = a;
	used += a->bytes;
	if (used > used_high)
		used_high = used;
	pthread_mutex_unlock(&memory_lock);
	*out = n;
	return CUDA_SUCCESS;
}

/* The allocation node of g whose memory starts at ptr, or NULL. */
static struct zc_graph_node *
alloc_node_of(const struct zc_graph *g, CUdeviceptr ptr)
{
	for (size_t i = 0; i < g->count; i++)
		if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC &&
		    g->nodes[i]->alloc.allocation->ptr == ptr)
			return g->nodes[i];
	return NULL;
}

CUresult
zc_graph_add_free(struct zc_graph *g, struct zc_graph_node *const *deps, size_t ndeps,
                  CUdeviceptr ptr, struct zc_graph_node **out)
{
	struct zc_graph_node *alloc = alloc_node_of(g, ptr), *n;
	struct zc_graph_allocation *other = NULL;
	CUresult r;

	/* a free node may free another graph's allocation, which a launch of that one made */
	if (!alloc) {
		pthread_mutex_lock(&memory_lock);
		other = allocation_at(ptr);
		pthread_mutex_unlock(&memory_lock);
	}
	if (!alloc && !other)
		return stub_fail(CUDA_ERROR_INVALID_VALUE,
		                 "0x%llx is not the memory of a graph's allocation node",
		                 (unsigned long long)ptr);
	if (alloc && alloc->alloc.allocation->freed_in_graph)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is freed by the graph already",
		                 (unsigned long long)ptr);
	if ((r = zc_graph_add(g, CU_GRAPH_NODE_TYPE_MEM_FREE, deps, ndeps, &n)) != CUDA_SUCCESS)
		return r;
	n->free_ptr = ptr;
	if (alloc)
		alloc->alloc.allocation->freed_in_graph = true;
	*out = n;
	return CUDA_SUCCESS;
}
