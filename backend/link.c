/* Linking object files into a code object with lld, run as a subprocess: ld.lld for ELF
 * targets, lld-link for COFF ones (Windows DLLs). Several object files (the parts of one
 * module) go in as one archive, linked whole, so that a link has a fixed set of files.
 *
 * Why a subprocess rather than lld::lldMain in-process: lld has no C API (in-process
 * needs a C++ shim and lld's static libraries), it keeps global state, so in-process links
 * would have to be serialised under a lock while -j compiles in parallel, and a fatal
 * lld error would end the converter. A run costs about 15 ms (measured: ld.lld-22 linking
 * a small gfx1100 object), small next to default<O3> and code generation of a module.
 * Only zc_link() knows how lld is run, so an in-process shim can replace it later.
 *
 * Files live in a private temporary directory (mkdtemp, mode 0700) under $TMPDIR or
 * /tmp, with fixed names inside it; lld's output does not depend on the paths, so the
 * bytes are the same on every run.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "common.h"

extern char **environ;

typedef struct {
	char dir[4096];
	char input[4200];    /* the object file, or the archive of several */
	bool archive;
	char library[4200];  /* the target's import library, when it has one */
	char output[4200];
	char out_option[4210];  /* lld-link's /out:PATH */
	char messages[4200];
	char script[4200];   /* for the parts of an AMDGPU code object: how gaps are filled */
} ZcLinkFiles;

static int zc_write_file(const char *path, const ZcBytes *bytes, char **error)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return backend_fail(error, "%s: %s", path, strerror(errno));
	size_t written = fwrite(bytes->data, 1, bytes->size, f);
	if (fclose(f) != 0 || written != bytes->size)
		return backend_fail(error, "%s: write failed", path);
	return 0;
}

static int zc_read_file(const char *path, ZcBytes *bytes, char **error)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return backend_fail(error, "%s: %s", path, strerror(errno));
	size_t capacity = 1 << 16, size = 0;
	unsigned char *data = malloc(capacity);
	size_t got;
	while (data && (got = fread(data + size, 1, capacity - size, f)) > 0) {
		size += got;
		if (size == capacity) {
			unsigned char *grown = realloc(data, capacity *= 2);
			if (!grown)
				free(data);
			data = grown;
		}
	}
	bool failed = ferror(f);
	fclose(f);
	if (!data || failed) {
		free(data);
		return backend_fail(error, "%s: read failed", path);
	}
	bytes->data = data;
	bytes->size = size;
	return 0;
}

/* lld's diagnostics, one line (the first), for the error message. */
static char *zc_first_line(const char *path)
{
	ZcBytes text = {0};
	char *ignored = NULL;
	if (zc_read_file(path, &text, &ignored) < 0) {
		free(ignored);
		return strdup("no message");
	}
	size_t len = 0;
	while (len < text.size && text.data[len] != '\n')
		len++;
	char *line = strndup((const char *)text.data, len);
	free(text.data);
	return line;
}

static int zc_run_lld(const ZcTarget *target, const ZcLinkFiles *files, char **error)
{
	const char *linker = target->format == ZC_OBJECT_COFF ? ZC_LLD_LINK : ZC_LD_LLD;
	const char *argv[32];
	int argc = 0;
	argv[argc++] = linker;
	for (const char *const *flag = target->link_flags; *flag && argc < 27; flag++)
		argv[argc++] = *flag;
	if (files->archive)
		argv[argc++] = "--whole-archive";
	argv[argc++] = files->input;
	if (files->archive && target->kind == ZC_CODE_OBJECT_AMDHSA)
		argv[argc++] = files->script;
	if (target->import_library)
		argv[argc++] = files->library;
	if (target->format == ZC_OBJECT_COFF) {
		argv[argc++] = files->out_option;
	} else {
		argv[argc++] = "-o";
		argv[argc++] = files->output;
	}
	argv[argc] = NULL;

	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&actions, 2, files->messages, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	pid_t pid;
	int spawned = posix_spawn(&pid, linker, &actions, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	if (spawned != 0)
		return backend_fail(error, "%s: cannot run %s: %s", target->name, linker, strerror(spawned));
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return backend_fail(error, "%s: waiting for %s: %s", target->name, linker, strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	char *line = zc_first_line(files->messages);
	backend_fail(error, "%s: linking the code object failed: %s", target->name, line);
	free(line);
	return -1;
}

/* An ar archive of the objects (no symbol index: it is linked whole). */
static int zc_write_archive(const char *path, const ZcBytes *objects, size_t nobjects, char **error)
{
	FILE *f = fopen(path, "wb");
	bool failed;

	if (!f)
		return backend_fail(error, "%s: %s", path, strerror(errno));
	failed = fputs("!<arch>\n", f) == EOF;
	for (size_t i = 0; i < nobjects && !failed; i++) {
		char name[32];

		snprintf(name, sizeof name, "part%zu.o/", i);
		failed = fprintf(f, "%-16.16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0", "644", objects[i].size) != 60 ||
		         fwrite(objects[i].data, 1, objects[i].size, f) != objects[i].size ||
		         (objects[i].size % 2 && fputc('\n', f) == EOF);
	}
	if (fclose(f) != 0 || failed)
		return backend_fail(error, "%s: write failed", path);
	return 0;
}

int zc_link(const ZcTarget *target, const ZcBytes *objects, size_t nobjects, ZcBytes *code_object,
            char **error)
{
	ZcLinkFiles files = {.archive = nobjects > 1};
	if (files.archive && target->format != ZC_OBJECT_ELF)
		return backend_fail(error, "%s: a code object of several parts must be ELF", target->name);
	snprintf(files.dir, sizeof files.dir, "%s/zc-link-XXXXXX", zc_temporaries_folder());
	if (!mkdtemp(files.dir))
		return backend_fail(error, "cannot create a temporary directory in %s: %s",
		                    zc_temporaries_folder(), strerror(errno));
	snprintf(files.input, sizeof files.input, "%s/%s", files.dir, nobjects > 1 ? "parts.a" : "object.o");
	snprintf(files.library, sizeof files.library, "%s/library.lib", files.dir);
	snprintf(files.output, sizeof files.output, "%s/code-object.so", files.dir);
	snprintf(files.out_option, sizeof files.out_option, "/out:%s", files.output);
	snprintf(files.messages, sizeof files.messages, "%s/lld-messages.txt", files.dir);
	snprintf(files.script, sizeof files.script, "%s/fill.lds", files.dir);
	const char *const temporaries[] = {files.input, files.library, files.output, files.messages, files.script};
	zc_temporary_folder_add(files.dir);
	for (size_t i = 0; i < sizeof temporaries / sizeof temporaries[0]; i++)
		zc_temporary_add(temporaries[i]);

	int status = files.archive ? zc_write_archive(files.input, objects, nobjects, error)
	                          : zc_write_file(files.input, objects, error);
	/* Between one part's code and the next kernel, aligned to 256 bytes, lld would leave
	 * zeros, which gfx10 decodes as v_illegal: s_code_end, as each part's own padding.
	 * (A linker script's fill is written most significant byte first.) */
	if (status == 0 && files.archive && target->kind == ZC_CODE_OBJECT_AMDHSA) {
		static const char fill[] = "OVERWRITE_SECTIONS { .text : { *(.text .text.*) } =0x00009fbf }\n";
		ZcBytes script = {(unsigned char *)fill, sizeof fill - 1};
		status = zc_write_file(files.script, &script, error);
	}
	if (status == 0 && target->import_library) {
		ZcBytes library = {(unsigned char *)target->import_library->bytes, target->import_library->size};
		status = zc_write_file(files.library, &library, error);
	}
	if (status == 0)
		status = zc_run_lld(target, &files, error);
	if (status == 0)
		status = zc_read_file(files.output, code_object, error);
	if (status == 0 && files.archive && target->kind == ZC_CODE_OBJECT_AMDHSA &&
	    zc_merge_metadata_notes(code_object, error) != 0) {
		free(code_object->data);
		*code_object = (ZcBytes){0};
		status = -1;
	}
	for (size_t i = 0; i < sizeof temporaries / sizeof temporaries[0]; i++) {
		unlink(temporaries[i]);
		zc_temporary_forget(temporaries[i]);
	}
	rmdir(files.dir);
	zc_temporary_forget(files.dir);
	return status;
}
