/* What every part of the project shares: the allocation funnel, the error funnel of library
 * code, and printf-style format checking. Plain C17 and libc; nothing here prints but the
 * out-of-memory message. */
#ifndef ZC_COMMON_H
#define ZC_COMMON_H

#include <stdbool.h>
#include <stddef.h>

/* printf-style format checking. mingw-w64's compiler takes plain "printf" as Microsoft's
 * printf, which lacks %zu; the runtime stub built for Windows formats with mingw's own. */
#ifdef __MINGW32__
#define ZC_PRINTF_FORMAT gnu_printf
#else
#define ZC_PRINTF_FORMAT printf
#endif

/* alloc.c: the allocation funnel of the converter's parts. Aborts with a message on
 * exhaustion (inputs never size an allocation without a bound check first, so this only
 * fires on a real out-of-memory). The runtime stub never aborts: it has its own funnel,
 * which returns NULL (runtime_stub/base/base.h). */
void *zc_alloc(size_t size);
void *zc_realloc(void *p, size_t size);
char *zc_strndup(const char *s, size_t n);

/* error.c: library code never prints or exits; every failure is a message in a ZcError. */
typedef struct {
	char msg[512];
} ZcError;

/* Returns false so that callers can write `return zc_fail(err, ...)`. */
bool zc_fail(ZcError *err, const char *fmt, ...) __attribute__((format(ZC_PRINTF_FORMAT, 2, 3)));

/* temporaries.c (POSIX): the files a process writes before renaming them into place, and
 * the folders it makes for a while, which a signal that ends it (zc_temporaries_on_signals:
 * SIGINT, SIGTERM, SIGHUP, SIGXFSZ) removes first, folders after files. Up to 64 at once;
 * one more is written but not removed by a signal. */
void zc_temporary_add(const char *path);
void zc_temporary_folder_add(const char *path);
/* Where temporaries are made: TMPDIR, else /tmp. */
const char *zc_temporaries_folder(void);
void zc_temporary_forget(const char *path);
void zc_temporaries_on_signals(void);
/* What such a signal does first (async-signal-safe, given the signal), or NULL for nothing. */
void zc_temporaries_also(void (*hook)(int sig));

#endif
