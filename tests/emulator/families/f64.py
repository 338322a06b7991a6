"""f64 arithmetic: V_FMA_F64 rounds once, V_ADD_F64 and V_MUL_F64 with source modifiers, and
a 32-bit literal read by an f64 operand, which is the high half of the double (the low half
zero); V_TRIG_PREOP_F64."""
import math
import random
import struct
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


def two_over_pi_bits(count):
    """The first COUNT bits of 2/pi's fraction as an integer, from Machin's formula."""
    def arctan_inverse(x, one):
        total = term = one // x
        n, sign = 1, -1
        while term:
            term //= x * x
            total += sign * (term // (2 * n + 1))
            sign, n = -sign, n + 1
        return total
    one = 1 << (count + 64)
    pi = 4 * (4 * arctan_inverse(5, one) - arctan_inverse(239, one))
    return (2 * one << count) // pi


def trig_preop(t):
    """V_TRIG_PREOP_F64 (the Payne-Hanek reduction of LLVM's f64 sin and cos): 53 bits of
    2/pi's 1201-bit fraction, from bit 53 * S1[4:0] on, moved on by exponent(S0) - 1077 where
    that is positive, scaled down to their place (and up 2^128 for exponent(S0) >= 1968)."""
    k = Kernel(t, "trig_preop")
    bits = two_over_pi_bits(1201)
    xs = [1.0, 3.5, 2.0 ** 100, -(2.0 ** 1000), 2.0 ** 60, 1e300, 0.0, 2.0 ** -30]
    segments = [0, 1, 2, 3, 0, 22, 1, 31]
    lanes = [(xs[l % 8], segments[(l // 8 + l) % 8]) for l in range(32)]
    k.input("v[2:3]", [struct.unpack("<Q", struct.pack("<d", x))[0] for x, _ in lanes], dwords=2)
    k.input("v4", [segment for _, segment in lanes])
    k.asm("v_trig_preop_f64 v[6:7], v[2:3], v4")

    def expect(x, segment):
        exponent = struct.unpack("<Q", struct.pack("<d", x))[0] >> 52 & 0x7ff
        shift = segment * 53 + max(0, exponent - 1077)
        # fraction bits shift + 1 .. shift + 53; those past bit 1201 are zero
        window = (bits << 53 >> (1201 - shift)) if shift <= 1201 else 0
        result = window & ((1 << 53) - 1)
        scale = -53 - shift + (128 if exponent >= 1968 else 0)
        return struct.unpack("<Q", struct.pack("<d", math.ldexp(float(result), scale)))[0]
    k.check_v64("v[6:7]", [expect(x, segment) for x, segment in lanes])
    return k


CASES = [fma_add_mul, f64_literal, trig_preop]
