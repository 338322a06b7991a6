/* `run`: a converted program with its AMD code on the emulator. The program's own runtime
 * stub (libcuda.so.1) is told to use its HIP driver over the emulator's HIP runtime,
 * libzc-emu-hip.so, for one device of the processor asked for; then the program replaces
 * this process, so that its output and exit status are its own. */
#include <elf.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "emulator.h"
#include "backend.h" /* its target.h: the target table */

#define EMU_HIP_LIBRARY "libzc-emu-hip.so"

/* The converter's targets the emulator runs, for the message about one it does not. */
static void emulated_names(char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < zc_target_count() && used < size; i++) {
		const ZcTarget *t = zc_target_at(i);
		if (t->kind == ZC_CODE_OBJECT_AMDHSA && zc_emu_generation(t->name) != 0)
			used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", t->name);
	}
}

/* A PE file named by its path (execvp would hand it to the shell). */
static bool is_windows_program(const char *path)
{
	FILE *f = fopen(path, "rb");
	char magic[2] = {0};
	bool windows = f && fread(magic, 1, 2, f) == 2 && magic[0] == 'M' && magic[1] == 'Z';

	if (f)
		fclose(f);
	return windows;
}

/* An ELF shared object with no program interpreter: a library, which has no entry point to
 * run (executed, it crashes). Programs built as PIE are shared objects too, with one. */
static bool is_shared_library(const char *path)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	bool library = false;

	if (f && fread(&eh, sizeof eh, 1, f) == 1 && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_type == ET_DYN &&
	    eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum < 4096 &&
	    fseek(f, (long)eh.e_phoff, SEEK_SET) == 0) {
		Elf64_Phdr ph;
		bool interpreter = false;

		for (unsigned n = 0; n < eh.e_phnum && fread(&ph, sizeof ph, 1, f) == 1; n++)
			interpreter |= ph.p_type == PT_INTERP;
		library = !interpreter;
	}
	if (f)
		fclose(f);
	return library;
}

/* --emulate=PROCESSOR, or --emulate PROCESSOR. */
static int take_run_option(int argc, char **argv, int i, void *processor)
{
	if (strncmp(argv[i], "--emulate=", 10) == 0) {
		*(const char **)processor = argv[i] + 10;
		return 1;
	}
	if (strcmp(argv[i], "--emulate") != 0)
		return 0;
	if (i + 1 == argc)
		fail_usage("run: --emulate needs a processor");
	*(const char **)processor = argv[i + 1];
	return 2;
}

int cmd_run(int argc, char **argv)
{
	const char *processor = "gfx1100";
	char library[PATH_MAX];
	int i = options_before_program(argc, argv, "run", take_run_option, &processor);

	if (zc_emu_generation(processor) == 0) {
		char names[2048];

		emulated_names(names, sizeof(names));
		fail_usage("run: unknown --emulate processor '%s'; valid: %s", processor, names);
	}
	if (!find_tool_file(EMU_HIP_LIBRARY, library, sizeof(library))) {
		fprintf(stderr, "zluda-convert: run: cannot find the emulator's HIP runtime %s\n",
		        EMU_HIP_LIBRARY);
		return 1;
	}
	if (setenv("ZLUDA_CONVERT_DRIVER", "hip", 1) != 0 ||
	    setenv("ZLUDA_CONVERT_HIP_PATH", library, 1) != 0 ||
	    setenv("ZC_EMU_PROCESSOR", processor, 1) != 0) {
		fprintf(stderr, "zluda-convert: run: cannot set the environment: %s\n", strerror(errno));
		return 1;
	}
	if (is_windows_program(argv[i])) {
		fprintf(stderr, "zluda-convert: %s: cannot run: a Windows program; run emulates the AMD "
		        "code of Linux programs\n", argv[i]);
		return 126;
	}
	if (is_shared_library(argv[i])) {
		fprintf(stderr, "zluda-convert: %s: cannot run: a shared library, not a program; run "
		        "the program that loads it\n", argv[i]);
		return 126;
	}
	inform(2, "zluda-convert: run: %s on the emulator (%s), HIP runtime %s", argv[i], processor,
	       library);
	fflush(NULL);
	execvp(argv[i], argv + i);
	/* As a shell says it: 127 for a program that is not there, 126 for one that cannot run. */
	int e = errno;
	fprintf(stderr, "zluda-convert: %s: cannot run: %s\n", argv[i], strerror(e));
	return e == ENOENT || e == ENOTDIR ? 127 : 126;
}
