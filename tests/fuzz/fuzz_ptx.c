/* libFuzzer harness for the PTX parser and checker: any bytes must give a checked module
 * or a located diagnostic, never a crash, a hang or unbounded memory. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptx_diag diag;
	struct ptx_module *m = ptx_parse("fuzz.ptx", (const char *)data, size, &diag);
	bool ok = m && ptx_check(m, &diag);

	if (!ok) {
		/* before the module goes: a checker diagnostic names the module's own file string */
		FILE *null = fopen("/dev/null", "w");
		if (null) {
			ptx_diag_print(null, &diag, (const char *)data, size);
			fclose(null);
		}
		ptx_diag_free(&diag);
	}
	ptx_module_free(m);
	return 0;
}
