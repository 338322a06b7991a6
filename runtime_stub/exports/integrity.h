/* The INTEGRITY_CHECK export table's answer: cudart checks the driver with it and
 * refuses to run unless the 16 bytes are exactly right. The facts are in the project's
 * reference note integrity-check.md. Every input is passed in, so tests can fix them. */
#ifndef ZC_INTEGRITY_H
#define ZC_INTEGRITY_H

#include <stddef.h>
#include <stdint.h>

enum {
	ZC_INTEGRITY_PROCESS_RECORD = 48,
	ZC_INTEGRITY_DEVICE_RECORD = 28,
};

/* What the driver's public queries report for one device; the hash must agree with them. */
struct zc_integrity_device {
	uint8_t uuid[16];     /* cuDeviceGetUuid */
	int32_t pci_domain;   /* cuDeviceGetAttribute 50 */
	int32_t pci_bus;      /* cuDeviceGetAttribute 33 */
	int32_t pci_device;   /* cuDeviceGetAttribute 34 */
};

struct zc_integrity_inputs {
	uint32_t driver_version;  /* what cuDriverGetVersion reports */
	uint32_t version;         /* the check function's argument */
	uint32_t pid;
	uint32_t thread;          /* low 32 bits of the caller's pthread_self(), not gettid() */
	uint64_t cudart_table;    /* the CUDART_INTERFACE table pointer cuGetExportTable hands out */
	uint64_t integrity_table; /* the INTEGRITY_CHECK table pointer cuGetExportTable hands out */
	uint64_t check_function;  /* the value in INTEGRITY_CHECK slot [1] */
	uint64_t unix_seconds;    /* the check function's argument */
	const struct zc_integrity_device *devices;  /* in ordinal order */
	size_t device_count;
};

/* The 16 answer bytes, as cudart reads them: out[0] holds bytes 0..7 little-endian. */
void zc_integrity_answer(const struct zc_integrity_inputs *in, uint64_t out[2]);

/* The message layout, exposed so tests can check it byte by byte. */
void zc_integrity_process_record(const struct zc_integrity_inputs *in,
                                 uint8_t rec[ZC_INTEGRITY_PROCESS_RECORD]);
void zc_integrity_device_record(const struct zc_integrity_device *dev,
                                uint8_t rec[ZC_INTEGRITY_DEVICE_RECORD]);

#endif
