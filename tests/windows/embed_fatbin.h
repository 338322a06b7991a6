/* The fatbin nvcc made (FATBIN_PATH, given with -D) in .nv_fatb and a wrapper pointing at it
 * in .nvFatBi, as MSVC's output of nvcc lays them out; the pointer is an absolute address,
 * so the linker gives it a base relocation (--dynamicbase). Nothing registers the wrapper
 * (no cudart here); it is where cudart's would be, for the converter. */
#ifndef ZC_TEST_EMBED_FATBIN_H
#define ZC_TEST_EMBED_FATBIN_H

__asm__(".section .nv_fatb,\"dr\"\n"
        ".balign 8\n"
        "fatbin_data:\n"
        ".incbin \"" FATBIN_PATH "\"\n"
        ".text\n");
/* the asm label names the symbol exactly */
extern const unsigned char fatbin_data[] __asm__("fatbin_data");

typedef struct {
	int magic;
	int version;
	const void *data;
	void *filename_or_fatbins;
} FatbinWrapper;

__attribute__((section(".nvFatBi"), used, aligned(8)))
static const FatbinWrapper fatbin_wrapper = {0x466243B1, 1, fatbin_data, 0};

#endif
