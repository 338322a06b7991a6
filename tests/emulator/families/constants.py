"""Inline constants and literals: integers -16..64 inline, others a 32-bit literal; the float
inline constants (+-0.5, +-1.0, +-2.0, +-4.0 and 1/(2*pi)) take the width of the operand
that reads them (an f32's bits in 32-bit operations, an f64's in 64-bit ones); a literal in
VOP2 and in VOP3 (gfx10+)."""
from fractions import Fraction

from emutest import Kernel, M32, M64, f32, f64, v32, v64

# 1/(2*pi) as the ISA gives it for each width
INV_2PI_F32 = 0x3e22f983
INV_2PI_F64 = 0x3fc45f306dc9c882


def inline_32(t):
    k = Kernel(t, "inline_32")
    floats = {"0.5": 0x3f000000, "-0.5": 0xbf000000, "1.0": 0x3f800000, "-1.0": 0xbf800000,
              "2.0": 0x40000000, "-2.0": 0xc0000000, "4.0": 0x40800000, "-4.0": 0xc0800000,
              "0.15915494": INV_2PI_F32}
    for i, (text, bits) in enumerate(floats.items()):
        assert text == "0.15915494" or f32(Fraction(text)) == bits
        k.asm(f"v_mov_b32 v{2 + i}, {text}")
        k.check_v(f"v{2 + i}", bits)
    for i, n in enumerate((-16, -1, 0, 64, -17, 65)):   # -17 and 65 are literals
        k.asm(f"v_mov_b32 v{20 + i}, {n}")
        k.check_v(f"v{20 + i}", n & M32)
    # a float constant read by an integer operation is the f32's bit pattern
    k.asm("v_add_nc_u32 v30, 1.0, v0")
    k.check_v("v30", [0x3f800000 + l for l in range(32)])
    # scalar: an inline -1 with a literal
    k.asm("""
        s_mov_b32 s4, 0x80000000
        s_add_u32 s5, s4, -1
        s_mov_b32 s6, 0.5
    """)
    k.check_s("s5", 0x7fffffff).check_s("s6", 0x3f000000)
    return k


def literals_32(t):
    k = Kernel(t, "literals_32")
    k.asm("""
        v_mov_b32 v2, 0x12345678
        v_add_nc_u32 v3, 0x7ffff000, v0
        v_bfe_u32 v4, 0xabcdef12, 8, 12
        v_mov_b32 v5, 2.0
        v_mul_f32 v6, 0x40490fdb, v5
        v_mov_b32 v7, 1.0
        v_add_f32 v8, 0.15915494, v7
        v_fma_f32 v9, 0.5, v7, -4.0
        v_add_f32 v10, 0x3fc00000, v7
    """)
    k.check_v("v2", 0x12345678)
    k.check_v("v3", [0x7ffff000 + l for l in range(32)])
    k.check_v("v4", (0xabcdef12 >> 8) & 0xfff)
    k.check_v("v6", f32(v32(0x40490fdb) * 2))
    k.check_v("v8", f32(v32(INV_2PI_F32) + 1))
    k.check_v("v9", f32(Fraction(1, 2) * 1 - 4))
    k.check_v("v10", f32(Fraction(3, 2) + 1))
    return k


def inline_64(t):
    """Float inline constants read by 64-bit operations are f64 values; integer ones are
    sign-extended to 64 bits."""
    k = Kernel(t, "inline_64")
    k.asm("""
        s_mov_b64 s[4:5], -1
        s_mov_b64 s[6:7], 0.5
        s_mov_b64 s[8:9], -4.0
        s_mov_b64 s[10:11], 0.15915494309189532
        s_mov_b64 s[12:13], 1.0
        s_mov_b64 s[14:15], -16
    """)
    k.check_s64("s[4:5]", M64).check_s64("s[6:7]", f64(Fraction(1, 2)))
    k.check_s64("s[8:9]", f64(-4)).check_s64("s[10:11]", INV_2PI_F64)
    k.check_s64("s[14:15]", (-16) & M64)
    k.asm("""
        v_mov_b32 v2, s12
        v_mov_b32 v3, s13
        v_add_f64 v[4:5], 0.5, v[2:3]
        v_mul_f64 v[6:7], 0.15915494309189532, v[2:3]
        v_fma_f64 v[8:9], -4.0, v[2:3], 2.0
    """)
    k.check_v64("v[4:5]", f64(Fraction(3, 2)))
    k.check_v64("v[6:7]", INV_2PI_F64)
    k.check_v64("v[8:9]", f64(-2))
    assert v64(f64(-2)) == -2
    return k


CASES = [inline_32, literals_32, inline_64]
