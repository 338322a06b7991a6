/* The exported entry points. Each jumps to NVIDIA's function of its name once the process
 * has been handed to NVIDIA's driver (drv_cuda.c fills zc_forward_table), and otherwise to
 * the stub's own, zc_impl_NAME (exports.h gives the definitions that name): one load and
 * one test per call, and none at all for what cudart takes through cuGetProcAddress.
 * rax is scratch in both the SysV and the Windows x64 calling conventions. */
#ifdef _WIN32
/* COFF has no symbol sizes; the linker exports what .drectve names, and only that. */
#define FUNCTION_START(name) .def name; .scl 2; .type 32; .endef
#define FUNCTION_END(name) .section .drectve; .ascii " -export:", #name; .text
#else
#define FUNCTION_START(name) .type name, @function
#define FUNCTION_END(name) .size name, . - name
#endif

#define TRAMPOLINE(name, n)                                  \
	.globl name;                                             \
	FUNCTION_START(name);                                    \
	.p2align 4;                                              \
name:                                                        \
	movq zc_forward_table + 8 * (n)(%rip), %rax;             \
	testq %rax, %rax;                                        \
	jz zc_impl_##name;                                       \
	jmp *%rax;                                               \
	FUNCTION_END(name);
#define ZC_FUNCTION(name, params) TRAMPOLINE(name, __COUNTER__)
#define UNSUPPORTED(name) TRAMPOLINE(name, __COUNTER__)

	.text
#include "exports.inc"
#include "unsupported_table.inc"

#ifndef _WIN32
	.section .note.GNU-stack, "", @progbits
#endif
