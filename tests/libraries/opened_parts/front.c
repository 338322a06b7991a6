/* A library that opens its parts itself, as cuDNN's libcudnn.so.9 does: each by its name
 * with the full version first, then the major one, from its own directory (its RUNPATH is
 * $ORIGIN). Built as libcudnn.so.9, so that the converter knows its parts; its operations
 * part is tests/module_files/plugin.cu. */
#include <dlfcn.h>
#include <stddef.h>

static void *open_part(const char *full, const char *major)
{
	void *part = dlopen(full, RTLD_NOW | RTLD_LOCAL);
	return part ? part : dlopen(major, RTLD_NOW | RTLD_LOCAL);
}

/* out[i] = in[i]^3 by the operations part's kernel, once the graph part answers; -1 when a
 * part is missing, else the part's CUDA error. */
int front_cube(const int *in, long long *out, int n)
{
	void *graph = open_part("libcudnn_graph.so.9.19.0", "libcudnn_graph.so.9");
	void *ops = open_part("libcudnn_ops.so.9.19.0", "libcudnn_ops.so.9");
	int (*graph_version)(void) = graph ? (int (*)(void))dlsym(graph, "graph_version") : NULL;
	int (*ops_cube)(const int *, long long *, int) =
		ops ? (int (*)(const int *, long long *, int))dlsym(ops, "plugin_cube") : NULL;

	if (!graph_version || graph_version() != 91900 || !ops_cube)
		return -1;
	return ops_cube(in, out, n);
}
