/* The module-file programs' check of a driver call: on an error, its name and where, then
 * exit 1. C and C++. */
#ifndef DRIVER_CHECK_H
#define DRIVER_CHECK_H

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define DRIVER(call)                                                                      \
	do {                                                                                  \
		CUresult r_ = (call);                                                             \
		if (r_ != CUDA_SUCCESS) {                                                         \
			const char *name_ = "?";                                                      \
			cuGetErrorName(r_, &name_);                                                   \
			printf("FAIL %s:%d: %s = %s\n", __FILE__, __LINE__, #call, name_);            \
			exit(1);                                                                      \
		}                                                                                 \
	} while (0)

#endif
