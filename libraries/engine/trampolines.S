/* A replacement's exported entry points (ZC_EXPORTS_INC, then ZC_UNSUPPORTED_INC: engine.h).
 * Each jumps to the chosen engine's function for it (engine.c fills zc_engine_functions:
 * NVIDIA's function of its name, or one mapping it to AMD's library), and otherwise to the
 * replacement's own, zc_impl_NAME, or for an unsupported one to zc_unsupported with its
 * name. Until the engine is chosen (zc_engine_chosen), the first call of any of them
 * chooses it, so that no call reaches the project's implementation in a process NVIDIA's
 * library serves: a handle or descriptor made by one would reach the other. Two loads and
 * two tests a call.
 *
 * For Linux (ELF, the System V calling convention: arguments in rdi, rsi, rdx, rcx, r8, r9
 * and xmm0-xmm7) and for Windows (a DLL, each export named to the linker in .drectve; the
 * Windows x64 convention: arguments in rcx, rdx, r8, r9 and xmm0-xmm3, and 32 bytes of
 * shadow space for a callee). */
#ifdef _WIN32
#define EXPORT_BEGIN(name)                                   \
	.section .drectve;                                       \
	.ascii " -export:", #name;                               \
	.text;                                                   \
	.globl name
#define EXPORT_END(name)
#define READ_ONLY .section .rdata, "dr"
#define ARGUMENT_1 %rcx
#define ARGUMENT_1_32 %ecx
#else
#define EXPORT_BEGIN(name)                                   \
	.globl name;                                             \
	.type name, @function
#define EXPORT_END(name) .size name, . - name
#define READ_ONLY .section .rodata.str1.1, "aMS", @progbits, 1
#define ARGUMENT_1 %rdi
#define ARGUMENT_1_32 %edi
#endif

#define ENTRY(name, n)                                       \
	EXPORT_BEGIN(name);                                      \
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
	EXPORT_END(name);
#define ZC_EXPORT(name) IMPLEMENTED(name, __COUNTER__)

#define ZC_UNSUPPORTED(name)                                 \
	ENTRY(name, __COUNTER__)                                 \
	leaq 3f(%rip), ARGUMENT_1;                               \
	jmp zc_unsupported;                                      \
	READ_ONLY;                                               \
3:	.asciz #name;                                            \
	.text;                                                   \
	EXPORT_END(name);

/* The caller's argument registers, integer and vector, kept on the stack across a call of
 * the engine's C code. FRAME bytes hold the vector ones (above the callee's shadow space on
 * Windows), sized to keep the stack 16-byte aligned after the pushes before: EVEN or ODD
 * pushes of the caller's. */
#ifdef _WIN32
#define FRAME_EVEN 104
#define FRAME_ODD 96
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
#else
#define FRAME_EVEN 136
#define FRAME_ODD 128
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
#endif

	.text
/* Chooses the engine with the caller's arguments kept, then enters the trampoline in rax
 * again (one push before the frame). */
	.p2align 4
choose_then_retry:
	pushq %rax
	save_arguments FRAME_ODD
	call zc_engine_choose_now
	restore_arguments FRAME_ODD
	popq %rax
	jmp *%rax

/* Logs the call of export r10 (zc_engine_log) with the caller's arguments kept, then goes
 * on at r11 (two pushes before the frame). */
	.p2align 4
log_then_continue:
	pushq %r11
	pushq %rax
	save_arguments FRAME_EVEN
	movl %r10d, ARGUMENT_1_32
	call zc_engine_log
	restore_arguments FRAME_EVEN
	popq %rax
	popq %r11
	jmp *%r11

#include ZC_EXPORTS_INC
#include ZC_UNSUPPORTED_INC
#ifndef _WIN32
	.section .note.GNU-stack, "", @progbits
#endif
