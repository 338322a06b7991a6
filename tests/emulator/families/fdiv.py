"""f32 division: V_DIV_SCALE_F32 on each branch of its pseudo-code, and the whole sequence
LLVM emits for an IEEE fdiv (div_scale, rcp, fma refinement, div_fmas, div_fixup), whose
result must be the correctly rounded quotient, subnormal quotients included.

The pseudo-code's reciprocal tests read "1.0 / 64'F(S1.f32) == DENORM.f64". Read literally
(the reciprocal, computed in f64, is an f64 subnormal) they never hold for an f32
denominator; then x / FLT_MAX keeps a subnormal reciprocal and LLVM's sequence misses the
correctly rounded quotient (2**63 / FLT_MAX came out one ulp low in the sweeps). They are read
as "the reciprocal is an f32 subnormal", and the branch where the quotient is subnormal too
scales the denominator down by 2**-64 rather than up (up, a 2**127 denominator overflows to
+inf): the two readings the emulator takes, which the whole sequence below checks by its
quotients."""
from fractions import Fraction

from emutest import F32, Kernel, decode, encode, f32

P2 = Fraction(2)
NAN = 0x7fc00000


def exponent(bits):
    return bits >> 23 & 0xff


def is_denorm(x):
    """X (exact) rounded to f32 is a (nonzero) subnormal."""
    b = encode(x)
    return exponent(b) == 0 and b & 0x7fffff != 0


def ldexp(bits, n):
    return encode(decode(bits) * P2 ** n, negative_zero=bool(bits >> 31))


def reciprocal_is_denorm(a):
    return is_denorm(1 / a)


def div_scale(s0, s1, s2):
    """(D0, VCC) of V_DIV_SCALE_F32 S0, S1, S2, from the pseudo-code."""
    a1, a2 = decode(s1), decode(s2)
    d, vcc = s0, 0
    if a2 == 0 or a1 == 0:
        d = NAN
    elif exponent(s2) - exponent(s1) >= 96:
        vcc = 1
        if decode(s0) == a1:
            d = ldexp(s0, 64)
    elif exponent(s1) == 0:
        d = ldexp(s0, 64)
    elif reciprocal_is_denorm(a1) and is_denorm(a2 / a1):
        vcc = 1
        if decode(s0) == a1:
            d = ldexp(s0, -64)
    elif reciprocal_is_denorm(a1):
        d = ldexp(s0, -64)
    elif is_denorm(a2 / a1):
        vcc = 1
        if decode(s0) == a2:
            d = ldexp(s0, 64)
    elif exponent(s2) <= 23:
        d = ldexp(s0, 64)
    return d, vcc


# (numerator, denominator), exactly
SCALE_CASES = [
    (1, 3),                          # no branch: unchanged, VCC 0
    (0, 3), (5, 0),                  # a zero: NaN
    (P2 ** 100, P2 ** -10),          # exponents 96 or more apart
    (P2 ** -100, P2 ** -140),        # a subnormal denominator
    (1, P2 ** 127),                  # reciprocal (as an f32) and quotient subnormal
    (P2 ** 120, P2 ** 127),          # reciprocal (as an f32) subnormal, quotient normal
    (P2 ** 120, -3 * P2 ** 125),
    (P2 ** -120, P2 ** 20),          # quotient subnormal
    (P2 ** -110, P2 ** -20),         # tiny numerator
    (-7, Fraction(1, 8)),
]


def scale(t):
    k = Kernel(t, "scale")
    cases = (SCALE_CASES * 3)[:32]
    n = [f32(a) for a, _ in cases]
    d = [f32(b) for _, b in cases]
    k.input("v2", n).input("v3", d)
    k.asm("""
        v_div_scale_f32 v4, s10, v3, v3, v2
        v_div_scale_f32 v5, s11, v2, v3, v2
    """)
    den = [div_scale(y, y, x) for x, y in zip(n, d)]
    num = [div_scale(x, y, x) for x, y in zip(n, d)]
    k.check_v("v4", [r for r, _ in den]).check_s("s10", sum(v << l for l, (_, v) in enumerate(den)))
    k.check_v("v5", [r for r, _ in num]).check_s("s11", sum(v << l for l, (_, v) in enumerate(num)))
    return k


def double_rounding_traps():
    """Numerators m * 2**-148 over 3, whose quotient (2m/3) * 2**-149 is a subnormal just off
    a halfway point: rounding it first to 24 bits (a normal number's precision) and then to
    the subnormal grid gives the wrong neighbour."""
    out = []
    for m in range(1 << 23, 1 << 24):
        x = Fraction(2 * m, 3)
        if x >= 1 << 23:
            break
        k, frac = divmod(x, 1)
        if (frac == Fraction(1, 3) and k % 2 == 1) or (frac == Fraction(2, 3) and k % 2 == 0):
            out.append((m * P2 ** -148, Fraction(3)))
            if len(out) == 4:
                break
    return out


DIV_CASES = [
    (1, 3), (2, 7), (-5, Fraction(1, 10)), (Fraction(1, 10), 3), (22, 7),
    (1, Fraction(3, 2) * P2 ** 127),          # subnormal quotient from a huge denominator
    (P2 ** -149, Fraction(3, 4)),             # the smallest subnormal, divided
    (P2 ** -140, 1000), (-(P2 ** -126), 3), (P2 ** -126, -Fraction(5, 4)),
    (P2 ** 127 * Fraction(3, 2), Fraction(1, 2)),  # overflow to infinity
    (P2 ** 127, P2 ** -10),
    (Fraction(123456789, 10 ** 40), Fraction(987654321, 10 ** 5)),
    (P2 ** -130 * 7, 5),
    (3 * P2 ** -149, 2),                      # 1.5 ulps: ties to even, 2 ulps
    (5 * P2 ** -149, 2),                      # 2.5 ulps: 2 ulps
    (P2 ** 63, (2 - P2 ** -23) * P2 ** 127),  # x / FLT_MAX: the reciprocal is subnormal
    (P2 ** 126, 1 - P2 ** -24),               # v_div_fmas's sum rounds once (no false tie)
] + double_rounding_traps()


def quotient(t):
    k = Kernel(t, "quotient")
    cases = (DIV_CASES * 2)[:32]
    n = [f32(a) for a, _ in cases]
    d = [f32(b) for _, b in cases]
    k.input("v11", n).input("v12", d)
    # as LLVM 22 emits it for fdiv float (v11 / v12)
    k.asm("""
        v_div_scale_f32 v3, null, v12, v12, v11
        v_rcp_f32 v4, v3
        v_fma_f32 v5, -v3, v4, 1.0
        v_fmac_f32 v4, v5, v4
        v_div_scale_f32 v5, vcc_lo, v11, v12, v11
        v_mul_f32 v6, v5, v4
        v_fma_f32 v7, -v3, v6, v5
        v_fmac_f32 v6, v7, v4
        v_fma_f32 v3, -v3, v6, v5
        v_div_fmas_f32 v3, v3, v4, v6
        v_div_fixup_f32 v10, v3, v12, v11
    """)
    want = []
    for a, b in cases:
        q = Fraction(f32_value(a)) / Fraction(f32_value(b))
        want.append(encode(q, F32, negative_zero=q == 0 and (a < 0) != (b < 0)))
    k.check_v("v10", want)
    return k


def f32_value(x):
    return decode(f32(x))


CASES = [scale, quotient]
