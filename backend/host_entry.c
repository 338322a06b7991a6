/* Host entry points (abi/host_abi.h): the kernel becomes an internal function called by an
 * exported entry that unpacks the .param buffer. A kernel that cannot reach the driver
 * (no block operation, no call the driver answers: nothing it does depends on the order
 * its threads run in) gets a block entry, which runs the block's threads one after the
 * other in a loop, so the driver needs no fiber per thread and LLVM sees the loop; any
 * other kernel gets a thread entry, marked ZC_THREAD_ENTRY_ATTRIBUTE for host_rounds.c,
 * which makes a block entry of it after optimisation where its only block operations are
 * barriers. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "host_abi.h"

static unsigned zc_param_alignment(LLVMValueRef function, unsigned index, LLVMTypeRef type,
                                   LLVMTargetDataRef layout)
{
	unsigned align_kind = LLVMGetEnumAttributeKindForName("align", 5);
	LLVMAttributeRef align = LLVMGetEnumAttributeAtIndex(function, index + 1, align_kind);
	if (align)
		return (unsigned)LLVMGetEnumAttributeValue(align);
	return LLVMABIAlignmentOfType(layout, type);
}

enum { ZC_PARAM_BUFFER_FACTS = 4 };

static unsigned zc_param_buffer_fact(int k)
{
	static const char *const names[ZC_PARAM_BUFFER_FACTS] = {"noalias", "readonly", "align", "dereferenceable"};
	return LLVMGetEnumAttributeKindForName(names[k], strlen(names[k]));
}

/* Loads each parameter from the packed .param buffer at its PTX offset (a byref parameter
 * is passed as its address), and tells LLVM what the buffer is: nothing writes it while the
 * kernel runs (PTX's kernel parameters are read-only), so no store of the kernel's changes
 * it, and it holds every parameter, aligned to the widest of them up to 16 bytes (the
 * driver's allocation gives 16), so the arguments are loaded once, ahead of the loops over
 * threads, not again after every store: what makes those loops' addresses loop-invariant
 * bases for the vectoriser. */
static void zc_load_arguments(LLVMBuilderRef b, LLVMModuleRef module, LLVMValueRef kernel,
                              LLVMValueRef entry, LLVMValueRef *args)
{
	LLVMValueRef params = LLVMGetParam(entry, 0);
	unsigned widest = 1;
	LLVMContextRef context = LLVMGetModuleContext(module);
	LLVMTargetDataRef layout = LLVMGetModuleDataLayout(module);
	unsigned count = LLVMCountParams(kernel);
	unsigned byref_kind = LLVMGetEnumAttributeKindForName("byref", 5);
	unsigned long long offset = 0;
	for (unsigned i = 0; i < count; i++) {
		LLVMTypeRef type = LLVMTypeOf(LLVMGetParam(kernel, i));
		LLVMAttributeRef byref = LLVMGetEnumAttributeAtIndex(kernel, i + 1, byref_kind);
		LLVMTypeRef stored = byref ? LLVMGetTypeAttributeValue(byref) : type;
		unsigned align = byref ? zc_param_alignment(kernel, i, stored, layout)
		                       : LLVMABIAlignmentOfType(layout, type);
		offset = (offset + align - 1) / align * align;
		widest = align > widest ? align : widest;
		LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(context), offset, 0);
		LLVMValueRef address =
			LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context), params, &at, 1, "");
		if (byref) {
			args[i] = LLVMBuildAddrSpaceCast(b, address, type, "");
		} else {
			args[i] = LLVMBuildLoad2(b, type, address, "");
			LLVMSetAlignment(args[i], align);
		}
		offset += LLVMABISizeOfType(layout, stored);
	}
	unsigned long long values[] = {0, 0, widest < 16 ? widest : 16, offset};
	for (int k = 0; k < ZC_PARAM_BUFFER_FACTS && offset; k++)
		LLVMAddAttributeAtIndex(entry, 1, LLVMCreateEnumAttribute(context, zc_param_buffer_fact(k), values[k]));
}

void zc_copy_param_buffer_facts(LLVMValueRef from, LLVMValueRef to)
{
	for (int k = 0; k < ZC_PARAM_BUFFER_FACTS; k++) {
		LLVMAttributeRef fact = LLVMGetEnumAttributeAtIndex(from, 1, zc_param_buffer_fact(k));
		if (fact)
			LLVMAddAttributeAtIndex(to, 1, fact);
	}
}

/* A kernel that reaches more functions than this is taken to reach what is asked: the
 * search stays cheap in modules of thousands of kernels. */
enum { ZC_REACH_LIMIT = 1024 };

/* Whether `function` is one of `targets`, makes an indirect call, or calls a function
 * that does, but for those `seen` holds (looked at already, or set aside). */
static bool zc_reaches_from(LLVMValueRef function, const LLVMValueRef *targets, size_t ntargets,
                            LLVMValueRef **seen, size_t *count)
{
	for (size_t i = 0; i < ntargets; i++)
		if (targets[i] == function)
			return true;
	for (size_t i = 0; i < *count; i++)
		if ((*seen)[i] == function)
			return false;
	LLVMValueRef *more = *count < ZC_REACH_LIMIT ? realloc(*seen, (*count + 1) * sizeof **seen) : NULL;
	if (!more)
		return true;
	*seen = more;
	(*seen)[(*count)++] = function;
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
			if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
				continue;
			LLVMValueRef callee = LLVMGetCalledValue(i);
			if (!LLVMIsAFunction(callee) ||
			    (!LLVMIsDeclaration(callee) && zc_reaches_from(callee, targets, ntargets, seen, count)))
				return true;
		}
	return false;
}

/* The driver's operations are called through the block's table (host_abi.h), so a
 * function that reaches no indirect call reaches none. */
bool zc_reaches_driver(LLVMValueRef function)
{
	LLVMValueRef *seen = NULL;
	size_t count = 0;
	bool reaches = zc_reaches_from(function, NULL, 0, &seen, &count);
	free(seen);
	return reaches;
}

LLVMValueRef zc_thread_field(LLVMBuilderRef b, LLVMContextRef context, LLVMValueRef thread,
                                    size_t offset)
{
	LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(context), offset, 0);
	return LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(context), thread, &at, 1, "");
}

/* The type-based alias tag of a C `int` as clang writes it into the host builtins: a tid
 * stored so changes no pointer the code loads (the thread-local "current thread" among
 * them), which it would otherwise load again after every thread's store. */
static LLVMValueRef zc_int_access_tag(LLVMContextRef context)
{
	LLVMMetadataRef zero = LLVMValueAsMetadata(LLVMConstInt(LLVMInt64TypeInContext(context), 0, 0));
	LLVMMetadataRef root = LLVMMDStringInContext2(context, "Simple C/C++ TBAA", 17);
	LLVMMetadataRef root_node = LLVMMDNodeInContext2(context, &root, 1);
	LLVMMetadataRef chars[] = {LLVMMDStringInContext2(context, "omnipotent char", 15), root_node, zero};
	LLVMMetadataRef char_node = LLVMMDNodeInContext2(context, chars, 3);
	LLVMMetadataRef ints[] = {LLVMMDStringInContext2(context, "int", 3), char_node, zero};
	LLVMMetadataRef int_node = LLVMMDNodeInContext2(context, ints, 3);
	LLVMMetadataRef tag[] = {int_node, int_node, zero};
	return LLVMMetadataAsValue(context, LLVMMDNodeInContext2(context, tag, 3));
}

ZcLoop zc_open_loop(LLVMBuilderRef b, LLVMContextRef context, LLVMValueRef entry,
                           LLVMValueRef thread, LLVMValueRef bound, int dim)
{
	LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
	LLVMBasicBlockRef before = LLVMGetInsertBlock(b);
	ZcLoop loop = {LLVMAppendBasicBlockInContext(context, entry, "loop"), NULL, bound, NULL};
	LLVMBuildBr(b, loop.head);
	LLVMPositionBuilderAtEnd(b, loop.head);
	loop.index = LLVMBuildPhi(b, i32, "");
	LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
	LLVMAddIncoming(loop.index, &zero, &before, 1);
	LLVMValueRef store = LLVMBuildStore(
		b, loop.index, zc_thread_field(b, context, thread, offsetof(ZcHostThread, tid) + 4 * dim));
	LLVMSetMetadata(store, LLVMGetMDKindIDInContext(context, "tbaa", 4), zc_int_access_tag(context));
	/* Made for each thread, never sunk out of the loop: a fault's signal handler reads it to
	 * name the thread. */
	LLVMSetVolatile(store, 1);
	loop.tid_store = store;
	return loop;
}

void zc_close_loop(LLVMBuilderRef b, LLVMContextRef context, LLVMValueRef entry, ZcLoop *loop)
{
	LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
	LLVMValueRef next = LLVMBuildNUWAdd(b, loop->index, LLVMConstInt(i32, 1, 0), "");
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(b);
	LLVMAddIncoming(loop->index, &next, &latch, 1);
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(context, entry, "done");
	LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, loop->bound, ""), loop->head, done);
	LLVMPositionBuilderAtEnd(b, done);
}

/* The entry `name` of the kernel's body for one processor level: `void NAME(const void
 * *params, ZcHostThread *thread)`, or NAME.zc_block, which runs every thread of the block in
 * turn (z, then y, then x outermost to innermost: linear id order), writing each one's tid
 * into *thread, which the builtins read. */
static void zc_add_host_entry(LLVMModuleRef module, LLVMValueRef kernel, const char *entry_name,
                              bool whole_block, const char *cpu, LLVMValueRef *args, ZcHostEntry *made)
{
	LLVMContextRef context = LLVMGetModuleContext(module);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
	LLVMTypeRef entry_params[] = {ptr, ptr};
	LLVMTypeRef entry_type = LLVMFunctionType(LLVMVoidTypeInContext(context), entry_params, 2, 0);
	LLVMValueRef entry = LLVMAddFunction(module, entry_name, entry_type);
	LLVMValueRef thread = LLVMGetParam(entry, 1);
	if (cpu)
		LLVMAddAttributeAtIndex(entry, LLVMAttributeFunctionIndex,
		                        LLVMCreateStringAttribute(context, "target-cpu", 10, cpu, strlen(cpu)));

	LLVMBuilderRef b = LLVMCreateBuilderInContext(context);
	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(context, entry, "entry"));
	LLVMValueRef enter = LLVMGetNamedFunction(module, "__zc_host_enter");
	LLVMBuildCall2(b, LLVMGlobalGetValueType(enter), enter, &thread, 1, "");
	zc_load_arguments(b, module, kernel, entry, args);
	LLVMTypeRef kernel_type = LLVMGlobalGetValueType(kernel);
	unsigned count = LLVMCountParams(kernel);
	/* A thread's coordinates and its block's shared memory do not change while its entry
	 * runs: read once (where the builtins would read them at every use, through the
	 * thread-local pointer and the block's). */
	LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
	*made = (ZcHostEntry){.entry = entry};
	for (int k = 0; k < ZC_COORDINATES; k++)
		made->values[k] = LLVMBuildLoad2(
			b, i32, zc_thread_field(b, context, thread, offsetof(ZcHostThread, tid) + 4 * k), "");
	LLVMValueRef block = LLVMBuildLoad2(b, ptr, zc_thread_field(b, context, thread, offsetof(ZcHostThread, block)), "");
	made->values[ZC_COORDINATES] =
		LLVMBuildLoad2(b, ptr, zc_thread_field(b, context, block, offsetof(ZcHostBlock, shared)), "");
	made->values[ZC_COORDINATES + 1] =
		LLVMBuildLoad2(b, ptr, zc_thread_field(b, context, block, offsetof(ZcHostBlock, dynamic_smem)), "");
	if (whole_block) {
		ZcLoop loops[3];
		for (int dim = 2; dim >= 0; dim--) {
			loops[dim] = zc_open_loop(b, context, entry, thread, made->values[3 + dim], dim);
			made->values[dim] = loops[dim].index;
			made->tid_stores[dim] = cpu ? loops[dim].tid_store : NULL;
		}
		LLVMBuildCall2(b, kernel_type, kernel, args, count, "");
		for (int dim = 0; dim < 3; dim++)
			zc_close_loop(b, context, entry, &loops[dim]);
	} else {
		LLVMBuildCall2(b, kernel_type, kernel, args, count, "");
		LLVMAttributeRef mark = LLVMCreateStringAttribute(context, ZC_THREAD_ENTRY_ATTRIBUTE,
		                                                  strlen(ZC_THREAD_ENTRY_ATTRIBUTE), "", 0);
		LLVMAddAttributeAtIndex(entry, LLVMAttributeFunctionIndex, mark);
	}
	LLVMBuildRetVoid(b);
	LLVMDisposeBuilder(b);
}

/* The kernel becomes NAME.zc_body, inlined into its entries: one for baseline x86-64 and
 * one for x86-64-v3 (ZC_HOST_V3_SUFFIX), whose fma is an instruction, not a call of libm's
 * fmaf. Both compute the same: the code has no operation the processor may fuse or contract
 * unasked. (The loops over threads stay scalar: each thread's volatile tid store.) */
int zc_make_host_entry(LLVMModuleRef module, LLVMValueRef kernel, ZcHostEntries *entries, char **error)
{
	if (entries->count + 2 > entries->capacity) {
		size_t capacity = entries->capacity ? 2 * entries->capacity : 32;
		ZcHostEntry *grown = realloc(entries->items, capacity * sizeof *grown);
		if (!grown)
			return backend_fail(error, "out of memory");
		entries->items = grown;
		entries->capacity = capacity;
	}
	LLVMContextRef context = LLVMGetModuleContext(module);
	size_t name_len;
	const char *kernel_name = LLVMGetValueName2(kernel, &name_len);
	char *name = strndup(kernel_name, name_len);
	if (!name)
		return backend_fail(error, "out of memory");
	if (LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(kernel))) != LLVMVoidTypeKind) {
		backend_fail(error, "kernel %s does not return void", name);
		free(name);
		return -1;
	}
	bool whole_block = !zc_reaches_driver(kernel);
	const char *block = whole_block ? ZC_HOST_BLOCK_ENTRY_SUFFIX : "";
	char *body_name, *entry_name, *v3_name;
	if (asprintf(&body_name, "%s.zc_body", name) < 0)
		body_name = NULL;
	if (asprintf(&entry_name, "%s%s", name, block) < 0)
		entry_name = NULL;
	if (asprintf(&v3_name, "%s" ZC_HOST_V3_SUFFIX "%s", name, block) < 0)
		v3_name = NULL;
	free(name);
	unsigned count = LLVMCountParams(kernel);
	LLVMValueRef *args = calloc(count ? count : 1, sizeof *args);
	if (!body_name || !entry_name || !v3_name || !args) {
		free(body_name);
		free(entry_name);
		free(v3_name);
		free(args);
		return backend_fail(error, "out of memory");
	}
	LLVMSetValueName2(kernel, body_name, strlen(body_name));
	free(body_name);
	LLVMSetLinkage(kernel, LLVMInternalLinkage);
	/* Inlined into each entry, so that each is compiled for its processor (and, for a thread
	 * entry, so that host_rounds.c sees the barriers in it). */
	LLVMRemoveEnumAttributeAtIndex(kernel, LLVMAttributeFunctionIndex, LLVMGetEnumAttributeKindForName("noinline", 8));
	LLVMAddAttributeAtIndex(
		kernel, LLVMAttributeFunctionIndex,
		LLVMCreateEnumAttribute(context, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));
	zc_add_host_entry(module, kernel, entry_name, whole_block, NULL, args, &entries->items[entries->count++]);
	zc_add_host_entry(module, kernel, v3_name, whole_block, "x86-64-v3", args, &entries->items[entries->count++]);
	free(entry_name);
	free(v3_name);
	free(args);
	return 0;
}

/* The builtins of ZcHostEntry's values: the thread's coordinates in ZcHostThread's order
 * (tid, ntid, ctaid, nctaid), then the shared memory's. */
static const char *const zc_entry_value_builtins[ZC_ENTRY_VALUES] = {
	"__zc_tid_x", "__zc_tid_y", "__zc_tid_z", "__zc_ntid_x", "__zc_ntid_y", "__zc_ntid_z",
	"__zc_ctaid_x", "__zc_ctaid_y", "__zc_ctaid_z", "__zc_nctaid_x", "__zc_nctaid_y", "__zc_nctaid_z",
	"__zc_shared_base", "__zc_dynamic_smem",
};
_Static_assert(offsetof(ZcHostThread, nctaid) == offsetof(ZcHostThread, tid) + 36,
               "the coordinates are twelve words in a row");

/* The entry's tid stores go where nothing it calls reads the thread-local "current thread"
 * that __zc_host_enter sets (as the builtins whose values the entry does not bind do: the
 * lane's id and masks, for one): its loops over threads then vectorise, which a store to
 * one place in every iteration would keep scalar. */
static void zc_drop_unread_tid_stores(LLVMModuleRef module, const ZcHostEntry *made)
{
	LLVMValueRef current = LLVMGetNamedGlobal(module, "__zc_host_current");
	LLVMValueRef enter = LLVMGetNamedFunction(module, "__zc_host_enter");
	LLVMValueRef *readers = NULL, *seen = malloc(sizeof *seen);
	size_t nreaders = 0, count = 0;
	bool reads = !seen;

	if (seen)
		seen[count++] = enter;  /* it writes the thread, reads nothing */
	for (LLVMUseRef u = current ? LLVMGetFirstUse(current) : NULL; u && !reads; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		LLVMValueRef *more = realloc(readers, (nreaders + 1) * sizeof *readers);
		reads = !more || !LLVMIsAInstruction(user);
		if (more)
			readers = more;
		if (!reads)
			readers[nreaders] = LLVMGetBasicBlockParent(LLVMGetInstructionParent(user));
		nreaders += !reads && readers[nreaders] != enter;
	}
	reads = reads || zc_reaches_from(made->entry, readers, nreaders, &seen, &count);
	free(readers);
	free(seen);
	for (int dim = 0; dim < 3 && !reads; dim++)
		LLVMInstructionEraseFromParent(made->tid_stores[dim]);
}

void zc_bind_entry_values(LLVMModuleRef module, ZcHostEntries *entries)
{
	for (size_t e = 0; e < entries->count; e++) {
		const ZcHostEntry *made = &entries->items[e];
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(made->entry); bb; bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
				next = LLVMGetNextInstruction(i);
				LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
				if (!callee || !LLVMIsAFunction(callee))
					continue;
				size_t length;
				const char *name = LLVMGetValueName2(callee, &length);
				for (int k = 0; k < ZC_ENTRY_VALUES; k++)
					if (strcmp(name, zc_entry_value_builtins[k]) == 0) {
						LLVMReplaceAllUsesWith(i, made->values[k]);
						LLVMInstructionEraseFromParent(i);
						break;
					}
			}
		if (made->tid_stores[0])
			zc_drop_unread_tid_stores(module, made);
	}
}
