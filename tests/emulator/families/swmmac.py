"""gfx12's sparse WMMA, wave32: D += A x B on 16x16 tiles, A 16xK with two of every four
consecutive K kept (2:4 structured sparsity) and stored compressed, the third source an
index VGPR saying where in its group of four each kept element lies. Each case builds a
dense sparse A, B and D here, places the compressed A, its indices, B and D in lanes and
registers by the formulas of AMD's matrix instruction calculator for RDNA4
(amd_matrix_instruction_calculator, the V_SWMMAC_* entries: 'A[i][k]', 'compression[i][k]'
and 'B[k][j]' for each element width), and expects D to hold A x B + D worked out here.
Float values keep every partial sum exact, as in families/wmma.py; integer ones are random.
Covered: the eleven opcodes, index_key:1 (the index register's high half), the 16-bit
float forms' neg_lo/neg_hi on A and B, the integer forms' signedness and clamp, and kept
elements given in either order within their group."""
import random
from fractions import Fraction

from emutest import Kernel, M32, s32
from families.wmma import BITS, bits_of, check, halves, load, output_registers, pick, rng

R = random.Random(2468)
A0 = 10   # A from v10, B after it, D after B, the index after D


def a_place(bits, kdepth, i, k):
    """(lane, register, bit) of the first of the two kept elements of row i's group of four
    holding k; the second follows it (bit + bits)."""
    if bits == 16:
        return 16 * (k // 8 % 2) + i, 2 * (k // 16) + k // 4 % 2, 0
    if bits == 8:
        return 16 * (k // 16) + i, k // 8 % 2, 16 * (k // 4 % 2)
    if kdepth == 32:  # 4-bit
        return 16 * (k // 16) + i, 0, 8 * (k // 4 % 4)
    return 16 * (k // 32) + i, k // 16 % 2, 8 * (k // 4 % 4)


def index_place(bits, kdepth, i, k):
    """(lane, bit) of the 2-bit position of the first kept element of the group holding k
    (the second's: bit + 2), in the index's low 16 bits (32 for the K = 64 form)."""
    if bits == 16:
        return 16 * (k // 8 % 2) + i, 8 * (k // 16) + 4 * (k // 4 % 2)
    if bits == 8 or kdepth == 32:
        return 16 * (k // 16) + i, 4 * (k // 4 % 4)
    return 16 * (k // 32) + i, 4 * (k // 4 % 8)


def b_place(bits, kdepth, k, j):
    if bits == 16:
        return 16 * (k // 8 % 2) + j, 4 * (k // 16) + k // 2 % 4, 16 * (k % 2)
    if bits == 8:
        return 16 * (k // 16) + j, k // 4 % 4, 8 * (k % 4)
    if kdepth == 32:
        return 16 * (k // 16) + j, k // 8 % 2, 4 * (k % 8)
    return 16 * (k // 32) + j, k // 8 % 4, 4 * (k % 8)


class Sparse:
    """One instruction's operands: register counts and the words of A, B and the index."""

    def __init__(self, kind_ab, kind_cd, kdepth=32):
        self.kind_ab, self.kind_cd, self.kdepth = kind_ab, kind_cd, kdepth
        bits = BITS[kind_ab]
        self.a_regs = kdepth * bits // 128
        self.b_regs = kdepth * bits // 64
        self.d_regs = 8 if BITS[kind_cd] == 32 else 4
        self.b0 = A0 + self.a_regs
        self.d0 = self.b0 + self.b_regs
        self.index = self.d0 + self.d_regs

    def kept(self):
        """For each row and group of four, the two positions kept, in the order stored."""
        out = []
        for _ in range(16):
            row = []
            for _ in range(self.kdepth // 4):
                pair = R.sample(range(4), 2)
                row.append(pair if R.random() < 0.25 else sorted(pair))
            out.append(row)
        return out

    def words(self, a_bits, b_bits, positions, index_high=False):
        """A, B and index registers from a_bits(i, k), b_bits(k, j) and the kept positions;
        with INDEX_HIGH the index in its register's high half, the low half noise."""
        bits, kd = BITS[self.kind_ab], self.kdepth
        mask = (1 << bits) - 1
        a = [[0] * 32 for _ in range(self.a_regs)]
        # noise, of which each lane's fields (all 16 bits of its half, or all 32) are rewritten
        index = [R.getrandbits(32) for _ in range(32)]
        for i in range(16):
            for g in range(kd // 4):
                lane, reg, bit = a_place(bits, kd, i, 4 * g)
                ilane, ibit = index_place(bits, kd, i, 4 * g)
                ibit += 16 if index_high else 0
                for s, p in enumerate(positions[i][g]):
                    a[reg][lane] |= (a_bits(i, 4 * g + p) & mask) << (bit + s * bits)
                    index[ilane] = index[ilane] & ~(3 << (ibit + 2 * s)) | p << (ibit + 2 * s)
        b = [[0] * 32 for _ in range(self.b_regs)]
        for k in range(kd):
            for j in range(16):
                lane, reg, bit = b_place(bits, kd, k, j)
                b[reg][lane] |= (b_bits(k, j) & mask) << bit
        return a, b, [[w & M32 for w in index]]

    def operands(self):
        return (f"{rng(self.d0, [0] * self.d_regs)}, {rng(A0, [0] * self.a_regs)}, "
                f"{rng(self.b0, [0] * self.b_regs)}, v{self.index}")


def sparse_values(case, choices, positions):
    """A dense 16xK matrix, zero but where POSITIONS keep an element (which may be zero)."""
    a = [[Fraction(0)] * case.kdepth for _ in range(16)]
    for i in range(16):
        for g, pair in enumerate(positions[i]):
            for p in pair:
                a[i][4 * g + p] = Fraction(R.choice(choices))
    return a


def product(a, b, c):
    return [[c[m][n] + sum(a[m][k] * b[k][n] for k in range(len(b))) for n in range(16)]
            for m in range(16)]


def float_case(t, name, kind_ab, kind_cd, a_choices, b_choices, c_choices, kind_b=None):
    if t.gen != 12:
        return None
    R.seed(name)
    kind_b = kind_b or kind_ab
    k = Kernel(t, name)
    case = Sparse(kind_ab, kind_cd)
    suffix = f"{kind_ab}_{kind_b}" if BITS[kind_ab] == 8 else kind_ab
    op = f"v_swmmac_{kind_cd}_16x16x32_{suffix}"
    fmt = lambda kind, x: 0x7e if kind == "fp8" and x == 448 else bits_of(kind, x)
    for index_high, mods, negate in ((False, "", 1), (True, "", 1),
                                     (False, "neg_lo:[1,0,0] neg_hi:[1,0,0]", -1),
                                     (False, "neg_lo:[0,1,0] neg_hi:[0,1,0]", -1)):
        if mods and BITS[kind_ab] != 16:
            continue
        positions = case.kept()
        a = sparse_values(case, a_choices, positions)
        b = pick(b_choices, case.kdepth, 16)
        c = pick(c_choices, 16, 16)
        a_regs, b_regs, index = case.words(lambda i, kk: fmt(kind_ab, a[i][kk]),
                                           lambda kk, j: fmt(kind_b, b[kk][j]),
                                           positions, index_high)
        load(k, A0, a_regs)
        load(k, case.b0, b_regs)
        load(k, case.index, index)
        load(k, case.d0, output_registers(12, BITS[kind_cd], lambda m, n: bits_of(kind_cd, c[m][n])))
        key = " index_key:1" if index_high else ""
        k.asm(f"{op} {case.operands()}{key} {mods}".rstrip())
        d = product([[negate * x for x in row] for row in a], b, c)
        check(k, case.d0, output_registers(12, BITS[kind_cd], lambda m, n: bits_of(kind_cd, d[m][n])))
    return k


def f32_f16(t):
    return float_case(t, "f32_f16", "f16", "f32", halves(-2, 2, Fraction(1, 2)),
                      halves(-2, 2, Fraction(1, 4)), halves(-16, 16, Fraction(1, 8)))


def f32_bf16(t):
    return float_case(t, "f32_bf16", "bf16", "f32", halves(-2, 2, Fraction(1, 2)),
                      halves(-2, 2, Fraction(1, 4)), halves(-16, 16, Fraction(1, 8)))


def f16_f16(t):
    return float_case(t, "f16_f16", "f16", "f16", halves(-2, 2, Fraction(1, 2)),
                      halves(-2, 2, Fraction(1, 4)), halves(-16, 16, Fraction(1, 8)))


def bf16_bf16(t):
    return float_case(t, "bf16_bf16", "bf16", "bf16", halves(-1, 1, Fraction(1, 2)),
                      range(-2, 3), halves(-8, 8, Fraction(1, 2)))


FP8 = halves(-2, 2, Fraction(1, 4)) + [Fraction(3), Fraction(-3)]
BF8 = [Fraction(x, 4) for x in (-16, -12, -8, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 8, 12, 16)]


def eight_bit_case(t, ka, kb):
    """FP8 (OCP E4M3) and BF8 (E5M2) sources."""
    return float_case(t, f"{ka}_{kb}", ka, "f32", FP8 if ka == "fp8" else BF8,
                      FP8 if kb == "fp8" else BF8, halves(-16, 16, Fraction(1, 8)), kb)


def fp8_fp8(t):
    return eight_bit_case(t, "fp8", "fp8")


def fp8_bf8(t):
    return eight_bit_case(t, "fp8", "bf8")


def bf8_fp8(t):
    return eight_bit_case(t, "bf8", "fp8")


def bf8_bf8(t):
    return eight_bit_case(t, "bf8", "bf8")


def integer_case(t, name, kind, kdepth=32):
    """Random kept elements and B, random D; A and B signed or not as neg_lo says, sums
    wrapping; then D near the ends of i32 with clamp, saturating."""
    if t.gen != 12:
        return None
    R.seed(name)
    k = Kernel(t, name)
    case = Sparse(kind, "i32", kdepth)
    bits = BITS[kind]
    op = f"v_swmmac_i32_16x16x{kdepth}_{kind}"

    def value(x, signed):
        return x - (1 << bits) if signed and x >> (bits - 1) else x

    runs = [(False, False, False, False), (True, True, False, kdepth == 32),
            (True, False, False, False), (False, True, False, False),
            (False, False, True, False), (True, True, True, kdepth == 32)]
    for sa, sb, clamp, index_high in runs:
        positions = case.kept()
        raw_a = [[R.getrandbits(bits) for _ in range(kdepth)] for _ in range(16)]
        raw_b = [[R.getrandbits(bits) for _ in range(16)] for _ in range(kdepth)]
        raw_a[0] = [(1 << bits) - 1] * kdepth
        raw_b[0] = [1 << (bits - 1)] * 16
        a_regs, b_regs, index = case.words(lambda i, kk: raw_a[i][kk], lambda kk, j: raw_b[kk][j],
                                           positions, index_high)
        span = 1 << 20
        if clamp:  # D at the ends of the range: the sums go past them
            c = [[(0x7fffffff - R.randrange(span)) if (m + n) % 2 else (0x80000000 + R.randrange(span))
                  for n in range(16)] for m in range(16)]
        else:
            c = [[R.getrandbits(32) for _ in range(16)] for _ in range(16)]
        load(k, A0, a_regs)
        load(k, case.b0, b_regs)
        load(k, case.index, index)
        load(k, case.d0, output_registers(12, 32, lambda m, n: c[m][n]))
        mods = (" index_key:1" if index_high else "") + f" neg_lo:[{int(sa)},{int(sb)},0]" + \
            (" clamp" if clamp else "")
        k.asm(f"{op} {case.operands()}{mods}")
        d = []
        for m in range(16):
            row = []
            for n in range(16):
                s = s32(c[m][n])
                for g, pair in enumerate(positions[m]):
                    for p in pair:
                        kk = 4 * g + p
                        s += value(raw_a[m][kk], sa) * value(raw_b[kk][n], sb)
                if clamp:
                    s = max(-(1 << 31), min((1 << 31) - 1, s))
                row.append(s & M32)
            d.append(row)
        check(k, case.d0, output_registers(12, 32, lambda m, n: d[m][n]))
    return k


def iu8(t):
    return integer_case(t, "iu8", "iu8")


def iu4(t):
    return integer_case(t, "iu4", "iu4")


def iu4_k64(t):
    return integer_case(t, "iu4_k64", "iu4", 64)


CASES = [f32_f16, f32_bf16, f16_f16, bf16_bf16, fp8_fp8, fp8_bf8, bf8_fp8, bf8_bf8, iu8, iu4,
         iu4_k64]
