/* The exported entry points. Each jumps to NVIDIA's function of its name once the process
 * has been handed to NVIDIA's driver (drv_cuda.c fills zc_forward_table), and otherwise to
 * the stub's own, zc_impl_NAME (exports.h gives the definitions that name): one load and
 * one test per call, and none at all for what cudart takes through cuGetProcAddress. */
#define TRAMPOLINE(name, n)                                  \
	.globl name;                                             \
	.type name, @function;                                   \
	.p2align 4;                                              \
name:                                                        \
	movq zc_forward_table + 8 * (n)(%rip), %rax;             \
	testq %rax, %rax;                                        \
	jz zc_impl_##name;                                       \
	jmp *%rax;                                               \
	.size name, . - name;
#define ZC_FUNCTION(name, params) TRAMPOLINE(name, __COUNTER__)
#define UNSUPPORTED(name) TRAMPOLINE(name, __COUNTER__)

	.text
#include "exports.inc"
#include "unsupported_table.inc"

	.section .note.GNU-stack, "", @progbits
