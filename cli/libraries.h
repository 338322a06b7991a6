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
} Library;

/* Every library PROGRAM loads as it starts, in the loader's order, each name once; 0 when
 * PROGRAM is no ELF file. */
size_t library_closure(const char *program, Library **libs);
void libraries_free(Library *libs, size_t n);

#endif
