/* A large module compiled in parts: its kernels divided among parts, each part a module of
 * its own (its kernels, with everything they reach) that is optimised and generated on its
 * own, so that parts run on several cores; the parts' object files link into one code
 * object. How many parts, and which kernel goes where, depends on the module alone, never
 * on how many cores compile it: the code object is the same for any -j.
 *
 * Only a module whose parts cannot tell they were apart is split: no kernel is used as a
 * value (a device-side launch names one), no function is called other than directly (a
 * table of function pointers would hold one part's copies), and no variable of the module
 * (but shared ones, which are per block anyway) is private to it and written (each part
 * would have its own). The first part keeps the module's variables; the others refer to
 * them, and keep private copies of the functions they call. Where those copies would
 * cost more than a quarter more work than the whole module, there are fewer parts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "common.h"

enum {
	/* lowered instructions per part: a few seconds of one core's work, against a few
	 * hundredths a part costs (its builtins, its context, its object) */
	DEFAULT_PART_INSTRUCTIONS = 100000,
	MAX_PARTS = 32,
};

typedef struct {
	LLVMValueRef function;
	size_t instructions;
	size_t *callees; /* indexes into the sorted definitions */
	size_t ncallees;
	size_t seen;     /* the walk that last counted it */
} Definition;

static int by_function(const void *a, const void *b)
{
	LLVMValueRef x = ((const Definition *)a)->function, y = ((const Definition *)b)->function;
	return (x > y) - (x < y);
}

static Definition *find(Definition *defs, size_t n, LLVMValueRef function)
{
	Definition key = {.function = function};
	return bsearch(&key, defs, n, sizeof *defs, by_function);
}

static bool is_local(LLVMValueRef global)
{
	LLVMLinkage linkage = LLVMGetLinkage(global);
	return linkage == LLVMInternalLinkage || linkage == LLVMPrivateLinkage;
}

/* Whether every use of f calls it. */
static bool only_called(LLVMValueRef f)
{
	for (LLVMUseRef use = LLVMGetFirstUse(f); use; use = LLVMGetNextUse(use)) {
		LLVMValueRef user = LLVMGetUser(use);
		if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != f)
			return false;
	}
	return true;
}

static bool splittable(LLVMModuleRef m)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f) && (zc_is_kernel(f) ? LLVMGetFirstUse(f) != NULL : !only_called(f)))
			return false;
	for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
		if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != ZC_SHARED_ADDRSPACE && !LLVMIsDeclaration(g) &&
		    is_local(g) && !LLVMIsGlobalConstant(g))
			return false;
	return true;
}

/* Every function definition with its instructions and the definitions it calls, sorted. */
static Definition *definitions(LLVMModuleRef m, size_t *n)
{
	size_t count = 0, k = 0;
	Definition *defs;

	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		count += !LLVMIsDeclaration(f);
	defs = zc_alloc((count + 1) * sizeof *defs);
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f))
			defs[k++] = (Definition){.function = f};
	qsort(defs, count, sizeof *defs, by_function);
	for (size_t d = 0; d < count; d++) {
		size_t capacity = 0;

		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(defs[d].function); b; b = LLVMGetNextBasicBlock(b))
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
				Definition *callee = LLVMIsACallInst(i) ? find(defs, count, LLVMGetCalledValue(i)) : NULL;

				defs[d].instructions++;
				if (!callee)
					continue;
				if (defs[d].ncallees == capacity)
					defs[d].callees = zc_realloc(defs[d].callees, (capacity = capacity * 2 + 4) * sizeof(size_t));
				defs[d].callees[defs[d].ncallees++] = (size_t)(callee - defs);
			}
	}
	*n = count;
	return defs;
}

/* The instructions of definition d and of every definition it reaches not yet counted by
 * this walk. */
static size_t reached(Definition *defs, size_t d, size_t walk)
{
	size_t total;

	if (defs[d].seen == walk)
		return 0;
	defs[d].seen = walk;
	total = defs[d].instructions;
	for (size_t c = 0; c < defs[d].ncallees; c++)
		total += reached(defs, defs[d].callees[c], walk);
	return total;
}

typedef struct {
	size_t cost;
	uint32_t kernel;
	size_t definition; /* into the sorted definitions; SIZE_MAX: none (left out) */
} Weighed;

static int heaviest_first(const void *a, const void *b)
{
	const Weighed *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	return (x->kernel > y->kernel) - (x->kernel < y->kernel);
}

/* The heaviest kernel first, each to the lightest part so far. */
static void share_out(const Weighed *order, uint32_t nkernels, size_t nparts, uint32_t *part_of)
{
	size_t *load = zc_alloc(nparts * sizeof *load);

	memset(load, 0, nparts * sizeof *load);
	for (uint32_t i = 0; i < nkernels; i++) {
		size_t lightest = 0;

		for (size_t p = 1; p < nparts; p++)
			if (load[p] < load[lightest])
				lightest = p;
		part_of[order[i].kernel] = (uint32_t)lightest;
		load[lightest] += order[i].cost;
	}
	free(load);
}

/* The instructions the kernels reach, each counted once per part that reaches it (nparts
 * 1: once in all). */
static size_t instructions_compiled(Definition *defs, const Weighed *order, uint32_t nkernels,
                                    const uint32_t *part_of, size_t nparts, size_t *walk)
{
	size_t total = 0;

	for (size_t p = 0; p < nparts; p++) {
		++*walk;
		for (uint32_t i = 0; i < nkernels; i++)
			if (order[i].definition != SIZE_MAX && (nparts == 1 || part_of[order[i].kernel] == p))
				total += reached(defs, order[i].definition, *walk);
	}
	return total;
}

uint32_t zc_plan_parts(LLVMModuleRef lowered, const char *const *kernels, uint32_t nkernels,
                       size_t part_instructions, uint32_t *part_of)
{
	size_t ndefs, total = 0, whole, nparts, walk = 0;
	Definition *defs;
	Weighed *order;

	memset(part_of, 0, nkernels * sizeof *part_of);
	if (nkernels < 2 || !splittable(lowered))
		return 1;
	defs = definitions(lowered, &ndefs);
	order = zc_alloc(nkernels * sizeof *order);
	for (uint32_t k = 0; k < nkernels; k++) {
		LLVMValueRef f = LLVMGetNamedFunction(lowered, kernels[k]);
		Definition *d = f ? find(defs, ndefs, f) : NULL;

		order[k] = (Weighed){0, k, d ? (size_t)(d - defs) : SIZE_MAX};
		order[k].cost = d ? reached(defs, order[k].definition, ++walk) : 0;
		total += order[k].cost;
	}
	whole = instructions_compiled(defs, order, nkernels, part_of, 1, &walk);
	nparts = total / (part_instructions ? part_instructions : DEFAULT_PART_INSTRUCTIONS);
	if (nparts > MAX_PARTS)
		nparts = MAX_PARTS;
	if (nparts > nkernels)
		nparts = nkernels;
	qsort(order, nkernels, sizeof *order, heaviest_first);
	/* Functions that several parts call are compiled in each: fewer parts where that would
	 * cost more than a quarter more than the whole module (a large function every kernel
	 * calls would otherwise be compiled once per part). */
	for (; nparts >= 2; nparts /= 2) {
		share_out(order, nkernels, nparts, part_of);
		if (instructions_compiled(defs, order, nkernels, part_of, nparts, &walk) * 4 <= whole * 5)
			break;
	}
	for (size_t d = 0; d < ndefs; d++)
		free(defs[d].callees);
	free(defs);
	free(order);
	if (nparts < 2) {
		memset(part_of, 0, nkernels * sizeof *part_of);
		return 1;
	}
	return (uint32_t)nparts;
}

/* Variable g becomes a declaration of the same name: the first part defines it. */
static void refer_to_first_part(LLVMModuleRef part, LLVMValueRef g)
{
	size_t length;
	const char *name = LLVMGetValueName2(g, &length);
	char *kept = zc_strndup(name, length);
	LLVMValueRef declaration = LLVMAddGlobalInAddressSpace(part, LLVMGlobalGetValueType(g), "",
	                                                       LLVMGetPointerAddressSpace(LLVMTypeOf(g)));

	LLVMSetAlignment(declaration, LLVMGetAlignment(g));
	LLVMSetVisibility(declaration, LLVMGetVisibility(g));
	LLVMSetGlobalConstant(declaration, LLVMIsGlobalConstant(g));
	LLVMSetExternallyInitialized(declaration, LLVMIsExternallyInitialized(g));
	LLVMReplaceAllUsesWith(g, declaration);
	LLVMDeleteGlobal(g);
	LLVMSetValueName2(declaration, kept, length);
	free(kept);
}

void zc_make_part(LLVMModuleRef part, bool first)
{
	LLVMValueRef next;

	for (LLVMValueRef f = LLVMGetFirstFunction(part); f; f = next) {
		next = LLVMGetNextFunction(f);
		if (zc_is_kernel(f) && LLVMIsDeclaration(f) && !LLVMGetFirstUse(f))
			LLVMDeleteFunction(f); /* another part's */
		else if (!first && !LLVMIsDeclaration(f) && !zc_is_kernel(f) && !is_local(f)) {
			LLVMSetLinkage(f, LLVMInternalLinkage);
			LLVMSetVisibility(f, LLVMDefaultVisibility);
		}
	}
	for (LLVMValueRef g = LLVMGetFirstGlobal(part); !first && g; g = next) {
		LLVMLinkage linkage = LLVMGetLinkage(g);

		next = LLVMGetNextGlobal(g);
		if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == ZC_SHARED_ADDRSPACE || LLVMIsDeclaration(g) ||
		    is_local(g) || linkage == LLVMWeakODRLinkage || linkage == LLVMWeakAnyLinkage ||
		    linkage == LLVMLinkOnceODRLinkage || linkage == LLVMLinkOnceAnyLinkage)
			continue;
		refer_to_first_part(part, g);
	}
}
