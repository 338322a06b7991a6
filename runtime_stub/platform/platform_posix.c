/* platform.h on Linux: the dynamic loader (dlopen, dl_iterate_phdr), mmap, /proc,
 * posix_spawn. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pthread.h>

extern char **environ;

#include "platform.h"

void *
zc_library_open(const char *name, bool isolated, char *why, size_t why_size)
{
	void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL | (isolated ? RTLD_DEEPBIND : 0));

	if (!library)
		snprintf(why, why_size, "%s", dlerror());
	return library;
}

void *
zc_library_symbol(void *library, const char *name)
{
	return dlsym(library, name);
}

void
zc_library_close(void *library)
{
	dlclose(library);
}

/* The main program has no name in the loader's list: its file is /proc/self/exe. */
static const char *
object_path(const struct dl_phdr_info *info)
{
	return info->dlpi_name[0] ? info->dlpi_name : zc_main_program();
}

struct containing_object {
	uintptr_t address;
	const char *path;  /* NULL: no object holds the address */
};

static int
find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct containing_object *c = arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && c->address - start < ph->p_memsz) {
			c->path = object_path(info);
			return 1;
		}
	}
	return 0;
}

bool
zc_file_of_address(const void *address, char *path, size_t size)
{
	struct containing_object object = { (uintptr_t)address, NULL };

	dl_iterate_phdr(find_object, &object);
	if (object.path)
		snprintf(path, size, "%s", object.path);
	return object.path != NULL;
}

const char *
zc_main_program(void)
{
	return "/proc/self/exe";
}

struct visitor {
	void (*visit)(const char *path, void *arg);
	void *arg;
};

static int
visit_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct visitor *v = data;
	const char *name = object_path(info);

	(void)size;
	/* the vDSO and other objects without a file of their own have no image */
	if (name[0] == '/')
		v->visit(name, v->arg);
	return 0;
}

void
zc_for_each_loaded_file(void (*visit)(const char *path, void *arg), void *arg)
{
	struct visitor v = { visit, arg };

	dl_iterate_phdr(visit_object, &v);
}

bool
zc_real_path(const char *path, char *out, size_t size)
{
	char *real = realpath(path, NULL);
	bool fits = real && strlen(real) < size;

	if (fits)
		strcpy(out, real);
	free(real);
	return fits;
}

bool
zc_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* Through a pipe, by system calls made directly (the C library's write would be a
 * sanitizer's to check): a write from memory nothing readable maps fails with EFAULT. */
bool
zc_copy_readable(void *dst, const void *src, size_t n)
{
	static int probe[2] = { -1, -1 };

	if (probe[0] < 0 && pipe2(probe, O_CLOEXEC | O_NONBLOCK) != 0)
		return false;
	for (size_t done = 0; done < n;) {
		size_t chunk = n - done < 4096 ? n - done : 4096;
		long wrote = syscall(SYS_write, probe[1], (const char *)src + done, chunk);

		if (wrote < 0 && errno == EINTR)
			continue;
		if (wrote <= 0)
			return false;
		for (long got = 0; got < wrote;) {
			long r = syscall(SYS_read, probe[0], (char *)dst + done + got, (size_t)(wrote - got));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return false;
			got += r;
		}
		done += (size_t)wrote;
	}
	return true;
}

FILE *
zc_open_read(const char *path)
{
	return fopen(path, "rbe");
}

const void *
zc_map_file(const char *path, uint64_t offset, uint64_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint64_t skip = offset % (uint64_t)sysconf(_SC_PAGESIZE);
	void *map = fd < 0 ? MAP_FAILED
	                   : mmap(NULL, size + skip, PROT_READ, MAP_PRIVATE, fd, (off_t)(offset - skip));

	if (fd >= 0)
		close(fd);
	return map == MAP_FAILED ? NULL : (const uint8_t *)map + skip;
}

void
zc_unmap_file(const void *bytes, uint64_t size)
{
	uintptr_t skip = (uintptr_t)bytes % (uintptr_t)sysconf(_SC_PAGESIZE);

	munmap((void *)((uintptr_t)bytes - skip), size + skip);
}

uint32_t
zc_process_id(void)
{
	return (uint32_t)getpid();
}

/* NVIDIA's libcuda.so.1 hashes pthread_self()'s low 32 bits, not gettid(). */
uint32_t
zc_thread_id(void)
{
	return (uint32_t)pthread_self();
}

bool
zc_run_program(const char *const *argv, char *output, size_t size, int *status)
{
	posix_spawn_file_actions_t actions;
	char sink[4096];
	size_t used = 0;
	int out[2], wait_status, error;
	pid_t pid, waited;

	if (pipe2(out, O_CLOEXEC) != 0)
		return false;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&actions, out[1], 1);
	posix_spawn_file_actions_adddup2(&actions, out[1], 2);
	error = posix_spawn(&pid, argv[0], &actions, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	close(out[1]);
	if (error) {
		close(out[0]);
		errno = error;
		return false;
	}
	for (;;) {
		bool room = used + 1 < size;
		ssize_t got = read(out[0], room ? output + used : sink, room ? size - 1 - used : sizeof sink);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (room)
			used += (size_t)got;
	}
	close(out[0]);
	if (size)
		output[used] = 0;
	while ((waited = waitpid(pid, &wait_status, 0)) < 0 && errno == EINTR)
		;
	/* a program that ignores SIGCHLD has its children reaped for it: ECHILD, status unknown */
	*status = waited < 0 ? (errno == ECHILD ? 0 : -1)
	                     : WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
	return true;
}

bool
zc_find_in_path(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");

	for (const char *dir = path; dir && *dir;) {
		size_t length = strcspn(dir, ":");

		if (length && (size_t)snprintf(out, size, "%.*s/%s", (int)length, dir, name) < size &&
		    access(out, X_OK) == 0)
			return true;
		dir += length + (dir[length] == ':');
	}
	return false;
}

bool
zc_file_identity(const char *path, uint64_t identity[ZC_FILE_IDENTITY_WORDS])
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	identity[0] = (uint64_t)st.st_dev;
	identity[1] = (uint64_t)st.st_ino;
	identity[2] = (uint64_t)st.st_size;
	identity[3] = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
	return true;
}

