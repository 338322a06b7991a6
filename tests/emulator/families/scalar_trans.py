"""RDNA4's transcendental VALU operations with a scalar operand and result (v_s_exp, v_s_log,
v_s_rcp, v_s_rsq, v_s_sqrt; f32 and f16): the ISA's D0 = op(S0) into an SGPR, the f16 forms
zeroing the high half, with the VOP3 source modifiers. The values are exact in the result
type, so the units' own error does not enter."""
import struct
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


def h(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def scalar_f16(t):
    """RDNA4's scalar f16 arithmetic (S_ADD_F16 ... S_RNDNE_F16: D0.f16 = op(S0.f16, S1.f16),
    checked in the low half; rounded once, to nearest even), its compares into SCC,
    S_MAXIMUM_F32/F16 and S_MINIMUM_F32 (a NaN wins, the signaling one quieted; -0 below +0)
    and S_CVT_PK_RTZ_F16_F32 (both halves rounded toward zero)."""
    if t.gen < 12:
        return None
    k = Kernel(t, "scalar_f16")
    a, b, c = 1.375, -0.6875, 3.5
    k.asm(f"""
        s_mov_b32 s4, {h(a):#x}
        s_mov_b32 s5, {h(b):#x}
        s_mov_b32 s6, {h(c):#x}
        s_add_f16 s10, s4, s5
        s_sub_f16 s11, s4, s5
        s_mul_f16 s12, s4, s5
        s_mov_b32 s13, s6
        s_fmac_f16 s13, s4, s5
        s_min_num_f16 s14, s4, s5
        s_max_num_f16 s15, s4, s5
        s_ceil_f16 s16, s5
        s_floor_f16 s17, s5
        s_trunc_f16 s18, s6
        s_rndne_f16 s19, s6
        s_cmp_lt_f16 s5, s4
        s_cselect_b32 s20, 1, 0
        s_cmp_u_f16 s5, s4
        s_cselect_b32 s21, 1, 0
        s_mov_b32 s7, 0x7d00
        s_maximum_f16 s22, s7, s4
        s_mov_b32 s8, 0x80000000
        s_maximum_f32 s23, s8, 0
        s_minimum_f32 s24, s8, 0
        s_mov_b32 s9, {f32(1 + Fraction(3, 4096)):#x}
        s_cvt_pk_rtz_f16_f32 s25, s9, s8
    """)
    for reg in range(10, 23):
        k.asm(f"s_and_b32 s{reg}, s{reg}, 0xffff")
    k.check_s("s10", h(a + b)).check_s("s11", h(a - b)).check_s("s12", h(a * b))
    k.check_s("s13", h(a * b + c)).check_s("s14", h(b)).check_s("s15", h(a))
    k.check_s("s16", h(-0.0)).check_s("s17", h(-1.0)).check_s("s18", h(3.0)).check_s("s19", h(4.0))
    k.check_s("s20", 1).check_s("s21", 0).check_s("s22", 0x7f00)
    k.check_s("s23", 0).check_s("s24", 0x80000000)
    # 1 + 3/4096 toward zero is 1.0 (to nearest it would be 1 + 1/1024); -0.0 in the high half
    k.check_s("s25", 0x3c00 | 0x8000 << 16)
    return k


CASES = [scalar_trans, scalar_f16]
