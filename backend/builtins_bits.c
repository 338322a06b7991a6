/* Bit instructions without a target instruction, the same C on every target. */
#include "builtins.h"

uint32_t __zc_fns(uint32_t mask, uint32_t base, int32_t offset)
{
	if (base > 31)
		return 0xffffffffu;
	if (offset == 0)
		return mask >> base & 1 ? base : 0xffffffffu;
	int step = offset > 0 ? 1 : -1;
	uint32_t left = offset > 0 ? (uint32_t)offset : 0u - (uint32_t)offset;
	for (int pos = (int)base; pos >= 0 && pos < 32; pos += step)
		if (mask >> pos & 1 && --left == 0)
			return (uint32_t)pos;
	return 0xffffffffu;
}
