/* The cards: AMD's reference figures for one desktop Radeon of each processor (engine
 * boost clock, memory size and bus, L2 cache; the Infinity Cache is not an L2 and is not
 * reported). Memory clocks are GDDR6's data rate divided by 16, which is the MCLK that
 * amdgpu and HIP report: 16 Gbps is 1000 MHz. */
#include <string.h>

#include "devices.h"
#include "emulator.h"

#define GIB ((size_t)1 << 30)
#define MIB (1 << 20)

static const struct zc_emu_card cards[] = {
	{ "gfx1030", "AMD Radeon RX 6900 XT", 80, 16 * GIB, 2250000, 1000000, 256, 4 * MIB },
	{ "gfx1100", "AMD Radeon RX 7900 XTX", 96, 24 * GIB, 2500000, 1250000, 384, 6 * MIB },
	{ "gfx1101", "AMD Radeon RX 7800 XT", 60, 16 * GIB, 2430000, 1218750, 256, 4 * MIB },
	{ "gfx1102", "AMD Radeon RX 7600", 32, 8 * GIB, 2655000, 1125000, 128, 2 * MIB },
	{ "gfx1200", "AMD Radeon RX 9060 XT", 32, 16 * GIB, 3130000, 1250000, 128, 4 * MIB },
	{ "gfx1201", "AMD Radeon RX 9070 XT", 64, 16 * GIB, 2970000, 1250000, 256, 8 * MIB },
};

/* Each generation's card, for its processors without a row. */
static const char *const generation_cards[] = { [10] = "gfx1030", [11] = "gfx1100", [12] = "gfx1200" };

static const struct zc_emu_card *
find(const char *processor, size_t length)
{
	for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++)
		if (strlen(cards[i].processor) == length && memcmp(cards[i].processor, processor, length) == 0)
			return &cards[i];
	return NULL;
}

int
zc_emu_card_for(const char *processor, struct zc_emu_card *card)
{
	int generation = zc_emu_generation(processor);
	const struct zc_emu_card *row;

	if (generation <= 0 || generation >= (int)(sizeof generation_cards / sizeof generation_cards[0]) ||
	    !generation_cards[generation])
		return 0;
	row = find(processor, strcspn(processor, ":"));
	if (row) {
		*card = *row;
	} else {
		*card = *find(generation_cards[generation], strlen(generation_cards[generation]));
		card->processor = NULL;
		card->name = "AMD Radeon Graphics";
	}
	return generation;
}
