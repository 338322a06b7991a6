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


def signal_isfirst(t):
    """gfx12's S_BARRIER_SIGNAL_ISFIRST -1: SCC = 1 for the one wave whose signal is the
    barrier's first (signalCnt was 0), 0 for the others, whatever order the waves come in:
    each wave adds its SCC into one LDS word, read after the barrier, twice (the count starts
    again with each barrier). Barrier #0 is a NOP: SCC = 0 and no wait."""
    if t.gen < 12:
        return None
    k = Kernel(t, "signal_isfirst", block=128, lds=8)
    for phase in range(2):
        k.asm(f"""
            s_barrier_signal_isfirst -1
            s_cselect_b32 s4, 1, 0
            s_barrier_wait -1
            v_mov_b32 v2, s4
            v_mov_b32 v3, {4 * phase}
            s_mov_b32 exec_lo, 1
            ds_add_u32 v3, v2
            WAIT_DS
            s_mov_b32 exec_lo, -1
            s_barrier_signal -1
            s_barrier_wait -1
            ds_load_b32 v{4 + phase}, v3
            WAIT_DS
        """)
        k.check_v(f"v{4 + phase}", [1] * 128)
    k.asm("""
        s_cmp_eq_u32 0, 0
        s_barrier_signal_isfirst 0
    """)
    k.check_scc([0] * 128)
    return k


def lone_wave_isfirst(t):
    """A workgroup of one wave is not a workgroup to the barrier (the guide's InWorkgroup():
    taken here as one of more than one wave): S_BARRIER_SIGNAL_ISFIRST -1 gives SCC = 0 and
    does not wait."""
    if t.gen < 12:
        return None
    k = Kernel(t, "lone_wave_isfirst")
    k.asm("""
        s_cmp_eq_u32 0, 0
        s_barrier_signal_isfirst -1
        s_barrier_wait -1
    """)
    k.check_scc([0] * 32)
    return k


def barrier_state(t):
    """gfx12's S_GET_BARRIER_STATE, {9'0, signalCnt.u7, 5'0, memberCnt.u7, 3'0, valid.u1}: the
    workgroup's barrier (-1) of a one-wave workgroup is valid with one member and no signal;
    gfx1200 has no named barrier allocated: another number (a constant, or M0[4:0], which
    cannot name -1) reads as not valid, 0."""
    if t.gen < 12:
        return None
    k = Kernel(t, "barrier_state")
    k.asm("""
        s_get_barrier_state s4, -1
        s_mov_b32 m0, 0x7fffffe3
        s_get_barrier_state s5, m0
        s_get_barrier_state s6, 3
    """)
    k.check_s("s4", 1 << 4 | 1).check_s("s5", 0).check_s("s6", 0)
    return k


def alloc_vgpr(t):
    """gfx12's S_ALLOC_VGPR: SCC says whether the reallocation to S0[8:0] VGPRs succeeded; a
    wave can address 256, so up to that succeeds and beyond fails."""
    if t.gen < 12:
        return None
    k = Kernel(t, "alloc_vgpr")
    k.asm("s_alloc_vgpr 64")
    k.check_scc(1)
    k.asm("""
        s_movk_i32 s4, 0x100
        s_alloc_vgpr s4
    """)
    k.check_scc(1)
    k.asm("""
        s_movk_i32 s4, 0x12c
        s_alloc_vgpr s4
    """)
    k.check_scc(0)
    k.asm("""
        s_movk_i32 s4, 0x240
        s_alloc_vgpr s4
    """)
    k.check_scc(1)  # 0x240: S0[8:0] is 0x40
    return k


CASES = [two_waves, four_waves, signal_isfirst, lone_wave_isfirst, barrier_state, alloc_vgpr]
