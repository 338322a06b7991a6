"""Scratch (gfx11+: scratch_store/scratch_load with architected flat scratch; gfx10: MUBUF
over the private segment buffer): every lane's private memory is its own, so lanes storing
different values at one address read back their own; addresses from an immediate offset, a
VGPR, or an SGPR."""
from emutest import ANY, Kernel, M32


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


def buffer_offset_wraps(t):
    """gfx10's MUBUF scratch: the buffer offset, VGPR plus instruction offset, is 32 bits and
    wraps, so a negative VGPR with a positive offset reaches below the offset (LLVM folds
    constants so on gfx9 and later, where private buffers are not range-checked)."""
    if t.gen != 10:
        return None
    k = Kernel(t, "buffer_offset_wraps", scratch=64, private_buffer=True)
    k.asm("""
        v_mul_u32_u24 v2, 7, v0
        buffer_store_dword v2, off, s[8:11], 0 offset:8
        v_add_nc_u32 v3, 100, v0
        buffer_store_dword v3, off, s[8:11], 0 offset:12
        v_xor_b32 v4, 0x5a, v0
        buffer_store_dword v4, off, s[8:11], 0 offset:16
        v_and_b32 v5, 8, v1
        v_sub_nc_u32 v6, 0, v5
        v_or_b32 v9, 0x300, v0
        buffer_store_dword v9, v6, s[8:11], 0 offen offset:40
        WAIT_STORE
        buffer_load_dword v7, v6, s[8:11], 0 offen offset:16
        v_sub_nc_u32 v8, -4, v5
        buffer_load_dword v10, v8, s[8:11], 0 offen offset:20
        buffer_load_dword v11, off, s[8:11], 0 offset:40
        buffer_load_dword v12, off, s[8:11], 0 offset:32
        WAIT_LOAD
    """)
    # lanes with bit 1 set: v5 = 8, so offset 16 - 8 = 8 and 20 - 4 - 8 = 8, and the
    # store lands at 40 - 8 = 32
    odd = [bool(4 * l & 8) for l in range(32)]
    k.check_v("v7", [7 * l if odd[l] else l ^ 0x5a for l in range(32)])
    k.check_v("v10", [7 * l if odd[l] else l ^ 0x5a for l in range(32)])
    k.check_v("v11", [ANY if odd[l] else 0x300 | l for l in range(32)])
    k.check_v("v12", [0x300 | l if odd[l] else ANY for l in range(32)])
    return k


def block(t):
    """gfx12's SCRATCH_STORE_BLOCK and SCRATCH_LOAD_BLOCK: the 32 dwords from the lane's
    address move to or from VGPR base + i where M0[i] is set; a clear bit leaves the word
    (and the register) alone."""
    if t.gen < 12:
        return None
    k = Kernel(t, "block", scratch=256)
    first = [[(l * 0x101 + i * 0x10000) & 0xffffffff for l in range(32)] for i in range(32)]
    second = [[(l ^ 0x5a5a0000) + i for l in range(32)] for i in range(32)]
    mask = 0x8421f00d
    k.asm("\n".join(f"""v_mul_u32_u24 v{8 + i}, 0x101, v0
        v_add_nc_u32 v{8 + i}, {i * 0x10000:#x}, v{8 + i}""" for i in range(32)))
    k.asm("""
        s_mov_b32 m0, -1
        v_mov_b32 v2, 16
        scratch_store_block v2, v[8:39], off offset:4
        WAIT_STORE
    """)
    k.asm("\n".join(f"""v_xor_b32 v{8 + i}, 0x5a5a0000, v0
        v_add_nc_u32 v{8 + i}, {i}, v{8 + i}""" for i in range(32)))
    k.asm(f"""
        s_mov_b32 m0, {mask:#x}
        scratch_store_block v2, v[8:39], off offset:4
        WAIT_STORE
        s_mov_b32 m0, -1
        scratch_load_block v[20:51], off, off offset:20
        WAIT_LOAD
    """)
    for i in (0, 1, 2, 5, 12, 16, 31):
        k.check_v(f"v{20 + i}", [second[i][l] if mask >> i & 1 else first[i][l]
                                 for l in range(32)])
    return k


CASES = [private, buffer_offset_wraps, block]
