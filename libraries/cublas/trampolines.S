/* The exported entry points (ZC_EXPORTS_INC, then ZC_UNSUPPORTED_INC: engine.c). Each jumps to NVIDIA's
 * function of its name once a handle was made with NVIDIA's cuBLAS (engine.c fills
 * zc_blas_nvidia), and otherwise to the library's own, zc_blas_impl_NAME, or for an
 * unsupported one to zc_blas_unsupported with its name: one load and one test per call. */
#define BLAS_EXPORT(name)                                    \
	.globl name;                                             \
	.type name, @function;                                   \
	.p2align 4;                                              \
name:                                                        \
	movq zc_blas_nvidia + 8 * __COUNTER__(%rip), %rax;       \
	testq %rax, %rax;                                        \
	jz zc_blas_impl_##name;                                  \
	jmp *%rax;                                               \
	.size name, . - name;

#define BLAS_UNSUPPORTED(name)                               \
	.globl name;                                             \
	.type name, @function;                                   \
	.p2align 4;                                              \
name:                                                        \
	movq zc_blas_nvidia + 8 * __COUNTER__(%rip), %rax;       \
	testq %rax, %rax;                                        \
	jz 1f;                                                   \
	jmp *%rax;                                               \
1:	leaq 2f(%rip), %rdi;                                     \
	jmp zc_blas_unsupported;                                 \
	.section .rodata.str1.1, "aMS", @progbits, 1;            \
2:	.asciz #name;                                            \
	.text;                                                   \
	.size name, . - name;

	.text
#include ZC_EXPORTS_INC
#include ZC_UNSUPPORTED_INC
	.section .note.GNU-stack, "", @progbits
