"""SALU arithmetic: carries and borrows through SCC, min/max and their SCC, s_cselect,
bit-field extracts, 32- and 64-bit shifts (RDNA3/RDNA4 pseudo-code: S_ADD_U32 ... S_ASHR_I64;
gfx12 names the carry forms s_add_co_u32, s_add_co_ci_u32, s_sub_co_u32, s_sub_co_ci_u32)."""
from emutest import Kernel, M32, M64, s32


def add_carry_chain(t):
    """A 96-bit add and a 64-bit subtract as carry chains: S_ADD_U32 sets SCC to the carry
    out, S_ADDC_U32 adds it in; S_SUB_U32 sets SCC to the borrow, S_SUBB_U32 takes it."""
    k = Kernel(t, "add_carry_chain")
    a = 0x00000001_ffffffff_fffffffe
    b = 0x00000002_00000000_00000003
    k.asm(f"""
        s_mov_b32 s4, {a & M32:#x}
        s_mov_b32 s5, {a >> 32 & M32:#x}
        s_mov_b32 s6, {a >> 64:#x}
        s_mov_b32 s7, {b & M32:#x}
        s_mov_b32 s8, {b >> 32 & M32:#x}
        s_mov_b32 s9, {b >> 64:#x}
        s_add_u32 s10, s4, s7
        s_cselect_b32 s20, 1, 0
        s_addc_u32 s11, s5, s8
        s_cselect_b32 s21, 1, 0
        s_addc_u32 s12, s6, s9
        s_cselect_b32 s22, 1, 0
    """)
    total = a + b
    # carries out of each 32-bit step
    c0 = ((a & M32) + (b & M32)) >> 32
    c1 = ((a >> 32 & M32) + (b >> 32 & M32) + c0) >> 32
    c2 = ((a >> 64) + (b >> 64) + c1) >> 32
    k.check_s("s10", total & M32).check_s("s20", c0)
    k.check_s("s11", total >> 32 & M32).check_s("s21", c1)
    k.check_s("s12", total >> 64 & M32).check_s("s22", c2)
    # 64-bit subtract with a borrow out of the low half and none out of the high half
    x, y = 0x00000005_00000001, 0x00000003_00000002
    k.asm(f"""
        s_mov_b32 s4, {x & M32:#x}
        s_mov_b32 s5, {x >> 32:#x}
        s_mov_b32 s6, {y & M32:#x}
        s_mov_b32 s7, {y >> 32:#x}
        s_sub_u32 s10, s4, s6
        s_cselect_b32 s20, 1, 0
        s_subb_u32 s11, s5, s7
        s_cselect_b32 s21, 1, 0
    """)
    d = (x - y) & M64
    k.check_s("s10", d & M32).check_s("s20", 1)
    k.check_s("s11", d >> 32).check_s("s21", 0)
    # a borrow out of the top: 0 - 1
    k.asm("""
        s_mov_b32 s4, 0
        s_sub_u32 s10, s4, 1
        s_cselect_b32 s20, 1, 0
        s_subb_u32 s11, s4, 0
        s_cselect_b32 s21, 1, 0
    """)
    k.check_s("s10", M32).check_s("s20", 1).check_s("s11", M32).check_s("s21", 1)
    return k


def min_max_select(t):
    """S_MIN/S_MAX set SCC when the first operand is the one chosen (S0 < S1, S0 > S1);
    S_CSELECT picks S0 when SCC is 1."""
    k = Kernel(t, "min_max_select")
    a, b = 0xfffffff0, 0x00000010   # -16 signed, huge unsigned
    k.asm(f"""
        s_mov_b32 s4, {a:#x}
        s_mov_b32 s5, {b:#x}
        s_min_i32 s6, s4, s5
    """)
    k.check_scc(1 if s32(a) < s32(b) else 0)
    k.check_s("s6", a if s32(a) < s32(b) else b)
    k.asm("s_min_u32 s6, s4, s5")
    k.check_scc(1 if a < b else 0).check_s("s6", min(a, b))
    k.asm("s_max_i32 s6, s4, s5")
    k.check_scc(1 if s32(a) > s32(b) else 0).check_s("s6", a if s32(a) > s32(b) else b)
    k.asm("s_max_u32 s6, s4, s5")
    k.check_scc(1 if a > b else 0).check_s("s6", max(a, b))
    # equal operands: neither is strictly smaller, SCC = 0
    k.asm("s_min_u32 s6, s5, s5")
    k.check_scc(0).check_s("s6", b)
    # s_cselect on both values of SCC, from a compare
    k.asm("""
        s_cmp_lt_u32 s5, s4
        s_cselect_b32 s7, 0x1234, 57
        s_cmp_lt_u32 s4, s5
        s_cselect_b32 s8, 0x1234, 57
        s_cmp_eq_u32 s4, s4
        s_cselect_b64 s[10:11], s[4:5], 0
    """)
    k.check_s("s7", 0x1234).check_s("s8", 57).check_s64("s[10:11]", b << 32 | a)
    return k


def bfe(t):
    """S_BFE: S1[4:0] is the offset, S1[22:16] the width; the signed form sign-extends from
    the field's top bit; SCC = result != 0. S_BFE_U64/I64 use S1[5:0] as the offset."""
    k = Kernel(t, "bfe")
    x = 0x8badf00d

    def u(x, off, width, bits=32):
        return (x >> off) & ((1 << width) - 1)

    def i(x, off, width, bits=32):
        v = u(x, off, width)
        return (v - (1 << width) if width and v >> (width - 1) & 1 else v) & ((1 << bits) - 1)

    k.asm(f"s_mov_b32 s4, {x:#x}")
    for off, width in ((4, 8), (28, 4), (8, 0), (0, 32), (12, 1)):
        spec = width << 16 | off
        k.asm(f"s_bfe_u32 s5, s4, {spec:#x}")
        k.check_scc(1 if u(x, off, width) else 0).check_s("s5", u(x, off, width))
        k.asm(f"s_bfe_i32 s6, s4, {spec:#x}")
        k.check_scc(1 if i(x, off, width) else 0).check_s("s6", i(x, off, width))
    X = 0xf00d_cafe_1234_5678
    k.asm(f"""
        s_mov_b32 s8, {X & M32:#x}
        s_mov_b32 s9, {X >> 32:#x}
    """)
    for off, width in ((28, 12), (40, 24), (0, 0)):
        spec = width << 16 | off
        k.asm(f"s_bfe_u64 s[10:11], s[8:9], {spec:#x}")
        k.check_scc(1 if u(X, off, width) else 0).check_s64("s[10:11]", u(X, off, width))
        k.asm(f"s_bfe_i64 s[12:13], s[8:9], {spec:#x}")
        k.check_scc(1 if i(X, off, width, 64) else 0).check_s64("s[12:13]", i(X, off, width, 64))
    return k


def shifts(t):
    """S_LSHL/S_LSHR/S_ASHR: 32-bit forms use S1[4:0], 64-bit forms S1[5:0]; SCC = the result
    != 0."""
    k = Kernel(t, "shifts")
    x = 0x80000041
    k.asm(f"s_mov_b32 s4, {x:#x}")
    for n in (0, 1, 7, 31, 33):      # 33: only the low 5 bits count
        k.asm(f"""
            s_mov_b32 s5, {n}
            s_lshl_b32 s6, s4, s5
        """)
        r = (x << (n & 31)) & M32
        k.check_scc(1 if r else 0).check_s("s6", r)
        k.asm("s_lshr_b32 s6, s4, s5")
        r = x >> (n & 31)
        k.check_scc(1 if r else 0).check_s("s6", r)
        k.asm("s_ashr_i32 s6, s4, s5")
        r = (s32(x) >> (n & 31)) & M32
        k.check_scc(1 if r else 0).check_s("s6", r)
    # a shift to zero clears SCC
    k.asm("s_lshl_b32 s6, s4, 31")
    k.asm("s_lshl_b32 s6, s6, 1")
    k.check_scc(0).check_s("s6", 0)
    X = 0x8000_0001_4000_0003
    k.asm(f"""
        s_mov_b32 s8, {X & M32:#x}
        s_mov_b32 s9, {X >> 32:#x}
    """)
    for n in (0, 4, 32, 63, 65):     # 65: only the low 6 bits count
        k.asm(f"s_mov_b32 s5, {n}")
        k.asm("s_lshl_b64 s[10:11], s[8:9], s5")
        r = (X << (n & 63)) & M64
        k.check_scc(1 if r else 0).check_s64("s[10:11]", r)
        k.asm("s_lshr_b64 s[10:11], s[8:9], s5")
        r = X >> (n & 63)
        k.check_scc(1 if r else 0).check_s64("s[10:11]", r)
        k.asm("s_ashr_i64 s[10:11], s[8:9], s5")
        r = ((X - (1 << 64)) >> (n & 63)) & M64
        k.check_scc(1 if r else 0).check_s64("s[10:11]", r)
    return k


CASES = [add_carry_chain, min_max_select, bfe, shifts]
