"""RDNA4's transcendental VALU operations with a scalar operand and result (v_s_exp, v_s_log,
v_s_rcp, v_s_rsq, v_s_sqrt; f32 and f16): the ISA's D0 = op(S0) into an SGPR, the f16 forms
zeroing the high half, with the VOP3 source modifiers. The values are exact in the result
type, so the units' own error does not enter."""
from fractions import Fraction

from emutest import Kernel, f32

FOUR_F16 = 0x4400


def scalar_trans(t):
    if t.gen < 12:
        return None
    k = Kernel(t, "scalar_trans")
    k.asm(f"""
        s_mov_b32 s4, {f32(3):#x}
        v_s_exp_f32 s5, s4
        s_mov_b32 s6, {f32(8):#x}
        v_s_log_f32 s7, s6
        v_s_rcp_f32 s8, 4.0
        v_s_rsq_f32 s9, 4.0
        v_s_sqrt_f32 s10, 4.0
        s_mov_b32 s12, {f32(-4):#x}
        v_s_sqrt_f32 s11, |s12|
        v_s_rcp_f32 s13, -s12
        s_mov_b32 s15, 0xffff4200
        v_s_exp_f16 s16, s15
        s_mov_b32 s18, {FOUR_F16:#x}
        v_s_sqrt_f16 s17, s18
        v_s_rcp_f16 s19, s18
        v_s_rsq_f16 s20, s18
        s_mov_b32 s22, 0x4800
        v_s_log_f16 s21, s22
    """)
    k.check_s("s5", f32(8)).check_s("s7", f32(3)).check_s("s8", f32(Fraction(1, 4)))
    k.check_s("s9", f32(Fraction(1, 2))).check_s("s10", f32(2)).check_s("s11", f32(2))
    k.check_s("s13", f32(Fraction(1, 4)))
    k.check_s("s16", 0x4800).check_s("s17", 0x4000).check_s("s19", 0x3400)
    k.check_s("s20", 0x3800).check_s("s21", 0x4200)
    return k


CASES = [scalar_trans]
