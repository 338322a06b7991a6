/* The entry points of graph memory nodes (cuGraphAddMemAllocNode, cuGraphAddMemFreeNode,
 * their parameters) and the devices' graph memory attributes. The nodes and their memory,
 * which captured cuMemAllocAsync / cuMemFreeAsync make too, are graph.c's. */
#include "graph.h"


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
	size_t used, used_high;
	switch (attr) {
	case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT:
	case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT:
		if (set) {
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "graph memory attribute %d cannot be set", attr);
			break;
		}
		zc_graph_memory_used(&used, &used_high, false);
		*(uint64_t *)value = used;
		break;
	case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH:
	case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH:
		if (set && *(const uint64_t *)value != 0) {
			r = stub_fail(CUDA_ERROR_INVALID_VALUE, "a high-water mark is only reset, with 0");
			break;
		}
		zc_graph_memory_used(&used, &used_high, set);
		if (!set)
			*(uint64_t *)value = used_high;
		break;
	default:
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "graph memory attribute %d", attr);
	}
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
