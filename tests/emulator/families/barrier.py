"""S_BARRIER (gfx12: s_barrier_signal -1 then s_barrier_wait -1) with two and four waves in
a workgroup: each wave stores to LDS, waits at the barrier, and reads what another wave
stored; without the wait the first wave would read before the others had written."""
from emutest import Kernel


def barrier_code(t):
    return "s_barrier_signal -1\ns_barrier_wait -1" if t.gen == 12 else "s_barrier"


def exchange(t, block, name):
    k = Kernel(t, name, block=block, lds=4 * block)
    k.asm(f"""
        v_mul_u32_u24 v2, 7, v0
        v_add_nc_u32 v2, 1, v2
        ds_store_b32 v1, v2
        WAIT_DS
        {barrier_code(t)}
        v_xor_b32 v3, 0x80, v1
        ds_load_b32 v4, v3
        v_sub_nc_u32 v5, {4 * block - 4}, v1
        ds_load_b32 v6, v5
        WAIT_DS
    """)
    # v3: the lane of the next wave pair (tid ^ 32); v5: the mirror lane (block - 1 - tid)
    k.check_v("v4", [7 * (l ^ 32) + 1 for l in range(block)])
    k.check_v("v6", [7 * (block - 1 - l) + 1 for l in range(block)])
    # a second round through the same LDS words, after a second barrier
    k.asm(f"""
        {barrier_code(t)}
        v_add_nc_u32 v7, 0x100, v2
        ds_store_b32 v5, v7
        WAIT_DS
        {barrier_code(t)}
        ds_load_b32 v8, v1
        WAIT_DS
    """)
    k.check_v("v8", [7 * (block - 1 - l) + 1 + 0x100 for l in range(block)])
    return k


def two_waves(t):
    return exchange(t, 64, "two_waves")


def four_waves(t):
    return exchange(t, 128, "four_waves")


CASES = [two_waves, four_waves]
