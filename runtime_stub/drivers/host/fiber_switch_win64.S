/* The CPU driver's fiber switch for nvcuda.dll (x86-64 Windows), as fiber_switch.S is for
 * System V: the Windows x64 convention's callee-saved registers (rbx, rbp, rdi, rsi,
 * r12-r15, xmm6-xmm15), and the thread's stack bounds in its TEB (StackBase, StackLimit,
 * DeallocationStack), which the system's exception dispatch checks a stack pointer
 * against: each fiber runs with its own stack's. */

/* void zc_fiber_switch(void **save, void *resume): rcx = save, rdx = resume. */
	.text
	.globl zc_fiber_switch
	.p2align 4
zc_fiber_switch:
	pushq %rbp
	pushq %rbx
	pushq %rdi
	pushq %rsi
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	pushq %gs:8
	pushq %gs:16
	pushq %gs:0x1478
	subq $160, %rsp
	movaps %xmm6, 0(%rsp)
	movaps %xmm7, 16(%rsp)
	movaps %xmm8, 32(%rsp)
	movaps %xmm9, 48(%rsp)
	movaps %xmm10, 64(%rsp)
	movaps %xmm11, 80(%rsp)
	movaps %xmm12, 96(%rsp)
	movaps %xmm13, 112(%rsp)
	movaps %xmm14, 128(%rsp)
	movaps %xmm15, 144(%rsp)
	movq %rsp, (%rcx)
	movq %rdx, %rsp
	movaps 0(%rsp), %xmm6
	movaps 16(%rsp), %xmm7
	movaps 32(%rsp), %xmm8
	movaps 48(%rsp), %xmm9
	movaps 64(%rsp), %xmm10
	movaps 80(%rsp), %xmm11
	movaps 96(%rsp), %xmm12
	movaps 112(%rsp), %xmm13
	movaps 128(%rsp), %xmm14
	movaps 144(%rsp), %xmm15
	addq $160, %rsp
	popq %gs:0x1478
	popq %gs:16
	popq %gs:8
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rsi
	popq %rdi
	popq %rbx
	popq %rbp
	ret

/* void *zc_fiber_stack_init(char *stack, size_t size, void (*entry)(void)): rcx = stack,
 * rdx = size, r8 = entry. The 256-byte frame zc_fiber_switch pops, 16-byte aligned at the
 * top of the stack: xmm6-xmm15 zero, the stack's bounds (DeallocationStack = StackLimit =
 * stack, StackBase = its top), the eight registers (zero, rbx holding the entry), and
 * zc_fiber_start as the return address. Returns the stack pointer to resume. */
	.globl zc_fiber_stack_init
	.p2align 4
zc_fiber_stack_init:
	leaq (%rcx,%rdx), %r9
	andq $-16, %r9
	leaq -256(%r9), %rax
	pxor %xmm0, %xmm0
	xorl %edx, %edx
1:	movaps %xmm0, (%rax,%rdx)
	addq $16, %rdx
	cmpq $256, %rdx
	jne 1b
	movq %rcx, 160(%rax)
	movq %rcx, 168(%rax)
	movq %r9, 176(%rax)
	movq %r8, 232(%rax)
	leaq zc_fiber_start(%rip), %rcx
	movq %rcx, 248(%rax)
	ret

/* A new fiber's first switch returns here, with its entry in rbx and the stack pointer
 * 16-byte aligned; the entry gets its 32 bytes of shadow space and never returns. */
	.p2align 4
zc_fiber_start:
	xorl %ebp, %ebp
	subq $32, %rsp
	callq *%rbx
	ud2
