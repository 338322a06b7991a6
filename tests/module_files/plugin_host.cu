// A converted program that opens a plugin nobody converted (plugin.cu) with dlopen and has it
// run its kernel on the program's data (cube_check.h). Usage:
//   plugin_host PLUGIN
// Prints PASS and exits 0 when every result is right; else "FAIL: " and the error's name.
#include <dlfcn.h>

#include "cube_check.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: plugin_host PLUGIN\n");
		return 2;
	}
	void *plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!plugin) {
		printf("FAIL: %s\n", dlerror());
		return 1;
	}
	auto plugin_cube = (int (*)(const int *, long long *, int))dlsym(plugin, "plugin_cube");
	if (!plugin_cube) {
		printf("FAIL: %s\n", dlerror());
		return 1;
	}
	return check_cubes(plugin_cube);
}
