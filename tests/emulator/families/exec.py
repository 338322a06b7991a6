"""EXEC manipulation: S_AND_SAVEEXEC_B32 (D0 = old EXEC; EXEC = S0 & EXEC; SCC = EXEC != 0),
V_CMPX (EXEC = the compare, for the lanes EXEC had), vector writes of inactive lanes left
alone, S_CBRANCH_EXECZ, and the EXEC-restoring S_OR_B32."""
from emutest import Kernel, KEEP

ALL = 0xffffffff


def saveexec_cmpx(t):
    k = Kernel(t, "saveexec_cmpx")
    below20 = (1 << 20) - 1
    k.asm("""
        v_mov_b32 v5, 0x11
        v_cmp_gt_u32 vcc_lo, 20, v0
        s_and_saveexec_b32 s4, vcc_lo
    """)
    k.check_scc(1, active=below20).check_s("exec_lo", below20, active=below20).check_s("s4", ALL, active=below20)
    k.asm("v_mov_b32 v5, 0x22")
    # v_cmpx: EXEC = (5 <= lane) for the lanes active now; the others stay off
    k.asm("v_cmpx_le_u32 5, v0")
    cmpx = below20 & ~0x1f
    k.check_s("exec_lo", cmpx, active=cmpx)
    k.asm("v_add_nc_u32 v5, 0x100, v5")
    k.asm("s_or_b32 exec_lo, exec_lo, s4")
    k.check_s("exec_lo", ALL)
    k.check_v("v5", [0x122 if cmpx >> l & 1 else 0x22 if below20 >> l & 1 else 0x11
                     for l in range(32)])
    # a saveexec whose result is empty: SCC = 0, and s_cbranch_execz skips the block
    k.asm("""
        v_mov_b32 v6, 0x33
        v_cmp_gt_u32 vcc_lo, 0, v0
        s_and_saveexec_b32 s5, vcc_lo
        s_cselect_b32 s6, 1, 0
        s_cbranch_execz .Lskip
        v_mov_b32 v6, 0x44
        s_mov_b32 s6, 0x55
    .Lskip:
        s_mov_b32 exec_lo, s5
    """)
    k.check_s("s6", 0).check_v("v6", 0x33)
    # store under a partial EXEC: only the active lanes' words change
    odd = 0xaaaaaaaa
    k.asm(f"""
        s_mov_b32 s7, {odd:#x}
        s_and_saveexec_b32 s8, s7
        v_mov_b32 v7, 0x66
    """)
    k.check_v("v7", [0x66 if odd >> l & 1 else KEEP for l in range(32)])
    k.asm("s_mov_b32 exec_lo, s8")
    k.check_s("s8", ALL)
    return k


def cmp_vcc_and_sdst(t):
    """V_CMP writes its lane mask (VCC or an SGPR) with 0 for inactive lanes, and leaves EXEC
    alone; a 64-bit lane mask in wave32 has its high half cleared."""
    k = Kernel(t, "cmp_vcc_and_sdst")
    k.asm("""
        s_mov_b32 exec_lo, 0x0000ffff
        v_cmp_lt_u32 vcc_lo, 3, v0
        v_cmp_eq_u32_e64 s4, v0, 7
        s_mov_b32 exec_lo, -1
    """)
    k.check_s("vcc_lo", 0x0000fff0).check_s("s4", 0x80).check_s("exec_lo", ALL)
    return k


CASES = [saveexec_cmpx, cmp_vcc_and_sdst]
