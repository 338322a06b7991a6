/* libFuzzer harness for the emulator's code-object loader and decoder: any bytes, loaded for
 * the processor they name (gfx1030, gfx1100 or gfx1200: segments copied, relocations
 * applied, symbols, metadata and kernels read, every instruction decoded), must load or fail
 * with a message, never crash or hang the process that hosts the emulator. A loaded object is
 * walked as the HIP runtime walks one: its kernels looked up and its unemulated instructions
 * listed. */
#include <stdint.h>
#include <string.h>

#include "emu.h"
#include "emulator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count(const char *text, uint64_t address, void *arg)
{
	(void)text;
	(void)address;
	++*(size_t *)arg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const processors[] = {"gfx1030", "gfx1100", "gfx1200"};
	char error[ZC_EMU_ERROR_SIZE];

	for (size_t p = 0; p < sizeof processors / sizeof *processors; p++) {
		struct zc_emu_object *object;
		const struct zc_emu_kernel *kernel;
		struct zc_emu_kernel_info info;
		enum zc_emu_status st;
		size_t unemulated = 0;
		void *address;
		size_t global_size;

		memset(error, 0xff, sizeof error);
		st = zc_emu_load(data, size, processors[p], &object, error);
		if (st == ZC_EMU_WRONG_PROCESSOR)
			continue;
		if (st != ZC_EMU_OK) {
			if (!memchr(error, 0, sizeof error) || !error[0])
				__builtin_trap(); /* a failure without its message */
			return 0;
		}
		zc_emu_unemulated(object, count, &unemulated);
		/* every kernel and symbol the loader kept, looked up by its name as the HIP
		 * runtime does (emu.h: what the loader made of the file) */
		for (uint32_t k = 0; k < object->nkernels; k++)
			if (zc_emu_find_kernel(object, object->kernels[k].name, &kernel, error) == ZC_EMU_OK)
				zc_emu_kernel_info(kernel, &info);
		for (uint32_t g = 0; g < object->nsymbols; g++)
			if (!object->symbols[g].is_function)
				zc_emu_find_global(object, object->symbols[g].name, &address, &global_size,
				                   error);
		zc_emu_unload(object);
		return 0;
	}
	return 0;
}
