/* Graph memory nodes (cuGraphAddMemAllocNode, cuGraphAddMemFreeNode, and cuMemAllocAsync /
 * cuMemFreeAsync captured): an allocation node's memory is allocated when the node is made,
 * at the address every launch of the graph uses, as CUDA fixes it; launching the node does
 * nothing more, nor does the free node. The memory is given back when the last graph that
 * holds the node goes, if a free node frees it; else it outlives the graphs, and the
 * program frees it (cudaFree, cudaFreeAsync), as CUDA asks. */
#include "graph.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static size_t used, used_high;  /* bytes of live graph allocations, and the most there were */

void
zc_graph_allocation_retain(struct zc_graph_allocation *a)
{
	pthread_mutex_lock(&lock);
	a->refs++;
	pthread_mutex_unlock(&lock);
}

void
zc_graph_allocation_release(struct zc_graph_allocation *a)
{
	pthread_mutex_lock(&lock);
	bool last = --a->refs == 0;
	if (last)
		used -= a->bytes;
	pthread_mutex_unlock(&lock);
	if (!last)
		return;
	if (a->freed_in_graph)
		zc_memory_free_device((void *)(uintptr_t)a->ptr);
	stub_free(a);
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
	*a = (struct zc_graph_allocation){ (CUdeviceptr)(uintptr_t)p, params->bytesize, 1, false };
	params->dptr = a->ptr;
	n->alloc.params = *params;
	n->alloc.params.accessDescs = NULL;  /* the caller's array; not kept */
	n->alloc.params.accessDescCount = 0;
	n->alloc.allocation = a;
	pthread_mutex_lock(&lock);
	used += a->bytes;
	if (used > used_high)
		used_high = used;
	pthread_mutex_unlock(&lock);
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
	CUresult r;

	if (!alloc)
		return stub_fail(CUDA_ERROR_INVALID_VALUE,
		                 "0x%llx is not the memory of an allocation node of the graph",
		                 (unsigned long long)ptr);
	if (alloc->alloc.allocation->freed_in_graph)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is freed by the graph already",
		                 (unsigned long long)ptr);
	if ((r = zc_graph_add(g, CU_GRAPH_NODE_TYPE_MEM_FREE, deps, ndeps, &n)) != CUDA_SUCCESS)
		return r;
	n->free_ptr = ptr;
	alloc->alloc.allocation->freed_in_graph = true;
	*out = n;
	return CUDA_SUCCESS;
}

ZC_EXPORT CUresult
cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                       size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
	CUresult r = zc_graph_check(hGraph);

	if (r == CUDA_SUCCESS && !phGraphNode)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phGraphNode");
	if (r == CUDA_SUCCESS)
		r = zc_graph_add_alloc(hGraph, dependencies, numDependencies, nodeParams, phGraphNode);
	return TRACE(r, "%p, %zu bytes -> 0x%llx", (void *)hGraph, nodeParams ? nodeParams->bytesize : 0,
	             r == CUDA_SUCCESS ? (unsigned long long)nodeParams->dptr : 0ull);
}

ZC_EXPORT CUresult
cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                      size_t numDependencies, CUdeviceptr dptr)
{
	CUresult r = zc_graph_check(hGraph);

	if (r == CUDA_SUCCESS && !phGraphNode)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL phGraphNode");
	if (r == CUDA_SUCCESS)
		r = zc_graph_add_free(hGraph, dependencies, numDependencies, dptr, phGraphNode);
	return TRACE(r, "%p, 0x%llx", (void *)hGraph, (unsigned long long)dptr);
}

static CUresult
node_of_type(CUgraphNode n, CUgraphNodeType type, const void *out)
{
	CUresult r = zc_initialized();

	if (r == CUDA_SUCCESS && (!zc_handle_is(n, ZC_HANDLE_GRAPH_NODE) || n->type != type || !out))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "%p is not a live node of type %d, or NULL output",
		              (void *)n, (int)type);
	return r;
}

ZC_EXPORT CUresult
cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
	CUresult r = node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEM_ALLOC, params_out);

	if (r == CUDA_SUCCESS)
		*params_out = hNode->alloc.params;
	return TRACE(r, "%p", (void *)hNode);
}

ZC_EXPORT CUresult
cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out)
{
	CUresult r = node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEM_FREE, dptr_out);

	if (r == CUDA_SUCCESS)
		*dptr_out = hNode->free_ptr;
	return TRACE(r, "%p", (void *)hNode);
}

/* Nothing is held for graphs beyond their allocations, so there is nothing to trim. */
ZC_EXPORT CUresult
cuDeviceGraphMemTrim(CUdevice device)
{
	struct zc_device *d;

	return TRACE(zc_device_get(device, &d), "%d", device);
}

static CUresult
graph_mem_attribute(CUdevice device, int attr, void *value, bool set)
{
	struct zc_device *d;
	CUresult r = zc_device_get(device, &d);

	if (r == CUDA_SUCCESS && !value)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL value");
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&lock);
	switch (attr) {
	case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT:
	case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT:
		if (set)
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "graph memory attribute %d cannot be set", attr);
		else
			*(uint64_t *)value = used;
		break;
	case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH:
	case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH:
		if (set && *(const uint64_t *)value != 0)
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a high-water mark is only reset, with 0");
		else if (set)
			used_high = used;
		else
			*(uint64_t *)value = used_high;
		break;
	default:
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "graph memory attribute %d", attr);
	}
	pthread_mutex_unlock(&lock);
	return r;
}

ZC_EXPORT CUresult
cuDeviceGetGraphMemAttribute(CUdevice device, int attr, void *value)
{
	return TRACE(graph_mem_attribute(device, attr, value, false), "%d, %d", device, attr);
}

ZC_EXPORT CUresult
cuDeviceSetGraphMemAttribute(CUdevice device, int attr, void *value)
{
	return TRACE(graph_mem_attribute(device, attr, value, true), "%d, %d", device, attr);
}
