"""VOPD (gfx11, gfx12): two VALU operations in one instruction, X :: Y, both executed;
one literal may serve both halves."""
from fractions import Fraction

from emutest import Kernel, M32, f32, fop


def dual(t):
    if t.gen < 11:
        return None
    k = Kernel(t, "dual")
    a = [f32(Fraction(l + 1, 4)) for l in range(32)]
    b = [f32(Fraction(3 * l - 40, 8)) for l in range(32)]
    k.input("v4", a).input("v5", b)
    k.asm("""
        v_mov_b32 v6, 0x77
        v_mov_b32 v7, 0x77
        v_dual_mov_b32 v2, v0 :: v_dual_add_f32 v3, v5, v4
        v_dual_mul_f32 v8, v4, v5 :: v_dual_mov_b32 v9, 0x1234
        v_dual_mov_b32 v10, 0x4567 :: v_dual_lshlrev_b32 v11, 0x4567, v1
        v_dual_subrev_f32 v16, v4, v5 :: v_dual_add_nc_u32 v17, v2, v0
        v_dual_sub_f32 v12, v5, v4 :: v_dual_and_b32 v13, 0xff, v1
    """)
    k.check_v("v2", list(range(32)))
    k.check_v("v3", [fop("add", y, x) for x, y in zip(a, b)])
    k.check_v("v8", [fop("mul", x, y) for x, y in zip(a, b)]).check_v("v9", 0x1234)
    k.check_v("v10", 0x4567)
    k.check_v("v16", [fop("sub", y, x) for x, y in zip(a, b)]).check_v("v17", [2 * l for l in range(32)])
    k.check_v("v11", [(4 * l << (0x4567 & 31)) & M32 for l in range(32)])
    k.check_v("v12", [fop("sub", y, x) for x, y in zip(a, b)])
    k.check_v("v13", [4 * l & 0xff for l in range(32)])
    # v_dual_cndmask_b32 reads VCC; a partial EXEC applies to both halves
    k.asm("""
        v_mov_b32 v14, 0x99
        v_mov_b32 v15, 1.0
        v_cmp_gt_u32 vcc_lo, 10, v0
        s_mov_b32 exec_lo, 0x0000ffff
        v_dual_cndmask_b32 v14, 1, v6 :: v_dual_fmac_f32 v15, v4, v5
        s_mov_b32 exec_lo, -1
    """)
    k.check_v("v14", [0x77 if l < 10 else 1 if l < 16 else 0x99 for l in range(32)])
    k.check_v("v15", [fop("fma", x, y, f32(1)) if l < 16 else f32(1)
                      for l, (x, y) in enumerate(zip(a, b))])
    return k


CASES = [dual]
