/* A replacement's exported entry points (ZC_EXPORTS_INC, then ZC_UNSUPPORTED_INC: engine.h).
 * Each jumps to NVIDIA's function of its name once NVIDIA's library takes the calls
 * (engine.c fills zc_nvidia_functions), and otherwise to the replacement's own,
 * zc_impl_NAME, or for an unsupported one to zc_unsupported with its name: one load and
 * one test per call. */
#define ZC_EXPORT(name)                                    \
	.globl name;                                             \
	.type name, @function;                                   \
	.p2align 4;                                              \
name:                                                        \
	movq zc_nvidia_functions + 8 * __COUNTER__(%rip), %rax;       \
	testq %rax, %rax;                                        \
	jz zc_impl_##name;                                  \
	jmp *%rax;                                               \
	.size name, . - name;

#define ZC_UNSUPPORTED(name)                               \
	.globl name;                                             \
	.type name, @function;                                   \
	.p2align 4;                                              \
name:                                                        \
	movq zc_nvidia_functions + 8 * __COUNTER__(%rip), %rax;       \
	testq %rax, %rax;                                        \
	jz 1f;                                                   \
	jmp *%rax;                                               \
1:	leaq 2f(%rip), %rdi;                                     \
	jmp zc_unsupported;                                 \
	.section .rodata.str1.1, "aMS", @progbits, 1;            \
2:	.asciz #name;                                            \
	.text;                                                   \
	.size name, . - name;

	.text
#include ZC_EXPORTS_INC
#include ZC_UNSUPPORTED_INC
	.section .note.GNU-stack, "", @progbits
