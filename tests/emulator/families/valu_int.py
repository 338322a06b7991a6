"""VALU integer operations, per lane on inputs loaded from the buffer: carry chains
(V_ADD_CO_U32, V_ADD_CO_CI_U32, V_SUB_CO_U32, V_SUB_CO_CI_U32 with VCC or an SGPR as the lane
mask), V_MAD_U64_U32 with its carry out, V_BFE_U32/I32, V_PERM_B32, V_ALIGNBIT_B32,
V_MUL_U32_U24 and V_MUL_HI_U32_U24 (sources truncated to 24 bits), V_LSHLREV_B64 and
V_LSHRREV_B64/V_ASHRREV_I64 (shift count S0[5:0]), the 4-bit dot products V_DOT8_U32_U4,
V_DOT8_I32_IU4 (gfx11+: NEG_LO says which sources are signed) and V_DOT8_I32_I4 (gfx10.3)."""
import random

from emutest import Kernel, M32, M64, s32

R = random.Random(1234)


def words(n=32, special=()):
    return list(special) + [R.getrandbits(32) for _ in range(n - len(special))]


def carry_chains(t):
    R.seed("carry_chains")
    k = Kernel(t, "carry_chains")
    M96 = (1 << 96) - 1
    a = [M96, 0xffffffff, 0x1_00000000_ffffffff, 0] + [R.getrandbits(96) for _ in range(28)]
    b = [1, 1, 0x0_ffffffff_00000001, 0] + [R.getrandbits(96) for _ in range(28)]
    for i in range(3):
        k.input(f"v{2 + i}", [x >> (32 * i) & M32 for x in a])
        k.input(f"v{5 + i}", [x >> (32 * i) & M32 for x in b])
    k.asm("""
        v_add_co_u32 v20, vcc_lo, v2, v5
        v_add_co_ci_u32_e32 v21, vcc_lo, v3, v6, vcc_lo
        v_add_co_ci_u32_e64 v22, s10, v4, v7, vcc_lo
    """)
    s = [x + y for x, y in zip(a, b)]
    k.check_v("v20", [x & M32 for x in s]).check_v("v21", [x >> 32 & M32 for x in s])
    k.check_v("v22", [x >> 64 & M32 for x in s])
    k.check_s("s10", sum(1 << l for l in range(32) if s[l] >> 96))
    # the same chain subtracting: borrows
    k.asm("""
        v_sub_co_u32 v23, s11, v2, v5
        v_sub_co_ci_u32_e64 v24, s11, v3, v6, s11
        v_sub_co_ci_u32_e64 v25, s12, v4, v7, s11
    """)
    d = [x - y for x, y in zip(a, b)]
    k.check_v("v23", [x & M32 for x in d]).check_v("v24", [x >> 32 & M32 for x in d])
    k.check_v("v25", [x >> 64 & M32 for x in d])
    k.check_s("s12", sum(1 << l for l in range(32) if d[l] < 0))
    # subrev: S1 - S0, borrow when S0 > S1
    k.asm("v_subrev_co_u32 v26, vcc_lo, v2, v5")
    k.check_v("v26", [(y - x) & M32 for x, y in zip(a, b)])
    k.check_s("vcc_lo", sum(1 << l for l in range(32) if a[l] & M32 > b[l] & M32))
    return k


def mad_u64_u32(t):
    """{ D1.u1, D0.u64 } = 65'U(S0.u32) * 65'U(S1.u32) + 65'U(S2.u64)."""
    R.seed("mad_u64_u32")
    k = Kernel(t, "mad_u64_u32")
    a = words(special=[M32, M32, 0, 1])
    b = words(special=[M32, M32, 5, 1])
    c = [M64, 0x1_ffffffff, 7, M64] + [R.getrandbits(64) for _ in range(28)]
    k.input("v2", a).input("v3", b).input("v[4:5]", c, dwords=2)
    k.asm("v_mad_u64_u32 v[6:7], s10, v2, v3, v[4:5]")
    r = [x * y + z for x, y, z in zip(a, b, c)]
    k.check_v64("v[6:7]", [x & M64 for x in r])
    k.check_s("s10", sum(1 << l for l in range(32) if r[l] >> 64))
    # V_MAD_I64_I32: { D1.i1, D0.i64 } = 65'B(65'I(S0.i32) * 65'I(S1.i32) + 65'I(S2.i64)):
    # the signed product plus a signed 64-bit addend, D1 bit 64 of the 65-bit sum (1 when the
    # sum is negative); the addends near the ends of i64 make it differ from D0's sign
    c_signed = [(1 << 63) - 5, 1 << 63, (1 << 63) - 1, 1 << 63] + c[4:]
    a_signed = [0x7fffffff, 0x80000000, 0x7fffffff, 0x7fffffff] + a[4:]
    b_signed = [0x7fffffff, 0x7fffffff, 0x80000000, 0x00000001] + b[4:]
    k.input("v12", a_signed).input("v13", b_signed).input("v[14:15]", c_signed, dwords=2)
    k.asm("v_mad_i64_i32 v[8:9], s11, v12, v13, v[14:15]")
    t = [s32(x) * s32(y) + (z - (1 << 64) if z >> 63 else z)
         for x, y, z in zip(a_signed, b_signed, c_signed)]
    k.check_v64("v[8:9]", [x & M64 for x in t])
    k.check_s("s11", sum(1 << l for l in range(32) if t[l] >> 64 & 1))
    return k


def bitfields(t):
    """V_BFE_U32: (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1); V_BFE_I32 shifts S0 as signed
    and sign-extends from the field's top bit."""
    R.seed("bitfields")
    k = Kernel(t, "bitfields")
    fields = [(0, 8), (4, 8), (16, 16), (24, 8), (28, 8), (31, 1), (8, 0), (0, 31), (35, 5),
              (3, 33), (20, 12), (12, 20), (1, 30), (30, 2), (7, 7), (0, 1)]
    fields = fields + [(R.getrandbits(5), R.getrandbits(5)) for _ in range(32 - len(fields))]
    x = [0x80001234 if l % 2 else 0x7fed8421 for l in range(16)] + words(16)
    k.input("v2", x).input("v3", [f[0] for f in fields]).input("v4", [f[1] for f in fields])
    k.asm("""
        v_bfe_u32 v5, v2, v3, v4
        v_bfe_i32 v6, v2, v3, v4
    """)

    def bfe(x, off, width, signed):
        off, width = off & 31, width & 31
        tmp = ((s32(x) if signed else x) >> off) & ((1 << width) - 1)
        if signed and width and tmp >> (width - 1) & 1:
            tmp -= 1 << width
        return tmp & M32

    k.check_v("v5", [bfe(v, o, w, False) for v, (o, w) in zip(x, fields)])
    k.check_v("v6", [bfe(v, o, w, True) for v, (o, w) in zip(x, fields)])
    return k


def byte_permute(t):
    """V_PERM_B32 selects each byte of D from the eight bytes of { S0, S1 } by the bytes of
    S2: 0-7 a byte, 8-11 the sign of bytes 1, 3, 5, 7 spread to 0xff, 12 zero, 13+ 0xff."""
    R.seed("byte_permute")
    k = Kernel(t, "byte_permute")
    s0 = words(special=[0x8899aabb, 0x01020304])
    s1 = words(special=[0x44556677, 0x80ff7f00])
    sel = [0x00010203, 0x07060504, 0x08090a0b, 0x0c0d0eff, 0x0b0a0908, 0x0c0c0c0c] + \
          [R.getrandbits(32) & 0x0f0f0f0f for _ in range(26)]
    k.input("v2", s0).input("v3", s1).input("v4", sel)
    k.asm("v_perm_b32 v5, v2, v3, v4")

    def perm(a, b, s):
        data = a << 32 | b
        out = 0
        for i in range(4):
            x = s >> (8 * i) & 0xff
            if x >= 13:
                v = 0xff
            elif x == 12:
                v = 0
            elif x >= 8:
                v = 0xff if data >> (16 * (x - 8) + 15) & 1 else 0
            else:
                v = data >> (8 * x) & 0xff
            out |= v << (8 * i)
        return out

    k.check_v("v5", [perm(a, b, s) for a, b, s in zip(s0, s1, sel)])
    # V_ALIGNBIT_B32: ({ S0, S1 } >> S2[4:0]) & 0xffffffff
    k.asm("v_alignbit_b32 v6, v2, v3, v4")
    k.check_v("v6", [((a << 32 | b) >> (s & 31)) & M32 for a, b, s in zip(s0, s1, sel)])
    return k


def mul24(t):
    """V_MUL_U32_U24: 32'U(S0.u24) * 32'U(S1.u24), the low 32 bits; V_MUL_HI_U32_U24 the
    high 32 bits of the 48-bit product; the bits above 24 of each source are ignored."""
    R.seed("mul24")
    k = Kernel(t, "mul24")
    a = words(special=[0xff000003, 0xffffffff, 0x01000000, 0x00ffffff])
    b = words(special=[0x7f000005, 0xffffffff, 0x00000007, 0x00ffffff])
    k.input("v2", a).input("v3", b)
    k.asm("""
        v_mul_u32_u24 v4, v2, v3
        v_mul_hi_u32_u24 v5, v2, v3
        v_mul_u32_u24 v6, 0x1000003, v3
    """)
    k.check_v("v4", [((x & 0xffffff) * (y & 0xffffff)) & M32 for x, y in zip(a, b)])
    k.check_v("v5", [((x & 0xffffff) * (y & 0xffffff)) >> 32 for x, y in zip(a, b)])
    k.check_v("v6", [(3 * (y & 0xffffff)) & M32 for y in b])
    return k


def shifts64(t):
    """V_LSHLREV_B64: D0.u64 = S1.u64 << S0[5:0]; V_LSHRREV_B64, V_ASHRREV_I64 likewise."""
    R.seed("shifts64")
    k = Kernel(t, "shifts64")
    x = [0x8000_0000_0000_0001, 0xdead_beef_cafe_f00d] * 16
    n = [0, 1, 31, 32, 33, 63, 64, 65, 0x7f, 0xffffffc4] + list(range(10, 32))
    n = n[:32]
    k.input("v[2:3]", x, dwords=2).input("v4", n)
    k.asm("""
        v_lshlrev_b64 v[6:7], v4, v[2:3]
        v_lshrrev_b64 v[8:9], v4, v[2:3]
        v_ashrrev_i64 v[10:11], v4, v[2:3]
    """)
    k.check_v64("v[6:7]", [(v << (s & 63)) & M64 for v, s in zip(x, n)])
    k.check_v64("v[8:9]", [v >> (s & 63) for v, s in zip(x, n)])
    k.check_v64("v[10:11]", [((v - (1 << 64) if v >> 63 else v) >> (s & 63)) & M64
                             for v, s in zip(x, n)])
    return k


def dot8(t):
    """D = S2 + the sum of the eight products of S0's and S1's nibbles, signed or not."""
    R.seed("dot8")
    k = Kernel(t, "dot8")
    a = words(special=[M32, M32, 0x88888888, 0x77777777])
    b = words(special=[M32, 0x88888888, 0x88888888, 0x11111111])
    c = words(special=[5, 0xfffffff0, 0, 0x7fffffff])
    k.input("v2", a).input("v3", b).input("v4", c)

    def nib(x, i, signed):
        v = x >> 4 * i & 15
        return v - 16 if signed and v >= 8 else v

    def ref(x, y, z, sx, sy):
        return (s32(z) if sx or sy else z) + sum(nib(x, i, sx) * nib(y, i, sy) for i in range(8))

    k.asm("v_dot8_u32_u4 v10, v2, v3, v4")
    k.check_v("v10", [ref(x, y, z, False, False) & M32 for x, y, z in zip(a, b, c)])
    if t.gen >= 11:
        k.asm("""
            v_dot8_i32_iu4 v11, v2, v3, v4 neg_lo:[1,1,0]
            v_dot8_i32_iu4 v12, v2, v3, v4 neg_lo:[0,1,0]
        """)
        k.check_v("v11", [ref(x, y, z, True, True) & M32 for x, y, z in zip(a, b, c)])
        k.check_v("v12", [ref(x, y, z, False, True) & M32 for x, y, z in zip(a, b, c)])
    else:
        k.asm("v_dot8_i32_i4 v11, v2, v3, v4")
        k.check_v("v11", [ref(x, y, z, True, True) & M32 for x, y, z in zip(a, b, c)])
    return k


def mad16_clamp(t):
    """v_mad_u16 and v_mad_i16: S0 * S1 + S2 in 16 bits, wrapping, or with clamp saturated to
    the result's range."""
    k = Kernel(t, "mad16_clamp")
    k.asm("""
        s_movk_i32 s4, 300
        s_movk_i32 s5, 200
        s_movk_i32 s6, 0xff38
        v_mov_b32 v2, 0
        v_mov_b32 v3, 0
        v_mov_b32 v4, 0
        v_mov_b32 v5, 0
        v_mad_u16 v2, s4, s4, 5
        v_mad_u16 v3, s4, s4, 5 clamp
        v_mad_i16 v4, s5, s6, 7
        v_mad_i16 v5, s5, s6, 7 clamp
        v_and_b32 v2, 0xffff, v2
        v_and_b32 v3, 0xffff, v3
        v_and_b32 v4, 0xffff, v4
        v_and_b32 v5, 0xffff, v5
    """)
    # 300 * 300 + 5 = 90005; 200 * -200 + 7 = -39993
    k.check_v("v2", 90005 & 0xffff).check_v("v3", 0xffff)
    k.check_v("v4", -39993 & 0xffff).check_v("v5", 0x8000)
    return k


def sixteen_bit_products(t):
    """V_MAD_U32_U16 / V_MAD_I32_I16: 32'(S0.16) * 32'(S1.16) + S2.u32/i32; V_SAD_U16: S2 plus
    the absolute differences of the halves; V_SAD_HI_U8: the byte differences' sum shifted
    left 16, plus S2; V_SAT_PK_U8_I16: each signed half saturated to a byte, packed in the
    low 16 bits; V_PK_MAD_I16: per half, signed, wrapping or with clamp saturated."""
    R.seed("sixteen_bit_products")
    k = Kernel(t, "sixteen_bit_products")
    a = words(special=[0xffff_ffff, 0x1234_8000, 0x0000_7fff, 0x8001_0001])
    b = words(special=[0xffff_ffff, 0x0000_8000, 0xffff_7fff, 0x0000_ffff])
    c = words(special=[0xffff_ffff, 5, 0x8000_0000, 0])
    k.input("v2", a).input("v3", b).input("v4", c)
    k.asm("""
        v_mad_u32_u16 v5, v2, v3, v4
        v_mad_i32_i16 v6, v2, v3, v4
        v_sad_u16 v7, v2, v3, v4
        v_sad_hi_u8 v8, v2, v3, v4
        v_mov_b32 v9, 0
        v_sat_pk_u8_i16 v9, v2
        v_and_b32 v9, 0xffff, v9
        v_pk_mad_i16 v10, v2, v3, v4
        v_pk_mad_i16 v11, v2, v3, v4 clamp
    """)
    s16 = lambda x: (x & 0xffff) - 0x10000 if x & 0x8000 else x & 0xffff
    halves = lambda x: (x & 0xffff, x >> 16)
    sat8 = lambda n: 0 if n <= 0 else 255 if n >= 255 else n
    k.check_v("v5", [((x & 0xffff) * (y & 0xffff) + z) & M32 for x, y, z in zip(a, b, c)])
    k.check_v("v6", [(s16(x) * s16(y) + s32(z)) & M32 for x, y, z in zip(a, b, c)])
    k.check_v("v7", [(z + sum(abs(p - q) for p, q in zip(halves(x), halves(y)))) & M32
                     for x, y, z in zip(a, b, c)])
    k.check_v("v8", [((sum(abs((x >> 8 * i & 255) - (y >> 8 * i & 255)) for i in range(4)) << 16) + z) & M32
                     for x, y, z in zip(a, b, c)])
    k.check_v("v9", [sat8(s16(x)) | sat8(s16(x >> 16)) << 8 for x in a])

    def pk_mad(x, y, z, clamp):
        out = 0
        for h in range(2):
            r = s16(x >> 16 * h) * s16(y >> 16 * h) + s16(z >> 16 * h)
            if clamp:
                r = max(-0x8000, min(0x7fff, r))
            out |= (r & 0xffff) << 16 * h
        return out
    k.check_v("v10", [pk_mad(x, y, z, False) for x, y, z in zip(a, b, c)])
    k.check_v("v11", [pk_mad(x, y, z, True) for x, y, z in zip(a, b, c)])
    return k


def dot2_16(t):
    """gfx10's V_DOT2_I32_I16 and V_DOT2_U32_U16: S2 plus the products of the halves."""
    if t.gen != 10:
        return None
    R.seed("dot2_16")
    k = Kernel(t, "dot2_16")
    a, b, c = words(), words(), words()
    k.input("v2", a).input("v3", b).input("v4", c)
    k.asm("""
        v_dot2_i32_i16 v5, v2, v3, v4
        v_dot2_u32_u16 v6, v2, v3, v4
    """)
    s16 = lambda x: (x & 0xffff) - 0x10000 if x & 0x8000 else x & 0xffff
    k.check_v("v5", [(s16(x) * s16(y) + s16(x >> 16) * s16(y >> 16) + s32(z)) & M32
                     for x, y, z in zip(a, b, c)])
    k.check_v("v6", [((x & 0xffff) * (y & 0xffff) + (x >> 16) * (y >> 16) + z) & M32
                     for x, y, z in zip(a, b, c)])
    return k


def quad_sads(t):
    """V_QSAD_PK_U16_U8 and V_MQSAD_PK_U16_U8: for k = 0..3, the (masked: where S1's byte is
    not 0) byte differences of S0's bytes k..k+3 against S1, plus S2's half-word k, in 16
    bits; V_MQSAD_U32_U8 the same with 32-bit sums and S2's dword k."""
    R.seed("quad_sads")
    k = Kernel(t, "quad_sads")
    s0 = [R.getrandbits(64) for _ in range(32)]
    s1 = [R.getrandbits(32) & 0xff00ffff if l % 3 == 0 else R.getrandbits(32) for l in range(32)]
    s2 = [R.getrandbits(64) for _ in range(32)]
    s2w = [R.getrandbits(128) for _ in range(32)]
    k.input("v[2:3]", s0, dwords=2).input("v4", s1).input("v[6:7]", s2, dwords=2)
    k.input("v[10:13]", s2w, dwords=4)
    k.asm("""
        v_qsad_pk_u16_u8 v[14:15], v[2:3], v4, v[6:7]
        v_mqsad_pk_u16_u8 v[16:17], v[2:3], v4, v[6:7]
        v_mqsad_u32_u8 v[20:23], v[2:3], v4, v[10:13]
    """)

    def sad(window, b, add, masked):
        for i in range(4):
            x, y = window >> 8 * i & 255, b >> 8 * i & 255
            if not masked or y:
                add += abs(x - y)
        return add

    def packed(a, b, c, masked):
        return sum((sad(a >> 8 * q, b, c >> 16 * q & 0xffff, masked) & 0xffff) << 16 * q for q in range(4))
    k.check_v64("v[14:15]", [packed(a, b, c, False) for a, b, c in zip(s0, s1, s2)])
    k.check_v64("v[16:17]", [packed(a, b, c, True) for a, b, c in zip(s0, s1, s2)])
    for q in range(4):
        k.check_v(f"v{20 + q}", [sad(a >> 8 * q, b, c >> 32 * q & M32, True) & M32
                                 for a, b, c in zip(s0, s1, s2w)])
    return k


CASES = [carry_chains, mad_u64_u32, bitfields, byte_permute, mul24, shifts64, dot8, mad16_clamp,
         sixteen_bit_products, dot2_16, quad_sads]
