/* The codegen steps every target shares: data layout, builtins, kernel attributes (or
 * host entry points), default<O3> with the target machine, object emission. */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "backend.h"
#include "host_abi.h"

#define ZC_BUILTIN_PREFIX "__zc_"
/* CUDA's limit on threads per block. */
#define ZC_MAX_BLOCK_THREADS 1024

int backend_fail(char **error, const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	if (vasprintf(error, format, ap) < 0)
		*error = NULL;
	va_end(ap);
	return -1;
}

/* Takes over an LLVM message: copies it into *error and disposes of it. */
static int backend_fail_llvm(char **error, const char *what, char *message)
{
	backend_fail(error, "%s: %s", what, message ? message : "unknown LLVM error");
	LLVMDisposeMessage(message);
	return -1;
}

static void zc_init_targets(void)
{
	/* Private arrays stay private: LLVM would move some into LDS, sized for the largest
	 * block, where neither the kernel table nor the launch counts it, and a CUDA kernel may
	 * take all of the shared memory dynamically (an -rdc printf's argument buffer became
	 * 8 KiB of LDS). VectorCombine's load and store folds scan no instructions: on x86-64
	 * they loop forever over CUB's DeviceScanKernel (LLVM 22, every Thrust program's scan);
	 * its other folds stay. A module written as bitcode keeps its use-list order, which
	 * code generation follows (the order of a block's predecessors): a module optimised once
	 * and generated for several processors (share.c) gives each the code its own would. */
	const char *const options[] = {"zluda-convert", "-disable-promote-alloca-to-lds",
	                               "-vector-combine-max-scan-instrs=0", "-preserve-bc-uselistorder"};

	LLVMParseCommandLineOptions(4, options, NULL);
	zc_guard_init();
	LLVMInitializeAMDGPUTargetInfo();
	LLVMInitializeAMDGPUTarget();
	LLVMInitializeAMDGPUTargetMC();
	LLVMInitializeAMDGPUAsmPrinter();
	LLVMInitializeAMDGPUAsmParser(); /* the directed-rounding builtins are inline assembly */
	LLVMInitializeX86TargetInfo();
	LLVMInitializeX86Target();
	LLVMInitializeX86TargetMC();
	LLVMInitializeX86AsmPrinter();
	LLVMInitializeX86AsmParser(); /* the host builtins hold inline assembly (cmpxchg16b) */
}

void zc_backend_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, zc_init_targets);
}

LLVMTargetMachineRef zc_target_machine(const ZcTarget *target, const ZcCodegenOptions *codegen,
                                       char **error)
{
	zc_backend_init();
	LLVMTargetRef llvm_target;
	char *message = NULL;
	if (LLVMGetTargetFromTriple(target->triple, &llvm_target, &message)) {
		backend_fail_llvm(error, target->triple, message);
		return NULL;
	}
	LLVMTargetMachineOptionsRef options = LLVMCreateTargetMachineOptions();
	LLVMTargetMachineOptionsSetCPU(options, target->cpu);
	LLVMTargetMachineOptionsSetFeatures(options, target->features);
	LLVMTargetMachineOptionsSetCodeGenOptLevel(options, codegen && codegen->unoptimized_codegen
	                                                        ? LLVMCodeGenLevelNone
	                                                        : LLVMCodeGenLevelAggressive);
	LLVMTargetMachineOptionsSetRelocMode(options, LLVMRelocPIC);
	LLVMTargetMachineRef machine =
		LLVMCreateTargetMachineWithOptions(llvm_target, target->triple, options);
	LLVMDisposeTargetMachineOptions(options);
	if (!machine)
		backend_fail(error, "%s: LLVM cannot create a target machine for %s", target->name, target->cpu);
	return machine;
}

static bool zc_has_prefix(LLVMValueRef value, const char *prefix)
{
	size_t len;
	const char *name = LLVMGetValueName2(value, &len);
	return len >= strlen(prefix) && memcmp(name, prefix, strlen(prefix)) == 0;
}

bool zc_is_kernel(LLVMValueRef function)
{
	return LLVMGetStringAttributeAtIndex(function, LLVMAttributeFunctionIndex, "zc-kernel", 9) != NULL;
}

static const char *zc_string_attribute(LLVMValueRef function, const char *kind)
{
	LLVMAttributeRef attribute =
		LLVMGetStringAttributeAtIndex(function, LLVMAttributeFunctionIndex, kind, (unsigned)strlen(kind));
	if (!attribute)
		return NULL;
	unsigned len;
	return LLVMGetStringAttributeValue(attribute, &len);
}

static void zc_set_string_attribute(LLVMValueRef function, const char *kind, const char *value)
{
	LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(function));
	LLVMAttributeRef attribute = LLVMCreateStringAttribute(context, kind, (unsigned)strlen(kind), value,
	                                                       (unsigned)strlen(value));
	LLVMAddAttributeAtIndex(function, LLVMAttributeFunctionIndex, attribute);
}

/* Attributes of the builtins that clang's options gave them but that must not differ
 * from the functions they are inlined into: the f32 denormal mode, which becomes "dynamic"
 * (the caller's, when inlined: lowered functions flush or keep f32 subnormals by the PTX
 * they came from), and -ffreestanding's "no-builtins", which makes the inliner refuse every
 * call. */
static void zc_adapt_builtins(LLVMModuleRef builtins)
{
	static const char *const kinds[] = {"denormal-fp-math", "denormal-fp-math-f32", "no-builtins"};
	for (LLVMValueRef f = LLVMGetFirstFunction(builtins); f; f = LLVMGetNextFunction(f)) {
		for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
			LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, kinds[i],
			                                 (unsigned)strlen(kinds[i]));
		if (!LLVMIsDeclaration(f))
			zc_set_string_attribute(f, "denormal-fp-math-f32", "dynamic,dynamic");
	}
}

static int zc_link_builtins(LLVMModuleRef module, const ZcTarget *target, char **error)
{
	LLVMContextRef context = LLVMGetModuleContext(module);
	LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(
		(const char *)target->builtins->bytes, target->builtins->size, "builtins", 0);
	LLVMModuleRef builtins;
	bool bad = LLVMParseBitcodeInContext2(context, buffer, &builtins);
	LLVMDisposeMemoryBuffer(buffer);
	if (bad)
		return backend_fail(error, "%s: the builtins bitcode does not load", target->name);
	zc_adapt_builtins(builtins);
	LLVMSetDataLayout(builtins, LLVMGetDataLayoutStr(module));
	if (LLVMLinkModules2(module, builtins))
		return backend_fail(error, "%s: linking the builtins failed (does the module define a "
		               ZC_BUILTIN_PREFIX "* name?)", target->name);
	for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f)) {
		size_t len;
		const char *name = LLVMGetValueName2(f, &len);

		if (LLVMIsDeclaration(f) && zc_has_prefix(f, ZC_BUILTIN_PREFIX) && LLVMGetFirstUse(f)) {
			if (strcmp(name, "__zc_vprintf") == 0)
				return backend_fail(error, "%s: printf in device code is not supported on "
				                    "this target yet", target->name);
			return backend_fail(error, "%s: no builtin %s", target->name, name);
		}
	}
	return 0;
}

/* Builtins are internal to each code object: unused ones are deleted by O3 and none is
 * exported. Declarations (the AMDGPU dynamic LDS array) stay as they are. */
static void zc_internalize_builtins(LLVMModuleRef module)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f) && zc_has_prefix(f, ZC_BUILTIN_PREFIX))
			LLVMSetLinkage(f, LLVMInternalLinkage);
	for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g))
		if (!LLVMIsDeclaration(g) && zc_has_prefix(g, ZC_BUILTIN_PREFIX))
			LLVMSetLinkage(g, LLVMInternalLinkage);
}

/* Threads per block from "x,y,z" (missing dimensions are 1); 0 when absent or malformed. */
static unsigned zc_block_threads(const char *dims)
{
	if (!dims)
		return 0;
	unsigned long threads = 1;
	const char *p = dims;
	for (int i = 0; i < 3 && *p; i++) {
		char *end;
		unsigned long n = strtoul(p, &end, 10);
		if (end == p || n == 0 || n > ZC_MAX_BLOCK_THREADS)
			return 0;
		threads *= n;
		if (threads > ZC_MAX_BLOCK_THREADS)
			return 0;
		p = *end == ',' ? end + 1 : end;
	}
	return *p ? 0 : (unsigned)threads;
}

static int zc_prepare_amdgpu_kernel(LLVMValueRef kernel, char **error)
{
	unsigned required = zc_block_threads(zc_string_attribute(kernel, "zc-reqntid"));
	unsigned maximum = zc_block_threads(zc_string_attribute(kernel, "zc-maxntid"));
	unsigned low = 1, high = ZC_MAX_BLOCK_THREADS;
	if (required)
		low = high = required;
	else if (maximum)
		high = maximum;
	char range[32];
	snprintf(range, sizeof range, "%u,%u", low, high);
	zc_set_string_attribute(kernel, "amdgpu-flat-work-group-size", range);
	/* HIP launches whole blocks only: the grid is a multiple of the block. */
	zc_set_string_attribute(kernel, "uniform-work-group-size", "true");
	/* No code of ours reads a hidden argument the runtime would have to allocate or serve
	 * (printf and malloc go through the stub's variables): said outright, so that a kernel
	 * that calls through a pointer, which the attributor cannot see into, gets none either
	 * (design decision 3). The implicit arguments themselves (the block counts %nctaid
	 * reads) the attributor gives only to a kernel that can reach a read of them. */
	static const char *const no_hidden[] = {
		"amdgpu-no-hostcall-ptr", "amdgpu-no-heap-ptr",
		"amdgpu-no-multigrid-sync-arg", "amdgpu-no-default-queue", "amdgpu-no-completion-action",
		"amdgpu-no-queue-ptr",
	};
	for (size_t i = 0; i < sizeof no_hidden / sizeof no_hidden[0]; i++)
		zc_set_string_attribute(kernel, no_hidden[i], "");
	LLVMSetFunctionCallConv(kernel, LLVMAMDGPUKERNELCallConv);
	if (LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(kernel))) != LLVMVoidTypeKind) {
		size_t len;
		return backend_fail(error, "kernel %s does not return void", LLVMGetValueName2(kernel, &len));
	}
	return 0;
}

/* Host: static shared variables become thread-local variables (host_abi.h, rule 1). */
static int zc_host_shared_memory(LLVMModuleRef module, char **error)
{
	LLVMValueRef next;
	for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = next) {
		next = LLVMGetNextGlobal(g);
		if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != ZC_SHARED_ADDRSPACE)
			continue;
		size_t len;
		const char *shared_name = LLVMGetValueName2(g, &len);
		char *name = strndup(shared_name, len);
		if (LLVMIsDeclaration(g)) {
			backend_fail(error, "extern shared variable %s: address it through __zc_dynamic_smem()", name);
			free(name);
			return -1;
		}
		LLVMTypeRef type = LLVMGlobalGetValueType(g);
		LLVMValueRef local = LLVMAddGlobal(module, type, "");
		LLVMSetThreadLocal(local, 1);
		LLVMSetInitializer(local, LLVMConstNull(type));
		LLVMSetLinkage(local, LLVMInternalLinkage);
		LLVMSetAlignment(local, LLVMGetAlignment(g));
		LLVMReplaceAllUsesWith(g, LLVMConstAddrSpaceCast(local, LLVMTypeOf(g)));
		LLVMDeleteGlobal(g);
		LLVMSetValueName2(local, name, strlen(name));
		free(name);
	}
	return 0;
}

/* Host code objects say which ABI their entry points follow. */
static void zc_add_host_abi_version(LLVMModuleRef module)
{
	LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(module));
	LLVMValueRef version = LLVMAddGlobal(module, i32, "__zc_host_abi_version");
	LLVMSetInitializer(version, LLVMConstInt(i32, ZC_HOST_ABI_VERSION, 0));
	LLVMSetGlobalConstant(version, 1);
}

/* A DLL exports what an ELF shared object would: its default-visibility definitions (the
 * kernels' entries, the module's globals, the ABI version; not its thread-local shared
 * variables, which Windows cannot export). No function probes its stack:
 * the probe (__chkstk) is the C runtime's, which a code object has not, and the fibers it
 * runs on have their stacks committed whole. */
static void zc_prepare_coff(LLVMModuleRef module)
{
	LLVMContextRef context = LLVMGetModuleContext(module);
	static const char no_probe[] = "no-stack-arg-probe";
	LLVMAttributeRef attribute = LLVMCreateStringAttribute(context, no_probe, sizeof no_probe - 1, "", 0);

	for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f)) {
		if (LLVMIsDeclaration(f))
			continue;
		LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, attribute);
		if (LLVMGetLinkage(f) == LLVMExternalLinkage && LLVMGetVisibility(f) == LLVMDefaultVisibility)
			LLVMSetDLLStorageClass(f, LLVMDLLExportStorageClass);
	}
	for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g))
		if (!LLVMIsDeclaration(g) && !LLVMIsThreadLocal(g) && LLVMGetLinkage(g) == LLVMExternalLinkage &&
		    LLVMGetVisibility(g) == LLVMDefaultVisibility)
			LLVMSetDLLStorageClass(g, LLVMDLLExportStorageClass);
}

static int zc_prepare_kernels(LLVMModuleRef module, const ZcTarget *target, ZcHostEntries *entries,
                              char **error)
{
	LLVMValueRef next;
	for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = next) {
		next = LLVMGetNextFunction(f);
		if (!zc_is_kernel(f) || LLVMIsDeclaration(f))
			continue;
		int bad = target->kind == ZC_CODE_OBJECT_AMDHSA ? zc_prepare_amdgpu_kernel(f, error)
		                                                  : zc_make_host_entry(module, f, entries, error);
		if (bad)
			return -1;
	}
	return 0;
}

static void zc_set_denormal_modes(LLVMModuleRef module, const ZcCodegenOptions *options)
{
	const char *mode = options->flush_f32_denormals ? "preserve-sign,preserve-sign" : "ieee,ieee";
	for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f) && !zc_string_attribute(f, "denormal-fp-math-f32"))
			zc_set_string_attribute(f, "denormal-fp-math-f32", mode);
}

static void zc_set_code_object_version(LLVMModuleRef module, unsigned version)
{
	LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(module));
	LLVMAddModuleFlag(module, LLVMModuleFlagBehaviorError, "amdhsa_code_object_version", 26,
	                  LLVMValueAsMetadata(LLVMConstInt(i32, version, 0)));
}

typedef struct {
	LLVMModuleRef module;
	LLVMTargetMachineRef machine;
	const ZcTarget *target;
	const ZcCodegenOptions *options;
	LLVMCodeGenFileType type;
	ZcBytes *out;
} ZcStep;

/* The SLP vectoriser's time grows with the square of a block's length in LLVM 22: each bundle
 * it forms renumbers the block for its order queries. A kernel fully unrolled into one block
 * (NVIDIA's tensor-core GEMM sample: 2,053 wmma.mma, a block of 586,000 lowered instructions)
 * spent 95 of its 112 seconds there for gfx1100. A function with a block longer than this is
 * optimised without it: noimplicitfloat, which the SLP and loop vectorisers honour, held only
 * for the middle end, since the load/store vectoriser of code generation honours it too. */
enum { ZC_SLP_MAX_BLOCK = 50000 };

static bool zc_has_huge_block(LLVMValueRef function)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(function); b; b = LLVMGetNextBasicBlock(b)) {
		unsigned n = 0;
		for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
			if (++n > ZC_SLP_MAX_BLOCK)
				return true;
	}
	return false;
}

static unsigned zc_no_implicit_float(void)
{
	return LLVMGetEnumAttributeKindForName("noimplicitfloat", strlen("noimplicitfloat"));
}

static void zc_hold_vectorisers(LLVMModuleRef module)
{
	LLVMAttributeRef hold = LLVMCreateEnumAttribute(LLVMGetModuleContext(module), zc_no_implicit_float(), 0);

	for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f))
		if (zc_has_huge_block(f))
			LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, hold);
}

static void zc_release_vectorisers(LLVMModuleRef module)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f))
		LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, zc_no_implicit_float());
}

static int zc_run_passes(LLVMModuleRef module, LLVMTargetMachineRef machine, const char *passes, char **error)
{
	LLVMPassBuilderOptionsRef pass_options = LLVMCreatePassBuilderOptions();
	LLVMErrorRef failed = LLVMRunPasses(module, passes, machine, pass_options);
	LLVMDisposePassBuilderOptions(pass_options);
	if (failed)
		return backend_fail_llvm(error, "optimisation", LLVMGetErrorMessage(failed));
	return 0;
}

static int zc_run_o3(LLVMModuleRef module, LLVMTargetMachineRef machine, char **error)
{
	zc_hold_vectorisers(module);
	int status = zc_run_passes(module, machine, "default<O3>", error);
	zc_release_vectorisers(module);
	return status;
}

/* Host entries: the kernel bodies inlined, the coordinate builtins' calls become the values
 * each entry read (host_entry.c). */
static int zc_bind_host_entry_values(LLVMModuleRef module, LLVMTargetMachineRef machine, ZcHostEntries *entries,
                                    char **error)
{
	if (zc_run_passes(module, machine, "always-inline", error) < 0)
		return -1;
	zc_bind_entry_values(module, entries);
	return 0;
}

static int zc_optimize_step(void *arg, char **error)
{
	const ZcStep *s = arg;
	LLVMModuleRef module = s->module;
	const ZcTarget *target = s->target;

	LLVMSetTarget(module, target->triple);
	LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(s->machine);
	LLVMSetModuleDataLayout(module, layout);
	LLVMDisposeTargetData(layout);

	if (zc_link_builtins(module, target, error) < 0)
		return -1;
	if (target->kind == ZC_CODE_OBJECT_HOST && zc_host_shared_memory(module, error) < 0)
		return -1;
	ZcHostEntries entries = {0};
	int prepared = zc_prepare_kernels(module, target, &entries, error);
	if (prepared == 0 && entries.count)
		prepared = zc_bind_host_entry_values(module, s->machine, &entries, error);
	free(entries.items);
	if (prepared < 0)
		return -1;
	zc_internalize_builtins(module);
	if (target->kind == ZC_CODE_OBJECT_HOST)
		zc_keep_stop_arguments(module);
	if (target->kind == ZC_CODE_OBJECT_HOST && !s->options->later_part)
		zc_add_host_abi_version(module);
	else
		zc_set_denormal_modes(module, s->options);
	if (target->code_object_version)
		zc_set_code_object_version(module, target->code_object_version);
	if (target->format == ZC_OBJECT_COFF)
		zc_prepare_coff(module);

	char *message = NULL;
	if (LLVMVerifyModule(module, LLVMReturnStatusAction, &message))
		return backend_fail_llvm(error, "invalid LLVM IR", message);
	LLVMDisposeMessage(message);

	if (target->kind == ZC_CODE_OBJECT_HOST) {
		if (zc_run_passes(module, s->machine, "function(sroa)", error) < 0)
			return -1;
		zc_host_addresses_as_offsets(module);
	}
	if (zc_run_o3(module, s->machine, error) < 0)
		return -1;
	if (target->kind != ZC_CODE_OBJECT_HOST)
		return 0;
	bool rounds;
	if (zc_host_rounds(module, &rounds, error) < 0)
		return -1;
	if (!rounds)
		return 0;
	if (target->format == ZC_OBJECT_COFF)
		zc_prepare_coff(module);
	message = NULL;
	if (LLVMVerifyModule(module, LLVMReturnStatusAction, &message))
		return backend_fail_llvm(error, "invalid LLVM IR after the host rounds", message);
	LLVMDisposeMessage(message);
	return zc_run_o3(module, s->machine, error);
}

int zc_codegen_optimize(LLVMModuleRef module, LLVMTargetMachineRef machine, const ZcTarget *target,
                        const ZcCodegenOptions *options, char **error)
{
	ZcStep step = {.module = module, .machine = machine, .target = target, .options = options};
	return zc_guarded(LLVMGetModuleContext(module), zc_optimize_step, &step, error);
}

static int zc_emit_step(void *arg, char **error)
{
	const ZcStep *s = arg;
	LLVMMemoryBufferRef buffer;
	char *message = NULL;
	if (LLVMTargetMachineEmitToMemoryBuffer(s->machine, s->module, s->type, &message, &buffer))
		return backend_fail_llvm(error, "code generation", message);
	s->out->size = LLVMGetBufferSize(buffer);
	s->out->data = malloc(s->out->size ? s->out->size : 1);
	if (s->out->data)
		memcpy(s->out->data, LLVMGetBufferStart(buffer), s->out->size);
	LLVMDisposeMemoryBuffer(buffer);
	return s->out->data ? 0 : backend_fail(error, "out of memory");
}

int zc_codegen_emit(LLVMModuleRef module, LLVMTargetMachineRef machine, LLVMCodeGenFileType type,
                    ZcBytes *out, char **error)
{
	ZcStep step = {.module = module, .machine = machine, .type = type, .out = out};
	return zc_guarded(LLVMGetModuleContext(module), zc_emit_step, &step, error);
}

/* Emission and the link with the machine, which is disposed of unless LLVM was lost. */
static int zc_emit_and_link(LLVMModuleRef module, LLVMTargetMachineRef machine, const ZcTarget *target,
                            ZcBytes *code_object, char **error)
{
	ZcBytes object = {0};
	int status = zc_codegen_emit(module, machine, LLVMObjectFile, &object, error);
	if (status == ZC_LLVM_LOST)
		return status; /* the machine too may be in use by what LLVM left behind */
	LLVMDisposeTargetMachine(machine);
	if (status == 0)
		status = zc_link(target, &object, 1, code_object, error);
	free(object.data);
	return status;
}

int zc_compile(LLVMModuleRef module, const ZcTarget *target, const ZcCodegenOptions *options,
               ZcBytes *code_object, char **error)
{
	LLVMTargetMachineRef machine = zc_target_machine(target, options, error);
	if (!machine)
		return -1;
	int status = zc_codegen_optimize(module, machine, target, options, error);
	if (status == ZC_LLVM_LOST)
		return status;
	if (status != 0) {
		LLVMDisposeTargetMachine(machine);
		return status;
	}
	return zc_emit_and_link(module, machine, target, code_object, error);
}

int zc_generate(LLVMModuleRef optimized, const ZcTarget *target, const ZcCodegenOptions *options,
                ZcBytes *code_object, char **error)
{
	LLVMTargetMachineRef machine = zc_target_machine(target, options, error);
	return machine ? zc_emit_and_link(optimized, machine, target, code_object, error) : -1;
}
