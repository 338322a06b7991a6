/* CUDA graphs: the objects behind CUgraph, CUgraphNode and CUgraphExec, shared by graph.c
 * (building and asking), graph_exec.c (instantiating, launching, updating) and capture.c
 * (graphs built from what a capturing stream is given).
 *
 * A graph is its nodes in the order they were made (cuGraphExecUpdate pairs nodes by that
 * order), each with the nodes it depends on. An executable graph is a deep copy with a run
 * order that respects every dependency; launching it submits the nodes in that order to
 * one stream, which keeps every dependency on every driver. */
#ifndef ZC_GRAPH_H
#define ZC_GRAPH_H

#include "api.h"

struct zc_kernel_node {
	struct zc_function *function;
	uint32_t grid[3], block[3];
	uint32_t shared;
	uint8_t *params;  /* packed in the PTX .param layout */
	void **args;      /* a pointer into params for each argument: what GetParams hands out */
	bool cooperative; /* captured from a cooperative launch, or its attribute set */
	CUlaunchAttribute *attributes;  /* the others set on the node, one per id */
	size_t nattributes;
};

/* The memory of a graph's allocation node: made when the node is made, at the address every
 * launch then uses (CUDA fixes it for the graph's life), and shared by the copies of the
 * graph. A launch allocates it (live) and a free node of any graph, cuMemFree or
 * cuMemFreeAsync frees it again, the memory staying the graph's for its next launch; it is
 * given back when the last copy of the graph goes while it is not live, or when the program
 * frees it after that (it outlives the graph, as in CUDA). */
struct zc_graph_allocation {
	struct zc_graph_allocation *next;  /* every allocation whose memory is held */
	CUdeviceptr ptr;
	size_t bytes;
	int refs;
	bool live;
	bool freed_in_graph;  /* by a free node of its own graph */
};

/* A conditional node's handle: the device memory of its condition's 32 bits, whose address
 * is the handle (a kernel's cudaGraphSetConditional stores there), shared by the graph it
 * was made for and every conditional node using it, in every copy (graph_conditional.c).
 * With CU_GRAPH_COND_ASSIGN_DEFAULT each launch that uses it writes its default there,
 * else the first writes 0 (graph_exec.c). */
struct zc_graph_condition {
	struct zc_graph_condition *next;  /* every live handle */
	struct zc_graph_condition *sibling;  /* the next made for the same graph */
	CUdeviceptr slot;
	unsigned default_value, flags;
	int refs;
	bool set;  /* written by a launch */
	bool instantiated;  /* an executable graph made from its graph exists */
};

struct zc_graph_node {
	struct zc_graph *graph;
	size_t index;  /* in graph->nodes */
	CUgraphNodeType type;
	struct zc_graph_node **deps;
	size_t ndeps;
	bool disabled;                       /* cuGraphNodeSetEnabled, in an executable graph */
	unsigned long visit;                 /* the last walk over the graph that reached it */
	const struct zc_graph_node *origin;  /* in a copy: the node it was made from */
	union {
		struct zc_kernel_node kernel;
		struct {
			struct zc_copy copy;
			CUDA_MEMCPY3D params;
		} memcpy;
		struct {
			struct zc_fill fill;
			CUDA_MEMSET_NODE_PARAMS params;
		} memset;
		CUDA_HOST_NODE_PARAMS host;
		struct zc_graph *child;  /* owned: a copy of the graph it was given */
		struct zc_event *event;
		struct {
			CUDA_MEM_ALLOC_NODE_PARAMS params;
			struct zc_graph_allocation *allocation;
		} alloc;
		CUdeviceptr free_ptr;
		struct {
			struct zc_graph_condition *condition;
			CUgraphConditionalNodeType type;
			unsigned size;
			struct zc_graph **bodies;  /* owned; what cuGraphAddNode hands out */
		} conditional;
	};
};

/* References a graph holds to user objects (cuGraphRetainUserObject). */
struct zc_user_reference {
	struct zc_user_object *object;
	unsigned count;
};

struct zc_graph {
	struct zc_graph_node **nodes;  /* in the order they were made */
	struct zc_user_reference *references;
	size_t nreferences;
	size_t count, capacity;
	struct zc_graph_node **order;  /* once instantiated: the run order */
	struct zc_graph_node *owner;   /* the child-graph or conditional node it is a graph of */
	struct zc_graph_condition *conditions;  /* the handles made for it (their siblings) */
};

/* The conditions an executable graph holds, each retained. */
struct zc_graph_holds {
	struct zc_graph_condition **conditions;
	size_t count;
};

struct zc_graph_exec {
	struct zc_graph *graph;
	uint64_t flags;
	struct zc_graph_holds holds;
};

/* graph.c */
CUresult zc_graph_new(struct zc_graph **out);
void zc_graph_free(struct zc_graph *g);
/* A new node of g after deps (nodes of g); its parameters are the caller's to fill. */
CUresult zc_graph_add(struct zc_graph *g, CUgraphNodeType type, struct zc_graph_node *const *deps,
                      size_t ndeps, struct zc_graph_node **out);
/* A node from a unit of stream work, as a capture records it. */
CUresult zc_graph_add_op(struct zc_graph *g, const struct zc_op *op,
                         struct zc_graph_node *const *deps, size_t ndeps,
                         struct zc_graph_node **out);
/* A deep copy, each node's origin set to the node copied. */
CUresult zc_graph_copy(const struct zc_graph *g, struct zc_graph **out);
/* Copies the parameters of `from` into `to`, a node of the same type. */
CUresult zc_graph_node_set(struct zc_graph_node *to, const struct zc_graph_node *from);
/* An event node's event, if live. */
CUresult zc_graph_set_event(struct zc_graph_node *n, CUevent e);
/* cuGraphNodeSetParams: the generic form's parameters, of n's type, checked and set. */
CUresult zc_graph_node_set_params(struct zc_graph_node *n, const CUgraphNodeParams *p);
bool zc_graph_has(const struct zc_graph *g, const struct zc_graph_node *node);
/* CUDA_ERROR_NOT_SUPPORTED unless each of the n edges (edges may be NULL) is a default one. */
CUresult zc_graph_default_edges(const CUgraphEdgeData *edges, size_t n);

/* An allocation node's memory, made for a node of g (as a capture's cuMemAllocAsync makes
 * one), and the node freeing it; the reference a copy of the node takes and the one it
 * drops; the bytes graph allocations hold, and the most they held (reset_high: since now). */
CUresult zc_graph_add_alloc(struct zc_graph *g, struct zc_graph_node *const *deps, size_t ndeps,
                            CUDA_MEM_ALLOC_NODE_PARAMS *params, struct zc_graph_node **out);
CUresult zc_graph_add_free(struct zc_graph *g, struct zc_graph_node *const *deps, size_t ndeps,
                           CUdeviceptr ptr, struct zc_graph_node **out);
void zc_graph_allocation_retain(struct zc_graph_allocation *a);
void zc_graph_allocation_release(struct zc_graph_allocation *a);
/* A launch of the node's graph allocates it. */
void zc_graph_allocation_launched(struct zc_graph_allocation *a);

void zc_graph_memory_used(size_t *now, size_t *high, bool reset_high);

/* user_object.c: a copy's references are its own (the objects retained again); a graph
 * going drops its own. A launch of g holds every reference of g and its children until
 * the launch has run (the hold is a host node's work at the end of the launch). */
CUresult zc_graph_copy_references(struct zc_graph *to, const struct zc_graph *from);
void zc_graph_drop_references(struct zc_graph *g);
CUresult zc_graph_hold_references(const struct zc_graph *g, struct zc_stream *s);

/* graph_exec.c: submits g's nodes in run order to s, children and all. */
CUresult zc_graph_run(const struct zc_graph *g, struct zc_stream *s);

/* graph_conditional.c: a conditional node made (its parameters checked, its bodies made and
 * handed out) and copied; what a node and a graph going release. */
CUresult zc_graph_conditional_set(struct zc_graph_node *n, CUDA_CONDITIONAL_NODE_PARAMS *p);
CUresult zc_graph_conditional_copy(struct zc_graph_node *to, const struct zc_graph_node *from);
void zc_graph_conditional_clear(struct zc_graph_node *n);
void zc_graph_conditions_release(struct zc_graph *g);
/* An executable graph's copy G of a graph takes its conditions into *holds (false, taking
 * none, when another holds one of them, or when memory runs out: *out_of_memory), or gives
 * them back when it goes: CUDA allows one instantiation of a graph with conditional nodes
 * at a time (their values are the graph's, one slot each). Updates from other graphs take
 * and give back none (NVIDIA's driver, on an H100). */
bool zc_graph_conditions_take(struct zc_graph *g, struct zc_graph_holds *holds, bool *out_of_memory);
void zc_graph_conditions_give_back(struct zc_graph_holds *holds);
/* Whether g has conditional nodes, which make it no child graph and no clone. */
bool zc_graph_has_conditional(const struct zc_graph *g);

#endif
