"""LDS: ds_store/ds_load of dwords (with an offset), bytes and half-words (sign- and
zero-extending loads), the two-address forms, DS_ADD_RTN_U32 (returns the old value) and
DS_ADD_U32 from every lane to one address (all 32 additions land), and addresses whose VGPR
is negative with an offset that brings them back: the sum is 32 bits and wraps, as LLVM
assumes when it folds a constant into the offset (gfx7 and later)."""
import struct

from emutest import ANY, Kernel, M32


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


def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def lds_atomics(t):
    """The LDS read-modify-writes beyond add, each lane on a word of its own (RDNA3
    pseudo-code): DS_RSUB_RTN_U32 (DATA - MEM), DS_MSKOR_RTN_B32 ((MEM & ~DATA) | DATA2),
    DS_WRAP_RTN_B32 (MEM >= DATA ? MEM - DATA : MEM + DATA2), DS_CMPSTORE_RTN_F32 (compared as
    floats: -0 matches +0, NaN nothing; gfx10's DS_CMPST_RTN_F32 takes the compare value
    first; neither on gfx12), DS_STOREXCHG_2ADDR_RTN_B32, DS_CONDXCHG32_RTN_B64 (each word stored, without bit 31,
    where bit 31 of its data is set), DS_APPEND and DS_CONSUME (the word at M0 + offset moved by
    the count of active lanes, its old value to each), DS_STORE_ADDTID_B32 and
    DS_LOAD_ADDTID_B32 (lane L's word at M0 + offset + 4 L); gfx12's DS_COND_SUB_RTN_U32 and
    DS_SUB_CLAMP_RTN_U32, and DS_BPERMUTE_FI_B32 (reads lanes EXEC leaves out)."""
    k = Kernel(t, "lds_atomics", lds=4096)
    neg_zero, one, nan = 0x80000000, f32(1.0), 0x7fc00000
    init = [nan if l == 31 else neg_zero if l % 2 == 0 else one for l in range(32)]
    k.input("v40", init)
    # gfx12 has neither the wrap nor the float compare-store
    wrap = "ds_wrap_rtn_b32 v7, v22, v25, v26" if t.gen < 12 else ""
    cmpst = ("ds_cmpst_rtn_f32 v8, v30, v33, v32" if t.gen == 10
             else "ds_cmpstore_rtn_f32 v8, v30, v32, v33" if t.gen == 11 else "")
    k.asm(f"""
        v_add_nc_u32 v2, 1000, v0
        v_add_nc_u32 v20, 0x100, v1
        ds_store_b32 v20, v2
        v_mov_b32 v3, 0x12345678
        v_add_nc_u32 v21, 0x200, v1
        ds_store_b32 v21, v3
        v_add_nc_u32 v22, 0x300, v1
        ds_store_b32 v22, v0
        v_add_nc_u32 v30, 0x400, v1
        ds_store_b32 v30, v40
        WAIT_DS
        v_mov_b32 v4, 5000
        ds_rsub_rtn_u32 v5, v20, v4
        v_mov_b32 v23, 0xff00
        v_xor_b32 v24, 0x3c00, v0
        ds_mskor_rtn_b32 v6, v21, v23, v24
        v_mov_b32 v25, 10
        v_mov_b32 v26, 7
        {wrap}
        v_mov_b32 v32, 2.5
        v_mov_b32 v33, 0
        v_cmp_eq_u32 vcc_lo, 31, v0
        v_cndmask_b32 v33, v33, v40, vcc_lo
        {cmpst}
        WAIT_DS
        ds_load_b32 v34, v20
        ds_load_b32 v35, v21
        ds_load_b32 v36, v22
        ds_load_b32 v37, v30
        WAIT_DS
    """)
    k.check_v("v5", [1000 + l for l in range(32)])
    k.check_v("v34", [(5000 - 1000 - l) & M32 for l in range(32)])
    k.check_v("v6", 0x12345678)
    k.check_v("v35", [(0x12345678 & ~0xff00) | (0x3c00 ^ l) for l in range(32)])
    if t.gen < 12:
        k.check_v("v7", list(range(32)))
        k.check_v("v36", [l - 10 if l >= 10 else l + 7 for l in range(32)])
        k.check_v("v8", init)
        k.check_v("v37", [nan if l == 31 else f32(2.5) if l % 2 == 0 else one for l in range(32)])
    # two addresses exchanged; conditional exchange of a pair
    k.asm("""
        v_lshlrev_b32 v41, 3, v0
        v_add_nc_u32 v41, 0x500, v41
        v_add_nc_u32 v42, 0x111, v0
        v_add_nc_u32 v43, 0x222, v0
        ds_store_2addr_b32 v41, v42, v43 offset1:1
        v_add_nc_u32 v44, 0x333, v0
        v_add_nc_u32 v45, 0x444, v0
        WAIT_DS
        ds_storexchg_2addr_rtn_b32 v[46:47], v41, v44, v45 offset1:1
        WAIT_DS
        ds_load_2addr_b32 v[48:49], v41 offset1:1
        WAIT_DS
    """)
    k.check_v("v46", [0x111 + l for l in range(32)]).check_v("v47", [0x222 + l for l in range(32)])
    k.check_v("v48", [0x333 + l for l in range(32)]).check_v("v49", [0x444 + l for l in range(32)])
    k.asm("""
        v_lshlrev_b32 v50, 3, v0
        v_add_nc_u32 v50, 0x700, v50
        v_mov_b32 v51, 0xaaaa
        v_mov_b32 v52, 0xbbbb
        ds_store_2addr_b32 v50, v51, v52 offset1:1
        v_and_b32 v53, 1, v0
        v_lshlrev_b32 v53, 31, v53
        v_or_b32 v53, 0x0123, v53
        v_xor_b32 v54, 0x80000000, v53
        v_add_nc_u32 v54, 0x1000, v54
        v_add_nc_u32 v55, 4, v50
        WAIT_DS
        ds_condxchg32_rtn_b64 v[56:57], v55, v[53:54]
        WAIT_DS
        ds_load_2addr_b32 v[58:59], v50 offset1:1
        WAIT_DS
    """)
    # the address is rounded down to 8 bytes: v55's 4 drops
    k.check_v("v56", 0xaaaa).check_v("v57", 0xbbbb)
    k.check_v("v58", [0x0123 if l % 2 else 0xaaaa for l in range(32)])
    k.check_v("v59", [0xbbbb if l % 2 else 0x1123 for l in range(32)])
    # counters at M0 + offset; per-lane words at M0 + offset + 4 L
    k.asm("""
        v_mov_b32 v60, 0
        v_mov_b32 v61, 50
        v_mov_b32 v62, 0xa00
        ds_store_b32 v62, v61 offset:16
        WAIT_DS
        s_mov_b32 m0, 0xa00
        s_mov_b32 exec_lo, 0xffff
        ds_append v63 offset:16
        s_mov_b32 exec_lo, -1
        WAIT_DS
        ds_consume v64 offset:16
        WAIT_DS
        ds_load_b32 v65, v62 offset:16
        v_mov_b32 v66, 0x99
        ds_store_b32 v62, v66 offset:0x180
        v_add_nc_u32 v67, 0x5000, v0
        s_mov_b32 m0, 0xb00
        ds_store_addtid_b32 v67
        WAIT_DS
        s_mov_b32 m0, 0xb04
        ds_load_addtid_b32 v68
        WAIT_DS
    """)
    k.check_v("v63", [50 if l < 16 else 0 for l in range(32)]).check_v("v64", 66)
    k.check_v("v65", 34)
    k.check_v("v68", [0x5000 + l + 1 if l < 31 else 0x99 for l in range(32)])
    if t.gen == 12:
        k.asm("""
            v_add_nc_u32 v70, 0xc00, v1
            ds_store_b32 v70, v0
            v_add_nc_u32 v71, 0xd00, v1
            ds_store_b32 v71, v0
            v_mov_b32 v72, 16
            WAIT_DS
            ds_cond_sub_rtn_u32 v73, v70, v72
            ds_sub_clamp_rtn_u32 v74, v71, v72
            WAIT_DS
            ds_load_b32 v75, v70
            ds_load_b32 v76, v71
            v_sub_nc_u32 v77, 124, v1
            v_add_nc_u32 v78, 700, v0
            s_mov_b32 exec_lo, 0xffff
            ds_bpermute_fi_b32 v79, v77, v78
            ds_bpermute_b32 v80, v77, v78
            s_mov_b32 exec_lo, -1
            WAIT_DS
        """)
        k.check_v("v73", list(range(32))).check_v("v74", list(range(32)))
        k.check_v("v75", [l - 16 if l >= 16 else l for l in range(32)])
        k.check_v("v76", [l - 16 if l >= 16 else 0 for l in range(32)])
        # lane L reads lane 31 - L: from lanes 16-31, which EXEC leaves out
        k.check_v("v79", [731 - l if l < 16 else ANY for l in range(32)])
        k.check_v("v80", [0 if l < 16 else ANY for l in range(32)])
    return k


CASES = [lds, lds_atomics]
