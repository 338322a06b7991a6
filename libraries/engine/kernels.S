/* A replacement's kernels: the fatbin nvcc made of its CUDA source (ZC_KERNELS_FATBIN), in
 * the library's read-only data, where the converter finds it by its magic and the library
 * loads it with cuModuleLoadData. */
#ifdef _WIN32
	.section .rdata, "dr"
	.balign 16
	.globl zc_kernels_fatbin
zc_kernels_fatbin:
	.incbin ZC_KERNELS_FATBIN
#else
	.section .rodata
	.balign 16
	.globl zc_kernels_fatbin
	.hidden zc_kernels_fatbin
	.type zc_kernels_fatbin, @object
zc_kernels_fatbin:
	.incbin ZC_KERNELS_FATBIN
	.size zc_kernels_fatbin, . - zc_kernels_fatbin
	.section .note.GNU-stack, "", @progbits
#endif
