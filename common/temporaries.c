/* The temporaries a signal removes. The handler reads only slots published whole: a path is
 * written before its slot is marked used, under a lock the writers share; the handler takes
 * no lock (it may run on any thread, and unlink is async-signal-safe). */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

enum { SLOTS = 64 };

static struct {
	volatile sig_atomic_t used;
	bool folder;
	char path[PATH_MAX];
} slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void add(const char *path, bool folder)
{
	size_t n = strlen(path);

	if (n >= PATH_MAX)
		return;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < SLOTS; i++)
		if (!slots[i].used) {
			memcpy(slots[i].path, path, n + 1);
			slots[i].folder = folder;
			atomic_signal_fence(memory_order_seq_cst);
			slots[i].used = 1;
			break;
		}
	pthread_mutex_unlock(&lock);
}

const char *zc_temporaries_folder(void)
{
	const char *tmp = getenv("TMPDIR");
	return tmp && *tmp ? tmp : "/tmp";
}

void zc_temporary_add(const char *path)
{
	add(path, false);
}

void zc_temporary_folder_add(const char *path)
{
	add(path, true);
}

void zc_temporary_forget(const char *path)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < SLOTS; i++)
		if (slots[i].used && strcmp(slots[i].path, path) == 0)
			slots[i].used = 0;
	pthread_mutex_unlock(&lock);
}

static void (*volatile on_signal)(int);

void zc_temporaries_also(void (*hook)(int sig))
{
	on_signal = hook;
}

static void remove_and_end(int sig)
{
	void (*hook)(int) = on_signal;

	if (hook)
		hook(sig);
	for (size_t i = 0; i < SLOTS; i++)
		if (slots[i].used && !slots[i].folder)
			unlink(slots[i].path);
	for (size_t i = 0; i < SLOTS; i++) /* emptied of their files first */
		if (slots[i].used && slots[i].folder)
			rmdir(slots[i].path);
	/* SA_RESETHAND made the action the default again: the process ends of the signal once
	 * the handler returns, as it would have without it */
	raise(sig);
}

void zc_temporaries_on_signals(void)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGXFSZ };
	struct sigaction action = { .sa_handler = remove_and_end, .sa_flags = SA_RESETHAND };
	struct sigaction old;

	sigemptyset(&action.sa_mask);
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) /* nohup's stays */
			sigaction(signals[i], &action, NULL);
}
