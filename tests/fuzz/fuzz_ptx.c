/* libFuzzer harness for the PTX parser: any bytes must give a module or a located
 * diagnostic, never a crash, a hang or unbounded memory. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptx_diag diag;
	struct ptx_module *m = ptx_parse("fuzz.ptx", (const char *)data, size, &diag);
	if (m) {
		ptx_module_free(m);
	} else {
		FILE *null = fopen("/dev/null", "w");
		if (null) {
			ptx_diag_print(null, &diag, (const char *)data, size);
			fclose(null);
		}
	}
	return 0;
}
