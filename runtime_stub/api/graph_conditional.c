/* Conditional graph nodes (CUDA 12.3 on), made and copied: IF (body 0 when the condition is
 * not zero, else body 1 when there are two), WHILE (body 0 again and again while it is not
 * zero) and SWITCH (body N when it is N). A handle is the device address of the condition's
 * 32 bits, which a kernel's cudaGraphSetConditional stores (the lowering makes it that
 * store); graph_exec.c runs the nodes and gives a condition its default. */
#include <string.h>

#include "graph.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct zc_graph_condition *conditions;

static struct zc_graph_condition *
live_condition(CUgraphConditionalHandle handle)
{
	struct zc_graph_condition *c;

	pthread_mutex_lock(&lock);
	for (c = conditions; c && c->slot != (CUdeviceptr)handle; c = c->next)
		;
	if (c)
		c->refs++;
	pthread_mutex_unlock(&lock);
	return c;
}

static void
release(struct zc_graph_condition *c)
{
	struct zc_graph_condition **link = &conditions;
	bool last;

	pthread_mutex_lock(&lock);
	if ((last = --c->refs == 0)) {
		while (*link != c)
			link = &(*link)->next;
		*link = c->next;
	}
	pthread_mutex_unlock(&lock);
	if (last) {
		zc_memory_free_device((void *)(uintptr_t)c->slot);
		stub_free(c);
	}
}

static CUresult
make_condition(CUgraphConditionalHandle *out, CUgraph g, unsigned default_value,
               unsigned flags)
{
	struct zc_graph_condition *c;
	void *slot = NULL;
	CUresult r = zc_graph_check(g);

	if (r == CUDA_SUCCESS && !out)
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "NULL pHandle_out");
	if (r == CUDA_SUCCESS && (flags & ~(unsigned)CU_GRAPH_COND_ASSIGN_DEFAULT))
		r = stub_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x", flags);
	if (r != CUDA_SUCCESS)
		return r;
	if (!(c = stub_alloc(sizeof *c)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "conditional handle");
	if ((r = zc_memory_alloc_device(&slot, sizeof(unsigned))) != CUDA_SUCCESS) {
		stub_free(c);
		return r;
	}
	*c = (struct zc_graph_condition){ .slot = (CUdeviceptr)(uintptr_t)slot,
	                                  .default_value = default_value, .flags = flags,
	                                  .refs = 1, .sibling = g->conditions };
	g->conditions = c;
	pthread_mutex_lock(&lock);
	c->next = conditions;
	conditions = c;
	pthread_mutex_unlock(&lock);
	*out = (CUgraphConditionalHandle)c->slot;
	return CUDA_SUCCESS;
}

/* The context is the current one, which every node of the stub's graphs runs in. */
ZC_EXPORT CUresult
cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out, CUgraph hGraph,
                               CUcontext ctx, unsigned int defaultLaunchValue,
                               unsigned int flags)
{
	CUresult r = make_condition(pHandle_out, hGraph, defaultLaunchValue, flags);

	return TRACE(r, "%p, %p, %u, 0x%x -> 0x%llx", (void *)hGraph, (void *)ctx,
	             defaultLaunchValue, flags,
	             r == CUDA_SUCCESS ? (unsigned long long)*pHandle_out : 0ull);
}

void
zc_graph_conditions_release(struct zc_graph *g)
{
	for (struct zc_graph_condition *c = g->conditions, *next; c; c = next) {
		next = c->sibling;
		release(c);
	}
	g->conditions = NULL;
}

bool
zc_graph_has_conditional(const struct zc_graph *g)
{
	for (size_t i = 0; i < g->count; i++)
		if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
			return true;
	return false;
}

/* Calls visit on each of g's conditions (in bodies too). */
static void
each_condition(struct zc_graph *g, void (*visit)(struct zc_graph_condition *, void *), void *arg)
{
	for (size_t i = 0; i < g->count; i++) {
		struct zc_graph_node *n = g->nodes[i];

		if (n->type != CU_GRAPH_NODE_TYPE_CONDITIONAL)
			continue;
		visit(n->conditional.condition, arg);
		for (unsigned b = 0; b < n->conditional.size; b++)
			each_condition(n->conditional.bodies[b], visit, arg);
	}
}

static void
count_held(struct zc_graph_condition *c, void *held)
{
	*(size_t *)held += c->instantiated;
}

static void
count(struct zc_graph_condition *c, void *total)
{
	(void)c;
	++*(size_t *)total;
}

static void
hold(struct zc_graph_condition *c, void *arg)
{
	struct zc_graph_holds *holds = arg;

	c->instantiated = true;
	c->refs++;
	holds->conditions[holds->count++] = c;
}

bool
zc_graph_conditions_take(struct zc_graph *g, struct zc_graph_holds *holds, bool *out_of_memory)
{
	size_t held = 0, total = 0;

	*holds = (struct zc_graph_holds){ NULL, 0 };
	*out_of_memory = false;
	each_condition(g, count, &total);
	if (total && !(holds->conditions = stub_alloc(total * sizeof *holds->conditions))) {
		*out_of_memory = true;
		return false;
	}
	pthread_mutex_lock(&lock);
	each_condition(g, count_held, &held);
	if (held == 0)
		each_condition(g, hold, holds);
	pthread_mutex_unlock(&lock);
	if (held) {
		stub_free(holds->conditions);
		holds->conditions = NULL;
	}
	return held == 0;
}

void
zc_graph_conditions_give_back(struct zc_graph_holds *holds)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < holds->count; i++)
		holds->conditions[i]->instantiated = false;
	pthread_mutex_unlock(&lock);
	for (size_t i = 0; i < holds->count; i++)
		release(holds->conditions[i]);
	stub_free(holds->conditions);
	*holds = (struct zc_graph_holds){ NULL, 0 };
}

void
zc_graph_conditional_clear(struct zc_graph_node *n)
{
	for (unsigned i = 0; n->conditional.bodies && i < n->conditional.size; i++)
		zc_graph_free(n->conditional.bodies[i]);
	stub_free(n->conditional.bodies);
	if (n->conditional.condition)
		release(n->conditional.condition);
	memset(&n->conditional, 0, sizeof n->conditional);
}

/* Bodies for N: new, or copies of FROM's. */
static CUresult
make_bodies(struct zc_graph_node *n, unsigned size, struct zc_graph *const *from)
{
	CUresult r = CUDA_SUCCESS;

	if (!(n->conditional.bodies = stub_alloc(size * sizeof *n->conditional.bodies)))
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "conditional node");
	n->conditional.size = 0;
	for (unsigned i = 0; r == CUDA_SUCCESS && i < size; i++) {
		struct zc_graph *body = NULL;

		r = from ? zc_graph_copy(from[i], &body) : zc_graph_new(&body);
		if (r == CUDA_SUCCESS) {
			body->owner = n;
			n->conditional.bodies[n->conditional.size++] = body;
		}
	}
	return r;
}

CUresult
zc_graph_conditional_set(struct zc_graph_node *n, CUDA_CONDITIONAL_NODE_PARAMS *p)
{
	struct zc_graph_condition *c;
	CUresult r;

	if (p->type == CU_GRAPH_COND_TYPE_IF ? p->size < 1 || p->size > 2
	    : p->type == CU_GRAPH_COND_TYPE_WHILE ? p->size != 1
	    : p->type == CU_GRAPH_COND_TYPE_SWITCH ? p->size < 1 || p->size > 65536 : true)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "a conditional node of type %d and size %u",
		                 (int)p->type, p->size);
	if (!(c = live_condition(p->handle)))
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "0x%llx is not a conditional handle",
		                 (unsigned long long)p->handle);
	n->conditional.condition = c;
	n->conditional.type = p->type;
	if ((r = make_bodies(n, p->size, NULL)) != CUDA_SUCCESS) {
		zc_graph_conditional_clear(n);
		return r;
	}
	p->phGraph_out = n->conditional.bodies;
	return CUDA_SUCCESS;
}

CUresult
zc_graph_conditional_copy(struct zc_graph_node *to, const struct zc_graph_node *from)
{
	CUresult r;

	zc_graph_conditional_clear(to);
	to->conditional.condition = from->conditional.condition;
	pthread_mutex_lock(&lock);
	to->conditional.condition->refs++;
	pthread_mutex_unlock(&lock);
	to->conditional.type = from->conditional.type;
	if ((r = make_bodies(to, from->conditional.size, from->conditional.bodies)) != CUDA_SUCCESS)
		zc_graph_conditional_clear(to);
	return r;
}
