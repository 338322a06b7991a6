/* 8 threads, each with its own stream, queue 500 rounds of fill + copy + host function;
 * every result must be exact and every host function must run in order. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "exports.h"

enum { THREADS = 8, ROUNDS = 500, BYTES = 1024 };

static CUcontext primary;

struct worker {
	int id;
	int next_round;        /* written by the host functions, in stream order */
	int out_of_order;
	unsigned char results[ROUNDS][BYTES];
	int failures;
};

struct round {
	struct worker *w;
	int round;
};

static struct round rounds[THREADS][ROUNDS];

static void
round_done(void *arg)
{
	struct round *r = arg;

	if (r->w->next_round != r->round)
		r->w->out_of_order++;
	r->w->next_round = r->round + 1;
}

static void *
run(void *arg)
{
	struct worker *w = arg;
	CUstream s;
	CUdeviceptr d;

	if (cuCtxSetCurrent(primary) || cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) ||
	    cuMemAlloc_v2(&d, (size_t)ROUNDS * BYTES)) {
		w->failures++;
		return NULL;
	}
	for (int i = 0; i < ROUNDS; i++) {
		CUdeviceptr slot = d + (CUdeviceptr)i * BYTES;
		rounds[w->id][i] = (struct round){ w, i };
		w->failures += cuMemsetD8Async(slot, (unsigned char)(w->id * 31 + i), BYTES, s) != 0;
		w->failures += cuMemsetD32Async(slot + 4 * (i % 200), (unsigned)i, 1, s) != 0;
		w->failures += cuMemcpyDtoHAsync_v2(w->results[i], slot, BYTES, s) != 0;
		w->failures += cuLaunchHostFunc(s, round_done, &rounds[w->id][i]) != 0;
	}
	w->failures += cuStreamSynchronize(s) != 0;
	w->failures += cuStreamDestroy_v2(s) != 0;
	w->failures += cuMemFree_v2(d) != 0;
	return NULL;
}

static struct worker workers[THREADS];

int
main(void)
{
	pthread_t threads[THREADS];
	int failures = 0;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&primary, 0)) {
		fprintf(stderr, "no host device\n");
		return 1;
	}
	for (int t = 0; t < THREADS; t++) {
		workers[t].id = t;
		pthread_create(&threads[t], NULL, run, &workers[t]);
	}
	for (int t = 0; t < THREADS; t++)
		pthread_join(threads[t], NULL);
	for (int t = 0; t < THREADS; t++) {
		struct worker *w = &workers[t];
		failures += w->failures + w->out_of_order + (w->next_round != ROUNDS);
		for (int i = 0; i < ROUNDS; i++) {
			unsigned char expect[BYTES];
			unsigned value = (unsigned)i;
			memset(expect, (unsigned char)(t * 31 + i), BYTES);
			memcpy(expect + 4 * (i % 200), &value, 4);
			failures += memcmp(expect, w->results[i], BYTES) != 0;
		}
	}
	failures += cuDevicePrimaryCtxRelease_v2(0) != 0;
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("PASS: %d threads x %d rounds\n", THREADS, ROUNDS);
	return failures != 0;
}
