/* convert DIR -o OUT: a directory tree (an unpacked package) converted in one command into a
 * new tree. Every ELF or PE file with fatbins, and every module file (a fatbin, a .ptx file
 * a program loads), is converted by a child `zluda-convert convert` of its own, -j of them
 * at once, which places the runtime beside it: each directory with converted files gets
 * one, and a library the tree's programs load is converted where it is. Every other file is
 * copied unchanged, links stay links, modes are kept; an ELF or PE file without GPU code is
 * counted, never an error. One summary and, with --report, one report of every file. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "convert.h"

typedef enum { TREE_DIRECTORY, TREE_LINK, TREE_COPY, TREE_CONVERT, TREE_SPECIAL } TreeAction;

typedef struct {
	char *path;         /* relative to the tree's root */
	TreeAction action;
	mode_t mode;
	bool without_code;  /* TREE_COPY of an ELF or PE file that has no GPU code */
	pid_t child;        /* TREE_CONVERT: its conversion, while it runs */
	int status;         /* TREE_CONVERT: its exit status */
} TreeEntry;

/* nftw has no argument for its callback: the walk's state. */
static struct {
	TreeEntry *entries;
	size_t count, cap;
	size_t root_length;
} walk;

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (ftw->level == 0)
		return 0;
	if (type == FTW_DNR || type == FTW_NS)
		fail_input(path, "cannot read: %s", strerror(errno));
	if (walk.count == walk.cap) {
		walk.cap = walk.cap ? 2 * walk.cap : 256;
		walk.entries = zc_realloc(walk.entries, walk.cap * sizeof(TreeEntry));
	}
	TreeEntry *e = &walk.entries[walk.count++];
	*e = (TreeEntry){
		.path = zc_strndup(path + walk.root_length + 1, strlen(path + walk.root_length + 1)),
		.mode = st->st_mode & 07777,
		.action = type == FTW_D ? TREE_DIRECTORY : type == FTW_SL ? TREE_LINK
		          : S_ISREG(st->st_mode) ? TREE_COPY : TREE_SPECIAL,
	};
	return 0;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const TreeEntry *)a)->path, ((const TreeEntry *)b)->path);
}

/* Whether the file holds GPU code to translate: an ELF or PE file with fatbins, a bare
 * fatbin, or PTX text in a .ptx file. *without_code: an ELF or PE file that has none. */
static bool has_gpu_code(const char *path, bool *without_code)
{
	unsigned char magic[4] = {0};
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool readable = fd >= 0 && read(fd, magic, sizeof magic) == (ssize_t)sizeof magic;
	size_t n = strlen(path);

	if (fd >= 0)
		close(fd);
	bool executable = readable && (memcmp(magic, "\177ELF", 4) == 0 || memcmp(magic, "MZ", 2) == 0);
	bool module = readable && read_le(magic, 4) == FATBIN_MAGIC;
	*without_code = false;
	if (!executable && !module && !(n > 4 && strcmp(path + n - 4, ".ptx") == 0))
		return false;

	Binary bin;
	FatbinSet set = {0};
	ZcError err;
	bool code = false;
	if (binary_open(&bin, path, &err)) {
		code = bin.format == BIN_PTX || (fatbin_discover(&bin, &set, &err) && set.ncontainers > 0);
		fatbin_set_free(&set);
		binary_close(&bin);
	}
	*without_code = executable && !code;
	return code;
}

static char *joined(const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, "%s/%s", a, b) < 0)
		fail_input(a, "out of memory");
	return s;
}

/* The tree OUT becomes: new, or an empty directory; never inside IN, nor IN inside it. */
static void check_tree_output(const ConvertOptions *o)
{
	char in[PATH_MAX], parent[PATH_MAX];
	char *dir = output_directory(o->out);
	DIR *d = opendir(o->out);

	if (d) {
		struct dirent *e;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				fail_input(o->out, "is not empty; a tree is converted into a new directory");
		closedir(d);
	} else if (errno != ENOENT) {
		fail_input(o->out, "cannot write the tree there: %s", strerror(errno));
	}
	if (!realpath(o->in, in) || !realpath(dir, parent))
		fail_input(dir, "cannot find: %s", strerror(errno));
	free(dir);
	size_t n = strlen(in);
	if (strncmp(parent, in, n) == 0 && (parent[n] == '/' || parent[n] == '\0'))
		fail_usage("convert: the output %s is inside the tree %s", o->out, o->in);
}

/* The command line of the child that converts FROM into TO, its report in REPORT. */
typedef struct {
	char *argv[18];
	char *owned[4]; /* the arguments made for it, freed after */
} ChildArguments;

static char *made(const ConvertOptions *o, const char *fmt, const char *value)
{
	char *s;

	if (asprintf(&s, fmt, value) < 0)
		fail_input(o->in, "out of memory");
	return s;
}

static void child_arguments(ChildArguments *c, const ConvertOptions *o, const char *from, const char *to,
                            const char *report)
{
	char *targets = NULL;
	size_t n = 0, len = 0;
	FILE *f = open_memstream(&targets, &len);

	if (!f)
		fail_input(o->in, "out of memory");
	fputs("--offload-arch=", f);
	for (size_t t = 0; t < o->ntargets; t++)
		fprintf(f, "%s%s", t ? "," : "", o->targets[t]->name);
	fclose(f);
	*c = (ChildArguments){.owned = {targets}};
	c->argv[n++] = "zluda-convert";
	c->argv[n++] = "convert";
	c->argv[n++] = (char *)from;
	c->argv[n++] = "-o";
	c->argv[n++] = (char *)to;
	c->argv[n++] = "-j1";
	c->argv[n++] = targets;
	if (verbosity != 1)
		c->argv[n++] = verbosity == 0 ? "-q" : "-v";
	if (o->strict)
		c->argv[n++] = "--strict";
	if (o->no_line_info)
		c->argv[n++] = "--no-line-info";
	if (o->portable_matrix)
		c->argv[n++] = "--portable-matrix";
	if (o->replace_driver)
		c->argv[n++] = "--replace-driver";
	if (o->with_libraries && !o->library_patterns)
		c->argv[n++] = "--with-libraries";
	if (o->library_patterns)
		c->argv[n++] = c->owned[1] = made(o, "--with-libraries=%s", o->library_patterns);
	if (report)
		c->argv[n++] = c->owned[2] = made(o, "--report=%s", report);
	/* the folder this process chose, so that a warning about it is said once */
	if (o->cache)
		c->argv[n++] = c->owned[3] = made(o, "--cache-dir=%s", o->cache_root);
	else
		c->argv[n++] = "--no-cache";
	c->argv[n] = NULL;
}

static void child_arguments_free(ChildArguments *c)
{
	for (size_t i = 0; i < sizeof c->owned / sizeof c->owned[0]; i++)
		free(c->owned[i]);
}

/* The files' own reports, gathered into the tree's report: a folder in the temporaries'
 * folder and a path in it for each entry, made once, before any child starts, so that a
 * signal can remove them (remove_reports is async-signal-safe); no folder without --report. */
static struct {
	char *folder;
	char **paths;
} reports;

static void make_reports(const ConvertOptions *o)
{
	if (!o->report)
		return;
	if (asprintf(&reports.folder, "%s/zluda-convert-tree-XXXXXX", zc_temporaries_folder()) < 0)
		fail_input(o->report, "out of memory");
	if (!mkdtemp(reports.folder))
		fail_input(reports.folder, "cannot create: %s", strerror(errno));
	reports.paths = zc_alloc(walk.count * sizeof(char *) + 1);
	for (size_t i = 0; i < walk.count; i++)
		if (asprintf(&reports.paths[i], "%s/%zu.json", reports.folder, i) < 0)
			fail_input(reports.folder, "out of memory");
}

static void remove_reports(void)
{
	for (size_t i = 0; reports.paths && i < walk.count; i++)
		unlink(reports.paths[i]);
	if (reports.folder)
		rmdir(reports.folder);
}

static void free_reports(void)
{
	for (size_t i = 0; reports.paths && i < walk.count; i++)
		free(reports.paths[i]);
	free(reports.paths);
	free(reports.folder);
	memset(&reports, 0, sizeof reports);
}

static TreeEntry *entry_of_child(pid_t pid)
{
	for (size_t i = 0; i < walk.count; i++)
		if (walk.entries[i].child == pid)
			return &walk.entries[i];
	return NULL;
}

static void wait_for_child(size_t *running)
{
	int status;
	pid_t pid = waitpid(-1, &status, 0);
	TreeEntry *e = pid > 0 ? entry_of_child(pid) : NULL;

	if (!e)
		return;
	e->child = 0;
	e->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	(*running)--;
}

/* A signal that ends the conversion is passed on to each running child, which removes its
 * own temporaries; once they are gone, the reports are removed. */
static void end_children(int sig)
{
	for (size_t i = 0; i < walk.count; i++)
		if (walk.entries[i].child > 0)
			kill(walk.entries[i].child, sig);
	for (size_t i = 0; i < walk.count; i++)
		if (walk.entries[i].child > 0)
			waitpid(walk.entries[i].child, NULL, 0);
	remove_reports();
}

/* The files of the tree converted, -j at a time. A child's pid is recorded with the
 * signals that end the conversion blocked, so that end_children sees every child. */
static void convert_files(const ConvertOptions *o)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t running = 0, jobs = o->jobs > 0 ? (size_t)o->jobs : cores > 0 ? (size_t)cores : 1;
	sigset_t ending, before;

	sigemptyset(&ending);
	sigaddset(&ending, SIGINT), sigaddset(&ending, SIGTERM), sigaddset(&ending, SIGHUP);
	sigaddset(&ending, SIGXFSZ);
	zc_temporaries_also(end_children);
	for (size_t i = 0; i < walk.count; i++) {
		TreeEntry *e = &walk.entries[i];

		if (e->action != TREE_CONVERT)
			continue;
		while (running >= jobs)
			wait_for_child(&running);
		char *from = joined(o->in, e->path), *to = joined(o->out, e->path);
		ChildArguments arguments;
		child_arguments(&arguments, o, from, to, reports.paths ? reports.paths[i] : NULL);
		fflush(NULL);
		sigprocmask(SIG_BLOCK, &ending, &before);
		e->child = fork();
		if (e->child == 0) {
			sigprocmask(SIG_SETMASK, &before, NULL);
			execv("/proc/self/exe", arguments.argv);
			fprintf(stderr, "zluda-convert: %s: cannot run the conversion: %s\n", from, strerror(errno));
			_exit(127);
		}
		sigprocmask(SIG_SETMASK, &before, NULL);
		if (e->child < 0) {
			int why = errno;

			/* the conversions already running end with the tree's */
			end_children(SIGTERM);
			fail_input(from, "cannot start its conversion: %s", strerror(why));
		}
		running++;
		child_arguments_free(&arguments);
		free(from);
		free(to);
	}
	while (running)
		wait_for_child(&running);
	zc_temporaries_also(NULL);
}

static const char *action_name(const TreeEntry *e)
{
	switch (e->action) {
	case TREE_DIRECTORY: return "directory";
	case TREE_LINK: return "link";
	case TREE_COPY: return "copied";
	case TREE_CONVERT: return e->status ? "failed" : "converted";
	default: return "skipped";
	}
}

/* A child's report, NULL where it wrote none (a conversion that failed early). */
static char *report_text(const char *path)
{
	FILE *f = path ? fopen(path, "r") : NULL;
	char *text = NULL;
	size_t size = 0, got;
	char buf[65536];

	if (!f)
		return NULL;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		text = zc_realloc(text, size + got + 1);
		memcpy(text + size, buf, got);
		size += got;
	}
	fclose(f);
	if (text)
		text[size] = '\0';
	return text;
}

static void write_tree_report(const ConvertOptions *o)
{
	Json j;
	FILE *f = report_begin(o, &j);

	json_key(&j, "files");
	json_array_begin(&j);
	for (size_t i = 0; i < walk.count; i++) {
		const TreeEntry *e = &walk.entries[i];

		json_object_begin(&j);
		json_field_string(&j, "path", e->path);
		json_field_string(&j, "action", action_name(e));
		if (e->without_code)
			json_field_bool(&j, "gpu_code", false);
		char *text = e->action == TREE_CONVERT ? report_text(reports.paths[i]) : NULL;
		if (text) {
			json_key(&j, "report");
			json_raw(&j, text);
		}
		free(text);
		json_object_end(&j);
	}
	json_array_end(&j);
	report_end(o, f, &j);
}

int convert_tree(const ConvertOptions *o)
{
	struct timespec start, end;
	struct stat root;

	clock_gettime(CLOCK_MONOTONIC, &start);
	if (o->save_temps || o->dump)
		fail_usage("convert: --save-temps and --dump take one file, not a tree");
	check_tree_output(o);
	walk.root_length = strlen(o->in);
	while (walk.root_length > 1 && o->in[walk.root_length - 1] == '/')
		walk.root_length--;
	if (nftw(o->in, collect, 64, FTW_PHYS) != 0 || stat(o->in, &root) != 0)
		fail_input(o->in, "cannot read the tree: %s", strerror(errno));
	qsort(walk.entries, walk.count, sizeof(TreeEntry), by_path);
	for (size_t i = 0; i < walk.count; i++) {
		TreeEntry *e = &walk.entries[i];
		char *from = joined(o->in, e->path);

		if (e->action == TREE_COPY && has_gpu_code(from, &e->without_code))
			e->action = TREE_CONVERT;
		free(from);
	}

	if (mkdir(o->out, 0700) != 0 && errno != EEXIST)
		fail_input(o->out, "cannot create: %s", strerror(errno));
	for (size_t i = 0; i < walk.count; i++) {
		TreeEntry *e = &walk.entries[i];
		char *from = joined(o->in, e->path), *to = joined(o->out, e->path);
		char target[PATH_MAX];
		ssize_t n;

		switch (e->action) {
		case TREE_DIRECTORY:
			if (mkdir(to, 0700) != 0)
				fail_input(to, "cannot create: %s", strerror(errno));
			break;
		case TREE_LINK:
			if ((n = readlink(from, target, sizeof target - 1)) < 0)
				fail_input(from, "cannot read the link: %s", strerror(errno));
			target[n] = '\0';
			if (symlink(target, to) != 0)
				fail_input(to, "cannot create the link: %s", strerror(errno));
			break;
		case TREE_COPY:
			if (!copy_file(from, to) || chmod(to, e->mode) != 0)
				fail_input(to, "cannot write: %s", strerror(errno));
			break;
		case TREE_SPECIAL:
			inform(1, "zluda-convert: %s: warning: neither a file, a directory nor a link; "
			       "not in the converted tree", from);
			break;
		case TREE_CONVERT:
			break;
		}
		free(from);
		free(to);
	}

	make_reports(o);
	convert_files(o);
	if (reports.folder)
		write_tree_report(o);
	remove_reports();
	free_reports();

	/* the directories' own modes last, deepest first: a read-only one was written into */
	for (size_t i = walk.count; i-- > 0;) {
		TreeEntry *e = &walk.entries[i];
		char *to = joined(o->out, e->path);
		if (e->action == TREE_DIRECTORY && chmod(to, e->mode) != 0)
			fail_input(to, "cannot set its mode: %s", strerror(errno));
		free(to);
	}
	if (chmod(o->out, root.st_mode & 07777) != 0)
		fail_input(o->out, "cannot set its mode: %s", strerror(errno));

	size_t counts[TREE_SPECIAL + 1] = {0}, without_code = 0, failed = 0;
	for (size_t i = 0; i < walk.count; i++) {
		const TreeEntry *e = &walk.entries[i];
		counts[e->action]++;
		without_code += e->without_code;
		failed += e->action == TREE_CONVERT && e->status != 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	inform(1, "%s: %zu files converted, %zu copied unchanged (%zu of them programs or libraries "
	       "without GPU code), %zu links, %zu directories, %zu failed (%.1f s)", o->out,
	       counts[TREE_CONVERT] - failed, counts[TREE_COPY], without_code, counts[TREE_LINK],
	       counts[TREE_DIRECTORY], failed,
	       (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9);
	for (size_t i = 0; i < walk.count; i++) {
		const TreeEntry *e = &walk.entries[i];
		if (e->action == TREE_CONVERT && e->status != 0)
			fprintf(stderr, "zluda-convert: %s/%s: not converted (exit status %d)\n", o->in,
			        e->path, e->status);
	}
	for (size_t i = 0; i < walk.count; i++)
		free(walk.entries[i].path);
	free(walk.entries);
	memset(&walk, 0, sizeof walk);
	return failed ? 1 : 0;
}
