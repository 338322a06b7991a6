/* The stub's reading of the device printf ring (runtime_stub/api/device_output.c), with records
 * written here as the AMDGPU builtins write them (abi/device_output.h): output past the
 * ring's size keeps the newest whole records, in order, records wrap past the ring's end,
 * and a record not yet complete stops the printing until it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "device_output.h"

static int failures;

#define EXPECT(cond)                                                                      \
	do {                                                                                  \
		if (!(cond)) {                                                                    \
			fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);           \
			failures++;                                                                   \
		}                                                                                 \
	} while (0)

static struct zc_device_output *ring;

static void put(uint64_t at, const void *src, size_t n)
{
	uint8_t *data = (uint8_t *)(ring + 1);

	for (size_t i = 0; i < n; i++)
		data[(at + i) % ring->size] = ((const uint8_t *)src)[i];
}

/* A printf record of a format without arguments at count `at`; its length. With publish
 * false its tag is not stored. */
static uint32_t write_record(uint64_t at, const char *format, bool publish)
{
	uint32_t bytes = (uint32_t)strlen(format) + 1;
	struct zc_output_record h = {.kind = ZC_OUTPUT_PRINTF, .sizes = {bytes, 0, 0}};
	uint64_t tag = at + 1;

	h.length = (uint32_t)sizeof h + (bytes + 7) / 8 * 8;
	put(at + 8, (const uint8_t *)&h + 8, sizeof h - 8);
	put(at + sizeof h, format, bytes);
	if (publish)
		put(at, &tag, 8);
	return h.length;
}

/* What the ring prints once PUBLISH (the step that makes records visible: the count of
 * bytes used, or a pending record's tag) is done, as lines in buf. The step runs with stdout
 * already redirected: the stub's own drainer thread, which prints every 2 ms, may print the
 * records before drain does, and what it prints must be caught too. */
static void drained(void (*publish)(uint64_t at, const char *format), uint64_t at,
                    const char *format, char *buf, size_t size)
{
	FILE *f = tmpfile();
	int saved = dup(1);

	fflush(stdout);
	dup2(fileno(f), 1);
	publish(at, format);
	zc_device_output_drain(CUDA_SUCCESS);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(f);
	buf[fread(buf, 1, size - 1, f)] = '\0';
	fclose(f);
}

static void publish_used(uint64_t at, const char *unused)
{
	(void)unused;
	__atomic_store_n(&ring->used, at, __ATOMIC_RELEASE);
}

static void complete_record(uint64_t at, const char *format)
{
	write_record(at, format, true);
}

int main(void)
{
	static char out[1 << 16];
	char line[64], want[1 << 16] = "";
	uint64_t at = 0;

	if (cuInit(0) != CUDA_SUCCESS) {
		fprintf(stderr, "cuInit failed: run with ZLUDA_CONVERT_DRIVER=host\n");
		return 1;
	}
	ring = zc_device_output_buffer(0, 4096);
	EXPECT(ring && ring->size == 4096);
	if (!ring)
		return 1;

	/* 300 records of 72 bytes, about five times the ring: the newest whole ones come out.
	 * `used` moves last, so that the stub's own drain sees all of them at once. */
	for (int i = 0; i < 300; i++) {
		snprintf(line, sizeof line, "record %03d\n", i);
		at += write_record(at, line, true);
	}
	drained(publish_used, at, NULL, out, sizeof out);
	for (int i = 300 - 4096 / 72; i < 300; i++) {
		snprintf(line, sizeof line, "record %03d\n", i);
		strcat(want, line);
	}
	EXPECT(strcmp(out, want) == 0);
	if (strcmp(out, want) != 0)
		fprintf(stderr, "printed:\n%s\nexpected:\n%s", out, want);

	/* One not yet complete: what follows waits for it. */
	uint64_t pending = at;
	at += write_record(at, "pending\n", false);
	at += write_record(at, "after\n", true);
	drained(publish_used, at, NULL, out, sizeof out);
	EXPECT(strcmp(out, "") == 0);
	drained(complete_record, pending, "pending\n", out, sizeof out);
	EXPECT(strcmp(out, "pending\nafter\n") == 0);

	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures != 0;
}
