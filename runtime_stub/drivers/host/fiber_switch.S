/* The CPU driver's fiber switch (x86-64 System V). glibc's swapcontext also saves and
 * restores the signal mask, a system call on every switch: on barrier- and warp-heavy
 * kernels the switches were most of the run time. Kernel code never changes MXCSR or the
 * x87 control word, so only the callee-saved integer registers travel. */

/* void zc_fiber_switch(void **save, void *resume): pushes the callee-saved registers,
 * stores the stack pointer in *save and pops those of the stack resume points to. */
	.text
	.globl zc_fiber_switch
	.hidden zc_fiber_switch
	.type zc_fiber_switch, @function
	.p2align 4
zc_fiber_switch:
	.cfi_startproc
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret
	.cfi_endproc
	.size zc_fiber_switch, . - zc_fiber_switch

/* void *zc_fiber_stack_init(char *stack, size_t size, void (*entry)(void)): the frame
 * zc_fiber_switch pops, at the top of the stack: the six registers (zero, but rbx holding
 * the entry), then zc_fiber_start as the return address, placed so that the entry's frame
 * is aligned as a call's. Returns the stack pointer to resume. */
	.globl zc_fiber_stack_init
	.hidden zc_fiber_stack_init
	.type zc_fiber_stack_init, @function
	.p2align 4
zc_fiber_stack_init:
	.cfi_startproc
	leaq (%rdi,%rsi), %rax
	andq $-16, %rax
	subq $56, %rax
	movq $0, 0(%rax)
	movq $0, 8(%rax)
	movq $0, 16(%rax)
	movq $0, 24(%rax)
	movq %rdx, 32(%rax)
	movq $0, 40(%rax)
	leaq zc_fiber_start(%rip), %rcx
	movq %rcx, 48(%rax)
	ret
	.cfi_endproc
	.size zc_fiber_stack_init, . - zc_fiber_stack_init

/* A new fiber's first switch returns here, with its entry function in rbx (see
 * zc_fiber_stack_init); the entry never returns. The outermost frame: unwinders stop. */
	.type zc_fiber_start, @function
	.p2align 4
zc_fiber_start:
	.cfi_startproc
	.cfi_undefined rip
	xorl %ebp, %ebp
	callq *%rbx
	ud2
	.cfi_endproc
	.size zc_fiber_start, . - zc_fiber_start

	.section .note.GNU-stack, "", @progbits
