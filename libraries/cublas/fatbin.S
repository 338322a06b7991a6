/* The kernels' fatbin in the library's read-only data, where the converter finds it by its
 * magic and cublasCreate loads it. */
	.section .rodata
	.balign 16
	.globl zc_blas_fatbin
	.hidden zc_blas_fatbin
	.type zc_blas_fatbin, @object
zc_blas_fatbin:
	.incbin ZC_BLAS_FATBIN
	.size zc_blas_fatbin, . - zc_blas_fatbin
	.section .note.GNU-stack, "", @progbits
