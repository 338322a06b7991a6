/* What the stub needs of the operating system beyond C17 and POSIX threads, in one place:
 * platform_posix.c (Linux) and platform_windows.c (nvcuda.dll) implement it. Threads,
 * mutexes, condition variables, once and thread keys stay pthreads on both: mingw-w64's
 * winpthreads provides them on Windows, linked into nvcuda.dll. Paths are UTF-8. */
#ifndef ZC_PLATFORM_H
#define ZC_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest path the stub handles, with its NUL. */
enum { ZC_PATH_MAX = 4096 };

/* A shared library (.so, .dll) by name, searched for as the platform's loader does, or by
 * path. Isolated: its own calls to functions it exports go to its own definitions, never
 * to the stub's entry points of the same names (NVIDIA's driver). NULL on failure, with
 * the loader's reason in why. */
void *zc_library_open(const char *name, bool isolated, char *why, size_t why_size);
void *zc_library_symbol(void *library, const char *name);
void zc_library_close(void *library);

/* The file of the process (program or library) whose image holds address; false when
 * none does (memory the program allocated, the vDSO). */
bool zc_file_of_address(const void *address, char *path, size_t size);
/* The file the process was started from. */
const char *zc_main_program(void);
/* Calls visit with the file of every program and library loaded in the process. */
void zc_for_each_loaded_file(void (*visit)(const char *path, void *arg), void *arg);
/* path made absolute with every link resolved; false (errno set) when it cannot be. */
bool zc_real_path(const char *path, char *out, size_t size);
/* Whether the two paths name one file. */
bool zc_same_file(const char *a, const char *b);

/* Copies n bytes at src (memory a program handed over, whose extent is unknown) into dst;
 * false, dst then undefined, when any of them cannot be read. The operating system reads
 * them, so neither a fault nor a sanitizer's check of the bounds of the program's object
 * stops the stub. Callers serialize their calls. */
bool zc_copy_readable(void *dst, const void *src, size_t n);

/* fopen(path, "rb") of a UTF-8 path. */
FILE *zc_open_read(const char *path);
/* size bytes of the file at offset, mapped read-only; NULL when they cannot be. */
const void *zc_map_file(const char *path, uint64_t offset, uint64_t size);
void zc_unmap_file(const void *bytes, uint64_t size);

/* Runs the program at argv[0] with argv (NULL-terminated), its standard output and error
 * gathered into output (NUL-terminated; what does not fit is read and dropped), and waits
 * for it. *status is its exit status, -1 when a signal ended it. False (errno set) when it
 * could not be started. */
bool zc_run_program(const char *const *argv, char *output, size_t size, int *status);
/* The program NAME in the directories of PATH, as a shell finds it; false when none. */
bool zc_find_in_path(const char *name, char *out, size_t size);
/* What identifies the file at path as it is now (device, inode, size, modification time);
 * false when it cannot be read. */
enum { ZC_FILE_IDENTITY_WORDS = 4 };
bool zc_file_identity(const char *path, uint64_t identity[ZC_FILE_IDENTITY_WORDS]);
/* The ids the INTEGRITY_CHECK hash takes (integrity.h): what NVIDIA's driver on the
 * platform puts there. */
uint32_t zc_process_id(void);
uint32_t zc_thread_id(void);

#endif
