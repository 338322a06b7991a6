/* A replacement DLL's exported entry points, as trampolines.S for Linux but in the Windows
 * x64 calling convention: arguments in rcx, rdx, r8, r9 and xmm0-xmm3, 32 bytes of shadow
 * space for a callee, and each export named to the linker in .drectve. */
#define EXPORTED(name)                                       \
	.section .drectve;                                       \
	.ascii " -export:", #name;                               \
	.text

#define ENTRY(name, n)                                       \
	EXPORTED(name);                                          \
	.globl name;                                             \
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

#define IMPLEMENTED(name, n)                                 \
	ENTRY(name, n)                                           \
	cmpb $0, zc_engine_logging(%rip);                        \
	je 5f;                                                   \
	movl $(n), %r10d;                                        \
	leaq 5f(%rip), %r11;                                     \
	jmp log_then_continue;                                   \
5:	jmp zc_impl_##name;
#define ZC_EXPORT(name) IMPLEMENTED(name, __COUNTER__)

#define ZC_UNSUPPORTED(name)                                 \
	ENTRY(name, __COUNTER__)                                 \
	leaq 3f(%rip), %rcx;                                     \
	jmp zc_unsupported;                                      \
	.section .rdata, "dr";                                   \
3:	.asciz #name;                                            \
	.text;

/* The caller's argument registers kept on the stack across a call of the engine's C code:
 * the integer ones pushed, the vector ones above the callee's shadow space in FRAME bytes
 * (96, or 104 to keep the stack 16-byte aligned after an even number of pushes before). */
.macro save_arguments frame
	pushq %rcx
	pushq %rdx
	pushq %r8
	pushq %r9
	subq $\frame, %rsp
	movdqu %xmm0, 32(%rsp)
	movdqu %xmm1, 48(%rsp)
	movdqu %xmm2, 64(%rsp)
	movdqu %xmm3, 80(%rsp)
.endm
.macro restore_arguments frame
	movdqu 32(%rsp), %xmm0
	movdqu 48(%rsp), %xmm1
	movdqu 64(%rsp), %xmm2
	movdqu 80(%rsp), %xmm3
	addq $\frame, %rsp
	popq %r9
	popq %r8
	popq %rdx
	popq %rcx
.endm

	.text
/* Chooses the engine with the caller's arguments kept, then enters the trampoline in rax
 * again. */
	.p2align 4
choose_then_retry:
	pushq %rax
	save_arguments 96
	call zc_engine_choose_now
	restore_arguments 96
	popq %rax
	jmp *%rax

/* Logs the call of export r10 (zc_engine_log) with the caller's arguments kept, then goes
 * on at r11. */
	.p2align 4
log_then_continue:
	pushq %r11
	pushq %rax
	save_arguments 104
	movl %r10d, %ecx
	call zc_engine_log
	restore_arguments 104
	popq %rax
	popq %r11
	jmp *%r11

#include ZC_EXPORTS_INC
#include ZC_UNSUPPORTED_INC
