"""f64 arithmetic: V_FMA_F64 rounds once, V_ADD_F64 and V_MUL_F64 with source modifiers, and
a 32-bit literal read by an f64 operand, which is the high half of the double (the low half
zero)."""
import random
from fractions import Fraction

from emutest import F64, Kernel, f64, fop

SIGN = 1 << 63


def values(seed):
    r = random.Random(seed)
    vs = [Fraction(1) + Fraction(1, 2 ** 30), Fraction(-7, 3), Fraction(1, 3), Fraction(10 ** 20)]
    while len(vs) < 32:
        vs.append(Fraction(r.randint(-10 ** 6, 10 ** 6), r.randint(1, 10 ** 6)) * 2 ** r.randint(-20, 20))
    return [f64(v) for v in vs]


def fma_add_mul(t):
    k = Kernel(t, "fma_add_mul")
    a, b, c = values(1), values(2), values(3)
    # lane 0: (1 + 2^-30)(1 - 2^-30) - 1 = -2^-60 exactly, which a separate multiply rounds
    # to 0 first
    b[0] = f64(Fraction(1) - Fraction(1, 2 ** 30))
    c[0] = f64(-1)
    k.input("v[2:3]", a, dwords=2).input("v[4:5]", b, dwords=2).input("v[6:7]", c, dwords=2)
    k.asm("""
        v_fma_f64 v[8:9], v[2:3], v[4:5], v[6:7]
        v_mul_f64 v[10:11], v[2:3], v[4:5]
        v_add_f64 v[10:11], v[10:11], v[6:7]
        v_add_f64 v[12:13], -v[2:3], |v[4:5]|
        v_mul_f64 v[14:15], -|v[2:3]|, v[6:7]
    """)
    fma = [fop("fma", x, y, z, fmt=F64) for x, y, z in zip(a, b, c)]
    assert fma[0] == f64(-Fraction(1, 2 ** 60))
    k.check_v64("v[8:9]", fma)
    k.check_v64("v[10:11]", [fop("add", fop("mul", x, y, fmt=F64), z, fmt=F64)
                             for x, y, z in zip(a, b, c)])
    k.check_v64("v[12:13]", [fop("add", x ^ SIGN, y & ~SIGN, fmt=F64) for x, y in zip(a, b)])
    k.check_v64("v[14:15]", [fop("mul", x | SIGN, z, fmt=F64) for x, z in zip(a, c)])
    return k


def f64_literal(t):
    """10.25 is 0x4024800000000000: encodable as the 32-bit literal 0x40248000."""
    k = Kernel(t, "f64_literal")
    a = values(4)
    k.input("v[2:3]", a, dwords=2)
    k.asm("""
        v_add_f64 v[4:5], 10.25, v[2:3]
        v_mul_f64 v[6:7], 0x40248000, v[2:3]
        v_fma_f64 v[8:9], v[2:3], -2.5, v[2:3]
    """)
    lit = f64(Fraction(41, 4))
    assert lit == 0x40248000 << 32
    k.check_v64("v[4:5]", [fop("add", lit, x, fmt=F64) for x in a])
    k.check_v64("v[6:7]", [fop("mul", lit, x, fmt=F64) for x in a])
    k.check_v64("v[8:9]", [fop("fma", x, f64(Fraction(-5, 2)), x, fmt=F64) for x in a])
    return k


CASES = [fma_add_mul, f64_literal]
