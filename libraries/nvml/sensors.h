/* An AMD GPU's sensors for NVML, in NVML's units: ROCm SMI's where it starts
 * (sensors_rocm_smi.c), none on Windows, which has no ROCm SMI (sensors_none.c). A reading
 * returns 0 with its value, or -1 with why it has none in WHY. */
#ifndef ZC_NVML_SENSORS_H
#define ZC_NVML_SENSORS_H

#include <stddef.h>
#include <stdint.h>

struct sensors {
	/* The sensors' index of the device at PCI address BDF (domain << 32, bus << 8,
	 * device << 3), or -1. */
	int64_t (*device)(uint64_t bdf);
	int (*temperature)(uint32_t device, unsigned *celsius, char *why, size_t size);
	int (*power)(uint32_t device, unsigned *milliwatts, char *why, size_t size);
	int (*fan)(uint32_t device, unsigned *percent, char *why, size_t size);
	int (*utilisation)(uint32_t device, unsigned *gpu, unsigned *memory, char *why, size_t size);
};

/* The sensors, started; NULL where there are none (traced). */
const struct sensors *sensors_start(void);

#endif
