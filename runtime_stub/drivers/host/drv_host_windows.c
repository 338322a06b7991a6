/* The CPU driver's Windows half (drv_host.h), in nvcuda.dll: code objects are DLLs loaded
 * from a private temporary file (Windows loads images only from files), fiber stacks come
 * from VirtualAlloc, faults through a vectored exception handler. Virtual memory
 * management is not offered here (drv_host.h). */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>

#include "drv_host.h"

const char zc_host_code_target_name[] = "x86_64-windows";

/* ---- code objects ---- */

struct host_object {
	HMODULE module;
	/* Open, with delete-on-close, while the module is loaded: the file goes when it is
	 * unloaded, or when the process ends, however it ends. */
	HANDLE file;
};

static bool
write_file(const wchar_t *path, const uint8_t *bytes, size_t size)
{
	HANDLE file = CreateFileW(path, GENERIC_WRITE, 0, NULL, TRUNCATE_EXISTING,
	                          FILE_ATTRIBUTE_TEMPORARY, NULL);
	bool written = file != INVALID_HANDLE_VALUE;

	while (written && size) {
		DWORD chunk = size > (1u << 30) ? 1u << 30 : (DWORD)size, n = 0;
		written = WriteFile(file, bytes, chunk, &n, NULL) && n == chunk;
		bytes += chunk;
		size -= chunk;
	}
	if (file != INVALID_HANDLE_VALUE && !CloseHandle(file))
		written = false;
	return written;
}

/* The file has a name of its own in the user's temporary directory (GetTempFileName makes
 * it, unique). The handle that keeps it shares reading and deletion only, as the loader's
 * own opening of an image does. */
CUresult
zc_host_object_open(const uint8_t *bytes, size_t size, void **object)
{
	struct host_object *o = stub_alloc(sizeof *o);
	wchar_t dir[MAX_PATH + 1], path[MAX_PATH + 1];
	DWORD n = GetTempPathW(MAX_PATH + 1, dir);
	CUresult r = CUDA_SUCCESS;

	if (!o)
		return stub_fail(CUDA_ERROR_OUT_OF_MEMORY, "code object");
	if (n == 0 || n > MAX_PATH || !GetTempFileNameW(dir, L"zco", 0, path)) {
		stub_free(o);
		return stub_fail(CUDA_ERROR_OPERATING_SYSTEM,
		                 "cannot make a temporary file for the host code object (error %lu)",
		                 GetLastError());
	}
	if (!write_file(path, bytes, size))
		r = stub_fail(CUDA_ERROR_OPERATING_SYSTEM,
		              "cannot write the host code object to a temporary file (error %lu)",
		              GetLastError());
	else if ((o->file = CreateFileW(path, GENERIC_READ | DELETE, FILE_SHARE_READ | FILE_SHARE_DELETE,
	                                NULL, OPEN_EXISTING, FILE_FLAG_DELETE_ON_CLOSE, NULL)) ==
	         INVALID_HANDLE_VALUE)
		r = stub_fail(CUDA_ERROR_OPERATING_SYSTEM,
		              "cannot keep the host code object's temporary file (error %lu)", GetLastError());
	else if (!(o->module = LoadLibraryExW(path, NULL, LOAD_WITH_ALTERED_SEARCH_PATH)))
		r = stub_fail(CUDA_ERROR_INVALID_IMAGE,
		              "LoadLibrary of the host code object failed (error %lu)", GetLastError());
	if (r != CUDA_SUCCESS) {
		if (o->file && o->file != INVALID_HANDLE_VALUE)
			CloseHandle(o->file);
		else
			DeleteFileW(path);
		stub_free(o);
		return r;
	}
	*object = o;
	return CUDA_SUCCESS;
}

void *
zc_host_object_symbol(void *object, const char *name)
{
	return (void *)GetProcAddress(((struct host_object *)object)->module, name);
}

void
zc_host_object_close(void *object)
{
	struct host_object *o = object;

	FreeLibrary(o->module);
	CloseHandle(o->file);
	stub_free(o);
}

/* ---- the system ---- */

void
zc_host_system(struct zc_host_system *system)
{
	SYSTEM_INFO info;
	MEMORYSTATUSEX memory = { .dwLength = sizeof memory };

	GetSystemInfo(&info);
	GlobalMemoryStatusEx(&memory);
	system->page = info.dwPageSize;
	system->processors = info.dwNumberOfProcessors ? info.dwNumberOfProcessors : 1;
	system->total_memory = (size_t)memory.ullTotalPhys;
	system->free_memory = (size_t)memory.ullAvailPhys;
}

void *
zc_host_aligned_alloc(size_t alignment, size_t bytes)
{
	return _aligned_malloc(bytes ? bytes : 1, alignment);
}

void
zc_host_aligned_free(void *pointer)
{
	_aligned_free(pointer);
}

/* Committed whole: code objects do not probe their stacks (backend/codegen.c). */
char *
zc_host_stack_map(size_t size, size_t guard)
{
	char *base = VirtualAlloc(NULL, size + guard, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
	DWORD old;

	if (!base)
		return NULL;
	VirtualProtect(base, guard, PAGE_NOACCESS, &old);
	return base + guard;
}

void
zc_host_stack_unmap(char *stack, size_t size, size_t guard)
{
	(void)size;
	VirtualFree(stack - guard, 0, MEM_RELEASE);
}

bool
zc_host_spawn(pthread_t *thread, void *(*fn)(void *), void *arg, bool detached)
{
	pthread_attr_t attr;
	bool started;

	pthread_attr_init(&attr);
	if (detached)
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	started = pthread_create(thread, &attr, fn, arg) == 0;
	pthread_attr_destroy(&attr);
	return started;
}

/* ---- faults ---- */

/* Runs on the faulting stack, before any frame's handler. A CUDA thread's fault resumes,
 * through the system's own NtContinue, at zc_host_abandon_fiber on the top of that
 * thread's stack. A CUDA thread that runs past its stack leaves the system no room for
 * the exception there: that ends the process, where on Linux the launch fails. */
static LONG CALLBACK
on_exception(EXCEPTION_POINTERS *exception)
{
	const EXCEPTION_RECORD *record = exception->ExceptionRecord;
	void *top;

	if ((record->ExceptionCode != EXCEPTION_ACCESS_VIOLATION &&
	     record->ExceptionCode != EXCEPTION_IN_PAGE_ERROR) || record->NumberParameters < 2 ||
	    !(top = zc_host_fault((const void *)record->ExceptionInformation[1])))
		return EXCEPTION_CONTINUE_SEARCH;
	/* as if called: the return address's slot below a 16-byte aligned stack pointer */
	exception->ContextRecord->Rsp = ((DWORD64)(uintptr_t)top & ~(DWORD64)15) - 40;
	exception->ContextRecord->Rip = (DWORD64)(uintptr_t)zc_host_abandon_fiber;
	return EXCEPTION_CONTINUE_EXECUTION;
}

void
zc_host_catch_faults(void)
{
	AddVectoredExceptionHandler(1, on_exception);
}

void *
zc_host_thread_faults(void)
{
	return NULL;
}

void
zc_host_thread_faults_end(void *state)
{
	(void)state;
}
