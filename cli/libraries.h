/* The shared libraries a program loads, found as the dynamic loader finds them
 * (libraries.c): what convert --with-libraries converts and doctor checks. */
#ifndef ZC_LIBRARIES_H
#define ZC_LIBRARIES_H

#include "cli.h"

typedef struct {
	char *name;      /* as a DT_NEEDED entry names it */
	char *path;      /* where the loader finds it; NULL when nowhere */
	char *needed_by; /* the path of the object whose DT_NEEDED names it first */
	char *origin_of; /* the object whose $ORIGIN path it was found through, or NULL */
	char *opened_by; /* the library that opens it with dlopen from its own directory (a
	                    part of cuDNN), or NULL for one a DT_NEEDED entry loads */
} Library;

/* Every library PROGRAM loads as it starts, in the loader's order, each name once, then the
 * parts those open themselves from their own directory (cuDNN's); 0 when PROGRAM is no ELF
 * file. */
size_t library_closure(const char *program, Library **libs);
void libraries_free(Library *libs, size_t n);

#endif
