"""LDS: ds_store/ds_load of dwords (with an offset), bytes and half-words (sign- and
zero-extending loads), the two-address forms, DS_ADD_RTN_U32 (returns the old value) and
DS_ADD_U32 from every lane to one address (all 32 additions land), and addresses whose VGPR
is negative with an offset that brings them back: the sum is 32 bits and wraps, as LLVM
assumes when it folds a constant into the offset (gfx7 and later)."""
from emutest import Kernel, M32


def lds(t):
    k = Kernel(t, "lds", lds=2048)
    k.asm("""
        v_mul_u32_u24 v2, 3, v0
        ds_store_b32 v1, v2
        v_mov_b32 v3, 0
        ds_store_b32 v1, v3 offset:128
        v_mov_b32 v4, 0x200
        ds_store_b32 v4, v3
        WAIT_DS
        v_add_nc_u32 v6, 100, v0
        ds_add_rtn_u32 v7, v1, v6
        v_mov_b32 v8, 1
        ds_add_u32 v4, v8
        WAIT_DS
        ds_load_b32 v9, v1
        ds_load_b32 v10, v1 offset:4
        ds_load_b32 v11, v4
        WAIT_DS
    """)
    k.check_v("v7", [3 * l for l in range(32)])
    k.check_v("v9", [4 * l + 100 for l in range(32)])
    k.check_v("v10", [4 * (l + 1) + 100 if l < 31 else 0 for l in range(32)])
    k.check_v("v11", 32)
    # two addresses: offsets in dwords
    k.asm("""
        v_lshlrev_b32 v12, 3, v0
        v_add_nc_u32 v12, 0x280, v12
        v_xor_b32 v13, 0x5a5a5a5a, v0
        v_not_b32 v14, v0
        ds_store_2addr_b32 v12, v13, v14 offset1:1
        WAIT_DS
        ds_load_2addr_b32 v[15:16], v12 offset1:1
        ds_load_b32 v17, v12 offset:4
        WAIT_DS
    """)
    k.check_v("v15", [0x5a5a5a5a ^ l for l in range(32)])
    k.check_v("v16", [~l & M32 for l in range(32)]).check_v("v17", [~l & M32 for l in range(32)])
    # bytes and half-words
    k.asm("""
        v_add_nc_u32 v18, 0x400, v0
        v_add_nc_u32 v19, 0x7e, v0
        ds_store_b8 v18, v19
        v_lshlrev_b32 v20, 1, v0
        v_add_nc_u32 v20, 0x500, v20
        v_lshlrev_b32 v21, 11, v0
        v_add_nc_u32 v21, 0x10042, v21
        ds_store_b16 v20, v21
        WAIT_DS
        ds_load_u8 v22, v18
        ds_load_i8 v23, v18
        ds_load_u16 v24, v20
        ds_load_i16 v25, v20
        WAIT_DS
    """)
    byte = [(0x7e + l) & 0xff for l in range(32)]
    half = [(0x10042 + (l << 11)) & 0xffff for l in range(32)]
    k.check_v("v22", byte).check_v("v23", [b - 256 if b >= 128 else b for b in byte])
    k.check_v("v24", half).check_v("v25", [h - 65536 if h >= 32768 else h for h in half])
    k.asm("""
        v_subrev_nc_u32 v26, 0x4400, v1
        v_add_nc_u32 v27, 0x77, v0
        ds_store_b32 v26, v27 offset:18944
        WAIT_DS
        v_add_nc_u32 v28, 0x600, v1
        ds_load_b32 v29, v28
        v_subrev_nc_u32 v31, 16, v1
        ds_load_2addr_b32 v[32:33], v31 offset0:4 offset1:5
        WAIT_DS
    """)
    k.check_v("v29", [0x77 + l for l in range(32)])
    k.check_v("v32", [4 * l + 100 for l in range(32)])
    k.check_v("v33", [4 * (l + 1) + 100 if l < 31 else 0 for l in range(32)])
    return k


CASES = [lds]
