/* zc-codegen: runs the backend alone on an LLVM IR file (the tests' driver, and a way to
 * look at what the backend makes of hand-written IR).
 *
 *   zc-codegen [--target=NAME|all]... [--emit=co|obj|asm|ll] [--ftz] -o DIR INPUT.ll|INPUT.bc
 *   zc-codegen --list-targets
 *
 * Writes DIR/STEM.TARGET.EXT (creating DIR, not its parents) for each target (default: the default targets), where STEM
 * is INPUT's name without directory and extension and EXT is the --emit kind
 * (co: the linked code object; ll: the optimised IR).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/IRReader.h>

#include "backend.h"

enum { ZC_MAX_TARGETS = 64 };

typedef struct {
	const ZcTarget *targets[ZC_MAX_TARGETS];
	int target_count;
	const char *emit;
	const char *out_dir;
	const char *input;
	ZcCodegenOptions options;
} ZcArgs;

static int zc_usage(const char *message)
{
	fprintf(stderr, "zc-codegen: %s\n"
	                "usage: zc-codegen [--target=NAME|all]... [--emit=co|obj|asm|ll] [--ftz] -o DIR INPUT\n"
	                "       zc-codegen --list-targets\n", message);
	return 2;
}

static void zc_list_targets(void)
{
	for (size_t i = 0; i < zc_target_count(); i++) {
		const ZcTarget *t = zc_target_at(i);
		printf("%s%s\n", t->name, t->is_default ? " (default)" : "");
	}
}

static int zc_parse_args(int argc, char **argv, ZcArgs *args)
{
	args->emit = "co";
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--target=all") == 0) {
			for (size_t t = 0; t < zc_target_count() && args->target_count < ZC_MAX_TARGETS; t++)
				args->targets[args->target_count++] = zc_target_at(t);
		} else if (strncmp(arg, "--target=", 9) == 0) {
			const ZcTarget *t = zc_target_find(arg + 9);
			if (!t) {
				char names[1024];
				zc_target_names(names, sizeof names);
				fprintf(stderr, "zc-codegen: unknown target '%s' (valid: %s)\n", arg + 9, names);
				return 2;
			}
			if (args->target_count == ZC_MAX_TARGETS)
				return zc_usage("too many targets");
			args->targets[args->target_count++] = t;
		} else if (strncmp(arg, "--emit=", 7) == 0) {
			args->emit = arg + 7;
			if (strcmp(args->emit, "co") && strcmp(args->emit, "obj") && strcmp(args->emit, "asm") &&
			    strcmp(args->emit, "ll"))
				return zc_usage("--emit takes co, obj, asm or ll");
		} else if (strcmp(arg, "--ftz") == 0) {
			args->options.flush_f32_denormals = true;
		} else if (strcmp(arg, "-o") == 0 && i + 1 < argc) {
			args->out_dir = argv[++i];
		} else if (arg[0] == '-') {
			return zc_usage("unknown option");
		} else if (args->input) {
			return zc_usage("more than one input");
		} else {
			args->input = arg;
		}
	}
	if (!args->input || !args->out_dir)
		return zc_usage("an input and -o DIR are required");
	if (args->target_count == 0)
		for (size_t i = 0; i < zc_target_count(); i++)
			if (zc_target_at(i)->is_default)
				args->targets[args->target_count++] = zc_target_at(i);
	return 0;
}

/* INPUT's file name without directory and extension. */
static char *zc_stem(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	const char *dot = strrchr(name, '.');
	return strndup(name, dot && dot != name ? (size_t)(dot - name) : strlen(name));
}

/* A fresh context per target: the module is changed by codegen, and the CLI will compile
 * targets on separate threads the same way. */
static LLVMModuleRef zc_read_module(LLVMContextRef context, const char *path)
{
	LLVMMemoryBufferRef buffer;
	char *message = NULL;
	if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buffer, &message)) {
		fprintf(stderr, "zc-codegen: %s: %s\n", path, message);
		LLVMDisposeMessage(message);
		return NULL;
	}
	LLVMModuleRef module;
	bool bad = LLVMParseIRInContext2(context, buffer, &module, &message);
	LLVMDisposeMemoryBuffer(buffer);
	if (bad) {
		fprintf(stderr, "zc-codegen: %s: %s\n", path, message);
		LLVMDisposeMessage(message);
		return NULL;
	}
	return module;
}

static int zc_emit(LLVMModuleRef module, const ZcTarget *target, const ZcArgs *args, ZcBytes *out,
                   char **error)
{
	if (strcmp(args->emit, "co") == 0)
		return zc_compile(module, target, &args->options, out, error);
	LLVMTargetMachineRef machine = zc_target_machine(target, &args->options, error);
	if (!machine)
		return -1;
	int status = zc_codegen_optimize(module, machine, target, &args->options, error);
	if (status == 0 && strcmp(args->emit, "ll") == 0) {
		char *text = LLVMPrintModuleToString(module);
		out->size = strlen(text);
		out->data = (unsigned char *)strdup(text);
		LLVMDisposeMessage(text);
		if (!out->data)
			status = backend_fail(error, "out of memory");
	} else if (status == 0) {
		LLVMCodeGenFileType type = strcmp(args->emit, "asm") == 0 ? LLVMAssemblyFile : LLVMObjectFile;
		status = zc_codegen_emit(module, machine, type, out, error);
	}
	if (status != ZC_LLVM_LOST)
		LLVMDisposeTargetMachine(machine);
	return status;
}

static int zc_write(const char *path, const ZcBytes *bytes)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t written = fwrite(bytes->data, 1, bytes->size, f);
	if (fclose(f) != 0 || written != bytes->size) {
		fprintf(stderr, "zc-codegen: %s: write failed\n", path);
		return -1;
	}
	return 0;
}

/* 0: written; -1: this target failed; -2: the input is unreadable (for every target). */
static int zc_run_target(const ZcTarget *target, const ZcArgs *args, const char *stem)
{
	LLVMContextRef context = LLVMContextCreate();
	LLVMModuleRef module = zc_read_module(context, args->input);
	int status = module ? -1 : -2;
	ZcBytes out = {0};
	char *error = NULL;
	if (module) {
		status = zc_emit(module, target, args, &out, &error);
		if (status == ZC_LLVM_LOST)
			context = NULL; /* left to LLVM, with the module */
		else
			LLVMDisposeModule(module);
		status = status < 0 ? -1 : status;
	}
	if (error)
		fprintf(stderr, "zc-codegen: %s: %s\n", args->input, error);
	if (status == 0) {
		char *path;
		if (asprintf(&path, "%s/%s.%s.%s", args->out_dir, stem, target->name, args->emit) < 0)
			path = NULL;
		status = path ? zc_write(path, &out) : -1;
		free(path);
	}
	free(error);
	free(out.data);
	if (context)
		LLVMContextDispose(context);
	return status;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--list-targets") == 0) {
		zc_list_targets();
		return 0;
	}
	ZcArgs args = {0};
	int usage = zc_parse_args(argc, argv, &args);
	if (usage)
		return usage;
	if (mkdir(args.out_dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "zc-codegen: %s: %s\n", args.out_dir, strerror(errno));
		return 1;
	}
	char *stem = zc_stem(args.input);
	int failed = 0;
	for (int i = 0; i < args.target_count; i++) {
		int status = zc_run_target(args.targets[i], &args, stem);
		failed |= status != 0;
		if (status == -2)
			break;
	}
	free(stem);
	LLVMShutdown();
	return failed;
}
