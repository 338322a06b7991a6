"""The MODE register through S_GETREG_B32 / S_SETREG_B32 / S_SETREG_IMM32_B32 (hwreg(MODE,
offset, size)): bits 3:0 the rounding modes (f32 in 1:0: 0 nearest even, 1 +inf, 2 -inf,
3 zero), bits 5:4 the f32 denormal mode (0 flush inputs and outputs, 1 allow inputs and
flush outputs, 2 flush inputs and allow outputs, 3 allow both), bits 7:6 that of f64/f16;
a later f32 operation follows them."""
from fractions import Fraction

from emutest import Kernel, f32, fop

TINY = 1                       # 2**-149, the smallest subnormal
A, B = f32(Fraction(1, 2 ** 100)), f32(Fraction(1, 2 ** 30))   # A * B = 2**-130, subnormal
BIG = f32(2 ** 30)


def denormals(t):
    k = Kernel(t, "denormals")
    k.asm(f"""
        s_getreg_b32 s4, hwreg(HW_REG_MODE, 4, 4)
        v_mov_b32 v2, {TINY}
        v_mov_b32 v3, {A:#x}
        v_mov_b32 v4, {B:#x}
        v_mov_b32 v5, {BIG:#x}
        v_add_f32 v6, v2, v2
        v_mul_f32 v7, v3, v4
    """)
    # the descriptor's modes: f32 and f64 denormals allowed (3 and 3)
    k.check_s("s4", 0xf)
    k.check_v("v6", 2).check_v("v7", fop("mul", A, B))
    assert fop("mul", A, B) == 1 << 19
    # 0: flush inputs and outputs
    k.asm("""
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0
        s_getreg_b32 s5, hwreg(HW_REG_MODE, 4, 4)
        v_add_f32 v8, v2, v2
        v_mul_f32 v9, v3, v4
        v_mul_f32 v10, v2, v5
    """)
    k.check_s("s5", 0xc).check_v("v8", 0).check_v("v9", 0).check_v("v10", 0)
    # 2: flush inputs, allow outputs
    k.asm("""
        s_mov_b32 s6, 2
        s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s6
        v_add_f32 v11, v2, v2
        v_mul_f32 v12, v3, v4
        v_mul_f32 v13, v2, v5
    """)
    k.check_v("v11", 0).check_v("v12", fop("mul", A, B)).check_v("v13", 0)
    # 1: allow inputs, flush outputs
    k.asm("""
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 1
        v_add_f32 v14, v2, v2
        v_mul_f32 v15, v3, v4
        v_mul_f32 v16, v2, v5
        s_getreg_b32 s7, hwreg(HW_REG_MODE, 0, 8)
    """)
    k.check_v("v14", 0).check_v("v15", 0).check_v("v16", fop("mul", TINY, BIG))
    k.check_s("s7", 0xc << 4 | 1 << 4)
    # 3 again: the f32 operation keeps the subnormal
    k.asm("""
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
        v_add_f32 v17, v2, v2
    """)
    k.check_v("v17", 2)
    return k


def rounding(t):
    """f32 rounding modes: 1 + 0.75 ulp rounds up to nearest, down toward zero and -inf, up
    toward +inf; -(1 + 0.25 ulp) toward -inf rounds away from zero."""
    k = Kernel(t, "rounding")
    one, small = f32(1), f32(Fraction(3, 2 ** 25))
    neg_one, quarter = f32(-1), f32(Fraction(1, 2 ** 25))
    k.asm(f"""
        v_mov_b32 v2, {one:#x}
        v_mov_b32 v3, {small:#x}
        v_mov_b32 v4, {neg_one:#x}
        v_mov_b32 v5, {quarter:#x}
    """)
    for mode, name in ((0, "rne"), (1, "rup"), (2, "rdn"), (3, "rtz")):
        r = f"v{10 + 2 * mode}"
        r2 = f"v{11 + 2 * mode}"
        k.asm(f"""
            s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), {mode}
            v_add_f32 {r}, v2, v3
            v_sub_f32 {r2}, v4, v5
        """)
        k.check_v(r, fop("add", one, small, mode=name))
        k.check_v(r2, fop("sub", neg_one, quarter, mode=name))
    k.asm("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 0")
    k.asm("s_getreg_b32 s4, hwreg(HW_REG_MODE, 0, 4)")
    k.check_s("s4", 0)
    return k


CASES = [denormals, rounding]
