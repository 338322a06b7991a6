/* The CUDA device runtime, for kernels that launch kernels (abi/device_launch.h).
 * libcudadevrt's PTX, which nvcc links into every -rdc program, implements
 * cudaGetParameterBuffer, cudaLaunchDevice, device-side streams and the rest as calls of
 * the driver's __cuda_syscall_cnpv2* functions (and, for CDP1, cnp*), which only NVIDIA's
 * JIT provides. The ones a launch needs get bodies here that call the builtins; every other
 * one becomes a left-out function, so that only the kernels that reach it are left out. */
#include <string.h>

#include "device_launch.h"
#include "lower.h"

enum call { PARAMETER_BUFFER, LAUNCH, STREAM_CREATE, SUCCEED };

/* params: the parameters libcudadevrt's PTX declares, q a .b64, w a .b32, d a dim3
 * (.param .align 4 .b8 [12]) */
static const struct {
	const char *name;
	enum call call;
	const char *params;
} calls[] = {
	{"__cuda_syscall_cnpv2GetParameterBufferV2", PARAMETER_BUFFER, "qddw"},
	{"__cuda_syscall_cnpv2LaunchDeviceV2", LAUNCH, "qq"},
	{"__cuda_syscall_cnpv2StreamCreate", STREAM_CREATE, "qw"},
	/* a created stream orders launches as the block's own does; nothing fails to report */
	{"__cuda_syscall_cnpv2StreamDestroy", SUCCEED, "q"},
	{"__cuda_syscall_cnpv2GetLastError", SUCCEED, ""},
	{"__cuda_syscall_cnpv2PeekAtLastError", SUCCEED, ""},
	{"__cuda_syscall_cnpv2SetLastError", SUCCEED, "w"},
};

/* cudaGraphSetConditional, a builtin of NVIDIA's JIT in a kernel of a graph with
 * conditional nodes: the stub's handle is the device address of the condition's 32 bits
 * (runtime_stub/api/graph_conditional.c), which the call stores. */
static const char graph_set_conditional[] = "cudaGraphSetConditional";

/* Its body: (handle .b64, value .b32), no result. false when the declaration differs. */
static bool define_set_conditional(struct lower *L, LLVMValueRef fn)
{
	LLVMTypeRef fty = LLVMGlobalGetValueType(fn), types[2];
	LLVMValueRef slot;

	if (LLVMCountParamTypes(fty) != 2 ||
	    LLVMGetTypeKind(LLVMGetReturnType(fty)) != LLVMVoidTypeKind)
		return false;
	LLVMGetParamTypes(fty, types);
	if (types[0] != ll_int(L, 64) || types[1] != ll_int(L, 32))
		return false;
	slot = LLVMBuildIntToPtr(L->b, LLVMGetParam(fn, 0),
	                         LLVMPointerTypeInContext(L->ctx, L->target->as_global), "");
	LLVMSetAlignment(LLVMBuildStore(L->b, LLVMGetParam(fn, 1), slot), 4);
	LLVMBuildRetVoid(L->b);
	return true;
}

bool is_device_runtime_call(const char *name)
{
	return strncmp(name, "__cuda_syscall_", 15) == 0 || strncmp(name, "cnp", 3) == 0 ||
	       strcmp(name, graph_set_conditional) == 0;
}

/* dims[0..2] of a PTX `.param .align 4 .b8 p[12]` dim3 argument. */
static void unpack_dim3(struct lower *L, LLVMValueRef dim3, LLVMValueRef *dims)
{
	LLVMValueRef slot = entry_alloca(L, LLVMTypeOf(dim3), 4, "");

	LLVMBuildStore(L->b, dim3, slot);
	for (unsigned i = 0; i < 3; i++) {
		LLVMValueRef at = LLVMConstInt(ll_int(L, 64), 4 * i, 0);
		LLVMValueRef p = LLVMBuildGEP2(L->b, ll_int(L, 8), slot, &at, 1, "");

		dims[i] = LLVMBuildLoad2(L->b, ll_int(L, 32), p, "");
		LLVMSetAlignment(dims[i], 4);
	}
}

/* zluda_convert_device_launches: weak, so that the members of a link share one. */
static void declare_queue(struct lower *L)
{
	LLVMValueRef v;

	if (LLVMGetNamedGlobal(L->mod, ZC_DEVICE_LAUNCHES_SYMBOL))
		return;
	v = LLVMAddGlobalInAddressSpace(L->mod, ll_int(L, 64), ZC_DEVICE_LAUNCHES_SYMBOL,
	                                L->target->as_global);
	LLVMSetInitializer(v, LLVMConstInt(ll_int(L, 64), 0, 0));
	LLVMSetLinkage(v, LLVMWeakODRLinkage);
	LLVMSetAlignment(v, 8);
}

static void build_body(struct lower *L, enum call call, LLVMValueRef fn)
{
	LLVMTypeRef ret = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
	LLVMValueRef args[8], result = LLVMConstInt(ret, 0, 0);

	switch (call) {
	case PARAMETER_BUFFER:
		declare_queue(L);
		args[0] = LLVMGetParam(fn, 0);
		unpack_dim3(L, LLVMGetParam(fn, 1), args + 1);
		unpack_dim3(L, LLVMGetParam(fn, 2), args + 4);
		args[7] = LLVMGetParam(fn, 3);
		result = call_builtin(L, "__zc_cdp_parameter_buffer", ret, args, 8);
		break;
	case LAUNCH:
		args[0] = LLVMGetParam(fn, 0);
		args[1] = LLVMGetParam(fn, 1);
		result = call_builtin(L, "__zc_cdp_launch", ret, args, 2);
		break;
	case STREAM_CREATE:
		args[0] = LLVMGetParam(fn, 0);
		args[1] = LLVMGetParam(fn, 1);
		result = call_builtin(L, "__zc_cdp_stream_create", ret, args, 2);
		break;
	case SUCCEED:
		break;
	}
	LLVMBuildRet(L->b, result);
}

/* Whether the parameters and result are those PARAMS describes. */
static bool expected_signature(struct lower *L, const char *params, LLVMValueRef fn)
{
	LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
	LLVMTypeRef types[8];
	unsigned n = LLVMCountParamTypes(fty);

	if (n != strlen(params) || n > 8 ||
	    LLVMGetTypeKind(LLVMGetReturnType(fty)) != LLVMIntegerTypeKind)
		return false;
	LLVMGetParamTypes(fty, types);
	for (unsigned i = 0; i < n; i++)
		if (types[i] != (params[i] == 'd' ? LLVMArrayType2(ll_int(L, 8), 12)
		                 : ll_int(L, params[i] == 'q' ? 64 : 32)))
			return false;
	return true;
}

void define_device_runtime_call(struct lower *L, const char *name, LLVMValueRef fn)
{
	LLVMBuilderRef saved = L->b;
	LLVMBasicBlockRef saved_entry = L->entry;
	size_t i = 0;

	while (i < sizeof(calls) / sizeof(calls[0]) && strcmp(calls[i].name, name) != 0)
		i++;
	LLVMSetLinkage(fn, LLVMInternalLinkage);
	L->b = LLVMCreateBuilderInContext(L->ctx);
	L->entry = LLVMAppendBasicBlockInContext(L->ctx, fn, "");
	LLVMPositionBuilderAtEnd(L->b, L->entry);
	if (i < sizeof(calls) / sizeof(calls[0]) &&
	    expected_signature(L, calls[i].params, fn)) {
		build_body(L, calls[i].call, fn);
	} else if (!(strcmp(name, graph_set_conditional) == 0 && define_set_conditional(L, fn))) {
		const char *why = "a call of CUDA's device runtime (dynamic parallelism) not supported yet";

		LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
		                        LLVMCreateStringAttribute(L->ctx, PTX_LEFT_OUT_ATTRIBUTE,
		                                                  (unsigned)strlen(PTX_LEFT_OUT_ATTRIBUTE),
		                                                  why, (unsigned)strlen(why)));
		LLVMBuildUnreachable(L->b);
	}
	LLVMDisposeBuilder(L->b);
	L->b = saved;
	L->entry = saved_entry;
}
