"""Float instructions beyond the arithmetic LLVM emits for CUDA's everyday code, from the
RDNA3/RDNA4 pseudo-code: V_DOT2_F32_F16 / V_DOT2_F32_BF16 / V_DOT2ACC_F32_F16 (gfx10:
V_DOT2C_F32_F16) with the two products added one after the other in f32; V_FMA_DX9_ZERO_F32
(gfx10: V_FMA_LEGACY_F32) and V_FMAC_DX9_ZERO_F32, where 0 times anything is 0; V_MULLIT_F32;
V_PK_FMAC_F16; V_DIV_FIXUP_F16's special cases; the packing conversions V_CVT_PK_I16_F32,
V_CVT_PK_U16_F32 (gfx11+: truncated, saturated, NaN 0) and the 16-bit normalising ones (values
that are no ties, whose rounding the guides leave unsaid); gfx12's V_MAXIMUM / V_MINIMUM
family (IEEE 754-2019: a NaN operand wins, signaling first and quieted, -0 below +0)."""
import random
import struct

from emutest import Kernel, M32

R = random.Random(4321)


def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def from_f32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f16(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def from_f16(b):
    return struct.unpack("<e", struct.pack("<H", b))[0]


def round_f32(x):
    return from_f32(f32(x))


def dot2(t):
    R.seed("dot2")
    k = Kernel(t, "dot2")
    halves = lambda: [R.choice([-1, 1]) * R.uniform(0.5, 8) for _ in range(2)]
    pairs_a = [[from_f16(f16(v)) for v in halves()] for _ in range(32)]
    pairs_b = [[from_f16(f16(v)) for v in halves()] for _ in range(32)]
    acc = [round_f32(R.uniform(-100, 100)) for _ in range(32)]
    pack = lambda p: f16(p[0]) | f16(p[1]) << 16
    k.input("v2", [pack(p) for p in pairs_a]).input("v3", [pack(p) for p in pairs_b])
    k.input("v4", [f32(c) for c in acc])
    # bf16 halves: the top halves of f32 values
    bf = lambda: [round_f32(R.uniform(-4, 4)) for _ in range(2)]
    bf_a = [[from_f32(f32(v) & 0xffff0000) for v in bf()] for _ in range(32)]
    bf_b = [[from_f32(f32(v) & 0xffff0000) for v in bf()] for _ in range(32)]
    pack_bf = lambda p: f32(p[0]) >> 16 | (f32(p[1]) >> 16) << 16
    k.input("v5", [pack_bf(p) for p in bf_a]).input("v6", [pack_bf(p) for p in bf_b])

    def expect(a, b, c, neg_lo=0):
        t = c
        for h in range(2):
            x = -a[h] if h == 0 and neg_lo & 1 else a[h]
            y = -b[h] if h == 0 and neg_lo & 2 else b[h]
            t = round_f32(t + x * y)
        return f32(t)
    k.asm("""
        v_dot2_f32_f16 v7, v2, v3, v4
        v_dot2_f32_f16 v8, v2, v3, v4 neg_lo:[1,0,0]
    """)
    k.check_v("v7", [expect(a, b, c) for a, b, c in zip(pairs_a, pairs_b, acc)])
    k.check_v("v8", [expect(a, b, c, 1) for a, b, c in zip(pairs_a, pairs_b, acc)])
    if t.gen < 12:  # gfx12 has the accumulating form only in VOPD
        accumulate = "v_dot2c_f32_f16" if t.gen == 10 else "v_dot2acc_f32_f16"
        k.asm(f"""
            v_mov_b32 v9, v4
            {accumulate} v9, v2, v3
        """)
        k.check_v("v9", [expect(a, b, c) for a, b, c in zip(pairs_a, pairs_b, acc)])
    if t.gen >= 11:
        k.asm("v_dot2_f32_bf16 v10, v5, v6, v4")
        k.check_v("v10", [expect(a, b, c) for a, b, c in zip(bf_a, bf_b, acc)])
    return k


def legacy_products(t):
    """0 * x is 0 whatever x is (DX9), then S2 added; V_MULLIT_F32 gives -MAX_FLOAT when S1
    is -MAX_FLOAT, -inf or NaN or S2 is not above 0."""
    k = Kernel(t, "legacy_products")
    inf, nan, fmax = 0x7f800000, 0x7fc00000, 0x7f7fffff
    cases = [(0.0, inf, 5.0), (f32(float("nan")), 0, 5.0), (2.0, 3.0, 1.0), (-0.0, 7.0, -1.0)]
    cases = cases * 8
    as_bits = lambda v: v if isinstance(v, int) else f32(v)
    k.input("v2", [as_bits(c[0]) for c in cases]).input("v3", [as_bits(c[1]) for c in cases])
    k.input("v4", [as_bits(c[2]) for c in cases])
    fma = "v_fma_legacy_f32" if t.gen == 10 else "v_fma_dx9_zero_f32"
    k.asm(f"{fma} v5, v2, v3, v4")
    k.check_v("v5", [f32(5.0), f32(5.0), f32(7.0), f32(-1.0)] * 8)
    if t.gen == 11:
        k.asm("""
            v_mov_b32 v6, v4
            v_fmac_dx9_zero_f32 v6, v2, v3
        """)
        k.check_v("v6", [f32(5.0), f32(5.0), f32(7.0), f32(-1.0)] * 8)
    lit = [(3.0, -from_f32(fmax), 1.0), (3.0, float("-inf"), 1.0), (3.0, 2.0, 0.0), (3.0, 2.0, 1.0)]
    k.input("v7", [f32(c[0]) for c in lit] * 8).input("v8", [f32(c[1]) for c in lit] * 8)
    k.input("v9", [f32(c[2]) for c in lit] * 8)
    k.asm("v_mullit_f32 v10, v7, v8, v9")
    k.check_v("v10", ([fmax | 0x80000000] * 3 + [f32(6.0)]) * 8)
    return k


def packed_fmac_fixup(t):
    """V_PK_FMAC_F16: each half of D plus the product of S0's and S1's halves, rounded once;
    V_DIV_FIXUP_F16 (S0 the quotient, S1 the denominator, S2 the numerator): NaN operands
    quieted (the numerator's first), 0/0 and inf/inf 0xfe00, x/0 and inf/y infinity, x/inf
    and 0/y zero, each with the sign of S1 * S2; else S0's magnitude with that sign."""
    k = Kernel(t, "packed_fmac_fixup")
    a, b, c = (1.5, -2.25), (3.0, 0.5), (0.25, 100.0)
    pack = lambda p: f16(p[0]) | f16(p[1]) << 16
    k.asm(f"""
        v_mov_b32 v2, {pack(a):#x}
        v_mov_b32 v3, {pack(b):#x}
        v_mov_b32 v4, {pack(c):#x}
        v_pk_fmac_f16 v4, v2, v3
    """)
    k.check_v("v4", pack([a[h] * b[h] + c[h] for h in range(2)]))
    # (quotient, denominator, numerator) -> result
    inf16, snan, nan_out = 0x7c00, 0x7d00, 0x7f00
    cases = [((1.5, 2.0, 3.0), f16(1.5)), ((1.5, -2.0, 3.0), f16(-1.5)),
             ((1.5, 0.0, 0.0), 0xfe00), ((1.5, 0.0, 1.0), inf16), ((1.5, -0.0, 1.0), inf16 | 0x8000),
             ((1.5, float("inf"), 1.0), 0), ((1.5, 2.0, snan), nan_out),
             ((1.5, float("inf"), float("-inf")), 0xfe00)]
    cases = (cases * 4)[:32]
    bits = lambda v: v if isinstance(v, int) else f16(v)
    for i, reg in enumerate(("v5", "v6", "v7")):
        k.input(reg, [bits(case[0][i]) for case in cases])
    k.asm("""
        v_mov_b32 v8, 0
        v_div_fixup_f16 v8, v5, v6, v7
        v_and_b32 v8, 0xffff, v8
    """)
    k.check_v("v8", [case[1] for case in cases])
    return k


def packing_conversions(t):
    k = Kernel(t, "packing_conversions")
    lo = [1.5, -1.5, 40000.0, -40000.0, float("nan"), 65535.7, -3.0, 0.999] * 4
    hi = [-2.75, 7.25, 1e10, -0.5, 300.0, -70000.0, float("nan"), 32767.4] * 4
    k.input("v2", [f32(x) for x in lo]).input("v3", [f32(x) for x in hi])

    def sat(x, low, high):
        if x != x:
            return 0
        return int(max(low, min(high, int(x)))) & 0xffff
    if t.gen >= 11:
        k.asm("""
            v_cvt_pk_i16_f32 v4, v2, v3
            v_cvt_pk_u16_f32 v5, v2, v3
        """)
        k.check_v("v4", [sat(x, -32768, 32767) | sat(y, -32768, 32767) << 16 for x, y in zip(lo, hi)])
        k.check_v("v5", [sat(x, 0, 65535) | sat(y, 0, 65535) << 16 for x, y in zip(lo, hi)])
    # normalising: clamped to [-1, 1] or [0, 1] and scaled; no value lands on a tie
    n16 = [0.25, -0.25, 2.0, -3.0, 0.75, float("nan"), 1.0, -1.0] * 4
    m16 = [0.125, 0.625, -0.0, 0.375, -2.0, 0.4375, 0.875, 0.0625] * 4
    k.input("v6", [f16(x) for x in n16]).input("v7", [f16(x) for x in m16])
    pk_norm = ("v_cvt_pknorm_i16_f16", "v_cvt_pknorm_u16_f16") if t.gen == 10 else \
        ("v_cvt_pk_norm_i16_f16", "v_cvt_pk_norm_u16_f16")
    k.asm(f"""
        v_mov_b32 v8, 0
        v_mov_b32 v9, 0
        v_cvt_norm_i16_f16 v8, v6
        v_cvt_norm_u16_f16 v9, v6
        v_and_b32 v8, 0xffff, v8
        v_and_b32 v9, 0xffff, v9
        {pk_norm[0]} v10, v6, v7
        {pk_norm[1]} v11, v6, v7
    """)

    def norm(x, signed):
        if x != x:
            return 0
        low, scale = (-1.0, 32767) if signed else (0.0, 65535)
        return int(round(max(low, min(1.0, x)) * scale)) & 0xffff
    k.check_v("v8", [norm(x, True) for x in n16]).check_v("v9", [norm(x, False) for x in n16])
    k.check_v("v10", [norm(x, True) | norm(y, True) << 16 for x, y in zip(n16, m16)])
    k.check_v("v11", [norm(x, False) | norm(y, False) << 16 for x, y in zip(n16, m16)])
    return k


def round_toward_zero(t):
    """V_CVT_PK_RTZ_F16_F32 (gfx10: V_CVT_PKRTZ_F16_F32): both halves rounded toward zero,
    whatever the mode; overflow to the largest finite f16, subnormals truncated too."""
    k = Kernel(t, "round_toward_zero")
    lo = [1 + 3 / 4096, -70000.0, 65519.0, 2.0 ** -20 * 1.75, -(1 + 3 / 4096), 0.1, 1e-10, 3.0]
    hi = [3.0, 1e-10, -(1 + 3 / 4096), 0.1, 65519.0, -70000.0, 2.0 ** -20 * 1.75, 1 + 3 / 4096]
    k.input("v2", [f32(x) for x in lo] * 4).input("v3", [f32(x) for x in hi] * 4)
    name = "v_cvt_pkrtz_f16_f32" if t.gen == 10 else "v_cvt_pk_rtz_f16_f32"
    k.asm(f"{name} v4, v2, v3")

    def rtz(x):
        """The f16 nearest x that is no larger in magnitude."""
        nearest = f16(x) if abs(x) < 65520 else (0x7c00 | (0x8000 if x < 0 else 0))
        if abs(from_f16(nearest)) > abs(x):
            nearest -= 1
        return nearest
    k.check_v("v4", [rtz(x) | rtz(y) << 16 for x, y in zip(lo, hi)] * 4)
    return k


def cube_map(t):
    """V_CUBEID/SC/TC/MA_F32 of a direction: the face of the major axis (z, then y, then x
    on ties), the face's coordinates and twice the major axis, as the pseudo-code picks."""
    k = Kernel(t, "cube_map")
    dirs = [(1, 2, 3), (1, -2, -3), (-4, 2, 3), (4, -2, 1), (1, 5, -2), (1, -5, 2), (3, 3, 3),
            (-3, 3, -1)] * 4
    for reg, i in (("v2", 0), ("v3", 1), ("v4", 2)):
        k.input(reg, [f32(d[i]) for d in dirs])
    k.asm("""
        v_cubeid_f32 v5, v2, v3, v4
        v_cubesc_f32 v6, v2, v3, v4
        v_cubetc_f32 v7, v2, v3, v4
        v_cubema_f32 v8, v2, v3, v4
    """)

    def faces(x, y, z):
        if abs(z) >= abs(x) and abs(z) >= abs(y):
            return (5 if z < 0 else 4), (-x if z < 0 else x), -y, 2 * z
        if abs(y) >= abs(x):
            return (3 if y < 0 else 2), x, (-z if y < 0 else z), 2 * y
        return (1 if x < 0 else 0), (z if x < 0 else -z), -y, 2 * x
    for i, reg in enumerate(("v5", "v6", "v7", "v8")):
        k.check_v(reg, [f32(faces(*d)[i]) for d in dirs])
    return k


def packed_extremes(t):
    """gfx12's V_PK_MAXIMUM_F16 / V_PK_MINIMUM_F16: V_MAXIMUM's rule on each half."""
    if t.gen < 12:
        return None
    k = Kernel(t, "packed_extremes")
    s16 = [0x7d01, 0x7e05, 0x8000, 0x0000, f16(1.0), f16(-2.0), 0xfc01, 0x7c00]
    a = [s16[l % 8] | s16[(l + 3) % 8] << 16 for l in range(32)]
    b = [s16[(l + l // 8) % 8] | s16[(l + 5) % 8] << 16 for l in range(32)]
    k.input("v2", a).input("v3", b)
    k.asm("""
        v_pk_maximum_f16 v4, v2, v3
        v_pk_minimum_f16 v5, v2, v3
    """)
    per_half = lambda x, y, m: extreme(x & 0xffff, y & 0xffff, 16, m) | extreme(x >> 16, y >> 16, 16, m) << 16
    k.check_v("v4", [per_half(x, y, True) for x, y in zip(a, b)])
    k.check_v("v5", [per_half(x, y, False) for x, y in zip(a, b)])
    return k


def fp8_value(byte, bf8):
    """OCP E4M3 (fp8: no infinity, S.1111.111 NaN) or E5M2 (bf8) as a Python float."""
    ebits, mbits = (5, 2) if bf8 else (4, 3)
    e, m, negative = byte >> mbits & ((1 << ebits) - 1), byte & ((1 << mbits) - 1), byte >> 7
    bias = (1 << (ebits - 1)) - 1
    if bf8 and e == 31:
        v = float("nan") if m else float("inf")
    elif not bf8 and e == 15 and m == 7:
        v = float("nan")
    elif e == 0:
        v = m * 2.0 ** (1 - bias - mbits)
    else:
        v = ((1 << mbits) | m) * 2.0 ** (e - bias - mbits)
    return -v if negative else v


def fp8_conversions(t):
    """gfx12's V_CVT_F32_FP8/BF8 (byte_sel: the encoding's op_sel 0, 2, 1, 3 select bytes 0 to 3), V_CVT_PK_F32_FP8/BF8
    (the low or, op_sel, the high half's two bytes) and V_DOT4_F32_FP8_BF8 and the like: S2
    plus the products of the bytes, added one after the other in f32."""
    if t.gen < 12:
        return None
    R.seed("fp8")
    k = Kernel(t, "fp8_conversions")
    src = [R.getrandbits(32) for _ in range(32)]
    src[0] = 0x7f7e0180  # fp8 NaN, fp8 448, a subnormal, -0
    src[1] = 0x7c7bfc83  # bf8 inf, 57344, -inf, a negative subnormal
    other = [R.getrandbits(32) & 0x77777777 for _ in range(32)]
    acc = [round_f32(R.uniform(-10, 10)) for _ in range(32)]
    k.input("v2", src).input("v3", other).input("v4", [f32(c) for c in acc])
    k.asm("""
        v_cvt_f32_fp8_e64 v5, v2
        v_cvt_f32_fp8_e64 v6, v2 byte_sel:2
        v_cvt_f32_bf8_e64 v7, v2 byte_sel:1
        v_cvt_f32_bf8_e64 v8, v2 byte_sel:3
        v_cvt_pk_f32_fp8_e64 v[10:11], v2 op_sel:[1,0]
        v_cvt_pk_f32_bf8 v[12:13], v2
        v_dot4_f32_fp8_bf8 v14, v3, v3, v4
        v_dot4_f32_bf8_bf8 v15, v3, v3, v4
    """)

    def as_f32(v, byte):
        if v != v:
            return (byte & 0x80) << 24 | 0x7fc00000
        return f32(v)
    conv = lambda x, byte, bf8: as_f32(fp8_value(x >> 8 * byte & 255, bf8), x >> 8 * byte & 255)
    k.check_v("v5", [conv(x, 0, False) for x in src]).check_v("v6", [conv(x, 2, False) for x in src])
    k.check_v("v7", [conv(x, 1, True) for x in src]).check_v("v8", [conv(x, 3, True) for x in src])
    k.check_v("v10", [conv(x, 2, False) for x in src]).check_v("v11", [conv(x, 3, False) for x in src])
    k.check_v("v12", [conv(x, 0, True) for x in src]).check_v("v13", [conv(x, 1, True) for x in src])

    def dot4(x, y, c, bf8_x, bf8_y):
        t = c
        for i in range(4):
            t = round_f32(t + fp8_value(x >> 8 * i & 255, bf8_x) * fp8_value(y >> 8 * i & 255, bf8_y))
        return f32(t)
    k.check_v("v14", [dot4(x, x, c, False, True) for x, c in zip(other, acc)])
    k.check_v("v15", [dot4(x, x, c, True, True) for x, c in zip(other, acc)])
    return k


def extreme(a, b, width, maximum):
    """The pseudo-code of V_MAXIMUM / V_MINIMUM on raw bits."""
    sign = 1 << (width - 1)
    quiet, inf = (0x200, 0x7c00) if width == 16 else (0x400000, 0x7f800000)
    nan_a, nan_b = (a & ~sign) > inf, (b & ~sign) > inf
    if nan_a and not a & quiet:
        return a | quiet
    if nan_b and not b & quiet:
        return b | quiet
    if nan_a:
        return a
    if nan_b:
        return b
    value = (lambda v: from_f16(v)) if width == 16 else from_f32
    x, y = value(a), value(b)
    if x == y:
        if (a & sign) == (b & sign):
            return a
        return b if bool(a & sign) == maximum else a
    return a if (x > y) == maximum else b


def maximum_minimum(t):
    if t.gen < 12:
        return None
    k = Kernel(t, "maximum_minimum")
    # two signaling NaNs, a quiet one with a payload, both zeros, numbers, infinity
    special = [0x7fa00001, 0x7fc00123, 0x80000000, 0x00000000, f32(1.0), f32(-2.0), 0xff800001,
               0x7f800000]
    a = [special[l % 8] for l in range(32)]
    b = [special[(l + l // 8) % 8] for l in range(32)]
    c = [special[(l * 5 + 1) % 8] for l in range(32)]
    k.input("v2", a).input("v3", b).input("v4", c)
    k.asm("""
        v_maximum_f32 v5, v2, v3
        v_minimum_f32 v6, v2, v3
        v_maximum3_f32 v7, v2, v3, v4
        v_minimummaximum_f32 v8, v2, v3, v4
    """)
    mx = lambda x, y, w=32: extreme(x, y, w, True)
    mn = lambda x, y, w=32: extreme(x, y, w, False)
    k.check_v("v5", [mx(x, y) for x, y in zip(a, b)]).check_v("v6", [mn(x, y) for x, y in zip(a, b)])
    k.check_v("v7", [mx(mx(x, y), z) for x, y, z in zip(a, b, c)])
    k.check_v("v8", [mx(mn(x, y), z) for x, y, z in zip(a, b, c)])
    s16 = [0x7d01, 0x7e05, 0x8000, 0x0000, f16(1.0), f16(-2.0), 0xfc01, 0x7c00]
    a16 = [s16[l % 8] for l in range(32)]
    b16 = [s16[(l + l // 8) % 8] for l in range(32)]
    k.input("v9", a16).input("v10", b16)
    k.asm("""
        v_mov_b32 v11, 0
        v_mov_b32 v12, 0
        v_maximum_f16 v11, v9, v10
        v_minimum_f16 v12, v9, v10
        v_and_b32 v11, 0xffff, v11
        v_and_b32 v12, 0xffff, v12
    """)
    k.check_v("v11", [mx(x, y, 16) for x, y in zip(a16, b16)])
    k.check_v("v12", [mn(x, y, 16) for x, y in zip(a16, b16)])
    return k


CASES = [dot2, legacy_products, packed_fmac_fixup, packing_conversions, round_toward_zero,
         cube_map, maximum_minimum, packed_extremes, fp8_conversions]
