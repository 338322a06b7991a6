/* The kernels' fatbin in the library's read-only data, where the converter finds it by its
 * magic and plans load it. */
	.section .rodata
	.balign 16
	.globl zc_fft_fatbin
	.hidden zc_fft_fatbin
	.type zc_fft_fatbin, @object
zc_fft_fatbin:
	.incbin ZC_FFT_FATBIN
	.size zc_fft_fatbin, . - zc_fft_fatbin
	.section .note.GNU-stack, "", @progbits
