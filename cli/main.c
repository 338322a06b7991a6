/* zluda-convert: options, commands, and the one way errors reach the user. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int verbosity = 1;

static const char usage_text[] =
"Usage: zluda-convert COMMAND [OPTIONS] FILE\n"
"\n"
"Ahead-of-time rewriter for CUDA binaries: finds the fatbins that nvcc embedded in a\n"
"Linux ELF or Windows PE executable or library and reports or extracts the GPU code.\n"
"\n"
"Commands:\n"
"  inspect FILE [--json]    list every fatbin: where it is, whether a wrapper registers it,\n"
"                           its entries (PTX, cubin, LTO-IR), their archs, PTX ISA versions,\n"
"                           compression, sizes, options, and the kernels each PTX declares.\n"
"                           --json prints one JSON document on stdout and nothing else.\n"
"  extract FILE -o DIR      write every entry as DIR/<fatbin>.<arch>.ptx|cubin|ltoir and a\n"
"                           DIR/index.json that describes them (the inspect JSON plus a\n"
"                           \"file\" field per entry). Compressed entries are decompressed.\n"
"\n"
"Options (anywhere on the command line):\n"
"  -v, --verbose            say more (notes about skipped data, files written); repeatable\n"
"  -q, --quiet              say less: only errors\n"
"  -h, --help               show this help\n"
"  -V, --version            show the version\n"
"\n"
"FILE may also be a bare fatbin (nvcc -fatbin output).\n"
"Exit status: 0 success, 1 bad input (the message names the file and what is wrong),\n"
"2 bad usage.\n";

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

/* Takes the options every command shares out of argv, wherever they are; returns the new argc. */
static int take_global_options(int argc, char **argv)
{
	int kept = 0;
	bool options_end = false;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!options_end && strcmp(a, "--") == 0) {
			options_end = true;
		} else if (options_end || a[0] != '-') {
			argv[kept++] = argv[i];
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage_text, stdout);
			exit(0);
		} else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
			printf("zluda-convert %s\n", ZC_VERSION);
			exit(0);
		} else if (strcmp(a, "--verbose") == 0) {
			verbosity++;
		} else if (strcmp(a, "--quiet") == 0) {
			verbosity = 0;
		} else if (a[1] && strspn(a + 1, "v") == strlen(a + 1)) {
			verbosity += (int)strlen(a + 1);
		} else if (a[1] && strspn(a + 1, "q") == strlen(a + 1)) {
			verbosity = 0;
		} else {
			argv[kept++] = argv[i];
		}
	}
	return kept;
}

int main(int argc, char **argv)
{
	argc = take_global_options(argc - 1, argv + 1);
	argv++;
	if (argc == 0)
		fail_usage("no command given");
	if (strcmp(argv[0], "inspect") == 0)
		return cmd_inspect(argc - 1, argv + 1);
	if (strcmp(argv[0], "extract") == 0)
		return cmd_extract(argc - 1, argv + 1);
	if (strcmp(argv[0], "convert") == 0 || argv[0][0] != '-')
		fail_usage("converting is not available yet in this version; use 'inspect' or "
		           "'extract'");
	fail_usage("unknown option '%s'", argv[0]);
}
