"""SALU bit operations, the 64-bit exec-mask forms and relative SGPR moves, from the RDNA3
pseudo-code: S_QUADMASK_B32/B64, S_WQM_B64, S_BITREPLICATE_B64_B32, S_BITSET0/1_B64,
S_CLZ_I32_U64, S_CLS_I32_I64, S_AND_SAVEEXEC_B64 and S_AND_NOT0_WREXEC_B64 (EXEC.u64),
S_MOVRELS_B32/B64, S_MOVRELD_B32/B64, S_MOVRELSD_2_B32; gfx10's S_FF0_I32_B32/B64; the
hints that do nothing here, S_ENDPGM_SAVED, and V_ILLEGAL's fault."""
from emutest import KEEP, Kernel, M32, M64


def quad_mask(x, bits):
    return sum(1 << q for q in range(bits // 4) if x >> (4 * q) & 15)


def whole_quads(x, bits):
    return sum(15 << (4 * q) for q in range(bits // 4) if x >> (4 * q) & 15)


def leading(x, bits, signed):
    """S_CLZ_I32_U64 / S_CLS_I32_I64: the first bit from the top that is 1 (or that differs
    from the sign), counted from the top; -1 when none."""
    for i in range(1 if signed else 0, bits):
        bit = x >> (bits - 1 - i) & 1
        if (bit != x >> (bits - 1) & 1) if signed else bit:
            return i
    return M32


def bits(t):
    k = Kernel(t, "bits")
    x32, x64 = 0x0f00_a001, 0x8000_0f00_0000_3010
    k.asm(f"""
        s_mov_b32 s4, {x32:#x}
        s_mov_b32 s6, {x64 & M32:#x}
        s_mov_b32 s7, {x64 >> 32:#x}
        s_quadmask_b32 s10, s4
        s_cselect_b32 s11, 1, 0
        s_quadmask_b64 s[12:13], s[6:7]
        s_wqm_b64 s[14:15], s[6:7]
        s_bitreplicate_b64_b32 s[16:17], s4
        s_mov_b64 s[18:19], -1
        s_bitset0_b64 s[18:19], 37
        s_mov_b64 s[20:21], 0
        s_bitset1_b64 s[20:21], 63
        s_quadmask_b32 s22, 0
        s_cselect_b32 s23, 1, 0
    """)
    k.check_s("s10", quad_mask(x32, 32)).check_s("s11", 1)
    k.check_s64("s[12:13]", quad_mask(x64, 64)).check_s64("s[14:15]", whole_quads(x64, 64))
    k.check_s64("s[16:17]", sum(3 << (2 * i) for i in range(32) if x32 >> i & 1))
    k.check_s64("s[18:19]", M64 & ~(1 << 37)).check_s64("s[20:21]", 1 << 63)
    k.check_s("s22", 0).check_s("s23", 0)
    values = [0x0000_0000_0000_0001, 0x0000_4000_0000_0000, 0, M64, 0xffff_ffff_7fff_ffff,
              0x0000_0000_8000_0000]
    for i, v in enumerate(values):
        k.asm(f"""
            s_mov_b32 s6, {v & M32:#x}
            s_mov_b32 s7, {v >> 32:#x}
            s_clz_i32_u64 s{30 + i}, s[6:7]
            s_cls_i32_i64 s{40 + i}, s[6:7]
        """)
    for i, v in enumerate(values):
        k.check_s(f"s{30 + i}", leading(v, 64, False)).check_s(f"s{40 + i}", leading(v, 64, True))
    if t.gen == 10:
        k.asm("""
            s_mov_b32 s4, 0x0000ffff
            s_ff0_i32_b32 s24, s4
            s_ff0_i32_b32 s25, -1
            s_mov_b64 s[6:7], -1
            s_mov_b32 s7, 0xfffffeff
            s_ff0_i32_b64 s26, s[6:7]
        """)
        k.check_s("s24", 16).check_s("s25", M32).check_s("s26", 40)
    return k


def exec64(t):
    """The _b64 exec-mask forms read and write EXEC_HI:EXEC_LO; in wave32 the lanes follow
    EXEC_LO."""
    k = Kernel(t, "exec64")
    k.asm("""
        v_mov_b32 v2, 0
        s_mov_b32 exec_hi, 0x0000ffff
        s_mov_b32 s6, 0x00ff00ff
        s_mov_b32 s7, 0xffff0001
        s_and_saveexec_b64 s[8:9], s[6:7]
        s_cselect_b32 s10, 1, 0
        v_mov_b32 v2, 1
        s_mov_b32 s11, exec_lo
        s_mov_b32 s12, exec_hi
        s_and_not0_wrexec_b64 s[14:15], s[6:7]
        s_mov_b32 s16, exec_lo
        s_mov_b32 s17, exec_hi
        s_mov_b32 exec_lo, -1
        s_mov_b32 exec_hi, 0
    """)
    k.check_s64("s[8:9]", 0x0000ffff_ffffffff).check_s("s10", 1)
    k.check_s("s11", 0x00ff00ff).check_s("s12", 0x00000001)
    k.check_v("v2", [1 if 0x00ff00ff >> l & 1 else 0 for l in range(32)])
    # ~S0 & EXEC: EXEC was 0x00000001_00ff00ff, S0 0xffff0001_00ff00ff
    k.check_s64("s[14:15]", 0).check_s("s16", 0).check_s("s17", 0)
    return k


def movrel(t):
    """S_MOVRELS_B32 reads s[src + M0], S_MOVRELD_B32 writes s[dst + M0], the _B64 forms a
    pair; S_MOVRELSD_2_B32 moves the source by M0[9:0] and the destination by M0[25:16]."""
    k = Kernel(t, "smovrel")
    k.asm("""
        s_mov_b32 s20, 100
        s_mov_b32 s21, 101
        s_mov_b32 s22, 102
        s_mov_b32 s23, 103
        s_mov_b32 m0, 2
        s_movrels_b32 s4, s20
        s_movrels_b64 s[6:7], s[20:21]
        s_mov_b32 m0, 3
        s_movreld_b32 s30, 0x55
        s_mov_b64 s[8:9], 0x77
        s_movreld_b64 s[40:41], s[8:9]
        s_mov_b32 m0, 0x00050001
        s_movrelsd_2_b32 s50, s20
    """)
    k.check_s("s4", 102).check_s("s6", 102).check_s("s7", 103).check_s("s33", 0x55)
    k.check_s("s43", 0x77).check_s("s44", 0).check_s("s55", 101)
    return k


def hints(t):
    """The hints with nothing to do on the emulator (to caches, clocks and other waves) run
    through; S_ENDPGM_SAVED ends the wave as S_ENDPGM does."""
    k = Kernel(t, "hints")
    per_generation = {10: ["s_gl1_inv", "v_clrexcp"], 11: ["s_gl1_inv", "s_wait_event 0"],
                      12: ["s_sleep_var s4", "s_wait_event 0"]}
    k.asm("\n".join(["s_mov_b32 s4, 1", "s_wakeup", "s_decperflevel 1", "s_incperflevel 1",
                      "v_nop", "v_pipeflush" if t.gen > 10 else "v_nop"] + per_generation[t.gen]
                     + ["v_mov_b32 v2, 42"]))
    k.check_v("v2", 42)
    return k


def ends(t):
    k = Kernel(t, "ends")
    k.asm("v_mov_b32 v2, 7")
    k.check_v("v2", 7)
    k.asm("s_endpgm_saved")
    # never reached: the words keep what they held
    k.check_v("v2", KEEP)
    return k


def illegal(t):
    k = Kernel(t, "illegal")
    k.asm(f"""
    .globl {k.name}_here
    {k.name}_here:
        v_illegal
    """)
    return k.expect_fault(f"{k.name}_here", "an illegal-instruction exception (v_illegal)")


CASES = [bits, exec64, movrel, hints, ends, illegal]
