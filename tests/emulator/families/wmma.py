"""Wave matrix multiply-accumulate, wave32: D = A x B + C on 16x16 tiles (K = 16, or 32 for
gfx12's V_WMMA_I32_16X16X32_IU4). Each case builds A, B and C here, places their elements
in lanes and registers as docs/amd-wmma-layout.md describes for the processor, runs the
instruction, and expects D's registers to hold A x B + C worked out here, placed by the
same description. The float values are chosen so that every partial sum is exact (the
order and width in which the hardware adds is not documented), the integer ones are random.

gfx11 (RDNA3): F32_F16, F32_BF16, F16_F16 and BF16_BF16 (op_sel[2]: the high halves of C
and D, the other halves kept), I32_IU8 and I32_IU4 (neg_lo[0], neg_lo[1]: A, B signed;
clamp saturates); neg_lo/neg_hi on the 16-bit float sources negate them, on C neg_lo
negates and neg_hi takes the absolute value; C may be an inline constant. gfx12 (RDNA4):
the same instructions with its own layout (no op_sel), I32_16X16X32_IU4, and F32 from
FP8/BF8 (OCP E4M3 and E5M2) in the four combinations. gfx10.3 has none of these."""
import random
from fractions import Fraction

from emutest import Kernel, Format, encode, M32, s32

R = random.Random(1234)

F16 = Format(5, 10)
BF16 = Format(8, 7)
F32 = Format(8, 23)
E4M3 = Format(4, 3)   # OCP E4M3: as IEEE below its top binade (448 is checked apart)
E5M2 = Format(5, 2)
BITS = {"f16": 16, "bf16": 16, "fp8": 8, "bf8": 8, "iu8": 8, "iu4": 4, "f32": 32, "i32": 32}
FORMATS = {"f16": F16, "bf16": BF16, "fp8": E4M3, "bf8": E5M2, "f32": F32}

# Registers the cases use: A from v10, B after it, C and D after B (gfx11's largest: 8 each).
A0 = 10


# ---- the layout, as docs/amd-wmma-layout.md gives it

def input_places(gen, bits, i, k):
    """(lane, register, bit) of every copy of A[i][k] (B[k][i])."""
    per = 32 // bits
    if gen == 11:  # lane i, repeated in lane i + 16; k packed from bit 0 of the first register
        return [(i + 16 * copy, k // per, k % per * bits) for copy in (0, 1)]
    run = k // 8   # gfx12: runs of 8 along k alternate between lanes i and i + 16
    index = 8 * (run // 2) + k % 8
    return [(i + 16 * (run % 2), index // per, index % per * bits)]


def output_place(gen, bits, m, n, high=0):
    """(lane, register, bit) of C[m][n] and D[m][n]."""
    if gen == 11:
        return n + 16 * (m % 2), m // 2, 16 if bits == 16 and high else 0
    if bits == 16:
        return n + 16 * (m // 8), m % 8 // 2, m % 2 * 16
    return n + 16 * (m // 8), m % 8, 0


def input_registers(gen, bits, kdepth, element):
    """The lane words of A (element(i, k): its bits), or of B (element(n, k))."""
    regs = [[0] * 32 for _ in range(kdepth * bits // (32 if gen == 11 else 64))]
    for i in range(16):
        for kk in range(kdepth):
            for lane, reg, bit in input_places(gen, bits, i, kk):
                regs[reg][lane] |= element(i, kk) << bit
    return regs


def output_registers(gen, bits, element, high=0, base=None):
    """The lane words of C (element(m, n): its bits) over BASE (the registers' other bits)."""
    count = 8 if bits == 32 or gen == 11 else 4
    regs = [list(r) for r in base] if base else [[0] * 32 for _ in range(count)]
    for m in range(16):
        for n in range(16):
            lane, reg, bit = output_place(gen, bits, m, n, high)
            mask = (1 << bits) - 1 if bits < 32 else M32
            regs[reg][lane] = regs[reg][lane] & ~(mask << bit) & M32 | element(m, n) << bit
    return regs


def rng(first, regs):
    last = first + len(regs) - 1
    return f"v{first}" if last == first else f"v[{first}:{last}]"


def load(k, first, regs):
    """Loads register words (regs[r][lane]) into v[first...], four at most a load."""
    r = 0
    while r < len(regs):
        n = min(4, len(regs) - r)
        n = 2 if n == 3 else n
        k.input(rng(first + r, regs[r:r + n]),
                [sum(regs[r + j][lane] << 32 * j for j in range(n)) for lane in range(32)], n)
        r += n


def check(k, first, regs):
    for r, words in enumerate(regs):
        k.check_v(f"v{first + r}", words)


# ---- values

def pick(choices, rows, cols):
    return [[Fraction(R.choice(choices)) for _ in range(cols)] for _ in range(rows)]


def halves(lo, hi, step):
    return [Fraction(x) * step for x in range(int(lo / step), int(hi / step) + 1)]


def product(a, b, c):
    """A x B + C, exactly."""
    return [[sum(a[m][kk] * b[kk][n] for kk in range(len(b))) + c[m][n] for n in range(16)]
            for m in range(16)]


def bits_of(kind, x):
    return encode(x, FORMATS[kind], negative_zero=False)


class Case:
    """One instruction: its operand registers and the words D must hold."""

    def __init__(self, t, kind_a, kind_b, kind_cd, kdepth=16):
        self.t, self.gen = t, t.gen
        self.kind_a, self.kind_b, self.kind_cd, self.kdepth = kind_a, kind_b, kind_cd, kdepth
        self.a_regs = kdepth * BITS[kind_a] // (32 if t.gen == 11 else 64)
        self.b_regs = kdepth * BITS[kind_b] // (32 if t.gen == 11 else 64)
        self.cd_regs = 8 if BITS[kind_cd] == 32 or t.gen == 11 else 4
        self.b0 = A0 + self.a_regs
        self.c0 = self.b0 + self.b_regs
        self.d0 = self.c0 + self.cd_regs

    def operands(self, c=None, d=None):
        """D, A, B, C as the instruction names them (C: a register range or a constant)."""
        d = self.d0 if d is None else d
        cs = c if isinstance(c, str) else rng(self.c0 if c is None else c, [0] * self.cd_regs)
        return (f"{rng(d, [0] * self.cd_regs)}, {rng(A0, [0] * self.a_regs)}, "
                f"{rng(self.b0, [0] * self.b_regs)}, {cs}")

    def load_inputs(self, k, a_bits, b_bits):
        """A and B given as element bits: a_bits(m, k), b_bits(k, n)."""
        load(k, A0, input_registers(self.gen, BITS[self.kind_a], self.kdepth, a_bits))
        load(k, self.b0, input_registers(self.gen, BITS[self.kind_b], self.kdepth,
                                         lambda n, kk: b_bits(kk, n)))


# ---- float forms

def float_case(t, name, kind_ab, kind_cd, a_vals, b_vals, c_vals, mods="", negate_a=False,
               c_mod=None):
    """One float WMMA on values given as Fractions; MODS: its modifiers; NEGATE_A, C_MOD
    ("neg", "abs", "negabs"): what the modifiers do, applied to the reference."""
    k = Kernel(t, name)
    case = Case(t, kind_ab, kind_ab, kind_cd)
    case.load_inputs(k, lambda m, kk: bits_of(kind_ab, a_vals[m][kk]),
                     lambda kk, n: bits_of(kind_ab, b_vals[kk][n]))
    cd_bits = BITS[kind_cd]
    load(k, case.c0, output_registers(case.gen, cd_bits, lambda m, n: bits_of(kind_cd, c_vals[m][n])))
    # gfx11's 16-bit D keeps the other halves of its registers: in place, as LLVM
    # allocates it, they are C's (zeros here)
    d0 = case.c0 if cd_bits == 16 and case.gen == 11 else case.d0
    k.asm(f"v_wmma_{kind_cd}_16x16x16_{kind_ab} {case.operands(d=d0)} {mods}".rstrip())
    a_ref = [[-x for x in row] for row in a_vals] if negate_a else a_vals
    c_ref = [[{"neg": -x, "abs": abs(x), "negabs": -abs(x), None: x}[c_mod] for x in row]
             for row in c_vals]
    d = product(a_ref, b_vals, c_ref)
    check(k, d0, output_registers(case.gen, cd_bits, lambda m, n: bits_of(kind_cd, d[m][n])))
    return k


def scaled(rows, scale_row=None, scale_col=None):
    return [[x * (scale_row(i) if scale_row else 1) * (scale_col(j) if scale_col else 1)
             for j, x in enumerate(row)] for i, row in enumerate(rows)]


def f32_f16(t):
    """f16 sources, f32 C and D; rows of A and C and columns of B and C scaled by powers of
    two, so that exponents far from 1 are met too."""
    if t.gen < 11:
        return None
    R.seed("f32_f16")
    row, col = (lambda i: Fraction(2) ** (i - 8)), (lambda j: Fraction(2) ** (4 - j))
    a = scaled(pick(halves(-2, 2, Fraction(1, 2)), 16, 16), row)
    b = scaled(pick(halves(-2, 2, Fraction(1, 4)), 16, 16), None, col)
    c = scaled(pick(halves(-16, 16, Fraction(1, 8)), 16, 16), row, col)
    return float_case(t, "f32_f16", "f16", "f32", a, b, c)


def f32_bf16(t):
    if t.gen < 11:
        return None
    R.seed("f32_bf16")
    row = lambda i: Fraction(2) ** (9 * (i - 8))  # bf16 has f32's exponents
    a = scaled(pick(halves(-2, 2, Fraction(1, 2)), 16, 16), row)
    b = pick(halves(-2, 2, Fraction(1, 4)), 16, 16)
    c = scaled(pick(halves(-16, 16, Fraction(1, 8)), 16, 16), row)
    return float_case(t, "f32_bf16", "bf16", "f32", a, b, c)


def f16_f16(t):
    if t.gen < 11:
        return None
    R.seed("f16_f16")
    a = pick(halves(-2, 2, Fraction(1, 2)), 16, 16)
    b = pick(halves(-2, 2, Fraction(1, 4)), 16, 16)
    c = pick(halves(-16, 16, Fraction(1, 8)), 16, 16)
    return float_case(t, "f16_f16", "f16", "f16", a, b, c)


def bf16_bf16(t):
    if t.gen < 11:
        return None
    R.seed("bf16_bf16")
    a = pick(halves(-1, 1, Fraction(1, 2)), 16, 16)
    b = pick(range(-2, 3), 16, 16)
    c = pick(halves(-8, 8, Fraction(1, 2)), 16, 16)
    return float_case(t, "bf16_bf16", "bf16", "bf16", a, b, c)


def float_modifiers(t):
    """-A (neg_lo and neg_hi of A: every element), -C, |C| and -|C|, as LLVM writes fneg
    and fabs of the intrinsic's operands."""
    if t.gen < 11:
        return None
    R.seed("float_modifiers")
    a = pick(halves(-2, 2, Fraction(1, 2)), 16, 16)
    b = pick(halves(-2, 2, Fraction(1, 4)), 16, 16)
    c = pick(halves(-16, 16, Fraction(1, 8)), 16, 16)
    k = float_case(t, "float_modifiers", "f16", "f32", a, b, c,
                   "neg_lo:[1,0,0] neg_hi:[1,0,0]", negate_a=True)
    case = Case(t, "f16", "f16", "f32")
    for mods, c_mod in (("neg_lo:[0,0,1]", "neg"), ("neg_hi:[0,0,1]", "abs"),
                        ("neg_lo:[0,0,1] neg_hi:[0,0,1]", "negabs")):
        k.asm(f"v_wmma_f32_16x16x16_f16 {case.operands()} {mods}")
        c_ref = [[{"neg": -x, "abs": abs(x), "negabs": -abs(x)}[c_mod] for x in row] for row in c]
        d = product(a, b, c_ref)
        check(k, case.d0, output_registers(t.gen, 32, lambda m, n: bits_of("f32", d[m][n])))
    return k


def constant_c(t):
    """C an inline constant: every element of C is it."""
    if t.gen < 11:
        return None
    R.seed("constant_c")
    k = Kernel(t, "constant_c")
    a = pick(halves(-2, 2, Fraction(1, 2)), 16, 16)
    b = pick(halves(-2, 2, Fraction(1, 4)), 16, 16)
    case = Case(t, "f16", "f16", "f32")
    case.load_inputs(k, lambda m, kk: bits_of("f16", a[m][kk]), lambda kk, n: bits_of("f16", b[kk][n]))
    for const, value in (("1.0", Fraction(1)), ("-4.0", Fraction(-4)), ("0", Fraction(0))):
        k.asm(f"v_wmma_f32_16x16x16_f16 {case.operands(const)}")
        d = product(a, b, [[value] * 16 for _ in range(16)])
        check(k, case.d0, output_registers(t.gen, 32, lambda m, n: bits_of("f32", d[m][n])))
    return k


def f16_op_sel(t):
    """gfx11: two F16_F16 results packed in the same registers, the second in the high
    halves (op_sel[2]), C read from the same halves; each keeps the other's half."""
    if t.gen != 11:
        return None
    R.seed("f16_op_sel")
    k = Kernel(t, "f16_op_sel")
    case = Case(t, "f16", "f16", "f16")
    a = pick(halves(-2, 2, Fraction(1, 2)), 16, 16)
    b = pick(halves(-2, 2, Fraction(1, 4)), 16, 16)
    c_lo = pick(halves(-16, 16, Fraction(1, 8)), 16, 16)
    c_hi = pick(halves(-16, 16, Fraction(1, 8)), 16, 16)
    case.load_inputs(k, lambda m, kk: bits_of("f16", a[m][kk]), lambda kk, n: bits_of("f16", b[kk][n]))
    f16 = lambda mat: (lambda m, n: bits_of("f16", mat[m][n]))
    c_regs = output_registers(11, 16, f16(c_lo))
    c_regs = output_registers(11, 16, f16(c_hi), high=1, base=c_regs)
    load(k, case.c0, c_regs)
    d = case.c0  # in place, as LLVM allocates a 16-bit accumulator
    k.asm(f"""
        v_wmma_f16_16x16x16_f16 {case.operands(d=d)}
        v_wmma_f16_16x16x16_f16 {case.operands(d=d)} op_sel:[0,0,1]
    """)
    d_lo, d_hi = product(a, b, c_lo), product(a, b, c_hi)
    expect = output_registers(11, 16, f16(d_lo))
    expect = output_registers(11, 16, f16(d_hi), high=1, base=expect)
    check(k, d, expect)
    return k


def fp8(t):
    """gfx12: FP8 (OCP E4M3, 448 its largest) and BF8 (OCP E5M2) sources in the four
    combinations."""
    if t.gen != 12:
        return None
    R.seed("fp8")
    vals = {"fp8": halves(-2, 2, Fraction(1, 4)) + [Fraction(3), Fraction(-3)],
            "bf8": [Fraction(x, 4) for x in (-16, -12, -8, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 8, 12, 16)]}
    k = Kernel(t, "fp8")
    c = pick(halves(-16, 16, Fraction(1, 8)), 16, 16)
    first = True
    for ka in ("fp8", "bf8"):
        for kb in ("fp8", "bf8"):
            a = pick(vals[ka], 16, 16)
            b = pick(vals[kb], 16, 16)
            if ka == "fp8":
                a[3][5] = Fraction(448)  # S.1111.110: E4M3's top binade has numbers
                b[5] = [Fraction(1, 4) * (1 if x >= 0 else -1) for x in b[5]]
            fmt = lambda kind, x: 0x7e if kind == "fp8" and x == 448 else bits_of(kind, x)
            case = Case(t, ka, kb, "f32")
            case.load_inputs(k, lambda m, kk: fmt(ka, a[m][kk]), lambda kk, n: fmt(kb, b[kk][n]))
            if first:
                load(k, case.c0, output_registers(12, 32, lambda m, n: bits_of("f32", c[m][n])))
                first = False
            k.asm(f"v_wmma_f32_16x16x16_{ka}_{kb} {case.operands()}")
            d = product(a, b, c)
            check(k, case.d0, output_registers(12, 32, lambda m, n: bits_of("f32", d[m][n])))
    return k


# ---- integer forms

def integer_case(t, name, kind, kdepth=16):
    """Random A, B and C; A and B unsigned and signed in the combinations neg_lo gives,
    sums wrapping; then C near the ends of i32 with clamp, saturating."""
    R.seed(name)
    k = Kernel(t, name)
    case = Case(t, kind, kind, "i32", kdepth)
    bits = BITS[kind]
    raw_a = [[R.getrandbits(bits) for _ in range(kdepth)] for _ in range(16)]
    raw_b = [[R.getrandbits(bits) for _ in range(16)] for _ in range(kdepth)]
    raw_a[0] = [(1 << bits) - 1] * kdepth  # the largest unsigned, -1 signed
    raw_b[0] = [1 << (bits - 1)] * 16      # the most negative signed
    case.load_inputs(k, lambda m, kk: raw_a[m][kk], lambda kk, n: raw_b[kk][n])
    c = [[R.getrandbits(32) for _ in range(16)] for _ in range(16)]
    load(k, case.c0, output_registers(t.gen, 32, lambda m, n: c[m][n]))

    def value(x, signed):
        return x - (1 << bits) if signed and x >> (bits - 1) else x

    def reference(sa, sb, cc, clamp):
        out = []
        for m in range(16):
            row = []
            for n in range(16):
                s = s32(cc[m][n]) + sum(value(raw_a[m][kk], sa) * value(raw_b[kk][n], sb)
                                        for kk in range(kdepth))
                if clamp:
                    s = max(-(1 << 31), min((1 << 31) - 1, s))
                row.append(s & M32)
            out.append(row)
        return out

    name_k = f"v_wmma_i32_16x16x{kdepth}_{kind}"
    for sa, sb in ((False, False), (True, True), (True, False), (False, True)):
        k.asm(f"{name_k} {case.operands()} neg_lo:[{int(sa)},{int(sb)},0]")
        d = reference(sa, sb, c, False)
        check(k, case.d0, output_registers(t.gen, 32, lambda m, n: d[m][n]))
    # C at the ends of the range: the sums go past them, clamp holds them there
    span = 1 << 20
    edge = [[(0x7fffffff - R.randrange(span)) if (m + n) % 2 else (0x80000000 + R.randrange(span))
             for n in range(16)] for m in range(16)]
    load(k, case.c0, output_registers(t.gen, 32, lambda m, n: edge[m][n]))
    for sa, sb, clamp in ((False, False, True), (True, True, True), (False, False, False)):
        k.asm(f"{name_k} {case.operands()} neg_lo:[{int(sa)},{int(sb)},0]"
              + (" clamp" if clamp else ""))
        d = reference(sa, sb, edge, clamp)
        check(k, case.d0, output_registers(t.gen, 32, lambda m, n: d[m][n]))
    # an inline constant C
    k.asm(f"{name_k} {case.operands('-5')} neg_lo:[1,1,0]")
    d = reference(True, True, [[(-5) & M32] * 16 for _ in range(16)], False)
    check(k, case.d0, output_registers(t.gen, 32, lambda m, n: d[m][n]))
    return k


def iu8(t):
    return integer_case(t, "iu8", "iu8") if t.gen >= 11 else None


def iu4(t):
    return integer_case(t, "iu4", "iu4") if t.gen >= 11 else None


def iu4_k32(t):
    return integer_case(t, "iu4_k32", "iu4", 32) if t.gen == 12 else None


def gfx12_only_on_gfx11(t):
    """The encoding of gfx12's V_WMMA_I32_16X16X32_IU4 in gfx11 code is none of gfx11's
    WMMA: it is not emulated there."""
    if t.gen != 11:
        return None
    k = Kernel(t, "gfx12_only_on_gfx11")
    k.asm(f"""
        v_mov_b32 v2, 0
    .globl gfx12_only_on_gfx11_here
    gfx12_only_on_gfx11_here:
        .long 0xcc4a4004, 0x1c120500
    """)
    return k.expect_not_emulated("gfx12_only_on_gfx11_here")


CASES = [f32_f16, f32_bf16, f16_f16, bf16_bf16, float_modifiers, constant_c, f16_op_sel, fp8,
         iu8, iu4, iu4_k32, gfx12_only_on_gfx11]
