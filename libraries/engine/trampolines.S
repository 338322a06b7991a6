/* A replacement's exported entry points (ZC_EXPORTS_INC, then ZC_UNSUPPORTED_INC: engine.h).
 * Each jumps to the chosen engine's function for it (engine.c fills zc_engine_functions:
 * NVIDIA's function of its name, or one mapping it to AMD's library), and otherwise to the
 * replacement's own, zc_impl_NAME, or for an unsupported one to zc_unsupported with its
 * name. Until the engine is chosen (zc_engine_chosen), the first call of any of them
 * chooses it, so that no call reaches the project's implementation in a process NVIDIA's
 * library serves: a handle or descriptor made by one would reach the other. Two loads and
 * two tests a call. */
#define ENTRY(name, n)                                       \
	.globl name;                                             \
	.type name, @function;                                   \
	.p2align 4;                                              \
name:                                                        \
4:	movq zc_engine_functions + 8 * (n)(%rip), %rax;          \
	testq %rax, %rax;                                        \
	jz 1f;                                                   \
	jmp *%rax;                                               \
1:	cmpb $0, zc_engine_chosen(%rip);                         \
	jne 2f;                                                  \
	leaq 4b(%rip), %rax;                                     \
	jmp choose_then_retry;                                   \
2:

/* The project's own implementation: logged first when the library logs its calls
 * (zc_engine_logging). */
#define IMPLEMENTED(name, n)                                 \
	ENTRY(name, n)                                           \
	cmpb $0, zc_engine_logging(%rip);                        \
	je 5f;                                                   \
	movl $(n), %r10d;                                        \
	leaq 5f(%rip), %r11;                                     \
	jmp log_then_continue;                                   \
5:	jmp zc_impl_##name;                                      \
	.size name, . - name;
#define ZC_EXPORT(name) IMPLEMENTED(name, __COUNTER__)

#define ZC_UNSUPPORTED(name)                                 \
	ENTRY(name, __COUNTER__)                                 \
	leaq 3f(%rip), %rdi;                                     \
	jmp zc_unsupported;                                      \
	.section .rodata.str1.1, "aMS", @progbits, 1;            \
3:	.asciz #name;                                            \
	.text;                                                   \
	.size name, . - name;

/* The caller's argument registers, integer and vector, kept on the stack across a call of
 * the engine's C code; FRAME bytes (128, or 136 to keep the stack 16-byte aligned after an
 * odd number of pushes before) hold the vector ones. */
.macro save_arguments frame
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq %r8
	pushq %r9
	subq $\frame, %rsp
	movdqu %xmm0, 0(%rsp)
	movdqu %xmm1, 16(%rsp)
	movdqu %xmm2, 32(%rsp)
	movdqu %xmm3, 48(%rsp)
	movdqu %xmm4, 64(%rsp)
	movdqu %xmm5, 80(%rsp)
	movdqu %xmm6, 96(%rsp)
	movdqu %xmm7, 112(%rsp)
.endm
.macro restore_arguments frame
	movdqu 0(%rsp), %xmm0
	movdqu 16(%rsp), %xmm1
	movdqu 32(%rsp), %xmm2
	movdqu 48(%rsp), %xmm3
	movdqu 64(%rsp), %xmm4
	movdqu 80(%rsp), %xmm5
	movdqu 96(%rsp), %xmm6
	movdqu 112(%rsp), %xmm7
	addq $\frame, %rsp
	popq %r9
	popq %r8
	popq %rcx
	popq %rdx
	popq %rsi
	popq %rdi
.endm

	.text
/* Chooses the engine with the caller's arguments kept (the integer and vector argument
 * registers), then enters the trampoline in rax again. */
	.p2align 4
	.type choose_then_retry, @function
choose_then_retry:
	pushq %rax
	save_arguments 128
	call zc_engine_choose_now
	restore_arguments 128
	popq %rax
	jmp *%rax
	.size choose_then_retry, . - choose_then_retry

/* Logs the call of export r10 (zc_engine_log) with the caller's arguments kept, then goes
 * on at r11. */
	.p2align 4
	.type log_then_continue, @function
log_then_continue:
	pushq %r11
	pushq %rax
	save_arguments 136
	movl %r10d, %edi
	call zc_engine_log
	restore_arguments 136
	popq %rax
	popq %r11
	jmp *%r11
	.size log_then_continue, . - log_then_continue

#include ZC_EXPORTS_INC
#include ZC_UNSUPPORTED_INC
	.section .note.GNU-stack, "", @progbits
