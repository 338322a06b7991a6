/* libFuzzer harness for the PTX lowering: any bytes that parse and check are lowered to
 * LLVM IR for the AMDGPU and the host targets (the input's size picks one, and whether wmma
 * takes the processor's matrix instructions, so that any PTX file is a seed), and the
 * functions that cannot be lowered are left out as the converter leaves them out. Errors
 * are fine; crashes, hangs, leaks and undefined behaviour are not. With ZC_FUZZ_VERIFY=1
 * (bench/fuzz_at_length.sh) what remains must also be a module LLVM's verifier accepts:
 * the converter verifies each module before code generation and fails it with a message
 * otherwise, so invalid IR is a defect to hunt at length, not a crash of the smoke run. */
#include <llvm-c/Analysis.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A context keeps every type and constant it ever made: a fresh one now and then keeps the
 * harness's memory bounded without paying for one per input. */
#define INPUTS_PER_CONTEXT 512

static LLVMContextRef context(void)
{
	static LLVMContextRef ctx;
	static unsigned uses;

	if (ctx && ++uses % INPUTS_PER_CONTEXT == 0) {
		LLVMContextDispose(ctx);
		ctx = NULL;
	}
	if (!ctx)
		ctx = LLVMContextCreate();
	return ctx;
}

static void leave_out_and_verify(struct ptx_lowered *out)
{
	const char **names = malloc((out->nkernels + 1) * sizeof *names);
	char **reasons = calloc(out->nkernels + 1, sizeof *reasons);
	char *message = NULL;

	if (!names || !reasons)
		abort();
	for (uint32_t i = 0; i < out->nkernels; i++)
		names[i] = out->kernels[i].name;
	ptx_leave_out(out->module, names, out->nkernels, reasons);
	if (getenv("ZC_FUZZ_VERIFY") && LLVMVerifyModule(out->module, LLVMReturnStatusAction, &message)) {
		fprintf(stderr, "invalid IR from the lowering:\n%s\n", message);
		abort();
	}
	LLVMDisposeMessage(message);
	for (uint32_t i = 0; i < out->nkernels; i++)
		free(reasons[i]);
	free(reasons);
	free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptx_lower_options options = {0};
	const struct ptx_target *target;
	struct ptx_lowered out;
	struct ptx_diag diag;
	struct ptx_module *m;

	target = size & 1 ? &ptx_target_host : &ptx_target_amdgpu;
	options.matrix_instructions = size & 2;
	m = ptx_parse("fuzz.ptx", (const char *)data, size, &diag);
	if (!m || !ptx_check(m, &diag)) {
		ptx_diag_free(&diag);
		ptx_module_free(m);
		return 0;
	}
	options.f32_subnormals_flushed = ptx_f32_subnormals(m) == PTX_SUBNORMALS_FLUSHED;
	if (ptx_uses_reserved_smem(m)) {
		options.reserved_smem = true;
		options.shared_start = target->shared_as_offsets ? PTX_RESERVED_SMEM_SIZE : 0;
	}
	if (ptx_lower(m, target, context(), &options, &out, &diag)) {
		leave_out_and_verify(&out);
		ptx_lowered_free(&out);
	} else {
		ptx_diag_free(&diag);
	}
	ptx_module_free(m);
	return 0;
}
