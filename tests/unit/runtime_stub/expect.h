/* The checks the stub's unit tests count failures with: a failed one prints where and what,
 * and the test exits non-zero at the end. */
#ifndef ZC_TEST_EXPECT_H
#define ZC_TEST_EXPECT_H

#include <stdio.h>

static int failures;

#define EXPECT(cond)                                                              \
	do {                                                                          \
		if (!(cond)) {                                                            \
			fprintf(stderr, "%s:%d: FAIL %s\n", __FILE__, __LINE__, #cond);       \
			failures++;                                                           \
		}                                                                         \
	} while (0)
#define OK(call) EXPECT((call) == CUDA_SUCCESS)

#endif
