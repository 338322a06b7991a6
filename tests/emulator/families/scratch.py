"""Scratch (gfx11+: scratch_store/scratch_load with architected flat scratch): every lane's
private memory is its own, so lanes storing different values at one address read back
their own; addresses from an immediate offset, a VGPR, or an SGPR."""
from emutest import Kernel, M32


def private(t):
    if t.gen < 11:
        return None
    k = Kernel(t, "private", scratch=64)
    k.asm("""
        v_mul_u32_u24 v2, 11, v0
        v_add_nc_u32 v2, 5, v2
        scratch_store_b32 off, v2, off offset:8
        v_and_b32 v3, 12, v1
        v_not_b32 v4, v0
        scratch_store_b32 v3, v4, off offset:16
        s_mov_b32 s4, 32
        v_xor_b32 v5, 0x55, v0
        scratch_store_b32 off, v5, s4 offset:4
        v_lshlrev_b32 v11, 16, v0
        v_or_b32 v12, 0xbeef, v0
        scratch_store_b64 off, v[11:12], off offset:48
        WAIT_STORE
        v_mov_b32 v2, 0
        scratch_load_b32 v6, off, off offset:8
        scratch_load_b32 v7, v3, off offset:16
        scratch_load_b32 v8, off, s4 offset:4
        scratch_load_b64 v[9:10], off, off offset:48
        s_mov_b32 s5, 0
        scratch_load_b32 v13, off, s5 offset:36
        WAIT_LOAD
    """)
    k.check_v("v6", [11 * l + 5 for l in range(32)])
    k.check_v("v7", [~l & M32 for l in range(32)])
    k.check_v("v8", [l ^ 0x55 for l in range(32)])
    k.check_v("v9", [l << 16 for l in range(32)]).check_v("v10", [0xbeef | l for l in range(32)])
    k.check_v("v13", [l ^ 0x55 for l in range(32)])
    return k


CASES = [private]
