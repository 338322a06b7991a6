/* The AMD cards the emulator's HIP runtime reports: one row per processor, with the
 * figures of a real card of that processor. */
#ifndef ZC_EMU_HIP_DEVICES_H
#define ZC_EMU_HIP_DEVICES_H

#include <stddef.h>

struct zc_emu_card {
	const char *processor;   /* "gfx1100" */
	const char *name;        /* the marketing name HIP gives it */
	int compute_units;
	size_t memory_bytes;
	int clock_khz;           /* the boost engine clock */
	int memory_clock_khz;    /* the memory clock as amdgpu reads it: GDDR6 data rate / 16 */
	int memory_bus_width;    /* bits */
	int l2_bytes;
};

/* Fills *card for PROCESSOR (a feature suffix such as ":xnack-" is ignored) with its own
 * row, or for another processor the emulator runs with the figures of its generation's
 * card under the name HIP gives a card it has no name for; returns the processor's ISA
 * generation (10, 11, 12), or 0, leaving *card alone, for one the emulator does not run. */
int zc_emu_card_for(const char *processor, struct zc_emu_card *card);

#endif
