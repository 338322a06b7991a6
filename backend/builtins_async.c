/* cp.async with a partial source and the mbarrier object (ptx_frontend/lower_async.c),
 * the same C on every target.
 *
 * The mbarrier's 64 bits, a layout of this project's (the ISA leaves it open):
 *   bits  0..19  pending arrivals of the current phase
 *   bits 20..39  expected arrivals of every next phase
 *   bits 40..61  transaction count, signed (a complete-tx may come before its expect-tx)
 *   bit  63      the current phase's parity
 * A phase completes when the pending arrivals and the transaction count are both zero:
 * the pending count reloads from the expected count and the parity flips. The token an
 * arrive returns is the word as it was before: its parity names the phase the arrive
 * belonged to, its low bits the pending count before it (mbarrier.pending_count). */
#include "builtins.h"

#define COUNT_MASK 0xfffffu
#define TX_MASK 0x3fffffu
#define EXPECTED_SHIFT 20
#define TX_SHIFT 40
#define PHASE_SHIFT 63

void __zc_cp_async(uint8_t *dst, const uint8_t *src, uint32_t cp_size, uint32_t src_size)
{
	uint32_t i = 0;

	for (; i < src_size && i < cp_size; i++)
		dst[i] = src[i];
	for (; i < cp_size; i++)
		dst[i] = 0;
}

static uint64_t pack(uint32_t pending, uint32_t expected, int32_t tx, uint64_t phase)
{
	return (uint64_t)(pending & COUNT_MASK) | (uint64_t)(expected & COUNT_MASK) << EXPECTED_SHIFT |
	       (uint64_t)((uint32_t)tx & TX_MASK) << TX_SHIFT | phase << PHASE_SHIFT;
}

void __zc_mbarrier_init(uint64_t *barrier, uint32_t count)
{
	__scoped_atomic_store_n(barrier, pack(count, count, 0, 0), __ATOMIC_RELAXED,
	                        __MEMORY_SCOPE_WRKGRP);
}

void __zc_mbarrier_inval(uint64_t *barrier)
{
	__scoped_atomic_store_n(barrier, 0, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
}

/* One update: `arrivals` fewer pending, `dropped` fewer expected from now on, `tx` more
 * transactions (negative: completed ones); expect-tx, complete-tx, arrive and arrive_drop
 * are all this. Releases what the thread wrote before; returns the word before. */
uint64_t __zc_mbarrier_arrive(uint64_t *barrier, uint32_t arrivals, uint32_t dropped, uint32_t tx)
{
	uint64_t old = __scoped_atomic_load_n(barrier, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP), next;

	do {
		uint32_t pending = (uint32_t)old & COUNT_MASK;
		uint32_t expected = (uint32_t)(old >> EXPECTED_SHIFT) & COUNT_MASK;
		uint32_t raw_tx = (uint32_t)(old >> TX_SHIFT) & TX_MASK;
		int32_t count = (int32_t)(raw_tx << 10) >> 10;
		uint64_t phase = old >> PHASE_SHIFT;

		expected -= dropped;
		pending -= arrivals;
		count += (int32_t)tx;
		if ((pending & COUNT_MASK) == 0 && count == 0) {
			pending = expected;
			phase ^= 1;
		}
		next = pack(pending, expected, count, phase);
	} while (!__scoped_atomic_compare_exchange_n(barrier, &old, next, 0, __ATOMIC_ACQ_REL,
	                                             __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP));
	return old;
}

/* Whether the phase of `parity` is over: only the current phase (not over) and the one
 * before it (over) may be asked about. Acquires what the arrivals released. */
static uint32_t phase_over(uint64_t *barrier, uint32_t parity)
{
	__zc_spin_point(); /* waits loop on this */
	return (uint32_t)(__scoped_atomic_load_n(barrier, __ATOMIC_ACQUIRE, __MEMORY_SCOPE_WRKGRP) >>
	                  PHASE_SHIFT) != (parity & 1);
}

uint32_t __zc_mbarrier_test_wait(uint64_t *barrier, uint64_t token)
{
	return phase_over(barrier, (uint32_t)(token >> PHASE_SHIFT));
}

uint32_t __zc_mbarrier_test_wait_parity(uint64_t *barrier, uint32_t parity)
{
	return phase_over(barrier, parity);
}

uint32_t __zc_mbarrier_pending_count(uint64_t token)
{
	return (uint32_t)token & COUNT_MASK;
}
