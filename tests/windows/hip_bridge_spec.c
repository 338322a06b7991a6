/* Writes the Wine spec file of hip_bridge.c's amdhip64_6.dll: each HIP function exported
 * under its own name from its bridge. */
#include <stdio.h>

#include "hip_api.h"

#define EXPORT(name, params) puts("@ cdecl " #name "() bridge_" #name);

int main(void)
{
	HIP_FUNCTIONS(EXPORT)
	HIP_OPTIONAL_FUNCTIONS(EXPORT)
	HIP_VMM_FUNCTIONS(EXPORT)
	HIP_OPTIONAL_FUNCTIONS_6(EXPORT)
	return 0;
}
