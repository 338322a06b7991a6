/* The driver API past streams and events, called directly on the host driver with two
 * devices: the exact errors of graphs (bad handles, cycles, refused updates, listing with
 * little room), stream capture (illegal calls, wrong stream, invalidation), memory pools,
 * virtual memory (misaligned and overlapping ranges, memory that faults until access is
 * given) and peer access. What cudart 13 does with them is tests/programs' business. */
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "expect.h"
#include "exports.h"

#define FAILS(call, code) EXPECT((call) == (code))

static void
test_graphs(void)
{
	CUgraph g, other;
	CUgraphNode a, b, c, nodes[4];
	size_t count;
	CUgraphExec exec;
	CUgraphExecUpdateResultInfo info;

	FAILS(cuGraphCreate(NULL, 0), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuGraphCreate(&g, 1), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphCreate(&other, 0));
	OK(cuGraphAddEmptyNode(&a, g, NULL, 0));
	OK(cuGraphAddEmptyNode(&b, g, &a, 1));
	/* A dependency from another graph, or the same one twice. */
	FAILS(cuGraphAddEmptyNode(&c, other, &a, 1), CUDA_ERROR_INVALID_VALUE);
	CUgraphNode twice[2] = {a, a};
	FAILS(cuGraphAddEmptyNode(&c, g, twice, 2), CUDA_ERROR_INVALID_VALUE);
	/* Listing with room for one of two: one given, the count says one. */
	count = 1;
	memset(nodes, 0, sizeof nodes);
	OK(cuGraphGetNodes(g, nodes, &count));
	EXPECT(count == 1 && nodes[0] == a);
	count = 4;
	OK(cuGraphGetNodes(g, nodes, &count));
	EXPECT(count == 2 && nodes[2] == NULL);
	/* An edge that exists, or one that closes a cycle: the cycle is found at instantiation. */
	FAILS(cuGraphAddDependencies(g, &a, &b, 1), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphAddDependencies(g, &b, &a, 1));
	FAILS(cuGraphInstantiateWithFlags(&exec, g, 0), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphRemoveDependencies(g, &b, &a, 1));
	FAILS(cuGraphRemoveDependencies(g, &b, &a, 1), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphInstantiateWithFlags(&exec, g, 0));
	/* Node handles: a node's type, and a node of another type refused. */
	CUgraphNodeType type;
	OK(cuGraphNodeGetType(b, &type));
	EXPECT(type == CU_GRAPH_NODE_TYPE_EMPTY);
	CUDA_HOST_NODE_PARAMS host;
	FAILS(cuGraphHostNodeGetParams(b, &host), CUDA_ERROR_INVALID_VALUE);
	/* An update from a graph of another shape changes nothing and says why. */
	OK(cuGraphAddEmptyNode(&c, other, NULL, 0));
	FAILS(cuGraphExecUpdate_v2(exec, other, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
	EXPECT(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
	OK(cuGraphExecDestroy(exec));
	FAILS(cuGraphExecDestroy(exec), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphDestroy(g));
	FAILS(cuGraphDestroy(g), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuGraphNodeGetType(a, &type), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphDestroy(other));

	/* Memory nodes: a free node only for the graph's own allocation, and once. */
	CUDA_MEM_ALLOC_NODE_PARAMS alloc = {0};
	CUgraphNode freed;
	CUdeviceptr plain;
	OK(cuGraphCreate(&g, 0));
	FAILS(cuGraphAddMemAllocNode(&a, g, NULL, 0, &alloc), CUDA_ERROR_INVALID_VALUE);
	alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	alloc.bytesize = 4096;
	OK(cuGraphAddMemAllocNode(&a, g, NULL, 0, &alloc));
	EXPECT(alloc.dptr != 0);
	OK(cuMemAlloc_v2(&plain, 64));
	FAILS(cuGraphAddMemFreeNode(&freed, g, &a, 1, plain), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphAddMemFreeNode(&freed, g, &a, 1, alloc.dptr));
	FAILS(cuGraphAddMemFreeNode(&c, g, &freed, 1, alloc.dptr), CUDA_ERROR_INVALID_VALUE);
	OK(cuMemFree_v2(plain));
	OK(cuGraphDestroy(g));
}

static int destroyed;
static void count_destruction(void *p) { destroyed += *(int *)p; }
static void nothing(void *p) { (void)p; }

/* The generic node calls, kernel-node attributes on a node without a kernel refused, child
 * graphs moved into their node, capture into a graph given, user objects. */
static void
test_generic_nodes(void)
{
	CUgraph g, child, into;
	CUgraphNode a, b, moved, captured[2];
	CUgraphNodeParams p;
	CUstream s;
	size_t count;
	int status;

	OK(cuGraphCreate(&g, 0));
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_EMPTY;
	FAILS(cuGraphAddNode_v2(&a, g, NULL, NULL, 0, NULL), CUDA_ERROR_INVALID_VALUE);
	p.reserved0[1] = 1;
	FAILS(cuGraphAddNode_v2(&a, g, NULL, NULL, 0, &p), CUDA_ERROR_INVALID_VALUE);
	p.reserved0[1] = 0;
	OK(cuGraphAddNode_v2(&a, g, NULL, NULL, 0, &p));
	CUgraphEdgeData programmatic = { .type = 1 };
	FAILS(cuGraphAddNode_v2(&b, g, &a, &programmatic, 1, &p), CUDA_ERROR_NOT_SUPPORTED);
	p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL; /* an IF of no body, of no handle */
	FAILS(cuGraphAddNode_v2(&b, g, &a, NULL, 1, &p), CUDA_ERROR_INVALID_VALUE);
	p.conditional.size = 1;
	FAILS(cuGraphAddNode_v2(&b, g, &a, NULL, 1, &p), CUDA_ERROR_INVALID_VALUE);
	p.conditional.size = 0;
	p.type = (CUgraphNodeType)99;
	FAILS(cuGraphAddNode_v2(&b, g, &a, NULL, 1, &p), CUDA_ERROR_INVALID_VALUE);
	count = 0;
	OK(cuGraphGetNodes(g, NULL, &count));
	EXPECT(count == 1);  /* nothing left of the refused nodes */
	/* Parameters of another type, and a host node without a function. */
	p.type = CU_GRAPH_NODE_TYPE_HOST;
	FAILS(cuGraphNodeSetParams(a, &p), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuGraphAddNode_v2(&b, g, &a, NULL, 1, &p), CUDA_ERROR_INVALID_VALUE);
	CUlaunchAttributeValue v = { .priority = 1 };
	FAILS(cuGraphKernelNodeSetAttribute(a, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v),
	      CUDA_ERROR_INVALID_VALUE);
	/* A memory allocation node's parameters stay as made. */
	CUgraphNodeParams alloc = { .type = CU_GRAPH_NODE_TYPE_MEM_ALLOC };
	alloc.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	alloc.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	alloc.alloc.bytesize = 4096;
	OK(cuGraphAddNode_v2(&b, g, &a, NULL, 1, &alloc));
	EXPECT(alloc.alloc.dptr != 0);
	FAILS(cuGraphNodeSetParams(b, &alloc), CUDA_ERROR_NOT_SUPPORTED);
	OK(cuGraphDestroyNode(b));

	/* A moved child belongs to its node: neither destroyed alone nor moved twice. */
	OK(cuGraphCreate(&child, 0));
	OK(cuGraphAddEmptyNode(&b, child, NULL, 0));
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_GRAPH;
	p.graph.graph = child;
	p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE;
	OK(cuGraphAddNode_v2(&moved, g, &a, NULL, 1, &p));
	FAILS(cuGraphDestroy(child), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuGraphAddNode_v2(&b, g, NULL, NULL, 0, &p), CUDA_ERROR_NOT_SUPPORTED);
	p.graph.graph = g;
	FAILS(cuGraphAddNode_v2(&b, g, NULL, NULL, 0, &p), CUDA_ERROR_INVALID_VALUE);

	/* Capture into a given graph: its dependencies must be its own nodes. */
	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	OK(cuGraphCreate(&into, 0));
	FAILS(cuStreamBeginCaptureToGraph(s, into, &a, NULL, 1, CU_STREAM_CAPTURE_MODE_GLOBAL),
	      CUDA_ERROR_INVALID_VALUE);
	OK(cuStreamIsCapturing(s, &status));
	EXPECT(status == CU_STREAM_CAPTURE_STATUS_NONE);
	OK(cuStreamBeginCaptureToGraph(s, g, &moved, NULL, 1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	const CUgraphNode *deps;
	size_t ndeps;
	CUgraph capturing;
	OK(cuStreamGetCaptureInfo_v2(s, &status, NULL, (void **)&capturing, (const void **)&deps,
	                             &ndeps));
	EXPECT(status == CU_STREAM_CAPTURE_STATUS_ACTIVE && capturing == g && ndeps == 1 &&
	       deps[0] == moved);
	OK(cuLaunchHostFunc(s, nothing, NULL));
	CUgraph ended = NULL;
	OK(cuStreamEndCapture(s, &ended));
	EXPECT(ended == g);
	count = 2;
	OK(cuGraphNodeGetDependentNodes(moved, captured, &count));
	EXPECT(count == 1);
	/* Invalidated, the capture takes the graph given with it, as on an H200. */
	OK(cuStreamBeginCaptureToGraph(s, into, NULL, NULL, 0, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CUdeviceptr ptr;
	FAILS(cuMemAlloc_v2(&ptr, 64), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
	FAILS(cuStreamEndCapture(s, &ended), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
	EXPECT(ended == NULL);
	FAILS(cuGraphDestroy(into), CUDA_ERROR_INVALID_VALUE);

	/* User objects: the counts checked; the destructor runs when the last reference goes,
	 * the graph's included. */
	CUuserObject object;
	int weight = 1;
	FAILS(cuUserObjectCreate(&object, &weight, count_destruction, 0,
	                         CU_USER_OBJECT_NO_DESTRUCTOR_SYNC), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuUserObjectCreate(&object, &weight, count_destruction, 1, 0), CUDA_ERROR_INVALID_VALUE);
	OK(cuUserObjectCreate(&object, &weight, count_destruction, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	OK(cuGraphRetainUserObject(g, object, 2, 0));
	FAILS(cuGraphRetainUserObject(g, object, 1, 2), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuGraphReleaseUserObject(g, object, 3), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphReleaseUserObject(g, object, 1));
	OK(cuUserObjectRelease(object, 1));
	EXPECT(destroyed == 0);
	OK(cuGraphDestroy(g));
	EXPECT(destroyed == 1);
	FAILS(cuUserObjectRelease(object, 1), CUDA_ERROR_INVALID_VALUE);
	OK(cuStreamDestroy_v2(s));
}

static void
test_capture(void)
{
	CUstream s, t;
	CUgraph g;
	CUevent e;
	CUdeviceptr p;
	int status;

	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	OK(cuStreamCreate(&t, CU_STREAM_NON_BLOCKING));
	OK(cuEventCreate(&e, 0));
	FAILS(cuStreamBeginCapture_v2(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL),
	      CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
	FAILS(cuStreamBeginCapture_v2(s, (CUstreamCaptureMode)7), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuStreamEndCapture(s, &g), CUDA_ERROR_ILLEGAL_STATE);
	/* Allocating during a global capture invalidates it. */
	OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	FAILS(cuMemAlloc_v2(&p, 64), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
	OK(cuStreamIsCapturing(s, &status));
	EXPECT(status == CU_STREAM_CAPTURE_STATUS_INVALIDATED);
	FAILS(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
	/* A fork ended in the wrong stream. */
	OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	OK(cuEventRecord(e, s));
	OK(cuStreamWaitEvent(t, e, 0));
	FAILS(cuStreamEndCapture(t, &g), CUDA_ERROR_STREAM_CAPTURE_UNMATCHED);
	FAILS(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
	OK(cuStreamIsCapturing(t, &status));
	EXPECT(status == CU_STREAM_CAPTURE_STATUS_NONE);
	/* An event recorded in a capture cannot be waited for from the host. */
	OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED));
	OK(cuEventRecord(e, s));
	FAILS(cuEventSynchronize(e), CUDA_ERROR_CAPTURED_EVENT);
	FAILS(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
	/* Dependencies updated by hand: only nodes of the capture. */
	OK(cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED));
	CUgraphNode stranger = (CUgraphNode)&status;
	FAILS(cuStreamUpdateCaptureDependencies(s, &stranger, 1, CU_STREAM_SET_CAPTURE_DEPENDENCIES),
	      CUDA_ERROR_INVALID_VALUE);
	FAILS(cuStreamUpdateCaptureDependencies(s, NULL, 0, 9), CUDA_ERROR_INVALID_VALUE);
	OK(cuStreamEndCapture(s, &g));
	OK(cuGraphDestroy(g));
	OK(cuEventDestroy_v2(e));
	OK(cuStreamDestroy_v2(s));
	OK(cuStreamDestroy_v2(t));
}

static void
test_pools(void)
{
	CUmemoryPool pool, def;
	CUmemPoolProps props = {0};
	CUstream s;
	CUdeviceptr p;
	uint64_t value = 5;

	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	props.allocType = 2;  /* managed */
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	FAILS(cuMemPoolCreate(&pool, &props), CUDA_ERROR_NOT_SUPPORTED);
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.id = 7;
	FAILS(cuMemPoolCreate(&pool, &props), CUDA_ERROR_INVALID_DEVICE);
	props.location.id = 0;
	OK(cuMemPoolCreate(&pool, &props));
	OK(cuDeviceGetDefaultMemPool(&def, 0));
	FAILS(cuMemPoolDestroy(def), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &value),
	      CUDA_ERROR_INVALID_VALUE);
	FAILS(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &value), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuDeviceSetMemPool(1, pool), CUDA_ERROR_INVALID_DEVICE);
	OK(cuMemAllocFromPoolAsync(&p, 1000, pool, s));
	OK(cuMemFreeAsync(p, s));
	FAILS(cuMemFreeAsync(p, s), CUDA_ERROR_INVALID_VALUE);
	OK(cuStreamSynchronize(s));
	OK(cuMemPoolDestroy(pool));
	FAILS(cuMemAllocFromPoolAsync(&p, 1000, pool, s), CUDA_ERROR_INVALID_VALUE);
	OK(cuStreamDestroy_v2(s));
}

static sigjmp_buf faulted;

static void
on_fault(int sig)
{
	(void)sig;
	siglongjmp(faulted, 1);
}

/* Whether writing *p faults. */
static bool
write_faults(volatile int *p)
{
	struct sigaction fault = {0}, old;
	bool faults = false;

	fault.sa_handler = on_fault;
	sigaction(SIGSEGV, &fault, &old);
	if (sigsetjmp(faulted, 1) == 0)
		*p = 1;
	else
		faults = true;
	sigaction(SIGSEGV, &old, NULL);
	return faults;
}

static void
test_virtual_memory(void)
{
	CUmemAllocationProp prop = {0};
	CUmemGenericAllocationHandle h;
	CUdeviceptr va;
	size_t g;

	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	OK(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	FAILS(cuMemCreate(&h, g + 1, &prop, 0), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuMemAddressReserve(&va, g - 1, 0, 0, 0), CUDA_ERROR_INVALID_VALUE);
	OK(cuMemCreate(&h, g, &prop, 0));
	OK(cuMemAddressReserve(&va, 4 * g, 0, 0, 0));
	FAILS(cuMemMap(va + 4 * g, g, 0, h, 0), CUDA_ERROR_INVALID_VALUE);  /* past the reservation */
	FAILS(cuMemMap(va, 2 * g, 0, h, 0), CUDA_ERROR_NOT_SUPPORTED);      /* past the allocation */
	OK(cuMemMap(va, g, 0, h, 0));
	FAILS(cuMemMap(va, g, 0, h, 0), CUDA_ERROR_INVALID_VALUE);          /* mapped already */
	/* Mapped without access, the memory faults; with it, it does not. */
	EXPECT(write_faults((int *)(uintptr_t)va));
	CUmemAccessDesc rw = { prop.location, CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
	FAILS(cuMemSetAccess(va, 2 * g, &rw, 1), CUDA_ERROR_INVALID_VALUE);  /* not all mapped */
	OK(cuMemSetAccess(va, g, &rw, 1));
	EXPECT(!write_faults((int *)(uintptr_t)va));
	FAILS(cuMemAddressFree(va, 4 * g), CUDA_ERROR_INVALID_VALUE);  /* still mapped */
	OK(cuMemRelease(h));
	FAILS(cuMemRelease(h), CUDA_ERROR_INVALID_VALUE);
	OK(cuMemUnmap(va, g));
	OK(cuMemUnmap(va, g));  /* nothing mapped there: no mapping cut, as an H200 answers */

	/* Shared as a file descriptor and imported: the same memory under another handle. Only an
	 * allocation made to be shared exports. */
	int fd = -1;
	CUmemGenericAllocationHandle shared, imported;
	OK(cuMemCreate(&h, g, &prop, 0));
	FAILS(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
	      CUDA_ERROR_INVALID_VALUE);
	OK(cuMemRelease(h));
	prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	OK(cuMemCreate(&shared, g, &prop, 0));
	FAILS(cuMemExportToShareableHandle(&fd, shared, 2, 0), CUDA_ERROR_NOT_SUPPORTED);
	OK(cuMemExportToShareableHandle(&fd, shared, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	EXPECT(fd >= 0);
	OK(cuMemImportFromShareableHandle(&imported, (void *)(intptr_t)fd,
	                                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	OK(cuMemMap(va, g, 0, shared, 0));
	OK(cuMemMap(va + 2 * g, g, 0, imported, 0));
	OK(cuMemSetAccess(va, g, &rw, 1));
	OK(cuMemSetAccess(va + 2 * g, g, &rw, 1));
	((volatile int *)(uintptr_t)va)[100] = 4242;
	EXPECT(((volatile int *)(uintptr_t)(va + 2 * g))[100] == 4242);
	OK(cuMemUnmap(va, g));
	OK(cuMemUnmap(va + 2 * g, g));
	OK(cuMemRelease(shared));
	OK(cuMemRelease(imported));
	close(fd);
	OK(cuMemAddressFree(va, 4 * g));
}

static void
test_peers(void)
{
	CUcontext ctx0, ctx1;
	int can;

	OK(cuDevicePrimaryCtxRetain(&ctx0, 0));
	OK(cuDevicePrimaryCtxRetain(&ctx1, 1));
	OK(cuDeviceCanAccessPeer(&can, 0, 1));
	EXPECT(can == 1);
	FAILS(cuDeviceCanAccessPeer(&can, 0, 2), CUDA_ERROR_INVALID_DEVICE);
	OK(cuCtxSetCurrent(ctx0));
	FAILS(cuCtxEnablePeerAccess(ctx0, 0), CUDA_ERROR_PEER_ACCESS_UNSUPPORTED);
	FAILS(cuCtxEnablePeerAccess(ctx1, 1), CUDA_ERROR_INVALID_VALUE);
	FAILS(cuCtxDisablePeerAccess(ctx1), CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
	OK(cuCtxEnablePeerAccess(ctx1, 0));
	FAILS(cuCtxEnablePeerAccess(ctx1, 0), CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);
	OK(cuCtxDisablePeerAccess(ctx1));
	OK(cuDevicePrimaryCtxRelease_v2(1));
	OK(cuDevicePrimaryCtxRelease_v2(0));
}

int
main(void)
{
	CUcontext ctx;
	int count;

	OK(cuInit(0));
	OK(cuDeviceGetCount(&count));
	EXPECT(count == 2);  /* ZLUDA_CONVERT_HOST_DEVICES=2 */
	OK(cuDevicePrimaryCtxRetain(&ctx, 0));
	OK(cuCtxSetCurrent(ctx));
	test_graphs();
	test_generic_nodes();
	test_capture();
	test_pools();
	test_virtual_memory();
	test_peers();
	OK(cuCtxSetCurrent(ctx));
	OK(cuDevicePrimaryCtxRelease_v2(0));
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures != 0;
}
