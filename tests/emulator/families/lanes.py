"""Cross-lane moves: V_READLANE_B32 (lane S1[4:0] in wave32, whether active or not),
V_WRITELANE_B32 (writes one lane, whatever EXEC says), V_READFIRSTLANE_B32 (the lowest
active lane; lane 0 when EXEC is 0), V_PERMLANE16_B32 and V_PERMLANEX16_B32 (each active lane
of a row of 16 takes the lane its 4-bit field of {S2, S1} names, of its own row or of the
other), V_SWAP_B32 (the two registers exchanged in active lanes)."""
from emutest import Kernel, KEEP


def value(l):
    return 5 * l + 1


def lanes(t):
    k = Kernel(t, "lanes")
    k.asm("""
        v_mul_u32_u24 v2, 5, v0
        v_add_nc_u32 v2, 1, v2
        v_readlane_b32 s4, v2, 7
        s_mov_b32 s5, 19
        v_readlane_b32 s6, v2, s5
        s_mov_b32 s5, 0x3d
        v_readlane_b32 s7, v2, s5
    """)
    k.check_s("s4", value(7)).check_s("s6", value(19)).check_s("s7", value(0x3d & 31))
    # readfirstlane under a partial EXEC, and with EXEC = 0
    k.asm("""
        s_mov_b32 exec_lo, 0xfff0
        v_readfirstlane_b32 s8, v2
        s_mov_b32 exec_lo, 0x80000000
        v_readfirstlane_b32 s9, v2
        s_mov_b32 exec_lo, 0
        v_readfirstlane_b32 s10, v2
        s_mov_b32 exec_lo, -1
    """)
    k.check_s("s8", value(4)).check_s("s9", value(31)).check_s("s10", value(0))
    # readlane of an inactive lane
    k.asm("""
        s_mov_b32 exec_lo, 1
        v_readlane_b32 s11, v2, 30
        s_mov_b32 exec_lo, -1
    """)
    k.check_s("s11", value(30))
    # writelane: one lane, active or not; the others keep their value
    k.asm("""
        v_mov_b32 v3, 0x77
        s_mov_b32 s12, 0x1234
        v_writelane_b32 v3, s12, 10
        s_mov_b32 exec_lo, 0xffff0000
        s_mov_b32 s13, 2
        v_writelane_b32 v3, 0x4321, s13
        s_mov_b32 s13, 0x3f
        v_writelane_b32 v3, 0x5555, s13
        s_mov_b32 exec_lo, -1
    """)
    want = [0x77] * 32
    want[10], want[2], want[31] = 0x1234, 0x4321, 0x5555
    k.check_v("v3", want)
    # readlane into a scalar then back to every lane: a broadcast
    k.asm("""
        v_readlane_b32 s14, v2, 13
        v_mov_b32 v4, s14
    """)
    k.check_v("v4", value(13))
    return k



def movrel(t):
    """V_MOVRELS_B32 reads v[src + M0], V_MOVRELD_B32 writes v[dst + M0] (its source any
    operand), V_MOVRELSD_B32 both; active lanes only. LLVM emits them for a private array
    indexed by a value held in registers."""
    k = Kernel(t, "movrel")
    k.asm("""
        v_mov_b32 v10, 100
        v_mov_b32 v11, 101
        v_mov_b32 v12, 102
        v_mov_b32 v13, 103
        s_mov_b32 m0, 2
        v_movrels_b32 v4, v10
        v_mov_b32 v5, 0x55
        s_mov_b32 m0, 3
        v_movreld_b32 v10, v5
        v_movreld_b32 v11, 7
        s_mov_b32 m0, 1
        v_movrelsd_b32 v11, v10
        v_mov_b32 v6, 0x99
        s_mov_b32 exec_lo, 0xffff
        s_mov_b32 m0, 0
        v_movreld_b32 v6, v0
        s_mov_b32 exec_lo, -1
    """)
    # v4 = v12; v13 = 0x55; v14 = 7; v12 = v11 = 101; v6 the lane id in the 16 active lanes
    k.check_v("v4", 102).check_v("v13", 0x55).check_v("v14", 7).check_v("v12", 101)
    k.check_v("v6", [l if l < 16 else 0x99 for l in range(32)])
    return k


def permlane_swap(t):
    k = Kernel(t, "permlane_swap")
    reverse = [15 - i for i in range(16)]
    identity = list(range(16))
    sel = lambda fields: (sum(f << 4 * i for i, f in enumerate(fields[:8])),
                          sum(f << 4 * i for i, f in enumerate(fields[8:])))
    r1, r2 = sel(reverse)
    i1, i2 = sel(identity)
    k.asm(f"""
        v_mul_u32_u24 v2, 5, v0
        v_add_nc_u32 v2, 1, v2
        s_mov_b32 s4, {r1:#x}
        s_mov_b32 s5, {r2:#x}
        v_permlane16_b32 v3, v2, s4, s5
        s_mov_b32 s6, {i1:#x}
        s_mov_b32 s7, {i2:#x}
        v_permlanex16_b32 v4, v2, s6, s7
        v_mov_b32 v5, 7
        s_mov_b32 exec_lo, 0xffff
        v_permlanex16_b32 v5, v2, s4, s5
        s_mov_b32 exec_lo, -1
        v_mov_b32 v6, v0
        v_add_nc_u32 v7, 100, v0
        s_mov_b32 exec_lo, 0xff00ff00
        v_swap_b32 v6, v7
        s_mov_b32 exec_lo, -1
    """)
    k.check_v("v3", [value(l // 16 * 16 + reverse[l % 16]) for l in range(32)])
    k.check_v("v4", [value((1 - l // 16) * 16 + l % 16) for l in range(32)])
    k.check_v("v5", [value(16 + reverse[l % 16]) if l < 16 else 7 for l in range(32)])
    swapped = [0xff00ff00 >> l & 1 for l in range(32)]
    k.check_v("v6", [100 + l if swapped[l] else l for l in range(32)])
    k.check_v("v7", [l if swapped[l] else 100 + l for l in range(32)])
    return k


def movrel_pairs(t):
    """V_MOVRELSD_2_B32 copies v[src + M0[9:0]] to v[dst + M0[25:16]]; V_SWAPREL_B32 swaps the
    two; active lanes only. V_PERMLANE64_B32 (gfx11+) is wave64's: a NOP in wave32."""
    k = Kernel(t, "movrel_pairs")
    k.asm("""
        v_add_nc_u32 v10, 100, v0
        v_add_nc_u32 v11, 200, v0
        v_add_nc_u32 v12, 300, v0
        v_mov_b32 v20, 7
        v_mov_b32 v21, 8
        v_mov_b32 v22, 9
        s_mov_b32 m0, 0x00020001
        v_movrelsd_2_b32 v20, v10
        s_mov_b32 exec_lo, 0xffff0000
        s_mov_b32 m0, 0x00010002
        v_swaprel_b32 v20, v10
        s_mov_b32 exec_lo, -1
        v_mov_b32 v30, 5
    """)
    if t.gen >= 11:
        k.asm("v_permlane64_b32 v30, v0")
    # v22 = v11; then, in lanes 16-31, v21 <-> v12
    k.check_v("v22", [200 + l for l in range(32)])
    k.check_v("v21", [8 if l < 16 else 300 + l for l in range(32)])
    k.check_v("v12", [300 + l if l < 16 else 8 for l in range(32)])
    k.check_v("v30", 5)
    return k


def permlane_var(t):
    """gfx12's V_PERMLANE16_VAR_B32 and V_PERMLANEX16_VAR_B32: lane L takes the lane of its
    own row (or, x16, of the other row) that its S1[3:0] names; active lanes only."""
    if t.gen < 12:
        return None
    k = Kernel(t, "permlane_var")
    select = [(7 * l + 3) % 16 | (l << 8) for l in range(32)]
    k.input("v3", select)
    k.asm("""
        v_add_nc_u32 v2, 500, v0
        v_mov_b32 v4, 9
        v_mov_b32 v5, 9
        s_mov_b32 exec_lo, 0xfffffffe
        v_permlane16_var_b32 v4, v2, v3
        v_permlanex16_var_b32 v5, v2, v3
        s_mov_b32 exec_lo, -1
    """)
    own = lambda l: 500 + (l // 16) * 16 + (select[l] & 15)
    other = lambda l: 500 + (1 - l // 16) * 16 + (select[l] & 15)
    k.check_v("v4", [9 if l == 0 else own(l) for l in range(32)])
    k.check_v("v5", [9 if l == 0 else other(l) for l in range(32)])
    return k


def swap_b16(t):
    """gfx11's true-16 V_SWAP_B16 (tmp = D0.b16; D0.b16 = S0.b16; S0.b16 = tmp): the halves
    named (.l bits 15:0, .h bits 31:16) trade places, the other halves stay; inactive lanes
    keep both. LLVM 22 assembles it only with true-16 registers, which these kernels are not
    built with: the words are given as assembled by llvm-mc -mattr=+real-true16."""
    if t.gen != 11:
        return None
    k = Kernel(t, "swap_b16")
    a = [(0x1000 + 7 * l) << 16 | (0x2000 + l) for l in range(32)]
    b = [(0x3000 + l) << 16 | (0x4000 + 5 * l) for l in range(32)]
    c = [(0x5000 + l) << 16 | (0x6000 + l) for l in range(32)]
    k.input("v5", a).input("v6", b).input("v7", c).input("v8", a).input("v9", b)
    k.asm("""
        .long 0x7e0acd86 ; v_swap_b16 v5.l, v6.h
        .long 0x7f0ecd07 ; v_swap_b16 v7.h, v7.l
        s_mov_b32 exec_lo, 0x5555aaaa
        .long 0x7f10cd89 ; v_swap_b16 v8.h, v9.h
        s_mov_b32 exec_lo, -1
    """)
    half = lambda x, h: x >> 16 * h & 0xffff
    k.check_v("v5", [x & 0xffff0000 | half(y, 1) for x, y in zip(a, b)])
    k.check_v("v6", [y & 0x0000ffff | half(x, 0) << 16 for x, y in zip(a, b)])
    k.check_v("v7", [half(x, 0) << 16 | half(x, 1) for x in c])
    active = lambda l: 0x5555aaaa >> l & 1
    k.check_v("v8", [(x & 0xffff | half(y, 1) << 16) if active(l) else x
                     for l, (x, y) in enumerate(zip(a, b))])
    k.check_v("v9", [(y & 0xffff | half(x, 1) << 16) if active(l) else y
                     for l, (x, y) in enumerate(zip(a, b))])
    return k


CASES = [lanes, movrel, permlane_swap, movrel_pairs, permlane_var, swap_b16]
