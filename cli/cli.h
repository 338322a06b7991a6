/* The command-line tool: its commands share one view of an input file. */
#ifndef ZC_CLI_H
#define ZC_CLI_H

#include "aot_image.h"
#include "fatbin.h"
#include "json.h"

extern int verbosity; /* 0 quiet, 1 normal, 2+ verbose */

_Noreturn void fail_input(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
_Noreturn void fail_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void inform(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Applies A if it is one of the options every command shares (-v, -q, -h, -V and their
 * long forms) and says whether it was. */
bool take_global_option(const char *a);
/* The options of a command that runs PROGRAM [ARGS...] (run, record), those before PROGRAM
 * or up to "--": TAKE is offered each, argv[i], and answers how many arguments it used (0:
 * none of its own, so it must be one every command shares). The index of PROGRAM; none is
 * a usage error. */
typedef int (*CommandOption)(int argc, char **argv, int i, void *state);
int options_before_program(int argc, char **argv, const char *command, CommandOption take,
                           void *state);

typedef struct {
	char **kernels;
	size_t nkernels;
	char *file; /* extract: the file written, relative to the output directory */
	char *error; /* why its contents cannot be decoded (then it has no file and no kernels) */
} EntryExtra;

typedef struct {
	const char *path;
	Binary bin;
	FatbinSet set;
	EntryExtra **extra; /* [container][entry] */
	EntryExtra ptx_file; /* a PTX file: its kernels */
	bool has_image;     /* a converted binary: its AOT image, viewed in place */
	AotImage image;
	char **code_object_files; /* extract: one per code object of the image */
	size_t nfailed_entries;   /* entries with an EntryExtra.error */
} Input;

/* Opens and discovers, and with list_kernels decompresses every PTX entry to list its
 * kernels (convert decompresses the PTX it translates itself); on bad input prints the
 * error and exits 1. */
void input_load(Input *in, const char *path, bool list_kernels);
void input_free(Input *in);
/* Records why entry ei of fatbin ci cannot be decoded, with a warning (once per entry). */
void input_entry_failed(Input *in, size_t ci, size_t ei, const char *why);
void input_write_json(const Input *in, Json *j);

/* driver_file.c: a driver file beside a converted program. A link is ours when the file it
 * leads to is (NVIDIA's driver or nothing is not); a copy of ours cut short is damaged. */
enum driver_file { DRIVER_FILE_MISSING, DRIVER_FILE_OURS, DRIVER_FILE_OTHER, DRIVER_FILE_DAMAGED };
enum driver_file driver_file_state(const char *path);

/* tool_files.c */
typedef struct {
	const char *version, *commit;
	char llvm[32]; /* the version of the LLVM library loaded */
} ToolVersion;
void tool_version(ToolVersion *v);
void tool_version_json(Json *j); /* "tool": {name, version, commit, llvm} */
/* The file NAME that zluda-convert places or loads (libcuda.so.1, nvcuda.dll, a library
 * replacement, the emulator's HIP runtime), found where the tool is installed or built, into
 * PATH as an absolute path. */
bool find_tool_file(const char *name, char *path, size_t size);

int cmd_inspect(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
/* doctor on a Windows program (doctor_windows.c): exit status 0 when it is ready to copy. */
int doctor_windows_program(const Input *in, bool as_json);

#endif
