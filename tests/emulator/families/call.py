"""Calls: S_GETPC_B64 gives the address of the next instruction; S_SWAPPC_B64 jumps to S0
and writes the address of its own next instruction to D0; S_SETPC_B64 jumps (the callee's
return). The callee lies after the kernel's s_endpgm; its address is getpc's plus the
assembler's label difference."""
from emutest import Kernel, M32


def call_return(t):
    k = Kernel(t, "call_return")
    k.asm("""
        v_mov_b32 v2, 5
        s_getpc_b64 s[4:5]
    .Lpc:
        s_mov_b64 s[20:21], s[4:5]
        s_add_u32 s4, s4, callee-.Lpc
        s_addc_u32 s5, s5, 0
        s_swappc_b64 s[30:31], s[4:5]
    .Lret:
        v_add_nc_u32 v2, 0x1000, v2
        s_sub_u32 s6, s30, s20
        s_cmp_eq_u32 s6, .Lret-.Lpc
        s_cselect_b32 s7, 1, 0
        s_cmp_eq_u32 s31, s21
        s_cselect_b32 s8, 1, 0
    """)
    # callee: v2 = v2 * 3 + lane, called twice: the second call through a second getpc
    k.asm("""
        s_getpc_b64 s[4:5]
    .Lpc2:
        s_add_u32 s4, s4, callee-.Lpc2
        s_addc_u32 s5, s5, 0
        s_swappc_b64 s[30:31], s[4:5]
        s_branch .Ldone
        v_mov_b32 v2, 0xbad
    .Ldone:
    """)
    k.asm("""
    callee:
        v_mul_lo_u32 v2, v2, 3
        v_add_nc_u32 v2, v2, v0
        s_setpc_b64 s[30:31]
    """, tail=True)
    first = [(5 * 3 + l + 0x1000) for l in range(32)]
    k.check_v("v2", [(f * 3 + l) & M32 for l, f in enumerate(first)])
    k.check_s("s7", 1).check_s("s8", 1)
    return k


CASES = [call_return]
