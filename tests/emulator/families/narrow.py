"""Results narrower than their sources, from the RDNA3/RDNA4 pseudo-code: gfx12's
V_CVT_PK_FP8_F32 / V_CVT_PK_BF8_F32 (two f32 into OCP E4M3 or E5M2 bytes of the half
op_sel[2] names, the other half kept; round to nearest even whatever MODE says; a finite
overflow is E4M3's NaN or E5M2's infinity, or the largest finite where MODE's FP16_OVFL is
set) and V_CVT_SR_FP8_F32 / V_CVT_SR_BF8_F32 (S1[31:12], bf8: S1[31:11], added to S0's
mantissa, wrapping within it, then the same conversion into the byte byte_sel names);
V_CVT_PK_U8_F32 (S0 into byte S1[1:0] of S2; the guides leave f32_to_u8 undefined: read as
their other float-to-unsigned conversions, toward zero, saturated, NaN 0); and
V_DOT2_F16_F16 / V_DOT2_BF16_BF16 of gfx11 and gfx12 (S2 plus two products, the accumulator
of the result's type as the pseudo-code declares it, so each += rounds: f16 as MODE says,
bf16 to nearest even). The expected bytes come from a table of every value of the format."""
import random
import struct
from fractions import Fraction

from emutest import F32, Format, Kernel, decode, encode, f32

R = random.Random(97531)
F16 = Format(5, 10)
BF16 = Format(8, 7)


def small_values(bf8):
    """{byte: value} of the finite non-negative bytes of E5M2 (bf8) or E4M3."""
    ebits, mbits = (5, 2) if bf8 else (4, 3)
    bias = (1 << (ebits - 1)) - 1
    out = {}
    for byte in range(0x80):
        e, m = byte >> mbits, byte & ((1 << mbits) - 1)
        if bf8 and e == (1 << ebits) - 1:
            continue
        if not bf8 and byte == 0x7f:
            continue
        v = Fraction(m, 1 << mbits) * Fraction(2) ** (1 - bias) if e == 0 else \
            (1 + Fraction(m, 1 << mbits)) * Fraction(2) ** (e - bias)
        out[byte] = v
    return out


TABLES = {False: small_values(False), True: small_values(True)}


def to_small(bits, bf8, saturate=False):
    """An f32 (bits) into an E4M3 or E5M2 byte: the nearest value, ties to the even byte."""
    sign = 0x80 if bits >> 31 else 0
    nan = sign | (0x7e if bf8 else 0x7f)
    inf = sign | 0x7c if bf8 else nan
    v = decode(bits, F32)
    if v == "nan":
        return nan
    if isinstance(v, str):
        return inf
    a = abs(v)
    table = TABLES[bf8]
    largest = max(table, key=table.get)
    step = table[largest] - table[largest - 1]
    if a >= table[largest] + step / 2:  # beyond the midpoint to the next binade's value
        if a > table[largest] + step / 2 or largest & 1:
            return sign | largest if saturate else inf
    best = min(table, key=lambda b: (abs(table[b] - a), b & 1))
    return sign | best


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


# Inputs: values of both formats, the midpoints between them (ties) and just off them,
# subnormals of both, the largest finite values and beyond, infinities, NaN, zeros.
def conversion_inputs(bf8):
    table = TABLES[bf8]
    values = sorted(table.values())
    out = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x00000001]
    for _ in range(26):
        i = R.randrange(len(values) - 1)
        mid = (values[i] + values[i + 1]) / 2
        for x in (values[i], mid, mid * (1 + Fraction(1, 1 << 20)), mid * (1 - Fraction(1, 1 << 20))):
            out.append(encode(x, F32) | (R.getrandbits(1) << 31))
    top = values[-1]
    step = top - values[-2]
    for x in (top, top + step / 2, top + step / 2 + Fraction(1, 1 << 10), 2 * top, Fraction(10) ** 30):
        out += [encode(x, F32), encode(-x, F32)]
    return out


def pack(t):
    """Both conversions into each half, fp8 and bf8, with FP16_OVFL off and then on."""
    if t.gen != 12:
        return None
    k = Kernel(t, "pack")
    for ovfl in (0, 1):
        k.asm(f"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), {ovfl}")
        for bf8 in (False, True):
            name = "bf8" if bf8 else "fp8"
            inputs = conversion_inputs(bf8)
            for start in range(0, len(inputs), 64):
                chunk = [inputs[(start + i) % len(inputs)] for i in range(64)]
                a, b = chunk[:32], chunk[32:]
                before = [R.getrandbits(32) for _ in range(32)]
                k.input("v2", a).input("v3", b).input("v4", before)
                k.asm(f"""
                    v_mov_b32 v5, v4
                    v_cvt_pk_{name}_f32 v4, v2, v3
                    v_cvt_pk_{name}_f32 v5, v2, -v3 op_sel:[0,0,1]
                """)
                lo = [to_small(x, bf8, ovfl) | to_small(y, bf8, ovfl) << 8 for x, y in zip(a, b)]
                hi = [to_small(x, bf8, ovfl) | to_small(y ^ 0x80000000, bf8, ovfl) << 8
                      for x, y in zip(a, b)]
                k.check_v("v4", [w & 0xffff0000 | p for w, p in zip(before, lo)])
                k.check_v("v5", [w & 0x0000ffff | p << 16 for w, p in zip(before, hi)])
    return k


def stochastic(t):
    """S1's high bits added to S0's mantissa before the conversion, into each byte."""
    if t.gen != 12:
        return None
    k = Kernel(t, "stochastic")
    for bf8 in (False, True):
        name, noise = ("bf8", 11) if bf8 else ("fp8", 12)
        inputs = [x for x in conversion_inputs(bf8) if (x & 0x7f800000) != 0x7f800000][:32]
        inputs += [f32_bits(R.uniform(-400, 400)) for _ in range(32 - len(inputs))]
        rand = [R.getrandbits(32) for _ in range(32)]
        before = [R.getrandbits(32) for _ in range(32)]
        k.input("v2", inputs).input("v3", rand).input("v4", before)
        for byte in range(4):
            k.asm(f"v_cvt_sr_{name}_f32 v4, v2, v3 byte_sel:{byte}")
        result = []
        for x, r, w in zip(inputs, rand, before):
            mixed = x & ~0x7fffff | (x + (r >> noise)) & 0x7fffff
            b = to_small(mixed, bf8)
            result.append(b * 0x01010101)
        k.check_v("v4", result)
    return k


def pack_u8(t):
    """Each byte of S2 replaced in turn: truncation, saturation at 0 and 255, NaN."""
    k = Kernel(t, "pack_u8")
    values = [0.0, -0.0, 0.4, 0.99, 1.0, 1.5, 2.5, 254.99, 255.0, 255.5, 300.0, 1e30, -1.0,
              -0.5, -1e30, float("inf"), float("-inf"), float("nan"), 7.7, 128.5, 77.0]
    values += [R.uniform(-20, 280) for _ in range(32 - len(values))]
    a = [f32_bits(v) for v in values]
    selector = [R.getrandbits(32) for _ in range(32)]
    s2 = [R.getrandbits(32) for _ in range(32)]
    k.input("v2", a).input("v3", selector).input("v4", s2)
    k.asm("v_cvt_pk_u8_f32 v5, v2, v3, v4")

    def u8(bits):
        v = decode(bits, F32)
        if v == "nan" or v == "-inf":
            return 0
        if v == "+inf":
            return 255
        return max(0, min(255, int(v)))  # int() truncates toward zero

    k.check_v("v5", [w & ~(0xff << 8 * (s & 3)) & 0xffffffff | u8(x) << 8 * (s & 3)
                     for x, s, w in zip(a, selector, s2)])
    # a constant selector: byte 2 of S2, and S0 negated
    k.asm("v_cvt_pk_u8_f32 v6, -v2, 2, v4")
    k.check_v("v6", [w & 0xff00ffff | u8(x ^ 0x80000000) << 16 for x, w in zip(a, s2)])
    return k


def dot2_half(t):
    """f16: products of every size, sums that round (ties included) in each step; bf16 the
    same; op_sel[2] takes S2's high half, op_sel[3] writes D's high half, the other kept."""
    if t.gen < 11:
        return None
    k = Kernel(t, "dot2_half")

    def f16_bits(v):
        return encode(v, F16)

    def pick16(fmt):
        while True:
            bits = R.getrandbits(16) & ~(0x7c00 if fmt is F16 else 0x7f80) | \
                (R.randrange(8, 24) if fmt is F16 else R.randrange(120, 136)) << (10 if fmt is F16 else 7)
            v = decode(bits, fmt)
            if not isinstance(v, str):
                return bits

    for fmt, name in ((F16, "f16"), (BF16, "bf16")):
        a = [pick16(fmt) | pick16(fmt) << 16 for _ in range(32)]
        b = [pick16(fmt) | pick16(fmt) << 16 for _ in range(32)]
        c = [pick16(fmt) | pick16(fmt) << 16 for _ in range(32)]
        # ties: S2 + an exact product half an ulp of the result away
        for lane in range(4):
            one = encode(1, fmt)
            a[lane] = one | encode(Fraction(1, 2) if lane % 2 else 1, fmt) << 16
            b[lane] = 0 | encode(Fraction(2) ** (-fmt.mbits - (1 if lane < 2 else 0)), fmt) << 16
            c[lane] = encode(1 + Fraction(lane, 1 << fmt.mbits), fmt)
        k.input("v2", a).input("v3", b).input("v4", c).input("v5", c)

        def expect(x, y, z, high_c):
            t_bits = z >> 16 if high_c else z & 0xffff
            for half in range(2):
                xs, ys = x >> 16 * half & 0xffff, y >> 16 * half & 0xffff
                exact = decode(t_bits, fmt) + decode(xs, fmt) * decode(ys, fmt)
                t_bits = encode(exact, fmt)
            return t_bits

        k.asm(f"""
            v_dot2_{name}_{name} v4, v2, v3, v4
            v_dot2_{name}_{name} v5, v2, v3, v5 op_sel:[0,0,1,1]
        """)
        k.check_v("v4", [z & 0xffff0000 | expect(x, y, z, False) for x, y, z in zip(a, b, c)])
        k.check_v("v5", [z & 0xffff | expect(x, y, z, True) << 16 for x, y, z in zip(a, b, c)])
    # S2 as an inline constant, and negated
    k.input("v6", [0x3c003c00] * 32).input("v7", [0x40004000] * 32)
    k.asm("""
        v_mov_b32 v8, 0
        v_mov_b32 v9, v7
        v_dot2_f16_f16 v8, v6, v7, 1.0
        v_dot2_f16_f16 v9, v6, v7, -v7
    """)
    k.check_v("v8", encode(5, F16))          # 1 + 1*2 + 1*2
    k.check_v("v9", 0x40000000 | encode(2, F16))  # -2 + 2 + 2, the high half kept
    return k


CASES = [pack, stochastic, pack_u8, dot2_half]
