/* What the tool says of itself (its version, the commit it was built from, the LLVM it
 * translates with) and where it finds the files it places or loads: the runtime stub, the
 * library replacements and the emulator's HIP runtime. Installed, they are in the runtime
 * directory ZC_RUNTIME_DIR names relative to the tool; in the build tree, in the folders
 * ZC_BUILD_TREE_DIRS names relative to it. Only relative paths are compiled in, so that an
 * installed tool never reads the tree it was built in, and any prefix works. */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Core.h>

#include "cli.h"
#include "zc_commit.h"

void tool_version(ToolVersion *v)
{
	unsigned major, minor, patch;

	LLVMGetVersion(&major, &minor, &patch);
	v->version = ZC_VERSION;
	v->commit = ZC_COMMIT;
	snprintf(v->llvm, sizeof(v->llvm), "%u.%u.%u", major, minor, patch);
}

void tool_version_json(Json *j)
{
	ToolVersion v;

	tool_version(&v);
	json_key(j, "tool");
	json_object_begin(j);
	json_field_string(j, "name", "zluda-convert");
	json_field_string(j, "version", v.version);
	json_field_string(j, "commit", v.commit);
	json_field_string(j, "llvm", v.llvm);
	json_object_end(j);
}

/* DIR/SUB/NAME, readable, into PATH as an absolute path without links or dot-dots (what
 * messages show and the environment of `run` carries). */
static bool readable(char *path, size_t size, const char *dir, const char *sub, const char *name)
{
	char joined[PATH_MAX + 64], resolved[PATH_MAX];

	return (size_t)snprintf(joined, sizeof joined, "%s/%s/%s", dir, sub, name) < sizeof joined &&
	       access(joined, R_OK) == 0 && realpath(joined, resolved) &&
	       (size_t)snprintf(path, size, "%s", resolved) < size;
}

bool find_tool_file(const char *name, char *path, size_t size)
{
	static const char *const build_tree[] = { ZC_BUILD_TREE_DIRS };
	char exe[PATH_MAX], marker[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	const char *dir = dirname(exe);
	if (readable(path, size, dir, ZC_RUNTIME_DIR, name))
		return true;
	/* the build tree's folders count only where the tool is in the build tree */
	if (!readable(marker, sizeof(marker), dir, "..", "CMakeCache.txt"))
		return false;
	for (size_t i = 0; i < sizeof build_tree / sizeof build_tree[0]; i++)
		if (readable(path, size, dir, build_tree[i], name))
			return true;
	return false;
}
