/* zluda-convert: options, commands, and the one way errors reach the user. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int verbosity = 1;

/* The help: a usage line and a section per command, then what every command shares.
 * `zluda-convert --help` prints them all; `zluda-convert COMMAND --help` its own. */
enum { CMD_CONVERT, CMD_INSPECT, CMD_EXTRACT, CMD_RUN, CMD_RECORD, CMD_DOCTOR, CMD_COUNT };
static const char *const command_names[CMD_COUNT] = {"convert", "inspect", "extract", "run",
                                                     "record", "doctor"};
static const char *const command_usage[CMD_COUNT] = {
"zluda-convert [convert] FILE -o OUT [OPTIONS]",
"zluda-convert inspect FILE [--json]",
"zluda-convert extract FILE -o DIR",
"zluda-convert run [--emulate=PROCESSOR] [--] PROGRAM [ARGS...]",
"zluda-convert record [--offload-arch=LIST] [--] PROGRAM [ARGS...]",
"zluda-convert doctor [PROGRAM] [--json]",
};
static const char overview_text[] =
"Ahead-of-time rewriter for CUDA binaries: finds the fatbins that nvcc embedded in a\n"
"Linux ELF or Windows PE executable or library, translates their PTX into AMD GPU code\n"
"objects, and writes a binary that carries them. Nothing is compiled when it runs.\n";
static const char *const command_help[CMD_COUNT] = {
"convert (the default command):\n"
"  FILE -o OUT              write the converted binary to OUT (never over FILE) and the\n"
"                           runtime driver libcuda.so.1 beside it, found through the\n"
"                           binary's $ORIGIN search path. On an NVIDIA GPU, OUT runs\n"
"                           its original fatbins through NVIDIA's own driver.\n"
"                           FILE may also be a fatbin or PTX file a program loads with\n"
"                           cuModuleLoad: OUT is then that file with the code appended.\n"
"                           A program that loads cuBLAS, cuBLASLt, cuFFT, NVML, NVRTC or\n"
"                           nvJitLink gets zluda-convert's own of the same name beside\n"
"                           OUT (NVIDIA's cannot run converted), its kernels translated\n"
"                           for the same targets; --with-libraries naming NVIDIA's\n"
"                           converts that instead (cuFFT: into nvidia/ beside OUT,\n"
"                           offered each plan first).\n"
"                           FILE may be a directory (an unpacked package): OUT, a new\n"
"                           directory, gets its tree with every file that has GPU code\n"
"                           converted where it is and the rest copied unchanged.\n"
"  --offload-arch=LIST      targets, comma-separated and repeatable; default\n"
"                           gfx1030,gfx1100,gfx1200. Also any RDNA processor LLVM knows\n"
"                           (gfx1031..1036, gfx1101..1103, gfx1150..1153, gfx1201), the\n"
"                           generic targets gfx10-3-generic, gfx11-generic, gfx12-generic,\n"
"                           and host (x86-64 code run by the CPU driver, for testing:\n"
"                           Linux's, or Windows' for a PE file; x86_64-windows asks for\n"
"                           Windows' in a module file).\n"
"  -j N                     compile N modules and targets at once, and the parts of a\n"
"                           large module (default: the number of cores); the output is\n"
"                           the same bytes for every N\n"
"  --report=FILE.json       write what was translated, skipped and why, as JSON\n"
"  --with-libraries[=LIST]  also convert the shared libraries FILE loads that carry\n"
"                           fatbins (NVIDIA's cuRAND, cuSPARSE, ... or its own),\n"
"                           found as the dynamic loader finds them, and cuDNN's parts,\n"
"                           which it opens itself; each written beside OUT under the\n"
"                           name the loader looks for. LIST: names or\n"
"                           globs, comma-separated (curand,libcufft*). A library\n"
"                           converted there before from the same file, by this\n"
"                           zluda-convert with the same targets, is reused.\n"
"  --strict                 exit 1, writing nothing, if any kernel cannot be translated\n"
"                           (a translation failure, PTX that does not decode, a fatbin\n"
"                           with SASS only)\n"
"  --replace-driver         replace a libcuda.so.1 (nvcuda.dll) beside OUT that is not\n"
"                           zluda-convert's, such as a link to NVIDIA's driver; without\n"
"                           it such a file stops the conversion before anything is written\n"
"  --no-line-info           drop the source lines the PTX carries (nvcc -lineinfo or -G),\n"
"                           which are otherwise kept as DWARF line tables in the code\n"
"                           objects\n"
"  --portable-matrix        multiply wmma and mma fragments with the lowering every target\n"
"                           shares, also on processors with matrix instructions (RDNA3,\n"
"                           RDNA4): to compare results and speed\n"
"  --cache-dir=DIR          keep compiled modules in DIR/modules (default: the folder\n"
"                           ZLUDA_CONVERT_CACHE_DIR names, else ~/.cache/zluda-convert),\n"
"                           so that converting again compiles only modules that changed;\n"
"                           the output is the same bytes with or without it\n"
"  --no-cache               compile every module, reading and keeping nothing\n"
"  --save-temps=DIR         keep each module's PTX, LLVM IR and code objects in DIR\n"
"                           (every module compiled, the cache unused, as with --dump=)\n"
"  --dump=STAGE             print each module at STAGE on stdout: ptx, ll (the lowered\n"
"                           LLVM IR), ll-opt (after default<O3>), asm (per target)\n",
"inspect FILE [--json]      list every fatbin: where it is, whether a wrapper registers it,\n"
"                           its entries (PTX, cubin, LTO-IR), archs, PTX ISA versions,\n"
"                           compression, sizes, options, the kernels each PTX declares, and\n"
"                           the AOT image of a converted binary. --json prints one JSON\n"
"                           document on stdout and nothing else.\n",
"extract FILE -o DIR        write every entry as DIR/<fatbin>.<arch>.ptx|cubin|ltoir, the\n"
"                           code objects of a converted binary as DIR/<module>.<target>.co,\n"
"                           and DIR/index.json describing them.\n",
"run [--emulate=PROCESSOR] [--] PROGRAM [ARGS...]\n"
"                           run a converted program with its AMD code on the AMDGPU\n"
"                           emulator, as on one AMD GPU of PROCESSOR (default gfx1100;\n"
"                           gfx10.3, gfx11 and gfx12 processors). Its output and exit\n"
"                           status are the program's; an instruction the emulator does\n"
"                           not implement fails the launch with a message saying which.\n"
"                           Everything after PROGRAM goes to the program.\n",
"record [--offload-arch=LIST] [--] PROGRAM [ARGS...]\n"
"                           run a converted program here and keep the GPU code it makes\n"
"                           while it runs (NVRTC, PTX it loads), then translate each\n"
"                           piece for LIST (default gfx1030,gfx1100,gfx1200) into the\n"
"                           folder zluda-convert-runtime-code beside PROGRAM, where the\n"
"                           program finds it on any machine without translating at run\n"
"                           time (ZLUDA_CONVERT_TRANSLATE=0 then forbids translating\n"
"                           anything else). Recording again adds to what is there. Exit 0,\n"
"                           or 1 when the program or a translation failed.\n",
"doctor [PROGRAM] [--json]  what this machine gives a converted program: the HIP runtime\n"
"                           and NVIDIA's driver found, their devices, the driver the\n"
"                           program would use and why, and whether PROGRAM and the\n"
"                           libraries with GPU code it loads have code for each device\n"
"                           (the --offload-arch to add when not). Exit 0 when it would\n"
"                           run on a GPU here, 1 when not.\n",
};
static const char shared_text[] =
"Options (anywhere on the command line; with run and record, before PROGRAM):\n"
"  -v, --verbose            say more (notes about skipped data, files written); repeatable\n"
"  -q, --quiet              say less: only errors\n"
"  -h, --help               show this help (with a command: that command's)\n"
"  -V, --version            show the version\n"
"\n"
"Exit status: 0 success, 1 bad input or failed translation (the message names the file\n"
"and what is wrong), 2 bad usage; run: the program's, or 127 when it cannot be found\n"
"(126 when it cannot be executed).\n";

/* The command named on the command line, whose help -h prints; CMD_COUNT: none. */
static int help_command = CMD_COUNT;

static void print_help(void)
{
	if (help_command < CMD_COUNT) {
		printf("Usage: %s\n\n%s\n%s", command_usage[help_command], command_help[help_command],
		       shared_text);
		return;
	}
	for (int c = 0; c < CMD_COUNT; c++)
		printf("%s%s\n", c ? "       " : "Usage: ", command_usage[c]);
	printf("\n%s\n", overview_text);
	for (int c = 0; c < CMD_COUNT; c++)
		printf("%s%s", command_help[c], c == CMD_CONVERT || c == CMD_DOCTOR ? "\n" : "");
	fputs(shared_text, stdout);
}

_Noreturn void fail_input(const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "zluda-convert: %s: ", path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

_Noreturn void fail_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("zluda-convert: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'zluda-convert --help' for more information.\n", stderr);
	exit(2);
}

void inform(int level, const char *fmt, ...)
{
	va_list ap;

	if (verbosity < level)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Whether A is one of the options every command shares: -v/-q (also repeated, -vv),
 * their long forms, -h/--help and -V/--version. */
static bool is_global_option(const char *a)
{
	static const char *const names[] = {"-h", "--help", "-V", "--version", "--verbose", "--quiet"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(a, names[i]) == 0)
			return true;
	return a[0] == '-' && a[1] &&
	       (strspn(a + 1, "v") == strlen(a + 1) || strspn(a + 1, "q") == strlen(a + 1));
}

bool take_global_option(const char *a)
{
	if (!is_global_option(a))
		return false;
	if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
		print_help();
		exit(0);
	} else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
		ToolVersion v;

		tool_version(&v);
		printf("zluda-convert %s (commit %s, LLVM %s)\n", v.version, v.commit, v.llvm);
		exit(0);
	} else if (strcmp(a, "--verbose") == 0) {
		verbosity++;
	} else if (strcmp(a, "--quiet") == 0 || a[1] == 'q') {
		verbosity = 0;
	} else {
		verbosity += (int)strlen(a + 1);
	}
	return true;
}

int options_before_program(int argc, char **argv, const char *command, CommandOption take,
                           void *state)
{
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		int used;

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-' || a[1] == '\0')
			break;
		if ((used = take(argc, argv, i, state)) > 0)
			i += used - 1;
		else if (!take_global_option(a))
			fail_usage("%s: unknown option '%s'", command, a);
	}
	if (i >= argc)
		fail_usage("%s: no program given", command);
	return i;
}

/* Takes the options every command shares out of argv, wherever they are; returns the new argc. */
static int take_global_options(int argc, char **argv)
{
	int kept = 0;
	bool options_end = false;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!options_end && strcmp(a, "--") == 0)
			options_end = true;
		else if (options_end || a[0] != '-' || !take_global_option(a))
			argv[kept++] = argv[i];
	}
	return kept;
}

int main(int argc, char **argv)
{
	/* run, record: what follows the program is the program's, options included, so only
	 * the shared options before the command are taken. */
	int command = 1;

	while (command < argc && is_global_option(argv[command]))
		command++;
	for (int c = 0; command < argc && c < CMD_COUNT; c++)
		if (strcmp(argv[command], command_names[c]) == 0)
			help_command = c;
	if (command < argc && strcmp(argv[command], "run") == 0) {
		take_global_options(command - 1, argv + 1);
		return cmd_run(argc - command - 1, argv + command + 1);
	}
	if (command < argc && strcmp(argv[command], "record") == 0) {
		take_global_options(command - 1, argv + 1);
		return cmd_record(argc - command - 1, argv + command + 1);
	}
	argc = take_global_options(argc - 1, argv + 1);
	argv++;
	if (argc == 0)
		fail_usage("no command given");
	if (strcmp(argv[0], "inspect") == 0)
		return cmd_inspect(argc - 1, argv + 1);
	if (strcmp(argv[0], "extract") == 0)
		return cmd_extract(argc - 1, argv + 1);
	if (strcmp(argv[0], "doctor") == 0)
		return cmd_doctor(argc - 1, argv + 1);
	if (strcmp(argv[0], "convert") == 0)
		return cmd_convert(argc - 1, argv + 1);
	return cmd_convert(argc, argv); /* `zluda-convert app -o app-amd`: convert is the default */
}
