/* The CPU driver's Linux half (drv_host.h): code objects through a memfd and dlopen,
 * fiber stacks and virtual memory through mmap, faults through SIGSEGV and SIGBUS. */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drv_host.h"

const char zc_host_code_target_name[] = "host";

/* ---- code objects: from memory without writing a file anywhere, an anonymous memfd that
 * dlopen reads through /proc/self/fd ---- */

struct host_object {
	void *handle;
	/* Open while the object is loaded: glibc recognises an object already loaded by its
	 * path, so a second object must never be opened through a reused /proc/self/fd/N. */
	int fd;
};

static bool
write_all(int fd, const uint8_t *bytes, size_t size)
{
	while (size) {
		ssize_t n = write(fd, bytes, size);
		if (n <= 0)
			return false;
		bytes += n;
		size -= (size_t)n;
	}
	return true;
}

CUresult
zc_host_object_open(const uint8_t *bytes, size_t size, void **object)
{
	struct host_object *o = stub_alloc(sizeof *o);
	char path[64];

	if (!o)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "code object");
	o->fd = memfd_create("zluda-convert-code-object", MFD_CLOEXEC);
	if (o->fd < 0 || !write_all(o->fd, bytes, size)) {
		if (o->fd >= 0)
			close(o->fd);
		stub_free(o);
		return stub_fail(CUDA_ERROR_OPERATING_SYSTEM, "cannot put the code object in a memfd");
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", o->fd);
	if (!(o->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		CUresult r = stub_fail(CUDA_ERROR_INVALID_IMAGE, "dlopen of the host code object: %s",
		                       dlerror());
		close(o->fd);
		stub_free(o);
		return r;
	}
	*object = o;
	return CUDA_SUCCESS;
}

void *
zc_host_object_symbol(void *object, const char *name)
{
	return dlsym(((struct host_object *)object)->handle, name);
}

void
zc_host_object_close(void *object)
{
	struct host_object *o = object;

	dlclose(o->handle);
	close(o->fd);
	stub_free(o);
}

/* ---- the system ---- */

void
zc_host_system(struct zc_host_system *system)
{
	long page = sysconf(_SC_PAGESIZE), cpus = sysconf(_SC_NPROCESSORS_ONLN);

	system->page = (size_t)page;
	system->total_memory = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)page;
	system->free_memory = (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)page;
	system->processors = cpus > 0 ? (unsigned)cpus : 1;
}

void *
zc_host_aligned_alloc(size_t alignment, size_t bytes)
{
	return aligned_alloc(alignment, (bytes + alignment - 1) & ~(alignment - 1));
}

void
zc_host_aligned_free(void *pointer)
{
	free(pointer);
}

char *
zc_host_stack_map(size_t size, size_t guard)
{
	char *map = mmap(NULL, size + guard, PROT_READ | PROT_WRITE,
	                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);

	if (map == MAP_FAILED)
		return NULL;
	mprotect(map, guard, PROT_NONE);
	return map + guard;
}

void
zc_host_stack_unmap(char *stack, size_t size, size_t guard)
{
	munmap(stack - guard, size + guard);
}

/* Signals are the program's business, not the driver's threads'; but a fault must reach
 * on_fault (a blocked one kills the process). */
bool
zc_host_spawn(pthread_t *thread, void *(*fn)(void *), void *arg, bool detached)
{
	pthread_attr_t attr;
	sigset_t all, old;
	bool started;

	pthread_attr_init(&attr);
	if (detached)
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	started = pthread_create(thread, &attr, fn, arg) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return started;
}

/* ---- faults: the handler runs on a stack of its own, since a CUDA thread that ran past
 * its stack has none left ---- */

enum { SIGNAL_STACK_SIZE = 64 << 10 };

static struct sigaction previous_segv, previous_bus;

static void
on_fault(int sig, siginfo_t *info, void *context)
{
	(void)context;
	if (zc_host_fault(info->si_addr)) {
		/* Leaving the handler without returning: the signal it blocked is unblocked here,
		 * or the next fault in a fiber would end the process. */
		sigset_t handled;
		sigemptyset(&handled);
		sigaddset(&handled, sig);
		pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
		zc_host_abandon_fiber();
	}
	/* not a CUDA thread's: whoever handled it before gets it when it comes again */
	sigaction(sig, sig == SIGSEGV ? &previous_segv : &previous_bus, NULL);
}

void
zc_host_catch_faults(void)
{
	struct sigaction action = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO | SA_ONSTACK };

	sigemptyset(&action.sa_mask);
	sigaction(SIGSEGV, &action, &previous_segv);
	sigaction(SIGBUS, &action, &previous_bus);
}

/* The handler's stack on this thread, unless the program gave it one. */
void *
zc_host_thread_faults(void)
{
	stack_t current, ours = { .ss_size = SIGNAL_STACK_SIZE };

	if (sigaltstack(NULL, &current) != 0 || !(current.ss_flags & SS_DISABLE))
		return NULL;
	if (!(ours.ss_sp = stub_alloc(SIGNAL_STACK_SIZE)))
		return NULL;
	if (sigaltstack(&ours, NULL) == 0)
		return ours.ss_sp;
	stub_free(ours.ss_sp);
	return NULL;
}

void
zc_host_thread_faults_end(void *signal_stack)
{
	if (signal_stack) {
		stack_t none = { .ss_flags = SS_DISABLE };
		sigaltstack(&none, NULL);
		stub_free(signal_stack);
	}
}

/* ---- virtual memory: address space mmap reserves with no access, physical memory in a
 * memfd, mapped shared into that space (so two mappings see the same bytes), access given
 * by mprotect ---- */

struct zc_drv_physical {
	int fd;
	size_t bytes;
};

/* CUDA's granularity on its GPUs; a multiple of the host's pages. */
size_t
zc_host_va_granularity(int ordinal)
{
	(void)ordinal;
	return 2 << 20;
}

CUresult
zc_host_va_reserve(size_t bytes, size_t alignment, void *hint, void **ptr)
{
	size_t extra = alignment > (size_t)sysconf(_SC_PAGESIZE) ? alignment : 0;
	uint8_t *p = mmap(hint, bytes + extra, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
	                  -1, 0);

	if (p == MAP_FAILED)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "reserving %zu bytes of address space", bytes);
	if (extra) {
		uint8_t *aligned = (uint8_t *)(((uintptr_t)p + alignment - 1) & ~(uintptr_t)(alignment - 1));
		if (aligned > p)
			munmap(p, (size_t)(aligned - p));
		munmap(aligned + bytes, (size_t)(p + extra - aligned));
		p = aligned;
	}
	*ptr = p;
	return CUDA_SUCCESS;
}

CUresult
zc_host_va_free(void *ptr, size_t bytes)
{
	return munmap(ptr, bytes) == 0 ? CUDA_SUCCESS
	                               : stub_fail(CUDA_ERROR_INVALID_VALUE, "freeing %p + %zu", ptr, bytes);
}

CUresult
zc_host_physical_create(int ordinal, size_t bytes, bool shareable, struct zc_drv_physical **out)
{
	struct zc_drv_physical *p = stub_alloc(sizeof *p);

	(void)ordinal, (void)shareable;  /* a memfd always is */
	if (!p)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "physical allocation");
	p->fd = memfd_create("zluda-convert-physical", MFD_CLOEXEC);
	p->bytes = bytes;
	if (p->fd < 0 || ftruncate(p->fd, (off_t)bytes) != 0) {
		if (p->fd >= 0)
			close(p->fd);
		stub_free(p);
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "%zu bytes of physical memory", bytes);
	}
	*out = p;
	return CUDA_SUCCESS;
}

CUresult
zc_host_physical_export(struct zc_drv_physical *p, int *fd)
{
	return (*fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 0)) >= 0
	       ? CUDA_SUCCESS : stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "no file descriptor to export");
}

CUresult
zc_host_physical_import(int ordinal, int fd, size_t *bytes, struct zc_drv_physical **out)
{
	struct zc_drv_physical *p = stub_alloc(sizeof *p);
	struct stat st;

	(void)ordinal;
	if (!p)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "physical allocation");
	if (fstat(fd, &st) != 0 || st.st_size <= 0 || (p->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		stub_free(p);
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "file descriptor %d is no exported memory", fd);
	}
	p->bytes = *bytes = (size_t)st.st_size;
	*out = p;
	return CUDA_SUCCESS;
}

/* The mappings keep the memory until they go. */
CUresult
zc_host_physical_release(struct zc_drv_physical *p)
{
	close(p->fd);
	stub_free(p);
	return CUDA_SUCCESS;
}

CUresult
zc_host_va_map(void *ptr, size_t bytes, size_t offset, struct zc_drv_physical *p)
{
	if (mmap(ptr, bytes, PROT_NONE, MAP_SHARED | MAP_FIXED, p->fd, (off_t)offset) == MAP_FAILED)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "mapping %zu bytes at %p", bytes, ptr);
	return CUDA_SUCCESS;
}

/* Back to reserved space with nothing behind it. */
CUresult
zc_host_va_unmap(void *ptr, size_t bytes)
{
	if (mmap(ptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
	         0) == MAP_FAILED)
		return stub_fail(CUDA_ERROR_INVALID_VALUE, "unmapping %p + %zu", ptr, bytes);
	return CUDA_SUCCESS;
}

CUresult
zc_host_va_set_access(void *ptr, size_t bytes, int ordinal, bool read, bool write)
{
	(void)ordinal;
	int prot = (read ? PROT_READ : 0) | (write ? PROT_WRITE : 0);

	return mprotect(ptr, bytes, prot) == 0
	               ? CUDA_SUCCESS
	               : stub_fail(CUDA_ERROR_INVALID_VALUE, "access to %p + %zu", ptr, bytes);
}
