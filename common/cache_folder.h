/* The user's cache: where the converter keeps compiled modules and the runtime keeps code it
 * translated (cache_folder.c, with the platform's half in cache_folder_posix.c or
 * cache_folder_windows.c). Plain libc. */
#ifndef ZC_CACHE_FOLDER_H
#define ZC_CACHE_FOLDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* $XDG_CACHE_HOME/zluda-convert, else ~/.cache/zluda-convert, made when missing; false
 * (errno set) when there is none. */
bool zc_user_cache_dir(char *out, size_t size);
/* path, and every directory above it that is missing, made (private to the user); false
 * (errno set) when one cannot be. */
bool zc_make_directories(const char *path);
/* The file's modification time set to now (a cache entry used); false when it cannot be. */
bool zc_touch(const char *path);
/* The files of directory dir that `ours` accepts by name, the least recently modified first,
 * removed until those left take at most `limit` bytes; the newest one is always kept. */
void zc_trim_directory(const char *dir, bool (*ours)(const char *name), uint64_t limit);

/* ZLUDA_CONVERT_CACHE_MAX, in MiB, in bytes: what each cache's entries may take before the
 * least recently used go; 1 GiB when unset or not a positive number. */
uint64_t zc_cache_limit(void);

#endif
