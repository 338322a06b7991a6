"""Global memory: loads and stores with an SGPR base and a VGPR offset, or a 64-bit VGPR
address and a signed immediate offset; atomics that return the value before the operation
(GLOBAL_ATOMIC_ADD_U32, GLOBAL_ATOMIC_CMPSWAP_B32 with DATA = { cmp, src } and
GLOBAL_ATOMIC_CMPSWAP_B64 with DATA[63:0] = src, DATA[127:64] = cmp) and a non-returning
add from every lane to one word."""
import random

from emutest import Kernel, M32, M64

R = random.Random(7)


def loads_stores(t):
    k = Kernel(t, "loads_stores")
    a = [R.getrandbits(32) for _ in range(32)]
    b = [R.getrandbits(64) for _ in range(32)]
    before = [R.getrandbits(32) for _ in range(32)]
    k.data(before)
    off_a = k.data(a)
    off_b = k.data(b, dwords=2)
    k.asm(f"""
        v_add_nc_u32 v2, {off_a:#x}, v1
        global_load_b32 v3, v2, s[2:3]
        v_lshlrev_b32 v4, 3, v0
        v_add_nc_u32 v4, {off_b:#x}, v4
        global_load_b64 v[5:6], v4, s[2:3]
        v_add_co_u32 v7, vcc_lo, s2, v2
        v_add_co_ci_u32_e64 v8, null, s3, 0, vcc_lo
        global_load_b32 v9, v[7:8], off offset:4
        global_load_b32 v10, v[7:8], off offset:-128
        WAIT_LOAD
    """)
    k.check_v("v3", a)
    k.check_v("v5", [x & M32 for x in b]).check_v("v6", [x >> 32 for x in b])
    # offset 4: the next lane's word; lane 31's is the first word of the next slot
    k.check_v("v9", a[1:] + [b[0] & M32])
    # -128: the same lane's word in the slot before
    k.check_v("v10", before)
    # a 64-bit store
    out = k.slot(2)
    k.asm(f"""
        v_lshlrev_b32 v11, 3, v0
        v_add_nc_u32 v11, {out * 32 * 4:#x}, v11
        global_store_b64 v11, v[5:6], s[2:3]
    """)
    for l in range(32):
        k.expect[out * 32 + 2 * l] = b[l] & M32
        k.expect[out * 32 + 2 * l + 1] = b[l] >> 32
    return k


def atomics(t):
    k = Kernel(t, "atomics")
    mem = [R.getrandbits(32) for _ in range(32)]
    add = [R.getrandbits(32) for _ in range(32)]
    off = k.data(mem, expect=[(m + a) & M32 for m, a in zip(mem, add)])
    k.input("v3", add)
    k.asm(f"""
        v_add_nc_u32 v2, {off:#x}, v1
        global_atomic_add_u32 v4, v2, v3, s[2:3] RTN
        WAIT_LOAD
    """)
    k.check_v("v4", mem)
    # every lane adds to one word
    total = k.data([0x1000] + [0] * 31, expect=[0x1000 + sum(range(32)) * 3] + [0] * 31)
    k.asm(f"""
        v_mov_b32 v5, {total:#x}
        v_mul_u32_u24 v6, 3, v0
        global_atomic_add_u32 v5, v6, s[2:3]
        WAIT_STORE
    """)
    # 32-bit compare-swap: even lanes match
    mem32 = [R.getrandbits(32) for _ in range(32)]
    src32 = [R.getrandbits(32) for _ in range(32)]
    cmp32 = [m if l % 2 == 0 else m ^ 1 for l, m in enumerate(mem32)]
    off32 = k.data(mem32, expect=[s if l % 2 == 0 else m for l, (m, s) in enumerate(zip(mem32, src32))])
    k.input("v[8:9]", [s | c << 32 for s, c in zip(src32, cmp32)], dwords=2)
    k.asm(f"""
        v_add_nc_u32 v7, {off32:#x}, v1
        global_atomic_cmpswap_b32 v10, v7, v[8:9], s[2:3] RTN
        WAIT_LOAD
    """)
    k.check_v("v10", mem32)
    # 64-bit compare-swap: lanes 0 mod 3 match, the others differ in the high half only
    mem64 = [R.getrandbits(64) for _ in range(32)]
    src64 = [R.getrandbits(64) for _ in range(32)]
    cmp64 = [m if l % 3 == 0 else m ^ (1 << 40) for l, m in enumerate(mem64)]
    off64 = k.data(mem64, dwords=2,
                   expect=[s if l % 3 == 0 else m for l, (m, s) in enumerate(zip(mem64, src64))])
    k.input("v[12:15]", [s | c << 64 for s, c in zip(src64, cmp64)], dwords=4)
    k.asm(f"""
        v_lshlrev_b32 v11, 3, v0
        v_add_nc_u32 v11, {off64:#x}, v11
        global_atomic_cmpswap_b64 v[16:17], v11, v[12:15], s[2:3] RTN
        WAIT_LOAD
    """)
    k.check_v64("v[16:17]", mem64)
    return k


def subtracting_atomics(t):
    """GLOBAL_ATOMIC_CSUB_U32 (gfx10 and gfx11; gfx12: _SUB_CLAMP_U32) stops at 0:
    MEM < DATA ? 0 : MEM - DATA; gfx12's GLOBAL_ATOMIC_COND_SUB_U32 leaves MEM where it cannot
    subtract; GLOBAL_ATOMIC_CMPSWAP_F32 (gfx10: _FCMPSWAP; not on gfx12) compares as floats."""
    k = Kernel(t, "subtracting_atomics")
    mem = list(range(32))
    clamp = {10: "global_atomic_csub", 11: "global_atomic_csub_u32", 12: "global_atomic_sub_clamp_u32"}
    off = k.data(mem, expect=[m - 16 if m >= 16 else 0 for m in mem])
    k.asm(f"""
        v_add_nc_u32 v2, {off:#x}, v1
        v_mov_b32 v3, 16
        {clamp[t.gen]} v4, v2, v3, s[2:3] RTN
        WAIT_LOAD
    """)
    k.check_v("v4", mem)
    if t.gen == 12:
        off = k.data(mem, expect=[m - 16 if m >= 16 else m for m in mem])
        k.asm(f"""
            v_add_nc_u32 v5, {off:#x}, v1
            global_atomic_cond_sub_u32 v6, v5, v3, s[2:3] RTN
            WAIT_LOAD
        """)
        k.check_v("v6", mem)
    else:
        # even lanes hold -0 and compare with +0: they match; odd lanes 1.0 against 2.0
        neg_zero, one, two, half = 0x80000000, 0x3f800000, 0x40000000, 0x3f000000
        fmem = [neg_zero if l % 2 == 0 else one for l in range(32)]
        off = k.data(fmem, expect=[half if l % 2 == 0 else one for l in range(32)])
        k.input("v[8:9]", [half | (0 if l % 2 == 0 else two) << 32 for l in range(32)], dwords=2)
        name = "global_atomic_fcmpswap" if t.gen == 10 else "global_atomic_cmpswap_f32"
        k.asm(f"""
            v_add_nc_u32 v7, {off:#x}, v1
            {name} v10, v7, v[8:9], s[2:3] RTN
            WAIT_LOAD
        """)
        k.check_v("v10", fmem)
    return k


def lane_addressed(t):
    """GLOBAL_LOAD_ADDTID_B32 / GLOBAL_STORE_ADDTID_B32 (gfx10: _DWORD_ADDTID): lane L's
    dword at SGPR_ADDR + offset + 4 L; S_BUFFER_LOAD of bytes, half-words and three dwords
    (gfx12: S_BUFFER_LOAD_U8/I8/U16/I16/B96) at the resource's base + offset."""
    k = Kernel(t, "lane_addressed")
    mem = [0x1000 + 7 * l for l in range(32)]
    off = k.data(mem)
    dest = k.data([0] * 32, expect=[x ^ 0xff for x in mem])
    load, store = (("global_load_dword_addtid", "global_store_dword_addtid") if t.gen == 10 else
                   ("global_load_addtid_b32", "global_store_addtid_b32"))
    k.asm(f"""
        s_add_u32 s8, s2, {off + 8:#x}
        s_addc_u32 s9, s3, 0
        {load} v5, s[8:9] offset:-8
        WAIT_LOAD
        v_xor_b32 v6, 0xff, v5
        s_add_u32 s10, s2, {dest:#x}
        s_addc_u32 s11, s3, 0
        {store} v6, s[10:11]
        WAIT_STORE
    """)
    k.check_v("v5", mem)
    if t.gen == 12:
        words = [0x8081f0f1, 0x12345678, 0x9abcdef0] + [0] * 29
        at = k.data(words)
        k.asm(f"""
            s_mov_b64 s[12:13], s[2:3]
            s_mov_b32 s14, -1
            s_mov_b32 s15, 0
            s_buffer_load_u8 s20, s[12:15], {at + 1:#x}
            s_buffer_load_i8 s21, s[12:15], {at + 3:#x}
            s_buffer_load_u16 s22, s[12:15], {at + 2:#x}
            s_buffer_load_i16 s23, s[12:15], {at + 2:#x}
            s_buffer_load_b96 s[24:26], s[12:15], {at:#x}
            WAIT_SMEM
        """)
        k.check_s("s20", 0xf0).check_s("s21", 0xffffff80).check_s("s22", 0x8081)
        k.check_s("s23", 0xffff8081).check_s("s24", words[0]).check_s("s25", words[1])
        k.check_s("s26", words[2])
    return k


def block(t):
    """gfx12's GLOBAL_LOAD_BLOCK and GLOBAL_STORE_BLOCK: for i in 0..31 where M0[i] is set,
    VGPR[VDST + i] = MEM[addr + 4 i] (the store the other way); a clear bit leaves both the
    register and the word alone, as does an inactive lane."""
    if t.gen < 12:
        return None
    k = Kernel(t, "block")
    words = [R.getrandbits(32) for _ in range(128)]
    src = k.data([sum(words[4 * l + j] << 32 * j for j in range(4)) for l in range(32)], dwords=4)
    load_mask, store_mask = 0xa5c30f71, 0x3c0ff0c3
    marker = [0x11110000 + i for i in range(32)]
    k.asm("\n".join(f"v_mov_b32 v{8 + i}, {marker[i]:#x}" for i in range(32)))
    k.asm(f"""
        v_add_nc_u32 v2, {src:#x}, v1
        s_mov_b32 m0, {load_mask:#x}
        s_mov_b32 exec_lo, 0x7fffffff
        global_load_block v[8:39], v2, s[2:3] offset:8
        WAIT_LOAD
        s_mov_b32 exec_lo, -1
    """)
    loaded = [[words[l + 2 + i] if load_mask >> i & 1 and l < 31 else marker[i]
               for l in range(32)] for i in range(32)]
    # each lane's 32 words at a stride of 128 bytes, so that no two lanes store to one word
    out = k.slot(32)
    k.asm(f"""
        v_lshlrev_b32 v3, 7, v0
        v_add_nc_u32 v3, {out * 32 * 4:#x}, v3
        v_add_co_u32 v4, vcc_lo, s2, v3
        v_add_co_ci_u32_e64 v5, null, s3, 0, vcc_lo
        s_mov_b32 m0, {store_mask:#x}
        s_mov_b32 exec_lo, 0xfffffffe
        global_store_block v[4:5], v[8:39], off
        WAIT_STORE
        s_mov_b32 exec_lo, -1
    """)
    for l in range(1, 32):
        for i in range(32):
            if store_mask >> i & 1:
                k.expect[out * 32 + l * 32 + i] = loaded[i][l]
    for i in (0, 3, 4, 31):
        k.check_v(f"v{8 + i}", [loaded[i][l] for l in range(32)])
    return k


def rows_in_shuffled_order(k, rows, row_bytes):
    """Puts ROWS (an int of ROW_BYTES bytes each) in the buffer and has lane L address row
    order[L] less ROW_BYTES in v2, which the instruction's offset:ROW_BYTES adds back;
    returns order."""
    k.data([0] * 32)  # so that the lowest address, that of row 0 less ROW_BYTES, is in the buffer
    src = k.data(rows, dwords=row_bytes // 4)
    order = list(range(32))
    R.shuffle(order)
    k.input("v2", [src - row_bytes + row_bytes * r for r in order])
    return order


def transposed(t):
    """gfx12's GLOBAL_LOAD_TR_B128: each lane reads eight 16-bit elements at its address; in
    each group of eight lanes, element j of lane L (VGPR j / 2, half j % 2) is element L % 8
    of what lane 8 (L / 8) + j read, the layout measured on gfx1201 by a third party and
    described by Triton's AMD backend (an 8x8 transpose of 16-bit elements per 8 lanes). The
    lanes address rows in a shuffled order, with an immediate offset."""
    if t.gen < 12:
        return None
    k = Kernel(t, "transposed")
    halves = [[R.getrandbits(16) for _ in range(8)] for _ in range(32)]
    order = rows_in_shuffled_order(k, [sum(h << 16 * j for j, h in enumerate(row)) for row in halves], 16)
    k.asm("""
        global_load_tr_b128 v[4:7], v2, s[2:3] offset:16
        WAIT_LOAD
    """)
    row = [halves[order[l]] for l in range(32)]
    for v in range(4):
        k.check_v(f"v{4 + v}", [row[l // 8 * 8 + 2 * v][l % 8] | row[l // 8 * 8 + 2 * v + 1][l % 8] << 16
                                for l in range(32)])
    return k


def transposed_bytes(t):
    """gfx12's GLOBAL_LOAD_TR_B64 as AMD's Composable Kernel uses it for an 8-bit WMMA
    operand: a 16x16 byte tile with rows of 16 bytes, lane l addressing row
    4 (l / 8) + l % 4 at column 8 ((l / 4) % 2); afterwards lane L holds column L % 16, its
    byte j row 8 (L / 16) + j (the layout a third party measured on gfx1201 hardware)."""
    if t.gen < 12:
        return None
    k = Kernel(t, "transposed_bytes")
    tile = [[R.getrandbits(8) for _ in range(16)] for _ in range(16)]
    src = k.data([int.from_bytes(bytes(row), "little") for row in tile] + [0] * 16, dwords=4)
    k.input("v2", [src + 16 * (4 * (l // 8) + l % 4) + 8 * (l // 4 % 2) for l in range(32)])
    k.asm("""
        global_load_tr_b64 v[4:5], v2, s[2:3]
        WAIT_LOAD
    """)
    for v in range(2):
        k.check_v(f"v{4 + v}", [sum(tile[8 * (L // 16) + 4 * v + i][L % 16] << 8 * i for i in range(4))
                                for L in range(32)])
    return k


def transposed_bytes_shuffled(t):
    """GLOBAL_LOAD_TR_B64 with rows at any addresses: byte b of what lane S read goes to lane
    16 (S / 16) + 8 ((S / 4) % 2) + b, byte S % 4 + 4 ((S / 8) % 2) (the measured layout,
    stated from the source's side), with an immediate offset."""
    if t.gen < 12:
        return None
    k = Kernel(t, "transposed_bytes_shuffled")
    rows = [[R.getrandbits(8) for _ in range(8)] for _ in range(32)]
    order = rows_in_shuffled_order(k, [int.from_bytes(bytes(row), "little") for row in rows], 8)
    k.asm("""
        global_load_tr_b64 v[4:5], v2, s[2:3] offset:8
        WAIT_LOAD
    """)
    result = [[0] * 8 for _ in range(32)]
    for S in range(32):
        for b in range(8):
            result[16 * (S // 16) + 8 * (S // 4 % 2) + b][S % 4 + 4 * (S // 8 % 2)] = rows[order[S]][b]
    for v in range(2):
        k.check_v(f"v{4 + v}", [sum(result[L][4 * v + i] << 8 * i for i in range(4)) for L in range(32)])
    return k


def transposed_partial(t):
    """What lanes left out of EXEC contribute to a transposing load is not described: the
    emulator ends the launch with a message rather than guess."""
    if t.gen < 12:
        return None
    k = Kernel(t, "transposed_partial")
    k.asm("""
        v_mov_b32 v2, 0
        s_mov_b32 exec_lo, 0xffff
    .globl transposed_partial_here
    transposed_partial_here:
        global_load_tr_b128 v[4:7], v2, s[2:3]
    """)
    return k.expect_fault("transposed_partial_here", "global_load_tr_b128 v[4:7], v2, s[2:3] with "
                          "EXEC 0x0000ffff: a transposing load is emulated with all 32 lanes only")


CASES = [loads_stores, atomics, subtracting_atomics, lane_addressed, block, transposed,
         transposed_partial, transposed_bytes, transposed_bytes_shuffled]
