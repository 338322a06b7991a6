"""VOP3 source and output modifiers on f32: neg and abs on each source (abs, then neg: -|x|),
omod (mul:2, mul:4, div:2) then clamp to [0, 1] on the result; and on f16 halves packed."""
from fractions import Fraction

from emutest import Kernel, decode, encode, f32, fop

SIGN = 0x80000000


def neg(b):
    return b ^ SIGN


def ab(b):
    return b & ~SIGN


def omod_clamp(bits, omod=1, clamp=False):
    v = decode(bits) * omod
    r = encode(v, negative_zero=bool(bits >> 31) and v == 0)
    if clamp:
        if decode(r) < 0:
            r = 0
        elif decode(r) > 1:
            r = f32(1)
    return r


def values():
    vs = [Fraction(3, 2), Fraction(-9, 4), Fraction(3, 4), Fraction(-1, 8), Fraction(3),
          Fraction(-1), Fraction(1, 2), Fraction(100), Fraction(-1, 3), Fraction(5, 7),
          Fraction(1, 10), Fraction(-7, 3), Fraction(1), Fraction(-1, 1024), Fraction(12345, 7)]
    vs += [Fraction((-1) ** i * (i * 37 % 101), 16) for i in range(32 - len(vs))]
    return [f32(v) for v in vs]


def modifiers(t):
    k = Kernel(t, "modifiers")
    a = values()
    b = values()[7:] + values()[:7]
    c = values()[13:] + values()[:13]
    k.input("v2", a).input("v3", b).input("v4", c)
    k.asm("""
        v_add_f32_e64 v5, -v2, |v3|
        v_mul_f32_e64 v6, -|v2|, v3 mul:2
        v_add_f32_e64 v7, v2, v3 clamp
        v_fma_f32 v8, v2, -v3, |v4| div:2
        v_mul_f32_e64 v9, v2, v3 clamp mul:4
        v_sub_f32_e64 v10, |v2|, -|v3|
        v_max_f32_e64 v11, -v2, v3
        v_fma_f32 v12, -|v2|, |v3|, -v4 clamp mul:2
    """)
    k.check_v("v5", [fop("add", neg(x), ab(y)) for x, y in zip(a, b)])
    k.check_v("v6", [omod_clamp(fop("mul", neg(ab(x)), y), 2) for x, y in zip(a, b)])
    k.check_v("v7", [omod_clamp(fop("add", x, y), clamp=True) for x, y in zip(a, b)])
    k.check_v("v8", [omod_clamp(fop("fma", x, neg(y), ab(z)), Fraction(1, 2))
                     for x, y, z in zip(a, b, c)])
    k.check_v("v9", [omod_clamp(fop("mul", x, y), 4, True) for x, y in zip(a, b)])
    k.check_v("v10", [fop("sub", ab(x), neg(ab(y))) for x, y in zip(a, b)])
    k.check_v("v11", [neg(x) if decode(neg(x)) > decode(y) else y for x, y in zip(a, b)])
    k.check_v("v12", [omod_clamp(fop("fma", neg(ab(x)), ab(y), neg(z)), 2, True)
                      for x, y, z in zip(a, b, c)])
    return k


def negative_zero(t):
    """neg of +0 is -0: -0 * 1 = -0, and -0 + -0 = -0, while +0 + -0 = +0."""
    k = Kernel(t, "negative_zero")
    k.asm("""
        v_mov_b32 v2, 0
        v_mul_f32_e64 v3, -v2, 1.0
        v_add_f32_e64 v4, -v2, -v2
        v_add_f32_e64 v5, v2, -v2
        v_mul_f32_e64 v6, -|v3|, -1.0
    """)
    k.check_v("v3", SIGN).check_v("v4", SIGN).check_v("v5", 0).check_v("v6", 0)
    return k


def pack_f16(t):
    """v_pack_b32_f16: S1's half above S0's, op_sel choosing which half of each source, neg
    and abs acting on the halves' sign bits."""
    k = Kernel(t, "pack_f16")
    a = [(0x3c00 + 17 * i) | (0xb800 + 5 * i) << 16 for i in range(32)]
    b = [(0x4400 + 3 * i) | (0x8001 + 7 * i) << 16 for i in range(32)]
    k.input("v2", a).input("v3", b)
    k.asm("""
        v_pack_b32_f16 v4, v2, v3
        v_pack_b32_f16 v5, v2, v3 op_sel:[1,1,0]
        v_pack_b32_f16 v6, -v2, |v3| op_sel:[0,1,0]
    """)
    lo, hi = (lambda x: x & 0xffff), (lambda x: x >> 16)
    k.check_v("v4", [lo(x) | lo(y) << 16 for x, y in zip(a, b)])
    k.check_v("v5", [hi(x) | hi(y) << 16 for x, y in zip(a, b)])
    k.check_v("v6", [(lo(x) ^ 0x8000) | (hi(y) & 0x7fff) << 16 for x, y in zip(a, b)])
    return k


def fract(t):
    """v_fract: S0 - floor(S0), never 1: a result that rounds up to 1 is the largest value
    below it of the width; a NaN stays a NaN."""
    k = Kernel(t, "fract")
    k.asm(f"""
        v_fract_f32 v2, {f32(Fraction(5, 4)):#x}
        v_fract_f32 v3, {f32(Fraction(-5, 4)):#x}
        v_fract_f32 v4, 0x7fc00000
        v_fract_f32 v5, {f32(Fraction(-1, 2 ** 30)):#x}
        v_mov_b32 v6, 0
        v_mov_b32 v7, 0
        v_mov_b32 v8, 0
        v_fract_f16 v6, 0x4100
        v_fract_f16 v7, 0x7e00
        v_fract_f16 v8, 0x8400
        v_and_b32 v6, 0xffff, v6
        v_and_b32 v7, 0xffff, v7
        v_and_b32 v8, 0xffff, v8
    """)
    k.check_v("v2", f32(Fraction(1, 4))).check_v("v3", f32(Fraction(3, 4)))
    k.check_v("v4", 0x7fc00000).check_v("v5", 0x3f7fffff)
    # f16: 2.5 -> 0.5; NaN; -2^-14 -> 1 - 2^-14, which rounds to 1: 0x3bff
    k.check_v("v6", 0x3800).check_v("v7", 0x7e00).check_v("v8", 0x3bff)
    return k


CASES = [modifiers, negative_zero, pack_f16, fract]
