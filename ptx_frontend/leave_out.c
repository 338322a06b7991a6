/* Which kernels go because a function they need was left out (target.h): the module is a
 * graph of functions and variables joined by the values each one names, and whatever reaches
 * a left-out function goes with it. A kernel that takes a function's address, or names a
 * table whose initializer holds it, needs it as much as one that calls it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"

/* Deeper constant expressions than this are not followed (none are this deep in practice). */
#define MAX_CONSTANT_DEPTH 64

struct node {
	LLVMValueRef value;
	uint32_t *users; /* nodes whose code or initializer names this one */
	uint32_t nusers, users_cap;
	int64_t cause;   /* the left-out function it needs, -1 while none */
};

struct graph {
	struct node *nodes;
	uint32_t n, cap;
	uint32_t *slots; /* open addressing: node index + 1, 0 for empty */
	uint32_t nslots;
};

_Noreturn static void out_of_memory(void)
{
	fputs("zluda-convert: out of memory\n", stderr);
	abort();
}

static void *grow(void *p, size_t count, size_t size)
{
	if (!(p = realloc(p, (count ? count : 1) * size)))
		out_of_memory();
	return p;
}

static uint32_t slot_of(const struct graph *g, LLVMValueRef v)
{
	uint64_t h = (uint64_t)(uintptr_t)v;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	for (uint32_t s = (uint32_t)(h & (g->nslots - 1));; s = (s + 1) & (g->nslots - 1))
		if (!g->slots[s] || g->nodes[g->slots[s] - 1].value == v)
			return s;
}

static void add_node(struct graph *g, LLVMValueRef v)
{
	if (g->n == g->cap)
		g->nodes = grow(g->nodes, g->cap = g->cap ? g->cap * 2 : 256, sizeof(*g->nodes));
	g->nodes[g->n] = (struct node){.value = v, .cause = -1};
	g->slots[slot_of(g, v)] = ++g->n;
}

static int64_t node_of(const struct graph *g, LLVMValueRef v)
{
	uint32_t s = slot_of(g, v);

	return g->slots[s] ? (int64_t)g->slots[s] - 1 : -1;
}

static void add_user(struct node *n, uint32_t user)
{
	if (n->nusers && n->users[n->nusers - 1] == user)
		return;
	if (n->nusers == n->users_cap)
		n->users = grow(n->users, n->users_cap = n->users_cap ? n->users_cap * 2 : 4,
		                sizeof(*n->users));
	n->users[n->nusers++] = user;
}

/* Records that `user` names every function or variable inside the value v. */
static void note_names(struct graph *g, uint32_t user, LLVMValueRef v, int depth)
{
	int64_t named;

	if (LLVMIsAGlobalValue(v)) {
		if ((named = node_of(g, v)) >= 0)
			add_user(&g->nodes[named], user);
		return;
	}
	if (!LLVMIsAConstant(v) || depth == MAX_CONSTANT_DEPTH)
		return;
	for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
		note_names(g, user, LLVMGetOperand(v, (unsigned)i), depth + 1);
}

static void build_graph(struct graph *g, LLVMModuleRef m)
{
	uint32_t count = 0;

	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		count++;
	for (LLVMValueRef v = LLVMGetFirstGlobal(m); v; v = LLVMGetNextGlobal(v))
		count++;
	for (g->nslots = 16; g->nslots < 2 * count; g->nslots *= 2)
		;
	g->slots = calloc(g->nslots, sizeof(*g->slots));
	if (!g->slots)
		out_of_memory();
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		add_node(g, f);
	for (LLVMValueRef v = LLVMGetFirstGlobal(m); v; v = LLVMGetNextGlobal(v))
		add_node(g, v);
	for (uint32_t i = 0; i < g->n; i++) {
		LLVMValueRef v = g->nodes[i].value, init;

		if (LLVMIsAGlobalVariable(v)) {
			if ((init = LLVMGetInitializer(v)))
				note_names(g, i, init, 0);
			continue;
		}
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(v); b; b = LLVMGetNextBasicBlock(b))
			for (LLVMValueRef insn = LLVMGetFirstInstruction(b); insn;
			     insn = LLVMGetNextInstruction(insn))
				for (int o = 0, n = LLVMGetNumOperands(insn); o < n; o++)
					note_names(g, i, LLVMGetOperand(insn, (unsigned)o), 0);
	}
}

static const char *left_out_reason(LLVMValueRef v, unsigned *len)
{
	LLVMAttributeRef a;

	if (!LLVMIsAFunction(v) ||
	    !(a = LLVMGetStringAttributeAtIndex(v, LLVMAttributeFunctionIndex, PTX_LEFT_OUT_ATTRIBUTE,
	                                        (unsigned)strlen(PTX_LEFT_OUT_ATTRIBUTE))))
		return NULL;
	return LLVMGetStringAttributeValue(a, len);
}

static bool any_left_out(LLVMModuleRef m)
{
	unsigned len;

	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		if (left_out_reason(f, &len))
			return true;
	return false;
}

/* Every node that reaches a left-out function gets that function as its cause. */
static void spread_causes(struct graph *g)
{
	uint32_t *queue = grow(NULL, g->n, sizeof(*queue)), head = 0, tail = 0;
	unsigned len;

	for (uint32_t i = 0; i < g->n; i++)
		if (left_out_reason(g->nodes[i].value, &len)) {
			g->nodes[i].cause = i;
			queue[tail++] = i;
		}
	while (head < tail) {
		const struct node *n = &g->nodes[queue[head++]];

		for (uint32_t u = 0; u < n->nusers; u++)
			if (g->nodes[n->users[u]].cause < 0) {
				g->nodes[n->users[u]].cause = n->cause;
				queue[tail++] = n->users[u];
			}
	}
	free(queue);
}

static char *reason_for(const struct graph *g, const struct node *n)
{
	LLVMValueRef cause = g->nodes[n->cause].value;
	unsigned len;
	size_t name_len;
	const char *why = left_out_reason(cause, &len), *name = LLVMGetValueName2(cause, &name_len);
	char *text = NULL;
	int ok = cause == n->value
	       ? asprintf(&text, "%.*s", (int)len, why)
	       : asprintf(&text, "uses %.*s, which was left out: %.*s", (int)name_len, name, (int)len, why);

	if (ok < 0)
		out_of_memory();
	return text;
}

void ptx_leave_out(LLVMModuleRef module, const char *const *kernels, uint32_t nkernels,
                   char **reasons)
{
	struct graph g = {0};

	memset(reasons, 0, nkernels * sizeof(*reasons));
	if (!any_left_out(module))
		return;
	build_graph(&g, module);
	spread_causes(&g);
	for (uint32_t k = 0; k < nkernels; k++) {
		LLVMValueRef f = LLVMGetNamedFunction(module, kernels[k]);
		int64_t i = f ? node_of(&g, f) : -1;

		if (i >= 0 && g.nodes[i].cause >= 0)
			reasons[k] = reason_for(&g, &g.nodes[i]);
	}
	/* Nothing that stays names what goes, so the uses left are among the functions going. */
	for (uint32_t i = 0; i < g.n; i++)
		if (g.nodes[i].cause >= 0 && LLVMIsAFunction(g.nodes[i].value))
			LLVMReplaceAllUsesWith(g.nodes[i].value, LLVMGetPoison(LLVMTypeOf(g.nodes[i].value)));
	for (uint32_t i = 0; i < g.n; i++) {
		if (g.nodes[i].cause >= 0 && LLVMIsAFunction(g.nodes[i].value))
			LLVMDeleteFunction(g.nodes[i].value);
		free(g.nodes[i].users);
	}
	free(g.nodes);
	free(g.slots);
}
