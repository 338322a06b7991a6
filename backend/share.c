/* One middle end for several AMDGPU processors: a module optimised for one of them (the
 * lead) is generated for another after zc_retarget, where that gives what the other's own
 * middle end would start from. That holds when both run the same builtins: the builtins of
 * processors of different generations differ only in a few functions (the clock, dot
 * products, matrix instructions), so a module that reaches none of those shares. Which
 * builtins differ is found by comparing the two targets' builtins bitcode definition by
 * definition (their attributes and metadata aside), once per pair and process; what uses
 * one that differs (calls it, names it) differs too. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>

#include "backend.h"
#include "common.h"

enum { MAX_PAIRS = 32 };

typedef struct {
	const ZcTarget *lead, *other;
	bool loaded;      /* both builtins modules load */
	char **differing; /* the names of the lead's functions and variables that differ, sorted */
	size_t ndiffering;
} Pair;

static struct {
	pthread_mutex_t lock;
	Pair pairs[MAX_PAIRS];
	size_t npairs;
} known = {.lock = PTHREAD_MUTEX_INITIALIZER};

static LLVMModuleRef load_builtins(LLVMContextRef context, const ZcTarget *target)
{
	LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(
		(const char *)target->builtins->bytes, target->builtins->size, "builtins", 0);
	LLVMModuleRef module = NULL;

	if (LLVMParseBitcodeInContext2(context, buffer, &module))
		module = NULL;
	LLVMDisposeMemoryBuffer(buffer);
	return module;
}

/* Where a metadata attachment (", !dbg !12", " !dbg !5") that starts at p ends; p when
 * none does. */
static const char *past_attachment(const char *p)
{
	const char *q = p + (*p == ',');

	if (q[0] != ' ' || q[1] != '!' || !(q[2] >= 'a' && q[2] <= 'z'))
		return p;
	for (q += 2; (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_' || *q == '.'; q++)
		;
	if (q[0] != ' ' || q[1] != '!' || !(q[2] >= '0' && q[2] <= '9'))
		return p;
	for (q += 2; *q >= '0' && *q <= '9'; q++)
		;
	return q;
}

/* The value's text without what differs between processors' builds of the same source
 * by numbering alone: attribute group numbers (#3) and metadata attachments' numbers
 * (same_text compares what those attachments hold). */
static char *normalized_text(LLVMValueRef value)
{
	char *text = LLVMPrintValueToString(value), *out = zc_alloc(strlen(text) + 1), *o = out;

	for (const char *p = text; *p;) {
		const char *past = past_attachment(p);

		if (past != p) {
			p = past;
		} else if (p[0] == ' ' && p[1] == '#' && p[2] >= '0' && p[2] <= '9') {
			for (p += 2; *p >= '0' && *p <= '9'; p++)
				;
		} else {
			*o++ = *p++;
		}
	}
	*o = 0;
	LLVMDisposeMessage(text);
	return out;
}

enum { MAX_METADATA_DEPTH = 32 };

/* The pairs of nodes being compared, outermost first: a node met again on the way down (a
 * loop's !llvm.loop names itself) is taken as the same as its partner there. */
typedef struct {
	LLVMValueRef a[MAX_METADATA_DEPTH], b[MAX_METADATA_DEPTH];
	unsigned depth;
} MetadataPath;

/* Whether two metadata values hold the same: strings, constants, and nodes operand by
 * operand. */
static bool same_metadata(LLVMValueRef a, LLVMValueRef b, MetadataPath *path)
{
	if (!a || !b)
		return a == b;
	if (LLVMIsAMDString(a) || LLVMIsAMDString(b)) {
		unsigned la, lb;
		const char *sa = LLVMIsAMDString(a) ? LLVMGetMDString(a, &la) : NULL;
		const char *sb = LLVMIsAMDString(b) ? LLVMGetMDString(b, &lb) : NULL;

		return sa && sb && la == lb && memcmp(sa, sb, la) == 0;
	}
	if (LLVMIsAMDNode(a) || LLVMIsAMDNode(b)) {
		unsigned n = LLVMIsAMDNode(a) ? LLVMGetMDNodeNumOperands(a) : 0;
		bool same = LLVMIsAMDNode(a) && LLVMIsAMDNode(b) && n == LLVMGetMDNodeNumOperands(b);
		LLVMValueRef *x, *y;

		for (unsigned i = 0; i < path->depth; i++)
			if (path->a[i] == a)
				return path->b[i] == b;
		if (!same || path->depth == MAX_METADATA_DEPTH)
			return false;
		x = zc_alloc((n + 1) * sizeof(LLVMValueRef));
		y = zc_alloc((n + 1) * sizeof(LLVMValueRef));
		LLVMGetMDNodeOperands(a, x);
		LLVMGetMDNodeOperands(b, y);
		path->a[path->depth] = a, path->b[path->depth++] = b;
		for (unsigned i = 0; same && i < n; i++)
			same = same_metadata(x[i], y[i], path);
		path->depth--;
		free(x);
		free(y);
		return same;
	}
	char *ta = LLVMPrintValueToString(a), *tb = LLVMPrintValueToString(b);
	bool same = strcmp(ta, tb) == 0;

	LLVMDisposeMessage(ta);
	LLVMDisposeMessage(tb);
	return same;
}

/* Whether two lists of metadata attachments (an instruction's, a function's or a
 * variable's) name the same kinds with the same contents; both are disposed of. */
static bool same_attachments(LLVMValueMetadataEntry *x, size_t nx, LLVMValueMetadataEntry *y, size_t ny,
                             LLVMContextRef cx, LLVMContextRef cy)
{
	bool same = nx == ny;

	for (unsigned i = 0; same && i < nx; i++) {
		MetadataPath path = {.depth = 0};

		same = LLVMValueMetadataEntriesGetKind(x, i) == LLVMValueMetadataEntriesGetKind(y, i) &&
		       same_metadata(LLVMMetadataAsValue(cx, LLVMValueMetadataEntriesGetMetadata(x, i)),
		                     LLVMMetadataAsValue(cy, LLVMValueMetadataEntriesGetMetadata(y, i)), &path);
	}
	if (x)
		LLVMDisposeValueMetadataEntries(x);
	if (y)
		LLVMDisposeValueMetadataEntries(y);
	return same;
}

/* The same code: the same text but for numbering, and the same metadata where the text
 * has only its number (a load's !range, say); debug locations aside. */
static bool same_text(LLVMValueRef a, LLVMValueRef b)
{
	LLVMContextRef ca = LLVMGetTypeContext(LLVMTypeOf(a)), cb = LLVMGetTypeContext(LLVMTypeOf(b));
	char *x = normalized_text(a), *y = normalized_text(b);
	bool same = strcmp(x, y) == 0;
	size_t nx, ny;

	free(x);
	free(y);
	if (same) {
		LLVMValueMetadataEntry *ex = LLVMGlobalCopyAllMetadata(a, &nx), *ey = LLVMGlobalCopyAllMetadata(b, &ny);

		same = same_attachments(ex, nx, ey, ny, ca, cb);
	}
	/* the same text: the same blocks and instructions, in the same order */
	for (LLVMBasicBlockRef p = LLVMIsAFunction(a) ? LLVMGetFirstBasicBlock(a) : NULL,
	                       q = LLVMIsAFunction(b) ? LLVMGetFirstBasicBlock(b) : NULL;
	     same && p && q; p = LLVMGetNextBasicBlock(p), q = LLVMGetNextBasicBlock(q))
		for (LLVMValueRef i = LLVMGetFirstInstruction(p), j = LLVMGetFirstInstruction(q); same && i && j;
		     i = LLVMGetNextInstruction(i), j = LLVMGetNextInstruction(j)) {
			LLVMValueMetadataEntry *ei = LLVMInstructionGetAllMetadataOtherThanDebugLoc(i, &nx);
			LLVMValueMetadataEntry *ej = LLVMInstructionGetAllMetadataOtherThanDebugLoc(j, &ny);

			same = same_attachments(ei, nx, ej, ny, ca, cb);
		}
	return same;
}

static const char *name_of(LLVMValueRef value)
{
	size_t length;

	return LLVMGetValueName2(value, &length);
}

static bool listed(char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_name(Pair *pair, const char *name)
{
	pair->differing = zc_realloc(pair->differing, (pair->ndiffering + 1) * sizeof(char *));
	pair->differing[pair->ndiffering++] = zc_strndup(name, strlen(name));
}

/* Adds what uses value to the list: the function of an instruction that uses it, a
 * variable whose initializer names it, through constant expressions. */
static void add_users(Pair *pair, LLVMValueRef value)
{
	for (LLVMUseRef use = LLVMGetFirstUse(value); use; use = LLVMGetNextUse(use)) {
		LLVMValueRef user = LLVMGetUser(use);
		LLVMValueRef named = LLVMIsAInstruction(user) ? LLVMGetBasicBlockParent(LLVMGetInstructionParent(user))
		                     : LLVMIsAGlobalValue(user)  ? user
		                                                 : NULL;

		if (!named)
			add_users(pair, user);
		else if (!listed(pair->differing, pair->ndiffering, name_of(named)))
			add_name(pair, name_of(named));
	}
}

/* The lead's definitions that differ from the other's, then everything that uses one. */
static void compare(Pair *pair)
{
	/* a context each: in one, the second module's named types would get other names */
	LLVMContextRef context_a = LLVMContextCreate(), context_b = LLVMContextCreate();
	LLVMModuleRef a = load_builtins(context_a, pair->lead), b = load_builtins(context_b, pair->other);

	pair->loaded = a && b;
	for (LLVMValueRef g = pair->loaded ? LLVMGetFirstGlobal(a) : NULL; g; g = LLVMGetNextGlobal(g)) {
		LLVMValueRef h = LLVMGetNamedGlobal(b, name_of(g));

		if (!h || !same_text(g, h))
			add_name(pair, name_of(g));
	}
	for (LLVMValueRef f = pair->loaded ? LLVMGetFirstFunction(a) : NULL; f; f = LLVMGetNextFunction(f)) {
		LLVMValueRef h = LLVMGetNamedFunction(b, name_of(f));

		if (!LLVMIsDeclaration(f) && (!h || LLVMIsDeclaration(h) || !same_text(f, h)))
			add_name(pair, name_of(f));
	}
	for (size_t i = 0; i < pair->ndiffering; i++) {
		LLVMValueRef value = LLVMGetNamedFunction(a, pair->differing[i]);

		add_users(pair, value ? value : LLVMGetNamedGlobal(a, pair->differing[i]));
	}
	if (pair->ndiffering > 1)
		qsort(pair->differing, pair->ndiffering, sizeof(char *), by_name);
	if (a)
		LLVMDisposeModule(a);
	if (b)
		LLVMDisposeModule(b);
	LLVMContextDispose(context_a);
	LLVMContextDispose(context_b);
}

static const Pair *pair_of(const ZcTarget *lead, const ZcTarget *other)
{
	Pair *pair = NULL;

	pthread_mutex_lock(&known.lock);
	for (size_t i = 0; i < known.npairs && !pair; i++)
		if (known.pairs[i].lead == lead && known.pairs[i].other == other)
			pair = &known.pairs[i];
	if (!pair && known.npairs < MAX_PAIRS) {
		pair = &known.pairs[known.npairs++];
		*pair = (Pair){.lead = lead, .other = other};
		zc_backend_init();
		compare(pair);
	}
	pthread_mutex_unlock(&known.lock);
	return pair;
}

static bool differs(const Pair *pair, LLVMValueRef declared)
{
	const char *name = name_of(declared);

	return bsearch(&name, pair->differing, pair->ndiffering, sizeof(char *), by_name) != NULL;
}

bool zc_shares_middle_end(LLVMModuleRef lowered, const ZcTarget *lead, const ZcTarget *other)
{
	const Pair *pair;

	if (lead == other)
		return true;
	if (lead->kind != ZC_CODE_OBJECT_AMDHSA || other->kind != ZC_CODE_OBJECT_AMDHSA ||
	    strcmp(lead->triple, other->triple) != 0 || strcmp(lead->features, other->features) != 0 ||
	    lead->code_object_version != other->code_object_version)
		return false;
	pair = pair_of(lead, other);
	if (!pair || !pair->loaded)
		return false;
	for (LLVMValueRef f = LLVMGetFirstFunction(lowered); f; f = LLVMGetNextFunction(f))
		if (LLVMIsDeclaration(f) && LLVMGetFirstUse(f) && differs(pair, f))
			return false;
	for (LLVMValueRef g = LLVMGetFirstGlobal(lowered); g; g = LLVMGetNextGlobal(g))
		if (LLVMIsDeclaration(g) && LLVMGetFirstUse(g) && differs(pair, g))
			return false;
	return true;
}

/* The processor and features the target's builtins were compiled for, as their functions'
 * attributes say: what the optimised module's builtins carry for the lead. */
static void read_builtins_attributes(const ZcTarget *target, LLVMContextRef context, char **cpu, char **features)
{
	LLVMModuleRef builtins = load_builtins(context, target);

	*cpu = *features = NULL;
	for (LLVMValueRef f = builtins ? LLVMGetFirstFunction(builtins) : NULL; f && !*cpu; f = LLVMGetNextFunction(f)) {
		LLVMAttributeRef c = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-cpu", 10);
		LLVMAttributeRef t = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-features", 15);
		unsigned length;

		if (c && t && !LLVMIsDeclaration(f)) {
			const char *value = LLVMGetStringAttributeValue(c, &length);
			*cpu = zc_strndup(value, length);
			value = LLVMGetStringAttributeValue(t, &length);
			*features = zc_strndup(value, length);
		}
	}
	if (builtins)
		LLVMDisposeModule(builtins);
}

/* The target's builtins' attributes, read once per process (a module compiled in parts
 * is retargeted part by part). */
static void builtins_attributes(const ZcTarget *target, const char **cpu, const char **features)
{
	static struct {
		const ZcTarget *target;
		char *cpu, *features;
	} read[MAX_PAIRS];
	static size_t nread;
	size_t i;

	pthread_mutex_lock(&known.lock);
	for (i = 0; i < nread && read[i].target != target; i++)
		;
	if (i == nread && nread < MAX_PAIRS) {
		LLVMContextRef context = LLVMContextCreate();

		read[i].target = target;
		read_builtins_attributes(target, context, &read[i].cpu, &read[i].features);
		LLVMContextDispose(context);
		nread++;
	}
	*cpu = i < nread ? read[i].cpu : NULL;
	*features = i < nread ? read[i].features : NULL;
	pthread_mutex_unlock(&known.lock);
}

void zc_retarget(LLVMModuleRef optimized, const ZcTarget *other)
{
	LLVMContextRef context = LLVMGetModuleContext(optimized);
	const char *cpu, *features;

	builtins_attributes(other, &cpu, &features);
	for (LLVMValueRef f = LLVMGetFirstFunction(optimized); f && cpu && features; f = LLVMGetNextFunction(f)) {
		if (LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-cpu", 10))
			LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
			                        LLVMCreateStringAttribute(context, "target-cpu", 10, cpu, strlen(cpu)));
		if (LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-features", 15))
			LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
			                        LLVMCreateStringAttribute(context, "target-features", 15, features,
			                                                  strlen(features)));
	}
}
