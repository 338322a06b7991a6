/* For tests: fork() fails with EAGAIN from its Nth call in this process on
 * (ZC_FAIL_FORK_FROM=N), as when the user's process limit is reached; a child it made
 * forks normally. Loaded with LD_PRELOAD. */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

pid_t fork(void)
{
	static int calls;
	const char *from = getenv("ZC_FAIL_FORK_FROM");
	pid_t (*real)(void) = (pid_t(*)(void))dlsym(RTLD_NEXT, "fork");
	pid_t pid;

	if (from && ++calls >= atoi(from)) {
		errno = EAGAIN;
		return -1;
	}
	pid = real();
	if (pid == 0)
		unsetenv("ZC_FAIL_FORK_FROM");
	return pid;
}
