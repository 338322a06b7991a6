/* `record`: the GPU code a converted program makes while it runs (NVRTC, PTX it loads),
 * kept and translated ahead of time for every target, shipped beside the program
 * (abi/runtime_code.h), so that a deployed program translates nothing. The program runs as
 * it is, on this machine's driver, with ZLUDA_CONVERT_RECORD naming a folder its driver
 * keeps the code in; then each piece is converted by this tool, as any module file, into the
 * program's folder. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "runtime_code.h"

/* Runs ARGV, this process's standard streams its own; its wait status, or -1 when it could
 * not be started (errno set). */
static int run_child(char *const *argv, const char *record_dir)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (record_dir)
			setenv(ZC_RECORD_VARIABLE, record_dir, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "zluda-convert: %s: cannot run: %s\n", argv[0], strerror(errno));
		_exit(errno == ENOENT || errno == ENOTDIR ? 127 : 126);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		    snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
			unlink(path);
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The program NAME as execvp finds it: a name without a slash in PATH. */
static bool find_program(const char *name, char *path)
{
	const char *dirs = getenv("PATH");
	char candidate[PATH_MAX];

	if (strchr(name, '/'))
		return realpath(name, path) != NULL;
	for (const char *d = dirs ? dirs : "/bin:/usr/bin"; *d;) {
		size_t n = strcspn(d, ":");

		if (snprintf(candidate, sizeof candidate, "%.*s/%s", (int)n, n ? d : ".", name) <
		        (int)sizeof candidate &&
		    access(candidate, X_OK) == 0)
			return realpath(candidate, path) != NULL;
		d += n + (d[n] == ':');
	}
	errno = ENOENT;
	return false;
}

/* The pieces of code recorded in RECORDED. */
static size_t count_recorded(const char *recorded)
{
	DIR *d = opendir(recorded);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Converts every piece of code in RECORDED into SHIPPED for ARCH; the number converted, and
 * *failed those that were not. */
static size_t ship(const char *recorded, const char *shipped, const char *arch, size_t *failed)
{
	char self[PATH_MAX], in[PATH_MAX], out[PATH_MAX], option[PATH_MAX];
	DIR *d = opendir(recorded);
	struct dirent *e;
	size_t done = 0;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n < 0 || !d)
		fail_input(recorded, "cannot read: %s", strerror(errno));
	self[n] = 0;
	snprintf(option, sizeof option, "--offload-arch=%s", arch);
	while ((e = readdir(d))) {
		const char *dot = strrchr(e->d_name, '.');

		if (e->d_name[0] == '.' || !dot || (strcmp(dot, ".ptx") && strcmp(dot, ".fatbin")) ||
		    snprintf(in, sizeof in, "%s/%s", recorded, e->d_name) >= (int)sizeof in ||
		    snprintf(out, sizeof out, "%s/%s", shipped, e->d_name) >= (int)sizeof out)
			continue;
		char *argv[] = { self, "convert", in, "-o", out, option, "-q", NULL };
		int status = run_child(argv, NULL);

		if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			done++;
			inform(2, "zluda-convert: record: %s", out);
		} else {
			++*failed;
		}
	}
	closedir(d);
	return done;
}

/* --offload-arch=LIST */
static int take_record_option(int argc, char **argv, int i, void *arch)
{
	(void)argc;
	if (strncmp(argv[i], "--offload-arch=", 15) != 0 || !argv[i][15])
		return 0;
	*(const char **)arch = argv[i] + 15;
	return 1;
}

int cmd_record(int argc, char **argv)
{
	const char *arch = "gfx1030,gfx1100,gfx1200";
	char program[PATH_MAX], shipped[PATH_MAX + 64], recorded[] = "/tmp/zluda-convert-record-XXXXXX";
	int i = options_before_program(argc, argv, "record", take_record_option, &arch);

	if (!find_program(argv[i], program)) {
		int e = errno;

		fprintf(stderr, "zluda-convert: %s: cannot run: %s\n", argv[i], strerror(e));
		return e == ENOENT || e == ENOTDIR ? 127 : 126;
	}
	*strrchr(program, '/') = 0;
	snprintf(shipped, sizeof shipped, "%s/" ZC_RUNTIME_CODE_DIR, program);
	if (!mkdtemp(recorded))
		fail_input(recorded, "cannot create: %s", strerror(errno));
	/* the program translates what it makes with this tool, as it runs here */
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0 && !getenv("ZLUDA_CONVERT_TRANSLATOR")) {
		self[n] = 0;
		setenv("ZLUDA_CONVERT_TRANSLATOR", self, 1);
	}
	fflush(NULL);
	int status = run_child(argv + i, recorded);
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		remove_tree(recorded);
		if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) >= 126)
			return WEXITSTATUS(status);
		fprintf(stderr, "zluda-convert: record: %s failed (%s %d): nothing shipped\n", argv[i],
		        status >= 0 && WIFSIGNALED(status) ? "signal" : "exit status",
		        status < 0 ? -1 : WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		return 1;
	}
	if (count_recorded(recorded) == 0) {
		remove_tree(recorded);
		inform(1, "zluda-convert: record: %s made no GPU code while it ran: nothing to ship",
		       argv[i]);
		return 0;
	}
	if (mkdir(shipped, 0777) != 0 && errno != EEXIST) {
		remove_tree(recorded);
		fail_input(shipped, "cannot create: %s", strerror(errno));
	}
	size_t failed = 0, done = ship(recorded, shipped, arch, &failed);
	remove_tree(recorded);
	inform(1, "zluda-convert: record: %s made %zu piece%s of GPU code while it ran; translated "
	       "for %s into %s%s", argv[i], done + failed, done + failed == 1 ? "" : "s", arch,
	       shipped, failed ? " (some failed: see above)" : "");
	return failed ? 1 : 0;
}
